"""Bot specs on the command line: ``name[:option=value[:option=value...]]``.

A line-up is a comma-separated list of specs, seat by seat, e.g. ::

    cfr:policy_file=results/gold_thief/policy.npz:fallback=ismcts,ismcts:max_simulations=500

Values are read as ``int``, then ``float``, then ``true``/``false``/``none``,
else kept as text.  A spec with options is labelled by its own text
(``ismcts:max_simulations=200`` names that bot in result tables, so tables
say what was played); the option ``label`` sets another label instead of
becoming a bot option.  Each spec becomes a
:class:`solvers.evaluate.BotSpec`.  A value whose type the bot's factory
declares (``int``, ``float``, ``bool``, ``str``) is checked here, so
``ismcts:max_simulations=abc`` is refused naming the option and the type it
expects; unknown bots or options are refused when the match builds its bots.
"""
from __future__ import annotations

import inspect
import types
import typing
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


_SIMPLE = {int: "an integer", float: "a number", bool: "true or false", str: "text",
           type(None): "none"}


def _factory(name: str) -> Any:
    """The callable whose signature declares bot ``name``'s options, or None."""
    from solvers import bots
    if name == "best":                  # ISMCTS with the game's options
        return bots.ISMCTSBot.__init__
    factory = bots._BOTS.get(name)
    if factory is None:
        return None
    return factory.__init__ if inspect.isclass(factory) else factory


def _accepts(hint: Any, value: Any) -> bool | None:
    """Whether ``value`` fits the simple type ``hint``; None when the hint is
    not one this module checks (``Any``, containers, callables...)."""
    members = (typing.get_args(hint)
               if typing.get_origin(hint) in (typing.Union, types.UnionType) else (hint,))
    if not all(m in _SIMPLE for m in members):
        return None
    for m in members:
        if m is bool and (isinstance(value, bool) or value in (0, 1)):
            return True
        if m in (int, float) and isinstance(value, (int, float)) and not isinstance(value, bool):
            if m is float or isinstance(value, int):
                return True
        if m is str and isinstance(value, str):
            return True
        if m is type(None) and value is None:
            return True
    return False


def _expected(hint: Any) -> str:
    members = (typing.get_args(hint)
               if typing.get_origin(hint) in (typing.Union, types.UnionType) else (hint,))
    return " or ".join(_SIMPLE[m] for m in members)


def check_options(text: str, name: str, options: Mapping[str, Any]) -> None:
    """Raise ``ValueError`` naming the option and its expected type when an
    option value of spec ``text`` does not fit bot ``name``'s signature."""
    factory = _factory(name)
    if factory is None:
        return
    try:
        hints = typing.get_type_hints(factory)
    except Exception:                   # unresolvable annotations: nothing to check
        return
    for key, value in options.items():
        if key in hints and _accepts(hints[key], value) is False:
            raise ValueError(f"bot spec {text!r}: option {key!r} expects "
                             f"{_expected(hints[key])}, got {value!r}")


def parse_bot(text: str, defaults: Mapping[str, Mapping[str, Any]] | None = None) -> BotSpec:
    """One spec; ``defaults[name]`` gives options the spec may override.

    The label is the ``label`` option if given, else the spec's text when it
    has options (``"ismcts:max_simulations=200"``), else empty (the bot is
    then shown by its name)."""
    text = text.strip()
    parts = text.split(":")
    name = parts[0].strip()
    if not name:
        raise ValueError(f"bot spec {text!r} has no bot name")
    options = dict((defaults or {}).get(name, {}))
    label = text if len(parts) > 1 else ""
    for part in parts[1:]:
        key, sep, value = part.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ValueError(f"bot spec {text!r}: {part!r} is not key=value")
        if key == "label":
            label = value.strip()
        else:
            options[key] = parse_value(value.strip())
    check_options(text, name, options)
    return spec(name, label, **options)


def parse_lineup(text: str, defaults: Mapping[str, Mapping[str, Any]] | None = None
                 ) -> list[BotSpec]:
    """Comma-separated specs, seat by seat."""
    specs = [s for s in text.split(",") if s.strip()]
    if not specs:
        raise ValueError(f"no bots in {text!r}")
    return [parse_bot(s, defaults) for s in specs]
