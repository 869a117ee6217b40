# cython: language_level=3
"""Information-Set MCTS (Cowling, Powley & Whitehouse 2012) on Cython engines.

One call of :func:`search` runs SO-ISMCTS or MO-ISMCTS from a root engine
for the player to move there.  Every iteration copies a determinization
(a world drawn by ``Engine.resample`` for the root player) into a scratch
engine, descends with UCB1 over the actions available in that world
(availability counts), adds one node, rolls out and backs up.  Nodes live in
an open-addressing hash table keyed by 64-bit information keys; edges in one
flat C++ vector.  No Python object is touched per node or per rollout step.
A rollout runs its world in rollout mode (``Engine.quiet``): no information
keys or event logs are kept past the tree, where nothing reads them.

Randomness comes from one splitmix64 stream seeded by ``seed``, consumed in a
fixed order that ``solvers/ismcts.py`` reproduces on pyspiel states (the
slow path), so both paths give identical results on goldspiel games:

* world sampling: ``ws = next()``; the world is ``resample_next(player,
  Rng(ws), prev)``, ``prev`` the search's last world (none for the first):
  an engine that chains worlds (Gold Nugget, Gold Thief) moves on from it, the others
  draw as ``resample`` does (with ``cached_worlds = K > 0``: K independent
  worlds up front, each ``resample(player, Rng(ws))``, never chained: a
  pool is there for K distinct worlds; then ``int(K)`` per iteration picks
  one);
* chance nodes: one ``double()`` against the outcomes sorted by action;
* untried actions: ``int(#untried)`` indexes them in ascending order;
* UCB1 ties go to the lowest action; rollouts: ``int(n)`` over the sorted
  legal actions (or the ``RolloutPolicy``).

A ``RolloutPolicy`` may end a rollout early with its ``leaf_value`` (a
static evaluation, e.g. after a fixed number of rollout decisions); the
values it gives are backed up instead of the terminal returns.

MAST (``mast=eps``, off by default; Move-Average Sampling Technique, Finnsson
& Björnsson 2008, used with ISMCTS by Powley, Whitehouse & Cowling): the
search keeps, per (player, action), the mean return of that player over the
simulations in which the action was played (in the tree or in a rollout); a
rollout decision is then uniform with probability ``eps`` (one ``double()``
then ``int(n)``) and otherwise the action of highest mean for the player to
move, actions never played counting as +infinity, ties to the first in the
sorted order after a random offset (``int(n)``).  It replaces the uniform
rollout only (a game ``RolloutPolicy`` is refused), and only on engines.

Progressive widening (``widening=(c, alpha)``, off by default): at its
``v``-th visit (v = 1, 2, ...) a tree node offers only the actions it has
*ranked*, at least ``max(1, floor(c * v ** alpha))`` of them and at least one
available in the current world.  Ranks follow the rollout policy as a prior:
the next action ranked is the ``RolloutPolicy``'s choice among the available
unranked actions (drawing from the one stream, after the world is chosen and
before the untried/UCB1 draw).
"""
from libc.math cimport log, sqrt, pow, floor, INFINITY
from libc.stdint cimport uint64_t
from libcpp.vector cimport vector
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

from src_cy.engine cimport (Engine, Rng, rng_next, rng_int, rng_double, mix64,
                            sort_ints, CHANCE_PLAYER, TERMINAL_PLAYER, MAX_BRANCHING,
                            ENGINE_MAX_PLAYERS, RESAMPLE_OK)
from src_cy.clock cimport Deadline, past


cdef class RolloutPolicy:
    """Uniform random rollout policy; subclass in Cython for a game policy."""

    cdef int choose(self, Engine e, int* actions, int n, Rng* rng) noexcept:
        return actions[rng_int(rng, n)]

    cdef bint leaf_value(self, Engine e, int steps, double* out) noexcept:
        return False


cdef struct Edge:
    int action
    int visits
    long long avail
    double value
    # Progressive widening: position in the node's prior order (-1: not yet).
    int rank


cdef struct Node:
    long long start
    int count
    int cap
    # Progressive widening: iterations through the node, actions ranked.
    long long visits
    int ranked


cdef struct Step:
    int node
    int action
    int player
    # the edge's index when chosen (the backup checks it is still there)
    long long edge


def rollout_choice(RolloutPolicy policy, Engine engine, actions, rng_state) -> tuple:
    """``policy``'s rollout move among ``actions`` (the sorted legal actions
    of ``engine``), drawing from a splitmix64 stream at ``rng_state``:
    ``(action, new rng state)``.  The same call and draws as a search's
    rollout step, for a policy's pyspiel twin (``games.spec.engine_twin``)."""
    cdef int buf[MAX_BRANCHING]
    cdef Rng r
    cdef int n = len(actions), i
    if engine.current_player() < 0:
        raise ValueError("rollout_choice needs a decision node (the engine is at a "
                         "chance or terminal node)")
    if not 1 <= n <= MAX_BRANCHING:
        raise ValueError(f"rollout_choice needs 1..{MAX_BRANCHING} actions, got {n}")
    for i in range(n):
        buf[i] = actions[i]
    r.s = rng_state
    a = policy.choose(engine, buf, n, &r)
    return a, r.s


cdef inline double now_seconds() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef struct Slot:
    uint64_t key
    int node              # -1: empty


cdef enum:
    TREE_INITIAL_SLOTS_LOG2 = 10
    # A search's tree is kept for the next search (its storage reused, so
    # repeated searches stop faulting in fresh pages) up to this many bytes.
    TREE_KEEP_BYTES = 1 << 30


cdef inline size_t slot_of(uint64_t key, int shift) noexcept nogil:
    """Home slot of `key` in a table of 2**(64 - shift) slots (Fibonacci
    hashing: the top bits of key times the golden ratio)."""
    return <size_t>((key * <uint64_t>0x9E3779B97F4A7C15) >> shift)


cdef class _Tree:
    """Transposition tree: info key -> node (an open-addressing hash table,
    linear probing, at most half full); node -> sorted block of edges.
    ``reset`` empties it for another search and keeps the vectors' storage."""
    cdef vector[Slot] table
    # The table before its last doubling (kept for its storage).
    cdef vector[Slot] old_table
    cdef int shift
    cdef vector[Node] nodes
    cdef vector[Edge] edges

    def __cinit__(self):
        self.reset(0)

    cdef void reset(self, size_t expected_nodes) noexcept:
        """Empty the tree (no node), room reserved for ``expected_nodes``."""
        cdef Slot empty
        empty.key = 0
        empty.node = -1
        self.nodes.clear()
        self.edges.clear()
        self.nodes.reserve(expected_nodes)
        self.shift = 64 - TREE_INITIAL_SLOTS_LOG2
        self.table.assign(<size_t>1 << TREE_INITIAL_SLOTS_LOG2, empty)

    cdef size_t storage_bytes(self) noexcept:
        """Bytes of storage the tree's vectors hold."""
        return (self.table.capacity() * sizeof(Slot)
                + self.old_table.capacity() * sizeof(Slot)
                + self.nodes.capacity() * sizeof(Node)
                + self.edges.capacity() * sizeof(Edge))

    cdef int lookup(self, uint64_t key) noexcept:
        cdef size_t mask = self.table.size() - 1
        cdef size_t i = slot_of(key, self.shift)
        cdef Slot* t = self.table.data()
        while t[i].node >= 0:
            if t[i].key == key:
                return t[i].node
            i = (i + 1) & mask
        return -1

    cdef void put(self, uint64_t key, int node) noexcept:
        """Map `key` (absent) to `node`, doubling the table past half full."""
        cdef size_t mask, i, j
        cdef Slot empty
        cdef Slot* old
        if 2 * (self.nodes.size() + 1) > self.table.size():
            empty.key = 0
            empty.node = -1
            self.old_table.swap(self.table)
            self.table.assign(2 * self.old_table.size(), empty)
            old = self.old_table.data()
            self.shift -= 1
            mask = self.table.size() - 1
            for j in range(self.old_table.size()):
                if old[j].node >= 0:
                    i = slot_of(old[j].key, self.shift)
                    while self.table[i].node >= 0:
                        i = (i + 1) & mask
                    self.table[i] = old[j]
        mask = self.table.size() - 1
        i = slot_of(key, self.shift)
        while self.table[i].node >= 0:
            i = (i + 1) & mask
        self.table[i].key = key
        self.table[i].node = node

    cdef int create(self, uint64_t key, int* actions, int n) noexcept:
        """New node whose edges are `actions` (sorted), all unvisited."""
        cdef Node node
        cdef Edge edge
        cdef int i, cap = n if n > 4 else 4
        node.start = self.edges.size()
        node.count = n
        node.cap = cap
        node.visits = 0
        node.ranked = 0
        edge.visits = 0
        edge.avail = 0
        edge.value = 0.0
        edge.rank = -1
        for i in range(cap):
            edge.action = actions[i] if i < n else -1
            self.edges.push_back(edge)
        self.put(key, <int>self.nodes.size())
        self.nodes.push_back(node)
        return self.nodes.size() - 1

    cdef void insert(self, int nid, int action) noexcept:
        """Add an unvisited edge for `action`, keeping the block sorted."""
        cdef Node* node = &self.nodes[nid]
        cdef long long start, i
        cdef Edge edge
        if node.count == node.cap:
            start = self.edges.size()
            self.edges.resize(start + 2 * node.cap)
            node = &self.nodes[nid]
            for i in range(node.count):
                self.edges[start + i] = self.edges[node.start + i]
            node.start = start
            node.cap = 2 * node.cap
        i = node.count
        while i > 0 and self.edges[node.start + i - 1].action > action:
            self.edges[node.start + i] = self.edges[node.start + i - 1]
            i -= 1
        edge.action = action
        edge.visits = 0
        edge.avail = 0
        edge.value = 0.0
        edge.rank = -1
        self.edges[node.start + i] = edge
        node.count += 1

    cdef long long edge_of(self, int nid, int action) noexcept:
        cdef Node* node = &self.nodes[nid]
        cdef long long i
        for i in range(node.start, node.start + node.count):
            if self.edges[i].action == action:
                return i
        return -1


# The last search's tree, reused by the next one (None: taken, or none
# kept); searches hold the GIL, and a nested one finds None and makes its own.
cdef _Tree _spare_tree = None
# log(n) for n < size, grown by the searches (UCB1 reads log(avail); the same
# libm call, so the same bits, once per n in the process).
cdef vector[double] _logs


cdef _Tree _take_tree(long long max_simulations):
    """An empty tree (the spare one if kept), room for the search's nodes."""
    global _spare_tree
    cdef _Tree tree = _spare_tree
    _spare_tree = None
    if tree is None:
        tree = _Tree()
    # at most one node per simulation, plus the root
    tree.reset(<size_t>min(max_simulations + 1, 1 << 18))
    return tree


cdef void _keep_tree(_Tree tree):
    """Keep a finished search's tree for the next one, unless it is large."""
    global _spare_tree
    if tree.storage_bytes() <= TREE_KEEP_BYTES:
        _spare_tree = tree


cdef class _Search:
    """One search; holds the tree so its root statistics can be read."""
    cdef _Tree tree
    cdef Engine scratch
    cdef RolloutPolicy rollout
    # the rollout policy is the uniform base class (its calls are inlined)
    cdef bint uniform
    cdef double uct_c
    cdef bint multi_observer
    cdef int player
    cdef int root_node
    # Tree depth limit (0: none): below it the iteration rolls out.
    cdef int max_depth
    # Root candidates (sorted; empty: every legal action).
    cdef vector[int] root_actions
    # Progressive widening (widen_c <= 0: off).
    cdef double widen_c
    cdef double widen_alpha
    cdef Rng rng
    cdef long long simulations
    cdef long long inconsistent_worlds
    # The last world's history (resample_next): the first ``prev_len``
    # actions of the scratch engine's history after the iteration on it
    # (iterations only append), swapped out before the next world's copy.
    cdef vector[int] prev_world
    # Whether per-simulation worlds continue from the last one (``chain``).
    cdef bint chain
    cdef vector[Step] path
    # The move's hard deadline (``search(deadline=...)``): world drawing and
    # simulations stop there; ``out_of_time`` records that they did.
    cdef Deadline deadline
    cdef bint out_of_time
    # MAST (mast_eps > 0): sums and counts per (action * num_players + player),
    # grown as actions appear; the rollout's moves of the current iteration.
    cdef double mast_eps
    cdef int nplayers
    cdef vector[double] mast_sum
    cdef vector[double] mast_cnt
    cdef vector[int] mast_trail

    def __init__(self, _Tree tree, Engine root, int player, double uct_c,
                 bint multi_observer, RolloutPolicy rollout, uint64_t seed):
        self.tree = tree
        self.scratch = root.clone()
        self.rollout = rollout
        self.uniform = type(rollout) is RolloutPolicy
        self.uct_c = uct_c
        self.multi_observer = multi_observer
        self.player = player
        self.root_node = -1
        self.deadline.at = INFINITY
        self.deadline.cpu = True
        self.out_of_time = False
        self.rng.s = seed
        self.simulations = 0
        self.inconsistent_worlds = 0
        self.max_depth = 0
        self.widen_c = 0.0
        self.widen_alpha = 0.5
        self.mast_eps = 0.0
        self.nplayers = root.num_players

    cdef int widen(self, Engine e, int nid, int* acts, long long* eidx, int n) noexcept:
        """Progressive widening at node ``nid``: rank more available actions
        (each the rollout policy's choice among the unranked available ones)
        until ``max(1, floor(c * (visits + 1) ** alpha))`` are ranked and one
        of them is available; keep only ranked ones in ``acts``/``eidx``."""
        cdef _Tree tree = self.tree
        cdef int unr[MAX_BRANCHING]
        cdef int i, m, kept, a
        cdef long long allowed = <long long>floor(
            self.widen_c * pow(<double>(tree.nodes[nid].visits + 1), self.widen_alpha))
        if allowed < 1:
            allowed = 1
        while True:
            kept = 0
            m = 0
            for i in range(n):
                if tree.edges[eidx[i]].rank >= 0:
                    kept += 1
                else:
                    unr[m] = acts[i]
                    m += 1
            if m == 0 or (kept > 0 and tree.nodes[nid].ranked >= allowed):
                break
            a = self.rollout.choose(e, unr, m, &self.rng)
            for i in range(n):
                if acts[i] == a:
                    tree.edges[eidx[i]].rank = tree.nodes[nid].ranked
                    tree.nodes[nid].ranked += 1
                    break
        kept = 0
        for i in range(n):
            if tree.edges[eidx[i]].rank >= 0:
                acts[kept] = acts[i]
                eidx[kept] = eidx[i]
                kept += 1
        return kept

    cdef uint64_t node_key(self, Engine e, int mover, int depth) noexcept:
        if self.multi_observer:
            return e.info_key(mover)
        # SO-ISMCTS: every node is the root player's information set.
        return mix64(e.info_key(self.player), mix64(<uint64_t>(mover + 1), <uint64_t>depth))

    cdef void iterate(self) noexcept:
        """Descend, expand one node, roll out, back up (the world is in scratch)."""
        cdef Engine e = self.scratch
        cdef _Tree tree = self.tree
        cdef int acts[MAX_BRANCHING]
        cdef long long eidx[MAX_BRANCHING]
        cdef double ret[ENGINE_MAX_PLAYERS]
        cdef int n, i, k, cp, nid, depth = 0, untried, chosen, missing
        cdef long long j, end, ei
        cdef Edge* ed
        cdef double best, score, la
        cdef long long nlogs
        cdef uint64_t key
        cdef bint evaluated = False
        self.path.clear()
        self.mast_trail.clear()
        while <long long>_logs.size() <= self.simulations + 1:
            _logs.push_back(log(<double>_logs.size()))
        while True:
            cp = e.current_player()
            if cp == TERMINAL_PLAYER:
                break
            if cp == CHANCE_PLAYER:
                e.apply(e.sample_chance_sorted(&self.rng))
                continue
            if self.max_depth > 0 and depth >= self.max_depth:
                evaluated = self.rollout_from(e, ret)
                break
            n = e.legal_actions(acts)
            sort_ints(acts, n)
            if depth == 0 and self.root_actions.size() > 0:
                n = self.keep_root_actions(acts, n)
            key = self.node_key(e, cp, depth)
            nid = tree.lookup(key)
            if nid < 0:
                nid = tree.create(key, acts, n)
                if self.root_node < 0:
                    self.root_node = nid
                else:
                    evaluated = self.rollout_from(e, ret)
                    break
            # Map each available action to its edge (merge of two sorted lists).
            missing = 0
            j = tree.nodes[nid].start
            end = j + tree.nodes[nid].count
            for i in range(n):
                while j < end and tree.edges[j].action < acts[i]:
                    j += 1
                if j < end and tree.edges[j].action == acts[i]:
                    eidx[i] = j
                else:
                    missing += 1
                    eidx[i] = -1
            if missing:
                for i in range(n):
                    if eidx[i] < 0:
                        tree.insert(nid, acts[i])
                for i in range(n):
                    eidx[i] = tree.edge_of(nid, acts[i])
            if self.widen_c > 0:
                n = self.widen(e, nid, acts, eidx, n)
            tree.nodes[nid].visits += 1
            untried = 0
            for i in range(n):
                if tree.edges[eidx[i]].visits == 0:
                    untried += 1
            chosen = -1
            if untried:
                k = rng_int(&self.rng, untried)
                for i in range(n):
                    if tree.edges[eidx[i]].visits == 0:
                        if k == 0:
                            chosen = i
                            break
                        k -= 1
                for i in range(n):
                    ed = &tree.edges[eidx[i]]
                    if ed.visits > 0 or i == chosen:
                        ed.avail += 1
            else:
                # every edge here is visited: each counts as available
                best = -INFINITY
                nlogs = <long long>_logs.size()
                for i in range(n):
                    ed = &tree.edges[eidx[i]]
                    la = _logs[ed.avail] if ed.avail < nlogs else log(<double>ed.avail)
                    score = ed.value / ed.visits + self.uct_c * sqrt(la / ed.visits)
                    ed.avail += 1
                    if score > best:
                        best = score
                        chosen = i
            self.path.push_back(Step(nid, acts[chosen], cp, eidx[chosen]))
            e.apply(acts[chosen])
            depth += 1
        if not evaluated:
            e.returns(ret)
        for k in range(<int>self.path.size()):
            ei = self.path[k].edge
            j = tree.nodes[self.path[k].node].start
            if not (j <= ei < j + tree.nodes[self.path[k].node].count
                    and tree.edges[ei].action == self.path[k].action):
                # the node's edges moved since (it came again on this path)
                ei = tree.edge_of(self.path[k].node, self.path[k].action)
            tree.edges[ei].visits += 1
            tree.edges[ei].value += ret[self.path[k].player]
        if self.mast_eps > 0:
            for k in range(<int>self.path.size()):
                self.mast_add(self.path[k].action * self.nplayers + self.path[k].player,
                              ret[self.path[k].player])
            for k in range(<int>self.mast_trail.size()):
                i = self.mast_trail[k]
                self.mast_add(i, ret[i % self.nplayers])

    cdef int keep_root_actions(self, int* acts, int n) noexcept:
        """Keep the sorted ``acts`` that are root candidates (in place)."""
        cdef int i, m = 0
        cdef size_t j = 0, r = self.root_actions.size()
        for i in range(n):
            while j < r and self.root_actions[j] < acts[i]:
                j += 1
            if j < r and self.root_actions[j] == acts[i]:
                acts[m] = acts[i]
                m += 1
        return m

    cdef bint rollout_from(self, Engine e, double* out) noexcept:
        """Roll out to the end (False) or until the policy's ``leaf_value``
        cuts it with values in ``out`` (True)."""
        cdef int acts[MAX_BRANCHING]
        cdef int n, cp, steps = 0
        # the uniform rollout without MAST: one engine draw per decision
        cdef bint plain = self.uniform and self.mast_eps <= 0
        # Nothing reads this world's keys or logs again (the next iteration
        # copies a fresh world over it, which clears the flag).
        e.quiet = True
        while True:
            cp = e.current_player()
            if cp == TERMINAL_PLAYER:
                return False
            if cp == CHANCE_PLAYER:
                e.apply(e.sample_chance_sorted(&self.rng))
                continue
            if plain:
                e.apply(e.sample_uniform_legal(&self.rng))
                continue
            if not self.uniform and self.rollout.leaf_value(e, steps, out):
                return True
            n = e.legal_actions(acts)
            sort_ints(acts, n)
            if self.mast_eps > 0:
                e.apply(self.mast_choose(cp, acts, n))
            else:
                e.apply(self.rollout.choose(e, acts, n, &self.rng))
            steps += 1

    cdef int mast_choose(self, int cp, int* acts, int n) noexcept:
        """A MAST rollout move for ``cp`` among the sorted ``acts`` (recorded
        for the backup)."""
        cdef int i, k, off, a, chosen = acts[0]
        cdef size_t idx
        cdef double v, best = -INFINITY
        if rng_double(&self.rng) < self.mast_eps:
            chosen = acts[rng_int(&self.rng, n)]
        else:
            off = rng_int(&self.rng, n)
            for k in range(n):
                i = off + k
                if i >= n:
                    i -= n
                a = acts[i]
                idx = <size_t>a * self.nplayers + cp
                if idx < self.mast_cnt.size() and self.mast_cnt[idx] > 0:
                    v = self.mast_sum[idx] / self.mast_cnt[idx]
                else:
                    v = INFINITY
                if v > best:
                    best = v
                    chosen = a
        self.mast_trail.push_back(chosen * self.nplayers + cp)
        return chosen

    cdef void mast_add(self, int index, double value) noexcept:
        """Add one return to a MAST entry (growing the tables)."""
        if <size_t>index >= self.mast_cnt.size():
            self.mast_cnt.resize(index + 1 + self.nplayers * 64, 0.0)
            self.mast_sum.resize(index + 1 + self.nplayers * 64, 0.0)
        self.mast_cnt[index] += 1.0
        self.mast_sum[index] += value

    cdef void run(self, Engine root, long long max_simulations, double time_limit,
                  list worlds):
        cdef Rng wrng
        cdef double deadline = now_seconds() + time_limit if time_limit > 0 else INFINITY
        cdef uint64_t root_key = root.info_key(self.player)
        cdef int n_worlds = len(worlds)
        cdef Engine world
        cdef size_t prev_len = 0
        while self.simulations < max_simulations:
            if n_worlds:
                world = <Engine>worlds[rng_int(&self.rng, n_worlds)]
                self.scratch.copy_from(world)
            else:
                if self.simulations > 0:
                    self.prev_world.swap(self.scratch.hist)
                    self.prev_world.resize(prev_len)
                self.scratch.copy_from(root)
                wrng.s = rng_next(&self.rng)
                self.scratch.resample_deadline = self.deadline
                self.scratch.resample_next(self.player, &wrng,
                                           &self.prev_world if self.chain else NULL)
                if self.scratch.resample_status != RESAMPLE_OK:
                    self.out_of_time = True
                    break
                prev_len = self.scratch.hist.size()
            if self.scratch.info_key(self.player) != root_key:
                self.inconsistent_worlds += 1
            self.iterate()
            self.simulations += 1
            if time_limit > 0 and (self.simulations & 15) == 0 and now_seconds() >= deadline:
                break
            if (self.simulations & 3) == 0 and past(&self.deadline):
                self.out_of_time = True
                break


def check_widening(widening) -> tuple:
    """``(c, alpha)`` as floats; ``ValueError`` unless ``c > 0`` and
    ``0 <= alpha <= 1`` (both finite)."""
    try:
        c, alpha = (float(x) for x in widening)
    except (TypeError, ValueError):
        raise ValueError(f"widening must be None or a pair (c, alpha), got {widening!r}") from None
    if not (0.0 < c < INFINITY) or not (0.0 <= alpha <= 1.0):
        raise ValueError(f"widening needs c > 0 and 0 <= alpha <= 1, got {widening!r}")
    return c, alpha


def check_mast(mast) -> float:
    """``mast`` as a float; ``ValueError`` unless it is 0 (off) or in (0, 1]."""
    try:
        eps = float(mast)
    except (TypeError, ValueError):
        raise ValueError(f"mast must be 0 (off) or a number in (0, 1], got {mast!r}") from None
    if not (eps == 0.0 or 0.0 < eps <= 1.0):
        raise ValueError(f"mast must be 0 (off) or a number in (0, 1], got {mast!r}")
    return eps


def search(Engine root, int player, *, double uct_c=2.0, max_simulations=1000,
           double time_limit=0.0, seed=0, int cached_worlds=0,
           bint multi_observer=True, RolloutPolicy rollout=None,
           list worlds=None, int max_depth=0, root_actions=None,
           widening=None, deadline=None, bint deadline_cpu=True,
           mast=0.0, bint chain=True) -> dict:
    """Run ISMCTS for ``player`` (who must be to move at ``root``).

    ``worlds``: determinizations drawn by the caller (engines of the same
    game, e.g. belief-weighted ones); each iteration picks one with
    ``int(len(worlds))`` instead of resampling (``cached_worlds`` is then
    ignored).  ``max_depth`` (> 0): no tree node deeper than that many
    decisions; the iteration rolls out from there (1: flat Monte Carlo over
    the root actions).  ``root_actions``: the root considers only these
    (non-empty subset of the legal actions; action grouping/pruning by the
    caller).  ``widening``: None (off) or ``(c, alpha)`` with ``c > 0`` and
    ``0 <= alpha <= 1``, progressive widening ordered by the rollout policy.
    ``mast``: 0 (off) or the MAST rollouts' exploration ``eps`` in (0, 1]
    (module docstring); needs the uniform rollout policy.
    ``chain``: per-simulation worlds continue from the last one where the
    engine chains worlds (``resample_next``; default); False: every world
    is a fresh draw, as ``resample`` gives.

    Stops after ``max_simulations`` iterations or ``time_limit`` seconds
    (if > 0), whichever comes first.  ``deadline``: a hard stop, an absolute
    time on ``src_cy.engine.clock(deadline_cpu)``, checked while the pool of
    ``cached_worlds`` is drawn (a resampler with an unbounded tail stops at
    it too, ``Engine.resample_deadline``) and every 4 simulations; the search
    then uses the worlds and simulations it has (possibly none: check
    ``simulations``) and reports ``out_of_time``.  Returns the root statistics:
    ``actions`` (ascending), ``visits``, ``values`` (sums of the player's
    returns), ``avail``, plus ``simulations``, ``nodes``,
    ``inconsistent_worlds`` (worlds whose info key for ``player`` differed
    from the root's; 0 for a correct resampler) and ``rng_state``, the
    splitmix64 state after the search.
    """
    cdef Rng wrng
    cdef long long max_sims
    cdef _Search s
    cdef Engine w
    cdef int i
    if root.current_player() != player or player < 0:
        raise ValueError(f"player {player} is not to move at the root "
                         f"(player to move: {root.current_player()})")
    if max_simulations is None:
        if time_limit <= 0:
            raise ValueError("give max_simulations or a positive time_limit")
        max_sims = 1 << 62
    else:
        max_sims = int(max_simulations)
        if max_sims < 1:
            raise ValueError(f"max_simulations must be >= 1, got {max_simulations}")
    if cached_worlds < 0:
        raise ValueError(f"cached_worlds must be >= 0, got {cached_worlds}")
    if rollout is None:
        rollout = RolloutPolicy()
    if max_depth < 0:
        raise ValueError(f"max_depth must be >= 0, got {max_depth}")
    cdef double mast_eps = check_mast(mast)
    if mast_eps > 0 and type(rollout) is not RolloutPolicy:
        raise ValueError("mast replaces the uniform rollout; it cannot be combined with "
                         "a game rollout policy")
    s = _Search(_take_tree(max_sims), root, player, uct_c, multi_observer, rollout,
                <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF))
    s.max_depth = max_depth
    s.mast_eps = mast_eps
    s.chain = chain
    if widening is not None:
        s.widen_c, s.widen_alpha = check_widening(widening)
    if root_actions is not None:
        legal = set(root.py_legal_actions())
        cand = sorted(set(int(a) for a in root_actions))
        if not cand or any(a not in legal for a in cand):
            raise ValueError("root_actions must be a non-empty subset of the legal actions")
        for a in cand:
            s.root_actions.push_back(a)
    if worlds is not None:
        if not worlds:
            raise ValueError("worlds must hold at least one engine")
        for obj in worlds:
            if type(obj) is not type(root) or (<Engine>obj).num_players != root.num_players:
                raise ValueError("worlds must be engines of the root's game")
        cached_worlds = 0
    else:
        worlds = []
    s.deadline.at = INFINITY if deadline is None else float(deadline)
    s.deadline.cpu = deadline_cpu
    for i in range(cached_worlds):
        if past(&s.deadline):
            s.out_of_time = True
            break
        w = root.clone()
        wrng.s = rng_next(&s.rng)
        w.resample_deadline = s.deadline
        w.resample(player, &wrng)       # a pool's worlds are independent draws
        if w.resample_status != RESAMPLE_OK:
            s.out_of_time = True
            break
        w.resample_deadline.at = INFINITY
        worlds.append(w)
    if worlds or cached_worlds == 0:
        s.run(root, max_sims, time_limit, worlds)
    actions, visits, values, avail = [], [], [], []
    cdef Node node
    cdef long long j
    if s.root_node >= 0:
        node = s.tree.nodes[s.root_node]
        for j in range(node.start, node.start + node.count):
            actions.append(s.tree.edges[j].action)
            visits.append(s.tree.edges[j].visits)
            values.append(s.tree.edges[j].value)
            avail.append(s.tree.edges[j].avail)
    nodes = s.tree.nodes.size()
    _keep_tree(s.tree)
    return {"actions": actions, "visits": visits, "values": values, "avail": avail,
            "simulations": s.simulations, "nodes": nodes,
            "inconsistent_worlds": s.inconsistent_worlds,
            "rng_state": s.rng.s, "out_of_time": bool(s.out_of_time),
            "pool_worlds": len(worlds)}


def spare_tree_bytes() -> int:
    """Bytes of storage held by the tree kept for the next search (0: none)."""
    return 0 if _spare_tree is None else _spare_tree.storage_bytes()
