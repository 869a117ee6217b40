"""Gold Thief's terminal renderer (games/gold_thief/render.py): scripted
positions, the seat's own lines, what stays hidden, event wording, the end."""
from __future__ import annotations

import re

import pyspiel
import pytest

from experiments.play_render import render_view
from games.gold_thief.render import GoldThiefRenderer, goal_text, screen_of
from tests.games.gold_thief.test_gold_thief import (C_GOAL, F, G, N, RAID, T, THIEF, W, deal,
                                                    play)
from tests.test_play import session

R = GoldThiefRenderer()


def test_screen_shows_the_seats_hand_gold_and_goal():
    s = deal([0, 1, 2], [[T, T, W], [T, F, F], [G, N, F]])
    lines = R.screen(s, 0).splitlines()
    assert lines[0].startswith("== Gold Thief: you are P0 ==")
    assert lines[1] == "turn 1: your turn; phase play, to move: you"
    assert lines[2:6] == ["  player    gold  cards  goals down  goals up",
                          "  P0 (you)     5      3           1  -",
                          "  P1           5      3           1  -",
                          "  P2           5      3           1  -"]
    assert "your hand:  Thief 2, Witch 1" in lines
    assert "your goals: [4 or 10]  (face down; reach one of the numbers)" in lines
    assert "Deck 39, discards Thief 0, Guard 0, Witch 0, Faerie 0, Ninja 0" in lines


def test_opponents_hands_and_goals_stay_hidden():
    """P0's screen is the same whatever P1 and P2 hold, and never names their
    goals; P1's screen names its own goal and hand."""
    a = deal([0, 1, 2], [[T, T, W], [T, F, F], [G, N, F]])
    b = deal([0, 3, 5], [[T, T, W], [N, N, G], [F, F, F]])
    assert R.screen(a, 0) == R.screen(b, 0)
    assert "[1 or 7]" not in R.screen(a, 0) and "[2 or 8]" not in R.screen(a, 0)
    # P0 holds no Guard, Faerie or Ninja: only the discard counts name them
    assert [ln for ln in R.screen(a, 0).splitlines() if re.search("Guard|Faerie|Ninja", ln)] \
        == ["Deck 39, discards Thief 0, Guard 0, Witch 0, Faerie 0, Ninja 0"]
    mine = R.screen(a, 1).splitlines()
    assert "your hand:  Thief 1, Faerie 2" in mine
    assert "your goals: [1 or 7]  (face down; reach one of the numbers)" in mine
    assert "[4 or 10]" not in R.screen(a, 1)


def test_pending_chain_names_the_seat_you():
    s = deal([0, 1, 2], [[T, T, W], [T, F, F], [G, N, F]])
    play(s, THIEF + 1, RAID)
    assert R.screen(s, 0).splitlines()[-1] == \
        "pending chain (first play <- answers): Thief by you <- Raid by P1"
    assert R.screen(s, 1).splitlines()[-1] == \
        "pending chain (first play <- answers): Thief by P0 <- Raid by you"
    assert "  P0 (you)     5      2           1  -" in R.screen(s, 0).splitlines()


def test_goal_text_marks_twins_like_the_engine():
    game = pyspiel.load_game("gold_thief", {"players": 2, "goals": "1/7;1/7;2/8;3/9",
                                            "first_player": 0})
    s = game.new_initial_state()
    nums = ((1, 7), (1, 7), (2, 8), (3, 9))
    for g in range(4):
        assert s.action_to_string(-1, C_GOAL + g) == "Goal " + goal_text(nums, g)
    assert goal_text(nums, 1) == "[1 or 7]#1" and goal_text(nums, 2) == "[2 or 8]"
    assert goal_text(nums, 1, mark_twins=False) == "[1 or 7]"


def test_screen_is_written_from_the_view():
    """The screen is a function of the typed view: a changed view field shows."""
    from dataclasses import replace
    s = deal([0, 1, 2], [[T, T, W], [T, F, F], [G, N, F]])
    v = s.engine.player_view(0)
    assert screen_of(v) == R.screen(s, 0)
    changed = screen_of(replace(v, gold=(9, 0, 6), known_cards=((0,) * 5, (0, 1, 0, 0, 0),
                                                               (0,) * 5)))
    assert "  P0 (you)     9      3           1  -" in changed.splitlines()
    assert "Known in P1's hand: Guard 1" in changed.splitlines()


def test_event_wording_names_the_seat_you():
    assert R.event_text("Thief by You is cancelled", 0) == "Thief by you is cancelled"
    assert R.event_text("P1 receive a goal", 0) == "P1 receives a goal"
    assert R.event_text("P0 plays first", 0) == "You play first"
    assert R.event_text("P0 plays first", 1) == "P0 plays first"


@pytest.mark.integration
def test_draws_of_others_stay_hidden():
    s = session("gold_thief(players=3)", "1\n" * 3000, seat=0, seed=1)
    s.run()
    text = s.out.getvalue()
    assert "P1 draws a card" in text
    assert not re.search(r"P[12] draws? (Thief|Guard|Witch|Faerie|Ninja)", text)


@pytest.mark.integration
def test_wording_and_end_explanation():
    s = session("gold_thief(players=3)", "1\n" * 3000, seat=0, seed=1)
    s.run()
    text = s.out.getvalue()
    assert not re.search(r"P\d (receive|draw|start|end|flip) ", text)
    assert "P0 plays first" not in text
    # the end shows every face-down goal, read from each player's own view
    state = s.state
    nums = state.engine.player_view(0).goal_numbers
    for q in range(3):
        down = state.engine.player_view(q).goals_down
        shown = " ".join(f"[{nums[g][0]} or {nums[g][1]}]" for g in down) or "-"
        who = "you" if q == 0 else f"P{q}"
        assert re.search(rf"^  {who}\s+\d+ gold; flipped .*; face down "
                         rf"{re.escape(shown)}$", text, re.M)
    assert render_view(state, 0).splitlines()[1].startswith("game over after turn ")
