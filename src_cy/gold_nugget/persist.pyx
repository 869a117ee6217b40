# cython: language_level=3
"""Gold Nugget persistence: the versioned snapshot (``dump``/``load``: every
check a ValueError naming what is wrong, the state unchanged) and the
invariant check, each a function of a ``GoldNuggetRules`` state
(``rules.pyx``); ``GoldNuggetEngine``'s methods call them.
"""
import struct as _struct

from src_cy.gold_nugget.actions cimport *
from src_cy.gold_nugget.catalog cimport *
from src_cy.gold_nugget.rules cimport GN, GoldNuggetRules

from src_cy.gold_nugget.rules import LEAF_CATALOG, WIND_CATALOG

SNAP_VERSION = 3   # the snapshot format
MAGIC = b"GNUG"    # the snapshot tag


def dump(GoldNuggetRules self) -> bytes:
    """Snapshot: versioned, with the game string and the action history."""
    gs = str(self.game_string).encode()
    h = [a for a in self.hist]
    return MAGIC + _struct.pack("<II", SNAP_VERSION, len(gs)) + gs + \
        _struct.pack("<I", len(h)) + _struct.pack(f"<{len(h)}i", *h)


def load(GoldNuggetRules self, data) -> None:
    """Restore a ``dump()`` snapshot by replaying its history, each action
    checked; ValueError (and no change) if anything is wrong."""
    if not isinstance(data, (bytes, bytearray)) or len(data) < 12 or data[:4] != MAGIC:
        raise ValueError("not a gold_nugget snapshot")
    ver, glen = _struct.unpack("<II", data[4:12])
    if ver != SNAP_VERSION:
        raise ValueError(f"unsupported gold_nugget snapshot version {ver}; this is "
                         f"{SNAP_VERSION}")
    if len(data) < 16 + glen:
        raise ValueError("gold_nugget snapshot is truncated")
    gs = bytes(data[12:12 + glen]).decode(errors="replace")
    if gs != str(self.game_string):
        raise ValueError(f"gold_nugget snapshot is for {gs!r}, not {self.game_string!r}")
    (nh,) = _struct.unpack("<I", data[12 + glen:16 + glen])
    if len(data) != 16 + glen + 4 * nh:
        raise ValueError(f"gold_nugget snapshot has {len(data)} bytes; expected "
                         f"{16 + glen + 4 * nh}")
    hist = _struct.unpack(f"<{nh}i", data[16 + glen:])
    cdef GoldNuggetRules e = <GoldNuggetRules>self.clone()
    e.to_initial()
    for i, a in enumerate(hist):
        try:
            e.py_apply(a)
        except ValueError as exc:
            raise ValueError(f"gold_nugget snapshot history is illegal at step {i}: "
                             f"{exc}") from None
    self.copy_from(e)


def check_invariants(GoldNuggetRules self) -> None:
    """Raise ValueError naming any broken conservation law."""
    cdef GN* g = &self.g
    n = g.n
    def need(ok, msg):
        if not ok:
            raise ValueError(msg)
    need(2 <= n <= MAXP and 0 < g.nstones <= MAXS, "player or stone count out of range")
    seen = []
    for q in range(n):
        need(0 <= g.lairn[q] <= MAXS, f"lair size of p{q} out of range")
        seen += [g.lair[q][i] for i in range(g.lairn[q]) if not (g.grabbed >> g.lair[q][i]) & 1]
    need(0 <= g.nestn <= MAXS, "nest size out of range")
    seen += [g.nest[i] for i in range(g.nestn) if not (g.grabbed >> g.nest[i]) & 1]
    seen += [g.got[p] for p in range(n) if g.got[p] >= 0 and g.phase != PH_END]
    need(sorted(seen) == list(range(g.nstones)),
         f"stone conservation broken: {sorted(seen)} vs {g.nstones} stones")
    faces = sorted(g.face[s] for s in range(g.nstones))
    need(faces.count(F_NUGGET) == 1 and faces.count(F_TRAP) == g.ntrap,
         "stone faces conservation broken (one Gold Nugget, the trap count)")
    need(sum(g.feathers[p] for p in range(n)) + g.nest_feathers == g.nfeathers,
         "black feather conservation broken")
    need(all(0 <= g.feathers[p] <= 2 for p in range(n)),
         "an animal holds 3+ feathers without being caught")
    for p in range(n):
        need(sum(g.hand[p][k] for k in range(NLEAF)) == g.handn[p],
             f"hand size of p{p} does not match its cards")
    for k in range(NLEAF):
        total = g.deck[k] + g.discard[k] + sum(g.hand[p][k] for p in range(n)) + \
            sum(1 for p in range(n) if g.facedown[p] == k)
        need(total == g.leaf_init[k],
             f"leaf card conservation broken for {LEAF_CATALOG[k][0]}: {total} vs "
             f"{g.leaf_init[k]}")
    for w in range(NWIND):
        need(g.deck[NLEAF + w] + g.boxed[w] == g.wind_init[w] or g.phase == PH_DEAL,
             f"wind card conservation broken for {WIND_CATALOG[w][0]}")
    need(g.lazy == 0, "a resampling walk's lazy state leaked into a game")
    need(g.nmoves <= g.max_moves, "move budget exceeded")
    need(<int>self.hist.size() == g.nmoves and <int>self.hact.size() == g.nmoves,
         "history length does not match the moves made")
