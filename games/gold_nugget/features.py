"""Gold Nugget's policy-table entry: decision-situation features and the solve's settings.

The spec (``games/gold_nugget/__init__.py``) points its ``table`` at :data:`GOLD_NUGGET_TABLE`.
A feature set says what a researcher reads off a row: it must be a function of
the deciding player's information only.
"""
from __future__ import annotations

import pyspiel

from games.features import load_preset, mini_description
from games.spec import TableSpec


def gold_nugget_features(state: pyspiel.State, player: int) -> dict:
    """Gold Nugget situation from the player's view (``engine.player_view``):
    time of day and phase, your hand, your animal's line (feathers, lair as you
    know it), the other animals' lines, the nest."""
    from src_cy.gold_nugget.engine import LEAF_CATALOG
    v = state.engine.player_view(player)

    def line(q: int) -> str:
        lair = "".join(f[0] if f is not None else "?" for f in v["lairs"][q])
        fe = "?" if v["feathers"] is None else v["feathers"][q]
        return (f"p{q} {v['animals'][q] or '?'} time={v['times'][q] or '?'} "
                f"{'asleep ' if v['asleep'][q] else ''}{'out ' if v['out'][q] else ''}"
                f"feathers={fe} cards={v['cards'][q]} lair=[{lair}]")
    nf = "?" if v["nest_feathers"] is None else v["nest_feathers"]
    return {
        "phase": f"day {v['day'] + 1}/{v['days']} {v['time']} phase={v['phase']} "
                 f"holder=p{v['holder']}",
        "hand": ",".join(f"{LEAF_CATALOG[k][0]}x{c}" for k, c in enumerate(v["hand"]) if c)
        or "-",
        "me": line(player).split(" ", 1)[1],
        "others": " / ".join(line(q) for q in range(len(v["lairs"])) if q != player),
        "nest": f"nest: {v['nest_stones']} stones, {nf} feathers; deck {v['deck']}; "
                f"discard {sum(v['discard'])}",
    }


_GN_ABSTRACT_KEYS = ("decision", "last_day", "nugget", "my_unknown", "their_unknown",
                     "my_feathers", "their_feathers_2")


def gold_nugget_abstract_features(state: pyspiel.State, player: int) -> dict:
    """The information part of a ``gold_nugget_compact`` bucket, as table features."""
    from games.gold_nugget.abstraction import gold_nugget_compact
    b = gold_nugget_compact(player, state.engine)
    out = dict.fromkeys(_GN_ABSTRACT_KEYS, "")
    out["decision"] = b[0]
    if b[0] == "Raven: grab":
        out.update(nugget=b[1], my_unknown=b[2], their_unknown=b[3])
    elif len(b) == 5:            # a stone choice inside an effect
        out.update(decision=f"{b[0]} ({b[1]})", nugget=b[2], my_unknown=b[3],
                   their_unknown=b[4])
    elif len(b) == 7:            # Go to sleep!, Meddling, instant reactions, Raven's cards
        out.update(last_day=b[1], nugget=b[2], my_unknown=b[3], their_unknown=b[4],
                   my_feathers=b[5], their_feathers_2=b[6])
    return out


GOLD_NUGGET_ABSTRACT_DOC = {
    "decision": "what is decided: the phase (Go to sleep!, Meddling, instant reactions, "
                "Raven: face-down cards, Raven: grab), or a stone choice inside an effect "
                "with its card; the other decisions (choose animal, examine, suspicion, place, "
                "Hello! discard, hand limit) play the heuristic's move and show only their "
                "name; forced = one legal move",
    "last_day": "whether it is the last day before the Raven arrives",
    "nugget": "where you have seen the Gold Nugget: mine (your lair), theirs, nest, ? (not seen)",
    "my_unknown": "whether your lair holds a stone you have not seen",
    "their_unknown": "stones of the other lair you have not seen (capped at 2)",
    "my_feathers": "your black feathers (capped at 2)",
    "their_feathers_2": "whether the other animal holds two black feathers or more",
}

GOLD_NUGGET_TABLE = TableSpec(
    name="gold_nugget",
    load=lambda preset: load_preset("gold_nugget", preset),
    presets=("mini", "default"),
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
    notes=(mini_description("gold_nugget") + "; 2.3 million tree nodes, solved by exact CFR+ "
           "on the compiled tree (NashConv below 1e-3 after 100 iterations); the table's "
           "reach is estimated from sampled games."),
    extra={
        # The default preset (2 players) does not compile: it is solved by MCCFR over an
        # information + action abstraction (the spec's, in games/gold_nugget/abstraction.py;
        # docs/solvers_cfr.md "Gold Nugget over an abstraction").  The mini preset keeps
        # its exact CFR+ solve (its tree compiles, so these keys are not used there).
        "by_preset": {"default": {"params": {"players": 2}}},   # the rulebook default is 4
        "abstraction": "gold_nugget_compact",
        "action_abstraction": "gold_nugget_actions",
        "fixed_opponents": "heuristic",
        "extraction": "greedy",          # hand out MCCFRSolver.greedy_policy() in response mode
        "fallback": "default",           # an unseen bucket plays the heuristic's move
        "response_scheme": "outcome",
        "response_iterations": 150_000,
        "self-play_scheme": "outcome",
        "self-play_iterations": 100_000,
        # The sampled average loses to the heuristic (-0.017 ± 0.010), its modal
        # actions win (+0.021 ± 0.010; docs/results.md): hand those out.
        "self-play_extraction": "purified",
        # --br-deals: no lookahead, the game is long (docs/ai.md, lower bounds by play)
        "br_responder": {"lookahead": 0},
        "abstract_features": gold_nugget_abstract_features,
        "abstract_feature_doc": GOLD_NUGGET_ABSTRACT_DOC,
        "abstract_notes": (
            "Gold Nugget, default rules at 2 players (2 days, 10 normal and 2 trap stones and "
            "the nugget, abilities on, basic mode). Solved by outcome-sampling MCCFR over an "
            "abstraction: by default (`--mccfr-mode response`) with the other seat playing the "
            "heuristic bot, so the table is a response to heuristic play within the "
            "abstraction, not an equilibrium (`--mccfr-mode self-play`: in self-play). In "
            "response mode the policy is the greedy one (per bucket the abstract action with "
            "the highest cumulative regret); a bucket never visited plays the heuristic's move "
            "(fallback `default`). A row is a bucket (the features below plus which abstract "
            "actions exist there) and its actions are abstract: heuristic (the heuristic bot's "
            "move; the only one when choosing an animal, examining, answering a Suspicion, "
            "placing a stone or discarding), pass (end, no instant, keep cards, no face-down card), steal (No hard feelings, "
            "Chance, Sleight of paw, Accuse, the Fox), look (the Owl, Peek, Glance, Shout, "
            "Suspicion), gather (the Magpie or Mole, Nest dive, recycling), preen, feather "
            "(Pluck, the Badger), sleep, meddle, theirs / mine (an unseen stone of the other "
            "lair / of mine), nest, other (the move the "
            "heuristic does not make in a two-way choice). An abstract action that names the "
            "same move as an earlier one is absent. Reach is estimated from sampled games."),
    })
