# cython: language_level=3
"""Ardillas del Bosque catalogue: the engine's constant tables (sizes, token
locations, phases, event kinds, history-step codes) as C enums, cimported by
every module of the game (``rules``, ``resample``, ``render``, ``persist``);
their names for people (``KIND_NAMES``, ``PHASE_NAMES``, ...) are in
``render.pyx``.  The action layout is ``actions.pxd``."""

cdef enum:
    MAXT = 35         # token objects (o = owner * NK + j)
    PUB = 0x80        # `known` bit: everybody knows the kind
    LOC_HAND = -1
    LOC_NEST = 10     # nest of player p is LOC_NEST + p
    LOC_REMOVED = 20
    MAXLOG = 2048
    NUM_BOARD_PAIRS = 5

# phases
cdef enum:
    PH_DEAL = 0
    PH_ADRAW = 1
    PH_APLACE = 2
    PH_KEEP = 3
    PH_NPLACE = 4
    PH_WDRAW = 5
    PH_BEAR_FLIP = 6
    PH_BEAR_DRAW = 7
    PH_LYNX_PILE = 8
    PH_LYNX_PICK = 9
    PH_EAGLE = 10
    PH_ANT_NEST = 11
    PH_ANT_DEC = 12
    PH_LIZ_DEST = 13
    PH_LIZ_SIZE = 14
    PH_LIZ_PAIR = 15
    PH_LIZ_TAKE = 16
    PH_BOAR_PILE = 17
    PH_BOAR_PICK = 18
    PH_FOX = 19
    PH_OWL = 20
    PH_BEETLE = 21
    PH_SNAKE = 22
    PH_END = 23
    PH_BOARDS = 24
    NPHASES = 25

# events
cdef enum:
    E_DEAL = 0
    E_DEAL_REMOVED = 1
    E_ADRAW = 2
    E_PLACE = 3
    E_KEEP = 4
    E_DRAW = 5
    E_FLIP = 6
    E_EXPOSE = 7
    E_LOOK = 8
    E_SEE = 9
    E_EAGLE = 10
    E_ANT_NEST = 11
    E_PEEK = 12
    E_ANT_MOVE = 13
    E_SPLIT = 14
    E_LIZ_FLIP = 15
    E_BOAR_PICK = 16
    E_BOAR_DONE = 17
    E_FOX = 18
    E_OWL = 19
    E_BEETLE = 20
    E_SNAKE = 21
    E_ELIM = 22
    E_REVEAL = 23
    E_ANIMAL = 24
    E_END = 25
    E_BOARD = 26
    E_LIZ_DEST = 27

# history steps (for the perfect-recall tensor)
cdef enum:
    MAXSTEP = 512
    TAG_BOARD = 8
    TAG_DEAL = 9
    TAG_ADRAW = 10    # + owner
    # step codes as a player sees a history step
    C_BOARD = 318     # + board pair
    C_SEEN_KIND = 323 # + kind (own autumn draw)
    C_HIDDEN = 330    # a chance draw the player does not see
    C_KEEP = 331      # another player's night keep
    C_NPLACE = 332    # + h: another player's night hide
    NCODE = 342
    CODE_LO = 32
    CODE_HI = 11
