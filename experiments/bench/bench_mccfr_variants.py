"""Benchmark: which MCCFR variant converges fastest per CPU second.

``python -m experiments.bench.bench_mccfr_variants [--games kuhn_poker,leduc_poker]
[--budgets 0.25,0.5,1,2,4] [--seeds 3] [--plot docs/img/mccfr_variants.png] [--write]``

For each game, sampling scheme (external, outcome) and variant of
``solvers.mccfr.MCCFRSolver`` -- plain (uniform weights), ``linear``
(Pluribus's periodic linear discounting), ``discounted`` (DCFR(1.5, 0, 2) at
the same granularity), ``pruned`` (regret-based pruning, external sampling
only) -- the exact exploitability of the average policy after each CPU-time
budget (the solver's own process time; the exploitability computations are
not counted), mean over seeds.  The variant with the lowest mean at each
budget is marked.  Games need a compiled tree (exact exploitability): kuhn,
leduc, the goldspiel ``mini`` presets (``gold_thief:mini``).
"""
from __future__ import annotations

import sys
import time

import numpy as np
import pyspiel

import games  # noqa: F401
from experiments.bench._benchutil import bench_parser, publish
from games.spec import get_spec
from solvers.exploitability import measure_of_array
from solvers.mccfr import MCCFRSolver
from solvers.tree import compile_game

#: (name, MCCFRSolver options); the discount interval is the library default.
VARIANTS = (
    ("plain", {}),
    ("linear", {"weighting": "linear"}),
    ("discounted", {"weighting": "discounted"}),
    # pruning thresholds are in utility units summed over iterations: below
    # -1,000 an action has lost about 1 unit a visit for a thousand visits
    ("pruned", {"prune": (-1000.0, 0.95, 1000)}),
)


def load(name: str) -> pyspiel.Game:
    """``game`` or ``game:preset`` (a goldspiel preset)."""
    if ":" in name:
        game, preset = name.split(":", 1)
        return get_spec(game).load(preset)
    return pyspiel.load_game(name)


def curve(game: pyspiel.Game, tree, scheme: str, options: dict, seed: int,
          budgets: list[float]) -> list[float]:
    """Exploitability after each CPU budget (seconds) of one seeded solve."""
    s = MCCFRSolver(game, scheme=scheme, seed=seed, **options)
    out, used, step = [], 0.0, 64
    for budget in budgets:
        while used < budget:
            t0 = time.process_time()
            s.run(step)
            dt = time.process_time() - t0
            used += dt
            if dt < 0.02:
                step *= 2
        out.append(measure_of_array(game, tree, s.policy_array(tree))[1])
    return out


def run(names: list[str], budgets: list[float], seeds: int, plot: str | None) -> str:
    """The benchmark's Markdown table (and its plot)."""
    header = ("| game | scheme | variant | " + " | ".join(f"{b:g} s" for b in budgets)
              + " |\n|---|---|---|" + "---|" * len(budgets))
    lines, curves = [header], {}
    for name in names:
        game = load(name)
        tree = compile_game(game)
        for scheme in ("external", "outcome"):
            rows = {}
            for variant, options in VARIANTS:
                if "prune" in options and scheme != "external":
                    continue
                vals = np.asarray([curve(game, tree, scheme, options, seed, budgets)
                                   for seed in range(seeds)])
                rows[variant] = (vals.mean(0), vals.std(0))
            best = {j: min(rows, key=lambda v: rows[v][0][j]) for j in range(len(budgets))}
            for variant, (mean, sd) in rows.items():
                cells = [("**" if best[j] == variant else "") + f"{m:.4f} ± {d:.4f}"
                         + ("**" if best[j] == variant else "")
                         for j, (m, d) in enumerate(zip(mean, sd))]
                lines.append(f"| {name} | {scheme} | {variant} | " + " | ".join(cells) + " |")
            curves[(name, scheme)] = rows
    if plot:
        _plot(curves, budgets, seeds, plot)
    return (f"Exact exploitability of the average policy after each CPU budget (process "
            f"time of the solve), mean ± sd over {seeds} seeds; bold: the lowest mean at "
            f"that budget.\n\n" + "\n".join(lines))


def _plot(curves: dict, budgets: list[float], seeds: int, path: str) -> None:
    """One panel per (game, scheme): exploitability against CPU seconds, log-log."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FixedLocator, NullLocator
    names = list(dict.fromkeys(g for g, _ in curves))
    schemes = ("external", "outcome")
    fig, axes = plt.subplots(len(names), 2, figsize=(9.0, 3.0 * len(names)), squeeze=False)
    for r, name in enumerate(names):
        for c, scheme in enumerate(schemes):
            ax = axes[r][c]
            for variant, (mean, sd) in curves.get((name, scheme), {}).items():
                ax.errorbar(budgets, mean, yerr=sd, marker="o", ms=3, capsize=2,
                            label=variant)
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.xaxis.set_major_locator(FixedLocator(budgets))
            ax.xaxis.set_minor_locator(NullLocator())
            ax.set_xticklabels([f"{b:g}" for b in budgets])
            ax.set_title(f"{name}, {scheme} sampling", fontsize=10)
            ax.grid(True, which="both", alpha=0.3)
            if r == len(names) - 1:
                ax.set_xlabel("CPU time of the solve (s)")
            if c == 0:
                ax.set_ylabel("exploitability\n(utility units)")
            ax.legend(fontsize=7)
    fig.suptitle(f"MCCFR variants: exact exploitability of the average policy "
                 f"(mean ± sd, {seeds} seeds)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv: list[str] | None = None) -> None:
    parser = bench_parser(__doc__, "unused (seeds are 0..K-1)")
    parser.add_argument("--games", default="kuhn_poker,leduc_poker")
    parser.add_argument("--budgets", default="0.25,0.5,1,2,4")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--plot", default=None, help="write the curves to this PNG")
    args = parser.parse_args(argv)
    budgets = sorted(float(b) for b in args.budgets.split(",") if b)
    text = run([g for g in args.games.split(",") if g], budgets, args.seeds, args.plot)
    command = "python -m experiments.bench.bench_mccfr_variants " + " ".join(
        sys.argv[1:] if argv is None else argv)
    publish(command.strip(), text, "mccfr-variants", args.write)


if __name__ == "__main__":
    main()
