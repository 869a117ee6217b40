"""Saboteur search helpers: root action grouping for ISMCTS.

Saboteur offers hundreds of placements per move (every tunnel card, both
orientations, every frontier cell).  :func:`saboteur_root_candidates`
groups them and keeps a few per group, reading only the mover's own
information (the public maze and the goals the mover knows):

* placements: grouped by (card kind, orientation); per group the
  ``per_group`` cells nearest the mover's target goal (ties: more open edges
  towards it), the heuristic's target (treasure if known, else the unknown
  goal nearest the middle row);
* rockfalls: the ``rockfalls`` cells nearest the target;
* every other action (broken tools, repairs, maps, passes, gold hand-out);
* the heuristic bot's own move.
"""
from __future__ import annotations

import pyspiel

from solvers.heuristics_saboteur import GOAL_ROWS, SaboteurHeuristicBot, edges
from solvers.ismcts import register_root_candidates


def saboteur_root_candidates(state: pyspiel.State, *, per_group: int = 2,
                             rockfalls: int = 3) -> list[int]:
    """Root candidates of the player to move (sorted; a subset of the legal actions)."""
    if per_group < 1 or rockfalls < 0:
        raise ValueError(f"per_group must be >= 1 and rockfalls >= 0, got {per_group}, {rockfalls}")
    e = state.engine
    me = state.current_player()
    legal = sorted(state.legal_actions())
    C = (2 * e.grid_radius + 1) ** 2
    known = [e._known_goal(me, g) for g in range(3)]
    target = SaboteurHeuristicBot._target(known)
    tx = int(state.get_game().get_parameters().get("goal_distance", 8))
    ty = GOAL_ROWS[target]
    groups: dict[int, list[tuple[int, int, int]]] = {}
    rocks: list[tuple[int, int]] = []
    out = set()
    for a in legal:
        if a < 32 * C:
            x, y = e.cell_xy(a % C)
            k, o = (a // C) >> 1, (a // C) & 1
            towards = sum(1 for c, ok in (("E", tx > x), ("W", tx < x), ("S", ty > y),
                                          ("N", ty < y)) if ok and c in edges(k, o))
            groups.setdefault(a // C, []).append((abs(tx - x) + abs(ty - y), -towards, a))
        elif a < 33 * C:
            x, y = e.cell_xy(a - 32 * C)
            rocks.append((abs(tx - x) + abs(ty - y), a))
        else:
            out.add(a)
    for g in groups.values():
        out.update(a for _, _, a in sorted(g)[:per_group])
    out.update(a for _, a in sorted(rocks)[:rockfalls])
    out.add(SaboteurHeuristicBot(state.get_game()).step(state))
    return sorted(out)


register_root_candidates("saboteur", saboteur_root_candidates)
