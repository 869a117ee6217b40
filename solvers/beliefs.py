"""Beliefs over hidden information, from one player's information state.

``belief(state, player)`` returns a :class:`Belief`: a probability
distribution over the game's natural hidden variables, computed only from
what ``player`` has observed.  The model is the game's: its spec's
``belief()`` factory (``games.spec.GameSpec.belief``) gives a
:class:`BeliefModel`, defined in the game's own ``games/<game>_beliefs.py``
(the hidden variables and opponent models per game are documented in
``docs/ai.md``).  The :class:`Belief` result, the model record and the
resampler-marginal estimate (:func:`sampled_belief`) are interfaces a game
builds, in ``games/interfaces.py`` (re-exported here); this module holds the
lookup by game and the acceptance rule of belief-weighted
determinization (:func:`world_acceptance`): a world drawn by the engine's
resampler is accepted with probability ``likelihood(world) / max
likelihood``, so accepted worlds follow the posterior when the resampler
draws from the prior.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import pyspiel

from games.interfaces import Belief, BeliefFn, BeliefModel, sampled_belief  # noqa: F401
from games.spec import find_spec, specs


def belief_games() -> list[str]:
    """Short names of the games whose spec has a belief model."""
    return sorted(s.name for s in specs() if s.belief is not None)


def belief_model(game: pyspiel.Game | str) -> BeliefModel:
    """The belief model of ``game`` (a pyspiel game or short name), from its spec."""
    name = game if isinstance(game, str) else game.get_type().short_name
    spec = find_spec(name)
    if spec is None or spec.belief is None:
        raise ValueError(f"no belief model for {name!r}; games with one: {belief_games()}")
    model = spec.belief()
    if not isinstance(model, BeliefModel):
        raise ValueError(f"the spec of {name!r}: belief() must return a BeliefModel, "
                         f"got {type(model).__name__}")
    return model


def belief(state: pyspiel.State, player: int, **options: Any) -> Belief:
    """``player``'s belief over the hidden variables of ``state``'s game.

    Reads only ``player``'s information state.  ``options`` go to the game's
    model (e.g. ``samples`` and ``seed`` for sampled beliefs, ``epsilon``
    for Saboteur).  Raises ``ValueError`` for a bad player or a game without
    a belief model.
    """
    n = state.get_game().num_players()
    if not isinstance(player, int) or not 0 <= player < n:
        raise ValueError(f"player must be in [0, {n - 1}], got {player!r}")
    fn = belief_model(state.get_game()).belief
    try:
        return fn(state, player, **options)
    except TypeError as exc:
        raise ValueError(f"bad belief options: {exc}") from None


def world_acceptance(state: pyspiel.State, player: int) -> Callable[[Any], float]:
    """Acceptance probability of a world (an engine) drawn by ``resample(player)``.

    The resampler draws the hidden variables from the prior restricted to
    ``player``'s information set; accepting with ``likelihood / max`` turns
    that into the belief's posterior.  Worlds whose outcome the belief rules
    out get 0.  Games whose model has no likelihood accept every world.
    """
    model = belief_model(state.get_game())
    if not model.weighted:
        return lambda engine: 1.0
    if model.acceptance is not None:
        return model.acceptance(state, player)
    b = belief(state, player)
    table = dict(zip(b.outcomes, b.likelihood))
    hidden_of = model.hidden_of

    def accept(engine) -> float:
        return table.get(hidden_of(engine), 0.0)
    return accept
