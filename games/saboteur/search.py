"""Saboteur search helpers: root action grouping for ISMCTS, the belief bot
(``best``'s anchor) and a static maze evaluation (:func:`maze_distance`).

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

from typing import Any

import pyspiel

from games.saboteur.ai import (DEAD_ENDS, GOAL_ROWS, K_BREAKS, K_MAP, K_REPAIRS, K_ROCKFALL, PATHS,
                               TREASURE, ActionIds, SaboteurHeuristicBot, edges, target_goal)
from games.spec import engine_twin, lazy
from src_cy.saboteur.heuristic import choose as heuristic_choose


def saboteur_root_candidates(state: pyspiel.State, *, per_group: int = 2,
                             rockfalls: int = 3) -> list[int]:
    """Root candidates of the player to move (sorted; a subset of the legal actions)."""
    if per_group < 1 or rockfalls < 0:
        raise ValueError(f"per_group must be >= 1 and rockfalls >= 0, got {per_group}, {rockfalls}")
    e = state.engine
    me = state.current_player()
    legal = sorted(state.legal_actions())
    ids = ActionIds.of(e)
    known = e.player_view(me)["known_goals"]
    target = target_goal(known)
    tx = int(state.get_game().get_parameters().get("goal_distance", 8))
    ty = GOAL_ROWS[target]
    groups: dict[int, list[tuple[int, int, int]]] = {}
    rocks: list[tuple[int, int]] = []
    out = set()
    for a in legal:
        if ids.is_place(a):
            k, o, cell = ids.placement(a)
            x, y = e.cell_xy(cell)
            towards = sum(1 for c, ok in (("E", tx > x), ("W", tx < x), ("S", ty > y),
                                          ("N", ty < y)) if ok and c in edges(k, o))
            groups.setdefault(2 * k + o, []).append((abs(tx - x) + abs(ty - y), -towards, a))
        elif ids.is_rockfall(a):
            x, y = e.cell_xy(ids.rockfall_cell(a))
            rocks.append((abs(tx - x) + abs(ty - y), a))
        else:
            out.add(a)
    for g in groups.values():
        out.update(a for _, _, a in sorted(g)[:per_group])
    out.update(a for _, a in sorted(rocks)[:rockfalls])
    out.add(heuristic_choose(e, me))
    return sorted(out)


class BeliefSaboteurBot(SaboteurHeuristicBot):
    """The heuristic with its suspicion replaced by the role posterior.

    The casual-dwarf rules of ``games/saboteur/ai.py`` judge others
    by a public suspicion count; this bot judges them by
    ``games.saboteur.beliefs.saboteur_belief`` (P(saboteur) per seat) and:

    * never repairs a tool of a player with P(saboteur) >= ``repair_max``
      when they are on the other team, nor breaks a tool of a probable
      team-mate (digger: P(saboteur) < ``break_min``; saboteur: P(saboteur) >=
      0.5), nor breaks a tool of a player who already has one broken (one
      broken tool already stops them from laying paths);
    * as a gold-digger, breaks a tool of the most probable saboteur
      (P >= ``break_min``, no tool broken yet) before anything but repairing
      its own tools;
    * otherwise plays the heuristic's move among the remaining actions.

    Options measured for issue 12 (``docs/ai.md``): ``repair_first`` (a
    digger repairs a probable digger before anything else), ``dig_eval`` (a
    digger lays the path or rockfall that shortens :func:`maze_distance` the
    most), ``strike`` (a saboteur, once the diggers are within ``strike``
    cards of a possible treasure, plays the block that lengthens the way the
    most), ``useful_blocks`` (a saboteur never plays a block that does not
    lengthen the way); and ones that did not help: ``bluff_distance``,
    ``patience``, ``break_next``, ``sab_map_first`` (``map_first``: not re-measured).
    """

    #: Its rules read the role posterior: the compiled heuristic is only its last step.
    engine_rule = None

    def __init__(self, game: pyspiel.Game, seed: int | None = 0, break_min: float = 0.7,
                 repair_max: float = 0.5, bluff_distance: int | None = None,
                 map_first: bool = False, repair_first: bool = False,
                 strike: int | None = None, dig_eval: bool = False,
                 patience: int | None = None, break_next: bool = False,
                 sab_map_first: bool = False, useful_blocks: bool = False,
                 move_budget: float | None = None, budget_clock: str = "cpu"):
        super().__init__(game, seed, move_budget, budget_clock)
        self._goal_x = int(game.get_parameters().get("goal_distance", 8))
        self._n = game.num_players()
        self.useful_blocks = bool(useful_blocks)
        self.break_next = bool(break_next)
        self.sab_map_first = bool(sab_map_first)
        if patience is not None and patience < 0:
            raise ValueError(f"patience must be None or >= 0, got {patience}")
        self.patience = patience
        if strike is not None and strike < 0:
            raise ValueError(f"strike must be None or >= 0, got {strike}")
        self.strike = strike
        self.dig_eval = bool(dig_eval)
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
        from games.saboteur.beliefs import DIGGER, saboteur_belief
        e = state.engine
        ids = ActionIds.of(e)
        view = e.player_view(me)
        role = view["role"]
        broken = view["broken"]
        b = saboteur_belief(state, me)
        psab = [b.marginal(q).get(1, 0.0) for q in range(self._n)]

        def target(a: int) -> tuple[str, int]:
            if ids.is_break(a) or ids.is_repair(a):
                return ids.kind_of(a), ids.victim(a)
            return "", -1

        for a in legal:                    # repair my own tool first
            kind, q = target(a)
            if kind == "repair" and q == me:
                return super().choose(state, me, legal)
        if role != DIGGER and self.strike is not None:
            a = self._strike(state, me, legal, view)
            if a is not None:
                return a
        if role != DIGGER and self.break_next:
            for i in range(1, self._n):
                q = (me + i) % self._n
                if psab[q] >= 0.5 or any(broken[q]):
                    continue
                for a in legal:
                    if target(a) == ("break", q):
                        return a
        if role != DIGGER and self.sab_map_first and TREASURE not in view["known_goals"]:
            known = view["known_goals"]
            maps = [a for a in legal if ids.is_map(a) and known[a - ids.map0] < 0]
            if maps:
                return min(maps, key=lambda a: (abs(a - ids.map(1)), a))
        if role != DIGGER and self.patience is not None:
            a = self._wait(state, me, legal, view)
            if a is not None:
                return a
        if role == DIGGER and self.dig_eval:
            a = self._dig(state, me, legal, view)
            if a is not None:
                return a
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
                maps = [a for a in legal if ids.is_map(a) and known[a - ids.map0] < 0]
                if maps:
                    return min(maps, key=lambda a: (abs(a - ids.map(1)), a))
            if self.repair_first:
                for a in legal:
                    kind, q = target(a)
                    if kind == "repair" and q != me and psab[q] < 1.0 - self.break_min:
                        return a
        elif self.bluff_distance is not None:
            a = self._bluff(state, me, legal)
            if a is not None:
                return a
        if role != DIGGER and self.useful_blocks:
            targets = possible_treasure_slots(view["known_goals"])
            d0 = maze_distance(view["board"], self._goal_x, targets, view["goals_up"])
            useless = {a for d, a in scored_moves(state, me, legal, targets, (DEAD_ENDS,), True)
                       if d <= d0}
            legal = [a for a in legal if a not in useless or not (
                ids.is_rockfall(a) or (ids.is_place(a) and ids.placement(a)[0] in DEAD_ENDS))]
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

    def _strike(self, state: pyspiel.State, me: int, legal: list[int], view: dict) -> int | None:
        """Saboteur: when the diggers are within ``strike`` cards of a goal
        that may hold the treasure, the dead end or rockfall that lengthens
        their way the most (if any does)."""
        targets = possible_treasure_slots(view["known_goals"])
        d0 = maze_distance(view["board"], self._goal_x, targets, view["goals_up"])
        if d0 > self.strike:
            return None
        moves = scored_moves(state, me, legal, targets, (DEAD_ENDS,), True)
        if not moves:
            return None
        d, a = max(moves, key=lambda m: (m[0], -m[1]))
        return a if d > d0 else None

    def _wait(self, state: pyspiel.State, me: int, legal: list[int], view: dict) -> int | None:
        """Saboteur while the diggers are more than ``patience`` cards from
        every possible treasure: look at a goal or pass (discarding an open
        path, else the card the heuristic values least), keeping the blocking
        cards and an unsuspicious record."""
        targets = possible_treasure_slots(view["known_goals"])
        if maze_distance(view["board"], self._goal_x, targets, view["goals_up"]) <= self.patience:
            return None
        ids = ActionIds.of(state.engine)
        if TREASURE not in view["known_goals"]:
            maps = [a for a in legal if ids.is_map(a)
                    and view["known_goals"][a - ids.map0] < 0]
            if maps:
                return min(maps, key=lambda a: (abs(a - ids.map(1)), a))
        hand = view["hand"]
        for k in (*PATHS, *K_REPAIRS, K_MAP, *DEAD_ENDS, K_ROCKFALL, *K_BREAKS):
            if hand[k] and ids.pass_discarding(k) in legal:
                return ids.pass_discarding(k)
        return None

    def _dig(self, state: pyspiel.State, me: int, legal: list[int], view: dict) -> int | None:
        """Gold-digger: the open path (or rockfall on a card) that shortens the
        way to the target goal the most, if any does."""
        targets = [target_goal(view["known_goals"])]
        d0 = maze_distance(view["board"], self._goal_x, targets, view["goals_up"])
        moves = scored_moves(state, me, legal, targets, (PATHS,), True)
        if not moves:
            return None
        d, a = min(moves)
        return a if d < d0 else None

    def _bluff(self, state: pyspiel.State, me: int, legal: list[int]) -> int | None:
        """Saboteur far from the goals: lay the open path farthest from the
        target (looks like a digger's move, helps little), if any."""
        e = state.engine
        ids = ActionIds.of(e)
        known = e.player_view(me)["known_goals"]
        target = target_goal(known)
        tx, ty = self._goal_x, GOAL_ROWS[target]
        frontier = e.player_view(me)["frontier"]
        front = min((abs(tx - x) + abs(ty - y) for x, y in frontier), default=99)
        if front <= self.bluff_distance:
            return None
        paths = []
        for a in legal:
            if not ids.is_place(a):
                break
            k, _, cell = ids.placement(a)
            if k in PATHS:
                x, y = e.cell_xy(cell)
                paths.append((abs(tx - x) + abs(ty - y), a))
        return max(paths)[1] if paths else None


# ----------------------------------------------------------------------
# Maze distance: a role-aware static evaluation of the public maze
# ----------------------------------------------------------------------
_DIRS = ((0, -1), (1, 0), (0, 1), (-1, 0))       # edge bits N, E, S, W


def _edge_mask(kind: int, turned: int) -> int:
    return sum(1 << "NESW".index(c) for c in edges(kind, turned))


def maze_frontier(board: dict, goal_x: int, targets: list[int] = ()) -> set | None:
    """Empty cells next to an open edge of a card reached from the start
    (``None`` if a card reached from the start opens onto a ``targets`` goal).

    ``board`` is ``player_view()["board"]`` (cell -> (code, turned, edges,
    reached, passable)); reachability is recomputed from the start card
    through matching open edges, so an edited board can be scored.
    Face-down goal cells are never frontier cells.
    """
    goal_cells = {(goal_x, 2 * g - 2) for g in range(3)}
    tcells = {(goal_x, 2 * g - 2) for g in targets}
    reached = {(0, 0)}
    stack = [(0, 0)]
    frontier = set()
    while stack:
        c = stack.pop()
        _, _, e, _, passable = board[c]
        if not passable:
            continue
        for d in range(4):
            if not (e >> d) & 1:
                continue
            nb = (c[0] + _DIRS[d][0], c[1] + _DIRS[d][1])
            if nb in tcells and nb not in board:
                return None
            cell = board.get(nb)
            if cell is None:
                if nb not in goal_cells:
                    frontier.add(nb)
            elif nb not in reached and (cell[2] >> ((d + 2) & 3)) & 1:
                reached.add(nb)
                stack.append(nb)
    return frontier


def maze_distance(board: dict, goal_x: int, targets: list[int], goals_up: list[bool],
                  limit: int = 40) -> int:
    """Cards the diggers still need to reach one of ``targets`` (goal slots):
    1 + the number of empty cells on a shortest 4-connected walk from the
    :func:`maze_frontier` to a cell next to a target goal (other face-down
    goals and every card block the walk).  0 if a target is reached
    already; ``limit`` if none can be reached.
    """
    goal_cells = {(goal_x, 2 * g - 2) for g in range(3)}
    tcells = {(goal_x, 2 * g - 2) for g in targets if not goals_up[g]}
    if not tcells:
        return 0
    frontier = maze_frontier(board, goal_x, targets)
    if frontier is None:
        return 0
    if not frontier:
        return limit
    dist = {c: 1 for c in frontier}
    queue = sorted(frontier)
    head = 0
    while head < len(queue):
        c = queue[head]
        head += 1
        k = dist[c]
        if k >= limit:
            break
        for dx, dy in _DIRS:
            nb = (c[0] + dx, c[1] + dy)
            if nb in tcells:
                return k
            if nb in dist or nb in board or nb in goal_cells:
                continue
            if not (-goal_x <= nb[0] <= 2 * goal_x and -goal_x <= nb[1] <= goal_x):
                continue
            dist[nb] = k + 1
            queue.append(nb)
    return limit


def possible_treasure_slots(known: list[int]) -> list[int]:
    """Goal slots that may hold the treasure given the goals one knows."""
    if TREASURE in known:
        return [known.index(TREASURE)]
    return [g for g in range(3) if known[g] < 0] or [0, 1, 2]


def scored_moves(state: pyspiel.State, me: int, legal: list[int], targets: list[int],
                 kinds: tuple[range, ...], rockfall: bool) -> list[tuple[int, int]]:
    """(maze distance after the move, action) for every placement of tunnel
    ``kinds`` and (if ``rockfall``) every rockfall among ``legal`` (each
    distinct resulting board is scored once)."""
    e = state.engine
    ids = ActionIds.of(e)
    view = e.player_view(me)
    board = view["board"]
    gx = int(view["goal_distance"])
    up = view["goals_up"]
    cache: dict[tuple, int] = {}
    out = []
    for a in legal:
        if ids.is_place(a):
            k, o, cell = ids.placement(a)
            if not any(k in r for r in kinds):
                continue
            xy = e.cell_xy(cell)
            mask = _edge_mask(k, o)
            key = (xy, mask, k in PATHS)
            if key not in cache:
                b = dict(board)
                b[xy] = (k, o, mask, False, k in PATHS)
                cache[key] = maze_distance(b, gx, targets, up)
        elif ids.is_rockfall(a) and rockfall:
            xy = e.cell_xy(ids.rockfall_cell(a))
            key = ("rockfall", xy)
            if key not in cache:
                b = dict(board)
                del b[xy]
                cache[key] = maze_distance(b, gx, targets, up)
        else:
            continue
        out.append((cache[key], a))
    return out


class SaboteurBeliefAnchor(pyspiel.Bot):
    """The anchor of Saboteur's ``best`` bot: ``BeliefSaboteurBot(**options)``
    (``games/saboteur/search.py``), built for the state's game at every move.

    The spec's ``best`` options name it (``games.saboteur._best``).  Stateless and deterministic:
    the belief bot keeps nothing between moves.
    """

    def __init__(self, **options: Any):
        pyspiel.Bot.__init__(self)
        self.options = dict(options)

    def step(self, state: pyspiel.State) -> int:
        return BeliefSaboteurBot(state.get_game(), **self.options).step(state)

    def restart_at(self, state: pyspiel.State) -> None:
        """Stateless."""

    def inform_action(self, state: pyspiel.State, player_id: int, action: int) -> None:
        """Stateless."""


_TWIN = engine_twin(lazy("src_cy.saboteur.rollout:SaboteurRollout", call=True))


class SaboteurEvalRollout:
    """pyspiel twin of ``SaboteurRollout(cutoff)`` for the slow ISMCTS path:
    moves by ``games.saboteur.saboteur_rollout`` (``SaboteurRollout``), and ``leaf_value``
    ends a rollout before its ``cutoff``-th decision during a round's play
    with ``src_cy.saboteur.rollout.py_leaf_values`` (the same Cython code)."""

    def __init__(self, cutoff: int):
        if not isinstance(cutoff, int) or cutoff < 1:
            raise ValueError(f"cutoff must be an int >= 1, got {cutoff!r}")
        self.cutoff = cutoff

    def __call__(self, state: pyspiel.State, actions: list[int], rng: Any) -> int:
        """The rollout move (advances ``rng``, a ``SplitMix64``, past its draws)."""
        return _TWIN(state, actions, rng)

    def leaf_value(self, state: pyspiel.State, steps: int) -> list[float] | None:
        """Per-player values once ``steps >= cutoff`` in a round's play, else None."""
        if steps < self.cutoff:
            return None
        from src_cy.saboteur.rollout import py_leaf_values
        return py_leaf_values(state.engine)
