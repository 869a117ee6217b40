"""Bias of the Gold Nugget walks, alone and followed by the corrector,
measured against the exact stage (docs/rules/gold_nugget.md, "Resampling"):
on information sets the exact stage can enumerate, draw worlds with the
exact stage and with the walks plus 0, 8, ... corrector steps, and compare
where the Gold Nugget is (owner of the lair holding it, or the nest) -- the
fact a search on this game turns on.

Prints one line per information set (per corrector setting: total variation
between the nugget-owner distributions, and a chi-square p-value against
the exact draws) and a summary per preset and setting.

    python -m experiments.research.gold_nugget_resample_bias --draws 600 --games 4 --steps 0,8

With ``--long-chain N`` it measures the default games instead, where no
exact reference exists: at decision states of random 3- and 4-player games
where the nugget's place is uncertain, each ``--steps`` setting against a
chain of N steps (the walks followed by N corrector steps), on the same
statistic. Agreement says the default steps have gone as far as the
chain goes; it cannot say the chain reaches the posterior there.
"""
from __future__ import annotations

import argparse
from collections import Counter

import pyspiel
from tqdm import tqdm

import games  # noqa: F401
import games.gold_nugget as gn
from games.testing import random_states
from src_cy.gold_nugget.engine import resample_stats, set_resample_corrector, set_resample_exact_budget
from src_cy.rng import derive_seed

PRESETS = {
    "mini": dict(gn.MINI_PARAMS),
    "mini, 5 stones": dict(gn.MINI_PARAMS, normal_stones=3),
    "mini, 2 stones each": dict(gn.MINI_PARAMS, start_stones=2, normal_stones=3),
    "2 days, 6 stones, hands of 3": dict(gn.MINI_PARAMS, normal_stones=3, trap_stones=2,
                                         hand_size=3, start_stones=2, days=2,
                                         leaf_counts="peek:2/chance:2/accuse:2/beg:1/glance:1"),
}
EXACT_BUDGET = 200_000


def nugget_owner(engine) -> int:
    """Seat whose lair holds the Gold Nugget (stone 0), or -1: the nest."""
    return next((q for q, lair in enumerate(engine.lairs()) if 0 in lair), -1)


def draw_owners(state: pyspiel.State, player: int, n: int, seed: int) -> Counter:
    return Counter(nugget_owner(state.engine.py_resample(player, derive_seed(seed, i)))
                   for i in range(n))


def total_variation(a: Counter, b: Counter, n: int) -> float:
    return 0.5 * sum(abs(a[k] - b[k]) for k in set(a) | set(b)) / n


def compare_settings(state: pyspiel.State, p: int, ref: Counter, steps: list[int],
                     draws: int, tvs: dict[int, list[float]]) -> str:
    """Draw nugget owners under each corrector setting, compare each with
    ``ref`` (total variation, appended to ``tvs``; chi-square p-value) and
    return the report's text."""
    from scipy.stats import chi2_contingency
    line = []
    for k in steps:
        old = set_resample_corrector(k)
        got = draw_owners(state, p, draws, seed=2)
        set_resample_corrector(*old)
        cells = sorted(set(ref) | set(got))
        pvalue = chi2_contingency([[ref[c] for c in cells], [got[c] for c in cells]])[1]
        tv = total_variation(ref, got, draws)
        tvs[k].append(tv)
        line.append(f"{k} steps {dict(sorted(got.items()))} TV {tv:.3f} p {pvalue:.2g}")
    return "; ".join(line)


def measure(name: str, params: dict, games_: int, draws: int, seed: int,
            steps: list[int]) -> dict[int, list[float]]:
    """TV per corrector setting and information set whose exact enumeration
    fits the budget."""
    game = pyspiel.load_game("gold_nugget", params)
    seen, tvs = set(), {k: [] for k in steps}
    states = [s for s in random_states(game, games_, seed=seed, every=4)
              if not s.is_chance_node() and len(s.history()) >= 10]
    for state in tqdm(states, desc=name, leave=False):
        for p in range(game.num_players()):
            key = (p, state.engine.py_info_key(p))
            if key in seen:
                continue
            seen.add(key)
            set_resample_exact_budget(EXACT_BUDGET)
            before = resample_stats()["exact"]
            exact = draw_owners(state, p, draws, seed=1)
            if resample_stats()["exact"] - before < draws:
                continue                         # over the budget: no reference
            if len(exact) < 2:
                continue                         # the nugget's place is known
            set_resample_exact_budget(0)
            line = compare_settings(state, p, exact, steps, draws, tvs)
            print(f"  {name}: p{p} depth {len(state.history())}: exact "
                  f"{dict(sorted(exact.items()))}; {line}", flush=True)
    set_resample_exact_budget(-1)
    return tvs


def long_chain(args: argparse.Namespace, steps: list[int]) -> None:
    """Each step setting against a chain of ``args.long_chain`` steps at
    default-game states (one line per state, a summary per player count)."""
    for players in (3, 4):
        game = pyspiel.load_game("gold_nugget", {"players": players})
        states = [s for s in random_states(game, args.games, seed=args.seed, every=40)
                  if not s.is_chance_node() and not s.is_terminal() and len(s.history()) >= 40]
        tvs = {k: [] for k in steps}
        for state in tqdm(states[:args.states], desc=f"{players}p", leave=False):
            p = state.current_player()
            old = set_resample_corrector(args.long_chain)
            ref = draw_owners(state, p, args.draws, seed=1)
            set_resample_corrector(*old)
            if len(ref) < 2:
                continue
            line = compare_settings(state, p, ref, steps, args.draws, tvs)
            print(f"  {players}p depth {len(state.history())} p{p}: {args.long_chain} steps "
                  f"{dict(sorted(ref.items()))}; {line}", flush=True)
        for k in steps:
            t = sorted(tvs[k])
            if t:
                print(f"{players} players, {k} steps against {args.long_chain}: {len(t)} states, "
                      f"nugget-owner TV median {t[len(t) // 2]:.3f}, max {t[-1]:.3f}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--draws", type=int, default=600)
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--steps", default="0,8", help="corrector steps to compare (0: walks alone)")
    ap.add_argument("--long-chain", type=int, default=0,
                    help="default games: compare --steps with a chain of this many steps")
    ap.add_argument("--states", type=int, default=12, help="--long-chain: states per player count")
    args = ap.parse_args()
    steps = [int(x) for x in args.steps.split(",")]
    if args.long_chain:
        long_chain(args, steps)
        return
    for name, params in PRESETS.items():
        tvs = measure(name, params, args.games, args.draws, args.seed, steps)
        for k in steps:
            t = sorted(tvs[k])
            if t:
                print(f"{name}, {k} corrector steps: {len(t)} information sets, nugget-owner "
                      f"TV median {t[len(t) // 2]:.3f}, max {t[-1]:.3f}", flush=True)
            else:
                print(f"{name}: no information set with an uncertain nugget within the budget")


if __name__ == "__main__":
    main()
