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

from games.saboteur_ai import GOAL_ROWS, SaboteurHeuristicBot, edges


def saboteur_root_candidates(state: pyspiel.State, *, per_group: int = 2,
                             rockfalls: int = 3) -> list[int]:
    """Root candidates of the player to move (sorted; a subset of the legal actions)."""
    if per_group < 1 or rockfalls < 0:
        raise ValueError(f"per_group must be >= 1 and rockfalls >= 0, got {per_group}, {rockfalls}")
    e = state.engine
    me = state.current_player()
    legal = sorted(state.legal_actions())
    C = (2 * e.grid_radius + 1) ** 2
    known = e.player_view(me)["known_goals"]
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



class BeliefSaboteurBot(SaboteurHeuristicBot):
    """The heuristic with its suspicion replaced by the role posterior.

    The casual-dwarf rules of ``solvers/heuristics_saboteur.py`` judge others
    by a public suspicion count; this bot judges them by
    ``solvers.beliefs.saboteur_belief`` (P(saboteur) per seat) and:

    * never repairs a tool of a player with P(saboteur) >= ``repair_max``
      when they are on the other team, nor breaks a tool of a probable
      team-mate (digger: P(saboteur) < ``break_min``; saboteur: P(saboteur) >=
      0.5), nor breaks a tool of a player who already has one broken (one
      broken tool already stops them from laying paths);
    * as a gold-digger, breaks a tool of the most probable saboteur
      (P >= ``break_min``, no tool broken yet) before anything but repairing
      its own tools;
    * otherwise plays the heuristic's move among the remaining actions.
    """

    def __init__(self, game: pyspiel.Game, seed: int | None = 0, break_min: float = 0.7,
                 repair_max: float = 0.5, bluff_distance: int | None = None,
                 map_first: bool = False, repair_first: bool = False):
        super().__init__(game, seed)
        self.map_first = bool(map_first)
        self.repair_first = bool(repair_first)
        if bluff_distance is not None and bluff_distance < 0:
            raise ValueError(f"bluff_distance must be None or >= 0, got {bluff_distance}")
        self.bluff_distance = bluff_distance
        if not 0.0 <= repair_max <= 1.0 or not 0.0 <= break_min <= 1.0:
            raise ValueError(f"break_min and repair_max must be in [0, 1], got "
                             f"{break_min}, {repair_max}")
        self.break_min = break_min
        self.repair_max = repair_max

    def choose(self, state: pyspiel.State, me: int, legal: list[int]) -> int:
        from solvers.beliefs import DIGGER, saboteur_belief
        e = state.engine
        base = 33 * (2 * e.grid_radius + 1) ** 2
        view = e.player_view(me)
        role = view["role"]
        broken = view["broken"]
        b = saboteur_belief(state, me)
        psab = [b.marginal(q).get(1, 0.0) for q in range(self._n)]

        def target(a: int) -> tuple[str, int]:
            if base <= a < base + 30:
                return "break", (a - base) % 10
            if base + 30 <= a < base + 210:
                return "repair", (a - base - 30) % 10
            return "", -1

        for a in legal:                    # repair my own tool first
            kind, q = target(a)
            if kind == "repair" and q == me:
                return super().choose(state, me, legal)
        if role == DIGGER:
            suspects = sorted((q for q in range(self._n)
                               if q != me and psab[q] >= self.break_min and not any(broken[q])),
                              key=lambda q: (-psab[q], q))
            for q in suspects:
                for a in legal:
                    if target(a) == ("break", q):
                        return a
            known = view["known_goals"]
            if self.map_first and 0 not in known:
                maps = [a for a in legal if base + 210 <= a < base + 213
                        and known[a - base - 210] < 0]
                if maps:
                    return min(maps, key=lambda a: (abs(a - base - 211), a))
            if self.repair_first:
                for a in legal:
                    kind, q = target(a)
                    if kind == "repair" and q != me and psab[q] < 1.0 - self.break_min:
                        return a
        elif self.bluff_distance is not None:
            a = self._bluff(state, me, legal)
            if a is not None:
                return a
        keep = []
        for a in legal:
            kind, q = target(a)
            if kind == "break" and (any(broken[q]) or (psab[q] < self.break_min if role == DIGGER
                                                       else psab[q] >= 0.5)):
                continue
            if kind == "repair" and q != me and (psab[q] >= self.repair_max if role == DIGGER
                                                 else psab[q] < self.repair_max):
                continue
            keep.append(a)
        return super().choose(state, me, keep or legal)

    def _bluff(self, state: pyspiel.State, me: int, legal: list[int]) -> int | None:
        """Saboteur far from the goals: lay the open path farthest from the
        target (looks like a digger's move, helps little), if any."""
        e = state.engine
        C = (2 * e.grid_radius + 1) ** 2
        known = e.player_view(me)["known_goals"]
        target = SaboteurHeuristicBot._target(known)
        tx, ty = self._goal_x, GOAL_ROWS[target]
        frontier = e.player_view(me)["frontier"]
        front = min((abs(tx - x) + abs(ty - y) for x, y in frontier), default=99)
        if front <= self.bluff_distance:
            return None
        paths = []
        for a in legal:
            if a >= 32 * C:
                break
            if (a // C) >> 1 < 7:
                x, y = e.cell_xy(a % C)
                paths.append((abs(tx - x) + abs(ty - y), a))
        return max(paths)[1] if paths else None
