"""OpenSpiel's JAX DQN through ``rl_environment`` on every game's mini preset
(and kuhn as a control): losses and Q-values stay finite while it learns.
Needs the optional extra ``[rl]``; without jax these tests fail saying so."""
from __future__ import annotations

import numpy as np
import pytest

import games  # noqa: F401  (registers the games)
from games.spec import find_spec

# one worker under xdist --dist loadgroup: the module's runs share one JAX interpreter
pytestmark = pytest.mark.xdist_group("jax")

# (game, preset, episodes): a few hundred decisions per seat at most, enough
# for dozens of learning steps per seat with the small buffer below
CASES = [("kuhn_poker", "default", 300), ("gold_thief", "mini", 100),
         ("gold_nugget", "mini", 100), ("ardillas_del_bosque", "mini", 100),
         ("saboteur", "mini", 60)]


@pytest.fixture(scope="module")
def jax_pool():
    """One spawned interpreter for the module's training runs, so JAX's
    threads never live in this pytest worker (which later tests fork, for
    tournament pools) and JAX is imported once, not once per run."""
    import multiprocessing as mp
    with mp.get_context("spawn").Pool(1) as pool:
        yield pool


def _train(pool, name: str, preset: str, episodes: int, **options):
    """``experiments.rl_dqn.train_preset`` in ``pool``'s interpreter."""
    from experiments import rl_dqn
    try:
        return pool.apply(rl_dqn.train_preset, (name, preset, episodes), options)
    except ImportError as exc:
        pytest.fail(str(exc))


def test_missing_jax_names_the_rl_extra(monkeypatch):
    import sys
    from experiments import rl_dqn
    monkeypatch.setitem(sys.modules, "open_spiel.python.jax.dqn", None)
    with pytest.raises(ImportError, match=r"goldspiel\[rl\]"):
        rl_dqn.import_dqn()


@pytest.mark.integration
@pytest.mark.slow
@pytest.mark.parametrize("name,preset,episodes", CASES)
def test_dqn_losses_and_q_values_stay_finite(jax_pool, name, preset, episodes):
    game = find_spec(name).load(preset)
    losses, q_values = _train(jax_pool, name, preset, episodes, seed=0, hidden=(16,),
                              batch_size=16,
                              min_buffer_size_to_learn=32)
    assert len(losses) == game.num_players()
    for seat, seat_losses in enumerate(losses):
        assert len(seat_losses) >= 5, f"seat {seat} learned only {len(seat_losses)} times"
        assert np.isfinite(seat_losses).all(), f"seat {seat}: non-finite loss"
    assert q_values, "no information state was probed"
    for q in q_values:
        assert q.shape[1] == game.num_distinct_actions()
        assert np.isfinite(q).all()


@pytest.mark.slow
def test_training_is_seeded(jax_pool):
    options = dict(seed=3, hidden=(8,), batch_size=8, min_buffer_size_to_learn=16)
    a, _ = _train(jax_pool, "kuhn_poker", "default", 40, **options)
    b, _ = _train(jax_pool, "kuhn_poker", "default", 40, **options)
    assert a == b and a[0]
    with pytest.raises(ValueError, match="episodes must be >= 1"):
        _train(jax_pool, "kuhn_poker", "default", 0)
    import sys
    assert "jax" not in sys.modules, "JAX was imported in the test process"
