# cython: language_level=3
"""Gold Nugget rules engine (see ``docs/rules/gold_nugget.md``).

The whole state is one C struct (``GN``) plus a growable event log.  Every
event is a 32-bit code with a visibility mask; a player's information state
is the sequence of codes visible to them, and their information key is the
hash of exactly that sequence.
"""
from libc.stdint cimport uint64_t, uint32_t, uint8_t
from libcpp.vector cimport vector
from libc.string cimport memcpy, memset
from libc.stdlib cimport malloc, realloc, free
from libc.math cimport log
from src_cy.engine cimport (Engine, Rng, rng_next, rng_int, rng_double, mix64, CHANCE_PLAYER,
                            TERMINAL_PLAYER, MAX_BRANCHING, ENGINE_MAX_PLAYERS)

import struct as _struct

cdef enum:
    MAXP = 5
    MAXS = 24
    NLEAF = 16
    NWIND = 5
    NCARD = 21
    NANIMAL = 12
    NVC = 6
    MAXBL = 16       # unknown cards one hand can hold in a resampling walk
    BLANK = NCARD    # walk-only chance outcome: an unknown leaf card
    UNK = 32         # walk-only chance outcome UNK + k: card k from the unknown part
    A_GIVE_UNKNOWN = 56   # walk-only Beg answer (A_DISCARD + NLEAF, never legal there): an unknown card
    WALK_BACKTRACKS = 32      # backtracks to an earlier node one walk may make before restarting
    WALK_CAP = 400            # walks before the (counted) fallback to the true history
    RESAMPLE_BACKTRACKS = 20000   # backtracks (all walks) before that fallback
    WALK_JUMP = 8             # nodes of the first jump back after too many backtracks
    NEST = 5          # owner code of the nest
    # faces
    F_NORMAL = 0
    F_TRAP = 1
    F_NUGGET = 2

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

# victory cards (VC_CATALOG ids)
cdef enum:
    VC_PACT = 0
    VC_FOOL = 1
    VC_HOARD = 2
    VC_CLEAN = 3
    VC_DARE = 4
    VC_DECOY = 5

SNAP_VERSION = 3

MAGIC = b"GNUG"


cdef struct Eff:
    int card
    int actor
    int step
    int t1
    int t2
    int s1
    int idx
    int cnt
    int ctx
    int last
    int npend      # acquired stones awaiting their acquirer's examine decision
    int pend_s[MAXP + 2]
    int pend_w[MAXP + 2]
    int dk
    int who        # decision maker


cdef struct Facts:
    # what the walking player saw revealed of other players' hidden decisions
    int chosen[MAXP]
    int vcp[MAXP]
    int fd[MAXP]
    int gr[MAXP]
    int gface[MAXP]      # the face each grab got (-1: none seen)
    uint32_t chosen_any
    uint32_t p_offers
    uint32_t vcp_any


cdef struct WChoice:
    # one choice point of a resampling search: the node it belongs to, the
    # seed of its random order, and the position in that order taken now
    int node
    uint64_t seed
    int pos
    int nvalid


cdef struct GN:
    # parameters
    int n
    int days
    int advanced
    int abilities
    int utility
    int hand_size
    int start_stones
    int deal_animals
    int hello_discard
    int animal_mask
    int nnormal
    int ntrap
    int nfeathers
    int max_moves
    int leaf_init[NLEAF]
    int wind_init[NWIND]
    # cards
    int deck[NCARD]
    int hand[MAXP][NLEAF]
    int handn[MAXP]
    int discard[NLEAF]
    int boxed[NWIND]
    int reshuffled
    # stones
    int nstones
    int face[MAXS]
    int lair[MAXP][MAXS]
    int lairn[MAXP]
    int nest[MAXS]
    int nestn
    uint32_t knows[MAXP]
    # feathers
    int feathers[MAXP]
    int nest_feathers
    # animals, times, victory cards
    int animal[MAXP]
    int offer[MAXP][2]
    int animals_left
    int tod[MAXP]
    int tod_left[4]
    int vc[MAXP]
    int vc_played[MAXP]
    int vc_left
    # time
    int holder
    int time
    int day
    int asleep[MAXP]
    int waking[MAXP]
    int elim[MAXP]
    # flow
    int phase
    int cp
    int deal_i
    int order_i
    int special_used
    int plays
    int ability_used
    int final
    int nmoves
    Eff eff
    int facedown[MAXP]
    int fdrec[MAXP]      # the face-down card is recycled when it resolves
    int grab[MAXP]
    int got[MAXP]
    int winners
    int nlog
    # --- the lazy world of a resampling walk (lazy = 0 in every real game):
    # stone faces (-1) and other players' cards (blanks) are drawn when they
    # first matter, conditioned on the walking player's observations.
    int any_instant  # the game has instant cards at all (a parameter)
    uint32_t grabbed # lair stones taken in the final grab (they stay until revealed)
    int lazy
    int wdead        # the walk broke the walking player's observations
    int pcount       # events the walking player has observed so far
    int frem[3]      # faces not yet given to any stone
    uint32_t notnug  # open stones the walk decided are not the Gold Nugget
    uint32_t nottrap # open stones the walk decided are not traps
    int pool[NLEAF]  # leaf cards whose whereabouts are unknown (deck or blanks)
    int deck_unk     # unknown cards in the deck
    int nblank[MAXP]
    int bq[MAXP][MAXBL]   # walk-history index of the draw of each blank
    int nres


cdef inline uint32_t ev(int kind, int a, int b, int c, int d, int e) noexcept nogil:
    return (<uint32_t>kind) | (<uint32_t>a << 6) | (<uint32_t>b << 10) | \
        (<uint32_t>c << 14) | (<uint32_t>d << 20) | (<uint32_t>e << 26)


cdef inline int counts_outcomes(int* counts, int k, int* out, double* probs) noexcept nogil:
    """Outcomes i < k with counts[i] > 0, each with probability counts[i] / total."""
    cdef int i, n = 0, tot = 0
    for i in range(k):
        tot += counts[i]
    for i in range(k):
        if counts[i] > 0:
            out[n] = i
            probs[n] = counts[i] / <double>tot
            n += 1
    return n


cdef inline int mask_outcomes(unsigned int mask, int k, int* out, double* probs) noexcept nogil:
    """Outcomes i < k whose bit is set in mask, uniformly."""
    cdef int i, n = 0
    for i in range(k):
        if mask & ((<unsigned int>1) << i):
            out[n] = i
            n += 1
    for i in range(n):
        probs[i] = 1.0 / n
    return n


cdef class GoldNuggetEngine(Engine):
    """Gold Nugget rules engine; construct via ``games.gold_nugget``."""

    cdef GN g
    cdef GN g0                 # the initial state (``restart``)
    cdef uint32_t* logc
    cdef uint8_t* logm
    cdef int* logh             # history index of the action that logged each event
    cdef int logcap
    cdef vector[int] hact      # player who took each history action (-1 chance)
    # resampling walk context
    cdef const uint32_t* wexp
    cdef int wT
    cdef int wP
    cdef Rng* wrng
    cdef vector[WChoice] wch   # the search's choice points, oldest first
    cdef vector[GN] wsnap      # the walk's state before each node (node = history index)
    cdef vector[int] wsres     # resolutions recorded before each node
    cdef vector[int] wspi      # P's actions applied before each node
    cdef vector[int] wscp      # choice points made before each node
    cdef int wrep              # next choice point to replay or create
    cdef int wnode             # the node being applied
    cdef long wleft            # backtracks this resample may still make
    cdef vector[int] resr      # blank resolutions: walk-history index ...
    cdef vector[int] resk      # ... and the card it became


    def __cinit__(self):
        self.logcap = 256
        self.logc = <uint32_t*>malloc(self.logcap * sizeof(uint32_t))
        self.logm = <uint8_t*>malloc(self.logcap * sizeof(uint8_t))
        self.logh = <int*>malloc(self.logcap * sizeof(int))
        if self.logc == NULL or self.logm == NULL or self.logh == NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.logc)
        free(self.logm)
        free(self.logh)

    def __init__(self, dict params=None, game_string="gold_nugget"):
        cdef int i, p, s
        cdef GN* g
        if params is None:
            return
        memset(&self.g, 0, sizeof(GN))
        g = &self.g
        g.n = params["players"]
        g.days = params["days"]
        g.advanced = params["advanced"]
        g.abilities = params["abilities"]
        g.utility = params["utility"]
        g.hand_size = params["hand_size"]
        g.start_stones = params["start_stones"]
        g.deal_animals = params["deal_animals"]
        g.hello_discard = params["hello_discard"]
        g.animal_mask = params["animal_mask"]
        g.nnormal = params["normal_stones"]
        g.ntrap = params["trap_stones"]
        g.nfeathers = params["black_feathers"]
        g.max_moves = params["max_moves"]
        for i in range(NLEAF):
            g.leaf_init[i] = params["leaf_counts"][i]
            g.deck[i] = g.leaf_init[i]
        for i in range(NWIND):
            g.wind_init[i] = params["wind_counts"][i]
        for i in range(NLEAF):
            if CARD_INSTANT[i] and g.leaf_init[i] > 0:
                g.any_instant = 1
        self.num_players = g.n
        self.game_string = game_string
        g.nstones = 1 + g.ntrap + g.nnormal
        for s in range(g.nstones):
            g.face[s] = F_NUGGET if s == 0 else (F_TRAP if s <= g.ntrap else F_NORMAL)
            g.nest[s] = s
        g.nestn = g.nstones
        g.nest_feathers = g.nfeathers
        g.animals_left = g.animal_mask
        g.vc_left = (1 << NVC) - 1
        for p in range(MAXP):
            g.animal[p] = -1
            g.tod[p] = -1
            g.vc[p] = -1
            g.facedown[p] = -1
            g.grab[p] = -1
            g.got[p] = -1
        for i in range(4):
            g.tod_left[i] = 2 if g.n == 5 else 1
        g.holder = 0
        g.phase = PH_DEAL
        g.deal_i = 0
        if g.hand_size == 0:
            self._after_deal()
        memcpy(&self.g0, &self.g, sizeof(GN))
        self.to_initial()

    cdef void restart(self) noexcept nogil:
        memcpy(&self.g, &self.g0, sizeof(GN))
        self.hact.clear()
        self.resr.clear()
        self.resk.clear()

    # ================================================================ log
    cdef void log(self, uint32_t code, uint32_t mask) noexcept nogil:
        cdef int p
        cdef uint32_t full = (1u << self.g.n) - 1
        mask &= full
        if mask == 0:
            return
        if self.g.lazy:
            # a walk checks each event of the walking player against its truth
            if mask & (1u << self.wP):
                if self.g.pcount >= self.wT or self.wexp[self.g.pcount] != code:
                    self.g.wdead = 1
                self.g.pcount += 1
            return
        if self.g.nlog == self.logcap:
            self.grow_log(self.logcap * 2)
        self.logc[self.g.nlog] = code
        self.logm[self.g.nlog] = <uint8_t>mask
        self.logh[self.g.nlog] = <int>self.hist.size() - 1
        self.g.nlog += 1
        for p in range(self.g.n):
            if mask & (1u << p):
                self.observe_private(p, code)
        if mask == full:
            self.pubhash = mix64(self.pubhash, code)

    cdef void grow_log(self, int cap) noexcept nogil:
        cdef uint32_t* c
        cdef uint8_t* m
        cdef int* h
        if cap <= self.logcap:
            return
        c = <uint32_t*>realloc(self.logc, cap * sizeof(uint32_t))
        if c != NULL:
            self.logc = c
        m = <uint8_t*>realloc(self.logm, cap * sizeof(uint8_t))
        if m != NULL:
            self.logm = m
        h = <int*>realloc(self.logh, cap * sizeof(int))
        if h != NULL:
            self.logh = h
        if c != NULL and m != NULL and h != NULL:
            self.logcap = cap

    cdef inline uint32_t all_mask(self) noexcept nogil:
        return (1u << self.g.n) - 1

    cdef uint32_t seers(self) noexcept nogil:
        """Players who see stone moves and reveals now (awake, or the Bat)."""
        cdef uint32_t m = 0
        cdef int p
        for p in range(self.g.n):
            if not self.g.asleep[p] or (self.g.abilities and not self.g.final
                                        and self.g.animal[p] == A_BAT):
                m |= 1u << p
        return m

    cdef inline bint has(self, int p, int animal) noexcept nogil:
        return self.g.abilities and not self.g.final and self.g.animal[p] == animal

    # ================================================================ interface
    cdef int current_player(self) noexcept nogil:
        cdef int ph = self.g.phase
        if ph == PH_END:
            return TERMINAL_PLAYER
        if ph == PH_DEAL or ph == PH_DEAL_ANIMAL or ph == PH_DEAL_TOD or ph == PH_DEAL_VC \
                or ph == PH_SETUP_STONE or ph == PH_DRAW or ph == PH_EFF_CHANCE \
                or ph == PH_GRAB_CHANCE:
            return CHANCE_PLAYER
        return self.g.cp

    cdef bint is_terminal(self) noexcept nogil:
        return self.g.phase == PH_END

    cdef int next_in_play_order(self) noexcept nogil:
        """Advance order_i to the next animal still in the game, counting from
        the white-feather holder; that animal, or -1 after the last one."""
        cdef int q, n = self.g.n
        while self.g.order_i < n:
            q = (self.g.holder + self.g.order_i) % n
            if not self.g.elim[q]:
                return q
            self.g.order_i += 1
        return -1

    cdef int chance_outcomes(self, int* out, double* probs) noexcept nogil:
        cdef int ph = self.g.phase
        cdef int i, n = 0
        if ph == PH_DEAL or ph == PH_DRAW:
            return counts_outcomes(self.g.deck, NCARD, out, probs)
        elif ph == PH_DEAL_ANIMAL:
            return mask_outcomes(self.g.animals_left, NANIMAL, out, probs)
        elif ph == PH_DEAL_TOD:
            return counts_outcomes(self.g.tod_left, 4, out, probs)
        elif ph == PH_DEAL_VC:
            return mask_outcomes(self.g.vc_left, NVC, out, probs)
        elif ph == PH_SETUP_STONE or ph == PH_EFF_CHANCE or ph == PH_GRAB_CHANCE:
            # grabbed stones stay in the nest (unseen) until the grab is revealed
            for i in range(self.g.nestn):
                if not (self.g.grabbed >> self.g.nest[i]) & 1:
                    out[n] = i
                    n += 1
            for i in range(n):
                probs[i] = 1.0 / n
        return n

    cdef bint capped(self) noexcept nogil:
        """True when the move budget only allows the forced rest of the game."""
        cdef int turns_left = (self.g.days - self.g.day - 1) * 4 + (4 - self.g.time)
        cdef int hl = self.g.hand_size + 1
        cdef int per_turn = 2 * (hl + 1) + 4 + self.g.n
        cdef int excess = 0, p, w = 0, big = 0
        for p in range(self.g.n):
            if self.g.handn[p] > hl:
                excess += self.g.handn[p] - hl
            if self.g.handn[p] > big:
                big = self.g.handn[p]
        for p in range(NWIND):
            w += self.g.deck[NLEAF + p]
        if self.g.final:
            turns_left = 0
        return self.g.nmoves + (turns_left + 1) * per_turn + excess + w + 5 * self.g.n + 10 + big \
            >= self.g.max_moves

    cdef inline bint holds(self, int p, int k) noexcept nogil:
        """p holds (or, in a resampling walk, may hold) leaf card k."""
        return self.g.hand[p][k] > 0 or (self.g.lazy and self.g.nblank[p] > 0
                                         and self.g.pool[k] > 0)

    cdef int hand_limit(self, int p) noexcept nogil:
        return self.g.hand_size + (1 if self.has(p, A_RABBIT) else 0)

    cdef int legal_actions(self, int* out) noexcept nogil:
        cdef int n = 0, k, q, i, cp = self.g.cp, ph = self.g.phase, dk
        cdef int actor = self.g.eff.actor
        if ph == PH_CHOOSE_ANIMAL:
            out[0] = A_OPT0
            n = 1
            if self.g.deal_animals == 2:
                out[1] = A_OPT1
                n = 2
        elif ph == PH_HELLO_DISCARD:
            out[0] = A_PASS
            n = 1
            for k in range(NLEAF):
                if self.holds(cp, k):
                    out[n] = A_DISCARD + k
                    n += 1
        elif ph == PH_SLEEP_CHOICE:
            out[0] = A_SLEEP
            out[1] = A_MEDDLE
            n = 2
        elif ph == PH_MEDDLE:
            out[0] = A_PASS
            n = 1
            if not self.capped():
                for k in range(NLEAF):
                    if self.holds(cp, k):
                        if not CARD_SPECIAL[k] or not self.g.special_used:
                            out[n] = A_PLAY + k
                            n += 1
                        if CARD_RECYCLE[k]:
                            out[n] = A_RECYCLE + k
                            n += 1
                if self.g.abilities and not self.g.ability_used and \
                        ANIMAL_ACTIVE[self.g.animal[cp]]:
                    out[n] = A_ABILITY
                    n += 1
                if self.g.advanced and not self.g.vc_played[cp]:
                    out[n] = A_VICTORY
                    n += 1
        elif ph == PH_REACT:
            out[0] = A_PASS
            n = 1
            for k in range(NLEAF):
                if self.holds(cp, k) and CARD_INSTANT[k]:
                    out[n] = A_PLAY + k
                    n += 1
                    if CARD_RECYCLE[k]:
                        out[n] = A_RECYCLE + k
                        n += 1
        elif ph == PH_LIMIT:
            for k in range(NLEAF):
                if self.holds(cp, k):
                    out[n] = A_DISCARD + k
                    n += 1
        elif ph == PH_FINAL_PLAY:
            out[0] = A_PASS
            n = 1
            if not self.capped():
                for k in range(NLEAF):
                    if self.holds(cp, k):
                        out[n] = A_PLAY + k
                        n += 1
                        if CARD_RECYCLE[k]:
                            out[n] = A_RECYCLE + k
                            n += 1
        elif ph == PH_GRAB:
            if self.g.nestn > 0:
                out[n] = A_NEST
                n += 1
            for q in range(self.g.n):
                for i in range(self.g.lairn[q]):
                    out[n] = A_STONE + q * MAXS + i
                    n += 1
        elif ph == PH_EFFECT:
            dk = self.g.eff.dk
            if dk == DK_EXAMINE or dk == DK_SUSP:
                out[0] = A_OPT0
                out[1] = A_OPT1
                n = 2
            elif dk == DK_BEG:
                for k in range(NLEAF):
                    if self.holds(cp, k):
                        out[n] = A_DISCARD + k
                        n += 1
                for i in range(self.g.lairn[cp]):
                    out[n] = A_STONE + cp * MAXS + i
                    n += 1
                if self.g.feathers[cp] > 0:
                    out[n] = A_FEATHER
                    n += 1
            elif dk == DK_OTHER_ANY or dk == DK_OTHER_STONES:
                for q in range(self.g.n):
                    if self.target_ok(q, dk):
                        out[n] = A_PLAYER + q
                        n += 1
            elif dk == DK_STONE_OF or dk == DK_OWN_STONE:
                q = self.g.eff.t2 if dk == DK_STONE_OF else cp
                for i in range(self.g.lairn[q]):
                    out[n] = A_STONE + q * MAXS + i
                    n += 1
            elif dk == DK_STEAL_ANY or dk == DK_ANY_LAIR:
                if dk == DK_STEAL_ANY and self.g.nestn > 0:
                    out[n] = A_NEST
                    n += 1
                for q in range(self.g.n):
                    if dk == DK_STEAL_ANY and q == actor:
                        continue
                    for i in range(self.g.lairn[q]):
                        out[n] = A_STONE + q * MAXS + i
                        n += 1
        return n

    cdef bint target_ok(self, int q, int dk) noexcept nogil:
        cdef int actor = self.g.eff.actor
        if self.g.elim[q]:
            return False
        if q == actor:
            return False
        if dk == DK_OTHER_ANY:
            return True
        if self.g.lairn[q] == 0:
            return False
        if self.g.eff.card == C_LOYAL and self.g.eff.step == 1 and q == self.g.eff.t1:
            return False
        return True

    cdef bint any_target(self, int dk) noexcept nogil:
        cdef int q
        for q in range(self.g.n):
            if self.target_ok(q, dk):
                return True
        return False

    # ================================================================ stones
    cdef int find_slot(self, int s, int* owner) noexcept nogil:
        cdef int q, i
        for q in range(self.g.n):
            for i in range(self.g.lairn[q]):
                if self.g.lair[q][i] == s:
                    owner[0] = q
                    return i
        for i in range(self.g.nestn):
            if self.g.nest[i] == s:
                owner[0] = NEST
                return i
        owner[0] = -1
        return -1

    cdef uint32_t container_mask(self, int owner) noexcept nogil:
        cdef uint32_t m = 0
        cdef int i
        if owner == NEST:
            for i in range(self.g.nestn):
                m |= 1u << self.g.nest[i]
        else:
            for i in range(self.g.lairn[owner]):
                m |= 1u << self.g.lair[owner][i]
        return m

    cdef void forget(self, uint32_t who, uint32_t stones) noexcept nogil:
        cdef int p
        for p in range(self.g.n):
            if who & (1u << p):
                self.g.knows[p] &= ~stones

    cdef void learn(self, uint32_t who, int s) noexcept nogil:
        cdef int p
        for p in range(self.g.n):
            if who & (1u << p):
                self.g.knows[p] |= 1u << s

    cdef void remove_slot(self, int owner, int i) noexcept nogil:
        cdef int j
        if owner == NEST:
            self.g.nest[i] = self.g.nest[self.g.nestn - 1]
            self.g.nestn -= 1
        else:
            for j in range(i, self.g.lairn[owner] - 1):
                self.g.lair[owner][j] = self.g.lair[owner][j + 1]
            self.g.lairn[owner] -= 1

    cdef void put(self, int s, int dest) noexcept nogil:
        if dest == NEST:
            self.g.nest[self.g.nestn] = s
            self.g.nestn += 1
        else:
            self.g.lair[dest][self.g.lairn[dest]] = s
            self.g.lairn[dest] += 1

    cdef int move_stone(self, int owner, int i, int dest) noexcept nogil:
        """Move the stone at (owner, i) to dest, seen by the current seers."""
        cdef int s = self.g.lair[owner][i]
        cdef uint32_t see = self.seers(), blind = self.all_mask() & ~see
        self.forget(blind, self.container_mask(owner))
        self.remove_slot(owner, i)
        self.put(s, dest)
        self.log(ev(EV_MOVE, dest, owner, i, 0, 0), see)
        self.log(ev(EV_MOVE_HID, dest, owner, 0, 0, 0), blind)
        return s

    cdef int nest_take(self, int idx, int dest) noexcept nogil:
        """A random nest stone (chance index idx) to dest; nobody sees which."""
        cdef int s = self.g.nest[idx]
        self.forget(self.all_mask(), self.container_mask(NEST))
        self.remove_slot(NEST, idx)
        self.put(s, dest)
        self.log(ev(EV_NESTTAKE, dest, 0, 0, 0, 0), self.all_mask())
        return s

    cdef void examine(self, int p, int s, bint traps) noexcept nogil:
        cdef int owner, q
        cdef int i = self.find_slot(s, &owner)
        cdef uint32_t see = self.seers() | (1u << p)
        self.log(ev(EV_EXAMINE, p, owner, i, 0, 0), see)
        if self.g.face[s] < 0:
            rs_settle_examined(self, s, p, see, traps)
        self.log(ev(EV_FACE, p, owner, i, rs_shown_face(self, s), 0), 1u << p)
        self.learn(1u << p, s)
        if self.g.abilities and not self.g.final and traps:
            for q in range(self.g.n):
                if q != p and self.g.animal[q] == A_RACCOON and (see & (1u << q)):
                    self.log(ev(EV_FACE, q, owner, i, rs_shown_face(self, s), 1), 1u << q)
                    self.learn(1u << q, s)
        if traps and self.g.face[s] == F_TRAP:
            self.log(ev(EV_TRAPSHOW, p, owner, i, 0, 0), see)
            self.learn(see, s)
            if not self.has(p, A_BEAR):
                self.take_feathers(p, 1, -1, False)

    cdef void reveal(self, int s) noexcept nogil:
        cdef int owner
        cdef int i = self.find_slot(s, &owner)
        cdef uint32_t see = self.seers()
        if self.g.face[s] < 0:
            rs_settle_revealed(self, s, see)
        self.log(ev(EV_REVEAL, 0, owner, i, rs_shown_face(self, s), 0), see)
        self.learn(see, s)

    cdef void take_feathers(self, int p, int k, int src, bint effect) noexcept nogil:
        """p takes k black feathers one at a time from src (-1: nest)."""
        cdef int j
        if effect and k >= 2 and self.has(p, A_HEDGEHOG):
            k -= 1
        for j in range(k):
            if self.g.elim[p]:
                return
            if src < 0:
                if self.g.nest_feathers == 0:
                    return
                self.g.nest_feathers -= 1
            else:
                if self.g.feathers[src] == 0:
                    return
                self.g.feathers[src] -= 1
            self.g.feathers[p] += 1
            self.log(ev(EV_FEATHER, p, NEST if src < 0 else src, 0, 0, 0), self.seers())
            if self.g.feathers[p] >= 3:
                self.catch(p)

    cdef void return_feathers(self, int p, int k) noexcept nogil:
        if k > self.g.feathers[p]:
            k = self.g.feathers[p]
        if k <= 0:
            return
        self.g.feathers[p] -= k
        self.g.nest_feathers += k
        self.log(ev(EV_FRETURN, p, 0, k, 0, 0), self.seers())

    cdef void catch(self, int p) noexcept nogil:
        """Caught by the Raven: reveal and return all stones and feathers."""
        cdef int i
        self.log(ev(EV_CAUGHT, p, 0, 0, 0, 0), self.all_mask())
        for i in range(self.g.lairn[p]):
            self.reveal(self.g.lair[p][i])
        while self.g.lairn[p] > 0:
            self.move_stone(p, 0, NEST)
        self.return_feathers(p, self.g.feathers[p])
        if self.g.final:
            self.g.elim[p] = 1
            self.log(ev(EV_ELIM, p, 0, 0, 0, 0), self.all_mask())


    # ================================================================ cards
    cdef void lose_card(self, int p, int k, bint public) noexcept nogil:
        """p's hand loses one card of type k (in a walk, maybe an unknown one)."""
        if self.g.hand[p][k] == 0 and self.g.lazy:
            rs_resolve_blank(self, p, k)
        self.g.hand[p][k] -= 1
        self.g.handn[p] -= 1

    cdef int deck_total(self) noexcept nogil:
        cdef int i, t = 0
        for i in range(NCARD):
            t += self.g.deck[i]
        return t + self.g.deck_unk

    cdef void wind(self, int p, int w) noexcept nogil:
        """Resolve wind card w drawn by p (everyone is awake during Hello!)."""
        cdef int j, q, i, s, m
        cdef int first[MAXP]
        self.log(ev(EV_WIND, p, 0, w, 0, 0), self.all_mask())
        self.g.deck[w] -= 1
        self.g.boxed[w - NLEAF] += 1
        m = self.g.n
        for j in range(m):
            q = (p + j) % m
            if w == W_STALKING:
                self.take_feathers(q, 1, -1, True)
            elif w == W_CALM:
                self.return_feathers(q, 1)
            elif w == W_WHIRL:
                if self.g.lairn[q] > 0:
                    self.move_stone(q, self.g.lairn[q] - 1, NEST)
            elif w == W_ECLIPSE:
                if self.g.lairn[q] > 0:
                    self.reveal(self.g.lair[q][0])
        if w == W_GUST:
            # every recipient may examine the stone it gets (an effect in Hello!)
            for q in range(m):
                first[q] = self.g.lair[q][0] if self.g.lairn[q] > 0 else -1
            self.begin_effect(E_GUST, p, CTX_HELLO, 0)
            for j in range(m):
                q = (p + j) % m
                if first[q] >= 0:
                    i = self.find_slot(first[q], &s)
                    self.move_stone(q, i, (q + 1) % m)
                    self.acquire((q + 1) % m, first[q])
            self.continue_effect()

    # ================================================================ apply
    cdef void do_apply(self, int action) noexcept nogil:
        cdef int ph = self.g.phase, p, k, q
        self.hact.push_back(self.current_player())
        self.g.nmoves += 1
        if ph == PH_DEAL:
            p = self.g.deal_i // self.g.hand_size
            action = self.take_from_deck(p, action)
            self.log(ev(EV_DEALPUB, p, 0, 0, 0, 0), self.all_mask())
            self.log(ev(EV_DEALT, p, 0, action, 0, 0), 1u << p)
            self.g.deal_i += 1
            if self.g.deal_i == self.g.n * self.g.hand_size:
                self._after_deal()
        elif ph == PH_DEAL_ANIMAL:
            p = self.g.deal_i // self.g.deal_animals
            self.g.offer[p][self.g.deal_i % self.g.deal_animals] = action
            self.g.animals_left &= ~(1 << action)
            self.log(ev(EV_DEALPUB, p, 1, 0, 0, 0), self.all_mask())
            self.log(ev(EV_OFFER, p, 0, action, 0, 0), 1u << p)
            self.g.deal_i += 1
            if self.g.deal_i == self.g.n * self.g.deal_animals:
                self.g.phase = PH_CHOOSE_ANIMAL
                self.g.cp = 0
        elif ph == PH_CHOOSE_ANIMAL:
            p = self.g.cp
            self.g.animal[p] = self.g.offer[p][action - A_OPT0]
            self.log(ev(EV_CHOSEPUB, p, 0, 0, 0, 0), self.all_mask())
            self.log(ev(EV_CHOSE, p, 0, self.g.animal[p], 0, 0), 1u << p)
            if p + 1 < self.g.n:
                self.g.cp = p + 1
            else:
                for q in range(self.g.n):
                    self.log(ev(EV_ANIMAL, q, 0, self.g.animal[q], 0, 0), self.all_mask())
                self.g.phase = PH_DEAL_TOD
                self.g.deal_i = 0
        elif ph == PH_DEAL_TOD:
            p = self.g.deal_i
            self.g.tod[p] = action
            self.g.tod_left[action] -= 1
            self.log(ev(EV_TOD, p, 0, action, 0, 0), self.all_mask())
            self.g.deal_i += 1
            if self.g.deal_i == self.g.n:
                self.g.deal_i = 0
                self.g.phase = PH_DEAL_VC if self.g.advanced else PH_SETUP_STONE
                self._check_setup_stones()
        elif ph == PH_DEAL_VC:
            p = self.g.deal_i
            self.g.vc[p] = action
            self.g.vc_left &= ~(1 << action)
            self.log(ev(EV_DEALPUB, p, 2, 0, 0, 0), self.all_mask())
            self.log(ev(EV_VCDEALT, p, 0, action, 0, 0), 1u << p)
            self.g.deal_i += 1
            if self.g.deal_i == self.g.n:
                self.g.deal_i = 0
                self.g.phase = PH_SETUP_STONE
                self._check_setup_stones()
        elif ph == PH_SETUP_STONE:
            p = (self.g.holder + self.g.deal_i // self.g.start_stones) % self.g.n
            k = self.nest_take(action, p)
            self.examine(p, k, False)
            self.g.deal_i += 1
            self._check_setup_stones()
        elif ph == PH_HELLO_DISCARD:
            p = self.g.cp
            if action == A_PASS:
                self.log(ev(EV_HELLODONE, p, 0, 0, 0, 0), self.all_mask())
                self.g.phase = PH_HELLO_DRAW
            else:
                k = action - A_DISCARD
                self.lose_card(p, k, True)
                self.g.discard[k] += 1
                self.log(ev(EV_DISCARD, p, 0, k, 0, 0), self.all_mask())
                if self.g.handn[p] == 0:
                    self.g.phase = PH_HELLO_DRAW
        elif ph == PH_DRAW:
            p = self.g.cp
            self.g.phase = PH_HELLO_DRAW
            if NLEAF <= action < NCARD:
                self.wind(p, action)
            else:
                action = self.take_from_deck(p, action)
                self.log(ev(EV_DRAW, p, 0, 0, 0, 0), self.all_mask())
                self.log(ev(EV_DRAWCARD, p, 0, action, 0, 0), 1u << p)
        elif ph == PH_SLEEP_CHOICE:
            p = self.g.cp
            if action == A_MEDDLE:
                self.log(ev(EV_MEDDLE, p, 0, 0, 0, 0), self.all_mask())
                self.g.waking[p] = 1   # decided: does not sleep this turn
            else:
                self.g.asleep[p] = 1
                self.log(ev(EV_SLEEP, p, 0, 0, 0, 0), self.all_mask())
                self.pass_feather()
            self.g.phase = PH_SLEEP_START
        elif ph == PH_MEDDLE:
            self.meddle_action(action)
        elif ph == PH_REACT:
            p = self.g.cp
            if action == A_PASS:
                self.log(ev(EV_REACTPASS, p, 0, 0, 0, 0), self.all_mask())
                self.g.order_i += 1
                self.g.phase = PH_REACT_NEXT
            else:
                self.play_card(p, action, CTX_REACT)
        elif ph == PH_LIMIT:
            p = self.g.cp
            k = action - A_DISCARD
            self.lose_card(p, k, True)
            self.g.discard[k] += 1
            self.log(ev(EV_DISCARD, p, 0, k, 1, 0), self.all_mask())
            if self.g.handn[p] <= self.hand_limit(p):
                self.pass_feather()
                self.g.phase = PH_RAVEN
        elif ph == PH_EFFECT:
            self.effect_decision(action)
        elif ph == PH_EFF_CHANCE:
            p = self.g.eff.actor
            k = self.nest_take(action, p)
            self.acquire(p, k)
            self.g.eff.step += 1
            self.g.phase = PH_EFFECT
            self.continue_effect()
        elif ph == PH_FINAL_PLAY:
            p = self.g.cp
            if action == A_PASS:
                self.log(ev(EV_FINALPASS, p, 0, 0, 0, 0), self.all_mask())
            else:
                k = (action - A_RECYCLE) if action >= A_RECYCLE else (action - A_PLAY)
                self.lose_card(p, k, False)
                self.g.facedown[p] = k
                self.g.fdrec[p] = 1 if action >= A_RECYCLE else 0
                self.log(ev(EV_FACEDOWN, p, 0, 0, 0, 0), self.all_mask())
                self.log(ev(EV_FACEDOWNID, p, 0, k, self.g.fdrec[p], 0), 1u << p)
            self.g.order_i += 1
            self.g.phase = PH_FINAL_NEXT
        elif ph == PH_GRAB:
            p = self.g.cp
            self.g.grab[p] = (NEST * MAXS) if action == A_NEST else (action - A_STONE)
            self.log(ev(EV_GRAB, p, 0, 0, 0, 0), self.all_mask())
            self.log(ev(EV_GRABPICK, p, self.g.grab[p] // MAXS, self.g.grab[p] % MAXS, 0, 0),
                     1u << p)
            self.g.order_i += 1
            self.g.phase = PH_GRAB_NEXT
        elif ph == PH_GRAB_CHANCE:
            p = self.g.cp
            self.g.got[p] = self.g.nest[action]
            self.g.grabbed |= 1u << self.g.nest[action]
            self.g.order_i += 1
            self.g.phase = PH_GRAB_RESOLVE
        self.advance()

    cdef int take_from_deck(self, int p, int action) noexcept nogil:
        """p takes leaf card `action` from the deck; in a walk also BLANK (an
        unknown card) or UNK + k (card k out of the deck's unknown part)."""
        if action == BLANK:
            if self.g.nblank[p] == MAXBL or self.g.deck_unk == 0:
                self.g.wdead = 1
                return 0
            self.g.bq[p][self.g.nblank[p]] = <int>self.hist.size() - 1
            self.g.nblank[p] += 1
            self.g.deck_unk -= 1
            self.g.handn[p] += 1
            return 63
        if action >= UNK:
            action -= UNK
            self.g.pool[action] -= 1
            self.g.deck_unk -= 1
        else:
            self.g.deck[action] -= 1
        self.g.hand[p][action] += 1
        self.g.handn[p] += 1
        return action

    cdef void _after_deal(self) noexcept nogil:
        cdef int i
        for i in range(NWIND):
            self.g.deck[NLEAF + i] += self.g.wind_init[i]
        self.g.deal_i = 0
        self.g.phase = PH_DEAL_ANIMAL

    cdef void _check_setup_stones(self) noexcept nogil:
        if self.g.phase != PH_SETUP_STONE:
            return
        if self.g.deal_i >= self.g.n * self.g.start_stones or self.g.nestn == 0:
            self.g.phase = PH_TURN_START
            self.advance()

    cdef void pass_feather(self) noexcept nogil:
        cdef int old = self.g.holder
        self.g.holder = (old + 1) % self.g.n
        self.log(ev(EV_PASSFEATHER, old, self.g.holder, 0, 0, 0), self.all_mask())

    # ================================================================ flow
    cdef void advance(self) noexcept nogil:
        cdef int ph, p, q, i, j, k, best, n = self.g.n
        while True:
            ph = self.g.phase
            if ph == PH_TURN_START:
                self.g.order_i = 0
                for p in range(n):
                    self.g.waking[p] = 0
                for j in range(n):
                    p = (self.g.holder + j) % n
                    if self.g.asleep[p]:
                        self.g.asleep[p] = 0
                        self.g.waking[p] = 1
                        self.log(ev(EV_WAKE, p, 0, 0, 0, 0), self.all_mask())
                        for q in range(n):
                            self.log(ev(EV_SNAP, q, 0, self.g.feathers[q], self.g.lairn[q],
                                        self.g.handn[q]), 1u << p)
                self.g.phase = PH_HELLO_NEXT
            elif ph == PH_HELLO_NEXT:
                p = -1
                while self.g.order_i < n:
                    q = (self.g.holder + self.g.order_i) % n
                    self.g.order_i += 1
                    if self.g.waking[q] and not self.g.elim[q]:
                        p = q
                        break
                if p < 0:
                    for q in range(n):
                        self.g.waking[q] = 0
                    if self.g.final:
                        self.g.order_i = 0
                        self.g.phase = PH_FINAL_NEXT
                    else:
                        self.g.phase = PH_SLEEP_START
                    continue
                self.g.cp = p
                if self.g.hello_discard and self.g.handn[p] > 0 and not self.capped():
                    self.g.phase = PH_HELLO_DISCARD
                    return
                self.g.phase = PH_HELLO_DRAW
            elif ph == PH_HELLO_DRAW:
                p = self.g.cp
                if self.g.handn[p] >= self.hand_limit(p):
                    self.g.phase = PH_HELLO_NEXT
                    continue
                if self.deck_total() == 0:
                    self.reshuffle()
                if self.deck_total() == 0:
                    self.g.phase = PH_HELLO_NEXT
                    continue
                self.g.phase = PH_DRAW
                return
            elif ph == PH_SLEEP_START:
                p = self.g.holder
                if self.g.tod[p] == self.g.time and not self.g.asleep[p] \
                        and not self.g.waking[p]:
                    self.g.cp = p
                    self.g.phase = PH_SLEEP_CHOICE
                    return
                for j in range(n):
                    q = (self.g.holder + j) % n
                    if q != p and self.g.tod[q] == self.g.time and not self.g.asleep[q]:
                        self.g.asleep[q] = 1
                        self.log(ev(EV_SLEEP, q, 0, 0, 0, 0), self.all_mask())
                for q in range(n):
                    self.g.waking[q] = 0
                self.g.special_used = 0
                self.g.plays = 0
                self.g.ability_used = 0
                self.g.cp = self.g.holder
                self.g.phase = PH_MEDDLE
                return
            elif ph == PH_REACT_NEXT:
                # the window: each other awake animal holding an instant, from the
                # holder's left, plays one or passes; none is offered once capped
                p = -1
                while self.g.order_i < n:
                    q = (self.g.holder + self.g.order_i) % n
                    if not self.g.asleep[q] and not self.g.elim[q] and self.g.handn[q] > 0 \
                            and self.g.any_instant and not self.capped():
                        p = q
                        break
                    self.g.order_i += 1
                if p >= 0:
                    self.g.cp = p
                    self.g.phase = PH_REACT
                    return
                self.g.cp = self.g.holder
                self.g.phase = PH_MEDDLE
                return
            elif ph == PH_AFTER_MEDDLE:
                p = self.g.holder
                if self.g.handn[p] > self.hand_limit(p):
                    self.g.cp = p
                    self.g.phase = PH_LIMIT
                    return
                self.pass_feather()
                self.g.phase = PH_RAVEN
            elif ph == PH_RAVEN:
                self.g.time += 1
                if self.g.time == 4:
                    self.g.time = 0
                    self.g.day += 1
                self.log(ev(EV_TIME, 0, 0, self.g.time, self.g.day, 0), self.all_mask())
                if self.g.day >= self.g.days:
                    self.g.final = 1
                self.g.phase = PH_TURN_START
            elif ph == PH_FINAL_NEXT:
                p = self.next_in_play_order()
                if p >= 0:
                    self.g.cp = p
                    self.g.phase = PH_FINAL_PLAY
                    return
                self.g.order_i = 0
                self.g.phase = PH_FINAL_RESOLVE
            elif ph == PH_FINAL_RESOLVE:
                p = -1
                while self.g.order_i < n:
                    q = (self.g.holder + self.g.order_i) % n
                    self.g.order_i += 1
                    if self.g.facedown[q] >= 0:
                        p = q
                        break
                if p < 0:
                    self.g.order_i = 0
                    self.g.phase = PH_GRAB_NEXT
                    continue
                k = self.g.facedown[p]
                self.g.facedown[p] = -1
                self.g.discard[k] += 1
                self.log(ev(EV_PLAY, p, 0, k, 2 + self.g.fdrec[p], 0), self.all_mask())
                if self.g.elim[p]:
                    continue
                if self.g.fdrec[p]:
                    self.start_effect(E_RECYCLE, p, CTX_FINAL, 1)
                else:
                    self.start_effect(k, p, CTX_FINAL, 0)
                if self.g.phase != PH_FINAL_RESOLVE:
                    return
            elif ph == PH_GRAB_NEXT:
                p = self.next_in_play_order()
                if p >= 0:
                    self.g.cp = p
                    self.g.phase = PH_GRAB
                    return
                # lair picks resolve in play order: the first to pick a stone takes it;
                # nest grabs are drawn unseen, so nobody keeps track of nest stones
                self.forget(self.all_mask(), self.container_mask(NEST))
                for j in range(n):
                    p = (self.g.holder + j) % n
                    if self.g.elim[p] or self.g.grab[p] >= NEST * MAXS:
                        continue
                    q = self.g.grab[p] // MAXS
                    i = self.g.grab[p] % MAXS
                    if not (self.g.grabbed >> self.g.lair[q][i]) & 1:
                        self.g.got[p] = self.g.lair[q][i]
                        self.g.grabbed |= 1u << self.g.lair[q][i]
                self.g.order_i = 0
                self.g.phase = PH_GRAB_RESOLVE
            elif ph == PH_GRAB_RESOLVE:
                p = -1
                while self.g.order_i < n:
                    q = (self.g.holder + self.g.order_i) % n
                    if not self.g.elim[q] and self.g.grab[q] >= NEST * MAXS \
                            and self.g.got[q] < 0 and self.nest_free() > 0:
                        p = q
                        break
                    self.g.order_i += 1
                if p >= 0:
                    self.g.cp = p
                    self.g.phase = PH_GRAB_CHANCE
                    return
                self.finish()
                return
            else:
                return

    cdef int nest_free(self) noexcept nogil:
        cdef int i, c = 0
        for i in range(self.g.nestn):
            if not (self.g.grabbed >> self.g.nest[i]) & 1:
                c += 1
        return c

    cdef void reshuffle(self) noexcept nogil:
        cdef int k
        cdef bint any = False
        for k in range(NLEAF):
            if self.g.discard[k] > 0:
                any = True
            self.g.deck[k] += self.g.discard[k]
            self.g.discard[k] = 0
        if any:
            self.g.reshuffled = 1
            self.log(ev(EV_RESHUFFLE, 0, 0, 0, 0, 0), self.all_mask())

    cdef void finish(self) noexcept nogil:
        """All grabs done: return the rest to the nest, reveal, decide."""
        cdef int p, q, i, s, j = 0, w = 0, n = self.g.n
        cdef int held[MAXP]
        for i in range(self.g.nestn):       # the grabbed nest stones leave the nest
            if not (self.g.grabbed >> self.g.nest[i]) & 1:
                self.g.nest[j] = self.g.nest[i]
                j += 1
        self.g.nestn = j
        for q in range(n):
            held[q] = self.g.lairn[q]           # the lairs as they were grabbed from
            for i in range(self.g.lairn[q]):
                s = self.g.lair[q][i]
                if not (self.g.grabbed >> s) & 1:
                    self.put(s, NEST)
            self.g.lairn[q] = 0
        self.g.grabbed = 0
        for p in range(n):
            s = self.g.got[p]
            if s >= 0 and self.g.face[s] < 0:
                rs_settle_grabbed(self, s)
            if s >= 0:
                self.put(s, p)
                self.learn(self.all_mask(), s)          # revealed below
                if self.g.face[s] == F_NUGGET:
                    w |= 1 << p
            self.log(ev(EV_GRABRES, p, self.g.grab[p] // MAXS if self.g.grab[p] >= 0 else 0,
                        self.g.grab[p] % MAXS if self.g.grab[p] >= 0 else 0,
                        self.g.face[s] if s >= 0 else 3, 1 if s >= 0 else 0),
                     self.all_mask())
        w = self.score(w, held)
        self.g.winners = w
        self.log(ev(EV_WINNERS, 0, 0, w, 0, 0), self.all_mask())
        self.g.phase = PH_END

    cdef int vc_holder(self, int v) noexcept nogil:
        """The animal that played victory card v and is still in, or -1."""
        cdef int p
        for p in range(self.g.n):
            if self.g.vc_played[p] and self.g.vc[p] == v and not self.g.elim[p]:
                return p
        return -1

    cdef int score(self, int w, int* held) noexcept nogil:
        """Winners (a bitmask) from the Gold Nugget's grabber(s) w and the
        victory cards played (docs/rules/gold_nugget.md, "Victory condition
        cards"): additions first, then Clean slate, then Raven's pact.  Each
        card that changes the winners is announced to everyone."""
        cdef int p, q, nug = -1, best = 1, n = self.g.n
        for q in range(n):
            if (w >> q) & 1:
                nug = q
        p = self.vc_holder(VC_FOOL)
        if p >= 0 and self.g.got[p] >= 0 and self.g.face[self.g.got[p]] == F_TRAP \
                and self.g.grab[p] // MAXS == p and not (w >> p) & 1:
            w |= 1 << p
            self.log(ev(EV_VCWIN, p, 0, VC_FOOL, 0, 0), self.all_mask())
        p = self.vc_holder(VC_HOARD)
        if p >= 0:
            for q in range(n):
                if q != p and not self.g.elim[q] and held[q] >= held[p]:
                    best = 0
            if best and not (w >> p) & 1:
                w |= 1 << p
                self.log(ev(EV_VCWIN, p, 0, VC_HOARD, 0, 0), self.all_mask())
        p = self.vc_holder(VC_DARE)
        if p >= 0 and self.g.feathers[p] == 2 and not (w >> p) & 1:
            w |= 1 << p
            self.log(ev(EV_VCWIN, p, 0, VC_DARE, 0, 0), self.all_mask())
        p = self.vc_holder(VC_DECOY)
        if p >= 0 and nug >= 0 and nug != p and self.g.grab[nug] // MAXS == p \
                and not (w >> p) & 1:
            w |= 1 << p
            self.log(ev(EV_VCWIN, p, 0, VC_DECOY, 0, 0), self.all_mask())
        p = self.vc_holder(VC_CLEAN)
        if p >= 0 and nug >= 0 and nug != p and self.g.feathers[nug] > self.g.feathers[p]:
            w = (w & ~(1 << nug)) | (1 << p)
            self.log(ev(EV_VCWIN, p, nug, VC_CLEAN, 0, 0), self.all_mask())
        p = self.vc_holder(VC_PACT)
        if p >= 0 and w == 0:
            w = 1 << p
            self.log(ev(EV_VCWIN, p, 0, VC_PACT, 0, 0), self.all_mask())
        return w

    # ================================================================ meddling
    cdef void meddle_action(self, int action) noexcept nogil:
        cdef int p = self.g.cp, e
        if action == A_PASS:
            self.log(ev(EV_END, p, 0, 0, 0, 0), self.all_mask())
            self.g.phase = PH_AFTER_MEDDLE
        elif action == A_ABILITY:
            self.g.ability_used = 1
            self.g.plays += 1
            self.log(ev(EV_ABILITY, p, 0, self.g.animal[p], 0, 0), self.all_mask())
            e = self.g.animal[p]
            if e == A_FOX:
                self.start_effect(C_SLEIGHT, p, CTX_MEDDLE, 0)
            elif e == A_OWL:
                self.start_effect(C_PEEK, p, CTX_MEDDLE, 0)
            elif e == A_MAGPIE:
                self.start_effect(E_RECYCLE, p, CTX_MEDDLE, 1)
            elif e == A_MOLE:
                self.start_effect(E_MOLE, p, CTX_MEDDLE, 0)
            else:
                self.start_effect(C_PLUCK, p, CTX_MEDDLE, 0)
        elif action == A_VICTORY:
            self.g.vc_played[p] = 1
            self.g.plays += 1
            # playing reveals the card and makes its condition count at the end
            self.log(ev(EV_VCPLAY, p, 0, self.g.vc[p], 0, 0), self.all_mask())
            self.start_effect(E_VICTORY, p, CTX_MEDDLE, 0)
        else:
            self.play_card(p, action, CTX_MEDDLE)

    cdef void play_card(self, int p, int action, int ctx) noexcept nogil:
        cdef int k
        if action >= A_RECYCLE and action < A_DISCARD:
            k = action - A_RECYCLE
            self.lose_card(p, k, True)
            self.g.discard[k] += 1
            self.log(ev(EV_PLAY, p, 0, k, 1, 0), self.all_mask())
            if ctx == CTX_MEDDLE:
                self.g.plays += 1
            self.start_effect(E_RECYCLE, p, ctx, 2 if self.has(p, A_SQUIRREL) else 1)
            return
        k = action - A_PLAY
        self.lose_card(p, k, True)
        self.g.discard[k] += 1
        self.log(ev(EV_PLAY, p, 0, k, 0, 0), self.all_mask())
        if ctx == CTX_MEDDLE:
            self.g.plays += 1
            if CARD_SPECIAL[k]:
                self.g.special_used = 1
        self.start_effect(k, p, ctx, 0)

    # ================================================================ effects
    cdef void start_effect(self, int card, int actor, int ctx, int cnt) noexcept nogil:
        self.begin_effect(card, actor, ctx, cnt)
        self.continue_effect()

    cdef void begin_effect(self, int card, int actor, int ctx, int cnt) noexcept nogil:
        self.g.eff.card = card
        self.g.eff.actor = actor
        self.g.eff.ctx = ctx
        self.g.eff.cnt = cnt
        self.g.eff.step = 0
        self.g.eff.idx = 0
        self.g.eff.t1 = -1
        self.g.eff.t2 = -1
        self.g.eff.s1 = -1
        self.g.eff.npend = 0
        self.g.eff.dk = DK_NONE
        self.g.phase = PH_EFFECT

    cdef void need(self, int who, int dk) noexcept nogil:
        self.g.eff.dk = dk
        self.g.eff.who = who
        self.g.cp = who
        self.g.phase = PH_EFFECT

    cdef void acquire(self, int p, int s) noexcept nogil:
        """p got stone s: it may examine it if awake (a decision, queued)."""
        if not self.g.asleep[p] and not self.g.elim[p] and self.g.eff.npend < MAXP + 2:
            self.g.eff.pend_s[self.g.eff.npend] = s
            self.g.eff.pend_w[self.g.eff.npend] = p
            self.g.eff.npend += 1

    cdef void pop_pending(self) noexcept nogil:
        cdef int j
        for j in range(1, self.g.eff.npend):
            self.g.eff.pend_s[j - 1] = self.g.eff.pend_s[j]
            self.g.eff.pend_w[j - 1] = self.g.eff.pend_w[j]
        self.g.eff.npend -= 1

    cdef void steal(self, int thief, int owner, int i) noexcept nogil:
        cdef int s = self.move_stone(owner, i, thief)
        self.acquire(thief, s)
        if self.has(owner, A_SNAKE):
            self.take_feathers(thief, 1, -1, True)

    cdef void continue_effect(self) noexcept nogil:
        """Run the pending effect until it needs a decision or chance, or ends."""
        cdef int owner
        while True:
            while self.g.eff.npend > 0:
                self.find_slot(self.g.eff.pend_s[0], &owner)
                if owner == self.g.eff.pend_w[0] and not self.g.elim[owner] \
                        and not self.g.asleep[owner]:
                    self.need(owner, DK_EXAMINE)
                    return
                self.pop_pending()
            if self.g.elim[self.g.eff.actor] or self.run_step():
                break
            if self.g.phase != PH_EFFECT or self.g.eff.dk != DK_NONE:
                if self.g.eff.npend == 0:
                    return
        self.end_effect()

    cdef void end_effect(self) noexcept nogil:
        cdef int ctx = self.g.eff.ctx
        self.g.eff.dk = DK_NONE
        if ctx == CTX_MEDDLE:
            self.open_window()
        elif ctx == CTX_REACT:
            self.g.order_i += 1
            self.g.phase = PH_REACT_NEXT
        elif ctx == CTX_HELLO:
            self.g.cp = self.g.eff.actor
            self.g.phase = PH_HELLO_DRAW
        else:
            self.g.phase = PH_FINAL_RESOLVE

    cdef void open_window(self) noexcept nogil:
        """An instant window: the holder's play has resolved."""
        self.g.order_i = 1
        self.g.phase = PH_REACT_NEXT

    cdef bint has_instant(self, int p) noexcept nogil:
        cdef int k
        for k in range(NLEAF):
            if CARD_INSTANT[k] and self.holds(p, k):
                return True
        return False

    cdef bint run_step(self) noexcept nogil:
        """Advance one step of the effect.  Returns True when it is done; else
        sets eff.dk (a decision) or phase PH_EFF_CHANCE, or just loops."""
        cdef int c = self.g.eff.card, a = self.g.eff.actor, st = self.g.eff.step
        cdef int n = self.g.n, q, i
        self.g.eff.dk = DK_NONE
        if c == C_BEG or c == C_TRIBUTE:
            # st even: find next animal; st odd: waiting for its answer
            while self.g.eff.idx < n - 1:
                q = (a + 1 + self.g.eff.idx) % n
                if self.g.elim[q]:
                    self.g.eff.idx += 1
                    continue
                if c == C_BEG and (self.g.handn[q] > 0 or self.g.lairn[q] > 0
                                   or self.g.feathers[q] > 0):
                    self.need(q, DK_BEG)
                    return False
                if c != C_BEG and self.g.lairn[q] > 0:
                    self.g.eff.t2 = q
                    self.need(q if c == C_TRIBUTE else a,
                              DK_OWN_STONE if c == C_TRIBUTE else DK_STONE_OF)
                    return False
                self.g.eff.idx += 1
            return True
        if c == C_CHANCE:
            if st == 0:
                if self.g.nestn == 0 and not self.other_stones(a):
                    return True
                self.need(a, DK_STEAL_ANY)
                return False
            return True
        if c == C_NHF or c == C_ACCUSE or c == C_SLEIGHT:
            if st == 0:
                if c == C_SLEIGHT and self.g.lairn[a] == 0:
                    return True
                if not self.any_target(DK_OTHER_STONES):
                    return True
                self.need(a, DK_OTHER_STONES)
                return False
            if c == C_SLEIGHT:
                if st == 1:
                    self.need(a, DK_OWN_STONE)
                    return False
                if st == 2:
                    self.g.eff.t2 = self.g.eff.t1
                    self.need(a, DK_STONE_OF)
                    return False
                return True
            if st <= (2 if c == C_NHF else 1) and self.g.lairn[self.g.eff.t1] > 0:
                self.g.eff.t2 = self.g.eff.t1
                self.need(a, DK_STONE_OF)
                return False
            return True
        if c == C_SUSP or c == C_PLUCK:
            if st == 0:
                if c == C_PLUCK and self.g.feathers[a] == 0:
                    return True
                if not self.any_target(DK_OTHER_ANY):
                    return True
                self.need(a, DK_OTHER_ANY)
                return False
            if c == C_SUSP and st == 1:
                self.need(self.g.eff.t1, DK_SUSP)
                return False
            return True
        if c == C_GOLD or c == C_DOIHAVE:
            self.query(a, c)
            return True
        if c == C_LOYAL:
            if st == 0 or st == 1:
                if not self.any_target(DK_OTHER_STONES):
                    return True
                self.need(a, DK_OTHER_STONES)
                return False
            if st == 2:
                self.g.eff.t2 = self.g.eff.t1
                self.need(a, DK_STONE_OF)
                return False
            if st == 3:
                self.g.eff.t2 = self.g.eff.idx
                self.need(a, DK_STONE_OF)
                return False
            return True
        if c == C_PEEK or c == C_GLANCE or c == C_SHOUT:
            if st < 1 and self.any_stone_in_lairs():
                self.need(a, DK_ANY_LAIR)
                return False
            return True
        if c == C_PREEN:
            self.return_feathers(a, 1)
            return True
        if c == E_VICTORY:
            return True
        if c == C_NESTDIVE or c == E_RECYCLE:
            if st < (2 if c == C_NESTDIVE else self.g.eff.cnt) and self.g.nestn > 0:
                self.g.phase = PH_EFF_CHANCE
                return False
            return True
        if c == E_MOLE:
            if st == 0:
                if self.g.lairn[a] == 0:
                    return True
                self.need(a, DK_OWN_STONE)
                return False
            if st == 1 and self.g.nestn > 0:
                self.g.phase = PH_EFF_CHANCE
                return False
            return True
        return True

    cdef bint other_stones(self, int a) noexcept nogil:
        cdef int q
        for q in range(self.g.n):
            if q != a and self.g.lairn[q] > 0:
                return True
        return False

    cdef bint any_stone_in_lairs(self) noexcept nogil:
        cdef int q
        for q in range(self.g.n):
            if self.g.lairn[q] > 0:
                return True
        return False

    cdef void query(self, int a, int c) noexcept nogil:
        cdef uint32_t m = 0
        cdef int q, yes, nug = -1
        for q in range(self.g.n):
            if (c == C_GOLD and q != a) or (c == C_DOIHAVE and q == a):
                m |= self.container_mask(q)
        for q in range(self.g.nstones):
            if self.g.face[q] == F_NUGGET:
                nug = q
        if nug < 0 and self.g.lazy:
            yes = rs_settle_query(self, a, m)
        else:
            yes = 1 if (nug >= 0 and (m & (1u << nug))) else 0
        self.log(ev(EV_ANSWER, a, 0, c, yes, 0), 1u << a)

    cdef void effect_decision(self, int action) noexcept nogil:
        cdef int c = self.g.eff.card, a = self.g.eff.actor, dk = self.g.eff.dk
        cdef int who = self.g.eff.who, q, i, s, k, o1, o2, s2
        self.g.eff.dk = DK_NONE
        if dk == DK_EXAMINE:
            s = self.g.eff.pend_s[0]
            self.pop_pending()
            # sleepers hear that the decision was taken, not which
            self.log(ev(EV_EXAMDONE, who, 0, 0, 0, 0),
                     self.all_mask() & ~(self.seers() | (1u << who)))
            if action == A_OPT0:
                self.examine(who, s, True)
            else:
                self.log(ev(EV_NOEXAM, who, 0, 0, 0, 0), self.seers() | (1u << who))
            self.continue_effect()
            return
        if dk == DK_BEG:
            self.g.eff.idx += 1
            if action == A_FEATHER:
                self.log(ev(EV_GIVEFEATHER, who, a, 0, 0, 0), self.all_mask())
                self.take_feathers(a, 1, who, False)
            elif action >= A_STONE:
                i = (action - A_STONE) % MAXS
                self.log(ev(EV_STONEPICK, who, who, i, 0, 0), self.seers() | (1u << who))
                s = self.move_stone(who, i, a)
                self.acquire(a, s)
            else:
                k = action - A_DISCARD
                if action == A_GIVE_UNKNOWN:
                    rs_give_unknown(self, who, a)      # walk only
                else:
                    self.lose_card(who, k, False)
                    self.g.hand[a][k] += 1
                self.g.handn[a] += 1
                self.log(ev(EV_GIVECARD, who, a, 0, 0, 0), self.all_mask())
                self.log(ev(EV_GIVECARDID, who, a, k, 0, 0), (1u << who) | (1u << a))
            self.continue_effect()
            return
        if dk == DK_OTHER_ANY or dk == DK_OTHER_STONES:
            q = action - A_PLAYER
            self.log(ev(EV_TARGET, a, q, self.g.eff.step, 0, 0), self.all_mask())
            if self.g.eff.step == 0:
                self.g.eff.t1 = q
            else:
                self.g.eff.idx = q
            self.g.eff.step += 1
            if c == C_PLUCK:
                self.take_feathers(q, 1, a, False)
            self.continue_effect()
            return
        if dk == DK_SUSP:
            self.log(ev(EV_SUSP, who, 0, action - A_OPT0, 0, 0), self.all_mask())
            self.g.eff.step += 1
            if action == A_OPT0:
                for i in range(self.g.lairn[who]):
                    self.reveal(self.g.lair[who][i])
            else:
                self.take_feathers(who, 2, -1, True)
            self.continue_effect()
            return
        if dk == DK_STEAL_ANY:
            self.g.eff.step += 1
            if action == A_NEST:
                self.log(ev(EV_STONEPICK, a, NEST, 0, 0, 0), self.all_mask())
                self.g.eff.step -= 1
                self.g.eff.card = E_RECYCLE
                self.g.eff.cnt = 1
                self.g.phase = PH_EFF_CHANCE
                return
            q = (action - A_STONE) // MAXS
            i = (action - A_STONE) % MAXS
            self.log(ev(EV_STONEPICK, a, q, i, 0, 0), self.seers() | (1u << a))
            self.steal(a, q, i)
            self.continue_effect()
            return
        # a stone position
        q = (action - A_STONE) // MAXS
        i = (action - A_STONE) % MAXS
        s = self.g.lair[q][i]
        self.g.eff.step += 1
        if c == C_BEG or c == C_TRIBUTE:
            self.g.eff.idx += 1
            self.log(ev(EV_STONEPICK, who, q, i, 0, 0), self.seers() | (1u << who))
            self.move_stone(q, i, a)
            self.acquire(a, s)
        elif c == C_NHF:
            self.log(ev(EV_STONEPICK, a, q, i, 0, 0), self.seers() | (1u << a))
            self.steal(a, q, i)
        elif c == C_PEEK or c == C_GLANCE:
            self.examine(a, s, True)
        elif c == C_SHOUT:
            self.log(ev(EV_STONEPICK, a, q, i, 0, 0), self.seers() | (1u << a))
            self.reveal(s)
        elif c == C_ACCUSE:
            self.log(ev(EV_STONEPICK, a, q, i, 0, 0), self.seers() | (1u << a))
            self.reveal(s)
            if rs_is_nugget(self, s):
                self.take_feathers(q, 2, -1, True)
            else:
                self.take_feathers(a, 1, -1, True)
        elif c == E_MOLE:
            self.log(ev(EV_STONEPICK, a, q, i, 0, 0), self.seers() | (1u << a))
            self.move_stone(q, i, NEST)
        elif c == C_SLEIGHT and self.g.eff.step == 2:
            self.log(ev(EV_STONEPICK, a, q, i, 0, 0), 1u << a)
            self.g.eff.s1 = i
        elif c == C_LOYAL:
            if self.g.eff.step == 3:
                self.log(ev(EV_STONEPICK, a, q, i, 0, 0), 1u << a)
                self.g.eff.s1 = i
            else:
                o1 = self.g.eff.t1
                o2 = self.g.eff.idx
                self.swap_unseen(a, o1, self.g.eff.s1, o2, i)
        elif c == C_SLEIGHT:
            self.swap_unseen(a, a, self.g.eff.s1, q, i)
        self.continue_effect()

    cdef void swap_unseen(self, int seer, int o1, int i1, int o2, int i2) noexcept nogil:
        """Swap two lair stones in place; only `seer` sees which ones.  Each
        receiver other than `seer` learns privately which of its slots got the
        new stone; both receivers may examine what they got (in order)."""
        cdef int s1 = self.g.lair[o1][i1], s2 = self.g.lair[o2][i2]
        cdef uint32_t blind = self.all_mask() & ~(1u << seer)
        self.forget(blind, self.container_mask(o1) | self.container_mask(o2))
        self.g.lair[o1][i1] = s2
        self.g.lair[o2][i2] = s1
        self.log(ev(EV_SWAP, o1, o2, i1, i2, 0), 1u << seer)
        self.log(ev(EV_SWAP_HID, o1, o2, 0, 0, 0), blind)
        if o1 != seer:
            self.log(ev(EV_SWAP_RECV, o1, o1, i1, 0, 0), 1u << o1)
        if o2 != seer and o2 != o1:
            self.log(ev(EV_SWAP_RECV, o2, o2, i2, 0, 0), 1u << o2)
        self.acquire(o1, s2)
        if o2 != o1:
            self.acquire(o2, s1)

    # ================================================================ returns
    cdef void returns(self, double* out) noexcept nogil:
        cdef int p, k = 0, n = self.g.n
        for p in range(n):
            out[p] = 0.0
        if self.g.phase != PH_END:
            return
        for p in range(n):
            if self.g.winners & (1 << p):
                k += 1
        if k == 0:
            return
        for p in range(n):
            if self.g.utility == 0:
                out[p] = 1.0 if self.g.winners & (1 << p) else 0.0
            else:
                out[p] = (1.0 / k if self.g.winners & (1 << p) else 0.0) - 1.0 / n

    cdef void resample_history(self, int player, Rng* rng, vector[int]* out) noexcept nogil:
        rs_resample_history(self, player, rng, out)

    # ================================================================ clone
    cdef Engine clone(self):
        cdef GoldNuggetEngine e = GoldNuggetEngine.__new__(GoldNuggetEngine)
        e.copy_from(self)
        return e

    cdef void copy_from(self, Engine other) noexcept:
        cdef GoldNuggetEngine o = <GoldNuggetEngine>other
        self.copy_base(other)
        memcpy(&self.g0, &o.g0, sizeof(GN))
        memcpy(&self.g, &o.g, sizeof(GN))
        if self.logcap < o.g.nlog:
            self.grow_log(o.logcap)
        memcpy(self.logc, o.logc, o.g.nlog * sizeof(uint32_t))
        memcpy(self.logm, o.logm, o.g.nlog * sizeof(uint8_t))
        memcpy(self.logh, o.logh, o.g.nlog * sizeof(int))
        self.hact = o.hact
        self.resr = o.resr
        self.resk = o.resk

    # ================================================================ Python API
    def action_to_string(self, int player, int action) -> str:
        """Human-readable name of `action` (or chance outcome) at this state."""
        ph = self.g.phase
        if player == CHANCE_PLAYER or self.current_player() == CHANCE_PLAYER:
            if ph in (PH_DEAL, PH_DRAW):
                return "card " + card_name(action)
            if ph == PH_DEAL_ANIMAL:
                return "animal " + ANIMAL_CATALOG[action][0]
            if ph == PH_DEAL_TOD:
                return "time card " + TIMES[action]
            if ph == PH_DEAL_VC:
                return "victory card " + VC_CATALOG[action][0]
            return f"nest stone #{action}"
        return action_name(action)

    def info_string(self, int player) -> str:
        """Everything `player` observed, in order (perfect recall)."""
        cdef int i
        lines = [f"p{player}"]
        for i in range(self.g.nlog):
            if self.logm[i] & (1 << player):
                lines.append(event_text(self.logc[i]))
        return "\n".join(lines)

    cdef int shown_phase(self, int player) noexcept:
        """The phase as `player` sees it.  The steps of a card's resolution and
        the instant windows (private to the animal asked) show only to the
        animal deciding; everyone else sees the phase the card was played in."""
        cdef int ph = self.g.phase
        if self.current_player() != player and (ph == PH_EFFECT or ph == PH_EFF_CHANCE
                                                or ph == PH_REACT):
            if ph == PH_REACT or self.g.eff.ctx == CTX_MEDDLE or self.g.eff.ctx == CTX_REACT:
                return PH_MEDDLE
            if self.g.eff.ctx == CTX_FINAL:
                return PH_FINAL_PLAY
            return PH_DRAW
        if ph == PH_GRAB_CHANCE and self.current_player() != player:
            return PH_GRAB
        return ph if ph <= PH_END else PH_END

    cdef bint blind(self, int player) noexcept:
        """`player` sleeps and is not the Bat: it sees no feathers move."""
        return not (self.seers() >> player) & 1

    def player_view(self, int player) -> dict:
        """What `player` knows now, as plain typed fields (docs/rules, "Player view").

        Every field is a function of the player's information state; strings,
        the observation tensor and the heuristic bot are built from it.
        """
        cdef GN* g = &self.g
        if not 0 <= player < g.n:
            raise ValueError(f"player must be in [0, {g.n - 1}], got {player}")
        blind = self.blind(player)
        lairs = []
        for q in range(g.n):
            lairs.append([FACES[g.face[g.lair[q][i]]] if g.lair[q][i] >= 0
                          and g.knows[player] & (1 << g.lair[q][i]) else None
                          for i in range(g.lairn[q])])
        nest_known = [0, 0, 0]
        for i in range(g.nestn):
            if g.knows[player] & (1 << g.nest[i]):
                nest_known[g.face[g.nest[i]]] += 1
        to_move = self.current_player() == player
        return {
            "seat": player,
            "phase": PHASE_NAMES[self.shown_phase(player)],
            "day": g.day, "days": g.days, "time": TIMES[g.time], "holder": g.holder,
            "to_move": to_move,
            "decision": DECISION_NAMES[g.eff.dk] if to_move and g.phase == PH_EFFECT else "",
            "effect": effect_name(g.eff.card) if to_move and g.phase == PH_EFFECT else "",
            "hand": [g.hand[player][k] for k in range(NLEAF)],
            "victory_card": VC_CATALOG[g.vc[player]][0] if g.vc[player] >= 0 else None,
            "offered": [ANIMAL_CATALOG[g.offer[player][i]][0] for i in range(g.deal_animals)]
            if g.phase > PH_DEAL_ANIMAL else [],
            "animals": [ANIMAL_CATALOG[g.animal[q]][0] if g.animal[q] >= 0 and (
                q == player or g.phase > PH_CHOOSE_ANIMAL) else None for q in range(g.n)],
            "times": [TIMES[g.tod[q]] if g.tod[q] >= 0 else None for q in range(g.n)],
            "asleep": [bool(g.asleep[q]) for q in range(g.n)],
            "out": [bool(g.elim[q]) for q in range(g.n)],
            "feathers": None if blind else [g.feathers[q] for q in range(g.n)],
            "nest_feathers": None if blind else g.nest_feathers,
            "cards": [g.handn[q] for q in range(g.n)],
            "lairs": lairs,
            "nest_stones": g.nestn,
            "nest_known": nest_known,
            "deck": self.deck_total(),
            "discard": [g.discard[k] for k in range(NLEAF)],
            "victory_played": [VC_CATALOG[g.vc[q]][0] if g.vc_played[q] else None
                               for q in range(g.n)],
            "plays": g.plays,
            "special_used": bool(g.special_used),
        }

    def obs_string(self, int player) -> str:
        """What `player` sees now (rendered from ``player_view``)."""
        v = self.player_view(player)
        out = [f"p{player} day {v['day'] + 1}/{v['days']} {v['time']} "
               f"phase={v['phase']} holder=p{v['holder']}"]
        out.append("hand: " + ",".join(f"{LEAF_CATALOG[k][0]}x{c}"
                                      for k, c in enumerate(v["hand"]) if c))
        if v["victory_card"] is not None:
            out.append(f"victory card: {v['victory_card']}")
        for q in range(self.g.n):
            stones = "".join(f[0] if f is not None else "?" for f in v["lairs"][q])
            fe = "?" if v["feathers"] is None else v["feathers"][q]
            out.append(f"p{q} {v['animals'][q] or '?'} time={v['times'][q] or '?'} "
                       f"{'asleep ' if v['asleep'][q] else ''}{'out ' if v['out'][q] else ''}"
                       f"feathers={fe} cards={v['cards'][q]} lair=[{stones}]")
        played = [f"p{q} {c}" for q, c in enumerate(v["victory_played"]) if c is not None]
        if played:
            out.append("victory cards played: " + ", ".join(played))
        nf = "?" if v["nest_feathers"] is None else v["nest_feathers"]
        out.append(f"nest: {v['nest_stones']} stones, {nf} feathers; "
                   f"deck {v['deck']}; discard {sum(v['discard'])}")
        return "\n".join(out)

    def render(self) -> str:
        """The full state, for humans and ``str(state)``."""
        cdef GN* g = &self.g
        out = [f"Gold Nugget: day {g.day + 1}/{g.days} {TIMES[g.time]}, "
               f"phase {PHASE_NAMES.get(g.phase, g.phase)}, white feather p{g.holder}, "
               f"to move {self.current_player()}"]
        for q in range(g.n):
            hand = ",".join(f"{LEAF_CATALOG[k][0]}x{g.hand[q][k]}"
                            for k in range(NLEAF) if g.hand[q][k])
            stones = "".join(FACES[g.face[g.lair[q][i]]][0] if g.lair[q][i] >= 0 else "_"
                             for i in range(g.lairn[q]))
            an = ANIMAL_CATALOG[g.animal[q]][0] if g.animal[q] >= 0 else "?"
            vc = (VC_CATALOG[g.vc[q]][0] + ("(played)" if g.vc_played[q] else "")) \
                if g.vc[q] >= 0 else "-"
            out.append(f"p{q} {an} time={TIMES[g.tod[q]] if g.tod[q] >= 0 else '?'} "
                       f"{'asleep ' if g.asleep[q] else ''}{'out ' if g.elim[q] else ''}"
                       f"feathers={g.feathers[q]} lair=[{stones}] hand=[{hand}] vc={vc}"
                       f"{' facedown=' + LEAF_CATALOG[g.facedown[q]][0] if g.facedown[q] >= 0 else ''}")
        nest = "".join(FACES[g.face[g.nest[i]]][0] for i in range(g.nestn))
        deck = ",".join(f"{card_name(k)}x{g.deck[k]}" for k in range(NCARD) if g.deck[k])
        out.append(f"nest=[{nest}] feathers={g.nest_feathers}")
        out.append(f"deck=[{deck}]")
        out.append("discard=[" + ",".join(f"{LEAF_CATALOG[k][0]}x{g.discard[k]}"
                                          for k in range(NLEAF) if g.discard[k]) + "]")
        if g.phase == PH_END:
            out.append("winners: " + (",".join(f"p{p}" for p in range(g.n) if g.winners >> p & 1)
                                      or "the Raven"))
        return "\n".join(out)

    def obs_tensor_size(self) -> int:
        return OBS_SIZE

    def info_tensor_size(self) -> int:
        return OBS_SIZE + 1 + 2 * MAX_EVENTS

    def fill_obs_tensor(self, int player, float[:] out) -> None:
        """Current view of `player` (see the rules doc for the layout)."""
        cdef int o = 0, q, i, s, k, qq
        cdef GN* g = &self.g
        for i in range(OBS_SIZE):
            out[i] = 0
        out[o + player] = 1
        o += MAXP
        out[o + self.shown_phase(player)] = 1
        o += 18
        out[o + g.time] = 1
        o += 4
        out[o] = g.day
        out[o + 1] = g.days - g.day
        o += 2
        out[o + g.holder] = 1
        o += MAXP
        blind = g.asleep[player] and not (g.abilities and not g.final
                                          and g.animal[player] == A_BAT)
        for q in range(g.n):
            qq = (q - player + g.n) % g.n
            out[o + qq * 12 + 0] = g.asleep[q]
            out[o + qq * 12 + 1] = g.elim[q]
            if not blind:      # a sleeper sees the counts again when it wakes
                out[o + qq * 12 + 2 + min(g.feathers[q], 3)] = 1
                out[o + qq * 12 + 6] = g.handn[q]
                out[o + qq * 12 + 7] = g.lairn[q]
            out[o + qq * 12 + 8 + (g.tod[q] if g.tod[q] >= 0 else 0)] = 1 if g.tod[q] >= 0 else 0
        o += MAXP * 12
        for k in range(NLEAF):
            out[o + k] = g.hand[player][k]
            out[o + NLEAF + k] = g.discard[k]
        o += 2 * NLEAF
        for q in range(g.n):
            qq = (q - player + g.n) % g.n
            if g.animal[q] >= 0 and (q == player or g.phase > PH_CHOOSE_ANIMAL):
                out[o + qq * NANIMAL + g.animal[q]] = 1
        o += MAXP * NANIMAL
        if g.vc[player] >= 0:
            out[o + g.vc[player]] = 1
        o += NVC
        for q in range(g.n):
            qq = (q - player + g.n) % g.n
            if g.vc_played[q]:
                out[o + qq * NVC + g.vc[q]] = 1
        o += MAXP * NVC
        for q in range(g.n):
            qq = (q - player + g.n) % g.n
            for i in range(g.lairn[q]):
                s = g.lair[q][i]
                if s >= 0 and g.knows[player] & (1u << s):
                    out[o + (qq * MAXS + i) * 3 + g.face[s]] = 1
        o += MAXP * MAXS * 3
        for i in range(g.nestn):
            s = g.nest[i]
            if g.knows[player] & (1u << s):
                out[o + g.face[s]] += 1
        o += 3
        out[o] = g.nestn
        out[o + 1] = 0 if blind else g.nest_feathers
        out[o + 2] = self.deck_total()
        out[o + 3] = g.plays
        out[o + 4] = g.special_used
        o += 5
        if g.phase == PH_EFFECT and self.current_player() == player:
            out[o + g.eff.card] = 1
            out[o + 29 + g.eff.dk] = 1
        o += 40
        if g.phase == PH_SETUP_STONE or g.phase == PH_DEAL:
            out[o] = g.deal_i

    def fill_info_tensor(self, int player, float[:] out) -> None:
        """The observation, then the events `player` saw (perfect recall): their
        number, and each event code as two exact 16-bit halves."""
        cdef int i, m = 0, o = OBS_SIZE + 1
        self.fill_obs_tensor(player, out[:OBS_SIZE])
        for i in range(OBS_SIZE, OBS_SIZE + 1 + 2 * MAX_EVENTS):
            out[i] = 0
        for i in range(self.g.nlog):
            if (self.logm[i] >> player) & 1:
                if m < MAX_EVENTS:
                    out[o + 2 * m] = self.logc[i] & 0xFFFF
                    out[o + 2 * m + 1] = self.logc[i] >> 16
                m += 1
        out[OBS_SIZE] = m

    def events_seen(self, int player) -> int:
        """Number of events `player` observed so far."""
        return sum(1 for i in range(self.g.nlog) if (self.logm[i] >> player) & 1)

    def dump(self) -> bytes:
        """Snapshot: versioned, with the game string and the action history."""
        gs = str(self.game_string).encode()
        h = [a for a in self.hist]
        return MAGIC + _struct.pack("<II", SNAP_VERSION, len(gs)) + gs + \
            _struct.pack("<I", len(h)) + _struct.pack(f"<{len(h)}i", *h)

    def load(self, data) -> None:
        """Restore a ``dump()`` snapshot by replaying its history, each action
        checked; ValueError (and no change) if anything is wrong."""
        if not isinstance(data, (bytes, bytearray)) or len(data) < 12 or data[:4] != MAGIC:
            raise ValueError("not a gold_nugget snapshot")
        ver, glen = _struct.unpack("<II", data[4:12])
        if ver != SNAP_VERSION:
            raise ValueError(f"unsupported gold_nugget snapshot version {ver}; this is "
                             f"{SNAP_VERSION}")
        if len(data) < 16 + glen:
            raise ValueError("gold_nugget snapshot is truncated")
        gs = bytes(data[12:12 + glen]).decode(errors="replace")
        if gs != str(self.game_string):
            raise ValueError(f"gold_nugget snapshot is for {gs!r}, not {self.game_string!r}")
        (nh,) = _struct.unpack("<I", data[12 + glen:16 + glen])
        if len(data) != 16 + glen + 4 * nh:
            raise ValueError(f"gold_nugget snapshot has {len(data)} bytes; expected "
                             f"{16 + glen + 4 * nh}")
        hist = _struct.unpack(f"<{nh}i", data[16 + glen:])
        cdef GoldNuggetEngine e = <GoldNuggetEngine>self.clone()
        e.to_initial()
        for i, a in enumerate(hist):
            try:
                e.py_apply(a)
            except ValueError as exc:
                raise ValueError(f"gold_nugget snapshot history is illegal at step {i}: "
                                 f"{exc}") from None
        self.copy_from(e)

    def check_invariants(self) -> None:
        """Raise ValueError naming any broken conservation law."""
        cdef GN* g = &self.g
        n = g.n
        def need(ok, msg):
            if not ok:
                raise ValueError(msg)
        need(2 <= n <= MAXP and 0 < g.nstones <= MAXS, "player or stone count out of range")
        seen = []
        for q in range(n):
            need(0 <= g.lairn[q] <= MAXS, f"lair size of p{q} out of range")
            seen += [g.lair[q][i] for i in range(g.lairn[q]) if not (g.grabbed >> g.lair[q][i]) & 1]
        need(0 <= g.nestn <= MAXS, "nest size out of range")
        seen += [g.nest[i] for i in range(g.nestn) if not (g.grabbed >> g.nest[i]) & 1]
        seen += [g.got[p] for p in range(n) if g.got[p] >= 0 and g.phase != PH_END]
        need(sorted(seen) == list(range(g.nstones)),
             f"stone conservation broken: {sorted(seen)} vs {g.nstones} stones")
        faces = sorted(g.face[s] for s in range(g.nstones))
        need(faces.count(F_NUGGET) == 1 and faces.count(F_TRAP) == g.ntrap,
             "stone faces conservation broken (one Gold Nugget, the trap count)")
        need(sum(g.feathers[p] for p in range(n)) + g.nest_feathers == g.nfeathers,
             "black feather conservation broken")
        need(all(0 <= g.feathers[p] <= 2 for p in range(n)),
             "an animal holds 3+ feathers without being caught")
        for p in range(n):
            need(sum(g.hand[p][k] for k in range(NLEAF)) == g.handn[p],
                 f"hand size of p{p} does not match its cards")
        for k in range(NLEAF):
            total = g.deck[k] + g.discard[k] + sum(g.hand[p][k] for p in range(n)) + \
                sum(1 for p in range(n) if g.facedown[p] == k)
            need(total == g.leaf_init[k],
                 f"leaf card conservation broken for {LEAF_CATALOG[k][0]}: {total} vs "
                 f"{g.leaf_init[k]}")
        for w in range(NWIND):
            need(g.deck[NLEAF + w] + g.boxed[w] == g.wind_init[w] or g.phase == PH_DEAL,
                 f"wind card conservation broken for {WIND_CATALOG[w][0]}")
        need(g.lazy == 0, "a resampling walk's lazy state leaked into a game")
        need(g.nmoves <= g.max_moves, "move budget exceeded")
        need(<int>self.hist.size() == g.nmoves and <int>self.hact.size() == g.nmoves,
             "history length does not match the moves made")

    # --- small helpers for tests and tools
    def stone_faces(self) -> list:
        """Face of every stone id (0 normal, 1 trap, 2 nugget)."""
        return [self.g.face[s] for s in range(self.g.nstones)]

    def lairs(self) -> list:
        """Stone ids per lair, in slot order."""
        return [[self.g.lair[q][i] for i in range(self.g.lairn[q])] for q in range(self.g.n)]

    def nest_stones(self) -> list:
        """Stone ids in the nest, sorted."""
        return sorted([self.g.nest[i] for i in range(self.g.nestn)])

    def nest_order(self) -> list:
        """Stone ids in the nest in chance-outcome order (outcome i draws entry i)."""
        return [self.g.nest[i] for i in range(self.g.nestn)]

    def feathers(self) -> list:
        return [self.g.feathers[p] for p in range(self.g.n)] + [self.g.nest_feathers]

    def hand(self, int player) -> list:
        return [self.g.hand[player][k] for k in range(NLEAF)]

    def info(self) -> dict:
        """A few scalar fields, for tests."""
        cdef GN* g = &self.g
        return {"phase": PHASE_NAMES.get(g.phase, g.phase), "holder": g.holder,
                "time": g.time, "day": g.day, "asleep": [g.asleep[p] for p in range(g.n)],
                "animals": [g.animal[p] for p in range(g.n)],
                "tod": [g.tod[p] for p in range(g.n)], "elim": [g.elim[p] for p in range(g.n)],
                "winners": g.winners, "moves": g.nmoves, "deck": self.deck_total(),
                "discard": [g.discard[k] for k in range(NLEAF)],
                "vc": [g.vc[p] for p in range(g.n)], "reshuffled": g.reshuffled,
                "knows": [g.knows[p] for p in range(g.n)]}


OBS_SIZE = MAXP + 18 + 4 + 2 + MAXP + MAXP * 12 + 2 * NLEAF + MAXP * NANIMAL + NVC + MAXP * NVC \
    + MAXP * MAXS * 3 + 3 + 5 + 40 + 1
# Events one player can observe that the information-state tensor records
# (the longest random 5-player advanced game measured: see the rules doc).
MAX_EVENTS = 2500
DECISION_NAMES = ("", "examine", "beg", "choose an animal", "choose an animal with stones",
                  "choose its stone", "steal from anywhere", "choose a lair stone",
                  "choose your stone", "suspicion")


def effect_name(int c) -> str:
    """Name of a running effect (a leaf card, or an ability/victory effect)."""
    if 0 <= c < NCARD:
        return card_name(c)
    return {E_RECYCLE: "recycle", E_VICTORY: "victory card",
            E_MOLE: "Mole", E_GUST: "Gust"}.get(c, f"effect{c}")


def card_name(int k) -> str:
    """Name of forest card id k (leaf 0-15, wind 16-20)."""
    if 0 <= k < NLEAF:
        return LEAF_CATALOG[k][0]
    if NLEAF <= k < NCARD:
        return WIND_CATALOG[k - NLEAF][0]
    return f"card{k}"


def action_name(int a) -> str:
    """Name of player action id a (see the action table in games/gold_nugget.py)."""
    if a == A_PASS:
        return "pass/end"
    if a == A_SLEEP:
        return "sleep"
    if a == A_MEDDLE:
        return "meddle"
    if a == A_OPT0:
        return "option 0 (first animal / examine / reveal all)"
    if a == A_OPT1:
        return "option 1 (second animal / don't examine / take 2 feathers)"
    if a == A_ABILITY:
        return "use ability"
    if a == A_VICTORY:
        return "play victory card"
    if a == A_FEATHER:
        return "give a feather"
    if A_PLAY <= a < A_RECYCLE:
        return "play " + LEAF_CATALOG[a - A_PLAY][0]
    if A_RECYCLE <= a < A_DISCARD:
        return "recycle " + LEAF_CATALOG[a - A_RECYCLE][0]
    if A_DISCARD <= a < A_PLAYER:
        return "discard/give " + LEAF_CATALOG[a - A_DISCARD][0]
    if A_PLAYER <= a < A_NEST:
        return f"choose p{a - A_PLAYER}"
    if a == A_NEST:
        return "the nest"
    if A_STONE <= a < NUM_ACTIONS:
        return f"stone p{(a - A_STONE) // MAXS}#{(a - A_STONE) % MAXS}"
    return f"action{a}"


def _owner(int o) -> str:
    return "nest" if o == NEST else f"p{o}"


def event_text(uint32_t code) -> str:
    """Readable, injective rendering of one event code."""
    k = code & 63
    a = (code >> 6) & 15
    b = (code >> 10) & 15
    c = (code >> 14) & 63
    d = (code >> 20) & 63
    e = (code >> 26) & 63
    if k == EV_DEALT:
        return f"dealt {card_name(c)}"
    if k == EV_OFFER:
        return f"offered {ANIMAL_CATALOG[c][0]}"
    if k == EV_CHOSE:
        return f"chose {ANIMAL_CATALOG[c][0]}"
    if k == EV_ANIMAL:
        return f"p{a} is the {ANIMAL_CATALOG[c][0]}"
    if k == EV_TOD:
        return f"p{a} sleeps at {TIMES[c]}"
    if k == EV_VCDEALT:
        return f"victory card {VC_CATALOG[c][0]}"
    if k == EV_NESTTAKE:
        return f"p{a} takes a stone from the nest"
    if k == EV_FACE:
        return f"p{a} sees {_owner(b)}#{c} is {FACES[d]}{' (raccoon)' if e else ''}"
    if k == EV_EXAMINE:
        return f"p{a} examines {_owner(b)}#{c}"
    if k == EV_TRAPSHOW:
        return f"p{a} shows trap {_owner(b)}#{c}"
    if k == EV_REVEAL:
        return f"reveal {_owner(b)}#{c} {FACES[d]}"
    if k == EV_MOVE:
        return f"stone {_owner(b)}#{c} -> {_owner(a)}"
    if k == EV_MOVE_HID:
        return f"(asleep) a stone {_owner(b)} -> {_owner(a)}"
    if k == EV_FEATHER:
        return f"p{a} takes a feather from {_owner(b)}"
    if k == EV_CAUGHT:
        return f"p{a} caught by the Raven"
    if k == EV_FRETURN:
        return f"p{a} returns {c} feathers"
    if k == EV_WAKE:
        return f"p{a} wakes"
    if k == EV_SNAP:
        return f"(awake) p{a}: {c} feathers, {d} stones, {e} cards"
    if k == EV_DISCARD:
        return f"p{a} discards {card_name(c)}{' (hand limit)' if d else ''}"
    if k == EV_DRAW:
        return f"p{a} draws"
    if k == EV_DRAWCARD:
        return f"drew {card_name(c)}"
    if k == EV_WIND:
        return f"p{a} draws wind {card_name(c)}"
    if k == EV_RESHUFFLE:
        return "discards reshuffled into the forest deck"
    if k == EV_SLEEP:
        return f"p{a} sleeps"
    if k == EV_MEDDLE:
        return f"p{a} stays awake to meddle"
    if k == EV_PASSFEATHER:
        return f"white feather p{a} -> p{b}"
    if k == EV_PLAY:
        return f"p{a} {('plays', 'recycles', 'reveals face-down', 'reveals face-down and recycles')[d]} {card_name(c)}"
    if k == EV_TARGET:
        return f"p{a} targets p{b} (step {c})"
    if k == EV_STONEPICK:
        return f"p{a} picks {_owner(b)}#{c}"
    if k == EV_GIVECARD:
        return f"p{a} gives a card to p{b}"
    if k == EV_GIVECARDID:
        return f"p{a} gives {card_name(c)} to p{b}"
    if k == EV_SUSP:
        return f"p{a} chooses {('reveal all', 'two feathers')[c]}"
    if k == EV_ANSWER:
        return f"{card_name(c)}: {'yes' if d else 'no'}"
    if k == EV_SWAP_HID:
        return f"a stone of {_owner(a)} swapped with one of {_owner(b)}"
    if k == EV_SWAP:
        return f"swapped {_owner(a)}#{c} with {_owner(b)}#{d}"
    if k == EV_END:
        return f"p{a} ends meddling"
    if k == EV_REACTPASS:
        return f"p{a} plays no instant (window)"
    if k == EV_FACEDOWN:
        return f"p{a} plays a card face down"
    if k == EV_FACEDOWNID:
        return f"face-down card {card_name(c)}{' (to recycle)' if d else ''}"
    if k == EV_FINALPASS:
        return f"p{a} plays no card"
    if k == EV_GRAB:
        return f"p{a} grabs"
    if k == EV_GRABPICK:
        return f"you grab at {_owner(b)}#{c}"
    if k == EV_GRABRES:
        return f"p{a} grabbed at {_owner(b)}#{c}: " + \
            (f"got {FACES[d]}" if e else "nothing")
    if k == EV_ABILITY:
        return f"p{a} uses the {ANIMAL_CATALOG[c][0]} ability"
    if k == EV_VCPLAY:
        return f"p{a} plays victory card {VC_CATALOG[c][0]}"
    if k == EV_VCWIN:
        if c == VC_CLEAN:
            return f"Clean slate: p{a} wins instead of p{b}"
        return f"{VC_CATALOG[c][0]}: p{a} wins"
    if k == EV_TIME:
        return f"leaf token: day {d + 1} {TIMES[c]}"
    if k == EV_NOEXAM:
        return f"p{a} does not examine"
    if k == EV_ELIM:
        return f"p{a} is out"
    if k == EV_WINNERS:
        return "winners: " + (",".join(f"p{p}" for p in range(5) if c >> p & 1) or "the Raven")
    if k == EV_HELLODONE:
        return f"p{a} done discarding"
    if k == EV_EXAMDONE:
        return f"(asleep) p{a} has dealt with its new stone"
    if k == EV_CHOSEPUB:
        return f"p{a} lays its chosen animal face down"
    if k == EV_DEALPUB:
        return f"p{a} is dealt {('a card', 'an animal', 'a victory card')[b]}"
    if k == EV_SWAP_RECV:
        return f"p{a} receives a swapped stone at {_owner(b)}#{c}"
    if k == EV_GIVEFEATHER:
        return f"p{a} gives a feather to p{b}"
    return f"event{code}"


NUM_DISTINCT_ACTIONS = NUM_ACTIONS
MAX_CHANCE_OUTCOMES = MAX_CHANCE
NUM_LEAF = NLEAF
NUM_WIND = NWIND


include "gold_nugget_resample.pxi"
