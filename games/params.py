"""Parameter tables: one per game, the single source of its parameters.

Each game module declares ``PARAMS = ParamTable(short_name, [Param(...), ...])``
(name, default, valid range or choices, one-line doc).  The table feeds

* the ``pyspiel.GameType`` parameter defaults (:meth:`ParamTable.defaults`),
* validation (:meth:`ParamTable.validate`, called by every
  ``games._adapter.EngineGame``): an unknown name or a value outside its
  range raises :class:`ParameterError` (a ``ValueError``) naming the
  parameter and what is valid,
* the parameter table of the game's rules doc (:meth:`ParamTable.markdown`,
  written into the docs by ``python -m games.params_doc --write``;
  ``tests/test_params.py`` checks the docs against it).

Checks that involve several parameters (a deck large enough for the hands,
a first player below ``players``) stay in the game's ``_build`` and name the
parameters they involve; ``Param.valid`` says so in words.  The engine's
parameter class receives the validated values.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterator, Mapping, Sequence


class ParameterError(ValueError):
    """A game parameter is unknown or outside its valid range."""


def check_range(name: str, value: int, lo: int, hi: int) -> int:
    """Return ``value`` or raise ParameterError naming ``name`` and [lo, hi]."""
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ParameterError(f"parameter {name}={value!r} is out of range; valid: {lo}..{hi}")
    return value


def check_choice(name: str, value: str, choices: Sequence[str]) -> str:
    """Return ``value`` or raise ParameterError naming ``name`` and the choices."""
    if not isinstance(value, str) or value not in choices:
        raise ParameterError(f"parameter {name}={value!r} is invalid; valid: {', '.join(choices)}")
    return value


@dataclass(frozen=True)
class Param:
    """One game parameter.

    The kind follows ``default``: a ``bool`` (true or false, not 0/1), an ``int`` (needs ``lo``..``hi``), or a ``str`` (with ``choices``, one of
    them; without, free text the game parses, described by ``valid``).
    ``valid`` also describes a range that other parameters narrow (checked
    in the game's ``_build``).
    """

    name: str
    default: Any
    doc: str
    lo: int | None = None
    hi: int | None = None
    choices: tuple[str, ...] | None = None
    valid: str = ""

    def __post_init__(self) -> None:
        if not re.fullmatch(r"[a-z][a-z0-9_]*", self.name or ""):
            raise ValueError(f"parameter name {self.name!r} is not a lower_case identifier")
        if not self.doc:
            raise ValueError(f"parameter {self.name}: no doc")
        if self.kind == "int":
            if self.lo is None or self.hi is None or self.lo > self.hi:
                raise ValueError(f"parameter {self.name}: an int needs lo <= hi")
        elif self.lo is not None or self.hi is not None:
            raise ValueError(f"parameter {self.name}: lo/hi only for int parameters")
        if self.choices is not None and self.kind != "choice":
            raise ValueError(f"parameter {self.name}: choices only for str parameters")
        if self.kind == "text" and not self.valid:
            raise ValueError(f"parameter {self.name}: free text needs `valid` words")
        self.check(self.default)

    @property
    def kind(self) -> str:
        """``bool``, ``int``, ``choice`` or ``text``."""
        if isinstance(self.default, bool):
            return "bool"
        if isinstance(self.default, int):
            return "int"
        if isinstance(self.default, str):
            return "choice" if self.choices is not None else "text"
        raise ValueError(f"parameter {self.name}: default {self.default!r} is not "
                         f"a bool, int or str")

    def check(self, value: Any) -> Any:
        """``value`` if valid, else ParameterError naming the parameter."""
        kind = self.kind
        if kind == "bool":
            if isinstance(value, bool):
                return value
            raise ParameterError(f"parameter {self.name}={value!r} is invalid; valid: true, false")
        if kind == "int":
            return check_range(self.name, value, self.lo, self.hi)
        if kind == "choice":
            return check_choice(self.name, value, self.choices)
        if not isinstance(value, str):
            raise ParameterError(f"parameter {self.name}={value!r} is invalid; valid: "
                                 f"{self.valid}")
        return value

    def range_text(self) -> str:
        """The valid values, as the rules docs write them."""
        if self.kind == "bool":
            text = "true, false"
        elif self.kind == "int":
            text = f"{self.lo}..{self.hi}"
        elif self.kind == "choice":
            text = ", ".join(f"`{c}`" for c in self.choices)
        else:
            return self.valid
        return f"{text}; {self.valid}" if self.valid else text

    def default_text(self) -> str:
        """The default, as the rules docs write it."""
        if isinstance(self.default, bool):
            return str(self.default).lower()
        if isinstance(self.default, str):
            return f"`{self.default}`" if self.default else "(empty)"
        return str(self.default)


class ParamTable:
    """The parameters of one game, in table order."""

    def __init__(self, game: str, params: Sequence[Param]):
        names = [p.name for p in params]
        if len(set(names)) != len(names):
            raise ValueError(f"{game}: a parameter is listed twice: {names}")
        self.game = game
        self._params = {p.name: p for p in params}

    def __iter__(self) -> Iterator[Param]:
        return iter(self._params.values())

    def __getitem__(self, name: str) -> Param:
        return self._params[name]

    @property
    def names(self) -> tuple[str, ...]:
        """Parameter names, in table order."""
        return tuple(self._params)

    def defaults(self) -> dict[str, Any]:
        """Name -> default (the ``GameType`` parameter specification)."""
        return {p.name: p.default for p in self}

    def validate(self, params: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The defaults updated with ``params``, every value checked; an
        unknown name or an invalid value raises :class:`ParameterError`
        naming it and what is valid.  ``params`` is left unchanged."""
        out = self.defaults()
        for key, value in (params or {}).items():
            if key not in self._params:
                raise ParameterError(f"unknown parameter {key!r} for {self.game}; "
                                     f"valid parameters: {sorted(self._params)}")
            out[key] = value
        return {name: self._params[name].check(value) for name, value in out.items()}

    def markdown(self) -> str:
        """The rules doc's parameter table (Markdown), one row per parameter."""
        rows = ["| parameter | default | range | meaning |", "|---|---|---|---|"]
        rows += [f"| `{p.name}` | {p.default_text()} | {p.range_text()} | {p.doc} |"
                 for p in self]
        return "\n".join(rows)
