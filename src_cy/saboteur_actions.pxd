# cython: language_level=3
"""Saboteur action layout: the one definition of every action id.

``C`` is the number of maze cells (``(2R + 1) ** 2``, a game parameter), so
ids are built from these constants at run time:

* ``(2 k + o) * C + cell``: place tunnel kind ``k`` (0..15), ``o = 1`` turned;
* ``A_ROCK_BLOCK * C + cell``: rockfall on ``cell``;
* ``A_TAIL_BLOCK * C + off``: the fixed tail, ``off`` one of
  ``A_BREAK + A_STRIDE * t + q`` (break tool ``t`` of player ``q``),
  ``A_REPAIR + A_STRIDE * (3 r + t) + q`` (repair card ``21 + r`` mends tool
  ``t`` of ``q``), ``A_MAP + g`` (look at goal ``g``), ``A_PASS + k`` (pass,
  discarding kind ``k``), ``A_KEEP + v`` (keep a gold card of value ``v``),
  ``A_HAND_ON + v`` (finder hands a card of value ``v`` on);
  ``A_TAIL_SIZE`` ids in all.

The Python mirror is the ``A_*`` constants of ``games/saboteur.py``, checked
against ``src_cy.saboteur.ACTION_LAYOUT`` by the tests.
"""

cdef enum:
    A_ROCK_BLOCK = 32
    A_TAIL_BLOCK = 33
    A_STRIDE = 10
    A_BREAK = 0
    A_REPAIR = 30
    A_MAP = 210
    A_PASS = 213
    A_KEEP = 240
    A_HAND_ON = 243
    A_TAIL_SIZE = 246
