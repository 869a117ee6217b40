"""Policy-table entries (decision-situation features) for the goldspiel games.

Importing this module registers each available game with
``solvers.policy_tables``; ``experiments.policy_tables`` imports it.  A
feature set says what a researcher reads off a row: it must be a function of
the deciding player's information only.
"""
from __future__ import annotations

import pyspiel

from solvers.policy_tables import GameEntry, register

def _load_preset(name: str, preset: str) -> pyspiel.Game:
    """Load game `name` with the preset's parameters (``MINI_PARAMS`` of its module)."""
    import importlib
    if preset != "mini":
        raise ValueError(f"{name} has no preset {preset!r}; presets: mini")
    module = importlib.import_module(f"games.{name}")
    return pyspiel.load_game(name, module.MINI_PARAMS)


_CARDS = ("Thief", "Guard", "Witch", "Faerie", "Ninja")
_EFFECTS = ("Thief", "raid", "Witch as Thief", "Guard gift", "Guard cancel",
            "Witch steal", "Faerie cancel")


def gold_thief_features(state: pyspiel.State, player: int) -> dict:
    """Gold Thief situation: what is being decided, what was just played on
    whom, your hand, gold counts, your goal numbers and goals flipped."""
    eng = state.engine
    view = eng.public_view()
    opponents = [q for q in range(len(view["gold"])) if q != player]
    if view["pending"]:
        kind, who, victim, beneficiary, _ = view["pending"][-1]
        target = "you" if victim == player else ("-" if victim < 0 else "other")
        pending = f"{_EFFECTS[kind]} by {'you' if who == player else 'opp'} on {target}"
    else:
        pending = "-"
    return {
        "decision": view["phase"],
        "pending": pending,
        "hand": "+".join(_CARDS[t] for t in sorted(eng.hand(player))) or "-",
        "gold": view["gold"][player],
        "opp_gold": ",".join(str(view["gold"][q]) for q in opponents),
        "goal": " ".join(eng.goal_str(g) for g in eng.goals_down(player)) or "-",
        "flipped": len(view["face_up"][player]),
        "opp_flipped": ",".join(str(len(view["face_up"][q])) for q in opponents),
        "turn": view["turn"],
    }


register(GameEntry(
    name="gold_thief",
    load=lambda preset: _load_preset("gold_thief", preset),
    features=gold_thief_features,
    feature_doc={
        "decision": "what is decided: play (own turn), respond (a window after a card), "
                    "witch-give (you choose the card a Witch takes), ninja-window, big-pile-flip",
        "pending": "the card just played that the window is about, who played it, on whom",
        "hand": "your action cards",
        "gold": "your gold",
        "opp_gold": "the opponents' gold, in seat order",
        "goal": "your face-down goal card(s)",
        "flipped": "goals you have flipped",
        "opp_flipped": "goals the opponents have flipped",
        "turn": "turn number",
    },
    cfr_iterations=200,
    notes=("Gold Thief `mini` preset (games.gold_thief.MINI_PARAMS): 2 players, Thief x2, "
           "Guard, Witch, Faerie, hand of 1, 2 gold each, one flipped goal wins, 6 turns. "
           "The bluffing decisions are the response windows: answer a Thief with a Guard "
           "or a raid, or keep the card.")))


def _pile_summary(line: str) -> str:
    """'h0(bear): p0#2:? p1#1:poo' -> 'h0:2 top p0:?' (size and top token)."""
    name, _, rest = line.partition(":")
    tokens = rest.split()
    if not tokens:
        return f"{name.split('(')[0]}:0"
    owner, _, face = tokens[0].partition(":")
    return f"{name.split('(')[0]}:{len(tokens)} top {owner.split('#')[0]}:{face}"


def ardillas_features(state: pyspiel.State, player: int) -> dict:
    """Ardillas situation: the decision, the token in hand (by day), each
    hiding place's size and top token as the player sees it, nest sizes."""
    obs = state.observation_string(player).split("\n")
    head = dict(part.split("=", 1) for part in obs[0].split()[1:] if "=" in part)
    holding = head.get("holding", "-").rsplit(":", 1)[-1]
    return {
        "decision": head.get("phase", "?"),
        "holding": holding,
        "woods": " ".join(_pile_summary(line) for line in obs[1:] if line.startswith("h")),
        "nests": " ".join(f"{line.split(':')[0][5:]}:{len(line.split(':', 1)[1].split())}"
                          for line in obs[1:] if line.startswith("nest")),
    }


register(GameEntry(
    name="ardillas_del_bosque",
    load=lambda preset: _load_preset("ardillas_del_bosque", preset),
    features=ardillas_features,
    feature_doc={
        "decision": "autumn-place: which hiding place gets your token; winter-draw: which "
                    "pile to draw from; animal phases: the animal's choice",
        "holding": "the token you are hiding (autumn, by day)",
        "woods": "per hiding place: number of tokens, and the top token's owner and "
                 "face as you know it (? = face down)",
        "nests": "number of tokens in each player's nest",
    },
    cfr_iterations=300,
    notes=("Ardillas del Bosque `mini` preset (games.ardillas_del_bosque.MINI_PARAMS): "
           "2 players, 3 tokens each (one nut, squirrel, poo), one hiding place per board. "
           "The deduction decisions: where to hide a nut, and which pile to draw from.")))
