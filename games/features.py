"""What every game's policy-table entry (``games/<game>/features.py``) shares.

A game's entry is a :class:`games.spec.TableSpec` in its own folder; these
helpers build the parts that come from the game's spec (preset loading, the
``mini`` preset's description), so no entry repeats them.
"""
from __future__ import annotations

import pyspiel

from games.spec import get_spec


def load_preset(name: str, preset: str) -> pyspiel.Game:
    """Load game ``name`` with a preset of its spec (``GameSpec.load``: an
    unknown preset raises ``ValueError`` naming the spec's presets); which
    presets a table offers is its entry's ``presets``."""
    return get_spec(name).load(preset)


def mini_description(name: str) -> str:
    """``"<Game> `mini` preset (players=2, ...)"``, from the game's spec."""
    params = ", ".join(f"{k}={v}" for k, v in get_spec(name).presets["mini"].items())
    return f"{pyspiel.load_game(name).get_type().long_name} `mini` preset ({params})"
