"""Layering: imports point one way (engines < games.interfaces < games <
solvers < experiments); no import cycles.

The import graph is read statically from the sources: every ``import`` /
``from ... import`` (module level or inside a function), every Cython
``cimport``, and, in modules that call ``importlib.import_module``, every
string literal naming one of our modules.
"""
from __future__ import annotations

import ast
import pickle
import re
from pathlib import Path

import pyspiel
import pytest

import games  # noqa: F401  (registers the games)
from src_cy import engine as engine_module

# The sources of the imported packages (the checkout, or an installed wheel).
ROOT = Path(games.__file__).resolve().parent.parent
PACKAGES = ("games", "solvers", "src_cy", "experiments")

# Known cycles, each broken by one edge listed here; empty since the Saboteur
# abstraction moved to games/saboteur/abstraction.py (issue 15).  An entry whose
# edge no longer closes a cycle fails the test.
KNOWN_CYCLE_EDGES: dict[tuple[str, str], str] = {}

_CY_IMPORT = re.compile(
    r"^\s*(?:from\s+([\w.]+)\s+c?import\s+\(?([\w, ]+)|c?import\s+([\w.]+))", re.M)


def _module_files() -> dict[str, list[Path]]:
    out: dict[str, list[Path]] = {}
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*")):
            if path.suffix in (".py", ".pyx", ".pxd"):
                parts = path.relative_to(ROOT).with_suffix("").parts
                name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
                out.setdefault(name, []).append(path)
    return out


def _imports(path: Path) -> set[str]:
    """Every module name ``path`` imports (possibly not ours)."""
    text = path.read_text(encoding="utf-8")
    found: set[str] = set()
    if path.suffix == ".py":
        dynamic = "import_module" in text or "lazy(" in text
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add(node.module)
                found.update(f"{node.module}.{a.name}" for a in node.names)
            elif dynamic and isinstance(node, ast.Constant) and isinstance(node.value, str):
                found.add(node.value.split(":")[0])     # "module:name" of games.spec.lazy
        return found
    for m in _CY_IMPORT.finditer(text):
        if m.group(1):
            found.add(m.group(1))
            found.update(f"{m.group(1)}.{n.strip()}" for n in m.group(2).split(",") if n.strip())
        else:
            found.add(m.group(3))
    return found


def import_graph() -> dict[str, set[str]]:
    """Our modules -> the modules of ours each one imports."""
    files = _module_files()
    return {mod: {d for p in paths for d in _imports(p) if d in files and d != mod}
            for mod, paths in files.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle (as a closed path of modules), or None."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(v: str) -> list[str] | None:
        state[v] = 1
        path.append(v)
        for w in sorted(graph[v]):
            if state.get(w) == 1:
                return path[path.index(w):] + [w]
            if w not in state:
                found = visit(w)
                if found:
                    return found
        path.pop()
        state[v] = 2
        return None

    for v in sorted(graph):
        if v not in state:
            found = visit(v)
            if found:
                return found
    return None


def _reaches(graph: dict[str, set[str]], start: str, goal: str) -> bool:
    seen, todo = set(), [start]
    while todo:
        v = todo.pop()
        if v == goal:
            return True
        if v not in seen:
            seen.add(v)
            todo.extend(graph.get(v, ()))
    return False


def test_graph_reader_sees_imports() -> None:
    graph = import_graph()
    assert "src_cy.engine" in graph["src_cy.gold_thief.engine"]          # a cimport
    assert "src_cy.rng" in graph["src_cy.engine"]                 # a cimport in a .pxd
    assert "solvers.ismcts" in graph["solvers.bots"]              # a Python import
    assert "games.gold_thief.ai" in graph["games.gold_thief"]     # a spec's lazy("module:name")
    assert "experiments.bench._benchutil" in graph["experiments.bench.bench_engines"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_engines_import_nothing_from_games_or_solvers() -> None:
    graph = import_graph()
    offenders = {m: sorted(d for d in deps if d.split(".")[0] in ("games", "solvers"))
                 for m, deps in graph.items() if m.startswith("src_cy")}
    assert {m: d for m, d in offenders.items() if d} == {}


def layer(module: str) -> int:
    """Rank of a module in the one-way order of imports: engines, the
    interfaces a game implements, the games, the solvers, the experiments."""
    if module.startswith("src_cy"):
        return 0
    if module == "games.interfaces":
        return 1
    return {"games": 2, "solvers": 3, "experiments": 4}[module.split(".")[0]]


def layer_violations(graph: dict[str, set[str]]) -> list[str]:
    """Every import that points up the order (``a -> b`` with b above a)."""
    return sorted(f"{m} -> {d}" for m, deps in graph.items() for d in deps
                  if layer(d) > layer(m))


def test_imports_point_down_the_layers() -> None:
    """src_cy < games.interfaces < games < solvers < experiments: a game
    implements the interfaces of games/interfaces.py and never imports a solver."""
    assert layer_violations(import_graph()) == []


def test_layer_check_sees_a_game_importing_a_solver() -> None:
    graph = import_graph()
    graph["games.gold_thief.ai"] = graph["games.gold_thief.ai"] | {"solvers.ismcts"}
    graph["games.interfaces"] = graph["games.interfaces"] | {"games.spec"}
    assert layer_violations(graph) == ["games.gold_thief.ai -> solvers.ismcts",
                                       "games.interfaces -> games.spec"]


def _game_of(module: str) -> str | None:
    """The game folder a module belongs to (``games.<g>...`` / ``src_cy.<g>...``), or None."""
    parts = module.split(".")
    if len(parts) >= 2 and parts[0] in ("games", "src_cy"):
        top = ROOT / parts[0] / parts[1]
        if top.is_dir() and (top / "__init__.py").is_file():
            return parts[1]
    return None


def cross_game_imports(graph: dict[str, set[str]]) -> list[str]:
    """Every import from one game's folders into another game's."""
    return sorted(f"{m} -> {d}" for m, deps in graph.items() for d in deps
                  if _game_of(m) and _game_of(d) and _game_of(m) != _game_of(d))


def test_games_do_not_import_each_other() -> None:
    """A game's folders (games/<game>/, src_cy/<game>/) use the shared layers
    only, so a game can be added or removed alone."""
    graph = import_graph()
    assert cross_game_imports(graph) == []
    graph["games.saboteur.ai"] = graph["games.saboteur.ai"] | {"src_cy.gold_thief.engine"}
    assert cross_game_imports(graph) == ["games.saboteur.ai -> src_cy.gold_thief.engine"]


def test_nothing_shipped_imports_research_scripts() -> None:
    """``experiments.research`` is not in the wheel: no other module may need it."""
    graph = import_graph()
    offenders = {m: sorted(d for d in deps if d.startswith("experiments.research"))
                 for m, deps in graph.items() if not m.startswith("experiments.research")}
    assert {m: d for m, d in offenders.items() if d} == {}


def test_no_import_cycles() -> None:
    graph = import_graph()
    pruned = {m: deps - {b for (a, b) in KNOWN_CYCLE_EDGES if a == m}
              for m, deps in graph.items()}
    cycle = find_cycle(pruned)
    assert cycle is None, f"import cycle: {' -> '.join(cycle)}"


def test_known_cycle_edges_are_still_cycles() -> None:
    graph = import_graph()
    for a, b in sorted(KNOWN_CYCLE_EDGES):
        assert b in graph.get(a, set()) and _reaches(graph, b, a), (
            f"{a} -> {b} no longer closes an import cycle: remove it from KNOWN_CYCLE_EDGES")


def test_cycle_finder_sees_a_cycle_in_the_real_graph() -> None:
    """A game module importing a solver that imports the game's spec back
    closes a cycle, and the finder sees it."""
    graph = import_graph()
    assert "games.spec" in graph["solvers.bots"]
    graph["games.spec"] = graph["games.spec"] | {"solvers.bots"}
    cycle = find_cycle(graph)
    assert cycle is not None and "solvers.bots" in cycle


def test_test_engines_are_not_in_the_package() -> None:
    assert not list((ROOT / "src_cy").glob("ismcts_testgame*"))


def test_engine_pickles_through_engine_module() -> None:
    game = pyspiel.load_game("gold_thief")
    engine = game.make_engine()
    reducer, args = engine.__reduce__()
    assert reducer is engine_module._unpickle_engine
    clone = pickle.loads(pickle.dumps(engine))
    assert clone.dump() == engine.dump()
