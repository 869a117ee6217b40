"""Gold Thief's MCCFR abstractions (``docs/solvers_cfr.md``, "Gold Thief over an abstraction").

The Gold Thief spec (``games.gold_thief``, ``GameSpec.abstraction``) hands
these to the solvers by name (:data:`ABSTRACTIONS`):

- ``gold_thief_actions`` (:class:`GoldThiefActions`): 8 abstract actions,
  heuristic, keep, thief, guard, witch, faerie, ninja, flip: play one card
  kind in the way this decision allows (on the heuristic's target), keep the
  cards (end the turn or pass), or flip a chosen goal;
- ``gold_thief_turns`` / ``gold_thief_responses`` / ``gold_thief_defence``:
  the same actions offered only on your own turn (the table entry's
  default), only in the windows, only where a theft hits you; elsewhere only
  ``heuristic``;
- ``gold_thief_compact``: the compact information bucket used with them;
  ``gold_thief_windows``: a coarser one (one bucket per phase outside the
  windows).

Both read only what the deciding player knows (the fields of
``engine.player_view(player)``); the bucket and the candidates are compiled
with the heuristic's rules in ``src_cy/gold_thief/heuristic.pyx``
(``compact_bucket``, ``abstract_candidates``; the bucket's caps live there).
"""
from __future__ import annotations

from typing import Any, Sequence

from games.interfaces import ActionAbstraction, GameAbstractions
from src_cy.gold_thief.heuristic import (OFFER_ALL, OFFER_DEFENCE, OFFER_TURNS, OFFER_WINDOWS,
                                         abstract_candidates, compact_bucket)


def gold_thief_compact(player: int, engine: Any) -> tuple:
    """Compact Gold Thief information bucket (for use with ``gold_thief_actions``).

    ``(decision, pending, thieves, guards, need, opp_band, flipped, opp_flipped)``:
    the phase (play, respond, witch-give, ninja-window, big-pile-flip); in a
    response window the top effect's kind and whether you played it (``me``),
    suffer it (``victim``) or neither (``other``), else ``-``; your Thieves and
    Guards (capped at 2); the signed distance from your gold to your nearest
    goal number (target minus gold, clipped to +-3; ``big`` above the big-pile
    limit); the leader's gold band (0-2, 3-5, 6-8, 9+); your goals flipped and
    the leader's.
    """
    return compact_bucket(engine, player)


gold_thief_compact.uses_engine = True


def gold_thief_windows(player: int, engine: Any) -> tuple:
    """Coarse Gold Thief bucket for the windows (for use with ``gold_thief_responses``).

    Outside the windows (own turn, big-pile flip; where ``gold_thief_responses``
    offers only the heuristic's move) just the phase; in a window
    ``(decision, pending, spare_guard, need, flipped, leader_flipped)``: as in
    :func:`gold_thief_compact`, with ``spare_guard`` whether you hold two or
    more Guards and ``need`` clipped to +-2.
    """
    decision, pending, _thieves, guards, need, _band, mine, lead = compact_bucket(engine, player)
    if decision not in GoldThiefResponses.WINDOWS:
        return (decision,)
    if need != "big":
        need = max(-WINDOW_NEED_CAP, min(WINDOW_NEED_CAP, need))
    return (decision, pending, guards >= 2, need, mine, lead)


gold_thief_windows.uses_engine = True
#: ``need`` cap of the coarse window bucket.
WINDOW_NEED_CAP = 2


class GoldThiefActions(ActionAbstraction):
    """Gold Thief's abstract actions (see ``docs/solvers_cfr.md``).

    Each card kind is played in the way the decision allows: on your own
    turn on the heuristic's *leader* (Thief, Witch; other player with most
    goals up, then most gold) or *trailer* (Guard gift: fewest goals up, then
    least gold), Faerie on your face-down goal farthest from your gold, Ninja
    to draw; in a response window as its answer (Thief raid, Guard cancel,
    Witch extra Thief, Faerie cancel); in a Ninja window the Ninja scores;
    as a Witch's victim, the card given.  ``keep`` ends the turn or passes;
    ``flip`` (big-pile flip) flips the goal farthest from your gold.
    """

    name = "gold_thief_actions"
    action_names = ("heuristic", "keep", "thief", "guard", "witch", "faerie", "ninja", "flip")
    uses_engine = True

    #: Where abstract actions other than ``heuristic`` exist (``OFFER_*`` of
    #: ``src_cy.gold_thief.heuristic``): here at every decision.
    offer = OFFER_ALL

    def candidates(self, player: int, engine: Any, legal: Sequence[int]) -> list[int | None]:
        """The move each abstract action names, or None (compiled:
        ``src_cy.gold_thief.heuristic.abstract_candidates``)."""
        return abstract_candidates(engine, player, sorted(legal), self.offer)


class GoldThiefResponses(GoldThiefActions):
    """:class:`GoldThiefActions` in the windows only: in response and Ninja
    windows and as a Witch's victim the same abstract actions; on your own
    turn and at a big-pile flip only ``heuristic`` (fewer decisions with a
    choice: less variance in an outcome-sampling solve)."""

    name = "gold_thief_responses"
    WINDOWS = ("respond", "ninja-window", "witch-give")
    offer = OFFER_WINDOWS


class GoldThiefTurns(GoldThiefActions):
    """:class:`GoldThiefActions` on your own turn and at a big-pile flip only;
    in the windows only ``heuristic`` (the complement of
    :class:`GoldThiefResponses`)."""

    name = "gold_thief_turns"
    offer = OFFER_TURNS


class GoldThiefDefence(GoldThiefActions):
    """:class:`GoldThiefActions` only where a theft hits you (a response window
    whose top effect is a Thief, a raid or a Witch as extra Thief on you:
    keep, raid, Guard-cancel, Witch or Faerie); everywhere else only
    ``heuristic`` (the fewest decisions with a choice)."""

    name = "gold_thief_defence"
    offer = OFFER_DEFENCE


#: What the Gold Thief spec's ``abstraction`` factory returns.
ABSTRACTIONS = GameAbstractions(
    information={"gold_thief_compact": gold_thief_compact,
                 "gold_thief_windows": gold_thief_windows},
    actions={"gold_thief_actions": GoldThiefActions(),
             "gold_thief_responses": GoldThiefResponses(),
             "gold_thief_defence": GoldThiefDefence(),
             "gold_thief_turns": GoldThiefTurns()})
