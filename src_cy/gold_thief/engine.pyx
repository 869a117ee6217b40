# cython: language_level=3
"""Gold Thief engine (see docs/rules/gold_thief.md): ``GoldThiefEngine``, the
rules kernel with its resampler and the Python methods for adapters, tests
and people.

The game's modules, each compiled on its own (imports point one way):

- ``rules.pxd/.pyx``: the state struct, ``GoldThiefParams`` and
  ``GoldThiefRules``, the rules kernel (constants in ``catalog.pxi``, action
  ids in ``actions.pxd``);
- ``resample.pxd/.pyx``: the resampler over a rules state, its knobs and
  counters;
- ``render.pxd/.pyx``: strings, the player view, tensors;
- ``persist.pxd/.pyx``: snapshots and invariants;
- this module: the final engine class, whose Python methods are one-line
  calls into ``render`` and ``persist``, and the module names callers use
  (``ACTION_LAYOUT``, ``GoldThiefParams``, the resampler's knobs).
"""
cimport cython
from libcpp.vector cimport vector

from src_cy.engine cimport Engine, Rng, RESAMPLE_OK
from src_cy.gold_thief.rules cimport (
    GoldThiefRules, MAXP, NT, MAX_GOALS, THIEF, GUARD, WITCH, FAERIE, NINJA,
    A_END_TURN, A_PASS, A_THIEF, A_GUARD, A_WITCH, A_FAERIE, A_NINJA, A_GUARD_CANCEL,
    A_THIEF_RAID, A_WITCH_EXTRA, A_FAERIE_CANCEL, A_NINJA_SCORE, A_BIG_FLIP, A_GIVE,
    NUM_ACTIONS, C_CARD, C_GOAL, C_FIRST, NUM_CHANCE)
from src_cy.gold_thief.resample cimport GoldThiefResampler
from src_cy.gold_thief cimport render as _render
from src_cy.gold_thief cimport persist as _persist

from src_cy.gold_thief.rules import (  # noqa: F401  (this module's names)
    CARD_NAMES, EFFECT_NAMES, PARAM_NAMES, GoldThiefParams)
from src_cy.gold_thief.render import (  # noqa: F401
    EVENT_FLOATS, NUM_EVENT_KINDS, EVENT_PUBLIC_MAX)
from src_cy.gold_thief.resample import (  # noqa: F401
    EXACT_MAX_PLAYS, DEFAULT_MODEL_PROPOSALS, model_weight_stats, set_model_weight_check,
    set_stage2_replayed, set_record_kept, set_model_prefix_kept, resample_stats,
    set_resample_attempts, set_model_proposals, set_resample_chain, RESAMPLE_CHAIN_DEFAULT)

# The action layout (from ``actions.pxd``), for the Python mirror's test.
ACTION_LAYOUT = {
    "MAX_PLAYERS": MAXP, "NUM_CARD_TYPES": NT, "MAX_GOALS": MAX_GOALS,
    "THIEF": THIEF, "GUARD": GUARD, "WITCH": WITCH, "FAERIE": FAERIE, "NINJA": NINJA,
    "A_END_TURN": A_END_TURN, "A_PASS": A_PASS, "A_THIEF": A_THIEF, "A_GUARD": A_GUARD,
    "A_WITCH": A_WITCH, "A_FAERIE": A_FAERIE, "A_NINJA": A_NINJA,
    "A_GUARD_CANCEL": A_GUARD_CANCEL, "A_THIEF_RAID": A_THIEF_RAID,
    "A_WITCH_EXTRA": A_WITCH_EXTRA, "A_FAERIE_CANCEL": A_FAERIE_CANCEL,
    "A_NINJA_SCORE": A_NINJA_SCORE, "A_BIG_FLIP": A_BIG_FLIP, "A_GIVE": A_GIVE,
    "NUM_ACTIONS": NUM_ACTIONS, "C_CARD": C_CARD, "C_GOAL": C_GOAL, "C_FIRST": C_FIRST,
    "NUM_CHANCE_OUTCOMES": NUM_CHANCE,
}


# Resamplers of engines that were freed, kept for the next engines: a
# resampler holds only its work space (no state between draws), and a warm
# one does not grow its buffers again (``py_resample`` clones per world).
cdef list _SPARE = []
cdef int _SPARE_MAX = 16


@cython.final
cdef class GoldThiefEngine(GoldThiefRules):
    """Gold Thief for 2-5 players: ``GoldThiefEngine(params, game_string="")``
    with ``params`` the validated mapping of ``games.gold_thief`` or a
    ``GoldThiefParams`` (shared by reference, also by clones)."""
    # the resampler's work space (this engine's own: never copied)
    cdef GoldThiefResampler rs

    def __cinit__(self):
        self.rs = _SPARE.pop() if _SPARE else GoldThiefResampler()

    def __dealloc__(self):
        # (None when a garbage collection cleared it first)
        if self.rs is not None and len(_SPARE) < _SPARE_MAX:
            _SPARE.append(self.rs)

    cdef void resample_history(self, int player, Rng* rng, vector[int]* out) noexcept nogil:
        """A history drawn from `player`'s information set (``resample.pyx``;
        `self` is scratch afterwards)."""
        self.rs.draw(self, player, rng, out)

    cdef void resample_history_from(self, int player, Rng* rng, const vector[int]* prev,
                                    vector[int]* out) noexcept nogil:
        """As ``resample_history``, chained from ``prev`` where the resampler
        can (``set_resample_chain``; rules doc, "Chaining")."""
        self.rs.draw_from(self, player, rng, prev, out)

    cdef void draw_history_on(self, Engine scratch, int player, Rng* rng,
                              const vector[int]* prev, vector[int]* out) noexcept nogil:
        """``py_resample_history_from``'s draw: on the clone ``scratch`` with
        this engine's resampler, which keeps the last world it drew, so a call
        whose ``prev`` is that world continues its chain (the pyspiel
        adapter's ``resample``, ``solvers.ismcts``'s worlds), the same worlds
        as the search's own scratch engine draws."""
        self.rs.draw_from(<GoldThiefRules>scratch, player, rng, prev, out)

    cdef void resample(self, int player, Rng* rng) noexcept nogil:
        """The base contract (the world is ``resample_history`` replayed),
        without replaying twice: the accepted world was built by that replay."""
        self.rs.resample(self, player, rng)

    cdef void resample_next(self, int player, Rng* rng, const vector[int]* prev) noexcept nogil:
        """``Engine.resample_next``: the world chained from ``prev`` (the
        last world this engine's resampler drew for the same view), else a
        fresh one, without replaying twice."""
        self.resample_status = RESAMPLE_OK
        self.rs.resample_from(self, player, rng, prev)

    # ================================================================ Python
    # Everything below is for adapters, tests and people; never on a hot path.

    def action_to_string(self, int player, int action) -> str:
        """Readable name of `action` (a chance outcome when player == -1)."""
        return _render.action_to_string(self, player, action)

    def goal_str(self, int g) -> str:
        """Goal card g as printed, e.g. '[4 or 10]' (with '#g' if two cards print alike)."""
        return _render.goal_str(self, g)

    def visible_events(self, int player) -> list:
        """The events `player` observed, in order, as (kind, actor, detail, public
        detail) with detail -1 where `player` did not see it.  Strings, tensors
        and the player view are rendered from this list (and keys hash it)."""
        return _render.visible_events(self, player)

    def info_string(self, int player) -> str:
        """Everything `player` has observed, in order (perfect recall)."""
        return _render.info_string(self, player)

    def player_view(self, int player):
        """What `player` knows now, as typed fields (``src_cy.gold_thief.view.GoldThiefView``)."""
        return _render.player_view(self, player)

    def obs_string(self, int player) -> str:
        """What `player` sees now (rendered from ``player_view``)."""
        return _render.obs_string(self, player)

    def render(self) -> str:
        """The whole table, hidden cards included (for people, not players)."""
        return _render.render_table(self)

    # ---- whole-state accessors (tests and people; players read ``player_view``)
    def hand(self, int player) -> list:
        """Card types in `player`'s hand (order not meaningful)."""
        return _render.hand(self, player)

    def goals_down(self, int player) -> list:
        """`player`'s face-down goals, by id."""
        return _render.goals_down(self, player)

    def goals_up(self, int player) -> list:
        """`player`'s face-up (scored) goals, by id."""
        return _render.goals_up(self, player)

    def goal_numbers(self, int g) -> tuple:
        """The two numbers goal g scores with."""
        return (self.goal_a[g], self.goal_b[g])

    def public_view(self) -> dict:
        """Everything public: gold, counts, face-up goals, discards, deck size."""
        return _render.public_view(self)

    def gold(self) -> list:
        """Every seat's gold."""
        return [self.s.gold[q] for q in range(self.s.n)]

    def _check_player(self, int player):
        _render.check_player(self, player)

    # ---- tensors
    def obs_tensor_size(self) -> int:
        return _render.obs_tensor_size(self)

    def event_slots(self) -> int:
        """Length of the event sequence in the information-state tensor: a
        bound on the events one player can observe (see the rules doc)."""
        return _render.event_slots(self)

    def info_tensor_size(self) -> int:
        return _render.info_tensor_size(self)

    def fill_obs_tensor(self, int player, float[:] out) -> None:
        """Current view of `player`, rendered from ``player_view``."""
        _render.fill_obs_tensor(self, player, out)

    def fill_info_tensor(self, int player, float[:] out) -> None:
        """The observation tensor, then four scaled fields per event `player`
        observed (kind, actor, seen detail, public detail; rules doc)."""
        _render.fill_info_tensor(self, player, out)

    # ---- snapshot
    def dump(self) -> bytes:
        """Snapshot: format tag, game string, player count and the history."""
        return _persist.dump(self)

    def load(self, data) -> None:
        """Restore a ``dump()`` by replaying its history (each action checked);
        anything malformed raises ValueError and leaves the engine as it was."""
        _persist.load(self, data)

    def check_invariants(self) -> None:
        """Ranges, and conservation of cards, goals and gold; ValueError names
        the broken invariant."""
        _persist.check_invariants(self)
