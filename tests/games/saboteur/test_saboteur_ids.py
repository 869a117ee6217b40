"""Saboteur's Python action ids (``games.saboteur.ai.ActionIds``) come from
the engine's ``ACTION_LAYOUT`` and decode every legal action as the engine
names it; the AI modules compute ids only through that class."""
import ast
import pathlib

import pyspiel
import pytest

import games  # noqa: F401
from games.saboteur.ai import ActionIds
from src_cy.rng import SplitMix64

# The installed package (CI runs the suite against the wheel, outside the checkout).
ROOT = pathlib.Path(games.__file__).resolve().parents[1]
# Engine wording of each block (``action_to_string``).
PREFIX = {"place": "place ", "rockfall": "rockfall at ", "break": "break ",
          "repair": "repair ", "map": "map goal ", "pass": "pass discarding ",
          "keep": "keep gold card ", "hand_on": "hand on gold card "}


def _encode(ids: ActionIds, a: int) -> int:
    """``a`` rebuilt from its decoded parts with the constructors."""
    kind = ids.kind_of(a)
    if kind == "place":
        return ids.place(*ids.placement(a))
    if kind == "rockfall":
        return ids.rockfall(ids.rockfall_cell(a))
    if kind == "break":
        return ids.break_tool((a - ids.break0) // ids.stride, ids.victim(a))
    if kind == "repair":
        card_tool = (a - ids.repair0) // ids.stride
        return ids.repair(card_tool // 3, card_tool % 3, ids.victim(a))
    if kind == "map":
        return ids.map(a - ids.map0)
    if kind == "pass":
        return ids.pass_discarding(a - ids.pass0)
    if kind == "keep":
        return ids.keep(a - ids.keep0)
    return ids.hand_on(a - ids.hand_on0)


@pytest.mark.parametrize("params, blocks", [
    ({"players": 3, "goal_distance": 2, "rounds": 2, "deck_scale": 30},
     {"place", "rockfall", "break", "repair", "map", "pass", "keep"}),
    ({"players": 5, "rounds": 1, "gold_handout": "finder"},
     {"place", "rockfall", "break", "repair", "map", "pass"}),
])
def test_ids_decode_every_legal_action_as_the_engine_names_it(params, blocks):
    game = pyspiel.load_game("saboteur", params)
    rng = SplitMix64(7)
    seen = set()
    for _ in range(4):
        s = game.new_initial_state()
        ids = ActionIds.of(s.engine)
        assert ids.end == game.num_distinct_actions()
        while not s.is_terminal():
            if s.is_chance_node():
                outs = s.chance_outcomes()
                s.apply_action(outs[rng.randint(len(outs))][0])
                continue
            legal = s.legal_actions()
            ids = ActionIds.of(s.engine)        # placements and rockfalls: this state's
            for a in legal:
                kind = ids.kind_of(a)
                seen.add(kind)
                assert s.action_to_string(a).startswith(PREFIX[kind]), (a, kind)
                assert _encode(ids, a) == a
                if kind in ("break", "repair"):
                    assert s.action_to_string(a).endswith(f"p{ids.victim(a)}")
            s.apply_action(legal[rng.randint(len(legal))])
    assert blocks <= seen


def test_kind_of_rejects_an_id_outside_the_layout():
    game = pyspiel.load_game("saboteur", {"players": 3})
    ids = ActionIds.of(game.new_initial_state().engine)
    with pytest.raises(ValueError, match="not a Saboteur action id"):
        ids.kind_of(game.num_distinct_actions())


@pytest.mark.parametrize("module", ["games/saboteur/ai.py", "games/saboteur/search.py",
                                    "games/saboteur/abstraction.py"])
def test_action_ids_are_computed_only_inside_action_ids(module):
    """Ids are positions in the state's frontier and tunnel lists; the
    bounds (``frontier_bound``, ``tunnel_bound``) and the layout are read
    only inside ``ActionIds``."""
    tree = ast.parse((ROOT / module).read_text())
    inside = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == "ActionIds":
            inside |= {id(n) for n in ast.walk(node)}
    for node in ast.walk(tree):
        uses_size = isinstance(node, ast.Attribute) and node.attr in (
            "grid_radius", "frontier_bound", "tunnel_bound")
        uses_layout = isinstance(node, ast.Name) and node.id in ("_LAYOUT", "ACTION_LAYOUT")
        if uses_size or uses_layout:
            assert id(node) in inside, f"{module}:{node.lineno} computes action ids itself"
