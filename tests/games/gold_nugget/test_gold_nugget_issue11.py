"""Gold Nugget rules corrections (issue 11, items 5-8): scripted scenarios
through the pyspiel API, each quoting the rulebook sentence it follows."""
from __future__ import annotations

from games.gold_nugget import A_OPT0, A_OPT1, A_PASS, A_PLAYER, A_RECYCLE, stone_action
from tests.games.gold_nugget.test_gold_nugget_rules import (AFTERNOON, CARD, NIGHT, NOON, PEEKS, W, do, info,
                                          pass_until, play, settle, setup)

EXAMINE, KEEP = A_OPT0, A_OPT1
GUST = 18


def test_no_cap_on_basic_cards():
    """"Each animal can play as many of these cards as it wants in their turn.\""""
    _, st = setup([["peek"] * 10] * 3, hand_size=10)
    settle(st)                                        # the opening window (issue 26)
    for i in range(10):                               # ten basic plays in one turn
        assert play("peek") in st.legal_actions()
        do(st, play("peek"), stone_action(1 + i % 2, 0))
        settle(st)
    assert sum(st.engine.hand(0)) == 0 and st.engine.info()["holder"] == 0
    assert st.legal_actions() == [A_PASS]


def test_nothing_after_the_feather_is_handed_over():
    """"From this moment on, no more cards can be played.\""""
    _, st = setup([PEEKS, ["glance"] + PEEKS[:4], PEEKS])
    do(st, play("peek"), stone_action(0, 0))
    assert st.current_player() == 1                   # a window after a resolved play
    do(st, W(A_PASS), W(A_PASS), A_PASS)              # p1 and p2 pass; p0 ends
    assert st.engine.info()["holder"] == 1
    # no closing window: the next window is p1's opening one (issue 26), from p2
    assert st.current_player() == 2
    log = info(st, 1).split("\n")
    end = log.index("p0 ends meddling")
    assert log[end + 1] == "white feather p0 -> p1"
    assert info(st, 1).count("p1 plays no instant") == 2   # p0's opening window, the play


def test_gust_recipients_may_examine():
    """"Every time an animal gets one or more stones in any way, they can examine them.\""""
    _, st = setup([PEEKS] * 3, tods=(NOON, AFTERNOON, NIGHT), wind_default=0,
                  wind_counts="gust:1")
    do(st, play("peek"), stone_action(0, 0), A_PASS)  # morning: p0 plays one card
    do(st, A_PASS)                                    # noon: p0 sleeps, p1 ends
    assert st.is_chance_node() and GUST in [o for o, _ in st.chance_outcomes()]
    do(st, GUST)                                      # afternoon Hello!: p0 draws Gust
    assert st.engine.lairs() == [[4, 0], [5, 3], [6, 1]]
    assert st.current_player() == 1 and st.legal_actions() == [EXAMINE, KEEP]
    do(st, KEEP)
    assert st.legal_actions() == [stone_action(1, 0), stone_action(1, 1)]   # then placed
    do(st, stone_action(1, 1))
    assert st.current_player() == 2
    do(st, EXAMINE, stone_action(2, 1))               # a trap: shown, a feather
    assert "p2 shows trap p2#1" in info(st, 0) and st.engine.feathers()[2] == 1
    assert st.current_player() == 0
    do(st, EXAMINE, stone_action(0, 0))
    assert "p0 sees p0#1 is NUGGET" in info(st, 0)
    assert st.engine.lairs() == [[0, 4], [5, 3], [6, 1]]
    assert st.is_chance_node()                        # p0 draws on to five cards


def test_loyal_friend_receivers_may_examine():
    _, st = setup([["loyal_friend"] + PEEKS[:4]] + [PEEKS] * 2)
    do(st, play("loyal_friend"), A_PLAYER + 1, A_PLAYER + 2, stone_action(1, 0),
       stone_action(2, 0))
    assert st.current_player() == 1 and st.legal_actions() == [EXAMINE, KEEP]
    assert "p1 receives a swapped stone at p1#0" in info(st, 1)
    assert "receives" not in info(st, 0)              # the player swapping sees the swap
    do(st, EXAMINE)
    assert "p1 sees p1#0 is NUGGET" in info(st, 1)
    assert st.current_player() == 2
    do(st, KEEP)
    assert "p2 does not examine" in info(st, 2)


def test_recycling_in_the_final_face_down_play():
    """"Whenever this card can be played, it can instead be discarded to steal 1
    stone from the nest" - the final face-down play included."""
    _, st = setup([PEEKS, ["chance"] + PEEKS[:4], PEEKS])
    pass_until(st, "Raven: face-down cards")
    assert st.current_player() == 1
    do(st, A_PASS)
    assert A_RECYCLE + CARD["peek"] in st.legal_actions()
    do(st, A_RECYCLE + CARD["peek"])
    assert "p2 plays a card face down" in info(st, 0)
    assert "face-down card Peek (to recycle)" in info(st, 2)
    assert "recycle" not in info(st, 0)
    do(st, A_PASS)                                    # p0
    assert "p2 reveals face-down and recycles Peek" in info(st, 0)
    assert st.is_chance_node()                        # a nest stone for p2
    before = len(st.engine.lairs()[2])
    do(st, 0, KEEP, stone_action(2, before))
    assert len(st.engine.lairs()[2]) == before + 1
    assert st.engine.info()["phase"] == "Raven: grab"
