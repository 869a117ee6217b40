"""Test-only engines (``tests/cy/*.pyx``), built on demand and registered.

The ISMCTS test engines are not part of the package: :func:`build` compiles
``tests/cy/ismcts_testgame.pyx`` into ``tests/cy/`` with Cython's build API
when its extension is missing or stale (the source, the installed
``src_cy`` declarations it cimports, or the interpreter changed), against
whichever ``src_cy`` is imported (the checkout's or an installed wheel's).
Cython and a C++ compiler are therefore test dependencies. The check and the
build run under an exclusive file lock (``tests/cy/.<module>.lock``), so
pytest-xdist workers build the engine once per checkout and the others wait
and import it.
"""
from __future__ import annotations

import fcntl
import hashlib
import importlib
import sys
import sysconfig
import tempfile
from pathlib import Path
from types import ModuleType

import pyspiel

import src_cy

CY_DIR = Path(__file__).resolve().parent / "cy"
MODULE = "ismcts_testgame"
_registered = False


def _fingerprint(src: Path, pxd_dir: Path) -> str:
    """Hash of everything the extension depends on."""
    h = hashlib.sha256()
    h.update(src.read_bytes())
    for pxd in sorted(pxd_dir.glob("*.pxd")):
        h.update(pxd.name.encode() + pxd.read_bytes())
    h.update(sys.version.encode() + str(sysconfig.get_config_var("EXT_SUFFIX")).encode())
    h.update(str(pxd_dir).encode())
    return h.hexdigest()


def _compile(module: str, src: Path, pxd_dir: Path) -> None:
    """Cythonize and compile ``src`` into ``tests/cy/<module><EXT_SUFFIX>``."""
    from Cython.Build import cythonize
    from setuptools import Extension
    from setuptools.dist import Distribution

    with tempfile.TemporaryDirectory(prefix="goldspiel-testgame-") as tmp:
        ext = Extension(module, [str(src)], language="c++",
                        extra_compile_args=["-O1", "-g0", "-std=c++17",
                                            "-Wno-unused-function"])
        exts = cythonize([ext], include_path=[str(pxd_dir.parent)], build_dir=tmp,
                         compiler_directives={"language_level": 3}, quiet=True,
                         force=True)
        dist = Distribution({"ext_modules": exts, "script_args": []})
        cmd = dist.get_command_obj("build_ext")
        cmd.build_lib = str(CY_DIR)
        cmd.build_temp = tmp
        cmd.ensure_finalized()
        cmd.run()


def build(module: str = MODULE) -> ModuleType:
    """Build ``tests/cy/<module>.pyx`` if needed (once across concurrent
    processes) and import it."""
    src = CY_DIR / f"{module}.pyx"
    pxd_dir = Path(src_cy.__file__).resolve().parent
    stamp = CY_DIR / f".{module}.stamp"
    fingerprint = _fingerprint(src, pxd_dir)
    built = CY_DIR / f"{module}{sysconfig.get_config_var('EXT_SUFFIX')}"
    with open(CY_DIR / f".{module}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        fresh = built.exists() and stamp.exists() and stamp.read_text() == fingerprint
        if not fresh:
            _compile(module, src, pxd_dir)
            stamp.write_text(fingerprint)
    if str(CY_DIR) not in sys.path:
        sys.path.insert(0, str(CY_DIR))
    return importlib.import_module(module)


def register() -> ModuleType:
    """Build the ISMCTS test engines and register their games (idempotent):
    ``ismcts_test_minipoker`` and ``ismcts_test_tictactoe``."""
    global _registered
    mod = build()
    if _registered:
        return mod
    from games._adapter import EngineGame
    from games.params import ParamTable

    def game_type(name: str, info, chance) -> pyspiel.GameType:
        return pyspiel.GameType(
            short_name=name, long_name=name,
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=chance,
            information=info,
            utility=pyspiel.GameType.Utility.ZERO_SUM,
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=2, min_num_players=2,
            provides_information_state_string=True,
            provides_information_state_tensor=False,
            provides_observation_string=True,
            provides_observation_tensor=False,
            parameter_specification={})

    class MiniPokerGame(EngineGame):
        GAME_TYPE = game_type("ismcts_test_minipoker",
                              pyspiel.GameType.Information.IMPERFECT_INFORMATION,
                              pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC)
        PARAMS = ParamTable("ismcts_test_minipoker", [])      # no parameters

        def _build(self, params):
            info = pyspiel.GameInfo(num_distinct_actions=2, max_chance_outcomes=mod.DECK_SIZE,
                                    num_players=2, min_utility=-2.0, max_utility=2.0,
                                    utility_sum=0.0, max_game_length=5)
            return info, mod.MiniPokerEngine

    class TicTacToeGame(EngineGame):
        GAME_TYPE = game_type("ismcts_test_tictactoe",
                              pyspiel.GameType.Information.PERFECT_INFORMATION,
                              pyspiel.GameType.ChanceMode.DETERMINISTIC)
        PARAMS = ParamTable("ismcts_test_tictactoe", [])      # no parameters

        def _build(self, params):
            info = pyspiel.GameInfo(num_distinct_actions=9, max_chance_outcomes=0,
                                    num_players=2, min_utility=-1.0, max_utility=1.0,
                                    utility_sum=0.0, max_game_length=9)
            return info, mod.TicTacToeEngine

    pyspiel.register_game(MiniPokerGame.GAME_TYPE, MiniPokerGame)
    pyspiel.register_game(TicTacToeGame.GAME_TYPE, TicTacToeGame)
    _registered = True
    return mod
