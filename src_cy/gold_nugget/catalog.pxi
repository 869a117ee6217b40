# Gold Nugget catalogue: the cards, animals and victory cards as data, the
# per-card rule flags, and the engine's constant tables (phases, decision
# kinds, effect contexts, event kinds, victory-card ids).  Included by
# src_cy/gold_nugget/engine.pyx; the action, card and animal ids are
# src_cy/gold_nugget/actions.pxd.

# (name, count, special, instant, recyclable, removed with 2 players, effect)
LEAF_CATALOG = (
    ("Beg", 6, 0, 0, 0, 1,
     "every other animal gives you a card, a stone or a black feather of its choice"),
    ("Chance", 8, 0, 1, 0, 0, "steal 1 stone from anywhere (another lair or the nest)"),
    ("No hard feelings", 6, 1, 0, 0, 0, "steal 2 stones of your choice from one animal"),
    ("Suspicion", 7, 0, 0, 0, 0,
     "an animal of your choice picks: reveal all its stones, or take 2 feathers"),
    ("Gold Nugget", 4, 1, 0, 0, 1,
     "learn privately whether the Gold Nugget lies in some other animal's lair"),
    ("Loyal friend", 4, 1, 0, 0, 1,
     "swap one stone between two other animals' lairs; only you see which"),
    ("Tribute", 4, 0, 0, 0, 1, "every other animal gives you one stone of its choice"),
    ("Do I have it?", 4, 0, 0, 0, 1,
     "learn privately whether the Gold Nugget lies in your own lair"),
    ("Peek", 12, 0, 0, 1, 0, "examine one stone in any lair"),
    ("Glance", 6, 0, 1, 1, 0, "examine one stone in any lair"),
    ("Shout", 6, 0, 0, 1, 0, "reveal one stone in any lair"),
    ("Pluck", 6, 0, 1, 0, 0, "give one of your black feathers to an animal of your choice"),
    ("Sleight of paw", 6, 1, 0, 0, 0,
     "swap one of your stones with one of another animal's; only you see which"),
    ("Preen", 7, 0, 0, 1, 0, "return one black feather from your lair to the nest"),
    ("Nest dive", 6, 1, 0, 0, 0, "steal 2 stones from the nest"),
    ("Accuse", 6, 1, 0, 0, 0,
     "reveal one stone of another animal: if it is the Gold Nugget that animal takes 2 "
     "feathers, otherwise you take 1"),
)
WIND_CATALOG = (
    ("Stalking!", 2, "every animal takes a feather"),
    ("Calm", 2, "every animal returns a black feather to the nest"),
    ("Gust", 1, "every animal passes the first stone of its lair to the animal on its left"),
    ("Whirlwind", 1, "every animal returns the last stone of its lair to the nest"),
    ("Eclipse", 1, "every animal reveals the first stone of its lair"),
)
# (name, paws, active, ability)
ANIMAL_CATALOG = (
    ("Raccoon", 1, 0, "examines every stone another animal examines"),
    ("Rabbit", 1, 0, "draws up to six cards and keeps six at the hand limit"),
    ("Fox", 3, 1, "ability: swap one of its stones with one of another animal's; only it sees"),
    ("Squirrel", 1, 0, "steals 2 stones from the nest instead of 1 when it recycles a card"),
    ("Snake", 2, 0, "an animal that steals one of its stones takes a feather"),
    ("Bear", 1, 0, "takes no feather when it examines a trap stone"),
    ("Bat", 2, 0, "sees every stone move and reveal while it sleeps"),
    ("Owl", 2, 1, "ability: examine one stone in any lair"),
    ("Hedgehog", 1, 0, "takes one feather fewer whenever an effect gives it two or more"),
    ("Magpie", 2, 1, "ability: steal 1 stone from the nest"),
    ("Mole", 3, 1, "ability: give one of its stones to the nest, then steal 1 from the nest"),
    ("Badger", 2, 1, "ability: give one of its black feathers to an animal of its choice"),
)
# Secret alternative victory conditions (advanced mode).  A card counts only
# if its holder played (revealed) it before the Raven arrived and is not out;
# all are checked when the grabbed stones are revealed (``score``).
VC_CATALOG = (
    ("Raven's pact", "if the Raven would win, you win instead"),
    ("Fool's gold", "if you grab a trap stone from your own lair, it counts as a Gold "
     "Nugget: you win too"),
    ("Hoarder", "if your lair holds more stones than every other lair when the stones "
     "are grabbed, you win too"),
    ("Clean slate", "if the animal that grabs the Gold Nugget holds more black feathers "
     "than you, you win instead of it"),
    ("Daredevil", "if you end the game with two black feathers, you win too"),
    ("Decoy", "if another animal grabs the Gold Nugget from your lair, you win with it"),
)
TIMES = ("morning", "noon", "afternoon", "night")
FACES = ("normal", "trap", "NUGGET")

cdef int CARD_SPECIAL[NCARD]
cdef int CARD_INSTANT[NCARD]
cdef int CARD_RECYCLE[NCARD]
cdef int ANIMAL_ACTIVE[NANIMAL]
for _i, _c in enumerate(LEAF_CATALOG):
    CARD_SPECIAL[_i] = _c[2]
    CARD_INSTANT[_i] = _c[3]
    CARD_RECYCLE[_i] = _c[4]
for _i in range(NLEAF, NCARD):
    CARD_SPECIAL[_i] = 0
    CARD_INSTANT[_i] = 0
    CARD_RECYCLE[_i] = 0
for _i, _c in enumerate(ANIMAL_CATALOG):
    ANIMAL_ACTIVE[_i] = _c[2]

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

PHASE_NAMES = {0: "deal", 1: "deal animals", 2: "choose animal", 3: "deal time cards",
               4: "deal victory cards", 5: "take starting stones", 6: "Hello! discard",
               7: "draw", 8: "Go to sleep!", 9: "Meddling", 10: "effect", 11: "effect draw",
               12: "instant reactions", 13: "hand limit", 14: "Raven: face-down cards",
               15: "Raven: grab", 16: "Raven: grab draw", 17: "game over"}

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
