"""Shared plumbing of the rule-based heuristic bots (``solvers.heuristics*``)."""
from __future__ import annotations

import pyspiel


class RuleBot(pyspiel.Bot):
    """A deterministic, stateless bot: ``choose(state, player, legal)`` picks.

    Subclasses set ``GAME`` (the pyspiel short name) and implement
    :meth:`choose`, reading only ``player``'s information (its observation or
    information-state string, or the engine's public fields plus the
    player's own private ones).  ``seed`` is accepted for the registry and
    ignored: the rules are deterministic.
    """

    GAME = ""

    def __init__(self, game: pyspiel.Game, seed: int | None = 0):
        pyspiel.Bot.__init__(self)
        if game.get_type().short_name != self.GAME:
            raise ValueError(f"{type(self).__name__} plays {self.GAME} only")
        self._game = game

    def step(self, state: pyspiel.State) -> int:
        legal = sorted(state.legal_actions())
        if not legal:
            raise ValueError("no legal actions (chance or terminal state)")
        if len(legal) == 1:
            return legal[0]
        action = self.choose(state, state.current_player(), legal)
        if action not in legal:
            raise AssertionError(f"{type(self).__name__} chose illegal action {action}")
        return action

    def step_with_policy(self, state: pyspiel.State) -> tuple[list[tuple[int, float]], int]:
        a = self.step(state)
        return [(b, 1.0 if b == a else 0.0) for b in sorted(state.legal_actions())], a

    def provides_policy(self) -> bool:
        return True

    def restart_at(self, state: pyspiel.State) -> None:
        """Stateless."""

    def inform_action(self, state: pyspiel.State, player_id: int, action: int) -> None:
        """Stateless."""

    def choose(self, state: pyspiel.State, me: int, legal: list[int]) -> int:
        raise NotImplementedError
