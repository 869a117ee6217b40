# cython: language_level=3
"""Kuhn and Leduc poker action layout: the one definition of every action id
(OpenSpiel's ids).

Cimported by the engines' modules (``src_cy/poker/rules.pyx``, ``render.pyx``);
``src_cy/poker/engine.pyx`` exports it as ``ACTION_LAYOUT``; the Python
mirrors are the constant blocks of
``games/kuhn_poker.py`` and ``games/leduc_poker.py`` (checked against
``ACTION_LAYOUT`` by ``tests/test_poker_engines.py``).  Chance outcomes are
card ids.
"""

cdef enum:
    KUHN_PASS = 0
    KUHN_BET = 1
    KUHN_NUM_ACTIONS = 2
    LEDUC_FOLD = 0
    LEDUC_CALL = 1
    LEDUC_RAISE = 2
    LEDUC_NUM_ACTIONS = 3
