"""The compiled Saboteur heuristic (``src_cy/saboteur/heuristic.pyx``) is the
Python rules it replaced (``heuristic_reference.py``, the oracle): the same
move at every decision of seeded games of every size and parameter variant,
legal, reading only the mover's information; and it is what the bot, the
abstraction and the solvers' fixed opponents play.  The compiled abstraction
(candidates of ``saboteur_actions``, ``saboteur_compact`` buckets) is its
Python original likewise."""
from __future__ import annotations

import numpy as np
import pyspiel
import pytest

from games.saboteur.ai import ActionIds, SaboteurHeuristicBot
from games.saboteur.search import BeliefSaboteurBot
from heuristic_reference import ReferenceHeuristic, reference_candidates, reference_compact
from solvers.mccfr import HeuristicOpponents
from src_cy.rng import SplitMix64
from src_cy.saboteur.heuristic import abstract_candidates, choose, choose_among, compact_bucket

# Every player count, one and three rounds, and the parameters the rules read
# (maze size: goal_distance; cards: deck_scale, hand_size; gold hand-out).
GAMES = [f"saboteur(players={n},rounds={1 + 2 * (n % 2)})" for n in range(3, 11)] + [
    "saboteur(players=3,rounds=1,goal_distance=3,deck_scale=25,hand_size=3)",
    "saboteur(players=4,rounds=3,goal_distance=4,gold_handout=finder)",
    "saboteur(players=5,rounds=2,goal_distance=2,deck_scale=40,utility=win)",
    "saboteur(players=6,rounds=3,gold_handout=finder,hand_size=4)",
    "saboteur(players=7,rounds=1,goal_distance=5,deck_scale=70,utility=win)",
]


def _decisions(game: pyspiel.Game, seed: int, random_share: float):
    """Engines at every decision of one seeded game: chance uniform, each
    move random with probability ``random_share``, else the heuristic's."""
    e = game.make_engine()
    rng = SplitMix64(seed)
    while not e.py_is_terminal():
        cur = e.py_current_player()
        if cur < 0:
            outcomes = sorted(a for a, _ in e.py_chance_outcomes())
            e.py_apply(outcomes[rng.randint(len(outcomes))])
            continue
        yield e, cur
        legal = e.py_legal_actions()
        if rng.random() < random_share:
            e.py_apply(legal[rng.randint(len(legal))])
        else:
            e.py_apply(choose(e, cur))


def _reference(game: pyspiel.Game) -> ReferenceHeuristic:
    return ReferenceHeuristic(int(game.get_parameters()["goal_distance"]), game.num_players())


@pytest.mark.parametrize("spec", GAMES)
def test_compiled_rule_plays_the_reference_move_everywhere(spec):
    game = pyspiel.load_game(spec)
    ref = _reference(game)
    kinds = set()
    for seed, share in enumerate((0.0, 0.25, 0.5, 0.75, 1.0)):
        for e, cur in _decisions(game, seed, share):
            legal = e.py_legal_actions()
            a = choose(e, cur)
            assert a in legal
            assert a == ref.choose(e, cur, legal), (spec, seed, e.py_history())
            kinds.add(ActionIds.of(e).kind_of(a))
    assert {"place", "pass"} <= kinds
    assert kinds & {"keep", "hand_on"}                      # gold hand-outs decided


@pytest.mark.parametrize("spec", GAMES[::2] + GAMES[9:10])
def test_compiled_abstraction_is_the_reference(spec):
    """Every decision's candidates and every seat's bucket equal the Python
    originals, through the spec's abstraction objects too."""
    from games.saboteur.abstraction import ABSTRACTIONS
    actions = ABSTRACTIONS.actions["saboteur_actions"]
    compact = ABSTRACTIONS.information["saboteur_compact"]
    game = pyspiel.load_game(spec)
    named = set()
    for seed, share in enumerate((0.0, 0.5, 1.0)):
        for e, cur in _decisions(game, seed, share):
            legal = e.py_legal_actions()
            cands = reference_candidates(cur, e, legal)
            assert abstract_candidates(e, cur, legal) == cands
            assert actions.candidates(cur, e, legal) == cands
            named.update(k for k, a in enumerate(cands) if a is not None)
            for p in range(game.num_players()):
                bucket = reference_compact(p, e)
                assert compact_bucket(e, p) == bucket and compact(p, e) == bucket
                assert repr(compact_bucket(e, p)) == repr(bucket)       # the row labels
    assert named >= {0, 1, 4, 7}
    with pytest.raises(ValueError, match="player must be"):
        compact_bucket(e, game.num_players())


@pytest.mark.parametrize("spec", GAMES[:3] + GAMES[-4:-2])
def test_rule_among_a_subset_of_moves_plays_the_reference_move(spec):
    """``choose_among`` (what ``BeliefSaboteurBot`` calls after filtering)."""
    game = pyspiel.load_game(spec)
    ref = _reference(game)
    rng = SplitMix64(7)
    checked = 0
    for e, cur in _decisions(game, 3, 0.4):
        legal = e.py_legal_actions()
        subset = [a for a in legal if rng.random() < 0.5] or legal[-1:]
        assert choose_among(e, cur, subset) == ref.choose(e, cur, subset)
        assert choose_among(e, cur, legal) == choose(e, cur)
        checked += 1
    assert checked > 20


@pytest.mark.parametrize("spec", ["saboteur(players=5,rounds=3)", GAMES[-2]])
def test_rule_reads_only_the_movers_information(spec):
    """Worlds resampled from the mover's information state get the same move."""
    game = pyspiel.load_game(spec)
    worlds = 0
    for i, (e, cur) in enumerate(_decisions(game, 5, 0.5)):
        if i % 7:
            continue
        a = choose(e, cur)
        for seed in range(4):
            w = e.py_resample(cur, seed)
            assert w.py_info_key(cur) == e.py_info_key(cur)
            assert choose(w, cur) == a
            worlds += 1
    assert worlds > 40


def test_bad_calls_raise_and_leave_the_engine_alone():
    game = pyspiel.load_game("saboteur(players=4,rounds=1)")
    e = game.make_engine()
    with pytest.raises(ValueError, match="chance"):
        choose(e, 0)
    e, cur = next(iter(_decisions(game, 0, 0.0)))
    history = e.py_history()
    with pytest.raises(ValueError, match="not to move"):
        choose(e, (cur + 1) % 4)
    with pytest.raises(ValueError, match="not legal"):
        choose_among(e, cur, [max(e.py_legal_actions()) + 1])
    with pytest.raises(ValueError, match="at least one"):
        choose_among(e, cur, [])
    with pytest.raises(TypeError):
        choose("engine", cur)
    assert e.py_history() == history
    for world in _decisions(game, 0, 1.0):
        pass
    with pytest.raises(ValueError, match="terminal"):
        choose(world[0], 0)


def test_the_compiled_rule_is_what_the_bots_and_solvers_play():
    game = pyspiel.load_game("saboteur(players=4,rounds=1)")
    assert SaboteurHeuristicBot.engine_rule is choose
    assert HeuristicOpponents(game).rule is choose
    assert BeliefSaboteurBot.engine_rule is None          # its own rules, not the heuristic's
    bot = SaboteurHeuristicBot(game)
    state = game.new_initial_state()
    rng = SplitMix64(11)
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = sorted(a for a, _ in state.chance_outcomes())
            state.apply_action(outcomes[rng.randint(len(outcomes))])
            continue
        cur = state.current_player()
        a = bot.step(state)
        assert a == choose(state.engine, cur)
        assert bot.choose_on_engine(state.engine, cur, sorted(state.legal_actions())) == a
        state.apply_action(a)
        moves += 1
    assert moves > 20


def test_mccfr_core_calls_the_compiled_rule_without_the_wrapper():
    """Fixed opponents naming a compiled ``rule`` are played through it (the
    wrapper's own call is never made), with the same tables as the wrapper."""
    from solvers.mccfr import MCCFRSolver

    class RuleOnly:
        rule = staticmethod(choose)

        def __call__(self, player, x):
            raise AssertionError("the Python wrapper was called")

    game = pyspiel.load_game(GAMES[8])
    tables = []
    for opponents in (RuleOnly(), lambda player, engine: choose(engine, player)):
        s = MCCFRSolver(game, scheme="probe", seed=4, fixed_opponents=opponents,
                        abstraction="saboteur_compact", action_abstraction="saboteur_actions")
        s.run(3)
        tables.append(s._core.get_state())
    assert sorted(tables[0]) == sorted(tables[1])
    for key, value in tables[0].items():
        assert np.array_equal(np.asarray(value), np.asarray(tables[1][key])), key
    assert len(tables[0]["player"]) > 1
