"""Ardillas del Bosque's MCCFR abstractions (games/ardillas_del_bosque/abstraction.py)."""
import random

import numpy as np
import pytest

import games  # noqa: F401  (registers the games)
from games.ardillas_del_bosque.abstraction import (_VIEWS, PILE_PHASES, ardillas_compact,
                                                  relative_piles)
from games.spec import get_spec
from games.testing import random_action
from solvers import abstractions
from solvers.bots import make_bot
from solvers.mccfr import MCCFRSolver
from src_cy.rng import SplitMix64

GAME = get_spec("ardillas_del_bosque").load("default")
ACTIONS = abstractions.get_action_abstraction("ardillas_actions", GAME)
COMPACT = abstractions.get_abstraction("ardillas_compact", GAME)


def _decisions(games_: int, seed: int):
    """(state, player) at every decision of games where each player picks a
    random abstract action half the time and the heuristic's otherwise."""
    rng, chance = random.Random(seed), SplitMix64(seed)
    for _ in range(games_):
        state = GAME.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(random_action(state, chance))
                continue
            p = state.current_player()
            yield state.clone(), p
            pairs = ACTIONS.actions(p, state.engine, sorted(state.legal_actions()))
            state.apply_action(rng.choice(pairs)[1] if rng.random() < 0.5 else pairs[0][1])


def test_spec_names_the_abstractions():
    assert COMPACT is ardillas_compact
    assert COMPACT.uses_engine and ACTIONS.uses_engine
    assert ACTIONS.action_names[:2] == ("heuristic", "take")
    assert len(set(ACTIONS.action_names)) == len(ACTIONS.action_names)


def test_unknown_names_raise_value_error():
    with pytest.raises(ValueError, match="unknown abstraction 'ardillas_nope'"):
        abstractions.get_abstraction("ardillas_nope", GAME)
    with pytest.raises(ValueError, match="unknown action abstraction 'ardillas_nope'"):
        abstractions.get_action_abstraction("ardillas_nope", GAME)
    with pytest.raises(ValueError, match="ardillas_nope"):
        MCCFRSolver(GAME, scheme="outcome", seed=0, abstraction="ardillas_compact",
                    action_abstraction="ardillas_nope")


def test_abstract_actions_are_distinct_legal_moves_and_heuristic_is_the_bots():
    bot = make_bot("heuristic", GAME)
    kinds = set()
    for state, p in _decisions(12, 1):
        legal = sorted(state.legal_actions())
        pairs = ACTIONS.actions(p, state.engine, legal)
        ids = [k for k, _ in pairs]
        moves = [a for _, a in pairs]
        assert ids == sorted(set(ids)) and ids[0] == 0
        assert len(set(moves)) == len(moves) and set(moves) <= set(legal)
        assert moves[0] == bot.step(state)
        phase = state.engine.player_view(p).phase
        if phase not in PILE_PHASES:
            assert ids == [0]
        else:
            kinds.add(phase)
            if phase == "autumn-place":      # every hiding place is named (pile+k)
                assert set(moves) == set(legal)
    assert {"autumn-place", "winter-draw"} <= kinds


def test_autumn_piles_are_relative_to_the_player():
    seen = set()
    for state, p in _decisions(6, 2):
        view = state.engine.player_view(p)
        order = relative_piles(view)
        assert sorted(order) == list(range(len(view.piles)))
        assert order[0] == p * (len(view.piles) // len(view.board_animals))
        if view.phase == "autumn-place":
            pairs = dict(ACTIONS.actions(p, state.engine, sorted(state.legal_actions())))
            for k, h in enumerate(order):
                if 2 + k in pairs:
                    assert pairs[2 + k] == h
            seen.add(p)
    assert seen == {0, 1}


def test_buckets_and_actions_read_only_the_players_information():
    """A resampled world (same information state) gives the same row and moves
    (the view cache is emptied before each, so each world's own view is read)."""
    checked = 0
    for i, (state, p) in enumerate(_decisions(4, 3)):
        if i % 3:
            continue
        _VIEWS.clear()
        row = abstractions.abstract_row(p, state.engine, None, sorted(state.legal_actions()),
                                        COMPACT, ACTIONS)
        for seed in range(2):
            world = state.resample(p, 100 * i + seed)
            assert world.information_state_string(p) == state.information_state_string(p)
            _VIEWS.clear()
            assert abstractions.abstract_row(p, world.engine, None,
                                             sorted(world.legal_actions()),
                                             COMPACT, ACTIONS) == row
            checked += 1
    assert checked > 40


def test_draws_abstraction_chooses_only_the_winter_draw():
    draws = abstractions.get_action_abstraction("ardillas_draws", GAME)
    chosen = set()
    for state, p in _decisions(6, 4):
        legal = sorted(state.legal_actions())
        full = ACTIONS.actions(p, state.engine, legal)
        pairs = draws.actions(p, state.engine, legal)
        phase = state.engine.player_view(p).phase
        if phase == "winter-draw":
            assert pairs == full             # the same top-<class> actions
            chosen.add(len(pairs) > 1)
        else:
            assert pairs == full[:1]         # the heuristic's move alone
    assert chosen == {False, True}


def _solve(mode: str, scheme: str, action_abstraction: str, seed: int) -> tuple:
    s = MCCFRSolver(GAME, scheme=scheme, seed=seed, abstraction="ardillas_compact",
                    action_abstraction=action_abstraction,
                    fixed_opponents="heuristic" if mode == "response" else None)
    s.run(8 if scheme == "external" else 30)
    pol = s.greedy_policy("default") if mode == "response" else s.average_policy("default")
    return pol.table.strings, pol.table.probs


@pytest.mark.parametrize("mode,scheme,action_abstraction", [
    ("self-play", "external", "ardillas_draws"), ("response", "external", "ardillas_draws"),
    ("self-play", "outcome", "ardillas_actions")])
def test_short_default_preset_solve_is_seed_deterministic(mode, scheme, action_abstraction):
    strings, probs = _solve(mode, scheme, action_abstraction, 5)
    again_strings, again_probs = _solve(mode, scheme, action_abstraction, 5)
    assert strings == again_strings and np.array_equal(probs, again_probs)
    assert len(strings) > 5
    other_strings, other_probs = _solve(mode, scheme, action_abstraction, 6)
    assert other_strings != strings or not np.array_equal(other_probs, probs)


def test_table_entry_names_the_spec_abstractions():
    from solvers.policy_tables import for_preset
    table = get_spec("ardillas_del_bosque").table()
    assert table.presets == ("mini", "default")
    assert not for_preset(table, "mini").extra.get("action_abstraction")   # mini: raw MCCFR
    entry = for_preset(table, "default")
    assert abstractions.get_abstraction(entry.extra["abstraction"], GAME) is COMPACT
    assert abstractions.get_action_abstraction(entry.extra["action_abstraction"],
                                               GAME).name == "ardillas_draws"
    state = GAME.new_initial_state()
    while state.is_chance_node() or state.is_terminal():
        state.apply_action(state.chance_outcomes()[0][0])
    row = entry.extra["abstract_features"](state, state.current_player())
    assert set(row) == set(entry.extra["abstract_feature_doc"])
    with pytest.raises(ValueError, match="no_such"):
        entry.load("no_such")


def test_policy_file_plays_as_the_cfr_bot(tmp_path):
    from solvers import policy_io
    s = MCCFRSolver(GAME, scheme="external", seed=0, abstraction="ardillas_compact",
                    action_abstraction="ardillas_draws", fixed_opponents="heuristic")
    s.run(4)
    path = tmp_path / "ardillas.npz"
    policy_io.save_array_policy(path, s.greedy_policy("default"), solver="ES-MCCFR",
                                iterations=4, seed=0)
    bot = make_bot("cfr", GAME, policy_file=str(path), fallback="default", seed=1)
    chance = SplitMix64(2)
    state = GAME.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(random_action(state, chance))
        else:
            state.apply_action(bot.step(state))
    assert sorted(state.returns()) == [-1.0, 1.0] or state.returns() == [0.0, 0.0]
