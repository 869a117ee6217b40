"""Game conformance suite shared by every goldspiel game.

Each game's tests call :func:`check_game` (or the individual checks) for
every player count and variant.  The checks use OpenSpiel's own
``random_sim_test`` plus goldspiel's contracts: exact resampling, plain-text
serialization, clone independence, tensor shapes, illegal-action safety and a
per-game invariant hook run after every action.
"""
from __future__ import annotations

import difflib
import random
import re
import sys
from typing import Callable, Iterator

import numpy as np
import pyspiel

Invariant = Callable[[pyspiel.State], None]


def random_action(state: pyspiel.State, rng: random.Random) -> int:
    """A chance outcome drawn by its odds, or a uniformly random legal action."""
    if state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes())
        return rng.choices(actions, probs)[0]
    return rng.choice(state.legal_actions())


def random_states(game: pyspiel.Game, num_games: int, seed: int,
                  every: int = 1) -> Iterator[pyspiel.State]:
    """Yield (clones of) states along seeded random playthroughs."""
    rng = random.Random(seed)
    for _ in range(num_games):
        state = game.new_initial_state()
        step = 0
        while not state.is_terminal():
            if step % every == 0:
                yield state.clone()
            state.apply_action(random_action(state, rng))
            step += 1
        yield state.clone()


def check_random_sim(game: pyspiel.Game, num_sims: int = 5) -> None:
    """OpenSpiel's own random simulation checker, with serialization."""
    pyspiel.random_sim_test(game, num_sims=num_sims, serialize=True, verbose=False)


def check_invariants_along_games(game: pyspiel.Game, invariant: Invariant,
                                 num_games: int = 20, seed: int = 0) -> int:
    """Run ``invariant`` after every action of seeded random games; count states."""
    count = 0
    for state in random_states(game, num_games, seed):
        invariant(state)
        count += 1
    return count


def check_serialization(game: pyspiel.Game, num_games: int = 5, seed: int = 1) -> None:
    """Round-trip through plain text, and refusal of corrupted text."""
    for state in random_states(game, num_games, seed, every=7):
        text = state.serialize()
        assert "__dict__" not in text
        assert all(line.isprintable() for line in text.split("\n"))
        back = game.deserialize_state(text)
        assert str(back) == str(state)
        assert back.history() == state.history()
        assert back.serialize() == text
        for p in range(game.num_players()):
            assert back.information_state_string(p) == state.information_state_string(p)
        for bad in _corruptions(text):
            try:
                game.deserialize_state(bad)
            except ValueError:
                continue
            raise AssertionError(f"corrupted serialization was accepted: {bad[:80]!r}")


def _corruptions(text: str) -> list[str]:
    lines = text.split("\n")
    flipped = text.replace("history=", "history=9999,", 1)
    return [
        "",
        "garbage",
        text.replace("goldspiel-state 1", "goldspiel-state 99", 1),
        flipped,
        "\n".join(lines[:3]),
        text[:-4] + ("0000" if not text.endswith("0000\n") else "1111"),
    ]


def check_clone_independence(game: pyspiel.Game, seed: int = 2) -> None:
    """Mutating a clone never changes the original."""
    rng = random.Random(seed)
    for state in random_states(game, 3, seed, every=5):
        if state.is_terminal():
            continue
        before = str(state), state.history()
        copy = state.clone()
        if copy.is_chance_node():
            copy.apply_action(copy.chance_outcomes()[0][0])
        else:
            copy.apply_action(rng.choice(copy.legal_actions()))
        assert (str(state), state.history()) == before


def check_tensors(game: pyspiel.Game, num_games: int = 3, seed: int = 3) -> None:
    """Tensors have the declared shapes and are deterministic."""
    gtype = game.get_type()
    for state in random_states(game, num_games, seed, every=3):
        for p in range(game.num_players()):
            if gtype.provides_information_state_tensor:
                t = np.asarray(state.information_state_tensor(p))
                assert t.shape == tuple(game.information_state_tensor_shape())
                assert np.array_equal(t, np.asarray(state.clone().information_state_tensor(p)))
            if gtype.provides_observation_tensor:
                t = np.asarray(state.observation_tensor(p))
                assert t.shape == tuple(game.observation_tensor_shape())
                assert np.array_equal(t, np.asarray(state.clone().observation_tensor(p)))


def check_illegal_actions(game: pyspiel.Game, seed: int = 4, num_games: int = 3) -> None:
    """An illegal action raises a clear error and leaves the state unchanged."""
    num = game.num_distinct_actions()
    for state in random_states(game, num_games, seed, every=4):
        if state.is_terminal():
            illegal = [0]
        elif state.is_chance_node():
            legal = {a for a, _ in state.chance_outcomes()}
            illegal = [a for a in range(game.max_chance_outcomes() + 2) if a not in legal][:3]
        else:
            legal = set(state.legal_actions())
            illegal = [a for a in range(num + 2) if a not in legal][:3] + [num + 1000]
        for action in illegal:
            before = state.serialize()
            try:
                state.apply_action(action)
            except (ValueError, RuntimeError, pyspiel.SpielError) as exc:
                assert str(action) in str(exc) or "over" in str(exc), str(exc)
            else:
                raise AssertionError(f"illegal action {action} was accepted")
            assert state.serialize() == before


def check_resampling(game: pyspiel.Game, num_games: int = 4, seed: int = 5,
                     draws: int = 8, consistent: Callable | None = None) -> int:
    """Resampled worlds keep the player's information, legal moves and tensor.

    Returns how many (state, player) pairs produced more than one distinct
    world, so a game's test can assert that hidden information is re-dealt.
    ``consistent(true_state, world, player)`` is an optional per-game check.
    """
    varied = 0
    has_tensor = game.get_type().provides_information_state_tensor
    for k, state in enumerate(random_states(game, num_games, seed, every=5)):
        if state.is_chance_node() or state.is_terminal():
            continue
        for p in range(game.num_players()):
            info = state.information_state_string(p)
            tensor = np.asarray(state.information_state_tensor(p)) if has_tensor else None
            worlds = set()
            for d in range(draws):
                world = state.resample(p, seed * 1_000_003 + k * 101 + d)
                assert world.information_state_string(p) == info
                if has_tensor:
                    assert np.array_equal(np.asarray(world.information_state_tensor(p)), tensor)
                assert world.current_player() == state.current_player()
                if state.current_player() == p:
                    assert world.legal_actions() == state.legal_actions()
                if consistent is not None:
                    consistent(state, world, p)
                world.engine.check_invariants()
                worlds.add(str(world))
            if len(worlds) > 1:
                varied += 1
    return varied


def _playthrough_text(game_string: str, actions: list[int] | None, seed: int | None) -> str:
    from open_spiel.python.algorithms import generate_playthrough
    return generate_playthrough.playthrough(game_string, actions, seed=seed)


def write_playthrough(game_string: str, path: str, seed: int = 1) -> None:
    """Write a seeded golden playthrough (OpenSpiel's format) to ``path``."""
    text = _playthrough_text(game_string, None, seed)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def check_playthrough(path: str) -> None:
    """Regenerate a golden playthrough from its game and actions; any diff fails."""
    with open(path, encoding="utf-8") as f:
        golden = f.read()
    game_string = re.search(r"^game: (.*)$", golden, re.M).group(1)
    actions = [int(a) for a in re.findall(r"^action: (-?\d+)$", golden, re.M)]
    fresh = _playthrough_text(game_string, actions, None)
    if fresh != golden:
        diff = difflib.unified_diff(golden.splitlines(), fresh.splitlines(),
                                    "golden", "regenerated", lineterm="", n=1)
        raise AssertionError(f"playthrough {path} changed:\n" + "\n".join(list(diff)[:40]))


def check_game(game: pyspiel.Game, invariant: Invariant | None = None,
               num_sims: int = 3, num_games: int = 10, small: bool = False) -> int:
    """Run the whole suite on ``game``; returns the resampling variety count.

    ``small=True`` runs each check on one game (for games whose states or
    tensors are large); every check still runs.
    """
    few = 1 if small else 3
    check_random_sim(game, num_sims)
    if invariant is not None:
        check_invariants_along_games(game, invariant, num_games)
    check_serialization(game, num_games=2 if small else 5)
    check_clone_independence(game)
    check_tensors(game, num_games=few)
    check_illegal_actions(game, num_games=few)
    return check_resampling(game, num_games=2 if small else 4)


if __name__ == "__main__":
    # python -m games.testing GAME_STRING PATH [SEED]: (re)write a golden playthrough.
    import games  # noqa: F401
    write_playthrough(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 1)
