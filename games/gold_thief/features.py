"""Gold Thief's policy-table entry: decision-situation features and the solve's settings.

The spec (``games/gold_thief/__init__.py``) points its ``table`` at :data:`GOLD_THIEF_TABLE`.
A feature set says what a researcher reads off a row: it must be a function of
the deciding player's information only.
"""
from __future__ import annotations

import pyspiel

from games.features import load_preset, mini_description
from games.spec import TableSpec


_CARDS = ("Thief", "Guard", "Witch", "Faerie", "Ninja")
_EFFECTS = ("Thief", "raid", "Witch as Thief", "Guard gift", "Guard cancel",
            "Witch steal", "Faerie cancel")


def gold_thief_features(state: pyspiel.State, player: int) -> dict:
    """Gold Thief situation: what is being decided, what was just played on
    whom, your hand, gold counts, your goal numbers and goals flipped."""
    eng = state.engine
    view = eng.player_view(player)
    opponents = [q for q in range(view.num_players) if q != player]
    if view.pending:
        kind, who, victim, beneficiary, _ = view.pending[-1]
        target = "you" if victim == player else ("-" if victim < 0 else "other")
        pending = f"{_EFFECTS[kind]} by {'you' if who == player else 'opp'} on {target}"
    else:
        pending = "-"
    return {
        "decision": view.phase,
        "pending": pending,
        "hand": "+".join(_CARDS[t] for t in range(len(_CARDS))
                         for _ in range(view.hand[t])) or "-",
        "gold": view.gold[player],
        "opp_gold": ",".join(str(view.gold[q]) for q in opponents),
        "goal": " ".join(eng.goal_str(g) for g in view.goals_down) or "-",
        "flipped": len(view.face_up[player]),
        "opp_flipped": ",".join(str(len(view.face_up[q])) for q in opponents),
        "turn": view.turn,
    }


def gold_thief_abstract_features(state: pyspiel.State, player: int) -> dict:
    """The information part of a ``gold_thief_compact`` bucket, as table features."""
    from games.gold_thief.abstraction import gold_thief_compact
    decision, pending, thieves, guards, need, band, mine, lead = gold_thief_compact(
        player, state.engine)
    if pending != "-":
        kind, role = pending
        pending = f"{_EFFECTS[kind]} by {'you' if role == 'me' else 'opp'}" + (
            " on you" if role == "victim" else "")
    return {"decision": decision, "pending": pending, "thieves": thieves, "guards": guards,
            "need": need, "leader_gold": ("0-2", "3-5", "6-8", "9+")[band],
            "flipped": mine, "leader_flipped": lead}


GOLD_THIEF_ABSTRACT_DOC = {
    "decision": "play (own turn), respond (a window after a card), witch-give, ninja-window, "
                "big-pile-flip",
    "pending": "in a response window: the card just played, by whom, and whether on you",
    "thieves": "Thieves in your hand (2 = two or more)",
    "guards": "Guards in your hand (2 = two or more)",
    "need": "your nearest goal number minus your gold, clipped to -3..3 (big: more than "
            "big_pile gold, any goal flips)",
    "leader_gold": "gold band of the leader (the other player with most goals up, then most gold)",
    "flipped": "goals you have flipped",
    "leader_flipped": "goals the leader has flipped",
}

GOLD_THIEF_TABLE = TableSpec(
    name="gold_thief",
    load=lambda preset: load_preset("gold_thief", preset),
    presets=("mini", "default"),
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
    notes=(mini_description("gold_thief") + ". The bluffing decisions are the response windows: answer a Thief with a Guard "
           "or a raid, or keep the card."),
    extra={
        # The default preset (2 players) is solved over an information + action
        # abstraction (games/gold_thief/abstraction.py; docs/solvers_cfr.md "Gold
        # Thief over an abstraction"); mini still compiles and is solved exactly.
        # The default preset's response: probing MCCFR, the probes and the trajectory
        # following the heuristic (so each row's values are the heuristic's Q-values),
        # handing out the confident extraction (docs/solvers_cfr.md "Probing MCCFR").
        "by_preset": {"default": {"params": {"players": 2},   # the rulebook default is 4
                                  "response_scheme": "probe",
                                  "response_iterations": 50_000,
                                  "probe_continuation": "fixed",
                                  "probe_epsilon": 0.1,
                                  "extraction": "confident"}},
        "abstraction": "gold_thief_compact",
        # choices on your own turn only: the solved window answers lost to the
        # heuristic's (docs/results.md, Gold Thief default)
        "action_abstraction": "gold_thief_turns",
        "fixed_opponents": "heuristic",
        "extraction": "greedy",
        "fallback": "default",
        "response_scheme": "outcome",
        "response_iterations": 20_000,
        "self-play_scheme": "outcome",
        "self-play_iterations": 20_000,
        "abstract_features": gold_thief_abstract_features,
        "abstract_feature_doc": GOLD_THIEF_ABSTRACT_DOC,
        "abstract_notes": (
            "Gold Thief `default` table preset: the default rules at 2 players. Solved by "
            "probing MCCFR over an abstraction (games/gold_thief/abstraction.py; "
            "docs/solvers_cfr.md, \"Gold Thief over an abstraction\"), by default "
            "(`--mccfr-mode response`) with the other seat playing the heuristic bot, so the "
            "table is a response to heuristic play within the abstraction, not an equilibrium "
            "(`--mccfr-mode self-play`: self-play). Abstract actions other than the heuristic's "
            "move exist only on your own turn and at a big-pile flip (`gold_thief_turns`); "
            "in the windows the heuristic answers. Each probe values an abstract action "
            "followed by the heuristic's play to the end (docs/solvers_cfr.md, \"Probing "
            "MCCFR\"); the response policy is the confident one: a row plays its abstract "
            "action of highest mean lead over `heuristic` only where that lead's 99% lower "
            "bound (z = 2.33, at least 30 probed visits) is above 0, else the heuristic's "
            "move; a bucket never visited plays the heuristic's move. A row is a bucket plus the abstract actions that exist "
            "there; its actions are abstract: heuristic (the heuristic bot's move), keep (end "
            "the turn or pass), thief / guard / witch / faerie / ninja (play that card the way "
            "the decision allows: on your turn on the leader, the trailer (Guard) or your "
            "farthest goal (Faerie); in a window raid, cancel, extra Thief, Faerie cancel, "
            "Ninja score; as a Witch's victim the card given), flip (big-pile flip of your goal "
            "farthest from your gold). Reach is estimated from sampled games."),
    })
