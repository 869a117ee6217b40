"""Gold Thief chained resampling (docs/rules/gold_thief.md, "Chaining"): a
stage-2 world drawn with the last world of the same information set at hand
is that world moved by independence Metropolis-Hastings steps on the
extended space of (model path, history).  The chain keeps the exact
posterior (an always-accepting mutant does not), chained worlds stay in the
information set, the sequence is deterministic, fresh draws, pools and
stage 1 are unchanged, and the pyspiel adapter chains only while the
player's information set is unchanged."""
from __future__ import annotations

import math
import random
from collections import Counter

import pyspiel
import pytest

import games  # noqa: F401
from games.gold_thief import MINI_PARAMS
from games.testing import exact_chisquare_pvalue, random_states
from src_cy.engine import clock
from src_cy.gold_thief import engine as gt
from src_cy.gold_thief.resample import _set_chain_accept_all
from src_cy.ismcts import search
from tests.games.gold_nugget.test_gold_nugget_chain import (_advance_until_key_changes,
                                                            search_root_stats)
from tests.games.gold_thief.test_gold_thief_resampling import _information_sets


@pytest.fixture
def chain():
    """Restore chaining's settings, the stage attempts and K after a test."""
    old = gt.set_resample_chain()
    old_attempts = gt.set_resample_attempts(16, 500)
    old_k = gt.set_model_proposals(gt.DEFAULT_MODEL_PROPOSALS)
    yield
    gt.set_resample_chain(*old)
    gt.set_resample_attempts(*old_attempts)
    gt.set_model_proposals(old_k)
    _set_chain_accept_all(False)


def _delta(before: dict, *names: str) -> dict:
    after = gt.resample_stats()
    return {k: after[k] - before[k] for k in names}


def _decision_states(players: int, seed: int, count: int, min_len: int = 40) -> list:
    """``count`` decision states of a default game with ``players`` players,
    spread along seeded random games, past stage 1's range for the player
    to move (more than ``EXACT_MAX_PLAYS`` public plays by the others)."""
    game = pyspiel.load_game("gold_thief", {"players": players})
    out = []
    for s in random_states(game, 3, seed=seed, every=5):
        if s.is_terminal() or s.is_chance_node() or len(s.history()) < min_len:
            continue
        p = s.current_player()
        plays = sum(1 for k, a, _, _ in s.engine.visible_events(p) if k == 4 and a != p)
        if plays > gt.EXACT_MAX_PLAYS:
            out.append(s)
    return out[::max(1, len(out) // count)][:count]


def _chain_of(state: pyspiel.State, p: int, n: int, seed: int, prev=None) -> list:
    """``n`` successive worlds of one chain (each from the last), as histories."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        prev = state.engine.py_resample_history_from(p, rng.getrandbits(62), prev)
        out.append(tuple(prev))
    return out


def test_chain_settings_are_checked(chain) -> None:
    """Bad settings raise ValueError naming the setting and its range and
    change nothing; a good one returns the previous setting."""
    before = gt.set_resample_chain()
    assert before == (gt.RESAMPLE_CHAIN_DEFAULT["steps"], gt.RESAMPLE_CHAIN_DEFAULT["refresh"])
    for kwargs, message in [({"steps": -1}, r"steps must be an int in \[0, 1000000\]"),
                            ({"steps": 1 << 30}, "steps must be an int in"),
                            ({"steps": 2.5}, "steps must be an int in"),
                            ({"steps": True}, "steps must be an int in"),
                            ({"refresh": -0.01}, r"refresh must be a number in \[0, 1\]"),
                            ({"refresh": 1.5}, "refresh must be a number in"),
                            ({"refresh": math.nan}, "refresh must be a number in"),
                            ({"refresh": "0.5"}, "refresh must be a number in")]:
        with pytest.raises(ValueError, match=message):
            gt.set_resample_chain(**kwargs)
    assert gt.set_resample_chain() == before
    assert gt.set_resample_chain(7, 0.5) == before
    assert gt.set_resample_chain() == (7, 0.5)


@pytest.mark.statistical
def test_chain_keeps_the_exact_posterior(chain, stat_seed) -> None:
    """Stationarity: on the mini preset's information sets (stage 1 off, so
    every world is stage 2's), one long chain per set, no refresh, every
    fourth world kept, passes a chi-square against the exact posterior
    (``test_gold_thief_resampling``'s enumeration), and its steps move it;
    the same chains accepting every proposal (the uncorrected model) are
    refused on at least one set (the test has power)."""
    gt.set_resample_attempts(0, 500)
    gt.set_resample_chain(gt.RESAMPLE_CHAIN_DEFAULT["steps"], 0.0)
    sets = _information_sets("mini", 7, 30)[:12]
    assert len(sets) >= 10
    n, thin = 1500, 4
    before = gt.resample_stats()
    for state, p, support in sets:
        seen = Counter(_chain_of(state, p, n * thin, stat_seed(21))[thin - 1::thin])
        assert set(seen) <= set(support), "a world outside p's information set"
        assert exact_chisquare_pvalue(seen, support, n) > 1e-3, (state.history(), p)
    d = _delta(before, "chained", "model", "chain_fails", "chain_accepts", "chain_proposals")
    assert d["model"] == len(sets) and d["chained"] == len(sets) * (n * thin - 1)
    assert d["chain_fails"] == 0 and 0 < d["chain_accepts"] < d["chain_proposals"]
    _set_chain_accept_all(True)
    worst = min(exact_chisquare_pvalue(
        Counter(_chain_of(state, p, n * thin, stat_seed(21))[thin - 1::thin]), support, n)
        for state, p, support in sets)
    assert worst < 1e-6


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_chained_worlds_stay_in_the_information_set(chain, players: int) -> None:
    """Along default games, every world of a chain replays to a state with
    the player's info key and the true player to move; the worlds are
    chained (not redrawn, but for the refresh), the model's weights and
    verdicts in the chain's steps agree with replays, and no chain fails."""
    states = _decision_states(players, 40 + players, 3)
    assert states
    before = gt.resample_stats()
    weights_before = gt.model_weight_stats()
    old = gt.set_model_weight_check(True)
    try:
        draws = 0
        for state in states:
            p = state.current_player()
            key = state.engine.py_info_key(p)
            for h in _chain_of(state, p, 16, players):
                world = state.get_game().new_initial_state()
                for a in h:
                    world.apply_action(a)
                assert world.engine.py_info_key(p) == key
                assert world.current_player() == p
                draws += 1
    finally:
        gt.set_model_weight_check(old)
    d = _delta(before, "calls", "chained", "chain_fresh", "chain_fails", "chain_accepts")
    assert d["calls"] == draws and d["chain_fails"] == 0 and d["chain_accepts"] > 0
    assert d["chained"] + d["chain_fresh"] == draws - len(states)
    weights = gt.model_weight_stats()
    assert weights["disagreements"] == weights_before["disagreements"]
    assert weights["wrong_verdicts"] == weights_before["wrong_verdicts"]


def test_chained_sequence_is_deterministic(chain) -> None:
    """Same seeds and same start: the same chained sequence (also on another
    state object of the same position); a search, which chains its worlds,
    gives the same statistics twice, and ``solvers.ismcts``'s slow path
    (pyspiel states) the same as its fast one."""
    from solvers.ismcts import fast_search, slow_search
    state = _decision_states(3, 5, 2)[1]
    p = state.current_player()
    first = _chain_of(state, p, 24, 77)
    assert first == _chain_of(state, p, 24, 77)
    assert first == _chain_of(state.clone(), p, 24, 77)
    assert len(set(first)) > 1
    before = gt.resample_stats()
    runs = [search(state.engine, p, max_simulations=60, seed=9) for _ in range(2)]
    assert runs[0] == runs[1] and runs[0]["inconsistent_worlds"] == 0
    assert _delta(before, "chained")["chained"] > 0
    kw = dict(max_simulations=40, seed=4)
    assert fast_search(state.engine, p, **kw) == slow_search(state, p, **kw)


def test_chaining_off_and_fresh_entry_points_draw_fresh_worlds(chain) -> None:
    """steps = 0: ``prev`` is ignored, the draws are the fresh ones; with
    chaining on, the seeded ``py_resample_history`` and ``resample`` stay
    fresh, and a ``prev`` that is not the resampler's last world draws
    fresh too."""
    state = _decision_states(2, 3, 2)[1]
    p = state.current_player()
    fresh = [state.engine.py_resample_history(p, s) for s in range(5)]
    assert fresh == [state.engine.py_resample_history(p, s) for s in range(5)]
    assert state.resample(p, 3).history() == fresh[3]
    prev = state.engine.py_resample_history_from(p, 99, None)
    before = gt.resample_stats()
    assert state.engine.py_resample_history_from(p, 1, fresh[0]) == fresh[1]
    assert _delta(before, "chained")["chained"] == 0
    gt.set_resample_chain(0)
    assert [state.engine.py_resample_history_from(p, s, prev) for s in range(5)] == fresh
    assert _delta(before, "chained")["chained"] == 0


def test_stage_one_views_keep_exact_fresh_draws(chain) -> None:
    """Where stage 1 runs (at most ``EXACT_MAX_PLAYS`` public plays by the
    others), ``prev`` changes nothing: every world is a fresh draw."""
    game = pyspiel.load_game("gold_thief", MINI_PARAMS)
    picked = []
    for s in random_states(game, 6, seed=3, every=3):
        if s.is_terminal() or s.is_chance_node() or len(s.history()) < 6:
            continue
        p = s.current_player()
        if sum(1 for k, a, _, _ in s.engine.visible_events(p) if k == 4 and a != p) \
                <= gt.EXACT_MAX_PLAYS:
            picked.append(s)
    assert len(picked) >= 3
    before = gt.resample_stats()
    for state in picked[:3]:
        p = state.current_player()
        prev = None
        for s in range(6):
            h = state.engine.py_resample_history_from(p, s, prev)
            assert h == state.engine.py_resample_history(p, s)
            prev = h
    assert _delta(before, "chained", "chain_fresh") == {"chained": 0, "chain_fresh": 0}


def test_deadline_returns_the_current_world(chain) -> None:
    """A chained draw called past its deadline stops its steps and returns
    the chain's current world (the last one, verified when drawn)."""
    gt.set_resample_chain(None, 0.0)
    state = _decision_states(4, 8, 2)[1]
    p = state.current_player()
    prev = _chain_of(state, p, 3, 1)[-1]
    before = gt.resample_stats()
    h = state.engine.py_resample_history_from(p, 5, list(prev), deadline=clock() - 1.0)
    assert tuple(h) == prev
    d = _delta(before, "chained", "chain_cut", "chain_proposals")
    assert d == {"chained": 1, "chain_cut": 1, "chain_proposals": 0}


def test_adapter_chains_while_the_information_set_is_unchanged(chain) -> None:
    """``resample_from_infostate`` chains successive worlds on one state for
    one player, starts afresh once that player's information set changed
    (and for another player), and the seeded ``resample`` stays fresh."""
    state = _decision_states(3, 21, 2)[1]
    p = state.current_player()
    rng = random.Random(3)
    before = gt.resample_stats()
    worlds = [state.resample_from_infostate(p, rng.random) for _ in range(6)]
    d = _delta(before, "chained", "chain_fresh", "calls")
    assert d["chained"] + d["chain_fresh"] == 5 and d["calls"] == 6
    key = state.engine.py_info_key(p)
    assert all(w.engine.py_info_key(p) == key for w in worlds)
    before = gt.resample_stats()
    state.resample_from_infostate((p + 1) % 3, rng.random)
    assert _delta(before, "chained")["chained"] == 0
    _advance_until_key_changes(state, p, rng)
    before = gt.resample_stats()
    state.resample_from_infostate(p, rng.random)
    assert _delta(before, "chained", "chain_fresh") == {"chained": 0, "chain_fresh": 0}
    state.resample_from_infostate(p, rng.random)
    assert sum(_delta(before, "chained", "chain_fresh").values()) <= 1
    assert state.resample(p, 12345).history() == state.resample(p, 12345).history()


@pytest.mark.parametrize("slow_path", [False, True], ids=["fast", "slow"])
def test_a_world_pool_is_independent_fresh_draws(chain, slow_path: bool) -> None:
    """A ``cached_worlds`` pool is never chained: the same search with
    chaining on and off gives the same statistics (so ``best``, which
    searches a pool, plays as it was measured), and no world is chained.
    Without a pool, chaining changes the worlds and so the search."""
    state = _decision_states(2, 7, 2)[1]
    p = state.current_player()

    def stats(**kw) -> tuple:
        return search_root_stats(state, p, slow_path, max_simulations=40, seed=4, **kw)
    before = gt.resample_stats()["chained"]
    pooled = stats(cached_worlds=6)
    assert gt.resample_stats()["chained"] == before
    per_sim = stats()
    assert gt.resample_stats()["chained"] > before
    gt.set_resample_chain(0)
    assert stats(cached_worlds=6) == pooled
    assert stats() != per_sim


@pytest.mark.parametrize("slow_path", [False, True], ids=["fast", "slow"])
def test_the_search_option_chain_false_draws_fresh_worlds(chain, slow_path: bool) -> None:
    """``chain=False`` (``fast_search`` / ``slow_search``, ``ISMCTSBot``):
    no world of the search is chained, and the search equals the one with
    chaining turned off engine-wide; the fast and slow paths agree."""
    state = _decision_states(2, 7, 2)[1]
    p = state.current_player()

    def stats(**kw) -> tuple:
        return search_root_stats(state, p, slow_path, max_simulations=40, seed=4, **kw)
    before = gt.resample_stats()["chained"]
    off = stats(chain=False)
    assert gt.resample_stats()["chained"] == before
    assert stats() != off
    assert gt.resample_stats()["chained"] > before
    gt.set_resample_chain(0)
    assert stats() == off
    assert search_root_stats(state, p, not slow_path, max_simulations=40, seed=4,
                             chain=False) == off


def test_the_bot_option_chain_is_checked_and_parsed() -> None:
    """``ISMCTSBot(chain=...)`` takes a bool only (the error names it), and a
    bot spec's ``chain=false`` builds a bot that does not chain."""
    from solvers.botspec import parse_bot
    from solvers.ismcts import ISMCTSBot
    game = pyspiel.load_game("gold_thief")
    with pytest.raises(ValueError, match="chain"):
        ISMCTSBot(game, chain="no")
    assert ISMCTSBot(game, seed=1).chain is True
    spec = parse_bot("ismcts:chain=false")
    assert dict(spec.options)["chain"] is False
    assert spec.build(game, seed=1).chain is False
