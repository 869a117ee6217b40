"""``experiments.bot_fingerprint``: the same bot gives the same hash, another
bot or another seed a different one, and bad input is refused."""
from __future__ import annotations

import pytest

from experiments import bot_fingerprint as fp

GAMES = "gold_thief(players=2);ardillas_del_bosque(players=2)"


def _run(*args: str) -> str:
    return fp.main(["--games", GAMES, "--positions", "3", *args])


def test_same_bot_same_hash_and_the_hash_moves_with_the_bot(capsys):
    first = _run("--bot", "ismcts:max_simulations=40")
    assert first == _run("--bot", "ismcts:max_simulations=40")
    assert first != _run("--bot", "ismcts:max_simulations=41")
    assert first != _run("--bot", "ismcts:max_simulations=40", "--bot-seed", "4")
    lines = capsys.readouterr().out.splitlines()
    assert sum("gold_thief(players=2)" in line for line in lines) == 4


def test_records_hold_the_move_and_the_root_statistics():
    rec = fp.records("ismcts:max_simulations=30", "gold_thief(players=2)", count=2)
    assert len(rec) == 2
    for length, move, (visits, values) in rec:
        assert length >= 0 and move >= 0
        assert sum(visits) == 30 and len(values) == len(visits)


def test_bad_positions_are_refused():
    with pytest.raises(SystemExit):
        _run("--positions", "0")
