"""Ardillas del Bosque's engine modules, each alone: the rules kernel
(``src_cy.ardillas_del_bosque.rules``), the resampler (``resample``), the
rendering (``render``) and the snapshot (``persist``), without the engine class
or the pyspiel adapter."""
from __future__ import annotations

import numpy as np
import pytest

from cymodules import assert_imports_alone, assert_resampler_keeps_information
from src_cy.ardillas_del_bosque import persist, render, resample
from src_cy.ardillas_del_bosque.rules import ArdillasParams, ArdillasRules
from src_cy.rng import SplitMix64

PARAMS = {"players": 3, "sleepyheads": 0, "hiding_places": 2, "night": False, "king": -1,
          "little_squirrels": False, "nuts": 5, "boards": (), "max_len": 200}
NIGHT = {**PARAMS, "night": True, "boards": (0, 1, 2)}
GAME_STRING = "ardillas_del_bosque(players=3)"


def kernel(params: dict = PARAMS, actions: list[int] = ()) -> ArdillasRules:
    """A rules kernel at the initial state, then `actions` applied (checked)."""
    rules = ArdillasRules(ArdillasParams(params), game_string=GAME_STRING)
    for a in actions:
        rules.py_apply(a)
    return rules


def play(rules: ArdillasRules, seed: int, decisions: int) -> ArdillasRules:
    """Seeded uniform play on `rules`: `decisions` player decisions, then
    chance up to the next decision."""
    rng, k = SplitMix64(seed), 0
    while (k < decisions or rules.py_current_player() < 0) and not rules.py_is_terminal():
        if rules.py_current_player() < 0:
            outcomes = rules.py_chance_outcomes()
            rules.py_apply(outcomes[rng.randint(len(outcomes))][0])
        else:
            legal = rules.py_legal_actions()
            rules.py_apply(legal[rng.randint(len(legal))])
            k += 1
    return rules


@pytest.mark.parametrize("module", ["resample", "render", "persist", "rules"])
def test_module_imports_alone_before_the_engine(module):
    assert_imports_alone(f"src_cy.ardillas_del_bosque.{module}", ("src_cy.ardillas_del_bosque.engine", "games"))


@pytest.mark.parametrize("params,seed", [(PARAMS, 1), (PARAMS, 2), (NIGHT, 3)])
def test_resampler_on_a_kernel_keeps_the_players_information(params, seed):
    rules = play(kernel(params), seed, 14)
    player = rules.py_current_player()
    assert player >= 0

    def replay(history: list[int]) -> ArdillasRules:
        world = kernel(params, history)
        persist.check_invariants(world)
        return world

    assert_resampler_keeps_information(
        rules, player, resample.sample_history, replay,
        [render.info_string, render.make_view, lambda w, p: w.py_legal_actions()])


def test_resampler_refuses_a_seat_out_of_range():
    with pytest.raises(ValueError, match="player"):
        resample.sample_history(kernel(), 3, 0)


def test_render_functions_on_a_kernel():
    rules = play(kernel(), 4, 6)
    assert render.action_to_string(rules, 0, 10) == "ant: take"
    assert render.action_to_string(rules, -1, 6) == "draw poo"
    assert render.KIND_NAMES[6] == "poo" and render.BOARD_NAMES[0] == "bear/wild_boar"
    info = render.info_string(rules, 0).splitlines()
    assert info[0].startswith("p0 hand=") and len(info) > 6
    view = render.make_view(rules, 1)
    assert view.player == 1 and view.phase in render.PHASE_NAMES
    full = render.make_view(rules, -1)
    assert all(t.kind is not None for pile in full.piles for t in pile)
    assert sum(t.kind is None for pile in view.piles for t in pile) > 0
    obs = np.zeros(render.obs_tensor_size(rules), np.float32)
    render.fill_obs_tensor(rules, 1, obs)
    info_t = np.zeros(render.info_tensor_size(rules), np.float32)
    render.fill_info_tensor(rules, 1, info_t)
    assert (info_t[:obs.size] == obs).all() and info_t[obs.size:].sum() == 2 * len(
        rules.py_history())
    codes = [render.step_code(rules, t, 1) for t in range(len(rules.py_history()))]
    assert all(0 <= c < 342 for c in codes) and 330 in codes    # others' draws unseen
    with pytest.raises(ValueError, match="player"):
        render.info_string(rules, 3)


def test_persist_functions_on_a_kernel():
    rules = play(kernel(), 5, 10)
    data = persist.dump(rules)
    assert data[:4] == persist.SNAP_MAGIC and data[4] == persist.SNAP_VERSION
    fresh = kernel()
    persist.load(fresh, data)
    assert fresh.py_history() == rules.py_history()
    assert render.obs_string(fresh, 2) == render.obs_string(rules, 2)
    before = fresh.py_history()
    with pytest.raises(ValueError, match="bytes"):
        persist.load(fresh, data[:-1])
    assert fresh.py_history() == before
    persist.check_invariants(fresh)


def test_the_engine_is_the_kernel_with_this_resampler():
    from src_cy.ardillas_del_bosque.engine import ArdillasEngine
    rules = play(kernel(), 6, 12)
    engine = ArdillasEngine(rules.params, game_string=GAME_STRING)
    for a in rules.py_history():
        engine.py_apply(a)
    player = engine.py_current_player()
    for s in range(5):
        assert engine.py_resample_history(player, s) == resample.sample_history(rules,
                                                                                player, s)
    assert engine.info_string(player) == render.info_string(rules, player)
    assert engine.dump() == persist.dump(rules)
    assert type(engine.py_clone()) is ArdillasEngine
    assert type(rules.py_clone()) is ArdillasRules
    assert engine.py_clone().info_string(player) == engine.info_string(player)


def test_the_kernel_alone_draws_no_world():
    """A bare ``ArdillasRules`` has no resampler: it draws nothing, and in
    particular never hands out the true history (contract, property 3)."""
    rules = play(kernel(), 3, 10)
    assert rules.py_history()
    assert rules.py_resample_history(0, 5) == []
