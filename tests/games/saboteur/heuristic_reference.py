"""The Python Saboteur heuristic, kept as the reference oracle of the compiled
rule (``src_cy/saboteur/heuristic.pyx``, ``SaboteurHeuristicBot.engine_rule``).

This is the bot's code as it was before it was compiled (every rule, tie-break
and ordering; the rules are stated in ``games/saboteur/ai.py``'s docstring).
``tests/games/saboteur/test_saboteur_heuristic.py`` checks the compiled rule
plays its move at every decision of many seeded games.
"""
from __future__ import annotations

from typing import Any

from games.saboteur.ai import (DEAD_ENDS, DIGGER, GOAL_PREFERENCE, GOAL_ROWS, K_BREAKS, K_MAP,
                               K_REPAIRS, K_ROCKFALL, PATHS, REPAIR_TOOLS, TREASURE, ActionIds,
                               edges, suspicion, target_goal)


class ReferenceHeuristic:
    """The casual-dwarf rules in Python, reading ``engine.player_view(me)``."""

    def __init__(self, goal_x: int, num_players: int):
        self._goal_x = goal_x
        self._n = num_players

    def choose(self, e: Any, me: int, legal: list[int]) -> int:
        """The move for ``me`` among ``legal`` (sorted) at engine ``e``."""
        ids = ActionIds.of(e)
        view = e.player_view(me)
        hand = view["hand"]
        role = view["role"]
        broken = view["broken"]
        frontier = view["frontier"]
        known = view["known_goals"]
        legal_set = set(legal)

        keep = [a for a in legal if ids.is_keep(a)]
        if keep:
            return max(keep)
        hand_on = [a for a in legal if ids.is_hand_on(a)]
        if hand_on:
            return min(hand_on)

        target = target_goal(known)
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
                    a = ids.repair(r, t, q)
                    if t in tools and a in legal_set:
                        return a
            return None

        def break_tool(victims: list[int]) -> int | None:
            for q in victims:
                for t in range(3):
                    a = ids.break_tool(t, q)
                    if a in legal_set:
                        return a
            return None

        def placements(kinds: range) -> list[tuple[int, int, int]]:
            out = []
            for a in legal:
                if not ids.is_place(a):
                    break
                k, o, cell = ids.placement(a)
                if k not in kinds:
                    continue
                x, y = e.cell_xy(cell)
                towards = sum(1 for c, ok in (("E", tx > x), ("W", tx < x),
                                              ("S", ty > y), ("N", ty < y))
                              if ok and c in edges(k, o))
                out.append((dist((x, y)), -towards, a))
            return sorted(out)

        def map_unknown() -> int | None:
            if TREASURE in known:
                return None
            for g in GOAL_PREFERENCE:
                if known[g] < 0 and ids.map(g) in legal_set:
                    return ids.map(g)
            return None

        def clear_dead_end() -> int | None:
            board = view["board"]
            dead = []
            for a in legal:
                if ids.is_rockfall(a):
                    xy = e.cell_xy(ids.rockfall_cell(a))
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
            order = (*DEAD_ENDS, *((K_MAP,) if maps_first else ()), *K_BREAKS,
                     *(() if maps_first else (K_MAP,)), K_ROCKFALL, *K_REPAIRS, *PATHS)
        else:
            a = break_tool(sorted(others, key=lambda q: (sus[q], q)))
            if a is not None:
                return a
            if front <= 3:
                rocks = []
                for a in legal:
                    if ids.is_rockfall(a):
                        xy = e.cell_xy(ids.rockfall_cell(a))
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
            order = (*PATHS, *K_REPAIRS, K_MAP, *DEAD_ENDS, K_ROCKFALL, *K_BREAKS)
        for k in order:
            if hand[k] and ids.pass_discarding(k) in legal_set:
                return ids.pass_discarding(k)
        passes = [a for a in legal if ids.is_pass(a)]
        return passes[0] if passes else legal[0]
