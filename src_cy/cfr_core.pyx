# cython: language_level=3
"""CFR-family iterations, best response and NashConv on a compiled game tree.

The tree comes from ``solvers.tree.compile_game``: nodes are numbered so that
every parent has a smaller id than its children and each node's children are a
contiguous id range, in the order of its legal actions (or chance outcomes).
A CFR pass is then one forward sweep (reach probabilities) and one backward
sweep (values, regrets, average-strategy sums) over plain arrays.

Update rules follow OpenSpiel's ``open_spiel/python/algorithms/cfr.py`` and
``discounted_cfr.py``: alternating updates player by player; after each
player's pass optional RM+ clipping of all regrets, optional DCFR discounting
of that player's regrets, then regret matching for the current policy.
"""
from libc.math cimport pow

import numpy as np

cdef enum:
    KIND_TERMINAL = 0
    KIND_CHANCE = 1
    KIND_DECISION = 2

cdef enum:
    MODE_CONSTANT = 0
    MODE_LINEAR = 1
    MODE_POWER = 2

AVG_CONSTANT = MODE_CONSTANT
AVG_LINEAR = MODE_LINEAR
AVG_POWER = MODE_POWER


cdef class TreeView:
    """Typed views over a ``CompiledTree``'s arrays (shared, not copied)."""
    cdef public object tree
    cdef int N, I, P
    cdef int[::1] kind, player, infoset, cstart, ncld, term
    cdef double[::1] cprob
    cdef double[:, ::1] rets
    cdef int[::1] iplayer, ioff, inum, mstart, mnodes

    def __init__(self, tree):
        self.tree = tree
        self.N = len(tree.kind)
        self.I = len(tree.infoset_player)
        self.P = tree.num_players
        self.kind = tree.kind
        self.player = tree.player
        self.infoset = tree.infoset
        self.cstart = tree.child_start
        self.ncld = tree.num_children
        self.term = tree.terminal_index
        self.cprob = tree.chance_prob
        self.rets = tree.terminal_returns
        self.iplayer = tree.infoset_player
        self.ioff = tree.infoset_offset
        self.inum = tree.infoset_num_actions
        self.mstart = tree.member_start
        self.mnodes = tree.member_nodes


cdef void _regret_match(double* r, double* out, int n) noexcept nogil:
    cdef double s = 0.0
    cdef int k
    for k in range(n):
        if r[k] > 0:
            s += r[k]
    if s > 0:
        for k in range(n):
            out[k] = (r[k] if r[k] > 0 else 0.0) / s
    else:
        for k in range(n):
            out[k] = 1.0 / n


cdef class CFRCore:
    """Regret/average tables and the iteration loop for one solver."""
    cdef TreeView t
    cdef public object regret, cum_policy, policy
    cdef double[::1] R, S, SIG, own, oth, val
    cdef public long iteration
    cdef public bint rm_plus, discount
    cdef public int avg_mode
    cdef public double alpha, beta, gamma

    def __init__(self, tree, bint rm_plus=False, int avg_mode=MODE_CONSTANT,
                 double gamma=1.0, bint discount=False, double alpha=1.0, double beta=1.0):
        self.t = TreeView(tree)
        a = int(tree.num_slots)
        self.regret = np.zeros(a)
        self.cum_policy = np.zeros(a)
        self.policy = np.zeros(a)
        self.R = self.regret
        self.S = self.cum_policy
        self.SIG = self.policy
        self.own = np.zeros(self.t.N)
        self.oth = np.zeros(self.t.N)
        self.val = np.zeros(self.t.N)
        self.iteration = 0
        self.rm_plus = rm_plus
        self.avg_mode = avg_mode
        self.gamma = gamma
        self.discount = discount
        self.alpha = alpha
        self.beta = beta
        self.refresh_policy()

    def refresh_policy(self) -> None:
        """Current policy := regret matching of the cumulative regrets."""
        cdef int i
        for i in range(self.t.I):
            _regret_match(&self.R[self.t.ioff[i]], &self.SIG[self.t.ioff[i]], self.t.inum[i])

    def iterate(self, long n=1) -> None:
        """Run `n` full iterations (one pass per player each)."""
        cdef long k
        cdef int p
        for k in range(n):
            self.iteration += 1
            for p in range(self.t.P):
                with nogil:
                    self._pass(p)
                    self._post(p)

    cdef void _pass(self, int p) noexcept nogil:
        cdef int i, k, c, off, n, kd
        cdef double pr, v, w, u
        cdef double ti = <double>self.iteration
        if self.avg_mode == MODE_CONSTANT:
            w = 1.0
        elif self.avg_mode == MODE_LINEAR:
            w = ti
        else:
            w = pow(ti, self.gamma)
        self.own[0] = 1.0
        self.oth[0] = 1.0
        for i in range(self.t.N):
            n = self.t.ncld[i]
            if n == 0:
                continue
            c = self.t.cstart[i]
            if self.t.kind[i] == KIND_CHANCE:
                for k in range(n):
                    self.own[c + k] = self.own[i]
                    self.oth[c + k] = self.oth[i] * self.t.cprob[c + k]
            else:
                off = self.t.ioff[self.t.infoset[i]]
                if self.t.player[i] == p:
                    for k in range(n):
                        self.own[c + k] = self.own[i] * self.SIG[off + k]
                        self.oth[c + k] = self.oth[i]
                else:
                    for k in range(n):
                        self.own[c + k] = self.own[i]
                        self.oth[c + k] = self.oth[i] * self.SIG[off + k]
        for i in range(self.t.N - 1, -1, -1):
            kd = self.t.kind[i]
            if kd == KIND_TERMINAL:
                self.val[i] = self.t.rets[self.t.term[i], p]
                continue
            c = self.t.cstart[i]
            n = self.t.ncld[i]
            v = 0.0
            if kd == KIND_CHANCE:
                for k in range(n):
                    v += self.t.cprob[c + k] * self.val[c + k]
                self.val[i] = v
                continue
            off = self.t.ioff[self.t.infoset[i]]
            for k in range(n):
                v += self.SIG[off + k] * self.val[c + k]
            self.val[i] = v
            if self.t.player[i] == p:
                pr = self.oth[i]
                u = w * self.own[i]
                for k in range(n):
                    self.R[off + k] += pr * (self.val[c + k] - v)
                    self.S[off + k] += u * self.SIG[off + k]

    cdef void _post(self, int p) noexcept nogil:
        cdef int i, k, off
        cdef double ti = <double>self.iteration, ta, tb
        cdef double fpos = 1.0, fneg = 1.0
        if self.discount:
            ta = pow(ti, self.alpha)
            tb = pow(ti, self.beta)
            fpos = ta / (ta + 1.0)
            fneg = tb / (tb + 1.0)
        for i in range(self.t.I):
            if self.t.iplayer[i] != p:
                continue
            off = self.t.ioff[i]
            for k in range(self.t.inum[i]):
                if self.rm_plus and self.R[off + k] < 0:
                    self.R[off + k] = 0.0
                if self.discount:
                    if self.R[off + k] >= 0:
                        self.R[off + k] *= fpos
                    else:
                        self.R[off + k] *= fneg
            _regret_match(&self.R[off], &self.SIG[off], self.t.inum[i])

    def average(self):
        """Normalised cumulative policy; uniform where nothing accumulated."""
        cdef int i, k, off, n
        cdef double s
        out = np.zeros(len(self.cum_policy))
        cdef double[::1] o = out
        for i in range(self.t.I):
            off = self.t.ioff[i]
            n = self.t.inum[i]
            s = 0.0
            for k in range(n):
                s += self.S[off + k]
            for k in range(n):
                o[off + k] = self.S[off + k] / s if s != 0 else 1.0 / n
        return out


cdef class Evaluator:
    """Expected values, exact best responses and NashConv for a policy array."""
    cdef TreeView t
    cdef double[::1] SIG, reach, bv
    cdef char[::1] done
    cdef int[::1] choice
    cdef int b
    cdef object _sig_arr

    def __init__(self, tree, policy):
        self.t = TreeView(tree)
        self._sig_arr = np.ascontiguousarray(policy, dtype=np.float64)
        self.SIG = self._sig_arr
        self.reach = np.zeros(self.t.N)
        self.bv = np.zeros(self.t.N)
        self.done = np.zeros(self.t.N, np.int8)
        self.choice = np.zeros(max(self.t.I, 1), np.int32)

    def policy_values(self):
        """Expected return of every player when all follow the policy."""
        cdef TreeView t = self.t
        cdef int i, k, c, n, p, off
        cdef double v
        vals = np.zeros((t.N, t.P))
        cdef double[:, ::1] V = vals
        for i in range(t.N - 1, -1, -1):
            if t.kind[i] == KIND_TERMINAL:
                for p in range(t.P):
                    V[i, p] = t.rets[t.term[i], p]
                continue
            c = t.cstart[i]
            n = t.ncld[i]
            for p in range(t.P):
                v = 0.0
                if t.kind[i] == KIND_CHANCE:
                    for k in range(n):
                        v += t.cprob[c + k] * V[c + k, p]
                else:
                    off = t.ioff[t.infoset[i]]
                    for k in range(n):
                        v += self.SIG[off + k] * V[c + k, p]
                V[i, p] = v
        return vals[0].copy()

    def best_response(self, int b):
        """(value, per-infoset chosen action slot) of `b`'s best response."""
        cdef TreeView t = self.t
        cdef int i, k, c, n, off
        self.b = b
        self.reach[0] = 1.0
        for i in range(t.N):
            n = t.ncld[i]
            c = t.cstart[i]
            if t.kind[i] == KIND_CHANCE:
                for k in range(n):
                    self.reach[c + k] = self.reach[i] * t.cprob[c + k]
            elif t.kind[i] == KIND_DECISION:
                off = t.ioff[t.infoset[i]]
                for k in range(n):
                    self.reach[c + k] = self.reach[i] * (
                        1.0 if t.player[i] == b else self.SIG[off + k])
        self.done[:] = 0
        self.choice[:] = -1
        value = self._br(0)
        return value, np.asarray(self.choice).copy()

    cdef double _br(self, int i):
        cdef TreeView t = self.t
        cdef int k, c, n, off, inf
        cdef double v = 0.0
        if self.done[i]:
            return self.bv[i]
        c = t.cstart[i]
        n = t.ncld[i]
        if t.kind[i] == KIND_TERMINAL:
            v = t.rets[t.term[i], self.b]
        elif t.kind[i] == KIND_CHANCE:
            for k in range(n):
                v += t.cprob[c + k] * self._br(c + k)
        elif t.player[i] != self.b:
            off = t.ioff[t.infoset[i]]
            for k in range(n):
                if self.SIG[off + k] != 0.0:
                    v += self.SIG[off + k] * self._br(c + k)
        else:
            inf = t.infoset[i]
            if self.choice[inf] < 0:
                self._decide(inf)
            v = self._br(c + self.choice[inf])
        self.done[i] = 1
        self.bv[i] = v
        return v

    cdef void _decide(self, int inf):
        cdef TreeView t = self.t
        cdef int a, m, node, best = 0
        cdef double q, bestq = 0.0
        for a in range(t.inum[inf]):
            q = 0.0
            for m in range(t.mstart[inf], t.mstart[inf + 1]):
                node = t.mnodes[m]
                if self.reach[node] != 0.0:
                    q += self.reach[node] * self._br(t.cstart[node] + a)
            if a == 0 or q > bestq:
                bestq = q
                best = a
        self.choice[inf] = best
