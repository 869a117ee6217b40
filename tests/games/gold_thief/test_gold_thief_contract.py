"""Gold Thief and the information contract (issue 10; docs/architecture.md).

Direct checks: resampled worlds are real histories in the player's
information set; string <-> key <-> tensor agree; the observation and the
legal actions are functions of the information state; the issue-10 leaks are
gone (regressions built from the two histories that exposed each one).
"""
from __future__ import annotations

import random
import subprocess
import sys
from collections import Counter

import numpy as np
import pyspiel
import pytest

import games  # noqa: F401
from games.gold_thief import MINI_PARAMS
from games import testing
from games.testing import random_action, random_states
from src_cy.gold_thief.engine import resample_stats
from tests.games.gold_thief.test_gold_thief import (G, F, N, T, W, PASS, THIEF, C_GOAL, GIVE, WITCH, deal,
                                   play, GUARD, FAERIE, NINJA, G_CANCEL, RAID, W_EXTRA, F_CANCEL)
from tiers import slow_above_min_players

PRESETS = [{"players": n} for n in (2, 3, 4, 5)] + [MINI_PARAMS]


def _info(state, p):
    return (state.information_state_string(p),
            state.engine.py_info_key(p),
            testing.tensors(state, p)[0].tobytes())


def _check_maps(states, game):
    """(q, info string) determines key, tensor, observation, to-move, legal
    actions; and the key/tensor determine the string."""
    by_string, by_key, by_tensor = {}, {}, {}
    for state in states:
        for q in range(game.num_players()):
            s, k, t = _info(state, q)
            to_move = state.current_player() == q
            facts = (k, t, state.observation_string(q),
                     testing.tensors(state, q)[1].tobytes(), to_move,
                     tuple(state.legal_actions()) if to_move else ())
            assert by_string.setdefault((q, s), facts) == facts, s
            assert by_key.setdefault((q, k), s) == s
            assert by_tensor.setdefault((q, t), s) == s


@pytest.mark.conformance
@pytest.mark.parametrize("params", slow_above_min_players("gold_thief", PRESETS),
                         ids=lambda p: str(p.get("players")) + ("-mini" if p is MINI_PARAMS else ""))
def test_information_contract(params):
    game = pyspiel.load_game("gold_thief", params)
    rng = random.Random(7)
    before = resample_stats()["calls"]
    pool = []
    resamples = 0
    for k, state in enumerate(random_states(game, 1, seed=11, every=6)):
        pool.append(state)
        if state.is_terminal():
            continue
        for p in range(game.num_players()):
            world = state.resample(p, rng.randrange(1 << 40))
            resamples += 1
            # a real state: its history replays to it
            replay = game.new_initial_state()
            for a in world.history():
                replay.apply_action(a)
            assert replay.history() == world.history()
            for q in range(game.num_players()):
                assert replay.information_state_string(q) == world.information_state_string(q)
            assert _info(world, p) == _info(state, p)
            assert world.observation_string(p) == state.observation_string(p)
            assert (world.current_player() == p) == (state.current_player() == p)
            if state.current_player() == p:
                assert world.legal_actions() == state.legal_actions()
            world.engine.check_invariants()
            pool.append(world)
            # play the world on at random: still a consistent game
            w2 = world.clone()
            for _ in range(6):
                if w2.is_terminal():
                    break
                w2.apply_action(random_action(w2, rng))
                pool.append(w2.clone())
    _check_maps(pool, game)
    # every resample went through one of the three stages (none falls back
    # to the true history: there is no such path any more)
    assert resamples > 0 and resample_stats()["calls"] - before == resamples


@pytest.mark.conformance
@pytest.mark.parametrize("params", slow_above_min_players("gold_thief", PRESETS),
                         ids=lambda p: str(p.get("players")) + ("-mini" if p is MINI_PARAMS else ""))
def test_shared_contract_checks(params):
    game = pyspiel.load_game("gold_thief", params)
    testing.check_information_contract(game, num_games=1, seed=1, draws=2, continue_steps=5,
                                       every=8)
    testing.check_openspiel_algorithms(game, positions=2, max_simulations=30)


def test_snapshot_refused_under_python_O_shared_check():
    testing.check_snapshot_refused_under_O("gold_thief(players=3)")


def test_shared_distribution_check_on_the_leak_pairs(stat_seed):
    a = _hist_known_guard(True)
    b = _hist_known_guard(False)
    for s in (a, b):
        play(s, 7 + 2)
        while s.current_player() != 0:
            play(s, PASS)
    testing.check_resample_distribution(a, b, 1, lambda w: G in w.engine.hand(0), n=300,
                                        seed=stat_seed(0))
    c = deal([0, 1, 2], [[T, T, T], [F, F, F], [G, F, F]])
    play(c, THIEF + 1, PASS)
    d = deal([0, 1, 2], [[T, T, T], [F, F, F], [F, F, F]])
    play(d, THIEF + 1)
    testing.check_resample_distribution(c, d, 1, lambda w: tuple(sorted(w.engine.hand(2))),
                                        n=300, seed=stat_seed(0))


def test_openspiel_ismcts_runs_from_mid_game():
    from open_spiel.python.algorithms import ismcts, mcts
    game = pyspiel.load_game("gold_thief", {"players": 3, "max_turns": 30})
    rng = random.Random(3)
    done = 0
    for state in random_states(game, 2, seed=5, every=25):
        if state.is_terminal() or state.is_chance_node():
            continue
        bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
                               uct_c=2.0, max_simulations=30,
                               random_state=np.random.RandomState(rng.randrange(1000)))
        assert bot.step(state) in state.legal_actions()
        done += 1
    assert done >= 2


# ------------------------------------------------------------------ leaks (issue 10)
def test_tensor_has_no_global_move_counter():
    """P1 cannot tell whether P2 held an answer (a private pass) to P0's Thief."""
    a = deal([0, 1, 2], [[T, T, T], [F, F, F], [G, F, F]])     # P2 asked, passes
    play(a, THIEF + 1)
    assert a.current_player() == 2
    play(a, PASS)
    b = deal([0, 1, 2], [[T, T, T], [F, F, F], [F, F, F]])     # P2 holds no answer
    play(b, THIEF + 1)
    assert a.history() != b.history() and len(a.history()) == len(b.history()) + 1
    for p in (0, 1):
        assert _info(a, p) == _info(b, p)
        assert a.observation_tensor(p) == b.observation_tensor(p)


def _hist_known_guard(extra_guard_first: bool) -> pyspiel.State:
    """P1 gives P0 a Guard with a Witch; P0 had drawn another Guard before
    (or after) it; P0 then plays one Guard.  Which copy left is hidden."""
    first = [G, T, W] if extra_guard_first else [T, T, W]
    s = deal([0, 1, 2], [first, [G, F, F], [T, T, T]], goals="0/9;1/7;2/8;3/6;4/10;5/6")
    play(s, WITCH + 1, PASS, GIVE + G)        # P1 (Faerie) passes, gives its Guard
    return s


def test_known_cards_do_not_depend_on_hidden_draws():
    # History A: P0 drew a Guard itself; history B: not. P1 knows only that P0
    # received its Guard; after P0 plays a Guard, P1 cannot know if one is left.
    a = _hist_known_guard(True)
    b = _hist_known_guard(False)
    for s in (a, b):
        play(s, 7 + 2)                        # P0: Guard, give 1 gold to P2
        while s.current_player() != 0:
            play(s, PASS)
    assert _info(a, 1) == _info(b, 1)
    assert a.observation_string(1) == b.observation_string(1)
    assert a.engine.player_view(1).known_cards[0] == (0, 0, 0, 0, 0)
    assert "Known in P0" not in a.observation_string(1)


EV_PLAY, EV_GIVE = 4, 7        # event kinds (src_cy/gold_thief/catalog.pxi)
# Card type played by each action: (first id, last id + 1, card type).
PLAYED = ((THIEF, GUARD, 0), (RAID, RAID + 1, 0), (GUARD, WITCH, 1), (G_CANCEL, G_CANCEL + 1, 1),
          (WITCH, FAERIE, 2), (W_EXTRA, W_EXTRA + 1, 2), (FAERIE, NINJA, 3),
          (F_CANCEL, F_CANCEL + 1, 3))


def _known_from_events(events: list, n: int, player: int) -> tuple:
    """``known_cards`` by its definition (``GoldThiefView``) from the events
    ``player`` observed: cards ``player`` gave a seat with a Witch, less every
    card of that type the seat played or gave away since (an unknown give
    lowers every type)."""
    known = [[0] * 5 for _ in range(n)]

    def lower(q: int, t: int) -> None:
        known[q][t] = max(0, known[q][t] - 1)

    for kind, actor, secret, b in events:
        if kind == EV_PLAY and actor != player:            # b: the action played
            lower(actor, next((t for lo, hi, t in PLAYED if lo <= b < hi), 4))
        elif kind == EV_GIVE and secret >= 0 and actor == player:   # b: the thief
            known[b][secret] += 1
        elif kind == EV_GIVE and secret >= 0 and b == player:
            lower(actor, secret)
        elif kind == EV_GIVE:
            for t in range(5):
                lower(actor, t)
    known[player] = [0] * 5
    return tuple(tuple(row) for row in known)


@pytest.mark.parametrize("players", [3, 4])
def test_known_cards_and_event_count_follow_the_observed_events(players):
    """The view's ``known_cards`` and ``events`` (counted in C over the event
    log) equal their definition over ``visible_events``, at every seat of
    seeded Witch-rich games."""
    game = pyspiel.load_game("gold_thief", {"players": players, "witches": 20, "faeries": 6})
    gives = 0
    for state in random_states(game, 6, seed=players, every=3):
        for q in range(players):
            events = state.engine.visible_events(q)
            view = state.engine.player_view(q)
            assert view.events == len(events)
            assert view.known_cards == _known_from_events(events, players, q)
            gives += any(row != (0,) * 5 for row in view.known_cards)
    assert gives > 20


def _distribution(state, player, feature, n, seed):
    rng = random.Random(seed)
    return Counter(feature(state.resample(player, rng.randrange(1 << 40))) for _ in range(n))


def _chi_square_same(c1: Counter, c2: Counter) -> float:
    from scipy.stats import chi2_contingency
    keys = sorted(set(c1) | set(c2))
    if len(keys) < 2:
        return 1.0
    return chi2_contingency([[c1[k] for k in keys], [c2[k] for k in keys]])[1]


def test_resampler_does_not_depend_on_the_hidden_draw(stat_seed):
    # Issue 10: from one true history 200/200 worlds gave P0 a Guard, from the
    # other 97/200.  Now both histories give the same distribution.
    a = _hist_known_guard(True)
    b = _hist_known_guard(False)
    for s in (a, b):
        play(s, 7 + 2)
        while s.current_player() != 0:
            play(s, PASS)
    assert _info(a, 1) == _info(b, 1)

    def p0_has_guard(world):
        return G in world.engine.hand(0)

    da = _distribution(a, 1, p0_has_guard, 300, stat_seed(1))
    db = _distribution(b, 1, p0_has_guard, 300, stat_seed(2))
    assert da == _distribution(a, 1, p0_has_guard, 300, stat_seed(1))        # deterministic per seed
    assert 0 < da[True] < 300 and 0 < db[True] < 300
    assert _chi_square_same(da, db) > 0.001, (da, db)


def test_resampler_same_distribution_after_a_private_pass(stat_seed):
    a = deal([0, 1, 2], [[T, T, T], [F, F, F], [G, F, F]])
    play(a, THIEF + 1, PASS)
    b = deal([0, 1, 2], [[T, T, T], [F, F, F], [F, F, F]])
    play(b, THIEF + 1)

    def p2_hand(world):
        return tuple(sorted(world.engine.hand(2)))

    da = _distribution(a, 1, p2_hand, 300, stat_seed(3))
    db = _distribution(b, 1, p2_hand, 300, stat_seed(4))
    assert len(da) > 1
    assert _chi_square_same(da, db) > 0.001, (da, db)


def test_other_players_strings_show_their_real_private_details_after_resampling():
    s = deal([0, 1, 2], [[W, T, T], [G, F, N], [T, T, T]])
    play(s, WITCH + 1, PASS, GIVE + N)
    for seed in range(10):
        w = s.resample(2, seed)
        for q in (0, 1):
            text = w.information_state_string(q)
            assert "draw a card" not in "\n".join(
                line for line in text.split("\n") if line.startswith("You"))
            assert "You give a card" not in text


def test_snapshot_refused_under_python_O():
    code = (
        "import games, pyspiel\n"
        "g = pyspiel.load_game('gold_thief', {'players': 3})\n"
        "e = g.make_engine()\n"
        "d = bytearray(e.dump()); d[5 + len(str(e.game_string))] = 2\n"
        "try:\n"
        "    e.load(bytes(d))\n"
        "except ValueError as exc:\n"
        "    print('refused', exc)\n")
    out = subprocess.run([sys.executable, "-O", "-c", code], capture_output=True, text=True,
                         cwd=str(__import__("pathlib").Path(__file__).parents[3]))
    assert "refused" in out.stdout, out.stderr


def test_player_view_fields_are_what_the_player_knows():
    s = deal([0, 1], [[T, W, G], [F, G, T]])
    v = s.engine.player_view(1)
    assert v.hand == (1, 1, 0, 1, 0) and v.to_move is False and v.decider == 0
    assert v.goals_down == (1,) and v.gold == (5, 5)
    assert s.engine.player_view(0).to_move and s.engine.player_view(0).hand == (1, 1, 1, 0, 0)


def test_heuristic_bot_and_features_read_only_the_player_view():
    from games.gold_thief.features import gold_thief_features
    from games.gold_thief.ai import GoldThiefHeuristicBot
    a = _hist_known_guard(True)
    b = _hist_known_guard(False)
    for s in (a, b):
        play(s, 7 + 2)
        while s.current_player() != 0:
            play(s, PASS)
    # P1's view is equal in a and b: so are P1's features
    assert gold_thief_features(a, 1) == gold_thief_features(b, 1)
    game = a.get_game()
    bot = GoldThiefHeuristicBot(game)
    rng = random.Random(2)
    for state in random_states(pyspiel.load_game("gold_thief", {"players": 3}), 2, seed=4,
                               every=7):
        if state.is_terminal() or state.is_chance_node():
            continue
        p = state.current_player()
        world = state.resample(p, rng.randrange(1 << 30))
        assert bot.step(world) == bot.step(state)
