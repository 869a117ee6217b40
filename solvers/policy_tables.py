"""Policy tables: equilibrium action probabilities per decision situation.

A *decision situation* is what a game's feature extractor says about an
information state (e.g. Kuhn: your card and the betting so far).  Every game
that wants a table has a ``table`` entry (``games.spec.TableSpec``) in its
spec; ``experiments.policy_tables`` solves each such game and calls
``situation_table`` to aggregate the solved policy.

Rows aggregate all information states with equal features: each action's
probability is the reach-weighted mean over those states and ``reach`` is the
probability (chance and all players following the policy) that play reaches
the situation.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

import numpy as np
import pyspiel

from games.spec import TableSpec, find_spec, specs
from solvers.tree import CompiledTree
from src_cy.rng import SplitMix64, sample_sorted

Features = Callable[[pyspiel.State, int], Mapping[str, Any]]


#: A game's policy-table entry (its spec's ``table()``).
GameEntry = TableSpec


def table_specs() -> dict[str, TableSpec]:
    """{game name: table entry} of every game spec that has one (spec order)."""
    return {s.name: s.table() for s in specs() if s.table is not None}


# ----------------------------------------------------------------------
# Aggregation
# ----------------------------------------------------------------------
def for_preset(entry: GameEntry, preset: str) -> GameEntry:
    """``entry`` as it solves ``preset``: ``extra["by_preset"][preset]`` (a dict
    of extra keys, e.g. another scheme, budget or notes) laid over ``extra``."""
    import dataclasses
    over = entry.extra.get("by_preset", {}).get(preset)
    return entry if not over else dataclasses.replace(entry, extra={**entry.extra, **over})


def table_game(entry: GameEntry, preset: str, players: int | None = None) -> pyspiel.Game:
    """The game a table of ``preset`` solves: the spec's preset with the entry's
    ``extra["params"]`` for it (after :func:`for_preset`; e.g. the 2-player
    default of a game whose rulebook default is 4), and ``players`` if given."""
    game = entry.load(preset)
    params = dict(for_preset(entry, preset).extra.get("params", {}))
    if players is not None:
        params["players"] = players
    if not params:
        return game
    name = game.get_type().short_name
    spec = find_spec(name)
    base = dict(spec.presets[preset]) if spec is not None and preset in spec.presets \
        else game.get_parameters()
    return pyspiel.load_game(name, {**base, **params})


def decisions(game: pyspiel.Game, rng: SplitMix64):
    """Yield ``(state, player)`` at each decision of one game, chance drawn from
    ``rng`` (``sample_sorted``); the caller applies the decision's action to
    ``state`` before asking for the next one."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_sorted(state.chance_outcomes(), rng))
            continue
        yield state, state.current_player()


def _action_name(state: pyspiel.State, player: int, action: int) -> str:
    return state.action_to_string(player, action)


def _accumulate(rows: dict, feats: Mapping[str, Any], player: int, names: list[str],
                probs, weight: float) -> None:
    key = (player, tuple(feats.items()))
    row = rows.setdefault(key, {"player": player, "features": dict(feats), "reach": 0.0,
                                "infosets": 0, "mass": {}})
    row["reach"] += weight
    row["infosets"] += 1
    for name, p in zip(names, probs):
        row["mass"][name] = row["mass"].get(name, 0.0) + weight * float(p)


def _finish(rows: dict) -> list[dict]:
    out = []
    for row in rows.values():
        total = row["reach"]
        n = len(row["mass"])
        row["actions"] = {a: (m / total if total > 0 else 1.0 / n)
                          for a, m in sorted(row["mass"].items())}
        del row["mass"]
        out.append(row)
    out.sort(key=lambda r: (r["player"], [str(v) for v in r["features"].values()]))
    return out


def infoset_reach(tree: CompiledTree, probs: np.ndarray) -> np.ndarray:
    """Probability of reaching each information set when all follow ``probs``."""
    reach = np.zeros(tree.num_nodes)
    reach[0] = 1.0
    for i in range(tree.num_nodes):
        n = tree.num_children[i]
        if n == 0:
            continue
        c = tree.child_start[i]
        if tree.kind[i] == 1:
            reach[c:c + n] = reach[i] * tree.chance_prob[c:c + n]
        else:
            o = tree.infoset_offset[tree.infoset[i]]
            reach[c:c + n] = reach[i] * probs[o:o + n]
    dec = tree.infoset >= 0
    return np.bincount(tree.infoset[dec], weights=reach[dec], minlength=tree.num_infosets)


def situation_table(game: pyspiel.Game, entry: GameEntry, tree: CompiledTree,
                    probs: np.ndarray) -> list[dict]:
    """Exact table from a compiled tree and a flat policy array."""
    weights = infoset_reach(tree, probs)
    rows: dict = {}
    for i in range(tree.num_infosets):
        state = tree.representative_state(game, i)
        p = int(tree.infoset_player[i])
        o, n = int(tree.infoset_offset[i]), int(tree.infoset_num_actions[i])
        names = [_action_name(state, p, int(a)) for a in tree.infoset_actions[o:o + n]]
        _accumulate(rows, entry.features(state, p), p, names, probs[o:o + n], weights[i])
    return _finish(rows)


def sampled_situation_table(game: pyspiel.Game, entry: GameEntry, table: Any,
                            episodes: int, seed: int) -> list[dict]:
    """Table estimated from ``episodes`` games played with a policy.

    ``table`` is an OpenSpiel policy (e.g. an ``ArrayPolicy``) or a mapping
    {info string: (player, actions, probs)}.  Used when the game tree is too
    big to compile or to enumerate: ``reach`` is the visit frequency per
    episode.  Unknown information states play uniformly.
    """
    rng = SplitMix64(seed)
    rows: dict = {}
    for _ in range(episodes):
        for state, p in decisions(game, rng):
            legal = state.legal_actions()
            if hasattr(table, "action_probabilities"):
                got = table.action_probabilities(state)
                probs = [got.get(a, 0.0) for a in legal]
            else:
                entry_row = table.get(state.information_state_string(p))
                probs = (entry_row[2] if entry_row is not None
                         else [1.0 / len(legal)] * len(legal))
            names = [_action_name(state, p, a) for a in legal]
            _accumulate(rows, entry.features(state, p), p, names, probs, 1.0 / episodes)
            state.apply_action(sample_sorted(list(zip(legal, probs)), rng))
    return _finish(rows)
