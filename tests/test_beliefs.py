"""Beliefs (solvers.beliefs, games/<game>_beliefs.py): facts rule assignments
out, probabilities are a distribution, the opponent model moves the
posterior the right way, and the belief reads only the player's
information state."""
import math

import pyspiel
import pytest

import games  # noqa: F401
from games.saboteur import beliefs as SB
from solvers import beliefs as B
from solvers.bots import make_bot
from src_cy.rng import SplitMix64, sample_sorted


def play(players=5, seed=0, stop=None):
    """Heuristic self-play of one round; yields every decision state."""
    game = pyspiel.load_game("saboteur", {"players": players, "rounds": 1})
    bots = [make_bot("heuristic", game, seed=seed * 10 + p) for p in range(players)]
    rng = SplitMix64(seed)
    s = game.new_initial_state()
    moves = 0
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(sample_sorted(sorted(s.chance_outcomes()), rng))
            continue
        yield s.clone()
        s.apply_action(bots[s.current_player()].step(s))
        moves += 1
        if stop is not None and moves >= stop:
            return
    yield s


def allowed(roles, players, me, my_role):
    ns, nd = SB.SABOTEUR_ROLE_POOL[players]
    return roles[me] == my_role and sum(roles) <= ns and players - sum(roles) <= nd


@pytest.mark.parametrize("players", [3, 5, 7])
def test_belief_is_a_distribution_over_allowed_assignments(players):
    for i, s in enumerate(play(players, seed=players)):
        if i % 7:
            continue
        view = s.engine.state_view()
        for me in range(players):
            b = B.belief(s, me)
            assert math.isclose(sum(b.probs), 1.0, rel_tol=1e-9)
            assert all(p >= 0 for p in b.probs)
            assert len(set(b.outcomes)) == len(b.outcomes)
            if view["roles"][me] < 0:
                continue
            if len(b.outcomes) == 1:   # round over: the revealed roles
                assert b.outcomes[0] == tuple(view["roles"])
                continue
            for o, p in zip(b.outcomes, b.probs):
                assert allowed(o, players, me, view["roles"][me]), o
            # The true assignment is never ruled out.
            assert b.prob(tuple(view["roles"])) > 0


def test_revealed_roles_are_a_point_mass():
    states = list(play(5, seed=3))
    final = states[-1]
    assert final.is_terminal()
    roles = tuple(final.engine.state_view()["roles"])
    for me in range(5):
        b = B.belief(final, me)
        assert b.outcomes == [roles] and b.probs == [1.0]


def test_belief_reads_only_the_information_state():
    # Two worlds the player cannot tell apart get the same belief.
    s = list(play(5, seed=4, stop=25))[-1]
    me = s.current_player()
    b = B.belief(s, me)
    for ws in range(5):
        w = s.resample(me, ws)
        assert w.information_state_string(me) == s.information_state_string(me)
        assert B.belief(w, me) == b


def test_dead_ends_make_a_saboteur_and_paths_a_digger():
    prior = SB.saboteur_posterior(SB.SaboteurRecord(5, SB.DIGGER, None, []), 0)
    rec = SB.SaboteurRecord(5, SB.DIGGER, None,
                           [(2, "place_dead", -1), (2, "rock_path", -1), (3, "place_path", -1)])
    post = SB.saboteur_posterior(rec, 0)
    assert post.marginal(2)[SB.SABOTEUR] > 0.8 > prior.marginal(2)[SB.SABOTEUR]
    assert post.marginal(3)[SB.SABOTEUR] < prior.marginal(3)[SB.SABOTEUR]
    # Own actions are no evidence; own role is a fact.
    mine = SB.saboteur_posterior(SB.SaboteurRecord(5, SB.DIGGER, None, [(0, "place_dead", -1)]), 0)
    assert mine.probs == prior.probs
    assert post.marginal(0) == {SB.DIGGER: 1.0}


def test_breaking_my_tool_as_a_digger_points_at_a_saboteur():
    rec = SB.SaboteurRecord(5, SB.DIGGER, None, [(1, "break", 0)])
    post = SB.saboteur_posterior(rec, 0)
    prior = SB.saboteur_posterior(SB.SaboteurRecord(5, SB.DIGGER, None, []), 0)
    assert post.marginal(1)[SB.SABOTEUR] > prior.marginal(1)[SB.SABOTEUR]


def test_prior_is_uniform_over_the_pool():
    # 5 players: 2 saboteurs and 4 diggers dealt, one card left over.
    prior = SB.saboteur_assignments(5, 0, SB.DIGGER)
    assert len(prior) == 4 + 6          # 1 or 2 saboteurs among seats 1..4
    assert all(math.isclose(p, 0.1) for _, p in prior)
    assert len(SB.saboteur_assignments(5, 0, SB.SABOTEUR)) == 1 + 4


def test_world_acceptance_follows_the_likelihood():
    s = list(play(5, seed=6, stop=15))[-1]
    me = s.current_player()
    b = B.belief(s, me)
    accept = B.world_acceptance(s, me)
    for ws in range(10):
        w = s.resample(me, ws)
        roles = tuple(w.engine.state_view()["roles"])
        assert accept(w.engine) == b.likelihood[b.outcomes.index(roles)]
    assert max(b.likelihood) == 1.0


def test_bad_input_is_refused():
    s = next(play(5))
    with pytest.raises(ValueError, match="player"):
        B.belief(s, 5)
    with pytest.raises(ValueError, match="no belief model"):
        B.belief(pyspiel.load_game("kuhn_poker").new_initial_state(), 0)
    with pytest.raises(ValueError, match="epsilon"):
        SB.saboteur_posterior(SB.SaboteurRecord(5, 0, None, []), 0, epsilon=0.0)
    with pytest.raises(ValueError, match="players"):
        SB.saboteur_assignments(11, 0, 0)


@pytest.mark.parametrize("players", [2, 3])
def test_gold_nugget_belief_is_a_seeded_distribution_of_consistent_worlds(players):
    from tests.test_best import midgame
    game = pyspiel.load_game("gold_nugget", {"players": players})
    s = midgame(game, 3, 12)
    me = s.current_player()
    b = B.belief(s, me, samples=128, seed=5)
    assert math.isclose(sum(b.probs), 1.0)
    assert b == B.belief(s, me, samples=128, seed=5)
    assert b.likelihood == [1.0] * len(b.outcomes)
    lairs = s.engine.lairs()
    for o in b.outcomes:
        assert o == ("nest",) or (o[0] == "lair" and o[2] < len(lairs[o[1]]))
    with pytest.raises(ValueError, match="samples"):
        B.belief(s, me, samples=0)
    with pytest.raises(ValueError, match="bad belief options"):
        B.belief(s, me, epsilon=0.1)


_LINE_MARK = {"role": " role", "goals": "goals laid", "draw": " draws", "place": " places ",
              "rockfall": " rockfall ", "break": " breaks ", "repair": " fixes ",
              "map": " maps goal ", "pass": " passes", "reveal": " turned up: ",
              "round_end": " won by ", "gold": " gold card", "saboteur_gold": " nuggets",
              "gold_draw": " draws a gold card", "gold_take": " takes a gold card",
              "gold_pass": " gold card(s) to "}


def test_event_log_is_the_information_string_typed():
    # The record the belief reads is the one the information string renders:
    # same events, same order, private parts exactly where the string has them.
    for s in play(5, seed=6):
        for me in range(5):
            lines = s.information_state_string(me).split("\n")[1:]
            log = s.engine.event_log(me)
            assert len(log) == len(lines)
            for (kind, actor, a, b, c, private), line in zip(log, lines):
                assert _LINE_MARK[kind] in line, (kind, line)
                if kind == "role":
                    assert (private >= 0) == ("=" in line)
    with pytest.raises(ValueError, match="player"):
        s.engine.event_log(5)


def test_record_reads_the_event_log():
    s = list(play(5, seed=8, stop=40))[-1]
    rec = SB.saboteur_record(s.engine, 1)
    log = s.engine.event_log(1)
    played = [(actor, kind) for kind, actor, *_ in log
              if kind in ("place", "rockfall", "break", "repair", "map", "pass")]
    short = {"place_path": "place", "place_dead": "place", "rock_path": "rockfall",
             "rock_dead": "rockfall"}
    assert [(actor, short.get(kind, kind)) for actor, kind, _ in rec.events] == played
    assert played, "the position has no public plays yet"
    assert rec.own_role == s.engine.state_view()["roles"][1]
