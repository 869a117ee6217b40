# cython: language_level=3
"""Saboteur action layout: the one definition of every action id.

Placements and rockfalls target positions in two state-dependent lists
(``SabState.front`` and ``SabState.tun``, decoded by ``sab_target`` in
``rules.pxd``): the *frontier*, the empty maze cells orthogonally next to
a card on the table (start, goals, tunnels), and the tunnel cards on the
table, both in cell-index order.
``F`` (``SabConf.F``, a proven bound on the frontier's length) and ``T``
(tunnel cards in the deck) are game parameters, so ids are built from these
constants at run time:

* ``(2 k + o) * F + j``: place tunnel kind ``k`` (0..15), ``o = 1`` turned,
  on the ``j``-th frontier cell;
* ``A_ROCK_BLOCK * F + i``: rockfall on the ``i``-th tunnel card;
* ``A_ROCK_BLOCK * F + T + off``: the fixed tail, ``off`` one of
  ``A_BREAK + A_STRIDE * t + q`` (break tool ``t`` of player ``q``),
  ``A_REPAIR + A_STRIDE * (3 r + t) + q`` (repair card ``21 + r`` mends tool
  ``t`` of ``q``), ``A_MAP + g`` (look at goal ``g``), ``A_PASS + k`` (pass,
  discarding kind ``k``), ``A_KEEP + v`` (keep a gold card of value ``v``),
  ``A_HAND_ON + v`` (finder hands a card of value ``v`` on);
  ``A_TAIL_SIZE`` ids in all.

The Python mirror is the ``A_*`` constants of ``games/saboteur/__init__.py``, checked
against ``src_cy.saboteur.engine.ACTION_LAYOUT`` by the tests.
"""

cdef enum:
    A_ROCK_BLOCK = 32
    A_STRIDE = 10
    A_BREAK = 0
    A_REPAIR = 30
    A_MAP = 210
    A_PASS = 213
    A_KEEP = 240
    A_HAND_ON = 243
    A_TAIL_SIZE = 246
