# cython: language_level=3
"""Gold Thief rules engine (see docs/rules/gold_thief.md).

The whole state is one C struct ``GTState`` (clone = struct copy) plus an
event log (a C++ vector) from which information-state strings are rendered.
Action cards are drawn lazily from a multiset (the deck has no hidden order);
every card in a hand carries the *generation* of the deck it came from and
the set of players who know it is there, which is what makes resampling
exact (see ``resample``).
"""
from libc.stdint cimport uint64_t, int32_t
from libc.string cimport memcpy, memset
from libcpp.vector cimport vector

from src_cy.engine cimport (Engine, Rng, rng_int, rng_double, mix64,
                            CHANCE_PLAYER, TERMINAL_PLAYER, MAX_BRANCHING,
                            ENGINE_MAX_PLAYERS)

import numpy as np

# ---------------------------------------------------------------- constants
cdef enum:
    MAXP = 5
    NT = 5                # card types
    MAX_GOALS = 24
    MAX_HAND = 64
    MAX_STACK = 48
    MAX_GOLD = 63

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

cdef enum:
    PH_FIRST = 0          # chance: first player
    PH_SETUP_GOALS = 1    # chance: initial goal deal
    PH_SETUP_CARDS = 2    # chance: initial card deal
    PH_NINJA = 3          # decision: pre-emptive Ninja scoring window
    PH_BIG_FLIP = 4       # decision: >big_pile gold, flip one goal
    PH_DRAW = 5           # chance: a card for draw_target
    PH_DEAL_GOAL = 6      # chance: a goal for goal_target
    PH_PLAY = 7           # decision: active player plays or ends turn
    PH_RESPOND = 8        # decision: response window
    PH_GIVE = 9           # decision: Witch victim chooses the card
    PH_FAERIE_DRAW = 10   # chance: Faerie's new goal
    PH_OVER = 11

cdef enum:
    E_THIEF = 0           # own-turn Thief: steal `amount` from victim
    E_RAID = 1            # Thief played as a raid on the thief
    E_WITCH_EXTRA = 2     # Witch as an extra Thief
    E_GUARD_GIFT = 3      # own-turn Guard: give 1 gold
    E_GUARD_CANCEL = 4    # Guard cancelling a theft
    E_WITCH_STEAL = 5     # own-turn Witch: steal a card
    E_FAERIE_CANCEL = 6   # Faerie cancelling a Guard or Witch

cdef enum:
    G_PILE = 0            # random part of the goal pile
    G_BOTTOM = 1          # under the pile (Faerie), drawn in order
    G_DOWN = 2            # face down in front of `goal_owner`
    G_UP = 3              # face up (scored) in front of `goal_owner`

cdef enum:
    EV_FIRST = 0
    EV_DEAL_GOAL = 1
    EV_DRAW = 2
    EV_RESHUFFLE = 3
    EV_PLAY = 4
    EV_PASS = 5
    EV_FLIP = 6
    EV_GIVE = 7
    EV_END_TURN = 8
    EV_FAERIE_GOAL = 9
    EV_GAME_END = 10

cdef struct Effect:
    int kind
    int player            # who played it
    int victim
    int beneficiary
    int amount
    int target            # stack index this effect cancels or follows
    int scan              # next seat offset to offer the window to
    int canceled
    int uid               # unique id (deferred add-ons name their parent by it)
    int parent            # uid of the theft an add-on follows (deferred list)

cdef struct Event:
    int kind
    int actor
    int a                 # secret detail (card type, goal id) or -1
    int b                 # public detail (target seat, action id)
    int vis               # bitmask of players who see `a`

cdef struct GTState:
    int n
    int phase
    int active            # whose turn it is
    int first
    int turn              # turns started so far
    int moves             # actions applied so far
    int winner            # -1 none / draw
    int gold[MAXP]
    # action cards
    int deck[NT]
    int disc[NT]
    int gen               # deck generation (bumped at every reshuffle)
    int hand_n[MAXP]
    int hand_type[MAXP][MAX_HAND]
    int hand_gen[MAXP][MAX_HAND]
    int hand_seen[MAXP][MAX_HAND]
    # goals
    int goal_loc[MAX_GOALS]
    int goal_owner[MAX_GOALS]
    int goal_seen[MAX_GOALS]
    uint64_t goal_mask[MAX_GOALS]   # gold values known not to match it
    int bottom[MAX_GOALS]
    int bottom_n
    # flow
    int setup_k           # counter for set-up deals
    int draw_target
    int draws_pending
    int goal_target       # seat being dealt in a goal round
    int goal_round_left   # seats left in the current goal round
    int window_seat       # seat offset scanned in the Ninja window
    int decider           # player deciding in NINJA/RESPOND/GIVE
    int sp
    Effect stack[MAX_STACK]
    # Add-on answers (raid, Witch as extra Thief) whose window is over: each
    # resolves right after the theft it follows (issue 11, rules doc).
    int ndfr
    Effect dfr[MAX_STACK]
    int next_uid


cdef inline int popcount64(uint64_t x) noexcept nogil:
    cdef int c = 0
    while x:
        x &= x - 1
        c += 1
    return c


CARD_NAMES = ("Thief", "Guard", "Witch", "Faerie", "Ninja")


cdef class GoldThiefEngine(Engine):
    """Gold Thief for 2-5 players; parameters are validated by games.gold_thief."""
    cdef GTState s
    cdef vector[Event] log
    # parameters
    cdef readonly int hand_size, start_gold, goals_to_win, big_pile, max_turns
    cdef readonly int num_goals, first_fixed, max_moves
    cdef int counts[NT]
    cdef int goal_a[MAX_GOALS]
    cdef int goal_b[MAX_GOALS]

    def __init__(self, int players, counts, goals, int hand_size, int start_gold,
                 int goals_to_win, int big_pile, int max_turns, int first_player,
                 int max_moves, str game_string=""):
        cdef int i
        self.num_players = players
        self.game_string = game_string
        self.hand_size = hand_size
        self.start_gold = start_gold
        self.goals_to_win = goals_to_win
        self.big_pile = big_pile
        self.max_turns = max_turns
        self.first_fixed = first_player
        self.max_moves = max_moves
        self.num_goals = len(goals)
        for i in range(NT):
            self.counts[i] = counts[i]
        for i in range(self.num_goals):
            self.goal_a[i] = goals[i][0]
            self.goal_b[i] = goals[i][1]
        self.reset()

    cpdef void reset(self):
        """Back to the initial state (before any chance event)."""
        cdef int i
        memset(&self.s, 0, sizeof(GTState))
        self.log.clear()
        self.pubhash = 0
        memset(self.ihash, 0, sizeof(self.ihash))
        self.s.n = self.num_players
        self.s.winner = -1
        for i in range(self.num_players):
            self.s.gold[i] = self.start_gold
        for i in range(NT):
            self.s.deck[i] = self.counts[i]
        for i in range(self.num_goals):
            self.s.goal_loc[i] = G_PILE
            self.s.goal_owner[i] = -1
        if self.first_fixed >= 0:
            self.s.first = self.first_fixed
            self.s.active = self.first_fixed
            self.s.phase = PH_SETUP_GOALS
            self.event(EV_FIRST, self.first_fixed, -1, -1, 0)
        else:
            self.s.phase = PH_FIRST

    # ------------------------------------------------------------ events
    cdef void event(self, int kind, int actor, int a, int b, int vis) noexcept nogil:
        """Record an event; players in `vis` see detail `a`, others don't."""
        cdef Event ev
        cdef int p
        cdef uint64_t full, red
        ev.kind = kind
        ev.actor = actor
        ev.a = a
        ev.b = b
        ev.vis = vis
        self.log.push_back(ev)
        full = (<uint64_t>kind << 48) ^ (<uint64_t>(actor + 1) << 40) ^ (<uint64_t>(a + 1) << 20) ^ <uint64_t>(b + 2)
        red = (<uint64_t>kind << 48) ^ (<uint64_t>(actor + 1) << 40) ^ <uint64_t>(b + 2)
        if kind == EV_PASS:
            # Only the passer knows a window was offered to them.
            self.observe_private(actor, full)
            return
        if vis == 0:
            self.observe_public(full)
            return
        self.pubhash = mix64(self.pubhash, red)
        for p in range(self.s.n):
            if (vis >> p) & 1:
                self.ihash[p] = mix64(self.ihash[p], full)
            else:
                self.ihash[p] = mix64(self.ihash[p], red)

    # ------------------------------------------------------------ helpers
    cdef inline int holds(self, int p, int t) noexcept nogil:
        cdef int i, c = 0
        for i in range(self.s.hand_n[p]):
            if self.s.hand_type[p][i] == t:
                c += 1
        return c

    cdef int remove_card(self, int p, int t) noexcept nogil:
        """Remove the last card of type t from p's hand; returns its index or -1."""
        cdef int i, last
        for i in range(self.s.hand_n[p] - 1, -1, -1):
            if self.s.hand_type[p][i] == t:
                last = self.s.hand_n[p] - 1
                self.s.hand_type[p][i] = self.s.hand_type[p][last]
                self.s.hand_gen[p][i] = self.s.hand_gen[p][last]
                self.s.hand_seen[p][i] = self.s.hand_seen[p][last]
                self.s.hand_n[p] = last
                return i
        return -1

    cdef inline bint goal_matches(self, int g, int gold) noexcept nogil:
        return self.goal_a[g] == gold or self.goal_b[g] == gold

    cdef int down_count(self, int p) noexcept nogil:
        cdef int g, c = 0
        for g in range(self.num_goals):
            if self.s.goal_loc[g] == G_DOWN and self.s.goal_owner[g] == p:
                c += 1
        return c

    cdef int up_count(self, int p) noexcept nogil:
        cdef int g, c = 0
        for g in range(self.num_goals):
            if self.s.goal_loc[g] == G_UP and self.s.goal_owner[g] == p:
                c += 1
        return c

    cdef int pile_random(self) noexcept nogil:
        cdef int g, c = 0
        for g in range(self.num_goals):
            if self.s.goal_loc[g] == G_PILE:
                c += 1
        return c

    cdef int deck_total(self) noexcept nogil:
        cdef int t, c = 0
        for t in range(NT):
            c += self.s.deck[t]
        return c

    cdef int disc_total(self) noexcept nogil:
        cdef int t, c = 0
        for t in range(NT):
            c += self.s.disc[t]
        return c

    cdef void flip(self, int p, int g) noexcept nogil:
        """Turn p's goal g face up; ends the game on the winning flip."""
        self.s.goal_loc[g] = G_UP
        self.s.goal_seen[g] = 0
        self.event(EV_FLIP, p, -1, g, 0)
        if self.up_count(p) >= self.goals_to_win and self.s.phase != PH_OVER:
            self.s.winner = p
            self.s.phase = PH_OVER
            self.event(EV_GAME_END, p, -1, -1, 0)

    cdef void end_game_draw(self) noexcept nogil:
        self.s.winner = -1
        self.s.phase = PH_OVER
        self.event(EV_GAME_END, -1, -1, -1, 0)

    cdef bint ensure_deck(self) noexcept nogil:
        """Reshuffle the discards into an empty deck; False if no card is left."""
        cdef int t
        if self.deck_total() > 0:
            return True
        if self.disc_total() == 0:
            return False
        for t in range(NT):
            self.s.deck[t] = self.s.disc[t]
            self.s.disc[t] = 0
        self.s.gen += 1
        self.event(EV_RESHUFFLE, -1, -1, -1, 0)
        return True

    cdef bint goal_draw_possible(self) noexcept nogil:
        return self.pile_random() > 0 or self.s.bottom_n > 0

    cdef void give_goal(self, int p, int g) noexcept nogil:
        cdef int i
        if self.s.goal_loc[g] == G_BOTTOM:
            for i in range(self.s.bottom_n - 1):
                self.s.bottom[i] = self.s.bottom[i + 1]
            self.s.bottom_n -= 1
        self.s.goal_loc[g] = G_DOWN
        self.s.goal_owner[g] = p
        self.s.goal_seen[g] = 1 << p

    # ------------------------------------------------------------ windows
    cdef bint can_respond(self, int q, Effect* e) noexcept nogil:
        cdef int k = e.kind
        if q == e.player:
            # the thief (or raider) may add their own Witch as an extra Thief
            return (k == E_THIEF or k == E_RAID) and self.holds(q, WITCH) > 0
        if k == E_THIEF or k == E_RAID:
            # a raid is played "on someone else's turn": never by the active player
            return self.holds(q, GUARD) > 0 or self.holds(q, WITCH) > 0 or \
                (self.holds(q, THIEF) > 0 and q != self.s.active)
        if k == E_WITCH_EXTRA:
            return self.holds(q, GUARD) > 0 or self.holds(q, FAERIE) > 0
        if k == E_GUARD_GIFT or k == E_GUARD_CANCEL or k == E_WITCH_STEAL:
            return self.holds(q, FAERIE) > 0
        return False

    cdef void push(self, int kind, int player, int victim, int beneficiary,
                   int amount, int target) noexcept nogil:
        cdef Effect* e = &self.s.stack[self.s.sp]
        e.kind = kind
        e.player = player
        e.victim = victim
        e.beneficiary = beneficiary
        e.amount = amount
        e.target = target
        e.scan = 1
        e.canceled = 0
        e.uid = self.s.next_uid
        e.parent = -1
        self.s.next_uid += 1
        self.s.sp += 1

    cdef void transfer(self, int src, int dst, int amount) noexcept nogil:
        cdef int x = amount if amount < self.s.gold[src] else self.s.gold[src]
        self.s.gold[src] -= x
        self.s.gold[dst] += x

    cdef bint resolve_top(self) noexcept nogil:
        """Resolve and pop the top effect; False if it needs a Give decision."""
        cdef Effect* e = &self.s.stack[self.s.sp - 1]
        cdef int v, t, distinct, uid = e.uid
        if e.kind == E_RAID or e.kind == E_WITCH_EXTRA:
            # an add-on waits for the theft it follows
            self.s.dfr[self.s.ndfr] = e[0]
            self.s.dfr[self.s.ndfr].parent = self.s.stack[e.target].uid
            self.s.ndfr += 1
            self.s.sp -= 1
            return True
        if e.kind == E_THIEF:
            self.transfer(e.victim, e.beneficiary, e.amount)
        elif e.kind == E_GUARD_GIFT:
            self.transfer(e.player, e.beneficiary, 1)
        elif e.kind == E_GUARD_CANCEL or e.kind == E_FAERIE_CANCEL:
            self.s.stack[e.target].canceled = 1
        elif e.kind == E_WITCH_STEAL:
            v = e.victim
            if self.s.hand_n[v] > 0:
                distinct = 0
                for t in range(NT):
                    if self.holds(v, t) > 0:
                        distinct += 1
                if distinct > 1:
                    self.s.phase = PH_GIVE
                    self.s.decider = v
                    return False
                self.do_give(v, e.player, self.s.hand_type[v][0])
        self.s.sp -= 1
        self.flush(uid)
        return True

    cdef void flush(self, int uid) noexcept nogil:
        """Resolve the deferred add-ons that follow effect `uid`, each one
        followed by its own add-ons (in the order they were played)."""
        cdef int i = 0, j
        cdef Effect d
        while i < self.s.ndfr:
            if self.s.dfr[i].parent != uid:
                i += 1
                continue
            d = self.s.dfr[i]
            for j in range(i, self.s.ndfr - 1):
                self.s.dfr[j] = self.s.dfr[j + 1]
            self.s.ndfr -= 1
            self.transfer(d.victim, d.beneficiary, d.amount)
            self.flush(d.uid)
            i = 0

    cdef void do_give(self, int v, int thief, int t) noexcept nogil:
        cdef int i, k, gen, seen
        for i in range(self.s.hand_n[v] - 1, -1, -1):
            if self.s.hand_type[v][i] == t:
                gen = self.s.hand_gen[v][i]
                seen = self.s.hand_seen[v][i]
                self.remove_card(v, t)
                k = self.s.hand_n[thief]
                self.s.hand_type[thief][k] = t
                self.s.hand_gen[thief][k] = gen
                self.s.hand_seen[thief][k] = seen | (1 << v) | (1 << thief)
                self.s.hand_n[thief] = k + 1
                self.event(EV_GIVE, v, t, thief, (1 << v) | (1 << thief))
                return

    # ------------------------------------------------------------ flow
    cdef void advance(self) noexcept nogil:
        """Run automatic steps until a decision or chance node."""
        cdef Effect* e
        cdef int q, g, t, n = self.s.n, cnt
        while True:
            if self.s.phase == PH_OVER:
                return
            if self.s.moves >= self.max_moves:
                self.end_game_draw()
                return
            if self.s.phase == PH_GIVE or self.s.phase == PH_FIRST \
                    or self.s.phase == PH_BIG_FLIP:
                return
            if self.s.phase == PH_SETUP_GOALS:
                if self.s.setup_k < n and self.goal_draw_possible():
                    return
                self.s.setup_k = 0
                self.s.phase = PH_SETUP_CARDS
                continue
            if self.s.phase == PH_SETUP_CARDS:
                if self.s.setup_k < n * self.hand_size and self.ensure_deck():
                    return
                self.start_turn(self.s.first)
                continue
            if self.s.sp > 0:
                e = &self.s.stack[self.s.sp - 1]
                if e.canceled:
                    self.s.sp -= 1
                    self.flush(e.uid)
                    if self.s.sp == 0:
                        self.s.phase = PH_PLAY
                    continue
                while e.scan <= n:
                    q = (e.player + e.scan) % n
                    e.scan += 1
                    if self.can_respond(q, e):
                        self.s.phase = PH_RESPOND
                        self.s.decider = q
                        return
                if not self.resolve_top():
                    return
                if self.s.sp == 0:
                    self.s.phase = PH_PLAY
                continue
            if self.s.phase == PH_NINJA:
                # Offer the window to the next eligible seat, else score.
                while self.s.window_seat < n:
                    q = (self.s.active + self.s.window_seat) % n
                    self.s.window_seat += 1
                    if self.holds(q, NINJA) > 0 and self.ninja_goal_exists(q):
                        self.s.decider = q
                        return
                self.score_turn_start()
                continue
            if self.s.phase == PH_DRAW:
                if self.s.draws_pending > 0 and self.ensure_deck():
                    return
                self.s.draws_pending = 0
                if self.s.draw_target == self.s.active and self.s.goal_round_left < 0:
                    # start-of-turn draw finished: goal round if anyone has none
                    self.s.goal_round_left = 0
                    for q in range(n):
                        if self.down_count(q) == 0:
                            self.s.goal_round_left = n
                            self.s.goal_target = self.s.active
                            break
                    self.s.phase = PH_DEAL_GOAL
                    continue
                self.s.phase = PH_PLAY
                continue
            if self.s.phase == PH_DEAL_GOAL:
                while self.s.goal_round_left > 0:
                    if self.pile_random() > 0:
                        return
                    if self.s.bottom_n > 0:
                        g = self.s.bottom[0]
                        self.give_goal(self.s.goal_target, g)
                        self.event(EV_DEAL_GOAL, self.s.goal_target, g, -1, 1 << self.s.goal_target)
                        self.next_goal_target()
                        continue
                    self.s.goal_round_left = 0
                self.s.phase = PH_PLAY
                continue
            if self.s.phase == PH_FAERIE_DRAW:
                if self.pile_random() > 0:
                    return
                if self.s.bottom_n > 0:
                    g = self.s.bottom[0]
                    self.give_goal(self.s.active, g)
                    self.event(EV_FAERIE_GOAL, self.s.active, g, -1, 1 << self.s.active)
                self.s.phase = PH_PLAY
                continue
            return

    cdef void next_goal_target(self) noexcept nogil:
        self.s.goal_round_left -= 1
        self.s.goal_target = (self.s.goal_target + 1) % self.s.n

    cdef bint ninja_goal_exists(self, int q) noexcept nogil:
        cdef int g
        for g in range(self.num_goals):
            if self.s.goal_loc[g] == G_DOWN and self.s.goal_owner[g] == q \
                    and self.goal_matches(g, self.s.gold[q]):
                return True
        return False

    cdef void start_turn(self, int p) noexcept nogil:
        if self.s.turn >= self.max_turns:
            self.end_game_draw()
            return
        self.s.turn += 1
        self.s.active = p
        self.s.phase = PH_NINJA
        self.s.window_seat = 1

    cdef void score_turn_start(self) noexcept nogil:
        """Flip every matching goal; mark the rest; then the >big_pile pick."""
        cdef int p = self.s.active, g, gold = self.s.gold[p]
        for g in range(self.num_goals):
            if self.s.phase == PH_OVER:
                return
            if self.s.goal_loc[g] == G_DOWN and self.s.goal_owner[g] == p:
                if self.goal_matches(g, gold):
                    self.flip(p, g)
                elif gold <= MAX_GOLD:
                    self.s.goal_mask[g] |= (<uint64_t>1) << gold
        if self.s.phase == PH_OVER:
            return
        if gold > self.big_pile and self.down_count(p) > 0:
            if self.down_count(p) == 1:
                for g in range(self.num_goals):
                    if self.s.goal_loc[g] == G_DOWN and self.s.goal_owner[g] == p:
                        self.flip(p, g)
                        break
                if self.s.phase == PH_OVER:
                    return
            else:
                self.s.phase = PH_BIG_FLIP
                self.s.decider = p
                return
        self.begin_draw()

    cdef void begin_draw(self) noexcept nogil:
        cdef int need = self.hand_size - self.s.hand_n[self.s.active]
        self.s.phase = PH_DRAW
        self.s.draw_target = self.s.active
        self.s.draws_pending = need if need > 0 else 0
        self.s.goal_round_left = -1

    # ------------------------------------------------------------ interface
    cdef int current_player(self) noexcept nogil:
        cdef int ph = self.s.phase
        if ph == PH_OVER:
            return TERMINAL_PLAYER
        if ph == PH_FIRST or ph == PH_SETUP_GOALS or ph == PH_SETUP_CARDS \
                or ph == PH_DRAW or ph == PH_DEAL_GOAL or ph == PH_FAERIE_DRAW:
            return CHANCE_PLAYER
        if ph == PH_PLAY or ph == PH_BIG_FLIP:
            return self.s.active
        return self.s.decider

    cdef bint is_terminal(self) noexcept nogil:
        return self.s.phase == PH_OVER

    cdef int chance_outcomes(self, int* out, double* probs) noexcept nogil:
        cdef int ph = self.s.phase, k = 0, t, g, tot
        if ph == PH_FIRST:
            for t in range(self.s.n):
                out[k] = C_FIRST + t
                probs[k] = 1.0 / self.s.n
                k += 1
        elif ph == PH_SETUP_CARDS or ph == PH_DRAW:
            tot = self.deck_total()
            for t in range(NT):
                if self.s.deck[t] > 0:
                    out[k] = C_CARD + t
                    probs[k] = self.s.deck[t] / <double>tot
                    k += 1
        else:
            tot = self.pile_random()
            for g in range(self.num_goals):
                if self.s.goal_loc[g] == G_PILE:
                    out[k] = C_GOAL + g
                    probs[k] = 1.0 / tot
                    k += 1
        return k

    cdef int legal_actions(self, int* out) noexcept nogil:
        cdef int ph = self.s.phase, k = 0, p, v, g, t, n = self.s.n
        cdef Effect* e
        if ph == PH_PLAY:
            p = self.s.active
            out[k] = A_END_TURN
            k += 1
            if self.holds(p, THIEF) > 0:
                for v in range(n):
                    if v != p and self.s.gold[v] > 0:
                        out[k] = A_THIEF + v
                        k += 1
            if self.holds(p, GUARD) > 0 and self.s.gold[p] > 0:
                for v in range(n):
                    if v != p:
                        out[k] = A_GUARD + v
                        k += 1
            if self.holds(p, WITCH) > 0:
                for v in range(n):
                    if v != p and self.s.hand_n[v] > 0:
                        out[k] = A_WITCH + v
                        k += 1
            if self.holds(p, FAERIE) > 0:
                for g in range(self.num_goals):
                    if self.s.goal_loc[g] == G_DOWN and self.s.goal_owner[g] == p:
                        out[k] = A_FAERIE + g
                        k += 1
            if self.holds(p, NINJA) > 0:
                out[k] = A_NINJA
                k += 1
        elif ph == PH_RESPOND:
            p = self.s.decider
            e = &self.s.stack[self.s.sp - 1]
            out[k] = A_PASS
            k += 1
            if p == e.player:
                out[k] = A_WITCH_EXTRA
                k += 1
            elif e.kind == E_THIEF or e.kind == E_RAID:
                if self.holds(p, GUARD) > 0:
                    out[k] = A_GUARD_CANCEL
                    k += 1
                if self.holds(p, THIEF) > 0 and p != self.s.active:
                    out[k] = A_THIEF_RAID
                    k += 1
                if self.holds(p, WITCH) > 0:
                    out[k] = A_WITCH_EXTRA
                    k += 1
            elif e.kind == E_WITCH_EXTRA:
                if self.holds(p, GUARD) > 0:
                    out[k] = A_GUARD_CANCEL
                    k += 1
                if self.holds(p, FAERIE) > 0:
                    out[k] = A_FAERIE_CANCEL
                    k += 1
            else:
                if self.holds(p, FAERIE) > 0:
                    out[k] = A_FAERIE_CANCEL
                    k += 1
        elif ph == PH_NINJA:
            p = self.s.decider
            out[k] = A_PASS
            k += 1
            for g in range(self.num_goals):
                if self.s.goal_loc[g] == G_DOWN and self.s.goal_owner[g] == p \
                        and self.goal_matches(g, self.s.gold[p]):
                    out[k] = A_NINJA_SCORE + g
                    k += 1
        elif ph == PH_BIG_FLIP:
            p = self.s.active
            for g in range(self.num_goals):
                if self.s.goal_loc[g] == G_DOWN and self.s.goal_owner[g] == p:
                    out[k] = A_BIG_FLIP + g
                    k += 1
        elif ph == PH_GIVE:
            p = self.s.decider
            for t in range(NT):
                if self.holds(p, t) > 0:
                    out[k] = A_GIVE + t
                    k += 1
        return k

    cdef void do_apply(self, int action) noexcept nogil:
        cdef int ph = self.s.phase
        self.s.moves += 1
        if ph == PH_FIRST:
            self.s.first = action - C_FIRST
            self.s.active = self.s.first
            self.event(EV_FIRST, self.s.first, -1, -1, 0)
            self.s.phase = PH_SETUP_GOALS
        elif ph == PH_SETUP_GOALS:
            self.chance_goal((self.s.first + self.s.setup_k) % self.s.n, action - C_GOAL, EV_DEAL_GOAL)
            self.s.setup_k += 1
        elif ph == PH_SETUP_CARDS:
            self.chance_card((self.s.first + self.s.setup_k % self.s.n) % self.s.n, action - C_CARD)
            self.s.setup_k += 1
        elif ph == PH_DRAW:
            self.chance_card(self.s.draw_target, action - C_CARD)
            self.s.draws_pending -= 1
        elif ph == PH_DEAL_GOAL:
            self.chance_goal(self.s.goal_target, action - C_GOAL, EV_DEAL_GOAL)
            self.next_goal_target()
        elif ph == PH_FAERIE_DRAW:
            self.chance_goal(self.s.active, action - C_GOAL, EV_FAERIE_GOAL)
            self.s.phase = PH_PLAY
        elif ph == PH_PLAY:
            self.apply_play(action)
        elif ph == PH_RESPOND:
            self.apply_response(action)
        elif ph == PH_NINJA:
            if action == A_PASS:
                self.event(EV_PASS, self.s.decider, -1, A_PASS, 0)
            else:
                self.remove_card(self.s.decider, NINJA)
                self.s.disc[NINJA] += 1
                self.event(EV_PLAY, self.s.decider, -1, action, 0)
                self.flip(self.s.decider, action - A_NINJA_SCORE)
        elif ph == PH_BIG_FLIP:
            self.flip(self.s.active, action - A_BIG_FLIP)
            if self.s.phase != PH_OVER:
                self.begin_draw()
        elif ph == PH_GIVE:
            self.do_give(self.s.decider, self.s.stack[self.s.sp - 1].player, action - A_GIVE)
            self.s.sp -= 1
            self.s.phase = PH_PLAY if self.s.sp == 0 else PH_RESPOND
        self.advance()

    cdef void chance_card(self, int p, int t) noexcept nogil:
        cdef int k = self.s.hand_n[p]
        self.s.deck[t] -= 1
        self.s.hand_type[p][k] = t
        self.s.hand_gen[p][k] = self.s.gen
        self.s.hand_seen[p][k] = 1 << p
        self.s.hand_n[p] = k + 1
        self.event(EV_DRAW, p, t, -1, 1 << p)

    cdef void chance_goal(self, int p, int g, int kind) noexcept nogil:
        self.give_goal(p, g)
        self.event(kind, p, g, -1, 1 << p)

    cdef void apply_play(self, int action) noexcept nogil:
        cdef int p = self.s.active, n = self.s.n, g
        if action == A_END_TURN:
            self.event(EV_END_TURN, p, -1, -1, 0)
            self.start_turn((p + 1) % n)
            return
        if A_THIEF <= action < A_THIEF + MAXP:
            self.play_card(p, THIEF, action)
            self.push(E_THIEF, p, action - A_THIEF, p, 2, -1)
        elif A_GUARD <= action < A_GUARD + MAXP:
            self.play_card(p, GUARD, action)
            self.push(E_GUARD_GIFT, p, p, action - A_GUARD, 1, -1)
        elif A_WITCH <= action < A_WITCH + MAXP:
            self.play_card(p, WITCH, action)
            self.push(E_WITCH_STEAL, p, action - A_WITCH, p, 0, -1)
        elif A_FAERIE <= action < A_FAERIE + MAX_GOALS:
            g = action - A_FAERIE
            self.remove_card(p, FAERIE)
            self.s.disc[FAERIE] += 1
            self.event(EV_PLAY, p, g, A_FAERIE, 1 << p)
            self.s.goal_loc[g] = G_BOTTOM
            self.s.bottom[self.s.bottom_n] = g
            self.s.bottom_n += 1
            self.s.phase = PH_FAERIE_DRAW
            return
        elif action == A_NINJA:
            self.play_card(p, NINJA, action)
            self.s.phase = PH_DRAW
            self.s.draw_target = p
            self.s.draws_pending = 3
            return

    cdef void play_card(self, int p, int t, int action) noexcept nogil:
        self.remove_card(p, t)
        self.s.disc[t] += 1
        self.event(EV_PLAY, p, -1, action, 0)

    cdef void apply_response(self, int action) noexcept nogil:
        cdef int q = self.s.decider, top = self.s.sp - 1
        cdef Effect* e = &self.s.stack[top]
        if action == A_PASS:
            self.event(EV_PASS, q, -1, A_PASS, 0)
            return
        if action == A_GUARD_CANCEL:
            self.play_card(q, GUARD, action)
            self.push(E_GUARD_CANCEL, q, -1, -1, 0, top)
        elif action == A_THIEF_RAID:
            self.play_card(q, THIEF, action)
            self.push(E_RAID, q, e.player, q, 1, top)
        elif action == A_WITCH_EXTRA:
            self.play_card(q, WITCH, action)
            self.push(E_WITCH_EXTRA, q, e.victim, e.beneficiary, e.amount, top)
        elif action == A_FAERIE_CANCEL:
            self.play_card(q, FAERIE, action)
            self.push(E_FAERIE_CANCEL, q, -1, -1, 0, top)

    cdef void returns(self, double* out) noexcept nogil:
        cdef int i, n = self.s.n
        for i in range(n):
            out[i] = 0.0
        if self.s.phase == PH_OVER and self.s.winner >= 0:
            for i in range(n):
                out[i] = -1.0 / (n - 1)
            out[self.s.winner] = 1.0

    # ------------------------------------------------------------ resampling
    cdef void resample(self, int player, Rng* rng) noexcept nogil:
        """Re-deal everything hidden from `player`, keeping every fact they know.

        Cards: within each deck generation, the types of the cards hidden from
        `player` (other hands' unseen slots and the deck) are shuffled among
        those same positions.  Goals: unseen face-down goals of others and the
        unseen goal-pile positions get a random permutation of their ids that
        respects each position's known non-matching gold values (rejection
        sampling; the true assignment is kept if no sample fits in 200 tries).
        The player to move, if another player facing a decision, keeps their
        holdings (their options depend on them).
        """
        cdef int fixed = self.current_player()
        cdef int pool[MAXP * MAX_HAND + 64]
        cdef int slot_p[MAXP * MAX_HAND]
        cdef int slot_i[MAXP * MAX_HAND]
        cdef int np_, ns, q, i, j, t, tmp, gen, maxgen = self.s.gen
        cdef int pos[MAX_GOALS]
        cdef int ids[MAX_GOALS]
        cdef int npos, tries, ok
        if fixed == player or fixed < 0:
            fixed = -1
        for gen in range(maxgen + 1):
            np_ = 0
            ns = 0
            for q in range(self.s.n):
                if q == player or q == fixed:
                    continue
                for i in range(self.s.hand_n[q]):
                    if self.s.hand_gen[q][i] == gen and not ((self.s.hand_seen[q][i] >> player) & 1):
                        slot_p[ns] = q
                        slot_i[ns] = i
                        ns += 1
                        pool[np_] = self.s.hand_type[q][i]
                        np_ += 1
            if gen == self.s.gen:
                for t in range(NT):
                    for i in range(self.s.deck[t]):
                        pool[np_] = t
                        np_ += 1
            for i in range(np_ - 1, 0, -1):
                j = rng_int(rng, i + 1)
                tmp = pool[i]
                pool[i] = pool[j]
                pool[j] = tmp
            for i in range(ns):
                self.s.hand_type[slot_p[i]][slot_i[i]] = pool[i]
            if gen == self.s.gen:
                for t in range(NT):
                    self.s.deck[t] = 0
                for i in range(ns, np_):
                    self.s.deck[pool[i]] += 1
        # goals
        npos = 0
        for i in range(self.num_goals):
            if (self.s.goal_seen[i] >> player) & 1:
                continue
            if self.s.goal_loc[i] == G_PILE or self.s.goal_loc[i] == G_BOTTOM or \
                    (self.s.goal_loc[i] == G_DOWN and self.s.goal_owner[i] != fixed):
                pos[npos] = i
                npos += 1
        if npos > 1:
            for tries in range(200):
                for i in range(npos):
                    ids[i] = pos[i]
                for i in range(npos - 1, 0, -1):
                    j = rng_int(rng, i + 1)
                    tmp = ids[i]
                    ids[i] = ids[j]
                    ids[j] = tmp
                ok = 1
                for i in range(npos):
                    if self.mask_hits(self.s.goal_mask[pos[i]], ids[i]):
                        ok = 0
                        break
                if ok:
                    self.relabel_goals(pos, ids, npos)
                    break
        self.redact_log(player)
        self.rekey_others(player)

    cdef bint mask_hits(self, uint64_t mask, int g) noexcept nogil:
        cdef int a = self.goal_a[g], b = self.goal_b[g]
        return (a <= MAX_GOLD and (mask >> a) & 1) or (b <= MAX_GOLD and (mask >> b) & 1)

    cdef void relabel_goals(self, int* pos, int* ids, int npos) noexcept nogil:
        """Goal id ids[i] takes the place (location, owner, seen, mask) of pos[i]."""
        cdef int loc[MAX_GOALS]
        cdef int own[MAX_GOALS]
        cdef int seen[MAX_GOALS]
        cdef uint64_t mask[MAX_GOALS]
        cdef int i, k
        cdef int newbottom[MAX_GOALS]
        for i in range(npos):
            loc[i] = self.s.goal_loc[pos[i]]
            own[i] = self.s.goal_owner[pos[i]]
            seen[i] = self.s.goal_seen[pos[i]]
            mask[i] = self.s.goal_mask[pos[i]]
        for k in range(self.s.bottom_n):
            newbottom[k] = self.s.bottom[k]
            for i in range(npos):
                if pos[i] == self.s.bottom[k]:
                    newbottom[k] = ids[i]
        for i in range(npos):
            self.s.goal_loc[ids[i]] = loc[i]
            self.s.goal_owner[ids[i]] = own[i]
            self.s.goal_seen[ids[i]] = seen[i]
            self.s.goal_mask[ids[i]] = mask[i]
        for k in range(self.s.bottom_n):
            self.s.bottom[k] = newbottom[k]

    cdef void redact_log(self, int player) noexcept nogil:
        """Secrets `player` never saw are unknown in a resampled world."""
        cdef size_t i
        for i in range(self.log.size()):
            if self.log[i].vis != 0 and not ((self.log[i].vis >> player) & 1):
                self.log[i].a = -1

    cdef uint64_t private_view_hash(self, int p) noexcept nogil:
        cdef uint64_t h = <uint64_t>(p + 1)
        cdef int t, g
        for t in range(NT):
            h = mix64(h, <uint64_t>self.holds(p, t))
        for g in range(self.num_goals):
            if self.s.goal_loc[g] == G_DOWN and self.s.goal_owner[g] == p:
                h = mix64(h, <uint64_t>(g + 100))
        return h

    # ------------------------------------------------------------ clone
    cdef Engine clone(self):
        cdef GoldThiefEngine e = GoldThiefEngine.__new__(GoldThiefEngine)
        e.copy_params(self)
        e.copy_from(self)
        return e

    cdef void copy_params(self, GoldThiefEngine o) noexcept:
        self.hand_size = o.hand_size
        self.start_gold = o.start_gold
        self.goals_to_win = o.goals_to_win
        self.big_pile = o.big_pile
        self.max_turns = o.max_turns
        self.num_goals = o.num_goals
        self.first_fixed = o.first_fixed
        self.max_moves = o.max_moves
        memcpy(self.counts, o.counts, sizeof(self.counts))
        memcpy(self.goal_a, o.goal_a, sizeof(self.goal_a))
        memcpy(self.goal_b, o.goal_b, sizeof(self.goal_b))

    cdef void copy_from(self, Engine other) noexcept:
        cdef GoldThiefEngine o = <GoldThiefEngine>other
        self.copy_base(other)
        self.s = o.s
        self.log = o.log

    # ================================================================ Python
    # Everything below is for adapters, tests and people; never on a hot path.

    def action_to_string(self, int player, int action) -> str:
        """Readable name of `action` (a chance outcome when player == -1)."""
        if player == CHANCE_PLAYER:
            if C_FIRST <= action < C_FIRST + MAXP:
                return f"First player: P{action - C_FIRST}"
            if C_CARD <= action < C_CARD + NT:
                return f"Draw {CARD_NAMES[action - C_CARD]}"
            if C_GOAL <= action < C_GOAL + self.num_goals:
                return f"Goal {self.goal_str(action - C_GOAL)}"
            return f"chance outcome {action}"
        return _action_name(action, self.goal_str)

    def goal_str(self, int g) -> str:
        """Goal card g as printed, e.g. '[4 or 10]'."""
        return f"[{self.goal_a[g]} or {self.goal_b[g]}]"

    def _event_line(self, Event ev, int viewer):
        who = "You" if ev.actor == viewer else f"P{ev.actor}"
        sees = ev.vis == 0 or (ev.vis >> viewer) & 1
        secret = ev.a if sees else -1
        k = ev.kind
        if k == EV_FIRST:
            return f"P{ev.actor} plays first"
        if k == EV_DEAL_GOAL:
            return f"{who} receive goal {self.goal_str(secret)}" if secret >= 0 \
                else f"{who} receive a goal"
        if k == EV_FAERIE_GOAL:
            return f"{who} draw new goal {self.goal_str(secret)}" if secret >= 0 \
                else f"{who} draw a new goal"
        if k == EV_DRAW:
            return f"{who} draw {CARD_NAMES[secret]}" if secret >= 0 else f"{who} draw a card"
        if k == EV_RESHUFFLE:
            return "Discards reshuffled into the deck"
        if k == EV_PLAY:
            if ev.b == A_FAERIE:
                return (f"{who} play Faerie: goal {self.goal_str(secret)} to the bottom"
                        if secret >= 0 else f"{who} play Faerie: a goal to the bottom")
            return f"{who}: {_action_name(ev.b, self.goal_str)}"
        if k == EV_PASS:
            return f"{who} pass"
        if k == EV_FLIP:
            return f"{who} flip goal {self.goal_str(ev.b)}"
        if k == EV_GIVE:
            card = CARD_NAMES[secret] if secret >= 0 else "a card"
            return f"{who} give {card} to P{ev.b}"
        if k == EV_END_TURN:
            return f"{who} end the turn"
        if k == EV_GAME_END:
            return "Game over: draw" if ev.actor < 0 else f"Game over: P{ev.actor} wins"
        return f"event {k}"

    def info_string(self, int player) -> str:
        """Everything `player` has observed, in order (perfect recall)."""
        self._check_player(player)
        lines = [f"P{player}"]
        cdef size_t i
        for i in range(self.log.size()):
            ev = self.log[i]
            if ev.kind == EV_PASS and ev.actor != player:
                continue
            lines.append(self._event_line(ev, player))
        return "\n".join(lines)

    def obs_string(self, int player) -> str:
        """What `player` sees now: table, own hand and goals, known cards."""
        self._check_player(player)
        v = self.public_view()
        hand = self.hand(player)
        lines = [f"P{player} | turn {self.s.turn} | phase {_PHASE_NAMES[self.s.phase]}"
                 f" | to move {self.current_player()}"]
        for q in range(self.s.n):
            up = " ".join(self.goal_str(g) for g in v["face_up"][q])
            lines.append(f"P{q}: gold {v['gold'][q]}, cards {v['hand_sizes'][q]}, "
                         f"goals down {v['face_down_counts'][q]}, up [{up}]")
        lines.append("Hand: " + (", ".join(CARD_NAMES[t] for t in sorted(hand)) or "-"))
        lines.append("Goals: " + (" ".join(self.goal_str(g) for g in self.goals_down(player)) or "-"))
        known = self.known_cards(player)
        for q, cards in known.items():
            lines.append(f"Known in P{q}'s hand: " + ", ".join(CARD_NAMES[t] for t in cards))
        lines.append(f"Deck {sum(v['deck'])}, discards " +
                     ", ".join(f"{CARD_NAMES[t]} {v['discard'][t]}" for t in range(NT)))
        if self.s.sp > 0:
            lines.append("Pending: " + self._stack_str())
        return "\n".join(lines)

    def _stack_str(self) -> str:
        names = ("Thief", "Raid", "Witch-as-Thief", "Guard gift", "Guard cancel",
                 "Witch steal", "Faerie cancel")
        parts = []
        for i in range(self.s.sp):
            e = self.s.stack[i]
            parts.append(f"{names[e.kind]} by P{e.player}" + (" (cancelled)" if e.canceled else ""))
        return " <- ".join(parts)

    def render(self) -> str:
        """The whole table, hidden cards included (for people, not players)."""
        lines = [f"Gold Thief, {self.s.n} players | turn {self.s.turn}/{self.max_turns} "
                 f"| phase {_PHASE_NAMES[self.s.phase]} | active P{self.s.active}"]
        for q in range(self.s.n):
            hand = ", ".join(CARD_NAMES[t] for t in sorted(self.hand(q))) or "-"
            down = " ".join(self.goal_str(g) for g in self.goals_down(q)) or "-"
            up = " ".join(self.goal_str(g) for g in self.goals_up(q)) or "-"
            lines.append(f"P{q}: gold {self.s.gold[q]:2d} | hand {hand} | down {down} | up {up}")
        lines.append("Deck: " + ", ".join(f"{CARD_NAMES[t]} {self.s.deck[t]}" for t in range(NT)))
        lines.append("Discard: " + ", ".join(f"{CARD_NAMES[t]} {self.s.disc[t]}" for t in range(NT)))
        lines.append(f"Goal pile: {self.pile_random()} + {self.s.bottom_n} at the bottom")
        if self.s.sp > 0:
            lines.append("Pending: " + self._stack_str())
        if self.s.phase == PH_OVER:
            lines.append("Winner: " + (f"P{self.s.winner}" if self.s.winner >= 0 else "none (draw)"))
        return "\n".join(lines)

    # ---- structured views (tests, bots, feature extractors)
    def hand(self, int player) -> list:
        """Card types in `player`'s hand (order not meaningful)."""
        self._check_player(player)
        return [self.s.hand_type[player][i] for i in range(self.s.hand_n[player])]

    def goals_down(self, int player) -> list:
        self._check_player(player)
        return [g for g in range(self.num_goals)
                if self.s.goal_loc[g] == G_DOWN and self.s.goal_owner[g] == player]

    def goals_up(self, int player) -> list:
        self._check_player(player)
        return [g for g in range(self.num_goals)
                if self.s.goal_loc[g] == G_UP and self.s.goal_owner[g] == player]

    def goal_numbers(self, int g) -> tuple:
        return (self.goal_a[g], self.goal_b[g])

    def known_cards(self, int player) -> dict:
        """Cards `player` knows are in other hands (seen by Witch steals)."""
        out = {}
        for q in range(self.s.n):
            if q == player:
                continue
            cards = sorted(self.s.hand_type[q][i] for i in range(self.s.hand_n[q])
                           if (self.s.hand_seen[q][i] >> player) & 1)
            if cards:
                out[q] = cards
        return out

    def public_view(self) -> dict:
        """Everything public: gold, counts, face-up goals, discards, deck size."""
        return {
            "gold": [self.s.gold[q] for q in range(self.s.n)],
            "hand_sizes": [self.s.hand_n[q] for q in range(self.s.n)],
            "face_down_counts": [self.down_count(q) for q in range(self.s.n)],
            "face_up": [self.goals_up(q) for q in range(self.s.n)],
            "deck": [self.s.deck[t] for t in range(NT)],
            "discard": [self.s.disc[t] for t in range(NT)],
            "turn": self.s.turn,
            "active": self.s.active,
            "phase": _PHASE_NAMES[self.s.phase],
            "winner": self.s.winner,
            "pending": [(self.s.stack[i].kind, self.s.stack[i].player,
                         self.s.stack[i].victim, self.s.stack[i].beneficiary,
                         bool(self.s.stack[i].canceled)) for i in range(self.s.sp)],
        }

    def gold(self) -> list:
        return [self.s.gold[q] for q in range(self.s.n)]

    def _check_player(self, int player):
        if not 0 <= player < self.s.n:
            raise ValueError(f"player must be in [0, {self.s.n - 1}], got {player}")

    # ---- tensors
    def obs_tensor_size(self) -> int:
        n = self.num_players
        return 12 + n + 5 * n + NT + 2 * MAX_GOALS + NT + 1 + 7 + 2 * n + n * NT

    def info_tensor_size(self) -> int:
        return self.obs_tensor_size() + 2

    def fill_obs_tensor(self, int player, float[:] out) -> None:
        """Current view of `player` (a function of their information only)."""
        self._check_player(player)
        cdef int n = self.s.n, k = 0, q, t, g, i
        out[k + self.s.phase] = 1.0
        k += 12
        cp = self.current_player()
        if 0 <= cp < n:
            out[k + cp] = 1.0
        k += n
        for q in range(n):
            out[k + q] = self.s.gold[q]
            out[k + n + q] = self.s.hand_n[q]
            out[k + 2 * n + q] = self.down_count(q)
            out[k + 3 * n + q] = self.up_count(q)
            out[k + 4 * n + q] = 1.0 if q == self.s.active else 0.0
        k += 5 * n
        for t in range(NT):
            out[k + t] = self.holds(player, t)
        k += NT
        for g in range(self.num_goals):
            if self.s.goal_loc[g] == G_DOWN and self.s.goal_owner[g] == player:
                out[k + g] = 1.0
            if self.s.goal_loc[g] == G_UP:
                out[k + MAX_GOALS + g] = 1.0
        k += 2 * MAX_GOALS
        for t in range(NT):
            out[k + t] = self.s.disc[t]
        k += NT
        out[k] = self.deck_total()
        k += 1
        if self.s.sp > 0:
            out[k + self.s.stack[self.s.sp - 1].kind] = 1.0
        k += 7
        if self.s.sp > 0:
            out[k + self.s.stack[self.s.sp - 1].player] = 1.0
            if self.s.stack[self.s.sp - 1].victim >= 0:
                out[k + n + self.s.stack[self.s.sp - 1].victim] = 1.0
        k += 2 * n
        for q in range(n):
            if q == player:
                continue
            for i in range(self.s.hand_n[q]):
                if (self.s.hand_seen[q][i] >> player) & 1:
                    out[k + q * NT + self.s.hand_type[q][i]] += 1.0
        k += n * NT

    def fill_info_tensor(self, int player, float[:] out) -> None:
        """Observation tensor plus turn and move counters."""
        self.fill_obs_tensor(player, out)
        base = self.obs_tensor_size()
        out[base] = self.s.turn
        out[base + 1] = self.s.moves

    # ---- snapshot
    def dump(self) -> bytes:
        """Snapshot of the whole state (struct and event log)."""
        head = b"GT1" + len(self.log).to_bytes(4, "little")
        body = (<char*>&self.s)[:sizeof(GTState)]
        evs = (<char*>self.log.data())[:self.log.size() * sizeof(Event)] if self.log.size() else b""
        return head + body + evs

    def load(self, bytes data) -> None:
        """Restore a `dump()`; refuses anything malformed, leaving self as it was."""
        cdef GTState tmp
        cdef vector[Event] newlog
        cdef size_t nev, need, i
        cdef const char* raw
        if len(data) < 7 or data[:3] != b"GT1":
            raise ValueError("not a Gold Thief snapshot (bad magic)")
        nev = int.from_bytes(data[3:7], "little")
        need = 7 + sizeof(GTState) + nev * sizeof(Event)
        if len(data) != need:
            raise ValueError(f"Gold Thief snapshot has {len(data)} bytes, expected {need}")
        raw = data
        memcpy(&tmp, raw + 7, sizeof(GTState))
        newlog.resize(nev)
        if nev:
            memcpy(newlog.data(), raw + 7 + sizeof(GTState), nev * sizeof(Event))
        saved_s = self.s
        self.s = tmp
        self.log.swap(newlog)
        try:
            self.check_invariants()
        except AssertionError as exc:
            self.s = saved_s
            self.log.swap(newlog)
            raise ValueError(f"invalid Gold Thief snapshot: {exc}") from None

    def check_invariants(self) -> None:
        """Ranges, and conservation of cards, goals and gold."""
        cdef int n = self.num_players, q, t, g, i
        assert self.s.n == n, f"player count {self.s.n} != {n}"
        assert 0 <= self.s.phase <= PH_OVER, f"phase {self.s.phase} out of range"
        assert 0 <= self.s.sp <= MAX_STACK, f"stack depth {self.s.sp} out of range"
        assert 0 <= self.s.bottom_n <= self.num_goals, "goal-bottom size out of range"
        assert 0 <= self.s.active < n and 0 <= self.s.first < n, "active/first seat out of range"
        for q in range(n):
            assert 0 <= self.s.hand_n[q] <= MAX_HAND, f"P{q} hand size out of range"
            for i in range(self.s.hand_n[q]):
                assert 0 <= self.s.hand_type[q][i] < NT, f"P{q} holds an unknown card type"
                assert 0 <= self.s.hand_gen[q][i] <= self.s.gen, f"P{q} card generation out of range"
            assert self.s.gold[q] >= 0, f"P{q} has negative gold"
        total = sum(self.s.gold[q] for q in range(n))
        assert total == self.start_gold * n, f"gold not conserved: {total} != {self.start_gold * n}"
        for t in range(NT):
            held = sum(self.holds(q, t) for q in range(n))
            assert self.s.deck[t] >= 0 and self.s.disc[t] >= 0, f"negative {CARD_NAMES[t]} pile count"
            assert held + self.s.deck[t] + self.s.disc[t] == self.counts[t], \
                f"{CARD_NAMES[t]} cards not conserved"
        for g in range(self.num_goals):
            assert 0 <= self.s.goal_loc[g] <= G_UP, f"goal {g} location out of range"
            if self.s.goal_loc[g] >= G_DOWN:
                assert 0 <= self.s.goal_owner[g] < n, f"goal {g} owner out of range"
        bottoms = [self.s.bottom[i] for i in range(self.s.bottom_n)]
        assert all(0 <= g < self.num_goals for g in bottoms), "goal-bottom id out of range"
        assert sorted(bottoms) == sorted(g for g in range(self.num_goals)
                                         if self.s.goal_loc[g] == G_BOTTOM), "goal pile corrupted"
        for i in range(self.s.sp):
            e = self.s.stack[i]
            assert 0 <= e.kind <= E_FAERIE_CANCEL and 0 <= e.player < n, "stack entry corrupted"
            assert -1 <= e.victim < n and -1 <= e.beneficiary < n and -1 <= e.target < i, \
                "stack entry corrupted"
        for i in range(self.log.size()):
            assert 0 <= self.log[i].kind <= EV_GAME_END, "event log corrupted"


_PHASE_NAMES = ("first-player", "deal-goals", "deal-cards", "ninja-window", "big-pile-flip",
                "draw", "goal-round", "play", "respond", "witch-give", "faerie-draw", "over")


def _action_name(int action, goal_str) -> str:
    """Name of a player action (see the table in games/gold_thief.py)."""
    if action == A_END_TURN:
        return "End turn"
    if action == A_PASS:
        return "Pass"
    if A_THIEF <= action < A_THIEF + MAXP:
        return f"Thief on P{action - A_THIEF}"
    if A_GUARD <= action < A_GUARD + MAXP:
        return f"Guard: give 1 gold to P{action - A_GUARD}"
    if A_WITCH <= action < A_WITCH + MAXP:
        return f"Witch on P{action - A_WITCH}"
    if A_FAERIE <= action < A_FAERIE + MAX_GOALS:
        return f"Faerie: swap goal {goal_str(action - A_FAERIE)}"
    if action == A_NINJA:
        return "Ninja: draw 3"
    if action == A_GUARD_CANCEL:
        return "Guard: cancel"
    if action == A_THIEF_RAID:
        return "Thief: raid"
    if action == A_WITCH_EXTRA:
        return "Witch: extra Thief"
    if action == A_FAERIE_CANCEL:
        return "Faerie: cancel"
    if A_NINJA_SCORE <= action < A_NINJA_SCORE + MAX_GOALS:
        return f"Ninja: score goal {goal_str(action - A_NINJA_SCORE)}"
    if A_BIG_FLIP <= action < A_BIG_FLIP + MAX_GOALS:
        return f"Flip goal {goal_str(action - A_BIG_FLIP)}"
    if A_GIVE <= action < A_GIVE + NT:
        return f"Give {CARD_NAMES[action - A_GIVE]}"
    return f"action {action}"
