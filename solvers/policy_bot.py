"""``PolicyBot``: plays a policy table (``make_bot("cfr", ...)``)."""
from __future__ import annotations

import os

import pyspiel

from solvers import policy_io
from games.interfaces import Bot, Policy
from solvers.cfr import CFRPlusSolver
from solvers.policy_arrays import ArrayPolicy, PolicyMissError
from src_cy.rng import sample_sorted

POLICY_BOT_FALLBACKS = ("uniform", "default", "ismcts", "error")
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


class PolicyBot(Bot):
    """Plays a policy table: a policy file, or a CFR+ solve of a small game.

    ``make_bot("cfr", game, policy_file=..., fallback=..., seed=...)`` loads a
    policy file (``.npz`` array policy or JSON table, see
    ``solvers.policy_io``), or plays a given ``policy`` (an ``ArrayPolicy``,
    e.g. a solver's ``average_policy()``); without either it runs ``iterations`` of CFR+ on
    the compiled tree first (small games only).  An information state missing
    from the table is a *miss*, answered by ``fallback``: ``"uniform"`` over
    the legal actions, ``"ismcts"`` (an ISMCTS search with
    ``fallback_simulations``), or ``"error"`` (raise ``PolicyMissError``);
    for a policy over an action abstraction also ``"default"``, its first
    available abstract action (Saboteur's: the heuristic's move).
    ``stats()`` reports decisions and misses; ``experiments.match`` prints them.
    ``purify=True`` plays the most probable action (the first of equals)
    instead of sampling.  ``move_budget`` caps the ``"ismcts"`` fallback's
    search (a table lookup needs no cap).  A policy over an action abstraction
    (``solvers.abstractions.AbstractedPolicy``) is played through its
    abstract actions mapped to concrete ones; there a miss under
    ``fallback="uniform"`` is uniform over the abstract actions.
    """

    def __init__(self, game: pyspiel.Game, policy_file: str | None = None,
                 iterations: int = 200, seed: int | None = 0, fallback: str = "uniform",
                 fallback_simulations: int = 200, purify: bool = False,
                 policy: ArrayPolicy | None = None, move_budget: float | None = None,
                 budget_clock: str = "cpu"):
        Bot.__init__(self, game, seed, move_budget, budget_clock)
        if fallback not in POLICY_BOT_FALLBACKS:
            raise ValueError(f"fallback must be one of {POLICY_BOT_FALLBACKS}, got {fallback!r}")
        if fallback_simulations < 1:
            raise ValueError(f"fallback_simulations must be positive, got {fallback_simulations}")
        if policy is not None and policy_file is not None:
            raise ValueError("give policy or policy_file, not both")
        if policy is not None:
            if not isinstance(policy, ArrayPolicy):
                raise ValueError(f"policy must be an ArrayPolicy, got {type(policy).__name__}")
            self.policy = policy
        elif policy_file is not None:
            if not os.path.exists(policy_file):
                raise ValueError(f"policy_file {policy_file!r} does not exist")
            self.policy = _cached_policy(os.fspath(policy_file), game)
        else:
            if iterations < 1:
                raise ValueError(f"iterations must be positive, got {iterations}")
            solver = CFRPlusSolver(game)
            solver.run(iterations)
            self.policy = solver.average_policy()
        if fallback == "default" and not hasattr(self.policy, "concrete_row"):
            raise ValueError("fallback 'default' needs a policy over an action abstraction "
                             "(its first abstract action); this one has none")
        if not isinstance(purify, bool):
            raise ValueError(f"purify must be true or false, got {purify!r}")
        self.fallback, self.purify = fallback, purify
        self._fallback_sims = int(fallback_simulations)
        self._search = None
        self.decisions = 0
        self.misses = 0

    def stats(self) -> dict[str, int]:
        """{"decisions": moves made, "misses": moves not found in the table}."""
        return {"decisions": self.decisions, "misses": self.misses}

    def _miss(self, state: pyspiel.State, legal: list[int]) -> tuple[Policy, int | None]:
        self.misses += 1
        if self.fallback == "error":
            p = state.current_player()
            raise PolicyMissError(f"PolicyBot: no table entry for player {p} at "
                                  f"{state.information_state_string(p)!r} (fallback='error')")
        if self.fallback == "ismcts":
            if self._search is None:
                from solvers.ismcts import ISMCTSBot
                self._search = ISMCTSBot(self.game, max_simulations=self._fallback_sims,
                                         seed=self.seed, move_budget=self.move_budget,
                                         budget_clock=self.budget_clock)
            return self._search.step_with_policy(state)
        return [(a, 1.0 / len(legal)) for a in legal], None

    def step_with_policy(self, state: pyspiel.State) -> tuple[Policy, int]:
        legal = self.legal_at_decision(state)
        self.decisions += 1
        pol = self.policy
        if hasattr(pol, "concrete_row"):
            # A table over an action abstraction: abstract ids mapped to concrete actions; a
            # miss under fallback "uniform" is uniform over the abstract actions, under
            # "default" the first of them.
            policy = pol.concrete_row(state)
            if policy is None and self.fallback in ("uniform", "default"):
                self.misses += 1
                policy = pol.concrete_row(state, miss=self.fallback)
            elif policy is None:
                return self._miss(state, legal)
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
        return policy, sample_sorted(policy, self._rng)
