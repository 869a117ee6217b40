# cython: language_level=3
"""Gold Nugget engine (see ``docs/rules/gold_nugget.md``): ``GoldNuggetEngine``,
the final class over the rules kernel, with the resampler and the Python API.

The game is split by concern into separately compiled modules of this
folder: ``rules.pyx`` (``rules.pxd``: the state, the parameters and the
rules kernel ``GoldNuggetRules``), ``resample.pyx`` (the resampler, its
knobs and counters), ``render.pyx`` (names, strings, the player view,
tensors) and ``persist.pyx`` (snapshot, invariants); the tables are
``catalog.pxi`` / ``catalog.pxd``, the action ids ``actions.pxd``.  This
module keeps the engine's public names: everything those modules export
that callers use is re-exported here.
"""
cimport cython
from libcpp.vector cimport vector
from src_cy.engine cimport Engine, Rng, RESAMPLE_OK
from src_cy.gold_nugget.actions cimport (
    MAXP, MAXS, NLEAF, NWIND, NCARD, NANIMAL,
    C_BEG, C_CHANCE, C_NHF, C_SUSP, C_GOLD, C_LOYAL, C_TRIBUTE, C_DOIHAVE, C_PEEK, C_GLANCE,
    C_SHOUT, C_PLUCK, C_SLEIGHT, C_PREEN, C_NESTDIVE, C_ACCUSE,
    W_STALKING, W_CALM, W_GUST, W_WHIRL, W_ECLIPSE, E_RECYCLE, E_VICTORY, E_MOLE, E_GUST,
    A_RACCOON, A_RABBIT, A_FOX, A_SQUIRREL, A_SNAKE, A_BEAR, A_BAT, A_OWL, A_HEDGEHOG,
    A_MAGPIE, A_MOLE, A_BADGER,
    A_PASS, A_SLEEP, A_MEDDLE, A_OPT0, A_OPT1, A_ABILITY, A_VICTORY, A_FEATHER, A_PLAY,
    A_RECYCLE, A_DISCARD, A_PLAYER, A_NEST, A_STONE, NUM_ACTIONS, MAX_CHANCE)

# The action layout (from ``actions.pxd``), for the Python mirrors' test.
ACTION_LAYOUT = {
    "MAX_PLAYERS": MAXP, "MAX_STONES": MAXS, "NUM_LEAF": NLEAF, "NUM_WIND": NWIND,
    "A_PASS": A_PASS, "A_SLEEP": A_SLEEP, "A_MEDDLE": A_MEDDLE, "A_OPT0": A_OPT0,
    "A_OPT1": A_OPT1, "A_ABILITY": A_ABILITY, "A_VICTORY": A_VICTORY,
    "A_FEATHER": A_FEATHER, "A_PLAY": A_PLAY, "A_RECYCLE": A_RECYCLE,
    "A_DISCARD": A_DISCARD, "A_PLAYER": A_PLAYER, "A_NEST": A_NEST, "A_STONE": A_STONE,
    "NUM_DISTINCT_ACTIONS": NUM_ACTIONS, "MAX_CHANCE_OUTCOMES": MAX_CHANCE,
    "LEAF_CARDS": (C_BEG, C_CHANCE, C_NHF, C_SUSP, C_GOLD, C_LOYAL, C_TRIBUTE, C_DOIHAVE,
                   C_PEEK, C_GLANCE, C_SHOUT, C_PLUCK, C_SLEIGHT, C_PREEN, C_NESTDIVE,
                   C_ACCUSE),
}
NUM_DISTINCT_ACTIONS = NUM_ACTIONS
MAX_CHANCE_OUTCOMES = MAX_CHANCE
NUM_LEAF = NLEAF
NUM_WIND = NWIND

from src_cy.gold_nugget.rules cimport GN, GoldNuggetRules
from src_cy.gold_nugget.resample cimport rs_resample_history, rs_resample_history_from

from src_cy.gold_nugget.view import GoldNuggetView
from src_cy.gold_nugget.rules import (ANIMAL_CATALOG, FACES, LEAF_CATALOG, PARAM_NAMES,
                                      PHASE_NAMES, TIMES, VC_CATALOG, WIND_CATALOG,
                                      GoldNuggetParams)
from src_cy.gold_nugget.resample import (RESAMPLE_CHAIN_DEFAULT, RESAMPLE_CORRECTOR_DEFAULT,
                                         _raise_if_resample_failed,
                                         _set_corrector_after_exact, _set_walk_tuning,
                                         resample_stats, set_resample_backjumping,
                                         set_resample_chain, set_resample_corrector,
                                         set_resample_exact_budget, set_resample_safety_cap)
from src_cy.gold_nugget.render import (DECISION_NAMES, EVENT_FIELDS, MAX_EVENTS, OBS_SIZE,
                                       action_name, card_name, effect_name, event_text)
from src_cy.gold_nugget import persist as _persist
from src_cy.gold_nugget import render as _render
from src_cy.gold_nugget.persist import MAGIC, SNAP_VERSION


@cython.final
cdef class GoldNuggetEngine(GoldNuggetRules):
    """Gold Nugget rules engine; construct via ``games.gold_nugget``."""

    cdef void resample_history(self, int player, Rng* rng, vector[int]* out) noexcept nogil:
        rs_resample_history(self, player, rng, out)

    cdef void resample_history_from(self, int player, Rng* rng, const vector[int]* prev,
                                    vector[int]* out) noexcept nogil:
        rs_resample_history_from(self, player, rng, prev, out)

    cdef void resample(self, int player, Rng* rng) noexcept nogil:
        self.resample_next(player, rng, NULL)

    cdef void resample_next(self, int player, Rng* rng, const vector[int]* prev) noexcept nogil:
        """``Engine.resample_next`` (a world chained from ``prev`` when
        given) without its final replay when the resampler left the state as
        the real, verified replay of the world it drew (every world is
        replayed and verified before it is returned)."""
        cdef vector[int] h
        self.resample_status = RESAMPLE_OK
        self.resample_history_from(player, rng, prev, &h)
        if self.resample_status == RESAMPLE_OK and not (self.wreal and self.hist == h):
            self.replay(h.data(), <int>h.size())
        self.wreal = False

    # ================================================================ Python API
    # Everything below is for adapters, tests and people; never on a hot path.

    def py_resample_history(self, int player, seed, deadline=None,
                            bint cpu=True) -> list:
        """A history drawn from `player`'s information set (never the true
        one kept back); RuntimeError if the search hit its safety cap,
        ``ResampleOutOfTime`` if it reached ``deadline`` (``Engine``)."""
        h = Engine.py_resample_history(self, player, seed, deadline, cpu)
        _raise_if_resample_failed(player)
        return h

    def py_resample_history_from(self, int player, seed, prev, deadline=None,
                                 bint cpu=True) -> list:
        """As :meth:`py_resample_history`, chained from ``prev``, the last
        world drawn for this information set (``set_resample_chain``)."""
        h = Engine.py_resample_history_from(self, player, seed, prev, deadline, cpu)
        _raise_if_resample_failed(player)
        return h

    def py_resample(self, int player, seed, deadline=None, bint cpu=True) -> "Engine":
        """A copy of this world with everything hidden from `player` redrawn;
        RuntimeError if the search hit its safety cap, ``ResampleOutOfTime``
        if it reached ``deadline`` (``Engine``)."""
        e = Engine.py_resample(self, player, seed, deadline, cpu)
        _raise_if_resample_failed(player)
        return e

    def py_resample_into(self, Engine world, int player, seed, deadline=None,
                         bint cpu=True, bint chain=False) -> "Engine":
        """As :meth:`py_resample`, drawn into the caller's ``world`` engine
        (``Engine.py_resample_into``; ``chain``: continue from the world it
        holds); RuntimeError if the search hit its safety cap."""
        e = Engine.py_resample_into(self, world, player, seed, deadline, cpu, chain)
        _raise_if_resample_failed(player)
        return e

    def action_to_string(self, int player, int action) -> str:
        """Human-readable name of `action` (or chance outcome) at this state."""
        return _render.action_to_string(self, player, action)

    def info_string(self, int player) -> str:
        """Everything `player` observed, in order (perfect recall)."""
        return _render.info_string(self, player)

    def player_view(self, int player):
        """What `player` knows now, a ``src_cy.gold_nugget.view.GoldNuggetView``
        (docs/rules, "Player view").

        Every field is a function of the player's information state; strings,
        the observation tensor and the heuristic bot are built from it.
        """
        return _render.player_view(self, player)

    def obs_string(self, int player) -> str:
        """What `player` sees now (rendered from ``player_view``)."""
        return _render.obs_string(self, player)

    def render(self) -> str:
        """The full state, for humans and ``str(state)``."""
        return _render.render(self)

    def obs_tensor_size(self) -> int:
        return OBS_SIZE

    def info_tensor_size(self) -> int:
        return OBS_SIZE + 1 + EVENT_FIELDS * MAX_EVENTS

    def fill_obs_tensor(self, int player, float[:] out) -> None:
        """Current view of `player` (see the rules doc for the layout)."""
        _render.fill_obs_tensor(self, player, out)

    def fill_info_tensor(self, int player, float[:] out) -> None:
        """The observation, then the events `player` saw (perfect recall): their
        number, and each event code's six bit fields, scaled (rules doc)."""
        _render.fill_info_tensor(self, player, out)

    def events_seen(self, int player) -> int:
        """Number of events `player` observed so far."""
        return _render.events_seen(self, player)

    def dump(self) -> bytes:
        """Snapshot: versioned, with the game string and the action history."""
        return _persist.dump(self)

    def load(self, data) -> None:
        """Restore a ``dump()`` snapshot by replaying its history, each action
        checked; ValueError (and no change) if anything is wrong."""
        _persist.load(self, data)

    def check_invariants(self) -> None:
        """Raise ValueError naming any broken conservation law."""
        _persist.check_invariants(self)


    # --- small helpers for tests and tools
    def stone_faces(self) -> list:
        """Face of every stone id (0 normal, 1 trap, 2 nugget)."""
        return [self.g.face[s] for s in range(self.g.nstones)]

    def lairs(self) -> list:
        """Stone ids per lair, in slot order."""
        return [[self.g.lair[q][i] for i in range(self.g.lairn[q])] for q in range(self.g.n)]

    def nest_stones(self) -> list:
        """Stone ids in the nest, sorted."""
        return sorted([self.g.nest[i] for i in range(self.g.nestn)])

    def nest_order(self) -> list:
        """Stone ids in the nest in chance-outcome order (outcome i draws entry i)."""
        return [self.g.nest[i] for i in range(self.g.nestn)]

    def feathers(self) -> list:
        return [self.g.feathers[p] for p in range(self.g.n)] + [self.g.nest_feathers]

    def hand(self, int player) -> list:
        return [self.g.hand[player][k] for k in range(NLEAF)]

    def info(self) -> dict:
        """A few scalar fields, for tests."""
        cdef GN* g = &self.g
        return {"phase": PHASE_NAMES.get(g.phase, g.phase), "holder": g.holder,
                "time": g.time, "day": g.day, "asleep": [g.asleep[p] for p in range(g.n)],
                "animals": [g.animal[p] for p in range(g.n)],
                "tod": [g.tod[p] for p in range(g.n)], "elim": [g.elim[p] for p in range(g.n)],
                "winners": g.winners, "moves": g.nmoves, "deck": self.deck_total(),
                "discard": [g.discard[k] for k in range(NLEAF)],
                "vc": [g.vc[p] for p in range(g.n)], "reshuffled": g.reshuffled,
                "knows": [g.knows[p] for p in range(g.n)]}

