"""Ardillas del Bosque heuristic: what a sensible casual squirrel does.

The bot reads only its player's view (``ArdillasEngine.player_view``): piles
and nests as the player sees them (a token's owner always, its kind when the
player knows it), the token in hand, the pile the running animal works on.

Token values as the player knows them: a nut of a kind already in my nest
4 + that group's size, another nut 3, an unknown token 1, a squirrel 1
(it wakes an animal), a poo -3.  "My stash" is the first hiding place of my
own board.

Rules:

* autumn, day: hide a nut in my stash (my nuts pile up where only I know
  the top); hide a poo or squirrel on the other players' stash places
  (next player's board first);
* autumn, night: keep my first nut kind face down; hide nuts in my stash,
  poo and squirrel on the next player's board;
* winter draw (also the Bear's, Eagle's and Lizard's draws and the Ant's
  pile): draw the pile whose top has the highest value (so known nuts of my
  kinds first, known poo never while another pile is open);
* Lynx: draw the best token of the pile I looked through; Ant: take a
  peeked nut, move anything else; Lizard: flip the pair of piles with the
  best tops; Wild Boar: keep the order as it is (first token);
* Fox / Owl: take (remove) a face-up nut from another nest, of the kind I
  hold most; Dung Beetle: move a poo out of my nest, else into the nest of
  the player with most face-up nuts; Snake: throw the nut of my smallest
  group;
* anything else: the first legal action.
"""
from __future__ import annotations

import pyspiel

from games.interfaces import RuleBot
from src_cy.ardillas_del_bosque.engine import ACTION_LAYOUT as _LAYOUT  # the ids' one definition

SQUIRREL, POO = _LAYOUT["SQUIRREL"], _LAYOUT["POO"]
A_PILE, A_TAKE, A_KEEP = _LAYOUT["A_PILE"], _LAYOUT["A_TAKE"], _LAYOUT["A_KEEP"]
A_NPLACE, A_INDEX, A_PAIR = _LAYOUT["A_NPLACE"], _LAYOUT["A_INDEX"], _LAYOUT["A_PAIR"]
A_NEST, A_BEETLE = _LAYOUT["A_NEST"], _LAYOUT["A_BEETLE"]
A_SNAKE_UP, A_SNAKE_DOWN = _LAYOUT["A_SNAKE_UP"], _LAYOUT["A_SNAKE_DOWN"]

KINDS = ("walnut", "almond", "hazelnut", "peanut", "chestnut", "squirrel", "poo")


def _kind(token) -> int:
    """Kind index of a view token, -1 if the viewer does not know it."""
    return KINDS.index(token.kind) if token.kind is not None else -1


class ArdillasHeuristicBot(RuleBot):
    """The casual-squirrel rules of the module docstring."""

    GAME = "ardillas_del_bosque"

    def __init__(self, game: pyspiel.Game, seed: int | None = 0,
                 move_budget: float | None = None, budget_clock: str = "cpu"):
        super().__init__(game, seed, move_budget, budget_clock)
        self._hp = int(game.get_parameters().get("hiding_places", 2))
        self._n = game.num_players()

    def choose(self, state: pyspiel.State, me: int, legal: list[int]) -> int:
        view = state.engine.player_view(me)
        phase = view.phase
        piles = {h: [(t.owner, _kind(t)) for t in pile] for h, pile in enumerate(view.piles)}
        up = {q: [_kind(t) for t in nest if t.face_up and t.kind is not None]
              for q, nest in enumerate(view.nests)}
        mine = [0] * 5
        for t in view.nests[me]:
            if 0 <= _kind(t) < 5:
                mine[_kind(t)] += 1

        def value(kind: int) -> int:
            if kind < 0 or kind == SQUIRREL:
                return 1
            if kind == POO:
                return -3
            return 4 + mine[kind] if mine[kind] else 3

        def top_value(h: int) -> int:
            return value(piles[h][0][1]) if piles.get(h) else -99

        stash = me * self._hp
        nxt = ((me + 1) % self._n) * self._hp
        legal_set = set(legal)
        piles_legal = [a for a in legal if A_PILE <= a < A_TAKE]

        if phase in ("autumn-place", "autumn-draw") and piles_legal:
            kind = _kind(view.holding) if view.holding else -1
            want = stash if 0 <= kind < 5 else nxt
            return want if want in legal_set else piles_legal[0]
        if phase == "night-keep":
            keeps = [a for a in legal if A_KEEP <= a < A_KEEP + 5]
            return keeps[0] if keeps else legal[0]
        if phase == "night-place":
            best = []
            for a in legal:
                if A_NPLACE <= a < A_INDEX:
                    k, h = divmod(a - A_NPLACE, 10)
                    good = h == (stash if k < 5 else nxt)
                    best.append((not good, a))
            if best:
                return min(best)[1]
        if A_TAKE in legal_set:
            ant = view.focus_pile
            peek = piles[ant][0][1] if ant is not None and piles.get(ant) else -1
            if 0 <= peek < 5:
                return A_TAKE
            moves = [a for a in piles_legal if a != stash]
            return moves[0] if moves else (piles_legal[0] if piles_legal else A_TAKE)
        if phase == "lynx-pick":
            pile = piles.get(view.focus_pile, []) if view.focus_pile is not None else []
            options = [(-value(pile[a - A_INDEX][1]) if a - A_INDEX < len(pile) else 0, a)
                       for a in legal if A_INDEX <= a < A_PAIR]
            if options:
                return min(options)[1]
        pairs = [a for a in legal if A_PAIR <= a < A_NEST]
        if pairs:
            return max(pairs, key=lambda a: (top_value((a - A_PAIR) // 10)
                                             + top_value((a - A_PAIR) % 10), -a))
        nest_moves = [a for a in legal if A_NEST <= a < A_BEETLE]
        if nest_moves:
            def steal(a: int) -> tuple[int, int]:
                t, c = divmod(a - A_NEST, 12)
                return (value(c) if c < 7 else 0, -a)
            return max(nest_moves, key=steal)
        beetle = [a for a in legal if A_BEETLE <= a < A_SNAKE_UP]
        if beetle:
            def dump(a: int) -> tuple[int, int, int]:
                src, dst = divmod(a - A_BEETLE, 5)
                nuts = sum(1 for k in up.get(dst, []) if k < 5)
                return (src == me, nuts, -a)
            return max(beetle, key=dump)
        snake = [a for a in legal if A_SNAKE_UP <= a < A_SNAKE_DOWN]
        if snake:
            return min(snake, key=lambda a: (mine[a - A_SNAKE_UP], a))
        if piles_legal and phase != "boar-order":
            return max(piles_legal, key=lambda h: (top_value(h), -h))
        return legal[0]

