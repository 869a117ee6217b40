"""Solve every registered game's preset and write its policy table.

``python -m experiments.policy_tables [--games G,..] [--preset mini]
[--solver auto|cfr+|mccfr] [--iterations N] [--seed S] [--out results]
[--resume] [--save-policy yes|no] [--strings] [--mccfr-mode response|self-play|raw]
[--paired-deals N] [--best-deals N] [--br-deals N] [--workers W --batch B]
[--regrets shared|per-worker] [--backend local|ray [--address HOST:PORT]]`` (``./run.sh`` runs it with the defaults: every registered
game, ``mini`` presets, ``results/``).

For each game whose spec has a policy-table entry (``games.spec``,
``GameSpec.table``): CFR+ on the compiled
tree (or outcome/external-sampling MCCFR when the tree exceeds the entry's
``max_nodes``, or when asked), then writes ``<out>/<game>/``:
``policy_table.csv`` and ``.md`` (decision situations, action probabilities,
reach), ``policy.npz`` (the full policy, ``solvers.policy_io`` array format;
``--strings`` adds ``policy.npz.strings.json``), ``convergence.png`` and
``convergence.csv``; other presets (``--preset default``) write
``<out>/<game>-<preset>/`` (``table_folder``), solving the preset with the
entry's parameters for it (``solvers.policy_tables.table_game``: e.g. two
players) and its per-preset settings (``for_preset``).

The measure (``solvers.measures``): exploitability on 2-player constant-sum
games, NashConv otherwise, exact on the compiled tree, for CFR+ and for
MCCFR alike; for games whose tree does not compile, the mean return against
uniform-random opponents on a fixed set of seeded games (an estimate of
strength, not of exploitability).  Same flags and ``--seed`` give
byte-identical tables and policy files (only timings vary).

Games whose entry names an action abstraction (``entry.extra``) are
solved over it when their tree does not compile: by default (``--mccfr-mode
response``) against the entry's fixed opponents (the heuristic bots), the
policy handed out being the *greedy* one (``MCCFRSolver.greedy_policy``)
when the entry says ``extraction="greedy"``, the *confident* one
(``MCCFRSolver.confident_policy``: a row's best action only where its lead
over the heuristic's is significant) when it says ``"confident"`` (with
``response_scheme="probe"`` and optional ``probe_epsilon``, ``probe_prob``,
``probe_continuation``: ``MCCFRSolver``'s probing options); ``self-play`` solves the
abstraction in self-play (the average policy, or its purified form,
``MCCFRSolver.purified_policy``, when the entry says
``"self-play_extraction": "purified"``); ``raw`` solves raw information
sets.  Either abstracted solve is measured by the paired difference against
the heuristic bot in the same seat on the same seeded deals
(``paired_vs_heuristic``: ``PAIRED_DEALS`` deals per point, then
``--paired-deals``, default ``PAIRED_FINAL_DEALS``, for the number in the
summary and the Markdown), and with ``--best-deals N`` also against the
game's ``best`` bot (``paired_vs_best``); ``--br-deals N`` adds a lower
bound on the shipped policy's exploitability by play (``policy_lower_bound``:
a best-response search against the table, ``solvers.approx_br``).  Their
tables show abstract actions.

``--workers W`` (``W`` > 1) or ``--backend ray`` run MCCFR in rounds of
``W x --batch`` iterations on worker processes or Ray tasks
(``solvers.mccfr_parallel.ParallelMCCFR``; ``--address`` joins a running
Ray cluster); the same seed, ``W`` and ``B`` give the same tables on either
backend, though not the single-process tables.  ``--regrets per-worker``
gives each worker its own regret tables (independent chains whose average
tables are summed), which allows long rounds (``--batch`` in the thousands)
without the staleness that long rounds cause with one shared regret table.

``--resume`` checkpoints the solver in ``<out>/<game>/`` (only what resuming
needs, atomically) and restarts from it; a checkpoint is written at the end
and, after a measurement chunk, whenever the solving time since the last
one is at least ``CHECKPOINT_MIN_SECONDS`` and ``CHECKPOINT_RATIO`` times
the last write's cost, so checkpointing stays under about 10% of the run
time; a chunk longer than ``CHECKPOINT_MAX_SECONDS`` (5 minutes) is
checkpointed inside too, so a full-size solve loses at most that much.

Games join through their spec (``games/<game>.py``): a ``table`` entry with a
feature extractor, its documentation and solving budgets.
"""
from __future__ import annotations

import argparse
import math
import contextlib
import dataclasses
import csv
import os
import textwrap
import time
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import FuncFormatter, NullFormatter  # noqa: E402
from tqdm import tqdm  # noqa: E402

from solvers import policy_io  # noqa: E402
from solvers.cfr import CFRPlusSolver  # noqa: E402
from solvers.exploitability import measure_of_array  # noqa: E402
from solvers.measures import (HEAD_TO_HEAD, HEAD_TO_HEAD_HEURISTIC, MEASURES,  # noqa: E402
                              PairedHeadToHead, head_to_head)
from solvers.mccfr import MCCFRSolver  # noqa: E402
from solvers.mccfr_parallel import ParallelMCCFR  # noqa: E402
from solvers.policy_tables import (GameEntry, for_preset,  # noqa: E402
                                   sampled_situation_table, situation_table, table_game,
                                   table_specs)
from solvers.tree import TreeTooLargeError, compile_game  # noqa: E402

CHECKPOINTS = 20          # measurement points per run
CHECKPOINT_RATIO = 9.0    # seconds solved per second spent writing checkpoints (at least)
CHECKPOINT_MIN_SECONDS = 10.0  # and at least this much solving between two checkpoints
CHECKPOINT_MAX_SECONDS = 300.0  # but a checkpoint at least this often (mid-chunk if need be)
HEAD_TO_HEAD_GAMES = 200  # games per estimate point when the tree does not compile
PAIRED_DEALS = 100        # deals (x every seat) per paired point against the heuristic
PAIRED_FINAL_DEALS = 5000  # deals (x every seat) of the final paired measurement
# The responder of the exploitability lower bound (docs/ai.md, "A lower bound
# for any game"): its validated settings; an entry may override them
# (extra["br_responder"], e.g. no lookahead where a game is long).
BR_RESPONDER = {"worlds": 16, "rollouts": 2, "lookahead": 1}
EXACT_TABLE_MAX = 150_000  # information sets up to which the table is exact (else sampled)
SAMPLED_EPISODES = 2000
SEED = 0


def load_registry() -> dict[str, GameEntry]:
    """{game: table entry} of every game spec with a policy-table entry."""
    return table_specs()


MCCFR_MODES = ("response", "self-play", "raw")


def mccfr_mode(entry: GameEntry, mode: str = "response") -> str:
    """How MCCFR solves ``entry``: ``response`` (over its action abstraction,
    against its fixed opponents), ``self-play`` (over the abstraction) or
    ``raw`` (raw information sets; the only mode of entries with no abstraction)."""
    if mode not in MCCFR_MODES:
        raise ValueError(f"mode must be one of {MCCFR_MODES}, got {mode!r}")
    if not entry.extra.get("action_abstraction"):
        return "raw"
    if mode == "response" and not entry.extra.get("fixed_opponents"):
        return "self-play"
    return mode


def paired_vs_bot(game, name: str, deals: int, seed: int,
                  bot_seed: int | None = None) -> PairedHeadToHead:
    """``solvers.measures.PairedHeadToHead`` against the game's bot ``name``
    (built with ``bot_seed``, or its default seed): a policy in each seat of
    each seeded deal with that bot in the other seats, minus the bot itself
    in that seat on the same deal (called with a policy: (mean difference,
    95% half-width); 0 = as strong as the bot there)."""
    ref = BotPolicy(game, name, bot_seed)
    return PairedHeadToHead(game, ref, deals=deals, seed=seed,
                            opponent=lambda state, rng: ref.bot.step(state))


def paired_vs_heuristic(game, deals: int, seed: int) -> PairedHeadToHead:
    """:func:`paired_vs_bot` against the game's heuristic bots."""
    return paired_vs_bot(game, "heuristic", deals, seed)


def abstract_solver_options(entry: GameEntry, mode: str = "response",
                            epsilon: float | None = None) -> dict:
    """``MCCFRSolver`` options of ``entry``'s abstracted solve in ``mode``
    (``response`` or ``self-play``): scheme, abstractions, fixed opponents,
    exploration and the probe options; ``epsilon`` overrides the entry's."""
    scheme = entry.extra.get(f"{mode}_scheme", entry.mccfr_scheme)
    options = dict(scheme=scheme, abstraction=entry.extra.get("abstraction"),
                   action_abstraction=entry.extra["action_abstraction"],
                   fixed_opponents=(entry.extra["fixed_opponents"] if mode == "response"
                                    else None),
                   epsilon=epsilon or entry.extra.get(f"{mode}_epsilon", 0.6))
    if scheme == "probe":
        options.update({f"probe_{k}": entry.extra[f"probe_{k}"]
                        for k in ("epsilon", "prob", "continuation")
                        if f"probe_{k}" in entry.extra})
    return options


def _solve(entry: GameEntry, game, solver: str, iterations: int | None,
           checkpoint: str | None = None, seed: int = SEED, mode: str = "response",
           parallel: dict | None = None, epsilon: float | None = None) -> dict:
    """Run the solver in CHECKPOINTS chunks, measuring after each; with
    ``checkpoint`` the solver state is saved (atomically, see module doc) and
    a run restarted with the same flags resumes from it.  MCCFR runs as
    ``mccfr_mode(entry, mode)`` says; ``parallel`` (``workers``, ``batch``, ``regrets``,
    ``backend``, ``address``) runs it as ``solvers.mccfr_parallel.ParallelMCCFR``;
    ``epsilon``: outcome sampling's exploration over an abstraction (default: the
    entry's ``<mode>_epsilon``, else 0.6)."""
    tree = None
    try:
        tree = compile_game(game, max_nodes=entry.max_nodes)
    except TreeTooLargeError:
        if solver == "cfr+":
            raise
    use_cfr = tree is not None and solver != "mccfr"
    mode = "cfr+" if use_cfr else mccfr_mode(entry, mode)
    use_abs = mode in ("response", "self-play")
    total = iterations or (entry.cfr_iterations if use_cfr else
                           entry.extra[f"{mode}_iterations"] if use_abs
                           else entry.mccfr_iterations)
    scheme = entry.extra.get(f"{mode}_scheme", entry.mccfr_scheme)
    # Whole parallel rounds only, so a resumed run repeats the rounds of an
    # uninterrupted one; sub-chunks let a checkpoint come within
    # CHECKPOINT_MAX_SECONDS however long a chunk is.
    unit = parallel["workers"] * parallel["batch"] if parallel and not use_cfr else 1
    chunk = max(unit, total // CHECKPOINTS // unit * unit)
    sub = max(unit, chunk // 10 // unit * unit)
    curve: list[tuple[int, float, float, float]] = []
    paired = None
    if use_abs:
        paired = paired_vs_heuristic(game, PAIRED_DEALS, seed)
    extraction = entry.extra.get("extraction") if mode == "response" else None
    if extraction not in (None, "greedy", "confident", "average"):
        raise ValueError(f"{entry.name}: extraction must be greedy, confident or average, "
                         f"got {extraction!r}")
    greedy = extraction == "greedy"
    confident = extraction == "confident"
    if confident and scheme != "probe":
        raise ValueError(f"{entry.name}: the confident extraction needs response_scheme "
                         f"'probe', got {scheme!r}")
    purified = mode == "self-play" and entry.extra.get("self-play_extraction") == "purified"
    options = abstract_solver_options(entry, mode, epsilon) if use_abs else \
        dict(scheme=entry.mccfr_scheme, keep_strings=False)
    if use_cfr:
        s = CFRPlusSolver(game, tree=tree)
    elif parallel:
        s = ParallelMCCFR(game, seed=seed, **parallel, **options)
    else:
        s = MCCFRSolver(game, seed=seed, **options)

    def shipped() -> Any:
        """The policy the run hands out: greedy for a response that asks for it,
        purified for a self-play solve that asks for it, else the average."""
        if not use_abs:
            return s.average_policy()
        fallback = entry.extra.get("fallback", "uniform")
        if greedy:
            return s.greedy_policy(fallback)
        if confident:
            return s.confident_policy(fallback)
        if purified:
            return s.purified_policy(fallback)
        return s.average_policy(fallback)

    def measure() -> tuple[str, float, float]:
        if tree is not None:
            probs = s.average_policy_array() if use_cfr else s.policy_array(tree)
            name, value = measure_of_array(game, tree, probs)
            return name, value, 0.0
        if paired is not None:
            mean, half = paired(shipped())
            return HEAD_TO_HEAD_HEURISTIC, mean, half
        mean, half = head_to_head(game, s.average_policy(), HEAD_TO_HEAD_GAMES, seed)
        return HEAD_TO_HEAD, mean, half

    elapsed, ckpt_seconds, ckpt_writes, done = 0.0, 0.0, 0, 0
    if checkpoint is not None and os.path.exists(checkpoint):
        s.load_checkpoint(checkpoint)
        done = min(s.iteration, total)
    last_cost, since = 0.0, 0.0
    name = None
    label = ("CFR+" if use_cfr else "probing MCCFR" if scheme == "probe"
             else f"{scheme[0].upper()}S-MCCFR")
    if use_abs:
        label += ((" (abstracted, greedy response to heuristic)" if greedy else
                   " (abstracted, confident response to heuristic)" if confident else
                   " (abstracted, response to heuristic)") if mode == "response"
                  else " (abstracted, self-play, purified)" if purified
                  else " (abstracted, self-play)")
    with tqdm(total=total, initial=done, desc=f"{entry.name} {label}", unit="it",
              leave=False) as bar:
        while done < total:
            end = min(done + chunk, total)
            while done < end:
                step = min(sub, end - done)
                t0 = time.perf_counter()
                s.run(step)
                dt = time.perf_counter() - t0
                elapsed += dt
                since += dt
                done += step
                bar.update(step)
                due = since >= max(CHECKPOINT_RATIO * last_cost, CHECKPOINT_MIN_SECONDS)
                if checkpoint is not None and (done == total or (done == end and due)
                                               or since >= CHECKPOINT_MAX_SECONDS):
                    t0 = time.perf_counter()
                    s.save_checkpoint(checkpoint)
                    last_cost = time.perf_counter() - t0
                    ckpt_seconds += last_cost
                    ckpt_writes += 1
                    since = 0.0
            name, value, half = measure()
            curve.append((done, elapsed, value, half))
    if parallel:
        s.close()
    if name is None:
        name = measure()[0]
    return {"solver": label, "iterations": total, "tree": tree, "seconds": elapsed,
            "curve": curve, "measure": name, "solver_obj": s, "use_cfr": use_cfr,
            "abstracted": use_abs, "mode": mode, "policy": shipped,
            "checkpoint_seconds": ckpt_seconds, "checkpoint_writes": ckpt_writes}


MD_ROWS = 60           # situations shown in the Markdown digest (all are in the CSV)
MD_ACTIONS = 6         # actions shown per situation in the Markdown digest


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


def _sparse_minor(value: float, _pos: int) -> str:
    """A log axis's minor tick label, only at 2 x and 5 x a power of ten (all
    nine would overlap)."""
    if value <= 0:
        return ""
    lead = value / 10 ** math.floor(math.log10(value) + 1e-9)
    return f"{value:g}" if round(lead) in (2, 5) and abs(lead - round(lead)) < 1e-6 else ""


_SPARSE_MINOR = FuncFormatter(_sparse_minor)


def _plot(path: str, title: str, measure: str, curve: list,
          reference: tuple[str, float, float] | None = None,
          finals: list[tuple[str, float, float]] = ()) -> None:
    """Two panels, the measure against iterations and against solve seconds;
    ``reference`` = (label, value, 95% half-width) is drawn as a band and each
    of ``finals`` (label, value, half-width: a final measurement of the
    shipped policy) as a point with its interval at the last iteration."""
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.6 + 0.4 * bool(finals)))
    its, secs, vals, half = zip(*curve)
    log = not MEASURES[measure].sampled and min(vals) > 0
    for ax, x, xlabel in ((axes[0], its, "iterations"), (axes[1], secs, "solve time (s)")):
        if log:
            ax.loglog(x, vals, marker=".")
        else:
            ax.errorbar(x, vals, yerr=half, marker=".", capsize=2, label="policy")
            for (name, value, width), marker in zip(finals, "sD^v"):
                ax.errorbar([x[-1]], [value], yerr=[width], marker=marker, capsize=3,
                            linestyle="none", label=name)
            ax.set_xscale("log")
        if reference is not None:
            name, value, width = reference
            ax.axhline(value, color="gray", linestyle="--", label=name)
            ax.axhspan(value - width, value + width, color="gray", alpha=0.15)
        # A log axis spanning under a decade has no major tick: label its minors.
        short = (lambda v: min(v) > 0 and max(v) / min(v) < 10)
        ax.xaxis.set_minor_formatter(_SPARSE_MINOR if short(x) else NullFormatter())
        ax.yaxis.set_minor_formatter(_SPARSE_MINOR if log and short(vals) else NullFormatter())
        ax.set_xlabel(xlabel)
        ax.set_ylabel(MEASURES[measure].axis_label)
        ax.grid(True, which="both", alpha=0.3)
    fig.suptitle(textwrap.fill(title, 95), fontsize=11)
    if reference is not None:
        # One legend under both panels, clear of the curves and error bars.
        handles, labels = axes[0].get_legend_handles_labels()
        ncol = min(len(labels), 2)
        rows = -(-len(labels) // ncol)
        fig.legend(handles, labels, fontsize=8, loc="lower center", ncol=ncol)
        fig.tight_layout(rect=(0, 0.05 + 0.045 * rows, 1, 1))
    else:
        fig.tight_layout()
    fig.savefig(path + ".tmp", dpi=100, format="png")
    os.replace(path + ".tmp", path)
    plt.close(fig)


def _write_curve(path: str, measure: str, curve: list) -> None:
    with _atomic(path) as f:
        w = csv.writer(f)
        w.writerow(["iterations", "seconds", measure, "ci95"])
        for it, sec, val, half in curve:
            w.writerow([it, f"{sec:.3f}", repr(val), repr(half)])


class BotPolicy:
    """A library bot (``solvers.bots.make_bot(name)``) as a policy that puts
    all its mass on the bot's move, for paired measures and reference lines."""

    def __init__(self, game, name: str = "heuristic", seed: int | None = None) -> None:
        from solvers.bots import make_bot
        self.bot = make_bot(name, game) if seed is None else make_bot(name, game, seed=seed)

    def action_probabilities(self, state) -> dict[int, float]:
        return {self.bot.step(state): 1.0}


def HeuristicPolicy(game) -> BotPolicy:
    """The game's heuristic bot as a (deterministic) policy."""
    return BotPolicy(game, "heuristic")


def abstract_situation_table(game, entry: GameEntry, policy, episodes: int,
                             seed: int) -> list[dict]:
    """Like ``sampled_situation_table`` for a policy over an action abstraction:
    the entry's ``abstract_features`` per decision, abstract action names as columns."""
    from solvers.policy_tables import _accumulate, _finish, decisions
    from src_cy.rng import SplitMix64, sample_sorted
    features = entry.extra["abstract_features"]
    names = policy.action_abstraction.action_names
    rng = SplitMix64(seed)
    rows: dict = {}
    for _ in range(episodes):
        for state, p in decisions(game, rng):
            got = policy.abstract_probabilities(state)
            _accumulate(rows, features(state, p), p, [names[k] for k, _, _ in got],
                        [q for _, _, q in got], 1.0 / episodes)
            state.apply_action(sample_sorted(sorted((a, q) for _, a, q in got), rng))
    return _finish(rows)


def table_folder(out: str, game: str, preset: str, players: int | None = None) -> str:
    """Where a table goes: ``<out>/<game>/`` for the ``mini`` preset (the main
    job), ``<out>/<game>-<preset>[-<N>p]/`` otherwise."""
    if preset == "mini" and players is None:
        return os.path.join(out, game)
    return os.path.join(out, f"{game}-{preset}" + (f"-{players}p" if players else ""))


def paired_vs_best(game, deals: int, seed: int) -> PairedHeadToHead:
    """:func:`paired_vs_bot` against the game's ``best`` bot (seeded by ``seed``)."""
    return paired_vs_bot(game, "best", deals, seed, bot_seed=seed)


def policy_lower_bound(game, policy, deals: int, seed: int,
                       responder: dict | None = None) -> tuple[float, float]:
    """(lower bound, 95% half-width) on the exploitability (NashConv / N) of a
    solved table's ``policy``: ``solvers.approx_br.lower_bound`` with the
    table's policy in the other seats (the responder models that same
    policy) and ``BR_RESPONDER`` settings unless ``responder`` overrides."""
    from solvers.approx_br import lower_bound
    return lower_bound(game, lambda _seed: policy, deals=deals, seed=seed,
                       **{**BR_RESPONDER, **(responder or {})})


def run_game(entry: GameEntry, preset: str, solver: str, iterations: int | None,
             out: str, save_policy: str = "yes", resume: bool = False, seed: int = SEED,
             strings: bool = False, mode: str = "response",
             paired_deals: int | None = None, best_deals: int = 0,
             parallel: dict | None = None, players: int | None = None,
             epsilon: float | None = None, br_deals: int = 0) -> dict:
    """Solve one game and write its results; returns a summary dict (``mode``:
    see ``mccfr_mode``; ``paired_deals``: deals of the final paired measurement
    of an abstracted solve against the heuristic, default
    ``PAIRED_FINAL_DEALS``; ``best_deals``: deals of a paired measurement
    against the ``best`` bot, 0 = none; ``parallel``: see ``_solve``; ``players``:
    another player count than the table's for this preset; ``br_deals``: deals
    of the exploitability lower bound by play, 0 = none)."""
    if preset not in entry.presets:
        raise ValueError(f"{entry.name} has no preset {preset!r}; presets: {entry.presets}")
    game = table_game(entry, preset, players)
    entry = for_preset(entry, preset)
    folder = table_folder(out, entry.name, preset, players)
    os.makedirs(folder, exist_ok=True)
    used = mccfr_mode(entry, mode)
    tag = f"-{used}" if used != "raw" and solver != "cfr+" else ""
    checkpoint = (os.path.join(folder, f"checkpoint-{solver}-seed{seed}{tag}.npz") if resume
                  else None)
    res = _solve(entry, game, solver, iterations, checkpoint, seed, mode, parallel, epsilon)
    s, tree = res["solver_obj"], res["tree"]
    policy = res["policy"]()
    paired = vs_best = bound = None
    if res["abstracted"]:
        deals = paired_deals or PAIRED_FINAL_DEALS
        mean, half = paired_vs_heuristic(game, deals, seed)(policy)
        paired = (mean, half, deals)
        if best_deals:
            vs_best = (*paired_vs_best(game, best_deals, seed)(policy), best_deals)
        if br_deals:
            responder = {**BR_RESPONDER, **entry.extra.get("br_responder", {})}
            bound = (*policy_lower_bound(game, policy, br_deals, seed, responder), br_deals,
                     responder)
    if res["abstracted"]:
        rows = abstract_situation_table(game, entry, policy, SAMPLED_EPISODES, seed)
        notes = entry.extra["abstract_notes"]
        if paired is not None:
            notes += (f"\n\nHead to head (paired, `solvers.measures.PairedHeadToHead`): this "
                      f"policy in each seat of {deals} seeded deals (seed {seed}) against "
                      f"heuristic bots, minus the heuristic bot in the same seat on the same "
                      f"deal: **{mean:+.4f} ± {half:.4f}** (mean return difference, 95% "
                      f"interval over deals; {res['iterations']} iterations, {res['solver']}).")
        if vs_best is not None:
            notes += (f"\n\nAgainst `best` (paired the same way, `best` in the other seats "
                      f"and as the baseline in the seat): **{vs_best[0]:+.4f} ± "
                      f"{vs_best[1]:.4f}** over {best_deals} deals (0 = as strong as `best`).")
        if bound is not None:
            r = bound[3]
            notes += (f"\n\nExploitability lower bound by play (`solvers.approx_br.lower_bound`: "
                      f"a best-response search in each seat against this policy, "
                      f"{r['worlds']} worlds, {r['rollouts']} playouts, lookahead "
                      f"{r['lookahead']}; NashConv / N): **{bound[0]:+.4f} ± {bound[1]:.4f}** "
                      f"over {br_deals} deals (the policy loses at least this much per seat "
                      f"to a best response; a negative value says the responder found no "
                      f"such gain).")
        entry = dataclasses.replace(entry, feature_doc=entry.extra["abstract_feature_doc"],
                                    notes=notes)
    elif tree is not None and tree.num_infosets <= EXACT_TABLE_MAX:
        probs = s.average_policy_array() if res["use_cfr"] else s.policy_array(tree)
        rows = situation_table(game, entry, tree, probs)
    else:
        rows = sampled_situation_table(game, entry, policy, episodes=SAMPLED_EPISODES, seed=seed)
    _write_table(os.path.join(folder, "policy_table"), entry, rows)
    if save_policy == "yes":
        if strings and policy.strings is None and tree is not None:
            from solvers.policy_arrays import from_tree
            policy = from_tree(game, tree, s.average_policy_array() if res["use_cfr"]
                               else s.policy_array(tree))
        policy_io.save_array_policy(os.path.join(folder, "policy.npz"), policy,
                                    solver=res["solver"], iterations=res["iterations"],
                                    seed=None if res["use_cfr"] else seed,
                                    meta={"preset": preset, "measure": res["measure"]},
                                    strings_file=strings and policy.strings is not None)
    if res["curve"]:
        title = (f"{entry.name} ({preset}, {game.num_players()} players): {res['solver']}, "
                 f"{MEASURES[res['measure']].name}")
        reference = None
        if res["measure"] == HEAD_TO_HEAD_HEURISTIC:
            reference = ("heuristic bot in the seat (0 by definition)", 0.0, 0.0)
        elif res["abstracted"]:
            mean, half = head_to_head(game, HeuristicPolicy(game), HEAD_TO_HEAD_GAMES, seed)
            reference = ("heuristic bot in the seat, same deals", mean, half)
        finals = []
        if paired is not None and res["measure"] == HEAD_TO_HEAD_HEURISTIC:
            finals.append((f"final, {paired[2]} deals", paired[0], paired[1]))
        if vs_best is not None and res["measure"] == HEAD_TO_HEAD_HEURISTIC:
            finals.append((f"final, paired vs best ({vs_best[2]} deals; 0 = as best)",
                           vs_best[0], vs_best[1]))
        if bound is not None and res["measure"] == HEAD_TO_HEAD_HEURISTIC:
            finals.append((f"final, exploitability lower bound ({bound[2]} deals; "
                           f"a responder's gain)", bound[0], bound[1]))
        _plot(os.path.join(folder, "convergence.png"), title, res["measure"], res["curve"],
              reference, finals)
        _write_curve(os.path.join(folder, "convergence.csv"), res["measure"], res["curve"])
    last = res["curve"][-1] if res["curve"] else None
    return {"game": entry.name, "solver": res["solver"], "iterations": res["iterations"],
            "seconds": res["seconds"], "situations": len(rows), "infosets": policy.num_rows,
            "measure": res["measure"], "value": last[2] if last else None,
            "ci95": last[3] if last else None, "paired": paired, "vs_best": vs_best,
            "lower_bound": None if bound is None else bound[:3],
            "folder": folder,
            "checkpoint_seconds": res["checkpoint_seconds"]}


def main(argv: list[str] | None = None) -> list[dict]:
    registry = load_registry()
    parser = argparse.ArgumentParser(description="Solve games and write policy tables.")
    parser.add_argument("--games", default=",".join(registry),
                        help=f"comma-separated games (default: all: {','.join(registry)})")
    parser.add_argument("--preset", default="mini",
                        help="the game's preset (mini, default, ...: its table entry's presets)")
    parser.add_argument("--players", type=int, default=None,
                        help="another player count than the preset table's")
    parser.add_argument("--solver", choices=("auto", "cfr+", "mccfr"), default="auto")
    parser.add_argument("--iterations", type=int, default=None,
                        help="iterations per game (default: the game's own budget)")
    parser.add_argument("--seed", type=int, default=SEED,
                        help="MCCFR and sampling seed (same seed: identical tables)")
    parser.add_argument("--out", default="results")
    parser.add_argument("--resume", action="store_true",
                        help="checkpoint each game's solver in <out>/<game>/ and resume from it")
    parser.add_argument("--save-policy", choices=("yes", "no"), default="yes",
                        help="write policy.npz (solvers.policy_io array format)")
    parser.add_argument("--mccfr-mode", choices=MCCFR_MODES, default="response",
                        help="for games with an action abstraction (Saboteur): response = "
                             "over the abstraction against fixed heuristic opponents "
                             "(default), self-play = over the abstraction in self-play, "
                             "raw = raw information sets")
    parser.add_argument("--paired-deals", type=int, default=None,
                        help="deals (x every seat) of the final paired measurement of a "
                             f"response against the heuristic (default {PAIRED_FINAL_DEALS})")
    parser.add_argument("--best-deals", type=int, default=0,
                        help="deals (x every seat) of a final paired measurement of an "
                             "abstracted solve against the game's best bot (default 0: none)")
    parser.add_argument("--br-deals", type=int, default=0,
                        help="deals of a lower bound on the shipped abstracted policy's "
                             "exploitability by a best-response search (default 0: none)")
    parser.add_argument("--epsilon", type=float, default=None,
                        help="outcome sampling's exploration in an abstracted solve "
                             "(default: the entry's, else 0.6)")
    parser.add_argument("--workers", type=int, default=1,
                        help="MCCFR worker processes or Ray tasks per round (default 1: "
                             "this process; solvers.mccfr_parallel)")
    parser.add_argument("--batch", type=int, default=100,
                        help="iterations per worker per round when --workers > 1 or "
                             "--backend ray (default 100)")
    parser.add_argument("--regrets", choices=("shared", "per-worker"), default="shared",
                        help="parallel MCCFR: one regret table merged every round (default; "
                             "keep --batch small) or one per worker (long rounds)")
    parser.add_argument("--backend", choices=("local", "ray"), default="local",
                        help="where parallel MCCFR workers run (default local processes)")
    parser.add_argument("--address", default=None,
                        help="Ray cluster address HOST:PORT (with --backend ray)")
    parser.add_argument("--strings", action="store_true",
                        help="also write policy.npz.strings.json (information strings)")
    args = parser.parse_args(argv)
    names = [g for g in args.games.split(",") if g]
    unknown = [g for g in names if g not in registry]
    if unknown:
        parser.error(f"unknown game(s) {unknown}; registered: {sorted(registry)}")
    if args.iterations is not None and args.iterations < 1:
        parser.error(f"--iterations must be positive, got {args.iterations}")
    if args.paired_deals is not None and args.paired_deals < 2:
        parser.error(f"--paired-deals must be at least 2, got {args.paired_deals}")
    if args.best_deals and args.best_deals < 2:
        parser.error(f"--best-deals must be 0 or at least 2, got {args.best_deals}")
    if args.br_deals and args.br_deals < 2:
        parser.error(f"--br-deals must be 0 or at least 2, got {args.br_deals}")
    if args.epsilon is not None and not 0.0 < args.epsilon <= 1.0:
        parser.error(f"--epsilon must be in (0, 1], got {args.epsilon}")
    if args.workers < 1 or args.batch < 1:
        parser.error(f"--workers and --batch must be >= 1, got {args.workers}, {args.batch}")
    if args.address is not None and args.backend != "ray":
        parser.error("--address needs --backend ray")
    parallel = (dict(workers=args.workers, batch=args.batch, backend=args.backend,
                     address=args.address, regrets=args.regrets)
                if args.workers > 1 or args.backend == "ray" else None)
    summaries = [run_game(registry[g], args.preset, args.solver, args.iterations, args.out,
                          args.save_policy, args.resume, args.seed, args.strings,
                          args.mccfr_mode, args.paired_deals, args.best_deals, parallel,
                          args.players, args.epsilon, args.br_deals)
                 for g in tqdm(names, desc="games", unit="game")]
    print("| game | solver | iterations | seconds | measure | value | infosets | situations |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    paired_lines = []
    for s in summaries:
        val = "n/a" if s["value"] is None else (
            f"{s['value']:.3f} ± {s['ci95']:.3f}" if MEASURES[s["measure"]].sampled
            else f"{s['value']:.2e}")
        print(f"| {s['game']} | {s['solver']} | {s['iterations']} | {s['seconds']:.2f} "
              f"| {s['measure']} | {val} | {s['infosets']} | {s['situations']} |")
        if s["paired"] is not None:
            mean, half, deals = s["paired"]
            paired_lines.append(f"{s['game']}: paired difference vs the heuristic in the same "
                                f"seat, {deals} deals x every seat: {mean:+.4f} ± {half:.4f} "
                                f"(95%)")
        if s["vs_best"] is not None:
            mean, half, deals = s["vs_best"]
            paired_lines.append(f"{s['game']}: paired difference vs best in the same seat, "
                                f"{deals} deals x every seat: {mean:+.4f} ± {half:.4f} (95%)")
        if s["lower_bound"] is not None:
            mean, half, deals = s["lower_bound"]
            paired_lines.append(f"{s['game']}: exploitability lower bound by play, {deals} "
                                f"deals: {mean:+.4f} ± {half:.4f} (95%)")
    for line in paired_lines:
        print(line)
    print(f"results written to {os.path.abspath(args.out)}/ (seed {args.seed}): "
          + ", ".join(os.path.relpath(s["folder"], args.out) for s in summaries))
    return summaries


if __name__ == "__main__":
    main()
