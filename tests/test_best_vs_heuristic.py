"""experiments.best_vs_heuristic: the timed `best` wrapper and the script."""
import pyspiel
import pytest

import games  # noqa: F401
from experiments import best_vs_heuristic as bvh
from solvers.bots import make_bot
from tests.test_best import midgame

pytestmark = pytest.mark.integration


def test_timed_bot_plays_the_inner_bots_move_and_counts_it():
    game = pyspiel.load_game("gold_nugget", {"players": 2})
    s = midgame(game, 3, 5)
    timed = make_bot("timed_best", game, seed=2, max_simulations=40)
    plain = make_bot("best", game, seed=2, max_simulations=40)
    assert timed.step(s) == plain.step(s)
    st = timed.stats()
    assert st["moves"] == 1 and st["cpu_us"] >= 0 and st["over_0.1s"] in (0, 1)
    hist = {k: v for k, v in st.items() if k.startswith(bvh.HIST_PREFIX)}
    assert list(hist.values()) == [1]
    assert abs(int(next(iter(hist))[len(bvh.HIST_PREFIX):]) - st["cpu_us"] // 1000) <= 1


def test_percentiles_of_a_histogram():
    hist = {3: 50, 7: 45, 120: 5}
    assert bvh.percentile_ms(hist, 0.5) == 3
    assert bvh.percentile_ms(hist, 0.51) == 7
    assert bvh.percentile_ms(hist, 0.95) == 7
    assert bvh.percentile_ms(hist, 0.96) == 120
    with pytest.raises(ValueError, match="empty"):
        bvh.percentile_ms({}, 0.5)


@pytest.mark.slow
def test_script_prints_table_and_cpu_line(capsys):
    assert bvh.main(["--game", "gold_thief", "--players", "2", "--games", "2",
                     "--processes", "1", "--set", "max_simulations=20", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "| best | 1 |" in out and "| heuristic | 1 |" in out
    assert "best CPU per move:" in out and "95th percentile" in out
    assert "cpu_ms=" not in out


@pytest.mark.parametrize("bad", ["max_simulations", "=3"])
def test_script_refuses_malformed_overrides(bad, capsys):
    assert bvh.main(["--game", "gold_thief", "--players", "2", "--games", "1",
                     "--set", bad]) == 2
    assert "KEY=VALUE" in capsys.readouterr().err


def test_best_gold_nugget_is_anchored_on_the_heuristic():
    game = pyspiel.load_game("gold_nugget", {"players": 2})
    bot = make_bot("best", game, seed=1, max_simulations=30)
    assert bot.anchor is not None and bot.anchor_z == 1.0
    s = midgame(game, 4, 6)
    heur = make_bot("heuristic", game, seed=1).step(s)
    action = bot.step(s)
    assert action in s.legal_actions()
    assert heur in bot.last_stats.actions   # the anchor's move was searched too
