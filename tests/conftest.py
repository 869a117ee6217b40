"""Test tiers, the fast tier's per-test limit, and the statistical seed.

Markers (``pytest -m``):

- ``conformance``: OpenSpiel's checkers and the repo's conformance suite on a game.
- ``statistical``: a test that draws samples and checks a distribution
  (chi-square, intervals); its seeds come from the :func:`stat_seed` fixture.
- ``integration``: runs several components end to end (matches, tournaments,
  Ray, the terminal player, the installed wheel).
- ``slow``: left out of the fast tier.

``pytest --fast`` (``./run.sh test --fast``) runs the fast tier: every test
not marked ``slow``, and any test whose call takes more than
``GOLDSPIEL_FAST_LIMIT`` seconds of CPU (default 5; the process's own CPU
plus that of children it waited for, so a busy machine does not trip it)
fails with a message saying to speed it up or mark it ``slow``.

``GOLDSPIEL_STAT_SEED``: unset, statistical tests use their fixed seeds; set
(e.g. to the date, for a nightly run), every seed drawn through ``stat_seed``
is derived from it and the test's id, and the header shows it.
"""
from __future__ import annotations

import hashlib
import os
import resource
import time
from typing import Callable

import pytest

MARKERS = {
    "conformance": "OpenSpiel's checkers / the conformance suite on a game",
    "statistical": "checks a sampled distribution; seeds from the stat_seed fixture",
    "integration": "several components end to end (matches, Ray, play, the wheel)",
    "slow": "left out of the fast tier (pytest --fast)",
}
# tests/template/ is a sixth game's folders, run by tests/test_template_game.py
# in a scratch tree where that game exists; never collected here.
collect_ignore = ["template"]
STAT_SEED_ENV = "GOLDSPIEL_STAT_SEED"
FAST_LIMIT_ENV = "GOLDSPIEL_FAST_LIMIT"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--fast", action="store_true", default=False,
                     help="fast tier: skip tests marked slow; a test over "
                          f"${FAST_LIMIT_ENV} (default 5) CPU seconds fails")


def pytest_configure(config: pytest.Config) -> None:
    for name, text in MARKERS.items():
        config.addinivalue_line("markers", f"{name}: {text}")


def pytest_report_header(config: pytest.Config) -> list[str]:
    lines = [f"statistical seed: {os.environ.get(STAT_SEED_ENV) or 'fixed (unset)'}"]
    if config.getoption("--fast"):
        lines.append(f"fast tier: not slow, limit {fast_limit()} CPU s per test")
    return lines


def fast_limit() -> float:
    """The fast tier's per-test CPU limit in seconds."""
    raw = os.environ.get(FAST_LIMIT_ENV, "5")
    try:
        value = float(raw)
    except ValueError:
        raise pytest.UsageError(f"{FAST_LIMIT_ENV}={raw!r} is not a number of seconds")
    if not value > 0:
        raise pytest.UsageError(f"{FAST_LIMIT_ENV}={raw!r} must be positive")
    return value


def pytest_collection_modifyitems(config: pytest.Config,
                                  items: list[pytest.Item]) -> None:
    for item in items:
        if "stat_seed" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.statistical)
    if not config.getoption("--fast"):
        return
    kept = [item for item in items if item.get_closest_marker("slow") is None]
    dropped = [item for item in items if item.get_closest_marker("slow") is not None]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def _cpu_seconds() -> float:
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item):
    start = _cpu_seconds()
    yield
    item.stash[_CPU_KEY] = _cpu_seconds() - start


_CPU_KEY = pytest.StashKey[float]()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    outcome = yield
    report = outcome.get_result()
    if (call.when != "call" or not report.passed
            or not item.config.getoption("--fast")
            or item.get_closest_marker("slow") is not None):
        return
    cpu = item.stash.get(_CPU_KEY, 0.0)
    limit = fast_limit()
    if cpu > limit:
        report.outcome = "failed"
        report.longrepr = (f"{item.nodeid} took {cpu:.1f} s of CPU, over the fast "
                           f"tier's {limit:g} s: make it faster or mark it slow")


def derived_seed(base: str, nodeid: str, default: int) -> int:
    """A 31-bit seed (fits every seed argument in the repo) from the rotation
    value, the test's id and its default seed."""
    digest = hashlib.sha256(f"{base}\0{nodeid}\0{default}".encode()).digest()
    return int.from_bytes(digest[:4], "little") >> 1


@pytest.fixture
def stat_seed(request: pytest.FixtureRequest) -> Callable[[int], int]:
    """``stat_seed(default)``: ``default`` unless ``GOLDSPIEL_STAT_SEED`` is set,
    then a seed derived from it, the test's id and ``default``."""
    base = os.environ.get(STAT_SEED_ENV)
    nodeid = request.node.nodeid

    def seed(default: int) -> int:
        return default if not base else derived_seed(base, nodeid, default)

    return seed
