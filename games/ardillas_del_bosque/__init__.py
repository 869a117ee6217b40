"""Ardillas del Bosque (Átomo Games, 2019) as a pyspiel game.

Rules as implemented, assumptions and sizes: ``docs/rules/ardillas_del_bosque.md``.
The engine is ``src_cy.ardillas_del_bosque.engine.ArdillasEngine``.

Action encoding (fixed for every parameter set; H = hiding place index 0..9,
hiding place h lies on board h // hiding_places):

======================  =========  =============================================
range                   count      meaning
======================  =========  =============================================
0..9      PILE h        10         choose hiding place h (autumn hide by day;
                                   winter draw; Bear flip / draw; Lynx, Wild
                                   Boar, Ant pile; Golden Eagle draw; Ant move
                                   target; Lizard split target; Lizard take)
10        TAKE          1          Ant: show the peeked token and take it
11..17    KEEP k        7          night: keep a token of kind k in the nest
18..87    PLACE k,h     70         night: hide kind k on h (18 + 10 k + h)
88..122   INDEX i       35         Lynx: draw the i-th token from the top;
                                   Wild Boar: next token (i-th of the ones not
                                   yet ordered, top first); Lizard: split off
                                   the top i tokens
123..222  PAIR a,b      100        Lizard: flip tops of a < b (123 + 10 a + b)
223..282  NEST t,c      60         Fox / Owl on player t's nest (223 + 12 t + c):
                                   c < 7 a face-up token of kind c, c >= 7 the
                                   (c-7)-th face-down token
283..307  POO a,b       25         Dung Beetle: face-up poo from nest a to b
308..312  SNAKE_UP k    5          Snake: throw a face-up nut of kind k
313..317  SNAKE_DOWN i  5          Snake: throw own face-down token i (a nut)
======================  =========  =============================================

Chance outcomes: at set-up, with ``boards=random`` (and squirrels and no
King), one node per board draws which of the five double-sided boards it is
(0 Bear/Wild Boar, 1 Lynx/Fox, 2 Golden Eagle/Owl, 3 Ant/Dung Beetle,
4 Lizard/Snake), uniformly among those not yet drawn; afterwards outcomes are
token kinds 0..6: walnut, almond, hazelnut, peanut, chestnut, squirrel, poo (a
player's own face-down token taken by day, or a sleepyhead token dealt at
set-up).
"""
from __future__ import annotations

import pyspiel

from games._adapter import EngineGame, engine_game_type
from games._adapter import engine_of, view_of
from games.params import Param, ParameterError, ParamTable
from games.spec import BenchRow, GameSpec, engine_twin, lazy, register_spec
from src_cy.ardillas_del_bosque.engine import ACTION_LAYOUT as _IDS
from src_cy.ardillas_del_bosque.engine import (ANIMAL_NAMES, ArdillasEngine, ArdillasParams, ArdillasView,
                                        Token)

__all__ = ["ArdillasGame", "ArdillasView", "Token", "MINI_PARAMS", "NUM_ACTIONS", "KINGS",
           "max_game_length", "parse_boards"]

# The action layout, read from its one definition,
# ``src_cy/ardillas_del_bosque/actions.pxd`` (the engine exports it as
# ``ACTION_LAYOUT``).
MAX_BOARDS = _IDS["MAX_BOARDS"]
MAX_HIDING_PLACES = _IDS["MAX_HIDING_PLACES"]
NUM_KINDS = _IDS["NUM_KINDS"]  # chance outcomes 0..6 are token kinds
SQUIRREL = _IDS["SQUIRREL"]  # kinds 0-4 are nuts
POO = _IDS["POO"]
A_PILE = _IDS["A_PILE"]  # + hiding place
A_TAKE = _IDS["A_TAKE"]
A_KEEP = _IDS["A_KEEP"]  # + kind
A_NPLACE = _IDS["A_NPLACE"]  # + 10 * kind + hiding place
A_INDEX = _IDS["A_INDEX"]  # + index
A_PAIR = _IDS["A_PAIR"]  # + 10 * a + b
A_NEST = _IDS["A_NEST"]  # + 12 * seat + c
A_BEETLE = _IDS["A_BEETLE"]  # + 5 * from + to
A_SNAKE_UP = _IDS["A_SNAKE_UP"]  # + kind
A_SNAKE_DOWN = _IDS["A_SNAKE_DOWN"]  # + own face-down token index
NUM_ACTIONS = _IDS["NUM_ACTIONS"]
MAX_CHANCE_OUTCOMES = 7
KINGS = ("none",) + tuple(ANIMAL_NAMES)

#: The parameters (the one table: GameType defaults, validation, rules doc).
PARAMS = ParamTable("ardillas_del_bosque", [
    Param("players", 2, "players (player 0 starts)", 2, 5),
    Param("side", "day", "board side: diurnal or nocturnal animals and autumn rules",
          choices=("day", "night")),
    Param("king", "none", "King of the Woods: that animal acts for every squirrel; must "
                          "match `side`", choices=KINGS),
    Param("little_squirrels", False, "no squirrel tokens; most nuts wins, ties all win"),
    Param("sleepyheads", 0, "extra non-playing boards", 0, 3,
          valid="at most 5 - players, only for 2-3 players"),
    Param("hiding_places", 2, "hiding places per board (the real game has 2)", 1, 2),
    Param("nuts", 5, "nut kinds per player (the real game has 5)", 1, 5),
    Param("boards", "random", "which boards are in play (below)",
          valid="`random` or one animal name per board joined by `+`"),
])

_GAME_TYPE = engine_game_type("Ardillas del Bosque", PARAMS)


def parse_boards(value: str, count: int) -> tuple[int, ...]:
    """``boards`` parameter -> () for random, else one board pair (0..4) per
    board; names are animals of either side joined by '+', e.g. 'bear+ant'."""
    if not isinstance(value, str):
        raise ParameterError(f"parameter boards={value!r} is invalid; valid: 'random' or "
                             f"{count} animal names joined by '+'")
    if value == "random":
        return ()
    names = value.split("+")
    if len(names) != count or any(n not in ANIMAL_NAMES for n in names):
        raise ParameterError(
            f"parameter boards={value!r} is invalid; valid: 'random' or {count} animal "
            f"names (one per board, players' boards first) joined by '+', e.g. "
            f"{'+'.join(ANIMAL_NAMES[:count])}; names: {', '.join(ANIMAL_NAMES)}")
    pairs = tuple(ANIMAL_NAMES.index(n) % 5 for n in names)
    if len(set(pairs)) != count:
        raise ParameterError(f"parameter boards={value!r} uses a board twice (each board "
                             f"has one day and one night animal: "
                             f"{', '.join(a + '/' + b for a, b in zip(ANIMAL_NAMES[:5], ANIMAL_NAMES[5:]))})")
    return pairs


def max_game_length(players: int, sleepyheads: int, tokens: int, night: bool,
                    squirrels: bool, board_draws: int = 0) -> int:
    """A true bound on the number of actions (chance included) of a game.

    Set-up: ``board_draws`` chance nodes for the boards, one per sleepyhead
    token; autumn: by day a chance draw
    and a placement per token, by night one action per token; winter: every
    token leaves the woods at most once by a draw, and each squirrel (at most
    one per board) triggers one animal action of at most ``T + 3`` decisions.
    """
    boards = players + sleepyheads
    total = boards * tokens
    autumn = players * tokens * (1 if night else 2)
    animals = boards * (total + 3) if squirrels else 0
    return board_draws + sleepyheads * tokens + autumn + total + animals


class ArdillasGame(EngineGame):
    """pyspiel.Game for Ardillas del Bosque; see the module docstring."""

    GAME_TYPE = _GAME_TYPE
    PARAMS = PARAMS

    def _build(self, params: dict):
        players, side, king = params["players"], params["side"], params["king"]
        little, hp, nuts = params["little_squirrels"], params["hiding_places"], params["nuts"]
        sleepy = params["sleepyheads"]
        sleepy_max = min(5 - players, 3) if players <= 3 else 0
        if sleepy > sleepy_max:
            raise ParameterError(f"parameter sleepyheads={sleepy} is out of range; valid: "
                                 f"0..{sleepy_max} (players={players})")
        boards = parse_boards(params["boards"], players + sleepy)
        king_id = KINGS.index(king) - 1
        night = side == "night"
        if king_id >= 0 and (king_id >= 5) != night:
            want = "night" if king_id >= 5 else "day"
            raise ParameterError(
                f"parameter side={side!r} conflicts with king={king!r}; "
                f"the {king} lives on the {want} side: use side={want!r}")
        tokens = nuts + (0 if little else 1) + 1
        draws = players + sleepy if not boards and king_id < 0 and not little else 0
        max_len = max_game_length(players, sleepy, tokens, night, not little, draws)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=MAX_CHANCE_OUTCOMES,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=max_len,
        )
        game_string = self._game_string(params)
        shared = ArdillasParams({
            "players": players, "sleepyheads": sleepy, "hiding_places": hp, "night": night,
            "king": king_id, "little_squirrels": little, "nuts": nuts, "boards": boards,
            "max_len": max_len})

        def factory() -> ArdillasEngine:
            return ArdillasEngine(shared, game_string=game_string)

        return info, factory

    @staticmethod
    def _game_string(params: dict) -> str:
        defaults = PARAMS.defaults()
        changed = {k: v for k, v in params.items() if v != defaults[k]}
        if not changed:
            return "ardillas_del_bosque()"
        body = ",".join(f"{k}={v}" for k, v in sorted(changed.items()))
        return f"ardillas_del_bosque({body})"


pyspiel.register_game(_GAME_TYPE, ArdillasGame)


# ----------------------------------------------------------------------
# The game spec (games.spec): everything solvers and experiments need.
# ----------------------------------------------------------------------


_ROLLOUT = lazy("src_cy.ardillas_del_bosque.rollout:ArdillasRollout", call=True)
#: pyspiel twin of ``ArdillasRollout`` (the same choices from the same draws).
ardillas_rollout = engine_twin(_ROLLOUT)


def _best(game: pyspiel.Game) -> dict:
    """The ``best`` bot's ISMCTS options (``docs/ai.md``)."""
    return dict(max_simulations=5000)


SPEC = register_spec(GameSpec(
    name="ardillas_del_bosque",
    presets={"default": {}, "mini": {"players": 2, "nuts": 1, "hiding_places": 1}},
    engine=engine_of,
    player_view=view_of,
    heuristic=lazy("games.ardillas_del_bosque.ai:ArdillasHeuristicBot", call=True),
    best=_best,
    rollout=_ROLLOUT,
    slow_rollout=lambda: ardillas_rollout,
    table=lazy("games.ardillas_del_bosque.features:ARDILLAS_TABLE"),
    abstraction=lazy("games.ardillas_del_bosque.abstraction:ABSTRACTIONS"),
    renderer=lazy("games.ardillas_del_bosque.render:ArdillasRenderer", call=True),
    rules_doc="docs/rules/ardillas_del_bosque.md",
    bench={
        "engines": [BenchRow("Ardillas del Bosque 4p", "ardillas_del_bosque(players=4)")],
        "search": [BenchRow("Ardillas del Bosque 3p", "ardillas_del_bosque(players=3)")],
        "resample": [BenchRow(f"Ardillas del Bosque {n}p", f"ardillas_del_bosque(players={n})")
                     for n in range(2, 6)],
    },
    params=PARAMS,
))

#: The ``mini`` preset (``SPEC.presets["mini"]``).
MINI_PARAMS = SPEC.presets["mini"]
