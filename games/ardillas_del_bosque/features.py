"""Ardillas del Bosque's policy-table entry: decision-situation features and the solve's settings.

The spec (``games/ardillas_del_bosque/__init__.py``) points its ``table`` at :data:`ARDILLAS_TABLE`.
A feature set says what a researcher reads off a row: it must be a function of
the deciding player's information only.
"""
from __future__ import annotations

import pyspiel

from games.features import load_preset, mini_description
from games.spec import TableSpec


def _ardillas_token(token, players: int) -> str:
    """'p0:?' / 'p1:poo^': a token's owner and face as the viewer knows it."""
    owner = f"p{token.owner}" if token.owner < players else f"z{token.owner - players}"
    return f"{owner}:{token.kind or '?'}{'^' if token.face_up else ''}"


def ardillas_features(state: pyspiel.State, player: int) -> dict:
    """Ardillas situation: the decision, the token in hand (by day), each
    hiding place's size and top token as the player sees it, nest sizes
    (all read from ``player_view``)."""
    view = state.engine.player_view(player)
    players = len(view.nests)
    woods = " ".join(f"h{h}:{len(pile)}" + (f" top {_ardillas_token(pile[0], players)}"
                                           if pile else "")
                     for h, pile in enumerate(view.piles))
    return {
        "decision": view.phase,
        "holding": (view.holding.kind or "?") if view.holding else "-",
        "woods": woods,
        "nests": " ".join(f"p{q}:{len(nest)}" for q, nest in enumerate(view.nests)),
    }


def ardillas_abstract_features(state: pyspiel.State, player: int) -> dict:
    """The information part of an ``ardillas_compact`` bucket, as table features."""
    from games.ardillas_del_bosque.abstraction import ardillas_compact
    bucket = ardillas_compact(player, state.engine)
    row = {"decision": bucket[0], "holding": "", "piles": "", "lead": "", "woods": ""}
    if bucket[0] == "autumn":
        row.update(holding=bucket[1], piles=bucket[2])
    elif len(bucket) == 3:
        row.update(lead=bucket[1], woods=f"{5 * bucket[2]}+" if bucket[2] == 3
                   else f"{5 * bucket[2]}-{5 * bucket[2] + 4}")
    return row


ARDILLAS_ABSTRACT_DOC = {
    "decision": "autumn: where to hide the token you hold; winter: which pile to draw from; "
                "else the animal's phase (only the pile choices have more than the heuristic's "
                "move)",
    "holding": "autumn: the token you hide (N nut, S squirrel, P poo)",
    "piles": "autumn: the top of each hiding place, from your own first one (pile+0, "
             "pile+1, then the next board's): 0 empty, n your nut, j your squirrel or poo, "
             "o the other player's token",
    "lead": "your nest against the best other one, by face-up nut groups (+ ahead, = level, "
            "- behind)",
    "woods": "tokens left in the hiding places",
}

ARDILLAS_TABLE = TableSpec(
    name="ardillas_del_bosque",
    load=lambda preset: load_preset("ardillas_del_bosque", preset),
    features=ardillas_features,
    feature_doc={
        "decision": "autumn-place: which hiding place gets your token; winter-draw: which "
                    "pile to draw from; animal phases: the animal's choice",
        "holding": "the token you are hiding (autumn, by day)",
        "woods": "per hiding place: number of tokens, and the top token's owner and "
                 "face as you know it (? = face down)",
        "nests": "number of tokens in each player's nest",
    },
    presets=("mini", "default"),
    cfr_iterations=300,
    notes=(mini_description("ardillas_del_bosque") + ": 3 tokens each (one nut, squirrel, poo), "
           "the two boards drawn at set-up (20 arrangements; 5.6M histories, so MCCFR). "
           "The deduction decisions: where to hide a nut, and which pile to draw from."),
    extra={
        # The mini preset keeps its raw MCCFR solve (no abstraction keys at the top); the
        # default preset (7 tokens each, 2 hiding places per board) is solved over an
        # information + action abstraction (games/ardillas_del_bosque/abstraction.py;
        # docs/solvers_cfr.md "Ardillas del Bosque over an abstraction").
        "by_preset": {"default": {
            "abstraction": "ardillas_compact",
            "action_abstraction": "ardillas_draws",
            "fixed_opponents": "heuristic",
            "extraction": "greedy",
            "fallback": "default",
            "response_scheme": "external",
            "response_iterations": 10_000,
            "self-play_scheme": "external",
            "self-play_iterations": 10_000,
            "abstract_features": ardillas_abstract_features,
            "abstract_feature_doc": ARDILLAS_ABSTRACT_DOC,
            "abstract_notes": (
                "Ardillas del Bosque `default` preset (2 players, 7 tokens each, 2 hiding places "
                "per board, the boards drawn at set-up). Solved by external-sampling MCCFR over "
                "an abstraction (`ardillas_compact` buckets, `ardillas_draws` actions): by default "
                "(`--mccfr-mode response`) against heuristic opponents, handing out the greedy "
                "response; `--mccfr-mode self-play` solves it in self-play and hands out the "
                "average policy. Only the winter draw has a choice: `heuristic` (the heuristic "
                "bot's move) or `top-<class>`, the largest legal pile whose top is, as you know "
                "it, a nut of a kind in your nest (nut+), another nut, a squirrel, a poo, a token "
                "you do not know on your own board (unknown-mine) or on another board "
                "(unknown-other); an abstract action naming the same pile as an earlier one is "
                "absent. Every other decision (the autumn hide, the animals) plays the "
                "heuristic's move, so those rows show heuristic=1. A row is a bucket plus "
                "its available abstract actions; a bucket never visited plays the heuristic's "
                "move (fallback `default`). Reach is estimated from sampled games."),
        }},
    })
