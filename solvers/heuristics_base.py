"""Shared plumbing of the rule-based heuristic bots (``games.<game>_ai``)."""
from __future__ import annotations

from typing import Any

import pyspiel

from solvers.bot_base import Bot, Policy


class RuleBot(Bot):
    """A deterministic, stateless bot: ``choose(state, player, legal)`` picks.

    Subclasses set ``GAME`` (the pyspiel short name) and implement
    :meth:`choose`, reading only ``player``'s information (its observation or
    information-state string, or the engine's public fields plus the
    player's own private ones).  ``seed`` is accepted for the registry and
    ignored: the rules are deterministic.  ``move_budget`` (see
    :class:`~solvers.bot_base.Bot`): a rule that samples worlds checks
    ``self.deadline``, the current move's deadline, and decides from the
    worlds it has when it passes.
    """

    GAME = ""

    def __init__(self, game: pyspiel.Game, seed: int | None = 0,
                 move_budget: float | None = None, budget_clock: str = "cpu"):
        Bot.__init__(self, game, seed, move_budget, budget_clock)
        self.deadline = None
        if game.get_type().short_name != self.GAME:
            raise ValueError(f"{type(self).__name__} plays {self.GAME} only")

    def step(self, state: pyspiel.State) -> int:
        self.deadline = self.move_deadline()
        legal = self.legal_at_decision(state)
        if len(legal) == 1:
            return legal[0]
        action = self.choose(state, state.current_player(), legal)
        if action not in legal:
            raise AssertionError(f"{type(self).__name__} chose illegal action {action}")
        return action

    def step_with_policy(self, state: pyspiel.State) -> tuple[Policy, int]:
        a = self.step(state)
        return [(b, 1.0 if b == a else 0.0) for b in sorted(state.legal_actions())], a

    def choose(self, state: pyspiel.State, me: int, legal: list[int]) -> int:
        raise NotImplementedError

    def choose_on_engine(self, engine: Any, me: int, legal: list[int]) -> int:
        """:meth:`choose` at an engine with no pyspiel state around it (MCCFR's
        fast path), for rules that read only ``state.engine``; ``legal`` sorted."""
        self.deadline = self.move_deadline()
        if len(legal) == 1:
            return legal[0]
        return self.choose(_EngineOnly(engine), me, legal)


class _EngineOnly:
    """What engine-reading rules see of a state: its ``engine`` only."""

    __slots__ = ("engine",)

    def __init__(self, engine: Any) -> None:
        self.engine = engine
