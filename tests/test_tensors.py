"""Bounded, one-to-one tensors (issue 27, item 1): on many random states of
every game, each information-state and observation tensor lies in [0, 1],
and information-state strings and tensors determine each other (the layouts
are in docs/rules/<game>.md, "Tensors")."""
from __future__ import annotations

import numpy as np
import pyspiel
import pytest

import games  # noqa: F401
from games import testing
from games.spec import get_spec as spec

# (game, preset, random games, every k-th state): the mini presets state by
# state, the default games (long, with large tensors) at every k-th state.
CASES = [
    ("ardillas_del_bosque", "mini", 30, 1), ("ardillas_del_bosque", "default", 4, 3),
    ("gold_thief", "mini", 30, 1), ("gold_thief", "default", 2, 8),
    ("gold_nugget", "mini", 10, 1), ("gold_nugget", "default", 1, 10),
    ("saboteur", "mini", 12, 1), ("saboteur", "default", 1, 60),
]


@pytest.mark.parametrize("name,preset,num_games,every", CASES)
def test_tensors_bounded_and_one_to_one_with_strings(name, preset, num_games, every):
    game = spec(name).load(preset)
    tensor_of: dict = {}
    string_of: dict = {}
    states = 0
    for state in testing.random_states(game, num_games, seed=17, every=every):
        states += 1
        for p in range(game.num_players()):
            testing.check_tensor_range(state, p)
            info = state.information_state_string(p)
            tensor = np.asarray(state.information_state_tensor(p), np.float32).tobytes()
            assert tensor_of.setdefault((p, info), tensor) == tensor, \
                "one information-state string, two tensors"
            assert string_of.setdefault((p, tensor), info) == info, \
                "one information-state tensor, two strings"
    # the check saw many distinct information states, not a handful
    assert len(tensor_of) >= states


class _FakeState:
    """A state whose tensors hold one chosen value (to show the check fails)."""

    def __init__(self, game: pyspiel.Game, value: float):
        self.game, self.value = game, value

    def get_game(self) -> pyspiel.Game:
        return self.game

    def history(self) -> list:
        return []

    def information_state_tensor(self, player: int) -> list:
        return [0.0] * 3 + [self.value]

    def observation_tensor(self, player: int) -> list:
        return [0.5]


@pytest.mark.parametrize("value", [1.5, -0.25, float("nan"), float("inf")])
def test_range_check_refuses_values_outside_0_1(value):
    game = spec("gold_thief").load("mini")
    with pytest.raises(AssertionError, match="outside"):
        testing.check_tensor_range(_FakeState(game, value), 0)
    testing.check_tensor_range(_FakeState(game, 1.0), 0)
