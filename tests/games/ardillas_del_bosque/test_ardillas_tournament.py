"""The Ardillas best-of-5 tournament script."""
import pytest

from repo import research_module

t = research_module("ardillas_tournament")

pytestmark = pytest.mark.integration


def test_series_is_deterministic_and_hands_out_five_tokens():
    a = t.play_series(2, "day", ["random", "random"], seed=4)
    b = t.play_series(2, "day", ["random", "random"], seed=4)
    assert a == b
    winner, tokens = a
    assert sum(tokens) == 5
    assert tokens[winner] == max(tokens)


def test_tie_goes_to_the_best_in_the_fifth_game():
    tokens = [2, 2, 1]
    fifth_returns = [-0.5, -0.5, 1.0]           # bot 2 won game 5 but is not tied
    groups = [([2, 1, 0, 0, 0], 3, 10), ([2, 1, 1, 0, 0], 4, 9), ([3, 0, 0, 0, 0], 3, 11)]
    assert t.series_winner(tokens, fifth_returns, groups) == 1   # bigger second group
    groups[1] = ([2, 1, 0, 0, 0], 3, 9)
    assert t.series_winner(tokens, fifth_returns, groups) == 0   # equal groups: played last
    assert t.series_winner([1, 3, 1], fifth_returns, groups) == 1


def test_bad_arguments_refused():
    import pytest
    with pytest.raises(SystemExit):
        t.main(["--players", "3", "--bots", "random,random"])
