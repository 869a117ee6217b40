"""Gold Thief rules corrections (issue 11): scripted rulebook scenarios."""
from __future__ import annotations

from tests.games.gold_thief.test_gold_thief import (F, G, T, W, F_CANCEL, G_CANCEL, GUARD, PASS, RAID, THIEF,
                                   W_EXTRA, deal, gold, play)


def test_thief_then_own_witch_steals_four():
    # "Witch: play anytime as an extra Thief after one has been played."
    s = deal([0, 1], [[T, W, T], [F, F, F]])
    play(s, THIEF + 1)
    # P1 holds no answer to a Thief; the thief is offered their own Witch
    assert s.current_player() == 0 and s.legal_actions() == [PASS, W_EXTRA]
    play(s, W_EXTRA)
    assert s.current_player() == 1 and s.legal_actions() == [PASS, F_CANCEL]
    play(s, PASS)
    assert gold(s) == [9, 1]
    assert s.engine.public_view()["phase"] == "play"


def test_thief_may_keep_own_witch():
    s = deal([0, 1], [[T, W, T], [F, F, F]])
    play(s, THIEF + 1, PASS)
    assert gold(s) == [7, 3] and sorted(s.engine.hand(0)) == [T, W]


def test_raider_may_add_own_witch_to_the_raid():
    s = deal([0, 1], [[T, T, T], [T, W, F]])
    play(s, THIEF + 1, RAID)
    # the raid's window: P0 (active) cannot raid it; then the raider P1 may add a Witch
    assert s.current_player() == 1 and s.legal_actions() == [PASS, W_EXTRA]
    play(s, W_EXTRA)
    # P1's Witch repeats the raid (1 gold from P0 to P1); order: theft, raid, Witch
    assert gold(s) == [5 + 2 - 1 - 1, 5 - 2 + 1 + 1]


def test_raid_resolves_after_the_theft_it_follows():
    # "raid and steal 1 gold from them while they're busy pillaging": P0 has
    # 0 gold when it plays its Thief; the raid takes 1 of the 2 it steals.
    s = deal([0, 1], [[G, T, T], [T, T, T]], start_gold=1)
    play(s, GUARD + 1)                        # P0 gives its only gold to P1
    assert gold(s) == [0, 2]
    play(s, THIEF + 1, RAID)
    assert gold(s) == [1, 1]
    assert s.current_player() == 0 and s.engine.public_view()["phase"] == "play"


def test_cancel_resolves_first_and_a_pending_raid_still_resolves():
    # P1 raids P0's Thief, then P2 cancels the Thief with a Guard: the cancel
    # resolves at once; the raid (its own card) still takes 1 from P0.
    s = deal([0, 1, 2], [[T, T, T], [T, F, F], [G, F, F]])
    play(s, THIEF + 1, RAID)
    assert s.current_player() == 2            # raid's window: P2 may cancel the raid
    play(s, PASS)
    assert s.current_player() == 2            # Thief's window continues with P2
    play(s, G_CANCEL)
    assert s.current_player() == 1 and s.legal_actions() == [PASS, F_CANCEL]
    play(s, PASS)                             # P1 lets the cancel stand
    assert gold(s) == [4, 6, 5]


def test_worked_example_order_of_answers():
    # docs/rules/gold_thief.md: P0 Thief on P1 (P0 has 0 gold, P1 2), P1 raids,
    # P2 raids the raid. Order: the Thief (P0 +2), P1's raid (P1 +1 from P0),
    # P2's raid (P2 +1 from P1).
    s = deal([0, 1, 2], [[G, T, T], [T, F, F], [T, F, F]], start_gold=1, raid_raids=True)
    play(s, GUARD + 1, PASS, PASS)            # P1, P2 could cancel with a Faerie
    assert gold(s) == [0, 2, 1] and s.current_player() == 0
    play(s, THIEF + 1, RAID, RAID)
    assert gold(s) == [1, 0, 2]
