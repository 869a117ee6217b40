# cython: language_level=3
"""High Card: the template game's rules engine (N-card Kuhn poker, two seats).

Each seat antes 1 and is dealt one card of a ``deck``-card deck (chance:
seat 0's card, then seat 1's). Seat 0 passes or bets 1; after a pass seat 1
passes (showdown) or bets; after a bet the other seat passes (folds) or
bets (calls). At a showdown the higher card takes the pot. With
``deck=3`` this is Kuhn poker.

This file is the template of a new game's engine (``tests/test_template_game.py``
copies it into a scratch tree): the state is a few C fields, ``apply``
records the history, information keys come from ``observe_*``, and
``resample_history`` draws the hidden card exactly (uniform: the other
seat's moves are modelled as uniform, docs/architecture.md).
"""
import struct as _struct

from libc.string cimport memcpy
from libcpp.vector cimport vector

from src_cy.engine cimport CHANCE_PLAYER, TERMINAL_PLAYER, Engine, Rng, rng_int

cdef enum:
    A_PASS = 0
    A_BET = 1
    MAX_DECK = 13
    TOK_DEAL = 0x100
    TOK_CARD = 0x200
    TOK_MOVE = 0x400

ACTION_LAYOUT = {"pass": A_PASS, "bet": A_BET}
SNAPSHOT = _struct.Struct("<8b")


cdef class HighCardEngine(Engine):
    """The whole state: the deck size, the dealt cards and the moves."""
    cdef readonly int deck
    cdef int cards[2]
    cdef int moves[3]
    cdef int ndealt
    cdef int nmoves

    def __init__(self, int deck=3):
        if not 2 <= deck <= MAX_DECK:
            raise ValueError(f"deck={deck} is out of range; valid: 2..{MAX_DECK}")
        self.deck = deck
        self.num_players = 2
        self.game_string = f"high_card(deck={deck})"
        self.restart()

    cdef void restart(self) noexcept nogil:
        self.ndealt = 0
        self.nmoves = 0
        self.cards[0] = -1
        self.cards[1] = -1

    cdef bint _over(self) noexcept nogil:
        if self.nmoves == 2:
            return not (self.moves[0] == A_PASS and self.moves[1] == A_BET)
        return self.nmoves == 3

    cdef int current_player(self) noexcept nogil:
        if self.ndealt < 2:
            return CHANCE_PLAYER
        if self._over():
            return TERMINAL_PLAYER
        return self.nmoves % 2

    cdef int legal_actions(self, int* out) noexcept nogil:
        if self.current_player() < 0:
            return 0
        out[0] = A_PASS
        out[1] = A_BET
        return 2

    cdef int chance_outcomes(self, int* out, double* probs) noexcept nogil:
        cdef int c, k = 0
        if self.ndealt >= 2:
            return 0
        for c in range(self.deck):
            if self.ndealt == 0 or self.cards[0] != c:
                out[k] = c
                probs[k] = 1.0 / (self.deck - self.ndealt)
                k += 1
        return k

    cdef void do_apply(self, int action) noexcept nogil:
        if self.ndealt < 2:
            self.observe_public(TOK_DEAL + self.ndealt)
            self.observe_private(self.ndealt, TOK_CARD + action)
            self.cards[self.ndealt] = action
            self.ndealt += 1
        else:
            self.observe_public(TOK_MOVE + action)
            self.moves[self.nmoves] = action
            self.nmoves += 1

    cdef void returns(self, double* out) noexcept nogil:
        cdef int stake[2]
        cdef int i, winner
        out[0] = 0.0
        out[1] = 0.0
        if self.ndealt < 2 or not self._over():
            return
        stake[0] = 1
        stake[1] = 1
        for i in range(self.nmoves):
            if self.moves[i] == A_BET:
                stake[i % 2] += 1
        if self.moves[self.nmoves - 1] == A_PASS and self.moves[self.nmoves - 2] == A_BET:
            winner = self.nmoves % 2          # the seat that passed folded
        else:
            winner = 0 if self.cards[0] > self.cards[1] else 1
        out[winner] = stake[1 - winner]
        out[1 - winner] = -stake[1 - winner]

    cdef void resample_history(self, int player, Rng* rng, vector[int]* out) noexcept nogil:
        cdef int world[5]
        cdef int other = 1 - player, i, k, c
        world[0] = self.cards[0]
        world[1] = self.cards[1]
        for i in range(self.nmoves):
            world[2 + i] = self.moves[i]
        if other < self.ndealt:
            # the other seat's card: uniform over the cards ``player`` has not seen
            k = rng_int(rng, self.deck - 1) if player < self.ndealt else rng_int(rng, self.deck)
            c = 0
            while True:
                if player >= self.ndealt or c != self.cards[player]:
                    if k == 0:
                        break
                    k -= 1
                c += 1
            world[other] = c
        out.assign(world, world + self.ndealt + self.nmoves)

    cdef Engine clone(self):
        cdef HighCardEngine e = HighCardEngine(self.deck)
        e.copy_from(self)
        return e

    cdef void copy_from(self, Engine other) noexcept:
        cdef HighCardEngine o = <HighCardEngine>other
        self.copy_base(other)
        memcpy(self.cards, o.cards, sizeof(self.cards))
        memcpy(self.moves, o.moves, sizeof(self.moves))
        self.ndealt = o.ndealt
        self.nmoves = o.nmoves

    # ---- Python API for the adapter (games._adapter) and people ----
    def action_to_string(self, int player, int action) -> str:
        if player == CHANCE_PLAYER:
            return f"Deal {action}"
        return ("Pass", "Bet")[action]

    def _moves(self) -> str:
        return "".join("pb"[self.moves[i]] for i in range(self.nmoves))

    def info_string(self, int player) -> str:
        card = str(self.cards[player]) if player < self.ndealt else "?"
        return f"p{player} card={card} dealt={self.ndealt} moves={self._moves()}"

    def obs_string(self, int player) -> str:
        return self.info_string(player)

    def render(self) -> str:
        return f"cards={self.cards[0]},{self.cards[1]} moves={self._moves()}"

    def info_tensor_size(self) -> int:
        return MAX_DECK + 3 + 2 * 3

    def obs_tensor_size(self) -> int:
        return MAX_DECK + 3 + 2 * 3

    def fill_info_tensor(self, int player, out) -> None:
        """Own card (one-hot), cards dealt so far (one-hot 0..2), each move (one-hot)."""
        out[:] = 0
        if player < self.ndealt:
            out[self.cards[player]] = 1
        out[MAX_DECK + self.ndealt] = 1
        for i in range(self.nmoves):
            out[MAX_DECK + 3 + 2 * i + self.moves[i]] = 1

    def fill_obs_tensor(self, int player, out) -> None:
        self.fill_info_tensor(player, out)

    def player_view(self, int player):
        from src_cy.high_card.view import HighCardView
        return HighCardView(card=self.cards[player] if player < self.ndealt else None,
                            moves=tuple(self.moves[i] for i in range(self.nmoves)))

    def dump(self) -> bytes:
        return SNAPSHOT.pack(self.deck, self.ndealt, self.cards[0], self.cards[1],
                             self.nmoves, self.moves[0] if self.nmoves > 0 else -1,
                             self.moves[1] if self.nmoves > 1 else -1,
                             self.moves[2] if self.nmoves > 2 else -1)

    def load(self, data: bytes) -> None:
        """Restore a ``dump`` snapshot by replaying it (every action checked);
        a bad snapshot raises ``ValueError`` and changes nothing."""
        if not isinstance(data, bytes) or len(data) != SNAPSHOT.size:
            raise ValueError(f"snapshot must be {SNAPSHOT.size} bytes")
        deck, ndealt, c0, c1, nmoves, m0, m1, m2 = SNAPSHOT.unpack(data)
        if deck != self.deck or not 0 <= ndealt <= 2 or not 0 <= nmoves <= 3:
            raise ValueError("snapshot is not of this game or is corrupted")
        if nmoves and ndealt < 2:
            raise ValueError("snapshot has moves before the deal")
        trial = HighCardEngine(self.deck)
        for action in [c0, c1][:ndealt] + [m0, m1, m2][:nmoves]:
            if action not in trial.py_legal_actions() and action not in [
                    a for a, _ in trial.py_chance_outcomes()]:
                raise ValueError(f"snapshot holds an illegal action {action}")
            trial.py_apply(action)
        self.copy_from(trial)

    def check_invariants(self) -> None:
        if not 0 <= self.ndealt <= 2 or not 0 <= self.nmoves <= 3:
            raise ValueError("counters out of range")
        for i in range(self.ndealt):
            if not 0 <= self.cards[i] < self.deck:
                raise ValueError(f"card {self.cards[i]} outside the deck")
        if self.ndealt == 2 and self.cards[0] == self.cards[1]:
            raise ValueError("both seats hold the same card")
