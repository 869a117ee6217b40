"""One registry of bots: ``make_bot(name, game, **options)``.

Built in: ``"random"`` (uniform over legal actions, seeded), ``"ismcts"``
(:class:`solvers.ismcts.ISMCTSBot`), ``"heuristic"`` (the rule-based bot
a game registered with :func:`register_heuristic`), ``"best"`` (each
game's strongest measured configuration within 0.1 s per move on one core,
:data:`BEST_CONFIGS`; documented in ``docs/ai.md``) and ``"cfr"``
(:class:`solvers.policy_bot.PolicyBot`).  More entries can be added with
:func:`register_bot`.

Every bot derives from :class:`solvers.bot_base.Bot`, takes ``seed`` and is
deterministic given it.
"""
from __future__ import annotations

import importlib
from typing import Any, Callable

import pyspiel

from solvers.bot_base import Bot, Policy
from solvers.ismcts import ISMCTSBot
from solvers.policy_bot import PolicyBot

BotFactory = Callable[..., pyspiel.Bot]
_BOTS: dict[str, BotFactory] = {}
_HEURISTICS: dict[str, BotFactory] = {}
# Modules imported on demand to find heuristics that are not registered yet.
_HEURISTIC_MODULES = ("solvers.heuristics",)


class RandomBot(Bot):
    """Uniform random over the legal actions, from a seeded splitmix64 stream."""

    def step_with_policy(self, state: pyspiel.State) -> tuple[Policy, int]:
        legal = self.legal_at_decision(state)
        return [(a, 1.0 / len(legal)) for a in legal], legal[self._rng.randint(len(legal))]


def register_bot(name: str, factory: BotFactory) -> None:
    """Register ``factory(game, **options) -> pyspiel.Bot`` under ``name``."""
    _BOTS[name] = factory


def register_heuristic(game_name: str, factory: BotFactory | None = None):
    """Register a game's heuristic bot; usable as a decorator.

    ``factory(game, seed=..., **options)`` returns a ``pyspiel.Bot``.
    ``game_name`` is the pyspiel short name (e.g. ``"gold_thief"``).
    """
    def deco(f: BotFactory) -> BotFactory:
        _HEURISTICS[game_name] = f
        return f
    return deco if factory is None else deco(factory)


def heuristic_games() -> list[str]:
    """Short names of the games with a registered heuristic bot."""
    for mod in _HEURISTIC_MODULES:
        importlib.import_module(mod)
    return sorted(_HEURISTICS)


def _make_heuristic(game: pyspiel.Game, **options: Any) -> pyspiel.Bot:
    name = game.get_type().short_name
    if name not in _HEURISTICS:
        heuristic_games()
    if name not in _HEURISTICS:
        raise ValueError(f"no heuristic bot registered for {name!r}; "
                         f"games with one: {sorted(_HEURISTICS)}")
    return _HEURISTICS[name](game, **options)


#: ``make_bot("best", game)``: ISMCTS options per game (pyspiel short name).
#: Fixed simulation counts (not time limits) keep every bot seed-deterministic;
#: they were chosen so a move takes <= 0.1 s on one core (docs/ai.md).
BEST_CONFIGS: dict[str, dict[str, Any]] = {
    "saboteur": dict(max_simulations=400, rollout="heuristic", determinization="belief",
                     belief_worlds=32, max_depth=1, root_candidates="game",
                     anchor="heuristic", anchor_z=2.0),
    "gold_thief": dict(max_simulations=1500, rollout="heuristic"),
    "gold_nugget": dict(max_simulations=1200),
    "ardillas_del_bosque": dict(max_simulations=5000),
}


def _make_best(game: pyspiel.Game, seed: int | None = 0, **overrides: Any) -> pyspiel.Bot:
    """The game's ``BEST_CONFIGS`` ISMCTS (options can be overridden)."""
    name = game.get_type().short_name
    if name not in BEST_CONFIGS:
        raise ValueError(f"no 'best' configuration for {name!r}; games with one: "
                         f"{sorted(BEST_CONFIGS)}")
    return ISMCTSBot(game, seed=seed, **{**BEST_CONFIGS[name], **overrides})


register_bot("random", RandomBot)
register_bot("best", _make_best)


def _make_belief_heuristic(game: pyspiel.Game, seed: int | None = 0, **options: Any) -> pyspiel.Bot:
    """Saboteur's heuristic driven by the role posterior (solvers.search_saboteur)."""
    if game.get_type().short_name != "saboteur":
        raise ValueError("'belief_heuristic' plays saboteur only")
    from solvers.search_saboteur import BeliefSaboteurBot
    return BeliefSaboteurBot(game, seed=seed, **options)


register_bot("belief_heuristic", _make_belief_heuristic)
register_bot("ismcts", ISMCTSBot)
register_bot("heuristic", _make_heuristic)
register_bot("cfr", PolicyBot)


def bot_names() -> list[str]:
    """Names ``make_bot`` accepts."""
    return sorted(_BOTS)


def make_bot(name: str, game: pyspiel.Game, **options: Any) -> pyspiel.Bot:
    """Build bot ``name`` for ``game``; options go to its factory (e.g. ``seed``)."""
    if name not in _BOTS:
        raise ValueError(f"unknown bot {name!r}; known: {bot_names()}")
    try:
        return _BOTS[name](game, **options)
    except TypeError as exc:
        raise ValueError(f"bad options for bot {name!r}: {exc}") from None
