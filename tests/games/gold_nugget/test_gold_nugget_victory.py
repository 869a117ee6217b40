"""Gold Nugget advanced mode: victory condition cards (issue 11, item 9).

"In advanced mode games, randomly deal one victory condition card to each
participant. Keep them secretly face down in your lair, and you can use them
as instructed on the card itself." / "During the game an animal can play their
card as if it were a normal leaf card, except during THE RAVEN HAS ARRIVED!"

Each card is a secret alternative victory condition that counts only once
played (revealed).  One scripted scenario per card through the pyspiel API:
a forced deal (chance outcomes chosen), the card played, the game played to
the end, and exactly who wins checked.  Default scenario position (3 players,
``setup``): p0 holds stones 3, 4 (normal), p1 1 (trap), 5, p2 0 (the Gold
Nugget), 6; at the final grab p1 holds the white feather, so the grab order
is p1, p2, p0.
"""
from __future__ import annotations

from pathlib import Path

import pyspiel
import pytest

from games import testing
from games.gold_nugget import A_OPT1, A_PASS, A_PLAYER, A_RECYCLE, A_VICTORY, stone_action
from src_cy.gold_nugget.engine import VC_CATALOG
from tests.games.gold_nugget.test_gold_nugget_rules import (CARD, KEEP, PEEKS, do, info, pass_until, play, settle,
                                          setup)
from tiers import slow_above_min_players

PACT, FOOL, HOARDER, CLEAN, DARE, DECOY = range(6)
NUGGET = stone_action(2, 0)             # p2#0 holds the Gold Nugget
P0_NORMAL, P1_TRAP, P1_NORMAL, P2_NORMAL = (stone_action(0, 0), stone_action(1, 0),
                                            stone_action(1, 1), stone_action(2, 1))


def grab(st, p1: int, p2: int, p0: int) -> None:
    """Play on to the final grab and grab in play order p1, p2, p0."""
    pass_until(st, "Raven: grab")
    assert st.current_player() == 1
    do(st, p1, p2, p0)
    assert st.is_terminal()


def test_catalog_has_six_victory_conditions() -> None:
    assert [c[0] for c in VC_CATALOG] == ["Raven's pact", "Fool's gold", "Hoarder",
                                          "Clean slate", "Daredevil", "Decoy"]


def test_card_is_secret_until_played_then_public() -> None:
    _, st = setup([PEEKS] * 3, advanced=True, vcs=(FOOL, PACT, DARE))
    assert "victory card Fool's gold" in info(st, 0)
    assert "Fool's gold" not in info(st, 1) and "Fool's gold" not in info(st, 2)
    assert "p0 is dealt a victory card" in info(st, 1)
    assert st.engine.player_view(1)["victory_played"] == [None, None, None]
    do(st, A_VICTORY)
    for p in range(3):
        assert "p0 plays victory card Fool's gold" in info(st, p)
        assert st.engine.player_view(p)["victory_played"] == ["Fool's gold", None, None]
        assert "victory cards played: p0 Fool's gold" in st.observation_string(p)
    settle(st)                                         # the play opened an instant window
    assert st.current_player() == 0 and A_PASS in st.legal_actions()
    assert A_VICTORY not in st.legal_actions()         # played once only


def test_resampling_redeals_hidden_cards_and_keeps_revealed_ones() -> None:
    _, st = setup([PEEKS] * 3, advanced=True, vcs=(FOOL, PACT, DARE))
    dealt = {tuple(st.resample(1, seed).engine.info()["vc"]) for seed in range(12)}
    assert all(vc[1] == PACT for vc in dealt)                  # p1's own card
    assert len({vc[0] for vc in dealt}) > 1                    # p0's is unknown to p1
    do(st, A_VICTORY)
    for seed in range(6):
        world = st.resample(1, seed)
        assert world.engine.info()["vc"][:2] == [FOOL, PACT]  # revealed: kept
        assert world.information_state_string(1) == info(st, 1)


def test_played_card_shows_in_the_observation_tensor() -> None:
    _, a = setup([PEEKS] * 3, advanced=True, vcs=(FOOL, PACT, DARE))
    _, b = setup([PEEKS] * 3, advanced=True, vcs=(HOARDER, PACT, DARE))
    assert a.observation_tensor(1) == b.observation_tensor(1)   # p1 cannot tell them apart
    do(a, A_VICTORY)
    do(b, A_VICTORY)
    assert a.observation_tensor(1) != b.observation_tensor(1)   # revealed: now it can


def test_played_only_by_the_holder_and_never_in_the_final() -> None:
    _, st = setup([PEEKS] * 3, advanced=True, vcs=(PACT, FOOL, DARE))
    settle(st)
    assert A_VICTORY in st.legal_actions()
    pass_until(st, "Raven: face-down cards")
    assert A_VICTORY not in st.legal_actions()
    assert "plays victory card" not in info(st, 0)


def test_raven_pact_wins_instead_of_the_raven() -> None:
    _, st = setup([PEEKS] * 3, advanced=True, vcs=(PACT, FOOL, DARE))
    do(st, A_VICTORY)
    grab(st, P0_NORMAL, P1_TRAP, P1_NORMAL)            # nobody grabs the nugget
    assert st.returns() == [1.0, 0.0, 0.0]
    assert "Raven's pact: p0 wins\nwinners: p0" in info(st, 2)


def test_unplayed_card_does_not_count() -> None:
    _, st = setup([PEEKS] * 3, advanced=True, vcs=(PACT, FOOL, DARE))
    grab(st, P0_NORMAL, P1_TRAP, P1_NORMAL)
    assert st.returns() == [0.0, 0.0, 0.0]             # the Raven wins


def test_raven_pact_does_nothing_when_an_animal_wins() -> None:
    _, st = setup([PEEKS] * 3, advanced=True, vcs=(PACT, FOOL, DARE))
    do(st, A_VICTORY)
    grab(st, NUGGET, P1_TRAP, P1_NORMAL)
    assert st.returns() == [0.0, 1.0, 0.0]


OWN_TRAP = ((1, 3), (4, 5), (0, 6))      # stones: p0#0 is a trap (p0 saw it at set-up)


def test_fools_gold_own_trap_counts_as_a_nugget() -> None:
    _, st = setup([PEEKS] * 3, advanced=True, vcs=(FOOL, PACT, DARE), utility="zero_sum",
                  stones=OWN_TRAP)
    assert "p0 sees p0#0 is trap" in info(st, 0) and "trap" not in info(st, 1)
    do(st, A_VICTORY)
    grab(st, NUGGET, P1_NORMAL, stone_action(0, 0))    # p1 the nugget, p0 its own trap
    assert st.returns() == pytest.approx([1 / 2 - 1 / 3, 1 / 2 - 1 / 3, -1 / 3])
    assert sum(st.returns()) == pytest.approx(0.0)
    assert "Fool's gold: p0 wins\nwinners: p0,p1" in info(st, 1)


def test_fools_gold_another_lairs_trap_does_not_count() -> None:
    _, st = setup([PEEKS] * 3, advanced=True, vcs=(FOOL, PACT, DARE))
    do(st, A_VICTORY)
    grab(st, NUGGET, P0_NORMAL, P1_TRAP)               # a trap, but from p1's lair
    assert st.returns() == [0.0, 1.0, 0.0]


def test_fools_gold_beats_the_raven_so_the_pact_does_not_apply() -> None:
    _, st = setup([PEEKS] * 3, advanced=True, vcs=(FOOL, PACT, DARE), stones=OWN_TRAP)
    do(st, A_VICTORY, A_PASS)                          # p0 reveals Fool's gold, ends
    settle(st)
    assert st.current_player() == 1                    # noon: p1 holds the feather
    do(st, A_VICTORY)                                  # p1 reveals Raven's pact
    grab(st, P1_NORMAL, P2_NORMAL, stone_action(0, 0))  # the nugget stays: p0 its trap
    assert st.returns() == [1.0, 0.0, 0.0]


@pytest.mark.parametrize("dive, expected", [(True, [1.0, 1.0, 0.0]), (False, [0.0, 1.0, 0.0])],
                         ids=["most-stones", "tie"])
def test_hoarder_most_stones_at_the_grab(dive: bool, expected: list) -> None:
    _, st = setup([["nest_dive"] + PEEKS[:4]] + [PEEKS] * 2, advanced=True,
                  vcs=(HOARDER, PACT, DARE))
    do(st, A_VICTORY)
    if dive:
        do(st, play("nest_dive"), 0, KEEP, stone_action(0, 2), 0, KEEP,
           stone_action(0, 3))                        # p0: 4 stones, the others 2
    grab(st, NUGGET, P0_NORMAL, P1_TRAP)              # grabbing from a lair counts as held
    assert st.returns() == expected
    assert ("Hoarder: p0 wins" in info(st, 1)) == dive


@pytest.mark.parametrize("feathers, expected", [(2, [1.0, 0.0, 0.0]), (0, [0.0, 1.0, 0.0])])
def test_clean_slate_wins_instead_of_a_feathered_grabber(feathers: int,
                                                         expected: list) -> None:
    _, st = setup([["suspicion"] + PEEKS[:4]] + [PEEKS] * 2, advanced=True,
                  vcs=(CLEAN, PACT, DARE))
    do(st, A_VICTORY)
    if feathers:
        do(st, play("suspicion"), A_PLAYER + 1, A_OPT1)   # p1 takes two feathers
    assert st.engine.feathers()[:3] == [0, feathers, 0]
    grab(st, NUGGET, P0_NORMAL, P1_TRAP)                  # p1 grabs the nugget
    assert st.returns() == expected
    assert ("Clean slate: p0 wins instead of p1" in info(st, 2)) == bool(feathers)


@pytest.mark.parametrize("peeks, expected", [(2, [1.0, 1.0, 0.0]), (1, [0.0, 1.0, 0.0])])
def test_daredevil_two_feathers_at_the_end(peeks: int, expected: list) -> None:
    _, st = setup([PEEKS] * 3, advanced=True, vcs=(DARE, PACT, FOOL))
    do(st, A_VICTORY)
    for _ in range(peeks):                               # each look at p1's trap: a feather
        do(st, play("peek"), P1_TRAP)
    assert st.engine.feathers()[0] == peeks
    grab(st, NUGGET, P0_NORMAL, P1_TRAP)
    assert st.returns() == expected


@pytest.mark.parametrize("grabs, expected", [
    ((stone_action(0, 0), P0_NORMAL, P1_TRAP), [1.0, 1.0, 0.0]),   # p1 takes it from p0
    ((P1_NORMAL, P1_TRAP, stone_action(0, 0)), [1.0, 0.0, 0.0]),   # p0 grabs its own
])
def test_decoy_wins_with_whoever_grabs_the_nugget_from_its_lair(grabs, expected) -> None:
    _, st = setup([PEEKS] * 3, advanced=True, vcs=(DECOY, PACT, FOOL),
                  stones=((0, 6), (1, 5), (3, 4)))          # the nugget in p0's lair
    do(st, A_VICTORY)
    grab(st, *grabs)
    assert st.returns() == expected
    assert ("Decoy: p0 wins" in info(st, 2)) == (expected[1] == 1.0)


def test_a_holder_caught_in_the_final_round_does_not_win() -> None:
    _, st = setup([["suspicion", "suspicion", "peek", "peek", "peek"]] + [PEEKS] * 2,
                  advanced=True, vcs=(FOOL, PACT, DARE))
    do(st, play("suspicion"), A_PLAYER + 1, A_OPT1, A_PASS)   # p1: two feathers
    do(st, A_VICTORY)                                          # noon: p1 reveals its pact
    pass_until(st, "Raven: face-down cards")
    do(st, A_PASS, A_PASS, play("suspicion"), A_PLAYER + 1, A_OPT1)
    assert st.engine.info()["elim"] == [0, 1, 0]
    do(st, P2_NORMAL, stone_action(0, 0))                      # p2, p0: no nugget
    assert st.is_terminal() and st.returns() == [0.0, 0.0, 0.0]


# ---------------------------------------------------------------- the heuristic bot
def _bot(game):
    from games.gold_nugget.ai import GoldNuggetHeuristicBot
    return GoldNuggetHeuristicBot(game)


def test_heuristic_reveals_the_pact_at_once_but_waits_with_hoarder() -> None:
    game, st = setup([PEEKS] * 3, advanced=True, vcs=(PACT, FOOL, DARE), days=2)
    settle(st)
    assert _bot(game).step(st) == A_VICTORY
    game, st = setup([PEEKS] * 3, advanced=True, vcs=(HOARDER, FOOL, DARE), days=2)
    settle(st)
    # 2 stones each, not the most yet: it gathers stones (recycles a Peek) instead
    assert _bot(game).step(st) == A_RECYCLE + CARD["peek"]


def test_heuristic_with_fools_gold_grabs_its_own_trap() -> None:
    game, st = setup([PEEKS] * 3, advanced=True, vcs=(FOOL, PACT, DARE), stones=OWN_TRAP,
                     days=2)
    settle(st)
    bot = _bot(game)
    assert bot.step(st) == A_VICTORY                  # a trap of its own: ready
    do(st, A_VICTORY)
    pass_until(st, "Raven: grab")
    while not st.is_terminal():                       # p1, p2 grab normal stones
        p = st.current_player()
        if p == 0:
            assert bot.step(st) == stone_action(0, 0)
        do(st, (stone_action(0, 0), P1_NORMAL, P2_NORMAL)[p])
    assert st.returns() == [1.0, 0.0, 0.0]


# ---------------------------------------------------------------- conformance
# (3 and 5 advanced players are in tests/games/gold_nugget/test_gold_nugget.py and
# tests/games/gold_nugget/test_gold_nugget_information.py; these complete 2-5.)
@pytest.mark.conformance
@pytest.mark.slow
@pytest.mark.parametrize("params", [
    {"players": 2, "advanced": True}, {"players": 4, "advanced": True, "utility": "zero_sum"},
], ids=["p2-advanced", "p4-advanced-zero_sum"])
def test_conformance_advanced(params: dict) -> None:
    game = pyspiel.load_game("gold_nugget", params)
    assert testing.check_game(game, invariant=lambda s: s.engine.check_invariants(),
                              num_sims=1, num_games=1, small=True) > 0


@pytest.mark.conformance
@pytest.mark.parametrize("players", slow_above_min_players("gold_nugget", [2, 3, 4]))
def test_information_contract_advanced(players: int) -> None:
    game = pyspiel.load_game("gold_nugget", {"players": players, "advanced": True})
    assert testing.check_information_contract(game, num_games=1, seed=7, draws=1,
                                              continue_steps=10, every=5 * players) > 0


def test_openspiel_algorithms_advanced() -> None:
    testing.check_openspiel_algorithms(
        pyspiel.load_game("gold_nugget", {"players": 3, "advanced": True}), positions=2,
        max_simulations=30)


@pytest.mark.slow
def test_golden_playthrough_advanced() -> None:
    """2 players, one day, advanced mode, in the digest format (every string
    and tensor of every state as a SHA-256 digest): p1 reveals Raven's pact
    and wins when nobody grabs the nugget.  Written from its recorded
    actions by ``games.testing.digest_playthrough_text``."""
    import re
    path = Path(__file__).parent / "playthroughs" / "gold_nugget_advanced.txt"
    text = path.read_text()
    game = pyspiel.load_game(re.search(r"^game: (.*)$", text, re.M).group(1))
    state = game.new_initial_state()
    for a in re.findall(r"^action: (-?\d+)$", text, re.M):
        state.apply_action(int(a))
    assert state.is_terminal()
    assert state.information_state_string(0).endswith("Raven's pact: p1 wins\nwinners: p1")
    testing.check_playthrough(str(path))
