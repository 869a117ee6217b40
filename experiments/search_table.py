"""A policy table filled by a search bot, beside the solved one.

``python -m experiments.search_table --games G[,G2] [--preset default]
[--bot best] [--episodes 200] [--seed 0] [--out results]``

Plays ``--episodes`` seeded self-play games of ``--bot`` (every seat; the
game's ``best`` by default) and tabulates its move distributions
(``step_with_policy``) at every decision it met, by the same situations
and actions as the policy tables of ``experiments.policy_tables``: over a
game's action abstraction (its table entry's ``abstract_features`` and
abstract action names) when the entry has one and the preset is not
``mini``, else by the entry's plain features and concrete action names.  A
concrete move that no abstract action names is counted as ``other``.
``reach`` is visits per game.

Writes ``search_table.csv`` and ``.md`` (the policy table's format) to the
policy table's folder (``experiments.policy_tables.table_folder``:
``<out>/<game>-<preset>/``, ``<out>/<game>/`` for ``mini``) and, when that
folder holds a ``policy_table.csv``, ``search_vs_solve.md``: the situations both tables have, ranked by
how often they occur times how far the two distributions are apart (total
variation), with both distributions, so a reader sees where search and
solve disagree.
"""
from __future__ import annotations

import argparse
import csv
import os
from typing import Any

from tqdm import tqdm

from experiments.policy_tables import _atomic, _write_table, table_folder
from solvers.policy_tables import (GameEntry, _accumulate, _action_name, _finish, decisions,
                                   for_preset, table_game, table_specs)
from src_cy.rng import SplitMix64, derive_seed

COMPARE_ROWS = 25      # situations shown in search_vs_solve.md
OTHER = "other"


def uses_abstraction(entry: GameEntry, preset: str) -> bool:
    """Whether ``preset``'s tables are over the entry's action abstraction."""
    return bool(entry.extra.get("action_abstraction")) and preset != "mini"


def search_situation_table(game: Any, entry: GameEntry, bot_spec: str, episodes: int,
                           seed: int, abstract: bool, progress: bool = True) -> list[dict]:
    """Rows (``solvers.policy_tables`` format) of ``bot_spec``'s move distributions
    over ``episodes`` self-play games seeded by ``seed`` (see module doc)."""
    from solvers.botspec import parse_bot
    from solvers.abstractions import get_action_abstraction
    if episodes < 1:
        raise ValueError(f"episodes must be >= 1, got {episodes}")
    spec = parse_bot(bot_spec)
    aa = get_action_abstraction(entry.extra["action_abstraction"], game) if abstract else None
    features = entry.extra["abstract_features"] if abstract else entry.features
    rows: dict = {}
    n = game.num_players()
    for i in tqdm(range(episodes), desc=f"{entry.name} {bot_spec} self-play", unit="game",
                  disable=not progress, leave=False):
        bots = [spec.build(game, derive_seed(seed, i * n + p)) for p in range(n)]
        for state, p in decisions(game, SplitMix64(derive_seed(seed, -1 - i))):
            policy, action = bots[p].step_with_policy(state)
            mass = [(a, q) for a, q in policy if q > 0]
            if aa is None:
                names = [_action_name(state, p, a) for a, _ in mass]
            else:
                x = state.engine if aa.uses_engine else state.information_state_string(p)
                name_of = {c: aa.action_names[k]
                           for k, c in aa.actions(p, x, sorted(state.legal_actions()))}
                names = [name_of.get(a, OTHER) for a, _ in mass]
            _accumulate(rows, features(state, p), p, names, [q for _, q in mass],
                        1.0 / episodes)
            state.apply_action(action)
    return _finish(rows)


def _read_table(path: str) -> dict:
    """{(player, features...): (reach, {action: probability})} of a table CSV."""
    out = {}
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.reader(f)
        header = next(reader)
        if header[-3:] != ["reach", "infosets", "policy"]:
            raise ValueError(f"{path}: not a policy-table CSV (header {header})")
        for row in reader:
            probs = {}
            for item in row[-1].split("; "):
                if "=" in item and not item.startswith("..."):
                    name, p = item.rsplit("=", 1)
                    probs[name] = float(p)
            out[tuple(row[:-3])] = (float(row[-3]), probs)
    return out, header[:-3]


def compare(search_csv: str, solve_csv: str) -> tuple[list[str], list[dict]]:
    """(feature columns, rows of the situations in both tables by decreasing
    min(reach) x total variation distance)."""
    search, cols = _read_table(search_csv)
    solve, cols2 = _read_table(solve_csv)
    if cols != cols2:
        raise ValueError(f"the tables describe different situations: {cols} vs {cols2}")
    rows = []
    for key in search.keys() & solve.keys():
        (r1, p1), (r2, p2) = search[key], solve[key]
        tv = 0.5 * sum(abs(p1.get(a, 0.0) - p2.get(a, 0.0)) for a in p1.keys() | p2.keys())
        rows.append({"key": key, "search_reach": r1, "solve_reach": r2, "tv": tv,
                     "search": p1, "solve": p2, "weight": min(r1, r2) * tv})
    rows.sort(key=lambda r: (-r["weight"], r["key"]))
    return cols, rows


def _cell(probs: dict) -> str:
    items = sorted(probs.items(), key=lambda x: (-x[1], x[0]))
    return "; ".join(f"{a}={p:.2f}" for a, p in items if p >= 0.005).replace("|", "/")


def write_comparison(path: str, title: str, cols: list[str], rows: list[dict]) -> None:
    """``search_vs_solve.md``: the most weighty disagreements first."""
    total = sum(r["weight"] for r in rows)
    reach = sum(min(r["search_reach"], r["solve_reach"]) for r in rows)
    agree = 1.0 - total / reach if reach > 0 else float("nan")
    lines = [f"# {title}", "",
             f"{len(rows)} situations occur in both tables. Weight = min(reach) x total "
             f"variation distance (TV) between the search's and the solve's distributions "
             f"(TV 0 = same play, 1 = disjoint). Reach-weighted mean TV "
             f"{1.0 - agree:.3f} (so the two agree on {100 * agree:.1f}% of the "
             f"probability mass, weighting situations by min(reach)).", "",
             "| " + " | ".join(cols) + " | reach (search / solve) | TV | search | solve |",
             "|" + " --- |" * (len(cols) + 4)]
    for r in rows[:COMPARE_ROWS]:
        lines.append("| " + " | ".join(str(v).replace("|", "/") for v in r["key"]) +
                     f" | {r['search_reach']:.3f} / {r['solve_reach']:.3f} | {r['tv']:.2f} "
                     f"| {_cell(r['search'])} | {_cell(r['solve'])} |")
    with _atomic(path) as f:
        f.write("\n".join(lines) + "\n")


def run_game(entry: GameEntry, preset: str, bot: str, episodes: int, seed: int,
             out: str, progress: bool = True, players: int | None = None) -> dict:
    """Write one game's search table (and comparison, when a solve is there)."""
    import dataclasses
    game = table_game(entry, preset, players)
    entry = for_preset(entry, preset)
    abstract = uses_abstraction(entry, preset)
    rows = search_situation_table(game, entry, bot, episodes, seed, abstract, progress)
    folder = table_folder(out, entry.name, preset, players)
    os.makedirs(folder, exist_ok=True)
    notes = (f"Filled by `{bot}` in self-play ({episodes} games, seed {seed}, preset "
             f"`{preset}`): the bot's move distribution at every decision it met, by "
             f"situation; reach = visits per game.")
    doc = entry.extra["abstract_feature_doc"] if abstract else entry.feature_doc
    _write_table(os.path.join(folder, "search_table"),
                 dataclasses.replace(entry, feature_doc=doc, notes=notes), rows)
    solved = os.path.join(folder, "policy_table.csv")
    compared = None
    if os.path.exists(solved):
        cols, cmp_rows = compare(os.path.join(folder, "search_table.csv"), solved)
        write_comparison(os.path.join(folder, "search_vs_solve.md"),
                         f"{entry.name} ({preset}): `{bot}` against the solved policy",
                         cols, cmp_rows)
        compared = len(cmp_rows)
    return {"game": entry.name, "situations": len(rows), "compared": compared, "folder": folder}


def main(argv: list[str] | None = None) -> list[dict]:
    registry = table_specs()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", required=True,
                        help=f"comma-separated games ({','.join(registry)})")
    parser.add_argument("--preset", default="default")
    parser.add_argument("--players", type=int, default=None,
                        help="another player count than the preset table's")
    parser.add_argument("--bot", default="best", help="bot spec (default: the game's best)")
    parser.add_argument("--episodes", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="results")
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)
    names = [g for g in args.games.split(",") if g]
    unknown = [g for g in names if g not in registry]
    if unknown:
        parser.error(f"unknown game(s) {unknown}; registered: {sorted(registry)}")
    if args.episodes < 1:
        parser.error(f"--episodes must be >= 1, got {args.episodes}")
    out = []
    for g in names:
        if args.preset not in registry[g].presets:
            parser.error(f"{g} has no table preset {args.preset!r}; presets: "
                         f"{registry[g].presets}")
        s = run_game(registry[g], args.preset, args.bot, args.episodes, args.seed, args.out,
                     not args.no_progress, args.players)
        print(f"{g}: {s['situations']} situations"
              + (f", {s['compared']} beside the solved table" if s["compared"] is not None
                 else "") + f" -> {s['folder']}/")
        out.append(s)
    return out


if __name__ == "__main__":
    main()
