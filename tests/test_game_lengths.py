"""``max_game_length`` is a true bound (random games at every preset and
player count stay within it) and, for Gold Thief, Gold Nugget and Ardillas,
within 10x of the longest random game (``experiments/bench/game_lengths.py``)."""
from __future__ import annotations

import numpy as np
import pyspiel
import pytest

from experiments.bench.game_lengths import configurations, lengths, measure, table
from games.spec import find_spec
from solvers.tree import compile_game

CONFIGS = configurations()
OWNED = ("gold_thief", "gold_nugget", "ardillas_del_bosque")


@pytest.mark.parametrize("name,preset,players,game", CONFIGS,
                         ids=[f"{c[0]}-{c[1]}-{c[2]}p" for c in CONFIGS])
def test_random_games_stay_within_the_bound(name, preset, players, game):
    ls = lengths(game, 300, seed=7)
    assert ls.max() <= game.max_game_length()
    if name in OWNED:  # OpenSpiel's own checker (Saboteur's runs in its own tests)
        pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("name", OWNED)
def test_bound_is_within_ten_times_the_longest_random_game(name):
    rows = measure(2_000, seed=1, names=(name,), progress=False)
    assert rows and {r.players for r in rows if r.preset == "default"} == set(
        range(pyspiel.load_game(name).get_type().min_num_players,
              pyspiel.load_game(name).get_type().max_num_players + 1))
    for r in rows:
        assert r.longest <= r.max_game_length < 10 * r.longest, r


def test_gold_thief_mini_tree_fits_the_bound():
    # the exact longest game of the mini tree (25 moves) is far below the
    # move cap (185), so the cap cuts no line of the solved game
    game = find_spec("gold_thief").load("mini")
    tree = compile_game(game)
    depth = np.zeros(tree.num_nodes, np.int64)
    for i in range(1, tree.num_nodes):
        depth[i] = depth[tree.parent[i]] + 1
    assert tree.num_nodes == 64_101
    assert depth.max() == 25 and game.max_game_length() == 185


def test_gold_thief_bound_formula():
    for n, turns, hand in [(2, 100, 3), (5, 100, 3), (3, 7, 2)]:
        game = pyspiel.load_game("gold_thief", {"players": n, "max_turns": turns,
                                                "hand_size": hand})
        assert game.max_game_length() == 1 + n + n * hand + 30 * turns


def test_table_and_bad_input():
    game = find_spec("kuhn_poker").load("default")
    # kuhn: two deals, then two or three bets
    assert set(lengths(game, 50, seed=0).tolist()) == {4, 5}
    assert lengths(game, 50, seed=0).tolist() == lengths(game, 50, seed=0).tolist()
    with pytest.raises(ValueError, match="count must be >= 1"):
        lengths(game, 0, seed=0)
    rows = measure(10, seed=0, names=("ardillas_del_bosque",), presets=("mini",), progress=False)
    text = table(rows)
    assert text.count("\n") == len(rows) + 1 and "| ardillas_del_bosque | mini | 2 | 10 |" in text
