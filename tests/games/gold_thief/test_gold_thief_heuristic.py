"""Gold Thief's compiled heuristic and abstraction (``src_cy/gold_thief/heuristic.pyx``)
against the Python reference (``heuristic_reference.py``, the rules, buckets and
candidates as they were written in Python): the same move, bucket and
candidates at every decision of seeded games, over player counts and the
parameters they read, in every kind of decision."""
import random

import pyspiel
import pytest

from games.gold_thief.abstraction import ABSTRACTIONS, gold_thief_compact, gold_thief_windows
from games.gold_thief.ai import GoldThiefHeuristicBot
from solvers.mccfr import HeuristicOpponents
from src_cy.gold_thief.engine import ACTION_LAYOUT
from src_cy.gold_thief.heuristic import choose
from tests.games.gold_thief.heuristic_reference import (reference_candidates, reference_choose,
                                                        reference_compact, reference_windows)
from tests.test_abstraction import _saboteur_decisions

PHASES = {"play", "respond", "ninja-window", "witch-give", "big-pile-flip"}

# (parameters, games): player counts, and the variants that change what the
# heuristic reads (a low big pile: flips; other goal cards and goals to win;
# raids on raids; decks rich in Witches, Faeries and Ninjas: more windows).
VARIANTS = [
    ({"players": 2}, 100),
    ({"players": 3}, 50),
    ({"players": 4}, 30),
    ({"players": 5}, 25),
    ({"players": 2, "big_pile": 6, "start_gold": 4}, 60),
    ({"players": 3, "goals": "2/8;3/7;4/9;5/6;1/10;0/12", "goals_to_win": 2,
      "hand_size": 5}, 40),
    ({"players": 4, "raid_raids": True, "witches": 16, "faeries": 10, "ninjas": 8,
      "start_gold": 8}, 25),
]
# The kinds of answer, by the first id of their block (``actions.pxd``).
KINDS = ("A_GIVE", "A_BIG_FLIP", "A_NINJA_SCORE", "A_FAERIE_CANCEL", "A_WITCH_EXTRA",
         "A_THIEF_RAID", "A_GUARD_CANCEL", "A_NINJA", "A_FAERIE", "A_WITCH", "A_GUARD",
         "A_THIEF", "A_PASS", "A_END_TURN")


def _kind(action: int) -> str:
    """The action block ``action`` belongs to (e.g. A_THIEF for Thief on seat 1)."""
    return next(k for k in KINDS if action >= ACTION_LAYOUT[k])


def _seed(params: dict) -> int:
    return len(params) * 7 + params["players"]


def _decisions(params: dict, games_n: int, seed: int):
    """(state, player) at every decision of seeded games whose moves mix the
    heuristic's (so its own positions come up) and uniform random ones: a
    third of the games at each share of heuristic moves, 0, 1/2 and 9/10."""
    game = pyspiel.load_game("gold_thief", params)
    for k, mix in enumerate((0.0, 0.5, 0.9)):
        def move(state, rng, mix=mix):
            if rng.random() < mix:
                return choose(state.engine, state.current_player())
            return rng.choice(state.legal_actions())
        yield from _saboteur_decisions(games_n // 3, seed * 3 + k, game, move)


@pytest.mark.parametrize("params,games_n", VARIANTS)
def test_compiled_rules_equal_the_reference_at_every_decision(params, games_n):
    seen = 0
    for state, p in _decisions(params, games_n, _seed(params)):
        legal = state.legal_actions()
        view = state.engine.player_view(p)
        want = reference_choose(view, set(legal))
        got = choose(state.engine, p)
        assert got == want, (params, view, legal)
        assert got in legal
        seen += 1
    assert seen > 2000


def test_the_comparison_reaches_every_decision_kind_and_every_answer():
    """The games compared above (same seeds) reach every kind of decision,
    and the heuristic gives every kind of answer in them: each of its rules is
    compared somewhere."""
    phases, answers = set(), set()
    for params, games_n in VARIANTS:
        for state, p in _decisions(params, games_n, _seed(params)):
            phases.add(state.engine.public_view()["phase"])
            answers.add(_kind(choose(state.engine, p)))
    assert phases == PHASES
    assert answers == set(KINDS)


def test_the_bot_and_the_solvers_opponents_call_the_compiled_rules():
    game = pyspiel.load_game("gold_thief", {"players": 3})
    bot = GoldThiefHeuristicBot(game)
    opponents = HeuristicOpponents(game)
    assert GoldThiefHeuristicBot.engine_rule is choose and opponents.rule is choose
    assert not hasattr(GoldThiefHeuristicBot, "_choose")
    for n, (state, p) in enumerate(_decisions({"players": 3}, 4, seed=11)):
        if n % 5:
            continue
        legal = state.legal_actions()
        want = choose(state.engine, p)
        assert bot.choose(state, p, legal) == want
        assert opponents(p, state.engine) == want
        assert bot.choose_on_engine(state.engine, p, sorted(legal)) == \
            (legal[0] if len(legal) == 1 else want)


def test_same_answer_in_every_world_of_the_information_state():
    """The rules read only the player's information: a resampled world (same
    information state, other hidden cards and goals) gets the same answer."""
    rng = random.Random(5)
    checked = 0
    for n, (state, p) in enumerate(_decisions({"players": 3}, 6, seed=21)):
        if n % 4:
            continue
        world = state.resample(p, rng.randrange(1 << 30))
        assert world.information_state_string(p) == state.information_state_string(p)
        assert choose(world.engine, p) == choose(state.engine, p)
        checked += 1
    assert checked > 50


def test_bad_input_is_refused_and_the_state_is_unchanged():
    """The rules, the candidates and the bucket refuse a wrong seat, a seat
    not to move (a bucket needs none), a foreign action id and a non-engine."""
    state = next(s for s, _ in _decisions({"players": 3}, 3, seed=1))
    p = state.current_player()
    before, legal = state.history(), state.legal_actions()
    actions = ABSTRACTIONS.actions["gold_thief_actions"]
    for call in (lambda q: choose(state.engine, q),
                 lambda q: actions.candidates(q, state.engine, legal)):
        with pytest.raises(ValueError, match="player must be in"):
            call(3)
        with pytest.raises(ValueError, match="is not to move"):
            call((p + 1) % 3)
    with pytest.raises(ValueError, match="player must be in"):
        gold_thief_compact(3, state.engine)
    with pytest.raises(ValueError, match="not a Gold Thief action id"):
        actions.candidates(p, state.engine, legal + [99])
    for call in (lambda: choose(None, p), lambda: gold_thief_compact(0, None),
                 lambda: choose(pyspiel.load_game("gold_nugget").make_engine(), 0)):
        with pytest.raises(TypeError):
            call()
    assert state.history() == before and choose(state.engine, p) in legal


ACTION_ABSTRACTIONS = ("gold_thief_actions", "gold_thief_responses", "gold_thief_turns",
                       "gold_thief_defence")


@pytest.mark.parametrize("params,games_n", VARIANTS[::2])
def test_compiled_abstraction_equals_the_reference_at_every_decision(params, games_n):
    """Every action abstraction's candidates and both buckets equal the Python
    originals (``heuristic_reference.py``) at every decision; the buckets of
    every other seat too (a bucket needs no move)."""
    seen = 0
    for state, p in _decisions(params, games_n, _seed(params) + 1):
        e, legal = state.engine, state.legal_actions()
        for name in ACTION_ABSTRACTIONS:
            assert ABSTRACTIONS.actions[name].candidates(p, e, legal) == \
                reference_candidates(name, p, e, legal), (name, e.player_view(p))
        for q in range(params["players"]):
            assert gold_thief_compact(q, e) == reference_compact(q, e)
            assert gold_thief_windows(q, e) == reference_windows(q, e)
        seen += 1
    assert seen > 1000
