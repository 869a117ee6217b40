"""Layering: engines import nothing from games/ or solvers/."""
import pickle
import re
from pathlib import Path

import pyspiel

import games  # noqa: F401  (registers the games)
from src_cy import engine as engine_module

SRC_CY = Path(__file__).resolve().parent.parent / "src_cy"


def test_engine_sources_do_not_import_games_or_solvers() -> None:
    pattern = re.compile(r"^\s*(from|import|cimport)\s+(games|solvers)\b", re.MULTILINE)
    offenders = [p.name for p in sorted(SRC_CY.glob("*.pyx"))
                 if p.name != "ismcts_testgame.pyx" and pattern.search(p.read_text())]
    assert offenders == []


def test_engine_pickles_through_engine_module() -> None:
    game = pyspiel.load_game("gold_thief")
    engine = game.make_engine()
    reducer, args = engine.__reduce__()
    assert reducer is engine_module._unpickle_engine
    clone = pickle.loads(pickle.dumps(engine))
    assert clone.dump() == engine.dump()
