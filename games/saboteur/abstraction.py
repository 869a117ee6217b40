"""Saboteur's MCCFR abstractions (``docs/solvers_cfr.md``, "Saboteur over an abstraction").

The Saboteur spec (``games.saboteur``, ``GameSpec.abstraction``) hands these
to the solvers by name (:data:`ABSTRACTIONS`): MCCFR, policy files and
policy bots look the names up through the game's spec.

- ``saboteur_actions`` (:class:`SaboteurActions`): 8 abstract actions,
  heuristic, extend, block, clear, break, repair, map, pass;
- ``saboteur_compact``: the compact information bucket used with them;
- ``saboteur_features``: the older, information-only abstraction (the
  policy table's features plus the legal action ids).

All of them read only the deciding player's view (``engine.player_view``).
"""
from __future__ import annotations

from typing import Any, Sequence


import games.saboteur.ai as hs
from games.interfaces import ActionAbstraction, GameAbstractions
from src_cy.saboteur.engine import GOAL_NAMES, KIND_NAMES, TOOL_NAMES as _TOOLS


def saboteur_features(player: int, engine: Any) -> tuple:
    """Bucket of ``player``'s information state in a Saboteur engine (see module doc)."""
    view = engine.player_view(player)
    goals = " ".join(GOAL_NAMES[g] if g >= 0 else "?" for g in view["known_goals"])
    hand = ", ".join(f"{KIND_NAMES[k]} x{c}" for k, c in enumerate(view["hand"]) if c)
    broken = view["broken"]
    mine = "+".join(t for t, b in zip(_TOOLS, broken[player]) if b) or "-"
    others = sum(1 for q in range(len(broken)) if q != player and any(broken[q]))
    progress = max((x for x, _ in view["reached"]), default=0)
    return (view["role"], " ".join(sorted(hand.split())), progress, goals, mine,
            others, tuple(engine.py_legal_actions()))


saboteur_features.uses_engine = True


# Pass: the card discarded, least useful first (the heuristic's order).
_DISCARD_DIGGER = (*range(7, 16), 17, 18, 19, 20, 16, 21, 22, 23, 24, 25, 26, *range(0, 7))
_DISCARD_SABOTEUR = (*range(0, 7), 21, 22, 23, 24, 25, 26, 16, *range(7, 16), 17, 18, 19, 20)


class SaboteurActions(ActionAbstraction):
    """Saboteur's abstract actions (see ``docs/solvers_cfr.md``).

    The *target* goal and the *suspicion* of players are the heuristic's
    (``games.saboteur.ai``): the treasure if known, else the
    unknown goal nearest the middle row; suspicion +2 per rockfall or dead
    end, +1 per broken tool, -1 per open path placed this round.  Outside the
    play phase (gold hand-out) only ``heuristic`` exists.
    """

    name = "saboteur_actions"
    action_names = ("heuristic", "extend", "block", "clear", "break", "repair", "map", "pass")
    uses_engine = True

    def candidates(self, player: int, engine: Any, legal: Sequence[int]) -> list[int | None]:
        legal = sorted(legal)
        out: list[int | None] = [legal[0] if len(legal) == 1 else hs.choose(engine, player)]
        out += [None] * (len(self.action_names) - 1)
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
                       for k in (_DISCARD_DIGGER if digger else _DISCARD_SABOTEUR)
                       if hand[k] and ids.pass_discarding(k) in legal_set), None)
        return out


def saboteur_compact(player: int, engine: Any) -> tuple:
    """Compact Saboteur information bucket (for use with ``saboteur_actions``).

    ``(phase, role, steps, treasure_known, my_broken, others_broken, deck_left)``:
    the phase (play or gold hand-out), your role, how many steps the nearest
    frontier cell is from the target goal (capped at 4), whether you know
    where the treasure is, whether a tool of yours is broken, how many others
    have a broken tool, whether the deck still has cards.
    """
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


saboteur_compact.uses_engine = True

#: What the Saboteur spec's ``abstraction`` factory returns.
ABSTRACTIONS = GameAbstractions(
    information={"saboteur_features": saboteur_features, "saboteur_compact": saboteur_compact},
    actions={"saboteur_actions": SaboteurActions()})
