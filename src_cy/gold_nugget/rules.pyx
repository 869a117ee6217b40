# cython: language_level=3
"""Gold Nugget rules kernel (see ``docs/rules/gold_nugget.md``).

The parameters (``GoldNuggetParams``) and ``GoldNuggetRules``: legal
actions, apply, chance, returns, the event log and information keys,
clone/copy_from, and what the rules do in a resampling walk's lazy world
(open stone faces and unknown cards, the walk's choice points: the ``rs_*``
functions at the end).  Declarations in ``rules.pxd``; the card, animal and
constant tables are ``catalog.pxi`` / ``catalog.pxd``, the action ids
``actions.pxd``.  The kernel draws no world itself (its
``resample_history`` returns none, never the true history): the resampler
is ``resample.pyx``, which ``GoldNuggetEngine`` uses; rendering
``render.pyx``, the snapshot ``persist.pyx``; ``engine.pyx`` holds the
final class ``GoldNuggetEngine``.
"""
from libc.stdint cimport uint64_t, uint32_t
from libc.string cimport memcpy, memset
from libc.stdlib cimport malloc, realloc, free
from libcpp.vector cimport vector
from src_cy.events cimport Event
from src_cy.draws cimport walk_counts
from src_cy.engine cimport (Engine, Rng, rng_next, rng_double, rng_int, mix64, popcount32,
                            CHANCE_PLAYER, TERMINAL_PLAYER, MAX_BRANCHING)
from src_cy.gold_nugget.actions cimport *
from src_cy.gold_nugget.catalog cimport *

include "catalog.pxi"

cdef extern from *:
    int __builtin_ctz(unsigned int x) nogil


cdef inline int lowest_card(uint32_t* cards) noexcept nogil:
    """Remove the lowest card of the bit set ``cards`` (not empty); its id."""
    cdef int k = __builtin_ctz(cards[0])
    cards[0] &= cards[0] - 1
    return k


cdef inline int add_plays(int* out, int n, uint32_t cards, bint special_ok) noexcept nogil:
    """Append to ``out[:n]`` the play of each card of the bit set ``cards``
    (a special card only when ``special_ok``) and its recycle if it has
    one, card by card; the new count."""
    cdef int k
    while cards:
        k = lowest_card(&cards)
        if special_ok or not CARD_SPECIAL[k]:
            out[n] = A_PLAY + k
            n += 1
        if CARD_RECYCLE[k]:
            out[n] = A_RECYCLE + k
            n += 1
    return n


if NLEAF != 16 or PH_GRAB_RESOLVE >= 32:
    raise ImportError("gn_positive16 needs 16 leaf cards, CHANCE_PHASES phase ids below 32")
# bit ph: phase ph is a chance node
cdef uint32_t CHANCE_PHASES = (
    (1u << PH_DEAL) | (1u << PH_DEAL_ANIMAL) | (1u << PH_DEAL_TOD) | (1u << PH_DEAL_VC)
    | (1u << PH_SETUP_STONE) | (1u << PH_DRAW) | (1u << PH_EFF_CHANCE) | (1u << PH_GRAB_CHANCE))


cdef inline int nth_card(uint32_t cards, int r) noexcept nogil:
    """The id of the ``r``-th lowest card (from 0) of the bit set ``cards``."""
    while r > 0:
        cards &= cards - 1
        r -= 1
    return __builtin_ctz(cards)


cdef inline int pick_stone(const GN* g, Rng* rng, bint nest, int skip) noexcept nogil:
    """One ``rng_int`` over the nest (when ``nest``) and every stone in a
    lair other than ``skip``, in ascending action id: the action it lands on."""
    cdef int q, r, n = 1 if nest else 0
    for q in range(g.n):
        if q != skip:
            n += g.lairn[q]
    r = rng_int(rng, n)
    if nest:
        if r == 0:
            return A_NEST
        r -= 1
    for q in range(g.n):
        if q != skip:
            if r < g.lairn[q]:
                return A_STONE + q * MAXS + r
            r -= g.lairn[q]
    return A_NEST


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


# The engine parameters, by name (the mapping ``GoldNuggetParams`` takes).
PARAM_NAMES = ("players", "days", "advanced", "abilities", "utility", "hand_size",
               "start_stones", "deal_animals", "hello_discard", "animal_mask",
               "normal_stones", "trap_stones", "black_feathers", "max_moves",
               "opening_window", "place_stones", "leaf_counts", "wind_counts")


def _gn_int(value, str name, long lo, long hi) -> int:
    if isinstance(value, bool):
        value = int(value)
    if not isinstance(value, int) or not lo <= value <= hi:
        raise ValueError(f"Gold Nugget parameter {name}={value!r} is invalid; valid: an "
                         f"integer in [{lo}, {hi}]")
    return value


cdef void _gn_after_deal(GN* g) noexcept nogil:
    """The card deal is over: the wind cards join the deck, animals are next."""
    cdef int i
    for i in range(NWIND):
        g.deck[NLEAF + i] += g.wind_init[i]
    g.deal_i = 0
    g.phase = PH_DEAL_ANIMAL


cdef class GoldNuggetParams:
    """One game's validated parameters and its initial state, immutable;
    built once per game from a mapping of every name of ``PARAM_NAMES``
    (``games.gold_nugget`` builds it) and shared by every engine of that game
    and all their clones.  ValueError names a missing, unknown or invalid
    parameter."""
    def __init__(self, params):
        cdef int i, s
        cdef GN* g = &self.g0
        names = set(params)
        if names != set(PARAM_NAMES):
            raise ValueError(f"Gold Nugget parameters: missing "
                             f"{sorted(set(PARAM_NAMES) - names)}, unknown "
                             f"{sorted(names - set(PARAM_NAMES))}")
        v = {k: _gn_int(params[k], k, 0, 100000) for k in PARAM_NAMES
             if k not in ("leaf_counts", "wind_counts")}
        _gn_int(v["players"], "players", 2, MAXP)
        _gn_int(v["animal_mask"], "animal_mask", 1, (1 << NANIMAL) - 1)
        _gn_int(v["normal_stones"], "normal_stones", 0, MAXS - 1)
        _gn_int(v["trap_stones"], "trap_stones", 0, MAXS - 1 - v["normal_stones"])
        for key, size in (("leaf_counts", NLEAF), ("wind_counts", NWIND)):
            counts = tuple(params[key])
            if len(counts) != size:
                raise ValueError(f"Gold Nugget parameter {key} must hold {size} counts, "
                                 f"got {len(counts)}")
            # a card's count fits the state's 8-bit counts (GN: int8_t)
            v[key] = tuple(_gn_int(c, key, 0, 127) for c in counts)
        self._values = v
        self.players = v["players"]
        memset(g, 0, sizeof(GN))
        g.n = v["players"]
        g.days = v["days"]
        g.advanced = v["advanced"]
        g.abilities = v["abilities"]
        g.utility = v["utility"]
        g.hand_size = v["hand_size"]
        g.start_stones = v["start_stones"]
        g.deal_animals = v["deal_animals"]
        g.hello_discard = v["hello_discard"]
        g.animal_mask = v["animal_mask"]
        g.nnormal = v["normal_stones"]
        g.ntrap = v["trap_stones"]
        g.nfeathers = v["black_feathers"]
        g.max_moves = v["max_moves"]
        g.opening_window = _gn_int(v["opening_window"], "opening_window", 0, 1)
        g.place_stones = _gn_int(v["place_stones"], "place_stones", 0, 1)
        for i in range(NLEAF):
            g.leaf_init[i] = v["leaf_counts"][i]
            g.deck[i] = g.leaf_init[i]
        for i in range(NWIND):
            g.wind_init[i] = v["wind_counts"][i]
        g.ncards = sum(v["leaf_counts"]) + sum(v["wind_counts"])
        for i in range(NLEAF):
            if CARD_INSTANT[i] and g.leaf_init[i] > 0:
                g.any_instant = 1
        g.nstones = 1 + g.ntrap + g.nnormal
        for s in range(g.nstones):
            g.face[s] = F_NUGGET if s == 0 else (F_TRAP if s <= g.ntrap else F_NORMAL)
            g.nest[s] = s
        g.nestn = g.nstones
        g.nest_feathers = g.nfeathers
        g.animals_left = g.animal_mask
        g.vc_left = (1 << NVC) - 1
        for i in range(MAXP):
            g.animal[i] = -1
            g.tod[i] = -1
            g.vc[i] = -1
            g.facedown[i] = -1
            g.grab[i] = -1
            g.got[i] = -1
        for i in range(4):
            g.tod_left[i] = 2 if g.n == 5 else 1
        g.holder = 0
        g.phase = PH_DEAL
        g.deal_i = 0
        if g.hand_size == 0:
            _gn_after_deal(g)

    @property
    def values(self) -> dict:
        """The parameters by name (a copy)."""
        return dict(self._values)


cdef class GoldNuggetRules(Engine):
    """The Gold Nugget rules kernel (state and rules; no resampler: that is
    ``resample.pyx``, which ``GoldNuggetEngine`` calls).  Construct with a
    ``GoldNuggetParams`` or its mapping, like the engine."""

    def __cinit__(self):
        self.logcap = 256
        self.events = <Event*>malloc(self.logcap * sizeof(Event))
        self.logh = <int*>malloc(self.logcap * sizeof(int))
        if self.events == NULL or self.logh == NULL:
            raise MemoryError()
        self.cP = -1                 # no corrector chain kept (resample.pyx)

    def __dealloc__(self):
        free(self.events)
        free(self.logh)

    def __init__(self, params, str game_string="gold_nugget"):
        cdef GoldNuggetParams prm = (params if isinstance(params, GoldNuggetParams)
                                     else GoldNuggetParams(params))
        self.params = prm
        self.g0 = &prm.g0
        self.num_players = prm.players
        self.game_string = game_string
        self.to_initial()

    cdef void restart(self) noexcept nogil:
        memcpy(&self.g, self.g0, sizeof(GN))
        self.hact.clear()
        self.resr.clear()
        self.resk.clear()

    # ================================================================ log
    cdef void record(self, Event e, uint32_t code, uint32_t mask) noexcept nogil:
        """``log``: event ``e`` (its code ``code``), seen by the players of
        ``mask`` (not 0, within the seats)."""
        cdef int p
        cdef uint32_t full = (1u << self.g.n) - 1
        if self.g.lazy:
            # a walk checks each event of the walking player against its truth
            if mask & (1u << self.wP):
                if self.g.pcount >= self.wT or self.wcode[self.g.pcount] != code:
                    self.g.wdead = 1
                self.g.pcount += 1
            return
        if self.g.nlog == self.logcap:
            self.grow_log(self.logcap * 2)
        e.pub = mask == full
        e.seers = mask
        self.events[self.g.nlog] = e
        self.logh[self.g.nlog] = <int>self.hist.size() - 1
        self.g.nlog += 1
        for p in range(self.g.n):
            if mask & (1u << p):
                self.observe_private(p, code)
        if mask == full:
            self.pubhash = mix64(self.pubhash, code)

    cdef void grow_log(self, int cap) noexcept nogil:
        cdef Event* v
        cdef int* h
        if cap <= self.logcap:
            return
        v = <Event*>realloc(self.events, cap * sizeof(Event))
        if v != NULL:
            self.events = v
        h = <int*>realloc(self.logh, cap * sizeof(int))
        if h != NULL:
            self.logh = h
        if v != NULL and h != NULL:
            self.logcap = cap

    cdef uint32_t seers(self) noexcept nogil:
        """Players who see stone moves and reveals now (awake, or the Bat)."""
        cdef uint32_t m = gn_equal8(self.g.asleep, 0)
        if self.g.abilities and not self.g.final:
            m |= gn_equal8(self.g.animal, A_BAT)
        return m & self.all_mask()

    # ================================================================ interface
    cdef int current_player(self) noexcept nogil:
        cdef int ph = self.g.phase
        if ph == PH_END:
            return TERMINAL_PLAYER
        if (CHANCE_PHASES >> ph) & 1:
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
        if self.g.final:
            turns_left = 0
        if self.g.nmoves + (turns_left + 1) * per_turn + 5 * self.g.n + 10 + 2 * self.g.ncards \
                < self.g.max_moves:
            # the hand and deck terms below add at most 2 ncards (excess and w
            # count different cards; big, a hand's size, at most ncards)
            return False
        for p in range(self.g.n):
            if self.g.handn[p] > hl:
                excess += self.g.handn[p] - hl
            if self.g.handn[p] > big:
                big = self.g.handn[p]
        for p in range(NWIND):
            w += self.g.deck[NLEAF + p]
        return self.g.nmoves + (turns_left + 1) * per_turn + excess + w + 5 * self.g.n + 10 + big \
            >= self.g.max_moves

    cdef int hand_limit(self, int p) noexcept nogil:
        return self.g.hand_size + (1 if self.has(p, A_RABBIT) else 0)

    cdef int legal_actions(self, int* out) noexcept nogil:
        cdef int n = 0, k, q, i, cp = self.g.cp, ph = self.g.phase, dk
        cdef uint32_t held
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
            held = self.held_cards(cp)
            while held:
                out[n] = A_DISCARD + lowest_card(&held)
                n += 1
        elif ph == PH_SLEEP_CHOICE:
            out[0] = A_SLEEP
            out[1] = A_MEDDLE
            n = 2
        elif ph == PH_MEDDLE:
            out[0] = A_PASS
            n = 1
            if not self.capped():
                n = add_plays(out, n, self.held_cards(cp), not self.g.special_used)
                if self.g.abilities and not self.g.ability_used and \
                        ANIMAL_ACTIVE[self.g.animal[cp]] and self.ability_acts(cp):
                    out[n] = A_ABILITY
                    n += 1
                if self.g.advanced and not self.g.vc_played[cp]:
                    out[n] = A_VICTORY
                    n += 1
        elif ph == PH_REACT:
            out[0] = A_PASS
            n = add_plays(out, 1, self.held_cards(cp) & INSTANT_CARDS, True)
        elif ph == PH_LIMIT:
            held = self.held_cards(cp)
            while held:
                out[n] = A_DISCARD + lowest_card(&held)
                n += 1
        elif ph == PH_FINAL_PLAY:
            out[0] = A_PASS
            n = 1
            if not self.capped():
                n = add_plays(out, n, self.held_cards(cp), True)
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
                held = self.held_cards(cp)
                while held:
                    out[n] = A_DISCARD + lowest_card(&held)
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
            elif dk == DK_PLACE:
                for i in range(self.g.lairn[cp]):
                    out[n] = A_STONE + cp * MAXS + i
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

    cdef int sample_uniform_legal(self, Rng* rng) noexcept nogil:
        """``Engine.sample_uniform_legal`` without listing the actions: the
        same ``rng_int(n)`` over the ``n`` legal actions in ascending id,
        counted by kind (fixed ids below the card plays, card plays, card
        recycles, discards, stones) and the one it lands on found in its
        kind; the decisions of other kinds: the default."""
        cdef int ph = self.g.phase, cp = self.g.cp, dk, r, np, nf = 1
        cdef int fixed[3]        # the fixed ids offered, ascending (A_PASS first)
        cdef uint32_t play = 0, rec
        fixed[0] = A_PASS
        if ph == PH_MEDDLE or ph == PH_REACT or ph == PH_FINAL_PLAY:
            if ph == PH_REACT:
                play = self.held_cards(cp) & INSTANT_CARDS
            elif not self.capped():
                play = self.held_cards(cp)
                if ph == PH_MEDDLE:
                    if self.g.abilities and not self.g.ability_used and \
                            ANIMAL_ACTIVE[self.g.animal[cp]] and self.ability_acts(cp):
                        fixed[nf] = A_ABILITY
                        nf += 1
                    if self.g.advanced and not self.g.vc_played[cp]:
                        fixed[nf] = A_VICTORY
                        nf += 1
            rec = play & RECYCLE_CARDS
            if ph == PH_MEDDLE and self.g.special_used:
                play &= ~SPECIAL_CARDS
            np = popcount32(play)
            r = rng_int(rng, nf + np + popcount32(rec))
            if r < nf:
                return fixed[r]
            if r < nf + np:
                return A_PLAY + nth_card(play, r - nf)
            return A_RECYCLE + nth_card(rec, r - nf - np)
        if ph == PH_HELLO_DISCARD or ph == PH_LIMIT:
            play = self.held_cards(cp)
            nf = 1 if ph == PH_HELLO_DISCARD else 0
            r = rng_int(rng, nf + popcount32(play))
            if r < nf:
                return A_PASS
            return A_DISCARD + nth_card(play, r - nf)
        if ph == PH_SLEEP_CHOICE:
            return A_SLEEP + rng_int(rng, 2)
        if ph == PH_CHOOSE_ANIMAL:
            return A_OPT0 + rng_int(rng, 2 if self.g.deal_animals == 2 else 1)
        if ph == PH_GRAB:
            return pick_stone(&self.g, rng, self.g.nestn > 0, -1)
        if ph == PH_EFFECT:
            dk = self.g.eff.dk
            if dk == DK_EXAMINE or dk == DK_SUSP:
                return A_OPT0 + rng_int(rng, 2)
            if dk == DK_PLACE or dk == DK_STONE_OF or dk == DK_OWN_STONE:
                r = self.g.eff.t2 if dk == DK_STONE_OF else cp
                return A_STONE + r * MAXS + rng_int(rng, self.g.lairn[r])
            if dk == DK_STEAL_ANY:
                return pick_stone(&self.g, rng, self.g.nestn > 0, self.g.eff.actor)
            if dk == DK_ANY_LAIR:
                return pick_stone(&self.g, rng, False, -1)
        return Engine.sample_uniform_legal(self, rng)

    cdef int sample_chance_sorted(self, Rng* rng) noexcept nogil:
        """``Engine.sample_chance_sorted`` without listing the outcomes: the
        same ``rng_double`` against the same running sum of the same odds
        (``chance_outcomes`` gives them by ascending id), stopped at the
        outcome it lands on; a card or a nest stone (other draws: the
        default)."""
        cdef int ph = self.g.phase, i, n = 0, tot = 0, last = -1
        cdef double u, pr, acc = 0.0
        if ph == PH_DEAL or ph == PH_DRAW:
            for i in range(NCARD):
                tot += self.g.deck[i]
            return walk_counts(self.g.deck, NCARD, tot, rng_double(rng))
        if ph == PH_SETUP_STONE or ph == PH_EFF_CHANCE or ph == PH_GRAB_CHANCE:
            for i in range(self.g.nestn):
                if not (self.g.grabbed >> self.g.nest[i]) & 1:
                    n += 1
            pr = 1.0 / n
            u = rng_double(rng)
            for i in range(self.g.nestn):
                if not (self.g.grabbed >> self.g.nest[i]) & 1:
                    last = i
                    acc += pr
                    if u < acc:
                        return i
            return last
        return Engine.sample_chance_sorted(self, rng)

    cdef bint ability_acts(self, int p) noexcept nogil:
        """p's active ability would change something now (rules doc: an
        ability that cannot act is not offered): the Fox needs a stone of its
        own and another lair with stones, the Owl a stone in some lair, the
        Magpie a nest stone, the Mole a stone of its own, the Badger a
        feather."""
        cdef int a = self.g.animal[p]
        if a == A_FOX:
            return self.g.lairn[p] > 0 and self.other_stones(p)
        if a == A_OWL:
            return self.any_stone_in_lairs()
        if a == A_MAGPIE:
            return self.g.nestn > 0
        if a == A_MOLE:
            return self.g.lairn[p] > 0
        if a == A_BADGER:
            return self.g.feathers[p] > 0
        return True

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
            i = gn_find24(self.g.lair[q], self.g.lairn[q], s)
            if i >= 0:
                owner[0] = q
                return i
        i = gn_find24(self.g.nest, self.g.nestn, s)
        owner[0] = NEST if i >= 0 else -1
        return i

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
        rs_rearranged(self, owner, -1)
        rs_rearranged(self, dest, owner)
        self.log(ev(EV_MOVE, dest, owner, i, 0, 0), see)
        self.log(ev(EV_MOVE_HID, dest, owner, 0, 0, 0), blind)
        return s

    cdef int nest_take(self, int idx, int dest) noexcept nogil:
        """A random nest stone (chance index idx) to dest; nobody sees which."""
        cdef int s = self.g.nest[idx]
        self.forget(self.all_mask(), self.container_mask(NEST))
        self.remove_slot(NEST, idx)
        self.put(s, dest)
        rs_rearranged(self, NEST, -1)
        rs_rearranged(self, dest, NEST)
        self.log(ev(EV_NESTTAKE, dest, 0, 0, 0, 0), self.all_mask())
        return s

    cdef void examine(self, int p, int s, bint traps) noexcept nogil:
        cdef int owner = -1, q
        # where the stone lies is only logged (a quiet world logs nothing)
        cdef int i = -1 if self.quiet else self.find_slot(s, &owner)
        cdef uint32_t see = self.seers() | (1u << p)
        self.log(ev(EV_EXAMINE, p, owner, i, 0, 0), see)
        if self.g.face[s] < 0:
            rs_settle_examined(self, s, p, see, traps)
        elif self.g.lazy and p == self.wP:
            rs_known_face(self, s, ev(EV_FACE, p, owner, i, self.g.face[s], 0))
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
        cdef int owner = -1
        cdef int i = -1 if self.quiet else self.find_slot(s, &owner)
        cdef uint32_t see = self.seers()
        if self.g.face[s] < 0:
            rs_settle_revealed(self, s, see)
        elif self.g.lazy and (see >> self.wP) & 1:
            rs_known_face(self, s, ev(EV_REVEAL, 0, owner, i, self.g.face[s], 0))
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
        if not self.quiet:
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
        _gn_after_deal(&self.g)

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
                if self.g.opening_window:
                    # "The rest of the animals can only play cards with the
                    # instant icon" in Meddling: a window before the first play
                    self.open_window()
                    continue
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
        self.g.eff.pstage = 0
        self.g.eff.pfixed = 0
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
        self.g.eff.pstage = 0
        self.g.eff.pfixed >>= 1
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
                    if not self.g.eff.pstage:
                        self.need(owner, DK_EXAMINE)
                        return
                    if self.g.lairn[owner] > 1:
                        self.need(owner, DK_PLACE)
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
            if self.g.place_stones and not (self.g.eff.pfixed & 1):
                self.g.eff.pstage = 1          # "and must then place them"
            else:
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
        if dk == DK_PLACE:
            s = self.g.eff.pend_s[0]
            self.pop_pending()
            self.place(who, self.find_slot(s, &q), (action - A_STONE) % MAXS)
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

    cdef void place(self, int p, int i, int j) noexcept nogil:
        """p places the stone at its slot i at slot j, the stones between
        shifting to make room (their order is kept).  Those who see stones
        move see where; the others lose track of p's lair."""
        cdef int s = self.g.lair[p][i], k
        cdef uint32_t see = self.seers() | (1u << p), blind = self.all_mask() & ~see
        self.forget(blind, self.container_mask(p))
        if j < i:
            for k in range(i, j, -1):
                self.g.lair[p][k] = self.g.lair[p][k - 1]
        else:
            for k in range(i, j):
                self.g.lair[p][k] = self.g.lair[p][k + 1]
        self.g.lair[p][j] = s
        rs_rearranged(self, p, -1)
        self.log(ev(EV_PLACE, p, p, i, j, 0), see)
        self.log(ev(EV_PLACE_HID, p, 0, 0, 0, 0), blind)

    cdef void swap_unseen(self, int seer, int o1, int i1, int o2, int i2) noexcept nogil:
        """Swap two lair stones in place; only `seer` sees which ones.  Each
        receiver other than `seer` learns privately which of its slots got the
        new stone; both receivers may examine what they got (in order)."""
        cdef int s1 = self.g.lair[o1][i1], s2 = self.g.lair[o2][i2]
        cdef uint32_t blind = self.all_mask() & ~(1u << seer)
        cdef uint32_t recv = ((1u << o1) | (1u << o2)) & blind
        # a receiver keeps the faces of its unmoved stones ("leave it in the
        # same position"): it loses only the slot that changed and the other lair
        self.forget(blind & ~recv, self.container_mask(o1) | self.container_mask(o2))
        if recv & (1u << o1):
            self.forget(1u << o1, self.container_mask(o2) | (1u << s1))
        if recv & (1u << o2):
            self.forget(1u << o2, self.container_mask(o1) | (1u << s2))
        self.g.lair[o1][i1] = s2
        self.g.lair[o2][i2] = s1
        rs_rearranged(self, o1, o2)
        rs_rearranged(self, o2, o1)
        self.log(ev(EV_SWAP, o1, o2, i1, i2, 0), 1u << seer)
        self.log(ev(EV_SWAP_HID, o1, o2, 0, 0, 0), blind)
        if o1 != seer:
            self.log(ev(EV_SWAP_RECV, o1, o1, i1, 0, 0), 1u << o1)
        if o2 != seer and o2 != o1:
            self.log(ev(EV_SWAP_RECV, o2, o2, i2, 0, 0), 1u << o2)
        cdef uint32_t queued = (1u << self.g.eff.npend) - 1
        self.acquire(o1, s2)
        if o2 != o1:
            self.acquire(o2, s1)
        # each stone keeps the slot of the one it replaced: nothing to place
        self.g.eff.pfixed |= ((1u << self.g.eff.npend) - 1) & ~queued

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
        """The kernel has no resampler: ``out`` is left empty (no world,
        never the true history).  ``GoldNuggetEngine`` overrides this with
        ``src_cy.gold_nugget.resample``; call that module on a kernel state."""
        out.clear()

    # ================================================================ clone
    cdef Engine clone(self):
        """A copy of this state, of this object's own (final) class."""
        cdef GoldNuggetRules e = <GoldNuggetRules>type(self).__new__(type(self))
        e.params = self.params
        e.g0 = self.g0
        e.copy_from(self)
        return e

    cdef void copy_from(self, Engine other) noexcept:
        cdef GoldNuggetRules o = <GoldNuggetRules>other
        self.copy_base(other)
        memcpy(&self.g, &o.g, sizeof(GN))
        if self.logcap < o.g.nlog:
            self.grow_log(o.logcap)
        memcpy(self.events, o.events, o.g.nlog * sizeof(Event))
        memcpy(self.logh, o.logh, o.g.nlog * sizeof(int))
        self.hact = o.hact
        self.resr = o.resr
        self.resk = o.resk

    # ================================================================ Python API
    # Everything below is for adapters, tests and people; never on a hot path.


# ================================================================ lazy world
# What the rules do in a resampling walk (docs/rules/gold_nugget.md,
# "Resampling"; the walks are resample.pyx): stone faces and the other
# players' unknown cards stay open and are decided when they first matter,
# conditioned on the walking player's observations, each random decision a
# choice point of the walk's search (``rs_wchoose``).

cdef inline double binom(int n, int r) noexcept nogil:
    cdef double x = 1.0
    cdef int i
    if n < 0 or r < 0 or r > n:
        return 0.0
    for i in range(r):
        x = x * (n - i) / (i + 1)
    return x


cdef inline double face_assignments(int* k, int g, int t) noexcept nogil:
    """Ways to give g nuggets (0 or 1) and t traps to the open stones, the rest
    normal, when k[0] stones may take any face, k[1] may not be the nugget,
    k[2] may not be a trap and k[3] must be normal."""
    if g < 0 or g > 1 or t < 0 or k[0] < 0 or k[1] < 0 or k[2] < 0 or k[3] < 0:
        return 0.0
    if g == 1:
        return k[0] * binom(k[0] - 1 + k[1], t) + k[2] * binom(k[0] + k[1], t)
    return binom(k[0] + k[1], t)


cdef inline int order_draw(double* left, int n, Rng* r, double* tot) noexcept nogil:
    """The next option of a random order by weight without replacement:
    drawn from ``r`` in proportion to the weights ``left`` (total ``tot``),
    then taken out of them; -1 when no weight is left."""
    cdef double u
    cdef int i, best = -1
    if tot[0] <= 0.0:
        return -1
    u = rng_double(r) * tot[0]
    for i in range(n):
        if left[i] > 0.0:
            best = i
            if u < left[i]:
                break
            u -= left[i]
    if best < 0:
        return -1
    tot[0] -= left[best]
    left[best] = 0.0
    return best


cdef inline double order_start(double* left, int n, double* w) noexcept nogil:
    """The weights of a new order (negative ones as 0); their total."""
    cdef double tot = 0.0
    cdef int i
    for i in range(n):
        left[i] = w[i] if w[i] > 0.0 else 0.0
        tot += left[i]
    return tot


cdef int nth_choice(uint64_t seed, int pos, int n, double* w) noexcept nogil:
    """The option at position pos of a random order of the n options drawn
    one after the other by weight without replacement, the draws taken from a
    generator seeded with ``seed`` (so the order is the same every time)."""
    cdef double left[MAX_BRANCHING]
    cdef Rng r
    cdef double tot = order_start(left, n, w)
    cdef int j, best = -1
    r.s = seed
    for j in range(pos + 1):
        best = order_draw(left, n, &r, &tot)
        if best < 0:
            return -1
    return best


cdef void rs_open_kinds(GoldNuggetRules self, int* k) noexcept nogil:
    """Open stones by exclusion: k[0] none, k[1] not the nugget, k[2] not
    a trap, k[3] neither."""
    cdef int t
    k[0] = 0
    k[1] = 0
    k[2] = 0
    k[3] = 0
    for t in range(self.g.nstones):
        if self.g.face[t] < 0:
            k[((self.g.notnug >> t) & 1) + 2 * ((self.g.nottrap >> t) & 1)] += 1

cdef double rs_face_weight(GoldNuggetRules self, int s, int f) noexcept nogil:
    """Face assignments of the open stones that respect every exclusion
    and give open stone s face f (f = -1: no condition on s; f = 3: s
    excluded from the nugget, f = 4: s excluded from the traps)."""
    cdef int k[4]
    cdef int ks, g = self.g.frem[F_NUGGET], t = self.g.frem[F_TRAP]
    rs_open_kinds(self, k)
    if f >= 0:
        ks = <int>((self.g.notnug >> s) & 1) + 2 * <int>((self.g.nottrap >> s) & 1)
        if f == 3 or f == 4:
            k[ks] -= 1
            k[ks | (1 if f == 3 else 2)] += 1
        else:
            if (f == F_NUGGET and ks & 1) or (f == F_TRAP and ks & 2):
                return 0.0
            k[ks] -= 1
            if f == F_NUGGET:
                g -= 1
            elif f == F_TRAP:
                t -= 1
    return face_assignments(k, g, t)

cdef bint rs_face_possible(GoldNuggetRules self, int s, int f) noexcept nogil:
    """Stone s can still turn out to have face f (f < 0: any face)."""
    if f < 0:
        return True
    if self.g.face[s] >= 0:
        return self.g.face[s] == f
    return rs_face_weight(self, s, f) > 0.0

cdef void rs_conflict(GoldNuggetRules self, int s, int f) noexcept nogil:
    """A dead end because open stone s cannot take face f (f = 3 / 4: cannot
    be excluded from the nugget / the traps): blame the latest choice point
    that could have changed it -- the one that placed s or decided about its
    face when s itself rules f out, else also those that gave f to another
    stone (f used up) or that excluded faces anywhere (the counts)."""
    cdef int c = self.g.tcp[s]
    cdef bint own = (f == F_NUGGET and (self.g.notnug >> s) & 1) or \
        (f == F_TRAP and (self.g.nottrap >> s) & 1)
    if not own:
        if 0 <= f <= 2 and self.g.frem[f] <= 0:
            c = imax(c, self.g.fcp[f])
        else:
            c = imax(imax(c, self.g.xcp), imax(self.g.fcp[0], imax(self.g.fcp[1], self.g.fcp[2])))
    if not self.g.wdead:
        self.g.wconf = c
    self.g.wdead = 1

cdef void rs_known_face(GoldNuggetRules self, int s, Event shown) noexcept nogil:
    """The walking player is about to see stone s's face, already decided,
    in event ``shown``: when its log has that event with another face, a
    dead end whose culprit is the latest choice point that decided s's face
    or arranged the lair it lies in (``shown.a``)."""
    cdef Event e = rs_expect(self, 0)
    if self.g.wdead or e.kind != shown.kind or e.actor != shown.actor or e.a != shown.a \
            or e.b != shown.b or e.c == shown.c:
        return
    self.g.wconf = imax(self.g.tcp[s], self.g.lcp[shown.a] if 0 <= shown.a <= MAXP else -1)
    self.g.wdead = 1

cdef void rs_set_face(GoldNuggetRules self, int s, int f) noexcept nogil:
    """Open stone s takes face f (forced by an observation, or drawn by the
    choice point ``self.wlast`` when the caller drew it)."""
    if f < 0 or f > 2:
        self.g.wdead = 1
        return
    if rs_face_weight(self, s, f) <= 0.0:
        rs_conflict(self, s, f)
        return
    self.g.face[s] = f
    self.g.frem[f] -= 1
    self.g.fcp[f] = imax(self.g.fcp[f], self.g.tcp[s])

cdef void rs_exclude(GoldNuggetRules self, int s, int f) noexcept nogil:
    """Open stone s is not the Gold Nugget (f = F_NUGGET) / not a trap."""
    if rs_face_weight(self, s, 3 if f == F_NUGGET else 4) <= 0.0:
        rs_conflict(self, s, 3 if f == F_NUGGET else 4)
        return
    if f == F_NUGGET:
        self.g.notnug |= 1u << s
    else:
        self.g.nottrap |= 1u << s
    self.g.xcp = imax(self.g.xcp, self.g.tcp[s])

cdef bint rs_is_nugget(GoldNuggetRules self, int s) noexcept nogil:
    """Accuse: is s the Gold Nugget?  An open stone decides only that, with
    its exact odds given the exclusions."""
    cdef double w[2]
    cdef int i
    if self.g.face[s] >= 0:
        return self.g.face[s] == F_NUGGET
    w[0] = rs_face_weight(self, s, 3)
    w[1] = rs_face_weight(self, s, F_NUGGET)
    i = rs_wchoose(self, 2, w)
    rs_touch(self, s)
    if i == 1:
        rs_set_face(self, s, F_NUGGET)
        return True
    if i == 0:
        self.g.notnug |= 1u << s
        self.g.xcp = imax(self.g.xcp, self.g.tcp[s])
    return False

cdef void rs_decide_trap(GoldNuggetRules self, int s, int forced) noexcept nogil:
    """Open stone s: trap or not (forced: 1/0 as the walking player saw;
    otherwise drawn with its exact odds given the exclusions)."""
    cdef double w[2]
    cdef int i = forced
    if forced < 0:
        w[0] = rs_face_weight(self, s, 4)
        w[1] = rs_face_weight(self, s, F_TRAP)
        i = rs_wchoose(self, 2, w)
        rs_touch(self, s)
    if i == 1:
        rs_set_face(self, s, F_TRAP)
    elif i == 0:
        rs_exclude(self, s, F_TRAP)

cdef void rs_settle_examined(GoldNuggetRules self, int s, int x, uint32_t see, bint traps) noexcept nogil:
    """An open stone examined by x: only what matters is decided."""
    cdef int P = self.wP
    cdef Event e = rs_expect(self, 0)
    if x == P or (traps and (see >> P) & 1 and self.g.abilities and not self.g.final
                  and self.g.animal[P] == A_RACCOON):
        if e.kind == EV_FACE:
            rs_set_face(self, s, e.c)
        else:
            self.g.wdead = 1
    elif traps:
        rs_decide_trap(self, s, (1 if e.kind == EV_TRAPSHOW else 0) if (see >> P) & 1 else -1)

cdef void rs_settle_revealed(GoldNuggetRules self, int s, uint32_t see) noexcept nogil:
    cdef Event e = rs_expect(self, 0)
    if (see >> self.wP) & 1:
        if e.kind == EV_REVEAL:
            rs_set_face(self, s, e.c)
        else:
            self.g.wdead = 1

cdef void rs_settle_grabbed(GoldNuggetRules self, int s) noexcept nogil:
    cdef Event e = rs_expect(self, 0)
    if e.kind == EV_GRABRES and e.secret == 1:
        rs_set_face(self, s, e.c)
    else:
        self.g.wdead = 1

cdef int rs_settle_query(GoldNuggetRules self, int a, uint32_t m) noexcept nogil:
    """Lazy Gold Nugget / Do I have it? answer while the nugget is open:
    yes with the exact odds that the nugget lies in m (or as the walking
    player saw); yes then places it on one stone of m by those odds."""
    cdef double w[MAXS]
    cdef double win = 0.0, wout = 0.0
    cdef double yn[2]
    cdef int ids[MAXS]
    cdef int t, nin = 0, yes, i
    cdef Event e
    for t in range(self.g.nstones):
        if self.g.face[t] < 0 and not ((self.g.notnug >> t) & 1):
            if (m >> t) & 1:
                ids[nin] = t
                w[nin] = rs_face_weight(self, t, F_NUGGET)
                win += w[nin]
                nin += 1
            else:
                wout += rs_face_weight(self, t, F_NUGGET)
    if a == self.wP:
        e = rs_expect(self, 0)
        yes = e.c if e.kind == EV_ANSWER else 0
    else:
        yn[0] = wout
        yn[1] = win
        yes = rs_wchoose(self, 2, yn)
        if yes < 0:
            return 0
        for t in range(self.g.nstones):
            if (m >> t) & 1:
                rs_touch(self, t)
    if yes:
        i = rs_wchoose(self, nin, w)
        if i >= 0:
            rs_touch(self, ids[i])
            rs_set_face(self, ids[i], F_NUGGET)
    else:
        if wout <= 0.0:
            self.g.wdead = 1
        for t in range(self.g.nstones):
            if self.g.face[t] < 0 and (m >> t) & 1:
                self.g.notnug |= 1u << t
                self.g.xcp = imax(self.g.xcp, self.g.tcp[t])
    return yes

cdef void rs_resolve_blank(GoldNuggetRules self, int p, int k) noexcept nogil:
    """In a walk: one of p's unknown cards turns out to be card k."""
    cdef int j
    if self.g.nblank[p] == 0 or self.g.pool[k] == 0:
        self.g.wdead = 1
        self.g.hand[p][k] += 1
        self.g.handn[p] += 1
        return
    self.resr.push_back(self.g.bq[p][0])
    self.resk.push_back(k)
    self.g.nres += 1
    for j in range(1, self.g.nblank[p]):
        self.g.bq[p][j - 1] = self.g.bq[p][j]
    self.g.nblank[p] -= 1
    self.g.pool[k] -= 1
    self.g.hand[p][k] += 1

cdef void rs_give_unknown(GoldNuggetRules self, int who, int a) noexcept nogil:
    """Beg in a walk: who gives a one of its unknown cards, which stays
    unknown (it keeps the draw it came from, so it gets its identity when it
    is revealed or at the end like any unknown card)."""
    cdef int j
    if self.g.nblank[who] == 0 or self.g.nblank[a] == MAXBL:
        self.g.wdead = 1
        return
    self.g.bq[a][self.g.nblank[a]] = self.g.bq[who][0]
    self.g.nblank[a] += 1
    for j in range(1, self.g.nblank[who]):
        self.g.bq[who][j - 1] = self.g.bq[who][j]
    self.g.nblank[who] -= 1
    self.g.handn[who] -= 1

cdef int rs_wchoose(GoldNuggetRules self, int n, double* w) noexcept nogil:
    """A choice point of the search: an index among n options drawn by
    weight (zero weights never); replayed after a backtrack, where the
    latest choice point takes the next option of its seeded order.  -1
    (and a dead walk) when no option has weight."""
    cdef WChoice c
    cdef int i, valid = 0, last = -1
    self.wlast = -1
    if self.g.wdead:
        return -1
    for i in range(n):
        if w[i] > 0.0:
            valid += 1
            last = i
    if valid == 0:
        self.g.wdead = 1
        return -1
    if valid == 1:
        return last                  # no choice: not a choice point
    if self.wrep < <int>self.wch.size():
        self.wlast = self.wrep
        self.wrep += 1
        return rs_nth(self, &self.wch[self.wlast], n, w)
    c.node = self.wnode
    c.seed = rng_next(self.wrng)
    c.pos = 0
    c.nvalid = valid
    c.drawn = 0
    c.last = -1
    c.coff = -1
    c.cn = n
    c.cbase = 0
    if self.wch.size() > 0:
        # keeping starts after the choice point below's (only the latest
        # choice point ever advances, so the ones below keep theirs)
        i = <int>self.wch.size() - 1
        c.cbase = self.wch[i].coff + self.wch[i].cn if self.wch[i].coff >= 0 \
            else self.wch[i].cbase
    self.wch.push_back(c)
    self.wlast = self.wrep
    self.wrep += 1
    return rs_nth(self, &self.wch[self.wch.size() - 1], n, w)


cdef int rs_nth(GoldNuggetRules self, WChoice* c, int n, double* w) noexcept nogil:
    """``nth_choice(c.seed, c.pos, n, w)`` (the same draws, the same
    option) without drawing the order again from its start: the last draw
    is kept, and once a later position is needed the weights left, the
    total and the generator's state are kept so the next position costs
    one draw."""
    cdef Rng r
    cdef double* left
    cdef double tot
    cdef int j, best = -1
    if c.drawn == c.pos + 1:
        return c.last
    if c.pos == 0:
        best = nth_choice(c.seed, 0, n, w)
        c.drawn = 1
        c.last = best
        return best
    if c.coff >= 0 and c.drawn == c.pos:
        left = &self.wcache[c.coff]
        r.s = c.crs
        tot = c.ctot
        j = c.pos
    else:
        c.coff = c.cbase
        if <int>self.wcache.size() < c.coff + n:
            self.wcache.resize(c.coff + n)
        left = &self.wcache[c.coff]
        r.s = c.seed
        tot = order_start(left, n, w)
        j = 0
    while j <= c.pos:
        best = order_draw(left, n, &r, &tot)
        if best < 0:
            break
        j += 1
    c.crs = r.s
    c.ctot = tot
    c.drawn = j
    c.last = best
    return best

