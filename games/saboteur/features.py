"""Saboteur's policy-table entry: decision-situation features and the solve's settings.

The spec (``games/saboteur/__init__.py``) points its ``table`` at :data:`SABOTEUR_TABLE`.
A feature set says what a researcher reads off a row: it must be a function of
the deciding player's information only.
"""
from __future__ import annotations

import pyspiel

from games.features import load_preset, mini_description
from games.spec import TableSpec


_SAB_TOOLS = ("pickaxe", "lamp", "cart")


def saboteur_features(state: pyspiel.State, player: int) -> dict:
    """Saboteur situation: your role, what you hold, maze progress towards the
    goals, what you know of the goals, and broken tools in front of players."""
    from src_cy.saboteur.engine import GOAL_NAMES, KIND_NAMES
    view = state.engine.player_view(player)
    goals = " ".join(GOAL_NAMES[g] if g >= 0 else "?" for g in view["known_goals"])
    hand = ", ".join(f"{KIND_NAMES[k]} x{c}" for k, c in enumerate(view["hand"]) if c)
    tunnels = [x for (x, _), cell in view["board"].items() if cell[0] < 16 and cell[3]]
    broken = view["broken"]
    mine = "+".join(t for t, b in zip(_SAB_TOOLS, broken[player]) if b) or "-"
    others = sum(1 for q in range(len(broken)) if q != player and any(broken[q]))
    return {
        "role": ("gold-digger", "saboteur")[view["role"]],
        "hand": hand,
        "progress": max(tunnels, default=0),
        "goals_known": goals,
        "my_broken": mine,
        "others_broken": others,
    }


def saboteur_abstract_features(state: pyspiel.State, player: int) -> dict:
    """The information part of a ``saboteur_compact`` bucket, as table features."""
    from games.saboteur.abstraction import saboteur_compact
    bucket = saboteur_compact(player, state.engine)
    if bucket[0] != "play":
        return {"phase": bucket[0], "role": "", "steps": "", "treasure_known": "",
                "my_broken": "", "others_broken": "", "deck_left": ""}
    _, role, steps, treasure, mine, others, deck = bucket
    return {"phase": "play", "role": ("gold-digger", "saboteur")[role],
            "steps": f"{steps}+" if steps >= 4 else steps, "treasure_known": treasure,
            "my_broken": mine, "others_broken": others, "deck_left": deck}


SABOTEUR_ABSTRACT_DOC = {
    "phase": "play, or the gold hand-out (where the only abstract action is the heuristic's)",
    "role": "your secret role",
    "steps": "steps from the frontier cell nearest the target goal to it (capped at 4+); the "
             "target is the treasure if you know it, else the unknown goal nearest the middle",
    "treasure_known": "whether you know which goal is the treasure",
    "my_broken": "whether a tool of yours is broken",
    "others_broken": "how many other players have a broken tool",
    "deck_left": "whether the draw pile still has cards",
}

SABOTEUR_TABLE = TableSpec(
    name="saboteur",
    load=lambda preset: load_preset("saboteur", preset),
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
    presets=("mini", "default"),
    max_nodes=10_000,
    mccfr_iterations=30_000,
    mccfr_scheme="outcome",
    notes=(mini_description("saboteur") + ". Far too big for a tree "
           "(about 1e28 histories): outcome-sampling MCCFR; reach is estimated from sampled "
           "games and no exploitability is computed."),
    extra={
        # Solved by default over an information + action abstraction (the spec's, in
        # games/saboteur/abstraction.py; docs/solvers_cfr.md "Saboteur over an
        # abstraction"); --mccfr-mode raw solves raw information sets.
        "abstraction": "saboteur_compact",
        "action_abstraction": "saboteur_actions",
        "fixed_opponents": "heuristic",
        "extraction": "greedy",          # hand out MCCFRSolver.greedy_policy() in response mode
        "fallback": "default",           # an unseen bucket plays the heuristic's move
        "response_scheme": "external",
        "response_iterations": 1_000,
        "self-play_scheme": "outcome",
        "self-play_iterations": 12_000,
        "abstract_features": saboteur_abstract_features,
        "abstract_feature_doc": SABOTEUR_ABSTRACT_DOC,
        "abstract_notes": (
            mini_description("saboteur") + ". Solved by MCCFR over an "
            "abstraction, by default (`--mccfr-mode response`) external sampling with the "
            "other two seats playing the heuristic bot, so the table is a response to "
            "heuristic play within the abstraction, not an equilibrium (`--mccfr-mode "
            "self-play`: outcome sampling in self-play). The policy is the greedy one: in "
            "each bucket the abstract action with the highest cumulative regret (the highest "
            "summed sampled value), so every row is one action; a bucket never visited plays the "
            "heuristic's move (fallback `default`). A row is a bucket (the features below plus which "
            "abstract actions exist there) and its actions are abstract: heuristic (the "
            "heuristic bot's move), extend (open path nearest the target), block (dead end "
            "nearest the target, else rockfall on the path), clear (rockfall on a dead end), "
            "break (a tool of the likeliest opponent), repair (own tool, else an ally's), "
            "map (an unknown goal), pass (discard the least useful card). An abstract action "
            "that names the same move as an earlier one is absent. Reach is estimated from "
            "sampled games."),
        # The full game (5 players, three rounds): external sampling explodes on its
        # length (8 abstract actions at each of ~30 own decisions), so outcome sampling.
        "by_preset": {"default": {
            # probing MCCFR following the heuristic, confident extraction
            # (docs/solvers_cfr.md "Probing MCCFR"); outcome sampling's greedy
            # response lost clearly (docs/results.md)
            "response_scheme": "probe",
            # one row per situation for all five seats (docs/solvers_cfr.md)
            "abstraction": "saboteur_compact_shared",
            "response_iterations": 20_000,
            "probe_continuation": "fixed",
            "probe_epsilon": 0.1,
            "extraction": "confident",
            "self-play_iterations": 8_000,
            # --br-deals: the responder the game's length allows (docs/ai.md)
            "br_responder": {"worlds": 8, "rollouts": 1, "lookahead": 0},
            "abstract_notes": (
                "Saboteur `default` preset (5 players, the full three rounds, the rulebook's "
                "deck and maze). Solved by probing MCCFR over the same abstraction as "
                "the mini table, with one row per situation for all five seats "
                "(`saboteur_compact_shared`), by default (`--mccfr-mode response`) with the "
                "four other seats playing the heuristic bot, so the table is a response to "
                "heuristic play within the abstraction, not an equilibrium. Each probe values an "
                "abstract action followed by the heuristic's play to the end "
                "(docs/solvers_cfr.md, \"Probing MCCFR\"); the policy is the confident "
                "one: a row plays its abstract action of highest mean lead over `heuristic` "
                "only where that lead's 99% lower bound (z = 2.33, at least 30 probed visits) "
                "is above 0, else the heuristic's move; a bucket never visited plays the "
                "heuristic's move. Abstract actions as in "
                "the mini table: heuristic, extend, block, clear, break, repair, map, pass. "
                "Reach is estimated from sampled games."),
        }},
    })
