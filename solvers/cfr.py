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
