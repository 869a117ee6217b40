"""A best-response search against a fixed bot: a lower bound on its exploitability.

:class:`ResponderBot` knows the opponents' policy (it asks the fixed bot for
its move distribution, once per information set, memoized).  At its own
decision it draws ``worlds`` worlds from its information set with the
game's resampler (chance-weighted, ``resample_from_infostate``) and weights
each by the probability the bot's policy gives to the bot's actions in that
world's history: the posterior that the bot's policy implies.  Each legal
action is valued by the weighted mean of ``rollouts`` playouts per world in
which the bot samples its own move distribution, chance its outcomes and the
responder takes, at its next ``lookahead`` decisions, the best action for
that world (knowing the world inside a playout only affects its estimates,
never the bound), then plays uniformly at random.  If the bot's policy rules
out every drawn world, the worlds count by chance alone; the responder never
looks at the true state, which could let it beat a best response.  It plays
the action of highest value.  On a goldspiel engine, when the bot (or its
stand-in) is uniform random or a rule heuristic, all of this runs on
engines (:meth:`ResponderBot.engine_path`).  An optional ``playout_model``
stands in for the bot in the weights and inside the playouts (e.g. the heuristic for a search bot whose
every answer costs tens of milliseconds): the responder's estimates get
worse, never the bound, since the real game is still played against the bot.

Whatever the responder plays, its return against the bot is at most a best
response's, so the mean over seats of the responder's gain over the bot's
own return in that seat (what the bot gets when it plays every seat) is a
lower bound on NashConv / N, the mean gain of a best response per seat: the
bot's exploitability in a 2-player constant-sum game (where the bot's own
returns sum to the utility sum, so no self-play game is needed), and the
per-seat NashConv in any other game (e.g. Saboteur at 4 players):

* :func:`exact_lower_bound`: on compiled trees, the responder's policy is
  tabulated (``bot_policy_array``) and valued exactly against the bot's, so
  the bound is exact (up to the responder's own seeds) and never above the
  exact exploitability;
* :func:`lower_bound`: on any game, by play (paired deals: deal d is played
  with the responder in each seat), with a 95% normal interval over deals.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np
import pyspiel

from games.interfaces import Bot, Policy, RuleBot, resample_by
from solvers.bots import RandomBot
from solvers.exploitability import bot_policy_array
from src_cy.rng import SplitMix64, derive_seed, sample_sorted


class OpponentModel:
    """The fixed bot's move distribution per (player, information state), memoized."""

    def __init__(self, bot: pyspiel.Bot | None, table: Any = None, policy: Any = None):
        if bot is None and table is None and policy is None:
            raise ValueError("give a bot, a (tree, probs) table or a policy")
        if bot is not None and not isinstance(bot, pyspiel.Bot):
            raise TypeError(f"bot must be a pyspiel.Bot, got {type(bot).__name__}")
        if policy is not None and not callable(getattr(policy, "action_probabilities", None)):
            raise TypeError("policy must have action_probabilities(state) (an OpenSpiel "
                            f"policy), got {type(policy).__name__}")
        self.bot = bot
        self.table_policy = policy
        self._memo: dict[tuple[int, str], dict[int, float]] = {}
        if table is not None:   # the bot's tabulated answers (bot_policy_array)
            tree, probs = table
            for i, text in enumerate(tree.infoset_strings):
                o, n = int(tree.infoset_offset[i]), int(tree.infoset_num_actions[i])
                self._memo[(int(tree.infoset_player[i]), text)] = {
                    int(a): float(q) for a, q in zip(tree.infoset_actions[o:o + n],
                                                     probs[o:o + n]) if q > 0}

    def policy(self, state: pyspiel.State) -> dict[int, float]:
        """{action: probability} of the bot at ``state``."""
        p = state.current_player()
        key = (p, state.information_state_string(p))
        probs = self._memo.get(key)
        if probs is None:
            if self.table_policy is not None:
                probs = {int(a): float(q) for a, q in
                         self.table_policy.action_probabilities(state).items() if q > 0}
                self._memo[key] = probs
                return probs
            if self.bot is None:
                raise KeyError(f"no tabulated policy at {key}")
            if self.bot.provides_policy():
                pol, _ = self.bot.step_with_policy(state.clone())
                probs = {int(a): float(q) for a, q in pol if q > 0}
            else:
                probs = {int(self.bot.step(state.clone())): 1.0}
            self._memo[key] = probs
        return probs

    @property
    def queries(self) -> int:
        return len(self._memo)


def _engine_rule(model: OpponentModel) -> Any:
    """How the engine path asks ``model``'s bot: None (uniform random), a
    ``RuleBot`` (``choose_on_engine``), or False (it cannot: a table, a
    search bot; the pyspiel path is used)."""
    if isinstance(model.bot, RandomBot):
        return None
    if isinstance(model.bot, RuleBot):
        return model.bot
    return False


def _as_model(bot: "pyspiel.Bot | OpponentModel") -> OpponentModel:
    return bot if isinstance(bot, OpponentModel) else OpponentModel(bot)


def _applied(world: Any, action: int, engine: bool) -> Any:
    """``world`` (a clone) after ``action``."""
    if engine:
        world.py_apply(action)
    else:
        world.apply_action(action)
    return world


class ResponderBot(Bot):
    """Best-response search against ``opponent`` (see the module doc)."""

    def __init__(self, game: pyspiel.Game, opponent: "pyspiel.Bot | OpponentModel",
                 seed: int | None = 0, worlds: int = 16, rollouts: int = 4,
                 lookahead: int = 1,
                 playout_model: "pyspiel.Bot | OpponentModel | None" = None,
                 move_budget: float | None = None, budget_clock: str = "cpu",
                 use_engine: bool = True):
        Bot.__init__(self, game, seed, move_budget, budget_clock)
        if worlds < 1 or rollouts < 1:
            raise ValueError(f"worlds and rollouts must be >= 1, got {worlds}, {rollouts}")
        self.model = _as_model(opponent)
        # the bot as seen inside the search: its weights and its playout moves
        self.search_model = self.model if playout_model is None else _as_model(playout_model)
        if lookahead < 0:
            raise ValueError(f"lookahead must be >= 0, got {lookahead}")
        self.worlds, self.rollouts, self.lookahead = int(worlds), int(rollouts), int(lookahead)
        if not isinstance(use_engine, bool):
            raise ValueError(f"use_engine must be true or false, got {use_engine!r}")
        self.use_engine = use_engine
        self._engine_rule = _engine_rule(self.search_model)

    def _weight(self, world: pyspiel.State, me: int) -> float:
        """Probability of the bot's actions in ``world``'s history under its policy."""
        s = self.game.new_initial_state()
        w = 1.0
        for a in world.history():
            if not s.is_chance_node() and s.current_player() != me:
                w *= self.search_model.policy(s).get(a, 0.0)
                if w == 0.0:
                    return 0.0
            s.apply_action(a)
        return w

    def _playout(self, s: pyspiel.State, me: int, rng: SplitMix64, lookahead: int) -> float:
        """One playout's return for ``me``; at its next ``lookahead`` decisions
        ``me`` takes the best action for this world (a maximum over one
        playout per action), later ones at random."""
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(sample_sorted(sorted(s.chance_outcomes()), rng))
            elif s.current_player() != me:
                s.apply_action(sample_sorted(sorted(self.search_model.policy(s).items()), rng))
            elif lookahead > 0:
                best = -math.inf
                for a in sorted(s.legal_actions()):
                    child = s.clone()
                    child.apply_action(a)
                    best = max(best, self._playout(child, me, rng, lookahead - 1))
                return best
            else:
                s.apply_action(rng.choice(s.legal_actions()))
        return s.returns()[me]

    def action_values(self, state: pyspiel.State) -> dict[int, float]:
        """Posterior-weighted playout value of each legal action (with a
        ``move_budget``: of the actions that got a playout before the
        deadline, which stops the world draws and the playouts)."""
        me = state.current_player()
        legal = self.legal_at_decision(state)
        rng = SplitMix64(self._rng.next())
        deadline = self.move_deadline()
        engine = self.engine_path(state)
        if engine is not None:
            draw = lambda: resample_by(engine, me, rng.next(), deadline)  # noqa: E731
            weight = self._engine_weight
            play = lambda world, a: self._engine_playout(  # noqa: E731
                _applied(world.py_clone(), a, True), me, rng, self.lookahead)
        else:
            draw = lambda: state.resample_from_infostate(  # noqa: E731
                me, pyspiel.UniformProbabilitySampler(int(rng.randint(2**31)), 0.0, 1.0))
            weight = self._weight
            play = lambda world, a: self._playout(  # noqa: E731
                _applied(world.clone(), a, False), me, rng, self.lookahead)
        drawn, worlds, weights = [], [], []
        for _ in range(self.worlds):
            if deadline is not None and deadline.passed():
                break
            world = draw()
            if world is None:       # the resampler reached the deadline
                break
            drawn.append(world)
            w = weight(world, me)
            if w > 0:
                worlds.append(world)
                weights.append(w)
        if not worlds:
            # The bot's policy rules out every drawn world (a deterministic bot
            # often does): weigh them by chance alone.  Never the true state:
            # a responder that saw it could beat a best response, and the
            # bound by play would no longer be a lower bound.
            worlds, weights = drawn, [1.0] * len(drawn)
        if not worlds:      # the budget ran out before the first world
            return {a: 0.0 for a in legal}
        values: dict[int, float] = {}
        for a in legal:
            total = count = 0.0
            for world, w in zip(worlds, weights):
                for _ in range(self.rollouts):
                    if (deadline is not None and (count or values)
                            and deadline.passed()):
                        break       # out of time: value what has a playout
                    total += w * play(world, a)
                    count += w
            if not count:
                break
            values[a] = total / count
        return values

    # ------------------------------------------------------------------
    # The engine path: the same search on the game's engine (no pyspiel
    # state per step), when the stand-in for the bot can answer on an
    # engine: uniform random, or a rule heuristic (``RuleBot.choose_on_engine``).
    # ------------------------------------------------------------------
    def engine_path(self, state: pyspiel.State) -> Any:
        """``state``'s engine when the search can run on it, else None."""
        engine = getattr(state, "engine", None)
        if engine is None or not self.use_engine or self._engine_rule is False:
            return None
        return engine

    def _engine_probs(self, e: Any, p: int) -> dict[int, float]:
        """The stand-in's move distribution at engine ``e`` (player ``p`` to move)."""
        legal = e.py_legal_actions()
        if self._engine_rule is None:
            return {a: 1.0 / len(legal) for a in legal}
        return {self._engine_rule.choose_on_engine(e, p, legal): 1.0}

    def _engine_weight(self, world: Any, me: int) -> float:
        """:meth:`_weight` on an engine world."""
        e = self.game.make_engine()
        w = 1.0
        for a in world.py_history():
            p = e.py_current_player()
            if p >= 0 and p != me:
                w *= self._engine_probs(e, p).get(a, 0.0)
                if w == 0.0:
                    return 0.0
            e.py_apply(a)
        return w

    def _engine_playout(self, e: Any, me: int, rng: SplitMix64, lookahead: int) -> float:
        """:meth:`_playout` on an engine."""
        while not e.py_is_terminal():
            p = e.py_current_player()
            if p < 0:
                e.py_apply(sample_sorted(e.py_chance_outcomes(), rng))
            elif p != me:
                e.py_apply(sample_sorted(sorted(self._engine_probs(e, p).items()), rng))
            elif lookahead > 0:
                best = -math.inf
                for a in e.py_legal_actions():
                    best = max(best, self._engine_playout(_applied(e.py_clone(), a, True),
                                                          me, rng, lookahead - 1))
                return best
            else:
                e.py_apply(rng.choice(e.py_legal_actions()))
        return e.py_returns()[me]

    def step_with_policy(self, state: pyspiel.State) -> tuple[Policy, int]:
        values = self.action_values(state)
        best = max(values, key=lambda a: (values[a], -a))
        return [(a, 1.0 if a == best else 0.0) for a in sorted(state.legal_actions())], best


def exact_lower_bound(game: pyspiel.Game, bot: pyspiel.Bot, seed: int = 0,
                      progress: bool = False, **responder: Any) -> tuple[float, float]:
    """(lower bound, exact value) of NashConv / N of ``bot`` on a game whose
    tree compiles (2-player constant-sum: its exploitability).

    The bot and one :class:`ResponderBot` per seat are tabulated once per
    information set; the bound is the exact value of the responders against
    the bot's table, so it never exceeds the exact value.
    """
    from src_cy import cfr_core
    n = game.num_players()
    tree, bot_probs, _, _ = bot_policy_array(game, bot, progress=progress)
    # the table answers; a bot that can answer on an engine also drives the
    # responder's engine path (the same answers: a rule, or uniform)
    model = OpponentModel(bot, table=(tree, bot_probs))
    own = np.asarray(cfr_core.Evaluator(tree, bot_probs).policy_values(), dtype=float)
    gains, br_gains = [], []
    for seat in range(n):
        resp = ResponderBot(game, model, seed=derive_seed(seed, seat), **responder)
        _, rp, _, _ = bot_policy_array(game, resp, players=[seat], progress=progress)
        mine = np.repeat(tree.infoset_player == seat, tree.infoset_num_actions)
        ev = cfr_core.Evaluator(tree, np.where(mine, rp, bot_probs))
        gains.append(float(np.asarray(ev.policy_values())[seat]) - own[seat])
        br_gains.append(float(cfr_core.Evaluator(tree, bot_probs).best_response(seat)[0])
                        - own[seat])
    return sum(gains) / n, sum(br_gains) / n


def lower_bound(game: pyspiel.Game, bot_factory, deals: int = 20, seed: int = 0,
                playout_factory=None, **responder: Any) -> tuple[float, float]:
    """(estimated lower bound, 95% half-width over deals) on NashConv / N of
    the bot ``bot_factory(seed)`` by play (2-player constant-sum: its
    exploitability).  ``bot_factory`` may also return an OpenSpiel policy
    (``action_probabilities(state)``, e.g. a solved table's
    ``AbstractedPolicy``): its seats then sample that policy.

    Deal d is played once per seat with a :class:`ResponderBot` there; chance
    and the seeds come from the stream of ``(seed, d)``.  Outside 2-player
    constant-sum games the deal is also played with the bot in every seat,
    and seat i's gain is the responder's return there minus the bot's.  The bot's seats play
    the responder's model of it (its answer the first time it is asked at an
    information set, sampled), so the responder answers the policy that is
    played even for bots whose answers change between calls (ISMCTS draws a
    search seed per move).  ``playout_factory(seed)``, if given, builds the
    responder's ``playout_model`` (a cheaper stand-in for the bot inside its
    search, e.g. the heuristic; the deals are still played against the bot).
    """
    if deals < 2:
        raise ValueError(f"deals must be >= 2, got {deals}")
    n = game.num_players()
    utility = game.get_type().utility
    constant_sum_2p = n == 2 and utility in (pyspiel.GameType.Utility.ZERO_SUM,
                                             pyspiel.GameType.Utility.CONSTANT_SUM)
    per_deal = np.zeros(deals)
    for d in range(deals):
        # seat n: the bot in every seat (its own returns), outside 2p constant-sum
        for seat in range(n if constant_sum_2p else n + 1):
            rng = SplitMix64(derive_seed(seed, d))
            made = bot_factory(rng.next())
            model = (OpponentModel(made) if isinstance(made, pyspiel.Bot)
                     else OpponentModel(None, policy=made))
            stand_in = None if playout_factory is None else playout_factory(rng.next())
            resp = ResponderBot(game, model, seed=rng.next(), playout_model=stand_in,
                                **responder)
            s = game.new_initial_state()
            while not s.is_terminal():
                if s.is_chance_node():
                    s.apply_action(sample_sorted(sorted(s.chance_outcomes()), rng))
                elif s.current_player() == seat:
                    s.apply_action(resp.step(s))
                else:
                    s.apply_action(sample_sorted(sorted(model.policy(s).items()), rng))
            if seat < n:
                per_deal[d] += s.returns()[seat] / n
            else:
                per_deal[d] -= sum(s.returns()) / n
    if constant_sum_2p:
        per_deal -= game.utility_sum() / 2
    return float(per_deal.mean()), float(1.96 * per_deal.std(ddof=1) / math.sqrt(deals))
