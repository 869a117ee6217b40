"""``goldspiel <command> [args]``: one entry point for the user commands.

Each command is an ``experiments`` module with ``main(argv)``; ``goldspiel
<command> --help`` shows its options, ``goldspiel`` alone lists them.  The
console script comes with the package (``pyproject.toml``); from a checkout,
``python -m experiments <command>`` does the same.
"""
from __future__ import annotations

import importlib
import sys

#: command -> (module, what it does)
COMMANDS: dict[str, tuple[str, str]] = {
    "tables": ("experiments.policy_tables", "solve games and write policy tables (main job)"),
    "search-table": ("experiments.search_table",
                     "tabulate a search bot's play beside a solved table"),
    "play": ("experiments.play", "play a game against the AI in the terminal"),
    "demo": ("experiments.demo", "a seeded game between bots, printed"),
    "match": ("experiments.match", "a match between bots, seats rotated"),
    "tournament": ("experiments.tournament", "round robin with ratings"),
    "strength": ("experiments.strength", "a bot against external and internal anchors"),
    "exploitability": ("experiments.bot_exploitability",
                       "exact exploitability of bots on small presets"),
    "lower-bound": ("experiments.exploitability_lower_bound",
                    "a lower bound on a bot's exploitability by best-response search"),
    "best-vs-heuristic": ("experiments.best_vs_heuristic",
                          "`best` against heuristic seats, with its CPU time per move"),
    "rl-dqn": ("experiments.rl_dqn", "OpenSpiel's JAX DQN on a game, then against random"),
}


def usage() -> str:
    width = max(map(len, COMMANDS))
    lines = ["usage: goldspiel <command> [options]   (goldspiel <command> --help)", "",
             "commands:"]
    lines += [f"  {name:<{width}}  {text}" for name, (_, text) in COMMANDS.items()]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run ``argv[0]``'s command with the rest; the exit status of the command."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(usage())
        return 0 if argv else 2
    name, rest = argv[0], argv[1:]
    if name not in COMMANDS:
        print(f"goldspiel: unknown command {name!r}\n\n{usage()}", file=sys.stderr)
        return 2
    result = importlib.import_module(COMMANDS[name][0]).main(rest)
    return result if isinstance(result, int) else 0


if __name__ == "__main__":
    sys.exit(main())
