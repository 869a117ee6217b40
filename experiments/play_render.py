"""What one seat may see, rendered for a person (``experiments.play``).

Each game's screens live with the game: its spec's ``renderer`` factory
(``GameSpec.renderer``, ``games/<game>/render.py``) builds a
``games.interfaces.Renderer`` that writes the seat's screen from its typed
player view, words the events the seat observed and names its moves.  This
module only dispatches through the spec, with the base ``Renderer`` (the
plain observation string) for a game that has none, so adding a game adds
nothing here.

Opponents' moves and chance events are announced by :func:`new_events`: the
lines the seat's information-state string (each goldspiel game's is an event
log of exactly what the seat observed) gained with the last action, worded
for the screen by :func:`event_text`.  :func:`format_moves` lists the named
moves, moves differing only in their target on one line.  Only
:func:`end_summary`, once the game is over, reads every player's view.
"""
from __future__ import annotations

import re
from typing import Sequence

import pyspiel

from games.interfaces import Renderer
from games.spec import find_spec


def renderer(game: pyspiel.Game | str) -> Renderer:
    """The renderer of ``game`` (a pyspiel game or short name): its spec's,
    else the generic one."""
    spec = find_spec(game)
    return spec.renderer() if spec is not None and spec.renderer is not None else Renderer()


def _of(state: pyspiel.State) -> Renderer:
    return renderer(state.get_game())


def render_view(state: pyspiel.State, seat: int) -> str:
    """The seat's screen of ``state`` for a person."""
    return _of(state).screen(state, seat)


def event_text(game: pyspiel.Game | str, line: str, seat: int) -> str:
    """One announced event line (from the seat's information-state log) in
    the words of the play screens."""
    return renderer(game).event_text(line, seat)


def decision_title(state: pyspiel.State, seat: int) -> str:
    """What the seat's pending decision is about, when the moves alone do
    not say (Gold Nugget's effects: ``Peek: choose a lair stone``); else ""."""
    return _of(state).decision_title(state, seat)


def move_labels(state: pyspiel.State, seat: int, legal: Sequence[int]) -> list[str]:
    """The seat's legal moves named for a person."""
    return _of(state).move_labels(state, seat, legal)


def end_summary(state: pyspiel.State, seat: int) -> list[str]:
    """How a finished game was scored, showing what became public at its
    end (the game is over, so every player's view may be read); empty for
    a game without a renderer."""
    if not state.is_terminal():
        raise ValueError("end_summary needs a finished game")
    return _of(state).end_summary(state, seat)


# The word after which a move names its target: moves that differ only in
# what follows it are listed on one line ("Thief on: 2 P1  3 P2  4 P3").
_TARGET = re.compile(r"^(.*\b(?:at|of|on|to|discarding|goal|stone|play|recycle|pile|"
                     r"discard|give|choose|hides?))\s(\S.*)$")


def format_moves(names: list[str], width: int = 100) -> list[str]:
    """The numbered move list; two or more consecutive moves sharing all
    but their target share a line, so long lists (Saboteur's placements)
    fit a screen.  Numbers stay those of the single moves."""
    lines: list[str] = []
    k = 0
    while k < len(names):
        m = _TARGET.match(names[k])
        j = k + 1
        if m:
            while j < len(names):
                mj = _TARGET.match(names[j])
                if not mj or mj.group(1) != m.group(1):
                    break
                j += 1
        if j - k < 2:
            lines.append(f"  {k + 1:>7}. {names[k]}")
            k += 1
            continue
        head = f"  {f'{k + 1}-{j}':>7}. {m.group(1)}:"
        line = head
        for i in range(k, j):
            item = f"  {i + 1}) {_TARGET.match(names[i]).group(2)}"
            if len(line) + len(item) > width and line != head:
                lines.append(line)
                line = " " * len(head)
            line += item
        lines.append(line)
        k = j
    return lines


def new_events(before: str, after: str) -> list[str] | None:
    """Lines the information-state log gained from ``before`` to ``after``.

    ``None`` when ``after`` does not extend ``before`` line by line (not an
    event log); an empty list when the seat observed nothing.
    """
    if after == before:
        return []
    if not after.startswith(before + "\n"):
        return None
    return after[len(before) + 1:].splitlines()
