# cython: language_level=3
"""Kuhn and Leduc poker engines, identical to OpenSpiel's C++ games.

``KuhnEngine(params, game_string="")`` mirrors ``kuhn_poker`` and
``LeducEngine(params, game_string="")`` mirrors ``leduc_poker`` (default
parameters: no action mapping, no suit isomorphism, starting player 0): same
action ids, chance outcomes and probabilities, returns, information-state and
observation strings and tensors.  ``params`` is a ``PokerParams`` (shared by
every engine of a game and all their clones) or the mapping it takes.

Each engine is its game's rules kernel (``rules.pyx``) with the game's
resampler (``resample.pyx``) and Python methods, one-line calls into
``render.pyx`` (strings, tensors) and ``persist.pyx`` (snapshot,
invariants); the constants are in ``catalog.pxd``, the action ids in
``actions.pxd``.  This module exports what callers import: the engines, the
parameters class, ``ACTION_LAYOUT`` and the action names.
"""
cimport cython
from libcpp.vector cimport vector

from src_cy.engine cimport Engine, Rng
from src_cy.poker.actions cimport (KUHN_PASS, KUHN_BET, KUHN_NUM_ACTIONS, LEDUC_FOLD,
                                   LEDUC_CALL, LEDUC_RAISE, LEDUC_NUM_ACTIONS)
from src_cy.poker.catalog cimport INVALID_CARD
from src_cy.poker.rules cimport KuhnRules, LeducRules
from src_cy.poker cimport resample

from src_cy.poker import persist as _persist, render as _render
from src_cy.poker.persist import POKER_SNAP_MAGIC, POKER_SNAP_VERSION
from src_cy.poker.render import KUHN_ACTION_NAMES, LEDUC_ACTION_NAMES
from src_cy.poker.rules import PokerParams

# The action layout (from ``actions.pxd``), for the Python mirrors' test.
ACTION_LAYOUT = {
    "KUHN_PASS": KUHN_PASS, "KUHN_BET": KUHN_BET, "KUHN_NUM_ACTIONS": KUHN_NUM_ACTIONS,
    "LEDUC_FOLD": LEDUC_FOLD, "LEDUC_CALL": LEDUC_CALL, "LEDUC_RAISE": LEDUC_RAISE,
    "LEDUC_NUM_ACTIONS": LEDUC_NUM_ACTIONS,
}


@cython.final
cdef class KuhnEngine(KuhnRules):
    """Kuhn poker for 2..10 players: pass (0) / bet (1); deal actions are cards."""

    cdef void resample_history(self, int player, Rng* rng, vector[int]* out) noexcept nogil:
        # See ``resample.pyx``.
        resample.kuhn_resample_history(self, player, rng, out)

    cdef Engine clone(self):
        cdef KuhnEngine e = KuhnEngine.__new__(KuhnEngine)
        self.clone_into(e)
        return e

    # ------------------------------------------------------------------
    # Python side (adapter protocol and tests); never on a hot path.
    # ------------------------------------------------------------------
    def card(self, int player) -> int:
        """The card dealt to `player`, or -1 if not dealt yet."""
        _render.check_player(self, player)
        return self.d.hist[player] if player < min(self.d.hlen, self.d.n) else -1

    def history(self) -> list:
        """All actions so far, deals first (same as pyspiel's history)."""
        return [self.d.hist[i] for i in range(self.d.hlen)]

    def action_to_string(self, int player, int action) -> str:
        return _render.kuhn_action_to_string(self, player, action)

    def info_string(self, int player) -> str:
        """OpenSpiel's information_state_string(player)."""
        return _render.kuhn_info_string(self, player)

    def obs_string(self, int player) -> str:
        """OpenSpiel's observation_string(player)."""
        return _render.kuhn_obs_string(self, player)

    def render(self) -> str:
        return _render.kuhn_render(self)

    def info_tensor_size(self) -> int:
        return _render.kuhn_info_tensor_size(self)

    def obs_tensor_size(self) -> int:
        return _render.kuhn_obs_tensor_size(self)

    def fill_info_tensor(self, int player, out) -> None:
        _render.kuhn_fill_info_tensor(self, player, out)

    def fill_obs_tensor(self, int player, out) -> None:
        _render.kuhn_fill_obs_tensor(self, player, out)

    def dump(self) -> bytes:
        return _persist.kuhn_dump(self)

    def load(self, data) -> None:
        """Restore a ``dump()``; refuses snapshots of another game or illegal ones."""
        _persist.history_load(self, self.d.n, "kuhn", data)

    def check_invariants(self) -> None:
        """Raise ValueError naming a broken law (cards, pot)."""
        _persist.kuhn_check_invariants(self)


@cython.final
cdef class LeducEngine(LeducRules):
    """Leduc poker for 2..10 players: fold (0) / call (1) / raise (2); deals are cards."""

    cdef void resample_history(self, int player, Rng* rng, vector[int]* out) noexcept nogil:
        # See ``resample.pyx`` (``self`` is its scratch, as the contract allows).
        resample.leduc_resample_history(self, player, rng, out)

    cdef Engine clone(self):
        cdef LeducEngine e = LeducEngine.__new__(LeducEngine)
        self.clone_into(e)
        return e

    # ------------------------------------------------------------------
    # Python side (adapter protocol and tests); never on a hot path.
    # ------------------------------------------------------------------
    def card(self, int player) -> int:
        """The private card of `player`, or -1 if not dealt yet."""
        _render.check_player(self, player)
        return self.d.priv[player] if player < self.d.dealt else -1

    @property
    def public_card(self) -> int:
        """The public card, or -1 before it is dealt."""
        return self.d.public_card if self.d.public_card != INVALID_CARD else -1

    @property
    def round(self) -> int:
        return self.d.round

    def history(self) -> list:
        return [self.d.hist[i] for i in range(self.d.hlen)]

    def betting(self, int round) -> list:
        """Actions of betting round 1 or 2."""
        return _render.leduc_betting(self, round)

    def action_to_string(self, int player, int action) -> str:
        return _render.leduc_action_to_string(self, player, action)

    def info_string(self, int player) -> str:
        """OpenSpiel's information_state_string(player)."""
        return _render.leduc_info_string(self, player)

    def obs_string(self, int player) -> str:
        """OpenSpiel's observation_string(player)."""
        return _render.leduc_obs_string(self, player)

    def render(self) -> str:
        return _render.leduc_render(self)

    def info_tensor_size(self) -> int:
        return _render.leduc_info_tensor_size(self)

    def obs_tensor_size(self) -> int:
        return _render.leduc_obs_tensor_size(self)

    def fill_info_tensor(self, int player, out) -> None:
        _render.leduc_fill_info_tensor(self, player, out)

    def fill_obs_tensor(self, int player, out) -> None:
        _render.leduc_fill_obs_tensor(self, player, out)

    def dump(self) -> bytes:
        return _persist.leduc_dump(self)

    def load(self, data) -> None:
        """Restore a ``dump()``; refuses snapshots of another game or illegal ones."""
        _persist.history_load(self, self.d.n, "leduc", data)

    def check_invariants(self) -> None:
        """Raise ValueError naming a broken law (cards, deck, pot, money)."""
        _persist.leduc_check_invariants(self)
