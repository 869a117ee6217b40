# cython: language_level=3
"""Base class of all rules engines; see ``engine.pxd`` for the contract."""
from libc.math cimport INFINITY
from libc.string cimport memcpy

from src_cy.clock cimport clock_now

from numbers import Integral, Real

import numpy as np


class ResampleOutOfTime(TimeoutError):
    """A resample stopped at its deadline before it found a world (only
    resamplers with an unbounded tail stop: Gold Nugget's walks).  No world
    is returned, so no hidden fact leaks; the caller decides what to do
    (``solvers.ismcts``: search the worlds drawn so far, or play the
    fallback move)."""


def clock(bint cpu=True) -> float:
    """Now, in seconds, on the clock deadlines use: the process's CPU time
    (``cpu``, as ``time.process_time()``) or monotonic wall time."""
    return clock_now(cpu)


cdef inline void _set_deadline(Engine e, deadline, bint cpu):
    e.resample_deadline.at = INFINITY if deadline is None else float(deadline)
    e.resample_deadline.cpu = cpu


cdef Engine _resample_in(Engine world, int player, seed, deadline, bint cpu,
                         const vector[int]* prev=NULL):
    """``world`` (a copy of the state to resample) becomes a world drawn for
    `player` (``py_resample`` and ``py_resample_into``; ``prev``: as
    ``resample_next``); ``ResampleOutOfTime`` when the resampler reached
    ``deadline``."""
    cdef Rng rng
    rng.s = <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF)
    _set_deadline(world, deadline, cpu)
    world.resample_status = RESAMPLE_OK
    world.resample_next(player, &rng, prev)
    world.resample_deadline.at = INFINITY
    if world.resample_status != RESAMPLE_OK:
        raise ResampleOutOfTime(f"resample for player {player} reached its deadline")
    return world


cdef void _check_same_game(Engine engine, Engine other, str what) except *:
    """ValueError unless ``other`` is an engine of ``engine``'s class and game."""
    if type(other) is not type(engine) or other.game_string != engine.game_string:
        raise ValueError(f"{what} needs an engine of the same game "
                         f"({engine.game_string}), got {type(other).__name__} "
                         f"({getattr(other, 'game_string', None)})")


cdef inline int _draw(const int* outs, const double* probs, int n, Rng* rng) noexcept nogil:
    """One of the ``n`` outcomes ``outs`` at odds ``probs``, in their order:
    one ``rng_double`` against the running sum."""
    cdef double u = rng_double(rng)
    cdef double acc = 0.0
    cdef int i
    for i in range(n - 1):
        acc += probs[i]
        if u < acc:
            return outs[i]
    return outs[n - 1]


cdef class Engine:
    """Abstract rules engine.  Subclasses implement every ``cdef`` method."""

    def __cinit__(self, *args, **kwargs):
        self.resample_deadline.at = INFINITY
        self.resample_deadline.cpu = True
        self.resample_status = RESAMPLE_OK
        self.quiet = False

    cdef int current_player(self) noexcept nogil:
        return TERMINAL_PLAYER

    cdef bint is_terminal(self) noexcept nogil:
        return self.current_player() == TERMINAL_PLAYER

    cdef int legal_actions(self, int* out) noexcept nogil:
        return 0

    cdef int chance_outcomes(self, int* out, double* probs) noexcept nogil:
        return 0

    cdef void do_apply(self, int action) noexcept nogil:
        pass

    cdef void restart(self) noexcept nogil:
        pass

    cdef void to_initial(self) noexcept nogil:
        """The initial state: empty history, empty information, game restarted."""
        cdef int p
        self.quiet = False
        self.hist.clear()
        self.pubhash = 0
        for p in range(ENGINE_MAX_PLAYERS):
            self.ihash[p] = 0
        self.restart()

    cdef void replay(self, const int* actions, int n) noexcept nogil:
        """Restart and apply `actions` (unchecked: they must form a history)."""
        cdef int i
        self.to_initial()
        for i in range(n):
            self.apply(actions[i])

    cdef void resample_history(self, int player, Rng* rng, vector[int]* out) noexcept nogil:
        # Perfect information: the only world is this one.  Engines override;
        # they may use `self` as scratch space (``resample`` replays after).
        out[0] = self.hist

    cdef void resample_history_from(self, int player, Rng* rng, const vector[int]* prev,
                                    vector[int]* out) noexcept nogil:
        # Engines without a chain draw afresh (same draws as resample_history).
        self.resample_history(player, rng, out)

    cdef void draw_history_on(self, Engine scratch, int player, Rng* rng,
                              const vector[int]* prev, vector[int]* out) noexcept nogil:
        scratch.resample_history_from(player, rng, prev, out)

    cdef void returns(self, double* out) noexcept nogil:
        cdef int i
        for i in range(self.num_players):
            out[i] = 0.0

    cdef void resample(self, int player, Rng* rng) noexcept nogil:
        """In place: become the world reached by a history drawn from
        `player`'s information set (``resample_history``), replayed.  If the
        resampler stopped at ``resample_deadline`` (``resample_status`` is
        then ``RESAMPLE_OUT_OF_TIME``) the engine is scratch: discard it."""
        cdef vector[int] h
        self.resample_status = RESAMPLE_OK
        self.resample_history(player, rng, &h)
        if self.resample_status == RESAMPLE_OK:
            self.replay(h.data(), <int>h.size())

    cdef void resample_next(self, int player, Rng* rng, const vector[int]* prev) noexcept nogil:
        """As ``resample``, the history drawn by ``resample_history_from``
        with ``prev`` (the last world drawn for this information set, or
        NULL): the search's next world.  By default exactly ``resample``."""
        self.resample(player, rng)

    cdef Engine clone(self):
        raise NotImplementedError

    cdef void copy_from(self, Engine other) noexcept:
        self.copy_base(other)

    cdef uint64_t info_key(self, int player) noexcept nogil:
        return mix64(self.ihash[player], <uint64_t>(player + 1))

    cdef int sample_chance(self, Rng* rng) noexcept nogil:
        cdef int outs[MAX_BRANCHING]
        cdef double probs[MAX_BRANCHING]
        cdef int n = self.chance_outcomes(outs, probs)
        return _draw(outs, probs, n, rng)

    cdef int sample_chance_sorted(self, Rng* rng) noexcept nogil:
        """A chance outcome: one ``rng_double`` against the outcomes
        sorted by id, their odds summed in that order."""
        cdef int outs[MAX_BRANCHING]
        cdef double probs[MAX_BRANCHING]
        cdef int n = self.chance_outcomes(outs, probs)
        cdef int i, j, x
        cdef double p
        i = 1
        while i < n and outs[i - 1] <= outs[i]:
            i += 1
        for i in range(i, n):
            x = outs[i]
            p = probs[i]
            j = i - 1
            while j >= 0 and outs[j] > x:
                outs[j + 1] = outs[j]
                probs[j + 1] = probs[j]
                j -= 1
            outs[j + 1] = x
            probs[j + 1] = p
        return _draw(outs, probs, n, rng)

    cdef int sample_uniform_legal(self, Rng* rng) noexcept nogil:
        """A legal action: one ``rng_int(n)`` indexing the ``n`` legal
        actions sorted."""
        cdef int acts[MAX_BRANCHING]
        cdef int n = self.legal_actions(acts)
        sort_ints(acts, n)
        return acts[rng_int(rng, n)]

    cdef bint is_legal(self, int action) noexcept nogil:
        cdef int outs[MAX_BRANCHING]
        cdef double probs[MAX_BRANCHING]
        cdef int n, i
        if self.is_terminal():
            return False
        if self.current_player() == CHANCE_PLAYER:
            n = self.chance_outcomes(outs, probs)
        else:
            n = self.legal_actions(outs)
        for i in range(n):
            if outs[i] == action:
                return True
        return False

    cdef void copy_base(self, Engine other) noexcept:
        self.quiet = False
        self.num_players = other.num_players
        self.game_string = other.game_string
        self.pubhash = other.pubhash
        memcpy(self.ihash, other.ihash, sizeof(self.ihash))
        self.hist = other.hist

    # ------------------------------------------------------------------
    # Python-facing wrappers (checked; used by adapters and tests).
    # ------------------------------------------------------------------
    def py_current_player(self) -> int:
        """Player to move, -1 for chance, -4 when terminal."""
        return self.current_player()

    def py_is_terminal(self) -> bool:
        return bool(self.is_terminal())

    def py_legal_actions(self) -> list:
        """Legal actions of the player to move, ascending; [] at chance/terminal."""
        cdef int outs[MAX_BRANCHING]
        cdef int n
        if self.is_terminal() or self.current_player() == CHANCE_PLAYER:
            return []
        n = self.legal_actions(outs)
        return sorted(outs[i] for i in range(n))

    def py_chance_outcomes(self) -> list:
        """(outcome, probability) pairs at a chance node, ascending by outcome."""
        cdef int outs[MAX_BRANCHING]
        cdef double probs[MAX_BRANCHING]
        cdef int n
        if self.is_terminal() or self.current_player() != CHANCE_PLAYER:
            return []
        n = self.chance_outcomes(outs, probs)
        return sorted((outs[i], probs[i]) for i in range(n))

    def py_apply(self, int action) -> None:
        """Apply `action`; raise ValueError (state unchanged) if it is illegal."""
        if self.is_terminal():
            raise ValueError(f"cannot apply action {action}: the game is over")
        if not self.is_legal(action):
            who = self.current_player()
            legal = ([a for a, _ in self.py_chance_outcomes()] if who == CHANCE_PLAYER
                     else self.py_legal_actions())
            raise ValueError(
                f"illegal action {action} for player {who}; legal actions: {legal}")
        self.apply(action)

    def replay_checked(self, actions, str message) -> None:
        """Restart and apply ``actions``, each checked (``py_apply``): how a
        snapshot's history is loaded.  On an illegal action the state is put
        back as it was and ``ValueError(f"{message}: <reason>")`` is raised."""
        old = [a for a in self.hist]
        self.to_initial()
        try:
            for a in actions:
                self.py_apply(a)
        except ValueError as exc:
            self.to_initial()
            for a in old:
                self.apply(a)
            raise ValueError(f"{message}: {exc}") from None

    def py_returns(self) -> list:
        cdef double out[ENGINE_MAX_PLAYERS]
        self.returns(out)
        return [out[i] for i in range(self.num_players)]

    def py_history(self) -> list:
        """Every action applied since the initial state (chance outcomes too)."""
        return [a for a in self.hist]

    def py_resample_history(self, int player, seed, deadline=None,
                            bint cpu=True) -> list:
        """A history drawn from `player`'s information set; replays to a world.
        ``deadline``: an absolute time on :func:`clock` (``cpu``: which clock)
        at which a resampler with an unbounded tail gives up and raises
        :class:`ResampleOutOfTime`."""
        return Engine.py_resample_history_from(self, player, seed, None, deadline, cpu)

    def py_resample_history_from(self, int player, seed, prev, deadline=None,
                                 bint cpu=True) -> list:
        """As :meth:`py_resample_history`, continuing from ``prev``, the last
        history drawn for this information set (None or empty: none; never
        the true history), where the engine chains worlds (Gold Nugget, Gold Thief:
        ``set_resample_chain``); other engines ignore ``prev``."""
        cdef Rng rng
        cdef vector[int] h, pv
        if not 0 <= player < self.num_players:
            raise ValueError(f"player must be in [0, {self.num_players - 1}], got {player}")
        if prev is not None:
            for a in prev:
                pv.push_back(int(a))
        rng.s = <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF)
        cdef Engine scratch = self.clone()
        _set_deadline(scratch, deadline, cpu)
        scratch.resample_status = RESAMPLE_OK
        self.draw_history_on(scratch, player, &rng, &pv, &h)
        if scratch.resample_status != RESAMPLE_OK:
            raise ResampleOutOfTime(f"resample for player {player} reached its deadline")
        return [a for a in h]

    def py_clone(self) -> "Engine":
        return self.clone()

    def py_copy_from(self, Engine other) -> None:
        """Make this engine the same state as ``other`` in place (the copy
        the search does into its scratch engine); ValueError, this engine
        unchanged, unless ``other`` is an engine of the same class and game."""
        _check_same_game(self, other, "py_copy_from")
        self.copy_from(other)

    def py_info_key(self, int player) -> int:
        """64-bit perfect-recall information key of `player` (see docs)."""
        if not 0 <= player < self.num_players:
            raise ValueError(f"player must be in [0, {self.num_players - 1}], got {player}")
        return self.info_key(player)

    def py_resample(self, int player, seed, deadline=None, bint cpu=True) -> "Engine":
        """A copy of this world with everything hidden from `player` re-dealt
        (``deadline``, ``cpu``: as :meth:`py_resample_history`)."""
        if not 0 <= player < self.num_players:
            raise ValueError(f"player must be in [0, {self.num_players - 1}], got {player}")
        return _resample_in(self.clone(), player, seed, deadline, cpu)

    def py_resample_into(self, Engine world, int player, seed, deadline=None,
                         bint cpu=True, bint chain=False) -> "Engine":
        """As :meth:`py_resample`, drawn into ``world``, an engine of the same
        class and game that the caller keeps: no engine is allocated per
        world and the resampler's work space stays warm (the path ISMCTS
        takes with its scratch engine).  Returns ``world``.  ValueError, and
        nothing changed, if ``world`` is this engine or of another game, or
        ``player`` is out of range; after ``ResampleOutOfTime`` the contents
        of ``world`` are unspecified (no hidden fact of this state is
        readable from it as a world).  ``chain``: ``world`` holds the last
        world this method drew for this information set (never a copy of
        the true state), and the new one continues from it where the engine
        chains worlds (``resample_next``; Gold Nugget, Gold Thief: ``set_resample_chain``)."""
        cdef vector[int] prev
        if not 0 <= player < self.num_players:
            raise ValueError(f"player must be in [0, {self.num_players - 1}], got {player}")
        if world is self:
            raise ValueError("py_resample_into needs another engine than this one as world")
        _check_same_game(self, world, "py_resample_into")
        if chain:
            prev = world.hist
        world.copy_from(self)
        return _resample_in(world, player, seed, deadline, cpu, &prev)

    def py_search_draw(self, rng_state) -> tuple:
        """A search's draw here (``sample_chance_sorted`` at a chance node,
        ``sample_uniform_legal`` at a decision) from a splitmix64 stream at
        ``rng_state``: ``(action, new rng state)``; ValueError at a
        terminal state."""
        cdef Rng rng
        cdef int a
        if self.is_terminal():
            raise ValueError("py_search_draw needs a chance or decision node, "
                             "the state is terminal")
        rng.s = <uint64_t>(int(rng_state) & 0xFFFFFFFFFFFFFFFF)
        if self.current_player() == CHANCE_PLAYER:
            a = self.sample_chance_sorted(&rng)
        else:
            a = self.sample_uniform_legal(&rng)
        return a, rng.s

    def random_playout(self, seed) -> list:
        """Play uniformly at random to the end (chance by its odds); returns."""
        cdef Rng rng
        cdef int outs[MAX_BRANCHING]
        cdef int n
        rng.s = <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF)
        while not self.is_terminal():
            if self.current_player() == CHANCE_PLAYER:
                self.apply(self.sample_chance(&rng))
            else:
                n = self.legal_actions(outs)
                self.apply(outs[rng_int(&rng, n)])
        return self.py_returns()

    def __reduce__(self):
        return (_unpickle_engine, (self.game_string, self.dump()))

    def __deepcopy__(self, memo):
        return self.clone()

    def __copy__(self):
        return self.clone()


def check_chain_settings(steps, refresh, int max_steps) -> None:
    """Validate an engine's ``set_resample_chain(steps, refresh)`` (None:
    kept): ``steps`` an int in [0, ``max_steps``], ``refresh`` a number in
    [0, 1]; ValueError naming the setting and its range otherwise."""
    if steps is not None and (isinstance(steps, bool) or not isinstance(steps, Integral)
                              or not 0 <= steps <= max_steps):
        raise ValueError(f"steps must be an int in [0, {max_steps}] (0: no chaining), "
                         f"got {steps!r}")
    if refresh is not None and (not isinstance(refresh, Real) or not 0.0 <= refresh <= 1.0):
        raise ValueError(f"refresh must be a number in [0, 1], got {refresh!r}")


def random_playouts(Engine proto, int n, seed) -> np.ndarray:
    """Run `n` uniform random playouts from clones of `proto`; sum of returns.

    Entirely C-level per step: the benchmark of raw engine speed.
    """
    cdef Rng rng
    cdef int outs[MAX_BRANCHING]
    cdef double ret[ENGINE_MAX_PLAYERS]
    cdef int k, m, i
    cdef Engine e = proto.clone()
    total = np.zeros(proto.num_players)
    cdef double[:] tot = total
    rng.s = <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF)
    for k in range(n):
        e.copy_from(proto)
        while not e.is_terminal():
            if e.current_player() == CHANCE_PLAYER:
                e.apply(e.sample_chance(&rng))
            else:
                m = e.legal_actions(outs)
                e.apply(outs[rng_int(&rng, m)])
        e.returns(ret)
        for i in range(proto.num_players):
            tot[i] += ret[i]
    return total


def playout_trace(Engine proto, seed, bint quiet=False) -> tuple:
    """A uniform random playout (chance by its odds) from a clone of
    `proto`, in rollout mode (``quiet``, as ISMCTS rollouts) or not:
    ``(actions, legal, chance, returns)`` with every action applied, the
    sorted legal actions at each decision, the sorted (outcome, probability)
    pairs at each chance node and the final returns.  Rollout mode must not
    change any of them (tests); the quiet clone is thrown away."""
    cdef Rng rng
    cdef int outs[MAX_BRANCHING]
    cdef double probs[MAX_BRANCHING]
    cdef double ret[ENGINE_MAX_PLAYERS]
    cdef int n, i, a
    cdef Engine e = proto.clone()
    rng.s = <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF)
    e.quiet = quiet
    actions, legal, chance = [], [], []
    while not e.is_terminal():
        if e.current_player() == CHANCE_PLAYER:
            n = e.chance_outcomes(outs, probs)
            chance.append(sorted((outs[i], probs[i]) for i in range(n)))
            a = e.sample_chance(&rng)
        else:
            n = e.legal_actions(outs)
            legal.append(sorted(outs[i] for i in range(n)))
            a = outs[rng_int(&rng, n)]
        e.apply(a)
        actions.append(a)
    e.returns(ret)
    return actions, legal, chance, [ret[i] for i in range(e.num_players)]


def rng_stream(seed, int n, int bound=0) -> list:
    """The first `n` draws of the C generator (``src_cy/rng.pxd``) seeded `seed`.

    ``bound`` 0: 64-bit outputs (``rng_next``); -1: doubles (``rng_double``);
    b > 0: integers in [0, b) (``rng_int``).  The reference for the Python
    twin ``src_cy.rng.SplitMix64``.
    """
    cdef Rng rng
    cdef int k
    if n < 0 or bound < -1:
        raise ValueError(f"need n >= 0 and bound >= -1, got n={n}, bound={bound}")
    rng.s = <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF)
    out = []
    for k in range(n):
        if bound == 0:
            out.append(rng_next(&rng))
        elif bound == -1:
            out.append(rng_double(&rng))
        else:
            out.append(rng_int(&rng, bound))
    return out


def clone_loop(Engine proto, int n) -> None:
    """Clone `proto` n times at C level (benchmark of allocation + copy)."""
    cdef int k
    cdef Engine e
    for k in range(n):
        e = proto.clone()


def copy_loop(Engine proto, int n) -> None:
    """Copy `proto` into one scratch engine n times (no allocation)."""
    cdef int k
    cdef Engine e = proto.clone()
    for k in range(n):
        e.copy_from(proto)


def apply_loop(Engine proto, int n, seed) -> int:
    """Apply n random actions, restarting from `proto` at terminals; returns games finished."""
    cdef Rng rng
    cdef int outs[MAX_BRANCHING]
    cdef int k, m, games = 0
    cdef Engine e = proto.clone()
    rng.s = <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF)
    for k in range(n):
        if e.is_terminal():
            e.copy_from(proto)
            games += 1
        if e.current_player() == CHANCE_PLAYER:
            e.apply(e.sample_chance(&rng))
        else:
            m = e.legal_actions(outs)
            e.apply(outs[rng_int(&rng, m)])
    return games


def legal_loop(Engine e, int n) -> int:
    """Generate the legal moves of `e` n times (move-generation benchmark)."""
    cdef int outs[MAX_BRANCHING]
    cdef int k, m = 0
    for k in range(n):
        m = e.legal_actions(outs)
    return m


def _unpickle_engine(game_string, snapshot):
    """Rebuild a pickled engine from its game string and snapshot.

    The game must be registered with pyspiel in the unpickling process
    (``import games`` does that); the engine layer imports nothing from
    ``games`` or ``solvers``.
    """
    import pyspiel
    engine = pyspiel.load_game(game_string).make_engine()
    engine.load(snapshot)
    engine.check_invariants()
    return engine
