"""Saboteur (AMIGO 2004) as a pyspiel game: ``pyspiel.load_game("saboteur")``.

Rules as implemented, assumptions and sizes: ``docs/rules/saboteur.md``.
The rules engine is ``src_cy.saboteur.engine.SaboteurEngine``.

Action encoding
---------------
The maze is a square of side ``S = 2R + 1`` centred on the start card, with
``R = max(T + 3, goal_distance)`` and ``T`` the number of tunnel cards in the
deck (``R = 43`` for the full deck).  A maze cell ``(x, y)`` (``y`` grows
southwards) has the *cell index* ``cell = (y + R) * S + (x + R)``.
Placements target the ``j``-th cell of the *frontier* (the empty cells next
to a card on the table, in cell-index order: ``engine.frontier()``) and
rockfalls the ``i``-th tunnel card on the table (in cell order:
``engine.tunnel_cells()``).  ``F = 14 + 2 T + Q`` (``Q`` rockfall cards in
the deck) bounds the frontier; the proof is in the rules doc.

==============================  =======================================  =====
range                           meaning                                  count
==============================  =======================================  =====
``(2k + o) * F + j``            place tunnel kind ``k`` (0..15) on the   32 F
                                ``j``-th frontier cell, ``o = 1``:
                                turned 180 degrees
``32 F + i``                    rockfall: remove the ``i``-th tunnel     T
                                card on the table
``32 F + T + 10 t + q``         break tool ``t`` (0 pickaxe, 1 lamp,     30
                                2 cart) of player ``q``
``32 F + T + 30 + 10 (3 r + t)  repair card ``21 + r`` mends tool ``t``  180
+ q``                           of player ``q``
``32 F + T + 210 + g``          map: look at goal ``g`` (0 north,        3
                                1 middle, 2 south)
``32 F + T + 213 + k``          pass, discarding a card of kind ``k``    27
                                face down
``32 F + T + 240 + v``          gold hand-out: keep a gold card of       3
                                value ``v`` (0, 1, 2 = 1, 2, 3 nuggets):
                                the recipient to move (``pick``) or the
                                finder for themselves (``finder``)
``32 F + T + 243 + v``          ``finder`` hand-out only: the finder     3
                                hands a drawn gold card of value ``v``
                                to the next gold-digger
                                counter-clockwise
==============================  =======================================  =====

``num_distinct_actions = 32 F + T + 246`` (3 390 for the full deck).
``action_to_string`` names the target cell (``place path cross at (1,0)``) read
from the current state.  The hand-out actions are a decision
of the recipient to move (``gold_handout="pick"``, the default) or of the
player who completed the path (``"finder"``), asked only while the cards left
have two values or more (see the rules doc).

Card kinds: 0 path E-W, 1 N-S, 2 N-W, 3 N-E, 4 N-E-W, 5 N-E-S, 6 cross,
7..15 dead ends N, E, N-E, N-S, N-W, E-W, N-E-S, N-E-W, cross; 16 map,
17 rockfall, 18..20 break pickaxe/lamp/cart, 21..23 repair pickaxe/lamp/cart,
24..26 repair pickaxe+lamp, pickaxe+cart, lamp+cart.

Chance outcomes (at most 27): a role (0 gold-digger, 1 saboteur); the goal
layout (0..5, a permutation of treasure / stone N-E / stone N-W over the
north, middle and south goal places); a drawn card (its kind, 0..26); a gold
card drawn by the completer (0, 1, 2 for 1, 2, 3 nuggets).
"""
from __future__ import annotations

import pyspiel

from games._adapter import EngineGame, engine_game_type
from games._adapter import engine_of, view_of
from games.params import Param, ParamTable
from games.spec import BenchRow, GameSpec, engine_twin, lazy, register_spec
from src_cy.saboteur.engine import ACTION_LAYOUT as _IDS
from src_cy.saboteur.engine import GOLD_HANDOUTS, UTILITIES, SaboteurEngine

# The action layout above as constants, read from their one definition,
# ``src_cy/saboteur/actions.pxd`` (the engine exports it as ``ACTION_LAYOUT``).  Ids: ``(2 k + o) * F + j``,
# ``A_ROCK_BLOCK * F + i``, tail ``A_ROCK_BLOCK * F + T + A_BREAK + A_STRIDE * t + q``,
# ``... + A_REPAIR + A_STRIDE * (3 r + t) + q``, ``... + A_MAP + g``,
# ``... + A_PASS + k``, ``... + A_KEEP + v``, ``... + A_HAND_ON + v``.
A_ROCK_BLOCK = _IDS["A_ROCK_BLOCK"]
A_STRIDE = _IDS["A_STRIDE"]
A_BREAK = _IDS["A_BREAK"]
A_REPAIR = _IDS["A_REPAIR"]
A_MAP = _IDS["A_MAP"]
A_PASS = _IDS["A_PASS"]
A_KEEP = _IDS["A_KEEP"]
A_HAND_ON = _IDS["A_HAND_ON"]
A_TAIL_SIZE = _IDS["A_TAIL_SIZE"]

# The choices of ``utility`` (UTILITIES: "gold", "win") and ``gold_handout``
# (GOLD_HANDOUTS: "pick", each gold-digger in turn picks a card from those
# passed on, the published rules; "finder", the finder chooses every
# recipient's card) come from the engine.

#: The parameters (the one table: GameType defaults, validation, rules doc).
PARAMS = ParamTable("saboteur", [
    Param("players", 5, "number of dwarves", 3, 10),
    Param("rounds", 3, "rounds played; gold is kept between rounds", 1, 5),
    Param("goal_distance", 8, "column of the three goal cards (rows -2, 0, +2)", 2, 20),
    Param("utility", "gold", "returns: nuggets, or 1 split among the players with most "
                             "nuggets", choices=UTILITIES),
    Param("deck_scale", 100, "percent of every card count (round half up); 100 = the "
                             "real deck", 10, 100),
    Param("hand_size", 0, "0 = by player count (6 / 5 / 4 for 3-5 / 6-7 / 8-10 players)",
          0, 6),
    Param("gold_handout", "pick", "`pick`: each gold-digger in turn picks a gold card from "
                                  "those passed on (published rules); `finder`: the finder "
                                  "chooses every recipient's card (the earlier engine rule)",
          choices=GOLD_HANDOUTS),
])

_GAME_TYPE = engine_game_type("Saboteur", PARAMS, zero_sum=False)


class SaboteurGame(EngineGame):
    """Saboteur; parameters: players, rounds, goal_distance, utility,
    deck_scale (percent of every card count), hand_size (0 = by players) and
    gold_handout (``pick``: recipients pick in turn; ``finder``: the finder
    chooses for everyone)."""

    GAME_TYPE = _GAME_TYPE
    PARAMS = PARAMS

    def _build(self, params: dict):
        game_string = "saboteur(" + ",".join(
            f"{k}={params[k]}" for k in sorted(params)) + ")"
        proto = SaboteurEngine(params, game_string=game_string)
        shared = proto.params

        def factory() -> SaboteurEngine:
            return SaboteurEngine(shared, game_string=game_string)

        rounds, utility, players = params["rounds"], params["utility"], params["players"]
        if utility == "gold":
            lo, hi, total = 0.0, 4.0 * rounds, None
        else:
            lo, hi, total = 0.0, 1.0, None
        info = pyspiel.GameInfo(
            num_distinct_actions=proto.num_actions,
            max_chance_outcomes=27,
            num_players=players,
            min_utility=lo,
            max_utility=hi,
            utility_sum=total,
            max_game_length=proto.max_length(),
        )
        return info, factory

    def make_engine(self) -> SaboteurEngine:
        """A fresh engine at the initial state."""
        return self._factory()


pyspiel.register_game(_GAME_TYPE, SaboteurGame)


# ----------------------------------------------------------------------
# The game spec (games.spec): everything solvers and experiments need.
# ----------------------------------------------------------------------


_ROLLOUT = lazy("src_cy.saboteur.rollout:SaboteurRollout", call=True)
#: pyspiel twin of ``SaboteurRollout`` (the same choices from the same draws).
saboteur_rollout = engine_twin(_ROLLOUT)


def _slow_rollout(cutoff: int = 0):
    """The pyspiel twin of the engine rollout policy (``SaboteurRollout(cutoff)``)."""
    if not cutoff:
        return saboteur_rollout
    from games.saboteur.search import SaboteurEvalRollout
    return SaboteurEvalRollout(cutoff)


def _best(game: pyspiel.Game) -> dict:
    """The ``best`` bot's ISMCTS options (``docs/ai.md``): 150 flat Monte Carlo
    simulations over the grouped root actions, 12 belief-weighted worlds,
    role-aware rollouts, anchored on the belief bot with the maze-distance
    evaluation.  Sized for 0.1 s of CPU a move: 400 simulations over 32
    worlds took 171 ms (a world costs about 1.75 ms, a simulation 0.29 ms)."""
    from games.saboteur.search import SaboteurBeliefAnchor
    return dict(max_simulations=150, rollout="heuristic", determinization="belief",
                belief_worlds=12, max_depth=1, root_candidates="game",
                anchor=SaboteurBeliefAnchor(repair_first=True, dig_eval=True, strike=5,
                                            useful_blocks=True),
                anchor_z=2.0)


SPEC = register_spec(GameSpec(
    name="saboteur",
    # mini, for sampling solvers: 3 players, short maze, quarter deck, hands of
    # 3, one round (sizes in docs/rules/saboteur.md)
    presets={"default": {}, "mini": {
        "players": 3, "rounds": 1, "goal_distance": 3, "deck_scale": 25, "hand_size": 3}},
    engine=engine_of,
    player_view=view_of,
    heuristic=lazy("games.saboteur.ai:SaboteurHeuristicBot", call=True),
    rollout=_ROLLOUT,
    slow_rollout=_slow_rollout,
    root_candidates=lazy("games.saboteur.search:saboteur_root_candidates"),
    belief=lazy("games.saboteur.beliefs:MODEL"),
    team_rounds=lazy("games.saboteur.beliefs:team_rounds"),
    best=_best,
    bots={"belief_heuristic": lazy("games.saboteur.search:BeliefSaboteurBot", call=True)},
    table=lazy("games.saboteur.features:SABOTEUR_TABLE"),
    abstraction=lazy("games.saboteur.abstraction:ABSTRACTIONS"),
    renderer=lazy("games.saboteur.render:SaboteurRenderer", call=True),
    rules_doc="docs/rules/saboteur.md",
    bench={
        "engines": [BenchRow("Saboteur 5p, 1 round", "saboteur(players=5,rounds=1)")],
        "search": [BenchRow("Saboteur 5p, 1 round", "saboteur(players=5,rounds=1)")],
        "resample": [BenchRow(f"Saboteur {n}p, 1 round", f"saboteur(players={n},rounds=1)")
                     for n in range(3, 11)],
    },
    params=PARAMS,
))

#: The ``mini`` preset (``SPEC.presets["mini"]``).
MINI_PARAMS = SPEC.presets["mini"]
