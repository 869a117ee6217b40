"""MAST rollouts in the engine ISMCTS: greedy for the mover, seeded, bad input."""
import pyspiel
import pytest

from solvers import ismcts as I
import testgames

testgames.register()

TTT = "ismcts_test_tictactoe"
# x: 0, 1, 5; o: 2, 3, 4; x to move, cells 6, 7, 8 empty.  o wins at 6
# (diagonal 2-4-6) unless x takes it; every other line is blocked, so every
# other finish is a draw.
THREAT = [0, 2, 1, 3, 5, 4]


def ttt_state(moves):
    state = pyspiel.load_game(TTT).new_initial_state()
    for m in moves:
        state.apply_action(m)
    return state


def root_means(stats):
    return {a: v / n for a, n, v in zip(stats.actions, stats.visits, stats.values)}


@pytest.mark.statistical
def test_mast_rollouts_play_the_movers_best_action(stat_seed):
    # Flat Monte Carlo (max_depth=1): after x's root move the rollout decides.
    # After x plays 7 (or 8), o wins by taking 6 and draws otherwise.  Uniform
    # rollouts take 6 half the time (x's mean about -0.5); MAST learns that o's
    # move 6 always wins for o and takes it unless exploring (x's mean about
    # -(1 - eps/2)).  A MAST that ranked by x's returns, or the worst mean,
    # would avoid 6 and push the mean towards 0.
    state = ttt_state(THREAT)
    seed = stat_seed(1)
    # uct_c=100 spreads the root's 3,000 visits over the three moves.
    kw = dict(max_simulations=3000, seed=seed, max_depth=1, uct_c=100.0)
    plain = root_means(I.fast_search(state.engine, 0, **kw))
    mast = root_means(I.fast_search(state.engine, 0, mast=0.1, **kw))
    for a in (7, 8):
        assert -0.6 < plain[a] < -0.4
        assert mast[a] < -0.9
    assert mast[6] == plain[6] == 0.0


def test_mast_is_seed_deterministic_and_changes_rollouts():
    game = pyspiel.load_game("ardillas_del_bosque(players=2)")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    p = state.current_player()

    def run(seed, mast):
        s = I.fast_search(state.engine, p, max_simulations=400, seed=seed, mast=mast)
        return s.visits, s.values, s.rng_state

    assert run(5, 0.2) == run(5, 0.2)
    assert run(5, 0.2) != run(6, 0.2)
    assert run(5, 0.2) != run(5, 0.0)


def test_mast_bad_input():
    state = ttt_state(THREAT)
    for bad in (-0.1, 1.5, float("nan"), "x"):
        with pytest.raises(ValueError, match="mast must be 0"):
            I.fast_search(state.engine, 0, max_simulations=10, mast=bad)
        with pytest.raises(ValueError, match="mast must be 0"):
            I.ISMCTSBot(state.get_game(), max_simulations=10, mast=bad)
    sab = pyspiel.load_game("saboteur(players=3)")
    with pytest.raises(ValueError, match="needs rollout='random'"):
        I.ISMCTSBot(sab, max_simulations=10, mast=0.5, rollout="heuristic")
    with pytest.raises(ValueError, match="engine path"):
        I.ISMCTSBot(pyspiel.load_game("tic_tac_toe"), max_simulations=10, mast=0.5)
    with pytest.raises(ValueError, match="engine path"):
        I.ISMCTSBot(sab, max_simulations=10, mast=0.5, use_engine=False)
