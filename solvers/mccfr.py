"""Monte Carlo CFR (external and outcome sampling) for games too big to compile.

``MCCFRSolver(game, scheme="external" | "outcome")`` runs on the game's rules
engine in Cython when one exists (goldspiel games, OpenSpiel's kuhn_poker and
leduc_poker), with tables keyed by the engine's information keys; any other
pyspiel game runs through a Python path over pyspiel states (same rules, same
table format, slower).  An optional ``abstraction(player, info_string)``
maps information states to buckets that share one regret/strategy row; an
optional ``action_abstraction`` (``solvers.abstractions.ActionAbstraction``,
or its name: the game's own from its spec, or a registered one) replaces the legal actions by abstract ones, so a row
is (information bucket, available abstract actions) and
``average_policy()`` is an ``AbstractedPolicy`` playing concrete actions.
``fixed_opponents`` (a name, e.g. ``"heuristic"``, or ``callable(player, x)
-> action`` with x the engine on the fast path, the pyspiel state on the
Python path) makes every player but the traverser follow that fixed,
deterministic policy: the tables then hold a response to it (converging to a
best response within the abstraction) rather than an equilibrium.

Variants (``weighting``, ``prune``; measured per CPU second in
``experiments/bench/bench_mccfr_variants.py``, docs/benchmarks.md):
``weighting="linear"`` is linear MCCFR as Pluribus runs it (Brown and
Sandholm, "Solving imperfect-information games via discounted regret
minimization", AAAI 2019; "Superhuman AI for multiplayer poker", 2019): after
every ``interval`` iterations (the n-th interval) regrets and average sums
are multiplied by n / (n + 1), which weighs iteration t about like t.
``weighting="discounted"`` is DCFR(1.5, 0, 2) at the same granularity:
positive regrets x n^1.5 / (n^1.5 + 1), negative ones x 1/2, average sums x
(n / (n + 1))^2.  ``prune=(threshold, probability, after)`` is regret-based
pruning in external sampling: past ``after`` iterations, an iteration drawn
with ``probability`` skips the traverser's actions whose regret is below
``threshold`` (and does not update them); the other iterations traverse
everything, so a pruned action can recover.
``scheme="probe"`` (engine path, fixed opponents only) is probing MCCFR
(Gibson et al., AAAI 2012): one sampled trajectory per traversal, every
action of the traverser's rows valued by a probe played to the end with
common random numbers, no importance weights; with a ``probe_baseline``
action (over an action abstraction: ``heuristic``) it keeps per-row visit
counts and squared differences for :meth:`MCCFRSolver.confident_policy`.
"""
from __future__ import annotations

import math

import os
from typing import Any, Callable

import numpy as np
import pyspiel

from solvers import policy_io
from solvers.abstractions import bucket_label
from solvers.policy_arrays import ArrayPolicy
from games.spec import game_engine
from solvers.tree import CompiledTree
from src_cy import mccfr as mccfr_core
from src_cy.rng import SplitMix64

SCHEMES = ("external", "outcome", "probe")
WEIGHTINGS = ("uniform", "linear", "discounted")
PROBE_CONTINUATIONS = ("current", "fixed")
#: The confident extraction's rule (``MCCFRSolver.confident_policy``): one-sided z
#: of the lower confidence bound, and the fewest probed visits a row needs.
CONFIDENT_Z = 2.33
CONFIDENT_MIN_VISITS = 30
Abstraction = Callable[[int, str], Any]


def one_hot_rows(values: np.ndarray, nact: np.ndarray) -> np.ndarray:
    """Per row (consecutive blocks of ``nact`` entries of ``values``): 1.0 at the
    first maximum, 0.0 elsewhere."""
    out = np.zeros(len(values))
    pos = 0
    for n in np.asarray(nact).tolist():
        out[pos + int(np.argmax(values[pos:pos + n]))] = 1.0
        pos += n
    return out


def confident_rows(regret: np.ndarray, nact: np.ndarray, acts: np.ndarray, stats: dict,
                   baseline: int, z: float, min_visits: int) -> np.ndarray:
    """One-hot rows of the confident extraction (``MCCFRSolver.confident_policy``)
    from a probe solve's tables: ``regret`` (so ``R[a] - R[h]`` is the summed
    difference to the baseline ``h``), ``stats["visits"]`` per row and
    ``stats["sqdiff"]`` per row action."""
    out = one_hot_rows(regret, nact)
    visits, sq = stats["visits"], stats["sqdiff"]
    pos = 0
    for s, n in enumerate(np.asarray(nact).tolist()):
        row = slice(pos, pos + n)
        hit = np.flatnonzero(np.asarray(acts[row]) == baseline)
        pos += n
        if not len(hit):
            continue                       # no baseline here: the greedy action
        b = int(hit[0])
        choice = b
        m = visits[s]
        if m >= min_visits:
            mean = (regret[row] - regret[row][b]) / m
            var = np.maximum(sq[row] / m - mean * mean, 0.0) * m / (m - 1)
            lower = mean - z * np.sqrt(var / m)
            ok = np.flatnonzero(lower > 0)
            if len(ok):
                choice = int(ok[np.argmax(mean[ok])])
        out[row] = 0.0
        out[row.start + choice] = 1.0
    return out


def _seq_sum(values) -> float:
    """Left-to-right float sum (the C kernel's order, so both paths round alike)."""
    tot = 0.0
    for x in values:
        tot += float(x)
    return tot


class _PyTables:
    """Python-path tables: label -> [player, actions, regret, avg].

    Every draw comes from ``SplitMix64`` in the order the Cython kernel draws
    from the same generator, and sums run left to right as there, so on a
    game with an engine (kuhn, leduc) both paths give identical tables for
    the same seed (``tests/test_mccfr.py`` checks it).
    """

    def __init__(self, game: pyspiel.Game, seed: int, abstraction: Abstraction | None,
                 epsilon: float, action_abstraction: Any = None, fixed_opponents: Any = None):
        self.game, self.abstraction, self.epsilon = game, abstraction, epsilon
        self.action_abstraction = action_abstraction
        self.fixed_opponents = fixed_opponents
        self.rng = SplitMix64(int(seed) & 0xFFFFFFFFFFFFFFFF)
        self.rows: dict[str, list] = {}
        self.iteration = 0
        self.P = game.num_players()

    def _row(self, state: pyspiel.State, p: int) -> tuple[list, list]:
        """(table row, the concrete action of each of the row's actions)."""
        if self.action_abstraction is not None:
            from solvers.abstractions import abstract_row
            label, ids, concrete = abstract_row(
                p, None, state.information_state_string(p), state.legal_actions(),
                self.abstraction, self.action_abstraction)
            row = self.rows.get(label)
            if row is None:
                row = [p, ids, np.zeros(len(ids)), np.zeros(len(ids))]
                self.rows[label] = row
            return row, concrete
        info = state.information_state_string(p)
        label = info if self.abstraction is None else bucket_label(p, self.abstraction, info)
        row = self.rows.get(label)
        legal = state.legal_actions()
        if row is None:
            row = [p, legal, np.zeros(len(legal)), np.zeros(len(legal))]
            self.rows[label] = row
        elif len(row[1]) != len(legal):
            raise ValueError(f"abstraction bucket {label!r} mixes information states with "
                             f"{len(row[1])} and {len(legal)} legal actions")
        return row, row[1]

    @staticmethod
    def _match(regret: np.ndarray) -> np.ndarray:
        pos = np.maximum(regret, 0.0)
        tot = _seq_sum(pos)
        return pos / tot if tot > 0 else np.full(len(regret), 1.0 / len(regret))

    def _sample(self, probs) -> int:
        u, acc = self.rng.random(), 0.0
        for k in range(len(probs) - 1):
            acc += probs[k]
            if u < acc:
                return k
        return len(probs) - 1

    def _chance(self, state: pyspiel.State) -> None:
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[self._sample([p for _, p in outcomes])][0])

    def external(self, state: pyspiel.State, p: int, reach: float = 1.0) -> float:
        self._chance(state)
        if state.is_terminal():
            return state.returns()[p]
        cur = state.current_player()
        if cur != p and self.fixed_opponents is not None:
            state.apply_action(self.fixed_opponents(cur, state))
            return self.external(state, p, reach)
        row, concrete = self._row(state, cur)
        sigma = self._match(row[2])
        if cur != p:
            row[3] += sigma
            state.apply_action(concrete[self._sample(sigma)])
            return self.external(state, p, reach)
        vals = np.array([self.external(state.child(a), p, reach * sigma[k])
                         for k, a in enumerate(concrete)])
        v = _seq_sum(sigma * vals)
        if self.fixed_opponents is not None:
            row[3] += reach * sigma
        row[2] += vals - v
        return v

    def outcome(self, state: pyspiel.State, p: int, my: float, opp: float, samp: float) -> float:
        """One outcome-sampling episode; the reaches ``my``, ``opp`` and
        ``samp`` are natural logarithms (their products underflow on long
        games; the ratios the updates use do not), as in ``src_cy/mccfr.pyx``."""
        self._chance(state)
        if state.is_terminal():
            return state.returns()[p]
        cur = state.current_player()
        if cur != p and self.fixed_opponents is not None:
            state.apply_action(self.fixed_opponents(cur, state))
            return self.outcome(state, p, my, opp, samp)
        row, concrete = self._row(state, cur)
        sigma = self._match(row[2])
        n = len(sigma)
        rho = self.epsilon / n + (1.0 - self.epsilon) * sigma if cur == p else sigma
        a = self._sample(rho)
        state.apply_action(concrete[a])
        if cur == p:
            child = self.outcome(state, p, my + _log(sigma[a]), opp, samp + _log(rho[a]))
        else:
            child = self.outcome(state, p, my, opp + _log(sigma[a]), samp + _log(rho[a]))
        value = sigma[a] * child / rho[a]
        if cur == p:
            est = np.zeros(n)
            est[a] = child / rho[a]
            row[2] += math.exp(opp - samp) * (est - value)
            row[3] += math.exp(my - samp) * sigma
        return value

    def iterate(self, scheme: str, n: int) -> None:
        for _ in range(n):
            self.iteration += 1
            for p in range(self.P):
                root = self.game.new_initial_state()
                if scheme == "external":
                    self.external(root, p)
                else:
                    self.outcome(root, p, 0.0, 0.0, 0.0)

    def average_policy(self) -> dict:
        out = {}
        for label, (p, acts, _, avg) in self.rows.items():
            tot = _seq_sum(avg)
            probs = avg / tot if tot > 0 else np.full(len(acts), 1.0 / len(acts))
            out[label] = (p, list(acts), probs.tolist())
        return out


class MCCFRSolver:
    """External- or outcome-sampling MCCFR on an engine (fast) or a pyspiel game.

    ``keep_strings=False`` (engine backend, no abstraction) keeps no
    information strings: rows are found by the engine's information keys
    only, which saves memory and checkpoint size on large games;
    ``average_policy_table()`` (keyed by strings) is then unavailable, while
    ``average_policy()`` works as always.
    """

    def __init__(self, game: pyspiel.Game | Any, scheme: str = "external", seed: int = 0,
                 abstraction: Abstraction | str | None = None, epsilon: float = 0.6,
                 use_engine: bool = True, keep_strings: bool = True,
                 action_abstraction: Any = None, fixed_opponents: Any = None,
                 weighting: str = "uniform", interval: int = 1000,
                 prune: tuple[float, float, int] | None = None,
                 probe_epsilon: float = 0.1, probe_prob: float = 1.0,
                 probe_continuation: str = "current", probe_baseline: int | None = None):
        if scheme not in SCHEMES:
            raise ValueError(f"scheme must be one of {SCHEMES}, got {scheme!r}")
        if weighting not in WEIGHTINGS:
            raise ValueError(f"weighting must be one of {WEIGHTINGS}, got {weighting!r}")
        if isinstance(interval, bool) or not isinstance(interval, int) or interval < 1:
            raise ValueError(f"interval must be an int >= 1, got {interval!r}")
        if prune is not None:
            if scheme != "external":
                raise ValueError("prune works with scheme='external' only")
            if (len(prune) != 3 or not prune[0] < 0 or not 0.0 < prune[1] < 1.0
                    or int(prune[2]) < 0):
                raise ValueError("prune must be (threshold < 0, probability in (0, 1), "
                                 f"after >= 0 iterations), got {prune!r}")
        if scheme == "probe" and weighting != "uniform":
            raise ValueError("scheme 'probe' takes weighting='uniform' only (its visit counts "
                             "and squared differences are not discounted)")
        self.weighting, self.interval = weighting, interval
        self.prune = None if prune is None else (float(prune[0]), float(prune[1]),
                                                 int(prune[2]))
        if not 0.0 < epsilon <= 1.0:
            raise ValueError(f"epsilon must be in (0, 1], got {epsilon}")
        if not 0.0 <= probe_epsilon <= 1.0:
            raise ValueError(f"probe_epsilon must be in [0, 1], got {probe_epsilon}")
        if not 0.0 < probe_prob <= 1.0:
            raise ValueError(f"probe_prob must be in (0, 1], got {probe_prob}")
        if probe_continuation not in PROBE_CONTINUATIONS:
            raise ValueError(f"probe_continuation must be one of {PROBE_CONTINUATIONS}, "
                             f"got {probe_continuation!r}")
        if scheme == "probe" and fixed_opponents is None:
            raise ValueError("scheme 'probe' needs fixed_opponents (it learns a response)")
        self.abstraction_name = None
        if isinstance(abstraction, str):
            from solvers.abstractions import get_abstraction
            self.abstraction_name, abstraction = abstraction, get_abstraction(abstraction, game)
        self.action_abstraction_name = None
        if isinstance(action_abstraction, str):
            from solvers.abstractions import get_action_abstraction
            self.action_abstraction_name = action_abstraction
            action_abstraction = get_action_abstraction(action_abstraction, game)
        elif action_abstraction is not None:
            from solvers.abstractions import ActionAbstraction
            if not isinstance(action_abstraction, ActionAbstraction):
                raise TypeError("action_abstraction must be an ActionAbstraction or its name, "
                                f"got {type(action_abstraction).__name__}")
            self.action_abstraction_name = action_abstraction.name or None
        self.scheme, self.abstraction = scheme, abstraction
        self.epsilon = epsilon
        self.action_abstraction = action_abstraction
        self.fixed_opponents_name = None
        if isinstance(fixed_opponents, str):
            self.fixed_opponents_name = fixed_opponents
            fixed_opponents = fixed_policy(fixed_opponents, game)
        elif fixed_opponents is not None and not callable(fixed_opponents):
            raise TypeError("fixed_opponents must be a name or callable(player, x) -> action")
        self.fixed_opponents = fixed_opponents
        if probe_baseline is None and action_abstraction is not None:
            names = list(action_abstraction.action_names)
            probe_baseline = names.index("heuristic") if "heuristic" in names else None
        self.probe = {"epsilon": float(probe_epsilon), "prob": float(probe_prob),
                      "continuation": probe_continuation,
                      "baseline": -1 if probe_baseline is None else int(probe_baseline)}
        self.game = game if isinstance(game, pyspiel.Game) else None
        engine = None
        if self.game is None:
            if not hasattr(game, "py_info_key"):
                raise TypeError(f"expected a pyspiel.Game or an engine, got {type(game).__name__}")
            engine = game
        elif use_engine:
            engine = game_engine(game)
        self.game_string = str(game) if self.game is not None else engine.game_string
        if engine is None and (getattr(abstraction, "uses_engine", False)
                               or getattr(action_abstraction, "uses_engine", False)):
            raise ValueError("this abstraction reads the engine; the game has none")
        if engine is not None:
            action_row = None
            if action_abstraction is not None:
                from solvers.abstractions import abstract_row

                def action_row(p: int, e: Any, legal: list[int]) -> tuple:
                    return abstract_row(p, e, None, legal, abstraction, action_abstraction)
            self._core = mccfr_core.MCCFRCore(engine, seed=seed, abstraction=abstraction,
                                              epsilon=epsilon, keep_strings=keep_strings,
                                              action_row=action_row,
                                              fixed_opponents=fixed_opponents)
            if self.prune is not None:
                (self._core.prune_threshold, self._core.prune_prob,
                 self._core.prune_after) = self.prune
            self._core.baseline = self.probe["baseline"]
            self._core.probe_epsilon = self.probe["epsilon"]
            self._core.probe_prob = self.probe["prob"]
            self._core.probe_fixed = probe_continuation == "fixed"
            self._py = None
        else:
            if self.prune is not None:
                raise ValueError("prune needs the game's rules engine (this game has none)")
            if scheme == "probe":
                raise ValueError("scheme 'probe' runs on a rules engine only (this game has "
                                 "none, or use_engine=False)")
            self._core = None
            self._py = _PyTables(self.game, seed, abstraction, epsilon, action_abstraction,
                                 fixed_opponents)

    @property
    def backend(self) -> str:
        """``"engine"`` (Cython) or ``"pyspiel"`` (Python path)."""
        return "engine" if self._core is not None else "pyspiel"

    @property
    def iteration(self) -> int:
        return int(self._core.iteration if self._core is not None else self._py.iteration)

    @property
    def num_infosets(self) -> int:
        """Rows in the tables (information states or buckets) seen so far."""
        return self._core.num_infosets if self._core is not None else len(self._py.rows)

    def run(self, iterations: int) -> None:
        """Run ``iterations`` iterations (each traverses once per player); with
        a ``weighting`` other than uniform the tables are discounted at every
        multiple of ``interval``, so chunked runs equal one run."""
        if iterations < 0:
            raise ValueError(f"iterations must be >= 0, got {iterations}")
        left = int(iterations)
        while left > 0:
            n = left if self.weighting == "uniform" else min(
                left, self.interval - self.iteration % self.interval)
            if self._core is None:
                self._py.iterate(self.scheme, n)
            elif self.scheme == "external":
                self._core.iterate_external(n)
            elif self.scheme == "probe":
                self._core.iterate_probe(n)
            else:
                self._core.iterate_outcome(n)
            left -= n
            if self.weighting != "uniform" and self.iteration % self.interval == 0:
                self._discount(self.iteration // self.interval)

    def _discount(self, k: int) -> None:
        """The discount after the ``k``-th interval (module doc)."""
        if self.weighting == "linear":
            factors = (k / (k + 1),) * 3
        else:
            a = k ** 1.5
            factors = (a / (a + 1.0), 0.5, (k / (k + 1)) ** 2)
        if self._core is not None:
            self._core.scale(*factors)
            return
        for row in self._py.rows.values():
            row[2] *= np.where(row[2] > 0.0, factors[0], factors[1])
            row[3] *= factors[2]

    def evaluate_and_update_policy(self) -> None:
        """One iteration (OpenSpiel-style name)."""
        self.run(1)

    def average_policy_table(self, greedy: bool | str = False) -> dict:
        """{info string or bucket label: (player, actions, probabilities)}; with
        ``greedy`` the probabilities are :meth:`greedy_policy`'s (one-hot);
        ``greedy="confident"``: :meth:`confident_policy`'s."""
        if not greedy:
            return (self._core or self._py).average_policy()
        if self._core is None:
            if greedy == "confident":
                raise ValueError("the confident extraction needs the engine path")
            return {label: (p, list(acts), one_hot_rows(regret, [len(acts)]).tolist())
                    for label, (p, acts, regret, _) in self._py.rows.items()}
        if not self._core.keep_strings:
            raise ValueError("this MCCFR run keeps no information strings (keep_strings=False); "
                             "use greedy_policy()")
        t = self._core.table_arrays()
        probs = self._pure(t, greedy).tolist()
        return {label: (int(t["player"][s]), t["acts"][o:o + n].tolist(), probs[o:o + n])
                for s, (label, o, n) in enumerate(zip(self._core.strings, t["off"].tolist(),
                                                      t["nact"].tolist()))}

    def _label(self, player: int, info: Any) -> str:
        return info if self.abstraction is None else bucket_label(player, self.abstraction, info)

    def labeler(self):
        """The row label function of this solver's abstraction (None without one)."""
        if self.abstraction is None or self.action_abstraction is not None:
            return None
        from solvers.abstractions import Labeler
        return Labeler(self.abstraction)

    def policy_array(self, tree: CompiledTree) -> np.ndarray:
        """Average policy on a compiled tree's slots (uniform where never visited)."""
        return self.average_policy().policy_array(tree)

    def average_policy(self, fallback: str = "uniform") -> ArrayPolicy:
        """The average policy as an array-backed OpenSpiel policy (a snapshot).

        Rows are found by information key (engine backend) or string / bucket
        label; information states never visited are answered by ``fallback``
        and counted in ``.misses`` (over an action abstraction also
        ``"default"``: the first available abstract action, see
        ``AbstractedPolicy``).  Needs a pyspiel game (not a bare engine).
        """
        return self._policy(fallback, greedy=False)

    def greedy_policy(self, fallback: str = "uniform") -> ArrayPolicy:
        """The *greedy* pure policy (a snapshot, same form as :meth:`average_policy`):
        in each row the action with the highest cumulative regret, the first
        (lowest abstract id) of equals.

        Cumulative regret of action a is the sum over visits of (value of a -
        value of the current strategy), so its argmax is the action with the
        highest summed sampled counterfactual value.  With ``fixed_opponents``
        the tables learn a response to fixed players, and this is the best
        response the samples support; the average policy still carries the
        early iterations' near-uniform play.  It is no equilibrium strategy
        in self-play.
        """
        return self._policy(fallback, greedy=True)

    def confident_policy(self, fallback: str = "uniform", z: float = CONFIDENT_Z,
                         min_visits: int = CONFIDENT_MIN_VISITS) -> ArrayPolicy:
        """The *confident* pure policy of a probe solve (a snapshot, same form as
        :meth:`average_policy`): in each row with the baseline action ``h``
        (``probe_baseline``; over an action abstraction ``heuristic``), the
        action of highest mean difference ``m(a) = mean(v(a) - v(h))`` among
        those whose lower bound ``m(a) - z * se(a)`` is above 0, where ``se``
        is the standard error over the row's probed visits, if the row has
        at least ``min_visits`` of them; else ``h``.  Rows without ``h``
        play the greedy action."""
        return self._policy(fallback, greedy="confident", z=z, min_visits=min_visits)

    def _pure(self, t: dict, kind: bool | str, z: float = CONFIDENT_Z,
              min_visits: int = CONFIDENT_MIN_VISITS) -> np.ndarray:
        """One-hot probabilities of the greedy (``kind`` true) or confident extraction."""
        if kind != "confident":
            return one_hot_rows(t["regret"], t["nact"])
        return confident_rows(t["regret"], t["nact"], t["acts"], self._core.probe_stats(),
                              self.probe["baseline"], z, min_visits)

    def purified_policy(self, fallback: str = "uniform") -> ArrayPolicy:
        """The average policy *purified*: in each row its most probable action
        (the first of equals), with probability 1 (a snapshot, same form as
        :meth:`average_policy`).  A sampled average policy of an abstract
        self-play solve can lose to what its modal actions win (Gold Nugget,
        ``docs/solvers_cfr.md``); this hands out the modal actions."""
        pol = self._policy(fallback, greedy=False)
        table = getattr(pol, "table", pol)      # the array inside an AbstractedPolicy
        table.probs = one_hot_rows(table.probs, table.row_num)
        return pol

    def _policy(self, fallback: str, greedy: bool | str, z: float = CONFIDENT_Z,
                min_visits: int = CONFIDENT_MIN_VISITS) -> ArrayPolicy:
        if self.game is None:
            raise ValueError("a policy needs a pyspiel game; use average_policy_table()")
        if greedy == "confident":
            if self._core is None:
                raise ValueError("the confident extraction needs the engine path")
            if self.probe["baseline"] < 0:
                raise ValueError("the confident extraction needs a baseline action "
                                 "(probe_baseline, or a 'heuristic' abstract action)")
            if z < 0 or min_visits < 2:
                raise ValueError(f"confident extraction: need z >= 0 and min_visits >= 2, "
                                 f"got {z}, {min_visits}")
        if self.action_abstraction is not None:
            return self._abstracted_policy(fallback, greedy, z, min_visits)
        label = self.labeler()
        if self._core is None:
            table = self.average_policy_table(greedy)
            strings = list(table)
            nums = np.asarray([len(table[k][1]) for k in strings], np.int64)
            off = np.zeros(len(nums), np.int64)
            if len(nums):
                off[1:] = np.cumsum(nums)[:-1]
            return ArrayPolicy(
                self.game, row_player=np.asarray([table[k][0] for k in strings], np.int32),
                row_offset=off, row_num=nums,
                actions=np.asarray([a for k in strings for a in table[k][1]], np.int32),
                probs=np.asarray([x for k in strings for x in table[k][2]], np.float64),
                strings=strings, label=label, fallback=fallback)
        t = self._core.table_arrays()
        nact = t["nact"].astype(np.int64)
        avg = self._pure(t, greedy, z, min_visits) if greedy else t["avg"]
        probs = np.empty_like(avg)
        if len(nact):
            sums = np.add.reduceat(avg, t["off"])
            uniform = sums <= 0
            probs[:] = avg / np.repeat(np.where(uniform, 1.0, sums), nact)
            probs[np.repeat(uniform, nact)] = np.repeat(1.0 / nact, nact)[np.repeat(uniform, nact)]
        strings = list(self._core.strings) if self._core.keep_strings else None
        return ArrayPolicy(self.game, row_player=t["player"], row_offset=t["off"], row_num=nact,
                           actions=t["acts"], probs=probs, keys=t["keys"],
                           key_player=t["player"][t["slots"]], key_row=t["slots"],
                           strings=strings if label is not None else None, label=label,
                           fallback=fallback)

    def _abstracted_policy(self, fallback: str, greedy: bool | str, z: float = CONFIDENT_Z,
                           min_visits: int = CONFIDENT_MIN_VISITS) -> Any:
        """The average (greedy, confident) policy over the action abstraction (rows
        found by label)."""
        from solvers.abstractions import AbstractedPolicy
        if greedy == "confident" and self._core is not None:
            t = self._core.table_arrays()
            probs = self._pure(t, greedy, z, min_visits).tolist()
            table = {label: (int(t["player"][s]), t["acts"][o:o + n].tolist(), probs[o:o + n])
                     for s, (label, o, n) in enumerate(zip(self._core.strings,
                                                           t["off"].tolist(),
                                                           t["nact"].tolist()))}
        else:
            table = self.average_policy_table(greedy)
        strings = list(table)
        nums = np.asarray([len(table[k][1]) for k in strings], np.int64)
        off = np.zeros(len(nums), np.int64)
        if len(nums):
            off[1:] = np.cumsum(nums)[:-1]
        inner = ArrayPolicy(
            self.game, row_player=np.asarray([table[k][0] for k in strings], np.int32),
            row_offset=off, row_num=nums,
            actions=np.asarray([a for k in strings for a in table[k][1]], np.int32),
            probs=np.asarray([x for k in strings for x in table[k][2]], np.float64),
            strings=strings, fallback="error" if fallback == "error" else "uniform")
        return AbstractedPolicy(inner, self.action_abstraction, abstraction=self.abstraction,
                                abstraction_name=self.abstraction_name, fallback=fallback)

    # ------------------------------------------------------------------
    def _meta(self) -> dict:
        meta = {"scheme": self.scheme, "backend": self.backend, "epsilon": self.epsilon,
                "weighting": self.weighting,
                "interval": self.interval if self.weighting != "uniform" else None,
                "prune": None if self.prune is None else list(self.prune),
                "abstraction": self.abstraction is not None,
                "abstraction_name": self.abstraction_name,
                "keep_strings": self._core.keep_strings if self._core is not None else True}
        if self.action_abstraction is not None:
            meta["action_abstraction_name"] = self.action_abstraction_name
        if self.fixed_opponents is not None:
            meta["fixed_opponents"] = self.fixed_opponents_name or "unnamed"
        if self.scheme == "probe":
            meta["probe"] = dict(self.probe)
        return meta

    def save_checkpoint(self, path: str | os.PathLike) -> None:
        """Write what resuming needs (tables, RNG state, iteration) atomically."""
        meta = self._meta()
        if self._core is not None:
            arrays = self._core.get_state()
        else:
            rows = list(self._py.rows.items())
            arrays = {
                "labels": np.asarray([k for k, _ in rows], dtype=str),
                "player": np.asarray([r[0] for _, r in rows], np.int64),
                "nact": np.asarray([len(r[1]) for _, r in rows], np.int64),
                "acts": np.asarray([a for _, r in rows for a in r[1]], np.int64),
                "regret": np.concatenate([r[2] for _, r in rows] or [np.zeros(0)]),
                "avg": np.concatenate([r[3] for _, r in rows] or [np.zeros(0)])}
            meta["iteration"] = self._py.iteration
            meta["rng"] = str(self._py.rng.s)
        policy_io.save_arrays(path, kind="mccfr-checkpoint", game=self.game_string, meta=meta,
                              arrays=arrays)

    def load_checkpoint(self, path: str | os.PathLike) -> None:
        """Resume from ``save_checkpoint`` output; refuses other games or settings."""
        meta, arrays = policy_io.load_arrays(path, kind="mccfr-checkpoint", game=self.game_string)
        mine = self._meta()
        keys = set(mine) | {"action_abstraction_name", "fixed_opponents", "probe"}
        if "epsilon" not in meta:         # written before the exploration was recorded
            keys.discard("epsilon")
        if "weighting" not in meta:       # written before the variants: uniform, no pruning
            meta = dict(meta, weighting="uniform", interval=None, prune=None)
        if any(meta.get(k) != mine.get(k) for k in keys):
            raise ValueError(f"checkpoint {path} has settings "
                             f"{ {k: meta.get(k) for k in mine} }, this solver {mine}")
        if self._core is not None:
            self._core.set_state(arrays)
            return
        rows, pos = {}, 0
        for label, p, n in zip(arrays["labels"].tolist(), arrays["player"].tolist(),
                               arrays["nact"].tolist()):
            rows[label] = [p, arrays["acts"][pos:pos + n].tolist(),
                           arrays["regret"][pos:pos + n].copy(), arrays["avg"][pos:pos + n].copy()]
            pos += n
        if pos != len(arrays["regret"]):
            raise policy_io.PolicyFileError(f"checkpoint {path}: table sizes are inconsistent")
        state = meta.get("rng")
        if not isinstance(state, str) or not state.isdigit() or int(state) >> 64:
            raise policy_io.PolicyFileError(f"checkpoint {path}: no SplitMix64 state (written "
                                            "by a version that used random.Random?)")
        self._py.rng.s = int(state)
        self._py.rows = rows
        self._py.iteration = int(meta["iteration"])


class HeuristicOpponents:
    """The game's registered heuristic bot as a fixed policy ``(player, x) -> action``.

    ``x`` is a pyspiel state, or an engine (the bot then sees an object whose
    only attribute is ``engine``: for heuristics that read only
    ``state.engine``, as Saboteur's).  ``rule`` is the bot's compiled
    ``engine_rule(engine, player)`` or None; the MCCFR core's walks call it
    directly when set (``src_cy/mccfr.pyx``).
    """

    def __init__(self, game: pyspiel.Game) -> None:
        from solvers.bots import make_bot
        self.bot = make_bot("heuristic", game)
        self.rule = getattr(self.bot, "engine_rule", None)

    def __call__(self, player: int, x: Any) -> int:
        if isinstance(x, pyspiel.State):
            return self.bot.step(x)
        if self.rule is not None:      # the compiled rules: no legal list, no wrapper
            return self.rule(x, player)
        return self.bot.choose_on_engine(x, player, x.py_legal_actions())


FIXED_POLICIES: dict[str, Callable[[pyspiel.Game], Callable]] = {
    "heuristic": HeuristicOpponents}


def fixed_policy(name: str, game: pyspiel.Game | Any) -> Callable:
    """The fixed opponent policy registered under ``name`` (``FIXED_POLICIES``), for ``game``."""
    if name not in FIXED_POLICIES:
        raise ValueError(f"unknown fixed opponent policy {name!r}; known: "
                         f"{sorted(FIXED_POLICIES)}")
    if not isinstance(game, pyspiel.Game):
        game = pyspiel.load_game(game.game_string)
    return FIXED_POLICIES[name](game)


def ExternalSamplingSolver(game: Any, **kw: Any) -> MCCFRSolver:
    """External-sampling MCCFR (see ``MCCFRSolver``)."""
    return MCCFRSolver(game, scheme="external", **kw)


def OutcomeSamplingSolver(game: Any, **kw: Any) -> MCCFRSolver:
    """Outcome-sampling MCCFR (see ``MCCFRSolver``)."""
    return MCCFRSolver(game, scheme="outcome", **kw)


def _log(x: float) -> float:
    """``log(x)``, ``-inf`` at 0 (as C's ``log``), without numpy's warning."""
    return math.log(x) if x > 0 else -math.inf
