"""Named information and action abstractions for MCCFR on games too large for raw information sets.

**Information abstractions** map a player's information state to a
*bucket*; all states in a bucket share one regret/strategy row.  A plain
callable takes ``(player, info_string)``; one with ``uses_engine = True``
takes ``(player, engine)`` and reads the engine's player view (never another
player's secrets).  One with ``shared_seats = True`` gives every seat the
same rows (the bucket describes the situation from the mover's side, so a
seat's visits teach the others: in an n-player game each row gets about n
times the samples); its row labels start with ``"*|"`` instead of a seat.
Without an action abstraction a bucket must fix the legal actions (MCCFR
refuses a bucket that mixes action sets of different sizes).

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

Both kinds have names so a policy file can record which ones its rows use
and a bot can rebuild them (``get_abstraction(name, game)``,
``get_action_abstraction(name, game)``): a game's own abstractions come from
its spec (``GameSpec.abstraction`` -> :class:`GameAbstractions`), others
from ``register_abstraction`` / ``register_action_abstraction``.
:class:`AbstractedPolicy` is the OpenSpiel policy of a table solved over an
action abstraction: it maps the abstract probabilities back to concrete
actions state by state.

Saboteur's (``saboteur_compact`` + ``saboteur_actions``) live in
``games/saboteur/abstraction.py`` and are documented in
``docs/solvers_cfr.md``, "Saboteur over an abstraction".
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

import pyspiel
from open_spiel.python import policy as os_policy

from games.interfaces import ActionAbstraction, GameAbstractions  # noqa: F401
from games.spec import find_spec

# Abstractions registered by user code (register_*), for any game; a game's own
# come from its spec (GameSpec.abstraction).
_REGISTRY: dict[str, Callable] = {}
_ACTION_REGISTRY: dict[str, ActionAbstraction] = {}


def game_abstractions(game: Any) -> GameAbstractions:
    """The abstractions of ``game`` (a pyspiel game, an engine or a short name)
    from its spec; empty when its spec has none."""
    if isinstance(game, str):
        name = game
    elif isinstance(game, pyspiel.Game):
        name = game.get_type().short_name
    else:
        name = str(getattr(game, "game_string", "")).split("(", 1)[0]
    spec = find_spec(name)
    if spec is None or spec.abstraction is None:
        return GameAbstractions()
    return spec.abstraction()


def get_abstraction(name: str, game: Any) -> Callable:
    """The information abstraction ``name`` of ``game`` (its spec's, else registered)."""
    known = {**_REGISTRY, **game_abstractions(game).information}
    if name not in known:
        raise ValueError(f"unknown abstraction {name!r}; known: {sorted(known)}")
    return known[name]


def get_action_abstraction(name: str, game: Any) -> ActionAbstraction:
    """The action abstraction ``name`` of ``game`` (its spec's, else registered)."""
    known = {**_ACTION_REGISTRY, **game_abstractions(game).actions}
    if name not in known:
        raise ValueError(f"unknown action abstraction {name!r}; known: {sorted(known)}")
    return known[name]


def register_abstraction(name: str, abstraction: Callable) -> None:
    """Add (or replace) an information abstraction under ``name``, for any game."""
    if not name or not callable(abstraction):
        raise ValueError("an information abstraction needs a name and a callable")
    _REGISTRY[name] = abstraction


def register_action_abstraction(abstraction: ActionAbstraction) -> None:
    """Add (or replace) an action abstraction under its ``name``, for any game."""
    if not isinstance(abstraction, ActionAbstraction) or not abstraction.name \
            or not abstraction.action_names:
        raise ValueError("an action abstraction needs a name and action_names")
    _ACTION_REGISTRY[abstraction.name] = abstraction


def bucket_label(player: int, abstraction: Callable, x: Any) -> str:
    """Row label ``"<player>|<bucket repr>"`` of ``player``'s state ``x`` (engine
    or information string) under ``abstraction``, as MCCFR stores it;
    ``"*|<bucket repr>"`` when the abstraction's rows are ``shared_seats``."""
    seat = "*" if getattr(abstraction, "shared_seats", False) else player
    return f"{seat}|{abstraction(player, x)!r}"


class Labeler:
    """Row label of an abstraction (:func:`bucket_label`), as MCCFR stores it."""

    def __init__(self, abstraction: Callable):
        self.abstraction = abstraction
        self.uses_engine = bool(getattr(abstraction, "uses_engine", False))

    def __call__(self, player: int, x: Any) -> str:
        return bucket_label(player, self.abstraction, x)


def row_label(player: int | None, info_part: Any, ids: Sequence[int]) -> str:
    """Row label of a state under an action abstraction (as MCCFR stores it);
    ``player=None``: a row every seat shares (label prefix ``"*|"``)."""
    return f"{'*' if player is None else player}|{(info_part, tuple(ids))!r}"


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
    seat = None if getattr(abstraction, "shared_seats", False) else player
    return row_label(seat, info_part, ids), ids, [a for _, a in pairs]


ABSTRACT_FALLBACKS = ("uniform", "default", "error")


class AbstractedPolicy(os_policy.Policy):
    """The OpenSpiel policy of a table solved over an action abstraction.

    ``table`` is an ``ArrayPolicy`` whose rows are labelled by
    :func:`row_label` and whose row actions are abstract ids;
    ``action_probabilities(state)`` maps them to concrete actions.  A state
    whose row is missing is a *miss* (counted): ``fallback="uniform"`` plays
    uniformly over the *abstract* actions available there, ``"default"``
    plays the first of them (the lowest abstract id: Saboteur's
    ``heuristic``), ``"error"`` raises ``PolicyMissError``.
    """

    def __init__(self, table: Any, action_abstraction: ActionAbstraction,
                 abstraction: Callable | None = None, abstraction_name: str | None = None,
                 fallback: str = "uniform"):
        super().__init__(table.game, list(range(table.game.num_players())))
        if fallback not in ABSTRACT_FALLBACKS:
            raise ValueError(f"fallback must be one of {ABSTRACT_FALLBACKS}, got {fallback!r}")
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
                miss: str | None = None) -> list[tuple[int, int, float]] | None:
        """``[(abstract id, concrete action, probability)]``, or None when the row is
        missing; ``miss`` ("uniform" or "default"): that miss answer instead."""
        row, ids, conc = self._row(state, p)
        if miss == "default":
            return [(k, a, 1.0 if j == 0 else 0.0) for j, (k, a) in enumerate(zip(ids, conc))]
        if miss == "uniform":
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
                     miss: str | None = None) -> list[tuple[int, float]] | None:
        """The mover's ``[(concrete action, probability)]`` sorted by action, or None
        when its row is missing (not counted); ``miss``: a miss answer instead
        (``"uniform"`` over the available abstract actions, ``"default"`` the
        first of them)."""
        got = self._lookup(state, state.current_player(), miss)
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
            got = self._lookup(state, p, miss=self.fallback)
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

