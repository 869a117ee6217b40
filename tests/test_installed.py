"""When GOLDSPIEL_EXPECT_INSTALLED=1, the suite must run against the installed wheel."""
import os
from pathlib import Path

import pytest

import games

CHECKOUT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(os.environ.get("GOLDSPIEL_EXPECT_INSTALLED") != "1",
                    reason="only checked in the installed-wheel run")
def test_games_resolves_to_installed_wheel() -> None:
    location = Path(games.__file__).resolve()
    assert "site-packages" in location.parts
    assert CHECKOUT not in location.parents
