"""Gold Thief as an OpenSpiel game (``pyspiel.load_game("gold_thief")``).

Rules as implemented, with every assumption: ``docs/rules/gold_thief.md``.  The rules live in the Cython engine
``src_cy/gold_thief/engine.pyx``; this module declares the parameters (``PARAMS``),
validates them and registers the game.

Action encoding (player actions; ``v`` a seat, ``g`` a goal id, ``t`` a card
type 0 Thief, 1 Guard, 2 Witch, 3 Faerie, 4 Ninja):

=========  ===================  ===============================================
id         name                 when
=========  ===================  ===============================================
0          End turn             own turn, play phase
1          Pass                 response window / Ninja window
2 + v      Thief on v           own turn: steal 2 gold from v (v has gold)
7 + v      Guard to v           own turn: give 1 gold to v (you have gold)
12 + v     Witch on v           own turn: steal a card of v's choice
17 + g     Faerie, goal g       own turn: goal g to the pile bottom, draw one
41         Ninja                own turn: draw 3 cards
42         Guard: cancel        window after a Thief, raid or Witch-as-Thief
43         Thief: raid          window after a Thief or raid: steal 1 from it
44         Witch: extra Thief   window after a Thief or raid: repeat its theft
45         Faerie: cancel       window after a Guard or a Witch
46 + g     Ninja: score g       Ninja window at the start of another's turn
70 + g     Flip goal g          start of turn with more than ``big_pile`` gold
94 + t     Give card t          Witch victim chooses the card
=========  ===================  ===============================================

Chance outcomes: ``0 + t`` draw card type t; ``5 + g`` goal g; ``29 + v``
seat v plays first.
"""
from __future__ import annotations

import pyspiel

from games._adapter import EngineGame, engine_game_type
from games._adapter import engine_of, view_of
from games.params import Param, ParameterError, ParamTable
from games.spec import BenchRow, GameSpec, lazy, register_spec
from src_cy.gold_thief.engine import ACTION_LAYOUT as _IDS
from src_cy.gold_thief.engine import GoldThiefEngine, GoldThiefParams
from src_cy.gold_thief.view import GoldThiefView  # noqa: F401  (re-exported)

# The action layout, read from its one definition, ``src_cy/gold_thief/actions.pxd``
# (the engine exports it as ``ACTION_LAYOUT``).  Other Python modules import
# the ids from here.
MAX_PLAYERS = _IDS["MAX_PLAYERS"]
NUM_CARD_TYPES = _IDS["NUM_CARD_TYPES"]
MAX_GOALS = _IDS["MAX_GOALS"]
THIEF = _IDS["THIEF"]                  # card types
GUARD = _IDS["GUARD"]
WITCH = _IDS["WITCH"]
FAERIE = _IDS["FAERIE"]
NINJA = _IDS["NINJA"]
A_END_TURN = _IDS["A_END_TURN"]
A_PASS = _IDS["A_PASS"]
A_THIEF = _IDS["A_THIEF"]  # + victim seat
A_GUARD = _IDS["A_GUARD"]  # + recipient seat
A_WITCH = _IDS["A_WITCH"]  # + victim seat
A_FAERIE = _IDS["A_FAERIE"]  # + goal id
A_NINJA = _IDS["A_NINJA"]
A_GUARD_CANCEL = _IDS["A_GUARD_CANCEL"]
A_THIEF_RAID = _IDS["A_THIEF_RAID"]
A_WITCH_EXTRA = _IDS["A_WITCH_EXTRA"]
A_FAERIE_CANCEL = _IDS["A_FAERIE_CANCEL"]
A_NINJA_SCORE = _IDS["A_NINJA_SCORE"]  # + goal id
A_BIG_FLIP = _IDS["A_BIG_FLIP"]  # + goal id
A_GIVE = _IDS["A_GIVE"]  # + card type
NUM_ACTIONS = _IDS["NUM_ACTIONS"]
C_CARD = _IDS["C_CARD"]  # chance: + card type
C_GOAL = _IDS["C_GOAL"]  # chance: + goal id
C_FIRST = _IDS["C_FIRST"]  # chance: + seat
NUM_CHANCE_OUTCOMES = _IDS["NUM_CHANCE_OUTCOMES"]
MAX_CARDS = 64
CARD_NAMES = ("Thief", "Guard", "Witch", "Faerie", "Ninja")

# The 16 goal cards (designed; see docs/rules/gold_thief.md): low numbers 0-4
# meet high numbers 6-10 at offsets 0, 2 and 4 (mod 5), plus [1 or 8].
DEFAULT_GOALS = ("0/6;0/8;0/10;1/7;1/9;1/6;2/8;2/10;2/7;"
                 "3/9;3/6;3/8;4/10;4/7;4/9;1/8")

_DECK = "the five card counts total <= 64 and >= players * hand_size"
_CARD_PARAMS = ("thieves", "guards", "witches", "faeries", "ninjas")

#: The parameters (the one table: GameType defaults, validation, rules doc).
PARAMS = ParamTable("gold_thief", [
    Param("players", 4, "seats", 2, 5),
    Param("thieves", 14, "Thief cards (the deck: 40 action cards)", 0, 30, valid=_DECK),
    Param("guards", 10, "Guard cards", 0, 30, valid=_DECK),
    Param("witches", 10, "Witch cards", 0, 30, valid=_DECK),
    Param("faeries", 4, "Faerie cards", 0, 30, valid=_DECK),
    Param("ninjas", 2, "Ninja cards", 0, 30, valid=_DECK),
    Param("hand_size", 3, "\"draw until you have three\"", 1, 6),
    Param("start_gold", 5, "gold per player at the start", 0, 12),
    Param("goals", DEFAULT_GOALS, "goal cards (the table below)",
          valid=f"1..{MAX_GOALS} cards `a/b` separated by `;`, numbers 0..63, "
                f"at least `players` cards"),
    Param("goals_to_win", 3, "\"when you flip your third Goal Card, you win\"", 1, 5),
    Param("big_pile", 10, "more than this much gold at the start of a turn flips any goal",
          0, 63),
    Param("max_turns", 100, "turns before an unfinished game is a draw", 1, 1000),
    Param("first_player", -1, "-1: a chance node picks the first player uniformly",
          -1, MAX_PLAYERS - 1, valid="below `players`"),
    Param("raid_raids", False, "a raid may itself be raided (assumption 8; the earlier "
                               "reading)"),
])

_GAME_TYPE = engine_game_type("Gold Thief", PARAMS)


def parse_goals(text: str) -> list[tuple[int, int]]:
    """Parse ``"a/b;c/d;..."`` into goal pairs; ParameterError if malformed."""
    goals = []
    for item in str(text).split(";"):
        parts = item.strip().split("/")
        try:
            a, b = (int(x) for x in parts)
        except ValueError:
            raise ParameterError(
                f"parameter goals: {item!r} is not 'a/b' with two whole numbers") from None
        for x in (a, b):
            if not 0 <= x <= 63:
                raise ParameterError(f"parameter goals: number {x} out of range; valid: 0..63")
        goals.append((a, b))
    if not 1 <= len(goals) <= MAX_GOALS:
        raise ParameterError(f"parameter goals has {len(goals)} cards; valid: 1..{MAX_GOALS}")
    return goals


class GoldThiefGame(EngineGame):
    """Gold Thief, 2-5 players."""

    GAME_TYPE = _GAME_TYPE
    PARAMS = PARAMS

    def _build(self, p: dict):
        n, hand = p["players"], p["hand_size"]
        counts = [p[name] for name in _CARD_PARAMS]
        if p["first_player"] >= n:
            raise ParameterError(f"parameter first_player={p['first_player']} is out of "
                                 f"range; valid: -1..{n - 1} (players={n})")
        goals = parse_goals(p["goals"])
        total = sum(counts)
        if total > MAX_CARDS:
            raise ParameterError(f"deck has {total} action cards; valid: at most {MAX_CARDS}")
        if total < n * hand:
            raise ParameterError(
                f"deck of {total} action cards cannot deal hands of {hand} to {n} players "
                f"(thieves+guards+witches+faeries+ninjas must be >= players*hand_size = {n * hand})")
        if len(goals) < n:
            raise ParameterError(
                f"parameter goals has {len(goals)} cards; at least players={n} are needed")
        params = GoldThiefParams({**p, "goals": goals, "raid_raids": int(p["raid_raids"])})
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=NUM_CHANCE_OUTCOMES,
            num_players=n,
            min_utility=-1.0 / (n - 1),
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=params.max_moves,
        )

        def factory() -> GoldThiefEngine:
            return GoldThiefEngine(params)

        return info, factory


pyspiel.register_game(_GAME_TYPE, GoldThiefGame)


# ----------------------------------------------------------------------
# The game spec (games.spec): everything solvers and experiments need.
# ----------------------------------------------------------------------


def _best(game: pyspiel.Game) -> dict:
    """The ``best`` bot's ISMCTS options (``docs/ai.md``): heuristic rollouts
    over a pool of 32 resampled worlds per move (the importance-corrected
    resampler costs about a pyspiel replay per world); 800 simulations at
    2-3 players, 500 at 4-5, to stay within 0.1 s of CPU per move (1,500
    simulations over 128 worlds took 107 ms a move, 95th percentile 194 ms,
    idle machine, 2026-12-02)."""
    sims = 800 if game.num_players() <= 3 else 500
    return dict(max_simulations=sims, rollout="heuristic", cached_worlds=32)


def _rollout():
    """The engine rollout policy (``src_cy.gold_thief.rollout``).  A function
    of no arguments, not ``lazy``: it says that the game has no leaf
    evaluation, so ``rollout_cutoff`` is refused (``solvers.ismcts``)."""
    from src_cy.gold_thief.rollout import GoldThiefRollout
    return GoldThiefRollout()


SPEC = register_spec(GameSpec(
    name="gold_thief",
    # mini: small enough to solve exactly (sizes in docs/rules/gold_thief.md)
    presets={"default": {}, "mini": {
        "players": 2, "thieves": 2, "guards": 1, "witches": 1, "faeries": 1, "ninjas": 0,
        "hand_size": 1, "start_gold": 2, "goals": "0/3;1/4;3/4", "goals_to_win": 1,
        "max_turns": 6, "first_player": 0}},
    engine=engine_of,
    player_view=view_of,
    heuristic=lazy("games.gold_thief.ai:GoldThiefHeuristicBot", call=True),
    rollout=_rollout,
    slow_rollout=lazy("games.gold_thief.rollout:gold_thief_rollout"),
    belief=lazy("games.gold_thief.beliefs:MODEL"),
    best=_best,
    table=lazy("games.gold_thief.features:GOLD_THIEF_TABLE"),
    abstraction=lazy("games.gold_thief.abstraction:ABSTRACTIONS"),
    renderer=lazy("games.gold_thief.render:GoldThiefRenderer", call=True),
    rules_doc="docs/rules/gold_thief.md",
    bench={
        "engines": [BenchRow(f"Gold Thief {n}p", f"gold_thief(players={n})") for n in (2, 4)],
        "search": [BenchRow(f"Gold Thief {n}p", f"gold_thief(players={n})") for n in (2, 4)],
        "resample": [BenchRow(f"Gold Thief {n}p", f"gold_thief(players={n})")
                     for n in range(2, 6)],
    },
    params=PARAMS,
))

#: The ``mini`` preset (``SPEC.presets["mini"]``), for exact solving.
MINI_PARAMS = SPEC.presets["mini"]
