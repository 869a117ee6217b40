"""Ardillas del Bosque: conformance, rule scenarios, properties, parameters."""
from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from hypothesis import given, settings, strategies as st

import games.ardillas_del_bosque as A
from games import testing
from games.testing import random_action
from games._adapter import ParameterError
from tiers import slow_above_min_players

# action layout: the Python mirror in games/ardillas_del_bosque/__init__.py (checked
# against the engine's ACTION_LAYOUT below)
TAKE, KEEP, NPLACE, INDEX, PAIR, NEST, POO_MOVE, SNAKE_UP, SNAKE_DOWN = (
    A.A_TAKE, A.A_KEEP, A.A_NPLACE, A.A_INDEX, A.A_PAIR, A.A_NEST, A.A_BEETLE,
    A.A_SNAKE_UP, A.A_SNAKE_DOWN)
WALNUT, SQUIRREL, POO = 0, A.SQUIRREL, A.POO
PLAYTHROUGH = Path(__file__).parent / "playthroughs" / "ardillas_del_bosque.txt"
PLAYTHROUGH_GAME = "ardillas_del_bosque(hiding_places=1,nuts=2)"


def load(**params) -> pyspiel.Game:
    return pyspiel.load_game("ardillas_del_bosque", params)


def invariant(state: pyspiel.State) -> None:
    state.engine.check_invariants()


def play(game: pyspiel.Game, actions: list[int]) -> pyspiel.State:
    state = game.new_initial_state()
    for a in actions:
        state.apply_action(a)
        state.engine.check_invariants()
    return state


def board(state: pyspiel.State) -> dict[str, list[str]]:
    """Parse render(): hiding place / nest name -> tokens (pile top first)."""
    out = {}
    for line in str(state).split("\n")[1:]:
        name, _, rest = line.partition(": ")
        out[name.split("(")[0].replace(" [out]", "")] = rest.split()
    return out


# --------------------------------------------------------------- conformance
CONFIGS = [
    A.MINI_PARAMS,
    {"players": 2}, {"players": 3}, {"players": 4}, {"players": 5},
    {"players": 2, "side": "night"}, {"players": 4, "side": "night"},
    {"players": 5, "side": "night"},
    {"players": 3, "little_squirrels": True},
    {"players": 2, "side": "night", "little_squirrels": True},
    pytest.param({"players": 2, "sleepyheads": 3}, marks=pytest.mark.slow),  # > 5 s of CPU
    {"players": 3, "sleepyheads": 2, "side": "night"},
    {"players": 2, "boards": "golden_eagle+lizard"},
    {"players": 3, "side": "night", "boards": "snake+wild_boar+fox"},
] + [{"players": 3, "king": k, "side": "night" if i >= 5 else "day"}
     for i, k in enumerate(A.KINGS[1:])]


@pytest.mark.conformance
@pytest.mark.parametrize("params", slow_above_min_players("ardillas_del_bosque", CONFIGS), ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()))
def test_conformance(params):
    game = load(**params)
    varied = testing.check_game(game, invariant=invariant, num_sims=2, num_games=4)
    assert varied > 0, "resampling never re-dealt hidden token faces"


def test_resampled_worlds_keep_what_the_player_knows():
    game = load(players=3, side="night")

    def consistent(true, world, p):
        seen = [t for t in board(true).values() for t in t]
        kn = {t.split(":")[0]: t for t in seen}
        for line_true, line_world in zip(true.observation_string(p).split("\n"),
                                         world.observation_string(p).split("\n")):
            assert line_true == line_world
        assert sorted(kn) == sorted(t.split(":")[0] for t in board(world).values() for t in t)

    assert testing.check_resampling(game, num_games=2, consistent=consistent) > 0


# --------------------------------------------------------------- scenarios
# Mini woods: h0 on board 0 (Bear by day), h1 on board 1 (Lynx by day).
# p0 hides walnut h1, poo h0, squirrel h1; p1 hides walnut h0, poo h1, squirrel h0.
# The set-up draws the boards first (board 0: pair 0 Bear/Wild Boar; board 1:
# pair 1 Lynx/Fox); with a King no board is drawn.
BOARDS = [0, 1]
MINI_SETUP = [WALNUT, 1, WALNUT, 0, POO, 0, POO, 1, SQUIRREL, 1, SQUIRREL, 0]


def test_day_autumn_draw_is_private_and_sleepyhead_boards_closed():
    game = load(players=2, sleepyheads=1, nuts=1)
    state = play(game, [0, 1, 2])  # boards: Bear, Lynx, Golden Eagle
    for _ in range(3):  # sleepyhead tokens dealt by chance
        assert state.is_chance_node()
        state.apply_action(state.chance_outcomes()[0][0])
    state.apply_action(POO)
    assert state.legal_actions() == [0, 1, 2, 3]  # board 2 (h4, h5) is closed
    assert "p0#0:poo" in state.information_state_string(0)
    assert "p0#0:poo" not in state.information_state_string(1)
    # the lowest outcome each time: walnut, squirrel, poo; split 2 + 1
    assert board(state)["h4"] == ["z0#1:squirrel", "z0#0:walnut"]
    assert board(state)["h5"] == ["z0#2:poo"]


def test_bear_flips_a_pile_and_draws():
    state = play(load(**A.MINI_PARAMS), BOARDS + MINI_SETUP + [0])  # p0 draws p1's squirrel from h0
    assert "p0 wakes bear" in state.information_state_string(1)
    state.apply_action(1)  # flip h1: its bottom walnut is now on top, face up
    assert board(state)["h1"] == ["p0#0:walnut^", "p1#1:poo^", "p0#2:squirrel^"]
    assert "top of h1 shows p0#0:walnut" in state.information_state_string(1)
    state.apply_action(1)
    assert board(state)["nest p0"] == ["p1#2:squirrel", "p0#0:walnut"]
    assert state.current_player() == 1


def test_lynx_looks_privately_and_keeps_order():
    state = play(load(**A.MINI_PARAMS), BOARDS + MINI_SETUP + [1])  # p0's squirrel from h1: Lynx
    state.apply_action(0)  # look through h0
    assert "sees h0[1] = p0#1:poo" in state.information_state_string(0)
    assert "p1 hand=0" in state.information_state_string(1)
    assert "p0#1:poo" not in state.information_state_string(1)
    state.apply_action(INDEX + 1)  # take the middle token (p0's poo)
    assert board(state)["h0"] == ["p1#2:squirrel", "p1#0:walnut"]
    assert state.current_player() == 1


def test_squirrel_chain_continues_the_turn():
    state = play(load(**A.MINI_PARAMS), BOARDS + MINI_SETUP + [1, 0, INDEX + 0])
    # Lynx took p1's squirrel from board 0: now the Bear acts, same player
    assert state.current_player() == 0
    assert "p0 wakes bear (board 0)" in state.information_state_string(0)


def test_only_squirrels_left_turn_is_incomplete():
    # all six tokens in h0, squirrels on top; p0 draws them until the woods run out
    game = load(**A.MINI_PARAMS, king="bear")
    setup = [WALNUT, 1, WALNUT, 1, POO, 1, POO, 1, SQUIRREL, 0, SQUIRREL, 0]
    state = play(game, setup + [1, 0])  # p0 draws p1's poo; p1 draws p1's squirrel
    state.apply_action(1)   # bear flips h1: p0 walnut on top
    state.apply_action(1)   # p1 takes the walnut
    state.apply_action(1)   # p0 draws h1 top: p1's walnut (flipped pile)
    state.apply_action(1)   # p1 draws p0's poo
    assert board(state)["h1"] == [] and board(state)["h0"] == ["p0#2:squirrel"]
    state.apply_action(0)   # p0 draws the last token, a squirrel: nothing left
    assert state.is_terminal()


def test_golden_eagle_token_hidden_until_end():
    state = play(load(**A.MINI_PARAMS, king="golden_eagle"), MINI_SETUP + [0, 1])
    assert "p0 eagle-draws p0#2:squirrel" in state.information_state_string(0)
    assert "p0 eagle-draws p0#2 from" in state.information_state_string(1)
    assert board(state)["nest p0"][-1] == "p0#2:squirrel(down)"
    assert state.current_player() == 1  # an eagle-drawn squirrel wakes no animal


def test_ant_walks_the_nest_and_must_take_the_bottom():
    state = play(load(**A.MINI_PARAMS, king="ant"), MINI_SETUP + [0, 1])
    assert "p0 peeks p0#2:squirrel" in state.information_state_string(0)
    assert state.legal_actions() == [0, TAKE]
    state.apply_action(0)  # leave it on h0, next token of h1
    state.apply_action(0)  # leave p1's poo on h0
    assert state.legal_actions() == [TAKE]  # bottom of the ant's nest
    state.apply_action(TAKE)
    assert board(state)["nest p0"] == ["p1#2:squirrel", "p0#0:walnut"]
    assert board(state)["h0"][:2] == ["p1#1:poo", "p0#2:squirrel"]


def test_lizard_splits_a_lone_pile():
    game = load(**A.MINI_PARAMS, king="lizard")
    setup = [WALNUT, 0, WALNUT, 0, POO, 0, POO, 0, SQUIRREL, 0, SQUIRREL, 0]
    state = play(game, setup + [0])  # p1's squirrel; only h0 holds tokens
    assert state.legal_actions() == [1]  # the split goes to the empty place
    state.apply_action(1)
    assert state.legal_actions() == [INDEX + k for k in range(1, 5)]
    state.apply_action(INDEX + 2)  # top two (p0 squirrel, p1 poo) go to h1
    assert board(state)["h1"] == ["p0#2:squirrel^", "p1#1:poo"]
    assert board(state)["h0"][0] == "p0#1:poo^"
    state.apply_action(0)  # take p0's poo from h0
    assert state.current_player() == 1


def test_lizard_flips_two_tops():
    state = play(load(**A.MINI_PARAMS, king="lizard"), MINI_SETUP + [0])
    assert state.legal_actions() == [PAIR + 1]
    state.apply_action(PAIR + 1)
    assert state.legal_actions() == [0, 1]
    state.apply_action(0)  # p0's poo, the h1 squirrel stays face up
    assert board(state)["h1"][0] == "p0#2:squirrel^"


# Night mini: p0 keeps walnut, p1 keeps walnut; p0 hides squirrel h0, p1 poo h0,
# p0 poo h1, p1 squirrel h0.
NIGHT = dict(A.MINI_PARAMS, side="night")
NIGHT_SETUP = [KEEP + WALNUT, KEEP + WALNUT, NPLACE + 50, NPLACE + 60, NPLACE + 61, NPLACE + 50]


def test_night_keep_is_secret():
    state = play(load(**NIGHT), BOARDS + NIGHT_SETUP[:1])
    assert "p0 keeps p0#0:walnut" in state.information_state_string(0)
    assert "p0 keeps p0#0\n" in state.information_state_string(1) + "\n"


def test_wild_boar_reorders_and_flips():
    state = play(load(**NIGHT, king="wild_boar"), NIGHT_SETUP + [0])
    state.apply_action(0)  # look through h0: top-first [p1 poo, p0 squirrel]
    state.apply_action(INDEX + 1)  # p0's squirrel goes on top, then the poo
    assert board(state)["h0"] == ["p0#1:squirrel^", "p1#1:poo^"]
    assert "top of h0 shows p0#1:squirrel" in state.information_state_string(1)
    assert state.current_player() == 1


def test_fox_steals_a_hidden_token():
    state = play(load(**NIGHT, king="fox"), NIGHT_SETUP + [0])
    assert state.legal_actions() == [NEST + 12 + 7]  # p1's kept token only
    state.apply_action(NEST + 12 + 7)
    assert "fox takes p1#0:walnut" in state.information_state_string(0)
    assert board(state)["nest p0"][-1] == "p1#0:walnut(down)"


def test_owl_removes_from_a_nest():
    state = play(load(**NIGHT, king="owl"), NIGHT_SETUP + [0])
    state.apply_action(NEST + 12 + 7)
    assert board(state)["nest p1"] == []
    assert "owl removes p1#0 from p1" in state.information_state_string(0)


def test_dung_beetle_moves_a_visible_poo():
    state = play(load(**NIGHT, king="dung_beetle"), NIGHT_SETUP + [1, 0])
    # p0 drew its poo; p1 drew its squirrel: the poo may go p0 -> p1 only
    assert state.legal_actions() == [POO_MOVE + 1]
    state.apply_action(POO_MOVE + 1)
    assert "p0#2:poo" in board(state)["nest p1"]


def test_snake_costs_a_nut_or_the_game():
    state = play(load(**NIGHT, king="snake"), NIGHT_SETUP + [0])
    assert state.legal_actions() == [SNAKE_DOWN]  # only the kept walnut
    state.apply_action(SNAKE_DOWN)
    assert "p0 throws p0#0:walnut" in state.information_state_string(1)
    # p0 kept a poo instead: no nut, p0 leaves the woods and p1 wins
    setup = [KEEP + POO, KEEP + WALNUT, NPLACE + 50, NPLACE + 60, NPLACE + 1, NPLACE + 50]
    state = play(load(**NIGHT, king="snake"), setup + [0])
    assert state.is_terminal() and state.returns() == [-1.0, 1.0]


def test_poo_removes_nut_and_tie_goes_to_last_player():
    game = load(**A.MINI_PARAMS)
    # h0: p0 squirrel, p1 squirrel, p1 poo (top); h1: p0 walnut, p1 walnut, p0 poo (top)
    setup = [SQUIRREL, 0, SQUIRREL, 0, WALNUT, 1, WALNUT, 1, POO, 1, POO, 0]
    state = play(game, BOARDS + setup + [1, 0, 1, 1])  # poo, poo, then a walnut each
    assert board(state)["nest p0"] == ["p0#2:poo", "p1#1:walnut"]
    assert board(state)["nest p1"] == ["p1#2:poo", "p0#1:walnut"]
    state.apply_action(0)  # p0: p1's squirrel from board 0 wakes the Bear
    state.apply_action(0)  # flip h0 (one squirrel left)
    state.apply_action(0)  # draw it: a squirrel again, but the woods are empty
    assert state.is_terminal()
    # each poo removes the walnut: both have no nuts, a tie on every group;
    # p0 played last, so p0 wins
    assert state.returns() == [1.0, -1.0]


def test_tie_on_groups_last_player_wins():
    game = load(players=2, nuts=2, hiding_places=1)
    rng = random.Random(7)
    checked = 0
    for _ in range(200):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        groups = [_groups(board(state)[f"nest p{p}"]) for p in range(2)]
        r = state.returns()
        if groups[0] != groups[1]:
            assert r[0] == (1.0 if groups[0] > groups[1] else -1.0)
        else:
            checked += 1
            assert r in ([1.0, -1.0], [-1.0, 1.0])
    assert checked > 0


def _groups(tokens: list[str]) -> list[int]:
    kinds = [t.split(":")[1].replace("(down)", "") for t in tokens]
    counts = sorted((kinds.count(k) for k in set(kinds) if k not in ("squirrel", "poo")),
                    reverse=True)
    for _ in range(kinds.count("poo")):
        for i in range(len(counts) - 1, -1, -1):
            if counts[i] > 0:
                counts[i] -= 1
                break
    return [c for c in counts if c > 0]


def test_little_squirrels_most_nuts_ties_all_win():
    game = load(players=3, little_squirrels=True, nuts=1, hiding_places=1)
    setup = [WALNUT, 0, WALNUT, 1, WALNUT, 2, POO, 0, POO, 1, POO, 2]
    state = play(game, setup)
    assert "squirrel" not in str(state)
    state = play(game, setup + [0, 1, 2, 0, 1, 2])  # everyone takes own poo then walnut
    assert state.is_terminal() and state.returns() == [0.0, 0.0, 0.0]
    state = play(game, setup + [0, 0, 1, 2, 1, 2])  # p1 gets p0's walnut
    # p0: poo; p1: walnut, walnut-poo... counts: p0 0, p1 1, p2 0 -> p1 alone wins
    nuts = [sum(":walnut" in t for t in board(state)[f"nest p{p}"])
            - sum(":poo" in t for t in board(state)[f"nest p{p}"]) for p in range(3)]
    best = max(nuts)
    winners = [p for p in range(3) if nuts[p] == best]
    expect = [1.0 / len(winners) if p in winners else -1.0 / (3 - len(winners)) for p in range(3)]
    assert state.returns() == pytest.approx(expect)


def test_sleepyheads_at_night_lose_one_token_unseen():
    game = load(players=2, sleepyheads=1, side="night", nuts=1)
    state = play(game, [0, 1, 2])
    for _ in range(3):
        state.apply_action(state.chance_outcomes()[0][0])
    b = board(state)
    assert len(b["h4"]) + len(b["h5"]) == 2
    assert "removed unseen" in state.information_state_string(0)


# --------------------------------------------------------------- properties
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 5),
       night=st.booleans(), king=st.integers(0, 10))
def test_token_conservation_random_play(seed, players, night, king):
    king_name = A.KINGS[king]
    if king > 0:
        night = king > 5
    game = load(players=players, side="night" if night else "day", king=king_name)
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(random_action(state, rng))
        state.engine.check_invariants()
        assert len(state.history()) <= game.max_game_length()
    r = state.returns()
    assert sum(r) == pytest.approx(0.0)
    assert max(r) == pytest.approx(1.0) or r == [0.0] * players


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_engine_direct_playouts_match_zero_sum(seed):
    from src_cy.engine import random_playouts
    total = random_playouts(load(players=3).make_engine(), 50, seed)
    assert total.sum() == pytest.approx(0.0)


def test_snapshot_refuses_garbage():
    engine = load().make_engine()
    data = engine.dump()
    for bad in (b"", b"garbage", data[:-1], data[:4] + b"\x09" + data[5:]):
        with pytest.raises(ValueError):
            engine.load(bad)
    other = load(players=3).make_engine()
    with pytest.raises(ValueError):
        other.load(data)


# --------------------------------------------------------------- parameters
@pytest.mark.parametrize("params,name", [
    ({"players": 1}, "players"), ({"players": 6}, "players"),
    ({"side": "dusk"}, "side"), ({"king": "wolf"}, "king"),
    ({"king": "fox"}, "side"), ({"side": "night", "king": "bear"}, "side"),
    ({"players": 4, "sleepyheads": 1}, "sleepyheads"),
    ({"players": 3, "sleepyheads": 3}, "sleepyheads"),
    ({"hiding_places": 3}, "hiding_places"), ({"nuts": 0}, "nuts"),
    ({"boards": "bear"}, "boards"), ({"boards": "bear+wild_boar"}, "boards"),
    ({"boards": "bear+wolf"}, "boards"), ({"boards": 3}, "boards"), ({"little_squirrels": 1}, "little_squirrels"),
])
def test_bad_parameters_refused(params, name):
    with pytest.raises((ParameterError, pyspiel.SpielError)) as exc:
        load(**params)
    assert name in str(exc.value)


# --------------------------------------------------------------- playthrough
def _playthrough() -> str:
    from open_spiel.python.algorithms import generate_playthrough
    return generate_playthrough.playthrough(PLAYTHROUGH_GAME, None, alsologtostdout=False, seed=3)


def test_golden_playthrough():
    assert PLAYTHROUGH.read_text() == _playthrough()


def test_tensors_identical_in_resampled_worlds():
    game = load(players=3, sleepyheads=1)
    for state in testing.random_states(game, 2, 11, every=6):
        if state.is_terminal() or state.is_chance_node():
            continue
        for p in range(3):
            t = np.asarray(state.observation_tensor(p))
            for d in range(3):
                w = state.resample(p, d)
                assert np.array_equal(np.asarray(w.observation_tensor(p)), t)


def test_observation_shows_the_token_being_hidden_to_its_owner_only():
    game = pyspiel.load_game("ardillas_del_bosque", {"players": 2})
    state = play(game, BOARDS)
    outcome = state.chance_outcomes()[0][0]
    state.apply_action(outcome)
    assert state.current_player() == 0
    mine = state.observation_string(0).split("\n")[0]
    theirs = state.observation_string(1).split("\n")[0]
    assert "holding=p0#" in mine and not mine.endswith(":?")
    assert "holding" not in theirs


@pytest.mark.slow
def test_golden_playthrough_default_configuration():
    testing.check_playthrough(str(Path(__file__).parent / "playthroughs"
                                  / "ardillas_del_bosque_default.txt"))


def test_python_action_constants_mirror_the_pxd_layout():
    from src_cy.ardillas_del_bosque.engine import ACTION_LAYOUT
    assert ACTION_LAYOUT == {name: getattr(A, name) for name in ACTION_LAYOUT}
    assert len(ACTION_LAYOUT) == 16
    mirror = {name for name in dir(A) if name.startswith("A_")}
    assert mirror == {name for name in ACTION_LAYOUT if name.startswith("A_")}


def test_action_layout_matches_the_engine_names():
    e = load(players=3).new_initial_state().engine
    assert e.action_to_string(0, A.A_PILE + 4) == "pile h4"
    assert e.action_to_string(0, A.A_TAKE) == "ant: take"
    assert e.action_to_string(0, A.A_KEEP + A.POO) == "keep poo"
    assert e.action_to_string(0, A.A_NPLACE + 10 * A.SQUIRREL + 3) == "place squirrel on h3"
    assert e.action_to_string(0, A.A_INDEX + 2) == "index 2"
    assert e.action_to_string(0, A.A_PAIR + 10 * 1 + 4) == "lizard flip h1+h4"
    assert e.action_to_string(0, A.A_NEST + 12 * 2 + 8) == "nest p2: hidden#1"
    assert e.action_to_string(0, A.A_BEETLE + 5 * 1 + 0) == "poo p1->p0"
    assert e.action_to_string(0, A.A_SNAKE_UP + 3) == "snake: throw peanut"
    assert e.action_to_string(0, A.A_SNAKE_DOWN + 4) == "snake: throw hidden#4"
    assert e.action_to_string(0, A.NUM_ACTIONS) == f"action {A.NUM_ACTIONS}"
    assert load().num_distinct_actions() == A.NUM_ACTIONS


def test_engine_takes_shared_parameters_and_refuses_bad_ones():
    from src_cy.ardillas_del_bosque.engine import ArdillasEngine, ArdillasParams
    good = {"players": 3, "sleepyheads": 0, "hiding_places": 2, "night": False, "king": -1,
            "little_squirrels": False, "nuts": 5, "boards": (), "max_len": 200}
    shared = ArdillasParams(good)
    a = ArdillasEngine(shared, game_string="x")
    b = ArdillasEngine(good)
    assert a.params is shared and b.params is not shared
    assert a.num_players == b.num_players == 3 and a.game_string == "x"
    game = load(players=3)
    s1, s2 = game.new_initial_state(), game.new_initial_state()
    assert s1.engine.params is s2.engine.params          # one object per game
    assert s1.clone().engine.params is s1.engine.params  # clones share it too
    for name, value in [("players", 1), ("players", 6), ("hiding_places", 4), ("nuts", 0),
                        ("king", 10), ("max_len", 0), ("boards", (0, 0, 1)),
                        ("boards", (0, 1)), ("players", True)]:
        with pytest.raises(ValueError, match=name):
            ArdillasParams({**good, name: value})
    with pytest.raises(ValueError, match="missing"):
        ArdillasParams({k: v for k, v in good.items() if k != "nuts"})
    with pytest.raises(ValueError, match="unknown"):
        ArdillasParams({**good, "colour": 1})
