# cython: language_level=3
"""Two tiny engines that exercise ISMCTS independently of the real games.

``MiniPokerEngine``: two players, a deck of four cards, one private card
each, Kuhn betting (pass 0 / bet 1, ante 1); ``resample`` re-deals the
opponent's card and replays the history.  ``TicTacToeEngine``: perfect
information, so ``resample`` leaves the world as it is.  Test-only: built
by ``tests/testgames.py``, which registers both with pyspiel
(``ismcts_test_minipoker``, ``ismcts_test_tictactoe``).
"""
from libc.string cimport memcpy
from libcpp.vector cimport vector

from src_cy.engine cimport (Engine, Rng, rng_int, CHANCE_PLAYER, TERMINAL_PLAYER)

cdef enum:
    TOK_CARD = 0x1000
    TOK_ACT = 0x100
    DECK = 4


cdef class MiniPokerEngine(Engine):
    """Two-player four-card Kuhn poker (history: 2 deals then 2-3 bets)."""
    cdef int hist[8]
    cdef int hlen

    def __init__(self):
        self.num_players = 2
        self.game_string = "ismcts_test_minipoker()"
        self.hlen = 0

    cdef int current_player(self) noexcept nogil:
        if self.hlen < 2:
            return CHANCE_PLAYER
        if self._terminal():
            return TERMINAL_PLAYER
        return self.hlen % 2

    cdef bint _terminal(self) noexcept nogil:
        if self.hlen == 4:
            return not (self.hist[2] == 0 and self.hist[3] == 1)
        return self.hlen == 5

    cdef int legal_actions(self, int* out) noexcept nogil:
        out[0] = 0
        out[1] = 1
        return 2

    cdef int chance_outcomes(self, int* out, double* probs) noexcept nogil:
        cdef int c, k = 0
        for c in range(DECK):
            if self.hlen == 0 or self.hist[0] != c:
                out[k] = c
                probs[k] = 1.0 / (DECK - self.hlen)
                k += 1
        return k

    cdef void do_apply(self, int action) noexcept nogil:
        if self.hlen < 2:
            self.observe_public(TOK_CARD)
            self.observe_private(self.hlen, TOK_CARD + action)
        else:
            self.observe_public(TOK_ACT + action)
        self.hist[self.hlen] = action
        self.hlen += 1

    cdef void returns(self, double* out) noexcept nogil:
        cdef int win, stake
        out[0] = 0.0
        out[1] = 0.0
        if not self._terminal():
            return
        if self.hlen == 4 and self.hist[2] == 1 and self.hist[3] == 0:
            win, stake = 0, 1
        elif self.hlen == 5 and self.hist[4] == 0:
            win, stake = 1, 1
        else:
            win = 0 if self.hist[0] > self.hist[1] else 1
            stake = 2 if (self.hist[self.hlen - 1] == 1) else 1
        out[win] = stake
        out[1 - win] = -stake

    cdef void restart(self) noexcept nogil:
        self.hlen = 0

    cdef void resample_history(self, int player, Rng* rng, vector[int]* out) noexcept nogil:
        cdef int hist[8]
        cdef int hlen = self.hlen, other = 1 - player, c, k, i
        memcpy(hist, self.hist, sizeof(hist))
        if other < hlen:
            k = rng_int(rng, DECK - 1) if player < hlen else rng_int(rng, DECK)
            c = 0
            while True:
                if player >= hlen or c != hist[player]:
                    if k == 0:
                        break
                    k -= 1
                c += 1
            hist[other] = c
        out.assign(hist, hist + hlen)

    cdef Engine clone(self):
        cdef MiniPokerEngine e = MiniPokerEngine()
        e.copy_from(self)
        return e

    cdef void copy_from(self, Engine other) noexcept:
        cdef MiniPokerEngine o = <MiniPokerEngine>other
        self.copy_base(other)
        memcpy(self.hist, o.hist, sizeof(self.hist))
        self.hlen = o.hlen

    def info_string(self, int player) -> str:
        card = str(self.hist[player]) if player < self.hlen else "?"
        bets = "".join("pb"[self.hist[i]] for i in range(2, self.hlen))
        return f"p{player} card={card} dealt={min(self.hlen, 2)} bets={bets}"

    def obs_string(self, int player) -> str:
        return self.info_string(player)

    def action_to_string(self, int player, int action) -> str:
        return f"deal{action}" if player == CHANCE_PLAYER else "pb"[action]

    def render(self) -> str:
        return " ".join(str(self.hist[i]) for i in range(self.hlen))

    def info_tensor_size(self) -> int:
        return 1

    def obs_tensor_size(self) -> int:
        return 1

    def fill_info_tensor(self, int player, out) -> None:
        pass

    def fill_obs_tensor(self, int player, out) -> None:
        pass

    def dump(self) -> bytes:
        return bytes([self.hist[i] for i in range(self.hlen)])

    def check_invariants(self) -> None:
        assert self.hlen <= 5, "history too long"


cdef class TicTacToeEngine(Engine):
    """Tic-tac-toe; actions are cells 0..8, x (player 0) moves first."""
    cdef int board[9]
    cdef int moves
    cdef int winner
    cdef int hist[9]

    def __init__(self):
        cdef int i
        self.num_players = 2
        self.game_string = "ismcts_test_tictactoe()"
        for i in range(9):
            self.board[i] = -1
        self.moves = 0
        self.winner = -1

    cdef void restart(self) noexcept nogil:
        cdef int i
        for i in range(9):
            self.board[i] = -1
        self.moves = 0
        self.winner = -1

    def set_position(self, moves) -> "TicTacToeEngine":
        """Apply a sequence of cells (checked)."""
        for m in moves:
            self.py_apply(int(m))
        return self

    cdef int current_player(self) noexcept nogil:
        if self.winner >= 0 or self.moves == 9:
            return TERMINAL_PLAYER
        return self.moves % 2

    cdef int legal_actions(self, int* out) noexcept nogil:
        cdef int i, k = 0
        for i in range(9):
            if self.board[i] < 0:
                out[k] = i
                k += 1
        return k

    cdef void do_apply(self, int action) noexcept nogil:
        cdef int p = self.moves % 2
        cdef int lines[24]
        cdef int i
        lines[:] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 3, 6, 1, 4, 7, 2, 5, 8, 0, 4, 8, 2, 4, 6]
        self.board[action] = p
        self.hist[self.moves] = action
        self.moves += 1
        self.observe_public(<unsigned long long>(action + 1))
        for i in range(8):
            if (self.board[lines[3 * i]] == p and self.board[lines[3 * i + 1]] == p
                    and self.board[lines[3 * i + 2]] == p):
                self.winner = p

    cdef void returns(self, double* out) noexcept nogil:
        out[0] = 0.0
        out[1] = 0.0
        if self.winner >= 0:
            out[self.winner] = 1.0
            out[1 - self.winner] = -1.0

    cdef Engine clone(self):
        cdef TicTacToeEngine e = TicTacToeEngine()
        e.copy_from(self)
        return e

    cdef void copy_from(self, Engine other) noexcept:
        cdef TicTacToeEngine o = <TicTacToeEngine>other
        self.copy_base(other)
        memcpy(self.board, o.board, sizeof(self.board))
        memcpy(self.hist, o.hist, sizeof(self.hist))
        self.moves = o.moves
        self.winner = o.winner

    def info_string(self, int player) -> str:
        return ",".join(str(self.hist[i]) for i in range(self.moves))

    def obs_string(self, int player) -> str:
        return self.info_string(player)

    def action_to_string(self, int player, int action) -> str:
        return f"cell{action}"

    def render(self) -> str:
        return "".join(".xo"[self.board[i] + 1] for i in range(9))

    def info_tensor_size(self) -> int:
        return 1

    def obs_tensor_size(self) -> int:
        return 1

    def fill_info_tensor(self, int player, out) -> None:
        pass

    def fill_obs_tensor(self, int player, out) -> None:
        pass

    def dump(self) -> bytes:
        return bytes([self.hist[i] for i in range(self.moves)])

    def check_invariants(self) -> None:
        assert 0 <= self.moves <= 9, "bad move count"


# Chance outcomes of MiniPokerEngine (for the pyspiel GameInfo).
DECK_SIZE = DECK
