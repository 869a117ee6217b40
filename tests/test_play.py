"""experiments.play: a person against bots, driven through standard input."""
from __future__ import annotations

import io
import os
import re
import subprocess
import sys

import pyspiel
import pytest

import games  # noqa: F401
from experiments.play import Session, default_opponent, main, rules_summary
from experiments.play_render import (decision_title, end_summary, format_moves, move_labels,
                                     new_events, render_view, saboteur_text)
from solvers.botspec import parse_bot
from solvers.evaluate import spec

pytestmark = pytest.mark.integration

# The directory holding tests/: the checkout in place, a copy under ./run.sh test.
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAMES = ["gold_thief", "saboteur", "ardillas_del_bosque", "gold_nugget"]


def run(argv, text):
    out = io.StringIO()
    rc = main(argv, io.StringIO(text), out)
    return rc, out.getvalue()


def session(game_name, text="", seat=0, seed=0):
    game = pyspiel.load_game(game_name)
    return Session(game, seat, [spec("random")], seed, io.StringIO(text), io.StringIO())


@pytest.mark.parametrize("name", GAMES)
def test_full_game_to_the_end(name):
    s = session(name, "1\n" * 20000, seat=1, seed=5)
    assert s.run() is True
    assert s.state.is_terminal()
    text = s.out.getvalue()
    last = text.strip().splitlines()[-1]
    assert last.startswith("game over")
    returns = s.state.returns()
    printed = [float(x) for x in re.findall(r"P\d+(?: \(you\))? ([+-]\d+\.\d+)",
                                            last.split("winner")[0])]
    assert printed == pytest.approx(returns, abs=1e-3)
    top = max(returns)
    best = {q for q, r in enumerate(returns) if abs(r - top) < 1e-9}
    if len(best) == len(returns):
        assert last.endswith("; no winner: every return is equal")
    else:
        winners = {int(w) for w in re.findall(r"P(\d+)", last.split("winner(s):")[1])}
        assert winners == best
    # every one of the seat's decisions was prompted or, with a single legal
    # move, played and announced; nothing else
    seat_moves = sum(1 for pa in s.state.full_history() if pa.player == 1)
    assert text.count("your move (") + text.count("your only move, played") == seat_moves


@pytest.mark.parametrize("name", GAMES)
def test_bad_input_help_and_quit(name):
    rc, text = run(["--game", name, "--opponents", "random", "--seed", "2"],
                   "abc\n0\n99999\n\n?\nb\nq\n1\n")
    assert rc == 0
    assert "'abc' is not a legal move" in text
    assert "no move 0: choose a number from 1 to" in text
    assert "no move 99999" in text
    assert "please type a move number" in text
    summary = rules_summary(name)
    assert summary and summary.rstrip("\n") in text      # `?` prints the bundled summary
    assert "r  recap since your last move" in text
    assert "you quit" in text
    assert "Traceback" not in text
    assert "game over" not in text
    # nothing was played for the human: the first screen and `b`'s, no other
    assert text.count("Your moves:") == 2


@pytest.mark.parametrize("name", GAMES)
def test_end_of_input_ends_cleanly(name):
    rc, text = run(["--game", name, "--opponents", "random"], "")
    assert rc == 0
    assert text.rstrip().endswith("end of input: the game is abandoned, no result")


def test_move_by_text_and_prefix():
    s = session("gold_thief(players=3)")
    assert s.advance()
    legal = s.state.legal_actions()
    names = [s.state.action_to_string(0, a) for a in legal]
    s.inp = io.StringIO(names[-1].upper() + "\n")
    assert s.ask() == legal[-1]
    # "t" is a prefix of several Thief moves when there are two opponents
    thieves = [n for n in names if n.lower().startswith("t")]
    s.inp = io.StringIO("t\n" + str(len(legal)) + "\n")
    assert s.ask() == legal[-1]
    if len(thieves) > 1:
        assert f"matches {len(thieves)} moves" in s.out.getvalue()


def test_subprocess_stdin():
    proc = subprocess.run(
        [sys.executable, "-m", "experiments.play", "--game", "ardillas_del_bosque",
         "--opponents", "random", "--seed", "4"],
        input="1\n" * 500, capture_output=True, text=True, cwd=HERE, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1].startswith("game over")


def test_default_opponents_full_game():
    rc, text = run(["--game", "ardillas_del_bosque", "--players", "3", "--seat", "2"],
                   "1\n" * 500)
    assert rc == 0
    assert "Opponents: P0 best, P1 best" in text
    assert text.strip().splitlines()[-1].startswith("game over")


def test_default_opponent_is_strongest():
    for name in ("gold_thief", "saboteur", "ardillas_del_bosque", "gold_nugget"):
        assert default_opponent(name).name == "best"
    b = default_opponent("kuhn_poker")
    assert b.name == "ismcts" and dict(b.options) == {"max_simulations": 1000}


@pytest.mark.parametrize("argv, msg", [
    (["--game", "no_such_game"], "cannot load game"),
    (["--game", "gold_thief", "--seat", "7"], "--seat must be in 0..3"),
    (["--game", "gold_thief", "--opponents", "nobot"], "unknown bot 'nobot'"),
    (["--game", "gold_thief(players=2)", "--players", "3"], "--players cannot"),
    (["--game", "gold_thief", "--opponents", "ismcts:sims"], "not key=value"),
    (["--game", "gold_thief", "--opponents", "ismcts:max_simulations=abc"],
     "option 'max_simulations' expects an integer or none, got 'abc'"),
    (["--game", "gold_thief", "--opponents", "ismcts:use_engine=maybe"],
     "option 'use_engine' expects true or false, got 'maybe'"),
])
def test_bad_arguments(argv, msg):
    rc, text = run(argv, "")
    assert rc == 2
    assert text.startswith("error:") and msg in text


def test_bot_spec_options():
    b = parse_bot("ismcts:max_simulations=50:uct_c=1.5:rollout=heuristic")
    assert dict(b.options) == {"max_simulations": 50, "uct_c": 1.5, "rollout": "heuristic"}


@pytest.mark.parametrize("name", GAMES)
def test_view_is_a_function_of_the_seats_information(name):
    """Two worlds the seat cannot tell apart render identically."""
    s = session(name, "1\n" * 40, seat=0, seed=9)
    for _ in range(6):
        if not s.advance():
            break
        s.apply(s.ask())
    if s.state.is_terminal():
        pytest.skip("game ended early")
    for k in range(3):
        other = s.state.resample(0, 100 + k)
        assert render_view(other, 0) == render_view(s.state, 0)


def test_hidden_events_are_not_announced():
    """Kuhn poker's information state is no event log: the fallback names an
    event only when the seat can tell it from every alternative."""
    rc, text = run(["--game", "kuhn_poker", "--seat", "1", "--opponents", "random",
                    "--seed", "3"], "1\n" * 5)
    assert rc == 0
    deals = [ln for ln in text.splitlines() if "Deal" in ln]
    assert len(deals) == 1                      # only the seat's own card is named
    assert text.strip().splitlines()[-1].startswith("game over")
    s = session("kuhn_poker", seat=0)
    s.state.apply_action(0)                     # P0 (the seat) gets card 0
    before = s.state.clone()
    s.state.apply_action(2)                     # P1 gets card 2: hidden from P0
    assert s._fallback(before, -1, 2) == "a chance event you cannot see"
    before = s.state.clone()
    s.state.apply_action(1)                     # P0 bets: public
    assert s._fallback(before, 0, 1) == "you: Bet"


def test_gold_thief_draws_of_others_stay_hidden():
    s = session("gold_thief(players=3)", "1\n" * 3000, seat=0, seed=1)
    s.run()
    text = s.out.getvalue()
    assert "P1 draws a card" in text
    assert not re.search(r"P[12] draws? (Thief|Guard|Witch|Faerie|Ninja)", text)


def test_new_events():
    assert new_events("a\nb", "a\nb\nc\nd") == ["c", "d"]
    assert new_events("a", "a") == []
    assert new_events("ab", "ac") is None


class _CtrlC(io.StringIO):
    def readline(self, *args):
        raise KeyboardInterrupt


def test_ctrl_c_ends_cleanly():
    out = io.StringIO()
    rc = main(["--game", "gold_thief", "--opponents", "random"], _CtrlC(), out)
    assert rc == 130
    assert out.getvalue().rstrip().endswith("interrupted: the game is abandoned, no result")


@pytest.mark.parametrize("name", GAMES)
def test_full_game_through_main(name):
    rc, text = run(["--game", name, "--players", "3", "--opponents", "heuristic,random",
                    "--seed", "12"], "2\n1\n" * 10000)
    assert rc == 0
    assert "Traceback" not in text
    last = text.strip().splitlines()[-1]
    assert last.startswith("game over; returns: P0 (you) ")
    assert "winner(s): P" in last or last.endswith("no winner: every return is equal")


def _mid_game(name, moves=8, seed=4):
    s = session(name, "1\n" * moves, seat=0, seed=seed)
    for _ in range(moves):
        if not s.advance():
            break
        s.apply(s.ask())
    return s.state


def test_render_gold_thief_facts():
    from experiments.play_render import render_gold_thief
    state = _mid_game("gold_thief(players=3)")
    obs = state.observation_string(0)
    view = render_gold_thief(obs, 0)
    hand = next(ln for ln in obs.splitlines() if ln.startswith("Hand: "))[6:]
    assert f"your hand:  {hand}" in view
    for q in range(3):
        m = re.search(rf"^P{q}: gold (\d+), cards (\d+)", obs, re.M)
        assert re.search(rf"P{q}\S*\s.*\s{m.group(1)}\s+{m.group(2)}\s", view)
    pending = render_gold_thief(obs + "\nPending: Thief by P1 <- Raid by P2", 0)
    assert "pending chain (first play <- answers): Thief by P1 <- Raid by P2" in pending


def test_render_saboteur_keeps_the_maze():
    from experiments.play_render import render_saboteur
    obs = _mid_game("saboteur(players=4)", moves=4).observation_string(0)
    view = render_saboteur(obs, 0)
    maze = [ln for ln in obs.splitlines() if re.match(r"^\s+-?\d+\s", ln)]
    assert len(maze) > 3 and all(ln in view.splitlines() for ln in maze)
    assert re.search(r"broken tools: P0 \(you\): \w+", view)
    assert render_saboteur("broken: p0:PC p1:-", 1).splitlines()[1] == \
        "broken tools: P0: pickaxe, cart; P1 (you): nothing"


def test_render_ardillas_woods_and_nests():
    from experiments.play_render import render_ardillas_del_bosque
    obs = _mid_game("ardillas_del_bosque(players=2)", moves=5).observation_string(0)
    view = render_ardillas_del_bosque(obs, 0)
    piles = [ln for ln in obs.splitlines() if ln.startswith("h")]
    rows = [ln for ln in view.splitlines() if re.match(r"^  h\d+ ", ln)]
    assert len(rows) == len(piles)
    for pile, row in zip(piles, rows):
        assert len(pile.split(": ", 1)[1].split()) == (0 if "(empty)" in row else
                                                      len(row.split()) - 2)
    assert "P0 (you)" in view and "nests:" in view


def test_render_gold_nugget_lairs():
    from experiments.play_render import render_gold_nugget
    obs = _mid_game("gold_nugget(players=3)", moves=3).observation_string(0)
    view = render_gold_nugget(obs, 0)
    for q in range(3):
        lair = re.search(rf"^p{q} .* lair=\[(.*)\]$", obs, re.M).group(1)
        row = next(ln for ln in view.splitlines() if ln.startswith(f"  P{q} "))
        words = ["normal", "trap", "NUGGET", "unknown"]
        assert sum(row.split().count(w) for w in words) == len(lair)
        assert ("asleep" in row) == (f"p{q} " in obs and
                                     re.search(rf"^p{q} .* asleep ", obs, re.M) is not None)
    assert re.search(r"time of day: \w+", view)


@pytest.mark.parametrize("name", GAMES)
def test_render_unknown_lines_pass_through(name):
    from experiments.play_render import RENDERERS
    text = RENDERERS[name]("a format nobody expected\nsecond line: 42", 0)
    assert "a format nobody expected" in text and "second line: 42" in text


def _screens(text, game_title):
    """Each screen: from the board's title line to the prompt."""
    return re.findall(rf"(== {game_title}.*?your move \()", text, re.S)


def test_saboteur_screens_fit_50_lines_with_the_maze():
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


def test_format_moves_groups_by_target():
    lines = format_moves(["End turn", "Thief on P1", "Thief on P2", "Thief on P3",
                          "Witch on P1", "Pass"])
    assert lines == ["        1. End turn",
                     "      2-4. Thief on:  2) P1  3) P2  4) P3",
                     "        5. Witch on P1",
                     "        6. Pass"]
    wrapped = format_moves([f"pass discarding card number {k}" for k in range(30)], width=60)
    assert all(len(ln) <= 60 for ln in wrapped) and len(wrapped) > 3
    assert sum(len(re.findall(r"\d+\) ", ln)) for ln in wrapped) == 30


def test_saboteur_wording():
    assert saboteur_text("place path N-E-W rotated at (0,-1)", 0) == \
        "place path E-S-W (N-E-W turned) at (0,-1)"
    assert saboteur_text("goal 0 turned up: stone N-E rotated", 0) == \
        "goal 0 turned up: stone S-W (N-E turned)"
    assert saboteur_text("gold drawn for p0: 4 card(s) 1 1 2 2, next to p0", 0) == \
        "gold cards drawn: you hold 4 (worth 1 1 2 2 nugget(s)); next to take one: you"
    assert saboteur_text("gold drawn for p2: 3 card(s)", 0) == "gold cards drawn: P2 holds 3"
    assert saboteur_text("gold: 1 nuggets", 0) == "your gold so far: 1 nugget"
    assert saboteur_text("p1 breaks lamp of p0", 0) == "P1 breaks lamp of P0 (you)"
    assert saboteur_text("round 2 won by saboteurs; saboteurs [0, 2]", 2) == \
        "round 2 won by saboteurs; the saboteurs were: P0, you"


def test_single_choice_is_played_and_announced():
    s = session("gold_nugget(players=3)", "1\n" * 3000, seat=0, seed=1)
    assert s.run()
    text = s.out.getvalue()
    autos = re.findall(r"\(your only move, played for you: (.+)\)", text)
    assert autos                                    # this seeded game has some
    seat_moves = sum(1 for pa in s.state.full_history() if pa.player == 0)
    assert text.count("your move (") + len(autos) == seat_moves
    # an announced single move is never preceded by its own prompt
    for block in text.split("your move (")[1:]:
        first = block.split("\n", 1)[0]
        assert "only move" not in first


def test_recap_repeats_the_events_since_the_last_move():
    rc, text = run(["--game", "gold_thief", "--players", "3", "--opponents", "random",
                    "--seed", "4"], "1\nr\nq\n")
    assert rc == 0
    second = text.split("your move (")[1]          # after the first move
    announced = [ln[ln.index("  > "):] for ln in second.split("== Gold Thief")[0].splitlines()
                 if "  > " in ln]
    recap = text.split("Since your last move:\n")[1].split("your move (")[0]
    assert announced and recap.splitlines()[:len(announced)] == announced
    assert announced[0] == "  > You end the turn"
    rc, text = run(["--game", "gold_thief", "--opponents", "random"], "r\nq\n")
    assert "Since your last move:" in text          # the events before the first move


def test_gold_nugget_options_are_named():
    s = session("gold_nugget(players=3)", seat=0, seed=1)
    assert s.advance()
    view = s.state.engine.player_view(0)
    legal = s.state.legal_actions()
    assert view["phase"] == "choose animal"
    assert move_labels(s.state, 0, legal) == [f"be the {a}" for a in view["offered"]]
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


def test_gold_thief_wording_and_end_explanation():
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


def test_ardillas_end_explains_the_score():
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


@pytest.mark.parametrize("name", GAMES)
def test_end_summary_comes_before_the_result(name):
    s = session(name, "1\n" * 20000, seat=0, seed=7)
    s.run()
    lines = s.out.getvalue().strip().splitlines()
    summary = end_summary(s.state, 0)
    assert summary and lines[-1 - len(summary):-1] == summary
    with pytest.raises(ValueError, match="finished game"):
        end_summary(pyspiel.load_game(name).new_initial_state(), 0)


def test_gold_thief_names_the_seat_you():
    from experiments.play_render import gold_thief_text, render_gold_thief
    assert gold_thief_text("Thief by You is cancelled", 0) == "Thief by you is cancelled"
    assert gold_thief_text("P1 receive a goal", 0) == "P1 receives a goal"
    assert gold_thief_text("P0 plays first", 0) == "You play first"
    assert gold_thief_text("P0 plays first", 1) == "P0 plays first"
    view = render_gold_thief("P0 | turn 3 | phase respond | active P0 | to move P1\n"
                             "Pending: Thief by P0 <- Raid by P1", 0)
    assert "turn 3: your turn; phase respond, to move: P1" in view
    assert "pending chain (first play <- answers): Thief by you <- Raid by P1" in view


def test_ardillas_wording():
    from experiments.play_render import ardillas_text
    assert ardillas_text("index 2", 0) == "the token at depth 2 (0 = top)"
    assert ardillas_text("chance: draw walnut", 0) == "you draw a token from your hand: walnut"
    assert ardillas_text("p1 hides p1#3 on h2", 1) == "P1 (you) hides P1#3 on h2"
    s = session("ardillas_del_bosque(players=2)", seat=0, seed=1)
    assert s.advance()
    view = s.state.engine.player_view(0)
    names = move_labels(s.state, 0, s.state.legal_actions())
    assert view.phase.startswith("autumn")
    assert all(re.fullmatch(r"hide it on h\d \(\w+\)", n) for n in names)


@pytest.mark.parametrize("name", GAMES)
def test_move_names_are_a_function_of_the_seats_information(name):
    """Move names and the decision title read only the seat's view: worlds
    the seat cannot tell apart name its moves alike."""
    s = session(name, "2\n" * 40, seat=0, seed=11)
    checked = 0
    for _ in range(12):
        if not s.advance():
            break
        legal = s.state.legal_actions()
        names = move_labels(s.state, 0, legal)
        for k in range(2):
            other = s.state.resample(0, 200 + k)
            assert other.legal_actions() == legal
            assert move_labels(other, 0, legal) == names
            assert decision_title(other, 0) == decision_title(s.state, 0)
        checked += 1
        s.apply(s.ask())
    assert checked >= 3


def test_gold_nugget_placement_is_named():
    """The placement decision (issue 26's rule reading, ``place_stones``) is
    titled and each slot named, not shown as the engine's ``stone p0#j``."""
    from games.gold_nugget import stone_action
    from tests.games.gold_nugget.test_gold_nugget_issue11 import KEEP
    from tests.games.gold_nugget.test_gold_nugget_rules import AFTERNOON, MORNING, NOON, PEEKS, do, play, setup
    _, st = setup([["chance"] + PEEKS[:4]] + [PEEKS] * 2, tods=(NOON, AFTERNOON, MORNING))
    do(st, play("chance"), stone_action(1, 0), KEEP)
    legal = st.legal_actions()
    assert move_labels(st, 0, legal) == ["put it in slot #0", "put it in slot #1",
                                         "put it in slot #2"]
    assert decision_title(st, 0).endswith("choose where the new stone goes "
                                          "(the stones from there on move one place right)")
