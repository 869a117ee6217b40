"""Move-time budgets: the resampler's deadline (Gold Nugget's walks, the one
resampler with an unbounded tail) and ``ISMCTSBot(move_budget=...)``.

Timing itself is measured by ``experiments/bench/bench_move_budget.py``, not here;
these tests pin the behaviour at the edges: a deadline already passed, and a
deadline so far away that nothing may change."""
from __future__ import annotations

import pyspiel
import pytest

import games  # noqa: F401  (registers every game)
from games import testing
from games.spec import find_spec
from solvers.bots import best_config, make_bot
from solvers.ismcts import Deadline, ISMCTSBot, fast_search
from src_cy.engine import ResampleOutOfTime, clock
from src_cy.gold_nugget.engine import resample_stats


def _gn_state() -> pyspiel.State:
    game = pyspiel.load_game("gold_nugget", {"players": 4})
    return testing.mid_game_states(game, 1, seed=11, min_depth=60)[0]


def test_clock_matches_python_clocks() -> None:
    import time
    a, b = time.process_time(), clock(True)
    assert abs(a - b) < 0.5
    a, b = time.monotonic(), clock(False)
    assert abs(a - b) < 0.5


def test_resample_after_its_deadline_draws_nothing_and_changes_nothing() -> None:
    state = _gn_state()
    engine = state.engine
    before_dump = engine.dump()
    before = resample_stats()
    for cpu in (True, False):
        with pytest.raises(ResampleOutOfTime, match="deadline"):
            engine.py_resample(1, 7, deadline=clock(cpu) - 1.0, cpu=cpu)
        with pytest.raises(ResampleOutOfTime):
            engine.py_resample_history(2, 7, deadline=clock(cpu) - 1.0, cpu=cpu)
    assert resample_stats()["out_of_time"] - before["out_of_time"] == 4
    assert engine.dump() == before_dump


def test_far_deadline_changes_no_world() -> None:
    engine = _gn_state().engine
    for p in range(engine.num_players):
        plain = engine.py_resample_history(p, 3)
        assert engine.py_resample_history(p, 3, deadline=clock() + 1e6) == plain
        world = engine.py_resample(p, 3, deadline=clock() + 1e6)
        assert world.py_history() == plain


def test_search_past_its_deadline_runs_no_simulation() -> None:
    state = _gn_state()
    stats = fast_search(state.engine, state.current_player(), max_simulations=50,
                        cached_worlds=8, deadline=Deadline(clock() - 1.0))
    assert stats.simulations == 0 and stats.out_of_time and stats.pool_worlds == 0
    stats = fast_search(state.engine, state.current_player(), max_simulations=50,
                        cached_worlds=8, deadline=Deadline(clock() + 1e6))
    assert stats.simulations == 50 and not stats.out_of_time and stats.pool_worlds == 8


def test_out_of_time_bot_plays_its_anchor_then_heuristic_then_random() -> None:
    state = _gn_state()
    game = state.get_game()
    heuristic = find_spec("gold_nugget").heuristic(game, seed=4).step(state)
    anchored = ISMCTSBot(game, seed=4, cached_worlds=8, anchor="heuristic", move_budget=1e-9)
    assert anchored.step(state) == heuristic and anchored.fallback_moves == 1
    plain = ISMCTSBot(game, seed=4, cached_worlds=8, move_budget=1e-9)
    assert plain.step(state) == heuristic and plain.fallback_moves == 1
    kuhn = pyspiel.load_game("kuhn_poker")
    s = kuhn.new_initial_state()
    s.apply_action(0)
    s.apply_action(1)
    moves = {ISMCTSBot(kuhn, seed=k, cached_worlds=4, move_budget=1e-9).step(s)
             for k in range(40)}
    assert moves == set(s.legal_actions())        # uniform among the legal moves


def test_generous_budget_changes_no_move() -> None:
    """Under the cap, ``best`` is the same seeded bot."""
    from games.gold_thief import MINI_PARAMS
    game = pyspiel.load_game("gold_thief", MINI_PARAMS)
    config = best_config(game)
    capped = ISMCTSBot(game, seed=9, **{**config, "move_budget": 1e6})
    free = ISMCTSBot(game, seed=9, **{**config, "move_budget": None})
    rng = testing.SplitMix64(2)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(testing.random_action(state, rng))
            continue
        a, b = capped.step(state), free.step(state)
        assert a == b
        state.apply_action(a)
    assert capped.fallback_moves == 0


@pytest.mark.parametrize("bad", [0, -1.0, float("inf"), float("nan"), "1", True])
def test_bad_budget_is_refused(bad) -> None:
    game = pyspiel.load_game("kuhn_poker")
    with pytest.raises(ValueError, match="move_budget"):
        ISMCTSBot(game, move_budget=bad)
    with pytest.raises(ValueError, match="budget_clock"):
        ISMCTSBot(game, move_budget=1.0, budget_clock="gpu")


def test_best_has_a_move_budget_in_every_game() -> None:
    for name in ("gold_thief", "gold_nugget", "saboteur", "ardillas_del_bosque"):
        game = pyspiel.load_game(name)
        bot = make_bot("best", game)
        assert bot.move_budget == best_config(game)["move_budget"] > 0


def _bot_cases() -> list[tuple[str, str]]:
    """The library's bots and each game spec's own (not the registry as a
    whole: scripts such as experiments.best_vs_heuristic add wrappers)."""
    cases = []
    for name in ("gold_thief", "saboteur", "ardillas_del_bosque", "gold_nugget", "kuhn_poker"):
        spec = find_spec(name)
        names = {"random", "ismcts", "cfr"}
        if spec is not None:
            names |= set(spec.bots) | {b for b, field in (("heuristic", spec.heuristic),
                                                          ("best", spec.best)) if field}
        # cfr solves the game first: only where the (mini) tree is small
        cases += [(name, b) for b in sorted(names)
                  if not (b == "cfr" and name not in ("kuhn_poker", "gold_thief"))]
    return cases


@pytest.mark.parametrize("name, bot", _bot_cases())
def test_every_bot_takes_a_move_budget(name: str, bot: str) -> None:
    spec = find_spec(name)
    # cfr solves first: Gold Thief's mini preset; the rest play the default
    game = spec.load("mini") if bot == "cfr" and spec is not None else \
        pyspiel.load_game(name)
    b = make_bot(bot, game, seed=1, move_budget=0.5, budget_clock="wall")
    assert (b.move_budget, b.budget_clock) == (0.5, "wall")
    state = testing.mid_game_states(game, 1, seed=2, min_depth=3)[0]
    assert b.step(state) in state.legal_actions()
    with pytest.raises(ValueError, match="move_budget"):
        make_bot(bot, game, seed=1, move_budget=0)
    with pytest.raises(ValueError, match="budget_clock"):
        make_bot(bot, game, seed=1, move_budget=1.0, budget_clock="gpu")


@pytest.mark.slow
def test_best_keeps_its_solution_under_a_budget() -> None:
    from solvers.policy_bot import PolicyBot
    game = find_spec("gold_thief").load("mini")
    bot = make_bot("best", game, seed=0, move_budget=0.1)
    assert isinstance(bot, PolicyBot) and bot.move_budget == 0.1


def test_belief_heuristic_stops_drawing_worlds_at_the_deadline() -> None:
    state = _gn_state()
    me = state.current_player()
    game = state.get_game()
    tight = make_bot("belief_heuristic", game, move_budget=1e-9)
    tight.deadline = tight.move_deadline()
    assert tight.location_probs(state, me) == {}
    free = make_bot("belief_heuristic", game)
    far = make_bot("belief_heuristic", game, move_budget=1e6)
    far.deadline = far.move_deadline()
    probs = free.location_probs(state, me)
    assert far.location_probs(state, me) == probs
    assert abs(sum(probs.values()) - 1.0) < 1e-9
    assert tight.step(state) in state.legal_actions()


def test_move_budget_bench_times_only_the_tested_seat(monkeypatch) -> None:
    from experiments.bench import bench_move_budget as bench
    made: dict[str, list] = {"best": [], "heuristic": []}

    def counting_bot(name, game, **options):
        bot = make_bot(name, game, **options)
        calls = made[name]
        real = bot.step
        bot.step = lambda state: (calls.append(state.current_player()), real(state))[1]
        return bot

    monkeypatch.setattr(bench, "make_bot", counting_bot)
    game = pyspiel.load_game("ardillas_del_bosque", {"players": 2})
    times, capped, fallback = bench.play(game, 3, 0.02, seats="one")
    assert set(made["best"]) == {1} and set(made["heuristic"]) == {0}   # seat 3 mod 2
    assert len(times) == len(made["best"]) > 0
    assert 0 <= capped <= len(times) and fallback >= 0
    rows = bench.table([bench.bench("Ardillas", "ardillas_del_bosque", 2, 1, 3, 0.02, "one")])
    assert rows.count("\n") == 2 and "| Ardillas | 2 | 1 |" in rows
