"""Named information and action abstractions for MCCFR on games too large for raw information sets.

**Information abstractions** map a player's information state to a
*bucket*; all states in a bucket share one regret/strategy row.  A plain
callable takes ``(player, info_string)``; one with ``uses_engine = True``
takes ``(player, engine)`` and reads the engine's player view (never another
player's secrets).  Without an action abstraction a bucket must fix the legal
actions (MCCFR refuses a bucket that mixes action sets of different sizes).

**Action abstractions** (:class:`ActionAbstraction`) replace the legal
actions by a small fixed set of *abstract actions* (ids ``0..k-1`` with
readable ``action_names``), each mapped to one concrete legal action by a
deterministic rule that reads only the deciding player's information, and
absent when it maps to nothing (or to the concrete action of an earlier
abstract action, so the available abstract actions always name distinct
moves).  MCCFR's row for a state is then ``(information bucket, available
abstract ids)``: a fixed action set per row.  ``actions(player, x, legal)``
returns ``[(abstract id, concrete action), ...]`` in increasing abstract id;
``x`` is the engine (``uses_engine = True``) or the information string.

Both kinds are registered by name so a policy file can record which ones its
rows use and a bot can rebuild them (``get_abstraction(name)``,
``get_action_abstraction(name)``).  :class:`AbstractedPolicy` is the
OpenSpiel policy of a table solved over an action abstraction: it maps the
abstract probabilities back to concrete actions state by state.

Saboteur (``saboteur_compact`` + ``saboteur_actions``) is documented in
``docs/solvers_cfr.md``, "Saboteur over an abstraction"; ``saboteur_features``
(the policy table's own features plus the legal action ids) is the older,
information-only abstraction.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import pyspiel
from open_spiel.python import policy as os_policy

_SAB_TOOLS = ("pickaxe", "lamp", "cart")


def saboteur_features(player: int, engine: Any) -> tuple:
    """Bucket of ``player``'s information state in a Saboteur engine (see module doc)."""
    view = engine.player_view(player)
    obs = engine.obs_string(player).split("\n")
    goals = next((line.split(":", 1)[1].strip() for line in obs if line.startswith("goals:")), "?")
    hand = next((line.split(":", 1)[1].strip() for line in obs if line.startswith("hand:")), "-")
    broken = view["broken"]
    mine = "+".join(t for t, b in zip(_SAB_TOOLS, broken[player]) if b) or "-"
    others = sum(1 for q in range(len(broken)) if q != player and any(broken[q]))
    progress = max((x for x, _ in view["reached"]), default=0)
    return (view["role"], " ".join(sorted(hand.split())), progress, goals, mine,
            others, tuple(engine.py_legal_actions()))


saboteur_features.uses_engine = True


# ----------------------------------------------------------------------
# Action abstractions
# ----------------------------------------------------------------------
class ActionAbstraction:
    """A fixed set of abstract actions, each mapped to a concrete legal action.

    Subclasses set ``name``, ``action_names`` and ``uses_engine`` and
    implement :meth:`candidates` (one concrete action or ``None`` per
    abstract action); :meth:`actions` drops the absent and repeated ones.
    """

    name: str = ""
    action_names: tuple[str, ...] = ()
    uses_engine: bool = False

    def candidates(self, player: int, x: Any, legal: Sequence[int]) -> list[int | None]:
        """Concrete action of each abstract action (``None``: absent)."""
        raise NotImplementedError

    def actions(self, player: int, x: Any, legal: Sequence[int]) -> list[tuple[int, int]]:
        """``[(abstract id, concrete action)]``: present, distinct, increasing ids."""
        out, seen = [], set()
        for k, a in enumerate(self.candidates(player, x, legal)):
            if a is not None and a not in seen:
                if a not in legal:
                    raise ValueError(f"action abstraction {self.name!r}: abstract action "
                                     f"{self.action_names[k]!r} maps to illegal action {a}")
                seen.add(a)
                out.append((k, a))
        if not out:
            raise ValueError(f"action abstraction {self.name!r} maps no abstract action "
                             f"for player {player} (legal {list(legal)})")
        return out


class SaboteurActions(ActionAbstraction):
    """Saboteur's abstract actions (see ``docs/solvers_cfr.md``).

    The *target* goal and the *suspicion* of players are the heuristic's
    (``games.saboteur_ai``): the treasure if known, else the
    unknown goal nearest the middle row; suspicion +2 per rockfall or dead
    end, +1 per broken tool, -1 per open path placed this round.  Outside the
    play phase (gold hand-out) only ``heuristic`` exists.
    """

    name = "saboteur_actions"
    action_names = ("heuristic", "extend", "block", "clear", "break", "repair", "map", "pass")
    uses_engine = True

    def __init__(self) -> None:
        self._bots: dict[str, Any] = {}

    def _heuristic(self, engine: Any) -> Any:
        bot = self._bots.get(engine.game_string)
        if bot is None:
            from games import saboteur_ai as hs
            bot = hs.SaboteurHeuristicBot(pyspiel.load_game(engine.game_string))
            self._bots[engine.game_string] = bot
        return bot

    def candidates(self, player: int, engine: Any, legal: Sequence[int]) -> list[int | None]:
        from games import saboteur_ai as hs
        legal = sorted(legal)
        bot = self._heuristic(engine)
        _SHIM.engine = engine
        heur = legal[0] if len(legal) == 1 else bot.choose(_SHIM, player, legal)
        out: list[int | None] = [heur] + [None] * (len(self.action_names) - 1)
        view = engine.player_view(player)
        if view["phase"] != "play":
            return out
        C = (2 * engine.grid_radius + 1) ** 2
        base = 33 * C
        legal_set = set(legal)
        known, broken, board = view["known_goals"], view["broken"], view["board"]
        target = hs.SaboteurHeuristicBot._target(known)
        tx, ty = bot._goal_x, hs.GOAL_ROWS[target]
        n = len(broken)
        sus = _suspicion(view["played"])
        others = [q for q in range(n) if q != player]
        digger = view["role"] == hs.DIGGER
        best_path = best_dead = rock_path = rock_dead = None
        for a in legal:
            if a >= 33 * C:
                break
            if a >= 32 * C:                      # rockfall on a card of the maze
                xy = engine.cell_xy(a - 32 * C)
                cell = board.get(xy)
                if cell is None or xy == (0, 0):
                    continue
                cand = (abs(tx - xy[0]) + abs(ty - xy[1]), a)
                if cell[0] in hs.DEAD_ENDS:
                    rock_dead = cand if rock_dead is None or cand < rock_dead else rock_dead
                else:
                    rock_path = cand if rock_path is None or cand < rock_path else rock_path
                continue
            k, o = (a // C) >> 1, (a // C) & 1
            x, y = engine.cell_xy(a % C)
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
        out[4] = next((base + 10 * t + q for q in victims for t in range(3)
                       if base + 10 * t + q in legal_set), None)
        for q in [player] + sorted(others, key=lambda q: (sus[q], q)):
            out[5] = next((base + 30 + 10 * (3 * r + t) + q
                           for t in range(3) if broken[q][t]
                           for r, tools in enumerate(hs.REPAIR_TOOLS)
                           if t in tools and base + 30 + 10 * (3 * r + t) + q in legal_set), None)
            if out[5] is not None:
                break
        if hs.TREASURE not in known:
            out[6] = next((base + 210 + g for g in hs.GOAL_PREFERENCE
                           if known[g] < 0 and base + 210 + g in legal_set), None)
        hand = view["hand"]
        out[7] = next((base + 213 + k for k in (_DISCARD_DIGGER if digger else _DISCARD_SABOTEUR)
                       if hand[k] and base + 213 + k in legal_set), None)
        return out


# Pass: the card discarded, least useful first (the heuristic's order).
_DISCARD_DIGGER = (*range(7, 16), 17, 18, 19, 20, 16, 21, 22, 23, 24, 25, 26, *range(0, 7))
_DISCARD_SABOTEUR = (*range(0, 7), 21, 22, 23, 24, 25, 26, 16, *range(7, 16), 17, 18, 19, 20)


class _Shim:
    """What the rule bots read from a state: its ``engine``."""

    engine: Any = None


_SHIM = _Shim()


def _suspicion(played: list[list[int]]) -> list[int]:
    """The heuristic's suspicion (``heuristics_saboteur.suspicion``), with slices."""
    return [2 * (row[17] + sum(row[7:16])) + sum(row[18:21]) - sum(row[0:7]) for row in played]


def saboteur_compact(player: int, engine: Any) -> tuple:
    """Compact Saboteur information bucket (for use with ``saboteur_actions``).

    ``(phase, role, steps, treasure_known, my_broken, others_broken, deck_left)``:
    the phase (play or gold hand-out), your role, how many steps the nearest
    frontier cell is from the target goal (capped at 4), whether you know
    where the treasure is, whether a tool of yours is broken, how many others
    have a broken tool, whether the deck still has cards.
    """
    from games import saboteur_ai as hs
    view = engine.player_view(player)
    if view["phase"] != "play":
        return (view["phase"],)
    known = view["known_goals"]
    target = hs.SaboteurHeuristicBot._target(known)
    tx, ty = view["goal_distance"], hs.GOAL_ROWS[target]
    steps = min((abs(tx - x) + abs(ty - y) for x, y in view["frontier"]), default=9)
    broken = view["broken"]
    others = sum(1 for q in range(len(broken)) if q != player and any(broken[q]))
    return ("play", view["role"], min(steps, 4), hs.TREASURE in known, any(broken[player]),
            others, view["deck_size"] > 0)


saboteur_compact.uses_engine = True

_REGISTRY: dict[str, Callable] = {"saboteur_features": saboteur_features,
                                  "saboteur_compact": saboteur_compact}
_ACTION_REGISTRY: dict[str, ActionAbstraction] = {"saboteur_actions": SaboteurActions()}


def get_abstraction(name: str) -> Callable:
    """The information abstraction registered under ``name``."""
    if name not in _REGISTRY:
        raise ValueError(f"unknown abstraction {name!r}; known: {sorted(_REGISTRY)}")
    return _REGISTRY[name]


def get_action_abstraction(name: str) -> ActionAbstraction:
    """The action abstraction registered under ``name``."""
    if name not in _ACTION_REGISTRY:
        raise ValueError(f"unknown action abstraction {name!r}; known: {sorted(_ACTION_REGISTRY)}")
    return _ACTION_REGISTRY[name]


def register_action_abstraction(abstraction: ActionAbstraction) -> None:
    """Add (or replace) an action abstraction under its ``name``."""
    if not isinstance(abstraction, ActionAbstraction) or not abstraction.name \
            or not abstraction.action_names:
        raise ValueError("an action abstraction needs a name and action_names")
    _ACTION_REGISTRY[abstraction.name] = abstraction


class Labeler:
    """Row label ``"<player>|<bucket repr>"`` of an abstraction (as MCCFR stores it)."""

    def __init__(self, abstraction: Callable):
        self.abstraction = abstraction
        self.uses_engine = bool(getattr(abstraction, "uses_engine", False))

    def __call__(self, player: int, x: Any) -> str:
        return f"{player}|{self.abstraction(player, x)!r}"


def row_label(player: int, info_part: Any, ids: Sequence[int]) -> str:
    """Row label of a state under an action abstraction (as MCCFR stores it)."""
    return f"{player}|{(info_part, tuple(ids))!r}"


def abstract_row(player: int, engine: Any, info_string: str | None, legal: Sequence[int],
                 abstraction: Callable | None,
                 action_abstraction: ActionAbstraction) -> tuple[str, list[int], list[int]]:
    """(row label, abstract ids, concrete actions) of ``player``'s state.

    ``engine`` may be ``None`` when neither abstraction reads the engine;
    ``info_string`` is computed from the engine when ``None``.
    """
    info_reads_engine = abstraction is not None and getattr(abstraction, "uses_engine", False)
    if info_string is None and not (info_reads_engine and action_abstraction.uses_engine):
        info_string = engine.info_string(player)
    x = engine if action_abstraction.uses_engine else info_string
    pairs = action_abstraction.actions(player, x, legal)
    if abstraction is None:
        info_part = info_string
    else:
        info_part = abstraction(player, engine if info_reads_engine else info_string)
    ids = [k for k, _ in pairs]
    return row_label(player, info_part, ids), ids, [a for _, a in pairs]


class AbstractedPolicy(os_policy.Policy):
    """The OpenSpiel policy of a table solved over an action abstraction.

    ``table`` is an ``ArrayPolicy`` whose rows are labelled by
    :func:`row_label` and whose row actions are abstract ids;
    ``action_probabilities(state)`` maps them to concrete actions.  A state
    whose row is missing is a *miss* (counted): ``fallback="uniform"`` plays
    uniformly over the *abstract* actions available there, ``"error"``
    raises ``PolicyMissError``.
    """

    def __init__(self, table: Any, action_abstraction: ActionAbstraction,
                 abstraction: Callable | None = None, abstraction_name: str | None = None,
                 fallback: str = "uniform"):
        super().__init__(table.game, list(range(table.game.num_players())))
        if fallback not in ("uniform", "error"):
            raise ValueError(f"fallback must be 'uniform' or 'error', got {fallback!r}")
        if table.strings is None:
            raise ValueError("an abstracted policy table needs its row labels (strings)")
        self.table, self.action_abstraction = table, action_abstraction
        self.abstraction, self.abstraction_name = abstraction, abstraction_name
        self.fallback = fallback
        self.game_string = table.game_string
        self.misses = 0
        self.lookups = 0

    @property
    def num_rows(self) -> int:
        return self.table.num_rows

    @property
    def strings(self) -> list[str]:
        return self.table.strings

    def _row(self, state: pyspiel.State, player: int) -> tuple[int, list[int], list[int]]:
        engine = getattr(state, "engine", None)
        needs_engine = self.action_abstraction.uses_engine or getattr(self.abstraction,
                                                                      "uses_engine", False)
        if needs_engine and engine is None:
            raise ValueError("this policy's abstraction reads the engine; the state has none")
        info = None if engine is not None else state.information_state_string(player)
        label, ids, conc = abstract_row(player, engine, info, sorted(state.legal_actions(player)),
                                        self.abstraction, self.action_abstraction)
        return self.table.string_index().get(label, -1), ids, conc

    def _lookup(self, state: pyspiel.State, p: int,
                uniform: bool = False) -> list[tuple[int, int, float]] | None:
        """``[(abstract id, concrete action, probability)]``, or None when the row is missing."""
        row, ids, conc = self._row(state, p)
        if uniform:
            return [(k, a, 1.0 / len(ids)) for k, a in zip(ids, conc)]
        if row < 0:
            return None
        t = self.table
        o, n = int(t.row_offset[row]), int(t.row_num[row])
        got = dict(zip(t.actions[o:o + n].tolist(), t.probs[o:o + n].tolist()))
        if sorted(got) != ids:
            raise ValueError(f"abstracted policy row {t.strings[row]!r} has abstract actions "
                             f"{sorted(got)}, the state {ids}; wrong policy for this game?")
        return [(k, a, got[k]) for k, a in zip(ids, conc)]

    def concrete_row(self, state: pyspiel.State,
                     uniform: bool = False) -> list[tuple[int, float]] | None:
        """The mover's ``[(concrete action, probability)]`` sorted by action, or None
        when its row is missing (not counted); ``uniform``: uniform over the
        available abstract actions."""
        got = self._lookup(state, state.current_player(), uniform)
        return None if got is None else sorted((a, prob) for _, a, prob in got)

    def abstract_probabilities(self, state: pyspiel.State,
                               player_id: int | None = None) -> list[tuple[int, int, float]]:
        """``[(abstract id, concrete action, probability)]`` at ``state``; a
        missing row is a miss (counted), answered by ``fallback``."""
        from solvers.policy_arrays import PolicyMissError
        p = state.current_player() if player_id is None else int(player_id)
        self.lookups += 1
        got = self._lookup(state, p)
        if got is None:
            self.misses += 1
            if self.fallback == "error":
                raise PolicyMissError(f"abstracted policy has no row for player {p} at "
                                      f"{state.information_state_string(p)!r}")
            got = self._lookup(state, p, uniform=True)
        return got

    def action_probabilities(self, state: pyspiel.State,
                             player_id: int | None = None) -> dict[int, float]:
        """{concrete action: probability}; legal actions no abstract action names get 0."""
        p = state.current_player() if player_id is None else int(player_id)
        out = {a: 0.0 for a in state.legal_actions(p)}
        for _, a, prob in self.abstract_probabilities(state, p):
            out[a] = prob
        return out

    def named_probabilities(self, state: pyspiel.State) -> dict[str, float]:
        """{abstract action name: probability} at ``state`` (for tables)."""
        names = self.action_abstraction.action_names
        return {names[k]: prob for k, _, prob in self.abstract_probabilities(state)}

