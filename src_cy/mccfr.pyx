# cython: language_level=3
"""External- and outcome-sampling MCCFR directly on a rules engine.

No tree is kept: each iteration walks sampled trajectories of the engine.
Regret and average-strategy tables are flat vectors indexed through a hash
map from the engine's 64-bit ``info_key`` (or, with an abstraction, from the
bucket the abstraction assigns to an information state).  With an action
abstraction (``action_row(player, engine, legal) -> (label, abstract ids,
concrete actions)``, built by ``solvers.mccfr``) a row holds the
abstract actions available in its bucket and each visited information key
caches the concrete action of each (``conc_of_key``); the walk applies the
concrete actions.  With ``fixed_opponents(player, engine) -> action`` the
players other than the traverser follow that fixed (deterministic) policy
and get no rows: each traversal learns a response to it.  When the policy
names compiled rules (a ``rule(engine, player) -> action`` attribute, as
``solvers.mccfr.HeuristicOpponents`` for a bot with an ``engine_rule``), the
walks call ``rule`` directly, without the policy's Python call.
A row whose label starts with ``SHARED_PREFIX`` (an information abstraction
with ``shared_seats = True``) is one row for every seat: its regrets and
probes pool what every seat's visits learn.

External sampling follows Lanctot et al. (2009) with simple averaging at the
opponents' nodes (OpenSpiel's ``AverageType.SIMPLE``); outcome sampling uses
epsilon-exploration at the traverser's nodes and updates the average strategy
at the traverser's nodes, as OpenSpiel's ``outcome_sampling_mccfr``.  Probing
(``iterate_probe``, Gibson et al. 2012; fixed opponents only) walks one
trajectory and values every action of the traverser's rows by a probe played
to the end with common random numbers.
"""
from cython.operator cimport dereference, preincrement
from libc.math cimport exp, log, INFINITY, NAN
from libc.stdint cimport uint64_t
from libcpp.unordered_map cimport unordered_map
from libcpp.vector cimport vector

import numpy as np

from src_cy.engine cimport (Engine, Rng, rng_double, rng_next, rng_int, CHANCE_PLAYER, MAX_BRANCHING,
                            ENGINE_MAX_PLAYERS)

#: Label prefix of a row every seat shares (``solvers.abstractions.row_label``).
SHARED_PREFIX = "*|"


cdef class MCCFRCore:
    """Tables plus the two sampling schemes over one engine prototype."""
    cdef Engine proto
    cdef list pool
    cdef int P
    cdef Rng rng
    cdef unordered_map[uint64_t, int] slot_of_key
    cdef vector[int] off, nact, iplayer
    cdef vector[double] R, S
    cdef vector[int] acts
    cdef public list strings
    cdef public object abstraction
    cdef dict bucket_slot
    cdef public object action_row
    cdef public object fixed_opponents
    # ``fixed_opponents.rule`` (``solvers.mccfr.HeuristicOpponents``: the bot's
    # compiled ``engine_rule(engine, player)``) when it has one, else None:
    # called directly, without the Python wrapper (``_fixed``).
    cdef object fixed_rule
    cdef unordered_map[uint64_t, int] conc_of_key
    cdef vector[int] conc
    cdef public long iteration
    cdef public double epsilon
    cdef public bint keep_strings
    # Regret-based pruning in external sampling (Brown and Sandholm): in an
    # iteration drawn to prune (probability prune_prob, once past
    # prune_after iterations) the traverser skips actions whose regret is
    # below prune_threshold and leaves their regrets as they are.
    cdef public double prune_threshold
    cdef public double prune_prob
    cdef public long prune_after
    cdef bint pruning
    cdef vector[double] Q, N
    cdef public int baseline
    cdef public double probe_epsilon, probe_prob
    cdef public bint probe_fixed

    def __init__(self, Engine proto, seed=0, abstraction=None, double epsilon=0.6,
                 bint keep_strings=True, action_row=None, fixed_opponents=None):
        if abstraction is not None and not callable(abstraction):
            raise TypeError("abstraction must be callable(player, info_string) -> bucket "
                            "(or (player, engine) when it has uses_engine = True)")
        if not 0.0 < epsilon <= 1.0:
            raise ValueError(f"epsilon must be in (0, 1], got {epsilon}")
        self.proto = proto.clone()
        self.P = proto.num_players
        self.pool = [self.proto.clone() for _ in range(8)]
        self.rng.s = <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF)
        self.strings = []
        self.abstraction = abstraction
        self.bucket_slot = {}
        self.iteration = 0
        self.epsilon = epsilon
        if action_row is not None and not callable(action_row):
            raise TypeError("action_row must be callable(player, engine, legal) -> "
                            "(label, abstract ids, concrete actions)")
        self.action_row = action_row
        if fixed_opponents is not None and not callable(fixed_opponents):
            raise TypeError("fixed_opponents must be callable(player, engine) -> action")
        self.fixed_opponents = fixed_opponents
        self.fixed_rule = getattr(fixed_opponents, "rule", None)
        self.keep_strings = keep_strings or abstraction is not None or action_row is not None
        self.prune_threshold = -INFINITY
        self.prune_prob = 0.0
        self.prune_after = 0
        self.pruning = False
        self.baseline, self.probe_epsilon, self.probe_prob, self.probe_fixed = -1, 0.0, 1.0, False

    cdef int _fixed(self, int cur, Engine e) except? -1:
        """The fixed opponents' move for ``cur`` at ``e``: their compiled
        rule when they name one (``fixed_rule``), else their call."""
        if self.fixed_rule is not None:
            return self.fixed_rule(e, cur)
        return self.fixed_opponents(cur, e)

    # ------------------------------------------------------------------
    cdef int _slot_abstract(self, Engine e, int p, int* legal, int* n) except -1:
        """Row of p's state under the action abstraction; writes the concrete
        action of each of the row's abstract actions to ``legal`` and their
        number to ``n``."""
        cdef uint64_t key = e.info_key(p)
        cdef int s, k, c
        cdef unordered_map[uint64_t, int].iterator it = self.conc_of_key.find(key)
        if it != self.conc_of_key.end():
            c = dereference(it).second
            s = self.conc[c]
            n[0] = self.nact[s]
            for k in range(n[0]):
                legal[k] = self.conc[c + 1 + k]
            return s
        label, ids, concrete = self.action_row(p, e, [legal[k] for k in range(n[0])])
        bucket = row_identity(p, label)
        s = self.bucket_slot.get(bucket, -1)
        if s < 0:
            s = self.off.size()
            self.off.push_back(self.R.size())
            self.nact.push_back(len(ids))
            self.iplayer.push_back(p)
            for k in ids:
                self.R.push_back(0.0)
                self.S.push_back(0.0)
                self.acts.push_back(k)
            self.strings.append(label)
            self.bucket_slot[bucket] = s
        self.conc_of_key[key] = self.conc.size()
        self.conc.push_back(s)
        n[0] = len(concrete)
        for k in range(n[0]):
            legal[k] = concrete[k]
            self.conc.push_back(legal[k])
        return s

    cdef int _slot(self, Engine e, int p, int* legal, int* n) except -1:
        if self.action_row is not None:
            return self._slot_abstract(e, p, legal, n)
        return self._slot_raw(e, p, legal, n[0])

    cdef int _slot_raw(self, Engine e, int p, int* legal, int n) except -1:
        cdef uint64_t key = e.info_key(p)
        cdef int s, k
        cdef unordered_map[uint64_t, int].iterator it = self.slot_of_key.find(key)
        if it != self.slot_of_key.end():
            return dereference(it).second
        label = None
        if self.abstraction is not None:
            arg = e if getattr(self.abstraction, "uses_engine", False) else e.info_string(p)
            shared = getattr(self.abstraction, "shared_seats", False)
            label = f"{'*' if shared else p}|{self.abstraction(p, arg)!r}"
            bucket = row_identity(p, label)
            s = self.bucket_slot.get(bucket, -1)
            if s >= 0:
                if self.nact[s] != n:
                    raise ValueError(f"abstraction bucket {bucket!r} mixes information states "
                                     f"with {self.nact[s]} and {n} legal actions")
                self.slot_of_key[key] = s
                return s
        s = self.off.size()
        self.off.push_back(self.R.size())
        self.nact.push_back(n)
        self.iplayer.push_back(p)
        for k in range(n):
            self.R.push_back(0.0)
            self.S.push_back(0.0)
            self.acts.push_back(legal[k])
        if self.keep_strings:
            self.strings.append(label if label is not None else e.info_string(p))
        if self.abstraction is not None:
            self.bucket_slot[bucket] = s
        self.slot_of_key[key] = s
        return s

    cdef void _match(self, int s, double* out) noexcept:
        cdef int o = self.off[s], n = self.nact[s], k
        cdef double tot = 0.0
        for k in range(n):
            if self.R[o + k] > 0:
                tot += self.R[o + k]
        for k in range(n):
            if tot > 0:
                out[k] = (self.R[o + k] if self.R[o + k] > 0 else 0.0) / tot
            else:
                out[k] = 1.0 / n

    cdef int _sample(self, double* probs, int n) noexcept:
        return _draw(&self.rng, probs, n)

    cdef Engine _at(self, int depth):
        while depth >= len(self.pool):
            self.pool.append(self.proto.clone())
        return <Engine>self.pool[depth]

    # ------------------------------------------------------------------
    cdef double _external(self, Engine e, int p, int depth, double reach) except? -1e300:
        cdef int legal[MAX_BRANCHING]
        cdef double sigma[MAX_BRANCHING]
        cdef double vals[MAX_BRANCHING]
        cdef double ret[ENGINE_MAX_PLAYERS]
        cdef int n, s, k, o, cur
        cdef double v
        cdef Engine child
        while True:
            if e.is_terminal():
                e.returns(ret)
                return ret[p]
            cur = e.current_player()
            if cur != CHANCE_PLAYER:
                break
            e.apply(e.sample_chance(&self.rng))
        if cur != p and self.fixed_opponents is not None:
            e.apply(self._fixed(cur, e))
            return self._external(e, p, depth, reach)
        n = e.legal_actions(legal)
        s = self._slot(e, cur, legal, &n)
        self._match(s, sigma)
        o = self.off[s]
        if cur != p:
            for k in range(n):
                self.S[o + k] += sigma[k]
            e.apply(legal[self._sample(sigma, n)])
            return self._external(e, p, depth, reach)
        v = 0.0
        child = self._at(depth + 1)
        for k in range(n):
            if self.pruning and self.R[o + k] < self.prune_threshold:
                vals[k] = NAN          # pruned: neither traversed nor updated
                continue
            child.copy_from(e)
            child.apply(legal[k])
            vals[k] = self._external(child, p, depth + 1, reach * sigma[k])
            v += sigma[k] * vals[k]
        if self.fixed_opponents is not None:
            # No opponent rows to average at: the traverser averages its own
            # strategy, weighted by its own reach.
            for k in range(n):
                self.S[o + k] += reach * sigma[k]
        for k in range(n):
            if vals[k] == vals[k]:     # not pruned
                self.R[o + k] += vals[k] - v
        return v

    cdef double _outcome(self, Engine e, int p, double my_reach, double opp_reach,
                         double samp_reach) except? -1e300:
        # The three reaches are natural logarithms (log space): along a long
        # game (default Saboteur, ~420 moves) the products underflow to 0.0
        # while the ratios the updates need stay ordinary numbers.
        cdef int legal[MAX_BRANCHING]
        cdef double sigma[MAX_BRANCHING]
        cdef double rho[MAX_BRANCHING]
        cdef double ret[ENGINE_MAX_PLAYERS]
        cdef int n, s, k, o, cur, a
        cdef double child_value, value, cf, w
        while True:
            if e.is_terminal():
                e.returns(ret)
                return ret[p]
            cur = e.current_player()
            if cur != CHANCE_PLAYER:
                break
            e.apply(e.sample_chance(&self.rng))
        if cur != p and self.fixed_opponents is not None:
            e.apply(self._fixed(cur, e))
            return self._outcome(e, p, my_reach, opp_reach, samp_reach)
        n = e.legal_actions(legal)
        s = self._slot(e, cur, legal, &n)
        self._match(s, sigma)
        o = self.off[s]
        for k in range(n):
            rho[k] = (self.epsilon / n + (1.0 - self.epsilon) * sigma[k]) if cur == p else sigma[k]
        a = self._sample(rho, n)
        e.apply(legal[a])
        if cur == p:
            child_value = self._outcome(e, p, my_reach + log(sigma[a]), opp_reach,
                                        samp_reach + log(rho[a]))
        else:
            child_value = self._outcome(e, p, my_reach, opp_reach + log(sigma[a]),
                                        samp_reach + log(rho[a]))
        value = sigma[a] * child_value / rho[a]
        if cur == p:
            cf = exp(opp_reach - samp_reach)
            w = exp(my_reach - samp_reach)
            for k in range(n):
                self.R[o + k] += cf * ((child_value / rho[a] if k == a else 0.0) - value)
                self.S[o + k] += w * sigma[k]
        return value

    def iterate_external(self, long n) -> None:
        """`n` external-sampling iterations (one traversal per player each)."""
        cdef long i
        cdef int p
        cdef Engine root = self._at(0)
        for i in range(n):
            self.iteration += 1
            self.pruning = (self.prune_prob > 0.0 and self.iteration > self.prune_after
                            and rng_double(&self.rng) < self.prune_prob)
            for p in range(self.P):
                root.copy_from(self.proto)
                self._external(root, p, 0, 1.0)
        self.pruning = False

    def iterate_outcome(self, long n) -> None:
        """`n` outcome-sampling iterations (one episode per player each)."""
        cdef long i
        cdef int p
        cdef Engine root = self._at(0)
        for i in range(n):
            self.iteration += 1
            for p in range(self.P):
                root.copy_from(self.proto)
                self._outcome(root, p, 0.0, 0.0, 0.0)

    # ------------------------------------------------------------------
    # Probing (Gibson et al., AAAI 2012), against fixed opponents: one
    # trajectory per traversal; at the traverser's rows every abstract action
    # is valued by a probe played to the end, with common random numbers.
    cdef void _grow(self) noexcept:
        """Size the probe statistics to the tables (rows appear during walks)."""
        if self.Q.size() < self.R.size():
            self.Q.resize(self.R.size(), 0.0)
        if self.N.size() < self.off.size():
            self.N.resize(self.off.size(), 0.0)

    cdef double _rollout(self, Engine e, int p, Rng* r) except? -1e300:
        """Play ``e`` to the end (chance from ``r``; the other seats their fixed
        move; ``p`` the fixed move too with ``probe_fixed``, else a draw from
        its current strategy) and return ``p``'s return."""
        cdef int legal[MAX_BRANCHING]
        cdef double sigma[MAX_BRANCHING]
        cdef double ret[ENGINE_MAX_PLAYERS]
        cdef int n, s, cur
        while not e.is_terminal():
            cur = e.current_player()
            if cur == CHANCE_PLAYER:
                e.apply(e.sample_chance(r))
            elif cur != p or self.probe_fixed:
                e.apply(self._fixed(cur, e))
            else:
                n = e.legal_actions(legal)
                s = self._slot(e, cur, legal, &n)
                self._match(s, sigma)
                e.apply(legal[_draw(r, sigma, n)])
        e.returns(ret)
        return ret[p]

    cdef int _probe_walk(self, Engine e, int p) except -1:
        """One probing traversal for ``p`` from ``e`` (see ``iterate_probe``)."""
        cdef int legal[MAX_BRANCHING]
        cdef double sigma[MAX_BRANCHING]
        cdef double rho[MAX_BRANCHING]
        cdef double vals[MAX_BRANCHING]
        cdef int n, s, k, o, cur, b
        cdef double v, d
        cdef uint64_t seed
        cdef Rng pr
        cdef Engine child = self._at(1)
        while not e.is_terminal():
            cur = e.current_player()
            if cur == CHANCE_PLAYER:
                e.apply(e.sample_chance(&self.rng))
                continue
            if cur != p:
                e.apply(self._fixed(cur, e))
                continue
            n = e.legal_actions(legal)
            s = self._slot(e, cur, legal, &n)
            if n > 1 and (self.probe_prob >= 1.0 or rng_double(&self.rng) < self.probe_prob):
                seed = rng_next(&self.rng)
                for k in range(n):
                    child.copy_from(e)
                    child.apply(legal[k])
                    pr.s = seed          # common random numbers across the row's actions
                    vals[k] = self._rollout(child, p, &pr)
                self._grow()
                self._match(s, sigma)
                o = self.off[s]
                v = 0.0
                b = -1
                for k in range(n):
                    v += sigma[k] * vals[k]
                    if self.acts[o + k] == self.baseline:
                        b = k
                for k in range(n):
                    self.R[o + k] += vals[k] - v
                    self.S[o + k] += sigma[k]
                    if b >= 0:
                        d = vals[k] - vals[b]
                        self.Q[o + k] += d * d
                self.N[s] += 1.0
            if self.probe_fixed:     # the fixed policy's move, or uniform exploration
                if rng_double(&self.rng) < self.probe_epsilon:
                    e.apply(legal[rng_int(&self.rng, n)])
                else:
                    e.apply(self._fixed(cur, e))
                continue
            self._match(s, sigma)
            for k in range(n):
                rho[k] = self.probe_epsilon / n + (1.0 - self.probe_epsilon) * sigma[k]
            e.apply(legal[self._sample(rho, n)])
        return 0

    def iterate_probe(self, long n) -> None:
        """`n` probing iterations (one traversal per player each; needs
        ``fixed_opponents``).  A traversal walks one trajectory: chance
        sampled, the other seats their fixed move, the traverser a draw from
        ``probe_epsilon``-uniform mixed with its current strategy (with
        ``probe_fixed``: with probability ``probe_epsilon`` a uniform draw over
        the row's actions, else the fixed policy's move).  At each of
        the traverser's rows with two or more actions (each with probability
        ``probe_prob``) every action ``a`` is valued by a probe ``v(a)``: the
        state after ``a`` played to the end with the traverser's current
        strategy (or, with ``probe_fixed``, the fixed policy's move), every
        probe of the node starting from the same random state.  Updates, with
        no importance weights: ``R[a] += v(a) - sum_b sigma(b) v(b)``,
        ``S[a] += sigma(a)``, the row's visit count ``+1`` and, where the row
        has the ``baseline`` abstract action ``h``, ``sqdiff[a] += (v(a) - v(h))**2``
        (so ``R[a] - R[h]`` is the sum of the differences)."""
        if self.fixed_opponents is None:
            raise ValueError("the probe scheme needs fixed_opponents (it learns a response)")
        cdef long t
        cdef Engine root = self._at(0)
        for t in range(n * self.P):          # traversals: players in turn
            if t % self.P == 0:
                self.iteration += 1
            root.copy_from(self.proto)
            self._probe_walk(root, <int>(t % self.P))
        self._grow()

    def probe_stats(self) -> dict:
        """``visits`` (probed visits per row) and ``sqdiff`` (per row action, the
        summed squared difference of its probe value and the baseline's)."""
        self._grow()
        return {"visits": _dvec(self.N), "sqdiff": _dvec(self.Q)}

    # ------------------------------------------------------------------
    @property
    def num_infosets(self) -> int:
        return self.off.size()

    def average_policy(self) -> dict:
        """{info string (or bucket repr): (player, actions, probabilities)}."""
        if not self.keep_strings:
            raise ValueError("this MCCFR run keeps no information strings (keep_strings=False); "
                             "use the array policy (MCCFRSolver.average_policy())")
        out = {}
        cdef int s, k, o, n
        cdef double tot
        for s in range(self.off.size()):
            o, n = self.off[s], self.nact[s]
            tot = 0.0
            for k in range(n):
                tot += self.S[o + k]
            probs = [(self.S[o + k] / tot if tot > 0 else 1.0 / n) for k in range(n)]
            out[self.strings[s]] = (self.iplayer[s], [self.acts[o + k] for k in range(n)], probs)
        return out

    def slot_for_key(self, uint64_t key) -> int:
        """Table row of an engine info key, or -1 if never visited."""
        cdef unordered_map[uint64_t, int].iterator it = self.slot_of_key.find(key)
        if it == self.slot_of_key.end():
            return -1
        return dereference(it).second

    def table_arrays(self) -> dict:
        """Copies of the tables as numpy arrays (no strings): rows, keys, sums."""
        cdef Py_ssize_t i = 0, m = self.slot_of_key.size()
        keys = np.empty(m, np.uint64)
        slots = np.empty(m, np.int64)
        cdef uint64_t[::1] kv_k = keys
        cdef long long[::1] kv_s = slots
        cdef unordered_map[uint64_t, int].iterator it = self.slot_of_key.begin()
        while it != self.slot_of_key.end():
            kv_k[i] = dereference(it).first
            kv_s[i] = dereference(it).second
            i += 1
            preincrement(it)
        order = np.argsort(keys, kind="stable")
        return {"keys": keys[order], "slots": slots[order],
                "off": _ivec(self.off), "nact": _ivec(self.nact), "player": _ivec(self.iplayer),
                "acts": _ivec(self.acts), "regret": _dvec(self.R), "avg": _dvec(self.S)}

    def get_state(self) -> dict:
        """Everything needed to resume, as numpy arrays (for checkpoints)."""
        st = self.table_arrays()
        del st["off"]  # the running sum of nact
        st["strings"] = np.asarray(self.strings, dtype=str)
        st.update(self.probe_stats())
        st["rng"] = np.asarray([self.rng.s], np.uint64)
        st["iteration"] = np.asarray([self.iteration], np.int64)
        return st

    def scale(self, double positive, double negative, double average) -> None:
        """Multiply positive regrets by ``positive``, negative ones by
        ``negative`` and the average-strategy sums by ``average`` (the
        periodic discounting of linear and discounted MCCFR)."""
        cdef size_t i
        for i in range(self.R.size()):
            self.R[i] *= positive if self.R[i] > 0.0 else negative
            self.S[i] *= average

    def set_state(self, dict st, bint keep_cache=False) -> None:
        """Inverse of ``get_state`` (arrays are validated first, then installed;
        ``strings`` may be a list).

        ``keep_cache``: keep the action-abstraction cache (each information
        key's row and concrete actions), re-pointing each cached key at the
        row with the same label in ``st`` and dropping keys whose label is
        not there; the cache depends on the key only, so this saves the
        abstraction calls a fresh cache would repeat (parallel MCCFR's
        workers install a new snapshot every round).
        """
        nact = np.asarray(st["nact"], np.int64)
        n = len(nact)
        strings = (st["strings"].tolist() if hasattr(st["strings"], "tolist")
                   else list(st["strings"]))
        expected_strings = n if self.keep_strings else 0
        if not (len(st["player"]) == n and len(st["regret"]) == len(st["avg"]) == len(st["acts"])
                and len(strings) == expected_strings
                and len(st["keys"]) == len(st["slots"])
                and int(nact.sum()) == len(st["regret"]) and (nact > 0).all()
                and (len(st["slots"]) == 0 or (0 <= st["slots"].min()
                                               and st["slots"].max() < n))):
            raise ValueError("inconsistent MCCFR table arrays")
        visits = np.asarray(st.get("visits", np.zeros(n)), np.float64)
        sqdiff = np.asarray(st.get("sqdiff", np.zeros(len(st["regret"]))), np.float64)
        if len(visits) != n or len(sqdiff) != len(st["regret"]):
            raise ValueError("inconsistent MCCFR probe arrays (visits, sqdiff)")
        off = np.zeros(n, np.int64)
        if n:
            off[1:] = np.cumsum(nact)[:-1]
        old_label = None
        if keep_cache and self.action_row is not None and self.conc_of_key.size():
            old_label = [row_identity(self.iplayer[s], self.strings[s])
                         for s in range(self.off.size())]
        self.slot_of_key.clear()
        self.slot_of_key.reserve(len(st["keys"]))
        cdef const uint64_t[::1] kk = np.ascontiguousarray(st["keys"], np.uint64)
        cdef const long long[::1] ss = np.ascontiguousarray(st["slots"], np.int64)
        cdef Py_ssize_t i
        for i in range(kk.shape[0]):
            self.slot_of_key[kk[i]] = <int>ss[i]
        _set_ivec(self.off, off)
        _set_ivec(self.nact, nact)
        _set_ivec(self.iplayer, st["player"])
        _set_ivec(self.acts, st["acts"])
        _set_dvec(self.R, st["regret"])
        _set_dvec(self.S, st["avg"])
        _set_dvec(self.N, visits)
        _set_dvec(self.Q, sqdiff)
        self.strings = strings
        self.bucket_slot = {}
        if self.abstraction is not None or self.action_row is not None:
            for s, text in enumerate(self.strings):
                self.bucket_slot[row_identity(self.iplayer[s], text)] = s
        if old_label is None:
            self.conc_of_key.clear()
            self.conc.clear()
        else:
            self._repoint_cache(old_label)
        self.rng.s = <uint64_t>int(st["rng"][0])
        self.iteration = int(st["iteration"][0])

    cdef void _repoint_cache(self, list old_label) except *:
        """Point each cached key at the new row of its old row's label (or drop it)."""
        cdef vector[int] new_slot
        cdef int s, c, k, n
        for label in old_label:
            new_slot.push_back(self.bucket_slot.get(label, -1))
        cdef unordered_map[uint64_t, int] kept
        cdef vector[int] conc
        cdef unordered_map[uint64_t, int].iterator it = self.conc_of_key.begin()
        while it != self.conc_of_key.end():
            c = dereference(it).second
            s = new_slot[self.conc[c]]
            if s >= 0:
                n = self.nact[s]
                kept[dereference(it).first] = conc.size()
                conc.push_back(s)
                for k in range(n):
                    conc.push_back(self.conc[c + 1 + k])
            preincrement(it)
        self.conc_of_key.swap(kept)
        self.conc.swap(conc)


cpdef inline tuple row_identity(int p, str label):
    """A row's identity: ``(player, label)``, or ``(-1, label)`` for a row all
    seats share (its label starts with ``SHARED_PREFIX``: an abstraction with
    ``shared_seats = True``; the row's player is the seat that created it).
    The one place the rule lives: ``solvers.mccfr_parallel`` merges by it."""
    return (-1, label) if label.startswith(SHARED_PREFIX) else (p, label)


cdef int _draw(Rng* r, double* probs, int n) noexcept:
    """An index drawn from ``probs`` with ``r``."""
    cdef double u = rng_double(r), acc = 0.0
    cdef int k
    for k in range(n - 1):
        acc += probs[k]
        if u < acc:
            return k
    return n - 1


cdef void _set_ivec(vector[int]& v, object values) except *:
    cdef const long long[::1] a = np.ascontiguousarray(values, np.int64)
    cdef Py_ssize_t i
    v.resize(a.shape[0])
    for i in range(a.shape[0]):
        v[i] = <int>a[i]


cdef void _set_dvec(vector[double]& v, object values) except *:
    cdef const double[::1] a = np.ascontiguousarray(values, np.float64)
    cdef Py_ssize_t i
    v.resize(a.shape[0])
    for i in range(a.shape[0]):
        v[i] = a[i]


include "vectors.pxi"
