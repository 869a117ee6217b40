"""Paired Saboteur comparison: one candidate seat against heuristic (or other) seats.

::

    python -m experiments.research.saboteur_paired --bot belief_heuristic \
        --opt repair_first=true --players 5 --deals 100 --seed 1

For every deal ``i`` (round seed ``seed * 1_000_003 + i``) the script plays
one all-heuristic round (the *baseline*) and then, for every seat ``s``, the
same deal with the candidate bot in seat ``s`` and heuristic bots elsewhere.
Chance outcomes are drawn from one seeded stream in order, so the deal
(roles, hands, goals) is the same in all of them; later draws differ once
play diverges.  Per role of the candidate seat it reports the candidate's
team-win rate (Wilson 95% interval), the baseline rate of the same seats,
and the paired difference candidate - baseline (mean ± 1.96 standard
errors over the paired rounds), plus CPU time per candidate move.

``--reference BOT`` (with ``--ref-opt key=value``) compares two bots
directly: the baseline of a seat is then the same deal with the reference
bot in that seat (seeded like the candidate) instead of the all-heuristic
round, so the paired difference is candidate - reference.  Two bots that
mostly agree give mostly zero differences, a far tighter interval than two
separate runs against the heuristic::

    python -m experiments.research.saboteur_paired --bot best --opt rollout_cutoff=10 \
        --reference best --players 5 --deals 300 --seed 3

``--others BOT`` (with ``--others-opt key=value``) puts that bot, not the
heuristic, in the other seats (seeded per deal and seat), e.g. plain ISMCTS
team-mates and opponents as in ``experiments.strength``.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time
from typing import Callable

import pyspiel

import games  # noqa: F401
from experiments.research.saboteur_ai import diggers_won, play_round, roles_of, wilson
from solvers.bots import make_bot


def parse_opts(pairs: list[str]) -> dict:
    """``key=value`` strings to options (values parsed as JSON when possible)."""
    out = {}
    for p in pairs:
        if "=" not in p:
            raise ValueError(f"option {p!r} is not key=value")
        k, v = p.split("=", 1)
        try:
            out[k] = json.loads(v)
        except json.JSONDecodeError:
            out[k] = v
    return out


def paired(bot: str, players: int, deals: int, seed: int, options: dict,
           seats: str = "all", progress: Callable[[dict], None] | None = None,
           every: int = 10, reference: str | None = None,
           ref_options: dict | None = None, others: str = "heuristic",
           others_options: dict | None = None) -> dict:
    """Candidate ``bot`` in each seat of each deal against ``others`` seats
    (``progress`` gets the summary so far after every ``every`` deals);
    with ``reference``, each seat's baseline is that bot in the seat."""
    game = pyspiel.load_game("saboteur", {"players": players, "rounds": 1})
    # the default heuristic seats: built once, seeded by seat (results as before)
    fixed = ([make_bot("heuristic", game, seed=p) for p in range(players)]
             if others == "heuristic" and not others_options else None)
    diff = {0: [], 1: []}
    wins = {0: [0, 0], 1: [0, 0]}
    base = {0: [0, 0], 1: [0, 0]}
    secs, moves = 0.0, 0
    for i in range(deals):
        rseed = seed * 1_000_003 + i

        def fresh() -> list:
            """The other seats for one round of this deal (identically seeded)."""
            return fixed or _others(game, others, others_options or {}, players, seed, i)

        if reference is None:
            hs, _, _, _ = play_round(game, fresh(), rseed, False)
            hroles, hdw = roles_of(hs), diggers_won(hs)
        seat_list = range(players) if seats == "all" else [i % players]
        for seat in seat_list:
            bseed = seed * 100_003 + players * i + seat
            if reference is not None:
                ref = make_bot(reference, game, seed=bseed, **(ref_options or {}))
                heur = fresh()
                hs, _, _, _ = play_round(game, [ref if p == seat else heur[p]
                                                for p in range(players)], rseed, False)
                hroles, hdw = roles_of(hs), diggers_won(hs)
            cand = make_bot(bot, game, seed=bseed, **options)
            heur = fresh()
            bots = [cand if p == seat else heur[p] for p in range(players)]
            s, sc, mv, _ = play_round(game, bots, rseed, False)
            roles = roles_of(s)
            secs += sc[seat]
            moves += mv[seat]
            r = roles[seat]
            w = int(diggers_won(s) == (r == 0))
            wins[r][0] += w
            wins[r][1] += 1
            if roles == hroles:
                hw = int(hdw == (r == 0))
                base[r][0] += hw
                base[r][1] += 1
                diff[r].append(w - hw)
        if progress is not None and (i + 1) % every == 0 and i + 1 < deals:
            progress(_summary(bot, options, players, i + 1, seed, secs, moves, wins, base, diff))
    return _summary(bot, options, players, deals, seed, secs, moves, wins, base, diff)


def _others(game: pyspiel.Game, name: str, options: dict, players: int, seed: int,
            deal: int) -> list:
    """Fresh bots for the non-candidate seats of one deal, seeded by run seed,
    deal and seat, so the baseline and the candidate's round meet identically
    seeded seats."""
    return [make_bot(name, game, seed=seed * 7_000_003 + players * deal + p, **options)
            for p in range(players)]


def _summary(bot, options, players, deals, seed, secs, moves, wins, base, diff) -> dict:
    out = {"bot": bot, "options": options, "players": players, "deals": deals, "seed": seed,
           "sec_per_move": secs / max(moves, 1)}
    for role, label in ((0, "digger"), (1, "saboteur")):
        k, n = wins[role]
        bk, bn = base[role]
        d = diff[role]
        m = sum(d) / len(d) if d else math.nan
        sd = math.sqrt(sum((x - m) ** 2 for x in d) / (len(d) - 1)) if len(d) > 1 else math.nan
        out[label] = {"wins": k, "rounds": n, "rate": k / n if n else math.nan,
                      "ci": wilson(k, n), "baseline_rate": bk / bn if bn else math.nan,
                      "paired_n": len(d), "paired_mean": m,
                      "paired_half": 1.96 * sd / math.sqrt(len(d)) if len(d) > 1 else math.nan}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bot", default="best")
    ap.add_argument("--opt", action="append", default=[], help="bot option key=value")
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seats", choices=("all", "rotate"), default="all",
                    help="candidate in every seat of a deal, or one seat rotated")
    ap.add_argument("--reference", default=None,
                    help="compare with this bot in the same seat instead of the heuristic")
    ap.add_argument("--ref-opt", action="append", default=[],
                    help="reference bot option key=value")
    ap.add_argument("--others", default="heuristic", help="the bot in the other seats")
    ap.add_argument("--others-opt", action="append", default=[],
                    help="other seats' bot option key=value")
    args = ap.parse_args(argv)
    opts = parse_opts(args.opt)
    ref_opts = parse_opts(args.ref_opt)
    t = time.process_time()
    r = paired(args.bot, args.players, args.deals, args.seed, opts, args.seats,
               progress=lambda x: _print(x, "(so far) "), reference=args.reference,
               ref_options=ref_opts, others=args.others,
               others_options=parse_opts(args.others_opt))
    against = "heuristic" if args.reference is None else f"{args.reference} {ref_opts}"
    against += f"; other seats {args.others} {parse_opts(args.others_opt)}"
    print(f"# saboteur {args.players}p, 1 round, {args.deals} deals, seed {args.seed}, "
          f"seats {args.seats}: {args.bot} {opts} against {against}; "
          f"{1000 * r['sec_per_move']:.2f} ms/move; "
          f"{time.process_time() - t:.0f} s CPU")
    _print(r, "")
    return 0


def _print(r: dict, prefix: str) -> None:
    print(f"{prefix}{r['deals']} deals:")
    for label in ("digger", "saboteur"):
        x = r[label]
        print(f"{prefix}{label}: team wins {x['wins']}/{x['rounds']} = {x['rate']:.3f} "
              f"[{x['ci'][0]:.3f}, {x['ci'][1]:.3f}] (baseline same seats {x['baseline_rate']:.3f}); "
              f"paired {x['paired_mean']:+.3f} ± {x['paired_half']:.3f} over {x['paired_n']}",
              flush=True)


if __name__ == "__main__":
    sys.exit(main())
