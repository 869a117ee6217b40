"""Array-backed OpenSpiel policies: O(1) lookups with no per-state tables.

An :class:`ArrayPolicy` is a ``open_spiel.python.policy.Policy`` over flat
arrays, one *row* per information set (or abstraction bucket):

- ``row_player[r]``, ``row_offset[r]``, ``row_num[r]``: who acts there and
  where its actions sit in the flat arrays;
- ``actions[row_offset[r]:row_offset[r] + row_num[r]]`` and the matching
  ``probs``: the legal actions and their probabilities.

Rows are found by the engine's 64-bit information key (``key_player``,
``keys``, ``key_row``; several keys may share a row under an abstraction),
or by the information-state string (``strings``, optional).  A state of a
goldspiel game carries its engine, so its key costs one C call; a state of
OpenSpiel's own kuhn/leduc is replayed into the equivalent engine (or found
by string when strings are held); any other game is keyed by string only.

Information states missing from the table are answered by ``fallback``
(``"uniform"`` over the legal actions, or ``"error"``) and counted in
``misses``.  ``to_tabular()`` builds OpenSpiel's ``TabularPolicy`` (small
games only: it enumerates every state).
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pyspiel
from open_spiel.python import policy as os_policy

FALLBACKS = ("uniform", "error")
_PLAYER_MIX = 0x9E3779B97F4A7C15  # combined key = info_key + player * _PLAYER_MIX (mod 2^64)
_MASK = 0xFFFFFFFFFFFFFFFF


class PolicyMissError(ValueError):
    """The policy has no entry for an information state (fallback="error")."""


def combined_keys(keys: np.ndarray, players: np.ndarray) -> list[int]:
    """Dictionary keys ``info_key + player * mix`` (mod 2**64) of (key, player) pairs."""
    with np.errstate(over="ignore"):
        mixed = (np.asarray(keys, np.uint64)
                 + np.asarray(players, np.uint64) * np.uint64(_PLAYER_MIX))
    return mixed.tolist()


def combined_key(key: int, player: int) -> int:
    """``combined_keys`` of one (key, player) pair."""
    return (key + player * _PLAYER_MIX) & _MASK


class ArrayPolicy(os_policy.Policy):
    """A policy over flat per-row arrays (see the module docstring)."""

    def __init__(self, game: pyspiel.Game, *, row_player: np.ndarray, row_offset: np.ndarray,
                 row_num: np.ndarray, actions: np.ndarray, probs: np.ndarray,
                 keys: np.ndarray | None = None, key_player: np.ndarray | None = None,
                 key_row: np.ndarray | None = None, strings: list[str] | None = None,
                 label: Callable[[int, str], str] | None = None, fallback: str = "uniform"):
        super().__init__(game, list(range(game.num_players())))
        if fallback not in FALLBACKS:
            raise ValueError(f"fallback must be one of {FALLBACKS}, got {fallback!r}")
        n = len(row_player)
        if not (len(row_offset) == len(row_num) == n):
            raise ValueError(f"row arrays differ in length: {n}, {len(row_offset)}, {len(row_num)}")
        if len(actions) != len(probs):
            raise ValueError(f"{len(actions)} actions but {len(probs)} probabilities")
        if keys is not None:
            key_player = row_player if key_player is None else key_player
            key_row = np.arange(n) if key_row is None else key_row
            if not (len(keys) == len(key_player) == len(key_row)):
                raise ValueError("keys, key_player and key_row differ in length")
        if strings is not None and len(strings) != n:
            raise ValueError(f"{len(strings)} strings for {n} rows")
        self.game_string = str(game)
        self.row_player, self.row_offset, self.row_num = row_player, row_offset, row_num
        self.actions, self.probs = actions, probs
        self.keys, self.key_player, self.key_row = keys, key_player, key_row
        self.strings, self.label, self.fallback = strings, label, fallback
        self.misses = 0
        self.lookups = 0
        self._key_index: dict[int, int] | None = None
        self._string_index: dict[str, int] | None = None
        self._replay = None
        if keys is None and strings is None:
            raise ValueError("an ArrayPolicy needs keys or strings to find its rows")

    # ------------------------------------------------------------------
    @property
    def num_rows(self) -> int:
        return len(self.row_player)

    def key_index(self) -> dict[int, int]:
        """{combined_key(info_key, player): row}, built on first use."""
        if self._key_index is None:
            if self.keys is None:
                self._key_index = {}
            else:
                self._key_index = dict(zip(combined_keys(self.keys, self.key_player),
                                           np.asarray(self.key_row).tolist()))
        return self._key_index

    def string_index(self) -> dict[str, int]:
        """{row label (information string or bucket label): row}, built on first use."""
        if self._string_index is None:
            self._string_index = ({} if self.strings is None
                                  else {s: r for r, s in enumerate(self.strings)})
        return self._string_index

    def _engine_key(self, state: pyspiel.State, player: int) -> int | None:
        engine = getattr(state, "engine", None)
        if engine is not None and hasattr(engine, "py_info_key"):
            return int(engine.py_info_key(player))
        if self._replay is None:
            from games.spec import game_engine
            self._replay = game_engine(self.game) or False
        if self._replay is False:
            return None
        e = self._replay.py_clone()
        for a in state.history():
            e.py_apply(a)
        return int(e.py_info_key(player))

    def row_of(self, state: pyspiel.State, player: int | None = None) -> int:
        """Row of ``player``'s (default: the mover's) information state, or -1."""
        p = state.current_player() if player is None else int(player)
        if getattr(self.label, "uses_engine", False):
            key = self._engine_key(state, p) if self.keys is not None else None
            if key is not None:
                row = self.key_index().get(combined_key(key, p), -1)
                if row >= 0:
                    return row
            engine = getattr(state, "engine", None)
            if engine is None:
                raise ValueError("this policy's abstraction reads the engine; the state has none")
            return self.string_index().get(self.label(p, engine), -1)
        if self.strings is not None and (self.keys is None or
                                         getattr(state, "engine", None) is None):
            info = state.information_state_string(p)
            lab = info if self.label is None else self.label(p, info)
            row = self.string_index().get(lab, -1)
            if row >= 0 or self.keys is None:
                return row
        key = self._engine_key(state, p)
        if key is not None:
            row = self.key_index().get(combined_key(key, p), -1)
            if row >= 0:
                return row
        if self.label is not None and self.strings is not None:
            return self.string_index().get(self.label(p, state.information_state_string(p)), -1)
        return -1

    def action_probabilities(self, state: pyspiel.State,
                             player_id: int | None = None) -> dict[int, float]:
        """{action: probability} at ``state`` for ``player_id`` (default: the mover)."""
        self.lookups += 1
        row = self.row_of(state, player_id)
        if row < 0:
            self.misses += 1
            if self.fallback == "error":
                p = state.current_player() if player_id is None else player_id
                raise PolicyMissError(f"policy has no entry for player {p} at "
                                      f"{state.information_state_string(p)!r}")
            legal = state.legal_actions() if player_id is None else state.legal_actions(player_id)
            return {a: 1.0 / len(legal) for a in legal}
        o, n = int(self.row_offset[row]), int(self.row_num[row])
        return dict(zip(self.actions[o:o + n].tolist(), self.probs[o:o + n].tolist()))

    # ------------------------------------------------------------------
    def to_tabular(self, states: Any = None) -> os_policy.TabularPolicy:
        """OpenSpiel ``TabularPolicy`` (enumerates every state: small games only)."""
        tab = os_policy.TabularPolicy(self.game, states=states)
        arr = tab.action_probability_array
        for s, r in tab.state_lookup.items():
            state = tab.states[r]
            probs = self.action_probabilities(state, state.current_player())
            arr[r] = 0.0
            arr[r, list(probs)] = list(probs.values())
        return tab

    def policy_array(self, tree) -> np.ndarray:
        """Probabilities on a ``CompiledTree``'s slots (fallback where missing)."""
        if getattr(self.label, "uses_engine", False):
            raise ValueError("policy_array on a tree is not available for abstractions that "
                             "read the engine; query states with action_probabilities")
        out = np.zeros(tree.num_slots)
        use_keys = tree.infoset_keys is not None and self.keys is not None
        if use_keys:
            index = self.key_index()
            ckeys = combined_keys(tree.infoset_keys, tree.infoset_player)
        sindex = self.string_index() if self.strings is not None else {}
        for i in range(tree.num_infosets):
            p = int(tree.infoset_player[i])
            row = index.get(ckeys[i], -1) if use_keys else -1
            if row < 0 and (sindex or self.label is not None):
                s = tree.infoset_strings[i]
                row = sindex.get(s if self.label is None else self.label(p, s), -1)
            o, n = int(tree.infoset_offset[i]), int(tree.infoset_num_actions[i])
            if row < 0:
                self.misses += 1
                if self.fallback == "error":
                    raise PolicyMissError(f"policy has no entry for {tree.infoset_strings[i]!r}")
                out[o:o + n] = 1.0 / n
                continue
            ro, rn = int(self.row_offset[row]), int(self.row_num[row])
            acts = tree.infoset_actions[o:o + n]
            if rn == n and np.array_equal(self.actions[ro:ro + rn], acts):
                out[o:o + n] = self.probs[ro:ro + rn]
            else:
                got = dict(zip(self.actions[ro:ro + rn].tolist(), self.probs[ro:ro + rn].tolist()))
                if set(got) != set(acts.tolist()):
                    raise ValueError(f"infoset {tree.infoset_strings[i]!r}: policy actions "
                                     f"{sorted(got)} differ from legal {acts.tolist()}")
                out[o:o + n] = [got[a] for a in acts.tolist()]
        return out


def from_tree(game: pyspiel.Game, tree, probs: np.ndarray, fallback: str = "uniform",
              with_strings: bool = True) -> ArrayPolicy:
    """An ``ArrayPolicy`` sharing a compiled tree's arrays and ``probs`` (not copied)."""
    if len(probs) != tree.num_slots:
        raise ValueError(f"policy array has {len(probs)} entries, tree has {tree.num_slots} slots")
    return ArrayPolicy(game, row_player=tree.infoset_player, row_offset=tree.infoset_offset,
                       row_num=tree.infoset_num_actions, actions=tree.infoset_actions,
                       probs=probs, keys=tree.infoset_keys,
                       strings=tree.infoset_strings if (with_strings or tree.infoset_keys is None)
                       else None, fallback=fallback)
