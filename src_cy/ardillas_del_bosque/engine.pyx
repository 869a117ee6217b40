# cython: language_level=3
"""Ardillas del Bosque engine (see docs/rules/ardillas_del_bosque.md):
``ArdillasEngine``, the rules kernel (``rules.pyx``, ``ArdillasRules``) with
the game's resampler (``resample.pyx``) and its Python methods, one-line
calls into ``render.pyx`` (strings, the player view, tensors) and
``persist.pyx`` (snapshot, invariants).  The constants are in
``catalog.pxd``, the action ids in ``actions.pxd``, the view types in
``view.py``.  This module exports what callers import: the engine, the
parameters class, ``ACTION_LAYOUT`` and the name tables.
"""
cimport cython
from libcpp.vector cimport vector

from src_cy.engine cimport Engine, Rng
from src_cy.ardillas_del_bosque.actions cimport (
    MAXB, MAXH, NK, SQUIRREL, POO, A_PILE, A_TAKE, A_KEEP, A_NPLACE, A_INDEX, A_PAIR,
    A_NEST, A_BEETLE, A_SNAKE_UP, A_SNAKE_DOWN, NUM_ACTIONS)
from src_cy.ardillas_del_bosque.rules cimport ArdillasRules
from src_cy.ardillas_del_bosque cimport resample

from src_cy.ardillas_del_bosque import persist as _persist, render as _render
from src_cy.ardillas_del_bosque.render import (ANIMAL_NAMES, BOARD_NAMES, KIND_NAMES,
                                               PHASE_NAMES)
from src_cy.ardillas_del_bosque.persist import SNAP_MAGIC, SNAP_VERSION
from src_cy.ardillas_del_bosque.rules import PARAM_NAMES, ArdillasParams
from src_cy.ardillas_del_bosque.view import ArdillasView, Token

# The action layout (from ``actions.pxd``), for the Python mirror's test.
ACTION_LAYOUT = {
    "MAX_BOARDS": MAXB, "MAX_HIDING_PLACES": MAXH, "NUM_KINDS": NK,
    "SQUIRREL": SQUIRREL, "POO": POO,
    "A_PILE": A_PILE, "A_TAKE": A_TAKE, "A_KEEP": A_KEEP, "A_NPLACE": A_NPLACE,
    "A_INDEX": A_INDEX, "A_PAIR": A_PAIR, "A_NEST": A_NEST, "A_BEETLE": A_BEETLE,
    "A_SNAKE_UP": A_SNAKE_UP, "A_SNAKE_DOWN": A_SNAKE_DOWN, "NUM_ACTIONS": NUM_ACTIONS,
}


@cython.final
cdef class ArdillasEngine(ArdillasRules):
    """State and rules of one Ardillas del Bosque game (all modes):
    ``ArdillasEngine(params, game_string="")`` with ``params`` an
    ``ArdillasParams`` (shared by reference, also by clones) or the mapping
    it takes."""

    cdef void resample_history(self, int player, Rng* rng, vector[int]* out) noexcept nogil:
        # See ``resample.pyx``.
        resample.resample_history(self, player, rng, out)

    cdef Engine clone(self):
        cdef ArdillasEngine e = ArdillasEngine.__new__(ArdillasEngine)
        self.clone_into(e)
        return e

    # ================================================================ Python
    # Everything below is for adapters, tests and people; never on a hot path.

    def num_events(self) -> int:
        """Events logged so far (the log holds at most 2048; see the rules doc)."""
        return self.s.nlog

    def player_view(self, int player) -> ArdillasView:
        """What `player` knows now, as typed fields (see ``ArdillasView``)."""
        _render.check_player(self, player)
        return _render.make_view(self, player)

    def _make_view(self, int player) -> ArdillasView:
        """The view of `player`, or of the whole table with player -1 (tests)."""
        return _render.make_view(self, player)

    def action_to_string(self, int player, int action) -> str:
        """Human-readable action (chance outcomes are kinds drawn)."""
        return _render.action_to_string(self, player, action)

    def info_string(self, int player) -> str:
        """Perfect recall: everything `player` observed, in order."""
        return _render.info_string(self, player)

    def obs_string(self, int player) -> str:
        """Current view of `player`: piles, nests, own hand, phase."""
        return _render.obs_string(self, player)

    def render(self) -> str:
        """The whole board, all faces shown."""
        return _render.render(self)

    def info_tensor_size(self) -> int:
        """The observation tensor, then one slot per history step (see docs)."""
        return _render.info_tensor_size(self)

    def obs_tensor_size(self) -> int:
        return _render.obs_tensor_size(self)

    def step_code(self, int step, int player) -> int:
        """History step `step` as `player` saw it, a code in [0, 342) (see
        ``render.step_code``)."""
        return _render.step_code(self, step, player)

    def fill_info_tensor(self, int player, out) -> None:
        """Information-state tensor of `player` into float32 `out`: the
        observation tensor, then per history step the one-hot pair
        (code // 32, code % 32) of ``step_code`` (perfect recall)."""
        _render.fill_info_tensor(self, player, out)

    def fill_obs_tensor(self, int player, out) -> None:
        """Observation tensor of `player` into float32 `out`."""
        _render.fill_obs_tensor(self, player, out)

    def final_groups(self) -> list:
        """Per player: (nut groups largest first after poos, nuts left, last
        turn played) -- what the end-of-game ranking compares."""
        cdef int cnt[5]
        out = []
        for p in range(self.N):
            tot = self.group_counts(p, cnt)
            out.append(([cnt[k] for k in range(5)], tot, self.s.last_turn[p]))
        return out

    # ---- snapshot
    def dump(self) -> bytes:
        """Snapshot: magic, version (1 byte), game string (2-byte length), the
        number of actions (4 bytes) and the action history (2 bytes each)."""
        return _persist.dump(self)

    def load(self, data) -> None:
        """Restore a ``dump()`` by replaying its history, each action checked;
        refuses malformed data or another game's (ValueError, state untouched)."""
        _persist.load(self, data)

    def check_invariants(self) -> None:
        """Raise ValueError naming the broken law (token conservation etc.)."""
        _persist.check_invariants(self)

