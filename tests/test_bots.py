"""Bot registry, random bot, Gold Thief heuristic."""
import pyspiel
import pytest

import games  # noqa: F401
from solvers import bots
from solvers.ismcts import ISMCTSBot, SplitMix64, sample_sorted
import testgames

testgames.register()


def play(game, seat_bots, seed):
    rng = SplitMix64(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_sorted(sorted(state.chance_outcomes()), rng))
        else:
            a = seat_bots[state.current_player()].step(state)
            assert a in state.legal_actions()
            state.apply_action(a)
    return state.returns()


def test_make_bot_registry():
    game = pyspiel.load_game("ismcts_test_minipoker")
    assert isinstance(bots.make_bot("ismcts", game, max_simulations=10, seed=1), ISMCTSBot)
    assert isinstance(bots.make_bot("random", game, seed=1), bots.RandomBot)
    with pytest.raises(ValueError, match="unknown bot"):
        bots.make_bot("nope", game)
    with pytest.raises(ValueError, match="bad options"):
        bots.make_bot("random", game, depth=3)
    with pytest.raises(ValueError, match="no heuristic bot for"):
        bots.make_bot("heuristic", game)
    assert "gold_thief" in bots.heuristic_games()
    assert {"random", "ismcts", "heuristic", "cfr"} <= set(bots.bot_names())


def test_heuristic_and_game_bots_come_from_the_spec():
    sab = pyspiel.load_game("saboteur")
    assert type(bots.make_bot("heuristic", sab)).__name__ == "SaboteurHeuristicBot"
    assert type(bots.make_bot("belief_heuristic", sab)).__name__ == "BeliefSaboteurBot"
    assert "belief_heuristic" in bots.bot_names(sab)
    with pytest.raises(ValueError, match="unknown bot 'belief_heuristic' for gold_thief"):
        bots.make_bot("belief_heuristic", pyspiel.load_game("gold_thief"))


def test_random_bot_is_uniform_and_seeded():
    game = pyspiel.load_game("ismcts_test_tictactoe")
    state = game.new_initial_state()
    bot = bots.RandomBot(game, seed=3)
    counts = [0] * 9
    for _ in range(1800):
        counts[bot.step(state)] += 1
    assert min(counts) > 140
    a = [bots.RandomBot(game, seed=5).step(state) for _ in range(3)]
    assert a == [bots.RandomBot(game, seed=5).step(state) for _ in range(3)]


@pytest.mark.parametrize("players", [2, 4])
def test_gold_thief_heuristic_plays_legal_and_beats_random(players):
    game = pyspiel.load_game("gold_thief", {"players": players})
    wins = 0
    n_games = 60
    for i in range(n_games):
        seat = i % players
        line = [bots.make_bot("random", game, seed=i * 10 + s) for s in range(players)]
        line[seat] = bots.make_bot("heuristic", game)
        ret = play(game, line, seed=i)
        wins += ret[seat] == max(ret)
    # a uniformly random seat wins 1/players of the games
    assert wins / n_games > 1.0 / players + 0.1


def test_cfr_policy_bot_plays_the_solved_kuhn_policy():
    from solvers.bots import make_bot
    game = pyspiel.load_game("kuhn_poker")
    bot = make_bot("cfr", game, iterations=500, seed=3)
    state = game.new_initial_state()
    state.apply_action(0)          # player 0 is dealt the Jack
    state.apply_action(2)          # player 1 the King
    state.apply_action(1)          # player 0 bets; player 1 decides
    policy, action = bot.step_with_policy(state)
    assert dict(policy)[1] > 0.99  # the King always calls a bet
    assert action == 1


def test_cfr_policy_bot_round_trips_a_policy_file(tmp_path):
    from solvers import policy_io
    from solvers.bots import make_bot
    from solvers.cfr import CFRPlusSolver
    game = pyspiel.load_game("kuhn_poker")
    solver = CFRPlusSolver(game)
    solver.run(100)
    path = tmp_path / "kuhn.json"
    table = policy_io.policy_from_tree(solver.tree, solver.average_policy_array())
    policy_io.save_policy(path, game, table)
    bot = make_bot("cfr", game, policy_file=str(path))
    state = game.new_initial_state()
    state.apply_action(1)
    state.apply_action(0)
    policy, _ = bot.step_with_policy(state)
    info = state.information_state_string(0)
    assert dict(policy) == dict(zip(table[info][1], table[info][2]))


def test_engine_rule_is_what_the_engine_paths_call():
    """A rule bot's ``engine_rule`` answers ``choose_on_engine`` and the
    solvers' fixed heuristic opponents directly (no view, no legal list)."""
    from games.interfaces import RuleBot
    from solvers import mccfr

    calls = []

    def rule(engine, player):
        calls.append(player)
        return max(engine.py_legal_actions())

    class Last(RuleBot):
        GAME = "gold_thief"
        engine_rule = staticmethod(rule)

    game = pyspiel.load_game("gold_thief(players=2)")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    me = state.current_player()
    legal = sorted(state.legal_actions())
    assert len(legal) > 1
    bot = Last(game)
    assert bot.choose_on_engine(state.engine, me, legal) == legal[-1]
    opponents = mccfr.HeuristicOpponents(game)
    opponents.rule = Last.engine_rule
    assert opponents(me, state.engine) == legal[-1]
    assert calls == [me, me]
