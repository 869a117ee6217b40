# cython: language_level=3
"""Saboteur (AMIGO 2004) engine: ``SaboteurEngine``, the rules kernel with
the resampler, and every Python method people and the adapter call.

The game lives in separately compiled modules of ``src_cy/saboteur/``, each
testable alone and importing only the ones before it:

- ``rules.pxd``/``rules.pyx``: sizes, the state struct, the parameters
  (``SabParams``) and the rules kernel (``SaboteurRules``: legal actions,
  apply, chance, returns, information keys, clones, quiet mode);
- ``resample.pxd``/``resample.pyx``: the resampler over a kernel state
  (``sab_resample_history``) and its knobs (``set_resample_proposals``,
  ``resample_failures``);
- ``render.pyx``: action names, strings, the player view, tensors;
- ``persist.pyx``: snapshots and ``check_invariants``;
- this module: ``SaboteurEngine(SaboteurRules)``, final, whose
  ``resample_history`` calls the resampler and whose Python methods are
  one-line calls into ``render`` and ``persist``.  It re-exports the names
  callers import from here (parameters, tables, the resampler's knobs).

``catalog.pxi`` holds the card tables and ``actions.pxd`` the action layout
(the ``A_*`` ids, mirrored in ``games/saboteur/__init__.py``).  See
``docs/rules/saboteur.md`` for the rules as implemented and the action
encoding.
"""
cimport cython
from libcpp.vector cimport vector

from src_cy.engine cimport Engine, Rng
from src_cy.saboteur.rules cimport SaboteurRules
from src_cy.saboteur.resample cimport sab_resample_history

from src_cy.saboteur import persist as _persist, render as _render
from src_cy.saboteur.persist import SNAPSHOT_MAGIC, SNAPSHOT_VERSION
from src_cy.saboteur.render import (EVENT_NAMES, GOAL_NAMES, KIND_NAMES, PHASE_NAMES,
                                    ROLE_NAMES, TOOL_NAMES)
from src_cy.saboteur.resample import (DEFAULT_RESAMPLE_PROPOSALS, _public_legal_count, _world_paths,
                                      _raise_if_resample_failed, resample_failures,
                                      set_resample_proposals)
from src_cy.saboteur.rules import (ACTION_LAYOUT, GOLD_HANDOUTS, PARAM_NAMES, UTILITIES,
                                   SabParams, base_counts, scaled_counts)


@cython.final
cdef class SaboteurEngine(SaboteurRules):
    """Saboteur for 3-10 players; see the module docstring."""

    cdef void resample_history(self, int player, Rng* rng, vector[int]* out) noexcept nogil:
        """A history drawn from ``player``'s information set by the procedure
        of the rules doc (section Information, "Resampling"):
        ``src_cy.saboteur.resample``, with ``self`` as scratch (left at the
        drawn history).  A failed draw (a bug) leaves ``out`` empty, never
        the true history; the Python entry points raise RuntimeError."""
        sab_resample_history(self, player, rng, out)

    cdef void resample(self, int player, Rng* rng) noexcept nogil:
        """``resample_history`` then replay, skipping the replay when the
        scratch world already is that history (the usual case)."""
        cdef vector[int] h
        sab_resample_history(self, player, rng, &h)
        if not (h == self.hist):
            self.replay(h.data(), <int>h.size())

    cdef Engine clone(self):
        """``SaboteurRules.clone`` without its look-up of the class."""
        cdef SaboteurEngine e = SaboteurEngine.__new__(SaboteurEngine)
        e.copy_from(self)
        return e

    def py_resample_history(self, int player, seed, deadline=None,
                            bint cpu=True) -> list:
        """A history drawn from `player`'s information set; RuntimeError if
        the draw failed (a bug: the procedure is exact by construction).
        ``deadline``: as ``Engine.py_resample_history`` (this resampler's
        cost is bounded, so it never stops at it)."""
        h = Engine.py_resample_history(self, player, seed, deadline, cpu)
        _raise_if_resample_failed(player)
        return h

    def py_resample(self, int player, seed, deadline=None, bint cpu=True) -> "Engine":
        """A copy of this world with everything hidden from `player` re-dealt;
        RuntimeError if the draw failed (a bug)."""
        e = Engine.py_resample(self, player, seed, deadline, cpu)
        _raise_if_resample_failed(player)
        return e

    def state_view(self) -> dict:
        """Full (god's-eye) state as plain Python data, for tests and tools
        only; bots and features read ``player_view``."""
        return _render.state_view(self)

    def action_to_string(self, int player, int action) -> str:
        """Human-readable action (chance outcomes read in the current phase)."""
        return _render.action_to_string(self, player, action)

    def info_string(self, int player) -> str:
        """Everything ``player`` has observed, in order (perfect recall)."""
        return _render.info_string(self, player)

    def event_log(self, int player) -> list:
        """``player``'s record as typed ``(kind, actor, a, b, c, private)``
        tuples, the events the information-state string renders (for bots
        and beliefs, which must not parse strings)."""
        return _render.event_log(self, player)

    def player_view(self, int player):
        """What ``player`` knows now, a ``src_cy.saboteur.view.SaboteurView``
        (see the rules doc, "Player view").  Every field is public or
        ``player``'s own."""
        return _render.player_view(self, player)

    def obs_string(self, int player) -> str:
        """The current view of ``player`` (rendered from ``player_view``)."""
        return _render.obs_string(self, player)

    def render(self) -> str:
        """The maze in ASCII plus the whole hidden state (for people and tests)."""
        return _render.render(self)

    # ------------------------------------------------------------------
    # tensors (bodies in render.pyx)
    # ------------------------------------------------------------------
    def obs_tensor_size(self) -> int:
        """Tunnel-card slots, goal places and knowledge, tools, hand, roles,
        turn, counts, gold (rules doc, "Information")."""
        return _render.obs_tensor_size(self)

    def max_events(self) -> int:
        """Bound on logged events: per round ``n`` roles, the goals, every card
        drawn and played once, 3 reveals, the round end and at most ``3n``
        gold events (draws, hand-outs, passes; or saboteur payments)."""
        return _render.max_events(self)

    def event_size(self) -> int:
        """Floats per event record in the information-state tensor (8)."""
        return _render.event_size(self)

    def info_tensor_size(self) -> int:
        """Observation, this round's public summary, then the event sequence."""
        return _render.info_tensor_size(self)

    def fill_obs_tensor(self, int player, float[:] out) -> None:
        """Write the observation tensor of ``player`` into ``out``."""
        return _render.fill_obs_tensor(self, player, out)

    def fill_info_tensor(self, int player, float[:] out) -> None:
        """Write the information-state tensor of ``player`` into ``out``."""
        return _render.fill_info_tensor(self, player, out)

    # ------------------------------------------------------------------
    # snapshot and invariants (bodies in persist.pyx)
    # ------------------------------------------------------------------
    def dump(self) -> bytes:
        """Versioned snapshot: the game string and the action history."""
        return _persist.dump(self)

    def load(self, data) -> None:
        """Restore a ``dump`` snapshot by replaying its history, every action
        checked; ValueError (state unchanged) on anything malformed."""
        return _persist.load(self, data)

    def check_invariants(self) -> None:
        """Raise ValueError naming the broken conservation law."""
        return _persist.check_invariants(self)
