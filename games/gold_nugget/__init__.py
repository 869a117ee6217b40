"""Gold Nugget as an OpenSpiel game (``pyspiel.load_game("gold_nugget")``).

Rules as implemented, with every designed card, ability and assumption:
``docs/rules/gold_nugget.md``.  The rules live in
the Cython engine ``src_cy/gold_nugget/engine.pyx``; this module validates parameters
and registers the game.

Action encoding (``k`` a leaf-card id 0-15 in catalog order, ``q`` a seat,
``i`` a slot in a lair, slots counted from 0 in placement order):

===========  ======================  =============================================
id           name                    when
===========  ======================  =============================================
0            pass / end              end Meddling, no instant, done discarding,
                                     no face-down card
1            sleep                   Go to sleep!: white-feather holder sleeps
2            meddle                  Go to sleep!: holder stays awake
3            option 0                first dealt animal; examine an acquired
                                     stone; Suspicion "reveal all"
4            option 1                second dealt animal; do not examine;
                                     Suspicion "take two feathers"
5            ability                 holder uses its animal's active ability
6            victory card            advanced mode: reveal (play) your card
7            give a feather          Beg: give a black feather
8 + k        play card k             Meddling, instant windows, the final face-down card
24 + k       recycle card k          discard a recyclable card: steal 1 nest stone
40 + k       discard / give card k   Hello!, hand limit, Beg
56 + q       choose animal q         card targets
61           the nest                Chance; the final grab
62 + 24q + i stone q#i               a stone in lair q, slot i (targets, grab);
                                     placing an acquired stone: the slot it takes
===========  ======================  =============================================

Chance outcomes (0-23): a forest card id (leaf 0-15, wind 16-20) when dealing
or drawing; an animal id (0-11); a time-of-day card (0 morning, 1 noon,
2 afternoon, 3 night); a victory card (0-5); or the index of a stone in the
nest (stones drawn from the nest are drawn at random: nest stones look alike).
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

import pyspiel

from games._adapter import EngineGame, engine_game_type
from games._adapter import engine_of, view_of
from games.params import Param, ParameterError, ParamTable
from games.spec import BenchRow, GameSpec, engine_twin, lazy, register_spec
from src_cy.gold_nugget.engine import ACTION_LAYOUT as _IDS
from src_cy.gold_nugget.engine import (ANIMAL_CATALOG, LEAF_CATALOG, MAX_CHANCE_OUTCOMES,
                                NUM_DISTINCT_ACTIONS, VC_CATALOG, WIND_CATALOG,
                                GoldNuggetEngine, GoldNuggetParams)

MAX_STONES = _IDS["MAX_STONES"]
# Card plays per turn the automatic move budget (``max_moves=0``) allows for
# (fewer when the deck holds fewer leaf cards); not a rule: the holder may
# play any number of basic cards (the budget only stops the offers when the
# rest of the game would no longer fit).
PLAY_ALLOWANCE = 8
# Player action ids (see the table above), read from their one definition,
# ``src_cy/gold_nugget/actions.pxd`` (the engine exports it as ``ACTION_LAYOUT``).
A_PASS = _IDS["A_PASS"]
A_SLEEP = _IDS["A_SLEEP"]
A_MEDDLE = _IDS["A_MEDDLE"]
A_OPT0 = _IDS["A_OPT0"]
A_OPT1 = _IDS["A_OPT1"]
A_ABILITY = _IDS["A_ABILITY"]
A_VICTORY = _IDS["A_VICTORY"]
A_FEATHER = _IDS["A_FEATHER"]
A_PLAY = _IDS["A_PLAY"]                # + leaf card
A_RECYCLE = _IDS["A_RECYCLE"]          # + leaf card
A_DISCARD = _IDS["A_DISCARD"]          # + leaf card
A_PLAYER = _IDS["A_PLAYER"]            # + seat
A_NEST = _IDS["A_NEST"]
A_STONE = _IDS["A_STONE"]              # + MAX_STONES * owner + slot


def stone_action(owner: int, slot: int) -> int:
    """Action id choosing the stone in lair ``owner`` at ``slot``."""
    return A_STONE + MAX_STONES * owner + slot

TWO_PLAYER_REMOVALS = ("Gold Nugget", "Loyal friend", "Tribute", "Beg", "Do I have it?")

# Set-up tables of the rulebook, by player count.
RAVEN_DAYS = {2: 2, 3: 3, 4: 4, 5: 4}
NEST_TABLE = {2: (5, 10, 2), 3: (7, 13, 2), 4: (9, 15, 3), 5: (11, 17, 3)}  # feathers, normal, traps


def card_key(name: str) -> str:
    """Parameter key of a card or animal name: ``"Do I have it?"`` -> ``do_i_have_it``."""
    return "".join(c if c.isalnum() else "_" for c in name.lower()).strip("_").replace("__", "_")


LEAF_KEYS = tuple(card_key(c[0]) for c in LEAF_CATALOG)
WIND_KEYS = tuple(card_key(c[0]) for c in WIND_CATALOG)
ANIMAL_KEYS = tuple(card_key(a[0]) for a in ANIMAL_CATALOG)

_COUNTS = "`key:count` separated by `/`, counts 0..30 (below)"

#: The parameters (the one table: GameType defaults, validation, rules doc).
PARAMS = ParamTable("gold_nugget", [
    Param("players", 4, "seats", 2, 5),
    Param("advanced", False, "victory condition cards"),
    Param("abilities", True, "animal abilities"),
    Param("utility", "win", "returns (below)", choices=("win", "zero_sum")),
    Param("days", 0, "days before the Raven arrives; 0: the rulebook's table", 0, 10),
    Param("normal_stones", -1, "normal stones in the nest; -1: the rulebook's table", -1, 20,
          valid="with trap_stones at most 23"),
    Param("trap_stones", -1, "trap stones in the nest; -1: the rulebook's table", -1, 3),
    Param("black_feathers", -1, "black feathers in the nest; -1: the rulebook's table",
          -1, 30),
    Param("hand_size", 5, "cards in hand after Hello!", 0, 10,
          valid="the leaf cards must deal it to every player"),
    Param("start_stones", 2, "stones each animal takes at set-up", 0, 4,
          valid="the nest must hold players * start_stones"),
    Param("deal_animals", 2, "animals dealt to choose from", 1, 2),
    Param("animals", "", "the animal pool; empty: all",
          valid="animal keys separated by `/`, enough to deal every player"),
    Param("hello_discard", True, "Hello! discards"),
    Param("two_player_removals", True, "the five 2-player removals"),
    Param("leaf_counts", "", "leaf card counts; empty: the catalog's", valid=_COUNTS),
    Param("leaf_default", -1, "every leaf count before the overrides; -1: catalog", -1, 30),
    Param("wind_counts", "", "wind card counts; empty: the catalog's", valid=_COUNTS),
    Param("wind_default", -1, "every wind count before the overrides; -1: catalog", -1, 30),
    Param("max_moves", 0, "move budget; 0: automatic", 0, 100000,
          valid="0 or at least the game's need"),
    Param("opening_window", True, "an instant window before the holder's first play"),
    Param("place_stones", True, "the acquirer places each acquired stone; false: "
                                "appended"),
])

_GAME_TYPE = engine_game_type("Gold Nugget", PARAMS, zero_sum=False)


def parse_counts(name: str, text: str, keys: tuple[str, ...],
                 defaults: list[int]) -> list[int]:
    """Parse ``"key:count/key:count"`` overrides of ``defaults``."""
    counts = list(defaults)
    for item in filter(None, (t.strip() for t in str(text).split("/"))):
        key, sep, value = item.partition(":")
        key = key.strip()
        if not sep or key not in keys:
            raise ParameterError(
                f"parameter {name}: {item!r} is not key:count; valid keys: {', '.join(keys)}")
        try:
            count = int(value)
        except ValueError:
            raise ParameterError(f"parameter {name}: count {value!r} is not a whole number") \
                from None
        if not 0 <= count <= 30:
            raise ParameterError(f"parameter {name}: {key}={count} out of range; valid: 0..30")
        counts[keys.index(key)] = count
    return counts


def move_budget(n: int, days: int, hand: int, deal: int, start: int, advanced: bool,
                winds: int) -> int:
    """Moves the game needs after set-up when nobody plays a card (the reserve)."""
    hl = hand + 1
    per_turn = 2 * (hl + 1) + 4 + n
    setup = n * hand + n * deal + n + n + (n if advanced else 0) + n * start + 1
    return setup + (4 * days + 1) * per_turn + winds + 5 * n + 10 + hl + 2


class GoldNuggetGame(EngineGame):
    """Gold Nugget, 2-5 players."""

    GAME_TYPE = _GAME_TYPE
    PARAMS = PARAMS

    def _build(self, p: dict):
        n, advanced, abilities, utility = p["players"], p["advanced"], p["abilities"], p["utility"]
        days = p["days"] or RAVEN_DAYS[n]
        feathers0, normal0, traps0 = NEST_TABLE[n]
        normal, traps, feathers = p["normal_stones"], p["trap_stones"], p["black_feathers"]
        normal = normal0 if normal < 0 else normal
        traps = traps0 if traps < 0 else traps
        feathers = feathers0 if feathers < 0 else feathers
        if 1 + normal + traps > MAX_STONES:
            raise ParameterError(
                f"parameters normal_stones+trap_stones+1 = {1 + normal + traps}; valid: at most "
                f"{MAX_STONES}")
        hand, start, deal = p["hand_size"], p["start_stones"], p["deal_animals"]
        if n * start > 1 + normal + traps:
            raise ParameterError(
                f"parameter start_stones={start}: {n} players need {n * start} stones, the nest "
                f"has {1 + normal + traps}")
        names = [a.strip() for a in str(p["animals"]).split("/") if a.strip()]
        for a in names:
            if a not in ANIMAL_KEYS:
                raise ParameterError(
                    f"parameter animals: unknown animal {a!r}; valid: {', '.join(ANIMAL_KEYS)}")
        mask = sum(1 << ANIMAL_KEYS.index(a) for a in set(names)) if names else (1 << 12) - 1
        if bin(mask).count("1") < n * deal:
            raise ParameterError(
                f"parameter animals: {bin(mask).count('1')} animals cannot deal {deal} to each "
                f"of {n} players")
        hello, removals = p["hello_discard"], p["two_player_removals"]
        opening, place = int(p["opening_window"]), int(p["place_stones"])
        leaf_default, wind_default = p["leaf_default"], p["wind_default"]
        leaf = parse_counts("leaf_counts", p["leaf_counts"], LEAF_KEYS,
                            [c[1] if leaf_default < 0 else leaf_default for c in LEAF_CATALOG])
        if n == 2 and removals:
            for name in TWO_PLAYER_REMOVALS:
                leaf[[c[0] for c in LEAF_CATALOG].index(name)] = 0
        wind = parse_counts("wind_counts", p["wind_counts"], WIND_KEYS,
                            [c[1] if wind_default < 0 else wind_default for c in WIND_CATALOG])
        if sum(leaf) < n * hand:
            raise ParameterError(
                f"parameter leaf_counts: {sum(leaf)} leaf cards cannot deal {hand} to each of "
                f"{n} players")
        if sum(leaf) > 200:
            raise ParameterError(f"parameter leaf_counts: {sum(leaf)} leaf cards; valid: <= 200")
        need = move_budget(n, days, hand, deal, start, advanced, sum(wind))
        plays = min(PLAY_ALLOWANCE, sum(leaf))
        auto = need + 4 * days * (2 * n + 3) * (plays + 2)
        max_moves = p["max_moves"] or auto
        if max_moves < need:
            raise ParameterError(
                f"parameter max_moves={max_moves} is below the {need} moves this game needs "
                f"without any card play; valid: 0 (automatic) or {need}..100000")
        params = {
            "players": n, "days": days, "advanced": int(advanced), "abilities": int(abilities),
            "utility": 0 if utility == "win" else 1, "hand_size": hand, "start_stones": start,
            "deal_animals": deal, "hello_discard": int(hello),
            "animal_mask": mask, "normal_stones": normal, "trap_stones": traps,
            "black_feathers": feathers, "max_moves": max_moves, "opening_window": opening,
            "place_stones": place, "leaf_counts": leaf,
            "wind_counts": wind,
        }
        # One registration serves both modes, so the game type is GENERAL_SUM and
        # no utility_sum is declared; with utility=zero_sum returns do sum to 0.
        if utility == "win":
            lo, hi, total = 0.0, 1.0, None
        else:
            lo, hi, total = -1.0 / n, 1.0 - 1.0 / n, None
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_DISTINCT_ACTIONS,
            max_chance_outcomes=MAX_CHANCE_OUTCOMES,
            num_players=n,
            min_utility=lo,
            max_utility=hi,
            utility_sum=total,
            max_game_length=max_moves,
        )

        shared = GoldNuggetParams(params)

        def factory() -> GoldNuggetEngine:
            return GoldNuggetEngine(shared)

        return info, factory


CATALOG = {"leaf": LEAF_CATALOG, "wind": WIND_CATALOG, "animals": ANIMAL_CATALOG,
           "victory": VC_CATALOG}

pyspiel.register_game(_GAME_TYPE, GoldNuggetGame)


# ----------------------------------------------------------------------
# The game spec (games.spec): everything solvers and experiments need.
# ----------------------------------------------------------------------


def _best(game: pyspiel.Game) -> dict:
    """The ``best`` bot's ISMCTS options (``docs/ai.md``): knowledge rollouts
    (``GoldNuggetRollout``: grabs use what the grabber knows), anchored on
    the heuristic (z = 1), over a pool of 6 resampled worlds per move, 800
    simulations at 2-3 players, 400 at 4-5.  The rollouts beat uniform ones
    against both yardsticks of ``experiments.strength`` (tuning seed 11,
    80 games per cell); the pool is what 0.1 s of CPU per move could hold
    when a world cost about 5 ms (a pool of 32 was screened again on
    2026-12-03 and not adopted)."""
    sims = 800 if game.num_players() <= 3 else 400
    return dict(max_simulations=sims, cached_worlds=6, anchor="heuristic", anchor_z=1.0,
                rollout="heuristic")


_ROLLOUT = lazy("src_cy.gold_nugget.rollout:GoldNuggetRollout", call=True)
#: pyspiel twin of ``GoldNuggetRollout`` (the same choices from the same draws).
gold_nugget_rollout = engine_twin(_ROLLOUT)


@contextmanager
def _corrector_off() -> Iterator[None]:
    """The resampler's MCMC corrector off for the block (a benchmark setting)."""
    from src_cy.gold_nugget.engine import set_resample_corrector
    old = set_resample_corrector(0)
    try:
        yield
    finally:
        set_resample_corrector(*old)


SPEC = register_spec(GameSpec(
    name="gold_nugget",
    # mini: small enough to solve exactly (sizes in docs/rules/gold_nugget.md)
    presets={"default": {}, "mini": {
        "players": 2, "abilities": False, "days": 1, "normal_stones": 1, "trap_stones": 1,
        "black_feathers": 3, "hand_size": 1, "start_stones": 1, "deal_animals": 1,
        "animals": "raccoon/bear", "hello_discard": False, "leaf_default": 0,
        "leaf_counts": "peek:2", "wind_default": 0, "place_stones": False}},
    engine=engine_of,
    player_view=view_of,
    heuristic=lazy("games.gold_nugget.ai:GoldNuggetHeuristicBot", call=True),
    belief=lazy("games.gold_nugget.beliefs:MODEL"),
    best=_best,
    rollout=_ROLLOUT,
    slow_rollout=lambda: gold_nugget_rollout,
    bots={"belief_heuristic": lazy("games.gold_nugget.ai:GoldNuggetBeliefBot", call=True)},
    table=lazy("games.gold_nugget.features:GOLD_NUGGET_TABLE"),
    abstraction=lazy("games.gold_nugget.abstraction:ABSTRACTIONS"),
    renderer=lazy("games.gold_nugget.render:GoldNuggetRenderer", call=True),
    rules_doc="docs/rules/gold_nugget.md",
    bench={
        "engines": [BenchRow("Gold Nugget 4p", "gold_nugget(players=4)")],
        # Both searches spend most of their time in the resampler's corrector
        # (the same C code); the row without it, for both, shows the search's
        # own speed (docs/benchmarks.md).
        "search": [BenchRow("Gold Nugget 3p", "gold_nugget(players=3)"),
                   BenchRow("Gold Nugget 3p, corrector off for both", "gold_nugget(players=3)",
                            _corrector_off)],
        "resample": [BenchRow(
            "Gold Nugget mini (exact stage)",
            "gold_nugget(abilities=False,animals=raccoon/bear,black_feathers=3,days=1,"
            "deal_animals=1,hand_size=1,hello_discard=False,leaf_counts=peek:2,leaf_default=0,"
            "normal_stones=1,players=2,start_stones=1,trap_stones=1,wind_default=0)")]
                    + [BenchRow(f"Gold Nugget {n}p", f"gold_nugget(players={n})")
                       for n in range(2, 6)],
    },
    params=PARAMS,
))

#: The ``mini`` preset (``SPEC.presets["mini"]``), for exact solving.
MINI_PARAMS = SPEC.presets["mini"]
