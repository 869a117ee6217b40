"""Rows shared by all seats (an abstraction with ``shared_seats = True``).

One row per bucket for every seat: in the engine core (raw and action-
abstracted rows), the Python path, checkpoints, the parallel merge and the
policy a shared solve hands to a bot.
"""
from __future__ import annotations

import numpy as np
import pyspiel
import pytest

import games
from solvers import abstractions, policy_io
from solvers.abstractions import AbstractedPolicy, bucket_label, row_label
from solvers.bots import make_bot
from solvers.mccfr import MCCFRSolver
from solvers.mccfr_parallel import increments, merge, snapshot
from solvers.policy_tables import decisions
from src_cy.rng import SplitMix64

KUHN = pyspiel.load_game("kuhn_poker")
SABOTEUR = pyspiel.load_game("saboteur", games.saboteur.MINI_PARAMS)


def _card(player: int, info: str) -> str:
    """Kuhn bucket: the card held (the same situation for either seat)."""
    return info[0]


def _card_shared(player: int, info: str) -> str:
    return info[0]


_card_shared.shared_seats = True


def test_labels_name_the_seat_unless_shared():
    assert bucket_label(1, _card, "2pb") == "1|'2'"
    assert bucket_label(1, _card_shared, "2pb") == "*|'2'"
    assert row_label(None, ("x",), [0, 2]).startswith("*|")
    assert row_label(3, ("x",), [0, 2]).startswith("3|")


@pytest.mark.parametrize("use_engine", [False, True])
@pytest.mark.parametrize("scheme", ["external", "outcome"])
def test_kuhn_card_buckets_are_three_shared_rows_or_six_per_seat(scheme, use_engine):
    """Kuhn by card held: 3 rows shared, 6 per seat (Python path and engine core)."""
    per_seat = MCCFRSolver(KUHN, scheme=scheme, seed=0, abstraction=_card,
                           use_engine=use_engine)
    shared = MCCFRSolver(KUHN, scheme=scheme, seed=0, abstraction=_card_shared,
                         use_engine=use_engine)
    per_seat.run(200)
    shared.run(200)
    assert sorted(per_seat.average_policy_table()) == [f"{p}|'{c}'" for p in (0, 1)
                                                       for c in "012"]
    assert sorted(shared.average_policy_table()) == ["*|'0'", "*|'1'", "*|'2'"]


def _engine_rows(s: MCCFRSolver) -> list[str]:
    return list(s._core.strings)


def test_engine_core_shares_raw_rows():
    """The core's raw path (no action abstraction): labels ``*|``, no seat copies."""
    shared_bucket = abstractions.get_abstraction("saboteur_compact_shared", SABOTEUR)
    # The compact bucket does not fix the legal actions, so pair it with them.

    def per_seat(p, e):
        return (shared_bucket(p, e), tuple(e.py_legal_actions()))

    def shared(p, e):
        return per_seat(p, e)

    per_seat.uses_engine = shared.uses_engine = True
    shared.shared_seats = True
    a = MCCFRSolver(SABOTEUR, scheme="outcome", seed=0, abstraction=per_seat)
    b = MCCFRSolver(SABOTEUR, scheme="outcome", seed=0, abstraction=shared)
    a.run(60)
    b.run(60)
    la, lb = _engine_rows(a), _engine_rows(b)
    assert all(not x.startswith("*|") for x in la) and all(x.startswith("*|") for x in lb)
    assert len(set(lb)) == len(lb)
    seats = {x.split("|", 1)[0] for x in la}
    assert len(seats) == SABOTEUR.num_players()          # every seat made rows of its own
    assert len(lb) < len(la)


def _abstract_solver(abstraction: str, seed: int = 0) -> MCCFRSolver:
    return MCCFRSolver(SABOTEUR, scheme="probe", seed=seed, abstraction=abstraction,
                       action_abstraction="saboteur_actions", fixed_opponents="heuristic",
                       probe_continuation="fixed", probe_epsilon=0.1)


def test_action_abstracted_rows_are_shared_and_pool_every_seats_probes():
    per_seat, shared = _abstract_solver("saboteur_compact"), _abstract_solver(
        "saboteur_compact_shared")
    per_seat.run(90)
    shared.run(90)
    lp, ls = _engine_rows(per_seat), _engine_rows(shared)
    assert all(x.startswith("*|") for x in ls) and len(set(ls)) == len(ls)
    stripped = {x.split("|", 1)[1] for x in lp}
    assert len(stripped) < len(lp)                  # seats met the same buckets ...
    assert len(ls) < len(lp)                        # ... which sharing keeps once
    vp = per_seat._core.probe_stats()["visits"].sum()
    vs = shared._core.probe_stats()["visits"].sum()
    assert vs > 0 and vp > 0
    assert shared._core.probe_stats()["visits"].max() > per_seat._core.probe_stats()[
        "visits"].max()


def test_shared_checkpoint_resumes_to_the_uninterrupted_tables(tmp_path):
    whole = _abstract_solver("saboteur_compact_shared", seed=4)
    whole.run(40)
    first = _abstract_solver("saboteur_compact_shared", seed=4)
    first.run(20)
    path = tmp_path / "ck.npz"
    first.save_checkpoint(path)
    resumed = _abstract_solver("saboteur_compact_shared", seed=4)
    resumed.load_checkpoint(path)
    resumed.run(20)
    a, b = whole._core.get_state(), resumed._core.get_state()
    assert a["strings"].tolist() == b["strings"].tolist()
    for k in ("regret", "avg", "visits", "sqdiff", "nact", "acts"):
        assert np.array_equal(a[k], b[k]), k


def test_merge_joins_a_shared_row_two_seats_created():
    """Two workers create the same shared row from different seats: one row."""
    base = _abstract_solver("saboteur_compact_shared")
    snap = snapshot(base._core)
    label = "*|(('play',), (0,))"
    part = {"idx": np.zeros(0, np.int64), "d_regret": np.zeros(0), "d_avg": np.zeros(0),
            "new_acts": np.asarray([0, 1], np.int64), "new_nact": np.asarray([2], np.int64),
            "new_regret": np.asarray([1.0, 2.0]), "new_avg": np.asarray([0.5, 0.5]),
            "new_strings": [label], "keys": np.zeros(0, np.uint64),
            "slots": np.zeros(0, np.int64)}
    other = dict(part, new_player=np.asarray([2], np.int64))
    part["new_player"] = np.asarray([0], np.int64)
    out = merge(snap, [part, other], keep_strings=True)
    assert out["strings"] == [label]
    assert np.array_equal(out["regret"], [2.0, 4.0])
    per_seat = [dict(p, new_strings=["0|x"] if i == 0 else ["2|x"]) for i, p in
                enumerate((part, other))]
    assert len(merge(snap, per_seat, keep_strings=True)["strings"]) == 2
    assert increments(snap, snap)["new_strings"] == []


def test_a_shared_solve_plays_its_rows_in_every_seat(tmp_path):
    s = _abstract_solver("saboteur_compact_shared")
    s.run(150)
    pol = s.greedy_policy(fallback="default")
    assert isinstance(pol, AbstractedPolicy)
    path = tmp_path / "shared.npz"
    policy_io.save_array_policy(path, pol, solver="probe", iterations=150, seed=0)
    assert policy_io.read_array_policy_header(path)["meta"]["abstraction"] == \
        "saboteur_compact_shared"
    loaded = policy_io.load_policy_file(path, SABOTEUR, fallback="default")
    bot = make_bot("cfr", SABOTEUR, policy_file=str(path), fallback="default")
    found = {p: 0 for p in range(SABOTEUR.num_players())}
    rng = SplitMix64(1)
    for _ in range(3):
        for state, p in decisions(SABOTEUR, rng):
            if loaded.concrete_row(state) is not None:
                found[p] += 1
            probs, action = bot.step_with_policy(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    assert all(n > 0 for n in found.values()), found    # every seat finds shared rows
