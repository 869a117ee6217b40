"""Drop-in replacements for OpenSpiel's Python CFR solvers, on compiled trees.

``CFRSolver``, ``CFRPlusSolver``, ``LinearCFRSolver`` and ``DCFRSolver`` take
a ``pyspiel`` game and offer ``evaluate_and_update_policy()``,
``current_policy()`` and ``average_policy()`` (array-backed OpenSpiel
policies, ``solvers.policy_arrays.ArrayPolicy``, updated in place and shared
between calls, like OpenSpiel's; ``.to_tabular()`` for a ``TabularPolicy``).  The
update rules are those of ``open_spiel.python.algorithms.cfr`` and
``discounted_cfr``, so the policies agree with OpenSpiel's to rounding error.

Extras: ``run(n)`` (many iterations in one call), ``nash_conv()`` and (on
2-player constant-sum games only) ``exploitability()`` of the average policy,
``measure()`` (whichever of the two applies), flat ``average_policy_array()``, and
atomic ``save_checkpoint`` / ``load_checkpoint``.
"""
from __future__ import annotations

import os
from typing import Any

import numpy as np
import pyspiel

from solvers import policy_arrays, policy_io
from solvers.policy_arrays import ArrayPolicy
from solvers.tree import DEFAULT_MAX_NODES, CompiledTree, compile_game
from src_cy import cfr_core

__all__ = ["CFRSolver", "CFRPlusSolver", "LinearCFRSolver", "DCFRSolver", "CompiledCFRSolver"]


class CompiledCFRSolver:
    """CFR-family solver on a ``CompiledTree``; the public classes fix its rules."""

    kind = "cfr"

    def __init__(self, game: pyspiel.Game, *, rm_plus: bool, avg_mode: int, gamma: float = 1.0,
                 discount: bool = False, alpha: float = 1.0, beta: float = 1.0,
                 max_nodes: int = DEFAULT_MAX_NODES, tree: CompiledTree | None = None):
        if not isinstance(game, pyspiel.Game):
            raise TypeError(f"game must be a pyspiel.Game, got {type(game).__name__}")
        self._game = game
        self.tree = tree if tree is not None else compile_game(game, max_nodes=max_nodes)
        if self.tree.game_string != str(game):
            raise ValueError(f"tree is for {self.tree.game_string}, not {game}")
        self._params = dict(rm_plus=bool(rm_plus), avg_mode=int(avg_mode), gamma=float(gamma),
                            discount=bool(discount), alpha=float(alpha), beta=float(beta))
        self._core = cfr_core.CFRCore(self.tree, **self._params)
        self._policies: dict[str, ArrayPolicy] = {}

    # ------------------------------------------------------------------
    @property
    def iteration(self) -> int:
        """Number of completed iterations."""
        return int(self._core.iteration)

    def evaluate_and_update_policy(self) -> None:
        """One iteration: an alternating-update pass for every player."""
        self._core.iterate(1)

    def run(self, iterations: int) -> None:
        """Run ``iterations`` iterations without returning to Python between them."""
        if iterations < 0:
            raise ValueError(f"iterations must be >= 0, got {iterations}")
        self._core.iterate(int(iterations))

    def current_policy_array(self) -> np.ndarray:
        """Current policy as a flat array over (infoset, action) slots (a copy)."""
        return np.array(self._core.policy)

    def average_policy_array(self) -> np.ndarray:
        """Average policy as a flat array over (infoset, action) slots."""
        return self._core.average()

    def _policy(self, name: str, values: np.ndarray) -> ArrayPolicy:
        pol = self._policies.get(name)
        if pol is None:
            pol = policy_arrays.from_tree(self._game, self.tree, np.array(values))
            self._policies[name] = pol
        else:
            pol.probs[:] = values
        return pol

    def current_policy(self) -> ArrayPolicy:
        """The current (regret-matching) policy; same object on every call, refreshed."""
        return self._policy("current", self.current_policy_array())

    def average_policy(self) -> ArrayPolicy:
        """The average policy; same object on every call, refreshed each time.

        An array-backed OpenSpiel policy (O(1) lookups); ``.to_tabular()``
        gives a ``TabularPolicy`` for small games.
        """
        return self._policy("average", self.average_policy_array())

    def nash_conv(self) -> float:
        """NashConv of the average policy (exact, on the compiled tree)."""
        from solvers.exploitability import nash_conv_of_array
        return nash_conv_of_array(self.tree, self.average_policy_array())

    def exploitability(self) -> float:
        """Exploitability of the average policy (2-player constant-sum games only).

        Raises ``ValueError`` on other games: use ``nash_conv()`` or
        ``measure()`` there.
        """
        from solvers.exploitability import check_constant_sum_2p, exploitability_of_array
        check_constant_sum_2p(self._game)
        return exploitability_of_array(self.tree, self.average_policy_array(),
                                       self._game.utility_sum())

    def measure(self) -> tuple[str, float]:
        """("exploitability", value) on 2-player constant-sum games, else ("nash_conv", value)."""
        from solvers.exploitability import measure_of_array
        return measure_of_array(self._game, self.tree, self.average_policy_array())

    # ------------------------------------------------------------------
    def save_checkpoint(self, path: str | os.PathLike) -> None:
        """Write the solver state to ``path`` atomically (tmp file + rename)."""
        meta = {"solver": type(self).__name__, "params": self._params,
                "iteration": self.iteration, "num_infosets": self.tree.num_infosets,
                "infoset_digest": policy_io.infoset_digest(self.tree.infoset_strings)}
        policy_io.save_arrays(path, kind="cfr-checkpoint", game=str(self._game), meta=meta,
                              arrays={"regret": np.asarray(self._core.regret),
                                      "cum_policy": np.asarray(self._core.cum_policy)})

    def load_checkpoint(self, path: str | os.PathLike) -> None:
        """Resume from ``save_checkpoint`` output; refuses another game or solver."""
        meta, arrays = policy_io.load_arrays(path, kind="cfr-checkpoint", game=str(self._game))
        if meta.get("solver") != type(self).__name__ or meta.get("params") != self._params:
            raise ValueError(
                f"checkpoint {path} was written by {meta.get('solver')} {meta.get('params')}, "
                f"not {type(self).__name__} {self._params}")
        if meta.get("infoset_digest") != policy_io.infoset_digest(self.tree.infoset_strings):
            raise ValueError(f"checkpoint {path} does not match this game's information sets")
        for name in ("regret", "cum_policy"):
            if arrays[name].shape != (self.tree.num_slots,):
                raise ValueError(f"checkpoint {path}: array {name} has shape "
                                 f"{arrays[name].shape}, expected ({self.tree.num_slots},)")
        np.asarray(self._core.regret)[:] = arrays["regret"]
        np.asarray(self._core.cum_policy)[:] = arrays["cum_policy"]
        self._core.iteration = int(meta["iteration"])
        self._core.refresh_policy()


class CFRSolver(CompiledCFRSolver):
    """Vanilla CFR: regret matching, alternating updates, uniform averaging."""

    def __init__(self, game: pyspiel.Game, **kw: Any):
        super().__init__(game, rm_plus=False, avg_mode=cfr_core.AVG_CONSTANT, **kw)


class CFRPlusSolver(CompiledCFRSolver):
    """CFR+: regret matching+, alternating updates, linear averaging."""

    def __init__(self, game: pyspiel.Game, **kw: Any):
        super().__init__(game, rm_plus=True, avg_mode=cfr_core.AVG_LINEAR, **kw)


class DCFRSolver(CompiledCFRSolver):
    """Discounted CFR(alpha, beta, gamma) as in OpenSpiel's ``discounted_cfr``."""

    def __init__(self, game: pyspiel.Game, alpha: float = 1.5, beta: float = 0.0,
                 gamma: float = 2.0, **kw: Any):
        super().__init__(game, rm_plus=False, avg_mode=cfr_core.AVG_POWER, gamma=gamma,
                         discount=True, alpha=alpha, beta=beta, **kw)


class LinearCFRSolver(DCFRSolver):
    """Linear CFR, i.e. DCFR(1, 1, 1) (OpenSpiel's ``LCFRSolver``)."""

    def __init__(self, game: pyspiel.Game, **kw: Any):
        super().__init__(game, alpha=1.0, beta=1.0, gamma=1.0, **kw)


POLICY_BOT_FALLBACKS = ("uniform", "ismcts", "error")
_LOADED: dict[tuple, ArrayPolicy] = {}


def _cached_policy(path: str, game: pyspiel.Game) -> ArrayPolicy:
    """Load a policy file once per process (keyed by path, size, mtime and game)."""
    st = os.stat(path)
    key = (os.path.abspath(path), st.st_size, st.st_mtime_ns, str(game))
    pol = _LOADED.get(key)
    if pol is None:
        pol = policy_io.load_policy_file(path, game, fallback="error")
        _LOADED.clear()
        _LOADED[key] = pol
    return pol


class PolicyBot(pyspiel.Bot):
    """Plays a policy table: a policy file, or a CFR+ solve of a small game.

    ``make_bot("cfr", game, policy_file=..., fallback=..., seed=...)`` loads a
    policy file (``.npz`` array policy or JSON table, see
    ``solvers.policy_io``); without a file it runs ``iterations`` of CFR+ on
    the compiled tree first (small games only).  An information state missing
    from the table is a *miss*, answered by ``fallback``: ``"uniform"`` over
    the legal actions, ``"ismcts"`` (an ISMCTS search with
    ``fallback_simulations``), or ``"error"`` (raise ``PolicyMissError``).
    ``stats()`` reports decisions and misses; ``experiments.match`` prints them.
    ``purify=True`` plays the most probable action (the first of equals)
    instead of sampling.  A policy over an action abstraction
    (``solvers.abstractions.AbstractedPolicy``) is played through its
    abstract actions mapped to concrete ones; there a miss under
    ``fallback="uniform"`` is uniform over the abstract actions.
    """

    def __init__(self, game: pyspiel.Game, policy_file: str | None = None,
                 iterations: int = 200, seed: int | None = 0, fallback: str = "uniform",
                 fallback_simulations: int = 200, purify: bool = False):
        pyspiel.Bot.__init__(self)
        from solvers.ismcts import SplitMix64
        if fallback not in POLICY_BOT_FALLBACKS:
            raise ValueError(f"fallback must be one of {POLICY_BOT_FALLBACKS}, got {fallback!r}")
        if fallback_simulations < 1:
            raise ValueError(f"fallback_simulations must be positive, got {fallback_simulations}")
        if policy_file is not None:
            if not os.path.exists(policy_file):
                raise ValueError(f"policy_file {policy_file!r} does not exist")
            self.policy = _cached_policy(os.fspath(policy_file), game)
        else:
            if iterations < 1:
                raise ValueError(f"iterations must be positive, got {iterations}")
            solver = CFRPlusSolver(game)
            solver.run(iterations)
            self.policy = solver.average_policy()
        if not isinstance(purify, bool):
            raise ValueError(f"purify must be true or false, got {purify!r}")
        self.fallback, self.purify = fallback, purify
        self._game = game
        self._seed = 0 if seed is None else int(seed)
        self._fallback_sims = int(fallback_simulations)
        self._search = None
        self._rng = SplitMix64(self._seed)
        self.decisions = 0
        self.misses = 0

    def stats(self) -> dict[str, int]:
        """{"decisions": moves made, "misses": moves not found in the table}."""
        return {"decisions": self.decisions, "misses": self.misses}

    def _miss(self, state: pyspiel.State, legal: list[int]) -> tuple[list, int | None]:
        self.misses += 1
        if self.fallback == "error":
            from solvers.policy_arrays import PolicyMissError
            p = state.current_player()
            raise PolicyMissError(f"PolicyBot: no table entry for player {p} at "
                                  f"{state.information_state_string(p)!r} (fallback='error')")
        if self.fallback == "ismcts":
            if self._search is None:
                from solvers.ismcts import ISMCTSBot
                self._search = ISMCTSBot(self._game, max_simulations=self._fallback_sims,
                                         seed=self._seed)
            return self._search.step_with_policy(state)
        return [(a, 1.0 / len(legal)) for a in legal], None

    def step_with_policy(self, state: pyspiel.State) -> tuple[list[tuple[int, float]], int]:
        legal = sorted(state.legal_actions())
        if not legal:
            raise ValueError("PolicyBot: no legal actions (chance or terminal state)")
        self.decisions += 1
        pol = self.policy
        if hasattr(pol, "concrete_row"):
            # A table over an action abstraction: abstract ids mapped to concrete actions; a
            # miss under fallback "uniform" is uniform over the abstract actions.
            policy = pol.concrete_row(state)
            if policy is None and self.fallback == "uniform":
                self.misses += 1
                policy = pol.concrete_row(state, uniform=True)
            elif policy is None:
                policy, action = self._miss(state, legal)
                return policy, action
            row = 0
        else:
            row = pol.row_of(state)
        if row < 0:
            policy, action = self._miss(state, legal)
            if action is not None:
                return policy, action
        elif not hasattr(pol, "concrete_row"):
            o, n = int(pol.row_offset[row]), int(pol.row_num[row])
            policy = sorted(zip(pol.actions[o:o + n].tolist(), pol.probs[o:o + n].tolist()))
            if [a for a, _ in policy] != legal:
                raise ValueError(f"PolicyBot: table actions {[a for a, _ in policy]} differ from "
                                 f"the legal actions {legal}; wrong policy for this game?")
        if self.purify:
            return policy, max(policy, key=lambda ap: ap[1])[0]
        u, acc = self._rng.random(), 0.0
        for action, p in policy:
            acc += p
            if u < acc:
                return policy, action
        return policy, policy[-1][0]

    def step(self, state: pyspiel.State) -> int:
        return self.step_with_policy(state)[1]

    def provides_policy(self) -> bool:
        return True

    def restart_at(self, state: pyspiel.State) -> None:
        """Stateless."""

    def inform_action(self, state: pyspiel.State, player_id: int, action: int) -> None:
        """Stateless."""


def _register_policy_bot() -> None:
    from solvers.bots import register_bot
    register_bot("cfr", PolicyBot)


_register_policy_bot()
