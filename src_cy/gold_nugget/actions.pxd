# cython: language_level=3
"""Gold Nugget action layout: the one definition of every action id, and the
card and animal ids actions and chance outcomes are built from.

Cimported by every module of this folder (the rules kernel
``src_cy/gold_nugget/rules.pyx`` and the others); the engine
(``src_cy/gold_nugget/engine.pyx``) exports it as ``ACTION_LAYOUT``; the Python mirrors are the constant blocks of
``games/gold_nugget/__init__.py`` and ``games/gold_nugget/ai.py`` (checked against
``ACTION_LAYOUT`` by ``tests/games/gold_nugget/test_gold_nugget_layout.py``).  The action table
with meanings is in ``games/gold_nugget/__init__.py``'s docstring.
"""

cdef enum:
    MAXP = 5         # seats (actions "+ seat" span MAXP ids)
    MAXS = 24        # stones (stone actions span MAXP * MAXS ids)
    NLEAF = 16       # leaf cards (actions "+ card" span NLEAF ids)
    NWIND = 5
    NCARD = 21       # forest cards: leaf 0-15, wind 16-20
    NANIMAL = 12


# ---------------------------------------------------------------- cards
cdef enum:
    C_BEG = 0
    C_CHANCE = 1
    C_NHF = 2
    C_SUSP = 3
    C_GOLD = 4
    C_LOYAL = 5
    C_TRIBUTE = 6
    C_DOIHAVE = 7
    C_PEEK = 8
    C_GLANCE = 9
    C_SHOUT = 10
    C_PLUCK = 11
    C_SLEIGHT = 12
    C_PREEN = 13
    C_NESTDIVE = 14
    C_ACCUSE = 15
    W_STALKING = 16
    W_CALM = 17
    W_GUST = 18
    W_WHIRL = 19
    W_ECLIPSE = 20
    # effect-only ids
    E_RECYCLE = 21
    E_VICTORY = 22   # a victory card played: revealed, nothing to resolve
    E_MOLE = 27
    E_GUST = 28

# animals
cdef enum:
    A_RACCOON = 0
    A_RABBIT = 1
    A_FOX = 2
    A_SQUIRREL = 3
    A_SNAKE = 4
    A_BEAR = 5
    A_BAT = 6
    A_OWL = 7
    A_HEDGEHOG = 8
    A_MAGPIE = 9
    A_MOLE = 10
    A_BADGER = 11

# ---------------------------------------------------------------- actions
cdef enum:
    A_PASS = 0
    A_SLEEP = 1
    A_MEDDLE = 2
    A_OPT0 = 3
    A_OPT1 = 4
    A_ABILITY = 5
    A_VICTORY = 6
    A_FEATHER = 7
    A_PLAY = 8
    A_RECYCLE = 24
    A_DISCARD = 40
    A_PLAYER = 56
    A_NEST = 61
    A_STONE = 62
    NUM_ACTIONS = 62 + MAXP * MAXS
    MAX_CHANCE = MAXS
