"""Gold Nugget chained resampling (docs/rules/gold_nugget.md, "Resampling"):
a world drawn with the last world of the same information set at hand is
that world moved by a few corrector steps.  The steps keep the exact
posterior, chained worlds stay in the information set, the sequence is
deterministic, and the pyspiel adapter chains only while the player's
information set is unchanged."""
from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pyspiel
import pytest

import games  # noqa: F401
import games.gold_nugget as gn
from games import testing
from src_cy.gold_nugget.engine import (RESAMPLE_CHAIN_DEFAULT, resample_stats,
                                       set_resample_chain, set_resample_exact_budget)
from src_cy.ismcts import search
from tests.games.gold_nugget.test_gold_nugget_resample import _weighted_information_sets


@pytest.fixture
def chain():
    """Restore chaining's and the exact stage's settings after a test."""
    old = set_resample_chain()
    old_exact = set_resample_exact_budget(-1)
    yield
    set_resample_chain(*old)
    set_resample_exact_budget(old_exact)


def _decision_states(players: int, seed: int, count: int) -> list[pyspiel.State]:
    """``count`` decision states spread along a seeded random game."""
    game = pyspiel.load_game("gold_nugget", {"players": players})
    states = [s for s in testing.random_states(game, 1, seed=seed)
              if not s.is_terminal() and not s.is_chance_node() and len(s.history()) > 10]
    return states[::max(1, len(states) // count)][:count]


def search_root_stats(state: pyspiel.State, player: int, slow_path: bool, **kw) -> tuple:
    """(actions, visits, values) of ``solvers.ismcts``'s search for
    ``player`` at ``state``: the slow path on the pyspiel state, else the
    fast one on its engine (the chaining tests of every game use it)."""
    from solvers.ismcts import fast_search, slow_search
    r = slow_search(state, player, **kw) if slow_path else fast_search(state.engine, player, **kw)
    return r.actions, r.visits, r.values


def _delta(before: dict, after: dict, *names: str) -> dict:
    return {k: after[k] - before[k] for k in names}


def test_chain_settings_are_checked(chain) -> None:
    """Bad chain settings name the setting and change nothing; a good one
    returns the previous setting."""
    before = set_resample_chain()
    assert before == (RESAMPLE_CHAIN_DEFAULT["steps"], RESAMPLE_CHAIN_DEFAULT["refresh"])
    for kwargs, name in [({"steps": -1}, "steps"), ({"refresh": -0.01}, "refresh"),
                         ({"refresh": 1.5}, "refresh"), ({"steps": 1 << 30}, "steps")]:
        with pytest.raises(ValueError, match=name):
            set_resample_chain(**kwargs)
    assert set_resample_chain() == before
    assert set_resample_chain(7, 0.5) == before
    assert set_resample_chain() == (7, 0.5)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_chained_worlds_stay_in_the_information_set(chain, players: int) -> None:
    """Along random games, every world of a chain replays to a state with
    the player's info key and the true player to move; the worlds are
    chained (not redrawn), and no chain fails."""
    before = resample_stats()
    draws = 0
    for state in _decision_states(players, 11 + players, 4):
        p = state.current_player()
        key = state.engine.py_info_key(p)
        prev = None
        for i in range(12):
            h = state.engine.py_resample_history_from(p, 1000 * players + i, prev)
            world = state.get_game().new_initial_state()
            for a in h:
                world.apply_action(a)
            assert world.engine.py_info_key(p) == key
            assert world.current_player() == p
            prev = h
            draws += 1
    d = _delta(before, resample_stats(), "calls", "chained", "chain_fails", "chain_fresh")
    assert d["calls"] == draws
    assert d["chain_fails"] == 0
    assert d["chained"] + d["chain_fresh"] == draws - draws // 12


def test_chained_sequence_is_deterministic(chain) -> None:
    """Same seeds and same start: the same chained sequence; and a search
    (which chains its worlds) gives the same statistics twice."""
    state = _decision_states(3, 5, 3)[1]
    p = state.current_player()

    def sequence() -> list:
        prev, out = None, []
        for i in range(20):
            prev = state.engine.py_resample_history_from(p, 77 + i, prev)
            out.append(tuple(prev))
        return out
    first = sequence()
    assert first == sequence()
    assert len(set(first)) > 1
    runs = [search(state.engine, p, max_simulations=60, seed=9) for _ in range(2)]
    assert runs[0] == runs[1] and runs[0]["inconsistent_worlds"] == 0


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_chained_world_is_its_history_replayed(chain, players: int) -> None:
    """A chained world drawn into a kept engine (partly rebuilt from the
    last world's replay, or not replayed when it did not move) is exactly
    the replay of its history: every player's information key, info string,
    observation and info tensor, the full state's text, and a world drawn
    from it for another player (which reads its event log and who took
    each action)."""
    game = pyspiel.load_game("gold_nugget", {"players": players})
    moved = kept = 0
    for state in _decision_states(players, 7 + players, 3):
        p = state.current_player()
        q = (p + 1) % players
        world = state.engine.py_clone()
        last = None
        for i in range(10):
            state.engine.py_resample_into(world, p, 500 * players + i, chain=i > 0)
            h = world.py_history()
            moved, kept = moved + (h != last), kept + (h == last)
            last = h
            ref = game.new_initial_state()
            for a in h:
                ref.apply_action(a)
            e = ref.engine
            assert world.render() == e.render()
            for r in range(players):
                assert world.py_info_key(r) == e.py_info_key(r)
                assert world.info_string(r) == e.info_string(r)
                assert world.obs_string(r) == e.obs_string(r)
                assert ref.information_state_tensor(r) == \
                    pytest.approx(_info_tensor(world, e.info_tensor_size(), r))
            assert world.py_resample_history(q, i) == e.py_resample_history(q, i)
    assert moved > 3 and kept > 3


def _info_tensor(engine, size: int, player: int) -> list:
    out = np.zeros(size, dtype=np.float32)
    engine.fill_info_tensor(player, out)
    return out.tolist()


def test_chaining_off_draws_fresh_worlds(chain) -> None:
    """steps = 0: ``prev`` is ignored, the draws are the fresh ones."""
    state = _decision_states(2, 3, 2)[1]
    p = state.current_player()
    prev = state.engine.py_resample_history(p, 1)
    set_resample_chain(0)
    before = resample_stats()
    assert [state.engine.py_resample_history_from(p, s, prev) for s in range(5)] == \
        [state.engine.py_resample_history(p, s) for s in range(5)]
    assert resample_stats()["chained"] == before["chained"]


@pytest.mark.parametrize("game_string", ["saboteur", "ardillas_del_bosque"])
def test_other_engines_ignore_prev(game_string: str) -> None:
    """Engines without a chain draw exactly as before whatever ``prev`` is,
    so their searches are unchanged by chaining (Gold Thief chains too:
    tests/games/gold_thief/test_gold_thief_chain.py)."""
    game = pyspiel.load_game(game_string)
    states = [s for s in testing.random_states(game, 1, seed=2)
              if not s.is_terminal() and not s.is_chance_node()]
    state = states[len(states) // 2]
    p = state.current_player()
    prev = state.engine.py_resample_history(p, 5)
    for seed in range(4):
        assert state.engine.py_resample_history_from(p, seed, prev) == \
            state.engine.py_resample_history(p, seed)


def _chained_from_exact(state: pyspiel.State, p: int, n: int, seed: int,
                        start: list | None = None) -> Counter:
    """``n`` independent one-step chains: each starts from an exact draw
    (or from ``start`` when given) and is moved by one chained resample with
    the exact stage off; the resulting histories, counted."""
    rng = random.Random(seed)
    out: Counter = Counter()
    for _ in range(n):
        set_resample_exact_budget(-1)
        prev = start if start is not None else \
            state.engine.py_resample_history(p, rng.getrandbits(62))
        set_resample_exact_budget(0)
        out[tuple(state.engine.py_resample_history_from(p, rng.getrandbits(62), prev))] += 1
    return out


@pytest.mark.slow
def test_chain_keeps_the_exact_posterior(chain, stat_seed) -> None:
    """Stationarity: worlds drawn exactly (the exact stage on the mini
    variant's weighted information sets) and then moved by one chained
    resample at the default steps, no refresh, still follow the exact
    posterior (chi-square); the chain does move them; and the same check
    refuses chains all started from one world (the test has power)."""
    set_resample_chain(RESAMPLE_CHAIN_DEFAULT["steps"], 0.0)
    sets = _weighted_information_sets()
    assert len(sets) >= 20
    n = 600
    before = resample_stats()
    for state, p, exact in sets:
        seen = _chained_from_exact(state, p, n, stat_seed(41))
        assert set(seen) <= set(exact)
        assert testing.exact_chisquare_pvalue(seen, exact, n) > 1e-4
    d = _delta(before, resample_stats(), "chained", "chain_fails", "mcmc_moves")
    assert d["chained"] == n * len(sets) and d["chain_fails"] == 0
    assert d["mcmc_moves"] > n
    worst = 1.0
    for state, p, exact in sets:
        start = list(min(exact, key=lambda h: exact[h]))
        worst = min(worst, testing.exact_chisquare_pvalue(
            _chained_from_exact(state, p, n, stat_seed(43), start), exact, n))
    assert worst < 1e-6


def _advance_until_key_changes(state: pyspiel.State, p: int, rng: random.Random) -> None:
    """Play random actions until ``p``'s information set changes."""
    key = (state.engine.py_info_key(p), state.current_player())
    while (state.engine.py_info_key(p), state.current_player()) == key:
        assert not state.is_terminal()
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def test_adapter_chains_while_the_information_set_is_unchanged(chain) -> None:
    """``resample_from_infostate`` chains successive worlds on one state for
    one player, starts afresh once that player's information set changed
    (and for another player), and the seeded ``resample`` stays fresh."""
    state = _decision_states(3, 21, 3)[1]
    p = state.current_player()
    rng = random.Random(3)
    before = resample_stats()
    worlds = [state.resample_from_infostate(p, rng.random) for _ in range(6)]
    d = _delta(before, resample_stats(), "chained", "chain_fresh")
    assert d["chained"] + d["chain_fresh"] == 5
    key = state.engine.py_info_key(p)
    assert all(w.engine.py_info_key(p) == key for w in worlds)
    q = (p + 1) % 3
    before = resample_stats()
    state.resample_from_infostate(q, rng.random)
    assert resample_stats()["chained"] == before["chained"]
    _advance_until_key_changes(state, p, rng)
    before = resample_stats()
    state.resample_from_infostate(p, rng.random)
    assert resample_stats()["chained"] == before["chained"]
    state.resample_from_infostate(p, rng.random)
    assert resample_stats()["chained"] + resample_stats()["chain_fresh"] == \
        before["chained"] + before["chain_fresh"] + 1
    assert state.resample(p, 12345).history() == state.resample(p, 12345).history()


def test_small_games_keep_exact_fresh_draws(chain) -> None:
    """Where the exact stage runs (mini), ``prev`` changes nothing: every
    world is an exact fresh draw."""
    game = gn.SPEC.load("mini")
    state = [s for s in testing.random_states(game, 1, seed=4)
             if not s.is_terminal() and not s.is_chance_node()][6]
    p = state.current_player()
    prev = state.engine.py_resample_history(p, 0)
    before = resample_stats()
    assert [state.engine.py_resample_history_from(p, s, prev) for s in range(6)] == \
        [state.engine.py_resample_history(p, s) for s in range(6)]
    d = _delta(before, resample_stats(), "chained", "exact", "calls")
    assert d["chained"] == 0 and d["exact"] == d["calls"] == 12


@pytest.mark.parametrize("slow_path", [False, True], ids=["fast", "slow"])
def test_a_world_pool_is_independent_fresh_draws(chain, slow_path: bool) -> None:
    """A ``cached_worlds`` pool is never chained: the same search with
    chaining on and off gives the same statistics (so ``best``, which
    searches a pool, plays as it was measured), and no world is chained.
    Without a pool, chaining changes the worlds and so the search."""
    state = _decision_states(2, 7, 3)[1]
    p = state.current_player()

    def stats(**kw) -> tuple:
        return search_root_stats(state, p, slow_path, max_simulations=40, seed=4, **kw)
    before = resample_stats()["chained"]
    pooled = stats(cached_worlds=6)
    assert resample_stats()["chained"] == before
    per_sim = stats()
    assert resample_stats()["chained"] > before
    set_resample_chain(0)
    assert stats(cached_worlds=6) == pooled
    assert stats() != per_sim
