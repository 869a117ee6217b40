"""Gold Nugget, issue 26: view defects, useless plays and rule readings.

Scripted scenarios through the pyspiel API (helpers from
``tests/games/gold_nugget/test_gold_nugget_rules.py``); each quotes the rulebook sentence or
the rules-doc assumption it follows."""
from __future__ import annotations

import functools

import pyspiel
import pytest

import games.gold_nugget as gn
from games import testing
from games.gold_nugget import (A_ABILITY, A_NEST, A_PASS, A_PLAYER, A_RECYCLE, A_SLEEP,
                               stone_action)
from tests.games.gold_nugget.test_gold_nugget_rules import (AFTERNOON, CARD, MORNING, NIGHT, NOON, PEEKS, W, do,
                                          info, play, settle, setup)
from tests.games.gold_nugget.test_gold_nugget_issue11 import EXAMINE, KEEP


def _lair_line(st, p: int, q: int) -> str:
    return next(line for line in st.observation_string(p).split("\n")
                if line.startswith(f"p{q} ") and "lair=" in line).split("lair=")[1]


def _sleight(slot: int):
    """The issue's history: p0 plays Sleight of paw on p1, swapping p0#slot
    and p1#0; both decline to examine."""
    _, st = setup([["sleight_of_paw"] + PEEKS[:4]] + [PEEKS] * 2)
    assert _lair_line(st, 1, 1) == "[tn]"
    do(st, play("sleight_of_paw"), A_PLAYER + 1, stone_action(0, slot), stone_action(1, 0))
    return st


def test_swap_receiver_keeps_the_stones_that_did_not_move():
    """Examine: "then leave it in the same position it was in": only the
    swapped slot of the receiver's lair becomes unknown."""
    st = _sleight(0)
    assert st.current_player() == 0
    do(st, KEEP)
    assert st.current_player() == 1
    assert _lair_line(st, 1, 1) == "[?n]"          # was [??]: the whole lair forgotten
    assert st.engine.player_view(1)["lairs"][1] == [None, "normal"]
    assert _lair_line(st, 1, 0) == "[??]"          # which p0 stone it got is hidden
    assert _lair_line(st, 0, 1) == "[n?]"          # the player swapping sees where it went
    assert _lair_line(st, 2, 2) == "[Nn]"          # a third lair is untouched
    do(st, EXAMINE)
    assert _lair_line(st, 1, 1) == "[nn]"


def test_swap_receiver_view_is_a_function_of_its_information():
    """Two histories p1 cannot tell apart (p0 gave its first or its second
    stone) give p1 the same information state and the same observation."""
    a, b = _sleight(0), _sleight(1)
    do(a, KEEP)
    do(b, KEEP)
    assert info(a, 1) == info(b, 1)
    assert a.observation_string(1) == b.observation_string(1)
    assert a.observation_tensor(1) == b.observation_tensor(1)
    assert a.engine.lairs()[0] != b.engine.lairs()[0]


def test_loyal_friend_receivers_keep_their_unmoved_stones():
    _, st = setup([["loyal_friend"] + PEEKS[:4]] + [PEEKS] * 2)
    do(st, play("loyal_friend"), A_PLAYER + 1, A_PLAYER + 2, stone_action(1, 0),
       stone_action(2, 1), KEEP, KEEP)
    assert st.engine.lairs()[1:] == [[6, 5], [0, 1]]
    assert _lair_line(st, 1, 1) == "[?n]" and _lair_line(st, 1, 2) == "[??]"
    assert _lair_line(st, 2, 2) == "[N?]" and _lair_line(st, 2, 1) == "[??]"


# ---------------------------------------------------------------- useless abilities
@pytest.mark.parametrize("animal, params", [
    ("fox", {"start_stones": 0}),                         # no stone of its own
    ("owl", {"start_stones": 0}),                         # no stone in any lair
    ("mole", {"start_stones": 0}),                        # no stone of its own
    ("magpie", {"normal_stones": 3, "trap_stones": 2}),   # the nest is empty
    ("badger", {}),                                       # no feather to give
])
def test_ability_that_cannot_act_is_not_offered(animal, params):
    stones = ((), (), ()) if params.get("start_stones") == 0 else ((3, 4), (1, 5), (0, 2))
    _, st = setup([PEEKS] * 3, animals=(animal, "rabbit", "bear"), stones=stones, **params)
    settle(st)
    assert st.current_player() == 0 and st.engine.info()["phase"] == "Meddling"
    assert A_ABILITY not in st.legal_actions()


def test_fox_with_stones_but_no_other_lair_with_stones():
    _, st = setup([["no_hard_feelings"] + PEEKS[:4], PEEKS], animals=("fox", "bear"),
                  stones=((3, 4), (1, 5)))
    settle(st)
    assert A_ABILITY in st.legal_actions()
    do(st, play("no_hard_feelings"), A_PLAYER + 1, stone_action(1, 0), KEEP,
       stone_action(0, 2), stone_action(1, 0), KEEP, stone_action(0, 3))
    settle(st)
    assert st.engine.lairs() == [[3, 4, 1, 5], []]
    assert A_ABILITY not in st.legal_actions()


def test_badger_offered_once_it_has_a_feather():
    _, st = setup([PEEKS] * 3, animals=("badger", "rabbit", "bear"))
    settle(st)
    assert A_ABILITY not in st.legal_actions()
    do(st, play("peek"), stone_action(1, 0))             # a trap: the Badger's feather
    settle(st)
    assert A_ABILITY in st.legal_actions()


# ---------------------------------------------------------------- opening window
def test_instant_window_before_the_holders_first_play():
    """"The rest of the animals can only play cards with the instant
    (lightning) icon": from the start of Meddling, so a holder who ends at
    once no longer shuts every instant out."""
    _, st = setup([PEEKS, ["glance"] + PEEKS[:4], PEEKS])
    assert st.engine.info()["phase"] == "instant reactions"
    assert st.current_player() == 1 and st.legal_actions() == [A_PASS, play("glance"),
                                                                 A_RECYCLE + CARD["glance"]]
    do(st, W(play("glance")), stone_action(2, 0))
    assert "p1 sees p2#0 is NUGGET" in info(st, 1)
    assert st.current_player() == 2 and st.legal_actions() == [A_PASS]
    do(st, W(A_PASS))
    assert st.current_player() == 0 and st.engine.info()["phase"] == "Meddling"
    assert st.engine.player_view(0)["plays"] == 0
    do(st, A_PASS)                                       # the holder ends at once
    assert st.engine.info()["holder"] == 1
    assert "p1 plays Glance" in info(st, 0)


def test_opening_window_parameter_off_is_the_former_reading():
    _, st = setup([PEEKS, ["glance"] + PEEKS[:4], PEEKS], opening_window=False)
    assert st.current_player() == 0 and st.engine.info()["phase"] == "Meddling"
    do(st, A_PASS)
    assert st.engine.info()["holder"] == 1 and "Glance" not in info(st, 0)


def test_no_opening_window_without_instant_cards():
    _, st = setup([PEEKS] * 3, leaf_default=0)
    assert st.current_player() == 0 and st.engine.info()["phase"] == "Meddling"


# ---------------------------------------------------------------- placing stones
def test_acquired_stone_is_placed_where_the_acquirer_chooses():
    """"must then place them anywhere in their lair, being able to move a few
    stones to make room for the new ones": the stones from that slot on shift,
    in order.  p2 sleeps and does not see where."""
    _, st = setup([["chance"] + PEEKS[:4]] + [PEEKS] * 2, tods=(NOON, AFTERNOON, MORNING))
    do(st, play("chance"), stone_action(1, 0), KEEP)
    assert st.engine.lairs()[0] == [3, 4, 1]
    assert st.current_player() == 0 and st.legal_actions() == [stone_action(0, i)
                                                                for i in range(3)]
    assert st.engine.player_view(0)["decision"] == "place"
    do(st, stone_action(0, 0))
    assert st.engine.lairs()[0] == [1, 3, 4]
    assert "p0 places its new stone from p0#2 at p0#0" in info(st, 1)
    assert _lair_line(st, 1, 0) == "[t??]"               # p1 followed its trap
    assert "p0 places its new stone unseen" in info(st, 2)
    assert "p0#0" not in info(st, 2).split("stone unseen")[1]


def test_stones_arriving_together_are_placed_one_at_a_time():
    _, st = setup([["nest_dive"] + PEEKS[:4]] + [PEEKS] * 2)
    first = st.engine.nest_order()[0]
    do(st, play("nest_dive"), 0, KEEP, stone_action(0, 1))
    assert st.engine.lairs()[0] == [3, first, 4]
    second = st.engine.nest_order()[0]
    do(st, 0, KEEP, stone_action(0, 0))
    assert st.engine.lairs()[0] == [second, 3, first, 4]


def test_sleeper_loses_track_of_the_placers_lair():
    """p1 glanced at p2#0 (the nugget), then sleeps while p2 places a new
    stone unseen by p1: p1 no longer knows which slot holds the nugget."""
    _, st = setup([PEEKS, ["glance"] + PEEKS[:4], ["chance"] + PEEKS[:4]],
                  tods=(AFTERNOON, NOON, NIGHT))
    do(st, W(play("glance")), stone_action(2, 0), W(A_PASS), A_PASS)
    assert _lair_line(st, 1, 2) == "[N?]"
    do(st, A_SLEEP)                                      # noon: p1 sleeps, p2 holds
    do(st, play("chance"), stone_action(0, 0), KEEP, stone_action(2, 0))
    assert st.engine.lairs()[2] == [3, 0, 6]
    assert "p2 places its new stone unseen" in info(st, 1)
    assert _lair_line(st, 1, 2) == "[???]"               # was [?N?]: where it went
    assert _lair_line(st, 0, 2) == "[nN?]"               # p0 (the Raccoon) watched


def test_place_stones_parameter_off_appends():
    _, st = setup([["chance"] + PEEKS[:4]] + [PEEKS] * 2, place_stones=False)
    do(st, play("chance"), stone_action(1, 0), KEEP)
    assert st.engine.lairs()[0] == [3, 4, 1]
    assert st.engine.player_view(0)["decision"] != "place"
    assert "places" not in info(st, 1)


def test_a_lone_stone_needs_no_placement():
    _, st = setup([["chance"] + PEEKS[:4]] + [PEEKS] * 2, start_stones=0, stones=((), (), ()))
    do(st, play("chance"), A_NEST, 0, KEEP)
    assert len(st.engine.lairs()[0]) == 1 and "places" not in info(st, 0)


# ---------------------------------------------------------------- information contract
@functools.lru_cache(maxsize=None)
def _placement_sets() -> list:
    """Two information sets of the mini preset with placement (place_stones
    on), each after a placement, with their exact posteriors."""
    from tests.games.gold_nugget.test_gold_nugget_resample import _information_sets
    game = pyspiel.load_game("gold_nugget", dict(gn.MINI_PARAMS, place_stones=True))
    sets = [x for x in _information_sets(game, 8) if "places its new stone" in info(*x[:2])]
    assert len(sets) >= 2
    return sets[:2]


@pytest.mark.parametrize("exact", [-1, 0], ids=["exact-stage", "walks-and-corrector"])
def test_resampling_with_placement_follows_the_exact_posterior(exact: int,
                                                               stat_seed) -> None:
    """On the mini preset with placement (every history enumerated), the
    worlds resampled at information sets after a placement follow the exact
    posterior and never leave the information set, by the exact stage and
    by the walks with the corrector."""
    from src_cy.gold_nugget.engine import set_resample_exact_budget
    sets = _placement_sets()
    old = set_resample_exact_budget(exact)
    try:
        for state, p, posterior in sets:
            seen = testing.drawn_histories(state, p, 400, stat_seed(23))
            assert set(seen) <= set(posterior)
            assert testing.exact_chisquare_pvalue(seen, posterior, 400) > 1e-4
    finally:
        set_resample_exact_budget(old)


@pytest.mark.parametrize("name", ["opening_window", "place_stones"])
def test_reading_parameters_are_validated(name: str) -> None:
    with pytest.raises(pyspiel.SpielError, match=name):
        pyspiel.load_game("gold_nugget", {name: 2})
