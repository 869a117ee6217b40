"""Every engine's ``load`` refuses truncated, corrupted and foreign snapshots.

A refused snapshot raises ``ValueError`` and leaves the engine as it was; an
accepted one (a corruption can happen to spell another legal history) must be
a real state that replays from its own history.
"""
import pyspiel
import pytest

import games  # noqa: F401
from games.testing import random_states
from src_cy.rng import SplitMix64

pytestmark = pytest.mark.conformance

GAMES = ("gold_thief", "saboteur(players=3)", "ardillas_del_bosque", "gold_nugget",
         "kuhn_poker", "leduc_poker")


def _engine_state(game_string: str):
    """A mid-game engine of ``game_string`` (OpenSpiel's pokers: src_cy.poker.engine)."""
    game = pyspiel.load_game(game_string)
    states = [s for s in random_states(game, 1, 3) if not s.is_terminal()]
    state = states[len(states) // 2]
    if hasattr(state, "engine"):
        return state.engine
    from src_cy.poker.engine import KuhnEngine, LeducEngine
    engine = (KuhnEngine if game_string == "kuhn_poker" else LeducEngine)({"players": 2})
    for a in state.history():
        engine.py_apply(a)
    return engine


def _bad_variants(data: bytes, seed: int) -> list[bytes]:
    rng = SplitMix64(seed)
    out = [b"", data[:1], data[:len(data) // 2], data[:-1], data + b"\x00", data + b"\x07\x07",
           bytes(len(data)), bytes(rng.randint(256) for _ in range(len(data)))]
    out += [data[:rng.randint(len(data))] for _ in range(10)]
    for _ in range(30):
        bad = bytearray(data)
        i = rng.randint(len(bad))
        bad[i] = (bad[i] + 1 + rng.randint(255)) % 256
        out.append(bytes(bad))
    return out


@pytest.mark.parametrize("game_string", GAMES)
def test_load_refuses_bad_snapshots_and_changes_nothing(game_string: str) -> None:
    engine = _engine_state(game_string)
    data = engine.dump()
    target = engine.py_clone()
    before = target.dump()
    refused = 0
    for bad in _bad_variants(data, 11):
        try:
            target.load(bad)
        except ValueError:
            refused += 1
            assert target.dump() == before, "a refused snapshot changed the engine"
            continue
        replay = target.py_clone()
        replay.load(target.dump())
        assert replay.dump() == target.dump()
        target.load(before)
    # Truncations and garbage must all be refused; only byte flips may spell
    # another legal history.
    assert refused >= 18, f"only {refused} bad snapshots refused"


@pytest.mark.parametrize("game_string", GAMES)
def test_load_refuses_non_bytes(game_string: str) -> None:
    engine = _engine_state(game_string)
    before = engine.dump()
    for bad in ("text", None, [1, 2, 3], 7):
        with pytest.raises(ValueError):
            engine.load(bad)
    assert engine.dump() == before


def test_replay_checked_restores_the_state_on_an_illegal_action():
    """``Engine.replay_checked`` (how every snapshot's history is loaded):
    a legal history replays; an illegal one leaves the state as it was and
    raises with the caller's message."""
    game = pyspiel.load_game("gold_thief")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    engine = state.engine
    before, dump = engine.py_history(), engine.dump()
    fresh = game.make_engine()
    fresh.replay_checked(before, "snapshot")
    assert fresh.dump() == dump
    with pytest.raises(ValueError, match=r"^bad snapshot: illegal action 9999"):
        engine.replay_checked(before + [9999], "bad snapshot")
    assert engine.py_history() == before and engine.dump() == dump


@pytest.mark.parametrize("game_string", ["gold_thief(players=3)", "saboteur(players=4)",
                                         "ardillas_del_bosque", "gold_nugget(players=3)"])
def test_games_and_states_survive_pickle(game_string):
    """A pickled game is rebuilt from its string (pyspiel alone would rebuild
    only its C++ side, losing the engine factory); a pickled state then plays
    on exactly like the original."""
    import pickle
    game = pyspiel.load_game(game_string)
    copy = pickle.loads(pickle.dumps(game))
    assert type(copy) is type(game) and str(copy) == str(game) and copy.params == game.params
    state = [s for s in random_states(game, 1, 5) if not s.is_terminal()][-1]
    twin = pickle.loads(pickle.dumps(state))
    rng = SplitMix64(9)
    for _ in range(30):
        if state.is_terminal():
            break
        assert str(twin) == str(state) and twin.history() == state.history()
        assert twin.legal_actions() == state.legal_actions()
        if state.is_chance_node():
            actions = [a for a, _ in state.chance_outcomes()]
        else:
            actions = state.legal_actions()
        a = actions[rng.next() % len(actions)]
        state.apply_action(a)
        twin.apply_action(a)
    assert twin.returns() == state.returns() or not state.is_terminal()
