# cython: language_level=3
"""Ardillas del Bosque persistence over an ``ArdillasRules`` state
(``rules.pxd``): the versioned snapshot (``dump``/``load``, every check a
ValueError naming what is wrong, the state unchanged) and the invariant check.
``ArdillasEngine``'s methods (``engine.pyx``) are one-line calls into these
functions."""
from src_cy.ardillas_del_bosque.actions cimport MAXB, MAXH, NK
from src_cy.ardillas_del_bosque.catalog cimport *
from src_cy.ardillas_del_bosque.rules cimport ArdillasRules

SNAP_MAGIC = b"ARDL"
# Version 3: an action count before the history, so a truncation is refused.
SNAP_VERSION = 3


def dump(ArdillasRules e) -> bytes:
    """Snapshot: magic, version (1 byte), game string (2-byte length), the
    number of actions (4 bytes) and the action history (2 bytes each)."""
    game = e.game_string.encode()
    hist = b"".join(int(a).to_bytes(2, "little") for a in e.hist)
    return (SNAP_MAGIC + bytes([SNAP_VERSION]) + len(game).to_bytes(2, "little")
            + game + len(e.hist).to_bytes(4, "little") + hist)


def load(ArdillasRules e, data) -> None:
    """Restore a ``dump()`` by replaying its history, each action checked;
    refuses malformed data or another game's (ValueError, state untouched)."""
    if not isinstance(data, (bytes, bytearray)):
        raise ValueError(f"snapshot must be bytes, got {type(data).__name__}")
    data = bytes(data)
    if len(data) < 7 or data[:4] != SNAP_MAGIC:
        raise ValueError("not an Ardillas del Bosque snapshot (bad magic or too short)")
    if data[4] != SNAP_VERSION:
        raise ValueError(f"unsupported snapshot version {data[4]}; this is {SNAP_VERSION}")
    glen = int.from_bytes(data[5:7], "little")
    game = data[7:7 + glen]
    if len(game) != glen or game != e.game_string.encode():
        raise ValueError(f"snapshot was made for {game.decode(errors='replace')!r}, "
                         f"not {e.game_string!r}")
    if len(data) < 11 + glen:
        raise ValueError("Ardillas del Bosque snapshot is truncated (no action count)")
    count = int.from_bytes(data[7 + glen:11 + glen], "little")
    if count > e.max_len:
        raise ValueError(f"snapshot history has {count} actions, "
                         f"more than the game's bound {e.max_len}")
    body = data[11 + glen:]
    if len(body) != 2 * count:
        raise ValueError(f"snapshot history has {len(body)} bytes; {count} actions "
                         f"need {2 * count}")
    actions = [int.from_bytes(body[i:i + 2], "little") for i in range(0, len(body), 2)]
    e.replay_checked(actions, "invalid Ardillas del Bosque snapshot")


def check_invariants(ArdillasRules e) -> None:
    """Raise ValueError naming the broken law (token conservation etc.)."""
    cdef int w, j, o, h, i, p, k, seen
    if not (0 <= e.s.phase < NPHASES):
        raise ValueError(f"phase out of range: {e.s.phase}")
    if not (0 <= e.s.cur < e.N):
        raise ValueError(f"current player out of range: {e.s.cur}")
    if not (-1 <= e.s.ppile < e.H and -1 <= e.s.liz_a < e.H and -1 <= e.s.liz_b < e.H):
        raise ValueError("pending hiding place out of range")
    if not (-1 <= e.s.pend < MAXT):
        raise ValueError("pending token out of range")
    if not (0 <= e.s.boar_n <= MAXT and 0 <= e.s.boar_out <= MAXT):
        raise ValueError("Wild Boar ordering out of range")
    if not (e.s.deal_owner <= e.B):
        raise ValueError("dealing past the last board")
    if e.s.phase in (PH_LYNX_PICK, PH_ANT_DEC, PH_LIZ_SIZE, PH_BOAR_PICK):
        if not (e.s.ppile >= 0):
            raise ValueError("animal action without its pile")
    if e.s.phase == PH_LIZ_TAKE:
        if not (e.s.liz_a >= 0):
            raise ValueError("Lizard take without flipped piles")
    count = {}
    for h in range(MAXH):
        if not (0 <= e.s.psize[h] <= MAXT):
            raise ValueError("pile size out of range")
        if not (h < e.H or e.s.psize[h] == 0):
            raise ValueError("token on a missing hiding place")
        for i in range(e.s.psize[h]):
            o = e.s.pile[h][i]
            if not (0 <= o < MAXT and e.s.loc[o] == h):
                raise ValueError(f"pile h{h} / location mismatch")
            count[o] = count.get(o, 0) + 1
    for p in range(MAXB):
        if not (0 <= e.s.nsize[p] <= MAXT):
            raise ValueError("nest size out of range")
        if not (p < e.N or e.s.nsize[p] == 0):
            raise ValueError("nest of a non-player")
        for i in range(e.s.nsize[p]):
            o = e.s.nest[p][i]
            if not (0 <= o < MAXT and e.s.loc[o] == LOC_NEST + p):
                raise ValueError(f"nest p{p} / location mismatch")
            count[o] = count.get(o, 0) + 1
    if not (all(v == 1 for v in count.values())):
        raise ValueError("token conservation: a token is in two places")
    nact = 0
    for w in range(MAXB):
        if w < e.N:
            nact += e.s.active[w]
        if not (0 <= e.s.nalloc[w] <= (e.tpp if w < e.B else 0)):
            raise ValueError("token conservation: allocated tokens exceed the owner's set")
        kinds = 0
        for j in range(NK):
            o = w * NK + j
            if j < e.s.nalloc[w]:
                k = e.s.kind[o]
                if not (0 <= k < NK and e.kindset & (1 << k)):
                    raise ValueError(f"token kind out of range: {k}")
                if not (not kinds & (1 << k)):
                    raise ValueError(f"token conservation: owner {w} has kind {k} twice")
                kinds |= 1 << k
                if e.s.loc[o] == LOC_HAND:
                    if not (o == e.s.pend):
                        raise ValueError("token conservation: an allocated token is nowhere")
                elif e.s.loc[o] != LOC_REMOVED:
                    if not (count.get(o, 0) == 1):
                        raise ValueError("token conservation: location not in a pile/nest")
            else:
                if not (e.s.kind[o] == -1 and e.s.loc[o] == LOC_HAND):
                    raise ValueError("unallocated token has a kind or a place")
        if not ((kinds | e.s.hand[w]) == (e.kindset if w < e.B else 0) and not (kinds & e.s.hand[w])):
            raise ValueError(f"token conservation: owner {w}'s tokens don't add up")
    if not (nact == e.s.nactive):
        raise ValueError("active player count mismatch")
    if not (0 <= e.s.nlog <= MAXLOG):
        raise ValueError("event log size out of range")
    if not (0 <= e.s.nboards <= e.B):
        raise ValueError("boards drawn out of range")
    used = 0
    for w in range(e.B):
        k = e.s.animal_of[w]
        if (w < e.s.nboards or not e.random_boards) != (0 <= k < 5):
            raise ValueError(f"board {w} shows no board pair, or one before it was drawn")
        if k >= 0:
            if used & (1 << k):
                raise ValueError(f"board pair {k} is in play twice")
            used |= 1 << k
    if e.hist.size() > e.max_len:
        raise ValueError(f"history longer than the game's bound {e.max_len}")
