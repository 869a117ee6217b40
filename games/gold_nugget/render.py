"""Gold Nugget in a terminal: what one seat sees (``GameSpec.renderer``).

The screen is written from the seat's :class:`~src_cy.gold_nugget.view.GoldNuggetView`
(``spec.player_view``): day and time of day, the white-feather holder, every
animal's time card, sleep, feathers, cards and lair (stones as the seat
knows them), the seat's hand and victory card, the nest.  The moves the
engine names generically (``option 0``, ``pass/end``, ``stone p0#1``) are
named by the decision they answer, read from the seat's view, and a
decision inside a card's effect gets a title.  The end summary shows what
every animal grabbed and where the Gold Nugget was.
"""
from __future__ import annotations

import re
from typing import Sequence

import pyspiel

from games._adapter import view_of
from games.interfaces import Renderer, name_players, screen_title, seat_label, seat_name
from src_cy.gold_nugget.engine import LEAF_CATALOG
from src_cy.gold_nugget.view import GoldNuggetView

_OPTIONS = {
    "examine": ("examine the stone", "don't examine the stone"),
    "suspicion": ("reveal all your stones", "take 2 black feathers"),
}

# The active abilities (docs/rules/gold_nugget.md, the animal catalog).
_ABILITY = {
    "Fox": "swap one of your stones with another animal's; only you see",
    "Owl": "examine one stone in any lair",
    "Magpie": "steal 1 stone from the nest",
    "Mole": "give one of your stones to the nest, then steal 1 from it",
    "Badger": "give one of your black feathers to an animal",
}

_PASS = {
    "Meddling": "end your meddling",
    "instant reactions": "pass (play no instant)",
    "Hello! discard": "done discarding",
    "Raven: face-down cards": "pass (play no card)",
}

_DECISIONS = {
    "examine": "examine the stone you received?",
    "beg": "give a card, a stone or a black feather",
    "choose its stone": "choose one of its stones",
    "steal from anywhere": "choose a stone of a lair or the nest",
    "choose your stone": "choose one of your stones",
    "suspicion": "reveal all your stones or take 2 black feathers",
    "place": "choose where the new stone goes (the stones from there on move one place right)",
}


def _head(v: GoldNuggetView) -> str:
    day, holder = v.day + 1, seat_name(v.holder, v.seat)
    if v.phase == "game over":
        return "game over"
    if day > v.days:
        return (f"the Raven has arrived (after day {v.days}): abilities are off; "
                f"phase {v.phase}; white feather: {holder}")
    return (f"day {day} of {v.days}, time of day: {v.time}; "
            f"phase {v.phase}; white feather: {holder}")


def screen_of(v: GoldNuggetView) -> str:
    """The seat's screen from its view."""
    seat = v.seat
    out = [screen_title(f"Gold Nugget: you are P{seat}"), _head(v)]
    out.append("your hand: " + (", ".join(f"{LEAF_CATALOG[k][0]} x{c}"
                                          for k, c in enumerate(v.hand) if c) or "-"))
    if v.victory_card is not None:
        out.append(f"victory card: {v.victory_card}")
    played = [f"p{q} {c}" for q, c in enumerate(v.victory_played) if c is not None]
    if played:
        out.append(name_players("victory cards played: " + ", ".join(played), seat))
    out.append(f"  {'player':<9} {'animal':<10} {'time card':<19} {'state':<11} "
               f"{'feathers':>8}  {'cards':>5}  lair stones")
    for q in range(len(v.cards)):
        state = ("asleep" if v.asleep[q] else "awake") + (", out" if v.out[q] else "")
        feathers = "?" if v.feathers is None else v.feathers[q]
        stones = " ".join(f if f is not None else "unknown" for f in v.lairs[q]) or "(none)"
        out.append(f"  {seat_label(q, seat):<9} {v.animals[q] or '?':<10} "
                   f"sleeps at {v.times[q] or '?':<9} {state:<11} "
                   f"{feathers:>8}  {v.cards[q]:>5}  {stones}")
    nest_feathers = "?" if v.nest_feathers is None else v.nest_feathers
    out.append(f"nest: {v.nest_stones} stones, {nest_feathers} feathers; "
               f"deck {v.deck}; discard {sum(v.discard)}")
    return "\n".join(out)


class GoldNuggetRenderer(Renderer):
    """Gold Nugget's screens (see the module docstring)."""

    def screen(self, state: pyspiel.State, seat: int) -> str:
        return screen_of(view_of(state, seat))

    def event_text(self, line: str, seat: int) -> str:
        return name_players(line, seat)

    def decision_title(self, state: pyspiel.State, seat: int) -> str:
        """What a decision inside a card's effect (or a placement) is about:
        ``Peek: choose a lair stone``."""
        v = view_of(state, seat)
        if not v.decision or (v.phase != "effect" and v.decision != "place"):
            return ""
        phrase = _DECISIONS.get(v.decision, v.decision)
        return f"{v.effect}: {phrase}" if v.effect else phrase[0].upper() + phrase[1:]

    def move_labels(self, state: pyspiel.State, seat: int, legal: Sequence[int]) -> list[str]:
        """Two-way choices, passes, discards and placements named by the
        decision they answer (from the seat's view)."""
        names = super().move_labels(state, seat, legal)
        v = view_of(state, seat)
        return [self._label(v, seat, name) for name in names]

    @staticmethod
    def _label(v: GoldNuggetView, seat: int, name: str) -> str:
        if name == "pass/end" and v.phase in _PASS:
            return _PASS[v.phase]
        if name == "sleep" and v.holder == seat:
            return "go to sleep (the white feather passes on)"
        if name == "use ability" and v.animals[seat] in _ABILITY:
            return f"use the {v.animals[seat]}'s ability: {_ABILITY[v.animals[seat]]}"
        if name == "meddle":
            return "stay awake and meddle"
        if name.startswith("discard/give "):
            card = name[len("discard/give "):]
            return f"give {card}" if v.decision == "beg" else f"discard {card}"
        m = re.match(r"stone [pP](\d+)#(\d+)$", name)
        if v.decision == "place" and m:
            return f"put it in slot #{m.group(2)}"
        m = re.match(r"option ([01]) \(", name)
        if m:
            i = int(m.group(1))
            if v.phase == "choose animal" and i < len(v.offered or ()):
                return f"be the {v.offered[i]}"
            if v.decision in _OPTIONS:
                return _OPTIONS[v.decision][i]
        return name

    def end_summary(self, state: pyspiel.State, seat: int) -> list[str]:
        """The stone each animal grabbed, where the Gold Nugget was, the
        victory cards played, the winners."""
        e = state.engine
        n = state.num_players()
        v = view_of(state, seat)
        out = ["What every animal grabbed when the Raven came:"]
        for q in range(n):
            stones = " ".join(v.lairs[q]) or "nothing"
            card = v.victory_played[q]
            out.append(f"  {seat_name(q, seat):<4} {v.animals[q] or '?':<10} {stones}"
                       + (f"; victory card {card}" if card else ""))
        faces = e.stone_faces()
        nugget = [s for s, f in enumerate(faces) if f == 2]
        holder = [q for q, lair in enumerate(e.lairs()) if nugget and nugget[0] in lair]
        mask = e.info()["winners"]
        winners = [q for q in range(n) if mask >> q & 1]
        if holder:
            out.append(f"The Gold Nugget was grabbed by {seat_name(holder[0], seat)}.")
        else:
            out.append("Nobody grabbed the Gold Nugget.")
        out.append("Winners: " + ", ".join(seat_name(q, seat) for q in winners) if winners
                   else "The Raven wins: every return is 0.")
        return out
