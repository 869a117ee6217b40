"""Policy-table entries (decision-situation features) for the goldspiel games.

Each game's spec (``games/<game>.py``) points its ``table`` at one of the
``*_TABLE`` entries below.  A feature set says what a researcher reads off a
row: it must be a function of the deciding player's information only.
"""
from __future__ import annotations

import pyspiel

from games.spec import TableSpec as GameEntry
from games.spec import get_spec

def _load_preset(name: str, preset: str) -> pyspiel.Game:
    """Load game ``name`` with a preset of its spec (``GameSpec.load``: an
    unknown preset raises ``ValueError`` naming the spec's presets); which
    presets a table offers is its entry's ``presets``."""
    return get_spec(name).load(preset)


def _mini(name: str) -> str:
    """``"<Game> `mini` preset (players=2, ...)"``, from the game's spec."""
    params = ", ".join(f"{k}={v}" for k, v in get_spec(name).presets["mini"].items())
    return f"{pyspiel.load_game(name).get_type().long_name} `mini` preset ({params})"


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


#: Gold Thief's ``default`` table preset: the spec's default rules at 2 players (issue 23).
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

GOLD_THIEF_TABLE = GameEntry(
    name="gold_thief",
    load=lambda preset: _load_preset("gold_thief", preset),
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
    notes=(_mini("gold_thief") + ". The bluffing decisions are the response windows: answer a Thief with a Guard "
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
                                  "response_iterations": 1_500,
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

ARDILLAS_TABLE = GameEntry(
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
    presets=("mini", "default"),
    cfr_iterations=300,
    notes=(_mini("ardillas_del_bosque") + ": 3 tokens each (one nut, squirrel, poo), "
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

SABOTEUR_TABLE = GameEntry(
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
    presets=("mini", "default"),
    max_nodes=10_000,
    mccfr_iterations=30_000,
    mccfr_scheme="outcome",
    notes=(_mini("saboteur") + ". Far too big for a tree "
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
            _mini("saboteur") + ". Solved by MCCFR over an "
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
            "response_iterations": 300,
            "probe_continuation": "fixed",
            "probe_epsilon": 0.1,
            "extraction": "confident",
            "self-play_iterations": 8_000,
            # --br-deals: the responder the game's length allows (docs/ai.md)
            "br_responder": {"worlds": 8, "rollouts": 1, "lookahead": 0},
            "abstract_notes": (
                "Saboteur `default` preset (5 players, the full three rounds, the rulebook's "
                "deck and maze). Solved by probing MCCFR over the same abstraction as "
                "the mini table, by default (`--mccfr-mode response`) with the four other "
                "seats playing the heuristic bot, so the table is a response to heuristic "
                "play within the abstraction, not an equilibrium. Each probe values an "
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

GOLD_NUGGET_TABLE = GameEntry(
    name="gold_nugget",
    load=lambda preset: _load_preset("gold_nugget", preset),
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
    notes=(_mini("gold_nugget") + "; 2.3 million tree nodes, solved by exact CFR+ "
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
