"""Rollout mode (``Engine.quiet``): ISMCTS rollouts skip information keys and
event logs, and nothing else changes.

A quiet playout must take the same actions, see the same legal actions and
chance odds and end with the same returns as a normal one from the same
seed; a search (whose rollouts run quiet) must leave the root engine's keys
and strings equal to a fresh replay's, and draw the same random numbers as
one with normal rollouts (its statistics are those of the slow path, which
``tests/test_ismcts.py`` checks on other games).
"""
from __future__ import annotations

import pyspiel
import pytest

import games  # noqa: F401  (registers the games)
from experiments.bench.bench_search import mid_game
from solvers.ismcts import fast_search
from src_cy.engine import playout_trace

GAMES = [
    "gold_thief(players=2)",
    "gold_thief(players=4)",
    "saboteur(players=5,rounds=1)",
    "saboteur(players=3,rounds=2)",
    "ardillas_del_bosque(players=3)",
    "gold_nugget(players=2)",
    "gold_nugget(players=5)",
]


def views(state: pyspiel.State) -> list:
    """Every player's information key, information-state and observation string."""
    n = state.get_game().num_players()
    return [(state.engine.py_info_key(p), state.information_state_string(p),
             state.observation_string(p)) for p in range(n)]


@pytest.mark.parametrize("game_string", GAMES)
def test_quiet_playouts_match_normal_ones(game_string):
    game = pyspiel.load_game(game_string)
    for seed in range(6):
        state = mid_game(game, seed, 3 * seed)
        for playout_seed in (seed, 100 + seed):
            loud = playout_trace(state.engine, playout_seed, False)
            quiet = playout_trace(state.engine, playout_seed, True)
            assert quiet == loud
            assert loud[0], "the playout applied no action"


@pytest.mark.parametrize("game_string", GAMES)
def test_search_leaves_the_root_as_a_fresh_replay(game_string):
    game = pyspiel.load_game(game_string)
    state = mid_game(game)
    before = views(state)
    history = state.engine.py_history()
    fast_search(state.engine, state.current_player(), max_simulations=300, seed=3)
    assert not state.engine.quiet
    assert state.engine.py_history() == history
    fresh = game.new_initial_state()
    for action in history:
        fresh.apply_action(action)
    assert views(state) == before == views(fresh)


def test_quiet_is_cleared_by_copies():
    game = pyspiel.load_game("gold_thief(players=2)")
    state = mid_game(game, 1, 5)
    assert not state.engine.quiet
    assert not state.engine.py_clone().quiet
    assert not state.engine.py_resample(state.current_player(), 7).quiet
