"""``experiments.strength``: paired deals against anchors, CPU calibration,
OpenSpiel's ISMCTS as an anchor (on the Gold Thief ``mini`` preset: fast)."""
import csv

import numpy as np
import pytest

import games  # noqa: F401  (registers the games)
from experiments import strength
from games.testing import mid_game_states
from solvers.bots import make_bot
from solvers.evaluate import _load, spec

MINI = strength.preset_string("gold_thief", "mini", None)


def test_a_bot_against_itself_scores_exactly_one_half_per_deal():
    # both rotations of a deal draw the same chance stream and seat seeds, so
    # the same bot on both sides plays one game twice with the seats swapped
    cell = strength.play_cell(MINI, spec("random"), spec("random"), deals=6, seed=2,
                              progress=False)
    assert np.all(cell.score == 0.5)
    assert np.array_equal(cell.tested_return, cell.anchor_return)
    assert cell.tested_cpu.moves > 0 and cell.anchor_cpu.moves > 0


def test_three_players_rotate_the_tested_seat():
    cell = strength.play_cell("gold_thief(players=3)", spec("random"), spec("random"),
                              deals=2, seed=1, progress=False)
    assert cell.players == 3 and len(cell.score) == 2
    assert np.allclose(cell.tested_return, cell.anchor_return)


def test_seeded_cells_reproduce_and_the_heuristic_beats_random():
    a = strength.play_cell(MINI, spec("heuristic"), spec("random"), deals=30, seed=4,
                           progress=False)
    b = strength.play_cell(MINI, spec("heuristic"), spec("random"), deals=30, seed=4,
                           progress=False)
    assert np.array_equal(a.score, b.score) and np.array_equal(a.tested_return,
                                                                b.tested_return)
    assert a.score.mean() > 0.5


def test_calibration_turns_cpu_into_a_simulation_count():
    game = _load(MINI)
    tested = spec("ismcts", max_simulations=200)
    anchor, cpu = strength.calibrate(game, tested, spec("ismcts", cpu="1x"), positions=3,
                                     probe_sims=50, seed=0)
    sims = dict(anchor.options)["max_simulations"]
    assert cpu > 0 and "cpu" not in dict(anchor.options)
    assert 50 <= sims <= 800      # the same search at the same CPU: about 200
    assert f"({sims} sims)" in anchor.display
    same, _ = strength.calibrate(game, tested, spec("random"), 3, 50, 0, cpu)
    assert same == spec("random")
    with pytest.raises(ValueError, match="cpu="):
        strength.calibrate(game, tested, spec("ismcts", cpu="fast"), 3, 50, 0, cpu)


def test_openspiel_ismcts_is_seeded_and_refuses_one_simulation():
    game = _load(MINI)
    for state in mid_game_states(game, 4, 3):
        moves = {int(make_bot("openspiel_ismcts", game, seed=9, max_simulations=20)
                     .step(state.clone())) for _ in range(3)}
        assert len(moves) == 1 and moves <= set(state.legal_actions())
    with pytest.raises(ValueError, match=">= 2"):
        make_bot("openspiel_ismcts", game, max_simulations=1)


def test_command_writes_markdown_and_csv(tmp_path, capsys):
    out = tmp_path / "out"
    rc = strength.main(["--game", "gold_thief", "--preset", "mini", "--bot", "heuristic",
                        "--anchors", "random,openspiel_ismcts:max_simulations=5", "--games",
                        "3", "--seed", "1", "--out", str(out), "--no-progress"])
    assert rc == 0
    rows = list(csv.DictReader(open(out / "strength.csv")))
    assert [r["anchor"] for r in rows] == ["random", "openspiel_ismcts:max_simulations=5"]
    assert all(r["deals"] == "3" and r["games"] == "6" for r in rows)
    md = (out / "strength.md").read_text()
    assert "| random | 3 | 6 |" in md
    random_row = next(line for line in md.splitlines() if line.startswith("| random |"))
    assert "/ <1 ms" in random_row        # a sub-millisecond p95 is not "0 ms"
    assert strength.main(["--game", "gold_thief", "--preset", "huge", "--no-progress"]) == 2
    assert strength.main(["--game", "gold_thief", "--preset", "mini", "--games", "1",
                          "--anchors", "random", "--out", str(out), "--no-progress"]) == 2
    assert "error:" in capsys.readouterr().err


def test_control_replays_the_deals_with_the_anchor_in_the_tested_seat():
    # the same bot on both sides: the control plays exactly the tested games,
    # so the paired difference is zero deal by deal
    same = strength.play_cell("gold_thief(players=3)", spec("random"), spec("random"),
                              deals=3, seed=5, progress=False, control=True)
    assert same.control is not None and np.array_equal(same.control, same.score)
    assert np.allclose(same.return_diff, 0.0)
    assert np.array_equal(same.control_return_diff, same.return_diff)
    # a different tested bot: the control is the anchor's own games, not the tested ones
    cell = strength.play_cell("gold_thief(players=3)", spec("heuristic"), spec("random"),
                              deals=6, seed=5, progress=False, control=True)
    ctrl = strength.play_cell("gold_thief(players=3)", spec("random"), spec("random"),
                              deals=6, seed=5, progress=False)
    assert np.array_equal(cell.control, ctrl.score)
    assert not np.array_equal(cell.score, cell.control)
    assert strength.play_cell(MINI, spec("random"), spec("random"), deals=2, seed=5,
                              progress=False).control is None


def test_command_reports_the_control_at_three_players(tmp_path):
    out = tmp_path / "out3"
    assert strength.main(["--game", "gold_thief", "--players", "3", "--bot", "heuristic",
                          "--anchors", "random", "--games", "2", "--seed", "1", "--out",
                          str(out), "--no-progress"]) == 0
    row = next(csv.DictReader(open(out / "strength.csv")))
    score, control = float(row["score"]), float(row["control_score"])
    assert float(row["score_minus_control"]) == pytest.approx(score - control, abs=1e-6)
    assert "score − control" in (out / "strength.md").read_text()
    assert row["control_return_diff"] != "" and row["control_return_diff_ci95"] != ""
    assert strength.main(["--game", "gold_thief", "--players", "3", "--bot", "heuristic",
                          "--anchors", "random", "--games", "2", "--seed", "1", "--out",
                          str(out), "--no-progress", "--control", "off"]) == 0
    assert next(csv.DictReader(open(out / "strength.csv")))["control_score"] == ""


def test_two_probe_calibration_solves_a_fixed_plus_per_simulation_cost():
    calls = []

    def cost(n: int) -> float:       # 2 ms a move plus 5 us a simulation
        calls.append(n)
        return 0.002 + 5e-6 * n

    sims = strength._fit_sims(cost, 50, 0.027)
    assert sims == 5000 and len(calls) == 2
    # one scaled probe, the former rule, would give a fifth of that
    assert round(0.027 * 50 / cost(50)) < 1100
    # a probe already at the answer needs no second measurement
    calls.clear()
    assert strength._fit_sims(lambda n: calls.append(n) or 1e-3 * n, 40, 0.045) == 45
    assert calls == [40]


SAB_MINI = "saboteur(players=3,rounds=2,goal_distance=3,deck_scale=25,hand_size=3)"


def test_team_rounds_read_the_round_ends():
    from games.saboteur.beliefs import team_rounds
    from solvers.ismcts import SplitMix64, sample_sorted
    game = _load(SAB_MINI)
    for seed in range(3):
        state = game.new_initial_state()
        rng, bot = SplitMix64(seed), make_bot("heuristic", game, seed=seed)
        while not state.is_terminal():
            state.apply_action(sample_sorted(sorted(state.chance_outcomes()), rng)
                               if state.is_chance_node() else bot.step(state))
        text = state.information_state_string(0)
        rounds = team_rounds(state)
        assert len(rounds) == 2
        for k, rnd in enumerate(rounds):
            diggers_won = f"round {k + 1} won by diggers" in text
            assert diggers_won != (f"round {k + 1} won by saboteurs" in text)
            assert len(rnd) == 3 and sum(role == "saboteur" for role, _ in rnd) <= 1
            for role, won in rnd:
                assert role in ("digger", "saboteur")
                assert won == ((role == "digger") == diggers_won)


def test_roles_are_counted_for_the_tested_seat_and_paired_with_the_control():
    same = strength.play_cell(SAB_MINI, spec("heuristic"), spec("heuristic"), deals=3,
                              seed=2, progress=False, control=True)
    assert same.roles is not None and same.control_roles is not None
    # 3 deals x 3 rotations x 2 rounds: every round of the tested seat counted once
    assert sum(int(c[:, 1].sum()) for c in same.roles.values()) == 18
    for role, rate, half, k_rate, k_half, diff, d_half, n_t, n_k in strength.role_rows(same):
        assert (rate, n_t) == (k_rate, n_k) and diff == 0.0 and d_half == 0.0
    assert "Team wins per role" in strength.roles_markdown("heuristic", [same])
    two = strength.play_cell("gold_thief(players=3)", spec("random"), spec("random"),
                             deals=2, seed=2, progress=False)
    assert two.roles is None and strength.roles_markdown("random", [two]) == ""


def test_ratio_interval_is_clustered_by_deal():
    rng = np.random.default_rng(0)
    wins = rng.integers(0, 2, 40).astype(float)
    # one round per deal: the pooled rate and interval are those of the mean
    assert strength.ratio_ci(wins, np.ones(40)) == pytest.approx(strength.mean_ci(wins))
    # a deal counted twice with the same outcomes widens nothing but the weight
    rate, half = strength.ratio_ci(wins * 2, np.full(40, 2.0))
    assert rate == pytest.approx(wins.mean()) and half == pytest.approx(
        strength.mean_ci(wins)[1])
    # identical tested and control rounds: difference 0 with no width
    assert strength.ratio_ci(wins, np.ones(40), wins, np.ones(40)) == (0.0, 0.0)
    # a constant shift of one win per deal out of two rounds: +0.5 exactly
    diff, dh = strength.ratio_ci(wins + 1, np.full(40, 2.0), wins, np.full(40, 2.0))
    assert diff == pytest.approx(0.5) and dh < 0.2
    assert np.isnan(strength.ratio_ci(np.zeros(3), np.zeros(3))[0])
