"""The base class of every goldspiel bot.

:class:`Bot` is a ``pyspiel.Bot`` with goldspiel's conventions: a ``seed``
argument seeding the bot's own SplitMix64 stream (``src_cy.rng``), so a bot
is deterministic given its seed; ``step`` derived from ``step_with_policy``;
``restart_at``/``inform_action`` defaults for bots that keep no per-game
state; one clear ``ValueError`` when asked to move at a chance or
terminal state; and a move-time budget every bot accepts (``move_budget``
seconds on the ``budget_clock``), turned into one :class:`Deadline` per move
that the bot's own loops check (docs/ai.md, "Move-time budget").
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import pyspiel

from src_cy.engine import clock
from src_cy.rng import SplitMix64

Policy = list[tuple[int, float]]
BUDGET_CLOCKS = ("cpu", "wall")


@dataclass(frozen=True)
class Deadline:
    """A move's hard deadline: ``at`` seconds on ``src_cy.engine.clock(cpu)``
    (the process CPU clock or the monotonic wall clock), the clock the
    engines' resamplers check."""

    at: float
    cpu: bool = True

    @staticmethod
    def after(seconds: float, cpu: bool = True) -> "Deadline":
        """The deadline ``seconds`` from now on the chosen clock."""
        return Deadline(clock(cpu) + seconds, cpu)

    def passed(self) -> bool:
        return clock(self.cpu) >= self.at


def check_move_budget(move_budget: float | None, budget_clock: str) -> float | None:
    """``move_budget`` as a float (or None), after checking both arguments:
    a ``ValueError`` names the bad one."""
    if move_budget is not None and (isinstance(move_budget, bool) or not isinstance(
            move_budget, (int, float)) or not 0 < move_budget < math.inf):
        raise ValueError(f"move_budget must be None or a positive number of seconds, "
                         f"got {move_budget!r}")
    if budget_clock not in BUDGET_CLOCKS:
        raise ValueError(f"budget_clock must be one of {BUDGET_CLOCKS}, got {budget_clock!r}")
    return None if move_budget is None else float(move_budget)


class Bot(pyspiel.Bot):
    """A seeded, stateless-by-default ``pyspiel.Bot``.

    Subclasses implement :meth:`step_with_policy` (or override :meth:`step`
    and :meth:`step_with_policy` together) and call
    ``Bot.__init__(self, game, seed, move_budget, budget_clock)`` first.
    ``seed=None`` means 0.  ``move_budget``: None, or a hard cap in seconds
    on a move, on ``budget_clock`` ``"cpu"`` (process CPU time) or
    ``"wall"`` (monotonic); a bot whose move does unbounded work checks
    :meth:`move_deadline` in its loops, one whose move is a fixed amount of
    work (a rule, a table lookup) accepts the budget and needs no check.
    """

    def __init__(self, game: pyspiel.Game, seed: int | None = 0,
                 move_budget: float | None = None, budget_clock: str = "cpu"):
        pyspiel.Bot.__init__(self)
        self.game = game
        self.seed = 0 if seed is None else int(seed)
        self._rng = SplitMix64(self.seed)
        self.move_budget = check_move_budget(move_budget, budget_clock)
        self.budget_clock = budget_clock

    def move_deadline(self) -> Deadline | None:
        """The deadline of a move starting now (None without a budget)."""
        if self.move_budget is None:
            return None
        return Deadline.after(self.move_budget, self.budget_clock == "cpu")

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
