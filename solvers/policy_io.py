"""Policy table files and solver checkpoints: versioned, checksummed, atomic.

Policy table (``save_policy`` / ``load_policy``): one JSON document ::

    {"format": "goldspiel-policy", "version": 1, "game": "<game string>",
     "meta": {...}, "infosets": [{"info": str, "player": int,
     "actions": [int...], "probs": [float...]}, ...], "sha256": "<hex>"}

``sha256`` is taken over the canonical JSON of every other field.  Loading
refuses (``PolicyFileError``) a file that is not valid JSON, has another
format or version, a bad checksum, was written for another game, or holds an
invalid distribution; nothing is returned unless the whole file checks out.

Checkpoints (``save_arrays`` / ``load_arrays``): a ``.npz`` holding named
arrays plus a JSON header with the kind, game, metadata and a SHA-256 of each
array.  Every write goes to a temporary file in the target directory which is
then renamed over the target (``os.replace``), so a crash never leaves a
half-written file behind.
"""
from __future__ import annotations

import hashlib
import io
import json
import math
import os
import tempfile
from typing import Any, Iterable, Mapping

import numpy as np

POLICY_FORMAT = "goldspiel-policy"
POLICY_VERSION = 1
ARRAYS_FORMAT = "goldspiel-arrays"
ARRAYS_VERSION = 1


class PolicyFileError(ValueError):
    """A policy or checkpoint file is corrupted, of another version or another game."""


def atomic_write(path: str | os.PathLike, data: bytes) -> None:
    """Write ``data`` to ``path`` via a temporary file and ``os.replace``."""
    path = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=directory)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def infoset_digest(strings: Iterable[str]) -> str:
    """SHA-256 identifying an ordered list of information-state strings."""
    h = hashlib.sha256()
    for s in strings:
        h.update(s.encode())
        h.update(b"\x00")
    return h.hexdigest()


def _canonical(obj: Any) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), allow_nan=False).encode()


# ----------------------------------------------------------------------
# Policy tables
# ----------------------------------------------------------------------
def save_policy(path: str | os.PathLike, game: Any, infosets: Mapping[str, tuple],
                meta: Mapping[str, Any] | None = None) -> None:
    """Write a policy table.

    ``infosets`` maps an information-state string to ``(player, actions,
    probs)``.  ``game`` is a pyspiel game (or its string).
    """
    entries = []
    for info, (player, actions, probs) in infosets.items():
        actions = [int(a) for a in actions]
        probs = [float(p) for p in probs]
        _check_distribution(info, actions, probs)
        entries.append({"info": info, "player": int(player), "actions": actions, "probs": probs})
    body = {"format": POLICY_FORMAT, "version": POLICY_VERSION, "game": str(game),
            "meta": dict(meta or {}), "infosets": entries}
    body["sha256"] = hashlib.sha256(_canonical(body)).hexdigest()
    atomic_write(path, json.dumps(body, indent=1, allow_nan=False).encode() + b"\n")


def _check_distribution(info: str, actions: list, probs: list) -> None:
    if len(actions) != len(probs) or not actions:
        raise PolicyFileError(f"infoset {info!r}: {len(actions)} actions but {len(probs)} probs")
    if len(set(actions)) != len(actions):
        raise PolicyFileError(f"infoset {info!r}: repeated action ids {actions}")
    if any(not math.isfinite(p) or p < 0 for p in probs) or abs(sum(probs) - 1.0) > 1e-6:
        raise PolicyFileError(f"infoset {info!r}: probabilities {probs} are not a distribution")


def load_policy(path: str | os.PathLike, game: Any) -> dict[str, tuple[int, list, list]]:
    """Read a policy table for ``game``: {info string: (player, actions, probs)}."""
    try:
        with open(path, "rb") as f:
            body = json.loads(f.read())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise PolicyFileError(f"cannot read policy file {path}: {exc}") from None
    if not isinstance(body, dict) or body.get("format") != POLICY_FORMAT:
        raise PolicyFileError(f"{path} is not a goldspiel policy file")
    if body.get("version") != POLICY_VERSION:
        raise PolicyFileError(f"{path}: unsupported policy file version {body.get('version')!r} "
                              f"(this library reads version {POLICY_VERSION})")
    digest = body.pop("sha256", None)
    if digest != hashlib.sha256(_canonical(body)).hexdigest():
        raise PolicyFileError(f"{path} is corrupted: checksum mismatch")
    if body.get("game") != str(game):
        raise PolicyFileError(f"{path} holds a policy for {body.get('game')!r}, not {game}")
    out: dict[str, tuple[int, list, list]] = {}
    try:
        for e in body["infosets"]:
            _check_distribution(e["info"], e["actions"], e["probs"])
            if e["info"] in out:
                raise PolicyFileError(f"{path}: infoset {e['info']!r} appears twice")
            out[e["info"]] = (int(e["player"]), list(e["actions"]), list(e["probs"]))
    except (KeyError, TypeError) as exc:
        raise PolicyFileError(f"{path}: malformed infoset entry ({exc})") from None
    return out


def policy_from_tree(tree, probs: np.ndarray) -> dict[str, tuple[int, list, list]]:
    """Table entries from a compiled tree and a flat per-slot policy array."""
    if len(probs) != tree.num_slots:
        raise ValueError(f"policy array has {len(probs)} entries, tree has {tree.num_slots} slots")
    out = {}
    for i, s in enumerate(tree.infoset_strings):
        o, n = int(tree.infoset_offset[i]), int(tree.infoset_num_actions[i])
        out[s] = (int(tree.infoset_player[i]), tree.infoset_actions[o:o + n].tolist(),
                  [float(x) for x in probs[o:o + n]])
    return out


def to_tabular_policy(game, table: Mapping[str, tuple]):
    """An OpenSpiel ``TabularPolicy`` for ``game`` filled from a table.

    Refuses a table missing any information state of the game, or one whose
    legal actions differ from the game's.
    """
    from open_spiel.python import policy as os_policy
    tab = os_policy.TabularPolicy(game)
    missing = [s for s in tab.state_lookup if s not in table]
    if missing:
        raise PolicyFileError(f"policy table lacks {len(missing)} information states of {game}, "
                              f"e.g. {missing[0]!r}")
    arr = tab.action_probability_array.copy()
    for s, row in tab.state_lookup.items():
        _, actions, probs = table[s]
        legal = np.flatnonzero(tab.legal_actions_mask[row]).tolist()
        if sorted(actions) != legal:
            raise PolicyFileError(f"infoset {s!r}: table actions {actions} != legal {legal}")
        arr[row] = 0.0
        arr[row, actions] = probs
    tab.action_probability_array[:] = arr
    return tab


# ----------------------------------------------------------------------
# Checkpoints (named arrays)
# ----------------------------------------------------------------------
def _array_digest(a: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()


def save_arrays(path: str | os.PathLike, *, kind: str, game: str,
                meta: Mapping[str, Any], arrays: Mapping[str, np.ndarray]) -> None:
    """Atomically write named arrays with a checksummed JSON header."""
    header = {"format": ARRAYS_FORMAT, "version": ARRAYS_VERSION, "kind": kind, "game": game,
              "meta": dict(meta),
              "arrays": {k: {"sha256": _array_digest(v), "dtype": str(v.dtype),
                             "shape": list(v.shape)} for k, v in arrays.items()}}
    buf = io.BytesIO()
    np.savez(buf, __header__=np.frombuffer(_canonical(header), np.uint8),
             **{k: np.ascontiguousarray(v) for k, v in arrays.items()})
    atomic_write(path, buf.getvalue())


def load_arrays(path: str | os.PathLike, *, kind: str, game: str) -> tuple[dict, dict]:
    """Read ``save_arrays`` output: (meta, arrays); verifies every checksum."""
    try:
        with np.load(path, allow_pickle=False) as z:
            data = {k: z[k] for k in z.files}
        header = json.loads(bytes(data.pop("__header__")).decode())
    except Exception as exc:  # zip, npy and JSON errors all mean "unreadable"
        raise PolicyFileError(f"cannot read checkpoint {path}: {exc}") from None
    if header.get("format") != ARRAYS_FORMAT or header.get("version") != ARRAYS_VERSION:
        raise PolicyFileError(f"{path} is not a goldspiel checkpoint of version {ARRAYS_VERSION}")
    if header.get("kind") != kind:
        raise PolicyFileError(f"{path} is a {header.get('kind')!r} file, expected {kind!r}")
    if header.get("game") != game:
        raise PolicyFileError(f"{path} is a checkpoint for {header.get('game')!r}, not {game}")
    specs = header.get("arrays", {})
    if set(specs) != set(data):
        raise PolicyFileError(f"{path} is corrupted: arrays {sorted(data)} != {sorted(specs)}")
    for k, spec in specs.items():
        if _array_digest(data[k]) != spec["sha256"]:
            raise PolicyFileError(f"{path} is corrupted: checksum mismatch in array {k!r}")
    return header["meta"], data
