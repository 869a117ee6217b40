"""KuhnEngine / LeducEngine against OpenSpiel's C++ kuhn_poker / leduc_poker."""
import random

import numpy as np
import pyspiel
import pytest

from src_cy.poker.engine import KuhnEngine, LeducEngine

CASES = [
    ("kuhn_poker", lambda: KuhnEngine({"players": 2})),
    ("kuhn_poker(players=3)", lambda: KuhnEngine({"players": 3})),
    ("leduc_poker", lambda: LeducEngine({"players": 2})),
    ("leduc_poker(players=3)", lambda: LeducEngine({"players": 3})),
]


def _compare(state, eng, game):
    n = game.num_players()
    assert eng.py_current_player() == state.current_player()
    assert eng.py_is_terminal() == state.is_terminal()
    for p in range(n):
        assert eng.info_string(p) == state.information_state_string(p)
        assert eng.obs_string(p) == state.observation_string(p)
        t = np.zeros(eng.info_tensor_size(), np.float32)
        eng.fill_info_tensor(p, t)
        assert t.tolist() == state.information_state_tensor(p)
        t = np.zeros(eng.obs_tensor_size(), np.float32)
        eng.fill_obs_tensor(p, t)
        assert t.tolist() == state.observation_tensor(p)
    if state.is_terminal():
        assert eng.py_returns() == pytest.approx(state.returns(), abs=0)
    elif state.is_chance_node():
        assert eng.py_chance_outcomes() == state.chance_outcomes()
    else:
        assert eng.py_legal_actions() == state.legal_actions()


def _trajectories(name, make, count, seed):
    game = pyspiel.load_game(name)
    rng = random.Random(seed)
    for _ in range(count):
        state, eng = game.new_initial_state(), make()
        states = [(state.clone(), eng.py_clone())]
        while not state.is_terminal():
            if state.is_chance_node():
                a = rng.choice([o for o, _ in state.chance_outcomes()])
            else:
                a = rng.choice(state.legal_actions())
            state.apply_action(a)
            eng.py_apply(a)
            states.append((state.clone(), eng.py_clone()))
        yield game, states


@pytest.mark.parametrize("name,make", CASES)
def test_matches_openspiel_on_random_trajectories(name, make):
    for game, states in _trajectories(name, make, 150, 1):
        for state, eng in states:
            _compare(state, eng, game)
            eng.check_invariants()
            assert eng.history() == state.history()


@pytest.mark.parametrize("name,make", CASES)
def test_info_key_equal_iff_info_string_equal(name, make):
    key_of, str_of = {}, {}
    for game, states in _trajectories(name, make, 300, 2):
        for _, eng in states:
            for p in range(game.num_players()):
                s, k = (p, eng.info_string(p)), eng.py_info_key(p)
                assert key_of.setdefault(s, k) == k, f"one info string, two keys: {s}"
                assert str_of.setdefault(k, s) == s, f"one key, two info strings: {s}"
    assert len(key_of) > 20


@pytest.mark.parametrize("name,make", CASES)
def test_resample_keeps_view_and_keys(name, make):
    key_of = {}
    seed = 0
    for game, states in _trajectories(name, make, 100, 3):
        n = game.num_players()
        for _, eng in states:
            for p in range(n):
                seed += 1
                world = eng.py_resample(p, seed)
                assert world.info_string(p) == eng.info_string(p)
                assert world.py_info_key(p) == eng.py_info_key(p)
                assert world.py_current_player() == eng.py_current_player()
                world.check_invariants()
                for q in range(n):
                    for e in (eng, world):
                        s = (q, e.info_string(q))
                        assert key_of.setdefault(s, e.py_info_key(q)) == e.py_info_key(q)


def test_resample_is_uniform_over_hidden_cards():
    eng = KuhnEngine({"players": 2})
    eng.py_apply(2)
    eng.py_apply(0)
    counts = {}
    for seed in range(3000):
        c = eng.py_resample(0, seed).card(1)
        counts[c] = counts.get(c, 0) + 1
    assert set(counts) == {0, 1}
    assert abs(counts[0] - 1500) < 150


def test_dump_load_roundtrip_and_refusals():
    eng = LeducEngine({"players": 2})
    for a in (1, 4, 1, 2):
        eng.py_apply(a)
    other = LeducEngine({"players": 2})
    other.load(eng.dump())
    assert other.info_string(0) == eng.info_string(0)
    assert other.py_info_key(1) == eng.py_info_key(1)
    with pytest.raises(ValueError, match="players"):
        LeducEngine({"players": 3}).load(eng.dump())
    head = b"GSPK" + bytes([1])
    with pytest.raises(ValueError, match="illegal action"):
        LeducEngine({"players": 2}).load(head + bytes([2, 3, 1, 1, 1]))
    with pytest.raises(ValueError, match="length"):
        KuhnEngine({"players": 2}).load(head + bytes([2, 5, 1]))
    with pytest.raises(ValueError, match="magic"):
        KuhnEngine({"players": 2}).load(bytes([2, 1, 1]))
    with pytest.raises(ValueError, match="version"):
        KuhnEngine({"players": 2}).load(b"GSPK" + bytes([9, 2, 1, 1]))
    with pytest.raises(ValueError, match="players"):
        KuhnEngine({"players": 1})


def test_illegal_action_refused():
    eng = KuhnEngine({"players": 2})
    eng.py_apply(0)
    with pytest.raises(ValueError, match="illegal action 0"):
        eng.py_apply(0)


def test_python_action_constants_mirror_the_pxd_layout():
    import games.kuhn_poker as kuhn
    import games.leduc_poker as leduc
    from src_cy.poker.engine import ACTION_LAYOUT
    mirror = {name: getattr(kuhn, name) for name in dir(kuhn) if name.startswith("KUHN_")}
    mirror.update({name: getattr(leduc, name) for name in dir(leduc) if name.startswith("LEDUC_")})
    assert mirror == ACTION_LAYOUT
    assert len(ACTION_LAYOUT) == 7
    kuhn_game, leduc_game = pyspiel.load_game("kuhn_poker"), pyspiel.load_game("leduc_poker")
    assert kuhn_game.num_distinct_actions() == kuhn.KUHN_NUM_ACTIONS
    assert leduc_game.num_distinct_actions() == leduc.LEDUC_NUM_ACTIONS
    state = kuhn_game.new_initial_state()
    for a in (0, 1):
        state.apply_action(a)
    assert state.action_to_string(kuhn.KUHN_BET) == "Bet"
    assert state.action_to_string(kuhn.KUHN_PASS) == "Pass"
    state = leduc_game.new_initial_state()
    for a in (0, 3):
        state.apply_action(a)
    assert [state.action_to_string(a) for a in (leduc.LEDUC_CALL, leduc.LEDUC_RAISE)] == [
        "Call", "Raise"]


def test_engines_share_one_params_object():
    from games.spec import game_engine
    from src_cy.poker.engine import PokerParams
    shared = PokerParams({"players": 3})
    kuhn, leduc = KuhnEngine(shared), LeducEngine(shared, game_string="leduc_poker(players=3)")
    assert kuhn.params is shared and leduc.params is shared
    assert kuhn.py_clone().params is shared and leduc.py_clone().params is shared
    assert kuhn.num_players == 3 and kuhn.game_string == "kuhn_poker(players=3)"
    game = pyspiel.load_game("leduc_poker")
    assert game_engine(game).params is game_engine(game).params
    for bad in ({"players": 11}, {"players": True}, {"players": "2"}, {}, {"players": 2, "x": 1}):
        with pytest.raises(ValueError):
            PokerParams(bad)
