"""Policy table files and solver checkpoints: versioned, checksummed, atomic.

Policy table (``save_policy`` / ``load_policy``): one JSON document ::

    {"format": "goldspiel-policy", "version": 2, "game": "<game string>",
     "num_distinct_actions": int, "meta": {...}, "infosets": [{"info": str, "player": int,
     "actions": [int...], "probs": [float...]}, ...], "sha256": "<hex>"}

``sha256`` is taken over the canonical JSON of every other field.  Loading
refuses (``PolicyFileError``) a file that is not valid JSON, has another
format or version, a bad checksum, was written for another game or another
action-id layout (``num_distinct_actions``), or holds an invalid
distribution; nothing is returned unless the whole file checks out.
Version 2 (policy tables, array policies and checkpoints) records
``num_distinct_actions``; version 1 files are refused because Saboteur's
action ids changed with it.

Array policy files (``save_array_policy`` / ``load_array_policy``): a
``.npz`` for :class:`solvers.policy_arrays.ArrayPolicy`, described in
``docs/solvers_cfr.md`` ("Policy files"); ``load_policy_file`` reads either
format into an ``ArrayPolicy``.

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
POLICY_VERSION = 2
ARRAY_POLICY_FORMAT = "goldspiel-array-policy"
ARRAY_POLICY_VERSION = 2
ARRAYS_FORMAT = "goldspiel-arrays"
ARRAYS_VERSION = 2


class PolicyFileError(ValueError):
    """A policy or checkpoint file is corrupted, of another version or another game."""


def atomic_write(path: str | os.PathLike, data: bytes) -> None:
    """Write ``data`` to ``path`` via a temporary file and ``os.replace``."""
    path = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=directory)
    try:
        os.fchmod(fd, 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def num_distinct_actions(game: Any) -> int:
    """``game``'s number of distinct actions (a pyspiel game or its string)."""
    if not hasattr(game, "num_distinct_actions"):
        import pyspiel
        game = pyspiel.load_game(str(game))
    return int(game.num_distinct_actions())


def _check_action_layout(path, recorded: Any, game: Any) -> None:
    """Refuse a file whose action ids were written for another layout."""
    if recorded != num_distinct_actions(game):
        raise PolicyFileError(f"{path} was written for {recorded!r} distinct actions, but {game} "
                              f"has {num_distinct_actions(game)} (another action-id layout); "
                              "re-solve")


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
            "num_distinct_actions": num_distinct_actions(game),
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
    _check_action_layout(path, body.get("num_distinct_actions"), game)
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
              "num_distinct_actions": num_distinct_actions(game), "meta": dict(meta),
              "arrays": {k: {"sha256": _array_digest(v), "dtype": str(v.dtype),
                             "shape": list(v.shape)} for k, v in arrays.items()}}
    atomic_write(path, npz_bytes({"__header__": np.frombuffer(_canonical(header), np.uint8),
                                  **arrays}))


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
    _check_action_layout(path, header.get("num_distinct_actions"), game)
    specs = header.get("arrays", {})
    if set(specs) != set(data):
        raise PolicyFileError(f"{path} is corrupted: arrays {sorted(data)} != {sorted(specs)}")
    for k, spec in specs.items():
        if _array_digest(data[k]) != spec["sha256"]:
            raise PolicyFileError(f"{path} is corrupted: checksum mismatch in array {k!r}")
    return header["meta"], data


# ----------------------------------------------------------------------
# Array policy files (.npz)
# ----------------------------------------------------------------------
_FINGERPRINT_EPISODES = 6


def engine_fingerprint(game) -> str | None:
    """SHA-256 of the information keys met in a few fixed-seed random games.

    Ties a key-indexed policy file to the engine's information model: a file
    written before the engine changed its keys is refused, not misread.
    ``None`` for games with no goldspiel engine.
    """
    from games.spec import game_engine
    proto = game_engine(game)
    if proto is None:
        return None
    h = hashlib.sha256()
    for episode in range(_FINGERPRINT_EPISODES):
        e, x = proto.py_clone(), 0x9E3779B97F4A7C15 * (episode + 1)
        while not e.py_is_terminal():
            x = (x * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
            cur = e.py_current_player()
            if cur < 0:
                options = [a for a, _ in e.py_chance_outcomes()]
            else:
                options = e.py_legal_actions()
                h.update(int(e.py_info_key(cur)).to_bytes(8, "little"))
            e.py_apply(options[(x >> 33) % len(options)])
    return h.hexdigest()


def npz_bytes(arrays: Mapping[str, np.ndarray]) -> bytes:
    """An ``.npz`` (readable by ``np.load``) whose bytes depend only on the arrays.

    ``np.savez`` stamps each member with the current time; this writes fixed
    timestamps, so the same arrays always give the same file.
    """
    import zipfile
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_STORED, allowZip64=True) as zf:
        for name, a in arrays.items():
            info = zipfile.ZipInfo(name + ".npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            with zf.open(info, "w", force_zip64=True) as f:
                np.lib.format.write_array(f, np.ascontiguousarray(a), allow_pickle=False)
    return buf.getvalue()


def _digest_arrays(arrays: Mapping[str, np.ndarray]) -> str:
    h = hashlib.sha256()
    for name in sorted(arrays):
        a = np.ascontiguousarray(arrays[name])
        h.update(f"{name}:{a.dtype.str}:{a.shape}".encode())
        h.update(a.tobytes())
    return h.hexdigest()


def _small_int(a: np.ndarray, limit: int) -> np.ndarray:
    for dt in (np.int8, np.int16, np.int32):
        if limit <= np.iinfo(dt).max:
            return np.ascontiguousarray(a, dtype=dt)
    return np.ascontiguousarray(a, dtype=np.int64)


def save_array_policy(path: str | os.PathLike, policy, *, solver: str, iterations: int,
                      seed: int | None = None, meta: Mapping[str, Any] | None = None,
                      strings_file: bool = False) -> None:
    """Write an ``ArrayPolicy`` as a versioned, checksummed ``.npz`` (atomically).

    Key-indexed policies store the engine's information keys (and an engine
    fingerprint); string-indexed ones store their strings.  With
    ``strings_file`` the information strings of a key-indexed policy also go
    to ``<path>.strings.json`` (for people; loading never needs them).
    An ``AbstractedPolicy`` (a table over an action abstraction) is saved as
    its label-indexed table with the abstractions' registered names in
    ``meta`` (``abstraction``, ``action_abstraction``), which loading uses to
    rebuild it.
    """
    from solvers.abstractions import AbstractedPolicy
    if isinstance(policy, AbstractedPolicy):
        name = policy.action_abstraction.name
        if not name:
            raise ValueError("an abstracted policy needs a registered action abstraction "
                             "(with a name) to be saved")
        if policy.abstraction is not None and policy.abstraction_name is None:
            raise ValueError("an abstracted policy needs its information abstraction by "
                             "registered name to be saved")
        meta = {**dict(meta or {}), "action_abstraction": name}
        if policy.abstraction_name is not None:
            meta["abstraction"] = policy.abstraction_name
        policy = policy.table
    rows = len(policy.row_player)
    num = np.asarray(policy.row_num, np.int64)
    off = np.asarray(policy.row_offset, np.int64)
    if rows and not np.array_equal(off, np.concatenate([[0], np.cumsum(num)[:-1]])):
        idx = np.concatenate([np.arange(o, o + n) for o, n in zip(off.tolist(), num.tolist())])
    else:
        idx = slice(0, int(num.sum()))
    actions = np.asarray(policy.actions)[idx]
    probs = np.asarray(policy.probs, np.float64)[idx]
    row_id = np.repeat(np.arange(rows), num)
    order = np.lexsort((actions, row_id))  # the format keeps each row's actions sorted
    actions, probs = actions[order], probs[order]
    arrays = {"row_player": _small_int(policy.row_player, 127),
              "row_num": _small_int(num, int(num.max(initial=0))),
              "actions": _small_int(actions, int(actions.max(initial=0))),
              "probs": np.ascontiguousarray(probs)}
    key_kind = "engine" if policy.keys is not None else "string"
    if policy.keys is not None:
        arrays["keys"] = np.ascontiguousarray(policy.keys, dtype=np.uint64)
        arrays["key_player"] = _small_int(policy.key_player, 127)
        key_row = np.asarray(policy.key_row)
        if not np.array_equal(key_row, np.arange(len(key_row))) or len(key_row) != rows:
            arrays["key_row"] = np.ascontiguousarray(key_row, dtype=np.int32)
    if policy.keys is None or policy.label is not None:
        if policy.strings is None:
            raise ValueError("a string-indexed policy needs its strings to be saved")
        arrays["strings"] = np.frombuffer("\0".join(policy.strings).encode(), np.uint8)
    header = {"format": ARRAY_POLICY_FORMAT, "version": ARRAY_POLICY_VERSION,
              "game": policy.game_string,
              "num_distinct_actions": num_distinct_actions(policy.game),
              "solver": str(solver), "iterations": int(iterations),
              "seed": None if seed is None else int(seed), "key_kind": key_kind,
              "engine_fingerprint": (engine_fingerprint(policy.game) if key_kind == "engine"
                                     else None),
              "rows": rows, "meta": dict(meta or {}), "digest": _digest_arrays(arrays)}
    atomic_write(path, npz_bytes({"__header__": np.frombuffer(_canonical(header), np.uint8),
                                  **arrays}))
    if strings_file:
        if policy.strings is None:
            raise ValueError("strings_file=True but the policy holds no strings")
        side = {"format": ARRAY_POLICY_FORMAT + "-strings", "policy_digest": header["digest"],
                "strings": list(policy.strings)}
        atomic_write(os.fspath(path) + ".strings.json", _canonical(side))


def read_array_policy_header(path: str | os.PathLike) -> dict:
    """The JSON header of an array policy file (game, solver, iterations, seed...)."""
    return _read_npz(path)[0]


def _read_npz(path) -> tuple[dict, dict]:
    try:
        with np.load(path, allow_pickle=False) as z:
            data = {k: z[k] for k in z.files}
        header = json.loads(bytes(data.pop("__header__")).decode())
    except Exception as exc:  # zip, npy and JSON errors all mean "unreadable"
        raise PolicyFileError(f"cannot read policy file {path}: {exc}") from None
    if not isinstance(header, dict) or header.get("format") != ARRAY_POLICY_FORMAT:
        raise PolicyFileError(f"{path} is not a goldspiel array policy file")
    if header.get("version") != ARRAY_POLICY_VERSION:
        raise PolicyFileError(f"{path}: unsupported array policy version "
                              f"{header.get('version')!r} (this library reads "
                              f"{ARRAY_POLICY_VERSION})")
    return header, data


def load_array_policy(path: str | os.PathLike, game, fallback: str = "uniform",
                      label: Any = None):
    """Read ``save_array_policy`` output for ``game`` as an ``ArrayPolicy``.

    Refuses (``PolicyFileError``) a file that is unreadable, of another format
    or version, corrupted (digest), for another game or another engine
    version (fingerprint), or whose arrays are inconsistent or not
    distributions.  Nothing is returned unless the whole file checks out.
    ``label(player, info_string)`` is the abstraction of an abstracted
    policy (its rows are bucket labels); a file whose meta names an
    abstraction of the game (its spec's, or a registered one:
    ``solvers.abstractions.get_abstraction``) gets it automatically, and one
    naming an action abstraction is returned as an ``AbstractedPolicy``.
    """
    header, data = _read_npz(path)
    name = (header.get("meta") or {}).get("abstraction")
    action_name = (header.get("meta") or {}).get("action_abstraction")
    if action_name is not None:
        return _load_abstracted(path, game, fallback, header, data, name, action_name)
    if label is None and name is not None:
        from solvers.abstractions import Labeler, get_abstraction
        try:
            label = Labeler(get_abstraction(name, game))
        except ValueError as exc:
            raise PolicyFileError(f"{path}: {exc}") from None
    return _checked_array_policy(path, game, fallback, label, header, data)


def _checked_array_policy(path, game, fallback: str, label: Any, header: dict, data: dict):
    """The ``ArrayPolicy`` of a read file, after every check of ``load_array_policy``."""
    from solvers.policy_arrays import ArrayPolicy
    if header.get("game") != str(game):
        raise PolicyFileError(f"{path} holds a policy for {header.get('game')!r}, not {game}")
    _check_action_layout(path, header.get("num_distinct_actions"), game)
    if header.get("digest") != _digest_arrays(data):
        raise PolicyFileError(f"{path} is corrupted: digest mismatch")
    kind = header.get("key_kind")
    if kind not in ("engine", "string"):
        raise PolicyFileError(f"{path}: unknown key kind {kind!r}")
    if kind == "engine" and header.get("engine_fingerprint") != engine_fingerprint(game):
        raise PolicyFileError(f"{path} was written with another version of the {game} engine "
                              "(information keys differ); re-solve or use its strings file")
    need = {"row_player", "row_num", "actions", "probs"} | (
        {"keys", "key_player"} if kind == "engine" else {"strings"})
    if not need <= set(data):
        raise PolicyFileError(f"{path}: missing arrays {sorted(need - set(data))}")
    rp, rn = data["row_player"].astype(np.int32), data["row_num"].astype(np.int64)
    actions, probs = data["actions"].astype(np.int32), data["probs"]
    rows = len(rp)
    if header.get("rows") != rows or len(rn) != rows:
        raise PolicyFileError(f"{path}: row arrays disagree with the header's {header.get('rows')}")
    if (rn < 1).any() or int(rn.sum()) != len(actions) or len(actions) != len(probs):
        raise PolicyFileError(f"{path}: action counts do not match the action arrays")
    if ((rp < 0) | (rp >= game.num_players())).any():
        raise PolicyFileError(f"{path}: player ids outside 0..{game.num_players() - 1}")
    if probs.dtype != np.float64 or not np.isfinite(probs).all() or (probs < 0).any():
        raise PolicyFileError(f"{path}: probabilities are not finite non-negative floats")
    off = np.zeros(rows, np.int64)
    if rows:
        off[1:] = np.cumsum(rn)[:-1]
        sums = np.add.reduceat(probs, off)
        bad = np.flatnonzero(np.abs(sums - 1.0) > 1e-6)
        if len(bad):
            raise PolicyFileError(f"{path}: row {int(bad[0])} sums to {sums[bad[0]]}, "
                                  "not a distribution")
        same_row = np.ones(len(actions) - 1, bool)
        same_row[off[1:] - 1] = False
        if (actions < 0).any() or (np.diff(actions)[same_row] <= 0).any():
            raise PolicyFileError(f"{path}: action ids within a row are negative or not "
                                  "strictly increasing")
    strings = None
    if "strings" in data:
        strings = bytes(data["strings"]).decode().split("\0") if rows else []
        if len(strings) != rows:
            raise PolicyFileError(f"{path}: {len(strings)} strings for {rows} rows")
    keys = key_player = key_row = None
    if kind == "engine":
        keys = data["keys"].astype(np.uint64)
        key_player = data["key_player"].astype(np.int32)
        key_row = data["key_row"].astype(np.int64) if "key_row" in data else np.arange(rows)
        if not (len(keys) == len(key_player) == len(key_row)):
            raise PolicyFileError(f"{path}: key arrays differ in length")
        if len(key_row) and (key_row.min() < 0 or key_row.max() >= rows):
            raise PolicyFileError(f"{path}: key rows outside 0..{rows - 1}")
        if not np.array_equal(key_player, rp[key_row]):
            raise PolicyFileError(f"{path}: key players disagree with their rows")
    try:
        pol = ArrayPolicy(game, row_player=rp, row_offset=off, row_num=rn, actions=actions,
                          probs=probs, keys=keys, key_player=key_player, key_row=key_row,
                          strings=strings, label=label, fallback=fallback)
        if keys is not None and len(pol.key_index()) != len(keys):
            raise PolicyFileError(f"{path}: repeated information keys")
    except PolicyFileError:
        raise
    except ValueError as exc:
        raise PolicyFileError(f"{path}: {exc}") from None
    pol.header = header
    return pol


def _load_abstracted(path, game, fallback: str, header: dict, data: dict, name: str | None,
                     action_name: str):
    """An ``AbstractedPolicy`` from a file whose meta names an action abstraction."""
    from solvers.abstractions import AbstractedPolicy, get_abstraction, get_action_abstraction
    if header.get("key_kind") != "string":
        raise PolicyFileError(f"{path}: a table over an action abstraction must be "
                              "indexed by row labels (key_kind 'string')")
    table = _checked_array_policy(path, game, "error" if fallback == "error" else "uniform",
                                  None, header, data)
    try:
        action_abstraction = get_action_abstraction(action_name, game)
        abstraction = get_abstraction(name, game) if name is not None else None
    except ValueError as exc:
        raise PolicyFileError(f"{path}: {exc}") from None
    n_abstract = len(action_abstraction.action_names)
    if len(table.actions) and int(table.actions.max()) >= n_abstract:
        raise PolicyFileError(f"{path}: abstract action ids beyond the {n_abstract} of "
                              f"{action_name!r}")
    return AbstractedPolicy(table, action_abstraction, abstraction=abstraction,
                            abstraction_name=name, fallback=fallback)


def load_policy_file(path: str | os.PathLike, game, fallback: str = "uniform",
                     label: Any = None):
    """An ``ArrayPolicy`` from an array file (``.npz``) or a JSON policy table."""
    from solvers.policy_arrays import ArrayPolicy
    try:
        with open(path, "rb") as f:
            magic = f.read(2)
    except OSError as exc:
        raise PolicyFileError(f"cannot read policy file {path}: {exc}") from None
    if magic == b"PK":
        return load_array_policy(path, game, fallback=fallback, label=label)
    table = load_policy(path, game)
    strings = list(table)
    nums = np.asarray([len(table[s][1]) for s in strings], np.int64)
    off = np.zeros(len(nums), np.int64)
    if len(nums):
        off[1:] = np.cumsum(nums)[:-1]
    return ArrayPolicy(
        game, row_player=np.asarray([table[s][0] for s in strings], np.int32), row_offset=off,
        row_num=nums, actions=np.asarray([a for s in strings for a in table[s][1]], np.int32),
        probs=np.asarray([p for s in strings for p in table[s][2]], np.float64),
        strings=strings, fallback=fallback)
