"""Bot specs and game strings as typed on command lines.

A bot spec is ``name[:key=value[:key=value...]]`` (a ``solvers.bots`` name
and its options, e.g. ``ismcts:max_simulations=200:rollout=heuristic``);
values are read as int, float, bool (``true``/``false``), ``none`` or text.
A line-up is comma-separated specs.
"""
from __future__ import annotations

from typing import Any

from solvers.evaluate import BotSpec, spec


def _value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    if low in ("none", ""):
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_bot_spec(text: str) -> BotSpec:
    """``name[:key=value[:key=value...]]``, e.g. ``ismcts:max_simulations=200``."""
    name, *opts = text.strip().split(":")
    if not name:
        raise ValueError(f"empty bot name in bot spec {text!r}")
    options = {}
    for opt in opts:
        key, sep, val = opt.partition("=")
        if not sep or not key:
            raise ValueError(f"bot option {opt!r} in {text!r} is not key=value")
        options[key.strip()] = _value(val.strip())
    return spec(name, label=text.strip() if opts else "", **options)


def parse_lineup(text: str) -> list[BotSpec]:
    """Comma-separated bot specs (see :func:`parse_bot_spec`)."""
    specs = [parse_bot_spec(t) for t in text.split(",") if t.strip()]
    if not specs:
        raise ValueError("no bot given")
    return specs


def game_string(game: str, players: int | None) -> str:
    """``--game`` (a name or a full game string) plus ``--players``."""
    if players is None:
        return game
    if "(" in game:
        raise ValueError("--players cannot be combined with a full game string; "
                         "put players=N inside it")
    return f"{game}(players={players})"
