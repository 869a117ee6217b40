"""Saboteur: conformance suite, rulebook scenarios, properties, bad input."""
from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pyspiel
import pytest
from hypothesis import given, settings, strategies as st

import games.saboteur as sab
from games import testing
from games._adapter import ParameterError
from tiers import slow_above_min_players

PLAYTHROUGHS = Path(__file__).parent / "playthroughs"
EW, NS, NW, NE, NEW, NES, CROSS = range(7)
DE_EW = 12
MAP, ROCK, BRK, REP = 16, 17, 18, 21
PICK, LAMP, CART = range(3)
DIG, SAB = 0, 1
N_, E_, S_, W_ = 1, 2, 4, 8
FILLER = None  # in a scenario hand: any card the scenario never plays


def invariant(state: pyspiel.State) -> None:
    state.engine.check_invariants()


class Acts:
    """Action ids in the current state of one game, from the layout table in
    games/saboteur/__init__.py (written out here, independent of ``ActionIds``):
    placements ``(2k + rot) * F + j`` on frontier cell ``j``, rockfalls
    ``32 F + i`` on tunnel card ``i``, then the tail at ``32 F + T``."""

    def __init__(self, state: pyspiel.State):
        self.e = state.engine
        self.F = self.e.frontier_bound
        self.rock0 = 32 * self.F
        self.tail = self.rock0 + self.e.tunnel_bound

    def on_frontier(self, x, y) -> bool:
        return self.e.cell_action(x, y) in self.e.frontier()

    def place(self, k, x, y, rot=0):
        """Placement on cell (x, y), which must be on the current frontier."""
        return (2 * k + rot) * self.F + self.e.frontier().index(self.e.cell_action(x, y))

    def rock(self, x, y):
        """Rockfall on the tunnel card at (x, y)."""
        return self.rock0 + self.e.tunnel_cells().index(self.e.cell_action(x, y))

    def brk(self, tool, q):
        return self.tail + 10 * tool + q

    def rep(self, r, tool, q):
        return self.tail + 30 + 10 * (3 * r + tool) + q

    def map(self, g):
        return self.tail + 210 + g

    def pass_(self, k):
        return self.tail + 213 + k

    def keep(self, v):
        """The completer keeps a drawn gold card of value index v (0/1/2 = 1/2/3)."""
        return self.tail + 240 + v

    def give(self, v):
        """The completer hands a drawn gold card of value index v to the next digger."""
        return self.tail + 243 + v


def setup(roles, perm, hands, **params) -> pyspiel.State:
    """Chosen roles, goal layout (index into the 6 permutations) and hands."""
    n = len(hands)
    p = {"players": n, "goal_distance": 2, "rounds": 1, "hand_size": len(hands[0]), **params}
    state = pyspiel.load_game("saboteur", p).new_initial_state()
    for r in roles:
        state.apply_action(r)
    state.apply_action(perm)
    state.keep = {k for h in hands for k in h if k is not None}
    for i in range(n * len(hands[0])):
        k = hands[i % n][i // n]
        state.apply_action(_spare_kind(state) if k is None else k)
    assert not state.is_chance_node()
    return state


def _spare_kind(state) -> int:
    deck = view(state)["deck"]
    return max((k for k in range(27) if k not in state.keep), key=lambda k: deck[k])


def draw(state):
    """The current player draws a card the scenario does not use."""
    state.apply_action(_spare_kind(state))


def idle(state):
    """The current player passes, discarding a card the scenario does not use."""
    p = state.current_player()
    hand = view(state)["hands"][p]
    k = next(k for k in range(27) if hand[k] and k not in state.keep)
    state.apply_action(Acts(state).pass_(k))
    if state.is_chance_node():
        draw(state)


def play(state, *actions):
    for a in actions:
        if a is FILLER:
            draw(state)
        elif a == IDLE:
            idle(state)
        else:
            state.apply_action(a)
    return state


IDLE = "idle"


def view(state):
    return state.engine.state_view()


# ------------------------------------------------------------------ conformance
@pytest.mark.conformance
@pytest.mark.parametrize("params", slow_above_min_players("saboteur", [
    pytest.param({"players": 3, "rounds": 2, "deck_scale": 40}, marks=pytest.mark.slow),
    {"players": 5, "rounds": 1, "deck_scale": 50, "utility": "win"},
    {"players": 10, "rounds": 1, "deck_scale": 40},
    sab.MINI_PARAMS,
]))
def test_conformance(params):
    game = pyspiel.load_game("saboteur", params)
    varied = testing.check_game(game, invariant=invariant, num_sims=1, num_games=3)
    assert varied > 0, "resampling never produced a second world"


@pytest.mark.conformance
@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 10])
def test_full_deck_light_checks(players):
    game = pyspiel.load_game("saboteur", {"players": players})
    testing.check_random_sim(game, 1)
    testing.check_invariants_along_games(game, invariant, num_games=2)
    testing.check_serialization(game, num_games=1)
    assert testing.check_resampling(game, num_games=1, draws=3) > 0


def test_resampling_never_leaks():
    """Worlds drawn for p keep p's hand, role, map knowledge and gold; others vary."""
    game = pyspiel.load_game("saboteur", {"players": 4, "deck_scale": 50, "rounds": 2})
    roles_changed = hands_changed = 0
    for state in testing.random_states(game, 2, seed=9, every=11):
        if state.is_chance_node() or state.is_terminal():
            continue
        v = view(state)
        for p in range(4):
            for seed in range(4):
                w = view(state.resample(p, seed))
                assert w["hands"][p] == v["hands"][p]
                assert w["discards"][p] == v["discards"][p]
                assert w["roles"][p] == v["roles"][p]
                assert w["gold_cards"][p] == v["gold_cards"][p]
                assert _known_gold(w, p) == _known_gold(v, p)
                assert w["board"] == v["board"] and w["broken"] == v["broken"]
                assert [sum(h) for h in w["hands"]] == [sum(h) for h in v["hands"]]
                assert (w["roles"].count(SAB) + w["role_pool"][SAB]
                        == v["roles"].count(SAB) + v["role_pool"][SAB])
                for g in range(3):
                    if v["goals_up"][g]:
                        assert w["goals"][g] == v["goals"][g]
                roles_changed += w["roles"] != v["roles"]
                hands_changed += w["hands"] != v["hands"]
    assert roles_changed > 0 and hands_changed > 0


def _known_gold(v, p):
    """Location and value of every gold card whose value p has seen."""
    return [(loc, val) for loc, val, seen in v["gold_detail"] if p in seen]


# ------------------------------------------------------------------ set-up rules
@pytest.mark.parametrize("players,sabs,digs,hand", [
    (3, 1, 3, 6), (4, 1, 4, 6), (5, 2, 4, 6), (6, 2, 5, 5), (7, 3, 5, 5),
    (8, 3, 6, 4), (9, 3, 7, 4), (10, 4, 7, 4)])
def test_role_cards_and_hand_sizes(players, sabs, digs, hand):
    state = pyspiel.load_game("saboteur", {"players": players}).new_initial_state()
    probs = dict(state.chance_outcomes())
    assert probs[SAB] == pytest.approx(sabs / (sabs + digs))
    assert sabs + digs == players + 1
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert [sum(h) for h in view(state)["hands"]] == [hand] * players
    assert sum(view(state)["deck"]) == 67 - hand * players


def test_deck_composition_matches_the_facts_file():
    counts = pyspiel.load_game("saboteur").make_engine().state_view()["deck"]
    assert sum(counts[:7]) == 31 and sum(counts[7:16]) == 9 and sum(counts[16:]) == 27
    assert counts[MAP] == 6 and counts[ROCK] == 3 and counts[BRK:REP] == [3, 3, 3]
    assert counts[REP:] == [2, 2, 2, 1, 1, 1]


def test_goals_laid_face_down_at_goal_distance():
    state = setup([DIG, SAB, DIG], 0, [[CROSS]] * 3, goal_distance=8)
    text = state.observation_string(0)
    assert "goals: ? ? ?" in text
    assert view(state)["goals_up"] == [False] * 3
    assert all(name not in state.information_state_string(p)
               for name in ("treasure", "stone") for p in range(3))
    # The goal places are occupied: no placement id targets them.
    a = Acts(state)
    assert not a.on_frontier(8, 0) and a.on_frontier(7, 0)


# ------------------------------------------------------------------ path cards
def test_path_must_fit_every_neighbour():
    hands = [[CROSS, NS, NW, NE], [FILLER] * 4, [FILLER] * 4]
    state = setup([DIG, SAB, DIG], 0, hands, goal_distance=4)
    a = Acts(state)
    play(state, a.place(CROSS, 1, 0), FILLER, IDLE, IDLE)
    play(state, a.place(NS, 0, -1), FILLER, IDLE, IDLE)
    legal = state.legal_actions()
    # (1,-1): below is the cross (open N), left is the N-S card (wall E).
    assert a.place(NW, 1, -1, rot=1) in legal       # S-E: wall W fits the wall
    assert a.place(NE, 1, -1, rot=1) not in legal   # S-W: open W against a wall
    before = state.serialize()
    with pytest.raises(ValueError, match=str(a.place(NE, 1, -1, rot=1))):
        state.apply_action(a.place(NE, 1, -1, rot=1))
    assert state.serialize() == before


def test_path_must_connect_and_never_cover_start_or_goal():
    state = setup([DIG, SAB, DIG], 0, [[CROSS, EW], [FILLER] * 2, [FILLER] * 2], goal_distance=4)
    a = Acts(state)
    legal = state.legal_actions()
    assert a.place(CROSS, 1, 0) in legal and a.place(CROSS, -1, 0) in legal
    # Cells away from every card, the start and a goal have no placement id.
    assert not any(a.on_frontier(x, y) for x, y in ((2, 2), (0, 0), (4, 0)))
    for bad in (a.place(EW, 0, -1),     # E-W above the start has no open S edge
                a.place(CROSS, 3, 0),   # next to a face-down goal only
                a.rock0 - 1):           # the last frontier slot: no such cell now
        assert bad not in legal
        before = state.serialize()
        with pytest.raises(ValueError):
            state.apply_action(bad)
        assert state.serialize() == before


def test_orientations_upright_only_and_deduplicated():
    state = setup([DIG, SAB, DIG], 0, [[NE, CROSS], [FILLER] * 2, [FILLER] * 2], goal_distance=4)
    a = Acts(state)
    legal = state.legal_actions()
    assert a.place(NE, 0, 1) in legal                 # N-E below the start: N open
    assert a.place(NE, 0, -1, rot=1) in legal         # S-W above the start
    assert a.place(NE, 0, -1) not in legal
    assert a.place(CROSS, 1, 0, rot=1) not in legal   # symmetric: one orientation


def test_dead_end_does_not_connect_through():
    state = setup([DIG, SAB, DIG], 0, [[DE_EW, CROSS], [FILLER] * 2, [FILLER] * 2], goal_distance=4)
    a = Acts(state)
    play(state, a.place(DE_EW, 1, 0), CROSS)
    assert (2, 0) not in view(state)["frontier"]
    play(state, IDLE, IDLE)
    assert a.place(CROSS, 2, 0) not in state.legal_actions()


# ------------------------------------------------------------------ action cards
def test_broken_tool_blocks_paths_and_one_per_kind():
    hands = [[BRK + LAMP, BRK + LAMP], [CROSS, REP + 5], [FILLER] * 2]
    state = setup([DIG, SAB, DIG], 0, hands, goal_distance=4)
    a = Acts(state)
    legal = state.legal_actions()
    assert a.brk(LAMP, 1) in legal and a.brk(LAMP, 2) in legal
    assert a.brk(LAMP, 0) not in legal                  # not in front of oneself
    play(state, a.brk(LAMP, 1), FILLER)
    assert view(state)["broken"][1] == [0, 1, 0]
    legal = state.legal_actions()
    assert not any(x < a.rock0 for x in legal)          # no path play
    before = state.serialize()
    with pytest.raises(ValueError):
        state.apply_action(a.place(CROSS, 1, 0))
    assert state.serialize() == before
    # Repair lamp/cart on oneself mends the lamp (the only broken one).
    assert a.rep(5, LAMP, 1) in legal and a.rep(5, CART, 1) not in legal
    play(state, a.rep(5, LAMP, 1), FILLER, IDLE)
    assert view(state)["broken"][1] == [0, 0, 0]
    assert a.brk(LAMP, 1) in state.legal_actions()


def test_dual_repair_chooses_tool():
    hands = [[BRK + PICK, BRK + CART], [FILLER] * 2, [REP + 4, FILLER]]
    state = setup([DIG, SAB, DIG], 0, hands, goal_distance=4)
    a = Acts(state)
    play(state, a.brk(PICK, 1), FILLER, IDLE)
    legal = state.legal_actions()
    assert a.rep(4, PICK, 1) in legal          # pickaxe+cart card, pickaxe broken
    assert a.rep(4, CART, 1) not in legal      # the cart is not broken
    play(state, a.rep(4, PICK, 1), FILLER, a.brk(CART, 1), FILLER)
    assert view(state)["broken"][1] == [0, 0, 1]


def test_rockfall_removes_path_and_disconnects():
    hands = [[CROSS, CROSS], [ROCK, FILLER], [FILLER] * 2]
    state = setup([DIG, SAB, DIG], 0, hands, goal_distance=4)
    a = Acts(state)
    play(state, a.place(CROSS, 1, 0), CROSS)
    legal = state.legal_actions()
    assert a.rock(1, 0) in legal
    cells = state.engine.tunnel_cells()                 # rockfalls target tunnels only
    assert cells == [state.engine.cell_action(1, 0)] and len(legal) == len(set(legal))
    assert [x for x in legal if a.rock0 <= x < a.tail] == [a.rock(1, 0)]
    play(state, IDLE, IDLE, a.place(CROSS, 2, 0), FILLER)
    play(state, a.rock(1, 0), FILLER)
    v = view(state)
    assert (1, 0) not in v["board"] and (2, 0) in v["board"]
    assert (2, 0) not in v["reached"]
    assert (1, 0) in v["frontier"] and (3, 0) not in v["frontier"]
    assert v["public_discards"][CROSS] == 1 and v["public_discards"][ROCK] == 1


def test_map_is_private_and_pass_hides_card():
    state = setup([DIG, SAB, DIG], 2, [[MAP, EW], [NS, FILLER], [FILLER] * 2])
    a = Acts(state)
    play(state, a.map(1), FILLER, a.pass_(NS), FILLER)
    mine, theirs = state.information_state_string(0), state.information_state_string(1)
    assert "p0 maps goal 1 = treasure" in mine
    assert "p0 maps goal 1\n" in theirs and "treasure" not in theirs
    assert "p1 passes discarding path N-S" in theirs and "p1 passes\n" in mine
    for seed in range(10):
        assert view(state.resample(0, seed))["goals"][1] == 0
    assert {tuple(view(state.resample(1, s))["goals"]) for s in range(20)} != {(1, 0, 2)}


# ------------------------------------------------------------------ goals and round end
def test_stone_is_turned_up_and_play_continues():
    state = setup([DIG, SAB, DIG], 0, [[CROSS, EW], [FILLER] * 2, [FILLER] * 2])
    a = Acts(state)
    play(state, a.place(CROSS, 1, 0))
    v = view(state)
    assert v["goals_up"] == [False, True, False]
    assert v["goal_edges"][1] == S_ | W_   # N-E corner turned to open towards the path
    assert state.is_chance_node() and not state.is_terminal()
    assert "goal 1 turned up: stone N-E rotated" in state.information_state_string(2)


def _treasure_five(rounds=1, handout="finder"):
    """5 players, p0 (digger) completes the path; diggers p0, p2, p3."""
    hands = [[CROSS]] + [[FILLER]] * 4
    state = setup([DIG, SAB, DIG, DIG, SAB], 2, hands, rounds=rounds, gold_handout=handout)
    a = Acts(state)
    play(state, a.place(CROSS, 1, 0))
    return state, a


def test_digger_completes_keeps_one_and_chooses_for_the_others():
    state, a = _treasure_five()
    v = view(state)
    assert v["round_winners"] == ["diggers"] and v["completer"] == 0
    assert "saboteurs [1, 4]" in state.information_state_string(0)   # roles revealed
    assert v["gold_recipients"] == [0, 3, 2]       # completer, then counter-clockwise
    play(state, 0, 2, 1)                            # chance draws 1, 3, 2 nuggets
    assert view(state)["gold_drawn"] == [1, 1, 1]
    assert not state.is_chance_node() and state.current_player() == 0
    assert state.legal_actions() == [a.keep(0), a.keep(1), a.keep(2)]
    obs = state.observation_string(0)
    assert "gold drawn for p0: 3 card(s) 1 2 3, next to p0" in obs
    assert "gold drawn for p0: 3 card(s), next to p0" in state.observation_string(3)
    play(state, a.keep(2))
    assert state.current_player() == 0
    assert state.legal_actions() == [a.give(0), a.give(1)]     # for p3
    play(state, a.give(0))                          # p3 gets the 1; p2 the 2 (automatic)
    assert state.is_terminal()
    assert view(state)["gold_cards"] == [[0, 0, 1], [0, 0, 0], [0, 1, 0], [1, 0, 0], [0, 0, 0]]
    assert view(state)["gold_pool"] == [15, 7, 3] and view(state)["gold_drawn"] == [0, 0, 0]
    assert state.returns() == [3.0, 0.0, 2.0, 1.0, 0.0]
    info = [state.information_state_string(p) for p in range(5)]
    tail = lambda p: info[p].split("\n")[-7:]
    assert tail(0) == ["round 1 won by diggers; saboteurs [1, 4]",
                       "p0 draws a gold card of 1", "p0 draws a gold card of 3",
                       "p0 draws a gold card of 2", "p0 keeps a gold card of 3",
                       "p3 receives a gold card of 1 from p0",
                       "p2 receives a gold card of 2 from p0"]
    assert tail(3)[1:] == ["p0 draws a gold card"] * 3 + [
        "p0 keeps a gold card", "p3 receives a gold card of 1 from p0",
        "p2 receives a gold card from p0"]
    assert tail(2)[-3:] == ["p0 keeps a gold card", "p3 receives a gold card from p0",
                            "p2 receives a gold card of 2 from p0"]
    assert tail(1)[-3:] == tail(4)[-3:] == [
        "p0 keeps a gold card", "p3 receives a gold card from p0",
        "p2 receives a gold card from p0"]
    assert "gold handed out: p2:2 p3:1" in state.observation_string(0)
    assert "gold handed out" not in state.observation_string(3)


def test_gold_choice_keys_follow_information():
    """Keeping the 1 instead of the 3 changes what p0 and p3 know, and only their keys."""
    first, a = _treasure_five()
    play(first, 0, 2, 1)
    second = first.clone()
    play(first, a.keep(2), a.give(0))
    play(second, a.keep(0), a.give(2))          # p0 keeps 1, p3 gets 3, p2 gets 2
    assert view(second)["gold_cards"][:4] == [[1, 0, 0], [0, 0, 0], [0, 1, 0], [0, 0, 1]]
    for p in range(5):
        same = first.information_state_string(p) == second.information_state_string(p)
        assert same == (p in (1, 2, 4))
        assert (first.engine.py_info_key(p) == second.engine.py_info_key(p)) == same


def test_gold_hand_out_is_automatic_when_one_value_is_left():
    state, a = _treasure_five()
    play(state, 1, 1, 1)                        # three 2s: nothing to choose
    assert state.is_terminal()
    assert view(state)["gold_cards"][:4] == [[0, 1, 0], [0, 0, 0], [0, 1, 0], [0, 1, 0]]
    state, a = _treasure_five()
    play(state, 0, 0, 2, a.keep(0))             # after keeping a 1, p3 may get 1 or 3
    assert state.legal_actions() == [a.give(0), a.give(2)]
    play(state, a.give(2))
    assert state.is_terminal()
    assert view(state)["gold_cards"][:4] == [[1, 0, 0], [0, 0, 0], [1, 0, 0], [0, 0, 1]]


def test_saboteur_completes_first_card_to_nearest_digger_ten_players():
    roles = [DIG, DIG, SAB, SAB, DIG, DIG, SAB, DIG, SAB, DIG]
    hands = [[FILLER] * 4 for _ in range(10)]
    hands[3][0] = CROSS
    state = setup(roles, 2, hands, gold_handout="finder")
    a = Acts(state)
    for p in range(3):
        play(state, IDLE)
    play(state, a.place(CROSS, 1, 0))
    expected = [1, 0, 9, 7, 5, 4]           # diggers counter-clockwise from p3
    assert view(state)["gold_recipients"] == expected
    play(state, 2, 1, 0, 0, 0, 0)           # draws 3, 2 and four 1s
    assert state.current_player() == 3
    assert state.legal_actions() == [a.give(0), a.give(1), a.give(2)]   # no keeping
    play(state, a.give(1))                  # p1 (nearest digger) gets the 2
    play(state, a.give(2))                  # p0 the 3; the four 1s go on automatically
    assert state.is_terminal()
    gold = view(state)["gold_cards"]
    assert gold[1] == [0, 1, 0] and gold[0] == [0, 0, 1]
    assert all(gold[q] == [1, 0, 0] for q in (9, 7, 5, 4))
    assert all(gold[q] == [0, 0, 0] for q in (2, 3, 6, 8))
    ret = state.returns()
    assert [ret[q] for q in expected] == [2.0, 3.0, 1.0, 1.0, 1.0, 1.0]
    mine = state.information_state_string(3)
    assert "p1 receives a gold card of 2 from p3" in mine
    assert "p9 receives a gold card of 1 from p3" in mine
    theirs = state.information_state_string(1)
    assert "p1 receives a gold card of 2 from p3" in theirs
    assert "p0 receives a gold card from p3" in theirs and "of 3" not in theirs
    assert "keeps" not in mine


# Published rules (default gold_handout="pick"): "zieht Goldkarten gleich der Zahl
# der Goldgräber, behält eine und gibt den Rest entgegen dem Uhrzeigersinn an die
# nächsten Goldgräber" -- each digger in turn picks from the cards passed on.
def test_pick_hand_out_each_digger_picks_from_the_cards_passed_on():
    state, a = _treasure_five(handout="pick")
    assert view(state)["gold_recipients"] == [0, 3, 2]
    play(state, 0, 2, 1)                            # chance draws 1, 3, 2 nuggets
    assert state.current_player() == 0
    assert state.legal_actions() == [a.keep(0), a.keep(1), a.keep(2)]
    assert "gold drawn for p0: 3 card(s) 1 2 3, next to p0" in state.observation_string(0)
    assert "gold drawn for p0: 3 card(s), next to p0" in state.observation_string(3)
    play(state, a.keep(2))                          # p0 keeps the 3, passes 1 and 2 on
    assert state.current_player() == 3              # p3 now decides, seeing 1 and 2
    assert state.legal_actions() == [a.keep(0), a.keep(1)]
    assert "p0 passes 2 gold card(s) to p3: 1 2" in state.information_state_string(3)
    assert state.information_state_string(2).endswith("p0 passes 2 gold card(s) to p3")
    assert "gold drawn for p3: 2 card(s) 1 2, next to p3" in state.observation_string(3)
    before = state.serialize()
    with pytest.raises(ValueError):
        state.apply_action(a.keep(2))               # the 3 is no longer in the set
    assert state.serialize() == before
    play(state, a.keep(0))                          # p3 takes the 1; p2 gets the 2
    assert state.is_terminal()
    assert view(state)["gold_cards"][:4] == [[0, 0, 1], [0, 0, 0], [0, 1, 0], [1, 0, 0]]
    assert state.returns() == [3.0, 0.0, 2.0, 1.0, 0.0]
    info = [state.information_state_string(p) for p in range(5)]
    assert info[0].split("\n")[-8:] == [
        "p0 draws a gold card of 1", "p0 draws a gold card of 3", "p0 draws a gold card of 2",
        "p0 takes a gold card of 3", "p0 passes 2 gold card(s) to p3",
        "p3 takes a gold card", "p3 passes 1 gold card(s) to p2", "p2 takes a gold card"]
    assert info[2].split("\n")[-3:] == ["p3 takes a gold card",
                                        "p3 passes 1 gold card(s) to p2: 2",
                                        "p2 takes a gold card of 2"]
    for p in (1, 4):                                # saboteurs see no value at all
        assert all(" of " not in line for line in info[p].split("\n")[-8:])


def test_pick_hand_out_resampling_keeps_what_each_picker_saw():
    state, a = _treasure_five(handout="pick")
    play(state, 0, 2, 1, a.keep(2))                 # p0 keeps the 3; p3 holds 1 and 2
    kept_by_p0 = {p: set() for p in (2, 3)}
    for seed in range(40):
        for p in range(5):
            w = state.resample(p, seed)
            wv = view(w)
            assert w.information_state_string(p) == state.information_state_string(p)
            assert w.current_player() == 3
            assert sum(1 for x in wv["gold_drawn"] if x) >= 2     # p3 has a choice
            if p in (0, 3):                                       # both saw p3's set
                assert wv["gold_drawn"] == [1, 1, 0]
            if p == 0:
                assert wv["gold_cards"][0] == [0, 0, 1]
            if p in kept_by_p0:
                kept_by_p0[p].add(tuple(wv["gold_cards"][0]))
    assert len(kept_by_p0[2]) > 1 and len(kept_by_p0[3]) > 1


def test_pick_hand_out_single_value_is_taken_without_a_decision():
    state, a = _treasure_five(handout="pick")
    play(state, 0, 2, 0)                            # 1, 3, 1
    play(state, a.keep(2))                          # p3 gets two 1s: nothing to choose
    assert state.is_terminal()
    assert view(state)["gold_cards"][:4] == [[0, 0, 1], [0, 0, 0], [1, 0, 0], [1, 0, 0]]
    assert "p0 passes 2 gold card(s) to p3: 1 1" in state.information_state_string(3)


def test_pick_hand_out_saboteur_finder_passes_all_to_nearest_digger():
    roles = [DIG, DIG, SAB, SAB, DIG, DIG, SAB, DIG, SAB, DIG]
    hands = [[FILLER] * 4 for _ in range(10)]
    hands[3][0] = CROSS
    state = setup(roles, 2, hands)                  # default: pick
    a = Acts(state)
    for p in range(3):
        play(state, IDLE)
    play(state, a.place(CROSS, 1, 0))
    assert view(state)["gold_recipients"] == [1, 0, 9, 7, 5, 4]
    play(state, 2, 1, 0, 0, 0, 0)
    assert state.current_player() == 1              # the nearest digger picks first
    assert state.legal_actions() == [a.keep(0), a.keep(1), a.keep(2)]
    assert "p3 draws a gold card for p1 of 3" in state.information_state_string(1)
    assert "p3 draws a gold card for p1\n" in state.information_state_string(3)
    play(state, a.keep(2))
    assert state.current_player() == 0 and state.legal_actions() == [a.keep(0), a.keep(1)]
    play(state, a.keep(1))                          # the four 1s go on automatically
    assert state.is_terminal()
    gold = view(state)["gold_cards"]
    assert gold[1] == [0, 0, 1] and gold[0] == [0, 1, 0]
    assert all(gold[q] == [1, 0, 0] for q in (9, 7, 5, 4))
    assert all(gold[q] == [0, 0, 0] for q in (2, 3, 6, 8))


def test_gold_handout_parameter_is_checked():
    with pytest.raises(ParameterError, match="gold_handout"):
        pyspiel.load_game("saboteur", {"gold_handout": "dealer"})
    assert "gold_handout=pick" in str(pyspiel.load_game("saboteur"))


def test_resampling_keeps_gold_the_player_has_seen():
    """The completer's hand-outs and own cards stay; hidden gold still varies."""
    state, a = _treasure_five(rounds=2)
    play(state, 0, 2, 1)
    decision = state.clone()
    play(state, a.keep(2), a.give(0))                 # p0 3, p3 1, p2 2
    while state.is_chance_node():                      # round 2 set-up
        state.apply_action(state.chance_outcomes()[0][0])
    v = view(state)
    assert v["phase"] == "play" and v["round"] == 1
    varied = {p: set() for p in range(5)}
    for seed in range(30):
        for p in range(5):
            w = view(state.resample(p, seed))
            assert w["gold_cards"][p] == v["gold_cards"][p]
            assert _known_gold(w, p) == _known_gold(v, p)
            assert [sum(g) for g in w["gold_cards"]] == [sum(g) for g in v["gold_cards"]]
            varied[p].add(tuple(map(tuple, w["gold_cards"])))
    assert varied[0] == {tuple(map(tuple, v["gold_cards"]))}   # p0 saw every card handed out
    for p in (1, 2, 3, 4):
        assert len(varied[p]) > 1
    for p in (2, 3):                                  # recipients know only their own card
        assert any(w[0] != (0, 0, 1) for w in varied[p])
    # At the completer's decision the drawn set keeps two values or more.
    dv = view(decision)
    drawn_worlds = set()
    for seed in range(40):
        w = decision.resample(3, seed)
        w.engine.check_invariants()
        wv = view(w)
        assert sum(1 for x in wv["gold_drawn"] if x) >= 2
        assert wv["gold_cards"] == dv["gold_cards"]
        assert w.current_player() == 0
        assert w.information_state_string(3) == decision.information_state_string(3)
        drawn_worlds.add(tuple(wv["gold_drawn"]))
    assert len(drawn_worlds) > 1
    for seed in range(5):
        assert view(decision.resample(0, seed))["gold_drawn"] == [1, 1, 1]


@pytest.mark.parametrize("players,roles,pay", [
    (3, [SAB, DIG, DIG], [4, 0, 0]),
    (3, [DIG, DIG, DIG], [0, 0, 0]),                       # spare was the saboteur
    (5, [SAB, DIG, SAB, DIG, DIG], [3, 0, 3, 0, 0]),
    (10, [SAB, SAB, SAB, SAB] + [DIG] * 6, [2, 2, 2, 2] + [0] * 6),
])
def test_saboteurs_win_when_cards_run_out(players, roles, pay):
    state = setup(roles, 0, [[FILLER]] * players, deck_scale=30)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(max(state.legal_actions()))     # always a pass
    assert view(state)["round_winners"] == ["saboteurs"]
    assert state.returns() == [float(x) for x in pay]


def test_next_round_starts_left_of_last_path_player_and_win_utility():
    state = setup([DIG, SAB, DIG], 2, [[FILLER, FILLER], [CROSS, FILLER], [FILLER] * 2],
                  rounds=2, utility="win")
    a = Acts(state)
    play(state, IDLE, a.place(CROSS, 1, 0))
    play(state, 0, 0)                        # gold: p0 then p2, one nugget each (automatic)
    for r in (DIG, DIG, SAB):
        state.apply_action(r)
    state.apply_action(0)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.current_player() == 2       # left of p1, who placed the last path
    assert view(state)["board"] == {}
    assert view(state)["gold_cards"][0] == [1, 0, 0]
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(max(state.legal_actions()))
    nug = view(state)["nuggets"]
    best = max(nug)
    winners = [p for p in range(3) if nug[p] == best]
    assert state.returns() == [1 / len(winners) if p in winners else 0.0 for p in range(3)]


# ------------------------------------------------------------------ parameters
@pytest.mark.parametrize("name,value", [
    ("players", 2), ("players", 11), ("rounds", 0), ("rounds", 6), ("goal_distance", 1),
    ("deck_scale", 5), ("deck_scale", 101), ("hand_size", 7), ("utility", "points"),
    ("players", "5")])
def test_bad_parameters_are_refused(name, value):
    with pytest.raises(ParameterError, match=name):
        pyspiel.load_game("saboteur", {name: value}) if not isinstance(value, str) \
            else sab.SaboteurGame({name: value})


def test_unknown_parameter_refused():
    with pytest.raises(ParameterError, match="colour"):
        sab.SaboteurGame({"colour": 1})


def test_snapshot_refuses_garbage():
    e = pyspiel.load_game("saboteur").make_engine()
    data = e.dump()
    for bad in (b"", b"garbage", data[:-3], data[:8] + b"\x09" + data[9:]):
        with pytest.raises(ValueError):
            e.load(bad)
    e.load(data)


# ------------------------------------------------------------------ properties
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(3, 10))
def test_property_invariants_and_bounds(seed, players):
    game = pyspiel.load_game("saboteur", {"players": players, "rounds": 1, "deck_scale": 40})
    rng = random.Random(seed)
    state = game.new_initial_state()
    length = 0
    while not state.is_terminal():
        if state.is_chance_node():
            acts, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(acts, probs)[0])
        else:
            legal = state.legal_actions()
            assert 0 < len(legal) <= 1024
            state.apply_action(rng.choice(legal))
        length += 1
        state.engine.check_invariants()
    assert length <= game.max_game_length()
    ret = state.returns()
    assert all(game.min_utility() <= r <= game.max_utility() for r in ret)


# ------------------------------------------------------------------ regression files
def _perft(seed: int) -> dict:
    game = pyspiel.load_game("saboteur", {"players": 5})
    rng = random.Random(seed)
    state = game.new_initial_state()
    counts, distinct = [], []
    while not state.is_terminal() and len(counts) < 40:
        if state.is_chance_node():
            acts, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(acts, probs)[0])
            continue
        legal = state.legal_actions()
        counts.append(len(legal))
        if len(counts) % 10 == 0:
            distinct.append(len({str(state.child(x)) for x in legal}))
        state.apply_action(rng.choice(legal))
    return {"seed": seed, "legal_counts": counts, "distinct_children": distinct}


def test_perft_regression():
    path = PLAYTHROUGHS / "saboteur_perft.txt"
    got = "\n".join(json.dumps(_perft(s)) for s in (1, 2, 3)) + "\n"
    if os.environ.get("REGENERATE_PLAYTHROUGHS"):
        path.write_text(got)
    assert got == path.read_text()


def test_golden_playthrough():
    from open_spiel.python.algorithms import generate_playthrough
    path = PLAYTHROUGHS / "saboteur.txt"
    text = generate_playthrough.playthrough(
        "saboteur(deck_scale=10,goal_distance=2,hand_size=1,players=3,rounds=1)",
        action_sequence=None, alsologtostdout=False, seed=7)
    if os.environ.get("REGENERATE_PLAYTHROUGHS"):
        path.write_text(text)
    assert text == path.read_text()


def test_info_keys_match_info_strings_through_gold_hand_outs():
    """Along random games with hand-outs, keys are equal iff information strings are."""
    game = pyspiel.load_game("saboteur", {"players": 4, "goal_distance": 2, "deck_scale": 30,
                                          "rounds": 2})
    key_of, text_of = {}, {}
    decisions = 0
    for state in testing.random_states(game, 40, seed=3):
        decisions += view(state)["phase"] == "share"
        for p in range(4):
            text, key = state.information_state_string(p), state.engine.py_info_key(p)
            assert key_of.setdefault(text, key) == key
            assert text_of.setdefault(key, text) == text
    assert decisions > 0
