"""Gold Nugget knowledge rollouts (``src_cy.gold_nugget.rollout``): the grab
rule and uniform choices elsewhere (the engine and pyspiel twins:
``tests/test_rollouts.py``)."""
import random

import pyspiel

import games  # noqa: F401
from games.testing import rollout_counts
from games.gold_nugget import A_NEST, A_STONE, MAX_STONES
from src_cy.gold_nugget.rollout import GoldNuggetRollout
from src_cy.ismcts import rollout_choice

POLICY = GoldNuggetRollout()

NUGGET = 2


def _grab_positions(players: int, seeds: range) -> list[pyspiel.State]:
    """Every grab decision of random games (one state per decision)."""
    game = pyspiel.load_game("gold_nugget", {"players": players})
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                acts, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(acts, probs)[0])
                continue
            if state.engine.info()["phase"] == "Raven: grab":
                out.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    return out


def _expected(state: pyspiel.State) -> tuple[str, set[int]]:
    """The rule of the module docstring, computed from the public test helpers."""
    e, p = state.engine, state.current_player()
    knows = e.info()["knows"][p]
    faces = e.stone_faces()
    lairs = e.lairs()
    legal = state.legal_actions()

    def stone(a: int) -> int:
        return lairs[(a - A_STONE) // MAX_STONES][(a - A_STONE) % MAX_STONES]

    known_nugget = [a for a in legal if a >= A_STONE
                    and knows >> stone(a) & 1 and faces[stone(a)] == NUGGET]
    if known_nugget:
        return "known", {known_nugget[0]}
    cands = {a for a in legal if a == A_NEST or (a >= A_STONE and not knows >> stone(a) & 1)}
    return ("unknown", cands) if cands else ("all", set(legal))


def test_grab_rule_on_random_grab_positions():
    cases = {"known": 0, "unknown": 0}
    positions = _grab_positions(2, range(12)) + _grab_positions(3, range(6))
    assert len(positions) >= 30
    for state in positions:
        kind, allowed = _expected(state)
        cases[kind] = cases.get(kind, 0) + 1
        legal = state.legal_actions()
        s = 12345
        picks = set()
        for _ in range(200):
            a, s = rollout_choice(POLICY, state.engine, legal, s)
            picks.add(a)
        assert picks == allowed, (kind, picks, allowed)
    assert cases["known"] > 0 and cases["unknown"] > 0      # both branches exercised


def test_other_decisions_are_uniform():
    game = pyspiel.load_game("gold_nugget", {"players": 2})
    rng = random.Random(5)
    state = game.new_initial_state()
    while state.is_chance_node() or len(state.legal_actions()) < 3:
        acts, probs = zip(*state.chance_outcomes()) if state.is_chance_node() else (
            state.legal_actions(), None)
        state.apply_action(rng.choices(acts, probs)[0] if probs else rng.choice(acts))
    counts = rollout_counts(POLICY, state, 300, 7)
    assert all(200 < c < 400 for c in counts.values()), counts
