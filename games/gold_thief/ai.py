"""Gold Thief's rule-based heuristic bot: what a sensible casual player does.

The heuristic looks only at what its player may know (its own hand and
goals, the public view, cards it saw through Witch steals); the game's spec
(``games/gold_thief/__init__.py``) refers to it.  The other games' heuristics have
their own modules, each referred to by its game's spec.

Gold Thief (``gold_thief``), in order of priority:

* score: always take a Ninja score or a goal flip when offered;
* defend: cancel (Guard) a theft or raid on me unless losing the gold brings
  me nearer one of my goal numbers; Faerie-cancel a Witch on me or a Guard
  that cancels my own theft;
* react: raid a thief (Thief) or add a Witch to my own theft when the gold
  does not take me further from my nearest goal number;
* own turn: Ninja first (more cards); Thief on the *leader* (most goals face
  up, then most gold; their goals are secret, so this is "the player
  nearest a goal") when +2 gold does not take me further from my goal or the
  leader is one goal from winning; a Guard gift when I am above my number
  and keep another Guard (a Thief is always likely); Witch on the leader
  when I have no Thief to play; Faerie away a goal 4+ gold from my purse;
  otherwise end the turn;
* Witch victim: give away the card I value least (Faerie, Witch, Thief,
  Ninja, Guard).

The rules' one implementation is compiled against the engine:
``src_cy/gold_thief/heuristic.pyx`` (``choose(engine, player)``, the bot's
``engine_rule``), so MCCFR's fixed heuristic opponents and the abstraction's
``heuristic`` action run at C speed.
"""
from __future__ import annotations

import pyspiel

from games.interfaces import RuleBot
from src_cy.gold_thief.heuristic import choose as heuristic_choose


class GoldThiefHeuristicBot(RuleBot):
    """The casual-player rules above; deterministic (``seed`` is accepted)."""

    GAME = "gold_thief"
    engine_rule = staticmethod(heuristic_choose)

    def choose(self, state: pyspiel.State, me: int, legal: list[int]) -> int:
        return heuristic_choose(state.engine, me)
