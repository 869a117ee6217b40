"""Solve every registered game's preset and write its policy table.

``python -m experiments.policy_tables [--games G,..] [--preset mini]
[--solver auto|cfr+|mccfr] [--iterations N] [--out results]``

For each game in ``solvers.policy_tables.REGISTRY``: CFR+ on the compiled
tree (or external-sampling MCCFR when the tree exceeds the entry's
``max_nodes``, or when asked), then writes ``<out>/<game>/``:
``policy_table.csv`` and ``.md`` (decision situations, action probabilities,
reach), ``policy.json`` (the full policy, checksummed), ``convergence.png``
(exploitability against iterations and seconds).  Deterministic for a given
set of flags (seeds are fixed; only timings vary).

Games join by registering a ``GameEntry``.  GOLD THIEF ENTRY POINT: put its
``register(GameEntry(name="gold_thief", ...))`` call in a module and add that
module's name to ``FEATURE_MODULES`` below.
"""
from __future__ import annotations

import argparse
import contextlib
import csv
import importlib
import os
import time

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from tqdm import tqdm  # noqa: E402

from solvers import policy_io  # noqa: E402
from solvers.cfr import CFRPlusSolver  # noqa: E402
from solvers.exploitability import exploitability_of_array  # noqa: E402
from solvers.mccfr import MCCFRSolver  # noqa: E402
from solvers.policy_tables import (REGISTRY, GameEntry, sampled_situation_table,  # noqa: E402
                                   situation_table)
from solvers.tree import TreeTooLargeError, compile_game  # noqa: E402

# Modules whose import registers GameEntry objects (built-ins: kuhn, leduc).
FEATURE_MODULES: tuple[str, ...] = ("solvers.policy_tables", "solvers.game_features")
CHECKPOINTS = 20
SEED = 0


def load_registry() -> dict[str, GameEntry]:
    for name in FEATURE_MODULES:
        importlib.import_module(name)
    return REGISTRY


def _solve(entry: GameEntry, game, solver: str, iterations: int | None,
           checkpoint: str | None = None) -> dict:
    """Run the solver in CHECKPOINTS chunks; with ``checkpoint`` the solver
    state is saved (atomically) after every chunk and a run restarted with the
    same flags resumes from it."""
    tree = None
    if solver in ("auto", "cfr+", "mccfr"):
        try:
            tree = compile_game(game, max_nodes=entry.max_nodes)
        except TreeTooLargeError:
            if solver == "cfr+":
                raise
    use_cfr = tree is not None and solver != "mccfr"
    total = iterations or (entry.cfr_iterations if use_cfr else entry.mccfr_iterations)
    chunk = max(1, total // CHECKPOINTS)
    curve: list[tuple[int, float, float]] = []
    if use_cfr:
        s = CFRPlusSolver(game, tree=tree)
        probs_of = s.average_policy_array
    else:
        s = MCCFRSolver(game, scheme=entry.mccfr_scheme, seed=SEED)
        probs_of = (lambda: s.policy_array(tree)) if tree is not None else None
    elapsed, done = 0.0, 0
    if checkpoint is not None and os.path.exists(checkpoint):
        s.load_checkpoint(checkpoint)
        done = min(s.iteration, total)
    with tqdm(total=total, initial=done, desc=f"{entry.name} {'CFR+' if use_cfr else entry.mccfr_scheme + ' MCCFR'}",
              unit="it", leave=False) as bar:
        while done < total:
            step = min(chunk, total - done)
            t0 = time.perf_counter()
            s.run(step)
            elapsed += time.perf_counter() - t0
            done += step
            bar.update(step)
            if checkpoint is not None:
                s.save_checkpoint(checkpoint)
            if probs_of is not None:
                curve.append((done, elapsed, exploitability_of_array(tree, probs_of())))
    label = "CFR+" if use_cfr else f"{entry.mccfr_scheme[0].upper()}S-MCCFR"
    return {"solver": label, "iterations": total, "tree": tree,
            "seconds": elapsed, "curve": curve, "probs": probs_of() if probs_of else None,
            "mccfr": None if use_cfr else s}


MD_ROWS = 60           # situations shown in the Markdown digest (all are in the CSV)
MD_ACTIONS = 6         # actions shown per situation in the Markdown digest
SAVE_POLICY_MAX = 100_000   # "auto": write policy.json when it has at most this many infosets


@contextlib.contextmanager
def _atomic(path: str):
    """Write a text file via a temporary file renamed into place."""
    tmp = path + ".tmp"
    with open(tmp, "w", newline="", encoding="utf-8") as f:
        yield f
    os.replace(tmp, path)


def _policy_cell(actions: dict, limit: int | None = None, digits: int = 4) -> str:
    """'a=0.62; b=0.38' with actions by decreasing probability (p >= 0.0005)."""
    items = sorted(((p, a) for a, p in actions.items() if p >= 0.0005), key=lambda x: (-x[0], x[1]))
    shown = items if limit is None else items[:limit]
    text = "; ".join(f"{a}={p:.{digits}f}" for p, a in shown)
    return text + (f"; ... ({len(items) - len(shown)} more)" if len(items) > len(shown) else "")


def _write_table(path_base: str, entry: GameEntry, rows: list[dict]) -> None:
    """CSV with every situation and a Markdown digest of the most reached ones."""
    feats = list(entry.feature_doc)
    rows = sorted(rows, key=lambda r: (-r["reach"], r["player"]))
    with _atomic(path_base + ".csv") as f:
        w = csv.writer(f)
        w.writerow(["player", *feats, "reach", "infosets", "policy"])
        for r in rows:
            w.writerow([r["player"], *[r["features"].get(k, "") for k in feats],
                        f"{r['reach']:.6f}", r["infosets"], _policy_cell(r["actions"])])
    lines = ["| player | " + " | ".join(feats) + " | reach | policy |",
             "|" + " --- |" * (len(feats) + 3)]
    for r in rows[:MD_ROWS]:
        cells = [str(r["player"]), *[str(r["features"].get(k, "")).replace("|", "/") for k in feats],
                 f"{r['reach']:.4f}", _policy_cell(r["actions"], MD_ACTIONS, 3).replace("|", "/")]
        lines.append("| " + " | ".join(cells) + " |")
    doc = "\n".join(f"- **{k}**: {v}" for k, v in entry.feature_doc.items())
    shown = min(MD_ROWS, len(rows))
    with _atomic(path_base + ".md") as f:
        f.write(f"# Policy table: {entry.name}\n\n{entry.notes}\n\nFeatures:\n\n{doc}\n\n"
                f"The {shown} most reached of {len(rows)} situations (all in `policy_table.csv`); "
                f"policy = probability of each action, most likely first.\n\n"
                + "\n".join(lines) + "\n")


def _plot(path: str, name: str, curve: list) -> None:
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.5))
    its, secs, expl = zip(*curve)
    for ax, x, label in ((axes[0], its, "iterations"), (axes[1], secs, "seconds")):
        ax.loglog(x, expl, marker=".")
        ax.set_xlabel(label)
        ax.set_ylabel("exploitability")
        ax.grid(True, which="both", alpha=0.3)
    fig.suptitle(f"{name}: convergence")
    fig.tight_layout()
    fig.savefig(path + ".tmp", dpi=100, format="png")
    os.replace(path + ".tmp", path)
    plt.close(fig)


def run_game(entry: GameEntry, preset: str, solver: str, iterations: int | None,
             out: str, save_policy: str = "auto", resume: bool = False) -> dict:
    """Solve one game and write its results; returns a summary dict."""
    if preset not in entry.presets:
        raise ValueError(f"{entry.name} has no preset {preset!r}; presets: {entry.presets}")
    game = entry.load(preset)
    folder = os.path.join(out, entry.name)
    os.makedirs(folder, exist_ok=True)
    checkpoint = os.path.join(folder, f"checkpoint-{solver}.npz") if resume else None
    res = _solve(entry, game, solver, iterations, checkpoint)
    if res["tree"] is not None:
        rows = situation_table(game, entry, res["tree"], res["probs"])
        table = policy_io.policy_from_tree(res["tree"], res["probs"])
    else:
        table = res["mccfr"].average_policy_table()
        rows = sampled_situation_table(game, entry, table, episodes=2000, seed=SEED)
    _write_table(os.path.join(folder, "policy_table"), entry, rows)
    if save_policy == "yes" or (save_policy == "auto" and len(table) <= SAVE_POLICY_MAX):
        policy_io.save_policy(os.path.join(folder, "policy.json"), game, table,
                              meta={"solver": res["solver"], "iterations": res["iterations"],
                                    "preset": preset})
    if res["curve"]:
        _plot(os.path.join(folder, "convergence.png"), entry.name, res["curve"])
    return {"game": entry.name, "solver": res["solver"], "iterations": res["iterations"],
            "seconds": res["seconds"], "situations": len(rows), "infosets": len(table),
            "exploitability": res["curve"][-1][2] if res["curve"] else None}


def main(argv: list[str] | None = None) -> list[dict]:
    registry = load_registry()
    parser = argparse.ArgumentParser(description="Solve games and write policy tables.")
    parser.add_argument("--games", default=",".join(registry),
                        help=f"comma-separated games (default: all: {','.join(registry)})")
    parser.add_argument("--preset", default="mini")
    parser.add_argument("--solver", choices=("auto", "cfr+", "mccfr"), default="auto")
    parser.add_argument("--iterations", type=int, default=None,
                        help="iterations per game (default: the game's own budget)")
    parser.add_argument("--out", default="results")
    parser.add_argument("--resume", action="store_true",
                        help="checkpoint each game's solver in <out>/<game>/ and resume from it")
    parser.add_argument("--save-policy", choices=("auto", "yes", "no"), default="auto",
                        help="write policy.json (auto: when it has at most "
                             f"{SAVE_POLICY_MAX:,} information states)")
    args = parser.parse_args(argv)
    names = [g for g in args.games.split(",") if g]
    unknown = [g for g in names if g not in registry]
    if unknown:
        parser.error(f"unknown game(s) {unknown}; registered: {sorted(registry)}")
    if args.iterations is not None and args.iterations < 1:
        parser.error(f"--iterations must be positive, got {args.iterations}")
    summaries = [run_game(registry[g], args.preset, args.solver, args.iterations, args.out,
                          args.save_policy, args.resume)
                 for g in tqdm(names, desc="games", unit="game")]
    print("| game | solver | iterations | seconds | exploitability | infosets | situations |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for s in summaries:
        ex = f"{s['exploitability']:.2e}" if s["exploitability"] is not None else "n/a"
        print(f"| {s['game']} | {s['solver']} | {s['iterations']} | {s['seconds']:.2f} | {ex} "
              f"| {s['infosets']} | {s['situations']} |")
    print(f"results written to {os.path.abspath(args.out)}/")
    return summaries


if __name__ == "__main__":
    main()
