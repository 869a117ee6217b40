# cython: language_level=3
"""Gold Thief rules kernel (see docs/rules/gold_thief.md): the parameters and
``GoldThiefRules``, the rules of one game on a C struct.

The whole state is one C struct ``GTState`` (clone = copy of its used part) plus an
event log (a C++ vector of ``src_cy/events.pxd`` records) from which
information-state strings are rendered.  Action cards are drawn lazily from
a multiset (the deck has no hidden order).  Every applied action is recorded
(``hist``, plus ``hmeta``: public events so far and the player to move), so a
state is its history.

``GoldThiefRules`` is the whole rules kernel: legal actions, apply, chance,
returns, information keys, clone/copy_from and quiet mode, plus the silent
replay hooks the resampler drives (``sil_*``, ``record_seat``).  It has no
resampler of its own: its ``resample_history`` draws nothing (an empty
history, never the true one), so search and sample on the final engine
(``src_cy/gold_thief/engine.pyx``: the kernel with the resampler of
``src_cy/gold_thief/resample.pyx`` and the Python methods), never on a bare
``GoldThiefRules``.  Declarations (the state struct, the class, inline
helpers) are in ``rules.pxd``; the constants in ``catalog.pxi``; the action
ids in ``actions.pxd``.
"""
cimport cython
from libc.stdint cimport uint64_t
from libc.string cimport memset, memcpy

from src_cy.draws cimport walk_counts
from src_cy.engine cimport mix64, rng_double, rng_int

# Names of the catalogue's constants (``catalog.pxi``), for people.
CARD_NAMES = ("Thief", "Guard", "Witch", "Faerie", "Ninja")

EFFECT_NAMES = ("Thief", "Raid", "Witch-as-Thief", "Guard gift", "Guard cancel",
                "Witch steal", "Faerie cancel")

PHASE_NAMES = ("first-player", "deal-goals", "deal-cards", "ninja-window", "big-pile-flip",
               "draw", "goal-round", "play", "respond", "witch-give", "faerie-draw", "over")


# The engine parameters, by name (the mapping ``GoldThiefParams`` takes): the
# game parameters, ``goals`` as (a, b) pairs and ``raid_raids`` 0 or 1.
PARAM_NAMES = ("players", "thieves", "guards", "witches", "faeries", "ninjas", "hand_size",
               "start_gold", "goals", "goals_to_win", "big_pile", "max_turns",
               "first_player", "raid_raids")


cdef class GoldThiefParams:
    """The parameters of one Gold Thief game, typed and immutable; built
    once per game from the mapping of ``PARAM_NAMES`` that
    ``games.gold_thief`` validates against its parameter table (the valid
    ranges live there) and shared by every engine of that game and all
    their clones.  This class checks only what its C state can hold (seats,
    goal slots, hand and gold capacities); ValueError names a missing,
    unknown or unfitting parameter."""
    def __init__(self, params):
        cdef int i
        names = set(params)
        if names != set(PARAM_NAMES):
            raise ValueError(f"Gold Thief parameters: missing "
                             f"{sorted(set(PARAM_NAMES) - names)}, unknown "
                             f"{sorted(names - set(PARAM_NAMES))}")
        goals = list(params["goals"])
        counts = [int(params[k]) for k in ("thieves", "guards", "witches", "faeries", "ninjas")]
        if min(counts) < 0 or sum(counts) > MAX_HAND:
            raise ValueError(f"thieves..ninjas must be >= 0 with a total of at most "
                             f"{MAX_HAND} (a hand's capacity), got {counts}")
        self.players = int(params["players"])
        self.hand_size = int(params["hand_size"])
        self.start_gold = int(params["start_gold"])
        self.goals_to_win = int(params["goals_to_win"])
        self.big_pile = int(params["big_pile"])
        self.max_turns = int(params["max_turns"])
        self.first_player = int(params["first_player"])
        self.raid_raids = int(params["raid_raids"])
        if self.raid_raids not in (0, 1):
            raise ValueError(f"raid_raids must be 0 or 1, got {self.raid_raids}")
        if not 2 <= self.players <= MAXP:
            raise ValueError(f"players must be in [2, {MAXP}], got {self.players}")
        if not 1 <= self.hand_size <= MAX_HAND:
            raise ValueError(f"hand_size must be in [1, {MAX_HAND}], got {self.hand_size}")
        if self.start_gold < 0 or self.players * self.start_gold > MAX_GOLD:
            raise ValueError(f"start_gold must be >= 0 with players * start_gold at most "
                             f"{MAX_GOLD}, got {self.start_gold}")
        if self.max_turns < 1:
            raise ValueError(f"max_turns must be >= 1, got {self.max_turns}")
        if not 1 <= len(goals) <= MAX_GOALS:
            raise ValueError(f"goals must hold 1..{MAX_GOALS} cards, got {len(goals)}")
        if not -1 <= self.first_player < self.players:
            raise ValueError(f"first_player must be in [-1, {self.players - 1}], "
                             f"got {self.first_player}")
        self.num_goals = len(goals)
        for i in range(NT):
            self.counts[i] = counts[i]
        for i in range(self.num_goals):
            self.goal_a[i] = int(goals[i][0])
            self.goal_b[i] = int(goals[i][1])
        self.max_moves = (1 + self.players + self.players * self.hand_size
                          + self.max_turns * MOVES_PER_TURN)
        self.pub_cap = PUB_EVENTS_PER_TURN * self.max_turns + PUB_EVENTS_BASE

    @property
    def counts_by_type(self) -> tuple:
        """Action cards per type (Thief, Guard, Witch, Faerie, Ninja)."""
        return tuple(self.counts[i] for i in range(NT))

    @property
    def goals(self) -> tuple:
        """The goal cards as (a, b) pairs, by goal id."""
        return tuple((self.goal_a[i], self.goal_b[i]) for i in range(self.num_goals))


cdef inline void silent_match(GoldThiefRules self, int kind, int actor, int secret, int detail,
                              int vis) noexcept nogil:
    """``event`` during a silent replay: the public count and the give
    count kept, the event compared with sil_p's wanted view (inlined in
    ``event``, which every step calls)."""
    cdef int p = self.sil_p
    cdef Event* w
    if kind == EV_GIVE:
        self.sil_gives += 1
    if kind == EV_PASS or kind == EV_ASKED:
        if actor != p:
            return
    elif not self.sil_loud:
        self.s.npub += 1
    if self.sil_bad:
        return
    if self.sil_k >= <int>self.sil_want.size():
        self.sil_bad = True
        return
    w = &self.sil_want[0][self.sil_k]
    if not (vis == 0 or (vis >> p) & 1):
        secret = -1
    if w.kind != kind or w.actor != actor or w.secret != secret or w.a != detail:
        self.sil_bad = True
        return
    self.sil_k += 1


cdef class GoldThiefRules(Engine):
    """The Gold Thief rules kernel for 2-5 players: ``GoldThiefRules(params,
    game_string="")`` with ``params`` the validated mapping of
    ``games.gold_thief`` or a ``GoldThiefParams`` (shared by reference, also
    by clones).  ``clone()`` makes an object of the caller's own class."""

    def __cinit__(self):
        self.sil_p = -1

    def __init__(self, params, str game_string=""):
        self.set_params(params if isinstance(params, GoldThiefParams)
                        else GoldThiefParams(params))
        self.num_players = self.params.players
        self.game_string = game_string
        self.to_initial()

    @cython.final
    cdef void set_params(self, GoldThiefParams prm) noexcept:
        self.params = prm
        self.hand_size = prm.hand_size
        self.start_gold = prm.start_gold
        self.goals_to_win = prm.goals_to_win
        self.big_pile = prm.big_pile
        self.max_turns = prm.max_turns
        self.first_fixed = prm.first_player
        self.max_moves = prm.max_moves
        self.num_goals = prm.num_goals
        self.pub_cap = prm.pub_cap
        self.raid_raids = prm.raid_raids
        self.counts = prm.counts
        self.goal_a = prm.goal_a
        self.goal_b = prm.goal_b

    cdef void restart(self) noexcept nogil:
        """Back to the initial state (before any chance event).  Zeroes the
        state but for the hands' card slots and the stack and deferred
        entries (about 90% of its bytes), which are written before they are
        read (only the first hand_n, sp, ndfr entries are ever read)."""
        cdef int i
        cdef char* base = <char*>&self.s
        memset(base, 0, <char*>&self.s.hand_type[0][0] - base)
        memset(&self.s.hcnt[0][0], 0, <char*>&self.s.stack[0] - <char*>&self.s.hcnt[0][0])
        self.s.ndfr = 0
        self.s.next_uid = 0
        self.log.clear()
        self.hmeta.clear()
        self.s.n = self.num_players
        self.s.winner = -1
        for i in range(self.num_players):
            self.s.gold[i] = self.start_gold
        for i in range(NT):
            self.s.deck[i] = self.counts[i]
        for i in range(self.num_goals):
            self.s.goal_loc[i] = G_PILE
            self.s.goal_owner[i] = -1
        self.s.pile_m = (1 << self.num_goals) - 1
        if self.first_fixed >= 0:
            self.s.first = self.first_fixed
            self.s.active = self.first_fixed
            self.s.phase = PH_SETUP_GOALS
            self.event(EV_FIRST, self.first_fixed, -1, -1, 0)
        else:
            self.s.phase = PH_FIRST

    # ------------------------------------------------------------ events
    @cython.final
    cdef void event(self, int kind, int actor, int secret, int detail, int vis) noexcept nogil:
        """Record an event: the players in `vis` (0: everyone) see `secret`,
        the others don't; `detail` is public.  A window offered or passed
        (EV_ASKED, EV_PASS) only its actor observes.  (Small, so the C
        compiler inlines the quiet path into the rules; ``event_full``
        records.)"""
        if self.quiet:
            # rollout mode: only the public count, which the rules read
            if kind != EV_PASS and kind != EV_ASKED:
                self.s.npub += 1
            return
        self.event_full(kind, actor, secret, detail, vis)

    @cython.final
    cdef void event_full(self, int kind, int actor, int secret, int detail,
                         int vis) noexcept nogil:
        """``event`` outside quiet mode: matched (silent replay), logged and
        hashed."""
        cdef Event ev
        cdef int p
        cdef uint64_t full, red
        if self.sil_p >= 0:
            silent_match(self, kind, actor, secret, detail, vis)
            if not self.sil_loud:
                return
        ev.kind = kind
        ev.actor = actor
        ev.a = detail
        ev.b = EVENT_NONE
        ev.c = EVENT_NONE
        ev.secret = secret
        full = (<uint64_t>kind << 48) ^ (<uint64_t>(actor + 1) << 40) ^ (<uint64_t>(secret + 1) << 20) ^ <uint64_t>(detail + 2)
        red = (<uint64_t>kind << 48) ^ (<uint64_t>(actor + 1) << 40) ^ <uint64_t>(detail + 2)
        if kind == EV_PASS or kind == EV_ASKED:
            # Only the player asked knows a window was offered to them.
            ev.pub = 0
            ev.seers = 1u << actor
            self.log.push_back(ev)
            self.observe_private(actor, full)
            return
        ev.pub = 1
        ev.seers = SEERS_ALL if vis == 0 else <unsigned int>vis
        self.log.push_back(ev)
        self.s.npub += 1
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
    @cython.final
    cdef inline int remove_card(self, int p, int t) noexcept nogil:
        """Remove the last card of type t from p's hand; returns its index or -1."""
        cdef int i, last
        for i in range(self.s.hand_n[p] - 1, -1, -1):
            if self.s.hand_type[p][i] == t:
                last = self.s.hand_n[p] - 1
                self.s.hand_type[p][i] = self.s.hand_type[p][last]
                self.s.hand_gen[p][i] = self.s.hand_gen[p][last]
                self.s.hand_n[p] = last
                self.s.hcnt[p][t] -= 1
                return i
        return -1

    @cython.final
    cdef int down_count(self, int p) noexcept nogil:
        return popcount32(<unsigned int>self.s.down_m[p])

    @cython.final
    cdef int down_owners(self) noexcept nogil:
        """Bitmask of the players with a face-down goal."""
        cdef int q, m = 0
        for q in range(self.s.n):
            if self.s.down_m[q]:
                m |= 1 << q
        return m

    @cython.final
    cdef int up_count(self, int p) noexcept nogil:
        cdef int g, c = 0
        for g in range(self.num_goals):
            if self.s.goal_loc[g] == G_UP and self.s.goal_owner[g] == p:
                c += 1
        return c

    @cython.final
    cdef int disc_total(self) noexcept nogil:
        cdef int t, c = 0
        for t in range(NT):
            c += self.s.disc[t]
        return c

    @cython.final
    cdef inline void flip(self, int p, int g) noexcept nogil:
        """Turn p's goal g face up; ends the game on the winning flip."""
        self.set_goal(g, G_UP, self.s.goal_owner[g])
        self.event(EV_FLIP, p, -1, g, 0)
        if self.up_count(p) >= self.goals_to_win and self.s.phase != PH_OVER:
            self.s.winner = p
            self.s.phase = PH_OVER
            self.event(EV_GAME_END, p, -1, -1, 0)

    @cython.final
    cdef inline void end_game_draw(self) noexcept nogil:
        self.s.winner = -1
        self.s.phase = PH_OVER
        self.event(EV_GAME_END, -1, -1, -1, 0)

    @cython.final
    cdef inline bint ensure_deck(self) noexcept nogil:
        """Reshuffle the discards into an empty deck; False if no card is left."""
        cdef int t
        if deck_total(self) > 0:
            return True
        if self.disc_total() == 0:
            return False
        for t in range(NT):
            self.s.deck[t] = self.s.disc[t]
            self.s.disc[t] = 0
        self.s.gen += 1
        self.event(EV_RESHUFFLE, -1, -1, -1, 0)
        return True

    @cython.final
    cdef bint goal_draw_possible(self) noexcept nogil:
        return pile_random(self) > 0 or self.s.bottom_n > 0

    @cython.final
    cdef inline void give_goal(self, int p, int g) noexcept nogil:
        cdef int i
        if self.s.goal_loc[g] == G_BOTTOM:
            for i in range(self.s.bottom_n - 1):
                self.s.bottom[i] = self.s.bottom[i + 1]
            self.s.bottom_n -= 1
        self.set_goal(g, G_DOWN, p)

    @cython.final
    cdef inline void set_goal(self, int g, int loc, int owner) noexcept nogil:
        """Move goal g to `loc` (owned by `owner`), keeping the location
        bit sets (``pile_m``, ``down_m``) equal to goal_loc / goal_owner."""
        cdef int bit = 1 << g, old = self.s.goal_loc[g]
        if old == G_PILE:
            self.s.pile_m &= ~bit
        elif old == G_DOWN:
            self.s.down_m[self.s.goal_owner[g]] &= ~bit
        self.s.goal_loc[g] = loc
        self.s.goal_owner[g] = owner
        if loc == G_PILE:
            self.s.pile_m |= bit
        elif loc == G_DOWN:
            self.s.down_m[owner] |= bit

    # ------------------------------------------------------------ windows
    @cython.final
    cdef inline bint can_respond(self, int q, Effect* e) noexcept nogil:
        cdef int k = e.kind
        if q == e.player:
            # the thief (or raider) may add their own Witch as an extra Thief
            return (k == E_THIEF or k == E_RAID) and holds(self, q, WITCH) > 0
        if k == E_THIEF or k == E_RAID:
            return holds(self, q, GUARD) > 0 or self.can_raid(q, e) or \
                (holds(self, q, WITCH) > 0 and q != e.victim)
        if k == E_WITCH_EXTRA:
            return holds(self, q, GUARD) > 0 or holds(self, q, FAERIE) > 0
        if k == E_GUARD_GIFT or k == E_GUARD_CANCEL or k == E_WITCH_STEAL:
            return holds(self, q, FAERIE) > 0
        return False

    @cython.final
    cdef inline bint can_raid(self, int q, Effect* e) noexcept nogil:
        """q may raid theft e: "On someone else's turn, if they just played a
        Thief" -- a Thief of the active player, by anyone else; a raid itself
        only with ``raid_raids`` (rules doc, assumption 8)."""
        return holds(self, q, THIEF) > 0 and q != self.s.active and \
            (e.kind == E_THIEF or self.raid_raids)

    @cython.final
    cdef inline void push(self, int kind, int player, int victim, int beneficiary,
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

    @cython.final
    cdef inline void transfer(self, int src, int dst, int amount) noexcept nogil:
        cdef int x = amount if amount < self.s.gold[src] else self.s.gold[src]
        self.s.gold[src] -= x
        self.s.gold[dst] += x

    @cython.final
    cdef inline bint resolve_top(self) noexcept nogil:
        """Resolve and pop the top effect; False if it needs a Give decision."""
        cdef Effect* e = &self.s.stack[self.s.sp - 1]
        cdef int v, t, distinct, uid = e.uid
        if e.kind == E_RAID or e.kind == E_WITCH_EXTRA:
            # an add-on waits for the theft it follows
            self.s.dfr[self.s.ndfr] = e[0]
            self.s.dfr[self.s.ndfr].parent = self.s.stack[e.target].uid
            self.s.ndfr += 1
            self.s.sp -= 1
            self.event(EV_RESOLVE, e.player, -1, R_WAITS * 8 + e.kind, 0)
            return True
        self.event(EV_RESOLVE, e.player, -1, R_RESOLVES * 8 + e.kind, 0)
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
                    if holds(self, v, t) > 0:
                        distinct += 1
                if distinct > 1:
                    self.s.phase = PH_GIVE
                    self.s.decider = v
                    return False
                self.do_give(v, e.player, self.s.hand_type[v][0])
        self.s.sp -= 1
        self.flush(uid)
        return True

    @cython.final
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
            self.event(EV_RESOLVE, d.player, -1, R_RESOLVES * 8 + d.kind, 0)
            self.transfer(d.victim, d.beneficiary, d.amount)
            self.flush(d.uid)
            i = 0

    @cython.final
    cdef inline void do_give(self, int v, int thief, int t) noexcept nogil:
        cdef int i, k, gen
        for i in range(self.s.hand_n[v] - 1, -1, -1):
            if self.s.hand_type[v][i] == t:
                gen = self.s.hand_gen[v][i]
                self.remove_card(v, t)
                k = self.s.hand_n[thief]
                self.s.hand_type[thief][k] = t
                self.s.hand_gen[thief][k] = gen
                self.s.hand_n[thief] = k + 1
                self.s.hcnt[thief][t] += 1
                self.event(EV_GIVE, v, t, thief, (1 << v) | (1 << thief))
                return

    # ------------------------------------------------------------ flow
    @cython.final
    cdef inline void advance(self) noexcept nogil:
        """Run automatic steps until a decision or chance node."""
        cdef Effect* e
        cdef int q, g, t, n = self.s.n, cnt
        while True:
            if self.s.phase == PH_OVER:
                return
            if self.s.moves >= self.max_moves or self.s.npub >= self.pub_cap:
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
                    self.event(EV_RESOLVE, e.player, -1, R_CANCELLED * 8 + e.kind, 0)
                    self.flush(e.uid)
                    if self.s.sp == 0:
                        self.s.phase = PH_PLAY
                    continue
                while e.scan <= n:
                    q = (e.player + e.scan) % n
                    e.scan += 1
                    if self.sil_rec:
                        self.record_seat(q, e)
                    if self.can_respond(q, e):
                        self.s.phase = PH_RESPOND
                        self.s.decider = q
                        self.event(EV_ASKED, q, -1, e.kind, 1 << q)
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
                    if self.sil_rec:
                        self.record_seat(q, NULL)
                    if holds(self, q, NINJA) > 0 and self.ninja_goal_exists(q):
                        self.s.decider = q
                        self.event(EV_ASKED, q, -1, 7, 1 << q)
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
                    if self.down_owners() != (1 << n) - 1:
                        self.s.goal_round_left = n
                        self.s.goal_target = self.s.active
                    self.s.phase = PH_DEAL_GOAL
                    continue
                self.s.phase = PH_PLAY
                continue
            if self.s.phase == PH_DEAL_GOAL:
                while self.s.goal_round_left > 0:
                    if pile_random(self) > 0:
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
                if pile_random(self) > 0:
                    return
                if self.s.bottom_n > 0:
                    g = self.s.bottom[0]
                    self.give_goal(self.s.active, g)
                    self.event(EV_FAERIE_GOAL, self.s.active, g, -1, 1 << self.s.active)
                self.s.phase = PH_PLAY
                continue
            return

    @cython.final
    cdef void record_seat(self, int q, Effect* e) noexcept nogil:
        """Record that a window reached seat q (another player than sil_p):
        the response window of effect `e` (the card types whose holder may
        answer, as ``can_respond`` and ``legal_actions``), or the Ninja
        window (`e` NULL)."""
        cdef Consid c
        cdef int k, m = 0
        if q == self.sil_p:
            return
        c.k = self.sil_k
        c.q = q
        c.pub = 0
        c.gold = -1
        if e == NULL:
            c.gold = self.s.gold[q]
        else:
            k = e.kind
            if q == e.player:
                if k == E_THIEF or k == E_RAID:
                    m = 1 << WITCH
            elif k == E_THIEF or k == E_RAID:
                m = 1 << GUARD
                if q != self.s.active and (k == E_THIEF or self.raid_raids):
                    m |= 1 << THIEF
                if q != e.victim:
                    m |= 1 << WITCH
            elif k == E_WITCH_EXTRA:
                m = (1 << GUARD) | (1 << FAERIE)
            elif k == E_GUARD_GIFT or k == E_GUARD_CANCEL or k == E_WITCH_STEAL:
                m = 1 << FAERIE
            if m == 0:
                return
        c.mask = m
        self.rec.push_back(c)

    @cython.final
    cdef inline void next_goal_target(self) noexcept nogil:
        self.s.goal_round_left -= 1
        self.s.goal_target = (self.s.goal_target + 1) % self.s.n

    @cython.final
    cdef inline bint ninja_goal_exists(self, int q) noexcept nogil:
        cdef unsigned int m = <unsigned int>self.s.down_m[q]
        cdef int gold = self.s.gold[q]
        while m:
            if goal_matches(self, __builtin_ctz(m), gold):
                return True
            m &= m - 1
        return False

    @cython.final
    cdef inline void start_turn(self, int p) noexcept nogil:
        if self.s.turn >= self.max_turns:
            self.end_game_draw()
            return
        self.s.turn += 1
        self.s.active = p
        self.s.phase = PH_NINJA
        self.s.window_seat = 1

    @cython.final
    cdef inline void score_turn_start(self) noexcept nogil:
        """Flip every matching goal; then the >big_pile pick."""
        cdef int p = self.s.active, g, gold = self.s.gold[p]
        # (the goals face down when scoring starts, in id order; a flip
        # changes only its own goal's bit)
        cdef unsigned int m = <unsigned int>self.s.down_m[p]
        self.event(EV_SCORE, p, -1, gold, 0)
        while m:
            g = __builtin_ctz(m)
            m &= m - 1
            if goal_matches(self, g, gold):
                self.flip(p, g)
                if self.s.phase == PH_OVER:
                    return
        if self.s.phase == PH_OVER:
            return
        m = <unsigned int>self.s.down_m[p]
        if gold > self.big_pile and m:
            if m & (m - 1) == 0:
                self.flip(p, __builtin_ctz(m))
                if self.s.phase == PH_OVER:
                    return
            else:
                self.s.phase = PH_BIG_FLIP
                self.s.decider = p
                return
        self.begin_draw()

    @cython.final
    cdef inline void begin_draw(self) noexcept nogil:
        cdef int need = self.hand_size - self.s.hand_n[self.s.active]
        self.s.phase = PH_DRAW
        self.s.draw_target = self.s.active
        self.s.draws_pending = need if need > 0 else 0
        self.s.goal_round_left = -1

    # ------------------------------------------------------------ interface
    cdef int current_player(self) noexcept nogil:
        return to_move(self)

    cdef bint is_terminal(self) noexcept nogil:
        return game_over(self)

    cdef int chance_outcomes(self, int* out, double* probs) noexcept nogil:
        cdef int ph = self.s.phase, k = 0, t, g, tot
        cdef unsigned int m
        cdef double pr
        if ph == PH_FIRST:
            for t in range(self.s.n):
                out[k] = C_FIRST + t
                probs[k] = 1.0 / self.s.n
                k += 1
        elif ph == PH_SETUP_CARDS or ph == PH_DRAW:
            tot = deck_total(self)
            for t in range(NT):
                if self.s.deck[t] > 0:
                    out[k] = C_CARD + t
                    probs[k] = self.s.deck[t] / <double>tot
                    k += 1
        else:
            m = <unsigned int>self.s.pile_m
            if m:
                pr = 1.0 / popcount32(m)
            while m:
                out[k] = C_GOAL + __builtin_ctz(m)
                probs[k] = pr
                k += 1
                m &= m - 1
        return k

    cdef int sample_chance_sorted(self, Rng* rng) noexcept nogil:
        """``Engine.sample_chance_sorted`` without listing the outcomes:
        ``chance_outcomes`` gives them by ascending id, so the same
        ``rng_double`` is compared with the same running sum of the same
        odds, walked in place."""
        cdef int t, last = 0
        cdef unsigned int m
        cdef double u = rng_double(rng), acc = 0.0, pr
        if self.s.phase == PH_FIRST:
            pr = 1.0 / self.s.n
            for t in range(self.s.n - 1):
                acc += pr
                if u < acc:
                    return C_FIRST + t
            return C_FIRST + self.s.n - 1
        if self.s.phase == PH_SETUP_CARDS or self.s.phase == PH_DRAW:
            return C_CARD + walk_counts(self.s.deck, NT, deck_total(self), u)
        m = <unsigned int>self.s.pile_m
        if m:
            pr = 1.0 / popcount32(m)
        while m:
            last = __builtin_ctz(m)
            acc += pr
            if u < acc:
                return C_GOAL + last
            m &= m - 1
        return C_GOAL + last

    cdef int sample_uniform_legal(self, Rng* rng) noexcept nogil:
        """``Engine.sample_uniform_legal`` without the sort: ``legal_actions``
        lists the actions by ascending id."""
        cdef int acts[MAX_BRANCHING]
        cdef int n = self.legal_actions(acts)
        return acts[rng_int(rng, n)]

    cdef int legal_actions(self, int* out) noexcept nogil:
        cdef int ph = self.s.phase, k = 0, p, v, g, t, n = self.s.n, gold
        cdef unsigned int m
        cdef Effect* e
        if ph == PH_PLAY:
            p = self.s.active
            out[k] = A_END_TURN
            k += 1
            if holds(self, p, THIEF) > 0:
                for v in range(n):
                    if v != p and self.s.gold[v] > 0:
                        out[k] = A_THIEF + v
                        k += 1
            if holds(self, p, GUARD) > 0 and self.s.gold[p] > 0:
                for v in range(n):
                    if v != p:
                        out[k] = A_GUARD + v
                        k += 1
            if holds(self, p, WITCH) > 0:
                for v in range(n):
                    if v != p and self.s.hand_n[v] > 0:
                        out[k] = A_WITCH + v
                        k += 1
            if holds(self, p, FAERIE) > 0:
                m = <unsigned int>self.s.down_m[p]
                while m:
                    out[k] = A_FAERIE + __builtin_ctz(m)
                    k += 1
                    m &= m - 1
            if holds(self, p, NINJA) > 0:
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
                if holds(self, p, GUARD) > 0:
                    out[k] = A_GUARD_CANCEL
                    k += 1
                if self.can_raid(p, e):
                    out[k] = A_THIEF_RAID
                    k += 1
                if holds(self, p, WITCH) > 0 and p != e.victim:
                    # the victim's Witch would only take gold from itself
                    out[k] = A_WITCH_EXTRA
                    k += 1
            elif e.kind == E_WITCH_EXTRA:
                if holds(self, p, GUARD) > 0:
                    out[k] = A_GUARD_CANCEL
                    k += 1
                if holds(self, p, FAERIE) > 0:
                    out[k] = A_FAERIE_CANCEL
                    k += 1
            else:
                if holds(self, p, FAERIE) > 0:
                    out[k] = A_FAERIE_CANCEL
                    k += 1
        elif ph == PH_NINJA:
            p = self.s.decider
            out[k] = A_PASS
            k += 1
            m = <unsigned int>self.s.down_m[p]
            gold = self.s.gold[p]
            while m:
                g = __builtin_ctz(m)
                m &= m - 1
                if goal_matches(self, g, gold):
                    out[k] = A_NINJA_SCORE + g
                    k += 1
        elif ph == PH_BIG_FLIP:
            m = <unsigned int>self.s.down_m[self.s.active]
            while m:
                out[k] = A_BIG_FLIP + __builtin_ctz(m)
                k += 1
                m &= m - 1
        elif ph == PH_GIVE:
            p = self.s.decider
            for t in range(NT):
                if holds(self, p, t) > 0:
                    out[k] = A_GIVE + t
                    k += 1
        return k

    cdef void do_apply(self, int action) noexcept nogil:
        cdef int ph = self.s.phase
        if not self.quiet and (self.sil_p < 0 or self.sil_loud):
            self.hmeta.push_back((self.s.npub << 4) | (to_move(self) + 1))
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

    @cython.final
    cdef inline void chance_card(self, int p, int t) noexcept nogil:
        cdef int k = self.s.hand_n[p]
        self.s.deck[t] -= 1
        self.s.hand_type[p][k] = t
        self.s.hand_gen[p][k] = self.s.gen
        self.s.hand_n[p] = k + 1
        self.s.hcnt[p][t] += 1
        self.event(EV_DRAW, p, t, -1, 1 << p)

    @cython.final
    cdef inline void chance_goal(self, int p, int g, int kind) noexcept nogil:
        self.give_goal(p, g)
        self.event(kind, p, g, -1, 1 << p)

    @cython.final
    cdef inline void apply_play(self, int action) noexcept nogil:
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
            self.set_goal(g, G_BOTTOM, self.s.goal_owner[g])
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

    @cython.final
    cdef inline void play_card(self, int p, int t, int action) noexcept nogil:
        self.remove_card(p, t)
        self.s.disc[t] += 1
        self.event(EV_PLAY, p, -1, action, 0)

    @cython.final
    cdef inline void apply_response(self, int action) noexcept nogil:
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

    # ------------------------------------------------------------ replays
    # (``replay``: the base class's with ``step``, see rules.pxd)
    cdef void replay(self, const int* actions, int n) noexcept nogil:
        cdef int i
        self.to_initial()
        for i in range(n):
            step(self, actions[i])

    @cython.final
    cdef int chance_target(self) noexcept nogil:
        """The seat that receives the outcome of the current chance node."""
        cdef int ph = self.s.phase
        if ph == PH_SETUP_GOALS:
            return (self.s.first + self.s.setup_k) % self.s.n
        if ph == PH_SETUP_CARDS:
            return (self.s.first + self.s.setup_k % self.s.n) % self.s.n
        if ph == PH_DRAW:
            return self.s.draw_target
        if ph == PH_DEAL_GOAL:
            return self.s.goal_target
        if ph == PH_FAERIE_DRAW:
            return self.s.active
        return -1

    cdef void resample_history(self, int player, Rng* rng, vector[int]* out) noexcept nogil:
        """The kernel has no resampler: ``out`` is left empty (no world,
        never the true history).  ``GoldThiefEngine`` overrides this with
        ``src_cy.gold_thief.resample``; call that module on a kernel state."""
        out.clear()

    # ------------------------------------------------------------ clone
    cdef Engine clone(self):
        """A copy of this state, of the caller's own class (the final
        ``GoldThiefEngine``, or a bare ``GoldThiefRules``)."""
        cdef GoldThiefRules e = type(self).__new__(type(self))
        e.set_params(self.params)
        e.copy_from(self)
        return e

    cdef void copy_from(self, Engine other) noexcept:
        cdef GoldThiefRules o = <GoldThiefRules>other
        cdef int q, k
        self.copy_base(other)
        # The struct but for the unused hand slots and stack and deferred
        # entries (most of its bytes; see ``restart``: only the first
        # hand_n, sp and ndfr entries are ever read).  (memcpy: an
        # assignment copies the struct through a temporary)
        memcpy(&self.s, &o.s, <char*>&o.s.hand_type[0][0] - <char*>&o.s)
        for q in range(o.s.n):
            k = o.s.hand_n[q]
            if k > 0:
                memcpy(self.s.hand_type[q], o.s.hand_type[q], k * sizeof(int))
                memcpy(self.s.hand_gen[q], o.s.hand_gen[q], k * sizeof(int))
        memcpy(&self.s.hcnt[0][0], &o.s.hcnt[0][0],
               <char*>&o.s.stack[0] - <char*>&o.s.hcnt[0][0])
        if o.s.sp > 0:
            memcpy(self.s.stack, o.s.stack, o.s.sp * sizeof(Effect))
        self.s.ndfr = o.s.ndfr
        if o.s.ndfr > 0:
            memcpy(self.s.dfr, o.s.dfr, o.s.ndfr * sizeof(Effect))
        self.s.next_uid = o.s.next_uid
        self.log = o.log
        self.hmeta = o.hmeta

