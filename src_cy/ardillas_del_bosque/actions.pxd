# cython: language_level=3
"""Ardillas del Bosque action layout: the one definition of every action id.

Cimported by the game's modules (``rules.pyx``, ``resample.pyx``, ``render.pyx``);
the engine (``src_cy/ardillas_del_bosque/engine.pyx``) exports it as
``ACTION_LAYOUT``; the Python mirror is the constant block of
``games/ardillas_del_bosque/__init__.py`` (checked against ``ACTION_LAYOUT`` by
``tests/games/ardillas_del_bosque/test_ardillas_del_bosque.py``).  The action table with meanings is in
that module's docstring.
"""

cdef enum:
    MAXB = 5              # boards (players + sleepyheads); NEST t spans MAXB seats
    MAXH = 10             # hiding places; PILE h spans MAXH ids
    NK = 7                # token kinds; chance outcomes 0..NK-1 are kinds
    SQUIRREL = 5          # kinds 0-4 are nuts
    POO = 6

# Player actions.
cdef enum:
    A_PILE = 0            # + hiding place h
    A_TAKE = 10           # Ant: take the peeked token
    A_KEEP = 11           # + kind (night keep)
    A_NPLACE = 18         # + 10 * kind + h (night hide)
    A_INDEX = 88          # + index
    A_PAIR = 123          # + 10 * a + b (Lizard flip, a < b)
    A_NEST = 223          # + 12 * seat + c (Fox / Owl)
    A_BEETLE = 283        # + 5 * from + to (Dung Beetle)
    A_SNAKE_UP = 308      # + kind
    A_SNAKE_DOWN = 313    # + own face-down token index
    NUM_ACTIONS = 318
