"""Compile a game tree into flat numpy arrays for the exact solvers.

Node ids are assigned so that a parent's id is smaller than its children's and
each node's children form one contiguous id range, in the order of the node's
legal actions (decision) or chance outcomes (chance).  Solvers can then sweep
the arrays forwards (reach probabilities) and backwards (values) with no
recursion and no Python per node.

Three walkers produce the same arrays: one over any ``pyspiel`` game (states,
``information_state_string``), one in Python over a goldspiel rules engine
(``compile_engine_py``: ``info_key`` groups information sets; the string is
read once per set) and the default ``compile_engine``, the same walk in
Cython over the engine's ``cdef`` interface (``src_cy/tree_compile.pyx``).

Every walker first asks :func:`check_tree_size`: a seeded Knuth estimate of
the node count (:func:`estimate_tree_size`, a few dozen random root-to-leaf
walks) refuses a tree that is clearly too large before any node is
compiled; the exact ``max_nodes`` limit of the walk stays as the backstop.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import random

import numpy as np
import pyspiel

from games.spec import game_engine

KIND_TERMINAL = 0
KIND_CHANCE = 1
KIND_DECISION = 2
DEFAULT_MAX_NODES = 5_000_000


# The size check: walks, a cap on the nodes they visit, the seed, and the
# refusal margin (see ``check_tree_size``).
ESTIMATE_WALKS = 64
ESTIMATE_MAX_STEPS = 50_000
ESTIMATE_SEED = 0
REFUSE_FACTOR = 10.0


class TreeTooLargeError(ValueError):
    """The game tree has more nodes than the ``max_nodes`` bound."""


@dataclass(frozen=True)
class SizeEstimate:
    """Knuth's estimate of a tree's node count: ``nodes`` is the sum of the
    per-walk estimates divided by ``walks_planned`` (the mean once every
    walk is done); ``walks`` walks were done, visiting ``steps`` nodes."""

    nodes: float
    walks: int
    walks_planned: int
    steps: int


def _walker(game: pyspiel.Game | Any):
    """(root, children count, apply a random child) over a game or an engine."""
    if isinstance(game, pyspiel.Game):
        def root():
            return game.new_initial_state()

        def moves(state):
            if state.is_terminal():
                return None
            if state.is_chance_node():
                return [a for a, _ in state.chance_outcomes()]
            return state.legal_actions()

        def apply(state, action):
            state.apply_action(action)
    elif hasattr(game, "py_current_player"):
        def root():
            return game.py_clone()

        def moves(engine):
            if engine.py_is_terminal():
                return None
            if engine.py_current_player() == pyspiel.PlayerId.CHANCE:
                return [a for a, _ in engine.py_chance_outcomes()]
            return engine.py_legal_actions()

        def apply(engine, action):
            engine.py_apply(action)
    else:
        raise TypeError(f"expected a pyspiel.Game or an engine, got {type(game).__name__}")
    return root, moves, apply


def estimate_tree_size(game: pyspiel.Game | Any, walks: int = ESTIMATE_WALKS,
                       max_steps: int = ESTIMATE_MAX_STEPS, seed: int = ESTIMATE_SEED,
                       stop_above: float = float("inf")) -> SizeEstimate:
    """Knuth's unbiased estimator of the number of nodes of ``game``'s tree.

    Each walk goes from the root to a leaf choosing a child uniformly at
    random (chance nodes included, ignoring their probabilities); its
    estimate is the sum over the visited depths of the product of the
    branching factors above that depth. The mean over walks is unbiased but
    heavy-tailed (usually below the truth, now and then far above). Walks
    stop after ``walks`` walks, once ``max_steps`` nodes were visited (the
    walk in progress is finished; the mean is then over the walks done), or
    as soon as the partial sum divided by ``walks`` exceeds ``stop_above``
    (the full mean could only be larger; ``nodes`` is then that bound).
    Deterministic given ``seed``.
    """
    if walks < 1 or max_steps < 1:
        raise ValueError(f"walks and max_steps must be >= 1, got {walks}, {max_steps}")
    root, moves, apply = _walker(game)
    rng = random.Random(seed)
    total, steps, done = 0.0, 0, 0
    while done < walks and steps < max_steps and total / walks <= stop_above:
        state, weight, estimate = root(), 1.0, 0.0
        while True:
            estimate += weight
            steps += 1
            actions = moves(state)
            if not actions:
                break
            weight *= len(actions)
            apply(state, actions[rng.randrange(len(actions))])
        total += estimate
        done += 1
    over = total / walks > stop_above
    return SizeEstimate(total / (walks if over else done), done, walks, steps)


def check_tree_size(game: pyspiel.Game | Any, max_nodes: int, name: str | None = None) -> None:
    """Refuse (``TreeTooLargeError``) a tree estimated at more than
    ``REFUSE_FACTOR`` (10) times ``max_nodes`` nodes.

    The margin is there because Knuth's estimate is heavy-tailed: an
    estimate a little above ``max_nodes`` may come from one lucky deep walk
    of a tree that fits, so only a clear excess is refused here; a tree
    that passes this check but is too large still stops at ``max_nodes``
    during the compile. Cost: at most ``ESTIMATE_MAX_STEPS`` visited nodes
    plus one walk (fixed seed, so the answer is deterministic).
    """
    if max_nodes < 1:
        raise ValueError(f"max_nodes must be positive, got {max_nodes}")
    limit = REFUSE_FACTOR * max_nodes
    est = estimate_tree_size(game, stop_above=limit)
    if est.nodes > limit:
        label = name or (str(game) if isinstance(game, pyspiel.Game) else game.game_string)
        size = f"{est.nodes:.3g}" if est.nodes < float("inf") else "more than 1e308"
        raise TreeTooLargeError(
            f"game {label} is estimated at {size} nodes (Knuth's estimator, "
            f"{est.walks} random walk{'' if est.walks == 1 else 's'}), more than "
            f"{REFUSE_FACTOR:g} x max_nodes={max_nodes}; "
            f"use a smaller preset (e.g. 'mini') or a sampling solver (MCCFR, "
            f"solvers.mccfr), or raise max_nodes")


@dataclass
class CompiledTree:
    """Flat arrays of a whole game tree (see module docstring for the layout)."""

    game_string: str
    num_players: int
    kind: np.ndarray              # int32[N]: 0 terminal, 1 chance, 2 decision
    player: np.ndarray            # int32[N]: acting player, -1 chance, -4 terminal
    infoset: np.ndarray           # int32[N]: information-set index, -1 if none
    parent: np.ndarray            # int32[N]: parent id, -1 at the root
    action: np.ndarray            # int32[N]: action leading here from the parent
    child_start: np.ndarray       # int32[N]: id of the first child
    num_children: np.ndarray      # int32[N]
    chance_prob: np.ndarray       # float64[N]: probability of the edge from a chance parent
    terminal_index: np.ndarray    # int32[N]: row in terminal_returns, -1 if not terminal
    terminal_returns: np.ndarray  # float64[T, P]
    infoset_player: np.ndarray    # int32[I]
    infoset_offset: np.ndarray    # int32[I]: first slot in the flat per-action arrays
    infoset_num_actions: np.ndarray  # int32[I]
    infoset_actions: np.ndarray   # int32[A]: legal action ids, slot order
    infoset_strings: list[str]    # information_state_string of each set
    member_start: np.ndarray      # int32[I+1]: CSR rows of member_nodes
    member_nodes: np.ndarray      # int32[M]: decision nodes of each information set
    index: dict[str, int] = field(default_factory=dict)  # info string -> infoset
    # uint64[I]: the engine's ``info_key`` of each set (None for a pyspiel walk)
    infoset_keys: np.ndarray | None = None

    @property
    def num_nodes(self) -> int:
        return len(self.kind)

    @property
    def num_infosets(self) -> int:
        return len(self.infoset_player)

    @property
    def num_slots(self) -> int:
        """Length of the flat (infoset, action) arrays."""
        return len(self.infoset_actions)

    def path_to(self, node: int) -> list[int]:
        """Actions from the root to ``node``."""
        path = []
        while self.parent[node] >= 0:
            path.append(int(self.action[node]))
            node = int(self.parent[node])
        return path[::-1]

    def representative_state(self, game: pyspiel.Game, infoset: int) -> pyspiel.State:
        """A pyspiel state in information set ``infoset`` (its first member)."""
        state = game.new_initial_state()
        for a in self.path_to(int(self.member_nodes[self.member_start[infoset]])):
            state.apply_action(a)
        return state

    def nbytes(self) -> int:
        """Bytes held by the numpy arrays."""
        return sum(v.nbytes for v in vars(self).values() if isinstance(v, np.ndarray))


class _Builder:
    """Grows the node arrays; ids are handed out one child block at a time."""

    def __init__(self, game_string: str, num_players: int, max_nodes: int):
        if max_nodes < 1:
            raise ValueError(f"max_nodes must be positive, got {max_nodes}")
        self.game_string, self.num_players, self.max_nodes = game_string, num_players, max_nodes
        self.kind: list[int] = [0]
        self.player: list[int] = [0]
        self.infoset: list[int] = [-1]
        self.parent: list[int] = [-1]
        self.action: list[int] = [-1]
        self.cstart: list[int] = [0]
        self.ncld: list[int] = [0]
        self.cprob: list[float] = [1.0]
        self.tindex: list[int] = [-1]
        self.returns: list[list[float]] = []
        self.iplayer: list[int] = []
        self.iactions: list[list[int]] = []
        self.istrings: list[str] = []
        self.ikeys: list[int] = []
        self.lookup: dict[Any, int] = {}

    def children(self, node: int, actions: list[int], probs: list[float] | None) -> int:
        start = len(self.kind)
        if start + len(actions) > self.max_nodes:
            raise TreeTooLargeError(
                f"game {self.game_string} has more than max_nodes={self.max_nodes} nodes "
                f"(reached {start + len(actions)} nodes and {len(self.iplayer)} information "
                f"sets so far); use MCCFR or raise max_nodes")
        n = len(actions)
        self.kind.extend([0] * n)
        self.player.extend([0] * n)
        self.infoset.extend([-1] * n)
        self.parent.extend([node] * n)
        self.action.extend(actions)
        self.cstart.extend([0] * n)
        self.ncld.extend([0] * n)
        self.cprob.extend(probs if probs is not None else [0.0] * n)
        self.tindex.extend([-1] * n)
        self.cstart[node] = start
        self.ncld[node] = n
        return start

    def terminal(self, node: int, returns: list[float]) -> None:
        self.kind[node] = KIND_TERMINAL
        self.player[node] = pyspiel.PlayerId.TERMINAL
        self.tindex[node] = len(self.returns)
        self.returns.append(list(returns))

    def chance(self, node: int) -> None:
        self.kind[node] = KIND_CHANCE
        self.player[node] = pyspiel.PlayerId.CHANCE

    def decision(self, node: int, player: int, key: Any, string_fn, legal: list[int]) -> None:
        idx = self.lookup.get(key)
        if idx is None:
            idx = len(self.iplayer)
            self.lookup[key] = idx
            self.iplayer.append(player)
            self.iactions.append(list(legal))
            self.istrings.append(string_fn())
            if isinstance(key, tuple):
                self.ikeys.append(key[1])
        elif self.iactions[idx] != list(legal):
            raise ValueError(
                f"information set {self.istrings[idx]!r} has different legal actions in "
                f"two of its states: {self.iactions[idx]} vs {list(legal)}")
        self.kind[node] = KIND_DECISION
        self.player[node] = player
        self.infoset[node] = idx

    def finish(self) -> CompiledTree:
        i32 = np.int32
        infoset = np.asarray(self.infoset, i32)
        nums = np.asarray([len(a) for a in self.iactions], i32)
        offsets = np.zeros(len(nums), i32)
        if len(nums):
            offsets[1:] = np.cumsum(nums)[:-1]
        dec = np.flatnonzero(infoset >= 0).astype(i32)
        order = np.argsort(infoset[dec], kind="stable")
        counts = np.bincount(infoset[dec], minlength=len(nums))
        mstart = np.zeros(len(nums) + 1, i32)
        mstart[1:] = np.cumsum(counts)
        returns = np.asarray(self.returns, np.float64).reshape(-1, self.num_players)
        return CompiledTree(
            game_string=self.game_string, num_players=self.num_players,
            kind=np.asarray(self.kind, i32), player=np.asarray(self.player, i32),
            infoset=infoset, parent=np.asarray(self.parent, i32),
            action=np.asarray(self.action, i32), child_start=np.asarray(self.cstart, i32),
            num_children=np.asarray(self.ncld, i32),
            chance_prob=np.asarray(self.cprob, np.float64),
            terminal_index=np.asarray(self.tindex, i32),
            terminal_returns=np.ascontiguousarray(returns),
            infoset_player=np.asarray(self.iplayer, i32), infoset_offset=offsets,
            infoset_num_actions=nums,
            infoset_actions=np.asarray([a for acts in self.iactions for a in acts], i32),
            infoset_strings=list(self.istrings),
            member_start=mstart, member_nodes=dec[order].astype(i32),
            index={s: i for i, s in enumerate(self.istrings)},
            infoset_keys=(np.asarray(self.ikeys, np.uint64)
                          if self.iplayer and len(self.ikeys) == len(self.iplayer) else None))


def _check_game(game: pyspiel.Game) -> None:
    gt = game.get_type()
    if gt.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
        raise ValueError(f"{game} is not a sequential (turn-based) game")
    if not gt.provides_information_state_string:
        raise ValueError(f"{game} does not provide information_state_string")


def compile_pyspiel(game: pyspiel.Game, max_nodes: int = DEFAULT_MAX_NODES) -> CompiledTree:
    """Compile by walking pyspiel states (works for any sequential game)."""
    _check_game(game)
    check_tree_size(game, max_nodes)
    b = _Builder(str(game), game.num_players(), max_nodes)
    stack = [(game.new_initial_state(), 0)]
    while stack:
        state, node = stack.pop()
        if state.is_terminal():
            b.terminal(node, state.returns())
            continue
        if state.is_chance_node():
            b.chance(node)
            outcomes = state.chance_outcomes()
            actions = [a for a, _ in outcomes]
            start = b.children(node, actions, [p for _, p in outcomes])
        else:
            p = state.current_player()
            if p < 0:
                raise ValueError(f"{game}: unsupported player id {p} (simultaneous node?)")
            s = state.information_state_string(p)
            actions = state.legal_actions()
            b.decision(node, p, s, lambda s=s: s, actions)
            start = b.children(node, actions, None)
        for k in range(len(actions) - 1, -1, -1):
            stack.append((state.child(actions[k]), start + k))
    return b.finish()


def _finish_arrays(game_string: str, num_players: int, a: dict) -> CompiledTree:
    """A ``CompiledTree`` from the raw arrays of ``src_cy.tree_compile``."""
    i32 = np.int32
    infoset, nums = a["infoset"], a["infoset_num_actions"]
    offsets = np.zeros(len(nums), i32)
    if len(nums):
        offsets[1:] = np.cumsum(nums)[:-1]
    dec = np.flatnonzero(infoset >= 0).astype(i32)
    order = np.argsort(infoset[dec], kind="stable")
    mstart = np.zeros(len(nums) + 1, i32)
    mstart[1:] = np.cumsum(np.bincount(infoset[dec], minlength=len(nums)))
    strings = a["infoset_strings"]
    return CompiledTree(
        game_string=game_string, num_players=num_players, kind=a["kind"], player=a["player"],
        infoset=infoset, parent=a["parent"], action=a["action"],
        child_start=a["child_start"], num_children=a["num_children"],
        chance_prob=a["chance_prob"], terminal_index=a["terminal_index"],
        terminal_returns=np.ascontiguousarray(a["terminal_returns"]),
        infoset_player=a["infoset_player"], infoset_offset=offsets, infoset_num_actions=nums,
        infoset_actions=a["infoset_actions"], infoset_strings=strings,
        member_start=mstart, member_nodes=dec[order].astype(i32),
        index={s: i for i, s in enumerate(strings)},
        infoset_keys=a["infoset_keys"] if len(nums) else None)


def compile_engine(engine, game_string: str | None = None,
                   max_nodes: int = DEFAULT_MAX_NODES) -> CompiledTree:
    """Compile a goldspiel engine's tree in Cython (no Python call per node).

    Same arrays as ``compile_engine_py`` (tests cross-check them); Python is
    entered once per information set, for its string.
    """
    if max_nodes < 1:
        raise ValueError(f"max_nodes must be positive, got {max_nodes}")
    from src_cy import tree_compile
    name = game_string or engine.game_string
    check_tree_size(engine, max_nodes, name)
    try:
        arrays = tree_compile.compile_arrays(engine, max_nodes)
    except tree_compile.TreeSizeError as exc:
        nodes, infosets = exc.args
        raise TreeTooLargeError(
            f"game {name} has more than max_nodes={max_nodes} nodes (reached {nodes} nodes "
            f"and {infosets} information sets so far); use MCCFR or raise max_nodes") from None
    return _finish_arrays(name, engine.num_players, arrays)


def compile_engine_py(engine, game_string: str | None = None,
                      max_nodes: int = DEFAULT_MAX_NODES) -> CompiledTree:
    """Compile by walking a goldspiel engine in Python (clones; info keys group the sets).

    The reference for ``compile_engine``: one Python call per node.
    """
    name = game_string or engine.game_string
    check_tree_size(engine, max_nodes, name)
    b = _Builder(name, engine.num_players, max_nodes)
    stack = [(engine.py_clone(), 0)]
    while stack:
        e, node = stack.pop()
        cur = e.py_current_player()
        if e.py_is_terminal():
            b.terminal(node, e.py_returns())
            continue
        if cur == pyspiel.PlayerId.CHANCE:
            b.chance(node)
            outcomes = e.py_chance_outcomes()
            actions = [a for a, _ in outcomes]
            start = b.children(node, actions, [p for _, p in outcomes])
        else:
            actions = e.py_legal_actions()
            b.decision(node, cur, (cur, e.py_info_key(cur)),
                       lambda e=e, cur=cur: e.info_string(cur), actions)
            start = b.children(node, actions, None)
        for k in range(len(actions) - 1, -1, -1):
            child = e.py_clone()
            child.py_apply(actions[k])
            stack.append((child, start + k))
    return b.finish()


def compile_game(game: pyspiel.Game | Any, max_nodes: int = DEFAULT_MAX_NODES,
                 use_engine: bool = True) -> CompiledTree:
    """Compile a pyspiel game, or an engine, into a ``CompiledTree``.

    With ``use_engine`` the engine fast path is taken when the game's spec
    has an engine for it (``games.spec.game_engine``); the result is
    identical to the pyspiel walk.
    """
    if not isinstance(game, pyspiel.Game):
        if hasattr(game, "py_current_player"):
            return compile_engine(game, max_nodes=max_nodes)
        raise TypeError(f"expected a pyspiel.Game or an engine, got {type(game).__name__}")
    engine = game_engine(game, use_engine)
    if engine is not None:
        return compile_engine(engine, game_string=str(game), max_nodes=max_nodes)
    return compile_pyspiel(game, max_nodes=max_nodes)
