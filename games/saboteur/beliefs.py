"""Saboteur's belief model: a posterior over the current round's role assignment.

The hidden variable is a tuple of roles (0 gold-digger, 1 saboteur) per
seat.  Hard facts (the player's own role, roles revealed at a round end,
the role pool) rule assignments out; every public action of another player
multiplies an assignment by the likelihood of that action's *category*
given the actor's role (and, for tools, the target's role) under
:data:`SABOTEUR_MODEL`, the action mix of the heuristic bot
(``games/saboteur/ai.py``) measured in self-play, with an epsilon floor.
``solvers.beliefs.belief(state, player)`` reaches :func:`saboteur_belief`
through the game's spec (:data:`MODEL`); ``docs/ai.md`` documents the model.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import product

import pyspiel

from games.interfaces import Belief, BeliefModel

DIGGER, SABOTEUR = 0, 1

# Roles dealt per player count (saboteurs, gold-diggers): one card more than
# players (rules doc "Set-up per round").
SABOTEUR_ROLE_POOL = {3: (1, 3), 4: (1, 4), 5: (2, 4), 6: (2, 5), 7: (3, 5),
                      8: (3, 6), 9: (3, 7), 10: (4, 7)}

#: Categories of a public Saboteur action (see :func:`saboteur_category`).
SABOTEUR_CATEGORIES = ("path", "dead_end", "rockfall_dead_end", "rockfall_path",
                       "break_same", "break_other", "repair_self", "repair_same",
                       "repair_other", "map", "pass")

#: Opponent model: P(category | actor role) per turn.  Measured with
#: ``python -m experiments.research.saboteur_opponent_model`` (heuristic self-play,
#: 5 players, 1 round, 400 rounds, seed 1; "same"/"other": the target has the
#: actor's role or not).  An epsilon floor is applied on use.
SABOTEUR_MODEL: dict[int, dict[str, float]] = {
    DIGGER: {"path": 0.446, "dead_end": 0.0, "rockfall_dead_end": 0.035,
             "rockfall_path": 0.0, "break_same": 0.005, "break_other": 0.115,
             "repair_self": 0.045, "repair_same": 0.027, "repair_other": 0.0,
             "map": 0.090, "pass": 0.236},
    SABOTEUR: {"path": 0.0, "dead_end": 0.096, "rockfall_dead_end": 0.001,
               "rockfall_path": 0.036, "break_same": 0.002, "break_other": 0.157,
               "repair_self": 0.094, "repair_same": 0.0, "repair_other": 0.0,
               "map": 0.087, "pass": 0.527},
}
#: Probability floor of every category (nobody is ever ruled out by what
#: they play, only by facts).
SABOTEUR_EPSILON = 0.02

#: Tunnel kinds below this are paths, the rest dead ends (``src_cy.saboteur.engine.KIND_NAMES``).
_FIRST_DEAD_END = 7
_SIMPLE = {"break": "break", "repair": "repair", "map": "map", "pass": "pass"}


@dataclass
class SaboteurRecord:
    """The current round as ``player`` saw it.

    ``events``: (actor, kind, target) for every public action, kind one of
    ``place_path, place_dead, rock_path, rock_dead, break, repair, map, pass``
    (target: the tool owner, else -1).  ``own_role``: the player's role this
    round (None before it is dealt).  ``revealed``: the roles of the round
    if it has ended (else None).
    """

    players: int
    own_role: int | None
    revealed: tuple | None
    events: list[tuple[int, str, int]]


def saboteur_record(engine, player: int) -> SaboteurRecord:
    """The current round's record from ``engine.event_log(player)`` (typed
    events, the ones ``player``'s information-state string renders)."""
    players = engine.num_players
    own_role = None
    revealed = None
    events: list[tuple[int, str, int]] = []
    for kind, actor, a, b, c, private in engine.event_log(player):
        if kind == "role":
            if actor == player and private >= 0:
                # A new round's deal: forget the previous round.
                own_role = DIGGER if private == 0 else SABOTEUR
                revealed = None
                events = []
        elif kind == "round_end":
            revealed = tuple(SABOTEUR if (a >> q) & 1 else DIGGER for q in range(players))
        elif revealed is not None:
            continue
        elif kind == "place":
            events.append((actor, "place_path" if b < _FIRST_DEAD_END else "place_dead", -1))
        elif kind == "rockfall":
            events.append((actor, "rock_path" if b < _FIRST_DEAD_END else "rock_dead", -1))
        elif kind in _SIMPLE:
            target = c if kind in ("break", "repair") else -1
            events.append((actor, _SIMPLE[kind], target))
    return SaboteurRecord(players, own_role, revealed, events)


def saboteur_category(actor_role: int, kind: str, target_role: int | None,
                      actor: int, target: int) -> str:
    """Category of one event (see :data:`SABOTEUR_CATEGORIES`)."""
    if kind == "place_path":
        return "path"
    if kind == "place_dead":
        return "dead_end"
    if kind == "rock_dead":
        return "rockfall_dead_end"
    if kind == "rock_path":
        return "rockfall_path"
    if kind == "break":
        return "break_same" if target_role == actor_role else "break_other"
    if kind == "repair":
        if target == actor:
            return "repair_self"
        return "repair_same" if target_role == actor_role else "repair_other"
    return kind


def _model_prob(role: int, category: str, model: dict, eps: float) -> float:
    table = model[role]
    total = sum(max(v, eps) for v in table.values())
    return max(table.get(category, 0.0), eps) / total


def saboteur_assignments(players: int, own: int, own_role: int | None) -> list[tuple[tuple, float]]:
    """Every role assignment the pool allows with ``own``'s role fixed, with
    its prior probability.

    Roles are dealt without replacement from a pool of one card more than
    players; counting labelled cards, every assignment the pool allows is
    dealt in ``saboteurs! * diggers!`` ways whichever kind the spare card
    is, so the prior is uniform over the allowed assignments."""
    if players not in SABOTEUR_ROLE_POOL:
        raise ValueError(f"saboteur players must be in 3..10, got {players}")
    ns, nd = SABOTEUR_ROLE_POOL[players]
    out = []
    for roles in product((DIGGER, SABOTEUR), repeat=players):
        if own_role is not None and roles[own] != own_role:
            continue
        k = sum(roles)
        if k > ns or players - k > nd:
            continue
        out.append((roles, 1.0))
    total = sum(w for _, w in out)
    return [(r, w / total) for r, w in out]


def saboteur_belief(state: pyspiel.State, player: int, *, model: dict | None = None,
                    epsilon: float = SABOTEUR_EPSILON) -> Belief:
    """Posterior over the current round's role assignment (see module doc)."""
    rec = saboteur_record(state.engine, player)
    return saboteur_posterior(rec, player, model=model, epsilon=epsilon)


def saboteur_posterior(rec: SaboteurRecord, player: int, *, model: dict | None = None,
                       epsilon: float = SABOTEUR_EPSILON) -> Belief:
    """Posterior over role assignments from a parsed record."""
    if not 0.0 < epsilon < 1.0:
        raise ValueError(f"epsilon must be in (0, 1), got {epsilon}")
    model = SABOTEUR_MODEL if model is None else model
    variables = "roles of seats 0..n-1 this round (0 gold-digger, 1 saboteur)"
    if rec.revealed is not None:
        return Belief("saboteur", player, variables, [rec.revealed], [1.0], [1.0])
    prior = saboteur_assignments(rec.players, player, rec.own_role)
    logp = {r: {c: math.log(_model_prob(r, c, model, epsilon)) for c in SABOTEUR_CATEGORIES}
            for r in (DIGGER, SABOTEUR)}
    logs = []
    for roles, _ in prior:
        s = 0.0
        for actor, kind, target in rec.events:
            if actor == player:
                continue
            cat = saboteur_category(roles[actor], kind,
                                    roles[target] if target >= 0 else None, actor, target)
            s += logp[roles[actor]][cat]
        logs.append(s)
    top = max(logs)
    lik = [math.exp(x - top) for x in logs]
    post = [w * l for (_, w), l in zip(prior, lik)]
    z = sum(post)
    return Belief("saboteur", player, variables, [r for r, _ in prior],
                  [p / z for p in post], lik)


def saboteur_roles(engine) -> tuple:
    """The role assignment a world (an engine) realises."""
    return tuple(engine.state_view()["roles"])


#: The model ``games.saboteur``'s spec gives (``GameSpec.belief``).
MODEL = BeliefModel(saboteur_belief, saboteur_roles)


def team_rounds(state: pyspiel.State) -> list[list[tuple[str, bool]]]:
    """Per finished round, per seat: ``(role, whether the seat's team won the
    round)``, role ``"digger"`` or ``"saboteur"``, from the public round-end
    events (``GameSpec.team_rounds``; ``experiments.strength`` reports team
    wins per role from it)."""
    engine = state.engine
    n = engine.num_players
    out = []
    for kind, _actor, mask, winner, _c, _private in engine.event_log(0):
        if kind == "round_end":
            sab = [bool((mask >> q) & 1) for q in range(n)]
            out.append([("saboteur" if sab[q] else "digger", sab[q] == (winner != 0))
                        for q in range(n)])
    return out
