"""Belief-weighted determinization in ISMCTS: consistent worlds, identical
fast and slow paths, reproducible seeds, the acceptance rule, errors."""
import collections

import pyspiel
import pytest

import games  # noqa: F401
from solvers import ismcts as I
from solvers.beliefs import belief, world_acceptance
from tests.test_beliefs import play


def position(seed, stop):
    return list(play(5, seed=seed, stop=stop))[-1]


@pytest.mark.parametrize("seed,stop", [(2, 12), (7, 25)])
def test_belief_worlds_are_consistent_with_the_information_state(seed, stop):
    s = position(seed, stop)
    me = s.current_player()
    rng = I.SplitMix64(1)
    worlds, draws = I._belief_worlds(s, me, True, 24, rng)
    assert len(worlds) == 24 and draws >= 24
    b = belief(s, me)
    key, info = s.engine.py_info_key(me), s.information_state_string(me)
    for w in worlds:
        assert w.py_info_key(me) == key
        assert w.info_string(me) == info
        roles = tuple(w.state_view()["roles"])
        assert b.prob(roles) > 0


def test_fast_and_slow_paths_agree_with_belief_worlds():
    s = position(2, 20)
    me = s.current_player()
    kw = dict(max_simulations=200, seed=9, determinization="belief", belief_worlds=8)
    fast = I.fast_search(s.engine, me, state=s, **kw)
    slow = I.slow_search(s, me, **kw)
    assert fast == slow
    assert fast.inconsistent_worlds == 0 and fast.world_draws >= 8


def test_belief_search_is_reproducible_and_seed_dependent():
    s = position(3, 18)
    me = s.current_player()
    kw = dict(max_simulations=150, determinization="belief", belief_worlds=8)
    a = I.fast_search(s.engine, me, state=s, seed=4, **kw)
    b = I.fast_search(s.engine, me, state=s, seed=4, **kw)
    c = I.fast_search(s.engine, me, state=s, seed=5, **kw)
    assert a == b
    assert (a.visits, a.rng_state) != (c.visits, c.rng_state)


def test_rejection_follows_the_acceptance_probabilities():
    # Worlds are integers 0..3 (from the seed); acceptance 0, 1/4, 1/2, 1.
    accept = {0: 0.0, 1: 0.25, 2: 0.5, 3: 1.0}
    worlds, draws = I.belief_world_seeds(lambda ws: ws % 4, accept.get, 4000,
                                         I.SplitMix64(3), 10 ** 6)
    counts = collections.Counter(worlds)
    assert counts[0] == 0
    total = sum(counts.values())
    for w, p in ((1, 0.25 / 1.75), (2, 0.5 / 1.75), (3, 1.0 / 1.75)):
        assert abs(counts[w] / total - p) < 0.03
    # Too few draws allowed: the most acceptable rejected worlds fill in.
    worlds, draws = I.belief_world_seeds(lambda ws: 0, lambda w: 0.0, 3, I.SplitMix64(1), 5)
    assert worlds == [0, 0, 0] and draws == 5


def test_belief_acceptance_matches_the_posterior_of_the_roles():
    s = position(7, 25)
    me = s.current_player()
    b = belief(s, me)
    worlds, _ = I._belief_worlds(s, me, True, 600, I.SplitMix64(2))
    counts = collections.Counter(tuple(w.state_view()["roles"]) for w in worlds)
    best = max(zip(b.probs, b.outcomes))[1]
    assert abs(counts[best] / 600 - b.prob(best)) < 0.08


def test_bot_with_belief_determinization_moves_the_same_on_both_paths():
    s = position(5, 15)
    game = s.get_game()
    fast = I.ISMCTSBot(game, max_simulations=100, seed=2, determinization="belief",
                       belief_worlds=8, rollout="heuristic")
    slow = I.ISMCTSBot(game, max_simulations=100, seed=2, determinization="belief",
                       belief_worlds=8, rollout="heuristic", use_engine=False)
    assert fast.step(s) == slow.step(s)
    assert fast.last_stats == slow.last_stats


def test_bad_determinization_options_are_refused():
    game = pyspiel.load_game("saboteur")
    with pytest.raises(ValueError, match="determinization"):
        I.ISMCTSBot(game, determinization="oracle")
    with pytest.raises(ValueError, match="belief_worlds"):
        I.ISMCTSBot(game, determinization="belief", belief_worlds=0)
    with pytest.raises(ValueError, match="belief model"):
        I.ISMCTSBot(pyspiel.load_game("kuhn_poker"), determinization="belief")
    s = position(2, 5)
    with pytest.raises(ValueError, match="pyspiel state"):
        I.fast_search(s.engine, s.current_player(), determinization="belief")
    from src_cy import ismcts as cy
    with pytest.raises(ValueError, match="at least one"):
        cy.search(s.engine, s.current_player(), worlds=[])
    with pytest.raises(ValueError, match="root's game"):
        cy.search(s.engine, s.current_player(), worlds=[object()])


def test_flat_search_over_root_candidates_agrees_across_paths():
    from games.saboteur.search import saboteur_root_candidates
    s = position(4, 20)
    me = s.current_player()
    cand = saboteur_root_candidates(s)
    legal = set(s.legal_actions())
    assert cand and set(cand) <= legal
    kw = dict(max_simulations=120, seed=3, max_depth=1, root_actions=cand)
    fast = I.fast_search(s.engine, me, **kw)
    slow = I.slow_search(s, me, **kw)
    assert fast == slow
    assert fast.nodes == 1 and fast.actions == cand
    deep = I.fast_search(s.engine, me, max_simulations=120, seed=3, max_depth=2)
    assert deep.nodes > 1


def test_bad_depth_and_root_actions_are_refused():
    s = position(4, 8)
    me = s.current_player()
    illegal = max(s.legal_actions()) + 1
    for path in (lambda **kw: I.fast_search(s.engine, me, **kw),
                 lambda **kw: I.slow_search(s, me, **kw)):
        with pytest.raises(ValueError, match="max_depth"):
            path(max_depth=-1)
        with pytest.raises(ValueError, match="root_actions"):
            path(root_actions=[illegal])
        with pytest.raises(ValueError, match="root_actions"):
            path(root_actions=[])
    with pytest.raises(ValueError, match="root_candidates"):
        I.ISMCTSBot(s.get_game(), root_candidates="nope")
    with pytest.raises(ValueError, match="no root candidates"):
        I.ISMCTSBot(pyspiel.load_game("kuhn_poker"), root_candidates="game")


def test_belief_determinization_without_a_likelihood_accepts_every_world():
    from tests.test_best import midgame
    game = pyspiel.load_game("gold_nugget", {"players": 3})
    s = midgame(game, 2, 10)
    me = s.current_player()
    kw = dict(max_simulations=100, seed=1, determinization="belief", belief_worlds=6)
    fast = I.fast_search(s.engine, me, state=s, **kw)
    assert fast.world_draws == 6 and fast.inconsistent_worlds == 0
    assert fast == I.slow_search(s, me, **kw)


def test_weighted_gold_thief_worlds_agree_on_both_paths():
    from tests.games.gold_thief.test_gold_thief_beliefs import heuristic_positions
    s = heuristic_positions(3, 2)[3]
    me = s.current_player()
    kw = dict(max_simulations=100, seed=1, determinization="belief", belief_worlds=6)
    fast = I.fast_search(s.engine, me, state=s, **kw)
    assert fast.world_draws >= 6 and fast.inconsistent_worlds == 0
    assert fast == I.slow_search(s, me, **kw)
