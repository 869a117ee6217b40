"""Gold Nugget: scripted scenarios, one per rule, card and ability.

Positions are built with explicit actions, chance outcomes included.  Stone
ids: 0 is the Gold Nugget, 1..traps are trap stones, the rest are normal.
Lair slots count from 0 in placement order; an acquired stone is placed by
its acquirer (the scripts keep it at the end unless a test says otherwise).
"""
from __future__ import annotations

import pyspiel
import pytest

import games  # noqa: F401
import games.gold_nugget as gn
from games.gold_nugget import (A_ABILITY, A_DISCARD, A_MEDDLE, A_NEST, A_OPT0,
                               A_OPT1, A_PASS, A_PLAY, A_PLAYER, A_RECYCLE, A_SLEEP,
                               stone_action)

CARD = {k: i for i, k in enumerate(gn.LEAF_KEYS)}
ANIMAL = {k: i for i, k in enumerate(gn.ANIMAL_KEYS)}
MORNING, NOON, AFTERNOON, NIGHT = range(4)
EXAMINE, KEEP = A_OPT0, A_OPT1


def play(card: str) -> int:
    return A_PLAY + CARD[card]


def setup(hands, animals=("raccoon", "rabbit", "fox"), tods=(NOON, AFTERNOON, NIGHT),
          stones=((3, 4), (1, 5), (0, 6)), vcs=None, **params):
    """A game after set-up with the given hands, animals, times, stones."""
    n = len(hands)
    base = {"players": n, "days": 1, "hello_discard": False, "deal_animals": 1,
            "hand_size": len(hands[0]), "start_stones": len(stones[0]), "leaf_counts": "peek:30"}
    base.update(params)
    game = pyspiel.load_game("gold_nugget", base)
    st = game.new_initial_state()
    for hand in hands:
        for c in hand:
            st.apply_action(CARD[c])
    for a in animals[:n]:
        st.apply_action(ANIMAL[a])
    for _ in range(n):
        st.apply_action(A_OPT0)
    for t in tods[:n]:
        st.apply_action(t)
    for v in vcs or ():
        st.apply_action(v)
    for lair in stones:
        for s in lair:
            st.apply_action(st.engine.nest_order().index(s))
    return game, st


def W(action: int) -> tuple:
    """An action the script plays inside an instant window."""
    return ("window", action)


def in_window(st) -> bool:
    return not st.is_terminal() and st.engine.info()["phase"] == "instant reactions"


def do(st, *actions):
    """Apply `actions`.  Every animal asked in an instant window passes, unless
    the script answers the window itself with ``W(action)``."""
    for a in actions:
        if isinstance(a, tuple):
            a = a[1]
            assert in_window(st), "W() used outside an instant window"
        else:
            while in_window(st):
                st.apply_action(A_PASS)
        assert a in (st.legal_actions() if not st.is_chance_node()
                     else [o for o, _ in st.chance_outcomes()]), (a, st.legal_actions(), str(st))
        st.apply_action(a)


def settle(st) -> None:
    """Every animal asked in the current instant window passes."""
    while in_window(st):
        st.apply_action(A_PASS)


def info(st, p: int) -> str:
    return st.information_state_string(p)


def pass_until(st, phase: str) -> None:
    """Pass / take the first chance outcome until the engine reaches ``phase``."""
    while st.engine.info()["phase"] != phase:
        if st.is_chance_node():
            st.apply_action(st.chance_outcomes()[0][0])
        elif A_PASS in st.legal_actions():
            st.apply_action(A_PASS)
        elif A_MEDDLE in st.legal_actions():
            st.apply_action(A_MEDDLE)
        else:
            st.apply_action(st.legal_actions()[0])


PEEKS = ["peek"] * 5


def test_setup_examines_own_stones_without_trap_effect():
    _, st = setup([PEEKS] * 3)
    e = st.engine
    assert e.lairs() == [[3, 4], [1, 5], [0, 6]]
    assert e.feathers() == [0, 0, 0, 7]            # p1 examined a trap: no feather at set-up
    assert "p1 sees p1#0 is trap" in info(st, 1)
    assert "trap" not in info(st, 0)
    # the opening instant window (issue 26) asks p1 and p2, then p0 plays
    assert e.info()["phase"] == "instant reactions" and st.current_player() == 1
    settle(st)
    assert e.info()["phase"] == "Meddling" and st.current_player() == 0


def test_chance_steals_and_trap_examined_costs_a_feather():
    _, st = setup([["chance"] + PEEKS[:4]] + [PEEKS] * 2)
    do(st, play("chance"), stone_action(1, 0), EXAMINE, stone_action(0, 2))
    e = st.engine
    assert e.lairs()[0] == [3, 4, 1] and e.lairs()[1] == [5]
    assert e.feathers() == [1, 0, 0, 6]
    assert "p0 shows trap p0#2" in info(st, 2)     # shown to everyone awake
    assert "reveal" not in info(st, 2)


def test_chance_from_the_nest_is_random():
    _, st = setup([["chance"] + PEEKS[:4]] + [PEEKS] * 2)
    do(st, play("chance"), A_NEST)
    assert st.is_chance_node() and len(st.chance_outcomes()) == 10
    stone = st.engine.nest_order()[4]
    do(st, 4, KEEP, stone_action(0, 2))
    assert st.engine.lairs()[0] == [3, 4, stone]
    assert "p0 takes a stone from the nest" in info(st, 1)


def test_quim_caught_mid_suspicion():
    _, st = setup([["suspicion", "suspicion", "peek", "peek", "peek"]] + [PEEKS] * 2)
    do(st, play("suspicion"), A_PLAYER + 1, A_OPT1)
    assert st.engine.feathers() == [0, 2, 0, 5]
    do(st, play("suspicion"), A_PLAYER + 1, A_OPT1)
    e = st.engine
    assert e.lairs()[1] == [] and {1, 5} <= set(e.nest_stones())
    assert e.feathers() == [0, 1, 0, 6]            # caught at the 3rd, then takes the 4th
    log = info(st, 2).split("\n")
    caught = log.index("p1 caught by the Raven")
    assert "reveal p1#0 trap" in log[caught:] and "reveal p1#1 normal" in log[caught:]
    assert log[-1] == "p1 takes a feather from nest"


def test_suspicion_reveal_all():
    _, st = setup([["suspicion"] + PEEKS[:4]] + [PEEKS] * 2)
    do(st, play("suspicion"), A_PLAYER + 2, A_OPT0)
    assert "reveal p2#0 NUGGET" in info(st, 1) and st.engine.feathers()[2] == 0


def test_no_hard_feelings_and_one_special_per_turn():
    _, st = setup([["no_hard_feelings", "no_hard_feelings", "nest_dive", "peek", "peek"]]
                  + [PEEKS] * 2)
    do(st, play("no_hard_feelings"), A_PLAYER + 2, stone_action(2, 1), KEEP,
       stone_action(0, 2), stone_action(2, 0), KEEP, stone_action(0, 3))
    assert st.engine.lairs()[0] == [3, 4, 6, 0] and st.engine.lairs()[2] == []
    settle(st)
    assert play("no_hard_feelings") not in st.legal_actions()
    assert play("nest_dive") not in st.legal_actions()
    assert play("peek") in st.legal_actions()


def test_beg_card_stone_or_feather():
    _, st = setup([["beg"] + PEEKS[:4], ["chance"] + PEEKS[:4], PEEKS])
    do(st, play("beg"), A_DISCARD + CARD["chance"], stone_action(2, 1), KEEP,
       stone_action(0, 2))
    e = st.engine
    assert e.hand(0)[CARD["chance"]] == 1 and e.hand(1)[CARD["chance"]] == 0
    assert e.lairs()[0] == [3, 4, 6]
    assert "p1 gives Chance to p0" in info(st, 0)
    assert "p1 gives a card to p0" in info(st, 2) and "gives Chance" not in info(st, 2)


def test_gold_nugget_and_do_i_have_it_answers_are_private():
    game, st = setup([["gold_nugget", "do_i_have_it", "peek", "peek", "peek"]] + [PEEKS] * 2)
    do(st, play("gold_nugget"), play("do_i_have_it"))
    assert "Gold Nugget: yes" in info(st, 0) and "Do I have it?: no" in info(st, 0)
    assert "yes" not in info(st, 1)
    for seed in range(20):                         # resampled worlds respect the answers
        world = st.resample(0, seed).engine
        nugget = world.stone_faces().index(2)
        assert any(nugget in lair for lair in world.lairs()[1:])


def test_loyal_friend_swap_is_unseen_by_others():
    _, st = setup([["loyal_friend"] + PEEKS[:4]] + [PEEKS] * 2)
    do(st, play("loyal_friend"), A_PLAYER + 1, A_PLAYER + 2, stone_action(1, 0),
       stone_action(2, 0))
    assert st.engine.lairs()[1:] == [[0, 5], [1, 6]]
    assert "swapped p1#0 with p2#0" in info(st, 0)
    assert "a stone of p1 swapped with one of p2" in info(st, 2)
    assert st.engine.info()["knows"][2] & 1 == 0  # p2 lost track of its nugget


def test_tribute_every_other_animal_gives_a_stone():
    _, st = setup([["tribute"] + PEEKS[:4]] + [PEEKS] * 2)
    do(st, play("tribute"))
    assert st.current_player() == 1
    do(st, stone_action(1, 1), KEEP, stone_action(0, 2), stone_action(2, 0), EXAMINE,
       stone_action(0, 3))
    assert st.engine.lairs()[0] == [3, 4, 5, 0]
    assert "p0 sees p0#3 is NUGGET" in info(st, 0)


def test_peek_shout_and_glance_reaction():
    _, st = setup([["peek", "shout", "pluck", "preen", "peek"], ["glance"] + PEEKS[:4], PEEKS])
    do(st, play("peek"), stone_action(1, 0))          # trap: shown, feather
    assert st.engine.feathers()[0] == 1
    do(st, play("shout"), stone_action(1, 0))         # reveal: no feather
    assert st.engine.feathers()[0] == 1 and "reveal p1#0 trap" in info(st, 2)
    do(st, play("pluck"), A_PLAYER + 2)
    assert st.engine.feathers()[:3] == [0, 0, 1]
    do(st, play("preen"))                             # nothing to return
    assert st.engine.feathers()[:3] == [0, 0, 1]
    assert st.current_player() == 1 and play("glance") in st.legal_actions()
    assert play("peek") not in st.legal_actions()     # not instant
    do(st, W(play("glance")), stone_action(2, 0))
    assert "p1 sees p2#0 is NUGGET" in info(st, 1)
    assert st.current_player() == 2                   # the window goes on with p2
    assert st.legal_actions() == [A_PASS]             # (asked although it holds no instant)
    do(st, W(A_PASS))
    assert "p2 plays no instant (window)" in info(st, 0)
    assert st.current_player() == 0
    do(st, A_PASS)                                    # p0 ends: no window after the end
    assert st.engine.info()["holder"] == 1


def test_sleight_of_paw_unseen_and_recycle():
    _, st = setup([["sleight_of_paw", "peek"] + PEEKS[:3]] + [PEEKS] * 2)
    do(st, play("sleight_of_paw"), A_PLAYER + 2, stone_action(0, 0), stone_action(2, 0),
       EXAMINE)
    assert st.current_player() == 2                   # the receiver may examine too
    do(st, KEEP)
    assert st.engine.lairs()[0] == [0, 4] and st.engine.lairs()[2] == [3, 6]
    assert "a stone of p0 swapped with one of p2" in info(st, 1)
    assert "p2 receives a swapped stone at p2#0" in info(st, 2)
    do(st, A_RECYCLE + CARD["peek"])
    assert st.is_chance_node()
    do(st, 0, KEEP, stone_action(0, 2))
    assert len(st.engine.lairs()[0]) == 3


def test_nest_dive_and_accuse():
    _, st = setup([["nest_dive", "peek"] + PEEKS[:3]] + [PEEKS] * 2)
    do(st, play("nest_dive"), 0, KEEP, stone_action(0, 2), 0, KEEP, stone_action(0, 3))
    assert len(st.engine.lairs()[0]) == 4
    _, st = setup([["accuse"] + PEEKS[:4]] + [PEEKS] * 2)
    do(st, play("accuse"), A_PLAYER + 2, stone_action(2, 0))    # the nugget: p2 punished
    assert st.engine.feathers()[:3] == [0, 0, 2]
    _, st = setup([["accuse"] + PEEKS[:4]] + [PEEKS] * 2)
    do(st, play("accuse"), A_PLAYER + 2, stone_action(2, 1))    # a bluff: p0 punished
    assert st.engine.feathers()[:3] == [1, 0, 0]


def test_sleeping_animal_hears_plays_but_sees_no_stones():
    _, st = setup([["chance"] + PEEKS[:4]] + [PEEKS] * 2, tods=(NOON, MORNING, NIGHT))
    assert st.engine.info()["asleep"] == [0, 1, 0]
    do(st, play("chance"), stone_action(2, 0), KEEP, stone_action(0, 2))
    assert "p0 plays Chance" in info(st, 1)
    assert "(asleep) a stone p2 -> p0" in info(st, 1)
    assert "stone p2#0 -> p0" not in info(st, 1)
    assert "stone p2#0 -> p0" in info(st, 2)
    do(st, A_PASS)                                    # p0 ends; p2 holds no instant
    assert st.is_chance_node()                        # Hello!: p1 (the Rabbit) wakes and
    assert st.engine.info()["asleep"] == [0, 0, 0]    # draws a sixth card
    assert "(awake) p0: 0 feathers, 3 stones, 4 cards" in info(st, 1)


def test_holder_meddles_instead_of_sleeping_and_draws_nothing():
    _, st = setup([["peek"] * 5] * 3, tods=(MORNING, AFTERNOON, NIGHT))
    assert st.legal_actions() == [A_SLEEP, A_MEDDLE]
    do(st, A_MEDDLE, play("peek"), stone_action(0, 0), A_PASS)
    assert st.engine.info()["holder"] == 1 and st.engine.hand(0)[CARD["peek"]] == 4
    _, st = setup([["peek"] * 5] * 3, tods=(MORNING, AFTERNOON, NIGHT))
    do(st, A_SLEEP)
    assert st.engine.info()["holder"] == 1 and st.engine.info()["asleep"][0] == 1
    do(st, play("peek"), stone_action(0, 0), A_PASS)
    assert st.engine.info()["holder"] == 2 and st.engine.info()["asleep"][0] == 0


def test_sleeper_wakes_and_draws_to_five_privately():
    _, st = setup([["peek"] * 5] * 3, tods=(NOON, AFTERNOON, NIGHT))
    do(st, play("peek"), stone_action(0, 0), play("peek"), stone_action(0, 1),
       A_PASS)                                        # morning: p0 plays two cards
    assert st.engine.info()["asleep"] == [1, 0, 0]    # noon: p0 sleeps
    do(st, A_PASS)                                    # p1 ends (no instants: no window)
    assert st.is_chance_node()                        # afternoon Hello!: p0 draws two
    do(st, CARD["accuse"], CARD["beg"])
    assert sum(st.engine.hand(0)) == 5 and st.engine.hand(0)[CARD["accuse"]] == 1
    assert "drew Accuse" in info(st, 0) and "Accuse" not in info(st, 1)
    assert info(st, 1).count("p0 draws") == 2


def test_wind_stalking_on_draw_and_empty_deck_reshuffle():
    _, st = setup([["peek", "chance"], ["peek", "chance"], ["peek", "chance"]],
                  tods=(NOON, AFTERNOON, NIGHT), stones=((3, 4), (1, 5), (0, 6)),
                  leaf_default=0, leaf_counts="peek:3/chance:3", wind_default=0,
                  wind_counts="stalking:1")
    # every animal holds Chance, an instant: p1 and p2 get a window after each play
    do(st, play("peek"), stone_action(0, 0), play("chance"), stone_action(2, 1), KEEP,
       stone_action(0, 2), A_PASS)
    # noon: p0 sleeps (not the holder); p1 meddles and ends (no window after the
    # end); afternoon Hello!: p0 wakes with no cards and draws from a deck of one
    # wind card (p1's turn opens with a window: p2 passes)
    settle(st)
    assert st.engine.info()["asleep"] == [1, 0, 0] and st.current_player() == 1
    do(st, A_PASS)
    assert st.is_chance_node() and st.chance_outcomes() == [(16, 1.0)]
    do(st, 16)                                        # Stalking!: everyone takes a feather
    e = st.engine
    assert e.feathers() == [1, 1, 1, 4]
    assert "discards reshuffled into the forest deck" in info(st, 2)
    assert e.info()["reshuffled"] == 1
    assert [o for o, _ in st.chance_outcomes()] == sorted([CARD["peek"], CARD["chance"]])


def test_final_grab_play_order_decides_and_nugget_holder_wins():
    _, st = setup([PEEKS] * 3)
    pass_until(st, "Raven: grab")
    # the feather moved left four times: p1 holds it and grabs first, then p2, p0
    assert st.engine.info()["holder"] == 1 and st.current_player() == 1
    do(st, stone_action(2, 0))
    assert "you grab" not in info(st, 2)              # choices are hidden
    do(st, stone_action(2, 0), A_NEST)
    assert st.is_chance_node()
    do(st, 0)
    assert st.is_terminal() and st.returns() == [0.0, 1.0, 0.0]
    assert "p2 grabbed at p2#0: nothing" in info(st, 0)


def test_raven_wins_when_nugget_not_grabbed():
    _, st = setup([PEEKS] * 3, utility="zero_sum")
    pass_until(st, "Raven: grab")
    do(st, stone_action(0, 0), stone_action(1, 0), stone_action(1, 1))
    assert st.is_terminal() and st.returns() == [0.0, 0.0, 0.0]
    assert 0 in st.engine.nest_stones()


def test_final_face_down_card_resolves_after_all_played():
    _, st = setup([PEEKS, ["chance"] + PEEKS[:4], PEEKS])
    pass_until(st, "Raven: face-down cards")
    assert st.current_player() == 1
    do(st, play("chance"))
    assert "p1 plays a card face down" in info(st, 2) and "Chance" not in info(st, 2)
    do(st, A_PASS, A_PASS)
    assert "p1 reveals face-down Chance" in info(st, 2)
    do(st, stone_action(2, 0), KEEP)
    assert 0 in st.engine.lairs()[1]


def test_caught_in_the_final_round_is_out():
    _, st = setup([["suspicion", "suspicion", "peek", "peek", "peek"]] + [PEEKS] * 2)
    do(st, play("suspicion"), A_PLAYER + 1, A_OPT1)
    pass_until(st, "Raven: face-down cards")
    do(st, A_PASS, A_PASS, play("suspicion"), A_PLAYER + 1, A_OPT1)
    assert st.engine.info()["elim"] == [0, 1, 0]
    assert st.current_player() == 2 and st.engine.info()["phase"] == "Raven: grab"
    do(st, stone_action(0, 0))
    assert st.current_player() == 0


def test_ability_raccoon_examines_what_others_examine():
    _, st = setup([PEEKS, ["peek"] * 5, PEEKS], animals=("fox", "raccoon", "rabbit"))
    do(st, play("peek"), stone_action(2, 0))
    assert "p1 sees p2#0 is NUGGET (raccoon)" in info(st, 1)


def test_ability_bear_snake_hedgehog():
    _, st = setup([["peek", "suspicion"] + PEEKS[:3]] + [PEEKS] * 2,
                  animals=("bear", "snake", "hedgehog"))
    do(st, play("peek"), stone_action(1, 0))          # bear examines a trap: no feather
    assert st.engine.feathers()[0] == 0 and "p0 shows trap p1#0" in info(st, 2)
    do(st, play("suspicion"), A_PLAYER + 2, A_OPT1)   # hedgehog takes one fewer
    assert st.engine.feathers()[2] == 1
    _, st = setup([["chance"] + PEEKS[:4]] + [PEEKS] * 2, animals=("bear", "snake", "owl"))
    do(st, play("chance"), stone_action(1, 1), KEEP)  # stealing from the snake: a feather
    assert st.engine.feathers()[0] == 1


def test_ability_rabbit_keeps_six_and_squirrel_recycles_two():
    _, st = setup([["peek"] * 5] * 3, animals=("squirrel", "rabbit", "owl"))
    do(st, A_RECYCLE + CARD["peek"], 0, KEEP, stone_action(0, 2), 0, KEEP, stone_action(0, 3))
    assert len(st.engine.lairs()[0]) == 4
    _, st = setup([["beg"] + PEEKS[:4]] + [PEEKS] * 2, animals=("rabbit", "owl", "fox"))
    do(st, play("beg"), A_DISCARD + CARD["peek"], A_DISCARD + CARD["peek"], A_PASS)
    assert sum(st.engine.hand(0)) == 6                # no hand-limit discard at six
    assert st.engine.info()["holder"] == 1


@pytest.mark.parametrize("animal, actions, check", [
    ("owl", [stone_action(2, 0)], lambda st: "p0 sees p2#0 is NUGGET" in info(st, 0)),
    ("fox", [A_PLAYER + 2, stone_action(0, 0), stone_action(2, 0), KEEP, KEEP],
     lambda st: st.engine.lairs()[0] == [0, 4]),
    ("magpie", [0, KEEP, stone_action(0, 2)], lambda st: len(st.engine.lairs()[0]) == 3),
    ("mole", [stone_action(0, 0), 0, KEEP, stone_action(0, 1)],
     lambda st: len(st.engine.lairs()[0]) == 2 and st.engine.lairs()[0][0] == 4),
])
def test_active_abilities(animal, actions, check):
    _, st = setup([PEEKS] * 3, animals=(animal, "rabbit", "bear"))
    do(st, A_ABILITY, *actions)
    assert check(st)
    assert A_ABILITY not in st.legal_actions()        # once per turn


def test_ability_badger_gives_a_feather():
    _, st = setup([PEEKS] * 3, animals=("badger", "rabbit", "bear"))
    do(st, play("peek"), stone_action(1, 0))           # trap: badger takes a feather
    do(st, A_ABILITY, A_PLAYER + 2)
    assert st.engine.feathers()[:3] == [0, 0, 1]


def test_ability_bat_sees_while_asleep():
    _, st = setup([["chance"] + PEEKS[:4]] + [PEEKS] * 2, animals=("owl", "bat", "bear"),
                  tods=(NOON, MORNING, NIGHT))
    do(st, play("chance"), stone_action(2, 0), KEEP)
    assert "stone p2#0 -> p0" in info(st, 1)


def test_abilities_off_parameter():
    _, st = setup([PEEKS] * 3, animals=("owl", "raccoon", "bear"), abilities=False)
    assert A_ABILITY not in st.legal_actions()
    do(st, play("peek"), stone_action(2, 0))
    assert "(raccoon)" not in info(st, 1)


def test_hello_discard_then_draw():
    _, st = setup([PEEKS] * 3, tods=(NOON, MORNING, NIGHT), hello_discard=True)
    do(st, A_PASS)                                    # p0 ends (no instants); p1 wakes at noon
    assert st.current_player() == 1 and A_DISCARD + CARD["peek"] in st.legal_actions()
    do(st, A_DISCARD + CARD["peek"], A_DISCARD + CARD["peek"], A_PASS)
    assert "p1 discards Peek" in info(st, 0)
    assert st.is_chance_node()
    do(st, CARD["chance"], CARD["chance"])
    assert sum(st.engine.hand(1)) == 5


def test_rulebook_example_instant_between_the_holders_plays():
    """'Example of a Turn': Jiko (p0) begs, Pedro (p2, the Raccoon) interrupts
    with Chance and examines a trap, then Jiko plays No hard feelings."""
    _, st = setup([["beg", "no_hard_feelings", "peek", "peek", "peek"], PEEKS,
                   ["chance"] + PEEKS[:4]], animals=("owl", "rabbit", "raccoon"),
                  stones=((1, 3), (4, 5), (0, 6)))
    do(st, play("beg"), A_DISCARD + CARD["peek"], A_DISCARD + CARD["peek"])
    # Beg resolved: the window asks Litus (who passes), then Pedro
    assert st.current_player() == 1 and st.legal_actions() == [A_PASS]
    do(st, W(A_PASS))
    assert st.current_player() == 2 and st.engine.info()["phase"] == "instant reactions"
    assert st.legal_actions() == [A_PASS, play("chance")]
    assert "phase=instant reactions" in st.observation_string(2)
    assert "phase=Meddling" in st.observation_string(0)
    do(st, W(play("chance")), stone_action(0, 0), EXAMINE,    # Jiko's trap stone
       stone_action(2, 2))                                    # placed at the end
    e = st.engine
    assert e.lairs() == [[3], [4, 5], [0, 6, 1]]
    assert e.feathers() == [0, 0, 1, 6]                    # the trap costs Pedro a feather
    assert "p2 shows trap p2#2" in info(st, 0) and "p2 shows trap p2#2" in info(st, 1)
    assert st.current_player() == 0 and e.info()["phase"] == "Meddling"
    do(st, play("no_hard_feelings"), A_PLAYER + 1, stone_action(1, 0), EXAMINE,
       stone_action(0, 1), stone_action(1, 0), EXAMINE, stone_action(0, 2))
    assert e.lairs() == [[3, 4, 5], [], [0, 6, 1]]
    assert "p2 sees p0#1 is normal (raccoon)" in info(st, 2)
    assert "p2 sees p0#2 is normal (raccoon)" in info(st, 2)
    settle(st)
    assert st.current_player() == 0 and play("peek") in st.legal_actions()   # no cap on basics
    do(st, A_PASS)
    assert e.info()["holder"] == 1
    log = info(st, 1).split("\n")
    assert log.index("p2 plays Chance") < log.index("p0 plays No hard feelings")


def test_each_resolved_play_opens_a_window_in_seat_order():
    _, st = setup([PEEKS, ["glance"] + PEEKS[:4], ["pluck"] + PEEKS[:4]])
    seen = []
    for _ in range(2):                                     # two plays by the holder
        do(st, play("peek"), stone_action(0, 0))
        while st.current_player() != 0:
            seen.append(st.current_player())
            do(st, W(A_PASS))
    assert seen == [1, 2, 1, 2]
    do(st, play("peek"), stone_action(0, 1))
    do(st, W(play("glance")), stone_action(2, 0))          # p1 interrupts...
    assert "p1 sees p2#0 is NUGGET" in info(st, 1)
    assert st.current_player() == 2                        # ...and the window goes on
    do(st, W(A_PASS))
    assert st.current_player() == 0 and st.engine.info()["phase"] == "Meddling"
    do(st, A_PASS)                                         # the end opens no window
    assert st.engine.info()["holder"] == 1
    # the opening window (issue 26) and the two windows after the first plays
    assert info(st, 1).count("p1 plays no instant") == 3
    assert info(st, 2).count("p2 plays no instant") == 4


def test_sleeping_animals_get_no_window():
    _, st = setup([PEEKS, ["glance"] + PEEKS[:4], ["pluck"] + PEEKS[:4]],
                  tods=(NOON, MORNING, NIGHT))
    do(st, play("peek"), stone_action(0, 0))
    assert st.current_player() == 2                        # p1 sleeps: skipped


def _passes_private_pair():
    hands = ([PEEKS, ["glance"] + PEEKS[:4], PEEKS], [PEEKS, PEEKS, PEEKS])
    states = []
    for hand in hands:
        _, st = setup(list(hand))
        do(st, play("peek"), stone_action(0, 0))
        states.append(st)
    return states


def test_window_asks_every_animal_holding_cards():
    """A window asks every other awake animal holding cards, in seat order, and
    each answer is public, so being asked tells nobody who holds an instant."""
    with_instant, without = _passes_private_pair()
    assert with_instant.current_player() == 1 == without.current_player()
    assert without.legal_actions() == [A_PASS]
    assert play("glance") in with_instant.legal_actions()
    for st in (with_instant, without):
        do(st, W(A_PASS))
    for p in (0, 2):
        assert info(with_instant, p) == info(without, p)
        assert "p1 plays no instant (window)" in info(with_instant, p)
        assert with_instant.engine.py_info_key(p) == without.engine.py_info_key(p)
        assert with_instant.observation_string(p) == without.observation_string(p)
        assert with_instant.information_state_tensor(p) == \
            without.information_state_tensor(p)


def test_window_resampling_redeals_the_asked_hand():
    st, _ = _passes_private_pair()
    assert st.current_player() == 1
    instants = (CARD["glance"], CARD["chance"], CARD["pluck"])
    hands, no_instant = set(), 0
    for seed in range(30):                                 # p0 never saw p1's hand
        world = st.resample(0, seed)
        assert world.current_player() == 1 and info(world, 0) == info(st, 0)
        hands.add(tuple(world.engine.hand(1)))
        no_instant += not any(world.engine.hand(1)[k] for k in instants)
    assert len(hands) > 1 and no_instant > 0


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_card_actions_follow_the_hand(players):
    """Wherever a player may discard or react, the card actions offered are
    exactly those of the cards in hand (instant ones only in a reaction)."""
    from src_cy.gold_nugget.engine import LEAF_CATALOG
    from src_cy.rng import SplitMix64

    game = pyspiel.load_game(f"gold_nugget(players={players})")
    rng = SplitMix64(players)
    checked = set()
    for _ in range(6):
        st = game.new_initial_state()
        while not st.is_terminal():
            if st.is_chance_node():
                outcomes = st.chance_outcomes()
                st.apply_action(outcomes[rng.randint(len(outcomes))][0])
                continue
            e, cp = st.engine, st.current_player()
            phase, held = e.info()["phase"], [k for k, c in enumerate(e.hand(cp)) if c]
            legal = sorted(st.legal_actions())
            if phase in ("Hello! discard", "hand limit"):
                expect = ([A_PASS] if phase == "Hello! discard" else []) + \
                    [A_DISCARD + k for k in held]
                assert legal == sorted(expect)
                checked.add(phase)
            elif phase == "instant reactions":
                instant = [k for k in held if LEAF_CATALOG[k][3]]
                expect = [A_PASS] + [A_PLAY + k for k in instant] + \
                    [A_RECYCLE + k for k in instant if LEAF_CATALOG[k][4]]
                assert legal == sorted(expect)
                if instant:
                    checked.add(phase)
            st.apply_action(legal[rng.randint(len(legal))])
    assert checked >= {"Hello! discard", "instant reactions"}
