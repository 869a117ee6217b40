"""The digest playthrough format (``games.testing.digest_playthrough_text``):
golden files for configurations whose tensors are too large for OpenSpiel's
text format."""
from __future__ import annotations

from pathlib import Path

import pytest

import games  # noqa: F401  (registers every game)
from games import testing

GAME = ("gold_thief(big_pile=10,faeries=1,first_player=0,goals=0/3;1/4;3/4,goals_to_win=1,"
        "guards=1,hand_size=1,max_turns=6,ninjas=0,players=2,start_gold=2,thieves=2,witches=1)")


def test_written_playthrough_checks_and_is_seeded(tmp_path: Path) -> None:
    path = tmp_path / "p.txt"
    testing.write_playthrough(GAME, str(path), seed=5, digest=True)
    text = path.read_text()
    assert text.startswith(testing.DIGEST_HEADER)
    assert text.count("\naction: ") > 5 and "Returns() = " in text
    testing.check_playthrough(str(path))
    again = tmp_path / "q.txt"
    testing.write_playthrough(GAME, str(again), seed=5, digest=True)
    assert again.read_text() == text
    testing.write_playthrough(GAME, str(again), seed=6, digest=True)
    assert again.read_text() != text


def test_a_changed_field_fails(tmp_path: Path) -> None:
    path = tmp_path / "p.txt"
    testing.write_playthrough(GAME, str(path), seed=5, digest=True)
    lines = path.read_text().splitlines(keepends=True)
    i = next(k for k, line in enumerate(lines) if line.startswith("InformationStateTensor(1)")
             and "nonzero=0 " not in line and k > 20)
    digest = lines[i].split("sha256=")[1][:16]
    lines[i] = lines[i].replace(digest, "0" * 16)
    path.write_text("".join(lines))
    with pytest.raises(AssertionError, match="changed"):
        testing.check_playthrough(str(path))


def test_recorded_actions_must_end_the_game(tmp_path: Path) -> None:
    path = tmp_path / "p.txt"
    testing.write_playthrough(GAME, str(path), seed=5, digest=True)
    text = path.read_text()
    cut = text[:text.rindex("\naction: ")] + "\n"
    path.write_text(cut)
    with pytest.raises(AssertionError, match="not terminal"):
        testing.check_playthrough(str(path))
