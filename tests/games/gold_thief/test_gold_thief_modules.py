"""Gold Thief's engine modules, each compiled on its own (issue 25): the rules
kernel (``src_cy.gold_thief.rules``), the resampler (``resample``), the
rendering (``render``) and the snapshots (``persist``) import without the
engine and work on a bare ``GoldThiefRules`` state; the engine
(``src_cy.gold_thief.engine``) is their sum."""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import pyspiel
import pytest

import games  # noqa: F401
from src_cy.gold_thief import persist, render, resample
from src_cy.gold_thief.engine import GoldThiefEngine
from src_cy.gold_thief.rules import GoldThiefRules
from src_cy.rng import SplitMix64

C_FIRST = 29


@pytest.mark.parametrize("name", ["rules", "resample", "render", "persist", "heuristic"])
def test_each_module_imports_alone_before_the_engine(name):
    """A fresh interpreter imports the module first, and the engine module is
    not loaded with it (no import reaches back to the engine)."""
    code = ("import importlib, sys\n"
            f"importlib.import_module('src_cy.gold_thief.{name}')\n"
            "print('src_cy.gold_thief.engine' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def _mid_game(players: int, seed: int, decisions: int) -> tuple[GoldThiefRules, GoldThiefEngine]:
    """A bare rules state and an engine at the same seeded random position."""
    game = pyspiel.load_game("gold_thief", {"players": players})
    params = game.make_engine().params
    rules = GoldThiefRules(params, game_string=str(game))
    engine = GoldThiefEngine(params, game_string=str(game))
    rng = SplitMix64(seed)
    while decisions > 0 or rules.py_current_player() == -1:
        assert not rules.py_is_terminal()
        if rules.py_current_player() == -1:
            options = [a for a, _ in rules.py_chance_outcomes()]
        else:
            options = rules.py_legal_actions()
            decisions -= 1
        action = options[rng.randint(len(options))]
        rules.py_apply(action)
        engine.py_apply(action)
    return rules, engine


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3)])
def test_resampler_on_a_bare_rules_state(players, seed):
    """``resample.draw_world`` on a ``GoldThiefRules`` (not the engine): the
    world is a state of the same class that the player cannot tell from the
    true one (same information key, string and view), it is its drawn
    history replayed, a seed reproduces it, seeds differ, and it is the
    world the engine draws from the same history and seed."""
    rules, engine = _mid_game(players, seed, 10)
    p = rules.py_current_player()
    truth = rules.py_history()
    worlds = set()
    for s in range(6):
        world = resample.draw_world(rules, p, s)
        assert type(world) is GoldThiefRules
        assert world.py_info_key(p) == rules.py_info_key(p)
        assert render.info_string(world, p) == render.info_string(rules, p)
        assert render.player_view(world, p) == render.player_view(rules, p)
        assert world.py_legal_actions() == rules.py_legal_actions()
        persist.check_invariants(world)
        drawn = resample.draw_history(rules, p, s)
        assert world.py_history() == drawn
        assert resample.draw_world(rules, p, s).py_history() == drawn
        assert engine.py_resample_history(p, s) == drawn
        assert engine.py_resample(p, s).py_history() == drawn
        worlds.add(tuple(drawn))
    assert len(worlds) > 1
    assert rules.py_history() == truth
    with pytest.raises(ValueError, match="player"):
        resample.draw_world(rules, players, 0)


def test_a_reused_resampler_draws_what_a_fresh_one_draws():
    """A freed engine's resampler serves the next engine made (``py_resample``
    clones one per world): warmed on a longer 5-player game, it draws at 2
    players (and back at 5) the history a fresh resampler draws."""
    small, small_engine = _mid_game(2, 1, 10)
    big, big_engine = _mid_game(5, 3, 40)
    p2, p5 = small.py_current_player(), big.py_current_player()
    for s in range(4):
        world = big_engine.py_resample(p5, 100 + s)
        assert world.py_info_key(p5) == big.py_info_key(p5)
        del world
        assert small_engine.py_resample_history(p2, s) == resample.draw_history(small, p2, s)
        assert big_engine.py_resample_history(p5, s) == resample.draw_history(big, p5, s)


def test_a_kept_view_draws_what_a_fresh_resampler_draws():
    """A resampler keeps the view of its last draw for the next one (an
    ISMCTS search resamples one root again and again): draws that reuse it
    (same history and player), draws for another player and draws after one
    more action are the histories a fresh resampler draws."""
    rules, engine = _mid_game(4, 5, 30)
    for _ in range(2):
        me = rules.py_current_player()
        for p in (me, (me + 1) % 4, me):
            for s in (7, 7, 8):
                drawn = resample.draw_history(rules, p, s)
                assert engine.py_resample_history(p, s) == drawn
                assert engine.py_resample(p, s).py_history() == drawn
        action = rules.py_legal_actions()[0]
        rules.py_apply(action)
        engine.py_apply(action)
        while rules.py_current_player() == -1:
            action = rules.py_chance_outcomes()[0][0]
            rules.py_apply(action)
            engine.py_apply(action)


def test_render_and_persist_on_a_bare_rules_state():
    """The render and persist functions take a rules state directly and give
    what the engine's methods give at the same position."""
    rules, engine = _mid_game(3, 4, 12)
    for p in range(3):
        assert render.visible_events(rules, p) == engine.visible_events(p)
        assert render.info_string(rules, p) == engine.info_string(p)
        assert render.obs_string(rules, p) == engine.obs_string(p)
        assert render.player_view(rules, p) == engine.player_view(p)
        assert render.hand(rules, p) == engine.hand(p)
        assert render.goals_down(rules, p) == engine.goals_down(p)
        mine = np.zeros(render.info_tensor_size(rules), np.float32)
        theirs = np.zeros(engine.info_tensor_size(), np.float32)
        render.fill_info_tensor(rules, p, mine)
        engine.fill_info_tensor(p, theirs)
        assert np.array_equal(mine, theirs) and mine.any()
    assert render.render_table(rules) == engine.render()
    assert render.public_view(rules) == engine.public_view()
    assert render.action_to_string(rules, -1, C_FIRST + 1) == "First player: P1"
    assert render.goal_str(rules, 0) == engine.goal_str(0)
    with pytest.raises(ValueError, match="player"):
        render.visible_events(rules, 3)

    data = persist.dump(rules)
    assert data == engine.dump()
    copy = GoldThiefRules(rules.params, game_string=rules.game_string)
    persist.load(copy, data)
    assert copy.py_history() == rules.py_history()
    assert [copy.py_info_key(p) for p in range(3)] == [rules.py_info_key(p) for p in range(3)]
    persist.check_invariants(copy)
    with pytest.raises(ValueError, match="bad magic"):
        persist.load(copy, b"XX" + data[2:])
    assert copy.py_history() == rules.py_history()


def test_clone_keeps_the_callers_class():
    """``clone`` (``py_clone``, pickling) makes an object of the caller's own
    class, sharing the parameters."""
    rules, engine = _mid_game(2, 5, 4)
    assert type(rules.py_clone()) is GoldThiefRules
    assert type(engine.py_clone()) is GoldThiefEngine
    assert rules.py_clone().params is rules.params
    assert rules.py_clone().py_history() == rules.py_history()


def test_the_kernel_alone_draws_no_world():
    """A bare ``GoldThiefRules`` has no resampler: it draws nothing, and in
    particular never hands out the true history (contract, property 3)."""
    rules, _ = _mid_game(3, 2, 12)
    assert rules.py_history()
    assert rules.py_resample_history(0, 5) == []
