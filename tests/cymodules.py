"""Helpers for the tests of an engine's separately compiled modules
(``src_cy/<game>/rules``, ``resample``, ``render``, ``persist``)."""
from __future__ import annotations

import subprocess
import sys
from typing import Callable


def assert_imports_alone(module: str, not_loaded: tuple[str, ...]) -> None:
    """Import `module` in a fresh interpreter and check that it succeeds
    without loading any of `not_loaded` (e.g. the engine module, ``games``)."""
    code = (f"import sys\nimport {module} as m\n"
            f"loaded = [n for n in {list(not_loaded)!r} if n in sys.modules]\n"
            "assert not loaded, f'importing {m.__name__} loaded {loaded}'\n"
            "print(m.__name__)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == module


def assert_resampler_keeps_information(state, player: int, sample_history: Callable,
                                       replay: Callable, views: list[Callable],
                                       seeds: range = range(12)) -> list[list[int]]:
    """Check a resampler called directly on a rules state: for each seed,
    ``sample_history(state, player, seed)`` gives the same history twice and
    leaves `state` unchanged, ``replay(history)`` builds a real state in which
    `player`'s information key and every ``view(world, player)`` are those of
    `state`; and some history differs from the true one (something hidden was
    re-drawn).  Returns the drawn histories."""
    truth = state.py_history()
    drawn = []
    for seed in seeds:
        history = sample_history(state, player, seed)
        assert history == sample_history(state, player, seed)
        assert state.py_history() == truth
        world = replay(history)
        assert world.py_info_key(player) == state.py_info_key(player)
        for view in views:
            assert view(world, player) == view(state, player), view
        drawn.append(history)
    assert any(h != truth for h in drawn), "every draw was the true history"
    return drawn
