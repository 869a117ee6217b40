"""experiments.search_table: a search bot's play tabulated like a solved policy."""
from __future__ import annotations

import pyspiel
import pytest

import games  # noqa: F401
from experiments import search_table as st
from solvers.abstractions import get_action_abstraction
from solvers.policy_tables import table_specs

ENTRIES = table_specs()


def test_the_heuristic_is_its_own_abstract_action_everywhere():
    """Saboteur's abstract action ``heuristic`` is the heuristic bot's move, so
    the heuristic's own play is tabulated as that action with probability 1."""
    entry = ENTRIES["saboteur"]
    game = entry.load("mini")
    rows = st.search_situation_table(game, entry, "heuristic", 2, 5, abstract=True,
                                     progress=False)
    assert rows
    names = set(get_action_abstraction("saboteur_actions", game).action_names)
    for r in rows:
        assert set(r["actions"]) <= names
        assert r["actions"]["heuristic"] == pytest.approx(1.0)


def test_plain_table_sums_to_one_and_repeats_with_the_seed(tmp_path):
    entry = ENTRIES["gold_thief"]
    args = ["--games", "gold_thief", "--preset", "mini", "--bot", "random", "--episodes", "6",
            "--no-progress"]
    (a,) = st.main(args + ["--out", str(tmp_path / "a")])
    st.main(args + ["--out", str(tmp_path / "b")])
    assert a["compared"] is None and a["situations"] > 0
    text = (tmp_path / "a" / "gold_thief" / "search_table.csv").read_text()
    assert text == (tmp_path / "b" / "gold_thief" / "search_table.csv").read_text()
    rows = st.search_situation_table(entry.load("mini"), entry, "random", 6, 0,
                                     abstract=False, progress=False)
    for r in rows:
        assert sum(r["actions"].values()) == pytest.approx(1.0)
    st.main(args[:-1] + ["--seed", "1", "--no-progress", "--out", str(tmp_path / "c")])
    assert (tmp_path / "c" / "gold_thief" / "search_table.csv").read_text() != text


def test_comparison_ranks_disagreements_and_is_zero_against_itself(tmp_path):
    args = ["--games", "gold_thief", "--preset", "mini", "--episodes", "4", "--no-progress",
            "--out", str(tmp_path)]
    st.main(args + ["--bot", "random"])
    folder = tmp_path / "gold_thief"
    (folder / "search_table.csv").rename(folder / "policy_table.csv")
    cols, same = st.compare(str(folder / "policy_table.csv"), str(folder / "policy_table.csv"))
    assert same and all(r["tv"] == pytest.approx(0.0, abs=1e-3) for r in same)
    (summary,) = st.main(args + ["--bot", "heuristic"])
    assert summary["compared"] > 0
    _, rows = st.compare(str(folder / "search_table.csv"), str(folder / "policy_table.csv"))
    weights = [r["weight"] for r in rows]
    assert weights == sorted(weights, reverse=True) and max(r["tv"] for r in rows) > 0.3
    md = (folder / "search_vs_solve.md").read_text()
    assert md.count("\n| ") == min(len(rows), st.COMPARE_ROWS) + 2   # + header, rule


def test_bad_input_is_refused(tmp_path):
    with pytest.raises(SystemExit):
        st.main(["--games", "chess", "--out", str(tmp_path)])
    with pytest.raises(SystemExit):
        st.main(["--games", "gold_thief", "--episodes", "0", "--out", str(tmp_path)])
    bad = tmp_path / "bad.csv"
    bad.write_text("a,b\n1,2\n")
    with pytest.raises(ValueError, match="not a policy-table CSV"):
        st.compare(str(bad), str(bad))
    entry = ENTRIES["gold_thief"]
    with pytest.raises(ValueError, match="episodes"):
        st.search_situation_table(pyspiel.load_game("gold_thief"), entry, "random", 0, 0,
                                  abstract=False)
