"""Gold Nugget resampling (issue 10): every world is drawn from the player's
information alone (never the true history), replays to itself, and two
histories the player cannot tell apart give the same distribution of worlds."""
from __future__ import annotations

import functools
import random
from collections import Counter

import pyspiel
import pytest

import games  # noqa: F401
import games.gold_nugget as gn
from games import testing
from games.gold_nugget import A_OPT1, A_PLAYER, stone_action
from src_cy.gold_nugget.engine import (RESAMPLE_CORRECTOR_DEFAULT, _set_corrector_after_exact,
                                resample_stats, set_resample_backjumping,
                                set_resample_corrector, set_resample_exact_budget,
                                set_resample_safety_cap)
from tests.games.gold_nugget.test_gold_nugget_rules import AFTERNOON, NIGHT, NOON, PEEKS, do, play, setup

KEEP = A_OPT1                  # do not examine the stone just acquired

CONFIGS = [
    (gn.MINI_PARAMS, 3), ({"players": 2}, 2), ({"players": 3}, 2), ({"players": 4}, 2),
    ({"players": 5}, 1), ({"players": 3, "advanced": True}, 2),
    ({"players": 5, "advanced": True}, 1),
]


def _replays(game: pyspiel.Game, world: pyspiel.State) -> pyspiel.State:
    replay = game.new_initial_state()
    for a in world.history():
        replay.apply_action(a)
    return replay


@pytest.mark.parametrize("params, count", CONFIGS, ids=[
    "mini", "p2", "p3", "p4", "p5", "p3-advanced", "p5-advanced"])
def test_resampled_worlds_replay(params: dict, count: int) -> None:
    """Random mid-game states, every player, several seeds: every world
    replays to itself (every player's key and observation, the legal
    actions) with the player's information key, string and the player to
    move unchanged, and every world comes from a walk."""
    game = pyspiel.load_game("gold_nugget", params)
    before = resample_stats()
    states = testing.mid_game_states(game, count, seed=11, min_depth=40)
    rng = random.Random(2)
    for state in states:
        for p in range(game.num_players()):
            key = state.engine.py_info_key(p)
            for _ in range(2):
                world = state.resample(p, rng.getrandbits(62))
                replay = _replays(game, world)
                assert replay.serialize() == world.serialize()
                # the world is the state its history replays to, for everyone
                for q in range(game.num_players()):
                    assert world.engine.py_info_key(q) == replay.engine.py_info_key(q)
                    assert world.observation_string(q) == replay.observation_string(q)
                assert world.legal_actions() == replay.legal_actions()
                assert world.engine.py_info_key(p) == key
                assert world.information_state_string(p) == state.information_state_string(p)
                assert world.current_player() == state.current_player()
                world.engine.check_invariants()
    _assert_every_call_found_a_world(before, resample_stats())


def _assert_every_call_found_a_world(before: dict, after: dict) -> None:
    """Every call's world came from the exact stage or a walk (no call hit
    the safety cap)."""
    calls = after["calls"] - before["calls"]
    assert calls > 0 and sum(after[k] - before[k] for k in ("exact", "first", "restart")) == calls
    assert after["errors"] == before["errors"]


def test_safety_cap_raises_instead_of_returning_the_truth() -> None:
    """A search cut short by the safety cap raises RuntimeError (through the
    engine and the pyspiel adapter) and never hands back the true history;
    with the default cap the same call finds a world."""
    game = pyspiel.load_game("gold_nugget", {"players": 4})
    state = testing.mid_game_states(game, 1, seed=11, min_depth=60)[0]
    with pytest.raises(ValueError, match="backtracks"):
        set_resample_safety_cap(0)
    old = set_resample_safety_cap(1)
    try:
        before = resample_stats()
        raised = 0
        for p in range(game.num_players()):
            for seed in range(3):
                try:
                    state.resample(p, seed)
                except RuntimeError as err:
                    assert "never returned" in str(err)
                    raised += 1
        assert raised > 0
        assert resample_stats()["errors"] - before["errors"] == raised
    finally:
        set_resample_safety_cap(old)
    for p in range(game.num_players()):
        world = state.resample(p, 5)
        assert world.information_state_string(p) == state.information_state_string(p)


@pytest.mark.slow
def test_hard_positions_find_a_world() -> None:
    """Hard positions (states along the stress run's games where a resample
    backjumps most; re-picked after issue 26 changed the rules, the former
    ones were where the old capped search returned the true history): every
    resample ends in a world from the player's information, with
    conflict-directed backjumping and without it."""
    from experiments.bench.gold_nugget_resample_stress import CONFIGS, states_along_games
    cases = {"p5": [(110, 0, 110000331), (10, 4, 10000059)],
             "p4-advanced": [(8, 2, 8000039), (47, 0, 47000142)]}
    before = resample_stats()
    for jumping in (True, False):
        old = set_resample_backjumping(jumping)
        try:
            for name, picks in cases.items():
                game = pyspiel.load_game("gold_nugget", CONFIGS[name])
                engines = states_along_games(game, 12, 30, 1)
                for i, p, seed in picks:
                    eng = engines[i]
                    h = eng.py_resample_history(p, seed)
                    world = game.new_initial_state()
                    for a in h:
                        world.apply_action(a)
                    assert world.engine.py_info_key(p) == eng.py_info_key(p)
                    assert world.current_player() == eng.py_current_player()
                    assert h != eng.py_history()
        finally:
            set_resample_backjumping(old)
        if jumping:
            # the backjumping engaged on these positions
            assert resample_stats()["backjumps"] > before["backjumps"]
    _assert_every_call_found_a_world(before, resample_stats())


def test_contradicted_decided_face_finds_a_world() -> None:
    """The resampling bench's late 5-player position (p4 to move at move
    453): its walks meet faces p sees that contradict a face they had
    already decided (a trap shown earlier, moved by unseen placements; the
    nugget placed by an unseen answer), which backjump to the choice points
    that decided the face or arranged the lair.  Every world replays to
    p's information and player to move, and the walks do backjump."""
    from experiments.bench.bench_resample import positions
    game = pyspiel.load_game("gold_nugget", {"players": 5})
    state = positions(game, 6, 0)[3]
    p = state.current_player()
    assert (len(state.history()), p) == (453, 4)
    before = resample_stats()
    for seed in range(4):
        h = state.engine.py_resample_history(p, seed)
        world = game.new_initial_state()
        for a in h:
            world.apply_action(a)
        assert world.engine.py_info_key(p) == state.engine.py_info_key(p)
        assert world.current_player() == p
    assert resample_stats()["backjumps"] > before["backjumps"]
    _assert_every_call_found_a_world(before, resample_stats())


@pytest.mark.parametrize("params", [
    {"players": 3}, {"players": 4},
    pytest.param({"players": 5, "advanced": True}, marks=pytest.mark.slow),  # ~11 s of CPU
], ids=["p3", "p4", "p5-advanced"])
def test_resampler_reads_only_the_information_state(params: dict) -> None:
    """Two true histories p cannot tell apart (the second is a resampled
    world of the first) give byte-identical worlds for the same seed."""
    game = pyspiel.load_game("gold_nugget", params)
    states = testing.mid_game_states(game, 2, seed=23, min_depth=40)
    rng = random.Random(5)
    differed = 0
    for state in states:
        for p in range(game.num_players()):
            other = state.resample(p, rng.getrandbits(62))
            assert other.engine.py_info_key(p) == state.engine.py_info_key(p)
            differed += other.history() != state.history()
            for _ in range(2):
                seed = rng.getrandbits(62)
                assert state.engine.py_resample_history(p, seed) == \
                    other.engine.py_resample_history(p, seed)
    assert differed > 0


@pytest.mark.parametrize("players", [3, 5])
def test_kept_world_engine_draws_as_a_fresh_one(players: int) -> None:
    """One world engine drawn into again and again (a search's scratch
    engine keeps what the last draw derived from its state) draws the same
    worlds as a fresh engine, along a game whose successive states differ by
    one action, for every player in turn."""
    game = pyspiel.load_game("gold_nugget", {"players": players})
    states = [s for s in testing.random_states(game, 1, seed=31)
              if not s.is_terminal() and len(s.history()) > 12][:24]
    world = states[0].engine.py_clone()
    seen = set()
    old = set_resample_safety_cap(2_000_000)   # a wrong information: an error, not a hang
    try:
        for i, state in enumerate(states):
            for p in (i % players, (i + 1) % players):
                seed = 1000 * i + p
                h = state.engine.py_resample_into(world, p, seed).py_history()
                assert h == state.engine.py_resample_history(p, seed)
                seen.add(tuple(h))
    finally:
        set_resample_safety_cap(old)
    assert len(seen) > len(states)


def _nugget_owner(world: pyspiel.State) -> int:
    return next((q for q, lair in enumerate(world.engine.lairs()) if 0 in lair), -1)


def _sleight_pair() -> list[pyspiel.State]:
    """p0 swaps one of its stones (slot 0 holds the nugget) with p1#0 by
    Sleight of paw; p2 hears the swap but not which stone went."""
    pair = []
    for slot in (0, 1):
        _, st = setup([["sleight_of_paw"] + PEEKS[:4]] + [PEEKS] * 2,
                      tods=(NOON, AFTERNOON, NIGHT), stones=((0, 4), (5, 6), (7, 8)))
        do(st, play("sleight_of_paw"), A_PLAYER + 1, stone_action(0, slot),
           stone_action(1, 0), KEEP, KEEP)
        pair.append(st)
    return pair


def test_hidden_swap_nugget_follows_information_only(stat_seed) -> None:
    """Where the nugget is after a hidden swap: a world never keeps the true
    place, and both histories give the same distribution of owners."""
    pair = _sleight_pair()
    assert _nugget_owner(pair[0]) == 1 and _nugget_owner(pair[1]) == 0
    assert pair[0].information_state_string(2) == pair[1].information_state_string(2)
    assert pair[0].engine.py_info_key(2) == pair[1].engine.py_info_key(2)
    before = resample_stats()
    owners = {_nugget_owner(pair[0].resample(2, seed)) for seed in range(60)}
    assert {0, 1} <= owners
    testing.check_resample_distribution(pair[0], pair[1], 2, _nugget_owner, n=150,
                                        seed=stat_seed(0))
    _assert_every_call_found_a_world(before, resample_stats())


def test_nugget_uniform_over_unseen_stones_after_setup(stat_seed) -> None:
    """Right after set-up a player knows only its own two stones: the nugget
    lies uniformly on the stones it has not seen (exact face odds)."""
    from scipy.stats import chisquare
    _, st = setup([PEEKS] * 3, stones=((3, 4), (1, 5), (0, 6)))
    seen = set(st.engine.lairs()[0])
    places = {}
    n = 300
    first = stat_seed(0)
    for seed in range(first, first + n):
        world = st.resample(0, seed).engine
        where = next(((q, i) for q, lair in enumerate(world.lairs()) for i, s in enumerate(lair)
                      if s == 0), "nest")
        assert where == "nest" or where[0] != 0
        places[where] = places.get(where, 0) + 1
    unseen = len(st.engine.stone_faces()) - len(seen)
    nest = len(st.engine.nest_stones())
    expected = {w: n / unseen for w in places if w != "nest"}
    expected["nest"] = n * nest / unseen
    observed = [places.get(w, 0) for w in expected]
    assert sum(observed) == n and len(places) <= len(expected)
    assert chisquare(observed, [expected[w] for w in expected]).pvalue > 1e-3


# ---------------------------------------------------------------- exact stage
def _information_sets(game: pyspiel.Game, games_: int) -> list:
    """Distinct information sets (state, p, exact posterior) with three
    histories or more, along seeded random games."""
    picked = {}
    for state in testing.random_states(game, games_, seed=5, every=3):
        if state.is_chance_node() or len(state.history()) < 8:
            continue
        for p in range(2):
            picked.setdefault((p, state.engine.py_info_key(p)), (state, p))
    sets = [(s, p, testing.exact_posterior(game, s, p)) for s, p in picked.values()]
    return [x for x in sets if len(x[2]) >= 3]


@functools.lru_cache(maxsize=None)
def _mini_information_sets() -> list:
    """Information sets along 12 random mini games (every posterior there
    is uniform)."""
    return _information_sets(gn.SPEC.load("mini"), 12)


@functools.lru_cache(maxsize=None)
def _weighted_information_sets() -> list:
    """Information sets of the mini variant with 6 cards of 3 kinds whose
    exact posterior is not uniform (duplicate cards make the chance and
    1/(legal actions) factors differ between histories), so a sampler that
    gets the weights wrong fails on them."""
    game = pyspiel.load_game("gold_nugget", dict(gn.MINI_PARAMS,
                                                 leaf_counts="peek:2/chance:2/accuse:2"))
    return [x for x in _information_sets(game, 6) if len(set(x[2].values())) > 1]


@pytest.fixture
def exact_budget():
    """Restore the exact stage's setting after a test changes it."""
    old = set_resample_exact_budget(-1)
    yield
    set_resample_exact_budget(old)


@pytest.mark.slow
def test_exact_stage_matches_exact_enumeration_on_mini(exact_budget, stat_seed) -> None:
    """Mini is a small game, so the exact stage draws every world: on every
    information set the draws follow the exact posterior (chi-square), and
    nothing outside it is drawn."""
    sets = _mini_information_sets()
    assert len(sets) >= 8
    before = resample_stats()
    n = 600
    for state, p, exact in sets:
        seen = testing.drawn_histories(state, p, n, stat_seed(17))
        assert set(seen) <= set(exact)
        assert testing.exact_chisquare_pvalue(seen, exact, n) > 1e-4
    after = resample_stats()
    assert after["exact"] - before["exact"] == after["calls"] - before["calls"] == n * len(sets)


@pytest.fixture
def corrector():
    """Restore the corrector's setting after a test changes it."""
    old = set_resample_corrector()
    yield
    set_resample_corrector(*old)


@pytest.mark.slow
def test_enumeration_detects_the_walks_bias(exact_budget, corrector, stat_seed) -> None:
    """The same check refuses the walks alone, without the corrector, on
    mini (the documented bias of their backtracking: an unwatched
    examination whose result only shows at the next waking is kept at 1/2
    where the posterior gives 1/3), so the tests here have the power to
    fail."""
    set_resample_exact_budget(0)
    set_resample_corrector(0)
    n = 600
    assert testing.worst_exact_pvalue(_mini_information_sets(), n, stat_seed(17)) < 1e-6


def _total_variation(seen: Counter, exact: dict, n: int) -> float:
    total = sum(exact.values())
    return 0.5 * sum(abs(seen[h] / n - w / total) for h, w in exact.items())


@pytest.mark.slow
def test_corrector_removes_the_walks_bias_on_mini(exact_budget, corrector, stat_seed) -> None:
    """Walks followed by the corrector at its default setting (the sampler
    of every game that is not small) match the exact posterior on every
    mini information set, including the two the walks alone get wrong; and
    the corrector does move the world (it is not the walks' draw kept)."""
    set_resample_exact_budget(0)
    n = 1500
    before = resample_stats()
    pvalues = []
    for state, p, exact in _mini_information_sets():
        seen = testing.drawn_histories(state, p, n, stat_seed(19))
        assert set(seen) <= set(exact)
        pvalues.append(testing.exact_chisquare_pvalue(seen, exact, n))
    after = resample_stats()
    assert min(pvalues) > 1e-4
    assert after["exact"] == before["exact"]
    assert after["mcmc_moves"] - before["mcmc_moves"] > n * len(pvalues)
    assert after["mcmc_fails"] == before["mcmc_fails"]


@pytest.mark.slow
def test_corrector_converges_to_the_exact_posterior(exact_budget, corrector, stat_seed) -> None:
    """On the weighted sets the walks alone are far off (total variation
    above 0.15 on some set); the corrector's chain converges to the exact
    posterior (128 steps: every set passes the chi-square), and its default
    32 steps leave at most 0.06 of total variation on every set (the
    residual the rules doc quotes; sampling noise at n = 1000 is about
    0.02-0.03)."""
    set_resample_exact_budget(0)
    n = 1000
    sets = _weighted_information_sets()
    assert len(sets) >= 20
    set_resample_corrector(0)
    walks = max(_total_variation(testing.drawn_histories(s, p, n, stat_seed(19)), ex, n)
                for s, p, ex in sets)
    assert walks > 0.15
    set_resample_corrector(RESAMPLE_CORRECTOR_DEFAULT["steps"])
    default = max(_total_variation(testing.drawn_histories(s, p, n, stat_seed(19)), ex, n)
                  for s, p, ex in sets)
    assert default < 0.06
    set_resample_corrector(128)
    for state, p, exact in sets:
        seen = testing.drawn_histories(state, p, n, stat_seed(29))
        assert set(seen) <= set(exact)
        assert testing.exact_chisquare_pvalue(seen, exact, n) > 1e-4


def _exact_draws_moved_by_the_corrector(n: int, seed: int) -> tuple[dict, dict]:
    """Draw ``n`` worlds per weighted set by the exact stage followed by the
    current corrector setting, assert each set's draws follow the exact
    posterior (chi-square), and return the resample statistics before and
    after."""
    old = _set_corrector_after_exact(True)
    try:
        before = resample_stats()
        for state, p, exact in _weighted_information_sets():
            seen = testing.drawn_histories(state, p, n, seed)
            assert set(seen) <= set(exact)
            assert testing.exact_chisquare_pvalue(seen, exact, n) > 1e-4
        after = resample_stats()
    finally:
        _set_corrector_after_exact(old)
    return before, after


@pytest.mark.slow
def test_corrector_keeps_exact_draws_exact(exact_budget, corrector, stat_seed) -> None:
    """Corrector steps leave the posterior invariant: worlds drawn by the
    exact stage and then moved by four steps over short blocks (2 or 4
    positions, the rest of the history held) still follow the exact
    posterior on every weighted set, though the steps do move them."""
    n = 800
    set_resample_corrector(4, 2)
    before, after = _exact_draws_moved_by_the_corrector(n, stat_seed(23))
    assert after["mcmc_moves"] - before["mcmc_moves"] > n
    assert after["exact"] - before["exact"] == after["calls"] - before["calls"]


@pytest.mark.slow
def test_corrector_mh_steps_keep_exact_draws_exact(exact_budget, corrector, stat_seed) -> None:
    """The corrector's Metropolis-Hastings steps (taken where an exact block
    draw could pass the node budget; a budget of 1 makes every step one)
    leave the posterior invariant: worlds drawn by the exact stage and then
    moved by eight of them over blocks of 2 to 8 positions still follow the
    exact posterior on every weighted set, and the steps both move worlds
    and reject proposals."""
    n = 800
    set_resample_corrector(8, 3, 1)
    before, after = _exact_draws_moved_by_the_corrector(n, stat_seed(31))
    calls = after["calls"] - before["calls"]
    assert after["mcmc_skips"] - before["mcmc_skips"] == 8 * calls
    assert after["mcmc_moves"] - before["mcmc_moves"] > n
    assert 0 < after["mcmc_rejects"] - before["mcmc_rejects"] < 8 * calls
    assert after["mcmc_fails"] == before["mcmc_fails"]


def test_corrector_settings_are_checked(corrector) -> None:
    """Bad corrector settings name the setting and change nothing."""
    before = set_resample_corrector()
    for kwargs, name in (({"steps": -2}, "steps"), ({"log_window": 13}, "log_window"),
                         ({"log_window": 0}, "log_window"), ({"budget": 0}, "budget")):
        with pytest.raises(ValueError, match=name):
            set_resample_corrector(**kwargs)
    assert set_resample_corrector() == before


def test_exact_stage_over_budget_hands_over_to_the_walks(exact_budget) -> None:
    """Over its node budget the exact stage gives up (whatever the true
    history) and the walks draw the world; bad budgets are refused."""
    with pytest.raises(ValueError, match="nodes"):
        set_resample_exact_budget(-2)
    state, p, exact = _mini_information_sets()[0]
    set_resample_exact_budget(3)
    before = resample_stats()
    seen = testing.drawn_histories(state, p, 50, 17)
    after = resample_stats()
    assert after["exact"] == before["exact"]
    assert after["first"] + after["restart"] - before["first"] - before["restart"] == 50
    assert set(seen) <= set(exact)
