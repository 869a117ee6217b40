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

Both read only the deciding player's view (``engine.player_view(player)``,
built once per call) and, for ``heuristic``, the compiled heuristic rules
(``src_cy/gold_thief/heuristic.pyx``, which read only that player's information).
"""
from __future__ import annotations

from typing import Any, Sequence

from games.interfaces import ActionAbstraction, GameAbstractions
from src_cy.gold_thief.engine import ACTION_LAYOUT as _L
from src_cy.gold_thief.heuristic import choose as heuristic_choose

_END, _PASS = _L["A_END_TURN"], _L["A_PASS"]
_THIEF, _GUARD, _WITCH, _FAERIE = _L["A_THIEF"], _L["A_GUARD"], _L["A_WITCH"], _L["A_FAERIE"]
_NINJA, _NINJA_SCORE, _BIG_FLIP, _GIVE = (_L["A_NINJA"], _L["A_NINJA_SCORE"], _L["A_BIG_FLIP"],
                                          _L["A_GIVE"])
_CANCEL, _RAID, _EXTRA, _FCANCEL = (_L["A_GUARD_CANCEL"], _L["A_THIEF_RAID"],
                                    _L["A_WITCH_EXTRA"], _L["A_FAERIE_CANCEL"])
THIEF, GUARD, WITCH, FAERIE, NINJA = range(5)

#: Caps of the hand counts in a bucket (Thief, Guard); the other kinds show
#: in which abstract actions exist.
HAND_CAP = 2
#: Signed distance from your gold to your nearest goal number, clipped to +-NEED_CAP.
NEED_CAP = 3
#: Upper ends of the opponents' gold bands (the last band is open).
OPP_BANDS = (2, 5, 8)


def _goal_gap(view: Any, gold: int) -> int:
    """Signed distance from ``gold`` to the nearest number of ``view``'s face-down
    goals (target minus gold; 0 with no goal down), ties towards gaining."""
    numbers = view.goal_numbers
    gaps = [x - gold for g in view.goals_down for x in numbers[g]]
    return min(gaps, key=lambda d: (abs(d), -d), default=0)


def _leader(view: Any) -> int:
    """The heuristic's leader: the other player with most goals up, then most gold."""
    others = [v for v in range(view.num_players) if v != view.player]
    return max(others, key=lambda v: (len(view.face_up[v]), view.gold[v], -v))


def _band(gold: int) -> int:
    return next((i for i, top in enumerate(OPP_BANDS) if gold <= top), len(OPP_BANDS))


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
    return _compact(engine.player_view(player), engine.big_pile)


gold_thief_compact.uses_engine = True


def _compact(view: Any, big_pile: int) -> tuple:
    """:func:`gold_thief_compact` of the deciding player's view."""
    player = view.player
    pending = "-"
    if view.phase == "respond" and view.pending:
        kind, who, victim, _ben, _canc = view.pending[-1]
        pending = (kind, "me" if who == player else "victim" if victim == player else "other")
    gold = view.gold[player]
    gap = _goal_gap(view, gold)
    need = "big" if gold > big_pile else max(-NEED_CAP, min(NEED_CAP, gap))
    lead = _leader(view)
    return (view.phase, pending, min(view.hand[THIEF], HAND_CAP), min(view.hand[GUARD], HAND_CAP),
            need, _band(view.gold[lead]), len(view.face_up[player]), len(view.face_up[lead]))


def gold_thief_windows(player: int, engine: Any) -> tuple:
    """Coarse Gold Thief bucket for the windows (for use with ``gold_thief_responses``).

    Outside the windows (own turn, big-pile flip; where ``gold_thief_responses``
    offers only the heuristic's move) just the phase; in a window
    ``(decision, pending, spare_guard, need, flipped, leader_flipped)``: as in
    :func:`gold_thief_compact`, with ``spare_guard`` whether you hold two or
    more Guards and ``need`` clipped to +-2.
    """
    view = engine.player_view(player)
    if view.phase not in GoldThiefResponses.WINDOWS:
        return (view.phase,)
    decision, pending, _thieves, guards, need, _band, mine, lead = _compact(view, engine.big_pile)
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

    def candidates(self, player: int, engine: Any, legal: Sequence[int]) -> list[int | None]:
        view = engine.player_view(player)
        out = self._candidates(player, engine, legal, view)
        if not self.offers_choice(view):
            out[1:] = [None] * (len(out) - 1)
        return out

    def offers_choice(self, view: Any) -> bool:
        """Whether abstract actions other than ``heuristic`` exist at this
        decision (``view``: the deciding player's); here everywhere."""
        return True

    def _candidates(self, player: int, engine: Any, legal: Sequence[int],
                    view: Any) -> list[int | None]:
        """Every abstract action's concrete action at ``view``'s decision."""
        legal = sorted(legal)
        legal_set = set(legal)
        heuristic = legal[0] if len(legal) == 1 else heuristic_choose(engine, player)
        out: list[int | None] = [heuristic] + [None] * (len(self.action_names) - 1)

        def have(a: int) -> int | None:
            return a if a in legal_set else None

        out[1] = have(_END) if _END in legal_set else have(_PASS)
        phase = view.phase
        gold = view.gold[player]

        def farthest_goal(base: int) -> int | None:
            goals = [g for g in view.goals_down if base + g in legal_set]
            if not goals:
                return None
            g = max(goals, key=lambda g: (min(abs(gold - x) for x in view.goal_numbers[g]), -g))
            return base + g

        if phase == "play":
            others = [v for v in range(view.num_players) if v != player]
            lead_key = (lambda v: (len(view.face_up[v]), view.gold[v], -v))
            trail_key = (lambda v: (-len(view.face_up[v]), -view.gold[v], -v))
            for k, base, key in ((2, _THIEF, lead_key), (3, _GUARD, trail_key),
                                 (4, _WITCH, lead_key)):
                targets = [v for v in others if base + v in legal_set]
                out[k] = base + max(targets, key=key) if targets else None
            out[5] = farthest_goal(_FAERIE)
            out[6] = have(_NINJA)
        elif phase == "respond":
            out[2], out[3], out[4], out[5] = have(_RAID), have(_CANCEL), have(_EXTRA), \
                have(_FCANCEL)
        elif phase == "ninja-window":
            out[6] = next((a for a in legal if _NINJA_SCORE <= a < _BIG_FLIP), None)
        elif phase == "witch-give":
            for k, t in ((2, THIEF), (3, GUARD), (4, WITCH), (5, FAERIE), (6, NINJA)):
                out[k] = have(_GIVE + t)
        elif phase == "big-pile-flip":
            out[7] = farthest_goal(_BIG_FLIP)
        return out


class GoldThiefResponses(GoldThiefActions):
    """:class:`GoldThiefActions` in the windows only: in response and Ninja
    windows and as a Witch's victim the same abstract actions; on your own
    turn and at a big-pile flip only ``heuristic`` (fewer decisions with a
    choice: less variance in an outcome-sampling solve)."""

    name = "gold_thief_responses"
    WINDOWS = ("respond", "ninja-window", "witch-give")

    def offers_choice(self, view: Any) -> bool:
        return view.phase in self.WINDOWS


class GoldThiefTurns(GoldThiefActions):
    """:class:`GoldThiefActions` on your own turn and at a big-pile flip only;
    in the windows only ``heuristic`` (the complement of
    :class:`GoldThiefResponses`)."""

    name = "gold_thief_turns"

    def offers_choice(self, view: Any) -> bool:
        return view.phase not in GoldThiefResponses.WINDOWS


class GoldThiefDefence(GoldThiefActions):
    """:class:`GoldThiefActions` only where a theft hits you (a response window
    whose top effect is a Thief, a raid or a Witch as extra Thief on you:
    keep, raid, Guard-cancel, Witch or Faerie); everywhere else only
    ``heuristic`` (the fewest decisions with a choice)."""

    name = "gold_thief_defence"
    THEFTS = (0, 1, 2)   # effect kinds: Thief, raid, Witch as extra Thief

    def offers_choice(self, view: Any) -> bool:
        top = view.pending[-1] if view.pending else None
        return (view.phase == "respond" and top is not None and top[0] in self.THEFTS
                and top[2] == view.player)


#: What the Gold Thief spec's ``abstraction`` factory returns.
ABSTRACTIONS = GameAbstractions(
    information={"gold_thief_compact": gold_thief_compact,
                 "gold_thief_windows": gold_thief_windows},
    actions={"gold_thief_actions": GoldThiefActions(),
             "gold_thief_responses": GoldThiefResponses(),
             "gold_thief_defence": GoldThiefDefence(),
             "gold_thief_turns": GoldThiefTurns()})
