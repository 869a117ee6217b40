"""Named information abstractions for MCCFR on games too large for raw information sets.

An abstraction maps a player's information state to a *bucket*; all states
in a bucket share one regret/strategy row.  A plain callable takes
``(player, info_string)``; one with ``uses_engine = True`` takes
``(player, engine)`` and reads the engine's public view and the player's
observation (never another player's secrets).  Buckets must fix the legal
actions (MCCFR refuses a bucket that mixes action sets of different sizes),
so the buckets below include the legal action ids.

Registered by name so a policy file can record which abstraction its rows
use and a bot can rebuild it (``get_abstraction(name)``).

``saboteur_features``: the Saboteur policy table's own features (see
``games.features.saboteur_features``): your role, your hand (sorted),
the furthest column reached by the path, the goals as you know them, your
broken tools, how many others have a broken tool, plus the legal action ids.
What it forgets: where exactly the maze's paths and dead ends lie, the order
of events, who played what.  Those matter for the precise placement of a
tunnel, which is why the legal actions stay in the bucket.
"""
from __future__ import annotations

from typing import Any, Callable

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

_REGISTRY: dict[str, Callable] = {"saboteur_features": saboteur_features}


def get_abstraction(name: str) -> Callable:
    """The abstraction registered under ``name``."""
    if name not in _REGISTRY:
        raise ValueError(f"unknown abstraction {name!r}; known: {sorted(_REGISTRY)}")
    return _REGISTRY[name]


class Labeler:
    """Row label ``"<player>|<bucket repr>"`` of an abstraction (as MCCFR stores it)."""

    def __init__(self, abstraction: Callable):
        self.abstraction = abstraction
        self.uses_engine = bool(getattr(abstraction, "uses_engine", False))

    def __call__(self, player: int, x: Any) -> str:
        return f"{player}|{self.abstraction(player, x)!r}"
