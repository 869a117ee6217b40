"""OpenSpiel's JAX DQN through ``rl_environment`` on every game's mini preset
(and kuhn as a control): losses and Q-values stay finite while it learns.
Needs the optional extra ``[rl]``; without jax these tests fail saying so."""
from __future__ import annotations

import numpy as np
import pytest

import games  # noqa: F401  (registers the games)
from games.spec import find_spec

# (game, preset, episodes): a few hundred decisions per seat at most, enough
# for dozens of learning steps per seat with the small buffer below
CASES = [("kuhn_poker", "default", 300), ("gold_thief", "mini", 100),
         ("gold_nugget", "mini", 100), ("ardillas_del_bosque", "mini", 100),
         ("saboteur", "mini", 60)]


def _rl():
    from experiments import rl_dqn
    try:
        rl_dqn.import_dqn()
    except ImportError as exc:
        pytest.fail(str(exc))
    return rl_dqn


def test_missing_jax_names_the_rl_extra(monkeypatch):
    import sys
    from experiments import rl_dqn
    monkeypatch.setitem(sys.modules, "open_spiel.python.jax.dqn", None)
    with pytest.raises(ImportError, match=r"goldspiel\[rl\]"):
        rl_dqn.import_dqn()


@pytest.mark.integration
@pytest.mark.slow
@pytest.mark.parametrize("name,preset,episodes", CASES)
def test_dqn_losses_and_q_values_stay_finite(name, preset, episodes):
    rl = _rl()
    game = find_spec(name).load(preset)
    run = rl.train_dqn(game, episodes, seed=0, hidden=(16,), batch_size=16,
                       min_buffer_size_to_learn=32)
    assert len(run.losses) == game.num_players()
    for seat, losses in enumerate(run.losses):
        assert len(losses) >= 5, f"seat {seat} learned only {len(losses)} times"
        assert np.isfinite(losses).all(), f"seat {seat}: non-finite loss"
    assert run.q_values, "no information state was probed"
    for q in run.q_values:
        assert q.shape[1] == game.num_distinct_actions()
        assert np.isfinite(q).all()


@pytest.mark.slow
def test_training_is_seeded():
    rl = _rl()
    game = find_spec("kuhn_poker").load("default")
    a = rl.train_dqn(game, 40, seed=3, hidden=(8,), batch_size=8, min_buffer_size_to_learn=16)
    b = rl.train_dqn(game, 40, seed=3, hidden=(8,), batch_size=8, min_buffer_size_to_learn=16)
    assert a.losses == b.losses and a.losses[0]
    with pytest.raises(ValueError, match="episodes must be >= 1"):
        rl.train_dqn(game, 0)
