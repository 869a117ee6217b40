# cython: language_level=3
"""Gold Thief action layout: the one definition of every action id.

Cimported by the rules kernel (``src_cy/gold_thief/rules.pxd``, which
re-exports it to the game's other modules and to the Cython rollout
``src_cy/gold_thief/rollout.pyx``); the Python mirror is the
constant block of ``games/gold_thief/__init__.py`` (checked against the engine's
``ACTION_LAYOUT`` by ``tests/games/gold_thief/test_gold_thief.py``).
"""

cdef enum:
    MAXP = 5              # seats (actions "+ seat" span MAXP ids)
    NT = 5                # card types (actions "+ type" span NT ids)
    MAX_GOALS = 24        # goal ids (actions "+ goal" span MAX_GOALS ids)

# Card types.
cdef enum:
    THIEF = 0
    GUARD = 1
    WITCH = 2
    FAERIE = 3
    NINJA = 4

# Player actions.
cdef enum:
    A_END_TURN = 0
    A_PASS = 1
    A_THIEF = 2           # + victim seat
    A_GUARD = 7           # + recipient seat
    A_WITCH = 12          # + victim seat
    A_FAERIE = 17         # + goal id
    A_NINJA = 41
    A_GUARD_CANCEL = 42
    A_THIEF_RAID = 43
    A_WITCH_EXTRA = 44
    A_FAERIE_CANCEL = 45
    A_NINJA_SCORE = 46    # + goal id
    A_BIG_FLIP = 70       # + goal id
    A_GIVE = 94           # + card type
    NUM_ACTIONS = 99
    # Chance outcomes.
    C_CARD = 0            # + card type
    C_GOAL = 5            # + goal id
    C_FIRST = 29          # + seat
    NUM_CHANCE = 34
