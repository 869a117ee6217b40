"""A search's draws (``Engine.sample_chance_sorted`` and
``Engine.sample_uniform_legal``, which engines may override with faster
ways to the same outcome) equal the reference draws the slow path makes:
one ``random()`` against the chance outcomes sorted by id, one
``randint(n)`` over the ``n`` legal actions sorted, on the same stream.
Checked at every node of seeded playouts, rollout mode or not (quiet
playouts take the same actions: ``tests/test_rollout_quiet.py``), for
several generator states per node."""
from __future__ import annotations

import collections

import pyspiel
import pytest

import games  # noqa: F401  (registers the games)
from experiments.bench.bench_search import mid_game
from src_cy.rng import MASK64, SplitMix64, sample_sorted

GAMES = [
    "gold_thief(players=2)",
    "gold_thief(players=3)",
    "gold_thief(players=5)",
    "saboteur(players=5,rounds=1)",
    "saboteur(players=3,rounds=2)",
    "saboteur(players=10,rounds=1)",
    "ardillas_del_bosque(players=3)",
    "gold_nugget(players=2)",
    "gold_nugget(players=3)",
    "gold_nugget(players=5)",
    "gold_nugget(players=4,advanced=True)",
    "gold_nugget(players=3,deal_animals=1,abilities=False)",
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


def state_for_draw(u53: int) -> int:
    """A splitmix64 state whose next ``random()`` is ``u53 / 2**53``
    (the output's top 53 bits; the mixing steps inverted)."""
    z = (u53 << 11) & MASK64
    z ^= (z >> 31) ^ (z >> 62)
    z = (z * pow(0x94D049BB133111EB, -1, 1 << 64)) & MASK64
    z ^= (z >> 27) ^ (z >> 54)
    z = (z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & MASK64
    z ^= (z >> 30) ^ (z >> 60)
    return (z - 0x9E3779B97F4A7C15) & MASK64


@pytest.mark.parametrize("game_string", ["saboteur(players=5,rounds=1)",
                                         "gold_nugget(players=3)"])
def test_card_draw_at_the_odds_boundaries(game_string):
    """A card draw lands where the reference lands for draws at and a few
    ulps either side of every boundary of the running odds (where the fast
    count-based pick hands over to the float walk, or the walk stops)."""
    game = pyspiel.load_game(game_string)
    engine = mid_game(game, 1, 4).engine.py_clone()
    checked = 0
    rng = SplitMix64(3)
    while not engine.py_is_terminal() and checked < 400:
        if engine.py_current_player() == pyspiel.PlayerId.CHANCE:
            outcomes = sorted(engine.py_chance_outcomes())
            acc = 0.0
            for _, p in outcomes[:-1]:
                acc += p
                edge = int(acc * 2**53)
                for u53 in range(edge - 3, edge + 4):
                    s = state_for_draw(u53)
                    assert SplitMix64(s).random() == u53 / 2**53
                    assert engine.py_search_draw(s) == reference_draw(engine, s)
                    checked += 1
        engine.py_apply(engine.py_search_draw(rng.next())[0])
    assert checked >= 100


def test_saboteur_uniform_draw_hits_every_legal_index():
    """At card decisions of seeded Saboteur playouts, the uniform draw from
    a stream whose ``randint(n)`` is ``k`` is the ``k``-th legal action for
    every ``k`` (every block the fast draw counts: placements of each kind
    and orientation, rockfalls, tool breaks, repairs, map looks, passes)."""
    kinds = collections.Counter()
    for game_string in ("saboteur(players=3,rounds=2)", "saboteur(players=5,rounds=1)",
                        "saboteur(players=10,rounds=1)"):
        game = pyspiel.load_game(game_string)
        for seed in range(3):
            engine = mid_game(game, seed, seed).engine.py_clone()
            walk = SplitMix64(50 + seed)
            while not engine.py_is_terminal():
                player = engine.py_current_player()
                if player >= 0:
                    legal = engine.py_legal_actions()
                    for k, action in enumerate(legal):
                        state = state_for_draw(k)
                        assert SplitMix64(state).randint(len(legal)) == k
                        assert engine.py_search_draw(state)[0] == action
                        kinds[engine.action_to_string(player, action).split()[0]] += 1
                engine.py_apply(engine.py_search_draw(walk.next())[0])
    assert set(kinds) == {"place", "rockfall", "break", "repair", "map", "pass"}, kinds
