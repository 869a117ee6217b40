"""SplitMix64, goldspiel's one random number generator (Python twin).

:class:`SplitMix64` produces exactly the stream of the C generator in
``src_cy/rng.pxd`` (``rng_next``/``rng_int``/``rng_double``) for the same
seed, so a Python path and its Cython twin that draw in the same order make
the same choices (``tests/test_rng.py`` checks the two streams agree).  Every
seeded Python path in goldspiel draws from it; :func:`derive_seed` splits one
seed into independent per-item seeds.
"""
from __future__ import annotations

from typing import MutableSequence, Sequence, TypeVar

MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15
_INV_2_53 = 1.0 / 9007199254740992.0
T = TypeVar("T")


class SplitMix64:
    """Seeded splitmix64 stream; ``s`` is the whole state (a 64-bit int)."""

    __slots__ = ("s",)

    def __init__(self, seed: int):
        self.s = int(seed) & MASK64

    def next(self) -> int:
        """Next 64-bit output (C: ``rng_next``)."""
        self.s = (self.s + GOLDEN_GAMMA) & MASK64
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def randint(self, n: int) -> int:
        """Uniform integer in [0, n), n >= 1 (C: ``rng_int``)."""
        if n < 1:
            raise ValueError(f"randint needs n >= 1, got {n}")
        return (self.next() >> 11) % n

    def random(self) -> float:
        """Uniform float in [0, 1) (C: ``rng_double``)."""
        return (self.next() >> 11) * _INV_2_53

    def choice(self, seq: Sequence[T]) -> T:
        """One element of a non-empty sequence, uniformly (one ``randint``)."""
        if not seq:
            raise ValueError("choice from an empty sequence")
        return seq[self.randint(len(seq))]

    def shuffle(self, items: MutableSequence) -> None:
        """Shuffle in place (Fisher-Yates from the back, one ``randint`` per swap)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randint(i + 1)
            items[i], items[j] = items[j], items[i]


def derive_seed(seed: int, index: int) -> int:
    """A 64-bit seed for item ``index`` of a run seeded by ``seed``.

    Depends on (seed, index) only, so item k gets the same stream whatever
    order or process it runs in.
    """
    return SplitMix64(SplitMix64(seed).next() ^ ((index * GOLDEN_GAMMA) & MASK64)).next()


def sample_sorted(pairs: Sequence[tuple[int, float]], rng: SplitMix64) -> int:
    """Draw from (outcome, probability) pairs in their given order (callers sort
    them when the order could vary): one ``random()``."""
    u = rng.random()
    acc = 0.0
    for outcome, p in pairs[:-1]:
        acc += p
        if u < acc:
            return outcome
    return pairs[-1][0]
