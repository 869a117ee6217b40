"""Saboteur's compact action ids: placements target a frontier position,
rockfalls a tunnel card on the table (rules doc, "Action encoding")."""
from __future__ import annotations

import pyspiel
import pytest

from src_cy.rng import SplitMix64
from test_saboteur import DIG, FILLER, SAB, Acts, play, setup, view

CROSS, NS, ROCK = 6, 1, 17


def _xy(e, cells: list[int]) -> list[tuple[int, int]]:
    return [e.cell_xy(c) for c in cells]


def test_frontier_ids_and_strings_of_a_known_position():
    state = setup([DIG, SAB, DIG], 0, [[CROSS, NS], [ROCK, FILLER], [FILLER] * 2],
                  goal_distance=4)
    e = state.engine
    # Full deck: T = 40 tunnel cards, Q = 3 rockfalls, F = 14 + 2T + Q.
    assert (e.frontier_bound, e.tunnel_bound) == (97, 40)
    assert state.get_game().num_distinct_actions() == 32 * 97 + 40 + 246 == 3390
    # Empty neighbours of the start and of the goals at (4, -2), (4, 0), (4, 2),
    # in cell order (row by row, north first).
    assert _xy(e, e.frontier()) == [(4, -3), (3, -2), (5, -2), (0, -1), (4, -1),
                                    (-1, 0), (1, 0), (3, 0), (5, 0), (0, 1), (4, 1),
                                    (3, 2), (5, 2), (4, 3)]
    assert e.tunnel_cells() == []
    cross_east = 2 * CROSS * 97 + 6                 # kind 6 upright, frontier cell 6
    assert cross_east == 1170 and cross_east in state.legal_actions()
    assert state.action_to_string(cross_east) == "place path cross at (1,0)"
    # The frontier cells next to a face-down goal only have no legal placement.
    legal = state.legal_actions()
    assert [e.cell_xy(e.frontier()[a % 97]) for a in legal if a < 32 * 97
            and a // 97 == 2 * CROSS] == [(0, -1), (-1, 0), (1, 0), (0, 1)]
    play(state, cross_east, FILLER)
    assert view(state)["board"][(1, 0)][0] == CROSS
    assert _xy(e, e.frontier()) == [(4, -3), (3, -2), (5, -2), (0, -1), (1, -1),
                                    (4, -1), (-1, 0), (2, 0), (3, 0), (5, 0), (0, 1),
                                    (1, 1), (4, 1), (3, 2), (5, 2), (4, 3)]
    assert _xy(e, e.tunnel_cells()) == [(1, 0)]
    # p1's rockfall on the cross: the first (only) tunnel card, id 32 F.
    assert state.action_to_string(32 * 97) == "rockfall at (1,0)"
    assert 32 * 97 in state.legal_actions()
    assert state.action_to_string(32 * 97 + 1) == "rockfall at tunnel card 1 (none now)"
    play(state, 32 * 97, FILLER)
    assert (1, 0) not in view(state)["board"] and e.tunnel_cells() == []
    assert state.action_to_string(32 * 97 - 1) == (
        "place dead end cross rotated at frontier cell 96 (none now)")


def test_acts_helper_agrees_with_the_named_cells():
    state = setup([DIG, SAB, DIG], 0, [[CROSS, NS], [FILLER] * 2, [FILLER] * 2],
                  goal_distance=4)
    a = Acts(state)
    assert state.action_to_string(a.place(NS, 0, -1)) == "place path N-S at (0,-1)"


@pytest.mark.parametrize("players", range(3, 11))
def test_frontier_never_exceeds_its_bound(players):
    """Random games (25 per player count, fixed seeds) at the full deck and a
    short maze: the frontier, the tunnel list and every placement stay inside
    the proven bounds, and each legal placement targets a frontier cell the
    engine can reach."""
    game = pyspiel.load_game("saboteur", {"players": players, "rounds": 2,
                                          "goal_distance": 3 + players % 4})
    rng = SplitMix64(players)
    longest = 0
    for _ in range(25):
        e = game.new_initial_state().engine
        F, T = e.frontier_bound, e.tunnel_bound
        while not e.py_is_terminal():
            front = e.frontier()
            assert len(front) <= F and len(e.tunnel_cells()) <= T
            assert front == sorted(set(front))
            longest = max(longest, len(front))
            if e.py_current_player() < 0:
                outs = e.py_chance_outcomes()
                e.py_apply(outs[rng.randint(len(outs))][0])
                continue
            legal = e.py_legal_actions()
            assert legal == sorted(set(legal))
            assert all(a % F < len(front) for a in legal if a < 32 * F)
            assert all(a - 32 * F < len(e.tunnel_cells()) for a in legal if 32 * F <= a < 32 * F + T)
            e.py_apply(legal[rng.randint(len(legal))])
    assert longest > 14                   # the games did build a maze


@pytest.mark.parametrize("players", [3, 6, 10])
def test_kept_fit_sets_give_the_legal_actions_of_a_fresh_copy(players):
    """``legal_actions`` keeps the frontier cells' fit sets while the maze
    stands (a placement, rockfall, new round or copy drops them).  Along
    random games (rockfalls, reveals, a second round) the legal actions of
    the engine that kept them equal those of a fresh copy, which computes
    them anew, and ``check_invariants`` compares the kept sets with the
    maze."""
    game = pyspiel.load_game("saboteur", {"players": players, "rounds": 2, "deck_scale": 60})
    rng = SplitMix64(players + 40)
    checked = 0
    for _ in range(4):
        e = game.new_initial_state().engine
        while not e.py_is_terminal():
            if e.py_current_player() < 0:
                outs = e.py_chance_outcomes()
                e.py_apply(outs[rng.randint(len(outs))][0])
                continue
            legal = e.py_legal_actions()
            assert legal == e.py_clone().py_legal_actions()
            if checked % 16 == 0:
                e.check_invariants()
            e.py_apply(legal[rng.randint(len(legal))])
            checked += 1
    assert checked > 200


def test_bound_follows_the_deck():
    mini = pyspiel.load_game("saboteur(players=3,rounds=1,goal_distance=3,deck_scale=25,"
                             "hand_size=3)")
    e = mini.new_initial_state().engine
    # deck_scale 25 (counts rounded half up per kind): T = 7 tunnel cards (one
    # of each open path, no dead end), Q = 1 rockfall.
    assert (e.tunnel_bound, e.frontier_bound) == (7, 14 + 2 * 7 + 1)
    assert mini.num_distinct_actions() == 32 * 29 + 7 + 246 == 1181


def test_snapshot_of_the_old_ids_is_refused():
    """Version 4 snapshots hold the compact ids; a version-3 one (cell-based
    ids) is refused by name and changes nothing."""
    import struct
    state = setup([DIG, SAB, DIG], 0, [[CROSS, NS], [FILLER] * 2, [FILLER] * 2],
                  goal_distance=4)
    e = state.engine
    data = e.dump()
    assert struct.unpack("<I", data[8:12]) == (4,)
    old = data[:8] + struct.pack("<I", 3) + data[12:]
    target = state.get_game().new_initial_state().engine
    with pytest.raises(ValueError, match="unsupported saboteur snapshot version 3"):
        target.load(old)
    assert target.dump() == state.get_game().new_initial_state().engine.dump()
    target.load(data)
    assert target.dump() == data


def test_an_id_means_the_same_move_across_an_information_set():
    """The frontier and the tunnel list are public: in a world resampled from
    the mover's information set, every legal id names the same move."""
    from games import testing
    game = pyspiel.load_game("saboteur", {"players": 4, "rounds": 1, "goal_distance": 3,
                                          "deck_scale": 40})
    checked = 0
    for i, state in enumerate(testing.random_states(game, 3, seed=5, every=3)):
        p = state.current_player()
        if p < 0:
            continue
        world = state.engine.py_resample(p, i)
        assert world.py_info_key(p) == state.engine.py_info_key(p)
        legal = state.legal_actions()
        assert world.py_legal_actions() == legal
        assert ([world.action_to_string(p, a) for a in legal]
                == [state.action_to_string(a) for a in legal])
        checked += 1
    assert checked > 20
