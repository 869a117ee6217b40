"""Saboteur's engine modules, each alone: the rules kernel (``rules``), the
resampler (``resample``), rendering (``render``) and snapshots (``persist``)
work on a ``SaboteurRules`` state without the final ``SaboteurEngine``, and
agree with the engine's methods on the same history."""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from src_cy.rng import SplitMix64
from src_cy.saboteur import persist, render, resample
from src_cy.saboteur.rules import SabParams, SaboteurRules

PARAMS = {"players": 4, "rounds": 2, "goal_distance": 3, "utility": "gold",
          "deck_scale": 60, "hand_size": 0, "gold_handout": "pick"}


def _kernel_at(seed: int, decisions: int = 14) -> SaboteurRules:
    """A rules-kernel state after seeded uniform play of ``decisions`` player
    decisions (chance outcomes uniform among those possible)."""
    rules = SaboteurRules(SabParams(PARAMS))
    rng = SplitMix64(seed)
    k = 0
    while k < decisions or rules.py_current_player() < 0:
        assert not rules.py_is_terminal()
        if rules.py_current_player() < 0:
            outcomes = sorted(a for a, _ in rules.py_chance_outcomes())
            rules.py_apply(outcomes[rng.randint(len(outcomes))])
        else:
            legal = rules.py_legal_actions()
            rules.py_apply(legal[rng.randint(len(legal))])
            k += 1
    return rules


def _replayed(history: list) -> SaboteurRules:
    rules = SaboteurRules(SabParams(PARAMS))
    for a in history:
        rules.py_apply(a)
    return rules


@pytest.mark.parametrize("module", ["rules", "resample", "render", "persist"])
def test_each_module_imports_alone_before_the_engine(module):
    code = (f"import sys; import src_cy.saboteur.{module}; "
            "assert 'src_cy.saboteur.engine' not in sys.modules, 'the engine was imported'")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr


def test_clone_keeps_the_callers_class():
    from src_cy.saboteur.engine import SaboteurEngine
    rules = _kernel_at(0, 4)
    assert type(rules.py_clone()) is SaboteurRules
    engine = SaboteurEngine(rules.params)
    assert type(engine.py_clone()) is SaboteurEngine


def test_the_kernel_alone_draws_no_world():
    """Without the resampler the kernel never hands out its true history."""
    rules = _kernel_at(1)
    assert rules.py_resample_history(0, 5) == []


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_resampler_on_a_kernel_state_draws_consistent_reproducible_worlds(seed):
    rules = _kernel_at(seed)
    truth = rules.py_history()
    mover = rules.py_current_player()
    for p in range(rules.num_players):
        key = rules.py_info_key(p)
        info = render.info_string(rules, p)
        worlds = set()
        for s in range(12):
            h = resample.draw_history(rules, p, s)
            assert resample.draw_history(rules, p, s) == h       # a seed reproduces it
            world = _replayed(h)
            assert world.py_info_key(p) == key
            assert render.info_string(world, p) == info
            assert world.py_current_player() == mover
            assert world.py_legal_actions() == rules.py_legal_actions() or p != mover
            persist.check_invariants(world)
            worlds.add(tuple(h))
        assert len(worlds) > 1                                     # hidden cards vary
        assert rules.py_history() == truth                         # drawn from a clone
    assert resample.resample_failures() == 0


def test_resampler_module_draws_the_engines_worlds():
    from src_cy.saboteur.engine import SaboteurEngine
    rules = _kernel_at(3)
    engine = SaboteurEngine(rules.params)
    for a in rules.py_history():
        engine.py_apply(a)
    for p in range(rules.num_players):
        for s in range(5):
            assert resample.draw_history(rules, p, s) == engine.py_resample_history(p, s)


def test_resample_proposals_knob_lives_in_the_module():
    rules = _kernel_at(4)
    p = (rules.py_current_player() + 1) % rules.num_players
    old = resample.set_resample_proposals(1)
    try:
        single = [resample.draw_history(rules, p, s) for s in range(6)]
    finally:
        assert resample.set_resample_proposals(old) == 1
    assert old == resample.DEFAULT_RESAMPLE_PROPOSALS
    assert [resample.draw_history(rules, p, s) for s in range(6)] != single
    with pytest.raises(ValueError):
        resample.set_resample_proposals(0)


def test_render_functions_on_a_kernel_state():
    from src_cy.saboteur.engine import SaboteurEngine
    rules = _kernel_at(5)
    engine = SaboteurEngine(rules.params)
    for a in rules.py_history():
        engine.py_apply(a)
    n = rules.num_players
    for p in range(n):
        view = render.player_view(rules, p)
        assert view.player == p
        assert list(view.hand) == render.state_view(rules)["hands"][p]
        log = render.event_log(rules, p)
        assert len(render.info_string(rules, p).splitlines()) == len(log) + 1
        for kind, actor, _a, _b, _c, secret in log:
            if kind in ("role", "draw"):
                assert (secret >= 0) == (actor == p)           # only the actor sees it
        assert render.obs_string(rules, p) == engine.obs_string(p)
        assert log == engine.event_log(p)
        size = render.info_tensor_size(rules)
        assert size == engine.info_tensor_size()
        mine, theirs = np.zeros(size, np.float32), np.zeros(size, np.float32)
        render.fill_info_tensor(rules, p, mine)
        engine.fill_info_tensor(p, theirs)
        assert mine.any() and (mine == theirs).all()
        assert 0.0 <= mine.min() and mine.max() <= 1.0
    legal = rules.py_legal_actions()
    assert [render.action_to_string(rules, rules.py_current_player(), a) for a in legal] == \
        [engine.action_to_string(engine.py_current_player(), a) for a in legal]
    assert render.render(rules) == engine.render()


def test_persist_functions_on_a_kernel_state():
    rules = _kernel_at(6)
    persist.check_invariants(rules)
    data = persist.dump(rules)
    fresh = SaboteurRules(rules.params)
    persist.load(fresh, data)
    assert fresh.py_history() == rules.py_history()
    assert persist.dump(fresh) == data
    for p in range(rules.num_players):
        assert fresh.py_info_key(p) == rules.py_info_key(p)
    before = fresh.py_history()
    with pytest.raises(ValueError):
        persist.load(fresh, data[:-4] + (10 ** 6).to_bytes(4, "little", signed=True))
    assert fresh.py_history() == before                       # a bad snapshot changes nothing


@pytest.mark.parametrize("src_seed,dst_seed", [(7, 8), (9, 10)])
def test_copy_into_an_engine_with_another_maze_leaves_no_trace_of_it(src_seed, dst_seed):
    """``copy_from`` clears and copies only the grid cells either state uses
    (rules.pyx ``clear_maze``); the copy must equal the source everywhere,
    with no card or reach mark of the engine's former maze left behind
    (``check_invariants`` asserts that no unlisted cell is set)."""
    src = _kernel_at(src_seed, 30)
    dst = _kernel_at(dst_seed, 50)
    assert render.render(src) != render.render(dst)
    dst.py_copy_from(src)
    persist.check_invariants(dst)
    assert render.render(dst) == render.render(src)
    assert dst.py_history() == src.py_history()
    assert [dst.py_info_key(p) for p in range(src.num_players)] == \
        [src.py_info_key(p) for p in range(src.num_players)]
    rng = SplitMix64(src_seed)
    while not src.py_is_terminal():
        if src.py_current_player() < 0:
            outcomes = sorted(a for a, _ in src.py_chance_outcomes())
            a = outcomes[rng.randint(len(outcomes))]
        else:
            legal = src.py_legal_actions()
            assert dst.py_legal_actions() == legal
            a = legal[rng.randint(len(legal))]
        src.py_apply(a)
        dst.py_apply(a)
    persist.check_invariants(dst)
    assert render.render(dst) == render.render(src)
    assert dst.py_returns() == src.py_returns()


def test_copy_from_refuses_another_game():
    rules = _kernel_at(1)
    other = SaboteurRules(SabParams({**PARAMS, "players": PARAMS["players"] + 1}))
    before = rules.py_history()
    with pytest.raises(ValueError, match="same game"):
        rules.py_copy_from(other)
    assert rules.py_history() == before
