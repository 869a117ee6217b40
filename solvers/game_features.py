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


_SAB_TOOLS = ("pickaxe", "lamp", "cart")


def saboteur_features(state: pyspiel.State, player: int) -> dict:
    """Saboteur situation: your role, what you hold, maze progress towards the
    goals, what you know of the goals, and broken tools in front of players."""
    view = state.engine.state_view()
    obs = state.observation_string(player).split("\n")
    goals = next((line.split(":", 1)[1].strip() for line in obs if line.startswith("goals:")), "?")
    hand = next((line.split(":", 1)[1].strip() for line in obs if line.startswith("hand:")), "-")
    reached = view["reached"]
    broken = view["broken"]
    mine = "+".join(t for t, b in zip(_SAB_TOOLS, broken[player]) if b) or "-"
    others = sum(1 for q in range(len(broken)) if q != player and any(broken[q]))
    return {
        "role": ("gold-digger", "saboteur")[view["roles"][player]],
        "hand": hand,
        "progress": max((x for x, _ in reached), default=0),
        "goals_known": goals,
        "my_broken": mine,
        "others_broken": others,
    }


register(GameEntry(
    name="saboteur",
    load=lambda preset: _load_preset("saboteur", preset),
    features=saboteur_features,
    feature_doc={
        "role": "your secret role",
        "hand": "your cards",
        "progress": "furthest column the path from the start has reached (goals at goal_distance)",
        "goals_known": "the three goals (north, middle, south) as you know them: ? unknown, "
                       "else what a map or a reveal showed you",
        "my_broken": "tools broken in front of you",
        "others_broken": "how many other players have a broken tool",
    },
    max_nodes=10_000,
    mccfr_iterations=30_000,
    mccfr_scheme="outcome",
    notes=("Saboteur `mini` preset (games.saboteur.MINI_PARAMS): 3 players, goals 3 columns "
           "away, a quarter of the deck, hands of 3, one round. Far too big for a tree "
           "(about 1e28 histories): outcome-sampling MCCFR; reach is estimated from sampled "
           "games and no exploitability is computed.")))


def gold_nugget_features(state: pyspiel.State, player: int) -> dict:
    """Gold Nugget situation: time of day and phase, your hand, your animal's
    line (feathers, lair as you know it), the other animals' lines, the nest."""
    obs = state.observation_string(player).split("\n")
    head = obs[0].split()
    lines = [line for line in obs[1:] if line[:1] == "p"]
    mine = next((line for line in lines if line.startswith(f"p{player} ")), "")
    return {
        "phase": " ".join(head[1:]),
        "hand": obs[1].split(":", 1)[1].strip() or "-" if obs[1].startswith("hand") else "-",
        "me": mine.split(" ", 1)[1] if " " in mine else mine,
        "others": " / ".join(line for line in lines if line != mine),
        "nest": next((line for line in obs if line.startswith("nest")), "-"),
    }


register(GameEntry(
    name="gold_nugget",
    load=lambda preset: _load_preset("gold_nugget", preset),
    features=gold_nugget_features,
    feature_doc={
        "phase": "day, time of day, phase and the white-feather holder",
        "hand": "your leaf cards",
        "me": "your animal, its time, whether asleep, feathers, cards, lair as you know it",
        "others": "the other animals as you see them (? = a stone you have not examined)",
        "nest": "stones and feathers in the nest, deck and discard sizes",
    },
    max_nodes=4_000_000,
    cfr_iterations=100,
    mccfr_iterations=100_000,
    mccfr_scheme="outcome",
    notes=("Gold Nugget `mini` preset (games.gold_nugget.MINI_PARAMS): 2 players, one day, "
           "3 stones, 2 Peek cards, hand of 1; 2.3 million tree nodes, solved by exact CFR+ "
           "on the compiled tree (NashConv below 1e-3 after 100 iterations); the table's "
           "reach is estimated from sampled games.")))
