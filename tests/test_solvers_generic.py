"""Layering: the solvers are generic.  No module in solvers/ imports a
goldspiel game module or names a game in code (issue 15); the games' own
code (heuristics, beliefs, `best` options) lives in games/ and is reached
through the game's spec.  Docstrings and comments may name games as
examples.  Read statically from the sources, like tests/test_layers.py."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import games
from games.spec import specs

ROOT = Path(games.__file__).resolve().parent.parent

# Modules of games/ that are not a game: solvers may import these.
GENERIC_GAMES_MODULES = {"games", "games.spec", "games._adapter", "games._version",
                         "games.interfaces", "games.testing"}

# Files allowed to name a game in code, with the reason (none today).
EXEMPT: dict[str, str] = {}


def _game_words() -> set[str]:
    """Lower-case words naming a game: each spec's short name, its parts
    that are not common words, and the name without underscores (class names)."""
    words = set()
    for s in specs():
        words.add(s.name)
        words.add(s.name.replace("_", ""))
        words.update(w for w in s.name.split("_") if w not in {"gold", "del", "poker"})
    return words


def _docstring_nodes(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                out.add(id(body[0].value))
    return out


def game_mentions(text: str, words: set[str]) -> list[str]:
    """Places in Python source ``text`` where code names a game or imports a
    game module (docstrings and comments are not code)."""
    tree = ast.parse(text)
    docs = _docstring_nodes(tree)
    pattern = re.compile("|".join(sorted(map(re.escape, words), key=len, reverse=True)))
    found = []

    def check(what: str, line: int, kind: str) -> None:
        if pattern.search(what.lower()):
            found.append(f"line {line}: {kind} {what!r}")

    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("games") and a.name not in GENERIC_GAMES_MODULES:
                    found.append(f"line {line}: imports {a.name}")
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.startswith("games") and node.module not in GENERIC_GAMES_MODULES:
                found.append(f"line {line}: imports {node.module}")
            if node.module == "games":
                for a in node.names:
                    if f"games.{a.name}" not in GENERIC_GAMES_MODULES:
                        found.append(f"line {line}: imports games.{a.name}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in docs:
            check(node.value, line, "string")
        elif isinstance(node, ast.Name):
            check(node.id, line, "name")
        elif isinstance(node, ast.Attribute):
            check(node.attr, line, "attribute")
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            check(node.name, line, "definition")
        elif isinstance(node, ast.arg):
            check(node.arg, line, "argument")
        elif isinstance(node, ast.alias):
            check(node.asname or node.name, line, "import name")
    return found


def _solver_files() -> list[Path]:
    return sorted((ROOT / "solvers").glob("*.py"))


def test_the_checker_sees_game_names_and_game_imports() -> None:
    words = _game_words()
    assert {"saboteur", "gold_thief", "kuhn_poker", "goldnugget", "ardillas"} <= words
    bad = '''
"""A docstring naming saboteur is fine."""
from games.saboteur.search import SaboteurBeliefAnchor   # a game module
import games.gold_thief.ai
CONFIGS = {"gold_nugget": 1}
def f(leduc_state):
    return kuhn_table
'''
    found = game_mentions(bad, words)
    assert any("imports games.saboteur.search" in f for f in found)
    assert any("imports games.gold_thief.ai" in f for f in found)
    assert any("'gold_nugget'" in f for f in found)
    assert any("'SaboteurBeliefAnchor'" in f for f in found)
    assert any("'leduc_state'" in f for f in found)
    assert any("'kuhn_table'" in f for f in found)
    assert not any("line 2" in f for f in found)
    ok = '''
"""Works on any game, e.g. kuhn_poker."""
from games.spec import find_spec   # saboteur in a comment
import games
def f(game):
    """Uses gold_thief's spec."""
    return find_spec(game)
'''
    assert game_mentions(ok, words) == []


def test_no_solver_module_names_a_game() -> None:
    words = _game_words()
    files = _solver_files()
    assert any(p.name == "bots.py" for p in files) and any(p.name == "beliefs.py" for p in files)
    offenders = {}
    for path in files:
        rel = f"solvers/{path.name}"
        if rel in EXEMPT:
            continue
        found = game_mentions(path.read_text(encoding="utf-8"), words)
        if found:
            offenders[rel] = found
    assert not offenders, f"game-specific code in solvers/: {offenders}"
