"""Bot specs on the command line: ``name[:option=value[:option=value...]]``.

A line-up is a comma-separated list of specs, seat by seat, e.g. ::

    cfr:policy_file=results/gold_thief/policy.npz:fallback=ismcts,ismcts:max_simulations=500

Values are read as ``int``, then ``float``, then ``true``/``false``/``none``,
else kept as text.  The option ``label`` names the bot in result tables
instead of becoming a bot option.  Each spec becomes a
:class:`solvers.evaluate.BotSpec`; unknown bots or options are refused when
the match builds its bots.
"""
from __future__ import annotations

from typing import Any, Mapping

from solvers.evaluate import BotSpec, spec


def parse_value(text: str) -> Any:
    """``"500"`` -> 500, ``"0.5"`` -> 0.5, ``"true"`` -> True, ``"none"`` -> None, else text."""
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    if low == "none":
        return None
    return text


def parse_bot(text: str, defaults: Mapping[str, Mapping[str, Any]] | None = None) -> BotSpec:
    """One spec; ``defaults[name]`` gives options the spec may override."""
    parts = text.strip().split(":")
    name = parts[0].strip()
    if not name:
        raise ValueError(f"bot spec {text!r} has no bot name")
    options = dict((defaults or {}).get(name, {}))
    label = ""
    for part in parts[1:]:
        key, sep, value = part.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ValueError(f"bot spec {text!r}: {part!r} is not key=value")
        if key == "label":
            label = value.strip()
        else:
            options[key] = parse_value(value.strip())
    return spec(name, label, **options)


def parse_lineup(text: str, defaults: Mapping[str, Mapping[str, Any]] | None = None
                 ) -> list[BotSpec]:
    """Comma-separated specs, seat by seat."""
    specs = [s for s in text.split(",") if s.strip()]
    if not specs:
        raise ValueError(f"no bots in {text!r}")
    return [parse_bot(s, defaults) for s in specs]
