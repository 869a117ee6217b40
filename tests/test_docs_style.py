"""The docs read as reference: the reference docs and the measurement logs
name no work history ("issue 12", "session 4", "the tenth session"; history
lives in CHANGELOG.md), and no Markdown table cell in the docs or the README
runs past 300 characters (longer text goes into notes below the table)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from repo import REPO_ROOT

REFERENCE = ("README.md", "docs/ai.md", "docs/solvers_cfr.md",
             "docs/solvers_ismcts.md", "docs/rl.md", "docs/architecture.md") + tuple(
    str(p.relative_to(REPO_ROOT)) for p in sorted((REPO_ROOT / "docs" / "rules").glob("*.md")))
LOGS = ("docs/benchmarks.md", "docs/results.md")
MAX_CELL = 300
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh",
            "eighth", "ninth", "tenth", "eleventh", "twelfth", r"\d+(?:st|nd|rd|th)")
HISTORY = re.compile(r"\b(?:issues?|sessions?)[ -]#?\d+\b|\b(?:"
                     + "|".join(ORDINALS) + r") session\b", re.IGNORECASE)


def history_mentions(text: str) -> list[str]:
    """The work-history phrases (issue or session numbers) in ``text``."""
    return [m.group(0) for m in HISTORY.finditer(text)]


def long_cells(text: str, limit: int = MAX_CELL) -> list[tuple[int, int]]:
    """``(line number, length)`` of every Markdown table cell in ``text``
    longer than ``limit`` characters (fenced code blocks are not tables;
    ``\\|`` does not end a cell)."""
    found = []
    fenced = False
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith("```"):
            fenced = not fenced
            continue
        if fenced or not stripped.startswith("|"):
            continue
        for cell in re.split(r"(?<!\\)\|", stripped.strip("|")):
            if len(cell.strip()) > limit:
                found.append((number, len(cell.strip())))
    return found


def test_history_pattern_finds_issue_and_session_numbers() -> None:
    text = ("Re-run after issue 26; issue-10 fix; issues 10 and 11. "
            "Measured in the tenth session, Session 4, the 3rd session. "
            "A real session of play; the issue's target; 12 sessions later.")
    assert history_mentions(text) == ["issue 26", "issue-10", "issues 10",
                                      "tenth session", "Session 4", "3rd session"]


def test_long_cell_checker_finds_a_planted_cell() -> None:
    text = "\n".join([
        "| a | b |", "|---|---|",
        "| short | " + "x" * 301 + " |",
        "| `a \\| b` " + "y" * 285 + " | ok |",
        "```", "| " + "z" * 400 + " |", "```",
        "not a table " + "w" * 400,
    ])
    assert long_cells(text) == [(3, 301)]
    assert long_cells(text, limit=400) == []


@pytest.mark.parametrize("name", REFERENCE + LOGS)
def test_no_work_history_in_reference_docs_and_logs(name: str) -> None:
    mentions = history_mentions((REPO_ROOT / name).read_text(encoding="utf-8"))
    assert not mentions, f"{name}: say what is true now; history goes to CHANGELOG.md: {mentions}"


def _docs() -> list[str]:
    files = sorted((REPO_ROOT / "docs").rglob("*.md")) + [REPO_ROOT / "README.md"]
    return [str(Path(f).relative_to(REPO_ROOT)) for f in files]


@pytest.mark.parametrize("name", _docs())
def test_no_table_cell_over_300_characters(name: str) -> None:
    cells = long_cells((REPO_ROOT / name).read_text(encoding="utf-8"))
    assert not cells, f"{name}: cells over {MAX_CELL} characters at (line, length) {cells}"
