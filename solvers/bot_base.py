"""The base class of every goldspiel bot.

:class:`Bot` is a ``pyspiel.Bot`` with goldspiel's conventions: a ``seed``
argument seeding the bot's own SplitMix64 stream (``src_cy.rng``), so a bot
is deterministic given its seed; ``step`` derived from ``step_with_policy``;
``restart_at``/``inform_action`` defaults for bots that keep no per-game
state; and one clear ``ValueError`` when asked to move at a chance or
terminal state.
"""
from __future__ import annotations

import pyspiel

from src_cy.rng import SplitMix64

Policy = list[tuple[int, float]]


class Bot(pyspiel.Bot):
    """A seeded, stateless-by-default ``pyspiel.Bot``.

    Subclasses implement :meth:`step_with_policy` (or override :meth:`step`
    and :meth:`step_with_policy` together) and call
    ``Bot.__init__(self, game, seed)`` first.  ``seed=None`` means 0.
    """

    def __init__(self, game: pyspiel.Game, seed: int | None = 0):
        pyspiel.Bot.__init__(self)
        self.game = game
        self.seed = 0 if seed is None else int(seed)
        self._rng = SplitMix64(self.seed)

    def legal_at_decision(self, state: pyspiel.State) -> list[int]:
        """Sorted legal actions of the player to move; ``ValueError`` at a
        chance node or a terminal state (a bot only moves at decisions)."""
        name = type(self).__name__
        if state.is_terminal():
            raise ValueError(f"{name}: the state is terminal; there is no move to make")
        if state.is_chance_node():
            raise ValueError(f"{name}: the state is a chance node; bots move only at "
                             f"decision nodes")
        legal = sorted(state.legal_actions())
        if not legal:
            raise ValueError(f"{name}: no legal actions for player {state.current_player()}")
        return legal

    def step_with_policy(self, state: pyspiel.State) -> tuple[Policy, int]:
        """(policy over the legal actions, the chosen action)."""
        raise NotImplementedError

    def step(self, state: pyspiel.State) -> int:
        """The chosen action: ``step_with_policy(state)[1]``."""
        return self.step_with_policy(state)[1]

    def provides_policy(self) -> bool:
        return True

    def restart_at(self, state: pyspiel.State) -> None:
        """Nothing to do: the bot keeps no per-game state."""

    def inform_action(self, state: pyspiel.State, player_id: int, action: int) -> None:
        """Nothing to do: the bot keeps no per-game state."""
