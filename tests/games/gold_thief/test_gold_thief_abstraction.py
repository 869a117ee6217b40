"""Gold Thief's MCCFR abstractions (games/gold_thief/abstraction.py) at the default rules, 2 players."""
import itertools
import random

import numpy as np
import pyspiel
import pytest

import games
from games.gold_thief.features import GOLD_THIEF_TABLE, gold_thief_abstract_features
from games.gold_thief.abstraction import GoldThiefActions, gold_thief_compact
from solvers import abstractions
from solvers.abstractions import get_action_abstraction
from solvers.bots import make_bot
from solvers.mccfr import MCCFRSolver
from solvers.policy_tables import table_game
from tests.test_abstraction import _saboteur_decisions

GAME = table_game(GOLD_THIEF_TABLE, "default")      # the rules at 2 players
L = games.gold_thief


def _decisions(games_n: int, seed: int, game=GAME):
    """(state, player) at every decision of uniform-random games (the Saboteur tests' walker)."""
    return _saboteur_decisions(games_n, seed, game)


def test_default_table_preset_is_two_players_and_abstractions_come_from_the_spec():
    assert GOLD_THIEF_TABLE.presets == ("mini", "default")
    assert GAME.num_players() == 2
    assert GAME.get_parameters()["thieves"] == 14 and GAME.get_parameters()["goals_to_win"] == 3
    assert abstractions.get_abstraction("gold_thief_compact", GAME) is gold_thief_compact
    assert isinstance(get_action_abstraction("gold_thief_actions", "gold_thief"), GoldThiefActions)
    with pytest.raises(ValueError, match="unknown abstraction 'nope'"):
        abstractions.get_abstraction("nope", GAME)
    with pytest.raises(ValueError, match="unknown action abstraction 'nope'"):
        get_action_abstraction("nope", GAME)
    with pytest.raises(ValueError, match="no preset 'huge'"):
        GOLD_THIEF_TABLE.load("huge")


def test_actions_map_to_distinct_legal_moves_of_the_kind_they_name():
    aa = get_action_abstraction("gold_thief_actions", GAME)
    heuristic = make_bot("heuristic", GAME)
    seen = set()
    kinds = {"thief": (L.A_THIEF, L.A_THIEF_RAID, L.A_GIVE + L.THIEF),
             "guard": (L.A_GUARD, L.A_GUARD_CANCEL, L.A_GIVE + L.GUARD),
             "witch": (L.A_WITCH, L.A_WITCH_EXTRA, L.A_GIVE + L.WITCH),
             "faerie": (L.A_FAERIE, L.A_FAERIE_CANCEL, L.A_GIVE + L.FAERIE),
             "ninja": (L.A_NINJA, L.A_NINJA_SCORE, L.A_GIVE + L.NINJA)}
    spans = {L.A_THIEF: 5, L.A_GUARD: 5, L.A_WITCH: 5, L.A_FAERIE: 24, L.A_NINJA_SCORE: 24}
    # big-pile flips with two goals down are rare at the default rules: add games
    # with big_pile=4, where they happen every few games
    small_pile = pyspiel.load_game("gold_thief", {"players": 2, "big_pile": 4})
    for state, p in itertools.chain(_decisions(12, 0), _decisions(30, 0, small_pile)):
        legal = state.legal_actions()
        pairs = aa.actions(p, state.engine, legal)
        ids, conc = [k for k, _ in pairs], [a for _, a in pairs]
        assert ids == sorted(set(ids)) and len(set(conc)) == len(conc) and set(conc) <= set(legal)
        assert pairs[0] == (0, heuristic.step(state))
        for k, a in pairs[1:]:
            name = aa.action_names[k]
            seen.add(name)
            if name == "keep":
                assert a in (L.A_END_TURN, L.A_PASS)
            elif name == "flip":
                view = state.engine.player_view(p)
                gap = {g: min(abs(view.gold[p] - x) for x in view.goal_numbers[g])
                       for g in view.goals_down}
                assert L.A_BIG_FLIP <= a < L.A_GIVE
                assert gap[a - L.A_BIG_FLIP] == max(gap.values())
            else:
                assert any(base <= a < base + spans.get(base, 1) for base in kinds[name]), (name, a)
    assert seen == set(aa.action_names[1:])


def test_targets_follow_the_rules():
    """Play phase: Thief/Witch on the richest opponent at equal goals; Faerie on
    the goal farthest from your gold (checked at 3 players, where targets differ)."""
    game = pyspiel.load_game("gold_thief", {"players": 3})
    aa = GoldThiefActions()
    checked = 0
    for state, p in _decisions(6, 3, game):
        view = state.engine.player_view(p)
        if view.phase != "play":
            continue
        got = dict(aa.actions(p, state.engine, state.legal_actions()))
        cand = aa.candidates(p, state.engine, state.legal_actions())
        for k, base in ((2, L.A_THIEF), (4, L.A_WITCH)):
            if cand[k] is not None:
                v = cand[k] - base
                assert all((len(view.face_up[v]), view.gold[v]) >= (len(view.face_up[w]),
                                                                   view.gold[w])
                           for w in range(3) if w != p and base + w in state.legal_actions())
                checked += 1
        if cand[5] is not None:
            g = cand[5] - L.A_FAERIE
            far = max(min(abs(view.gold[p] - x) for x in view.goal_numbers[h])
                      for h in view.goals_down)
            assert min(abs(view.gold[p] - x) for x in view.goal_numbers[g]) == far
        assert got  # never empty
    assert checked > 20


def test_buckets_and_actions_read_only_the_players_information():
    """A resampled world (same information state) gives the same row and moves."""
    aa = get_action_abstraction("gold_thief_actions", GAME)
    checked = 0
    for i, (state, p) in enumerate(_decisions(3, 1)):
        if i % 3:
            continue
        label = abstractions.abstract_row(p, state.engine, None, state.legal_actions(),
                                          gold_thief_compact, aa)
        for seed in range(2):
            world = state.resample(p, 100 * i + seed)
            assert world.information_state_string(p) == state.information_state_string(p)
            assert abstractions.abstract_row(p, world.engine, None, world.legal_actions(),
                                             gold_thief_compact, aa) == label
            assert gold_thief_abstract_features(world, p) == gold_thief_abstract_features(state, p)
            checked += 1
    assert checked > 20


def _solve(seed: int) -> MCCFRSolver:
    s = MCCFRSolver(GAME, scheme="outcome", seed=seed, abstraction="gold_thief_compact",
                    action_abstraction="gold_thief_actions")
    s.run(10)
    return s


def test_short_solve_is_seed_deterministic():
    a, b, c = _solve(4), _solve(4), _solve(5)
    ta, tb = a.average_policy_table(), b.average_policy_table()
    assert ta.keys() == tb.keys() and len(ta) > 100
    assert all(ta[k][1] == tb[k][1] and np.array_equal(ta[k][2], tb[k][2]) for k in ta)
    assert c.average_policy_table().keys() != ta.keys()


def test_restricted_abstractions_choose_only_in_their_decisions():
    """gold_thief_responses / _defence / _turns: the full set inside their decisions, only
    the heuristic's move elsewhere; gold_thief_windows is one bucket per phase outside."""
    full = get_action_abstraction("gold_thief_actions", GAME)
    windows = abstractions.get_abstraction("gold_thief_windows", GAME)
    restricted = {name: get_action_abstraction(name, GAME)
                  for name in ("gold_thief_responses", "gold_thief_defence", "gold_thief_turns")}
    inside = {name: 0 for name in restricted}
    for state, p in _decisions(6, 2):
        e, legal = state.engine, state.legal_actions()
        view = e.player_view(p)
        top = view.pending[-1] if view.pending else None
        in_window = view.phase in ("respond", "ninja-window", "witch-give")
        where = {"gold_thief_responses": in_window, "gold_thief_turns": not in_window,
                 "gold_thief_defence": (view.phase == "respond" and top is not None
                                        and top[0] in (0, 1, 2) and top[2] == p)}
        for name, aa in restricted.items():
            got = aa.actions(p, e, legal)
            if where[name]:
                assert got == full.actions(p, e, legal)
                inside[name] += len(got) > 1
            else:
                assert got == full.actions(p, e, legal)[:1]
        if not in_window:
            assert windows(p, e) == (view.phase,)
        else:
            assert windows(p, e)[0] == view.phase and len(windows(p, e)) == 6
    assert all(n > 3 for n in inside.values()), inside
