"""make_bot("best", ...): one configuration per game, legal and seed-deterministic."""
import pyspiel
import pytest

import games  # noqa: F401
from solvers.bots import best_config, best_games, make_bot
from src_cy.rng import SplitMix64, sample_sorted


def midgame(game, seed, moves):
    rng = SplitMix64(seed)
    s = game.new_initial_state()
    done = 0
    while not s.is_terminal() and done < moves:
        if s.is_chance_node():
            s.apply_action(sample_sorted(sorted(s.chance_outcomes()), rng))
            continue
        legal = sorted(s.legal_actions())
        s.apply_action(legal[rng.randint(len(legal))])
        done += 1
    while s.is_chance_node():
        s.apply_action(sample_sorted(sorted(s.chance_outcomes()), rng))
    return s


@pytest.mark.parametrize("name,params", [("saboteur", {"players": 5, "rounds": 1}),
                                         ("gold_thief", {"players": 2}),
                                         ("gold_nugget", {"players": 2}),
                                         ("ardillas_del_bosque", {"players": 2})])
def test_best_bot_is_legal_and_deterministic(name, params):
    assert name in best_games()
    game = pyspiel.load_game(name, params)
    s = midgame(game, 1, 6)
    assert not s.is_terminal()
    a = make_bot("best", game, seed=4, max_simulations=60).step(s)
    b = make_bot("best", game, seed=4, max_simulations=60).step(s)
    assert a == b and a in s.legal_actions()


def test_best_saboteur_uses_beliefs_and_flat_grouped_search():
    game = pyspiel.load_game("saboteur", {"players": 5, "rounds": 1})
    bot = make_bot("best", game, seed=1, max_simulations=80)
    s = midgame(game, 2, 10)
    bot.step(s)
    st = bot.last_stats
    assert st.nodes == 1 and st.world_draws >= best_config(game)["belief_worlds"]
    assert len(st.actions) < len(s.legal_actions()) or len(s.legal_actions()) <= 8


def test_best_refuses_games_without_a_configuration():
    with pytest.raises(ValueError, match="no 'best' configuration"):
        make_bot("best", pyspiel.load_game("kuhn_poker"))


@pytest.mark.slow
def test_match_uses_best_by_default(capsys):
    from experiments import match
    assert match.main(["--game", "gold_nugget", "--players", "2", "--games", "2",
                       "--sims", "20", "--processes", "1", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "best" in out and "heuristic" in out


def test_best_options_come_from_the_spec_and_may_depend_on_players():
    two = best_config(pyspiel.load_game("gold_nugget", {"players": 2}))
    four = best_config(pyspiel.load_game("gold_nugget", {"players": 4}))
    assert two["anchor"] == four["anchor"] == "heuristic"
    assert four["max_simulations"] < two["max_simulations"]
    assert set(best_games()) == {"saboteur", "gold_thief", "gold_nugget", "ardillas_del_bosque"}
    with pytest.raises(ValueError, match="no 'best' configuration"):
        best_config(pyspiel.load_game("leduc_poker"))


@pytest.mark.slow
def test_best_plays_a_cfr_solution_where_the_game_is_small():
    from games.spec import find_spec
    from solvers import bots
    from solvers.exploitability import nash_conv
    from solvers.ismcts import ISMCTSBot
    from solvers.policy_bot import PolicyBot
    mini = pyspiel.load_game("gold_thief", find_spec("gold_thief").presets["mini"])
    bot = make_bot("best", mini, seed=3)
    assert isinstance(bot, PolicyBot)
    assert bots.best_solution(mini) is bot.policy   # solved once per process
    assert nash_conv(mini, bot.policy) <= 0.02
    s = midgame(mini, 5, 3)
    policy, action = bot.step_with_policy(s)   # the bot plays its table's row
    assert dict(policy) == pytest.approx(bot.policy.action_probabilities(s))
    assert action in s.legal_actions()
    # the search is still there when asked for, or when an option is overridden
    assert isinstance(make_bot("best", mini, seed=3, solve=False), ISMCTSBot)
    assert isinstance(make_bot("best", mini, seed=3, max_simulations=50), ISMCTSBot)
    with pytest.raises(ValueError, match="solve must be"):
        make_bot("best", mini, solve="yes")
    # a default preset is far above BEST_SOLVE_NODES: refused by the size check, no compile
    default = pyspiel.load_game("gold_thief", {"players": 2})
    assert bots.best_solution(default) is None
    assert isinstance(make_bot("best", default, seed=3), ISMCTSBot)
