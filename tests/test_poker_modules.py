"""The Kuhn and Leduc poker engine modules, each alone: the rules kernels
(``src_cy.poker.rules``), the resamplers (``resample``), the rendering
(``render``) and the snapshot (``persist``), without the engine classes."""
from __future__ import annotations

import numpy as np
import pytest

from cymodules import assert_imports_alone, assert_resampler_keeps_information
from src_cy.poker import persist, render, resample
from src_cy.poker.rules import KuhnRules, LeducRules, PokerParams


def kuhn(actions=(), players: int = 3) -> KuhnRules:
    """A Kuhn kernel with `actions` applied (checked)."""
    rules = KuhnRules({"players": players})
    for a in actions:
        rules.py_apply(a)
    return rules


def leduc(actions=(), players: int = 2) -> LeducRules:
    """A Leduc kernel with `actions` applied (checked)."""
    rules = LeducRules(PokerParams({"players": players}))
    for a in actions:
        rules.py_apply(a)
    return rules


# Kuhn 3p: cards 0, 2, 3 dealt, then pass, bet; Leduc 2p: cards 0, 3, call,
# raise, call, public card 5, call (bench_search's Leduc position and on).
KUHN = (0, 2, 3, 0, 1)
LEDUC = (0, 3, 1, 2, 1, 5, 1)


@pytest.mark.parametrize("module", ["resample", "render", "persist", "rules"])
def test_module_imports_alone_before_the_engine(module):
    assert_imports_alone(f"src_cy.poker.{module}", ("src_cy.poker.engine", "games"))


@pytest.mark.parametrize("make,actions,player",
                         [(kuhn, KUHN, 1), (kuhn, KUHN[:3], 0), (leduc, LEDUC, 1),
                          (leduc, LEDUC[:4], 0)])
def test_resampler_on_a_kernel_keeps_the_players_information(make, actions, player):
    rules = make(actions)
    info = render.kuhn_info_string if make is kuhn else render.leduc_info_string
    for drawn in assert_resampler_keeps_information(rules, player, resample.sample_history,
                                                    make, [info], range(16)):
        assert drawn[player] == actions[player] and len(drawn) == len(actions)  # own card


def test_resampler_refuses_other_states_and_seats():
    with pytest.raises(ValueError, match="player"):
        resample.sample_history(kuhn(KUHN), 3, 0)
    from src_cy.ardillas_del_bosque.rules import ArdillasRules
    ard = ArdillasRules({"players": 2, "sleepyheads": 0, "hiding_places": 1, "night": False,
                         "king": -1, "little_squirrels": False, "nuts": 1, "boards": (),
                         "max_len": 100})
    with pytest.raises(TypeError, match="poker"):
        resample.sample_history(ard, 0, 0)


def test_render_functions_on_kernels():
    k, d = kuhn(KUHN), leduc(LEDUC)
    assert render.kuhn_info_string(k, 1) == "2pb"
    assert render.kuhn_action_to_string(k, -1, 3) == "Deal:3"
    assert render.leduc_betting(d, 1) == [1, 2, 1] and render.leduc_betting(d, 2) == [1]
    assert "[Public: 5]" in render.leduc_info_string(d, 0)
    assert render.leduc_action_to_string(d, 0, 2) == "Raise"
    for rules, size, fill in [(k, render.kuhn_info_tensor_size, render.kuhn_fill_info_tensor),
                              (d, render.leduc_info_tensor_size, render.leduc_fill_info_tensor)]:
        out = np.zeros(size(rules), np.float32)
        fill(rules, 1, out)
        assert out[1] == 1 and out[0] == 0
    with pytest.raises(ValueError, match="player"):
        render.kuhn_obs_string(k, 3)


def test_persist_functions_on_kernels():
    for make, actions, dump, check in [
            (kuhn, KUHN, persist.kuhn_dump, persist.kuhn_check_invariants),
            (leduc, LEDUC, persist.leduc_dump, persist.leduc_check_invariants)]:
        rules = make(actions)
        data = dump(rules)
        assert data[:4] == persist.POKER_SNAP_MAGIC
        fresh = make()
        persist.history_load(fresh, fresh.num_players, "x", data)
        assert fresh.py_history() == list(actions)
        assert type(fresh) is type(rules)
        check(fresh)
        with pytest.raises(ValueError, match="length"):
            persist.history_load(fresh, fresh.num_players, "x", data[:-1])
        assert fresh.py_history() == list(actions)


def test_the_engines_are_the_kernels_with_these_resamplers():
    from src_cy.poker.engine import KuhnEngine, LeducEngine
    for engine_class, make, actions, player in [(KuhnEngine, kuhn, KUHN, 1),
                                                (LeducEngine, leduc, LEDUC, 1)]:
        rules = make(actions)
        engine = engine_class(rules.params)
        for a in actions:
            engine.py_apply(a)
        for s in range(5):
            assert engine.py_resample_history(player, s) == resample.sample_history(
                rules, player, s)
        assert engine.info_string(player) == (render.kuhn_info_string if make is kuhn
                                              else render.leduc_info_string)(rules, player)
        assert type(engine.py_clone()) is engine_class
        assert type(rules.py_clone()) is type(rules)


def test_the_kernels_alone_draw_no_world():
    """A bare ``KuhnRules`` / ``LeducRules`` has no resampler: it draws
    nothing, and in particular never hands out the true history."""
    for rules in (kuhn(KUHN), leduc(LEDUC)):
        assert rules.py_history()
        assert rules.py_resample_history(0, 5) == []
