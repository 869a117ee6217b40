"""Gold Nugget's engine modules, each usable alone: the
resampler, rendering and persistence import without the engine module and
work on a bare rules-kernel state (``src_cy.gold_nugget.rules.GoldNuggetRules``)."""
from __future__ import annotations

import pyspiel
import pytest

import games  # noqa: F401
from cymodules import assert_imports_alone
from src_cy.gold_nugget import persist, render, resample
from src_cy.gold_nugget.engine import GoldNuggetEngine
from src_cy.gold_nugget.rules import GoldNuggetRules
from src_cy.rng import SplitMix64

GAMES = ["gold_nugget(players=3)", "gold_nugget(players=2)",
         "gold_nugget(players=4,advanced=true)"]


def _rules_state(game_string: str, seed: int, decisions: int) -> GoldNuggetRules:
    """A rules-kernel state after seeded random play of `decisions` decisions."""
    rules = GoldNuggetRules(pyspiel.load_game(game_string).new_initial_state().engine.params,
                            game_string)
    rng, made = SplitMix64(seed), 0
    while made < decisions or rules.py_current_player() < 0:
        assert not rules.py_is_terminal(), "the game ended before the position"
        if rules.py_current_player() < 0:
            outcomes = rules.py_chance_outcomes()
            rules.py_apply(outcomes[rng.randint(len(outcomes))][0])
        else:
            legal = rules.py_legal_actions()
            rules.py_apply(legal[rng.randint(len(legal))])
            made += 1
    return rules


@pytest.mark.parametrize("module", ["resample", "render", "persist", "rules"])
def test_module_imports_alone(module: str) -> None:
    """Each module imports in a fresh interpreter before (and without) the engine."""
    assert_imports_alone(f"src_cy.gold_nugget.{module}", ("src_cy.gold_nugget.engine",))


@pytest.mark.parametrize("game_string", GAMES)
def test_resampler_on_a_rules_state(game_string: str) -> None:
    """The resampler module draws on a bare rules state: the world replays to
    the same information key and player to move for the resampling player,
    the same seed draws the same world, and the engine draws that world too."""
    rules = _rules_state(game_string, seed=7, decisions=14)
    p = rules.py_current_player()
    before = rules.py_history()
    worlds = []
    for seed in range(4):
        h = resample.draw_history(rules, p, seed)
        assert h == resample.draw_history(rules, p, seed)
        assert rules.py_history() == before, "the draw changed the state"
        world = GoldNuggetRules(rules.params, game_string)
        for a in h:
            world.py_apply(a)
        assert world.py_info_key(p) == rules.py_info_key(p)
        assert render.info_string(world, p) == render.info_string(rules, p)
        assert world.py_current_player() == p
        persist.check_invariants(world)
        worlds.append(h)
    engine = GoldNuggetEngine(rules.params, game_string)
    for a in before:
        engine.py_apply(a)
    assert [engine.py_resample_history(p, seed) for seed in range(4)] == worlds


def test_render_and_persist_on_a_rules_state() -> None:
    """render and persist functions called directly agree with the engine's
    methods, and a snapshot round-trips through a bare rules state."""
    game_string = GAMES[0]
    rules = _rules_state(game_string, seed=3, decisions=20)
    engine = GoldNuggetEngine(rules.params, game_string)
    for a in rules.py_history():
        engine.py_apply(a)
    for q in range(rules.num_players):
        assert render.info_string(rules, q) == engine.info_string(q)
        assert render.obs_string(rules, q) == engine.obs_string(q)
        assert render.player_view(rules, q) == engine.player_view(q)
        assert render.events_seen(rules, q) == engine.events_seen(q) > 0
    assert render.render(rules) == engine.render()
    data = persist.dump(rules)
    assert data == engine.dump()
    fresh = GoldNuggetRules(rules.params, game_string)
    persist.load(fresh, data)
    assert fresh.py_history() == rules.py_history()
    assert type(fresh.py_clone()) is GoldNuggetRules
    persist.check_invariants(fresh)
    with pytest.raises(ValueError, match="illegal at step"):
        persist.load(fresh, data[:-4] + (10 ** 6).to_bytes(4, "little"))
    assert fresh.py_history() == rules.py_history()


@pytest.mark.parametrize("game_string", GAMES)
def test_event_log_is_the_shared_record(game_string: str) -> None:
    """The log holds ``src_cy/events.pxd`` records: each one a player sees has
    that player among its seers, ``pub`` exactly when every seat sees it, and
    renders (through its code) as the player's information-state line."""
    rules = _rules_state(game_string, seed=11, decisions=30)
    n = rules.num_players
    everyone = (1 << n) - 1
    public = None
    for q in range(n):
        records = render.event_records(rules, q)
        assert len(records) == render.events_seen(rules, q) > 0
        lines = render.info_string(rules, q).split("\n")[1:]
        assert len(lines) == len(records)
        for (kind, actor, pub, a, b, c, secret, seers), line in zip(records, lines):
            assert seers >> q & 1 and 0 < seers <= everyone
            assert pub == (seers == everyone)
            code = kind | actor << 6 | a << 10 | b << 14 | c << 20 | secret << 26
            assert render.event_text(code) == line
        shared = [r for r in records if r[2]]
        assert public is None or shared == public, "players disagree on the public records"
        public = shared
        assert any(not r[2] for r in records), "no private record (dealt cards are)"


def test_the_kernel_alone_draws_no_world() -> None:
    """A bare ``GoldNuggetRules`` has no resampler: it draws nothing, and in
    particular never hands out the true history; its clones keep its class."""
    rules = _rules_state(GAMES[0], seed=5, decisions=12)
    assert rules.py_history()
    assert rules.py_resample_history(0, 5) == []
    assert type(rules.py_clone()) is GoldNuggetRules
    engine = GoldNuggetEngine(rules.params, GAMES[0])
    assert type(engine.py_clone()) is GoldNuggetEngine
