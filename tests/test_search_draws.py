"""A search's draws (``Engine.sample_chance_sorted`` and
``Engine.sample_uniform_legal``, which engines may override with faster
ways to the same outcome) equal the reference draws the slow path makes:
one ``random()`` against the chance outcomes sorted by id, one
``randint(n)`` over the ``n`` legal actions sorted, on the same stream.
Checked at every node of seeded playouts, rollout mode or not (quiet
playouts take the same actions: ``tests/test_rollout_quiet.py``), for
several generator states per node."""
from __future__ import annotations

import pyspiel
import pytest

import games  # noqa: F401  (registers the games)
from experiments.bench.bench_search import mid_game
from src_cy.rng import SplitMix64, sample_sorted

GAMES = [
    "gold_thief(players=3)",
    "saboteur(players=5,rounds=1)",
    "saboteur(players=3,rounds=2)",
    "saboteur(players=10,rounds=1)",
    "ardillas_del_bosque(players=3)",
]


def reference_draw(engine, rng_state: int) -> tuple[int, int]:
    """The slow path's draw at ``engine``'s node: (action, new rng state)."""
    rng = SplitMix64(rng_state)
    if engine.py_current_player() == pyspiel.PlayerId.CHANCE:
        action = sample_sorted(sorted(engine.py_chance_outcomes()), rng)
    else:
        legal = engine.py_legal_actions()
        action = legal[rng.randint(len(legal))]
    return action, rng.s


@pytest.mark.parametrize("game_string", GAMES)
def test_search_draws_match_the_reference(game_string):
    game = pyspiel.load_game(game_string)
    nodes = decisions = 0
    for seed in range(4):
        engine = mid_game(game, seed, 2 * seed).engine.py_clone()
        walk = SplitMix64(1000 + seed)
        while not engine.py_is_terminal():
            decisions += engine.py_current_player() >= 0
            for _ in range(5):
                rng_state = walk.next()
                assert engine.py_search_draw(rng_state) == reference_draw(engine, rng_state)
            engine.py_apply(engine.py_search_draw(walk.next())[0])
            nodes += 1
    assert decisions > 20 and nodes > decisions


def test_search_draw_refuses_a_terminal_state():
    engine = pyspiel.load_game("saboteur(players=3,rounds=1)").new_initial_state().engine
    rng = SplitMix64(5)
    while not engine.py_is_terminal():
        engine.py_apply(engine.py_search_draw(rng.next())[0])
    with pytest.raises(ValueError, match="terminal"):
        engine.py_search_draw(1)
