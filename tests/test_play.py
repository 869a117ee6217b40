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
from experiments.botspec import parse_bot_spec
from experiments.play import Session, default_opponent, main
from experiments.play_render import new_events, render_view
from solvers.evaluate import spec
from repo import REPO_ROOT

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
    winners = {int(w) for w in re.findall(r"P(\d+)", last.split("winner(s):")[1])}
    assert winners == {q for q, r in enumerate(returns) if abs(r - top) < 1e-9}
    # every one of the seat's decisions was prompted, and only those
    seat_moves = sum(1 for pa in s.state.full_history() if pa.player == 1)
    assert text.count("your move (") == seat_moves


@pytest.mark.parametrize("name", GAMES)
def test_bad_input_help_and_quit(name):
    rc, text = run(["--game", name, "--opponents", "random", "--seed", "2"],
                   "abc\n0\n99999\n\n?\nb\nq\n1\n")
    assert rc == 0
    assert "'abc' is not a legal move" in text
    assert "no move 0: choose a number from 1 to" in text
    assert "no move 99999" in text
    assert "please type a move number" in text
    assert f"Rules: docs/rules/{name}.md" in text
    assert (REPO_ROOT / "docs" / "rules" / f"{name}.md").exists()
    assert "you quit" in text
    assert "Traceback" not in text
    assert "game over" not in text
    # nothing was played for the human: one prompt burst, no own move announced
    assert text.count("Your moves:") == 1


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
    assert b.name == "ismcts"


@pytest.mark.parametrize("argv, msg", [
    (["--game", "no_such_game"], "cannot load game"),
    (["--game", "gold_thief", "--seat", "7"], "--seat must be in 0..3"),
    (["--game", "gold_thief", "--opponents", "nobot"], "unknown bot 'nobot'"),
    (["--game", "gold_thief(players=2)", "--players", "3"], "--players cannot"),
    (["--game", "gold_thief", "--opponents", "ismcts:sims"], "not key=value"),
])
def test_bad_arguments(argv, msg):
    rc, text = run(argv, "")
    assert rc == 2
    assert text.startswith("error:") and msg in text


def test_bot_spec_options():
    b = parse_bot_spec("ismcts:max_simulations=50:uct_c=1.5:rollout=heuristic")
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
    assert "P1 draw a card" in text
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
    assert "winner(s): P" in last


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
    assert re.search(r"broken tools: p0 \(you\): \w+", view)
    assert render_saboteur("broken: p0:PC p1:-", 1).splitlines()[1] == \
        "broken tools: p0: pickaxe, cart; p1 (you): nothing"


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
    assert "p0 (you)" in view and "nests:" in view


def test_render_gold_nugget_lairs():
    from experiments.play_render import render_gold_nugget
    obs = _mid_game("gold_nugget(players=3)", moves=3).observation_string(0)
    view = render_gold_nugget(obs, 0)
    for q in range(3):
        lair = re.search(rf"^p{q} .* lair=\[(.*)\]$", obs, re.M).group(1)
        row = next(ln for ln in view.splitlines() if ln.startswith(f"  p{q} "))
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
