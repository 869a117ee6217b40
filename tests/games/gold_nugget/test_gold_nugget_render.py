"""Gold Nugget's terminal renderer (games/gold_nugget/render.py): scripted
positions, the seat's own stones, what stays hidden, a sleeper's screen,
moves and decisions named by what they answer."""
from __future__ import annotations

from dataclasses import replace

import pytest

from games.gold_nugget import stone_action
from games.gold_nugget.render import GoldNuggetRenderer, screen_of
from tests.games.gold_nugget.test_gold_nugget_issue11 import KEEP
from tests.games.gold_nugget.test_gold_nugget_rules import (AFTERNOON, MORNING, NOON, PEEKS, do,
                                                            play, setup)
from tests.test_play import run, session

R = GoldNuggetRenderer()
TABLE_HEAD = ("  player    animal     time card           state       feathers  cards  "
              "lair stones")


def test_screen_shows_each_lair_as_the_seat_knows_it():
    _, st = setup([PEEKS] * 3)                      # p2 holds the Gold Nugget, p1 a trap
    lines = R.screen(st, 0).splitlines()
    assert lines[0].startswith("== Gold Nugget: you are P0 ==")
    assert lines[1:] == [
        "day 1 of 1, time of day: morning; phase Meddling; white feather: you",
        "your hand: Peek x5",
        TABLE_HEAD,
        "  P0 (you)  Raccoon    sleeps at noon      awake              0      5  normal normal",
        "  P1        Rabbit     sleeps at afternoon awake              0      5  unknown unknown",
        "  P2        Fox        sleeps at night     awake              0      5  unknown unknown",
        "nest: 10 stones, 7 feathers; deck 108; discard 0"]
    assert "NUGGET" not in R.screen(st, 0) and "trap" not in R.screen(st, 0)
    assert "NUGGET" not in R.screen(st, 1)
    assert "  P1 (you)  Rabbit     sleeps at afternoon awake              0      5  trap normal" \
        in R.screen(st, 1).splitlines()
    assert "  P2 (you)  Fox        sleeps at night     awake              0      5  NUGGET normal" \
        in R.screen(st, 2).splitlines()


def test_a_sleeper_sees_no_feathers_and_the_raven_is_announced():
    _, st = setup([PEEKS] * 3)
    v = st.engine.player_view(0)
    asleep = screen_of(replace(v, feathers=None, nest_feathers=None,
                               asleep=[True, False, False])).splitlines()
    assert "  P0 (you)  Raccoon    sleeps at noon      asleep             ?      5  normal normal" \
        in asleep
    assert asleep[-1] == "nest: 10 stones, ? feathers; deck 108; discard 0"
    raven = screen_of(replace(v, day=1)).splitlines()[1]
    assert raven == ("the Raven has arrived (after day 1): abilities are off; phase Meddling; "
                     "white feather: you")
    played = screen_of(replace(v, victory_played=[None, "Clean slate", None])).splitlines()
    assert "victory cards played: P1 Clean slate" in played


def test_placement_is_named():
    """The placement decision (issue 26's rule reading, ``place_stones``) is
    titled and each slot named, not shown as the engine's ``stone p0#j``."""
    _, st = setup([["chance"] + PEEKS[:4]] + [PEEKS] * 2, tods=(NOON, AFTERNOON, MORNING))
    do(st, play("chance"), stone_action(1, 0), KEEP)
    legal = st.legal_actions()
    assert R.move_labels(st, 0, legal) == ["put it in slot #0", "put it in slot #1",
                                           "put it in slot #2"]
    assert R.decision_title(st, 0).endswith("choose where the new stone goes "
                                            "(the stones from there on move one place right)")
    assert R.decision_title(st, 1) == ""


@pytest.mark.integration
def test_options_are_named():
    s = session("gold_nugget(players=3)", seat=0, seed=1)
    assert s.advance()
    view = s.state.engine.player_view(0)
    legal = s.state.legal_actions()
    assert view["phase"] == "choose animal"
    assert R.move_labels(s.state, 0, legal) == [f"be the {a}" for a in view["offered"]]
    texts = [run(["--game", "gold_nugget", "--opponents", "random", "--seed", str(seed)],
                 "1\n" * 3000)[1] for seed in (3, 4)]
    for text in texts:
        assert "option 0" not in text and "option 1" not in text
        assert "discard/give" not in text and "pass/end" not in text
        assert "day 5 of 4" not in text
        assert "the Raven has arrived (after day 4): abilities are off" in text
    assert "Your moves (Beg: give a card, a stone or a black feather):" in texts[0]
    assert "use the Fox's ability: swap one of your stones" in texts[0]
    assert "examine the stone" in texts[1] and "put it in slot #" in texts[1]
