"""``solvers.pools``: local pools fork, except in a process running Ray."""
from __future__ import annotations

import sys
import types

from solvers.pools import pool_context, ray_driver


def test_start_method_follows_ray_state(monkeypatch) -> None:
    fake = types.SimpleNamespace(is_initialized=lambda: False)
    monkeypatch.setitem(sys.modules, "ray", fake)
    assert not ray_driver() and pool_context().get_start_method() == "fork"
    fake.is_initialized = lambda: True
    assert ray_driver() and pool_context().get_start_method() == "forkserver"
    monkeypatch.delitem(sys.modules, "ray")
    assert not ray_driver() and pool_context().get_start_method() == "fork"
