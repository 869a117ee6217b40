"""Saboteur AI measurements (docs/results.md, "AI opponents").

Subcommands (5 players, one round unless ``--players``)::

    python -m experiments.research.saboteur_ai selfplay --bot best --rounds 20
    python -m experiments.research.saboteur_ai budget --sims 100,400,1500 --rounds 10 --plot budget.png
    python -m experiments.research.saboteur_ai vs --rounds 100
    python -m experiments.research.saboteur_ai plot --points 100:10/20,400:12/20 --heuristic 48/100 --plot p.png

``selfplay``: one bot in every seat; digger success rate (Wilson 95%
interval), CPU time per move (process time, so other jobs on the machine
do not count), and role inference at the round end: each
player's belief (``solvers.beliefs``) at the last decision before the roles
are revealed, the probability it gives the true assignment against the
uniform prior, and Brier scores of the per-seat saboteur probabilities (other
seats) against the prior's.  ``budget``: selfplay of ``best`` at several
simulation budgets, plus the heuristic's self-play rate; optional plot.
``plot``: the same plot from budget points measured earlier (as printed).
``vs``: one ``best`` seat against heuristic seats, the ``best`` seat
rotated; win rate by the ``best`` seat's role (team win), with intervals;
rows "heuristic" (the other seats of those rounds) and "baseline" (the same
seat in an all-heuristic round with the same seed: the same deal, as long as
play has not diverged), and the paired difference best - baseline per role
over the rounds whose deal gave the same roles.
Round i is fully determined by (seed, i).
"""
from __future__ import annotations

import argparse
import math
import sys
import time

import pyspiel

import games  # noqa: F401
from solvers.beliefs import belief
from solvers.bots import make_bot
from src_cy.rng import SplitMix64, sample_sorted


def wilson(k: int, n: int) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if n == 0:
        return (math.nan, math.nan)
    z = 1.96
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (c - h, c + h)


def play_round(game: pyspiel.Game, bots: list, seed: int, track_beliefs: bool):
    """Play one round; returns (final state, CPU seconds per seat, moves per seat,
    beliefs at the last decision before the reveal, per player)."""
    n = game.num_players()
    rng = SplitMix64(seed)
    s = game.new_initial_state()
    secs, moves = [0.0] * n, [0] * n
    last = None
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(sample_sorted(sorted(s.chance_outcomes()), rng))
            continue
        p = s.current_player()
        if track_beliefs and " won by " not in s.information_state_string(p):
            last = s.clone()
        t = time.process_time()
        a = bots[p].step(s)
        secs[p] += time.process_time() - t
        moves[p] += 1
        s.apply_action(a)
    beliefs = [belief(last, q) for q in range(n)] if track_beliefs and last else None
    return s, secs, moves, beliefs


def roles_of(state: pyspiel.State) -> tuple:
    """The round's roles, from the public round-end event."""
    from games.saboteur.beliefs import saboteur_record
    return saboteur_record(state.engine, 0).revealed


def diggers_won(state: pyspiel.State) -> bool:
    return "won by diggers" in state.information_state_string(0)


def selfplay(bot: str, players: int, rounds: int, seed: int, **options) -> dict:
    """One bot everywhere; digger success, time per move, role inference."""
    game = pyspiel.load_game("saboteur", {"players": players, "rounds": 1})
    won, secs, moves = 0, 0.0, 0
    p_true, p_uniform, brier, brier_prior, nb = 0.0, 0.0, 0.0, 0.0, 0
    for i in range(rounds):
        bots = [make_bot(bot, game, seed=seed * 100_003 + 10 * i + p, **options)
                for p in range(players)]
        s, sc, mv, beliefs = play_round(game, bots, seed * 1_000_003 + i, True)
        won += diggers_won(s)
        secs += sum(sc)
        moves += sum(mv)
        roles = roles_of(s)
        for q, b in enumerate(beliefs or []):
            p_true += b.prob(roles)
            p_uniform += 1.0 / len(b.outcomes)
            prior = {o: 1.0 / len(b.outcomes) for o in b.outcomes}
            for r in range(players):
                if r == q:
                    continue
                ps = b.marginal(r).get(1, 0.0)
                pp = sum(w for o, w in prior.items() if o[r] == 1)
                brier += (ps - roles[r]) ** 2
                brier_prior += (pp - roles[r]) ** 2
                nb += 1
    nbel = rounds * players
    return {"bot": bot, "options": options, "rounds": rounds, "digger_wins": won,
            "rate": won / rounds, "ci": wilson(won, rounds), "sec_per_move": secs / max(moves, 1),
            "p_true": p_true / nbel, "p_uniform": p_uniform / nbel,
            "brier": brier / max(nb, 1), "brier_prior": brier_prior / max(nb, 1)}


def versus(players: int, rounds: int, seed: int, bot: str = "best", **options) -> dict:
    """One ``bot`` seat (rotated) against heuristic seats: team wins by role."""
    game = pyspiel.load_game("saboteur", {"players": players, "rounds": 1})
    by_role = {0: [0, 0], 1: [0, 0]}           # role -> [wins, rounds]
    ref = {0: [0, 0], 1: [0, 0]}               # heuristic seats, same rounds
    base = {0: [0, 0], 1: [0, 0]}              # that seat, all-heuristic round, same seed
    paired = {0: [], 1: []}                    # best win - baseline win, rounds where roles agree
    secs, moves = 0.0, 0
    for i in range(rounds):
        seat = i % players
        bots = [make_bot(bot, game, seed=seed * 100_003 + i, **options) if p == seat
                else make_bot("heuristic", game, seed=p) for p in range(players)]
        s, sc, mv, _ = play_round(game, bots, seed * 1_000_003 + i, False)
        roles = roles_of(s)
        dw = diggers_won(s)
        secs += sc[seat]
        moves += mv[seat]
        for p in range(players):
            win = int(dw == (roles[p] == 0))
            tab = by_role if p == seat else ref
            tab[roles[p]][0] += win
            tab[roles[p]][1] += 1
        hs, _, _, _ = play_round(game, [make_bot("heuristic", game, seed=p)
                                        for p in range(players)], seed * 1_000_003 + i, False)
        hroles = roles_of(hs)
        hwin = int(diggers_won(hs) == (hroles[seat] == 0))
        base[hroles[seat]][0] += hwin
        base[hroles[seat]][1] += 1
        if hroles == roles:
            paired[roles[seat]].append(int(dw == (roles[seat] == 0)) - hwin)
    out = {"rounds": rounds, "sec_per_move": secs / max(moves, 1)}
    for name, tab in (("best", by_role), ("heuristic", ref), ("baseline", base)):
        for role, label in ((0, "digger"), (1, "saboteur")):
            k, n = tab[role]
            out[f"{name}_{label}"] = (k, n, k / n if n else math.nan, wilson(k, n))
    for role, label in ((0, "digger"), (1, "saboteur")):
        d = paired[role]
        m = sum(d) / len(d) if d else math.nan
        sd = math.sqrt(sum((x - m) ** 2 for x in d) / (len(d) - 1)) if len(d) > 1 else math.nan
        out[f"paired_{label}"] = (len(d), m, 1.96 * sd / math.sqrt(len(d)) if d else math.nan)
    return out


def plot_budget(points: list[tuple[int, int, int]], heuristic: tuple[int, int], players: int,
                path: str) -> None:
    """PNG of digger success against simulations per move: ``points`` are
    (simulations, rounds the diggers won, rounds) of ``best`` in every seat,
    ``heuristic`` (won, rounds) of heuristic self-play; Wilson 95% bars."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6, 4))
    xs = [n for n, _, _ in points]
    ys = [k / r for _, k, r in points]
    cis = [wilson(k, r) for _, k, r in points]
    ax.errorbar(xs, ys, yerr=[[y - c[0] for y, c in zip(ys, cis)],
                              [c[1] - y for y, c in zip(ys, cis)]],
                marker="o", capsize=3, label="best, all seats")
    hk, hr = heuristic
    lo, hi = wilson(hk, hr)
    ax.axhline(hk / hr, color="gray", ls="--", label=f"heuristic self-play ({hr} rounds)")
    ax.axhspan(lo, hi, color="gray", alpha=0.15)
    ax.axhline(0.30, color="red", ls=":", label="target 30%")
    ax.set_xscale("log")
    ax.set_xlabel("simulations per move")
    ax.set_ylabel("rounds the diggers win")
    ax.set_ylim(0, 1)
    per = sorted({r for _, _, r in points})
    ax.set_title(f"Saboteur {players}p, one round ({'/'.join(map(str, per))} rounds per point, 95% CI)",
                 fontsize=9)
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def _fmt_ci(ci: tuple[float, float]) -> str:
    return f"[{ci[0]:.2f}, {ci[1]:.2f}]"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("command", choices=("selfplay", "budget", "vs", "plot"))
    ap.add_argument("--bot", default="best")
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--sims", default=None, help="simulation budget(s), comma-separated")
    ap.add_argument("--uniform", action="store_true", help="uniform determinization")
    ap.add_argument("--depth", type=int, default=None, help="ISMCTS max_depth override")
    ap.add_argument("--all-actions", action="store_true", help="no root grouping")
    ap.add_argument("--anchor-z", type=float, default=None, help="anchor margin override")
    ap.add_argument("--vs-bot", default="best", help="vs: the bot in the rotated seat")
    ap.add_argument("--plot", default=None, help="budget / plot: write a PNG plot here")
    ap.add_argument("--points", default=None,
                    help="plot: measured budget points sims:won/rounds, comma-separated")
    ap.add_argument("--heuristic", default=None, help="plot: heuristic self-play won/rounds")
    args = ap.parse_args(argv)
    opts = {}
    if args.uniform:
        opts["determinization"] = "uniform"
    if args.depth is not None:
        opts["max_depth"] = args.depth
    if args.anchor_z is not None:
        opts["anchor_z"] = args.anchor_z
    if args.all_actions:
        opts["root_candidates"] = None
    sims = [int(x) for x in args.sims.split(",")] if args.sims else []
    print(f"# saboteur {args.players}p, 1 round, seed {args.seed}, options {opts}")
    if args.command == "selfplay":
        if sims:
            opts["max_simulations"] = sims[0]
        if args.bot != "best" and args.bot != "ismcts":
            opts = {}
        r = selfplay(args.bot, args.players, args.rounds, args.seed, **opts)
        print(f"{args.bot} {opts}: diggers won {r['digger_wins']}/{r['rounds']} = {r['rate']:.2f} "
              f"{_fmt_ci(r['ci'])}; {1000 * r['sec_per_move']:.1f} ms/move")
        print(f"role inference: P(true assignment) {r['p_true']:.3f} vs uniform {r['p_uniform']:.3f}; "
              f"Brier {r['brier']:.3f} vs prior {r['brier_prior']:.3f}")
    elif args.command == "budget":
        rows = []
        h = selfplay("heuristic", args.players, max(args.rounds, 100), args.seed)
        print(f"heuristic self-play: {h['digger_wins']}/{h['rounds']} = {h['rate']:.2f} {_fmt_ci(h['ci'])}")
        for n in sims:
            r = selfplay("best", args.players, args.rounds, args.seed, max_simulations=n, **opts)
            rows.append((n, r))
            print(f"| {n} | {r['rounds']} | {r['rate']:.2f} {_fmt_ci(r['ci'])} | "
                  f"{1000 * r['sec_per_move']:.1f} ms | P(true) {r['p_true']:.3f} vs "
                  f"{r['p_uniform']:.3f}, Brier {r['brier']:.3f} vs {r['brier_prior']:.3f} |",
                  flush=True)
        if args.plot:
            plot_budget([(n, r["digger_wins"], r["rounds"]) for n, r in rows],
                        (h["digger_wins"], h["rounds"]), args.players, args.plot)
            print(f"plot: {args.plot}")
    elif args.command == "plot":
        if not args.points or not args.heuristic or not args.plot:
            raise ValueError("plot needs --points, --heuristic and --plot")
        pts = []
        for item in args.points.split(","):
            n, kr = item.split(":")
            k, r = kr.split("/")
            pts.append((int(n), int(k), int(r)))
        hk, hr = (int(x) for x in args.heuristic.split("/"))
        plot_budget(pts, (hk, hr), args.players, args.plot)
        print(f"plot: {args.plot}")
    else:
        if sims:
            opts["max_simulations"] = sims[0]
        r = versus(args.players, args.rounds, args.seed, args.vs_bot, **opts)
        print(f"{args.vs_bot} (1 seat, rotated) vs heuristic: {r['rounds']} rounds, "
              f"{1000 * r['sec_per_move']:.1f} ms/move (best)")
        print("| seat | role | team wins | rounds | rate | 95% CI |\n|---|---|---|---|---|---|")
        for name in ("best", "heuristic", "baseline"):
            for label in ("digger", "saboteur"):
                k, n, rate, ci = r[f"{name}_{label}"]
                print(f"| {name} | {label} | {k} | {n} | {rate:.2f} | {_fmt_ci(ci)} |")
        for label in ("digger", "saboteur"):
            n, m, h = r[f"paired_{label}"]
            print(f"paired (same deal, same roles) best - baseline as {label}: "
                  f"{m:+.3f} ± {h:.3f} over {n} rounds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
