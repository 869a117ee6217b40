"""Ardillas del Bosque: the information contract (issue 10)."""
from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pyspiel
import pytest

import games.ardillas_del_bosque as A
from games import testing
from games.testing import random_action, random_states
from tiers import slow_above_min_players

INDEX, KEEP, NPLACE = 88, 11, 18
WALNUT, SQUIRREL, POO = 0, 5, 6
CONTRACT_CONFIGS = [
    "ardillas_del_bosque()",
    "ardillas_del_bosque(hiding_places=1,nuts=1)",
    "ardillas_del_bosque(players=3)",
    "ardillas_del_bosque(players=5)",
    "ardillas_del_bosque(players=2,side=night)",
    "ardillas_del_bosque(players=4,side=night)",
    "ardillas_del_bosque(players=2,sleepyheads=2)",
    "ardillas_del_bosque(players=3,sleepyheads=1,side=night)",
    "ardillas_del_bosque(players=3,little_squirrels=True)",
    "ardillas_del_bosque(king=lizard,players=3)",
    "ardillas_del_bosque(king=ant,players=4)",
    "ardillas_del_bosque(king=wild_boar,players=3,side=night)",
    "ardillas_del_bosque(king=fox,players=3,side=night)",
    "ardillas_del_bosque(king=snake,players=3,side=night)",
]


@pytest.mark.conformance
@pytest.mark.parametrize("game_string", slow_above_min_players("ardillas_del_bosque",
                                                               CONTRACT_CONFIGS))
def test_information_contract(game_string):
    """Strings, keys and tensors agree over true and resampled worlds played on."""
    game = pyspiel.load_game(game_string)
    big = game.num_players() > 3 or "sleepyheads" in game_string
    assert testing.check_information_contract(
        game, num_games=1, seed=3, draws=1 if big else 2, continue_steps=6,
        every=9 if big else 5) > 50


@pytest.mark.conformance
@pytest.mark.parametrize("game_string", ["ardillas_del_bosque()",
                                         "ardillas_del_bosque(hiding_places=1,nuts=1)",
                                         "ardillas_del_bosque(players=3,side=night)"])
def test_openspiel_algorithms(game_string):
    """OpenSpiel's ISMCTSBot (default arguments), rl_environment and MCCFR."""
    game = pyspiel.load_game(game_string)
    testing.check_openspiel_algorithms(game, positions=3, max_simulations=40,
                                       external_sampling="nuts=1" in game_string)


def _lizard_split_states():
    """2 players, one nut kind, Lizard King, every token on h0 (4 places)."""
    game = pyspiel.load_game("ardillas_del_bosque", {"king": "lizard", "nuts": 1})
    setup = [WALNUT, 0, WALNUT, 0, POO, 0, POO, 0, SQUIRREL, 0, SQUIRREL, 0]
    state = game.new_initial_state()
    for a in setup + [0]:  # p0 draws p1's squirrel: only h0 holds tokens
        state.apply_action(a)
    return state


def test_lizard_split_destination_is_in_the_information_state():
    """Issue 10 leak: the split destination was missing from every string, so the
    destination decision and the split-size decision shared one string."""
    choose = _lizard_split_states()
    assert choose.legal_actions() == [1, 2, 3]
    onto1, onto2 = choose.child(1), choose.child(2)
    assert onto1.legal_actions() == [INDEX + k for k in range(1, 5)]
    for q in range(2):
        infos = {s.information_state_string(q) for s in (choose, onto1, onto2)}
        keys = {s.engine.py_info_key(q) for s in (choose, onto1, onto2)}
        tensors = {np.asarray(s.information_state_tensor(q)).tobytes()
                   for s in (choose, onto1, onto2)}
        assert len(infos) == len(keys) == len(tensors) == 3
    assert "p0 lizard splits h0 onto h2" in onto2.information_state_string(1)
    assert onto2.engine.player_view(1).lizard_piles == (2,)


def _two_day_histories():
    """p0's first two autumn draws differ (walnut, poo vs poo, walnut), placed on
    the same places: p1 cannot tell the two histories apart."""
    game = pyspiel.load_game("ardillas_del_bosque", {"nuts": 3})
    first = [1, 3, WALNUT, 0, 2, 2, POO, 1, SQUIRREL, 2]
    second = [1, 3, POO, 0, 2, 2, WALNUT, 1, SQUIRREL, 2]
    out = []
    for actions in (first, second):
        state = game.new_initial_state()
        for a in actions:
            state.apply_action(a)
        out.append(state)
    return out


def test_resampling_depends_only_on_the_information_state():
    a, b = _two_day_histories()
    assert a.information_state_string(1) == b.information_state_string(1)
    assert a.information_state_string(0) != b.information_state_string(0)
    for seed in range(20):
        assert a.resample(1, seed).history() == b.resample(1, seed).history()
    feature = lambda w: tuple(t.kind for t in w.engine.player_view(0).piles[0])
    counts_a = Counter(feature(a.resample(1, s)) for s in range(600))
    counts_b = Counter(feature(b.resample(1, 10_000 + s)) for s in range(600))
    assert set(counts_a) == set(counts_b)


def test_resampled_kinds_follow_the_chance_probabilities(stat_seed):
    """p1 knows only that p0's three hidden tokens are three distinct kinds of p0's
    five (3 nuts, squirrel, poo; none seen): each one's kind is uniform over the five."""
    a, _ = _two_day_histories()
    n = 2000
    first = stat_seed(0)
    counts = Counter(a.resample(1, s).engine.player_view(0).piles[0][0].kind
                     for s in range(first, first + n))
    assert len(counts) == 5
    chi2 = sum((c - n / 5) ** 2 / (n / 5) for c in counts.values())
    assert chi2 < 18.5  # 4 degrees of freedom, p = 0.001


def test_resampling_keeps_what_the_player_saw():
    """A Lynx look and an Ant peek are known to the looker, never re-drawn."""
    game = pyspiel.load_game("ardillas_del_bosque", {"king": "lynx", "players": 3})
    rng = random.Random(2)
    checked = 0
    for state in random_states(game, 4, seed=9):
        if state.is_terminal() or state.is_chance_node():
            continue
        for p in range(3):
            view = state.engine.player_view(p)
            known = {(t.owner, t.ordinal): t.kind for pile in view.piles for t in pile
                     if t.kind is not None}
            world = state.resample(p, rng.randrange(1 << 30))
            assert world.engine.player_view(p).piles == view.piles
            truth = {(t.owner, t.ordinal): t.kind  # every face, as render() shows
                     for pile in world.engine._make_view(-1).piles for t in pile}
            assert all(truth[k] == v for k, v in known.items())
            checked += 1
    assert checked > 20


def test_resample_speed_mid_game():
    """Our ISMCTS resamples once per simulation: keep it well under 1 ms."""
    import time
    game = pyspiel.load_game("ardillas_del_bosque", {"players": 4})
    state = game.new_initial_state()
    rng = random.Random(1)
    while len(state.history()) < 70:
        state.apply_action(random_action(state, rng))
    engine = state.engine
    start = time.perf_counter()
    for seed in range(300):
        engine.py_resample(1, seed)
    per = (time.perf_counter() - start) / 300
    assert per < 2e-3, f"resample takes {per * 1e6:.0f} us"


def test_snapshot_round_trip_and_refusal_keeps_the_state():
    game = pyspiel.load_game("ardillas_del_bosque", {"players": 3})
    state = next(s for i, s in enumerate(random_states(game, 1, seed=3)) if i == 40)
    engine = state.engine
    data = engine.dump()
    other = game.make_engine()
    other.load(data)
    assert other.py_history() == engine.py_history() and other.render() == engine.render()
    before = other.dump()
    broken = data[:-2] + bytes([250, 0])  # an action no state allows
    with pytest.raises(ValueError, match="illegal action"):
        other.load(broken)
    assert other.dump() == before


def test_player_view_is_what_the_player_knows():
    game = pyspiel.load_game("ardillas_del_bosque", {"players": 3, "side": "night"})
    for state in random_states(game, 2, seed=6, every=7):
        for q in range(3):
            view = state.engine.player_view(q)
            obs = state.observation_string(q).split("\n")
            assert len(view.piles) == len(obs) - 1 - 3
            for line, pile in zip(obs[1:], view.piles):
                assert len(line.split(": ", 1)[1].split()) == len(pile)
            for nest in view.nests:
                for t in nest:
                    if t.owner == q:
                        assert t.kind is not None  # own tokens are always known
    with pytest.raises(ValueError):
        game.new_initial_state().engine.player_view(3)


def test_resampling_keeps_a_snake_victim_holding_a_nut():
    """p0 is at a Snake decision with only a face-down kept token in the nest:
    in every world p1 draws, that token is a nut (else p0 would have left)."""
    game = pyspiel.load_game("ardillas_del_bosque",
                             dict(A.MINI_PARAMS, side="night", king="snake"))
    setup = [KEEP + WALNUT, KEEP + WALNUT, NPLACE + 50, NPLACE + 60, NPLACE + 61, NPLACE + 50]
    state = game.new_initial_state()
    for a in setup + [0]:  # p0 draws p1's squirrel: the Snake, p0 must pay a nut
        state.apply_action(a)
    assert state.current_player() == 0 and state.legal_actions() == [313]
    info = state.information_state_string(1)
    kept = Counter()
    for seed in range(60):
        world = state.resample(1, seed)
        assert world.information_state_string(1) == info
        assert world.current_player() == 0
        kept[world.engine._make_view(-1).nests[0][0].kind] += 1
    assert set(kept) == {"walnut"}


@pytest.mark.parametrize("game_string", ["ardillas_del_bosque()",
                                         "ardillas_del_bosque(players=3,side=night)"])
def test_snapshot_refused_under_python_O(game_string):
    testing.check_snapshot_refused_under_O(game_string)


def test_resample_distribution_of_indistinguishable_day_histories(stat_seed):
    a, b = _two_day_histories()
    testing.check_resample_distribution(
        a, b, 1, lambda w: tuple(t.kind for t in w.engine._make_view(-1).piles[0]), n=300,
        seed=stat_seed(0))


def test_resample_distribution_of_indistinguishable_night_keeps(stat_seed):
    """p0 keeps a walnut or a poo, hides the same places: p1 cannot tell."""
    game = pyspiel.load_game("ardillas_del_bosque", dict(A.MINI_PARAMS, side="night"))
    states = []
    for keep, hide in ((WALNUT, POO), (POO, WALNUT)):
        state = game.new_initial_state()
        for a in [2, 4, KEEP + keep, KEEP + WALNUT, NPLACE + 10 * hide + 1]:
            state.apply_action(a)
        states.append(state)
    testing.check_resample_distribution(
        states[0], states[1], 1, lambda w: w.engine._make_view(-1).nests[0][0].kind, n=300,
        seed=stat_seed(0))
    for seed in range(10):
        assert states[0].resample(1, seed).history() == states[1].resample(1, seed).history()


def test_heuristic_and_features_read_only_the_players_view():
    """Histories p1 cannot tell apart give p1 the same features and moves."""
    from games.ardillas_del_bosque.features import ardillas_features
    from games.ardillas_del_bosque.ai import ArdillasHeuristicBot
    a, b = _two_day_histories()
    for state in (a, b):
        state.apply_action(state.chance_outcomes()[0][0])  # p0 draws an almond,
        state.apply_action(0)                               # hides it on h0;
        state.apply_action(state.chance_outcomes()[0][0])  # p1 draws: p1 to hide
        assert state.current_player() == 1
    assert a.information_state_string(1) == b.information_state_string(1)
    assert ardillas_features(a, 1) == ardillas_features(b, 1)
    bot = ArdillasHeuristicBot(a.get_game())
    assert bot.step(a) == bot.step(b)
    for seed in range(5):
        world = a.resample(1, seed)
        assert ardillas_features(world, 1) == ardillas_features(a, 1)


@pytest.mark.parametrize("game_string", ["ardillas_del_bosque(players=5)",
                                         "ardillas_del_bosque(players=5,king=lynx)",
                                         "ardillas_del_bosque(players=5,king=wild_boar,side=night)",
                                         "ardillas_del_bosque(players=2,sleepyheads=3,king=lynx)"])
def test_event_log_stays_far_below_its_capacity(game_string):
    """Bound in the rules doc: 5 events per action + 35 per look (5 looks at
    most) + 70 reveals, < 2,048; random games stay below it."""
    game = pyspiel.load_game(game_string)
    bound = 5 * game.max_game_length() + 5 * 35 + 70
    assert bound < 2048
    worst = 0
    for seed in range(15):
        engine = game.make_engine()
        engine.random_playout(seed)
        worst = max(worst, engine.num_events())
    assert 0 < worst <= bound


@pytest.mark.parametrize("boards", ["bear+lizard", "lynx+golden_eagle", "ant+bear"])
def test_whole_night_mini_tree_strings_keys_tensors_agree(boards):
    """Every state of a small night tree (Boar/Snake, Fox/Owl, Beetle/Boar):
    string <=> key <=> tensor for both players, and the string fixes the moves."""
    game = pyspiel.load_game("ardillas_del_bosque", dict(A.MINI_PARAMS, side="night",
                                                         boards=boards))
    root = game.make_engine()
    buf = np.zeros(root.info_tensor_size(), np.float32)
    tables = [({}, {}, {}, {}) for _ in range(2)]
    stack, nodes = [root], 0
    while stack:
        engine = stack.pop()
        nodes += 1
        mover = engine.py_current_player()
        for q, (key_of, info_of_key, info_of_tensor, legal_of) in enumerate(tables):
            info, key = engine.info_string(q), engine.py_info_key(q)
            buf.fill(0.0)
            engine.fill_info_tensor(q, buf)
            legal = tuple(engine.py_legal_actions()) if mover == q else None
            assert key_of.setdefault(info, key) == key
            assert info_of_key.setdefault(key, info) == info
            assert info_of_tensor.setdefault(buf.tobytes(), info) == info
            assert legal_of.setdefault(info, legal) == legal
        if engine.py_is_terminal():
            continue
        moves = ([a for a, _ in engine.py_chance_outcomes()] if mover == -1
                 else engine.py_legal_actions())
        for a in moves:
            child = engine.py_clone()
            child.py_apply(a)
            stack.append(child)
    assert nodes > 10_000
