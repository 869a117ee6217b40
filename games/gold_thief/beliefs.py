"""Gold Thief's belief model: who holds Guards and Faeries, and which goal
numbers fit the gold each player steers toward.

The hidden variable is, per seat, ``(Guards, Faeries, goals)``: the number
of Guards and Faeries in hand and the sorted ids of the face-down goal
cards (the player's own entry is exact).

*Prior*: the engine's information-set resampler (every world consistent
with the player's information, weighted by its chance probability).

*Likelihood (opponent model)*: the heuristic bot's steering rule
(``games/gold_thief/ai.py``): a player moves gold toward its nearest goal
number.  Every public card another player chose that changes its own gold
by a known amount is a *steering event*: a Thief on someone (+2; not
counted when the victim is one goal from winning, which the heuristic
robs anyway), a raid (+1), a Witch as an extra Thief (+1), a Guard gift
(-1), and a Guard cancelling a theft on itself (it keeps the 2 or 1 gold
the theft would take).  Under goal cards with numbers T, the event is
*consistent* when the change does not take the actor further from T
(``min |gold' - t| <= min |gold - t|``; for a cancel: losing the gold would
not have brought it nearer), and has likelihood 1, else ``epsilon``
(default :data:`GOAL_EPSILON`; a floor, because players also play for
other reasons, so nothing is ruled out by behaviour).  The goals a player
held at an event are read from the world: only events since the player's
last goal acquisition (a goal dealt or a Faerie swap) count, and then its
goals were its current face-down goals plus the ones it flipped since the
event (flips are public).  Events before its last acquisition are ignored
(a documented simplification: they carry some evidence about goals still
held).  The player's own actions are not evidence.

``belief(state, player, samples=256, seed=0, epsilon=0.25)``: self-normalised
importance weights over ``samples`` resampled worlds (the weight of a world
is its likelihood).  Belief-weighted determinization accepts a resampled
world with probability equal to its likelihood (the maximum possible is 1).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import pyspiel

from games.interfaces import Belief, BeliefModel
from src_cy.gold_thief.engine import ACTION_LAYOUT as _LAYOUT
from src_cy.rng import SplitMix64

GOLD_THIEF_GUARD, GOLD_THIEF_FAERIE = _LAYOUT["GUARD"], _LAYOUT["FAERIE"]
_THIEF, _GUARD, _WITCH = _LAYOUT["A_THIEF"], _LAYOUT["A_GUARD"], _LAYOUT["A_WITCH"]
_FAERIE, _NINJA = _LAYOUT["A_FAERIE"], _LAYOUT["A_NINJA"]
_RAID, _EXTRA, _CANCEL = _LAYOUT["A_THIEF_RAID"], _LAYOUT["A_WITCH_EXTRA"], _LAYOUT["A_GUARD_CANCEL"]
_E_THIEF, _E_RAID, _E_EXTRA = 0, 1, 2

#: Likelihood of a steering event that takes the actor away from its goals.
GOAL_EPSILON = 0.25


@dataclass(frozen=True)
class SteerEvent:
    """A public card that moved its player's gold by ``delta`` from ``gold``
    (for a Guard cancel: ``delta`` is the loss it avoided, negative, and
    ``cancel`` is True).  ``flipped_after``: goal ids the actor flipped
    later (still held at the event)."""

    actor: int
    gold: int
    delta: int
    cancel: bool
    flipped_after: tuple[int, ...]


def gold_thief_holdings(engine) -> tuple:
    """Per seat (Guards, Faeries) in hand in a world (an engine)."""
    return tuple((h.count(GOLD_THIEF_GUARD), h.count(GOLD_THIEF_FAERIE))
                 for h in (engine.hand(q) for q in range(engine.num_players)))


def gold_thief_hidden(engine) -> tuple:
    """Per seat (Guards, Faeries, sorted face-down goal ids) in a world."""
    return tuple((g, f, tuple(sorted(engine.goals_down(q))))
                 for q, (g, f) in enumerate(gold_thief_holdings(engine)))


def _steer(action: int, actor: int, view: dict, goals_to_win: int) -> tuple[int, bool] | None:
    """(delta, cancel) of a steering card, or None."""
    if _THIEF <= action < _GUARD:
        victim = action - _THIEF
        if len(view["face_up"][victim]) >= goals_to_win - 1:
            return None
        return 2, False
    if _GUARD <= action < _WITCH:
        return -1, False
    if action in (_RAID, _EXTRA):
        return 1, False
    if action == _CANCEL and view["pending"]:
        kind, _player, victim, _ben, _canc = view["pending"][-1]
        if victim == actor and kind in (_E_THIEF, _E_RAID, _E_EXTRA):
            return (-2 if kind == _E_THIEF else -1), True
    return None


def steering_record(state: pyspiel.State, player: int, seed: int = 0) -> dict[int, list[SteerEvent]]:
    """Every other seat's steering events since its last goal acquisition.

    Read from one world of ``player``'s information set (``state.resample(
    player, seed)``) replayed from the start: only public facts are used
    (cards played, gold, face-down counts, flips), which every world of the
    information set shares, so the record is a function of ``player``'s
    information state."""
    game = state.get_game()
    world = state.resample(player, seed)
    replay = game.new_initial_state()
    n = game.num_players()
    goals_to_win = replay.engine.goals_to_win
    raw: dict[int, list[tuple[int, int, int, bool]]] = {q: [] for q in range(n)}
    last_acq = [-1] * n
    flips: dict[int, list[tuple[int, int]]] = {q: [] for q in range(n)}
    before = replay.engine.public_view()
    for i, action in enumerate(world.history()):
        actor = replay.current_player()
        if actor >= 0 and actor != player:
            steer = _steer(action, actor, before, goals_to_win)
            if steer is not None:
                raw[actor].append((i, before["gold"][actor], steer[0], steer[1]))
            if _FAERIE <= action < _NINJA:
                last_acq[actor] = i
        replay.apply_action(action)
        after = replay.engine.public_view()
        for q in range(n):
            if after["face_down_counts"][q] > before["face_down_counts"][q]:
                last_acq[q] = i
            for g in after["face_up"][q][len(before["face_up"][q]):]:
                flips[q].append((i, g))
        before = after
    out: dict[int, list[SteerEvent]] = {}
    for q in range(n):
        if q == player:
            continue
        out[q] = [SteerEvent(q, gold, delta, cancel,
                             tuple(g for j, g in flips[q] if j >= i))
                  for i, gold, delta, cancel in raw[q] if i > last_acq[q]]
    return out


def event_likelihood(event: SteerEvent, goals: tuple[int, ...],
                     numbers: tuple[tuple[int, ...], ...], epsilon: float) -> float:
    """1 if ``event`` fits goal cards ``goals`` (with the flips after it), else ``epsilon``."""
    targets = [x for g in (*goals, *event.flipped_after) for x in numbers[g]]
    if not targets:
        return 1.0

    def dist(amount: int) -> int:
        return min(abs(amount - t) for t in targets)
    here = dist(event.gold)
    if event.cancel:   # kept the gold: losing it would not have brought it nearer
        return 1.0 if not dist(event.gold + event.delta) < here else epsilon
    return 1.0 if dist(event.gold + event.delta) <= here else epsilon


def record_likelihood(record: dict[int, list[SteerEvent]], goals_of: Callable[[int], tuple],
                      numbers: tuple[tuple[int, ...], ...], epsilon: float) -> float:
    """Product of the event likelihoods of every seat in ``record``, seat q
    holding face-down goals ``goals_of(q)`` now."""
    lik = 1.0
    for q, events in record.items():
        if events:
            goals = goals_of(q)
            for e in events:
                lik *= event_likelihood(e, goals, numbers, epsilon)
    return lik


def _numbers(engine) -> tuple[tuple[int, ...], ...]:
    """The numbers on every goal card, by goal id."""
    return tuple(tuple(engine.goal_numbers(g)) for g in range(engine.num_goals))


def _check_epsilon(epsilon: float) -> None:
    if not 0.0 < epsilon <= 1.0:
        raise ValueError(f"epsilon must be in (0, 1], got {epsilon!r}")


def gold_thief_belief(state: pyspiel.State, player: int, *, samples: int = 256,
                      seed: int = 0, epsilon: float = GOAL_EPSILON) -> Belief:
    """Per seat (Guards, Faeries, face-down goals): the resampler's worlds
    weighted by the steering likelihood (see the module doc)."""
    if not isinstance(samples, int) or samples < 1:
        raise ValueError(f"samples must be an int >= 1, got {samples!r}")
    _check_epsilon(epsilon)
    numbers = _numbers(state.engine)
    rng = SplitMix64(seed)
    record = steering_record(state, player, rng.next())
    weight: dict[tuple, float] = {}
    lik: dict[tuple, float] = {}
    for _ in range(samples):
        engine = state.engine.py_resample(player, rng.next())
        h = gold_thief_hidden(engine)
        if h not in lik:
            lik[h] = record_likelihood(record, lambda q: h[q][2], numbers, epsilon)
        weight[h] = weight.get(h, 0.0) + lik[h]
    outcomes = sorted(weight)
    z = sum(weight.values())
    top = max(lik.values())
    return Belief("gold_thief", player,
                  "per seat (Guards, Faeries, sorted face-down goal ids)", outcomes,
                  [weight[o] / z for o in outcomes], [lik[o] / top for o in outcomes])


def gold_thief_acceptance(state: pyspiel.State, player: int, *,
                          epsilon: float = GOAL_EPSILON) -> Callable[[Any], float]:
    """``accept(world engine)``: the world's steering likelihood (max 1)."""
    _check_epsilon(epsilon)
    numbers = _numbers(state.engine)
    record = steering_record(state, player, 0)

    def accept(engine) -> float:
        return record_likelihood(record, lambda q: tuple(engine.goals_down(q)), numbers,
                                 epsilon)
    return accept


#: The model ``games.gold_thief``'s spec gives (``GameSpec.belief``).
MODEL = BeliefModel(gold_thief_belief, gold_thief_hidden, acceptance=gold_thief_acceptance)
