"""Game specs: one registration per game, and a game added without touching solvers/.

``toy_bluff`` is defined entirely in this file (a pure-Python pyspiel game
and its ``GameSpec``); ISMCTS, MCCFR, CFR+, the heuristic bot and the policy
tables run on it through the spec alone.
"""
from __future__ import annotations

import subprocess
import sys

import pyspiel
import pytest

import games
from games import spec as S
from solvers import bots
from solvers.ismcts import ISMCTSBot, SplitMix64

# ----------------------------------------------------------------------
# toy_bluff: chance deals player 0 a card 0..2; player 0 checks (0) or
# bets (1); after a bet player 1 folds (0) or calls (1).  Check: player 0
# wins card - 1; bet and fold: +1; bet and call: 2 * (card - 1).
# ----------------------------------------------------------------------
TOY = "toy_bluff"
_TYPE = pyspiel.GameType(
    short_name=TOY, long_name="Toy bluff", dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM, reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2, min_num_players=2, provides_information_state_string=True,
    provides_information_state_tensor=False, provides_observation_string=True,
    provides_observation_tensor=False, parameter_specification={})
_INFO = pyspiel.GameInfo(num_distinct_actions=2, max_chance_outcomes=3, num_players=2,
                         min_utility=-2.0, max_utility=2.0, utility_sum=0.0, max_game_length=3)


class ToyGame(pyspiel.Game):
    def __init__(self, params=None):
        super().__init__(_TYPE, _INFO, params or {})

    def new_initial_state(self):
        return ToyState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return _ToyObserver()


class ToyState(pyspiel.State):
    def __init__(self, game):
        super().__init__(game)
        self.card: int | None = None
        self.moves: list[int] = []

    def current_player(self):
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        if self.card is None:
            return pyspiel.PlayerId.CHANCE
        return len(self.moves)

    def _legal_actions(self, player):
        return [0, 1]

    def chance_outcomes(self):
        return [(c, 1 / 3) for c in range(3)]

    def _apply_action(self, action):
        if self.card is None:
            self.card = action
        else:
            self.moves.append(action)

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"card {action}"
        return ("check", "bet")[action] if player == 0 else ("fold", "call")[action]

    def is_terminal(self):
        return self.moves in ([0], [1, 0], [1, 1])

    def returns(self):
        if not self.is_terminal():
            return [0.0, 0.0]
        v = {(0,): self.card - 1, (1, 0): 1, (1, 1): 2 * (self.card - 1)}[tuple(self.moves)]
        return [float(v), float(-v)]

    def view(self, player: int) -> dict:
        """What ``player`` knows: its card (player 0 only) and the moves."""
        return {"card": self.card if player == 0 else None, "moves": tuple(self.moves)}

    def resample_from_infostate(self, player, sampler):
        world = self.get_game().new_initial_state()
        hidden = player != 0
        card = int(sampler() * 3) if hidden else self.card
        world.apply_action(card)
        for a in self.moves:
            world.apply_action(a)
        return world

    def __str__(self):
        return f"card={self.card} moves={self.moves}"


class _ToyObserver:
    def __init__(self):
        self.tensor = None
        self.dict = {}

    def set_from(self, state, player):
        pass

    def string_from(self, state, player):
        v = state.view(player)
        return f"p{player} card={v['card']} moves={''.join(map(str, v['moves']))}"


pyspiel.register_game(_TYPE, ToyGame)


class ToyHeuristic(pyspiel.Bot):
    """Bet the top card, call with nothing (reads only the view)."""

    def __init__(self, game, seed=0, move_budget=None, budget_clock="cpu"):
        pyspiel.Bot.__init__(self)

    def step(self, state):
        v = state.view(state.current_player())
        return int(v["card"] == 2) if state.current_player() == 0 else 1

    def restart_at(self, state):
        pass

    def inform_action(self, state, player_id, action):
        pass


def toy_rollout(state, actions, rng: SplitMix64) -> int:
    return actions[-1] if rng.random() < 0.75 else actions[0]


def toy_features(state, player):
    v = state.view(player)
    return {"card": v["card"] if v["card"] is not None else "?", "moves": v["moves"] or "-"}


TOY_SPEC = S.GameSpec(
    name=TOY,
    presets={"default": {}, "mini": {}},
    player_view=lambda state, p: state.view(p),
    heuristic=ToyHeuristic,
    slow_rollout=lambda: toy_rollout,
    root_candidates=lambda: (lambda state: [1]),
    table=lambda: S.TableSpec(name=TOY, load=TOY_SPEC.load, features=toy_features,
                              feature_doc={"card": "your card", "moves": "moves so far"},
                              cfr_iterations=50),
    rules_doc="tests/test_game_spec.py")


@pytest.fixture
def toy(monkeypatch):
    monkeypatch.setitem(S._SPECS, TOY, TOY_SPEC)
    return pyspiel.load_game(TOY)


# ----------------------------------------------------------------------
def test_every_game_registers_one_spec():
    names = [s.name for s in S.specs()]
    assert names[:6] == ["kuhn_poker", "leduc_poker", "gold_thief", "ardillas_del_bosque",
                         "gold_nugget", "saboteur"]
    assert len(names) == len(set(names))
    for name in ("gold_thief", "ardillas_del_bosque", "gold_nugget", "saboteur"):
        spec = S.get_spec(name)
        game = spec.load("mini")
        assert game.get_type().short_name == name
        assert spec.engine(game).game_string == str(game)
        state = game.new_initial_state()
        assert spec.player_view(state, 0) is not None
        assert spec.heuristic is not None and spec.table().name == name
        assert spec.rules_doc == f"docs/rules/{name}.md"
    with pytest.raises(ValueError, match="already registered"):
        S.register_spec(S.GameSpec(name="gold_thief", presets={"default": {}, "mini": {}}))


def test_kuhn_and_leduc_engines_come_from_their_specs():
    kuhn3 = pyspiel.load_game("kuhn_poker(players=3)")
    assert S.game_engine(kuhn3).num_players == 3
    assert S.game_engine(kuhn3, use_engine=False) is None
    assert S.game_engine(pyspiel.load_game("leduc_poker")).game_string.startswith("leduc")
    assert S.game_engine(pyspiel.load_game("leduc_poker(action_mapping=true)")) is None
    assert S.game_engine(pyspiel.load_game("tic_tac_toe")) is None


def test_bad_specs_are_refused():
    with pytest.raises(ValueError, match="no 'mini' preset"):
        S.GameSpec(name="x", presets={"default": {}})
    with pytest.raises(ValueError, match="heuristic must be callable"):
        S.GameSpec(name="x", presets={"default": {}, "mini": {}}, heuristic="bot")
    with pytest.raises(ValueError, match="no game spec for 'nope'"):
        S.get_spec("nope")
    with pytest.raises(ValueError, match="no preset 'huge'"):
        S.get_spec("gold_thief").load("huge")


def test_toy_game_runs_every_solver_through_its_spec(toy, tmp_path):
    state = toy.new_initial_state()
    state.apply_action(2)
    # The heuristic bot, by name, from the spec.
    assert bots.make_bot("heuristic", toy).step(state) == 1
    assert TOY in bots.heuristic_games()
    # ISMCTS with the spec's rollout, root grouping and heuristic anchor.
    bot = ISMCTSBot(toy, max_simulations=200, seed=3, rollout="heuristic",
                    root_candidates="game", anchor="heuristic")
    assert bot.step(state) == 1 and bot.last_stats.actions == [1]
    free = ISMCTSBot(toy, max_simulations=400, seed=3, rollout="heuristic")
    assert free.step(state) == 1        # betting the top card wins 1 or 2
    # MCCFR (pyspiel path: the spec has no engine) and CFR+ on the compiled tree.
    from solvers.cfr import CFRPlusSolver
    from solvers.mccfr import MCCFRSolver
    mc = MCCFRSolver(toy, seed=1)
    assert mc.backend == "pyspiel"
    mc.run(300)
    assert len(mc.average_policy_table()) == 4   # three cards, one bet to answer
    cfr = CFRPlusSolver(toy)
    cfr.run(200)
    assert cfr.tree.num_infosets == 4
    # The policy tables find the game through its spec's table entry.
    from experiments import policy_tables as script
    assert TOY in script.load_registry()
    (summary,) = script.main(["--games", TOY, "--out", str(tmp_path)])
    assert summary["measure"] == "exploitability"
    rows = (tmp_path / TOY / "policy_table.csv").read_text()
    assert "card" in rows.splitlines()[0]


def test_one_fast_path_switch_for_every_solver():
    game = pyspiel.load_game("kuhn_poker")
    from solvers.mccfr import MCCFRSolver
    from solvers.tree import compile_game
    assert MCCFRSolver(game, use_engine=False).backend == "pyspiel"
    assert MCCFRSolver(game).backend == "engine"
    assert compile_game(game, use_engine=False).infoset_strings == \
        compile_game(game).infoset_strings
    gt = pyspiel.load_game("gold_thief", {"players": 2})
    state = gt.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    fast = ISMCTSBot(gt, max_simulations=60, seed=5, rollout="heuristic")
    slow = ISMCTSBot(gt, max_simulations=60, seed=5, rollout="heuristic", use_engine=False)
    assert fast.step(state) == slow.step(state)
    assert fast.last_stats.visits == slow.last_stats.visits


def test_import_games_loads_no_solver():
    code = ("import sys, games, games.spec; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('solvers', 'experiments')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=str(__import__('pathlib').Path(games.__file__).parent.parent))
    assert out.stdout.strip() == "[]"


def test_benchmark_rows_come_from_the_specs():
    """Every goldspiel game declares its rows of the three benchmarks in its own
    spec; ``bench_rows`` gathers them and each row's game loads."""
    goldspiel = [s for s in S.specs() if s.engine is not None and s.params is not None]
    assert {s.name for s in goldspiel} == {"gold_thief", "saboteur", "ardillas_del_bosque",
                                           "gold_nugget"}
    for benchmark in ("engines", "search", "resample"):
        rows = S.bench_rows(benchmark)
        for spec in goldspiel:
            mine = [r for r in rows if r.game.split("(")[0] == spec.name]
            assert mine, f"{spec.name} has no {benchmark!r} bench row"
            assert mine == list(spec.bench[benchmark])
        for row in rows:
            assert pyspiel.load_game(row.game).get_type().short_name in row.game
    with pytest.raises(ValueError, match="must hold BenchRows"):
        S.GameSpec(name="x", presets={"default": {}, "mini": {}},
                   bench={"search": [("label", "x()")]})


def test_lazy_factories_import_on_call_only():
    """``games.spec.lazy``: the target is imported when the factory is called,
    returned as is or called with the factory's arguments; a malformed target
    is refused at once."""
    code = ("import sys, games\n"
            "from games.spec import get_spec\n"
            "spec = get_spec('gold_thief')\n"
            "before = 'games.gold_thief.ai' in sys.modules\n"
            "import pyspiel\n"
            "bot = spec.heuristic(pyspiel.load_game('gold_thief'), seed=1)\n"
            "print(before, type(bot).__name__, 'games.gold_thief.ai' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "GoldThiefHeuristicBot", "True"]
    from games.gold_thief.features import GOLD_THIEF_TABLE
    assert S.lazy("games.gold_thief.features:GOLD_THIEF_TABLE")() is GOLD_THIEF_TABLE
    assert S.lazy("builtins:max", call=True)(3, 7) == 7
    with pytest.raises(ValueError, match="module:name"):
        S.lazy("games.gold_thief.features")
