"""Saboteur heuristic: what a sensible casual dwarf does.

The rules below run compiled, ``src_cy/saboteur/heuristic.pyx`` (``choose``,
the bot's ``engine_rule``: its one implementation, at C speed for the solvers'
fixed heuristic opponents); the Python code they were first written in is the
tests' reference oracle (``tests/games/saboteur/heuristic_reference.py``).
This module keeps the Python names other modules share: card kinds, action
ids (:class:`ActionIds`), edges, suspicion and the target goal.

The bot reads only what its player's view (``SaboteurEngine.player_view``)
shows: the public maze (cards, frontier, face-up goals), everybody's broken
tools, its own hand and role, the goals it has seen (face up or mapped), and
the public plays of the current round.  It never reads other hands, roles,
the deck or face-down goals.

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

from typing import Any

import pyspiel

from games.interfaces import RuleBot
from src_cy.saboteur.engine import ACTION_LAYOUT as _LAYOUT  # the ids' one definition (saboteur_actions.pxd)
from src_cy.saboteur.heuristic import choose, choose_among

NORTH, EAST, SOUTH, WEST = "N", "E", "S", "W"
# Open edges of tunnel kinds 0..15 (upright); dead ends 7..15 have stubs only.
KIND_EDGES = ("EW", "NS", "NW", "NE", "NEW", "NES", "NESW",
              "N", "E", "NE", "NS", "NW", "EW", "NES", "NEW", "NESW")
TURN = {NORTH: SOUTH, SOUTH: NORTH, EAST: WEST, WEST: EAST}
PATHS = range(0, 7)
DEAD_ENDS = range(7, 16)
K_MAP, K_ROCKFALL = 16, 17
K_BREAKS = range(18, 21)                     # break pickaxe, lamp, cart
K_REPAIRS = range(21, 27)                    # repair card 21 + r
N_KINDS = 27
REPAIR_TOOLS = ((0,), (1,), (2,), (0, 1), (0, 2), (1, 2))   # by repair card 21 + r
GOAL_ROWS = (-2, 0, 2)
GOAL_PREFERENCE = (1, 0, 2)
TREASURE = 0
DIGGER = 0


class ActionIds:
    """Saboteur action ids of one state, built from the engine's
    ``ACTION_LAYOUT`` (the one definition, ``src_cy/saboteur/actions.pxd``).

    Placements target the ``j``-th cell of the state's frontier and rockfalls
    the ``i``-th tunnel card on the table (both in cell order, read from the
    engine by ``of``), so an object decodes and builds the ids of the state
    it was made from only.  Ranges are half-open ``[start, stop)``;
    ``kind_of(a)`` names the block an id falls in (``place``, ``rockfall``,
    ``break``, ``repair``, ``map``, ``pass``, ``keep``, ``hand_on``).
    """

    def __init__(self, F: int, T: int, frontier: list[int], tunnels: list[int]):
        """``F`` the frontier bound, ``T`` the tunnel cards in the deck,
        ``frontier`` and ``tunnels`` the state's lists of action-cell indices."""
        self.F = F
        self.frontier = list(frontier)
        self.tunnels = list(tunnels)
        self.rock = _LAYOUT["A_ROCK_BLOCK"] * F      # first rockfall id = end of placements
        self.tail = self.rock + T                    # first id after the rockfalls
        self.stride = _LAYOUT["A_STRIDE"]
        self.break0 = self.tail + _LAYOUT["A_BREAK"]
        self.repair0 = self.tail + _LAYOUT["A_REPAIR"]
        self.map0 = self.tail + _LAYOUT["A_MAP"]
        self.pass0 = self.tail + _LAYOUT["A_PASS"]
        self.keep0 = self.tail + _LAYOUT["A_KEEP"]
        self.hand_on0 = self.tail + _LAYOUT["A_HAND_ON"]
        self.end = self.tail + _LAYOUT["A_TAIL_SIZE"]
        self._blocks = (("place", 0, self.rock), ("rockfall", self.rock, self.tail),
                        ("break", self.break0, self.break0 + 3 * self.stride),
                        ("repair", self.repair0, self.repair0 + 3 * len(REPAIR_TOOLS) * self.stride),
                        ("map", self.map0, self.map0 + 3), ("pass", self.pass0, self.pass0 + N_KINDS),
                        ("keep", self.keep0, self.keep0 + 3), ("hand_on", self.hand_on0, self.hand_on0 + 3))

    @classmethod
    def of(cls, engine: Any) -> "ActionIds":
        """The ids of ``engine``'s current state."""
        return cls(engine.frontier_bound, engine.tunnel_bound, engine.frontier(),
                   engine.tunnel_cells())

    def kind_of(self, a: int) -> str:
        """The block of action ``a`` (see the class doc); ``ValueError`` outside."""
        for name, lo, hi in self._blocks:
            if lo <= a < hi:
                return name
        raise ValueError(f"action {a} is not a Saboteur action id (0..{self.end - 1})")

    def place(self, kind: int, turned: int, cell: int) -> int:
        """Place tunnel ``kind`` at action cell ``cell`` (``turned`` 180
        degrees); ``ValueError`` if ``cell`` is not on the frontier."""
        if cell not in self.frontier:
            raise ValueError(f"cell {cell} is not on the frontier {self.frontier}")
        return (2 * kind + turned) * self.F + self.frontier.index(cell)

    def placement(self, a: int) -> tuple[int, int, int]:
        """(kind, turned, action cell) of placement ``a``."""
        return (a // self.F) >> 1, (a // self.F) & 1, self.frontier[a % self.F]

    def is_place(self, a: int) -> bool:
        return 0 <= a < self.rock

    def rockfall(self, cell: int) -> int:
        """Rockfall on the tunnel card at action cell ``cell``; ``ValueError``
        if no tunnel card is there."""
        if cell not in self.tunnels:
            raise ValueError(f"no tunnel card at cell {cell} (tunnels: {self.tunnels})")
        return self.rock + self.tunnels.index(cell)

    def rockfall_cell(self, a: int) -> int:
        """The action cell rockfall ``a`` clears."""
        return self.tunnels[a - self.rock]

    def is_rockfall(self, a: int) -> bool:
        return self.rock <= a < self.tail

    def break_tool(self, tool: int, player: int) -> int:
        return self.break0 + self.stride * tool + player

    def is_break(self, a: int) -> bool:
        return self.break0 <= a < self.break0 + 3 * self.stride

    def repair(self, card: int, tool: int, player: int) -> int:
        """Repair card ``21 + card`` mends ``tool`` of ``player``."""
        return self.repair0 + self.stride * (3 * card + tool) + player

    def is_repair(self, a: int) -> bool:
        return self.repair0 <= a < self.map0

    def victim(self, a: int) -> int:
        """The player a break or repair ``a`` targets."""
        return (a - (self.break0 if a < self.repair0 else self.repair0)) % self.stride

    def map(self, goal: int) -> int:
        return self.map0 + goal

    def is_map(self, a: int) -> bool:
        return self.map0 <= a < self.map0 + 3

    def pass_discarding(self, kind: int) -> int:
        return self.pass0 + kind

    def is_pass(self, a: int) -> bool:
        return self.pass0 <= a < self.pass0 + N_KINDS

    def keep(self, value: int) -> int:
        return self.keep0 + value

    def is_keep(self, a: int) -> bool:
        return self.keep0 <= a < self.keep0 + 3

    def hand_on(self, value: int) -> int:
        return self.hand_on0 + value

    def is_hand_on(self, a: int) -> bool:
        return self.hand_on0 <= a < self.hand_on0 + 3


def edges(kind: int, turned: int) -> str:
    """Open edges of tunnel ``kind`` placed upright (``turned`` = 180 degrees)."""
    e = KIND_EDGES[kind]
    return "".join(TURN[c] for c in e) if turned else e


def suspicion(played: list[list[int]]) -> list[int]:
    """Suspicion per player from this round's public plays (``played[p][k]``:
    cards of kind k that p played; see the module doc)."""
    return [2 * (row[K_ROCKFALL] + sum(row[k] for k in DEAD_ENDS))
            + sum(row[k] for k in K_BREAKS) - sum(row[k] for k in PATHS) for row in played]


def target_goal(known: list[int]) -> int:
    """The target goal place (0 north, 1 middle, 2 south) given the goals a
    player knows (``known_goals``): the treasure if known, else the first
    unknown goal in ``GOAL_PREFERENCE`` order, else the middle."""
    if TREASURE in known:
        return known.index(TREASURE)
    for g in GOAL_PREFERENCE:
        if known[g] < 0:
            return g
    return GOAL_PREFERENCE[0]


class SaboteurHeuristicBot(RuleBot):
    """The casual-dwarf rules of the module docstring, played by the compiled
    rule ``src_cy.saboteur.heuristic.choose`` (``engine_rule``)."""

    GAME = "saboteur"
    engine_rule = staticmethod(choose)

    def choose(self, state: pyspiel.State, me: int, legal: list[int]) -> int:
        """The compiled rule's move at ``state.engine`` among ``legal`` (a
        subclass may pass a subset of the legal actions)."""
        return choose_among(state.engine, me, legal)
