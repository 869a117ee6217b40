"""ISMCTS progressive widening (generic) and Saboteur's rollout cut-off with
a leaf evaluation: fast and slow paths identical, the rules they promise,
bad input refused."""
import math
import random

import pyspiel
import pytest

import games  # noqa: F401
from games.saboteur.search import SaboteurEvalRollout, maze_distance
from games.spec import find_spec
from solvers import ismcts as I
from src_cy.saboteur.rollout import (EVAL_WEIGHTS, SaboteurRollout, py_leaf_features,
                                     py_leaf_values, py_maze_distance)
import testgames

testgames.register()


def _random_position(name: str, params: dict, seed: int, moves: int) -> pyspiel.State:
    state = pyspiel.load_game(name, params).new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal() and (state.is_chance_node() or state.move_number() < moves):
        if state.is_chance_node():
            outs = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outs], [p for _, p in outs])[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def _sab(players: int, seed: int, moves: int = 30) -> pyspiel.State:
    return _random_position("saboteur", {"players": players, "rounds": 1, "deck_scale": 50},
                            seed, 3 * players + moves + seed)


# ------------------------------------------------------------ progressive widening
@pytest.mark.parametrize("widening", [(1.0, 0.5), (2.0, 0.3), (0.5, 1.0)])
@pytest.mark.parametrize("multi_observer", [True, False])
def test_widening_identical_on_both_paths_test_engine(widening, multi_observer):
    state = pyspiel.load_game("ismcts_test_tictactoe").new_initial_state()
    state.apply_action(4)
    kw = dict(max_simulations=1500, seed=3, widening=widening, multi_observer=multi_observer)
    fast = I.fast_search(state.engine, 1, **kw)
    slow = I.slow_search(state, 1, **kw)
    assert fast == slow
    assert fast != I.fast_search(state.engine, 1, max_simulations=1500, seed=3,
                                 multi_observer=multi_observer)


@pytest.mark.parametrize("players,seed", [(3, 1), (5, 2)])
def test_widening_identical_on_both_paths_saboteur(players, seed):
    state = _sab(players, seed)
    p = state.current_player()
    fast_policy = I._resolve_rollout("saboteur", "heuristic", True)
    slow_policy = I._resolve_rollout("saboteur", "heuristic", False)
    for depth in (0, 1):
        kw = dict(max_simulations=120, seed=seed, widening=(1.0, 0.5), max_depth=depth)
        fast = I.fast_search(state.engine, p, rollout=fast_policy, **kw)
        assert fast == I.slow_search(state, p, rollout=slow_policy, **kw)


@pytest.mark.parametrize("c,alpha,sims", [(1.0, 0.5, 16), (2.0, 0.5, 25), (1.0, 0.0, 40)])
def test_widening_bounds_the_root_actions_tried(c, alpha, sims):
    """Flat search: the root (visited ``sims`` times) tries at most
    ``max(1, floor(c * sims ** alpha))`` actions; without widening, more."""
    state = _sab(5, 4)
    p = state.current_player()
    kw = dict(max_simulations=sims, seed=1, max_depth=1)
    wide = I.fast_search(state.engine, p, widening=(c, alpha), **kw)
    tried = sum(1 for v in wide.visits if v > 0)
    assert 1 <= tried <= max(1, math.floor(c * sims ** alpha))
    plain = I.fast_search(state.engine, p, **kw)
    assert sum(1 for v in plain.visits if v > 0) > tried


def test_widening_ranks_by_the_rollout_policy():
    """With alpha = 0 only one root action is ever ranked: the rollout
    policy's choice, drawn after the world (so on a deterministic choice it
    is the policy's move)."""
    state = _sab(3, 6)
    p = state.current_player()
    policy = I._resolve_rollout("saboteur", "heuristic", True)
    stats = I.fast_search(state.engine, p, max_simulations=30, seed=2, max_depth=1,
                          widening=(1.0, 0.0), rollout=policy)
    tried = [a for a, v in zip(stats.actions, stats.visits) if v > 0]
    assert len(tried) == 1 and tried[0] in state.legal_actions()


@pytest.mark.parametrize("bad", [(0.0, 0.5), (-1.0, 0.5), (1.0, 1.5), (1.0, -0.1),
                                 (math.inf, 0.5), (1.0,), "wide", 3])
def test_bad_widening_is_refused(bad):
    state = _sab(3, 1)
    p = state.current_player()
    game = state.get_game()
    with pytest.raises(ValueError, match="widening"):
        I.fast_search(state.engine, p, max_simulations=5, widening=bad)
    with pytest.raises(ValueError, match="widening"):
        I.slow_search(state, p, max_simulations=5, widening=bad)
    with pytest.raises(ValueError, match="widening"):
        I.ISMCTSBot(game, widening=bad)


# ------------------------------------------------------------ Saboteur leaf evaluation
@pytest.mark.parametrize("players,seed", [(3, 1), (3, 5), (5, 2), (5, 7), (4, 3)])
def test_cython_maze_distance_is_the_python_one(players, seed):
    for moves in (0, 15, 40, 80):
        state = _sab(players, seed, moves)
        if state.is_terminal():
            continue
        view = state.engine.player_view(0)
        gx = int(view["goal_distance"])
        for mask in range(1, 8):
            targets = [g for g in range(3) if (mask >> g) & 1]
            assert py_maze_distance(state.engine, mask) == maze_distance(
                view["board"], gx, targets, view["goals_up"]), (moves, mask)


def test_leaf_values_follow_the_roles_and_the_returns_units():
    for players, seed in ((5, 3), (3, 4), (4, 8)):
        state = _sab(players, seed)
        e = state.engine
        view = e.state_view()
        role = view["roles"]
        values = py_leaf_values(e)
        f = py_leaf_features(e)
        treasure = view["goals"].index(0)
        assert f[1] == pytest.approx(min(py_maze_distance(e, 1 << treasure), 20) / 10)
        assert f[5] == pytest.approx(sum(role) / players)
        pd = 1 / (1 + math.exp(-sum(w * x for w, x in zip(EVAL_WEIGHTS, f))))
        pool = view["gold_pool"]
        pile = (pool[0] + 2 * pool[1] + 3 * pool[2]) / sum(pool)
        pay = {0: 0, 1: 4, 2: 3, 3: 3, 4: 2}[sum(role)]
        lo, hi = state.get_game().min_utility(), state.get_game().max_utility()
        for p, v in enumerate(values):
            assert lo <= v <= hi
            assert v == pytest.approx((1 - pd) * pay if role[p] else pd * pile)


def test_leaf_values_only_during_play():
    state = _sab(3, 2)
    assert py_leaf_values(state.engine) is not None
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0] if not state.is_chance_node()
                           else state.chance_outcomes()[0][0])
    assert py_leaf_values(state.engine) is None


@pytest.mark.parametrize("players,seed,cutoff", [(3, 1, 1), (3, 5, 6), (5, 2, 4), (5, 7, 10)])
def test_rollout_cutoff_identical_on_both_paths(players, seed, cutoff):
    state = _sab(players, seed)
    p = state.current_player()
    fast_policy = I._resolve_rollout("saboteur", "heuristic", True, cutoff)
    slow_policy = I._resolve_rollout("saboteur", "heuristic", False, cutoff)
    assert isinstance(fast_policy, SaboteurRollout) and fast_policy.cutoff == cutoff
    assert isinstance(slow_policy, SaboteurEvalRollout)
    for depth in (0, 1):
        kw = dict(max_simulations=150, seed=seed, max_depth=depth)
        fast = I.fast_search(state.engine, p, rollout=fast_policy, **kw)
        assert fast == I.slow_search(state, p, rollout=slow_policy, **kw)
        full = I.fast_search(state.engine, p,
                             rollout=I._resolve_rollout("saboteur", "heuristic", True), **kw)
        assert fast != full                                  # the cut-off matters
        # Evaluated leaves give fractional returns; played-out ones whole gold.
        assert any(v != int(v) for v in fast.values)


def test_bot_with_cutoff_and_widening_plays_identically_on_both_paths():
    state = _sab(5, 9)
    game = state.get_game()
    opts = dict(max_simulations=80, seed=4, rollout="heuristic", rollout_cutoff=8,
                widening=(2.0, 0.5), max_depth=1, root_candidates="game")
    fast = I.ISMCTSBot(game, **opts)
    slow = I.ISMCTSBot(game, use_engine=False, **opts)
    assert fast.step(state) == slow.step(state)
    assert fast.last_stats == slow.last_stats


def test_bad_cutoff_is_refused():
    game = pyspiel.load_game("saboteur", {"players": 3})
    with pytest.raises(ValueError, match="rollout_cutoff"):
        I.ISMCTSBot(game, rollout="random", rollout_cutoff=5)
    with pytest.raises(ValueError, match="rollout_cutoff"):
        I.ISMCTSBot(game, rollout="heuristic", rollout_cutoff=-1)
    with pytest.raises(ValueError, match="cutoff"):
        SaboteurRollout(-2)
    with pytest.raises(ValueError, match="cutoff"):
        SaboteurEvalRollout(0)
    tgame = pyspiel.load_game("gold_thief")
    bot = I.ISMCTSBot(tgame, rollout="heuristic", rollout_cutoff=3, max_simulations=5)
    state = tgame.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    with pytest.raises(ValueError, match="no leaf evaluation"):
        bot.step(state)


def test_cutoff_support_is_read_from_the_signature():
    """Whether a rollout factory takes ``cutoff`` comes from its signature, so
    a TypeError raised inside a factory that does take it is not reported as
    "no leaf evaluation"."""
    def with_cutoff(cutoff=0):
        raise TypeError("a bug inside the factory")

    def without():
        return None

    def any_keyword(**options):
        return options

    assert I._accepts_keyword(with_cutoff, "cutoff")
    assert I._accepts_keyword(any_keyword, "cutoff")
    assert not I._accepts_keyword(without, "cutoff")
    spec = find_spec("saboteur")
    assert I._accepts_keyword(spec.rollout, "cutoff")
    assert I._accepts_keyword(spec.slow_rollout, "cutoff")
