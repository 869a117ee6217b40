"""Gold Thief's belief (games/gold_thief/beliefs.py): the steering likelihood
of each player's goal cards, combined with the resampler's holdings belief.
It never weights what the public record rules out, is a normalised,
seeded distribution, and moves toward the true goals in heuristic play."""
import math

import pyspiel
import pytest

import games  # noqa: F401
from games.gold_thief import beliefs as GT
from solvers import ismcts as I
from solvers.beliefs import belief, world_acceptance
from solvers.bots import make_bot
from src_cy.rng import SplitMix64, sample_sorted


def heuristic_positions(players, seed, every=9, limit=12):
    """Decision states of one heuristic self-play game (every ``every``-th)."""
    game = pyspiel.load_game("gold_thief", {"players": players})
    bots = [make_bot("heuristic", game, seed=q) for q in range(players)]
    rng = SplitMix64(seed)
    s = game.new_initial_state()
    out, moves = [], 0
    while not s.is_terminal() and len(out) < limit:
        if s.is_chance_node():
            s.apply_action(sample_sorted(sorted(s.chance_outcomes()), rng))
            continue
        moves += 1
        if moves % every == 0:
            out.append(s.clone())
        s.apply_action(bots[s.current_player()].step(s))
    return out


def test_event_likelihood_follows_the_steering_rule():
    numbers = ((4, 10), (1, 7))
    steal = GT.SteerEvent(actor=1, gold=8, delta=2, cancel=False, flipped_after=())
    assert GT.event_likelihood(steal, (0,), numbers, 0.25) == 1.0      # 8 -> 10: nearer
    assert GT.event_likelihood(steal, (1,), numbers, 0.25) == 0.25     # 8 -> 10: away from 7
    assert GT.event_likelihood(steal, (1, 0), numbers, 0.25) == 1.0    # the nearest goal counts
    flipped = GT.SteerEvent(actor=1, gold=8, delta=2, cancel=False, flipped_after=(0,))
    assert GT.event_likelihood(flipped, (1,), numbers, 0.25) == 1.0    # held then, flipped since
    cancel = GT.SteerEvent(actor=1, gold=3, delta=-2, cancel=True, flipped_after=())
    assert GT.event_likelihood(cancel, (1,), numbers, 0.25) == 0.25    # losing 2 would reach 1
    assert GT.event_likelihood(cancel, (0,), numbers, 0.25) == 1.0
    assert GT.event_likelihood(steal, (), numbers, 0.25) == 1.0        # no goal: no evidence


@pytest.mark.parametrize("players,seed", [(2, 1), (4, 2)])
def test_belief_never_weights_what_the_record_rules_out(players, seed):
    positions = heuristic_positions(players, seed)
    assert positions
    for s in positions:
        me = s.current_player()
        view = s.engine.public_view()
        truth = GT.gold_thief_hidden(s.engine)
        b = belief(s, me, samples=64, seed=3)
        assert math.isclose(sum(b.probs), 1.0, rel_tol=1e-9)
        assert all(p > 0 for p in b.probs) and max(b.likelihood) == 1.0
        face_up = {g for q in range(players) for g in view["face_up"][q]}
        for o in b.outcomes:
            assert o[me] == truth[me]                         # my own hand and goals
            held = [g for q in range(players) for g in o[q][2]]
            assert len(held) == len(set(held))                # a goal card is in one hand
            assert not set(held) & face_up                    # flipped goals are public
            for q in range(players):
                assert len(o[q][2]) == view["face_down_counts"][q]
                assert o[q][0] + o[q][1] <= view["hand_sizes"][q]


def test_belief_is_seeded_and_reads_only_the_information_state():
    s = heuristic_positions(3, 4)[3]
    me = s.current_player()
    b = belief(s, me, samples=64, seed=7)
    assert b == belief(s, me, samples=64, seed=7)
    # A world the player cannot tell from the true state has the same belief.
    w = s.resample(me, 11)
    assert w.information_state_string(me) == s.information_state_string(me)
    assert belief(w, me, samples=64, seed=7) == b
    with pytest.raises(ValueError, match="epsilon"):
        belief(s, me, epsilon=0.0)
    with pytest.raises(ValueError, match="samples"):
        belief(s, me, samples=0)


def test_steering_evidence_moves_the_belief_toward_the_true_goals():
    """In heuristic self-play (the opponent model's own play), the true goal
    cards of the other players get more probability than under the
    resampler alone (epsilon = 1: every world weighted 1)."""
    gain, compared = 0.0, 0
    for seed in range(3):
        for s in heuristic_positions(3, 10 + seed, every=7, limit=8):
            me = s.current_player()
            truth = GT.gold_thief_hidden(s.engine)
            post = belief(s, me, samples=96, seed=seed)
            prior = belief(s, me, samples=96, seed=seed, epsilon=1.0)
            for q in range(3):
                if q == me:
                    continue
                p_post = sum(p for o, p in zip(post.outcomes, post.probs) if o[q][2] == truth[q][2])
                p_prior = sum(p for o, p in zip(prior.outcomes, prior.probs)
                              if o[q][2] == truth[q][2])
                gain += p_post - p_prior
                compared += 1
    assert compared >= 20
    assert gain / compared > 0.0


def test_acceptance_is_the_worlds_likelihood_and_belief_worlds_are_consistent():
    s = heuristic_positions(2, 5)[4]
    me = s.current_player()
    accept = world_acceptance(s, me)
    numbers = GT._numbers(s.engine)
    record = GT.steering_record(s, me, 0)
    for ws in range(8):
        w = s.engine.py_resample(me, ws)
        a = accept(w)
        assert 0.0 < a <= 1.0
        assert a == GT.record_likelihood(record, lambda q: tuple(w.goals_down(q)), numbers,
                                         GT.GOAL_EPSILON)
    worlds, draws = I._belief_worlds(s, me, True, 6, I.SplitMix64(2))
    assert len(worlds) == 6 and draws >= 6
    key = s.engine.py_info_key(me)
    assert all(w.py_info_key(me) == key for w in worlds)
