"""Gold Nugget's MCCFR abstractions (``docs/solvers_cfr.md``, "Gold Nugget over an abstraction").

The Gold Nugget spec (``games.gold_nugget``, ``GameSpec.abstraction``) hands
these to the solvers by name (:data:`ABSTRACTIONS`):

- ``gold_nugget_actions`` (:class:`GoldNuggetActions`): 12 abstract actions
  (the heuristic's move, card-play families, sleep or meddle, stone targets),
  offered at the decisions in :data:`LEARNED`; elsewhere only the heuristic's
  move;
- ``gold_nugget_compact``: the compact information bucket used with them.

Both read only the deciding player's view (``engine.player_view``), never a
belief (the resampler is slow): the nugget counts as *located* only where the
player has seen it, as for the heuristic bot.
"""
from __future__ import annotations

from typing import Any, Sequence

import pyspiel

import games.gold_nugget.ai as ai
from games.gold_nugget.ai import (A_ABILITY, A_DISCARD, A_MEDDLE, A_NEST, A_PASS, A_PLAY, A_RECYCLE, A_SLEEP, A_STONE, MAX_STONES)
from games.interfaces import ActionAbstraction, GameAbstractions

# Card families of the abstract plays, in the order tried.
_STEAL_CARDS = (ai.NO_HARD_FEELINGS, ai.CHANCE, ai.SLEIGHT, ai.ACCUSE)
_LOOK_CARDS = (ai.PEEK, ai.GLANCE, ai.DO_I_HAVE_IT, ai.SHOUT, ai.SUSPICION, ai.GOLD_NUGGET)
_FEATHER_CARDS = (ai.PLUCK,)
_GATHER_CARDS = (ai.NEST_DIVE,)
_PLAY_PHASES = ("Meddling", "instant reactions", "Raven: face-down cards")
_STONE_DECISIONS = ("choose its stone", "steal from anywhere", "choose a lair stone",
                    "choose your stone")
#: The decisions (phase, or decision inside an effect) with abstract actions
#: besides ``heuristic``.  At the others (choosing an animal, examining an
#: acquired stone, answering a Suspicion, placing a stone, discarding) a
#: response solve's greedy choice lost to the heuristic's move (docs/solvers_cfr.md),
#: so there the abstraction plays the heuristic's move only.
LEARNED = ("Go to sleep!", *_PLAY_PHASES, "Raven: grab", *_STONE_DECISIONS)


def _lair_strings(view: dict) -> list[str]:
    """Each lair as the viewer knows it: ``n``/``t``/``N`` per slot, ``?`` unknown."""
    return ["".join(f[0] if f is not None else "?" for f in lair) for lair in view["lairs"]]


def _nugget(view: dict, me: int, lairs: list[str]) -> str:
    """Where I have seen the nugget: ``mine``, ``theirs``, ``nest`` or ``?``."""
    for q, s in enumerate(lairs):
        if "N" in s:
            return "mine" if q == me else "theirs"
    return "nest" if view["nest_known"][2] else "?"


class GoldNuggetActions(ActionAbstraction):
    """Gold Nugget's abstract actions (table in ``docs/solvers_cfr.md``).

    Each maps to one concrete legal action by a fixed rule reading only the
    deciding player's view, and is absent where the rule finds none (or names
    the move of an earlier abstract action).  ``heuristic`` is the heuristic
    bot's move (``games.gold_nugget.ai``), so a policy over these actions can
    always play exactly like the heuristic.
    """

    name = "gold_nugget_actions"
    action_names = ("heuristic", "pass", "steal", "look", "gather", "preen", "feather",
                    "sleep", "meddle", "theirs", "mine", "nest", "other")
    uses_engine = True

    def __init__(self) -> None:
        self._bots: dict[str, Any] = {}

    def heuristic_bot(self, engine: Any) -> ai.GoldNuggetHeuristicBot:
        """The heuristic bot for the engine's game (one per game string)."""
        bot = self._bots.get(engine.game_string)
        if bot is None:
            bot = ai.GoldNuggetHeuristicBot(pyspiel.load_game(engine.game_string))
            self._bots[engine.game_string] = bot
        return bot

    def candidates(self, player: int, engine: Any, legal: Sequence[int]) -> list[int | None]:
        legal = sorted(legal)
        out: list[int | None] = [None] * len(self.action_names)
        out[0] = self.heuristic_bot(engine).choose_on_engine(engine, player, legal)
        if len(legal) == 1:
            return out
        view = engine.player_view(player)
        phase, decision = view["phase"], view["decision"]
        if (decision or phase) not in LEARNED:
            return out
        ls = set(legal)
        animal = view["animals"][player]

        def first(actions) -> int | None:
            return next((a for a in actions if a in ls), None)

        out[1] = first((A_PASS,))
        if phase in _PLAY_PHASES:
            ability = A_ABILITY in ls
            out[2] = first([A_PLAY + k for k in _STEAL_CARDS]
                           + ([A_ABILITY] if ability and animal == "Fox" else []))
            out[3] = first(([A_ABILITY] if ability and animal == "Owl" else [])
                           + [A_PLAY + k for k in _LOOK_CARDS])
            recycle = sorted((a for a in legal if A_RECYCLE <= a < A_DISCARD),
                             key=lambda a: ai.CARD_VALUE_ORDER.index(a - A_RECYCLE))
            out[4] = first(([A_ABILITY] if ability and animal in ("Magpie", "Mole") else [])
                           + [A_PLAY + k for k in _GATHER_CARDS] + recycle)
            out[5] = first((A_PLAY + ai.PREEN,))
            out[6] = first([A_PLAY + k for k in _FEATHER_CARDS]
                           + ([A_ABILITY] if ability and animal == "Badger" else []))
        out[7] = first((A_SLEEP,))
        out[8] = first((A_MEDDLE,))
        if decision in _STONE_DECISIONS or phase == "Raven: grab":
            lairs = _lair_strings(view)

            def unknown_in(owners) -> int | None:
                best = None
                for a in legal:
                    if a < A_STONE:
                        continue
                    q, i = divmod(a - A_STONE, MAX_STONES)
                    if q in owners and i < len(lairs[q]) and lairs[q][i] == "?":
                        cand = (-lairs[q].count("?"), a)
                        best = cand if best is None or cand < best else best
                return None if best is None else best[1]
            others = [q for q in range(len(lairs)) if q != player]
            out[9] = unknown_in(others)
            out[10] = unknown_in([player])
            out[11] = first((A_NEST,))
        if len(legal) == 2:
            out[12] = next(a for a in legal if a != out[0])
        return out


def _cap(x: int, top: int) -> int:
    return x if x < top else top


def gold_nugget_compact(player: int, engine: Any) -> tuple:
    """Compact Gold Nugget information bucket (for use with ``gold_nugget_actions``).

    A forced move is ``("forced",)``, a decision outside :data:`LEARNED`
    (where only the heuristic's move is offered) just its name.  Otherwise
    the decision (the phase, or the decision inside an effect) and, by
    decision: whether it is the last day, where I have seen the nugget (mine, theirs, nest, ?), whether my lair
    holds a stone I have not seen, how many stones of the others' lairs I have
    not seen (capped at 2), my black feathers (capped at 2) and whether
    another animal holds two or more (feathers count 0 while I sleep).
    Feature sets per decision in ``docs/solvers_cfr.md``.
    """
    if len(engine.py_legal_actions()) == 1:
        return ("forced",)
    view = engine.player_view(player)
    phase, decision = view["phase"], view["decision"]
    if (decision or phase) not in LEARNED:
        return (decision or phase,)
    lairs = _lair_strings(view)
    nugget = _nugget(view, player, lairs)
    mine_unknown = "?" in lairs[player]
    their_unknown = _cap(sum(s.count("?") for q, s in enumerate(lairs) if q != player), 2)
    feathers = view["feathers"] or [0] * len(lairs)
    my_f = _cap(feathers[player], 2)
    their_f2 = max(f for q, f in enumerate(feathers) if q != player) >= 2
    if decision:
        return (decision, view["effect"], nugget, mine_unknown, their_unknown)
    if phase == "Raven: grab":
        return (phase, nugget, mine_unknown, their_unknown)
    return (phase, view["day"] == view["days"] - 1, nugget, mine_unknown, their_unknown, my_f,
            their_f2)


gold_nugget_compact.uses_engine = True

#: What the Gold Nugget spec's ``abstraction`` factory returns.
ABSTRACTIONS = GameAbstractions(
    information={"gold_nugget_compact": gold_nugget_compact},
    actions={"gold_nugget_actions": GoldNuggetActions()})
