"""High Card's own tests (the template game): conformance and a scripted hand."""
import pyspiel

import games  # noqa: F401
from games import testing


def test_conformance():
    testing.check_game(pyspiel.load_game("high_card"))


def test_bet_and_call_pays_two_to_the_higher_card():
    state = pyspiel.load_game("high_card(deck=5)").new_initial_state()
    for action in (4, 1, 1, 1):       # deal 4 and 1; bet; call
        state.apply_action(action)
    assert state.is_terminal() and state.returns() == [2.0, -2.0]
