"""Saboteur's terminal renderer (games/saboteur/render.py): the maze drawn
from the view, the seat's own lines, what stays hidden, event wording, the
gold hand-out, the screens of a whole game."""
from __future__ import annotations

import re

import pytest

from games.saboteur.render import LEGEND, SaboteurRenderer, saboteur_text
from tests.games.saboteur.test_saboteur import (BRK, CROSS, DIG, EW, FILLER, MAP, NS, PICK, SAB,
                                                Acts, _treasure_five, play, setup)
from tests.test_play import run

R = SaboteurRenderer()


def _maze(screen: str) -> list[str]:
    """The maze: from the coordinate header to the line before the role."""
    lines = screen.splitlines()
    return [ln.rstrip() for ln in lines[2:lines.index(next(ln for ln in lines
                                                          if ln.startswith("your role:")))]]


def test_maze_shows_cards_openings_frontier_and_a_turned_stone():
    state = setup([DIG, SAB, DIG], 0, [[CROSS, EW], [BRK + PICK, FILLER], [FILLER] * 2])
    a = Acts(state)
    assert _maze(R.screen(state, 0))[6:11] == ["  -1  .  ,  .  .  .",
                                               "         |",
                                               "   0  , -S- , [?] .",
                                               "         |",
                                               "   1  .  ,  .  .  ."]
    play(state, a.place(CROSS, 1, 0), FILLER)       # the path reaches the middle goal: a stone
    maze = _maze(R.screen(state, 0))
    assert maze[0] == "     -1  0  1  2  3"
    assert maze[6:11] == ["  -1  .  ,  ,  .  .",
                          "         |  |",
                          "   0  , -S--+--o  .",
                          "         |  |  |",
                          "   1  .  ,  ,  ,  ."]
    assert "[?]" in maze[4] and "[?]" in maze[12]    # the two goals still face down
    assert "goal cards (top to bottom; ? = not seen): ? stone N-E ?" in R.screen(state, 2)


def test_screen_shows_the_seats_role_hand_and_tools():
    state = setup([DIG, SAB, DIG], 0, [[CROSS, EW], [BRK + PICK, FILLER], [FILLER] * 2])
    a = Acts(state)
    play(state, a.place(CROSS, 1, 0), FILLER, a.brk(PICK, 0), FILLER)
    mine = R.screen(state, 0).splitlines()
    assert mine[1] == "round 1 of 1, phase play, to move: P2"
    assert "your role: gold-digger" in mine
    assert "broken tools: P0 (you): pickaxe; P1: nothing; P2: nothing" in mine
    assert "cards in hand: P0 2, P1 2, P2 2; deck 59" in mine
    assert "your gold so far: 0 nuggets" in mine
    assert mine[-2:] == list(LEGEND)
    assert "broken tools: P0: pickaxe; P1 (you): nothing; P2: nothing" in \
        R.screen(state, 1).splitlines()
    assert "your role: saboteur" in R.screen(state, 1).splitlines()


def test_roles_hands_and_maps_stay_hidden():
    """A map shows its goal to the seat that played it only; no screen names
    another seat's role or cards while the round runs."""
    state = setup([DIG, SAB, DIG], 2, [[MAP, EW], [NS, FILLER], [FILLER] * 2])
    a = Acts(state)
    play(state, a.map(1), FILLER)
    mine, theirs = R.screen(state, 0), R.screen(state, 1)
    assert "goal cards (top to bottom; ? = not seen): ? treasure ?" in mine.splitlines()
    assert "   0  , -S- , [T] ." in _maze(mine)
    assert "treasure" not in theirs.replace(LEGEND[1], "") and "[T]" not in _maze(theirs)
    assert "saboteur" not in mine and "path N-S" not in mine
    assert "roles:" not in mine and "your role: saboteur" in theirs.splitlines()


@pytest.mark.parametrize("handout", ["finder", "pick"])
def test_gold_drawn_is_worded_for_the_seat(handout):
    state, a = _treasure_five(handout=handout)
    play(state, 0, 2, 1)                            # chance draws 1, 3, 2 nuggets
    assert "gold cards drawn: you hold 3 (worth 1 2 3 nugget(s)); next to take one: you" \
        in R.screen(state, 0).splitlines()
    assert "gold cards drawn: P0 holds 3; next to take one: P0" in R.screen(state, 3).splitlines()
    assert "roles: P0 (you) gold-digger, P1 saboteur, P2 gold-digger, P3 gold-digger, " \
           "P4 saboteur" in R.screen(state, 0).splitlines()


def test_gold_handed_out_shows_what_the_seat_saw():
    state, a = _treasure_five()
    play(state, 0, 2, 1, a.keep(2), a.give(0))
    assert "gold handed out: P2:2 P3:1" in R.screen(state, 0).splitlines()
    assert "gold handed out" not in R.screen(state, 3)
    assert "your gold so far: 3 nuggets" in R.screen(state, 0).splitlines()
    assert R.screen(state, 0).splitlines()[1] == "game over after round 1 of 1"


def test_event_wording():
    assert saboteur_text("place path N-E-W rotated at (0,-1)", 0) == \
        "place path E-S-W (N-E-W turned) at (0,-1)"
    assert saboteur_text("goal 0 turned up: stone N-E rotated", 0) == \
        "goal 0 turned up: stone S-W (N-E turned)"
    assert saboteur_text("p1 breaks lamp of p0", 0) == "P1 breaks lamp of P0 (you)"
    assert saboteur_text("round 2 won by saboteurs; saboteurs [0, 2]", 2) == \
        "round 2 won by saboteurs; the saboteurs were: P0, you"
    assert R.event_text("p2 passes", 2) == "P2 (you) passes"


def _screens(text, game_title):
    """Each screen: from the board's title line to the prompt."""
    return re.findall(rf"(== {game_title}.*?your move \()", text, re.S)


@pytest.mark.integration
def test_screens_fit_50_lines_with_the_maze():
    rc, text = run(["--game", "saboteur", "--players", "5", "--opponents", "random",
                    "--seed", "3"], "1\n" * 400)
    assert rc == 0 and text.strip().splitlines()[-1].startswith("game over")
    screens = _screens(text, "Saboteur")
    assert len(screens) > 20
    for screen in screens:
        lines = screen.splitlines()
        assert len(lines) <= 50
        maze = [ln for ln in lines if re.match(r"^\s+-?\d+\s+[.,\[+x|-]", ln)]
        assert maze and sum("[" in ln or " o " in ln or "T" in ln for ln in maze) >= 1
    # placements are grouped by card: one line per card and orientation
    assert re.search(r"\d+-\d+\. place path [NESW-]+ at:\s+\d+\) \(-?\d+,-?\d+\)", text)
    assert "rotated" not in text
    assert re.search(r"place (path|dead end) [NESW-]+ \([NESW-]+ turned\)", text)
