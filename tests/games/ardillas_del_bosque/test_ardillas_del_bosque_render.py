"""Ardillas del Bosque's terminal renderer (games/ardillas_del_bosque/render.py):
scripted positions, the seat's own tokens, what stays hidden, move names,
event wording, the end."""
from __future__ import annotations

import re

import pyspiel
import pytest

import games.ardillas_del_bosque as A
from games.ardillas_del_bosque.render import ArdillasRenderer, ardillas_text
from tests.test_play import session

R = ArdillasRenderer()
WALNUT, SQUIRREL, POO = 0, 5, 6
# Boards Golden Eagle (h0) and Ant (h1); p0 walnut h1, p1 walnut h0, p0 poo h0,
# p1 poo h1, p0 squirrel h1, p1 squirrel h0 (tests/games/ardillas_del_bosque/
# test_ardillas_rules.py).
BOARDS = [2, 3]
AUTUMN = [WALNUT, 1, WALNUT, 0, POO, 0, POO, 1, SQUIRREL, 1, SQUIRREL, 0]


def mini(actions: list[int]) -> pyspiel.State:
    state = pyspiel.load_game("ardillas_del_bosque", dict(A.MINI_PARAMS)).new_initial_state()
    for a in actions:
        state.apply_action(a)
    return state


def test_autumn_screen_shows_the_token_being_hidden():
    state = mini(BOARDS + [WALNUT])
    lines = R.screen(state, 0).splitlines()
    assert lines[0].startswith("== Ardillas del Bosque: you are P0 ==")
    assert lines[1:] == [
        "phase autumn-place, to move: you",
        "your hand: 2 token(s) still to draw",
        "holding: P0#0:walnut",
        "woods (each pile top token first; owner#n:kind, ?? unknown to you, ^ face up):",
        "  h0 golden_eagle  (empty)",
        "  h1 ant           (empty)",
        "nests:",
        "  P0 (you)  (empty)",
        "  P1        (empty)"]
    assert "walnut" not in R.screen(state, 1) and "holding" not in R.screen(state, 1)
    assert R.move_labels(state, 0, state.legal_actions()) == \
        ["hide it on h0 (golden_eagle)", "hide it on h1 (ant)"]


def test_winter_piles_show_own_tokens_and_hide_the_others():
    state = mini(BOARDS + AUTUMN)
    assert R.screen(state, 0).splitlines()[4:6] == [
        "  h0 golden_eagle  P1#2:?? P0#1:poo P1#0:??",
        "  h1 ant           P0#2:squirrel P1#1:?? P0#0:walnut"]
    assert R.screen(state, 1).splitlines()[4:6] == [
        "  h0 golden_eagle  P1#2:squirrel P0#1:?? P1#0:walnut",
        "  h1 ant           P0#2:?? P1#1:poo P0#0:??"]
    assert "squirrel" not in R.screen(state, 0).splitlines()[4]
    assert R.move_labels(state, 0, state.legal_actions()) == \
        ["take the top of h0 (golden_eagle)", "take the top of h1 (ant)"]


def test_night_hand_lists_the_kinds():
    game = pyspiel.load_game("ardillas_del_bosque", {"players": 2, "side": "night",
                                                     "boards": "owl+lizard"})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    seat = state.current_player()
    assert ("your hand: walnut, almond, hazelnut, peanut, chestnut, squirrel, poo"
            in R.screen(state, seat).splitlines())
    assert "  h2 snake         (empty)" in R.screen(state, seat).splitlines()


def test_event_wording_and_pile_moves():
    assert ardillas_text("index 2", 0) == "the token at depth 2 (0 = top)"
    assert ardillas_text("chance: draw walnut", 0) == "you draw a token from your hand: walnut"
    assert ardillas_text("p1 hides p1#3 on h2", 1) == "P1 (you) hides P1#3 on h2"
    s = session("ardillas_del_bosque(players=2)", seat=0, seed=1)
    assert s.advance()
    view = s.state.engine.player_view(0)
    names = R.move_labels(s.state, 0, s.state.legal_actions())
    assert view.phase.startswith("autumn")
    assert all(re.fullmatch(r"hide it on h\d \(\w+\)", n) for n in names)


@pytest.mark.integration
def test_end_explains_the_score():
    s = session("ardillas_del_bosque(players=2)", "1\n" * 500, seat=0, seed=0)
    s.run()
    text = s.out.getvalue()
    groups = s.state.engine.final_groups()
    for q in range(2):
        who = "you" if q == 0 else f"P{q}"
        line = next(ln for ln in text.splitlines() if ln.startswith(f"  {who} ")
                    and "-> groups" in ln)
        kept = "-".join(str(c) for c in groups[q][0] if c) or "none"
        assert line.endswith(f"-> groups {kept}")
        poo = sum(t.kind == "poo" for t in s.state.engine.player_view(0).nests[q])
        assert (f"{poo} poo cancel" in line) == (poo > 0)
    assert "(up)" not in text and "card(s)" not in text
    assert R.screen(s.state, 0).splitlines()[1] == "game over"
