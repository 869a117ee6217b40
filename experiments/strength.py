"""Yardsticks: one bot against external and internal anchors in paired deals.

Example::

    python -m experiments.strength --game gold_thief --players 2 --bot best \\
        --anchors openspiel_ismcts:cpu=10x,ismcts:cpu=1x,heuristic,random \\
        --games 40 --seed 1

For every anchor, ``--games`` deals are played, each once per rotation of
the seats (2 players: the same deal with seats swapped; N players: the
tested bot in each seat in turn, the anchor in every other seat).  Deal d
is seeded by ``(seed, d)`` alone (``solvers.evaluate.game_seed``): every
rotation of a deal draws the same chance stream and the same bot seeds, so
the deal's luck cancels in the pair.  A game scores 1 for the tested bot
when its return beats the mean return of the anchor seats, 1/2 when equal,
else 0 (2 players: win 1, tie 1/2).  Score and returns are averaged per
deal; intervals are the 95% normal intervals of the per-deal means
(a paired interval: the deal is the unit).  The return difference (the
tested seat's return minus the anchor seats' mean) has baseline 0 for equal
bots at any player count.  The score's baseline is 1/2 only at 2 players: at
3+ players a team win counts for every seat of the team, so equal bots score
P(the tested seat's team wins), averaged over seats (in Saboteur, above 1/2
when gold-diggers win more often than saboteurs).  So at 3+ players
(``--control auto``, the default) every deal and rotation is also played with
the anchor in the tested seat (same chance stream and seat seeds): the
*control score*, and the paired difference score − control with its
interval, which is the test of "better than the anchor".

Bot specs are ``solvers.botspec`` specs.  ``openspiel_ismcts`` is OpenSpiel's
own Python ``ISMCTSBot`` (``solvers.bots.make_openspiel_ismcts``: random
rollouts, ``uct_c=2``, other arguments at their defaults).  An anchor option
``cpu=X`` (seconds) or ``cpu=Nx`` (N times the tested bot's mean CPU per
move) replaces its ``max_simulations`` by a fixed count calibrated before
the match: the tested bot's and the anchor's CPU time per move are measured
(``time.process_time``) at ``--calibrate`` positions of seeded random games
(``games.testing.mid_game_states``), the anchor at ``--probe-sims``
simulations and again at the count that scaling gives, and the count taken
from the line a + b*n through both (a move's fixed cost a made one scaled
probe undercount: a plain search calibrated against itself got about 0.6x
the CPU).  The count used is printed, and
the match reports both sides' measured CPU per move (mean, 95th percentile),
so the ratio reached is visible.  ``--sims`` pins the counts instead
(``--sims openspiel_ismcts=120``), for a seed-deterministic rerun.

Games of hidden teams (a ``team_rounds`` in the game's spec: Saboteur) also
get team wins per role: for every finished round, the tested seat's role and
whether its team won, pooled per role over the deals, with the control's
rate in the same seats and the difference (tested − control) with a 95%
interval clustered by deal (a deal's rounds and its control games are
correlated).  One seat's game score mixes its team's luck in every round;
the per-role rate says whether the bot's team wins more often *because of*
the bot in that role.

Output (``--out``, default ``results/strength/<game>-<N>p/``), written
atomically after every anchor: ``strength.md``, ``strength.csv`` and, with
team rounds, ``strength_roles.csv``.
"""
from __future__ import annotations

import argparse
import csv
import datetime
import io
import math
import os
import platform
import sys
import time
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np
import pyspiel

from experiments.best_vs_heuristic import HIST_PREFIX, CpuTimedBot, percentile_ms
from experiments.botspec import game_string
from solvers.botspec import parse_bot as parse_bot_spec
from solvers.botspec import parse_lineup
from solvers.backends import BACKENDS, run_tasks
from solvers.bots import make_bot, register_bot
from solvers.evaluate import BotSpec, _load, full_lineup, game_seed, play_game_final, spec
from solvers.policy_io import atomic_write


def _make_timed(game: pyspiel.Game, seed: int | None = 0, inner: str = "best",
                **options: Any) -> pyspiel.Bot:
    """``inner`` (a ``make_bot`` name) wrapped so it counts its CPU per move."""
    return CpuTimedBot(make_bot(inner, game, seed=seed, **options))


register_bot("timed", _make_timed)


def timed(b: BotSpec) -> BotSpec:
    """The same bot, timed (``stats()``: moves, CPU, a histogram in whole ms)."""
    return spec("timed", b.display, inner=b.name, **dict(b.options))


@dataclass
class CpuStat:
    """CPU time per move of one side over a match."""

    moves: int
    mean_ms: float
    p95_ms: int

    @staticmethod
    def of(stats: Sequence[dict]) -> "CpuStat":
        moves = sum(s.get("moves", 0) for s in stats)
        cpu_us = sum(s.get("cpu_us", 0) for s in stats)
        hist: dict[int, int] = {}
        for s in stats:
            for k, v in s.items():
                if k.startswith(HIST_PREFIX):
                    b = int(k[len(HIST_PREFIX):])
                    hist[b] = hist.get(b, 0) + v
        if not moves:
            return CpuStat(0, math.nan, 0)
        return CpuStat(moves, cpu_us / moves / 1000, percentile_ms(hist, 0.95))


def _ms_bucket(ms: int) -> str:
    """A whole-millisecond histogram bucket for the table: ``"<1"`` for bucket 0
    (a sub-millisecond percentile), else the bucket."""
    return "<1" if ms == 0 else str(ms)


def mean_ci(values: np.ndarray) -> tuple[float, float]:
    """Mean and 95% normal half-width of ``values`` (the per-deal means)."""
    v = np.asarray(values, float)
    half = 1.96 * v.std(ddof=1) / math.sqrt(len(v)) if len(v) > 1 else math.inf
    return float(v.mean()), float(half)


@dataclass
class Cell:
    """The tested bot against one anchor."""

    anchor: str
    deals: int
    players: int
    score: np.ndarray          # [deal]: mean score over the rotations
    tested_return: np.ndarray  # [deal]: the tested bot's mean return
    anchor_return: np.ndarray  # [deal]: mean return of the anchor seats
    tested_cpu: CpuStat
    anchor_cpu: CpuStat
    # [deal]: the control's score (the anchor in the tested seat, same deals), or None
    control: np.ndarray | None = None
    # [deal]: the control seat's return minus the other seats' mean (baseline 0), or None
    control_return_diff: np.ndarray | None = None
    # per role: [deal, 2] team wins and rounds of the tested seat (games of hidden
    # teams), and of the control's tested seat; None without team rounds
    roles: dict[str, np.ndarray] | None = None
    control_roles: dict[str, np.ndarray] | None = None

    @property
    def return_diff(self) -> np.ndarray:
        """[deal]: the tested bot's mean return minus the anchor seats' (baseline 0)."""
        return self.tested_return - self.anchor_return


def strength_task(job: tuple) -> tuple[int, tuple]:
    """One game: ``(game_string, (tested, anchor), deal, rotation, seed, index)``."""
    gs, duo, deal, rotation, seed, index = job
    from games.spec import find_spec
    gspec = find_spec(_load(gs))
    final = gspec.team_rounds() if gspec is not None and gspec.team_rounds else None
    return index, play_game_final(gs, list(duo), rotation, game_seed(seed, deal), final)


def _role_counts(out: Sequence[tuple], deals: int, n: int) -> dict[str, np.ndarray] | None:
    """Per role: ``[deal, 2]`` team wins and rounds of the tested seat (line-up
    index 0), summed over rotations and rounds; None without team rounds."""
    if not out or out[0][3] is None:
        return None
    counts: dict[str, np.ndarray] = {}
    for k, (_returns, seating, _st, rounds) in enumerate(out):
        d = k // n
        for rnd in rounds:
            for seat, side in enumerate(seating):
                if side == 0:
                    role, won = rnd[seat]
                    c = counts.setdefault(role, np.zeros((deals, 2)))
                    c[d, 0] += won
                    c[d, 1] += 1
    return counts


def ratio_ci(wins: np.ndarray, rounds: np.ndarray, wins_c: np.ndarray | None = None,
             rounds_c: np.ndarray | None = None) -> tuple[float, float]:
    """The pooled rate sum(wins) / sum(rounds) over deals, or with a control the
    difference of the two rates, and its 95% half-width clustered by deal
    (the ratio estimator's linearization: a deal's residual w - R n, over the
    total rounds; with one round per deal and no control this is ``mean_ci``)."""
    w, r = np.asarray(wins, float), np.asarray(rounds, float)
    if r.sum() == 0:
        return math.nan, math.nan
    rate = w.sum() / r.sum()
    u = (w - rate * r) / r.sum()
    if wins_c is not None and rounds_c is not None:
        wc, rc = np.asarray(wins_c, float), np.asarray(rounds_c, float)
        if rc.sum() == 0:
            return math.nan, math.nan
        rate_c = wc.sum() / rc.sum()
        rate, u = rate - rate_c, u - (wc - rate_c * rc) / rc.sum()
    d = len(u)
    half = 1.96 * math.sqrt(d / (d - 1) * float((u ** 2).sum())) if d > 1 else math.inf
    return float(rate), half


def _scores(out: Sequence[tuple], deals: int, n: int
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple[list, list]]:
    """Per deal and rotation: score, seat-0 return, mean return of the other seats;
    and the ``stats()`` of each side (line-up index 0, the rest)."""
    score = np.zeros((deals, n))
    t_ret = np.zeros((deals, n))
    a_ret = np.zeros((deals, n))
    stats: tuple[list, list] = ([], [])
    for k, (returns, seating, st, _rounds) in enumerate(out):
        d, r = divmod(k, n)
        ret = np.asarray(returns, float)
        mine = np.asarray(seating) == 0
        t_ret[d, r] = ret[mine].mean()
        a_ret[d, r] = ret[~mine].mean()
        diff = t_ret[d, r] - a_ret[d, r]
        score[d, r] = 0.5 if abs(diff) < 1e-9 else float(diff > 0)
        for s, side in enumerate(seating):
            stats[min(side, 1)].append(st[s])
    return score, t_ret, a_ret, stats


def play_cell(gs: str, tested: BotSpec, anchor: BotSpec, deals: int, seed: int,
              backend: str = "local", processes: int | None = 1,
              progress: bool = True, control: bool = False) -> Cell:
    """Play ``deals`` paired deals of ``tested`` against ``anchor`` (module doc).

    ``control``: also play every deal and rotation with the anchor in the
    tested seat (the same chance stream and seat seeds), whose score is the
    baseline the tested bot's score is compared with at 3+ players.
    """
    if deals < 2:
        raise ValueError(f"--games must be >= 2 (intervals need two deals), got {deals}")
    game = _load(gs)
    n = game.num_players()
    duo = tuple(full_lineup([timed(tested), timed(anchor)], n))
    for b in duo[:2]:   # fail fast on unknown bots or options
        b.build(game, 0)
    lineups = [duo] + ([tuple(full_lineup([timed(anchor)] * 2, n))] if control else [])
    jobs = [(gs, lu, d, r, seed, i * deals * n + d * n + r)
            for i, lu in enumerate(lineups) for d in range(deals) for r in range(n)]
    out = run_tasks(strength_task, jobs, backend=backend, processes=processes,
                    progress=progress, desc=f"{tested.display} vs {anchor.display}"
                    + (" (+ control)" if control else ""))
    score, t_ret, a_ret, stats = _scores(out[:deals * n], deals, n)
    ctrl = ctrl_diff = c_roles = None
    if control:
        c_score, c_ret, c_other, _ = _scores(out[deals * n:], deals, n)
        ctrl, ctrl_diff = c_score.mean(axis=1), (c_ret - c_other).mean(axis=1)
        c_roles = _role_counts(out[deals * n:], deals, n)
    return Cell(anchor.display, deals, n, score.mean(axis=1), t_ret.mean(axis=1),
                a_ret.mean(axis=1), CpuStat.of(stats[0]), CpuStat.of(stats[1]), ctrl,
                ctrl_diff, _role_counts(out[:deals * n], deals, n), c_roles)


def cpu_per_move(game: pyspiel.Game, b: BotSpec, states: Sequence[pyspiel.State],
                 seed: int) -> float:
    """Mean CPU seconds of one move of bot ``b`` over ``states``."""
    bot = b.build(game, seed)
    t = time.process_time()
    for s in states:
        bot.step(s.clone())
    return (time.process_time() - t) / len(states)


def _fit_sims(cost: Callable[[int], float], probe_sims: int, seconds: float) -> int:
    """Simulations whose CPU per move ``cost(n)`` is ``seconds``.

    A move costs a fixed part (tree set-up, worlds, the bot's Python) plus a
    part per simulation, so scaling one small probe linearly overestimates the
    cost of a simulation and undercounts.  Two probes: ``probe_sims`` gives a
    first estimate n2; ``cost(n2)`` then fits ``a + b*n`` through both points
    (falling back to scaling the second probe when the fit is not usable).
    """
    n1 = probe_sims
    c1 = cost(n1)
    n2 = max(2, round(seconds * n1 / c1))
    if abs(n2 - n1) < max(2, n1 // 2):
        return n2
    c2 = cost(n2)
    b = (c2 - c1) / (n2 - n1)
    fit = (seconds - (c1 - b * n1)) / b if b > 0 else -1.0
    return max(2, round(fit if fit > 0 else seconds * n2 / c2))


def calibrate(game: pyspiel.Game, tested: BotSpec, anchor: BotSpec, positions: int,
              probe_sims: int, seed: int, tested_cpu: float | None = None
              ) -> tuple[BotSpec, float]:
    """``anchor`` with ``cpu=...`` replaced by a calibrated ``max_simulations``;
    (the new spec, the tested bot's CPU per move used)."""
    from games.testing import mid_game_states
    options = dict(anchor.options)
    target = options.pop("cpu", None)
    if target is None:
        return anchor, tested_cpu
    states = mid_game_states(game, positions, seed)
    if tested_cpu is None:
        tested_cpu = cpu_per_move(game, tested, states, seed)
    text = str(target)
    try:
        seconds = float(text[:-1]) * tested_cpu if text.endswith("x") else float(text)
    except ValueError:
        raise ValueError(f"cpu={text!r}: give seconds (0.05) or a multiple of the tested "
                         f"bot's CPU per move (10x)") from None
    if not seconds > 0:
        raise ValueError(f"cpu={text!r} must be positive")
    sims = _fit_sims(lambda n: cpu_per_move(game, BotSpec(
        anchor.name, tuple(sorted({**options, "max_simulations": n}.items())), anchor.label),
        states, seed), probe_sims, seconds)
    label = anchor.label or f"{anchor.name}:cpu={text}"
    return (BotSpec(anchor.name, tuple(sorted({**options, "max_simulations": sims}.items())),
                    f"{label} ({sims} sims)"), tested_cpu)


def _control_cols(c: Cell) -> tuple[str, str, str]:
    """The control's score, the paired difference (score − control) and the
    control's return difference, or dashes."""
    if c.control is None or c.control_return_diff is None:
        return "—", "—", "—"
    k, kh = mean_ci(c.control)
    d, dh = mean_ci(c.score - c.control)
    r, rh = mean_ci(c.control_return_diff)
    return f"{k:.3f} ± {kh:.3f}", f"{d:+.3f} ± {dh:.3f}", f"{r:+.3f} ± {rh:.3f}"


def markdown(gs: str, tested: str, cells: Sequence[Cell], seed: int, header: str) -> str:
    """The result table."""
    lines = [f"## {gs}: {tested} against anchors, seed {seed}", "", header, "",
             "Paired deals (every deal once per seat rotation); score: win 1, tie 1/2 "
             "(against the anchor seats' mean return); 95% normal intervals over the "
             "per-deal means. Return difference: the tested seat's return minus the anchor "
             "seats' mean, per deal (0 for equal bots). Control: the same deals with the "
             "anchor in the tested seat; at 3+ players equal bots score the control's "
             "score, not 1/2 (a team win counts for every seat of the team); its return "
             "difference should be about 0.", "",
             f"| anchor | deals | games | {tested} score | {tested} mean return | "
             "anchor mean return | return difference | control score | score − control | "
             "control return difference | "
             f"CPU per move {tested}: mean / p95 | anchor: mean / p95 |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for c in cells:
        s, sh = mean_ci(c.score)
        t, th = mean_ci(c.tested_return)
        a, ah = mean_ci(c.anchor_return)
        r, rh = mean_ci(c.return_diff)
        k, d, cr = _control_cols(c)
        lines.append(f"| {c.anchor} | {c.deals} | {c.deals * c.players} | {s:.3f} ± {sh:.3f} | "
                     f"{t:+.3f} ± {th:.3f} | {a:+.3f} ± {ah:.3f} | {r:+.3f} ± {rh:.3f} | "
                     f"{k} | {d} | {cr} | "
                     f"{c.tested_cpu.mean_ms:.1f} / {_ms_bucket(c.tested_cpu.p95_ms)} ms | "
                     f"{c.anchor_cpu.mean_ms:.1f} / {_ms_bucket(c.anchor_cpu.p95_ms)} ms |")
    return "\n".join(lines) + "\n"


def role_rows(c: Cell) -> list[tuple[str, float, float, float, float, float, float, int, int]]:
    """Per role of the tested seat: (role, team-win rate and half-width, the
    control's, the difference and its half-width (nan without a control),
    rounds, control rounds)."""
    out = []
    for role in sorted(c.roles or {}):
        t = c.roles[role]
        k = (c.control_roles or {}).get(role)
        rate, half = ratio_ci(t[:, 0], t[:, 1])
        if k is None:
            k_rate = k_half = diff = d_half = math.nan
            k_n = 0
        else:
            (k_rate, k_half), (diff, d_half) = (ratio_ci(k[:, 0], k[:, 1]),
                                                ratio_ci(t[:, 0], t[:, 1], k[:, 0], k[:, 1]))
            k_n = int(k[:, 1].sum())
        out.append((role, rate, half, k_rate, k_half, diff, d_half, int(t[:, 1].sum()), k_n))
    return out


def roles_markdown(tested: str, cells: Sequence[Cell]) -> str:
    """The team-wins-per-role table ('' when no cell has team rounds)."""
    rows = [(c, r) for c in cells for r in role_rows(c)]
    if not rows:
        return ""
    lines = ["", "Team wins per role of the tested seat (every finished round; the "
             "control: the anchor in that seat, same deals; intervals clustered by deal):",
             "", f"| anchor | role | rounds: {tested} / control | team wins: {tested} | "
             "control | difference |", "|---|---|---|---|---|---|"]
    for c, (role, rate, half, k_rate, k_half, diff, d_half, n_t, n_k) in rows:
        k = "—" if math.isnan(k_rate) else f"{k_rate:.3f} ± {k_half:.3f}"
        d = "—" if math.isnan(diff) else f"{diff:+.3f} ± {d_half:.3f}"
        lines.append(f"| {c.anchor} | {role} | {n_t} / {n_k} | {rate:.3f} ± {half:.3f} | "
                     f"{k} | {d} |")
    return "\n".join(lines) + "\n"


def roles_csv(gs: str, tested: str, cells: Sequence[Cell], seed: int) -> str:
    """One row per anchor and role (control columns empty without a control)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["game", "tested", "anchor", "seed", "deals", "role", "rounds",
                "team_win_rate", "team_win_rate_ci95", "control_rounds", "control_rate",
                "control_rate_ci95", "difference", "difference_ci95"])
    for c in cells:
        for role, rate, half, k_rate, k_half, diff, d_half, n_t, n_k in role_rows(c):
            w.writerow([gs, tested, c.anchor, seed, c.deals, role, n_t, f"{rate:.6f}",
                        f"{half:.6f}", n_k if c.control_roles is not None else "",
                        *("" if math.isnan(x) else f"{x:.6f}"
                          for x in (k_rate, k_half, diff, d_half))])
    return buf.getvalue()


def to_csv(gs: str, tested: str, cells: Sequence[Cell], seed: int) -> str:
    """One row per anchor (control columns empty without a control)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["game", "tested", "anchor", "seed", "deals", "games", "score", "score_ci95",
                "tested_return", "tested_return_ci95", "anchor_return", "anchor_return_ci95",
                "return_diff", "return_diff_ci95", "control_score", "control_score_ci95",
                "score_minus_control", "score_minus_control_ci95", "control_return_diff",
                "control_return_diff_ci95",
                "tested_cpu_ms_mean", "tested_cpu_ms_p95", "anchor_cpu_ms_mean",
                "anchor_cpu_ms_p95"])
    for c in cells:
        ctrl = (("",) * 6 if c.control is None or c.control_return_diff is None else
                (*mean_ci(c.control), *mean_ci(c.score - c.control),
                 *mean_ci(c.control_return_diff)))
        w.writerow([gs, tested, c.anchor, seed, c.deals, c.deals * c.players,
                    *(f"{x:.6f}" for x in (*mean_ci(c.score), *mean_ci(c.tested_return),
                                           *mean_ci(c.anchor_return),
                                           *mean_ci(c.return_diff))),
                    *(x if x == "" else f"{x:.6f}" for x in ctrl),
                    f"{c.tested_cpu.mean_ms:.3f}", c.tested_cpu.p95_ms,
                    f"{c.anchor_cpu.mean_ms:.3f}", c.anchor_cpu.p95_ms])
    return buf.getvalue()


def preset_string(name: str, preset: str | None, players: int | None) -> str:
    """Game string of ``--game``/``--preset``/``--players``."""
    if preset is None:
        return game_string(name, players)
    from games.spec import get_spec
    presets = get_spec(name).presets
    if preset not in presets:
        raise ValueError(f"{name} has no preset {preset!r}; presets: {sorted(presets)}")
    params = {**presets[preset], **({} if players is None else {"players": players})}
    return f"{name}({','.join(f'{k}={v}' for k, v in params.items())})"


def _pinned_sims(items: Sequence[str]) -> dict[str, int]:
    out = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not value.isdigit() or int(value) < 1:
            raise ValueError(f"--sims {item!r} is not NAME=SIMULATIONS")
        out[name] = int(value)
    return out


def main(argv: list[str] | None = None) -> int:
    """Command line entry (see the module doc); exit status 2 on bad arguments."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", required=True, help="game name or a full game string")
    ap.add_argument("--players", type=int, default=None, help="players (game parameter)")
    ap.add_argument("--preset", default=None, help="a preset of the game's spec (e.g. mini)")
    ap.add_argument("--bot", default="best", help="the tested bot's spec (default best)")
    ap.add_argument("--anchors", default="openspiel_ismcts:cpu=10x,ismcts:cpu=1x,heuristic,random",
                    help="comma-separated anchor specs; cpu=SECONDS or cpu=Nx calibrates "
                         "max_simulations")
    ap.add_argument("--games", type=int, default=40, help="paired deals per anchor")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--calibrate", type=int, default=8, help="positions for cpu=...")
    ap.add_argument("--probe-sims", type=int, default=50, help="anchor simulations when "
                    "calibrating")
    ap.add_argument("--sims", action="append", default=[], metavar="NAME=N",
                    help="pin the simulations of anchor NAME instead of calibrating")
    ap.add_argument("--backend", choices=BACKENDS, default="local")
    ap.add_argument("--processes", type=int, default=1)
    ap.add_argument("--out", default=None, help="default results/strength/<game>-<N>p")
    ap.add_argument("--control", choices=("auto", "on", "off"), default="auto",
                    help="also play each deal with the anchor in the tested seat (the "
                         "baseline score); auto: at 3+ players")
    ap.add_argument("--no-progress", action="store_true")
    args = ap.parse_args(argv)
    t0 = time.time()
    try:
        import games  # noqa: F401
        gs = preset_string(args.game, args.preset, args.players)
        game = _load(gs)
        tested = parse_bot_spec(args.bot)
        anchors = parse_lineup(args.anchors)
        pinned = _pinned_sims(args.sims)
        tested.build(game, 0)
        tested_cpu = None
        resolved = []
        for a in anchors:
            opts = dict(a.options)
            if a.name in pinned and "cpu" in opts:
                opts.pop("cpu")
                opts["max_simulations"] = pinned[a.name]
                a = BotSpec(a.name, tuple(sorted(opts.items())),
                            f"{a.display} ({pinned[a.name]} sims)")
            a, tested_cpu = calibrate(game, tested, a, args.calibrate, args.probe_sims,
                                      args.seed, tested_cpu)
            resolved.append(a)
        out_dir = args.out or os.path.join(
            "results", "strength", f"{game.get_type().short_name}-{game.num_players()}p")
        os.makedirs(out_dir, exist_ok=True)
        cal = ("" if tested_cpu is None else
               f"Calibration: {args.bot} {tested_cpu * 1000:.1f} ms of CPU per move at "
               f"{args.calibrate} random-play positions. ")
        control = args.control == "on" or (args.control == "auto" and game.num_players() > 2)
        cells: list[Cell] = []
        for a in resolved:   # the files are rewritten after every anchor
            cells.append(play_cell(gs, tested, a, args.games, args.seed,
                                   backend=args.backend, processes=args.processes,
                                   progress=not args.no_progress, control=control))
            header = (f"{cal}{time.time() - t0:.0f} s wall on {platform.node()}, "
                      f"{datetime.date.today()}; command: python -m experiments.strength "
                      + " ".join(argv if argv is not None else sys.argv[1:]))
            text = (markdown(gs, tested.display, cells, args.seed, header)
                    + roles_markdown(tested.display, cells))
            atomic_write(os.path.join(out_dir, "strength.md"), text.encode())
            atomic_write(os.path.join(out_dir, "strength.csv"),
                         to_csv(gs, tested.display, cells, args.seed).encode())
            if cells[0].roles is not None:
                atomic_write(os.path.join(out_dir, "strength_roles.csv"),
                             roles_csv(gs, tested.display, cells, args.seed).encode())
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(text)
    print(f"wrote {out_dir}/strength.md, strength.csv"
          + (", strength_roles.csv" if cells and cells[0].roles is not None else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
