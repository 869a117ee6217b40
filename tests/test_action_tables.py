"""The action tables people read agree with the one definition of the ids.

Each game's action ids are defined once, in ``src_cy/<game>/actions.pxd``
(the engine exports them as ``ACTION_LAYOUT``; ``games/<game>/__init__.py``
reads its constants from there).  The table a reader sees is the game
module's docstring (the rules doc points to it); this test parses each
table's first column and checks that the base ids it names are exactly the
player-action bases of the layout, so a changed id cannot leave a stale
table behind.
"""
from __future__ import annotations

import importlib
import re

import pytest

import games  # noqa: F401

GAMES = ("gold_thief", "ardillas_del_bosque", "gold_nugget", "saboteur")


def layout(game: str) -> dict:
    return importlib.import_module(f"src_cy.{game}.engine").ACTION_LAYOUT


def table_rows(doc: str) -> list[str]:
    """The rows of the docstring's first reST table whose header cell is
    ``id``/``ids``/``range``: the first column's text of every row that
    starts one (continuation lines start with a space)."""
    lines = doc.splitlines()
    rules = [i for i, line in enumerate(lines) if re.fullmatch(r"=+(  +=+)+", line.strip())]
    if len(rules) < 3:
        raise AssertionError("no reST table in the docstring")
    top, head_end, bottom = rules[0], rules[1], rules[2]
    width = len(lines[top].split("  ")[0])
    return [line[:width].strip() for line in lines[head_end + 1:bottom]
            if line and not line[0].isspace()]


def base_ids(rows: list[str]) -> set[int]:
    """``"2 + v"`` -> 2, ``"18..87"`` -> 18, ``"62 + 24q + i"`` -> 62."""
    return {int(re.match(r"\d+", row).group()) for row in rows}


def saboteur_bases(rows: list[str]) -> dict[str, int]:
    """Saboteur's offsets: ``(2k + o) * F + j``, ``32 F + i`` and the tail
    ``32 F + T + N ...``: the rockfall block, the stride of ``10 t`` and each
    tail base (a break's is 0)."""
    text = " ".join(rows)
    tail = [int(n) for n in re.findall(r"32 F \+ T \+ (\d+)\b(?! *[a-z(])", text)]
    return {"block": int(re.search(r"(\d+) F \+ i", text).group(1)),
            "stride": int(re.search(r"\+ (\d+) t \+ q", text).group(1)),
            "tail": sorted({0, *tail})}


@pytest.mark.parametrize("game", GAMES)
def test_docstring_table_names_every_action_base(game: str) -> None:
    ids = layout(game)
    rows = table_rows(importlib.import_module(f"games.{game}").__doc__)
    assert rows, "empty table"
    if game == "saboteur":
        assert saboteur_bases(rows) == {
            "block": ids["A_ROCK_BLOCK"], "stride": ids["A_STRIDE"],
            "tail": sorted(ids[k] for k in ("A_BREAK", "A_REPAIR", "A_MAP", "A_PASS",
                                             "A_KEEP", "A_HAND_ON"))}
        return
    bases = {v for k, v in ids.items() if k.startswith("A_") and isinstance(v, int)}
    assert base_ids(rows) == bases


def test_the_parser_reads_ranges_offsets_and_wrapped_rows() -> None:
    doc = ("intro\n\n=====  ====\nid     what\n=====  ====\n0..9   pile h\n"
           "10     take\n       (wrapped)\n62 + 24q + i  stone\n=====  ====\n")
    assert table_rows(doc) == ["0..9", "10", "62 +"]
    assert base_ids(table_rows(doc)) == {0, 10, 62}
    stale = {0, 10, 63}
    assert base_ids(table_rows(doc)) != stale


@pytest.mark.parametrize("game", GAMES)
def test_rules_doc_points_to_the_one_table(game: str) -> None:
    from repo import REPO_ROOT
    text = (REPO_ROOT / "docs" / "rules" / f"{game}.md").read_text()
    section = text.split("## Action encoding", 1)
    assert len(section) == 2, "no 'Action encoding' section"
    body = section[1].split("\n## ", 1)[0]
    assert f"games/{game}/__init__.py" in body
    assert not re.search(r"^\|? *`?\d+ *(\+|\.\.|\|)", body, re.M), "a copy of the id table"
