"""Gold Nugget: conformance suite, parameters, properties, golden playthrough."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Iterator

import pyspiel
import pytest
from hypothesis import given, settings, strategies as st

import games  # noqa: F401  (registers every game)
import games.gold_nugget as gn
from games._adapter import ParameterError
from games.testing import check_game
from src_cy.engine import random_playouts
from tiers import slow_above_min_players

PLAYTHROUGH = Path(__file__).parent / "playthroughs" / "gold_nugget.txt"


def _invariant(state: pyspiel.State) -> None:
    state.engine.check_invariants()


@pytest.mark.conformance
@pytest.mark.parametrize("params", slow_above_min_players("gold_nugget", [
    pytest.param({"players": 2}, marks=pytest.mark.slow),  # over 5 s of CPU; mini is 2p
    {"players": 3}, {"players": 4, "utility": "zero_sum"}, {"players": 5},
    {"players": 3, "advanced": True}, {"players": 5, "advanced": True, "abilities": False},
    gn.MINI_PARAMS,
]), ids=["p2", "p3", "p4-zero_sum", "p5", "p3-advanced", "p5-advanced-noabilities", "mini"])
def test_conformance(params: dict) -> None:
    game = pyspiel.load_game("gold_nugget", params)
    varied = check_game(game, invariant=_invariant, num_sims=1, num_games=1, small=True)
    assert varied > 0, "resampling never re-dealt hidden stones or cards"


def test_resampling_moves_hidden_stones_only() -> None:
    game = pyspiel.load_game("gold_nugget", {"players": 3})
    state = game.new_initial_state()
    rng = random.Random(3)
    while state.is_chance_node() or state.engine.info()["phase"] != "Meddling":
        if state.is_chance_node():
            a, p = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(a, p)[0])
        else:
            state.apply_action(state.legal_actions()[0])
    p = next(q for q in range(3)                   # a player who has not seen the nugget
             if all("NUGGET" not in lair for lair in state.engine.player_view(q)["lairs"]))
    view = state.engine.player_view(p)
    nugget_at = set()
    for seed in range(30):
        world = state.resample(p, seed)
        assert world.engine.player_view(p)["lairs"] == view["lairs"]   # what p knows
        assert world.engine.hand(p) == state.engine.hand(p)
        nugget_at.add(next(((q, lair.index(0)) for q, lair in enumerate(world.engine.lairs())
                            if 0 in lair), "nest"))
    assert len(nugget_at) > 1


@pytest.mark.parametrize("bad, name", [
    ({"players": 6}, "players"), ({"players": 1}, "players"),
    ({"utility": "most"}, "utility"), ({"trap_stones": 4}, "trap_stones"),
    ({"normal_stones": 21, "trap_stones": 3}, "normal_stones"),
    ({"hand_size": 11}, "hand_size"), ({"start_stones": 5}, "start_stones"),
    ({"animals": "raccoon/unicorn"}, "animals"), ({"animals": "raccoon"}, "animals"),
    ({"leaf_counts": "peek:99"}, "leaf_counts"), ({"leaf_counts": "nope:1"}, "leaf_counts"),
    ({"wind_counts": "stalking"}, "wind_counts"), ({"max_moves": 10}, "max_moves"),
    ({"deal_animals": 3}, "deal_animals"), ({"days": 11}, "days"),
    ({"leaf_default": 0}, "leaf_counts"), ({"bogus": 1}, "bogus"),
])
def test_bad_parameters_refused(bad: dict, name: str) -> None:
    with pytest.raises((ParameterError, pyspiel.SpielError, ValueError)) as err:
        pyspiel.load_game("gold_nugget", bad)
    assert name in str(err.value)


def test_two_player_removals() -> None:
    game = pyspiel.load_game("gold_nugget", {"players": 2})
    engine = game.make_engine()
    removed = [gn.LEAF_KEYS.index(gn.card_key(c)) for c in gn.TWO_PLAYER_REMOVALS]
    total = sum(c[1] for c in gn.LEAF_CATALOG)
    assert total == 98 and sum(c[1] for c in gn.WIND_CATALOG) == 7
    kept = pyspiel.load_game("gold_nugget", {"players": 2, "two_player_removals": False})
    assert kept.make_engine().info()["deck"] == 98
    assert engine.info()["deck"] == 98 - sum(gn.LEAF_CATALOG[k][1] for k in removed)


def test_setup_tables() -> None:
    for n, (feathers, normal, traps) in gn.NEST_TABLE.items():
        engine = pyspiel.load_game("gold_nugget", {"players": n}).make_engine()
        assert engine.feathers()[-1] == feathers
        assert len(engine.stone_faces()) == 1 + normal + traps
        assert engine.stone_faces().count(1) == traps
        e = engine.py_clone()
        e.random_playout(n)
        assert e.info()["day"] == gn.RAVEN_DAYS[n]


def _checked_playout(game: pyspiel.Game, seed: int) -> Iterator[pyspiel.State]:
    """The state after each move of a random playout (chance by its odds,
    decisions uniform), its invariants checked."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            a, p = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(a, p)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        state.engine.check_invariants()
        yield state


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 5), st.booleans(), st.integers(0, 2**31))
def test_property_conservation(n: int, advanced: bool, seed: int) -> None:
    game = pyspiel.load_game("gold_nugget", {"players": n, "advanced": advanced})
    for state in _checked_playout(game, seed):
        pass
    assert len(state.history()) <= game.max_game_length()
    returns = state.returns()
    assert all(r in (0.0, 1.0) for r in returns)
    winners = state.engine.info()["winners"]
    assert returns == [float(winners >> p & 1) for p in range(n)]


@pytest.mark.parametrize("seed", [1, 2])
def test_largest_card_counts_keep_their_counts(seed: int) -> None:
    """The state keeps per-card counts in 8 bits: with card counts at their
    largest (30), and the largest hands, playouts conserve every card and a
    hand reads back what it holds."""
    game = pyspiel.load_game("gold_nugget", {
        "players": 2, "leaf_default": 10, "leaf_counts": "peek:30/chance:30",
        "wind_default": 30, "hand_size": 10})
    most = max(c for state in _checked_playout(game, seed)
               for q in range(2) for c in state.engine.hand(q))
    assert most >= 3


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**31))
def test_property_move_budget_is_a_true_bound(seed: int) -> None:
    need = gn.move_budget(4, 4, 5, 2, 2, False, 7)
    game = pyspiel.load_game("gold_nugget", {"players": 4, "max_moves": need + 40})
    engine = game.make_engine()
    engine.random_playout(seed)
    assert engine.info()["moves"] <= game.max_game_length()


def test_engine_playouts_match_python_count() -> None:
    game = pyspiel.load_game("gold_nugget", {"players": 4})
    total = random_playouts(game.make_engine(), 50, 1)
    assert total.shape == (4,) and 0 <= total.sum() <= 50


@pytest.mark.slow
def test_golden_playthrough() -> None:
    """Digest format (``games.testing.digest_playthrough_text``): OpenSpiel's
    text format spent 90 s formatting this game's 15,632-float tensors.
    Regenerate with ``python -m games.testing "gold_nugget(players=3,days=1)"
    tests/games/gold_nugget/playthroughs/gold_nugget.txt 7 --digest``."""
    from games import testing
    assert PLAYTHROUGH.read_text().startswith(testing.DIGEST_HEADER)
    testing.check_playthrough(str(PLAYTHROUGH))


@pytest.mark.slow
def test_golden_playthrough_default_configuration() -> None:
    from games import testing
    testing.check_playthrough(str(Path(__file__).parent / "playthroughs"
                                  / "gold_nugget_default.txt"))
