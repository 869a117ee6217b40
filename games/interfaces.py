"""The interfaces a game implements, below both ``games/`` and ``solvers/``.

A game's own modules (``games/<game>_ai.py``, ``_beliefs.py``,
``_abstraction.py``) subclass or build what is here; the solvers consume it.
This module imports nothing from ``games`` or ``solvers`` (only the engines'
clock and RNG), so imports point one way: ``src_cy`` < ``games.interfaces``
< the games < ``solvers`` < ``experiments`` (``tests/test_layers.py``).

* :class:`Bot`: the base of every goldspiel bot (a seeded ``pyspiel.Bot``
  with a move-time budget, :class:`Deadline`), and :class:`RuleBot`, the
  base of the rule heuristics;
* :class:`Belief` and :class:`BeliefModel`: a game's belief over its hidden
  variables (``GameSpec.belief``), and :func:`sampled_belief`, the
  resampler-marginal estimate;
* :class:`ActionAbstraction` and :class:`GameAbstractions`: a game's
  abstractions for MCCFR (``GameSpec.abstraction``);
* :class:`Renderer`: a game's terminal screens for ``experiments.play``
  (``GameSpec.renderer``), and the helpers the games' renderers share.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

import pyspiel

from src_cy.engine import ResampleOutOfTime, clock
from src_cy.rng import SplitMix64

# ----------------------------------------------------------------------
# Bots
# ----------------------------------------------------------------------
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


def resample_by(engine: Any, player: int, seed: int, deadline: Deadline | None) -> Any:
    """``engine.py_resample(player, seed)`` stopped at ``deadline``: the world,
    or None when the deadline has passed or the resampler reached it (never
    the true world)."""
    if deadline is None:
        return engine.py_resample(player, seed)
    if deadline.passed():
        return None
    try:
        return engine.py_resample(player, seed, deadline.at, deadline.cpu)
    except ResampleOutOfTime:
        return None


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


class RuleBot(Bot):
    """A deterministic, stateless bot: ``choose(state, player, legal)`` picks.

    Subclasses set ``GAME`` (the pyspiel short name) and implement
    :meth:`choose`, reading only ``player``'s information (its observation or
    information-state string, or the engine's public fields plus the
    player's own private ones).  ``seed`` is accepted for the registry and
    ignored: the rules are deterministic.  ``move_budget`` (see
    :class:`~games.interfaces.Bot`): a rule that samples worlds checks
    ``self.deadline``, the current move's deadline, and decides from the
    worlds it has when it passes.
    """

    GAME = ""
    #: The same rules compiled against the engine, ``rule(engine, player) ->
    #: action`` (a Cython function reading only that player's information, set
    #: as ``staticmethod(rule)``), or None.  Where set, :meth:`choose_on_engine` and the solvers' fixed
    #: opponents call it directly: it is the rules' one implementation and
    #: :meth:`choose` should call it too.
    engine_rule: Callable[[Any, int], int] | None = None

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
        if self.engine_rule is not None:
            return self.engine_rule(engine, me)
        return self.choose(_EngineOnly(engine), me, legal)


class _EngineOnly:
    """What engine-reading rules see of a state: its ``engine`` only."""

    __slots__ = ("engine",)

    def __init__(self, engine: Any) -> None:
        self.engine = engine


# ----------------------------------------------------------------------
# Beliefs
# ----------------------------------------------------------------------
@dataclass
class Belief:
    """A distribution over one game's hidden variables for one player.

    ``outcomes[i]`` has probability ``probs[i]``; ``likelihood[i]`` is the
    opponent-model likelihood of the public record under ``outcomes[i]``
    relative to the most likely outcome (1.0), before the prior.
    ``variables`` names what an outcome is.
    """

    game: str
    player: int
    variables: str
    outcomes: list[tuple]
    probs: list[float]
    likelihood: list[float] = field(default_factory=list)

    def prob(self, outcome: tuple) -> float:
        """Probability of ``outcome`` (0 if it is ruled out)."""
        try:
            return self.probs[self.outcomes.index(tuple(outcome))]
        except ValueError:
            return 0.0

    def marginal(self, index: int) -> dict[Any, float]:
        """Distribution of component ``index`` of the outcome (e.g. one seat's role)."""
        out: dict[Any, float] = {}
        for o, p in zip(self.outcomes, self.probs):
            out[o[index]] = out.get(o[index], 0.0) + p
        return out


BeliefFn = Callable[..., Belief]


@dataclass(frozen=True)
class BeliefModel:
    """One game's belief model (what ``GameSpec.belief()`` returns).

    ``belief(state, player, **options) -> Belief`` reads only ``player``'s
    information state.  ``hidden_of(engine)`` reads the outcome a
    (resampled) world realises, in the form of ``Belief.outcomes``.
    ``acceptance(state, player)``, when given, returns ``accept(engine)``
    for belief-weighted determinization directly (a game may compute it
    more cheaply than the full belief); otherwise :func:`world_acceptance`
    uses the belief's likelihoods.  ``weighted=False``: the model has no
    likelihood beyond the resampler's (every world is accepted).
    """

    belief: BeliefFn
    hidden_of: Callable[[Any], tuple]
    weighted: bool = True
    acceptance: Callable[[pyspiel.State, int], Callable[[Any], float]] | None = None

    def __post_init__(self) -> None:
        if not callable(self.belief) or not callable(self.hidden_of):
            raise ValueError("BeliefModel needs callable belief and hidden_of")
        if self.acceptance is not None and not callable(self.acceptance):
            raise ValueError("BeliefModel.acceptance must be callable or None")


def sampled_belief(state: pyspiel.State, player: int, hidden_of: Callable[[Any], tuple],
                   variables: str, *, samples: int = 256, seed: int = 0) -> Belief:
    """Distribution of ``hidden_of(world.engine)`` over ``samples`` worlds drawn
    by ``state.resample(player, ws)`` (``ws`` from a splitmix64 stream seeded
    with ``seed``): the information-set distribution under a uniform opponent
    model.  Outcomes sorted; likelihood 1.0 for all (no behavioural model)."""
    if not isinstance(samples, int) or samples < 1:
        raise ValueError(f"samples must be an int >= 1, got {samples!r}")
    rng = SplitMix64(seed)
    counts: dict[tuple, int] = {}
    for _ in range(samples):
        h = hidden_of(state.resample(player, rng.next()).engine)
        counts[h] = counts.get(h, 0) + 1
    outcomes = sorted(counts)
    return Belief(state.get_game().get_type().short_name, player, variables, outcomes,
                  [counts[o] / samples for o in outcomes], [1.0] * len(outcomes))


# ----------------------------------------------------------------------
# Action abstractions
# ----------------------------------------------------------------------
class ActionAbstraction:
    """A fixed set of abstract actions, each mapped to a concrete legal action.

    Subclasses set ``name``, ``action_names`` and ``uses_engine`` and
    implement :meth:`candidates` (one concrete action or ``None`` per
    abstract action); :meth:`actions` drops the absent and repeated ones.
    """

    name: str = ""
    action_names: tuple[str, ...] = ()
    uses_engine: bool = False

    def candidates(self, player: int, x: Any, legal: Sequence[int]) -> list[int | None]:
        """Concrete action of each abstract action (``None``: absent)."""
        raise NotImplementedError

    def actions(self, player: int, x: Any, legal: Sequence[int]) -> list[tuple[int, int]]:
        """``[(abstract id, concrete action)]``: present, distinct, increasing ids."""
        out, seen = [], set()
        for k, a in enumerate(self.candidates(player, x, legal)):
            if a is not None and a not in seen:
                if a not in legal:
                    raise ValueError(f"action abstraction {self.name!r}: abstract action "
                                     f"{self.action_names[k]!r} maps to illegal action {a}")
                seen.add(a)
                out.append((k, a))
        if not out:
            raise ValueError(f"action abstraction {self.name!r} maps no abstract action "
                             f"for player {player} (legal {list(legal)})")
        return out


@dataclass(frozen=True)
class GameAbstractions:
    """A game's named abstractions, as its spec's ``abstraction()`` factory returns them.

    ``information``: information abstractions (bucket functions) by name;
    ``actions``: action abstractions by name (each one's ``name``).
    """

    information: Mapping[str, Callable] = field(default_factory=dict)
    actions: Mapping[str, ActionAbstraction] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for key, fn in self.information.items():
            if not callable(fn):
                raise ValueError(f"information abstraction {key!r} is not callable")
        for key, aa in self.actions.items():
            if not isinstance(aa, ActionAbstraction) or aa.name != key:
                raise ValueError(f"action abstraction {key!r} must be an ActionAbstraction "
                                 f"named {key!r}")


# ----------------------------------------------------------------------
# Terminal renderers
# ----------------------------------------------------------------------
class Renderer:
    """How a game shows one seat what it may see, for a person at a terminal
    (``experiments.play``; a game's ``GameSpec.renderer`` factory builds one).

    The screen is written from the seat's typed player view; events are the
    lines the seat's information-state log gained (:meth:`event_text` words
    one); moves are the seat's legal actions.  Nothing here reads what the
    seat may not see, except :meth:`end_summary`, which runs once the game is
    over and shows what the end made public.  This base is the fallback of a
    game without a renderer (OpenSpiel's poker): the plain observation
    string, the engine's wording, no end summary.
    """

    #: Lines of :meth:`screen` a crowded screen may drop (a legend; ``?`` repeats it).
    legend: frozenset[str] = frozenset()

    def screen(self, state: pyspiel.State, seat: int) -> str:
        """The seat's board, hand and scores."""
        return state.observation_string(seat)

    def event_text(self, line: str, seat: int) -> str:
        """One line of the seat's information-state log (an event it saw),
        or an action's name, in the words of the screen."""
        return line

    def decision_title(self, state: pyspiel.State, seat: int) -> str:
        """What the seat's pending decision is about when its moves alone do
        not say; "" otherwise."""
        return ""

    def move_labels(self, state: pyspiel.State, seat: int, legal: Sequence[int]) -> list[str]:
        """The seat's legal moves named for a person (the action strings,
        worded by :meth:`event_text`)."""
        return [self.event_text(state.action_to_string(seat, a), seat) for a in legal]

    def end_summary(self, state: pyspiel.State, seat: int) -> list[str]:
        """How the finished game was scored (it may read every player's view)."""
        return []


def seat_name(q: int, seat: int) -> str:
    """``P2``, or ``you`` for the seat itself."""
    return "you" if q == seat else f"P{q}"


def seat_label(q: int, seat: int) -> str:
    """``P2``, or ``P0 (you)`` for the seat itself (a table's row, a list)."""
    return f"P{q} (you)" if q == seat else f"P{q}"


def screen_title(title: str) -> str:
    """The first line of a screen: ``== Gold Thief: you are P0 ====...``."""
    return f"== {title} " + "=" * max(3, 60 - len(title))


_ENGINE_PLAYER = re.compile(r"\bp(\d+)\b(#)?")


def name_players(text: str, seat: int) -> str:
    """An engine line's player names ``p2`` as ``P2``, the seat's as
    ``P0 (you)``; a token owner ``p2#`` as ``P2#``."""
    def name(m: re.Match) -> str:
        q = int(m.group(1))
        return f"P{q}#" if m.group(2) else seat_label(q, seat)
    return _ENGINE_PLAYER.sub(name, text)
