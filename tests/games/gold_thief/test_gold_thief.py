"""Gold Thief: conformance suite, rulebook scenarios, properties, bad input."""
from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from hypothesis import given, settings, strategies as st

import games  # noqa: F401
from games import testing
from games.testing import random_action
from games._adapter import ParameterError
from tiers import slow_above_min_players

T, G, W, F, N = range(5)          # card types
END, PASS = 0, 1
THIEF, GUARD, WITCH, FAERIE, NINJA = 2, 7, 12, 17, 41
G_CANCEL, RAID, W_EXTRA, F_CANCEL = 42, 43, 44, 45
NINJA_SCORE, BIG_FLIP, GIVE = 46, 70, 94
C_GOAL = 5
# goal ids of TEST_GOALS: 0 [4/10] 1 [1/7] 2 [2/8] 3 [3/9] 4 [0/6] 5 [6/9]
TEST_GOALS = "4/10;1/7;2/8;3/9;0/6;6/9"
PLAYTHROUGHS = Path(__file__).parent / "playthroughs"


def invariant(state: pyspiel.State) -> None:
    state.engine.check_invariants()


def deal(goals_for, hands, **params) -> pyspiel.State:
    """A game with seat 0 first, chosen goals and hands, at P0's first decision."""
    n = len(hands)
    p = {"players": n, "goals": TEST_GOALS, "first_player": 0, "faeries": 10, "ninjas": 4,
         "hand_size": len(hands[0]), **params}
    state = pyspiel.load_game("gold_thief", p).new_initial_state()
    for seat in range(n):
        state.apply_action(C_GOAL + goals_for[seat])
    for r in range(len(hands[0])):
        for seat in range(n):
            state.apply_action(hands[seat][r])
    return state


def play(state: pyspiel.State, *actions: int) -> pyspiel.State:
    for a in actions:
        state.apply_action(a)
    return state


def gold(state):
    return state.engine.gold()


# ------------------------------------------------------------------ conformance
def conformance(game: pyspiel.Game, num_sims: int, num_games: int) -> None:
    """The shared suite (resampling is checked by tests/games/gold_thief/test_gold_thief_contract.py,
    against the information contract: who decides in a window is hidden)."""
    testing.check_random_sim(game, num_sims)
    testing.check_invariants_along_games(game, invariant, num_games)
    testing.check_serialization(game, num_games=3)
    testing.check_clone_independence(game)
    testing.check_tensors(game, num_games=2)
    testing.check_illegal_actions(game, num_games=2)


@pytest.mark.conformance
@pytest.mark.parametrize("players", slow_above_min_players("gold_thief", [2, 3, 4, 5]))
def test_conformance(players):
    game = pyspiel.load_game("gold_thief", {"players": players})
    conformance(game, num_sims=2, num_games=4)


@pytest.mark.conformance
def test_conformance_mini():
    from games.gold_thief import MINI_PARAMS
    game = pyspiel.load_game("gold_thief", MINI_PARAMS)
    conformance(game, num_sims=5, num_games=20)


@pytest.mark.conformance
def test_conformance_variant_no_cards_of_some_kinds():
    game = pyspiel.load_game("gold_thief", {"players": 3, "ninjas": 0, "faeries": 0,
                                            "hand_size": 4, "goals_to_win": 2})
    conformance(game, num_sims=2, num_games=4)


# ------------------------------------------------------------------ own-turn cards
def test_thief_steals_two():
    s = deal([0, 1], [[T, G, G], [G, G, G]], guards=10)
    play(s, THIEF + 1)
    assert s.current_player() == 1            # P1 holds a Guard: may cancel
    assert s.legal_actions() == [PASS, G_CANCEL]
    play(s, PASS)
    assert gold(s) == [7, 3]
    assert s.current_player() == 0


def test_thief_never_takes_gold_below_zero():
    s = deal([0, 1], [[T, T, T], [F, F, F]], start_gold=1)
    play(s, THIEF + 1)                         # P1 holds no answer to a Thief
    assert gold(s) == [2, 0]
    assert THIEF + 1 not in s.legal_actions()  # nothing left to steal


def test_guard_gives_one_and_needs_gold():
    s = deal([0, 1], [[G, G, T], [T, T, T]], start_gold=1)
    play(s, GUARD + 1)
    assert gold(s) == [0, 2]
    assert not any(GUARD <= a < GUARD + 5 for a in s.legal_actions())


def test_guard_cancels_thief():
    s = deal([0, 1], [[T, T, T], [G, T, T]])
    play(s, THIEF + 1, G_CANCEL)
    assert gold(s) == [5, 5]
    assert s.engine.public_view()["discard"][:2] == [1, 1]


def test_raid_steals_one_from_the_thief():
    s = deal([0, 1], [[T, T, T], [T, T, T]])
    play(s, THIEF + 1, RAID)
    # a raid is played on someone else's turn, so P0 (active) cannot raid the
    # raid; P0 has no other answer: the raid, then P0's theft, resolve
    assert s.current_player() == 0 and s.engine.public_view()["phase"] == "play"
    assert gold(s) == [5 - 1 + 2, 5 + 1 - 2]


def test_a_raid_can_be_raided_by_a_third_player_with_raid_raids():
    s = deal([0, 1, 2], [[T, T, T], [T, F, F], [T, F, F]], raid_raids=True)
    play(s, THIEF + 1)
    assert s.current_player() == 1
    play(s, RAID)                            # P1 raids P0
    assert s.current_player() == 2 and RAID in s.legal_actions()
    play(s, RAID)                            # P2 raids the raider P1
    assert s.current_player() == 0 and s.engine.public_view()["phase"] == "play"
    # P2 takes 1 from P1, P1 takes 1 from P0, P0 takes 2 from P1
    assert gold(s) == [5 - 1 + 2, 5 - 1 + 1 - 2, 5 + 1]


def test_witch_as_extra_thief_repeats_the_theft():
    s = deal([0, 1, 2], [[T, T, T], [F, F, F], [W, F, F]])
    play(s, THIEF + 1)
    assert s.current_player() == 2             # P1 cannot answer, P2 can
    play(s, W_EXTRA)                           # steals from P1 for P0
    assert s.current_player() == 1 and s.legal_actions() == [PASS, F_CANCEL]
    play(s, PASS)
    assert gold(s) == [9, 1, 5]


def test_guard_cancels_a_witch_played_as_extra_thief():
    s = deal([0, 1, 2], [[T, T, T], [G, F, F], [W, F, F]])
    play(s, THIEF + 1, PASS)                  # P1 keeps the Guard for later
    play(s, W_EXTRA)                          # P2
    play(s, G_CANCEL)                         # P1 cancels the Witch only
    assert s.current_player() == 2            # P2's Faerie could cancel the Guard
    play(s, PASS)
    assert s.current_player() == 0 and gold(s) == [7, 3, 5]


def test_faerie_cancels_a_guard_gift():
    s = deal([0, 1], [[G, T, T], [F, T, T]])
    play(s, GUARD + 1)
    assert s.legal_actions() == [PASS, F_CANCEL]
    play(s, F_CANCEL)
    assert gold(s) == [5, 5]


def test_faerie_cancels_a_guard_cancel():
    s = deal([0, 1], [[T, F, T], [G, T, T]])
    play(s, THIEF + 1, G_CANCEL)
    assert s.current_player() == 0 and F_CANCEL in s.legal_actions()
    play(s, F_CANCEL)                         # the Thief stands again
    # P1 already had its turn in this window (it played the Guard), so the
    # Thief resolves at once: one response opportunity per window (assumption).
    assert s.current_player() == 0
    assert gold(s) == [7, 3]


def test_witch_steal_victim_chooses_and_only_they_see():
    s = deal([0, 1, 2], [[W, T, T], [G, F, F], [T, T, T]])
    play(s, WITCH + 1)
    assert s.current_player() == 1           # Faerie window first
    play(s, PASS)
    assert s.current_player() == 1 and s.legal_actions() == [GIVE + G, GIVE + F]
    play(s, GIVE + F)
    assert sorted(s.engine.hand(0)) == [T, T, F]
    assert sorted(s.engine.hand(1)) == [G, F]
    assert "give Faerie to P0" in s.information_state_string(1)
    assert "give Faerie to P0" in s.information_state_string(0)
    assert "P1 give a card to P0" in s.information_state_string(2)
    assert "Faerie" not in s.information_state_string(2).split("\n")[-1]


def test_faerie_cancels_witch_card_steal():
    s = deal([0, 1], [[W, T, T], [F, T, T]])
    play(s, WITCH + 1, F_CANCEL)
    assert sorted(s.engine.hand(1)) == [T, T]
    assert sorted(s.engine.hand(0)) == [T, T]


def test_faerie_swaps_goal_privately():
    s = deal([0, 1], [[F, T, T], [T, T, T]])
    play(s, FAERIE + 0)
    assert s.is_chance_node()
    assert 0 not in [a - C_GOAL for a, _ in s.chance_outcomes()]   # it went to the bottom
    play(s, C_GOAL + 3)
    assert s.engine.goals_down(0) == [3]
    assert "[3 or 9]" in s.information_state_string(0)
    assert "[3 or 9]" not in s.information_state_string(1)
    assert "[4 or 10]" not in s.information_state_string(1)


def test_ninja_draws_three():
    s = deal([0, 1], [[N, T, T], [T, T, T]])
    play(s, NINJA)
    for t in (G, G, W):
        assert s.is_chance_node()
        play(s, t)
    assert sorted(s.engine.hand(0)) == [T, T, G, G, W]


def test_ninja_scores_before_the_next_player():
    # P2 holds a Ninja and [3 or 9]; P0 steals 2 from P2 (5 -> 3) and ends the
    # turn: at the start of P1's turn P2 may score before P1 does anything.
    s = deal([0, 1, 3], [[T, T, T], [T, T, T], [N, F, F]], goals_to_win=1)
    play(s, THIEF + 2)
    assert s.current_player() == 1            # P1 could raid; P2 has no answer
    play(s, PASS)
    assert gold(s)[2] == 3
    play(s, END)
    assert s.current_player() == 2
    assert s.legal_actions() == [PASS, NINJA_SCORE + 3]
    play(s, NINJA_SCORE + 3)
    assert s.is_terminal() and s.returns() == [-0.5, -0.5, 1.0]


def test_scoring_at_start_of_turn_and_win():
    # P0 holds [2 or 8]; P1 steals... P0 steals 2 from P1 -> P0 has 7? use [1/7]
    s = deal([1, 0], [[T, T, T], [F, F, F]], goals_to_win=1)
    play(s, THIEF + 1, END)                 # P0: 7 gold
    assert not s.is_terminal()
    while s.is_chance_node():               # P1 draws nothing (full hand)
        play(s, s.chance_outcomes()[0][0])
    play(s, END)                            # P1 ends; P0 starts with 7 = [1 or 7]
    assert s.is_terminal() and s.returns() == [1.0, -1.0]
    assert "P0 flip goal [1 or 7]" in s.information_state_string(1)


def test_third_flipped_goal_wins_and_goal_round():
    s = deal([1, 0], [[T, T, T], [F, F, F]])
    play(s, THIEF + 1, END, END)            # P0 scores [1 or 7] at its turn start
    # P0 has no face-down goal: after drawing, everyone is dealt one
    assert s.engine.goals_up(0) == [1]
    play(s, T)                              # P0 draws back to three
    assert s.is_chance_node()               # goal round: P0 then P1
    play(s, C_GOAL + 2, C_GOAL + 3)
    assert s.engine.goals_down(0) == [2] and sorted(s.engine.goals_down(1)) == [0, 3]
    assert not s.is_terminal()


def test_big_pile_flips_any_goal():
    s = deal([0, 1], [[T, T, T], [F, F, F]], start_gold=6)
    play(s, THIEF + 1, END, END)            # P0: 8 gold, no match with [4 or 10]
    assert gold(s) == [8, 4]
    play(s, T)                              # P0 draws back to three
    play(s, THIEF + 1, THIEF + 1, END, END)
    # P0 starts a turn with 12 > 10 gold and one goal: it is flipped
    assert s.engine.goals_up(0) == [0]
    assert gold(s) == [12, 0]


def test_big_pile_choice_between_goals():
    s = deal([3, 0], [[T, T, T], [F, F, F]], start_gold=6)
    play(s, THIEF + 1, END)                 # P0 8, P1 4: P1 scores [4 or 10]
    assert s.engine.goals_up(1) == [0]
    play(s, C_GOAL + 1, C_GOAL + 5)         # goal round from P1: P1, then P0
    assert sorted(s.engine.goals_down(0)) == [3, 5]
    play(s, END, T, THIEF + 1, THIEF + 1, END, END)
    assert gold(s) == [12, 0]
    assert s.current_player() == 0 and s.legal_actions() == [BIG_FLIP + 3, BIG_FLIP + 5]
    play(s, BIG_FLIP + 5)
    assert s.engine.goals_up(0) == [5] and s.engine.goals_down(0) == [3]


def test_reshuffle_when_deck_empty():
    s = deal([0, 1], [[T, T, T], [T, T, T]], thieves=6, guards=0, witches=0, faeries=0,
             ninjas=0, start_gold=12, goals="20/21;22/23")
    play(s, THIEF + 1, PASS)                # P1 may raid; passes
    play(s, END)
    assert s.engine.public_view()["deck"] == [0, 0, 0, 0, 0]
    play(s, END)                            # P1 full hand; P0's turn: draws 1
    assert s.is_chance_node() and s.chance_outcomes() == [(T, 1.0)]
    assert "Discards reshuffled into the deck" in s.information_state_string(1)


def test_max_turns_is_a_draw():
    s = deal([0, 1], [[T, T, T], [T, T, T]], max_turns=2, goals="20/21;22/23")
    play(s, END, END)
    assert s.is_terminal() and s.returns() == [0.0, 0.0]


def test_passes_are_private():
    s = deal([0, 1], [[T, T, T], [G, G, G]])
    play(s, THIEF + 1, PASS)
    assert "You pass" in s.information_state_string(1)
    assert "pass" not in s.information_state_string(0)


# ------------------------------------------------------------------ resampling
def test_resample_keeps_seen_stolen_card_and_respects_goal_facts():
    s = deal([0, 1, 2], [[W, T, T], [G, F, N], [T, T, T]])
    play(s, WITCH + 1, PASS, GIVE + N)       # P1 gives P0 a Ninja; P0 knows
    for seed in range(30):
        w = s.resample(2, seed)
        assert sorted(w.engine.hand(2)) == [T, T, T]
        assert w.history()[2] == s.history()[2]      # P2's own goal
        w.engine.check_invariants()
    assert s.engine.player_view(1).known_cards[0] == (0, 0, 0, 0, 1)
    for seed in range(30):
        w = s.resample(1, seed)
        assert N in w.engine.hand(0)
        assert w.information_state_string(0) != "" and "give Ninja to P0" in \
            w.information_state_string(0)


def test_resample_respects_non_matching_goal_numbers():
    # P1 starts a turn with 5 gold and does not score: P1's goal cannot show 5.
    goals = "0/5;1/7;2/8;3/9;4/10;5/6"
    s = deal([1, 2], [[T, T, T], [T, T, T]], goals=goals)
    play(s, END)                             # P1's turn starts: 5 gold, no match
    for seed in range(50):
        w = s.resample(0, seed)
        (g,) = w.engine.goals_down(1)
        assert 5 not in w.engine.goal_numbers(g)
        assert w.information_state_string(0) == s.information_state_string(0)


def test_resampled_worlds_vary_and_agree():
    game = pyspiel.load_game("gold_thief", {"players": 3})
    rng = random.Random(3)
    state = game.new_initial_state()
    while state.is_chance_node() or state.move_number() < 40:
        if state.is_terminal():
            break
        state.apply_action(random_action(state, rng))
    me = state.current_player() if state.current_player() >= 0 else 0
    worlds = {str(state.resample(me, k)) for k in range(20)}
    assert len(worlds) > 1


# ------------------------------------------------------------------ properties
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 5))
def test_conservation_along_random_games(seed, players):
    game = pyspiel.load_game("gold_thief", {"players": players, "max_turns": 30})
    eng = game.make_engine()
    total_cards = 40
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(random_action(state, rng))
        e = state.engine
        v = e.public_view()
        assert sum(v["gold"]) == 5 * players
        assert min(v["gold"]) >= 0
        assert sum(v["hand_sizes"]) + sum(v["deck"]) + sum(v["discard"]) == total_cards
    assert eng.py_current_player() == -1


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_engine_and_pyspiel_paths_agree(seed):
    game = pyspiel.load_game("gold_thief", {"players": 3, "max_turns": 20})
    rng = random.Random(seed)
    state = game.new_initial_state()
    eng = game.make_engine()
    while not state.is_terminal():
        assert eng.py_current_player() == state.current_player()
        if state.is_chance_node():
            assert eng.py_chance_outcomes() == state.chance_outcomes()
            a, p = zip(*state.chance_outcomes())
            act = rng.choices(a, p)[0]
        else:
            assert eng.py_legal_actions() == state.legal_actions()
            act = rng.choice(state.legal_actions())
        state.apply_action(act)
        eng.py_apply(act)
    assert eng.py_returns() == state.returns()


def test_info_keys_match_info_strings():
    game = pyspiel.load_game("gold_thief", {"players": 3})
    seen: dict[tuple[int, str], int] = {}
    keys: dict[tuple[int, int], str] = {}
    for state in testing.random_states(game, 6, seed=11, every=1):
        for p in range(3):
            info = state.information_state_string(p)
            key = state.engine.py_info_key(p)
            assert seen.setdefault((p, info), key) == key
            assert keys.setdefault((p, key), info) == info


# ------------------------------------------------------------------ bad input
@pytest.mark.parametrize("params,needle", [
    ({"players": 1}, "players"),
    ({"players": 6}, "players"),
    ({"start_gold": -1}, "start_gold"),
    ({"hand_size": 0}, "hand_size"),
    ({"thieves": 0, "guards": 0, "witches": 0, "faeries": 0, "ninjas": 2}, "cannot deal"),
    ({"goals": "4/x"}, "goals"),
    ({"goals": "1/2", "players": 2}, "goals"),
    ({"max_turns": 0}, "max_turns"),
])
def test_bad_parameters_are_refused(params, needle):
    with pytest.raises((ParameterError, pyspiel.SpielError, ValueError)) as info:
        pyspiel.load_game("gold_thief", params)
    assert needle in str(info.value)


def test_unknown_parameter_is_refused():
    with pytest.raises(Exception) as info:
        pyspiel.load_game("gold_thief(colour=3)")
    assert "colour" in str(info.value)


def test_snapshot_refuses_garbage():
    game = pyspiel.load_game("gold_thief")
    eng = game.make_engine()
    state = game.new_initial_state()
    rng = random.Random(0)
    for _ in range(30):
        state.apply_action(random_action(state, rng))
    eng = state.engine
    data = eng.dump()
    with pytest.raises(ValueError, match="magic"):
        eng.load(b"XX" + data[2:])
    with pytest.raises(ValueError, match="history bytes"):
        eng.load(data[:-1])
    bad = bytearray(data)
    bad[-1] = 0x7F                            # an action that is not legal there
    with pytest.raises(ValueError, match="invalid"):
        eng.load(bytes(bad))
    players = bytearray(data)
    players[5 + len(str(eng.game_string))] = 9
    with pytest.raises(ValueError, match="players"):
        eng.load(bytes(players))
    assert eng.dump() == data
    fresh = game.make_engine()
    fresh.load(data)
    assert fresh.info_string(1) == state.information_state_string(1)


def test_tensor_shapes():
    game = pyspiel.load_game("gold_thief", {"players": 3})
    s = game.new_initial_state()
    assert len(s.observation_tensor(0)) == game.observation_tensor_size()
    assert len(s.information_state_tensor(0)) == game.information_state_tensor_size()
    assert np.all(np.isfinite(s.observation_tensor(0)))


def test_golden_playthrough():
    testing.check_playthrough(str(PLAYTHROUGHS / "gold_thief.txt"))


def _perft(engine) -> tuple[int, set]:
    """Histories below `engine` and the (player, info key) pairs met."""
    stack, count, infos = [engine], 0, set()
    while stack:
        e = stack.pop()
        count += 1
        if e.py_is_terminal():
            continue
        player = e.py_current_player()
        if player == -1:
            actions = [a for a, _ in e.py_chance_outcomes()]
        else:
            infos.add((player, e.py_info_key(player)))
            actions = e.py_legal_actions()
        for a in actions:
            child = e.py_clone()
            child.py_apply(a)
            stack.append(child)
    return count, infos


def test_mini_preset_size_regression():
    """Perft-style move-generation regression: the sizes in docs/rules."""
    from games.gold_thief import MINI_PARAMS
    game = pyspiel.load_game("gold_thief", MINI_PARAMS)
    histories, infos = _perft(game.make_engine())
    assert (histories, len(infos)) == (64101, 21575)


def test_factored_observations_are_not_offered_rather_than_leaking():
    from open_spiel.python.observation import make_observation
    game = pyspiel.load_game("gold_thief")
    public_only = pyspiel.IIGObservationType(
        public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE)
    assert make_observation(game, public_only) is None
    assert make_observation(game, pyspiel.IIGObservationType(perfect_recall=True)) is not None


def test_python_action_layout_mirrors_the_pxd():
    """games/gold_thief/__init__.py's constants equal the engine's enum (one definition)."""
    import games.gold_thief as gtpy
    from src_cy.gold_thief.engine import ACTION_LAYOUT
    assert ACTION_LAYOUT == {name: getattr(gtpy, name) for name in ACTION_LAYOUT}
    assert len(ACTION_LAYOUT) == 27


def test_one_constructor_shape_and_params_shared_by_clones():
    from src_cy.gold_thief.engine import GoldThiefEngine, GoldThiefParams
    game = pyspiel.load_game("gold_thief", {"players": 3})
    engine = game.make_engine()
    assert isinstance(engine.params, GoldThiefParams)
    clone = engine.py_clone()
    assert clone.params is engine.params
    assert engine.py_resample(0, 1).params is engine.params
    mapping = {**game.get_parameters(), "goals": [(0, 6), (1, 7), (2, 8)]}
    fresh = GoldThiefEngine(mapping, game_string="x")
    assert fresh.params.goals == ((0, 6), (1, 7), (2, 8)) and fresh.game_string == "x"
    assert fresh.params.counts_by_type == (14, 10, 10, 4, 2)
    with pytest.raises(ValueError, match="players"):
        GoldThiefEngine({**mapping, "players": 7})
    with pytest.raises(ValueError, match=r"missing \['big_pile', 'faeries'"):
        GoldThiefParams({})
    with pytest.raises(ValueError, match=r"unknown \['bogus'\]"):
        GoldThiefParams({**mapping, "bogus": 1})
    # only what the C state cannot hold (the valid ranges: tests/test_params.py)
    for name, value, needle in [("hand_size", 99, "hand_size"), ("start_gold", -5, "start_gold"),
                                ("start_gold", 30, "start_gold"), ("max_turns", 0, "max_turns"),
                                ("first_player", 3, "first_player"),
                                ("thieves", 60, "thieves..ninjas"),
                                ("guards", -1, "thieves..ninjas")]:
        with pytest.raises(ValueError, match=needle):
            GoldThiefParams({**mapping, name: value})


def test_engine_parameter_names_are_the_tables():
    """The engine's ``PARAM_NAMES`` (it cannot import ``games``) name exactly
    the parameter table's parameters, in the table's order."""
    from games.gold_thief import PARAMS
    from src_cy.gold_thief.engine import PARAM_NAMES
    assert list(PARAM_NAMES) == [p.name for p in PARAMS]
