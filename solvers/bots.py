"""One registry of bots: ``make_bot(name, game, **options)``.

Built in: ``"random"`` (uniform over legal actions, seeded), ``"ismcts"``
(:class:`solvers.ismcts.ISMCTSBot`), ``"heuristic"`` (the rule-based bot
of the game's spec, ``games.spec.GameSpec.heuristic``), ``"best"`` (each
game's strongest measured configuration within 0.1 s per move on one core:
the ISMCTS options of the game's spec, ``GameSpec.best``, see
:func:`best_config`; documented in ``docs/ai.md``), and ``"cfr"`` (a solved
policy file, :class:`solvers.policy_bot.PolicyBot`); a game's spec may add bots of its
own (``GameSpec.bots``, e.g. Saboteur's ``"belief_heuristic"``).
``"openspiel_ismcts"`` is OpenSpiel's own Python ISMCTS
(:func:`make_openspiel_ismcts`), a yardstick.  Other code
may add entries with :func:`register_bot`.

Every bot derives from :class:`games.interfaces.Bot`, takes ``seed`` and is
deterministic given it.
"""
from __future__ import annotations

from typing import Any, Callable

import pyspiel

from games.spec import find_spec, specs
from games.interfaces import Bot, Policy
from solvers.cfr import CFRPlusSolver
from solvers.ismcts import ISMCTSBot
from solvers.policy_arrays import ArrayPolicy
from solvers.policy_bot import PolicyBot
from solvers.tree import TreeTooLargeError, compile_game

BotFactory = Callable[..., pyspiel.Bot]
_BOTS: dict[str, BotFactory] = {}


class RandomBot(Bot):
    """Uniform random over the legal actions, from a seeded splitmix64 stream."""

    def step_with_policy(self, state: pyspiel.State) -> tuple[Policy, int]:
        legal = self.legal_at_decision(state)
        return [(a, 1.0 / len(legal)) for a in legal], legal[self._rng.randint(len(legal))]


def register_bot(name: str, factory: BotFactory) -> None:
    """Register ``factory(game, **options) -> pyspiel.Bot`` under ``name``."""
    _BOTS[name] = factory


def heuristic_games() -> list[str]:
    """Short names of the games whose spec has a heuristic bot."""
    return [s.name for s in specs() if s.heuristic is not None]


def _make_heuristic(game: pyspiel.Game, **options: Any) -> pyspiel.Bot:
    """The game spec's heuristic bot."""
    name = game.get_type().short_name
    spec = find_spec(name)
    if spec is None or spec.heuristic is None:
        raise ValueError(f"no heuristic bot for {name!r}; games with one: "
                         f"{heuristic_games()}")
    return spec.heuristic(game, **options)


def best_games() -> list[str]:
    """Short names of the games whose spec has a ``best`` configuration."""
    return [s.name for s in specs() if s.best is not None]


# ``best``'s hard cap on a move, in seconds of process CPU time, unless the
# game's spec sets its own ``move_budget`` (docs/ai.md, "Move-time budget").
BEST_MOVE_BUDGET = 0.25


def best_config(game: pyspiel.Game) -> dict[str, Any]:
    """The ``best`` bot's ISMCTS options for ``game``, from its spec
    (``GameSpec.best(game)``, which may depend on the parameters, e.g. the
    player count).  Fixed simulation counts (not time limits) keep every bot
    seed-deterministic; they were chosen so a move takes <= 0.1 s of CPU on
    one core (``docs/ai.md``).  A hard cap, ``move_budget``
    (:data:`BEST_MOVE_BUDGET` CPU seconds), bounds the rare slow move."""
    name = game.get_type().short_name
    spec = find_spec(name)
    if spec is None or spec.best is None:
        raise ValueError(f"no 'best' configuration for {name!r}; games with one: "
                         f"{best_games()}")
    return {"move_budget": BEST_MOVE_BUDGET, **spec.best(game)}


# ``best`` on a game whose whole tree has at most this many nodes plays a
# CFR+ solution instead of searching (docs/ai.md, "Solved when small").
BEST_SOLVE_NODES = 250_000
BEST_SOLVE_ITERATIONS = 500
_SOLVED: dict[str, ArrayPolicy | None] = {}


def best_solution(game: pyspiel.Game) -> ArrayPolicy | None:
    """The average policy of :data:`BEST_SOLVE_ITERATIONS` CFR+ iterations
    on ``game``'s compiled tree, or None when the tree has more than
    :data:`BEST_SOLVE_NODES` nodes (too large to solve at bot construction;
    refused after one Knuth walk for the default presets).  Solved once per
    process and game string: Gold Thief ``mini`` (64,101 nodes) takes about
    4 s of CPU, later ``best`` bots of that game none."""
    key = str(game)
    if key not in _SOLVED:
        try:
            tree = compile_game(game, max_nodes=BEST_SOLVE_NODES)
        except TreeTooLargeError:
            _SOLVED[key] = None
        else:
            solver = CFRPlusSolver(game, tree=tree)
            solver.run(BEST_SOLVE_ITERATIONS)
            _SOLVED[key] = solver.average_policy()
    return _SOLVED[key]


def _make_best(game: pyspiel.Game, seed: int | None = 0, solve: bool = True,
               **overrides: Any) -> pyspiel.Bot:
    """The game's strongest bot: a CFR+ solution where the whole game is small
    enough to solve (:func:`best_solution`; ``solve=False`` skips it), else
    ISMCTS with the game's ``best`` options (options can be overridden; any
    override but the move budget also means search)."""
    config = best_config(game)
    if not isinstance(solve, bool):
        raise ValueError(f"solve must be true or false, got {solve!r}")
    budget = {k: overrides[k] for k in ("move_budget", "budget_clock") if k in overrides}
    if solve and set(overrides) <= set(budget):
        policy = best_solution(game)
        if policy is not None:
            return PolicyBot(game, policy=policy, seed=seed, fallback="error", **budget)
    return ISMCTSBot(game, seed=seed, **{**config, **overrides})


def make_openspiel_ismcts(game: pyspiel.Game, seed: int | None = 0,
                          max_simulations: int = 150, uct_c: float = 2.0) -> pyspiel.Bot:
    """OpenSpiel's own Python ``ISMCTSBot`` (``open_spiel.python.algorithms.ismcts``)
    with one random rollout per leaf (``RandomRolloutEvaluator(1)``) and every
    other argument at its default; an external yardstick.  Its ``numpy``
    streams and its resampling are seeded from ``seed`` (OpenSpiel's default
    resampler draws from an unseeded ``UniformProbabilitySampler``), so the
    bot is deterministic given the seed."""
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts
    if not isinstance(max_simulations, int) or max_simulations < 2:
        # with one simulation OpenSpiel's bot fails an assertion (no root visits)
        raise ValueError(f"max_simulations must be an int >= 2, got {max_simulations!r}")
    rs = np.random.RandomState((0 if seed is None else int(seed)) % 2**32)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), float(uct_c),
                           max_simulations, random_state=rs)
    bot._resampler_cb = lambda state, player: state.resample_from_infostate(  # noqa: SLF001
        player, pyspiel.UniformProbabilitySampler(int(rs.randint(2**31)), 0.0, 1.0))
    return bot


register_bot("random", RandomBot)
register_bot("openspiel_ismcts", make_openspiel_ismcts)
register_bot("best", _make_best)


register_bot("ismcts", ISMCTSBot)
register_bot("heuristic", _make_heuristic)
register_bot("cfr", PolicyBot)


def bot_names(game: pyspiel.Game | None = None) -> list[str]:
    """Names ``make_bot`` accepts (for ``game``: its spec's own bots too;
    without a game: every spec's)."""
    extra = set()
    for s in ([find_spec(game)] if game is not None else specs()):
        if s is not None:
            extra |= set(s.bots)
    return sorted(set(_BOTS) | extra)


def make_bot(name: str, game: pyspiel.Game, **options: Any) -> pyspiel.Bot:
    """Build bot ``name`` for ``game``; options go to its factory (e.g. ``seed``)."""
    factory = _BOTS.get(name)
    if factory is None:
        spec = find_spec(game)
        factory = None if spec is None else spec.bots.get(name)
    if factory is None:
        raise ValueError(f"unknown bot {name!r} for {game.get_type().short_name}; "
                         f"known: {bot_names(game)}")
    try:
        return factory(game, **options)
    except TypeError as exc:
        raise ValueError(f"bad options for bot {name!r}: {exc}") from None
