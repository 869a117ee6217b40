"""Beliefs over hidden information, from one player's information state.

``belief(state, player)`` returns a :class:`Belief`: a probability
distribution over the game's natural hidden variables, computed only from
what ``player`` has observed.  The model is the game's: its spec's
``belief()`` factory (``games.spec.GameSpec.belief``) gives a
:class:`BeliefModel`, defined in the game's own ``games/<game>_beliefs.py``
(the hidden variables and opponent models per game are documented in
``docs/ai.md``).  This module holds only what is generic: the
:class:`Belief` result, the model record, the resampler-marginal estimate
(:func:`sampled_belief`) and the acceptance rule of belief-weighted
determinization (:func:`world_acceptance`): a world drawn by the engine's
resampler is accepted with probability ``likelihood(world) / max
likelihood``, so accepted worlds follow the posterior when the resampler
draws from the prior.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import pyspiel

from games.spec import find_spec, specs


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


def sampled_belief(state: pyspiel.State, player: int, hidden_of: Callable[[Any], tuple],
                   variables: str, *, samples: int = 256, seed: int = 0) -> Belief:
    """Distribution of ``hidden_of(world.engine)`` over ``samples`` worlds drawn
    by ``state.resample(player, ws)`` (``ws`` from a splitmix64 stream seeded
    with ``seed``): the information-set distribution under a uniform opponent
    model.  Outcomes sorted; likelihood 1.0 for all (no behavioural model)."""
    from src_cy.rng import SplitMix64
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
