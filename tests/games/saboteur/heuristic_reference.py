"""The Python Saboteur heuristic and abstraction, kept as the reference oracles
of the compiled code (``src_cy/saboteur/heuristic.pyx``: ``choose``, which is
``SaboteurHeuristicBot.engine_rule``, ``abstract_candidates`` and
``compact_bucket``).

This is the code as it was before it was compiled (every rule, tie-break and
ordering; the rules are stated in ``games/saboteur/ai.py``'s docstring and the
abstract actions in ``games/saboteur/abstraction.py``).
``tests/games/saboteur/test_saboteur_heuristic.py`` checks the compiled code
gives the same answers at every decision of many seeded games.
"""
from __future__ import annotations

from typing import Any, Sequence

import games.saboteur.ai as hs
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


# The Saboteur abstraction (games/saboteur/abstraction.py) as it was in Python.
# Pass: the card discarded, least useful first (the heuristic's order).
DISCARD_DIGGER = (*range(7, 16), 17, 18, 19, 20, 16, 21, 22, 23, 24, 25, 26, *range(0, 7))
DISCARD_SABOTEUR = (*range(0, 7), 21, 22, 23, 24, 25, 26, 16, *range(7, 16), 17, 18, 19, 20)


def reference_candidates(player: int, engine: Any, legal: Sequence[int]) -> list[int | None]:
    """``SaboteurActions.candidates`` as it was in Python."""
    legal = sorted(legal)
    ref = ReferenceHeuristic(engine.player_view(player)["goal_distance"], engine.num_players)
    out: list[int | None] = [legal[0] if len(legal) == 1 else ref.choose(engine, player, legal)]
    out += [None] * 7
    view = engine.player_view(player)
    if view["phase"] != "play":
        return out
    ids = hs.ActionIds.of(engine)
    legal_set = set(legal)
    known, broken, board = view["known_goals"], view["broken"], view["board"]
    target = hs.target_goal(known)
    tx, ty = view["goal_distance"], hs.GOAL_ROWS[target]
    n = len(broken)
    sus = hs.suspicion(view["played"])
    others = [q for q in range(n) if q != player]
    digger = view["role"] == hs.DIGGER
    best_path = best_dead = rock_path = rock_dead = None
    for a in legal:
        if not (ids.is_place(a) or ids.is_rockfall(a)):
            break
        if ids.is_rockfall(a):               # rockfall on a card of the maze
            xy = engine.cell_xy(ids.rockfall_cell(a))
            cell = board.get(xy)
            if cell is None or xy == (0, 0):
                continue
            cand = (abs(tx - xy[0]) + abs(ty - xy[1]), a)
            if cell[0] in hs.DEAD_ENDS:
                rock_dead = cand if rock_dead is None or cand < rock_dead else rock_dead
            else:
                rock_path = cand if rock_path is None or cand < rock_path else rock_path
            continue
        k, o, cell_id = ids.placement(a)
        x, y = engine.cell_xy(cell_id)
        e = hs.edges(k, o)
        towards = (("E" in e and tx > x) + ("W" in e and tx < x)
                   + ("S" in e and ty > y) + ("N" in e and ty < y))
        cand = (abs(tx - x) + abs(ty - y), -towards, a)
        if k < 7:
            best_path = cand if best_path is None or cand < best_path else best_path
        else:
            best_dead = cand if best_dead is None or cand < best_dead else best_dead
    out[1] = best_path and best_path[2]
    out[2] = best_dead[2] if best_dead else (rock_path and rock_path[1])
    out[3] = rock_dead and rock_dead[1]
    victims = sorted(others, key=(lambda q: (-sus[q], q)) if digger else (lambda q: (sus[q], q)))
    out[4] = next((ids.break_tool(t, q) for q in victims for t in range(3)
                   if ids.break_tool(t, q) in legal_set), None)
    for q in [player] + sorted(others, key=lambda q: (sus[q], q)):
        out[5] = next((ids.repair(r, t, q)
                       for t in range(3) if broken[q][t]
                       for r, tools in enumerate(hs.REPAIR_TOOLS)
                       if t in tools and ids.repair(r, t, q) in legal_set), None)
        if out[5] is not None:
            break
    if hs.TREASURE not in known:
        out[6] = next((ids.map(g) for g in hs.GOAL_PREFERENCE
                       if known[g] < 0 and ids.map(g) in legal_set), None)
    hand = view["hand"]
    out[7] = next((ids.pass_discarding(k)
                   for k in (DISCARD_DIGGER if digger else DISCARD_SABOTEUR)
                   if hand[k] and ids.pass_discarding(k) in legal_set), None)
    return out


def reference_compact(player: int, engine: Any) -> tuple:
    """``saboteur_compact`` (the abstraction's bucket) as it was in Python."""
    view = engine.player_view(player)
    if view["phase"] != "play":
        return (view["phase"],)
    known = view["known_goals"]
    target = hs.target_goal(known)
    tx, ty = view["goal_distance"], hs.GOAL_ROWS[target]
    steps = min((abs(tx - x) + abs(ty - y) for x, y in view["frontier"]), default=9)
    broken = view["broken"]
    others = sum(1 for q in range(len(broken)) if q != player and any(broken[q]))
    return ("play", view["role"], min(steps, 4), hs.TREASURE in known, any(broken[player]),
            others, view["deck_size"] > 0)
