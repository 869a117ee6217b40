"""Parameter tables (games.params): one per game, feeding the GameType
defaults, validation, the rules docs' tables and the presets."""
from __future__ import annotations

from pathlib import Path

import pyspiel
import pytest

import games  # noqa: F401  (registers the games)
from games.params import Param, ParameterError, ParamTable
from games.params_doc import doc_table, game_tables
from games.spec import get_spec
from repo import REPO_ROOT

GAMES = ("gold_thief", "saboteur", "ardillas_del_bosque", "gold_nugget")


def _bad_values(param: Param) -> list:
    """Values outside ``param``'s table range, then values of the wrong type."""
    if param.kind == "int":
        return [param.lo - 1, param.hi + 1, True, 1.5, "1"]
    if param.kind == "bool":
        return [1, "true"]
    if param.kind == "choice":
        return ["no_such_choice", 0]
    return [7]


CASES = [(name, p.name, bad) for name in GAMES for p in get_spec(name).params
         for bad in _bad_values(p)]


def test_every_engine_game_has_a_table():
    assert sorted(game_tables()) == sorted(GAMES)
    for name in GAMES:
        table = get_spec(name).params
        assert table.game == name
        assert type(pyspiel.load_game(name)).PARAMS is table


@pytest.mark.parametrize("name, param, bad", CASES,
                         ids=[f"{n}-{p}-{b!r}" for n, p, b in CASES])
def test_invalid_value_is_refused_naming_the_parameter(name, param, bad):
    with pytest.raises(ValueError, match=rf"\b{param}\b") as direct:
        type(pyspiel.load_game(name))({param: bad})
    assert isinstance(direct.value, ParameterError)
    assert "valid" in str(direct.value)
    default = get_spec(name).params[param].default
    # pyspiel.load_game refuses a value of the wrong type itself (SpielError)
    error = ValueError if type(bad) is type(default) else pyspiel.SpielError
    with pytest.raises(error, match=rf"\b{param}\b"):
        pyspiel.load_game(name, {param: bad})


@pytest.mark.parametrize("name", GAMES)
def test_unknown_name_is_refused_naming_it(name):
    with pytest.raises(ParameterError, match="'bogus'.*valid parameters"):
        type(pyspiel.load_game(name))({"bogus": 1})
    # pyspiel.load_game checks names against the GameType itself (SpielError)
    with pytest.raises(pyspiel.SpielError, match="bogus"):
        pyspiel.load_game(name, {"bogus": 1})


@pytest.mark.parametrize("name", GAMES)
def test_defaults_come_from_the_table(name):
    table = get_spec(name).params
    game = pyspiel.load_game(name)
    assert game.get_type().parameter_specification == table.defaults()
    assert table.validate() == table.defaults()
    explicit = pyspiel.load_game(name, table.defaults())
    assert explicit.new_initial_state().serialize() == game.new_initial_state().serialize()
    assert explicit.max_game_length() == game.max_game_length()


@pytest.mark.parametrize("name", GAMES)
def test_rules_doc_table_is_generated_from_the_table(name):
    spec = get_spec(name)
    text = (REPO_ROOT / spec.rules_doc).read_text(encoding="utf-8")
    assert doc_table(text) == spec.params.markdown(), (
        f"{spec.rules_doc}: run `python -m games.params_doc --write`")


@pytest.mark.parametrize("name", GAMES)
def test_presets_are_defined_once_in_the_spec(name):
    import importlib
    module = importlib.import_module(f"games.{name}")
    spec = get_spec(name)
    assert module.MINI_PARAMS is spec.presets["mini"]
    assert not hasattr(module, "mini_game")
    for preset, values in spec.presets.items():
        spec.params.validate(values)
        assert spec.load(preset).num_players() >= 2


def test_validate_merges_defaults_and_leaves_its_input_alone():
    table = ParamTable("t", [Param("n", 2, "count", 1, 3), Param("on", False, "switch"),
                             Param("mode", "a", "mode", choices=("a", "b")),
                             Param("text", "", "free text", valid="anything")])
    given = {"n": 3, "mode": "b"}
    assert table.validate(given) == {"n": 3, "on": False, "mode": "b", "text": ""}
    assert given == {"n": 3, "mode": "b"}
    with pytest.raises(ParameterError, match=r"n=4 is out of range; valid: 1\.\.3"):
        table.validate({"n": 4})
    with pytest.raises(ParameterError, match="on=1 is invalid; valid: true, false"):
        table.validate({"on": 1})
    with pytest.raises(ParameterError, match="mode='c' is invalid; valid: a, b"):
        table.validate({"mode": "c"})
    with pytest.raises(ParameterError, match="text=3 is invalid; valid: anything"):
        table.validate({"text": 3})
    assert table.markdown().splitlines()[2:4] == [
        "| `n` | 2 | 1..3 | count |", "| `on` | false | true, false | switch |"]


@pytest.mark.parametrize("make, needle", [
    (lambda: Param("n", 5, "count", 1, 3), r"n=5 is out of range"),
    (lambda: Param("n", 1, "count", 3, 1), "lo <= hi"),
    (lambda: Param("n", 1, "count"), "lo <= hi"),
    (lambda: Param("on", True, "switch", 0, 1), "only for int"),
    (lambda: Param("s", "x", "text"), "needs `valid`"),
    (lambda: Param("Bad", 1, "count", 0, 1), "lower_case"),
    (lambda: Param("n", 1, "", 0, 1), "no doc"),
    (lambda: Param("m", "a", "mode", choices=("b",)), "m='a' is invalid"),
    (lambda: ParamTable("t", [Param("n", 1, "a", 0, 1), Param("n", 1, "b", 0, 1)]),
     "listed twice"),
])
def test_bad_tables_are_refused(make, needle):
    with pytest.raises(ValueError, match=needle):
        make()


_HALF_BUILT = r'''
import pyspiel, games
cases = [("gold_thief", {"players": 9}), ("saboteur", {"players": 2}),
         ("ardillas_del_bosque", {"players": 3, "sleepyheads": 3}),
         ("gold_nugget", {"players": 2, "leaf_default": 30, "wind_default": 30,
                          "hand_size": 10})]
for name, params in cases:
    try:
        type(pyspiel.load_game(name))(params)
    except ValueError as exc:
        tb, shown = exc.__traceback__, []
        while tb is not None:
            for key, value in list(tb.tb_frame.f_locals.items()):
                if key == "self":
                    shown.append(repr(value) + str(value))
            tb = tb.tb_next
        assert any("not constructed" in text for text in shown), (name, shown)
    else:
        raise AssertionError(f"{name} {params} was accepted")
print("ok")
'''


def test_a_refused_game_can_be_shown_without_crashing():
    """Tracebacks (pytest's long format, debuggers) show the half-built
    ``self`` of a game whose parameters were refused; pyspiel's own repr of
    it would crash the process (run in a subprocess so a crash fails here)."""
    import subprocess
    import sys
    # run where the imported packages live (the source tree, or an installed wheel)
    run = subprocess.run([sys.executable, "-c", _HALF_BUILT], capture_output=True, text=True,
                         timeout=120, cwd=str(Path(games.__file__).parent.parent))
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip() == "ok"
