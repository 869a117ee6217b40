"""Bot specs and game strings as typed on command lines.

A bot spec is ``name[:key=value[:key=value...]]`` (a ``solvers.bots`` name
and its options, e.g. ``ismcts:max_simulations=200:rollout=heuristic``); the
parser is :mod:`solvers.botspec`. Here a spec with options is labelled by
its own text, so tables name what was played.
"""
from __future__ import annotations

from solvers import botspec
from solvers.evaluate import BotSpec, spec


def parse_bot_spec(text: str) -> BotSpec:
    """``name[:key=value[:key=value...]]``, e.g. ``ismcts:max_simulations=200``."""
    parsed = botspec.parse_bot(text)
    label = parsed.label or (text.strip() if ":" in text else "")
    return spec(parsed.name, label, **dict(parsed.options))


def parse_lineup(text: str) -> list[BotSpec]:
    """Comma-separated bot specs (see :func:`parse_bot_spec`)."""
    specs = [parse_bot_spec(t) for t in text.split(",") if t.strip()]
    if not specs:
        raise ValueError(f"no bots in {text!r}")
    return specs


def game_string(game: str, players: int | None) -> str:
    """``--game`` (a name or a full game string) plus ``--players``."""
    if players is None:
        return game
    if "(" in game:
        raise ValueError("--players cannot be combined with a full game string; "
                         "put players=N inside it")
    return f"{game}(players={players})"
