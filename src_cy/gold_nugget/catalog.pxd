# cython: language_level=3
"""Gold Nugget constant ids: phases, decision kinds, effect contexts, event
kinds, victory-card ids, stone faces and owners.

Cimported by every module of ``src_cy/gold_nugget/`` (the rules kernel
``rules.pyx``, the resampler ``resample.pyx``, ``render.pyx``,
``persist.pyx``); the catalogues as data (names, counts, rule flags) are
``catalog.pxi``, the action, card and animal ids ``actions.pxd``.
"""

cdef enum:
    NVC = 6          # victory cards
    NEST = 5         # owner code of the nest
    # faces
    F_NORMAL = 0
    F_TRAP = 1
    F_NUGGET = 2

# ---------------------------------------------------------------- phases
cdef enum:
    PH_DEAL = 0          # chance: leaf card for deal_i // hand_size
    PH_DEAL_ANIMAL = 1   # chance: animal
    PH_CHOOSE_ANIMAL = 2
    PH_DEAL_TOD = 3      # chance: time-of-day card
    PH_DEAL_VC = 4       # chance: victory card
    PH_SETUP_STONE = 5   # chance: nest stone
    PH_HELLO_DISCARD = 6
    PH_DRAW = 7          # chance: forest card
    PH_SLEEP_CHOICE = 8
    PH_MEDDLE = 9
    PH_EFFECT = 10
    PH_EFF_CHANCE = 11   # chance: nest stone for an effect
    PH_REACT = 12
    PH_LIMIT = 13
    PH_FINAL_PLAY = 14
    PH_GRAB = 15
    PH_GRAB_CHANCE = 16
    PH_END = 17
    # automatic (never current)
    PH_TURN_START = 20
    PH_HELLO_NEXT = 21
    PH_HELLO_DRAW = 22
    PH_SLEEP_START = 23
    PH_REACT_NEXT = 24
    PH_AFTER_MEDDLE = 25
    PH_RAVEN = 26
    PH_FINAL_NEXT = 27
    PH_FINAL_RESOLVE = 28
    PH_GRAB_NEXT = 29
    PH_GRAB_RESOLVE = 30


# decision kinds inside effects
cdef enum:
    DK_NONE = 0
    DK_EXAMINE = 1
    DK_BEG = 2
    DK_OTHER_ANY = 3
    DK_OTHER_STONES = 4
    DK_STONE_OF = 5
    DK_STEAL_ANY = 6
    DK_ANY_LAIR = 7
    DK_OWN_STONE = 8
    DK_SUSP = 9
    DK_PLACE = 10        # where an acquired stone goes in its acquirer's lair

# contexts an effect returns to
cdef enum:
    CTX_MEDDLE = 0
    CTX_REACT = 1
    CTX_FINAL = 2
    CTX_HELLO = 3

# ---------------------------------------------------------------- events
cdef enum:
    EV_DEALT = 1
    EV_OFFER = 2
    EV_CHOSE = 3
    EV_ANIMAL = 4
    EV_TOD = 5
    EV_VCDEALT = 6
    EV_NESTTAKE = 7
    EV_FACE = 8
    EV_EXAMINE = 9
    EV_TRAPSHOW = 10
    EV_REVEAL = 11
    EV_MOVE = 12
    EV_MOVE_HID = 13
    EV_FEATHER = 14
    EV_CAUGHT = 15
    EV_FRETURN = 16
    EV_WAKE = 17
    EV_SNAP = 18
    EV_DISCARD = 19
    EV_DRAW = 20
    EV_DRAWCARD = 21
    EV_WIND = 22
    EV_RESHUFFLE = 23
    EV_SLEEP = 24
    EV_MEDDLE = 25
    EV_PASSFEATHER = 26
    EV_PLAY = 27
    EV_TARGET = 28
    EV_STONEPICK = 29
    EV_GIVECARD = 30
    EV_GIVECARDID = 31
    EV_SUSP = 32
    EV_ANSWER = 33
    EV_SWAP_HID = 34
    EV_SWAP = 35
    EV_END = 36
    EV_REACTPASS = 37
    EV_FACEDOWN = 38
    EV_FACEDOWNID = 39
    EV_FINALPASS = 40
    EV_GRAB = 41
    EV_GRABPICK = 42
    EV_GRABRES = 43
    EV_ABILITY = 44
    EV_VCPLAY = 45
    EV_TIME = 46
    EV_NOEXAM = 47
    EV_ELIM = 48
    EV_WINNERS = 49
    EV_HELLODONE = 50
    EV_GIVEFEATHER = 51
    EV_SWAP_RECV = 52
    EV_DEALPUB = 53
    EV_CHOSEPUB = 54
    EV_EXAMDONE = 55
    EV_VCWIN = 56
    EV_PLACE = 57        # an acquired stone placed (seen by the seers and the placer)
    EV_PLACE_HID = 58    # the same, for those who do not see stones move

# victory cards (VC_CATALOG ids)
cdef enum:
    VC_PACT = 0
    VC_FOOL = 1
    VC_HOARD = 2
    VC_CLEAN = 3
    VC_DARE = 4
    VC_DECOY = 5
