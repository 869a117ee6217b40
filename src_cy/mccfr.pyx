# cython: language_level=3
"""External- and outcome-sampling MCCFR directly on a rules engine.

No tree is kept: each iteration walks sampled trajectories of the engine.
Regret and average-strategy tables are flat vectors indexed through a hash
map from the engine's 64-bit ``info_key`` (or, with an abstraction, from the
bucket the abstraction assigns to an information state).

External sampling follows Lanctot et al. (2009) with simple averaging at the
opponents' nodes (OpenSpiel's ``AverageType.SIMPLE``); outcome sampling uses
epsilon-exploration at the traverser's nodes and updates the average strategy
at the traverser's nodes, as OpenSpiel's ``outcome_sampling_mccfr``.
"""
from cython.operator cimport dereference
from libc.stdint cimport uint64_t
from libcpp.unordered_map cimport unordered_map
from libcpp.vector cimport vector

import numpy as np

from src_cy.engine cimport (Engine, Rng, rng_double, CHANCE_PLAYER, MAX_BRANCHING,
                            ENGINE_MAX_PLAYERS)


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
    cdef public long iteration
    cdef public double epsilon

    def __init__(self, Engine proto, seed=0, abstraction=None, double epsilon=0.6):
        if abstraction is not None and not callable(abstraction):
            raise TypeError("abstraction must be callable(player, info_string) -> bucket")
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

    # ------------------------------------------------------------------
    cdef int _slot(self, Engine e, int p, int* legal, int n) except -1:
        cdef uint64_t key = e.info_key(p)
        cdef int s, k
        cdef unordered_map[uint64_t, int].iterator it = self.slot_of_key.find(key)
        if it != self.slot_of_key.end():
            return dereference(it).second
        info = e.info_string(p)
        label = info
        if self.abstraction is not None:
            label = f"{p}|{self.abstraction(p, info)!r}"
            bucket = (p, label)
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
        self.strings.append(label)
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
        cdef double u = rng_double(&self.rng), acc = 0.0
        cdef int k
        for k in range(n - 1):
            acc += probs[k]
            if u < acc:
                return k
        return n - 1

    cdef Engine _at(self, int depth):
        while depth >= len(self.pool):
            self.pool.append(self.proto.clone())
        return <Engine>self.pool[depth]

    # ------------------------------------------------------------------
    cdef double _external(self, Engine e, int p, int depth) except? -1e300:
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
        n = e.legal_actions(legal)
        s = self._slot(e, cur, legal, n)
        self._match(s, sigma)
        o = self.off[s]
        if cur != p:
            for k in range(n):
                self.S[o + k] += sigma[k]
            e.apply(legal[self._sample(sigma, n)])
            return self._external(e, p, depth)
        v = 0.0
        child = self._at(depth + 1)
        for k in range(n):
            child.copy_from(e)
            child.apply(legal[k])
            vals[k] = self._external(child, p, depth + 1)
            v += sigma[k] * vals[k]
        for k in range(n):
            self.R[o + k] += vals[k] - v
        return v

    cdef double _outcome(self, Engine e, int p, double my_reach, double opp_reach,
                         double samp_reach) except? -1e300:
        cdef int legal[MAX_BRANCHING]
        cdef double sigma[MAX_BRANCHING]
        cdef double rho[MAX_BRANCHING]
        cdef double ret[ENGINE_MAX_PLAYERS]
        cdef int n, s, k, o, cur, a
        cdef double child_value, value, cf
        while True:
            if e.is_terminal():
                e.returns(ret)
                return ret[p]
            cur = e.current_player()
            if cur != CHANCE_PLAYER:
                break
            e.apply(e.sample_chance(&self.rng))
        n = e.legal_actions(legal)
        s = self._slot(e, cur, legal, n)
        self._match(s, sigma)
        o = self.off[s]
        for k in range(n):
            rho[k] = (self.epsilon / n + (1.0 - self.epsilon) * sigma[k]) if cur == p else sigma[k]
        a = self._sample(rho, n)
        e.apply(legal[a])
        if cur == p:
            child_value = self._outcome(e, p, my_reach * sigma[a], opp_reach, samp_reach * rho[a])
        else:
            child_value = self._outcome(e, p, my_reach, opp_reach * sigma[a], samp_reach * rho[a])
        value = sigma[a] * child_value / rho[a]
        if cur == p:
            cf = opp_reach / samp_reach
            for k in range(n):
                self.R[o + k] += cf * ((child_value / rho[a] if k == a else 0.0) - value)
                self.S[o + k] += my_reach * sigma[k] / samp_reach
        return value

    def iterate_external(self, long n) -> None:
        """`n` external-sampling iterations (one traversal per player each)."""
        cdef long i
        cdef int p
        cdef Engine root = self._at(0)
        for i in range(n):
            self.iteration += 1
            for p in range(self.P):
                root.copy_from(self.proto)
                self._external(root, p, 0)

    def iterate_outcome(self, long n) -> None:
        """`n` outcome-sampling iterations (one episode per player each)."""
        cdef long i
        cdef int p
        cdef Engine root = self._at(0)
        for i in range(n):
            self.iteration += 1
            for p in range(self.P):
                root.copy_from(self.proto)
                self._outcome(root, p, 1.0, 1.0, 1.0)

    # ------------------------------------------------------------------
    @property
    def num_infosets(self) -> int:
        return self.off.size()

    def average_policy(self) -> dict:
        """{info string (or bucket repr): (player, actions, probabilities)}."""
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

    def get_state(self) -> dict:
        """All tables as numpy arrays (for checkpoints)."""
        keys = np.zeros(self.slot_of_key.size(), np.uint64)
        slots = np.zeros(self.slot_of_key.size(), np.int64)
        cdef int i = 0
        for kv in self.slot_of_key:
            keys[i] = kv.first
            slots[i] = kv.second
            i += 1
        return {"keys": keys, "slots": slots,
                "off": np.asarray(list(self.off), np.int64),
                "nact": np.asarray(list(self.nact), np.int64),
                "player": np.asarray(list(self.iplayer), np.int64),
                "acts": np.asarray(list(self.acts), np.int64),
                "regret": np.asarray(list(self.R), np.float64),
                "avg": np.asarray(list(self.S), np.float64),
                "strings": np.asarray(self.strings, dtype=str),
                "rng": np.asarray([self.rng.s], np.uint64),
                "iteration": np.asarray([self.iteration], np.int64)}

    def set_state(self, dict st) -> None:
        """Inverse of ``get_state`` (arrays are validated first, then installed)."""
        n = len(st["off"])
        if not (len(st["nact"]) == len(st["player"]) == len(st["strings"]) == n
                and len(st["regret"]) == len(st["avg"]) == len(st["acts"])
                and len(st["keys"]) == len(st["slots"])
                and (n == 0 or int(st["off"][-1] + st["nact"][-1]) == len(st["regret"]))
                and all(0 <= s < n for s in st["slots"].tolist())):
            raise ValueError("inconsistent MCCFR table arrays")
        self.slot_of_key.clear()
        for k, s in zip(st["keys"].tolist(), st["slots"].tolist()):
            self.slot_of_key[<uint64_t>k] = <int>s
        self.off = st["off"].tolist()
        self.nact = st["nact"].tolist()
        self.iplayer = st["player"].tolist()
        self.acts = st["acts"].tolist()
        self.R = st["regret"].tolist()
        self.S = st["avg"].tolist()
        self.strings = st["strings"].tolist()
        self.bucket_slot = {}
        if self.abstraction is not None:
            for s, text in enumerate(self.strings):
                self.bucket_slot[(self.iplayer[s], text)] = s
        self.rng.s = <uint64_t>int(st["rng"][0])
        self.iteration = int(st["iteration"][0])

