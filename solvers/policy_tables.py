"""Policy tables: equilibrium action probabilities per decision situation.

A *decision situation* is what a game's feature extractor says about an
information state (e.g. Kuhn: your card and the betting so far).  Every game
that wants a table registers a ``GameEntry`` into ``REGISTRY`` with
``register``; ``experiments.policy_tables`` solves each registered game and
calls ``situation_table`` to aggregate the solved policy.

Rows aggregate all information states with equal features: each action's
probability is the reach-weighted mean over those states and ``reach`` is the
probability (chance and all players following the policy) that play reaches
the situation.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import numpy as np
import pyspiel

from solvers.tree import CompiledTree
from src_cy.rng import SplitMix64, sample_sorted

Features = Callable[[pyspiel.State, int], Mapping[str, Any]]


@dataclass
class GameEntry:
    """How to load, solve and describe one game for the policy tables."""

    name: str
    load: Callable[[str], pyspiel.Game]          # preset name -> game
    features: Features                            # (state, player) -> situation features
    feature_doc: Mapping[str, str]                # feature name -> meaning
    presets: tuple[str, ...] = ("mini",)
    cfr_iterations: int = 1000                    # default CFR+ budget
    mccfr_iterations: int = 200_000               # default MCCFR budget when the tree is too big
    mccfr_scheme: str = "external"                # "outcome" where external sampling explodes
    max_nodes: int = 2_000_000
    notes: str = ""
    extra: dict = field(default_factory=dict)


REGISTRY: dict[str, GameEntry] = {}


def register(entry: GameEntry) -> None:
    """Add (or replace) a game's entry in the registry."""
    if not entry.name or not callable(entry.load) or not callable(entry.features):
        raise ValueError(f"invalid GameEntry for {entry.name!r}: needs a name, load and features")
    REGISTRY[entry.name] = entry


# ----------------------------------------------------------------------
# Aggregation
# ----------------------------------------------------------------------
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
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_sorted(state.chance_outcomes(), rng))
                continue
            p = state.current_player()
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


# ----------------------------------------------------------------------
# Built-in demo entries: OpenSpiel's Kuhn and Leduc poker.
# ----------------------------------------------------------------------
_KUHN_CARDS = "JQK"


def _kuhn_features(state: pyspiel.State, player: int) -> dict:
    info = state.information_state_string(player)
    return {"card": _KUHN_CARDS[int(info[0])], "betting": info[1:] or "-"}


def _leduc_features(state: pyspiel.State, player: int) -> dict:
    info = state.information_state_string(player)
    fields = dict(part.split(": ", 1) if ": " in part else part.split(" ", 1)
                  for part in info.strip("[]").split("]["))
    private = "JQK"[int(fields["Private"]) // 2]
    public = "JQK"[int(fields["Public"]) // 2] if "Public" in fields else "-"
    rnd = int(fields["Round"])
    bets = fields["Round1" if rnd == 1 else "Round2"].split()
    names = {"0": "f", "1": "c", "2": "r"}
    return {"round": rnd, "private": private, "public": public,
            "pair": private == public, "betting": "".join(names[b] for b in bets) or "-"}


register(GameEntry(
    name="kuhn_poker",
    load=lambda preset: pyspiel.load_game("kuhn_poker"),
    features=_kuhn_features,
    feature_doc={"card": "your card (J < Q < K)",
                 "betting": "actions so far this hand (p = pass/check, b = bet/call)"},
    cfr_iterations=2000,
    notes="OpenSpiel demo entry; game value -1/18 for the first player."))

register(GameEntry(
    name="leduc_poker",
    load=lambda preset: pyspiel.load_game("leduc_poker"),
    features=_leduc_features,
    feature_doc={"round": "betting round (1 before the public card, 2 after)",
                 "private": "your card's rank", "public": "public card's rank (- before it)",
                 "pair": "your card pairs the public card",
                 "betting": "this round's actions (f fold, c check/call, r raise)"},
    cfr_iterations=1500,
    notes="OpenSpiel demo entry."))
