"""Round-robin tournaments and Bradley–Terry ratings."""
from __future__ import annotations

import csv
import io
import math
import os

import numpy as np
import pytest

import games  # noqa: F401
from experiments import tournament as T
from solvers.botspec import parse_lineup
from solvers.evaluate import _load
from solvers.ratings import ELO, bootstrap_ratings, bradley_terry, wilson

pytestmark = pytest.mark.integration

# a fake game result: each bot's seats get its fixed strength as return
STRENGTH = {"heuristic": 1.0, "ismcts": 0.0, "random": -1.0}


def fixed_task(job):
    gs, duo, g, seed, index = job
    n = _load(gs).num_players()
    lineup = [duo[(s + g) % 2] for s in range(n)]     # the documented seating
    return index, [STRENGTH[b.name] for b in lineup]


def test_bradley_terry_two_bots():
    # 300 wins of 400: odds 3:1, i.e. 400 log10(3) Elo points (prior shrinks a little)
    pairs = [(0, 1)] * 400
    scores = [1.0] * 300 + [0.0] * 100
    r = bradley_terry(2, pairs, scores, prior=0.0)
    assert r[0] - r[1] == pytest.approx(400 * math.log10(3), abs=0.01)
    assert r.sum() == pytest.approx(0, abs=1e-9)
    shrunk = bradley_terry(2, pairs, scores, prior=1.0)
    assert 0 < shrunk[0] - shrunk[1] < r[0] - r[1]
    # swapping the roles of the bots mirrors the ratings
    swapped = bradley_terry(2, [(1, 0)] * 400, [0.0] * 300 + [1.0] * 100, prior=0.0)
    assert swapped == pytest.approx(r)


def test_bradley_terry_ties_and_order():
    pairs = [(0, 1), (1, 2), (0, 2)] * 50
    scores = [0.5, 1.0, 1.0] * 50
    r = bradley_terry(3, pairs, scores)
    assert r[0] == pytest.approx(r[1], abs=1e-6)
    assert r[1] > r[2] + 200


@pytest.mark.parametrize("args, msg", [
    ((1, [], []), "at least 2"),
    ((2, [(0, 1)], [0.5, 0.5]), "1 pairs but 2 scores"),
    ((2, [(0, 2)], [1.0]), "two different bots"),
    ((2, [(1, 1)], [1.0]), "two different bots"),
    ((2, [(0, 1)], [1.5]), "in \\[0, 1\\]"),
])
def test_bradley_terry_rejects_bad_input(args, msg):
    with pytest.raises(ValueError, match=msg):
        bradley_terry(*args)


def test_bootstrap_intervals():
    rng = np.random.default_rng(1)
    pairs = [(0, 1)] * 200
    scores = (rng.random(200) < 0.7).astype(float)
    fit, low, high = bootstrap_ratings(2, pairs, scores, samples=100, seed=3)
    assert (low <= fit + 1e-9).all() and (fit <= high + 1e-9).all()
    again = bootstrap_ratings(2, pairs, scores, samples=100, seed=3)
    assert np.array_equal(low, again[1]) and np.array_equal(high, again[2])
    # ten times the games: a much narrower interval
    _, low2, high2 = bootstrap_ratings(2, pairs * 10, np.tile(scores, 10), samples=100, seed=3)
    assert (high2 - low2)[0] < 0.5 * (high - low)[0]
    # the normal-theory width of a log-odds estimate, roughly
    p = scores.mean()
    se = ELO * math.sqrt(1 / (200 * p * (1 - p))) / 2      # per bot, ratings centred
    assert (high - low)[0] == pytest.approx(2 * 1.96 * se, rel=0.35)


def test_seating_alternates():
    assert T.seat_bots(2, 0) == [0, 1] and T.seat_bots(2, 1) == [1, 0]
    three = np.array([T.seat_bots(3, g) for g in range(2)])
    assert three.sum() == 3 and (three.sum(axis=0) == 1).all()   # balanced over 2 games


@pytest.mark.parametrize("game", ["gold_thief(players=2)", "saboteur(players=3)"])
def test_scores_and_ratings_from_known_results(game):
    bots = parse_lineup("random,heuristic,ismcts")
    res = T.run_tournament(game, bots, games=6, seed=1, processes=1, progress=False,
                           bootstrap=50, task=fixed_task)
    assert res.pairs == [(0, 1), (0, 2), (1, 2)]
    assert res.score(1, 0).mean == 1.0 and res.score(0, 1).mean == 0.0
    assert res.score(2, 0).mean == 1.0 and res.score(1, 2).mean == 1.0
    assert np.all(res.margins[0] == -2.0)
    assert list(np.argsort(-res.ratings)) == [1, 2, 0]
    md = res.markdown()
    assert "| 1 | heuristic |" in md and "| 3 | random |" in md
    rows = list(csv.DictReader(io.StringIO(res.pairwise_csv())))
    assert len(rows) == 6
    row = next(r for r in rows if r["bot"] == "heuristic" and r["opponent"] == "random")
    assert (row["games"], row["wins"], row["ties"], row["losses"]) == ("6", "6", "0", "0")


def test_real_games_deterministic_and_process_independent(tmp_path):
    bots = parse_lineup("random,heuristic")
    a = T.run_tournament("ardillas_del_bosque(players=3)", bots, games=4, seed=7,
                         processes=1, progress=False, bootstrap=30)
    b = T.run_tournament("ardillas_del_bosque(players=3)", bots, games=4, seed=7,
                         processes=2, progress=False, bootstrap=30)
    assert a.markdown() == b.markdown() and a.pairwise_csv() == b.pairwise_csv()
    assert np.array_equal(a.scores, b.scores)
    c = T.run_tournament("ardillas_del_bosque(players=3)", bots, games=4, seed=8,
                         processes=1, progress=False, bootstrap=30)
    assert not np.array_equal(a.margins, c.margins)


@pytest.mark.slow
def test_cli_writes_outputs(tmp_path, capsys):
    out = tmp_path / "t"
    rc = T.main(["--game", "gold_thief", "--players", "2", "--bots",
                 "random,heuristic,ismcts:max_simulations=20", "--games", "4",
                 "--processes", "1", "--bootstrap", "20", "--out", str(out), "--no-progress"])
    assert rc == 0
    text = capsys.readouterr().out
    assert "Bradley–Terry" in text and "ismcts:max_simulations=20" in text
    names = sorted(os.listdir(out))
    assert names == ["pairwise.csv", "ratings.csv", "ratings.png", "tournament.md"]
    assert (out / "ratings.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    ratings = list(csv.DictReader(open(out / "ratings.csv")))
    assert [r["bot"] for r in ratings] == ["random", "heuristic", "ismcts:max_simulations=20"]
    assert sum(float(r["rating"]) for r in ratings) == pytest.approx(0, abs=0.01)
    for r in ratings:
        assert float(r["low95"]) <= float(r["rating"]) + 1e-6 <= float(r["high95"]) + 2e-6


@pytest.mark.parametrize("argv, msg", [
    (["--bots", "random"], "at least 2 bots"),
    (["--bots", "random,random"], "distinct"),
    (["--bots", "random,nobot"], "unknown bot"),
    (["--bots", "random,heuristic", "--games", "0"], "games must be >= 1"),
    (["--bots", "random,heuristic", "--address", "x:1"], "--address needs --backend ray"),
    (["--bots", "random,ismcts:max_simulations=abc"],
     "option 'max_simulations' expects an integer or none, got 'abc'"),
    (["--bots", "random,best:uct_c=high"], "option 'uct_c' expects a number, got 'high'"),
])
def test_cli_bad_arguments(argv, msg, capsys, tmp_path):
    rc = T.main(["--game", "gold_thief", "--out", str(tmp_path / "x"), "--no-progress"] + argv)
    assert rc == 2
    assert msg in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


def _wrong_index(job):
    return 0, job


def test_local_backend_refuses_duplicates_and_bad_options():
    from solvers.backends import run_tasks
    with pytest.raises(RuntimeError, match="returned twice"):
        run_tasks(_wrong_index, [(0,), (1,)], processes=1, progress=False)
    with pytest.raises(ValueError, match="backend must be one of"):
        run_tasks(_wrong_index, [(0,)], backend="spark", progress=False)
    with pytest.raises(ValueError, match="processes must be >= 1"):
        run_tasks(_wrong_index, [(0,)], processes=0, progress=False)


def test_wilson_is_honest_at_the_extremes():
    low, high = wilson(0.0, 20)
    assert low == 0.0 and high == pytest.approx(1.96 ** 2 / (20 + 1.96 ** 2), rel=1e-3)
    low, high = wilson(1.0, 20)
    assert high == 1.0 and 0.80 < low < 0.85          # 20-0 is not "1.000 +- 0"
    assert wilson(0.5, 0) == (0.0, 1.0)
    low, high = wilson(0.7, 1000)                     # large n: the normal interval
    half = 1.96 * math.sqrt(0.7 * 0.3 / 1000)
    assert low == pytest.approx(0.7 - half, abs=2e-3) and high == pytest.approx(0.7 + half, abs=2e-3)
    with pytest.raises(ValueError, match="mean must lie in"):
        wilson(1.5, 3)
    with pytest.raises(ValueError, match="n must be >= 0"):
        wilson(0.5, -1)


def test_tables_show_wilson_intervals_at_n_of_n():
    bots = parse_lineup("random,heuristic")
    res = T.run_tournament("gold_thief(players=2)", bots, games=20, seed=1, processes=1,
                           progress=False, bootstrap=20, task=fixed_task)
    low, high = wilson(1.0, 20)
    assert f"| heuristic | 1.000 [{low:.2f}, 1.00] | — |" in res.markdown()
    assert "± 0.000" not in res.markdown()
    rows = {(r["bot"], r["opponent"]): r
            for r in csv.DictReader(io.StringIO(res.pairwise_csv()))}
    r = rows[("random", "heuristic")]
    assert float(r["score_low95"]) == 0.0 and float(r["score_high95"]) == pytest.approx(1 - low)


def test_output_files_are_world_readable(tmp_path):
    bots = parse_lineup("random,heuristic")
    res = T.run_tournament("gold_thief(players=2)", bots, games=2, seed=1, processes=1,
                           progress=False, bootstrap=5, task=fixed_task)
    for path in T.write_outputs(res, str(tmp_path / "o")):
        assert os.stat(path).st_mode & 0o777 == 0o644, path


def test_plot_orders_bots_alike_in_both_panels(monkeypatch):
    """Both panels list the bots best-rated first; the heat map's rows carry
    a y label and the diagonal is not drawn in the colour of 0.5."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    figs = []
    monkeypatch.setattr(plt, "close", figs.append)
    bots = parse_lineup("random,heuristic,ismcts")
    res = T.run_tournament("gold_thief(players=2)", bots, games=4, seed=1, processes=1,
                           progress=False, bootstrap=5, task=fixed_task)
    assert T.plot(res)[:4] == b"\x89PNG"
    ax1, ax2 = figs[0].axes[:2]
    rows = [t.get_text() for t in ax1.get_yticklabels()]
    assert rows == ["heuristic", "ismcts", "random"]
    # the ratings panel runs top-down like the heat map (inverted y axis)
    ticks = dict(zip([t.get_text() for t in ax2.get_yticklabels()], ax2.get_yticks()))
    top, bottom = ax2.get_ylim()
    assert top > bottom and [ticks[b] for b in rows] == [0, 1, 2]
    assert ax1.get_ylabel() == "bot (row)"
    image = ax1.get_images()[0]
    cmap = image.get_cmap()
    assert cmap.get_bad()[:3] != pytest.approx(cmap(0.5)[:3], abs=0.2)
    cells = [t.get_text() for t in ax1.texts]
    assert cells.count("self") == 3
    assert any(c.startswith("1.00\n[0.") for c in cells)     # each score with its interval


def test_ray_backend_without_ray_fails_before_any_work(monkeypatch, capsys, tmp_path):
    from solvers import backends
    monkeypatch.setattr(backends, "ray_available", lambda: False)
    called = []
    monkeypatch.setattr(T, "run_tasks", lambda *a, **k: called.append(1))
    rc = T.main(["--game", "gold_thief", "--bots", "random,heuristic", "--backend", "ray",
                 "--out", str(tmp_path / "x")])
    assert rc == 2 and not called
    err = capsys.readouterr().err
    assert "--backend ray needs the optional 'ray' dependency" in err
    assert "round robin" not in err                   # no progress bar was drawn
