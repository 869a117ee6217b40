# Gold Nugget catalogue: the cards, animals and victory cards as data, the
# per-card rule flags and the phase names.  Included by the rules kernel
# src_cy/gold_nugget/rules.pyx (the other modules import the tables from
# it); the constant ids (phases, decision kinds, effect contexts, event
# kinds, victory-card ids) are src_cy/gold_nugget/catalog.pxd, the action,
# card and animal ids src_cy/gold_nugget/actions.pxd.

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
# bit k: leaf card k is an instant card (``CARD_INSTANT``), a special card
# (``CARD_SPECIAL``), a recyclable card (``CARD_RECYCLE``)
cdef unsigned int INSTANT_CARDS = 0
cdef unsigned int SPECIAL_CARDS = 0
cdef unsigned int RECYCLE_CARDS = 0
for _i in range(NLEAF):
    if CARD_INSTANT[_i]:
        INSTANT_CARDS |= 1u << _i
    if CARD_SPECIAL[_i]:
        SPECIAL_CARDS |= 1u << _i
    if CARD_RECYCLE[_i]:
        RECYCLE_CARDS |= 1u << _i

PHASE_NAMES = {0: "deal", 1: "deal animals", 2: "choose animal", 3: "deal time cards",
               4: "deal victory cards", 5: "take starting stones", 6: "Hello! discard",
               7: "draw", 8: "Go to sleep!", 9: "Meddling", 10: "effect", 11: "effect draw",
               12: "instant reactions", 13: "hand limit", 14: "Raven: face-down cards",
               15: "Raven: grab", 16: "Raven: grab draw", 17: "game over"}

