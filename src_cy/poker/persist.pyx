# cython: language_level=3
"""Kuhn and Leduc poker persistence over a ``KuhnRules`` / ``LeducRules`` state
(``rules.pxd``): the snapshot (magic ``GSPK``, format version, player count,
history length, the history; ``history_load`` replays it on a clone, each
action checked, so a refused snapshot raises ValueError and changes nothing)
and the invariant checks (ValueError naming the broken law).  The engines'
methods (``engine.pyx``) are one-line calls into these functions."""
from src_cy.engine cimport Engine
from src_cy.poker.catalog cimport INVALID_CARD, LEDUC_START_MONEY
from src_cy.poker.rules cimport KuhnRules, LeducRules


POKER_SNAP_MAGIC = b"GSPK"
POKER_SNAP_VERSION = 1
cdef int _HEAD = 6   # magic (4), version, player count; then the history length


cdef bytes _dump_history(int n, int* hist, int hlen):
    return POKER_SNAP_MAGIC + bytes([POKER_SNAP_VERSION, n, hlen] + [hist[i] for i in range(hlen)])


cdef list _parse_history(object data, str what):
    if not isinstance(data, (bytes, bytearray)):
        raise ValueError(f"{what} snapshot must be bytes, got {type(data).__name__}")
    if bytes(data[:4]) != POKER_SNAP_MAGIC:
        raise ValueError(f"not a {what} snapshot: bad magic {bytes(data[:4])!r}")
    if len(data) < _HEAD + 1 or data[4] != POKER_SNAP_VERSION:
        raise ValueError(f"{what} snapshot format version "
                         f"{data[4] if len(data) > 4 else None} is not {POKER_SNAP_VERSION}")
    if data[_HEAD] != len(data) - _HEAD - 1:
        raise ValueError(f"malformed {what} snapshot: length field does not match")
    return list(data[_HEAD + 1:])


def _checked_history(data, name: str, players: int) -> list:
    """The history in a ``_dump_history`` snapshot of `name` for `players`."""
    hist = _parse_history(data, name)
    if data[5] != players:
        raise ValueError(f"{name} snapshot is for {data[5]} players, engine has {players}")
    return hist


def history_load(Engine e, int players, str name, data) -> None:
    """Replay the history of a ``_dump_history`` snapshot on a clone, each
    action checked, and take its state only if every action was legal."""
    hist = _checked_history(data, name, players)
    cdef Engine scratch = e.clone()
    scratch.to_initial()
    for i, a in enumerate(hist):
        try:
            scratch.py_apply(a)
        except ValueError as exc:
            raise ValueError(f"{name} snapshot history is illegal at step {i}: {exc}") from None
    e.copy_from(scratch)


def _require(bint ok, str game, str what) -> None:
    if not ok:
        raise ValueError(f"{game} invariant broken: {what}")


# ---------------------------------------------------------------- Kuhn
def kuhn_dump(KuhnRules e) -> bytes:
    """The snapshot of `e`: its history."""
    return _dump_history(e.d.n, e.d.hist, e.d.hlen)


def kuhn_check_invariants(KuhnRules e) -> None:
    """Raise ValueError naming a broken law (cards, pot)."""
    n = e.d.n
    dealt = [e.d.hist[i] for i in range(min(n, e.d.hlen))]
    _require(len(set(dealt)) == len(dealt), "kuhn", "a card was dealt twice")
    _require(all(0 <= c <= n for c in dealt), "kuhn", "a dealt card is out of range")
    _require(e.d.pot == sum(e.d.ante[p] for p in range(n)), "kuhn", "pot != sum of antes")
    _require(all(e.d.card_owner[c] == i for i, c in enumerate(dealt)), "kuhn",
             "card owners broken")


# ---------------------------------------------------------------- Leduc
def leduc_dump(LeducRules e) -> bytes:
    """The snapshot of `e`: its history."""
    return _dump_history(e.d.n, e.d.hist, e.d.hlen)


def leduc_check_invariants(LeducRules e) -> None:
    """Raise ValueError naming a broken law (cards, deck, pot, money)."""
    n = e.d.n
    cards = [e.d.priv[p] for p in range(e.d.dealt)]
    if e.d.public_card != INVALID_CARD:
        cards.append(e.d.public_card)
    _require(len(set(cards)) == len(cards), "leduc", "a card was dealt twice")
    _require(all(e.d.deck[c] == -1 for c in cards), "leduc",
             "a dealt card is still in the deck")
    _require(e.d.deck_size == e.d.total_cards - len(cards), "leduc", "deck size is wrong")
    if not e.d.terminal:
        _require(e.d.pot == sum(e.d.ante[p] for p in range(n)), "leduc",
                 "pot != sum of antes")
        _require(all(e.d.money[p] + e.d.ante[p] == LEDUC_START_MONEY for p in range(n)),
                 "leduc", "money + ante != starting money")
    _require(abs(sum(e.d.money[p] for p in range(n)) + e.d.pot
                 - n * LEDUC_START_MONEY) < 1e-9, "leduc", "money + pot is not conserved")
