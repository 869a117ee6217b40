"""Ardillas del Bosque knowledge rollouts (``src_cy.ardillas_del_bosque.rollout``):
the take rule against the mover's own view and uniform choices elsewhere
(the engine and pyspiel twins: ``tests/test_rollouts.py``)."""
import random

import pyspiel

import games  # noqa: F401
from games.testing import rollout_counts
from games.ardillas_del_bosque import A_INDEX, A_PILE
from src_cy.ardillas_del_bosque.rollout import ArdillasRollout
from src_cy.ismcts import rollout_choice

POLICY = ArdillasRollout()

NUTS = {"walnut", "almond", "hazelnut", "peanut", "chestnut"}
TAKES = {"winter-draw", "bear-draw", "lynx-pick"}


def _play(state: pyspiel.State, rng: random.Random) -> None:
    if state.is_chance_node():
        acts, probs = zip(*state.chance_outcomes())
        state.apply_action(rng.choices(acts, probs)[0])
    else:
        state.apply_action(rng.choice(state.legal_actions()))


def _positions(params: dict, seeds: range, phases: set[str]) -> list[pyspiel.State]:
    game = pyspiel.load_game("ardillas_del_bosque", params)
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if not state.is_chance_node() and \
                    state.engine.player_view(state.current_player()).phase in phases:
                out.append(state.clone())
            _play(state, rng)
    return out


def _grade(kind: str | None) -> int:
    if kind is None or kind == "squirrel":
        return 1
    return 2 if kind in NUTS else 0


def _expected(state: pyspiel.State) -> set[int]:
    """The rule of the module docstring, from the mover's own view."""
    view = state.engine.player_view(state.current_player())
    grades = {}
    for a in state.legal_actions():
        if view.phase == "lynx-pick":
            pile = view.piles[view.focus_pile]          # top first; the index counts from the bottom
            token = pile[len(pile) - 1 - (a - A_INDEX)]
        else:
            token = view.piles[a - A_PILE][0]
        grades[a] = _grade(token.kind)
    best = max(grades.values())
    return {a for a, g in grades.items() if g == best}


def test_take_rule_on_random_positions():
    positions = (_positions({"players": 2}, range(10), TAKES)
                 + _positions({"players": 3, "boards": "bear+lynx+ant"}, range(6), TAKES))
    kinds = {"nut": 0, "open": 0, "lynx": 0}
    for state in positions:
        allowed = _expected(state)
        view = state.engine.player_view(state.current_player())
        kinds["lynx"] += view.phase == "lynx-pick"
        legal = state.legal_actions()
        s, picks = 99, set()
        for _ in range(40 * len(legal)):
            a, s = rollout_choice(POLICY, state.engine, legal, s)
            picks.add(a)
        assert picks == allowed, (view.phase, picks, allowed)
        kinds["nut" if len(allowed) < len(legal) else "open"] += 1
    assert kinds["nut"] > 0 and kinds["open"] > 0 and kinds["lynx"] > 0


def test_other_decisions_are_uniform():
    state = _positions({"players": 2}, range(1), {"autumn-place"})[0]
    counts = rollout_counts(POLICY, state, 300, 3)
    assert all(200 < c < 400 for c in counts.values()), counts
