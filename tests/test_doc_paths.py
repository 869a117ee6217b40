"""Every repository path the docs, the README and the code's docstrings and
comments cite exists (history in CHANGELOG.md may name old paths)."""
from __future__ import annotations

import re
from pathlib import Path

from repo import REPO_ROOT

TOP = ("games", "solvers", "src_cy", "experiments", "tests", "docs")
EXTENSIONS = ("py", "pyx", "pxd", "pxi", "md", "txt", "png", "csv", "json", "toml", "sh")
# A top-level folder, then path characters, ending in a known extension; not
# part of a longer word or path (``results/`` is output, not the repository).
CITED = re.compile(r"(?<![\w/.-])((?:" + "|".join(TOP) + r")/[\w./-]*?\.(?:"
                   + "|".join(EXTENSIONS) + r"))(?![\w])")


def cited_paths(text: str) -> list[str]:
    """Repository paths cited in ``text`` (no wildcards or placeholders)."""
    return [p for p in CITED.findall(text) if not any(c in p for c in "*<>{}")]


def _sources() -> list[Path]:
    files = sorted((REPO_ROOT / "docs").rglob("*.md")) + [REPO_ROOT / "README.md"]
    for top in ("games", "solvers", "experiments", "src_cy", "tests"):
        files += sorted(p for p in (REPO_ROOT / top).rglob("*")
                        if p.suffix in (".py", ".pyx", ".pxd", ".pxi"))
    return files


def test_the_pattern_finds_paths_and_skips_prose() -> None:
    text = ("see `src_cy/engine.pxd` and games/gold_thief/__init__.py, docs/rules/saboteur.md; "
            "12 games/s; tests/test_<game>*.py; results/x.csv; mygames/x.py")
    assert cited_paths(text) == ["src_cy/engine.pxd", "games/gold_thief/__init__.py",
                                 "docs/rules/saboteur.md"]


TEMPLATE = REPO_ROOT / "tests" / "template"


def _roots(source: Path) -> list[Path]:
    """Where ``source``'s cited paths may live: the repository, and for the
    template game's files (a sixth game's tree) the template as well."""
    if TEMPLATE in source.parents or source.name == "test_template_game.py":
        return [REPO_ROOT, TEMPLATE]
    return [REPO_ROOT]


def test_every_cited_path_exists() -> None:
    missing = []
    for source in _sources():
        for path in cited_paths(source.read_text(encoding="utf-8", errors="replace")):
            if not any((root / path).exists() for root in _roots(source)):
                missing.append(f"{source.relative_to(REPO_ROOT)} cites {path}")
    assert not missing, "dead paths:\n" + "\n".join(sorted(set(missing)))
