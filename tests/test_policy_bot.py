"""The cfr policy bot: files, fallbacks that say what they do, bot specs."""
import pyspiel
import pytest

from solvers import policy_io
from solvers.botspec import parse_bot, parse_lineup, parse_value
from solvers.bots import make_bot
from solvers.cfr import CFRPlusSolver
from solvers.evaluate import run_match, spec
from solvers.policy_arrays import PolicyMissError


@pytest.fixture(scope="module")
def kuhn_files(tmp_path_factory):
    game = pyspiel.load_game("kuhn_poker")
    solver = CFRPlusSolver(game)
    solver.run(100)
    folder = tmp_path_factory.mktemp("bot")
    full = folder / "kuhn.npz"
    policy_io.save_array_policy(full, solver.average_policy(), solver="CFR+", iterations=100)
    table = policy_io.policy_from_tree(solver.tree, solver.average_policy_array())
    half = folder / "kuhn_p0.json"  # only player 0's information states
    policy_io.save_policy(half, game, {s: e for s, e in table.items() if e[0] == 0})
    return game, solver, str(full), str(half)


def _p1_state(game):
    state = game.new_initial_state()
    state.apply_action(2)
    state.apply_action(0)
    state.apply_action(1)  # player 0 bets; player 1 (card 0) to move
    return state


def test_npz_policy_is_played(kuhn_files):
    game, solver, full, _ = kuhn_files
    bot = make_bot("cfr", game, policy_file=full, seed=1)
    state = _p1_state(game)
    policy, _ = bot.step_with_policy(state)
    assert dict(policy) == solver.average_policy().action_probabilities(state)
    assert dict(policy)[0] > 0.99  # the Jack folds to a bet
    assert bot.stats() == {"decisions": 1, "misses": 0}


def test_fallbacks_count_misses(kuhn_files):
    game, _, _, half = kuhn_files
    state = _p1_state(game)
    uniform = make_bot("cfr", game, policy_file=half)
    assert dict(uniform.step_with_policy(state)[0]) == {0: 0.5, 1: 0.5}
    assert uniform.stats() == {"decisions": 1, "misses": 1}
    strict = make_bot("cfr", game, policy_file=half, fallback="error")
    with pytest.raises(PolicyMissError, match="fallback='error'"):
        strict.step(state)
    search = make_bot("cfr", game, policy_file=half, fallback="ismcts", fallback_simulations=300)
    policy, action = search.step_with_policy(state)
    assert action in (0, 1) and search.stats()["misses"] == 1
    assert dict(policy) != {0: 0.5, 1: 0.5}
    with pytest.raises(ValueError, match="fallback must be one of"):
        make_bot("cfr", game, policy_file=half, fallback="guess")
    with pytest.raises(ValueError, match="does not exist"):
        make_bot("cfr", game, policy_file=half + ".nope")


def test_match_reports_misses(kuhn_files):
    game, _, _, half = kuhn_files
    result = run_match("kuhn_poker", [spec("cfr", policy_file=half), spec("random")],
                       games=20, seed=3, processes=1, progress=False)
    counters = result.bot_stats["cfr"]
    assert counters["decisions"] > 20 and 0 < counters["misses"] < counters["decisions"]
    assert "not in its table" in result.table()
    assert "random" not in result.bot_stats


def test_bot_specs():
    assert parse_value("500") == 500 and parse_value("0.5") == 0.5
    assert parse_value("True") is True and parse_value("none") is None
    assert parse_value("a/b.npz") == "a/b.npz"
    b = parse_bot("cfr:policy_file=r/g/policy.npz:fallback=ismcts:label=table")
    assert b.name == "cfr" and b.label == "table"
    assert dict(b.options) == {"policy_file": "r/g/policy.npz", "fallback": "ismcts"}
    lineup = parse_lineup("ismcts:max_simulations=500,ismcts,random",
                          {"ismcts": {"max_simulations": 100, "uct_c": 2.0}})
    assert dict(lineup[0].options) == {"max_simulations": 500, "uct_c": 2.0}
    assert dict(lineup[1].options) == {"max_simulations": 100, "uct_c": 2.0}
    assert lineup[2].name == "random" and lineup[2].options == ()
    with pytest.raises(ValueError, match="not key=value"):
        parse_bot("cfr:policy_file")
    with pytest.raises(ValueError, match="no bots"):
        parse_lineup(" , ")


def test_bot_spec_labels():
    """A spec with options is labelled by its text, so two configurations of
    one bot stay apart in result tables; ``label=`` overrides; a bare name
    has no label and is shown by its name."""
    lineup = parse_lineup(" ismcts:max_simulations=200 ,ismcts,random:label=r")
    assert [b.label for b in lineup] == ["ismcts:max_simulations=200", "", "r"]
    assert [b.display for b in lineup] == ["ismcts:max_simulations=200", "ismcts", "r"]
    assert dict(lineup[2].options) == {}
    with_defaults = parse_bot("ismcts:uct_c=1.5", {"ismcts": {"max_simulations": 100}})
    assert with_defaults.label == "ismcts:uct_c=1.5"
    assert dict(with_defaults.options) == {"max_simulations": 100, "uct_c": 1.5}


def test_one_bot_spec_parser():
    """The commands parse bot specs with the solvers' parser, and only with it."""
    import solvers.botspec
    from experiments import botspec, bot_exploitability, exploitability_lower_bound, strength
    assert not hasattr(botspec, "parse_bot_spec") and not hasattr(botspec, "parse_lineup")
    assert strength.parse_bot_spec is exploitability_lower_bound.parse_bot_spec \
        is solvers.botspec.parse_bot
    assert strength.parse_lineup is bot_exploitability.parse_lineup \
        is solvers.botspec.parse_lineup
    assert botspec.game_string("saboteur", 5) == "saboteur(players=5)"
    assert botspec.game_string("saboteur(players=4)", None) == "saboteur(players=4)"
    with pytest.raises(ValueError, match="--players cannot be combined"):
        botspec.game_string("saboteur(players=4)", 5)
