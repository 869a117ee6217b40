"""Match evaluation: seat rotation, determinism, statistics, errors."""
import numpy as np
import pytest

from solvers.evaluate import BotSpec, Stat, full_lineup, run_match, spec
import testgames

testgames.register()
GAME = "ismcts_test_minipoker"


def test_deterministic_and_independent_of_processes():
    lineup = [spec("ismcts", max_simulations=50), spec("random")]
    a = run_match(GAME, lineup, games=12, seed=4, processes=1, progress=False)
    b = run_match(GAME, lineup, games=12, seed=4, processes=2, progress=False)
    c = run_match(GAME, lineup, games=12, seed=5, processes=1, progress=False)
    assert np.array_equal(a.returns, b.returns)
    assert not np.array_equal(a.returns, c.returns)
    # seats rotate: each bot sits in each seat half the time
    assert (a.seating[:, 0] == 0).sum() == 6


def test_ismcts_beats_random_zero_sum_stats():
    r = run_match("ismcts_test_tictactoe", [spec("ismcts", max_simulations=300),
                                            spec("random")],
                  games=40, seed=1, processes=2, progress=False)
    assert r.bot_win_rates["ismcts"].mean > 0.8
    assert abs(r.bot_returns["ismcts"].mean + r.bot_returns["random"].mean) < 1e-9
    wr = r.bot_win_rates
    assert abs(wr["ismcts"].mean + wr["random"].mean - 1.0) < 1e-9
    assert "| ismcts | 1 |" in r.table()


def test_labels_and_padding():
    lineup = full_lineup([spec("ismcts", max_simulations=5), spec("random")], 4)
    assert [b.name for b in lineup] == ["ismcts", "random", "random", "random"]
    r = run_match(GAME, [spec("random", label="r1"), spec("random", label="r2")],
                  games=4, seed=0, processes=1, progress=False)
    assert r.lineup == ["r1", "r2"]


def test_stat():
    s = Stat.of([1.0, -1.0] * 50)
    assert s.mean == 0.0 and abs(s.ci95 - 1.96 * np.std([1, -1] * 50, ddof=1) / 10) < 1e-12


def test_errors():
    with pytest.raises(ValueError, match="games must be"):
        run_match(GAME, [spec("random")], games=0, progress=False)
    with pytest.raises(ValueError, match="3 bots for a 2-player"):
        run_match(GAME, [spec("random")] * 3, games=2, progress=False)
    with pytest.raises(ValueError, match="unknown bot"):
        run_match(GAME, [BotSpec("nope")], games=2, progress=False)
