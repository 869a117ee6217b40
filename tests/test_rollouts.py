"""Gold Thief heuristic rollouts: engine and pyspiel twins agree; bots use them."""
import random

import pyspiel
import pytest

import games  # noqa: F401
from games.testing import random_action
from solvers import ismcts as I
from solvers.rollouts import gold_thief_rollout


def _position(players: int, seed: int) -> pyspiel.State:
    game = pyspiel.load_game("gold_thief", {"players": players})
    rng = random.Random(seed)
    state = game.new_initial_state()
    while state.is_chance_node() or state.move_number() < 30 + seed:
        state.apply_action(random_action(state, rng))
    return state


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 4), (4, 2)])
def test_heuristic_rollouts_identical_on_both_paths(players, seed):
    state = _position(players, seed)
    player = state.current_player()
    fast_policy = I._resolve_rollout("gold_thief", "heuristic", True)
    kw = dict(max_simulations=300, seed=7)
    fast = I.fast_search(state.engine, player, rollout=fast_policy, **kw)
    slow = I.slow_search(state, player, rollout=gold_thief_rollout, **kw)
    assert fast == slow
    assert fast != I.fast_search(state.engine, player, **kw)   # the policy matters


def test_rollout_rules():
    rng = I.SplitMix64(0)
    assert gold_thief_rollout(None, [1, 46 + 3], rng) == 49          # always score
    assert gold_thief_rollout(None, [0], rng) == 0
    picks = {gold_thief_rollout(None, [0, 2, 3, 41], rng) for _ in range(200)}
    assert picks == {0, 2, 3, 41}
    window = [gold_thief_rollout(None, [1, 42], rng) for _ in range(400)]
    assert 150 < window.count(42) < 250                              # about half


def test_bot_accepts_heuristic_rollout():
    game = pyspiel.load_game("gold_thief", {"players": 2})
    bot = I.ISMCTSBot(game, max_simulations=100, seed=1, rollout="heuristic")
    state = _position(2, 1)
    assert bot.step(state) in state.legal_actions()
