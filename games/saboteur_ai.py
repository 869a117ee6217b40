"""Saboteur heuristic: what a sensible casual dwarf does.

The bot reads only its player's view (``SaboteurEngine.player_view``): the
public maze (cards, frontier, face-up goals), everybody's broken tools, its
own hand and role, the goals it has seen (face up or mapped), and the public
plays of the current round.  It never reads other hands, roles, the deck or
face-down goals.

Belief: the *target* goal is the treasure if known, else the unknown goal
nearest the middle row (middle, then north, then south) that is not a known
stone.  *Suspicion* of a player this round: +2 per rockfall or dead end it
played, +1 per tool it broke, -1 per open path it placed; a player with
suspicion >= 2 "acted like a saboteur".

Rules, first that applies:

* gold hand-out: keep the most valuable card, hand on the least valuable;
* repair my own broken tool when I hold a fitting repair card;
* digger: place an open path at most one step further from the target
  than the nearest frontier cell, with an open edge towards the target
  (fewer steps left, then more edges towards it); rockfall the dead end
  nearest the target; look at an unknown goal with a map while the treasure is
  unknown; break a tool of the most suspicious player (>= 2); repair a tool
  of a player who is not suspected; else place the open path nearest the
  target anyway (a branch never hurts the diggers);
* saboteur: break a tool of the least suspicious other player (the most
  likely digger, pickaxe first); rockfall the joined path card nearest the
  target when the path is within 3 steps of it; place a dead end on the
  frontier cell nearest the target; map an unknown goal;
* otherwise pass, discarding the card I value least (digger: dead ends,
  rockfall, maps once the treasure is known, breaks, repairs, paths;
  saboteur: paths first, keeping dead ends, rockfalls and breaks).
"""
from __future__ import annotations

import pyspiel

from solvers.heuristics_base import RuleBot

NORTH, EAST, SOUTH, WEST = "N", "E", "S", "W"
# Open edges of tunnel kinds 0..15 (upright); dead ends 7..15 have stubs only.
KIND_EDGES = ("EW", "NS", "NW", "NE", "NEW", "NES", "NESW",
              "N", "E", "NE", "NS", "NW", "EW", "NES", "NEW", "NESW")
TURN = {NORTH: SOUTH, SOUTH: NORTH, EAST: WEST, WEST: EAST}
PATHS = range(0, 7)
DEAD_ENDS = range(7, 16)
K_MAP, K_ROCKFALL = 16, 17
REPAIR_TOOLS = ((0,), (1,), (2,), (0, 1), (0, 2), (1, 2))   # by repair card 21 + r
GOAL_ROWS = (-2, 0, 2)
GOAL_PREFERENCE = (1, 0, 2)
TREASURE = 0
DIGGER = 0


def edges(kind: int, turned: int) -> str:
    """Open edges of tunnel ``kind`` placed upright (``turned`` = 180 degrees)."""
    e = KIND_EDGES[kind]
    return "".join(TURN[c] for c in e) if turned else e


def suspicion(played: list[list[int]]) -> list[int]:
    """Suspicion per player from this round's public plays (``played[p][k]``:
    cards of kind k that p played; see the module doc)."""
    return [2 * (row[K_ROCKFALL] + sum(row[k] for k in DEAD_ENDS))
            + sum(row[18:21]) - sum(row[k] for k in PATHS) for row in played]


class SaboteurHeuristicBot(RuleBot):
    """The casual-dwarf rules of the module docstring."""

    GAME = "saboteur"

    def __init__(self, game: pyspiel.Game, seed: int | None = 0):
        super().__init__(game, seed)
        params = game.get_parameters()
        self._goal_x = int(params.get("goal_distance", 8))
        self._n = game.num_players()

    def choose(self, state: pyspiel.State, me: int, legal: list[int]) -> int:
        e = state.engine
        C = (2 * e.grid_radius + 1) ** 2
        base = 33 * C
        view = e.player_view(me)
        hand = view["hand"]
        role = view["role"]
        broken = view["broken"]
        frontier = view["frontier"]
        known = view["known_goals"]
        legal_set = set(legal)

        keep = [a for a in legal if base + 240 <= a < base + 243]
        if keep:
            return max(keep)
        hand_on = [a for a in legal if base + 243 <= a < base + 246]
        if hand_on:
            return min(hand_on)

        target = self._target(known)
        tx, ty = self._goal_x, GOAL_ROWS[target]

        def dist(xy: tuple[int, int]) -> int:
            return abs(tx - xy[0]) + abs(ty - xy[1])

        front = min((dist(xy) for xy in frontier), default=99)
        sus = suspicion(view["played"])
        others = [q for q in range(self._n) if q != me]

        def repair(q: int) -> int | None:
            for t in range(3):
                if not broken[q][t]:
                    continue
                for r, tools in enumerate(REPAIR_TOOLS):
                    a = base + 30 + 10 * (3 * r + t) + q
                    if t in tools and a in legal_set:
                        return a
            return None

        def break_tool(victims: list[int]) -> int | None:
            for q in victims:
                for t in range(3):
                    a = base + 10 * t + q
                    if a in legal_set:
                        return a
            return None

        def placements(kinds: range) -> list[tuple[int, int, int]]:
            out = []
            for a in legal:
                if a >= 32 * C:
                    break
                k, o = (a // C) >> 1, (a // C) & 1
                if k not in kinds:
                    continue
                x, y = e.cell_xy(a % C)
                towards = sum(1 for c, ok in (("E", tx > x), ("W", tx < x),
                                              ("S", ty > y), ("N", ty < y))
                              if ok and c in edges(k, o))
                out.append((dist((x, y)), -towards, a))
            return sorted(out)

        def map_unknown() -> int | None:
            if TREASURE in known:
                return None
            for g in GOAL_PREFERENCE:
                if known[g] < 0 and base + 210 + g in legal_set:
                    return base + 210 + g
            return None

        def clear_dead_end() -> int | None:
            board = view["board"]
            dead = []
            for a in legal:
                if 32 * C <= a < 33 * C:
                    xy = e.cell_xy(a - 32 * C)
                    if xy[0] != self._goal_x and board[xy][0] in DEAD_ENDS:
                        dead.append((dist(xy), a))
            return min(dead)[1] if dead else None

        a = repair(me)
        if a is not None:
            return a
        if role == DIGGER:
            best = placements(PATHS)
            if best and best[0][0] <= front + 1 and best[0][1] < 0:
                return best[0][2]
            for choice in (
                    clear_dead_end(),
                    map_unknown(),
                    break_tool(sorted((q for q in others if sus[q] >= 2),
                                      key=lambda q: (-sus[q], q))),
                    *(repair(q) for q in sorted(others, key=lambda q: (sus[q], q))
                      if sus[q] < 2)):
                if choice is not None:
                    return choice
            if best:
                return best[0][2]
            maps_first = TREASURE in known
            order = (*DEAD_ENDS, *((K_MAP,) if maps_first else ()), 18, 19, 20,
                     *(() if maps_first else (K_MAP,)), K_ROCKFALL, 21, 22, 23, 24, 25, 26, *PATHS)
        else:
            a = break_tool(sorted(others, key=lambda q: (sus[q], q)))
            if a is not None:
                return a
            if front <= 3:
                rocks = []
                for a in legal:
                    if 32 * C <= a < 33 * C:
                        xy = e.cell_xy(a - 32 * C)
                        if xy != (0, 0):
                            rocks.append((dist(xy), a))
                if rocks:
                    return min(rocks)[1]
            dead = placements(DEAD_ENDS)
            if dead and dead[0][0] <= front:
                return dead[0][2]
            a = map_unknown()
            if a is not None:
                return a
            order = (*PATHS, 21, 22, 23, 24, 25, 26, K_MAP, *DEAD_ENDS, K_ROCKFALL, 18, 19, 20)
        for k in order:
            if hand[k] and base + 213 + k in legal_set:
                return base + 213 + k
        passes = [a for a in legal if base + 213 <= a < base + 240]
        return passes[0] if passes else legal[0]

    @staticmethod
    def _target(known: list[int]) -> int:
        if TREASURE in known:
            return known.index(TREASURE)
        for g in GOAL_PREFERENCE:
            if known[g] < 0:
                return g
        return GOAL_PREFERENCE[0]

