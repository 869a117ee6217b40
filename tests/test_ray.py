"""The Ray backend: same tables as the local backend, killed workers retried."""
from __future__ import annotations

import os

import pytest

ray = pytest.importorskip("ray")

import games  # noqa: E402,F401
from experiments import match as match_cli  # noqa: E402
from experiments import tournament as T  # noqa: E402
from solvers import backends  # noqa: E402
from solvers.botspec import parse_lineup  # noqa: E402
from solvers.evaluate import _worker, run_match as evaluate_run_match, spec  # noqa: E402

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("ray")]  # one Ray instance

GAME = "gold_thief(players=3)"
LINEUP = [spec("heuristic"), spec("random")]


@pytest.fixture(scope="module")
def ray_local():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_match_same_as_local(ray_local):
    local = backends.run_match(GAME, LINEUP, games=12, seed=5, processes=1, progress=False)
    remote = backends.run_match(GAME, LINEUP, games=12, seed=5, backend="ray", progress=False)
    reference = evaluate_run_match(GAME, LINEUP, games=12, seed=5, processes=1, progress=False)
    assert remote.table() == local.table() == reference.table()
    assert remote.returns.tobytes() == local.returns.tobytes()
    assert remote.seating.tobytes() == local.seating.tobytes()


def test_tournament_same_as_local(ray_local):
    bots = parse_lineup("random,heuristic,ismcts:max_simulations=10")
    kw = dict(games=4, seed=3, progress=False, bootstrap=30)
    local = T.run_tournament("gold_thief(players=2)", bots, processes=2, **kw)
    remote = T.run_tournament("gold_thief(players=2)", bots, backend="ray", **kw)
    assert remote.markdown() == local.markdown()
    assert remote.pairwise_csv() == local.pairwise_csv()
    assert remote.ratings_csv() == local.ratings_csv()


def test_killed_worker_is_retried(ray_local, tmp_path):
    marker = str(tmp_path / "killed-game-4")

    def dies_once(job):
        # the first run of game 4 kills its own worker process
        if job[2] == 4 and not os.path.exists(marker):
            open(marker, "w").close()
            os._exit(1)
        return _worker(job)

    remote = backends.run_match(GAME, LINEUP, games=9, seed=11, backend="ray",
                                progress=False, task=dies_once)
    assert os.path.exists(marker)
    local = backends.run_match(GAME, LINEUP, games=9, seed=11, processes=1, progress=False)
    assert remote.table() == local.table()
    assert remote.returns.tobytes() == local.returns.tobytes()


def test_duplicate_or_missing_games_are_refused(ray_local):
    def wrong_index(job):
        return 0, None

    with pytest.raises(RuntimeError, match="returned twice"):
        backends.run_tasks(wrong_index, [(0,), (1,)], backend="ray", progress=False)


def test_match_cli_ray(ray_local, capsys):
    argv = ["--game", "gold_thief", "--players", "2", "--bots", "heuristic,random",
            "--games", "6", "--seed", "2", "--no-progress"]
    assert match_cli.main(argv + ["--backend", "ray"]) == 0
    remote = capsys.readouterr().out.split("\n\n", 1)[1]
    assert match_cli.main(argv + ["--processes", "1"]) == 0
    local = capsys.readouterr().out.split("\n\n", 1)[1]
    assert remote == local
    assert match_cli.main(argv + ["--address", "127.0.0.1:1"]) == 2


def test_local_pools_of_a_ray_driver_do_not_fork(ray_local):
    """A local pool started after ``ray.init`` in the same process uses
    ``forkserver`` workers (a forked one can hang on a lock of Ray's
    threads), and still gives the local tables."""
    from solvers.pools import pool_context
    assert pool_context().get_start_method() == "forkserver"
    served = backends.run_match(GAME, LINEUP, games=6, seed=8, processes=2, progress=False)
    alone = backends.run_match(GAME, LINEUP, games=6, seed=8, processes=1, progress=False)
    assert served.returns.tobytes() == alone.returns.tobytes()
