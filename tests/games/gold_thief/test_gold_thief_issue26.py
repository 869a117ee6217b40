"""Gold Thief, issue 26: a theft's victim is not offered its Witch as an
extra Thief, and raids are not raided (``raid_raids`` restores the other
reading).  Scripted scenarios with exact outcomes."""
from __future__ import annotations

import pyspiel
import pytest

from tests.games.gold_thief.test_gold_thief import F, G, T, W, PASS, RAID, THIEF, W_EXTRA, deal, gold, play


def test_raid_victim_is_not_offered_its_witch_on_the_raid():
    """Assumption 7 (useless plays are not offered): P0's Witch "as an extra
    Thief" on P1's raid would take gold from P0 itself.  P0 is asked once,
    in its own Thief's window, and its Witch there repeats its Thief."""
    s = deal([0, 1], [[T, W, T], [T, T, T]])
    play(s, THIEF + 1, RAID)
    assert s.current_player() == 0 and s.legal_actions() == [PASS, W_EXTRA]
    play(s, W_EXTRA)
    # Thief P1 -> P0 2, P1's raid P0 -> P1 1, P0's Witch repeats the Thief: P1 -> P0 2
    assert gold(s) == [8, 2]
    assert s.engine.public_view()["phase"] == "play"


def test_thief_victim_is_not_offered_its_witch():
    s = deal([0, 1], [[T, T, T], [W, F, F]])
    play(s, THIEF + 1)
    assert gold(s) == [7, 3] and s.current_player() == 0
    assert s.engine.public_view()["phase"] == "play"   # P1 was never asked


def test_third_player_witch_still_offered():
    s = deal([0, 1, 2], [[T, T, T], [F, F, F], [W, F, F]])
    play(s, THIEF + 1)
    assert s.current_player() == 2 and s.legal_actions() == [PASS, W_EXTRA]
    play(s, W_EXTRA, PASS)                 # P1 lets P2's Witch stand (Faerie)
    assert gold(s) == [9, 1, 5]            # the Witch steals for the thief


def test_a_raid_cannot_be_raided():
    """"On someone else's turn, if they just played a Thief, play one of your
    own to raid": the raided Thief is the active player's; a raider is
    neither the active player nor pillaging.  P2 may raid P0's Thief only."""
    s = deal([0, 1, 2], [[T, T, T], [T, F, F], [T, F, F]])
    play(s, THIEF + 1, RAID)
    # P1's raid's window asks nobody (P2 may not raid it); the Thief's
    # window goes on with P2, who may raid the Thief
    assert s.current_player() == 2 and s.legal_actions() == [PASS, RAID]
    play(s, RAID)
    # Thief P1 -> P0 2; P1's raid P0 -> P1 1; P2's raid P0 -> P2 1
    assert gold(s) == [5, 4, 6]


def test_raid_raids_parameter_restores_raiding_raids():
    s = deal([0, 1, 2], [[T, T, T], [T, F, F], [T, F, F]], raid_raids=True)
    play(s, THIEF + 1, RAID)
    assert s.current_player() == 2 and s.legal_actions() == [PASS, RAID]
    play(s, RAID)                          # P2 raids P1's raid (then holds no Thief)
    # Thief P1 -> P0 2; P1's raid P0 -> P1 1; P2's raid P1 -> P2 1
    assert gold(s) == [6, 3, 6]


def test_raid_raids_parameter_is_validated():
    with pytest.raises(pyspiel.SpielError, match="raid_raids"):
        pyspiel.load_game("gold_thief", {"raid_raids": 2})
