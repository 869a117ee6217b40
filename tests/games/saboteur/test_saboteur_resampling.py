"""Saboteur resampling while another player decides in a gold hand-out.

A recipient (or the finder) is asked only while the cards left hold two
values or more, so a world for a player who does not see those cards must
draw them under that constraint (rules doc, "Resampling", step 4).  The draw
is constructive: every world replays to the player's information state and
``resample_failures`` stays 0 (the true history is never used)."""
from __future__ import annotations

import functools

import pyspiel
import pytest

from games import testing
from src_cy.rng import SplitMix64
from src_cy.saboteur.engine import (DEFAULT_RESAMPLE_PROPOSALS, _public_legal_count, _world_paths,
                              resample_failures, set_resample_proposals)
from test_saboteur import CROSS, DIG, FILLER, IDLE, SAB, Acts, play, setup, view


def _five(draws, kept, handout):
    """5 players, p0 completes; recipients p0, p3, p2.  Chance draws ``draws``
    (value indices); p0 keeps ``kept``; then p3 (``pick``) or p0 for p3
    (``finder``) decides among the cards left."""
    hands = [[CROSS]] + [[FILLER]] * 4
    state = setup([DIG, SAB, DIG, DIG, SAB], 2, hands, gold_handout=handout)
    a = Acts(state)
    play(state, a.place(CROSS, 1, 0), *draws, a.keep(kept))
    assert not state.is_chance_node() and not state.is_terminal()
    assert view(state)["phase"] == "share"
    assert sum(1 for x in view(state)["gold_drawn"] if x) >= 2
    return state


def _replays_to(world: pyspiel.State) -> bool:
    again = world.get_game().new_initial_state()
    for action in world.history():
        again.apply_action(action)
    return again.serialize() == world.serialize()


@pytest.mark.parametrize("handout,decider", [("pick", 3), ("finder", 0)])
@pytest.mark.parametrize("p", [1, 2, 4])
def test_worlds_keep_the_key_while_another_player_decides(handout, decider, p):
    state = _five((0, 2, 1), 2, handout)          # p0 keeps the 3; 1 and 2 left
    assert state.current_player() == decider != p
    key = state.engine.py_info_key(p)
    info = state.information_state_string(p)
    before = resample_failures()
    left = set()
    for seed in range(150):
        world = state.resample(p, seed)
        assert world.engine.py_info_key(p) == key
        assert world.information_state_string(p) == info
        assert world.current_player() == decider
        drawn = view(world)["gold_drawn"]
        assert sum(1 for x in drawn if x) >= 2       # the decision is real
        left.add(tuple(drawn))
        if seed % 10 == 0:
            assert _replays_to(world)
    assert len(left) > 1                              # the unseen cards vary
    assert resample_failures() == before == 0


@pytest.mark.parametrize("handout", ["pick", "finder"])
def test_undecidable_worlds_are_never_drawn_and_distribution_is_informational(handout, stat_seed):
    """p2 cannot tell "drew 1, 3, 2 and kept the 3" from "drew 3, 1, 3 and kept
    a 3" (both leave two values to decide on); the worlds drawn from either
    have one distribution."""
    first = _five((0, 2, 1), 2, handout)
    second = _five((2, 0, 2), 2, handout)
    for p in (1, 2, 4):
        assert first.information_state_string(p) == second.information_state_string(p)
    assert first.information_state_string(3) != second.information_state_string(3) \
        or handout == "finder"

    def feature(world):
        v = view(world)
        return tuple(v["gold_drawn"]), tuple(v["gold_cards"][0])

    before = resample_failures()
    testing.check_resample_distribution(first, second, 2, feature, n=300, seed=stat_seed(3))
    testing.check_resample_distribution(first, second, 1, feature, n=300, seed=stat_seed(4))
    assert resample_failures() == before == 0


def test_a_pick_the_player_did_not_see_is_inferred_from_the_decision():
    """10 players, pick: p1 draws 3,1,1,1,1,1 for the six diggers and keeps a 1
    (keeping the 3 would leave only 1s); p0 keeps a card p1 does not see and
    passes four on to p9, who is asked.  Had p0 kept the 3, p9 would hold four
    1s and take one automatically, so in every world for p1, p0 kept a 1 and
    p9 holds the 3 and three 1s (drawn in 4 of 5 gold sub-draws; the rest are
    redrawn, never the whole world)."""
    roles = [DIG, DIG, SAB, SAB, DIG, DIG, SAB, DIG, SAB, DIG]
    hands = [[FILLER] * 4 for _ in range(10)]
    hands[3][0] = CROSS
    state = setup(roles, 2, hands)
    a = Acts(state)
    for _ in range(3):
        play(state, IDLE)
    play(state, a.place(CROSS, 1, 0))
    assert view(state)["gold_recipients"] == [1, 0, 9, 7, 5, 4]
    play(state, 2, 0, 0, 0, 0, 0)
    play(state, a.keep(0))                          # p1 keeps a 1
    play(state, a.keep(0))                          # p0 keeps a 1
    assert state.current_player() == 9
    assert view(state)["gold_drawn"] == [3, 0, 1]
    key = state.engine.py_info_key(1)
    before = resample_failures()
    for seed in range(100):
        world = state.resample(1, seed)
        assert world.engine.py_info_key(1) == key
        assert view(world)["gold_cards"][0] == [1, 0, 0]
        assert view(world)["gold_drawn"] == [3, 0, 1]
    assert resample_failures() == before == 0


@pytest.mark.parametrize("players", range(3, 11))
def test_every_resample_replays_along_random_games(players):
    """Many random positions, every player: each world replays to the
    player's information state.  A failed draw is a bug and raises
    RuntimeError (the true history is never returned instead)."""
    game = pyspiel.load_game("saboteur", {"players": players, "rounds": 1,
                                          "deck_scale": 30, "goal_distance": 2})
    before = resample_failures()
    done = 0
    for state in testing.random_states(game, 3, seed=players, every=7):
        if state.is_terminal():
            continue
        for p in range(players):
            key = state.engine.py_info_key(p)
            world = state.engine.py_resample(p, done)
            assert world.py_info_key(p) == key
            done += 1
    assert done >= 10 * players
    assert resample_failures() == before == 0


def _play_both(world, again, rng: SplitMix64, steps: int) -> None:
    """Apply the same ``steps`` random actions (chance by a uniform pick of
    its outcomes) to two engines, stopping at the end of the game."""
    for _ in range(steps):
        if world.py_is_terminal():
            break
        if world.py_current_player() < 0:
            outs = world.py_chance_outcomes()
            action = outs[rng.randint(len(outs))][0]
        else:
            legal = world.py_legal_actions()
            action = legal[rng.randint(len(legal))]
        world.py_apply(action)
        again.py_apply(action)


@pytest.mark.parametrize("players,rounds", [(3, 2), (5, 1), (7, 3), (10, 2)])
def test_worlds_set_in_place_equal_their_replay(players, rounds):
    """A world drawn during the first round is set in place (its hidden
    parts rebuilt from the position's log, no replay); after a round ended
    it is replayed.  Either way it is the state its history replays to:
    the full state, every player's key, record and information string, the
    legal actions and the invariants equal those of a fresh replay."""
    game = pyspiel.load_game("saboteur", {"players": players, "rounds": rounds,
                                          "deck_scale": 40})
    in_place0, replayed0 = _world_paths()
    done = 0
    for state in testing.random_states(game, 2, seed=players, every=6):
        if state.is_terminal():
            continue
        for p in (0, players // 2, players - 1):
            world = state.engine.py_resample(p, done)
            again = state.engine.py_clone()
            again.replay_checked(world.py_history(), "a drawn history")
            world.check_invariants()
            assert world.state_view() == again.state_view()
            for q in range(players):
                assert world.py_info_key(q) == again.py_info_key(q)
                assert world.event_log(q) == again.event_log(q)
                assert world.info_string(q) == again.info_string(q)
            assert world.py_legal_actions() == again.py_legal_actions()
            assert world.frontier() == again.frontier()
            done += 1
        # A world played on before its keys are read (into the next round
        # where there is one) still has the replay's keys: those not read
        # yet are hashed from the log before the round changes.
        world = state.engine.py_resample(0, done)
        again = state.engine.py_clone()
        again.replay_checked(world.py_history(), "a drawn history")
        _play_both(world, again, SplitMix64(done), 60)
        world.check_invariants()
        assert [world.py_info_key(q) for q in range(players)] == \
            [again.py_info_key(q) for q in range(players)]
    in_place, replayed = _world_paths()
    assert in_place - in_place0 >= 10
    assert (replayed > replayed0) == (rounds > 1)


# ------------------------------------------- importance-corrected card draw
SMALL = {"players": 3, "rounds": 1, "goal_distance": 3, "deck_scale": 10, "hand_size": 2}


@functools.lru_cache(maxsize=None)
def _small_information_sets() -> list:
    """(state, player to move, exact posterior) at decision states along
    seeded random games of a preset small enough to enumerate."""
    game = pyspiel.load_game("saboteur", SMALL)
    out = []
    for state in testing.random_states(game, 8, seed=5, every=2):
        if state.is_chance_node() or state.is_terminal() or len(state.history()) < 10:
            continue
        p = state.current_player()
        exact = testing.exact_posterior(game, state, p, max_nodes=300_000)
        if exact is not None and len(exact) >= 3:
            out.append((state, p, exact))
        if len(out) == 10:
            break
    return out


@pytest.fixture
def proposals():
    """Restore K after a test changes it."""
    old = set_resample_proposals(DEFAULT_RESAMPLE_PROPOSALS)
    yield
    set_resample_proposals(old)


def test_card_draw_matches_exact_enumeration(proposals, stat_seed) -> None:
    """With the default K the worlds follow the uniform-opponent posterior
    (chi-square against the enumeration) on every information set, among
    them players to move after an opponent's public plays and passes."""
    sets = _small_information_sets()
    assert len(sets) >= 8
    n = 3000
    for state, p, exact in sets:
        seen = testing.drawn_histories(state, p, n, stat_seed(9))
        assert set(seen) <= set(exact)
        assert testing.exact_chisquare_pvalue(seen, exact, n) > 1e-3, (state.history(), p)


def test_uncorrected_card_proposal_is_refused(proposals, stat_seed) -> None:
    """K = 1, the bare proposal (a public play from a uniformly chosen held
    card), is refused by the same check, so the test above can fail; bad K
    is refused."""
    with pytest.raises(ValueError, match="proposals"):
        set_resample_proposals(0)
    set_resample_proposals(1)
    n = 3000
    assert testing.worst_exact_pvalue(_small_information_sets(), n, stat_seed(9)) < 1e-6


@pytest.mark.parametrize("players,deck_scale", [(3, 100), (5, 40), (7, 100), (10, 60)])
def test_weights_count_the_legal_actions_from_public_counts(players, deck_scale):
    """The resampler weighs a proposal without replaying it: the mover's
    legal actions at an opponent's decision follow from public counts of
    that position and the kinds the proposal gives the mover.  That count
    equals ``legal_actions`` at every play decision of random games (broken
    tools, rockfalls and maps included)."""
    game = pyspiel.load_game("saboteur", {"players": players, "rounds": 1,
                                          "deck_scale": deck_scale})
    checked = 0
    for state in testing.random_states(game, 4, seed=players):
        if state.is_terminal() or state.is_chance_node() or view(state)["phase"] != "play":
            continue
        assert _public_legal_count(state.engine) == len(state.legal_actions())
        checked += 1
    assert checked >= 40


def test_worlds_do_not_depend_on_earlier_resamples():
    """The resampler records the public counts of a position once and reuses
    them while the same player resamples the same position (same game, same
    event log): a seed draws the same world whatever was resampled just
    before, another player of the same position or the same step of another
    game (a record the draw must not reuse)."""
    game = pyspiel.load_game("saboteur", {"players": 5, "rounds": 1})
    by_step: dict = {}
    for s in testing.random_states(game, 2, seed=3, every=9):
        if not s.is_terminal() and len(s.history()) > 40:
            by_step.setdefault(len(s.history()), []).append(s)
    pairs = [v for v in by_step.values() if len(v) == 2]
    assert len(pairs) >= 3
    reset = pairs[0][0]

    def draws(state, p):
        return [state.engine.py_resample(p, seed).py_history() for seed in range(10)]

    for a, b in pairs[1:]:
        for p in (0, 2):
            for target, before in (((a, p), (b, p)), ((b, p), (a, p)), ((a, p), (a, p + 1))):
                reset.engine.py_resample(4, 0)
                fresh = draws(*target)
                reset.engine.py_resample(4, 0)
                before[0].engine.py_resample(before[1], 7)
                assert draws(*target) == fresh


def test_keys_of_worlds_drawn_in_a_row_into_one_engine():
    """The search draws every world into one scratch engine and reads the
    other players' keys (left stale by the resampler) after a move or two;
    ``rehash_keys`` keeps the public tokens of the resampled log between
    those worlds.  Worlds of two positions of different games, drawn in
    turns into one engine and played on for 0-2 actions, have every key a
    fresh replay of their history gives (the two games' positions in turn
    have logs of one length, so only the cache's public hash tells them
    apart)."""
    game = pyspiel.load_game("saboteur", {"players": 5, "rounds": 1})
    pairs = [[s for s in testing.random_states(game, 1, seed=seed, every=5)
              if s.current_player() >= 0 and len(s.history()) > 30][:2] for seed in (3, 4)]
    states = [pairs[0][0], pairs[1][0], pairs[0][1], pairs[1][1]]
    assert [len(s.history()) for s in states[::2]] == [len(s.history()) for s in states[1::2]]
    scratch = states[0].engine.py_clone()
    rng = SplitMix64(9)
    in_place0, _ = _world_paths()
    for k in range(48):
        state = states[(k // 2) % len(states)]
        p = state.current_player() if k % 3 else (state.current_player() + 1) % 5
        world = state.engine.py_resample_into(scratch, p, k)
        again = state.engine.py_clone()
        again.replay_checked(world.py_history(), "a drawn history")
        _play_both(world, again, rng, k % 3)
        order = [(q + k) % 5 for q in range(5)]
        assert [world.py_info_key(q) for q in order] == [again.py_info_key(q) for q in order]
    in_place, _ = _world_paths()
    assert in_place - in_place0 >= 30
