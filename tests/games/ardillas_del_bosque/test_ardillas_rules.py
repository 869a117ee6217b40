"""Ardillas del Bosque rules corrections (issue 11): boards in play, Wild Boar."""
from __future__ import annotations

import pyspiel
import pytest

import games.ardillas_del_bosque as A

INDEX, KEEP, NPLACE = 88, 11, 18
WALNUT, SQUIRREL, POO = 0, 5, 6


def load(**params) -> pyspiel.Game:
    return pyspiel.load_game("ardillas_del_bosque", params)


def play(game: pyspiel.Game, actions: list[int]) -> pyspiel.State:
    state = game.new_initial_state()
    for a in actions:
        state.apply_action(a)
        state.engine.check_invariants()
    return state


def test_boards_are_drawn_at_set_up():
    """'Take as many game boards as players': any of the five boards, by chance."""
    state = load().new_initial_state()
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(b, 0.2) for b in range(5)]
    state.apply_action(2)  # board 0 (player 0's) is the Golden Eagle / Owl board
    assert state.chance_outcomes() == [(b, 0.25) for b in (0, 1, 3, 4)]
    state.apply_action(3)  # board 1 is the Ant / Dung Beetle board
    view = state.engine.player_view(1)
    assert view.board_animals == ("golden_eagle", "ant")
    assert "board 0 is the golden_eagle/owl board" in state.information_state_string(1)
    assert state.is_chance_node() and state.chance_outcomes()[0][0] == WALNUT  # autumn draw


def test_a_two_player_game_can_wake_the_golden_eagle():
    # boards: Golden Eagle (board 0 = h0), Ant (board 1 = h1); the mini set-up
    # of the other tests: p0 walnut h1, p1 walnut h0, p0 poo h0, p1 poo h1,
    # p0 squirrel h1, p1 squirrel h0.
    game = load(**A.MINI_PARAMS)
    setup = [WALNUT, 1, WALNUT, 0, POO, 0, POO, 1, SQUIRREL, 1, SQUIRREL, 0]
    state = play(game, [2, 3] + setup + [0])  # p0 draws p1's squirrel from h0
    assert "p0 wakes golden_eagle (board 0)" in state.information_state_string(1)
    state.apply_action(1)  # eagle: p0's squirrel from h1, secretly
    assert state.engine.player_view(0).nests[0][-1].kind == "squirrel"
    assert state.engine.player_view(1).nests[0][-1].kind is None


def test_boards_parameter_fixes_them():
    state = load(boards="owl+lizard").new_initial_state()
    assert state.is_chance_node() and state.chance_outcomes()[0][0] == WALNUT
    assert state.engine.player_view(0).board_animals == ("golden_eagle", "lizard")
    night = load(boards="owl+lizard", side="night").new_initial_state()
    assert night.engine.player_view(0).board_animals == ("owl", "snake")


def test_no_board_draw_when_animals_never_act():
    for params in ({"king": "lynx"}, {"little_squirrels": True}):
        state = load(**params).new_initial_state()
        assert state.chance_outcomes()[0][0] == WALNUT, params


@pytest.mark.parametrize("value", ["bear", "bear+wild_boar", "bear+wolf", "random+bear"])
def test_bad_boards_refused(value):
    with pytest.raises(ValueError, match="boards"):
        load(boards=value)


def test_wild_boar_turns_the_pile_over_so_a_second_boar_hides_it_again():
    """'Place the token pile back in its place, but flipped': each token turns."""
    game = load(**A.MINI_PARAMS, side="night", king="wild_boar")
    # p0 keeps walnut, p1 keeps walnut; p0 squirrel h0, p1 poo h0, p0 poo h1,
    # p1 squirrel h0: h0 holds (top first) p1 squirrel, p1 poo, p0 squirrel.
    setup = [KEEP + WALNUT, KEEP + WALNUT, NPLACE + 50, NPLACE + 60, NPLACE + 61, NPLACE + 50]
    state = play(game, setup + [0])  # p0 draws p1's squirrel: the Boar
    state.apply_action(0)            # look through h0: [p1 poo, p0 squirrel], face down
    state.apply_action(INDEX + 1)    # p0's squirrel on top, then the poo
    pile = state.engine.player_view(1).piles[0]
    assert [(t.owner, t.kind, t.face_up) for t in pile] == [(0, "squirrel", True), (1, "poo", True)]
    state.apply_action(0)            # p1 draws p0's squirrel: the Boar again, on h0
    assert state.engine.player_view(1).phase == "boar-pile"
    state.apply_action(0)            # a lone token: looked at, put back turned over
    pile = state.engine.player_view(0).piles[0]
    assert [(t.owner, t.ordinal, t.face_up) for t in pile] == [(1, 1, False)]
    assert "p1#1:poo" in state.observation_string(0).split("\n")[1]
    assert "^" not in state.observation_string(0).split("\n")[1]
    assert state.current_player() == 0
