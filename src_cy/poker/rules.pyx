# cython: language_level=3
"""Kuhn and Leduc poker rules kernels, identical to OpenSpiel's C++ games.

``KuhnRules`` mirrors ``kuhn_poker`` and ``LeducRules`` mirrors
``leduc_poker`` (default parameters: no action mapping, no suit isomorphism,
starting player 0): same action ids, chance outcomes and probabilities and
returns.  ``params`` is a ``PokerParams`` (shared by every engine of a game and
all their clones) or the mapping it takes.

Information keys are built from the events each player saw: every public
event goes through ``observe_public`` and each private card through
``observe_private``, so ``info_key(p)`` of two states is equal exactly when
OpenSpiel's ``information_state_string(p)`` is.  Both kernels keep their full
action history; the resampler (``resample.pyx``) re-deals the hidden cards and
replays the history, so the keys of every player in a resampled world are the
keys of the same information sets in an ordinary game.

The declarations are in ``rules.pxd``; the strings and tensors in
``render.pyx``, the snapshot and invariants in ``persist.pyx``; ``engine.pyx``
builds the engines (``KuhnEngine``, ``LeducEngine``) from them.
"""
from src_cy.engine cimport Engine, CHANCE_PLAYER, TERMINAL_PLAYER, ENGINE_MAX_PLAYERS
from src_cy.poker.actions cimport (KUHN_PASS, KUHN_BET, KUHN_NUM_ACTIONS, LEDUC_FOLD,
                                   LEDUC_CALL, LEDUC_RAISE)
from src_cy.poker.catalog cimport (INVALID_CARD, TOK_ACTION, TOK_ALL_DEALT, TOK_PUBLIC_CARD,
                                   TOK_RESULT, TOK_CARD, LEDUC_START_MONEY, LEDUC_MAX_RAISES)


cdef class PokerParams:
    """The parameters of one Kuhn or Leduc poker game, immutable: built once
    per game from a mapping with the one key ``players`` (2..10; the rules
    options these engines do not implement have no engine) and shared by
    every engine of that game and all their clones.  ValueError names a
    missing, unknown or out-of-range parameter."""

    def __init__(self, params):
        if set(params) != {"players"}:
            raise ValueError(f"poker engine parameters: missing "
                             f"{sorted({'players'} - set(params))}, unknown "
                             f"{sorted(set(params) - {'players'})}")
        players = params["players"]
        if isinstance(players, bool) or not isinstance(players, int) \
                or not 2 <= players <= ENGINE_MAX_PLAYERS:
            raise ValueError(f"players must be in [2, {ENGINE_MAX_PLAYERS}], got {players!r}")
        self.players = players


cdef PokerParams _poker_params(params):
    return params if isinstance(params, PokerParams) else PokerParams(params)


cdef class KuhnRules(Engine):
    """Kuhn poker's rules for 2..10 players: pass (0) / bet (1); deal actions
    are cards.  Its resampler is the base class's (the true history): the
    game's engine is ``KuhnEngine`` (``engine.pyx``), which adds
    ``resample.pyx``'s."""
    def __init__(self, params, str game_string="") -> None:
        self.params = _poker_params(params)
        players = self.params.players
        self.num_players = players
        self.game_string = game_string or ("kuhn_poker()" if players == 2
                                           else f"kuhn_poker(players={players})")
        self.d.n = players
        self.to_initial()

    cdef void restart(self) noexcept nogil:
        cdef int i
        self.d.hlen = 0
        self.d.first_bettor = -1
        self.d.winner = -1
        self.d.pot = self.d.n
        for i in range(self.d.n + 1):
            self.d.card_owner[i] = -1
        for i in range(self.d.n):
            self.d.ante[i] = 1
            self.ihash[i] = 0
        self.pubhash = 0

    cdef bint _did_bet(self, int p) noexcept nogil:
        cdef int fb = self.d.first_bettor
        if fb == -1:
            return False
        if p == fb:
            return True
        if p > fb:
            return self.d.hist[self.d.n + p] == KUHN_BET
        return self.d.hist[2 * self.d.n + p] == KUHN_BET

    cdef int current_player(self) noexcept nogil:
        if self.d.winner != -1:
            return TERMINAL_PLAYER
        if self.d.hlen < self.d.n:
            return CHANCE_PLAYER
        return self.d.hlen % self.d.n

    cdef bint is_terminal(self) noexcept nogil:
        return self.d.winner != -1

    cdef int legal_actions(self, int* out) noexcept nogil:
        out[0] = KUHN_PASS
        out[1] = KUHN_BET
        return KUHN_NUM_ACTIONS

    cdef int chance_outcomes(self, int* out, double* probs) noexcept nogil:
        cdef int c, k = 0
        cdef double p = 1.0 / (self.d.n + 1 - self.d.hlen)
        for c in range(self.d.n + 1):
            if self.d.card_owner[c] == -1:
                out[k] = c
                probs[k] = p
                k += 1
        return k

    cdef void do_apply(self, int action) noexcept nogil:
        cdef int n = self.d.n
        cdef int cur, nact, c, pl
        if self.d.hlen < n:
            self.d.card_owner[action] = self.d.hlen
            self.observe_private(self.d.hlen, TOK_CARD + action)
        else:
            cur = self.d.hlen % n
            if action == KUHN_BET:
                if self.d.first_bettor == -1:
                    self.d.first_bettor = cur
                self.d.pot += 1
                self.d.ante[cur] += 1
            self.observe_public(TOK_ACTION + action)
        self.d.hist[self.d.hlen] = action
        self.d.hlen += 1
        nact = self.d.hlen - n
        if self.d.first_bettor == -1 and nact == n:
            self.d.winner = self.d.card_owner[n]
            if self.d.winner == -1:
                self.d.winner = self.d.card_owner[n - 1]
        elif self.d.first_bettor != -1 and nact == n + self.d.first_bettor:
            c = n
            while c >= 0:
                pl = self.d.card_owner[c]
                if pl != -1 and self._did_bet(pl):
                    self.d.winner = pl
                    break
                c -= 1

    cdef void returns(self, double* out) noexcept nogil:
        cdef int p, bet
        for p in range(self.d.n):
            if self.d.winner == -1:
                out[p] = 0.0
            else:
                bet = 2 if self._did_bet(p) else 1
                out[p] = (self.d.pot - bet) if p == self.d.winner else -bet

    cdef void resample_history(self, int player, Rng* rng, vector[int]* out) noexcept nogil:
        """The kernel has no resampler: ``out`` is left empty (no world,
        never the true history); the final engine class overrides this."""
        out.clear()

    cdef Engine clone(self):
        cdef KuhnRules e = KuhnRules.__new__(KuhnRules)
        self.clone_into(e)
        return e

    cdef void clone_into(self, KuhnRules e) noexcept:
        """Make the fresh ``e`` (of any subclass) a copy of this state."""
        e.params = self.params
        e.copy_from(self)

    cdef void copy_from(self, Engine other) noexcept:
        self.copy_base(other)
        self.d = (<KuhnRules>other).d


cdef class LeducRules(Engine):
    """Leduc poker's rules for 2..10 players: fold (0) / call (1) / raise (2);
    deals are cards.  Its resampler is the base class's (the true history):
    the game's engine is ``LeducEngine`` (``engine.pyx``), which adds
    ``resample.pyx``'s."""
    def __init__(self, params, str game_string="") -> None:
        self.params = _poker_params(params)
        players = self.params.players
        self.num_players = players
        self.game_string = game_string or ("leduc_poker()" if players == 2
                                           else f"leduc_poker(players={players})")
        self.d.n = players
        self.d.total_cards = 2 * (players + 1)
        self.to_initial()

    cdef void restart(self) noexcept nogil:
        cdef int i
        self.d.cur = CHANCE_PLAYER
        self.d.num_calls = 0
        self.d.num_raises = 0
        self.d.round = 1
        self.d.stakes = 1
        self.d.pot = self.d.n
        self.d.public_card = INVALID_CARD
        self.d.deck_size = self.d.total_cards
        self.d.dealt = 0
        self.d.remaining = self.d.n
        self.d.terminal = False
        self.d.hlen = 0
        self.d.r1len = 0
        self.d.r2len = 0
        for i in range(self.d.n):
            self.d.priv[i] = INVALID_CARD
            self.d.ante[i] = 1
            self.d.folded[i] = False
            self.d.money[i] = LEDUC_START_MONEY - 1
            self.ihash[i] = 0
        for i in range(self.d.total_cards):
            self.d.deck[i] = i
        self.pubhash = 0

    cdef int _next_player(self) noexcept nogil:
        cdef int start, i, p
        start = self.d.n - 1 if self.d.cur == CHANCE_PLAYER else self.d.cur
        for i in range(1, self.d.n + 1):
            p = (start + i) % self.d.n
            if not self.d.folded[p]:
                return p
        return -1

    cdef bint _ready_for_next_round(self) noexcept nogil:
        return ((self.d.num_raises == 0 and self.d.num_calls == self.d.remaining) or
                (self.d.num_raises > 0 and self.d.num_calls == self.d.remaining - 1))

    cdef bint _check_terminal(self) noexcept nogil:
        return self.d.remaining == 1 or (self.d.round == 2 and self._ready_for_next_round())

    cdef int _rank(self, int p) noexcept nogil:
        cdef int a = self.d.public_card, b = self.d.priv[p], t
        cdef int nc = self.d.total_cards
        if a > b:
            t = a
            a = b
            b = t
        if a % 2 == 0 and b == a + 1:
            return nc * nc + a
        return (b // 2) * nc + (a // 2)

    cdef int _resolve_winner(self) noexcept nogil:
        """Pay the pot; return the bitmask of winners."""
        cdef int p, best = -1, r, nw = 0, mask = 0
        if self.d.remaining == 1:
            for p in range(self.d.n):
                if not self.d.folded[p]:
                    self.d.money[p] += self.d.pot
                    self.d.pot = 0
                    return 1 << p
        for p in range(self.d.n):
            if not self.d.folded[p]:
                r = self._rank(p)
                if r > best:
                    best = r
                    mask = 1 << p
                    nw = 1
                elif r == best:
                    mask |= 1 << p
                    nw += 1
        for p in range(self.d.n):
            if mask & (1 << p):
                self.d.money[p] += (<double>self.d.pot) / nw
        self.d.pot = 0
        return mask

    cdef void _ante(self, int p, int amount) noexcept nogil:
        self.d.pot += amount
        self.d.ante[p] += amount
        self.d.money[p] -= amount

    cdef void _append_move(self, int move) noexcept nogil:
        if self.d.round == 1:
            self.d.r1[self.d.r1len] = move
            self.d.r1len += 1
        else:
            self.d.r2[self.d.r2len] = move
            self.d.r2len += 1

    cdef void _after_bet(self) noexcept nogil:
        """Shared tail of fold/call: finish, next round, or next player."""
        if self._check_terminal():
            self.d.terminal = True
            self.observe_public(TOK_RESULT + self._resolve_winner())
        elif self._ready_for_next_round():
            self.d.round = 2
            self.d.num_raises = 0
            self.d.num_calls = 0
            self.d.cur = CHANCE_PLAYER
        else:
            self.d.cur = self._next_player()

    cdef int current_player(self) noexcept nogil:
        if self.d.terminal:
            return TERMINAL_PLAYER
        return self.d.cur

    cdef bint is_terminal(self) noexcept nogil:
        return self.d.terminal

    cdef int legal_actions(self, int* out) noexcept nogil:
        cdef int k = 0
        if self.d.stakes > self.d.ante[self.d.cur]:
            out[k] = LEDUC_FOLD
            k += 1
        out[k] = LEDUC_CALL
        k += 1
        if self.d.num_raises < LEDUC_MAX_RAISES:
            out[k] = LEDUC_RAISE
            k += 1
        return k

    cdef int chance_outcomes(self, int* out, double* probs) noexcept nogil:
        cdef int c, k = 0
        cdef double p = 1.0 / self.d.deck_size
        for c in range(self.d.total_cards):
            if self.d.deck[c] != -1:
                out[k] = c
                probs[k] = p
                k += 1
        return k

    cdef void do_apply(self, int move) noexcept nogil:
        cdef int card, cur, amount
        self.d.hist[self.d.hlen] = move
        self.d.hlen += 1
        if self.d.cur == CHANCE_PLAYER:
            card = self.d.deck[move]
            self.d.deck[move] = -1
            self.d.deck_size -= 1
            if self.d.dealt < self.d.n:
                self.d.priv[self.d.dealt] = card
                self.observe_private(self.d.dealt, TOK_CARD + card)
                self.d.dealt += 1
                if self.d.dealt == self.d.n:
                    self.d.cur = 0
                    self.observe_public(TOK_ALL_DEALT)
            else:
                self.d.public_card = card
                self.d.cur = self._next_player()
                self.observe_public(TOK_PUBLIC_CARD + card)
            return
        cur = self.d.cur
        self.observe_public(TOK_ACTION + move)
        if move == LEDUC_FOLD:
            self._append_move(LEDUC_FOLD)
            self.d.folded[cur] = True
            self.d.remaining -= 1
            self._after_bet()
        elif move == LEDUC_CALL:
            amount = self.d.stakes - self.d.ante[cur]
            self._ante(cur, amount)
            self.d.num_calls += 1
            self._append_move(LEDUC_CALL)
            self._after_bet()
        else:
            amount = self.d.stakes - self.d.ante[cur]
            if amount > 0:
                self._ante(cur, amount)
            amount = 2 if self.d.round == 1 else 4
            self.d.stakes += amount
            self._ante(cur, amount)
            self.d.num_raises += 1
            self.d.num_calls = 0
            self._append_move(LEDUC_RAISE)
            if self._check_terminal():
                self.d.terminal = True
                self.observe_public(TOK_RESULT + self._resolve_winner())
            else:
                self.d.cur = self._next_player()

    cdef void returns(self, double* out) noexcept nogil:
        cdef int p
        for p in range(self.d.n):
            out[p] = (self.d.money[p] - LEDUC_START_MONEY) if self.d.terminal else 0.0

    cdef void resample_history(self, int player, Rng* rng, vector[int]* out) noexcept nogil:
        """The kernel has no resampler: ``out`` is left empty (no world,
        never the true history); the final engine class overrides this."""
        out.clear()

    cdef Engine clone(self):
        cdef LeducRules e = LeducRules.__new__(LeducRules)
        self.clone_into(e)
        return e

    cdef void clone_into(self, LeducRules e) noexcept:
        """Make the fresh ``e`` (of any subclass) a copy of this state."""
        e.params = self.params
        e.copy_from(self)

    cdef void copy_from(self, Engine other) noexcept:
        self.copy_base(other)
        self.d = (<LeducRules>other).d
