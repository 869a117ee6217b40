"""OpenSpiel's own Python bots and tools on every goldspiel game's default and mini presets.

OpenSpiel's Python ``ISMCTSBot`` (its arguments at their defaults but the
two it requires, with random rollouts) calls ``resample_from_infostate`` on
our states once per simulation and keys its tree by our information-state
strings; ``MCTSBot`` treats a state as perfect-information. Both must pick a
legal move at positions along seeded games, every player count's smallest
and largest default, and a whole game between ISMCTS bots must finish.
``rl_environment`` steps through a whole episode; OpenSpiel's Python
outcome-sampling MCCFR runs a few iterations; and the worlds OpenSpiel's
ISMCTS gets from ``resample_from_infostate`` (chained on Gold Nugget and Gold Thief) keep
the player's information-state string, tensor and key.
"""
from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import games  # noqa: F401  (registers the games)
from games.spec import find_spec
from games.testing import random_action, random_states
from src_cy.rng import SplitMix64

pytestmark = pytest.mark.conformance

GAMES = ["gold_thief", "saboteur", "ardillas_del_bosque", "gold_nugget"]
PRESETS = [(g, p) for g in GAMES for p in ("default", "mini")]


def _ismcts_bot(game: pyspiel.Game, seed: int, sims: int = 12) -> ismcts.ISMCTSBot:
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    return ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=sims,
                            random_state=np.random.RandomState(seed))


def _positions(game: pyspiel.Game, seed: int, count: int) -> list[pyspiel.State]:
    """Decision nodes along one seeded random game, evenly spread."""
    states = [s for s in random_states(game, 1, seed=seed)
              if not s.is_terminal() and not s.is_chance_node()]
    step = max(1, len(states) // count)
    return states[::step][:count]


@pytest.mark.parametrize("name, preset", PRESETS)
def test_openspiel_ismcts_picks_legal_moves_along_a_game(name, preset):
    game = find_spec(name).load(preset)
    picked = 0
    for i, state in enumerate(_positions(game, seed=11, count=4)):
        before = state.history()
        action = _ismcts_bot(game, seed=i).step(state)
        assert action in state.legal_actions(state.current_player())
        assert state.history() == before, "the bot's resampling changed the real state"
        picked += 1
    assert picked >= 3


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_mcts_picks_legal_moves(name):
    game = find_spec(name).load("default")
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = mcts.MCTSBot(game, 2.0, 12, evaluator, random_state=np.random.RandomState(0))
    for state in _positions(game, seed=12, count=3):
        assert bot.step(state) in state.legal_actions(state.current_player())


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_a_whole_game_between_openspiel_ismcts_bots_finishes(name):
    game = find_spec(name).load("default")
    bots = [_ismcts_bot(game, seed=p, sims=8) for p in range(game.num_players())]
    state, rng, moves = game.new_initial_state(), SplitMix64(5), 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(random_action(state, rng))
            continue
        state.apply_action(bots[state.current_player()].step(state))
        moves += 1
    assert moves > 0
    assert len(state.returns()) == game.num_players()


@pytest.mark.parametrize("name, preset", PRESETS)
def test_resampled_worlds_keep_the_players_information(name, preset):
    """Successive ``resample_from_infostate`` calls on one state, as OpenSpiel's
    ISMCTSBot makes them (chained on Gold Nugget and Gold Thief): every world has the
    player's string, tensor and engine key of the real state."""
    game = find_spec(name).load(preset)
    sampler = np.random.RandomState(5)
    for state in _positions(game, seed=13, count=3):
        p = state.current_player()
        for _ in range(6):
            world = state.resample_from_infostate(p, sampler.rand)
            assert world.information_state_string(p) == state.information_state_string(p)
            assert world.information_state_tensor(p) == state.information_state_tensor(p)
            assert world.engine.py_info_key(p) == state.engine.py_info_key(p)
            assert world.current_player() == p


@pytest.mark.parametrize("name, preset", PRESETS)
def test_rl_environment_runs_an_episode(name, preset):
    from open_spiel.python import rl_environment
    game = find_spec(name).load(preset)
    env = rl_environment.Environment(game, seed=0)
    rng = np.random.RandomState(0)
    step = env.reset()
    steps = 0
    while not step.last():
        p = step.observations["current_player"]
        legal = step.observations["legal_actions"][p]
        step = env.step([int(rng.choice(legal))])
        steps += 1
    assert steps > 0 and len(step.rewards) == game.num_players()


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_outcome_sampling_mccfr_runs_on_mini(name):
    from open_spiel.python.algorithms import outcome_sampling_mccfr as os_mccfr
    game = find_spec(name).load("mini")
    np.random.seed(0)
    solver = os_mccfr.OutcomeSamplingSolver(game)
    for _ in range(20):
        solver.iteration()
    policy = solver.average_policy()
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    probs = policy.action_probabilities(state)
    assert set(probs) == set(state.legal_actions()) and abs(sum(probs.values()) - 1) < 1e-9
