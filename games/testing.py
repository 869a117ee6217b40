"""Game conformance suite shared by every goldspiel game.

Each game's tests call :func:`check_game` (or the individual checks) for
every player count and variant.  The checks use OpenSpiel's own
``random_sim_test`` plus goldspiel's contracts: exact resampling, plain-text
serialization, clone independence, tensor shapes and range (every value in
[0, 1], :func:`check_tensor_range`), illegal-action safety and a per-game
invariant hook run after every action.
"""
from __future__ import annotations

import difflib
import hashlib
import re
import sys
from typing import TYPE_CHECKING, Any, Callable, Iterator

import numpy as np
import pyspiel

from src_cy.rng import SplitMix64

if TYPE_CHECKING:
    from collections import Counter

Invariant = Callable[[pyspiel.State], None]


def random_action(state: pyspiel.State, rng: SplitMix64) -> int:
    """A chance outcome drawn by its odds (one ``rng.random()``), or a uniformly
    random legal action (``rng.choice``)."""
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        u, acc = rng.random(), 0.0
        for action, p in outcomes:
            acc += p
            if u < acc:
                return action
        return outcomes[-1][0]
    return rng.choice(state.legal_actions())


def random_states(game: pyspiel.Game, num_games: int, seed: int,
                  every: int = 1) -> Iterator[pyspiel.State]:
    """Yield (clones of) states along seeded random playthroughs."""
    rng = SplitMix64(seed)
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
        text.replace(lines[0], lines[0].rsplit(" ", 1)[0] + " 99", 1),
        flipped,
        "\n".join(lines[:3]),
        text[:-4] + ("0000" if not text.endswith("0000\n") else "1111"),
    ]


def check_clone_independence(game: pyspiel.Game, seed: int = 2) -> None:
    """Mutating a clone never changes the original."""
    rng = SplitMix64(seed)
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


def check_tensor_range(state: pyspiel.State, player: int) -> None:
    """Every value of ``player``'s information-state and observation tensors
    is finite and in [0, 1] (binary planes and scaled counts; the layouts are
    in each rules doc), so learning algorithms can read them as they are."""
    tensors(state, player)


def tensors(state: pyspiel.State, player: int) -> tuple[np.ndarray | None, np.ndarray | None]:
    """``player``'s information-state and observation tensors as OpenSpiel
    returns them (float32 arrays; None where the game provides none), each
    checked to lie in [0, 1] (:func:`check_tensor_range`) on the way, so a
    check that needs the tensors pays for them once."""
    gtype = state.get_game().get_type()
    engine = getattr(state, "engine", None)
    if engine is not None and hasattr(engine, "fill_info_tensor"):
        # goldspiel states: the engine fills the buffer OpenSpiel's observer
        # copies (``games._adapter._EngineObserver``), without the float list
        # pyspiel returns; check_tensors compares the two paths
        sources = (("information_state_tensor", gtype.provides_information_state_tensor,
                    lambda p: _engine_tensor(engine.info_tensor_size(),
                                             engine.fill_info_tensor, p)),
                   ("observation_tensor", gtype.provides_observation_tensor,
                    lambda p: _engine_tensor(engine.obs_tensor_size(),
                                             engine.fill_obs_tensor, p)))
    else:
        sources = (("information_state_tensor", gtype.provides_information_state_tensor,
                    state.information_state_tensor),
                   ("observation_tensor", gtype.provides_observation_tensor,
                    state.observation_tensor))
    out = []
    for name, provided, tensor in sources:
        if not provided:
            out.append(None)
            continue
        t = np.asarray(tensor(player), np.float32)
        bad = np.flatnonzero(~((t >= 0.0) & (t <= 1.0)))
        if bad.size:
            raise AssertionError(
                f"player {player}: {name} has {bad.size} values outside [0, 1], e.g. "
                f"index {bad[0]} = {t[bad[0]]} (history {state.history()})")
        out.append(t)
    return out[0], out[1]


def _engine_tensor(size: int, fill: Callable[[int, np.ndarray], None], player: int) -> np.ndarray:
    out = np.zeros(size, np.float32)
    fill(player, out)
    return out


def check_tensors(game: pyspiel.Game, num_games: int = 3, seed: int = 3) -> None:
    """Tensors have the declared shapes, are deterministic, lie in [0, 1] and
    are what OpenSpiel returns (the engine path of :func:`tensors` equals
    ``state.information_state_tensor`` / ``observation_tensor``)."""
    gtype = game.get_type()
    for state in random_states(game, num_games, seed, every=3):
        for p in range(game.num_players()):
            info, obs = tensors(state, p)
            if gtype.provides_information_state_tensor:
                assert info.shape == tuple(game.information_state_tensor_shape())
                assert np.array_equal(info, np.asarray(state.clone().information_state_tensor(p),
                                                       np.float32))
            if gtype.provides_observation_tensor:
                assert obs.shape == tuple(game.observation_tensor_shape())
                assert np.array_equal(obs, np.asarray(state.clone().observation_tensor(p),
                                                      np.float32))


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
                     draws: int = 8, consistent: Callable | None = None,
                     every: int = 5) -> int:
    """Resampled worlds keep the player's information, legal moves and tensor
    (at every ``every``-th state of ``num_games`` seeded games, ``draws``
    worlds per player).

    Returns how many (state, player) pairs produced more than one distinct
    world, so a game's test can assert that hidden information is re-dealt.
    ``consistent(true_state, world, player)`` is an optional per-game check.
    """
    varied = 0
    has_tensor = game.get_type().provides_information_state_tensor
    for k, state in enumerate(random_states(game, num_games, seed, every=every)):
        if state.is_chance_node() or state.is_terminal():
            continue
        for p in range(game.num_players()):
            info = state.information_state_string(p)
            tensor = tensors(state, p)[0]
            worlds = set()
            for d in range(draws):
                world = state.resample(p, seed * 1_000_003 + k * 101 + d)
                assert world.information_state_string(p) == info
                if has_tensor:
                    assert np.array_equal(tensors(world, p)[0], tensor)
                if d == 0:      # every player's tensors in range (p's: every world)
                    for q in range(game.num_players()):
                        if q != p:
                            check_tensor_range(world, q)
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


# ----------------------------------------------------------------------
# The information contract (docs/architecture.md).
# ----------------------------------------------------------------------
class _InfoTable:
    """Checks, across many states, that each player's information-state
    string determines (and is determined by) everything else it should."""

    def __init__(self, game: pyspiel.Game):
        self.game = game
        gtype = game.get_type()
        self.has_info_tensor = gtype.provides_information_state_tensor
        self.has_obs = gtype.provides_observation_string
        self.has_obs_tensor = gtype.provides_observation_tensor
        self.by_info: dict = {}
        self.info_of_key: dict = {}
        self.info_of_tensor: dict = {}
        self.count = 0

    def record(self, state: pyspiel.State, where: str) -> None:
        """Add every player's view of ``state``; raise on any contradiction."""
        self.count += 1
        engine = getattr(state, "engine", None)
        to_move = state.current_player()
        for q in range(self.game.num_players()):
            info_t, obs_t = tensors(state, q)
            info = state.information_state_string(q)
            key = engine.py_info_key(q) if engine is not None else None
            tensor = info_t.tobytes() if self.has_info_tensor else None
            obs = state.observation_string(q) if self.has_obs else None
            obs_t = obs_t.tobytes() if self.has_obs_tensor else None
            legal = tuple(state.legal_actions(q)) if to_move == q else None
            sig = (key, tensor, obs, obs_t, legal)
            old = self.by_info.setdefault((q, info), (sig, where))
            if old[0] != sig:
                names = ("info key", "information_state_tensor", "observation_string",
                         "observation_tensor", "to-move/legal actions")
                diff = [n for n, a, b in zip(names, old[0], sig) if a != b]
                raise AssertionError(
                    f"player {q}: one information_state_string, different {diff} "
                    f"({old[1]} vs {where}); info string:\n{info[:2000]}")
            if key is not None:
                seen = self.info_of_key.setdefault((q, key), info)
                if seen != info:
                    raise AssertionError(
                        f"player {q}: info key {key:#x} shared by two information states "
                        f"({where}):\n{seen[:1000]}\n---\n{info[:1000]}")
            if tensor is not None:
                seen = self.info_of_tensor.setdefault((q, tensor), info)
                if seen != info:
                    raise AssertionError(
                        f"player {q}: information_state_tensor shared by two information "
                        f"states ({where}):\n{seen[:1000]}\n---\n{info[:1000]}")


def _replayed(game: pyspiel.Game, history: list[int]) -> pyspiel.State:
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


def check_resampled_world(state: pyspiel.State, world: pyspiel.State, player: int) -> None:
    """``world`` (a resample of ``state`` for ``player``) is a real state that
    ``player`` cannot tell from ``state``."""
    game = state.get_game()
    replay = _replayed(game, world.history())
    assert replay.serialize() == world.serialize(), "a resampled world's history() does not replay to it"
    assert world.information_state_string(player) == state.information_state_string(player)
    gtype = game.get_type()
    mine, seen = tensors(world, player), tensors(state, player)
    if gtype.provides_information_state_tensor:
        assert np.array_equal(mine[0], seen[0])
    if gtype.provides_observation_string:
        assert world.observation_string(player) == state.observation_string(player)
    if gtype.provides_observation_tensor:
        assert np.array_equal(mine[1], seen[1])
    for q in range(game.num_players()):
        if q != player:
            check_tensor_range(world, q)
    assert (world.current_player() == player) == (state.current_player() == player)
    if state.current_player() == player:
        assert world.legal_actions() == state.legal_actions()
    engine = getattr(state, "engine", None)
    if engine is not None:
        assert world.engine.py_info_key(player) == engine.py_info_key(player)


def check_information_contract(game: pyspiel.Game, num_games: int = 3, seed: int = 0,
                               draws: int = 3, continue_steps: int = 20,
                               every: int = 5) -> int:
    """The information contract on random games and on resampled worlds.

    Visits states along ``num_games`` seeded random games; at every
    ``every``-th non-terminal one, draws ``draws`` worlds for each player,
    checks each (:func:`check_resampled_world`; the engine's in-place C
    resample gives the same history and state) and plays it on at random for
    ``continue_steps`` steps. Every state seen (true or resampled) goes into
    one table mapping (player, information_state_string) to info key,
    tensors, observation and legal actions, which must be functions of it and
    (key, tensor) must determine it. Returns the number of states checked.
    """
    table = _InfoTable(game)
    rng = SplitMix64(seed)
    n = game.num_players()
    for g in range(num_games):
        state = game.new_initial_state()
        step = 0
        while True:
            table.record(state, f"game {g} step {step}")
            if state.is_terminal():
                break
            if step % every == 0:
                for p in range(n):
                    for d in range(draws):
                        wseed = rng.next() >> 1
                        world = state.resample(p, wseed)
                        check_resampled_world(state, world, p)
                        engine = getattr(state, "engine", None)
                        if engine is not None:
                            inplace = engine.py_resample(p, wseed)
                            assert inplace.py_history() == world.history(), \
                                "in-place resample and resample_history disagree"
                            assert inplace.dump() == world.engine.dump()
                        where = f"game {g} step {step} world p{p}#{d}"
                        table.record(world, where)
                        for k in range(continue_steps):
                            if world.is_terminal():
                                break
                            world.apply_action(random_action(world, rng))
                            table.record(world, f"{where}+{k + 1}")
            state.apply_action(random_action(state, rng))
            step += 1
    return table.count


def mid_game_states(game: pyspiel.Game, count: int, seed: int = 0,
                    min_depth: int = 6) -> list[pyspiel.State]:
    """``count`` decision states (more than one legal action), each picked at
    random among those at depth >= ``min_depth`` (or any depth, in games that
    end sooner) of its own seeded random game."""
    rng = SplitMix64(seed)
    out = []
    for _ in range(50 * count):
        if len(out) == count:
            break
        state = game.new_initial_state()
        early, late = [], []
        while not state.is_terminal():
            if not state.is_chance_node() and len(state.legal_actions()) > 1:
                (late if len(state.history()) >= min_depth else early).append(state.clone())
            state.apply_action(random_action(state, rng))
        pool = late or early
        if pool:
            out.append(pool[rng.randint(len(pool))])
    if len(out) < count:
        raise AssertionError(f"{game} has too few decision states with a choice")
    return out


def check_openspiel_algorithms(game: pyspiel.Game, positions: int = 3, seed: int = 0,
                               max_simulations: int = 60, episodes: int = 2,
                               mccfr_iterations: int = 3,
                               external_sampling: bool = False) -> None:
    """OpenSpiel's own algorithms run on ``game`` without error.

    Its Python ``ISMCTSBot`` with every optional argument at its default
    (consistent action sets required, unlimited world samples, information
    state keys) searches from ``positions`` mid-game states; an
    ``rl_environment`` plays ``episodes`` random episodes; Python
    outcome-sampling MCCFR runs a few iterations, and external-sampling MCCFR
    too when ``external_sampling`` (it walks every action of the traverser, so
    only small presets finish).
    """
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import (external_sampling_mccfr, ismcts, mcts,
                                              outcome_sampling_mccfr)
    np_rng = np.random.RandomState(seed)
    for state in mid_game_states(game, positions, seed):
        bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np_rng), 2.0,
                               max_simulations, random_state=np_rng)
        action = bot.step(state)
        assert action in state.legal_actions()
    gtype = game.get_type()
    has_tensor = gtype.provides_observation_tensor or gtype.provides_information_state_tensor
    env = rl_environment.Environment(game) if has_tensor else None
    rng = SplitMix64(seed)
    for _ in range(episodes if env is not None else 0):
        time_step = env.reset()
        while not time_step.last():
            p = time_step.observations["current_player"]
            time_step = env.step([rng.choice(time_step.observations["legal_actions"][p])])
    os_solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(mccfr_iterations):
        os_solver.iteration()
    if external_sampling:
        es_solver = external_sampling_mccfr.ExternalSamplingSolver(game)
        for _ in range(max(1, mccfr_iterations // 3)):
            es_solver.iteration()


def check_resample_distribution(state_a: pyspiel.State, state_b: pyspiel.State, player: int,
                                feature: Callable[[pyspiel.State], object], n: int = 400,
                                seed: int = 0, alpha: float = 1e-3) -> None:
    """Two states ``player`` cannot tell apart give the same distribution of
    ``feature(world)`` over resampled worlds (two-sample chi-square test at
    level ``alpha``; a failure is a real difference with probability 1 - alpha)."""
    from scipy.stats import chi2_contingency  # scipy comes with open_spiel
    assert state_a.information_state_string(player) == state_b.information_state_string(player), \
        "the two states are distinguishable to the player"
    counts: dict = {}
    for col, state in enumerate((state_a, state_b)):
        for d in range(n):
            key = feature(state.resample(player, seed * 7919 + d + col * 1_000_003))
            counts.setdefault(key, [0, 0])[col] += 1
    if len(counts) < 2:
        return
    _, pvalue, _, _ = chi2_contingency(np.array(list(counts.values())).T)
    if pvalue < alpha:
        raise AssertionError(
            f"resampling depends on more than player {player}'s information "
            f"(chi-square p={pvalue:.2e}); feature counts (a, b): {counts}")


def exact_posterior(game: pyspiel.Game, state: pyspiel.State, player: int,
                    max_nodes: int = 1_000_000) -> dict | None:
    """Every history of ``player``'s information set at ``state`` with its
    weight under the uniform-opponent target (chance probabilities x
    1/(legal actions) at every other player's decision), by a depth-first
    enumeration of the game's engine pruned where the player's information
    string stops being a prefix of the target's. A history is taken at its
    first node with the player's key and the true player to move (the
    resamplers' stopping rule). None when more than ``max_nodes`` nodes
    would be needed. Engines with line-per-event information strings only."""
    target = state.engine.info_string(player).split("\n")
    key, cp, term = state.engine.py_info_key(player), state.current_player(), state.is_terminal()
    out: dict = {}
    stack = [(game.make_engine(), 1.0)]
    nodes = 0
    while stack:
        e, w = stack.pop()
        nodes += 1
        if nodes > max_nodes:
            return None
        lines = e.info_string(player).split("\n")
        if lines != target[:len(lines)]:
            continue
        if len(lines) == len(target) and e.py_info_key(player) == key and (
                e.py_is_terminal() if term else
                (not e.py_is_terminal() and e.py_current_player() == cp)):
            h = tuple(e.py_history())
            out[h] = out.get(h, 0.0) + w
            continue
        if e.py_is_terminal():
            continue
        q = e.py_current_player()
        if q == pyspiel.PlayerId.CHANCE:
            moves = e.py_chance_outcomes()
        else:
            legal = e.py_legal_actions()
            moves = [(a, 1.0 if q == player else 1.0 / len(legal)) for a in legal]
        for a, pr in moves:
            child = e.py_clone()
            child.py_apply(a)
            stack.append((child, w * pr))
    return out


def drawn_histories(state: pyspiel.State, player: int, n: int, seed: int) -> "Counter":
    """Histories of ``n`` worlds the engine resamples for ``player`` at
    ``state`` (seeds from ``random.Random(seed)``), counted: the sample an
    exact-enumeration check compares with ``exact_posterior``."""
    import random
    from collections import Counter
    rng = random.Random(seed)
    return Counter(tuple(state.engine.py_resample_history(player, rng.getrandbits(62)))
                   for _ in range(n))


def exact_chisquare_pvalue(seen: "Counter", support: dict, n: int) -> float:
    """Chi-square p-value of ``n`` draws (``seen``: outcome -> count) against
    exact weights (``support``: outcome -> weight, any scale), cells
    expecting fewer than 5 pooled; 1.0 when a single cell is left. For
    checking a sampler against an exact enumeration."""
    from scipy.stats import chisquare  # scipy comes with open_spiel
    total = sum(support.values())
    obs, exp, o_small, e_small = [], [], 0, 0.0
    for h in sorted(support, key=lambda h: support[h]):
        e = n * support[h] / total
        if e < 5:
            o_small, e_small = o_small + seen[h], e_small + e
        else:
            obs.append(seen[h])
            exp.append(e)
    if e_small > 0:
        obs.append(o_small)
        exp.append(e_small)
    return float(chisquare(obs, exp).pvalue) if len(obs) >= 2 else 1.0


def worst_exact_pvalue(sets: list, n: int, seed: int) -> float:
    """The smallest ``exact_chisquare_pvalue`` of ``n`` resampled worlds
    against the exact posterior over ``sets`` of (state, player, posterior):
    what a test that a biased sampler is refused checks."""
    return min(exact_chisquare_pvalue(drawn_histories(state, p, n, seed), exact, n)
               for state, p, exact in sets)


def check_snapshot_refused_under_O(game_string: str, seed: int = 0) -> None:
    """Under ``python -O`` (asserts stripped) a corrupted snapshot is refused."""
    import subprocess
    code = f"""
import pyspiel, games
from games.testing import random_states
from src_cy.rng import SplitMix64
game = pyspiel.load_game({game_string!r})
states = [s for s in random_states(game, 1, {seed}, every=3) if not s.is_terminal()]
state = states[len(states) // 2]
data = bytearray(state.engine.dump())
refused = 0
rng = SplitMix64({seed})
variants = [bytes(data[:len(data) // 2]), b"", bytes(data) + b"\\x07"]
for _ in range(20):
    bad = bytearray(data)
    i = rng.randint(len(bad))
    bad[i] = (bad[i] + 1 + rng.randint(255)) % 256
    variants.append(bytes(bad))
for bad in variants:
    engine = game.make_engine()
    try:
        engine.load(bad)
    except ValueError:
        refused += 1
        continue
    engine.check_invariants()
    # Accepted: it must then be a valid state that replays from its history.
    replay = game.make_engine()
    for a in engine.py_history():
        replay.py_apply(a)
    if replay.dump() != engine.dump():
        raise SystemExit("accepted snapshot is not a real state")
print("refused", refused, "of", len(variants))
"""
    out = subprocess.run([sys.executable, "-O", "-c", code], capture_output=True, text=True,
                         timeout=300)
    if out.returncode != 0:
        raise AssertionError(f"python -O snapshot check failed:\n{out.stdout}\n{out.stderr[-3000:]}")
    refused = int(out.stdout.split()[1])
    assert refused >= 3, out.stdout


def _playthrough_text(game_string: str, actions: list[int] | None, seed: int | None) -> str:
    from open_spiel.python.algorithms import generate_playthrough
    return generate_playthrough.playthrough(game_string, actions, seed=seed)


DIGEST_HEADER = "# goldspiel digest playthrough, format 1"


def _digest(data: bytes | str) -> str:
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.sha256(data).hexdigest()[:16]


def _tensor_line(name: str, values: list[float]) -> str:
    t = np.asarray(values, np.float32)
    return (f"{name} sha256={_digest(t.tobytes())} size={t.size} "
            f"nonzero={int(np.count_nonzero(t))} sum={float(t.sum(dtype=np.float64)):.6f}")


def digest_playthrough_text(game_string: str, actions: list[int] | None,
                            seed: int | None) -> str:
    """A golden playthrough for games whose tensors are too large for
    OpenSpiel's text format: the same trajectory and fields (current player,
    legal actions, chance outcomes, every player's information-state and
    observation strings and tensors, returns), with each string and tensor
    written as a SHA-256 digest plus its size, so any change of any field
    still fails.  ``actions`` replays a recorded trajectory; otherwise
    ``seed`` draws one (:func:`random_action`)."""
    game = pyspiel.load_game(game_string)
    gtype = game.get_type()
    lines = [DIGEST_HEADER, f"game: {game_string}", "",
             f"NumPlayers() = {game.num_players()}",
             f"NumDistinctActions() = {game.num_distinct_actions()}",
             f"MaxChanceOutcomes() = {game.max_chance_outcomes()}",
             f"MaxGameLength() = {game.max_game_length()}",
             f"MinUtility() = {game.min_utility()}", f"MaxUtility() = {game.max_utility()}",
             f"InformationStateTensorShape() = {game.information_state_tensor_shape()}",
             f"ObservationTensorShape() = {game.observation_tensor_shape()}"]
    rng = SplitMix64(0 if seed is None else seed)
    state = game.new_initial_state()
    step = 0
    while True:
        lines += ["", f"# State {step}", f"History() = {state.history()}",
                  f"CurrentPlayer() = {state.current_player()}"]
        for p in range(game.num_players()):
            if gtype.provides_information_state_string:
                text = state.information_state_string(p)
                lines.append(f"InformationStateString({p}) sha256={_digest(text)} "
                             f"chars={len(text)}")
            if gtype.provides_information_state_tensor:
                lines.append(_tensor_line(f"InformationStateTensor({p})",
                                          state.information_state_tensor(p)))
            if gtype.provides_observation_string:
                text = state.observation_string(p)
                lines.append(f"ObservationString({p}) sha256={_digest(text)} chars={len(text)}")
            if gtype.provides_observation_tensor:
                lines.append(_tensor_line(f"ObservationTensor({p})",
                                          state.observation_tensor(p)))
        if state.is_terminal():
            lines.append(f"Returns() = {state.returns()}")
            break
        if state.is_chance_node():
            lines.append(f"ChanceOutcomes() = {state.chance_outcomes()}")
        else:
            lines.append(f"LegalActions() = {state.legal_actions()}")
        if actions is None:
            action = random_action(state, rng)
        elif step < len(actions):
            action = actions[step]
        else:
            raise AssertionError(f"the recorded actions end at state {step}, which is not terminal")
        lines.append(f"action: {action}")
        state.apply_action(action)
        step += 1
    if actions is not None and step != len(actions):
        raise AssertionError(f"the game ended after {step} of {len(actions)} recorded actions")
    return "\n".join(lines) + "\n"


def write_playthrough(game_string: str, path: str, seed: int = 1,
                      digest: bool = False) -> None:
    """Write a seeded golden playthrough to ``path``: OpenSpiel's format, or
    with ``digest=True`` :func:`digest_playthrough_text`'s."""
    make = digest_playthrough_text if digest else _playthrough_text
    text = make(game_string, None, seed)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def check_playthrough(path: str) -> None:
    """Regenerate a golden playthrough (either format) from its game and
    recorded actions; any difference fails."""
    with open(path, encoding="utf-8") as f:
        golden = f.read()
    game_string = re.search(r"^game: (.*)$", golden, re.M).group(1)
    actions = [int(a) for a in re.findall(r"^action: (-?\d+)$", golden, re.M)]
    make = digest_playthrough_text if golden.startswith(DIGEST_HEADER) else _playthrough_text
    fresh = make(game_string, actions, None)
    if fresh != golden:
        diff = difflib.unified_diff(golden.splitlines(), fresh.splitlines(),
                                    "golden", "regenerated", lineterm="", n=1)
        raise AssertionError(f"playthrough {path} changed:\n" + "\n".join(list(diff)[:40]))


def check_game(game: pyspiel.Game, invariant: Invariant | None = None,
               num_sims: int = 3, num_games: int = 10, small: bool = False) -> int:
    """Run the whole suite on ``game``; returns the resampling variety count.

    ``small=True`` runs each check on one game (for games whose states,
    tensors or resampling are large): resampling then draws 3 worlds per
    player, and the information contract 1, at every (5 x players)-th state;
    every check still runs.
    """
    few = 1 if small else 3
    check_random_sim(game, num_sims)
    if invariant is not None:
        check_invariants_along_games(game, invariant, num_games)
    check_serialization(game, num_games=2 if small else 5)
    check_clone_independence(game)
    check_tensors(game, num_games=few)
    check_illegal_actions(game, num_games=few)
    check_information_contract(game, num_games=1, draws=1, continue_steps=5,
                               every=5 * game.num_players() if small else 5)
    if small:
        return check_resampling(game, num_games=1, draws=3, every=5 * game.num_players())
    return check_resampling(game, num_games=4)


if __name__ == "__main__":
    # python -m games.testing GAME_STRING PATH [SEED] [--digest]: (re)write a
    # golden playthrough (--digest: the digest format, for large tensors).
    import games  # noqa: F401
    args = [a for a in sys.argv[1:] if a != "--digest"]
    write_playthrough(args[0], args[1], int(args[2]) if len(args) > 2 else 1,
                      digest="--digest" in sys.argv[1:])


def rollout_counts(policy: Any, state: pyspiel.State, per_action: int, seed: int) -> dict:
    """How often the engine rollout ``policy`` picks each legal action of
    ``state`` over ``per_action`` × (legal actions) draws from one splitmix64
    stream starting at ``seed`` (tests of a policy's distribution)."""
    from src_cy.ismcts import rollout_choice
    legal = state.legal_actions()
    s, counts = seed, {a: 0 for a in legal}
    for _ in range(per_action * len(legal)):
        a, s = rollout_choice(policy, state.engine, legal, s)
        counts[a] += 1
    return counts
