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
                                     new_events, render_view, renderer)
from games.interfaces import Renderer
from games.spec import specs
from solvers.botspec import parse_bot
from solvers.evaluate import spec

pytestmark = pytest.mark.integration

# The directory holding tests/: the checkout in place, a copy under ./run.sh test.
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The goldspiel games: every spec with a parameter table (OpenSpiel's poker has none).
GAMES = [sp.name for sp in specs() if sp.params is not None]


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
    for name in GAMES:
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


@pytest.mark.parametrize("name", GAMES)
def test_end_summary_comes_before_the_result(name):
    s = session(name, "1\n" * 20000, seat=0, seed=7)
    s.run()
    lines = s.out.getvalue().strip().splitlines()
    summary = end_summary(s.state, 0)
    assert summary and lines[-1 - len(summary):-1] == summary
    with pytest.raises(ValueError, match="finished game"):
        end_summary(pyspiel.load_game(name).new_initial_state(), 0)


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


def test_every_goldspiel_game_has_a_renderer():
    """Each goldspiel game's spec names its own renderer; the play screens
    find it through the spec."""
    assert len(GAMES) >= 4
    for name in GAMES:
        sp = next(sp for sp in specs() if sp.name == name)
        assert sp.renderer is not None, f"{name} has no renderer"
        made = sp.renderer()
        assert isinstance(made, Renderer) and type(made) is not Renderer
        assert type(renderer(name)) is type(made)
        assert type(made).__module__ == f"games.{name}.render"


def test_importing_games_loads_no_renderer():
    """Renderers are factories: ``import games`` imports none of them."""
    code = ("import sys, games\n"
            "print(sorted(m for m in sys.modules if m.startswith('games.') and m.endswith('.render')))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=HERE, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


def test_a_game_without_a_renderer_shows_its_observation_string():
    """Kuhn poker has no renderer: the generic one shows the plain
    observation string, the engine's action names and no end summary."""
    assert type(renderer("kuhn_poker")) is Renderer
    state = pyspiel.load_game("kuhn_poker").new_initial_state()
    state.apply_action(0)
    state.apply_action(2)
    assert render_view(state, 0) == state.observation_string(0)
    legal = state.legal_actions()
    assert move_labels(state, 0, legal) == [state.action_to_string(0, a) for a in legal]
    assert decision_title(state, 0) == ""
    state.apply_action(0)
    state.apply_action(0)
    assert state.is_terminal() and end_summary(state, 0) == []


@pytest.mark.parametrize("name", GAMES)
def test_screens_are_written_from_the_view_not_the_observation_string(name, monkeypatch):
    """A whole session (screens, move names, the end) runs with the states'
    observation strings unavailable: every goldspiel screen is written from
    the seat's player view."""
    from games._adapter import EngineState

    def refused(self, *args):
        raise AssertionError("a renderer read the observation string")
    monkeypatch.setattr(EngineState, "observation_string", refused)
    s = session(name, "1\n" * 20000, seat=0, seed=3)
    assert s.run() is True
    assert "Your moves" in s.out.getvalue()
    with pytest.raises(AssertionError, match="observation string"):
        s.state.observation_string(0)
