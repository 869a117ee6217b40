# cython: language_level=3
"""Compile a game tree from a rules engine over its ``cdef`` interface.

The walk is the one of ``solvers.tree.compile_engine`` (the same node ids,
information-set ids and arrays) with no Python call per node: nodes come
from the engine's vtable and grow C++ vectors; Python is entered once per
information set, to read its information-state string.  Node order: a node's
children get one contiguous block of ids when the node is visited, and the
children are then visited depth first, in the order of the node's legal
actions (decision) or chance outcomes (chance).
"""
from libc.stdint cimport uint64_t
from libcpp.unordered_map cimport unordered_map
from libcpp.vector cimport vector
from cython.operator cimport dereference

import numpy as np

from src_cy.engine cimport Engine, CHANCE_PLAYER, MAX_BRANCHING, ENGINE_MAX_PLAYERS

cdef uint64_t PLAYER_MIX = <uint64_t>0x9E3779B97F4A7C15


class TreeSizeError(ValueError):
    """More nodes than the bound; carries the sizes reached so far."""


cdef class _Compiler:
    cdef vector[int] kind, player, infoset, parent, action, cstart, ncld, tindex
    cdef vector[double] cprob, rets
    cdef vector[int] iplayer, inum, ioff, iacts
    cdef vector[uint64_t] ikeys
    cdef unordered_map[uint64_t, int] lookup
    cdef list strings, pool
    cdef long max_nodes
    cdef int P
    cdef Engine proto
    cdef bint with_strings

    def __init__(self, Engine proto, long max_nodes, bint with_strings=True):
        self.with_strings = with_strings
        self.proto = proto.clone()
        self.P = proto.num_players
        self.max_nodes = max_nodes
        self.strings = []
        self.pool = []

    cdef Engine _at(self, int depth):
        while depth >= len(self.pool):
            self.pool.append(self.proto.clone())
        return <Engine>self.pool[depth]

    cdef int _block(self, int node, int n) except -1:
        cdef int start = self.kind.size(), k
        if start + n > self.max_nodes:
            raise TreeSizeError(start + n, len(self.strings))
        for k in range(n):
            self.kind.push_back(0)
            self.player.push_back(0)
            self.infoset.push_back(-1)
            self.parent.push_back(node)
            self.action.push_back(0)
            self.cstart.push_back(0)
            self.ncld.push_back(0)
            self.cprob.push_back(0.0)
            self.tindex.push_back(-1)
        self.cstart[node] = start
        self.ncld[node] = n
        return start

    cdef int _visit(self, Engine e, int node, int depth) except -1:
        cdef int acts[MAX_BRANCHING]
        cdef double probs[MAX_BRANCHING]
        cdef double ret[ENGINE_MAX_PLAYERS]
        cdef int n, k, cur, start, idx, off
        cdef uint64_t key
        cdef unordered_map[uint64_t, int].iterator it
        cdef Engine child
        if e.is_terminal():
            e.returns(ret)
            self.kind[node] = 0
            self.player[node] = -4
            self.tindex[node] = <int>(self.rets.size() // self.P)
            for k in range(self.P):
                self.rets.push_back(ret[k])
            return 0
        cur = e.current_player()
        if cur == CHANCE_PLAYER:
            n = e.chance_outcomes(acts, probs)
            self.kind[node] = 1
            self.player[node] = CHANCE_PLAYER
            start = self._block(node, n)
            for k in range(n):
                self.cprob[start + k] = probs[k]
        else:
            n = e.legal_actions(acts)
            key = e.info_key(cur) + <uint64_t>cur * PLAYER_MIX
            it = self.lookup.find(key)
            if it == self.lookup.end():
                idx = self.iplayer.size()
                self.lookup[key] = idx
                self.iplayer.push_back(cur)
                self.inum.push_back(n)
                self.ioff.push_back(self.iacts.size())
                self.ikeys.push_back(e.info_key(cur))
                for k in range(n):
                    self.iacts.push_back(acts[k])
                self.strings.append((<object>e).info_string(cur) if self.with_strings else None)
            else:
                idx = dereference(it).second
                self._check(idx, acts, n)
            self.kind[node] = 2
            self.player[node] = cur
            self.infoset[node] = idx
            start = self._block(node, n)
        for k in range(n):
            self.action[start + k] = acts[k]
        child = self._at(depth + 1)
        for k in range(n):
            child.copy_from(e)
            child.apply(acts[k])
            self._visit(child, start + k, depth + 1)
        return 0

    cdef int _check(self, int idx, int* acts, int n) except -1:
        cdef int k, off = self.ioff[idx]
        same = self.inum[idx] == n
        if same:
            for k in range(n):
                if self.iacts[off + k] != acts[k]:
                    same = False
                    break
        if not same:
            raise ValueError(
                f"information set {self.strings[idx]!r} has different legal actions in two "
                f"of its states: {[self.iacts[off + k] for k in range(self.inum[idx])]} vs "
                f"{[acts[k] for k in range(n)]}")
        return 0

    def run(self):
        cdef Engine root = self._at(0)
        root.copy_from(self.proto)
        self.kind.push_back(0)
        self.player.push_back(0)
        self.infoset.push_back(-1)
        self.parent.push_back(-1)
        self.action.push_back(-1)
        self.cstart.push_back(0)
        self.ncld.push_back(0)
        self.cprob.push_back(1.0)
        self.tindex.push_back(-1)
        self._visit(root, 0, 0)
        keys = np.empty(self.ikeys.size(), np.uint64)
        cdef uint64_t[::1] kv = keys
        cdef Py_ssize_t i
        for i in range(<Py_ssize_t>self.ikeys.size()):
            kv[i] = self.ikeys[i]
        return {
            "kind": _ivec(self.kind), "player": _ivec(self.player),
            "infoset": _ivec(self.infoset), "parent": _ivec(self.parent),
            "action": _ivec(self.action), "child_start": _ivec(self.cstart),
            "num_children": _ivec(self.ncld), "chance_prob": _dvec(self.cprob),
            "terminal_index": _ivec(self.tindex),
            "terminal_returns": _dvec(self.rets).reshape(-1, self.P),
            "infoset_player": _ivec(self.iplayer), "infoset_num_actions": _ivec(self.inum),
            "infoset_actions": _ivec(self.iacts), "infoset_keys": keys,
            "infoset_strings": self.strings,
        }


def compile_arrays(Engine engine, long max_nodes, bint with_strings=True):
    """The raw arrays of ``engine``'s tree (see ``solvers.tree.compile_engine_fast``).

    Raises ``TreeSizeError(nodes_reached, infosets_so_far)`` past ``max_nodes``.
    ``with_strings=False`` skips the information strings (``None`` in their place).
    """
    return _Compiler(engine, max_nodes, with_strings).run()


include "vectors.pxi"
