"""Saboteur's MCCFR abstractions (``docs/solvers_cfr.md``, "Saboteur over an abstraction").

The Saboteur spec (``games.saboteur``, ``GameSpec.abstraction``) hands these
to the solvers by name (:data:`ABSTRACTIONS`): MCCFR, policy files and
policy bots look the names up through the game's spec.

- ``saboteur_actions`` (:class:`SaboteurActions`): 8 abstract actions,
  heuristic, extend, block, clear, break, repair, map, pass;
- ``saboteur_compact``: the compact information bucket used with them;
- ``saboteur_compact_shared``: the same bucket with rows shared by all seats
  (the default preset's solve: five seats' visits pool in one row);
- ``saboteur_features``: the older, information-only abstraction (the
  policy table's features plus the legal action ids).

All of them read only the deciding player's view (``engine.player_view``).
"""
from __future__ import annotations

from typing import Any, Sequence

from games.interfaces import ActionAbstraction, GameAbstractions
from src_cy.saboteur.engine import GOAL_NAMES, KIND_NAMES, TOOL_NAMES as _TOOLS
from src_cy.saboteur.heuristic import abstract_candidates, compact_bucket


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


class SaboteurActions(ActionAbstraction):
    """Saboteur's abstract actions (see ``docs/solvers_cfr.md``).

    The *target* goal and the *suspicion* of players are the heuristic's
    (``games.saboteur.ai``): the treasure if known, else the
    unknown goal nearest the middle row; suspicion +2 per rockfall or dead
    end, +1 per broken tool, -1 per open path placed this round.  Outside the
    play phase (gold hand-out) only ``heuristic`` exists.  The moves:

    * heuristic: the heuristic bot's move;
    * extend: the open path placement nearest the target (fewest steps, then
      most open edges towards it, then lowest id);
    * block: the dead end placed likewise, else the rockfall on the open path
      card nearest the target (then lowest id);
    * clear: the rockfall on the dead end nearest the target;
    * break: the first legal tool (pickaxe, lamp, cart) of the first other
      player by suspicion, most suspicious first for a gold-digger, least for
      a saboteur (ties by seat);
    * repair: my first broken tool with the first fitting card, else the
      others' by increasing suspicion (ties by seat);
    * map: while the treasure is unknown, the first unknown goal of middle,
      north, south;
    * pass: discarding the first held kind of the order dead ends, rockfall,
      breaks, map, repairs, paths (gold-digger) or paths, repairs, map, dead
      ends, rockfall, breaks (saboteur).
    """

    name = "saboteur_actions"
    action_names = ("heuristic", "extend", "block", "clear", "break", "repair", "map", "pass")
    uses_engine = True

    def candidates(self, player: int, engine: Any, legal: Sequence[int]) -> list[int | None]:
        """The move each abstract action names, or None (compiled:
        ``src_cy.saboteur.heuristic.abstract_candidates``)."""
        return abstract_candidates(engine, player, sorted(legal))


def saboteur_compact(player: int, engine: Any) -> tuple:
    """Compact Saboteur information bucket (for use with ``saboteur_actions``).

    ``(phase, role, steps, treasure_known, my_broken, others_broken, deck_left)``:
    the phase (play or gold hand-out), your role, how many steps the nearest
    frontier cell is from the target goal (capped at 4), whether you know
    where the treasure is, whether a tool of yours is broken, how many others
    have a broken tool, whether the deck still has cards.
    """
    return compact_bucket(engine, player)


saboteur_compact.uses_engine = True


def saboteur_compact_shared(player: int, engine: Any) -> tuple:
    """``saboteur_compact``'s bucket, one row for all seats (``shared_seats``).

    The bucket holds no seat and the abstract actions name their targets
    relative to the mover (suspicion order, own tools), so a situation is the
    same decision in every seat; sharing gives each row five seats' probes.
    """
    return compact_bucket(engine, player)


saboteur_compact_shared.uses_engine = True
saboteur_compact_shared.shared_seats = True

#: What the Saboteur spec's ``abstraction`` factory returns.
ABSTRACTIONS = GameAbstractions(
    information={"saboteur_features": saboteur_features, "saboteur_compact": saboteur_compact,
                 "saboteur_compact_shared": saboteur_compact_shared},
    actions={"saboteur_actions": SaboteurActions()})
