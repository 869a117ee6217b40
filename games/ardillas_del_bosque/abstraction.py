"""Ardillas del Bosque's MCCFR abstractions (``docs/solvers_cfr.md``,
"Ardillas del Bosque over an abstraction").

The Ardillas spec (``games.ardillas_del_bosque``, ``GameSpec.abstraction``)
hands these to the solvers by name (:data:`ABSTRACTIONS`):

- ``ardillas_actions`` (:class:`ArdillasActions`): ``heuristic`` (the
  heuristic bot's move), ``take`` (the Ant's take), ``pile+k`` for the
  autumn hide (the k-th hiding place counting from the player's own first
  one) and ``top-<class>`` for the other hiding-place choices (winter draw,
  the animals' piles: a pile by what the player knows of its top);
- ``ardillas_draws`` (:class:`ArdillasDraws`): the same actions at the
  winter draw only (everywhere else the heuristic's move): the one the
  policy tables solve (``games/ardillas_del_bosque/features.py``);
- ``ardillas_compact``: the information bucket used with them.

Both read only the deciding player's view (``engine.player_view``).
"""
from __future__ import annotations

from typing import Any, Sequence

import pyspiel

from games.ardillas_del_bosque.ai import A_PILE, A_TAKE, POO, SQUIRREL, ArdillasHeuristicBot
from games.interfaces import ActionAbstraction, GameAbstractions
from src_cy.ardillas_del_bosque.engine import ACTION_LAYOUT

MAX_HIDING_PLACES = ACTION_LAYOUT["MAX_HIDING_PLACES"]

_KINDS = ("walnut", "almond", "hazelnut", "peanut", "chestnut", "squirrel", "poo")

#: Decisions whose pile choices get the ``pile+k`` abstract actions.
PILE_PHASES = frozenset({"autumn-place", "winter-draw", "bear-flip", "bear-draw", "lynx-pile",
                         "golden-eagle", "ant-nest", "ant-decide", "lizard-split-dest",
                         "lizard-take", "boar-pile"})

#: Bucket phase labels: the two main decisions, the animals' pile choices as one.
_PHASE_GROUP = {"autumn-place": "autumn", "winter-draw": "winter"}


_VIEWS: dict[tuple, Any] = {}     # (game string, player, info key) -> view; a few entries


def player_view(engine: Any, player: int) -> Any:
    """``engine.player_view(player)``, cached by the player's information key
    (the view is a function of the information state; the bucket, the
    abstract actions and the heuristic of one decision read it once)."""
    key = (engine.game_string, player, engine.py_info_key(player))
    view = _VIEWS.get(key)
    if view is None:
        if len(_VIEWS) >= 8:
            _VIEWS.clear()
        view = _VIEWS[key] = engine.player_view(player)
    return view


class _ViewOnly:
    """What the heuristic reads of a state: ``state.engine.player_view(me)``,
    answered from the cache."""

    __slots__ = ("engine", "_view")

    def __init__(self, view: Any) -> None:
        self.engine = self
        self._view = view

    def player_view(self, player: int) -> Any:
        return self._view


def _kind(token: Any) -> int:
    """Kind index of a view token, -1 when the viewer does not know it."""
    return _KINDS.index(token.kind) if token.kind is not None else -1


def relative_piles(view: Any) -> list[int]:
    """Hiding places in the player's order: their own board's first, then
    clockwise (the next player's board, ...); entry k is ``pile+k``."""
    h = len(view.piles)
    start = view.player * (h // len(view.board_animals))
    return [(start + k) % h for k in range(h)]


#: The knowledge classes of a pile, in the order of the ``top-*`` abstract actions.
TOP_CLASSES = ("nut+", "nut", "squirrel", "poo", "unknown-mine", "unknown-other", "empty")


def _top_class(view: Any, h: int, mine: set[int]) -> int:
    """Index in ``TOP_CLASSES`` of hiding place ``h``'s top as the player
    knows it: a nut of a kind already in their nest (``nut+``), another nut,
    a squirrel, a poo, a token they do not know on their own board
    (``unknown-mine``) or elsewhere (``unknown-other``), or no token."""
    pile = view.piles[h]
    if not pile:
        return 6
    k = _kind(pile[0])
    if k < 0:
        boards = len(view.board_animals)
        return 4 if h // (len(view.piles) // boards) == view.player else 5
    if k == SQUIRREL:
        return 2
    if k == POO:
        return 3
    return 0 if k in mine else 1


def _nest_kinds(view: Any, player: int) -> set[int]:
    """Nut kinds in ``player``'s nest that they know."""
    return {k for k in (_kind(t) for t in view.nests[player]) if 0 <= k < 5}


def _score(nest: Sequence[Any]) -> tuple:
    """Nut-group sizes (descending) of a nest's face-up tokens, poos removing
    from the smallest group: the rules' comparison key, as far as it is seen."""
    groups = [0] * 5
    poos = 0
    for t in nest:
        k = _kind(t)
        if t.face_up and 0 <= k < 5:
            groups[k] += 1
        elif t.face_up and k == POO:
            poos += 1
    sizes = sorted((g for g in groups if g), reverse=True)
    for _ in range(poos):
        if sizes:
            sizes[-1] -= 1
            if sizes[-1] == 0:
                sizes.pop()
    return tuple(sizes)


def _autumn_pile(view: Any, h: int) -> str:
    """A hiding place at autumn by its top: ``0`` empty, ``n`` your nut,
    ``j`` your squirrel or poo, ``o`` another player's token."""
    pile = view.piles[h]
    if not pile:
        return "0"
    k = _kind(pile[0])
    return "o" if pile[0].owner != view.player else "n" if 0 <= k < 5 else "j"


def ardillas_compact(player: int, engine: Any) -> tuple:
    """Compact Ardillas information bucket (for use with ``ardillas_actions``).

    Autumn (where to hide): ``("autumn", holding, piles)``: the class of
    the token you hide (N nut, S squirrel, P poo) and per hiding place in
    your order (``pile+0`` ...) its top (``_autumn_pile``).  Other decisions that
    choose a hiding place (winter draw, the animals' piles): ``(phase, lead,
    woods)``: ``lead`` your nest against the best other one by face-up nut
    groups (``+``, ``=``, ``-``), ``woods`` the tokens left in the woods in
    bands of 5 (0-4, 5-9, 10-14, 15+); which ``top-*`` classes exist is
    part of the row (its abstract actions).  Any other decision: ``(phase,)``.
    """
    view = player_view(engine, player)
    phase = view.phase
    if phase == "autumn-place":
        k = _kind(view.holding) if view.holding is not None else -1
        holding = "N" if 0 <= k < 5 else "S" if k == SQUIRREL else "P"
        return ("autumn", holding, "".join(_autumn_pile(view, h) for h in relative_piles(view)))
    if phase not in PILE_PHASES:
        return (phase,)
    me = _score(view.nests[player])
    best = max((_score(n) for q, n in enumerate(view.nests) if q != player and view.active[q]),
               default=())
    lead = "+" if me > best else "=" if me == best else "-"
    woods = min(sum(len(p) for p in view.piles) // 5, 3)
    return (_PHASE_GROUP.get(phase, phase), lead, woods)


ardillas_compact.uses_engine = True


class ArdillasActions(ActionAbstraction):
    """Ardillas' abstract actions (see ``docs/solvers_cfr.md``).

    ``heuristic``: the heuristic bot's move (the only action at decisions
    that choose no hiding place: Lynx pick, Lizard pair and split size, Boar
    order, Fox, Owl, Dung Beetle, Snake, night keep and hide); ``take``: the
    Ant's take of the peeked token.  Autumn hide: ``pile+k``, hiding place
    number k counting from your own board's first one (``relative_piles``).
    Other hiding-place choices: ``top-<class>`` (``TOP_CLASSES``), the legal
    hiding place whose top is of that class, the largest such pile first
    (then the first in your order).
    """

    name = "ardillas_actions"
    action_names = (("heuristic", "take")
                    + tuple(f"pile+{k}" for k in range(MAX_HIDING_PLACES))
                    + tuple(f"top-{c}" for c in TOP_CLASSES))
    uses_engine = True
    phases = PILE_PHASES                # the decisions with more than ``heuristic``

    def __init__(self) -> None:
        self._bots: dict[str, ArdillasHeuristicBot] = {}

    def heuristic_bot(self, engine: Any) -> ArdillasHeuristicBot:
        """The heuristic bot of ``engine``'s game (one per game string)."""
        bot = self._bots.get(engine.game_string)
        if bot is None:
            bot = ArdillasHeuristicBot(pyspiel.load_game(engine.game_string))
            self._bots[engine.game_string] = bot
        return bot

    def candidates(self, player: int, engine: Any, legal: Sequence[int]) -> list[int | None]:
        legal = sorted(legal)
        out: list[int | None] = [None] * len(self.action_names)
        view = player_view(engine, player)
        out[0] = (legal[0] if len(legal) == 1 else
                  self.heuristic_bot(engine).choose(_ViewOnly(view), player, legal))
        if view.phase not in PILE_PHASES:
            return out
        if view.phase not in self.phases:
            return out
        legal_set = set(legal)
        if A_TAKE in legal_set:
            out[1] = A_TAKE
        order = [h for h in relative_piles(view) if A_PILE + h in legal_set]
        if view.phase == "autumn-place":
            for k, h in enumerate(relative_piles(view)):
                if A_PILE + h in legal_set:
                    out[2 + k] = A_PILE + h
            return out
        mine = _nest_kinds(view, player)
        base = 2 + MAX_HIDING_PLACES
        for h in sorted(order, key=lambda h: -len(view.piles[h])):   # stable: your order
            c = _top_class(view, h, mine)
            if out[base + c] is None:
                out[base + c] = A_PILE + h
        return out


class ArdillasDraws(ArdillasActions):
    """:class:`ArdillasActions` at the winter draw only: there the
    ``top-<class>`` actions, everywhere else the heuristic's move alone
    (small enough for external sampling against fixed opponents)."""

    name = "ardillas_draws"
    phases = frozenset({"winter-draw"})


#: What the Ardillas spec's ``abstraction`` factory returns.
ABSTRACTIONS = GameAbstractions(
    information={"ardillas_compact": ardillas_compact},
    actions={"ardillas_actions": ArdillasActions(), "ardillas_draws": ArdillasDraws()})
