"""Gold Nugget: the information contract (issue 10) and a regression test for
each leak it named, each built from two histories the player cannot tell apart."""
from __future__ import annotations

import random
import time

import numpy as np
import pyspiel
import pytest

import games  # noqa: F401
import games.gold_nugget as gn
from games import testing
from games.gold_nugget import A_OPT1, A_PASS, A_PLAYER, stone_action
from tests.games.gold_nugget.test_gold_nugget_rules import (AFTERNOON, CARD, MORNING, NIGHT, NOON, PEEKS, W,
                                          _passes_private_pair, do, pass_until, play, setup)
from tiers import slow_above_min_players

KEEP = A_OPT1


@pytest.mark.conformance
@pytest.mark.parametrize("params, num_games, every", slow_above_min_players("gold_nugget", [
    (gn.MINI_PARAMS, 2, 3), ({"players": 2}, 1, 10), ({"players": 3, "utility": "zero_sum"}, 1, 12),
    ({"players": 4}, 1, 20), ({"players": 5, "advanced": True}, 1, 25),
    ({"players": 5, "abilities": False}, 1, 25),
]), ids=["mini", "p2", "p3-zero_sum", "p4-default", "p5-advanced", "p5-noabilities"])
def test_information_contract(params, num_games, every):
    game = pyspiel.load_game("gold_nugget", params)
    assert testing.check_information_contract(game, num_games=num_games, seed=5, draws=1,
                                              continue_steps=10, every=every) > 0


@pytest.mark.conformance
@pytest.mark.parametrize("params", [pytest.param({}, marks=pytest.mark.slow), gn.MINI_PARAMS],
                         ids=["default", "mini"])
def test_openspiel_algorithms(params):
    testing.check_openspiel_algorithms(pyspiel.load_game("gold_nugget", params), positions=2,
                                       max_simulations=30)


def test_snapshot_refused_under_O():
    testing.check_snapshot_refused_under_O("gold_nugget(players=3,days=1)")


def _same_to(player, a, b):
    assert a.information_state_string(player) == b.information_state_string(player)
    assert a.engine.py_info_key(player) == b.engine.py_info_key(player)
    assert np.array_equal(a.information_state_tensor(player), b.information_state_tensor(player))
    assert a.observation_string(player) == b.observation_string(player)
    assert np.array_equal(a.observation_tensor(player), b.observation_tensor(player))


def test_leak_sleeper_sees_no_feathers(stat_seed):
    """A sleeper learnt from the live feather counts that a trap was examined."""
    pair = []
    for slot in (0, 1):                            # p1#0 is a trap, p1#1 a normal stone
        _, st = setup([PEEKS] * 3, tods=(NOON, MORNING, NIGHT))
        do(st, play("peek"), stone_action(1, slot))
        pair.append(st)
    assert pair[0].engine.feathers()[0] == 1 and pair[1].engine.feathers()[0] == 0
    _same_to(1, *pair)
    assert "feathers=?" in pair[0].observation_string(1)
    testing.check_resample_distribution(pair[0], pair[1], 1,
                                        lambda w: w.engine.feathers()[0], n=120,
                                        seed=stat_seed(0))


def test_leak_chance_steal_slot_hidden_from_sleepers(stat_seed):
    pair = []
    for slot in (0, 1):
        _, st = setup([["chance"] + PEEKS[:4]] + [PEEKS] * 2, tods=(NOON, MORNING, NIGHT))
        do(st, play("chance"), stone_action(2, slot), KEEP)
        pair.append(st)
    _same_to(1, *pair)
    testing.check_resample_distribution(
        pair[0], pair[1], 1, lambda w: w.engine.stone_faces()[w.engine.lairs()[0][-1]], n=120,
        seed=stat_seed(0))


def _nugget_owner(world) -> int:
    return next((q for q, lair in enumerate(world.engine.lairs()) if 0 in lair), -1)


def test_leak_hidden_swap_moves_the_nugget_in_resampled_worlds(stat_seed):
    """The resampler kept every stone in its true place after a hidden swap."""
    pair = []
    for slot in (0, 1):                            # p2#0 is the nugget
        _, st = setup([["loyal_friend"] + PEEKS[:4]] + [PEEKS] * 3,
                      animals=("raccoon", "rabbit", "fox", "bear"),
                      tods=(NOON, AFTERNOON, NIGHT, MORNING),
                      stones=((4, 5), (6, 7), (0, 8), (9, 10)))
        do(st, play("loyal_friend"), A_PLAYER + 1, A_PLAYER + 2, stone_action(1, slot),
           stone_action(2, slot), KEEP, KEEP)
        pair.append(st)
    assert _nugget_owner(pair[0]) == 1 and _nugget_owner(pair[1]) == 2
    _same_to(3, *pair)
    owners = {_nugget_owner(pair[0].resample(3, seed)) for seed in range(40)}
    assert {1, 2} <= owners
    testing.check_resample_distribution(pair[0], pair[1], 3, _nugget_owner, n=120,
                                        seed=stat_seed(0))


def test_leak_hand_of_the_player_to_move_is_redealt(stat_seed):
    with_instant, without = _passes_private_pair()
    _same_to(0, with_instant, without)
    testing.check_resample_distribution(
        with_instant, without, 0, lambda w: w.engine.hand(1)[CARD["glance"]] > 0, n=120,
        seed=stat_seed(0))


def test_leak_face_down_cards_are_redealt(stat_seed):
    pair = []
    for card in ("chance", "peek"):
        _, st = setup([PEEKS, ["chance"] + PEEKS[:4], PEEKS])
        pass_until(st, "Raven: face-down cards")
        do(st, play(card))
        pair.append(st)
    _same_to(2, *pair)
    testing.check_resample_distribution(pair[0], pair[1], 2,
                                        lambda w: tuple(w.engine.hand(1)), n=120,
                                        seed=stat_seed(0))


def test_leak_hands_redealt_after_a_reshuffle():
    """The resampler no longer keeps every hand once the deck was rebuilt."""
    game = pyspiel.load_game("gold_nugget", {"players": 2, "leaf_default": 2})
    rng = random.Random(4)
    state = game.new_initial_state()
    while not (state.engine.info()["reshuffled"] and not state.is_chance_node()
               and min(state.engine.player_view(0)["cards"]) >= 3):
        state.apply_action(testing.random_action(state, rng))
        assert not state.is_terminal()
    p = state.current_player()
    hands = {tuple(state.resample(p, seed).engine.hand(1 - p)) for seed in range(30)}
    assert len(hands) > 1


def test_resampling_speed():
    """Mid-game resampling cost (reported in the rules doc)."""
    game = pyspiel.load_game("gold_nugget", {"players": 4})
    state = testing.mid_game_states(game, 1, seed=3, min_depth=120)[0]
    p = state.current_player()
    start = time.process_time()                 # CPU time: the cores are shared
    for seed in range(20):
        state.engine.py_resample_history(p, seed)
    assert (time.process_time() - start) / 20 < 0.05


def test_event_log_fits_the_information_tensor():
    """Random 5-player advanced games stay well below the tensor's event bound."""
    from src_cy.gold_nugget.engine import MAX_EVENTS
    game = pyspiel.load_game("gold_nugget", {"players": 5, "advanced": True})
    longest = 0
    for seed in range(20):
        engine = game.make_engine()
        engine.random_playout(seed)
        longest = max(longest, max(engine.events_seen(p) for p in range(5)))
    assert longest < MAX_EVENTS // 2
