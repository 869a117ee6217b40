"""OpenSpiel's own CFR (C++ ``CFRSolver``, default arguments) on goldspiel games
whose whole tree is small enough to walk: the solver runs over our Python
games and its average policy is less exploitable than uniform play."""
import pyspiel
import pytest

import games  # noqa: F401  (registers the games)
from games import ardillas_del_bosque as A
from games.gold_thief import MINI_PARAMS as GT_MINI

pytestmark = pytest.mark.conformance

SMALL = [
    # Gold Thief mini cut to 4 turns (10,569 nodes; mini's 64,101 took 140 s:
    # OpenSpiel's C++ side calls back into Python at every node)
    ("gold_thief", dict(GT_MINI, max_turns=4)),
    ("ardillas_del_bosque", dict(A.MINI_PARAMS, side="night", boards="bear+lizard")),
]


@pytest.mark.slow
@pytest.mark.parametrize("name, params", SMALL)
def test_openspiel_cpp_cfr_runs_and_improves_on_uniform(name, params):
    game = pyspiel.load_game(name, params)
    solver = pyspiel.CFRSolver(game)
    for _ in range(3):
        solver.evaluate_and_update_policy()
    uniform = pyspiel.nash_conv(game, pyspiel.UniformRandomPolicy(game))
    solved = pyspiel.nash_conv(game, solver.average_policy())
    assert 0.0 <= solved < uniform
