"""Information-Set MCTS (Cowling, Powley & Whitehouse 2012) as a pyspiel.Bot.

Two implementations of one algorithm:

* the fast path, ``src_cy.ismcts.search``, on goldspiel Cython engines
  (used when the state runs on one, ``state.engine``, unless
  ``use_engine=False``);
* the slow path, :func:`slow_search`, on any sequential pyspiel game that
  implements ``resample_from_infostate`` (or has perfect information).

Both consume one splitmix64 stream in the same order (see the module
docstring of ``src_cy/ismcts.pyx``), so on goldspiel games they return the
same root statistics, the same policy and the same move for the same seed.

Each iteration samples a world from the searching player's information set,
descends by UCB1 over the actions available in that world (the exploration
term uses availability counts), expands one node, rolls out, and backs up
each mover's return.  ``multi_observer=True`` (MO-ISMCTS) keys every node by
the information set of the player to move; ``False`` (SO-ISMCTS) keys every
node by the searching player's information set (plus mover and depth), so
opponents choose without using their private information.

OpenSpiel's C++ ``pyspiel.ISMCTSBot`` cannot search Python-registered games
(it crashes and never calls their ``resample_from_infostate``); this bot is
the ISMCTS to use for them.
"""
from __future__ import annotations

import inspect
import math
import os
import time
from dataclasses import dataclass
from typing import Any, Callable

import pyspiel

from games.spec import find_spec, state_engine
# The one RNG (src_cy/rng.py), re-exported here for existing callers.
from solvers.beliefs import world_acceptance
from games.interfaces import Bot, Deadline
from src_cy.engine import ResampleOutOfTime, clock
from src_cy.rng import SplitMix64, sample_sorted  # noqa: F401

FINAL_POLICIES = ("max_visits", "visit_distribution")
DETERMINIZATIONS = ("uniform", "belief")


@dataclass
class RootStats:
    """Root statistics of one search (edges sorted by action)."""

    actions: list[int]
    visits: list[int]
    values: list[float]
    avail: list[int]
    simulations: int
    nodes: int
    inconsistent_worlds: int
    rng_state: int
    # Belief-weighted determinization: worlds drawn to get the accepted ones.
    world_draws: int = 0
    # The move's hard deadline stopped world drawing or simulations.
    out_of_time: bool = False
    # Worlds in the move's pool (``cached_worlds`` / belief worlds); 0: fresh
    # worlds per simulation.
    pool_worlds: int = 0

    def mean_values(self) -> list[float]:
        return [w / v if v else 0.0 for w, v in zip(self.values, self.visits)]


# ----------------------------------------------------------------------
# Rollout policies and root grouping: the game's spec (games.spec)
# ----------------------------------------------------------------------
SlowRollout = Callable[[pyspiel.State, list, SplitMix64], int]
RootCandidates = Callable[[pyspiel.State], list]


def _accepts_keyword(fn: Callable[..., Any], name: str) -> bool:
    """``fn`` takes keyword ``name`` (or any keyword): asked of the signature,
    so a TypeError raised inside ``fn`` is never mistaken for a missing one.
    A callable without a readable signature is assumed to take it (the call
    then says what is wrong)."""
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return True
    return name in params or any(p.kind is inspect.Parameter.VAR_KEYWORD
                                 for p in params.values())


def _resolve_rollout(game_name: str, rollout: Any, fast: bool, cutoff: int = 0):
    if cutoff and rollout != "heuristic":
        raise ValueError("rollout_cutoff needs rollout='heuristic' (the game spec's rollout "
                         "with its leaf evaluation)")
    if rollout in (None, "random"):
        return None
    if rollout == "heuristic":
        spec = find_spec(game_name)
        factory = None if spec is None else (spec.rollout if fast else spec.slow_rollout)
        if factory is None:
            raise ValueError(f"the spec of {game_name!r} has no heuristic rollout "
                             f"for the {'engine' if fast else 'pyspiel'} path")
        if not cutoff:
            return factory()
        if not _accepts_keyword(factory, "cutoff"):
            raise ValueError(f"the rollout of {game_name!r} has no leaf evaluation "
                             f"(rollout_cutoff)")
        return factory(cutoff=cutoff)
    if fast:
        from src_cy.ismcts import RolloutPolicy
        if not isinstance(rollout, RolloutPolicy):
            raise ValueError("on the engine path rollout must be 'random', 'heuristic' "
                             "or a src_cy.ismcts.RolloutPolicy")
        return rollout
    if not callable(rollout):
        raise ValueError("on the pyspiel path rollout must be 'random', 'heuristic' "
                         "or a callable(state, legal_actions, rng)")
    return rollout


def _resolve_candidates(game_name: str, candidates: Any) -> RootCandidates | None:
    if candidates is None:
        return None
    if candidates == "game":
        spec = find_spec(game_name)
        if spec is None or spec.root_candidates is None:
            raise ValueError(f"the spec of {game_name!r} has no root candidates grouping")
        return spec.root_candidates()
    if callable(candidates):
        return candidates
    raise ValueError("root_candidates must be None, 'game' or a callable(state)")


# ----------------------------------------------------------------------
# Belief-weighted determinization
# ----------------------------------------------------------------------
def belief_world_seeds(draw: Callable[[int], Any], accept: Callable[[Any], float],
                       n: int, rng: SplitMix64, max_draws: int,
                       deadline: "Deadline | None" = None) -> tuple[list[Any], int]:
    """Rejection sampling of ``n`` worlds: ``w = draw(rng.next())`` (a world
    from the uniform resampler), kept when ``rng.random() < accept(w)``.

    Returns (worlds, draws made).  If fewer than ``n`` are accepted within
    ``max_draws`` draws, the most acceptable of the rejected worlds (ties:
    earliest; re-drawn from their seeds, so rejected worlds are not kept in
    memory) fill the list, so the search always has ``n`` worlds.  Past
    ``deadline`` (or when a draw raises ``ResampleOutOfTime``) drawing stops
    with the worlds accepted so far (possibly none).
    """
    kept: list[Any] = []
    spare: list[tuple[float, int, int]] = []
    draws = 0
    while len(kept) < n and draws < max_draws:
        if deadline is not None and deadline.passed():
            return kept, draws
        ws = rng.next()
        try:
            w = draw(ws)
        except ResampleOutOfTime:
            return kept, draws
        a = accept(w)
        draws += 1
        if rng.random() < a:
            kept.append(w)
        else:
            spare.append((-a, draws, ws))
    if len(kept) < n:
        spare.sort()
        for _, _, ws in spare[:n - len(kept)]:
            if deadline is not None and deadline.passed():
                break
            kept.append(draw(ws))
    return kept, draws


def _belief_worlds(state: pyspiel.State, player: int, engine_worlds: bool, n: int,
                   rng: SplitMix64, deadline: "Deadline | None" = None
                   ) -> tuple[list[Any], int]:
    """``n`` belief-weighted worlds for ``player`` (engines or pyspiel states),
    accepted by the game spec's belief model."""
    accept = world_acceptance(state, player)
    if engine_worlds:
        engine = state.engine
        at, cpu = (None, True) if deadline is None else (deadline.at, deadline.cpu)
        return belief_world_seeds(lambda ws: engine.py_resample(player, ws, at, cpu), accept,
                                  n, rng, 20 * n, deadline)
    return belief_world_seeds(lambda ws: state.resample(player, ws),
                              lambda w: accept(w.engine), n, rng, 20 * n, deadline)


# ----------------------------------------------------------------------
# The two search paths
# ----------------------------------------------------------------------
def fast_search(engine, player: int, *, uct_c: float = 2.0,
                max_simulations: int | None = 1000, time_limit: float = 0.0,
                seed: int = 0, cached_worlds: int = 0, multi_observer: bool = True,
                rollout: Any = None, state: pyspiel.State | None = None,
                determinization: str = "uniform", belief_worlds: int = 64,
                max_depth: int = 0, root_actions: list[int] | None = None,
                widening: tuple[float, float] | None = None,
                deadline: Deadline | None = None, mast: float = 0.0,
                chain: bool = True) -> RootStats:
    """ISMCTS on a Cython engine (``src_cy.ismcts.search``).

    ``max_depth`` > 0 limits the tree to that many decisions (1: flat Monte
    Carlo at the root); ``root_actions`` restricts the root to a subset of
    the legal actions; ``widening=(c, alpha)``: progressive widening ordered
    by the rollout policy (``src_cy/ismcts.pyx``); ``mast=eps`` > 0: MAST
    rollouts (per-action mean returns, eps-greedy) instead of uniform ones.
    ``chain=False``: every per-simulation world is a fresh draw, also where
    the engine chains worlds (``ISMCTSBot``'s ``chain``).

    ``determinization="belief"`` (needs ``state``, the pyspiel state over
    ``engine``): the search iterates over ``belief_worlds`` worlds drawn by
    :func:`belief_world_seeds` with the game's belief model
    (``GameSpec.belief``) from the seed's stream, then
    continues that stream.

    ``deadline``: a hard stop for the whole search, world drawing included
    (``RootStats.out_of_time``; with no world drawn in time, no simulations).
    """
    from src_cy import ismcts as cy
    worlds, draws = None, 0
    if _check_determinization(determinization, belief_worlds) == "belief":
        if state is None or getattr(state, "engine", None) is not engine:
            raise ValueError("determinization='belief' needs the pyspiel state over the engine")
        rng = SplitMix64(seed)
        worlds, draws = _belief_worlds(state, player, True, belief_worlds, rng, deadline)
        seed = rng.s
        if not worlds:
            return RootStats([], [], [], [], 0, 0, 0, rng.s, draws, True, 0)
    r = cy.search(engine, player, uct_c=uct_c, max_simulations=max_simulations,
                  time_limit=time_limit or 0.0, seed=seed, cached_worlds=cached_worlds,
                  multi_observer=multi_observer, rollout=rollout, worlds=worlds,
                  max_depth=max_depth, root_actions=root_actions, widening=widening,
                  deadline=None if deadline is None else deadline.at,
                  deadline_cpu=True if deadline is None else deadline.cpu, mast=mast,
                  chain=chain)
    return RootStats(**r, world_draws=draws)


def _check_determinization(kind: str, belief_worlds: int) -> str:
    if kind not in DETERMINIZATIONS:
        raise ValueError(f"determinization must be one of {DETERMINIZATIONS}, got {kind!r}")
    if kind == "belief" and (not isinstance(belief_worlds, int) or belief_worlds < 1):
        raise ValueError(f"belief_worlds must be an int >= 1, got {belief_worlds!r}")
    return kind


def _world_sampler(state: pyspiel.State, player: int,
                   chain: bool = True) -> Callable[[int], pyspiel.State]:
    """world_seed -> a world drawn from ``player``'s information set (on
    engines with ``chain``, each chained from the last,
    ``Engine.py_resample_history_from``; without, independent draws)."""
    if state_engine(state) is not None and hasattr(state, "resample"):
        if not chain:
            return lambda ws: state.resample(player, ws)
        # each world chained from the last one, as ``fast_search`` draws them
        last: list = [None]

        def chained(ws: int) -> pyspiel.State:
            world = state.resample(player, ws, last[0])
            last[0] = world.history()
            return world
        return chained
    info = state.get_game().get_type().information
    if info == pyspiel.GameType.Information.PERFECT_INFORMATION:
        return lambda ws: state.clone()

    def sample(ws: int) -> pyspiel.State:
        return state.resample_from_infostate(player, SplitMix64(ws).random)
    return sample


def _info_function(state: pyspiel.State) -> Callable[[pyspiel.State, int], Any]:
    """Node identity: the engine's info key on goldspiel states, else the
    information-state string.  (Engines may key the other players of a
    resampled world more finely than their strings; using the key keeps the
    slow path identical to the fast one.)"""
    if state_engine(state) is not None:
        return lambda s, p: s.engine.py_info_key(p)
    return lambda s, p: s.information_state_string(p)


def slow_search(state: pyspiel.State, player: int, *, uct_c: float = 2.0,
                max_simulations: int | None = 1000, time_limit: float = 0.0,
                seed: int = 0, cached_worlds: int = 0, multi_observer: bool = True,
                rollout: SlowRollout | None = None, determinization: str = "uniform",
                belief_worlds: int = 64, max_depth: int = 0,
                root_actions: list[int] | None = None,
                widening: tuple[float, float] | None = None,
                deadline: Deadline | None = None, chain: bool = True) -> RootStats:
    """ISMCTS on pyspiel states; same algorithm and RNG order as ``fast_search``.

    A ``rollout`` with a ``leaf_value(state, steps)`` method may end a rollout
    early: called before every rollout decision, a list of per-player values
    ends it with those values (None rolls on)."""
    from src_cy.ismcts import check_widening
    widen = None if widening is None else check_widening(widening)
    if state.current_player() != player or player < 0:
        raise ValueError(f"player {player} is not to move at the root "
                         f"(player to move: {state.current_player()})")
    max_sims = _check_budget(max_simulations, time_limit)
    if max_depth < 0:
        raise ValueError(f"max_depth must be >= 0, got {max_depth}")
    root_set = None
    if root_actions is not None:
        legal = set(state.legal_actions())
        root_set = set(int(a) for a in root_actions)
        if not root_set or not root_set <= legal:
            raise ValueError("root_actions must be a non-empty subset of the legal actions")
    if cached_worlds < 0:
        raise ValueError(f"cached_worlds must be >= 0, got {cached_worlds}")
    rng = SplitMix64(seed)
    draws = 0
    if _check_determinization(determinization, belief_worlds) == "belief":
        if state_engine(state) is None:
            raise ValueError("determinization='belief' needs a goldspiel game with a "
                             "belief model (solvers.beliefs)")
        worlds, draws = _belief_worlds(state, player, False, belief_worlds, rng, deadline)
        rng = SplitMix64(rng.s)
        if not worlds:
            return RootStats([], [], [], [], 0, 0, 0, rng.s, draws, True, 0)
    else:
        worlds = []
    sampler = _world_sampler(state, player, chain=chain)
    fresh = _world_sampler(state, player, chain=False)     # a pool: independent worlds
    info = _info_function(state)
    root_info = state.information_state_string(player)
    out_of_time = False
    if not worlds:
        for _ in range(cached_worlds):
            if deadline is not None and deadline.passed():
                out_of_time = True
                break
            worlds.append(fresh(rng.next()))
        if cached_worlds and not worlds:
            return RootStats([], [], [], [], 0, 0, 0, rng.s, draws, True, 0)
    pool = len(worlds)
    tree: dict[Any, dict[int, list]] = {}
    meta: dict[Any, list[int]] = {}            # key -> [visits, ranked] (widening)
    root_key = None
    inconsistent = 0
    sims = 0
    stop_at = time.perf_counter() + time_limit if time_limit and time_limit > 0 else math.inf
    while sims < max_sims:
        if worlds:
            s = worlds[rng.randint(len(worlds))].clone()
        else:
            s = sampler(rng.next())
        if s.information_state_string(player) != root_info:
            inconsistent += 1
        path = []
        depth = 0
        values = None
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(sample_sorted(sorted(s.chance_outcomes()), rng))
                continue
            cp = s.current_player()
            if max_depth and depth >= max_depth:
                values = _rollout(s, rng, rollout)
                break
            acts = sorted(s.legal_actions())
            if depth == 0 and root_set is not None:
                acts = [a for a in acts if a in root_set]
            key = ((cp, info(s, cp)) if multi_observer else (cp, info(s, player), depth))
            node = tree.get(key)
            if node is None:
                node = tree[key] = {a: [0, 0.0, 0, -1] for a in acts}
                meta[key] = [0, 0]
                if root_key is None:
                    root_key = key
                else:
                    values = _rollout(s, rng, rollout)
                    break
            for a in acts:
                if a not in node:
                    node[a] = [0, 0.0, 0, -1]
            if widen is not None:
                acts = _widen(node, meta[key], s, acts, rng, rollout, widen)
            meta[key][0] += 1
            untried = [a for a in acts if node[a][0] == 0]
            if untried:
                chosen = untried[rng.randint(len(untried))]
            else:
                best = -math.inf
                for a in acts:
                    v, w, av, _ = node[a]
                    score = w / v + uct_c * math.sqrt(math.log(av) / v)
                    if score > best:
                        best, chosen = score, a
            for a in acts:
                edge = node[a]
                if edge[0] > 0 or a == chosen:
                    edge[2] += 1
            path.append((node[chosen], cp))
            s.apply_action(chosen)
            depth += 1
        ret = s.returns() if values is None else values
        for edge, p in path:
            edge[0] += 1
            edge[1] += ret[p]
        sims += 1
        if time.perf_counter() >= stop_at:
            break
        if deadline is not None and deadline.passed():
            out_of_time = True
            break
    root = tree[root_key]
    acts = sorted(root)
    return RootStats([a for a in acts], [root[a][0] for a in acts],
                     [root[a][1] for a in acts], [root[a][2] for a in acts],
                     sims, len(tree), inconsistent, rng.s, draws, out_of_time, pool)


def _widen(node: dict, meta: list[int], s: pyspiel.State, acts: list[int],
           rng: SplitMix64, policy: SlowRollout | None,
           widen: tuple[float, float]) -> list[int]:
    """Progressive widening at one node (same rule and draws as
    ``_Search.widen`` in ``src_cy/ismcts.pyx``): the ranked actions of
    ``acts``, ranking more by the rollout policy as needed."""
    c, alpha = widen
    allowed = max(1, math.floor(c * float(meta[0] + 1) ** alpha))
    while True:
        unranked = [a for a in acts if node[a][3] < 0]
        if not unranked or (len(unranked) < len(acts) and meta[1] >= allowed):
            break
        a = (unranked[rng.randint(len(unranked))] if policy is None
             else policy(s, unranked, rng))
        node[a][3] = meta[1]
        meta[1] += 1
    return [a for a in acts if node[a][3] >= 0]


def _rollout(s: pyspiel.State, rng: SplitMix64, policy: SlowRollout | None) -> list | None:
    """Roll out to the end (None) or until the policy's ``leaf_value`` gives
    per-player values (returned)."""
    leaf = getattr(policy, "leaf_value", None)
    steps = 0
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(sample_sorted(sorted(s.chance_outcomes()), rng))
            continue
        if leaf is not None:
            values = leaf(s, steps)
            if values is not None:
                return values
        acts = sorted(s.legal_actions())
        s.apply_action(acts[rng.randint(len(acts))] if policy is None
                       else policy(s, acts, rng))
        steps += 1
    return None


def _check_budget(max_simulations: int | None, time_limit: float | None) -> int:
    if max_simulations is None:
        if not time_limit or time_limit <= 0:
            raise ValueError("give max_simulations or a positive time_limit")
        return 1 << 62
    if int(max_simulations) < 1:
        raise ValueError(f"max_simulations must be >= 1, got {max_simulations}")
    return int(max_simulations)


def final_policy(stats: RootStats, legal_actions: list[int], kind: str,
                 rng: SplitMix64) -> tuple[list[tuple[int, float]], int]:
    """Policy over ``legal_actions`` and the move, from root statistics.

    ``max_visits``: one-hot on the most visited action (lowest on ties);
    ``visit_distribution``: visit shares, move drawn with one ``rng.random()``.
    """
    visits = dict(zip(stats.actions, stats.visits))
    legal = sorted(legal_actions)
    counts = [visits.get(a, 0) for a in legal]
    total = sum(counts)
    if total == 0:
        raise RuntimeError("search produced no root visits")
    if kind == "max_visits":
        best = legal[counts.index(max(counts))]
        return [(a, 1.0 if a == best else 0.0) for a in legal], best
    if kind == "visit_distribution":
        policy = [(a, c / total) for a, c in zip(legal, counts)]
        return policy, sample_sorted(policy, rng)
    raise ValueError(f"final_policy must be one of {FINAL_POLICIES}, got {kind!r}")


def anchored_choice(stats: RootStats, choice: int, anchor: int, z: float,
                    utility_range: tuple[float, float]) -> int:
    """``choice`` if its mean return beats ``anchor``'s by more than ``z``
    standard errors, else ``anchor``.

    The variance of one return with mean m in [lo, hi] is bounded by
    (m - lo)(hi - m) (a two-point distribution), so the standard error of the
    difference of means is sqrt(v_c / n_c + v_a / n_a).  An anchor never
    visited is kept (no evidence against it).
    """
    if choice == anchor:
        return anchor
    idx = {a: i for i, a in enumerate(stats.actions)}
    if anchor not in idx or choice not in idx:
        return anchor
    lo, hi = utility_range
    nc, na = stats.visits[idx[choice]], stats.visits[idx[anchor]]
    if nc == 0 or na == 0:
        return anchor
    mc, ma = stats.values[idx[choice]] / nc, stats.values[idx[anchor]] / na
    var = lambda m: max((m - lo) * (hi - m), 0.0)
    se = math.sqrt(var(mc) / nc + var(ma) / na)
    return choice if mc - ma > z * se else anchor


# ----------------------------------------------------------------------
# The bot
# ----------------------------------------------------------------------
class ISMCTSBot(Bot):
    """ISMCTS bot; engine speed on goldspiel games, pyspiel speed elsewhere.

    Args:
      game: the pyspiel game (sequential; imperfect information needs
        ``resample_from_infostate``).
      uct_c: UCB1 exploration constant (returns are the game's raw returns).
      max_simulations: iterations per move (None: only ``time_limit``).
      time_limit: seconds per move (0/None: only ``max_simulations``).
      seed: seeds the bot's splitmix64 stream; each move draws one search
        seed from it.  None draws a seed from the OS.
      cached_worlds: 0 samples a fresh world every iteration; K > 0 samples
        K worlds once per move and picks one at random each iteration.
      multi_observer: MO-ISMCTS (default) or SO-ISMCTS.
      final_policy: "max_visits" or "visit_distribution".
      rollout: "random", "heuristic" (the game spec's ``rollout`` /
        ``slow_rollout``, ``games.spec``) or a policy object
        (``RolloutPolicy`` on engines, callable on pyspiel).
      use_engine: search on the state's engine when it has one (the fast
        path, default); False: always the pyspiel path.
      determinization: "uniform" (the engine's resampler, every world of the
        information set by its chance probability) or "belief" (worlds
        re-weighted by the game's opponent model, ``solvers.beliefs``).
      belief_worlds: worlds drawn per move with ``determinization="belief"``.
      max_depth: tree depth limit in decisions (0: none; 1: flat Monte Carlo
        over the root actions, everything after rolled out).
      rollout_cutoff: 0 (rollouts play to the end) or N > 0: with
        ``rollout="heuristic"``, a rollout ends after N rollout decisions with
        the game rollout's leaf evaluation (``GameSpec.rollout(cutoff=N)``).
      widening: None, or ``(c, alpha)``: progressive widening in the tree,
        the actions ranked in the rollout policy's order (``src_cy/ismcts.pyx``).
      root_candidates: None (every legal action), "game" (the game's
        spec's ``root_candidates`` grouping) or a
        callable(state) -> actions.
      anchor: None, "heuristic" (the game's heuristic bot), the name of one of
        the game spec's own bots (``GameSpec.bots``) or a pyspiel.Bot
        whose move is the default: its action is always searched, and the bot
        plays the search's choice only if that choice's mean return beats the
        anchor's by more than ``anchor_z`` standard errors (see
        :func:`anchored_choice`); otherwise the anchor's move.  An anchor
        built by name gets the bot's ``move_budget`` too.
      anchor_z: that margin (>= 0).
      move_budget: None, or a hard cap in seconds on everything a move does
        (the anchor's move, drawing worlds, the search): at the cap the
        search stops and plays from what it has; if it has no simulation
        (no world drawn in time), the bot plays the anchor's move, else the
        game's heuristic move, else a uniformly random legal move (the
        resampler never falls back to the true world).  Moves that stay
        under the cap are unchanged and seed-deterministic; a move that
        reaches it depends on the machine's speed (``docs/ai.md``,
        "Move-time budget").
      budget_clock: "cpu" (the process's CPU time, ``time.process_time``)
        or "wall" (``time.monotonic``).
      mast: 0 (off) or eps in (0, 1]: MAST rollouts (Move-Average Sampling
        Technique: per player and action, the mean return of the simulations
        that played it; a rollout move is uniform with probability eps, else
        the best by that mean). Needs ``rollout="random"`` and the engine
        path (``src_cy/ismcts.pyx``).
      chain: True (default): with ``cached_worlds=0``, each simulation's
        world continues from the last one where the engine chains worlds
        (Gold Nugget, Gold Thief: ``set_resample_chain``; cheaper, correlated
        worlds of the same law); False: every world a fresh draw.
    """

    def __init__(self, game: pyspiel.Game, uct_c: float = 2.0,
                 max_simulations: int | None = 1000, time_limit: float | None = None,
                 seed: int | None = None, cached_worlds: int = 0,
                 multi_observer: bool = True, final_policy: str = "max_visits",
                 rollout: Any = "random", use_engine: bool = True,
                 determinization: str = "uniform", belief_worlds: int = 64,
                 max_depth: int = 0, root_candidates: Any = None,
                 anchor: Any = None, anchor_z: float = 2.0, rollout_cutoff: int = 0,
                 widening: tuple[float, float] | None = None,
                 move_budget: float | None = None, budget_clock: str = "cpu",
                 mast: float = 0.0, chain: bool = True):
        Bot.__init__(self, game,
                     int.from_bytes(os.urandom(8), "little") if seed is None else seed,
                     move_budget, budget_clock)
        gtype = game.get_type()
        if gtype.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
            raise ValueError(f"ISMCTS needs a sequential game; {gtype.short_name} is not")
        if final_policy not in FINAL_POLICIES:
            raise ValueError(f"final_policy must be one of {FINAL_POLICIES}, got {final_policy!r}")
        if uct_c < 0 or not math.isfinite(uct_c):
            raise ValueError(f"uct_c must be a finite number >= 0, got {uct_c}")
        _check_budget(max_simulations, time_limit)
        if cached_worlds < 0:
            raise ValueError(f"cached_worlds must be >= 0, got {cached_worlds}")
        self.uct_c = float(uct_c)
        self.max_simulations = max_simulations
        self.time_limit = float(time_limit or 0.0)
        self.cached_worlds = int(cached_worlds)
        if not isinstance(chain, bool):
            raise ValueError(f"chain must be True or False, got {chain!r}")
        self.chain = chain
        self.multi_observer = bool(multi_observer)
        self.final_policy = final_policy
        self.use_engine = bool(use_engine)
        self.determinization = _check_determinization(determinization, belief_worlds)
        self.belief_worlds = belief_worlds
        if not isinstance(max_depth, int) or max_depth < 0:
            raise ValueError(f"max_depth must be an int >= 0, got {max_depth!r}")
        self.max_depth = max_depth
        if not isinstance(rollout_cutoff, int) or rollout_cutoff < 0:
            raise ValueError(f"rollout_cutoff must be an int >= 0, got {rollout_cutoff!r}")
        if rollout_cutoff and rollout != "heuristic":
            raise ValueError("rollout_cutoff needs rollout='heuristic' (the game spec's "
                             "rollout with its leaf evaluation)")
        self.rollout_cutoff = rollout_cutoff
        if widening is not None:
            from src_cy.ismcts import check_widening
            widening = check_widening(widening)
        self.widening = widening
        from src_cy.ismcts import check_mast
        self.mast = check_mast(mast)
        if self.mast and rollout != "random":
            raise ValueError(f"mast replaces the uniform rollout; it needs rollout='random', "
                             f"got rollout={rollout!r}")
        if self.mast and (not self.use_engine or find_spec(gtype.short_name) is None):
            raise ValueError(f"mast needs the engine path (a goldspiel game, use_engine=True); "
                             f"{gtype.short_name!r} would be searched on pyspiel states")
        self._candidates = _resolve_candidates(gtype.short_name, root_candidates)
        if anchor == "heuristic":
            spec = find_spec(gtype.short_name)
            if spec is None or spec.heuristic is None:
                raise ValueError(f"anchor='heuristic': the spec of {gtype.short_name!r} "
                                 f"has no heuristic bot")
            anchor = spec.heuristic(game, seed=self.seed, move_budget=move_budget,
                                    budget_clock=budget_clock)
        elif isinstance(anchor, str):
            spec = find_spec(gtype.short_name)
            bots = {} if spec is None else spec.bots
            if anchor not in bots:
                raise ValueError(f"anchor={anchor!r}: not 'heuristic' and not a bot of the "
                                 f"spec of {gtype.short_name!r} (its bots: {sorted(bots)})")
            anchor = bots[anchor](game, seed=self.seed, move_budget=move_budget,
                                  budget_clock=budget_clock)
        if anchor is not None and not isinstance(anchor, pyspiel.Bot):
            raise ValueError("anchor must be None, 'heuristic', a bot name of the game's "
                             "spec or a pyspiel.Bot")
        if not anchor_z >= 0 or not math.isfinite(anchor_z):
            raise ValueError(f"anchor_z must be a finite number >= 0, got {anchor_z}")
        self.anchor = anchor
        self.anchor_z = float(anchor_z)
        self._utility_range = (game.min_utility(), game.max_utility())
        self._anchor_action: int | None = None
        if determinization == "belief":
            spec = find_spec(gtype.short_name)
            if spec is None or spec.belief is None:
                raise ValueError(f"determinization='belief' needs a belief model; the spec "
                                 f"of {gtype.short_name!r} has none")
        self._rollout_spec = rollout
        self._fast_rollout = None
        self._slow_rollout = None
        self.last_stats: RootStats | None = None
        self._fallback: pyspiel.Bot | None = None
        self.fallback_moves = 0


    def search(self, state: pyspiel.State, deadline: Deadline | None = None) -> RootStats:
        """Run one search from ``state`` (a decision node) with the next seed;
        ``deadline`` stops it (``RootStats.out_of_time``)."""
        if state.is_terminal() or state.is_chance_node():
            raise ValueError("ISMCTSBot can only search at a decision node")
        if state.get_game().get_type().short_name != self.game.get_type().short_name:
            raise ValueError("state is from a different game than the bot's")
        seed = self._rng.next()
        player = state.current_player()
        name = self.game.get_type().short_name
        kwargs = dict(uct_c=self.uct_c, max_simulations=self.max_simulations,
                      time_limit=self.time_limit, seed=seed,
                      cached_worlds=self.cached_worlds, multi_observer=self.multi_observer,
                      determinization=self.determinization, belief_worlds=self.belief_worlds,
                      max_depth=self.max_depth, root_actions=self._root_actions(state),
                      widening=self.widening, deadline=deadline, chain=self.chain)
        engine = state_engine(state, self.use_engine)
        if engine is not None:
            if self._fast_rollout is None:
                self._fast_rollout = _resolve_rollout(name, self._rollout_spec, True,
                                                      self.rollout_cutoff)
            stats = fast_search(engine, player, rollout=self._fast_rollout, state=state,
                                mast=self.mast, **kwargs)
        else:
            if self._slow_rollout is None:
                self._slow_rollout = _resolve_rollout(name, self._rollout_spec, False,
                                                      self.rollout_cutoff)
            stats = slow_search(state, player, rollout=self._slow_rollout, **kwargs)
        self.last_stats = stats
        return stats

    def _root_actions(self, state: pyspiel.State) -> list[int] | None:
        self._anchor_action = None
        if self.anchor is not None:
            self._anchor_action = self.anchor.step(state)
        if self._candidates is None:
            return None
        cand = set(self._candidates(state))
        if self._anchor_action is not None:
            cand.add(self._anchor_action)
        return sorted(cand)

    def step_with_policy(self, state: pyspiel.State) -> tuple[list[tuple[int, float]], int]:
        """(policy over legal actions, chosen action)."""
        stats = self.search(state, self.move_deadline())
        if stats.simulations == 0:
            action = self._fallback_move(state)
            return [(a, 1.0 if a == action else 0.0) for a in sorted(state.legal_actions())], \
                action
        policy, action = final_policy(stats, state.legal_actions(), self.final_policy,
                                      SplitMix64(stats.rng_state))
        if self._anchor_action is None:
            return policy, action
        action = anchored_choice(stats, action, self._anchor_action, self.anchor_z,
                                 self._utility_range)
        return [(a, 1.0 if a == action else 0.0) for a in sorted(state.legal_actions())], action

    def _fallback_move(self, state: pyspiel.State) -> int:
        """The move when the budget ran out before any simulation: the
        anchor's, else the game's heuristic's, else uniformly random."""
        self.fallback_moves += 1
        if self._anchor_action is not None:
            return self._anchor_action
        if self._fallback is None:
            spec = find_spec(self.game.get_type().short_name)
            self._fallback = (spec.heuristic(self.game, seed=self.seed)
                              if spec is not None and spec.heuristic is not None
                              else _UniformBot(self.game, self.seed))
        return self._fallback.step(state)


class _UniformBot(Bot):
    """A uniformly random legal move from the bot's own stream (fallback)."""

    def step_with_policy(self, state: pyspiel.State) -> tuple[list[tuple[int, float]], int]:
        legal = sorted(state.legal_actions())
        action = legal[self._rng.randint(len(legal))]
        return [(a, 1.0 / len(legal)) for a in legal], action
