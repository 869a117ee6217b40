"""Action abstractions: the generic MCCFR option, policy files and bots, Saboteur's set."""
import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import exploitability as os_expl

import games
from solvers import abstractions, policy_io
from solvers.abstractions import AbstractedPolicy, ActionAbstraction, get_action_abstraction
from solvers.bots import make_bot
from games.saboteur.ai import ActionIds, SaboteurHeuristicBot
from solvers.mccfr import MCCFRSolver

KUHN = pyspiel.load_game("kuhn_poker")
LEDUC = pyspiel.load_game("leduc_poker")
SABOTEUR = pyspiel.load_game("saboteur", games.saboteur.MINI_PARAMS)


class Relabel(ActionAbstraction):
    """Lossless: abstract id = concrete action (checks the plumbing)."""

    name = "test_relabel"
    action_names = ("a0", "a1", "a2")

    def candidates(self, player, info, legal):
        return [a if a in legal else None for a in range(3)]


class NoFold(ActionAbstraction):
    """Leduc without folding: "call" and "raise" only (lossy)."""

    name = "test_nofold"
    action_names = ("call", "raise")

    def candidates(self, player, info, legal):
        return [1 if 1 in legal else None, 2 if 2 in legal else None]


class SameMove(ActionAbstraction):
    name = "test_same"
    action_names = ("first", "again", "last")

    def candidates(self, player, info, legal):
        return [legal[0], legal[0], legal[-1]]


@pytest.fixture(autouse=True)
def _registered(monkeypatch):
    for a in (Relabel(), NoFold()):
        monkeypatch.setitem(abstractions._ACTION_REGISTRY, a.name, a)


@pytest.mark.parametrize("use_engine", [True, False])
@pytest.mark.parametrize("scheme,iters,bound", [("external", 5000, 0.02),
                                                pytest.param("outcome", 20000, 0.05,
                                                             marks=pytest.mark.slow)])
def test_lossless_action_abstraction_converges_on_kuhn(use_engine, scheme, iters, bound):
    s = MCCFRSolver(KUHN, scheme=scheme, seed=1, use_engine=use_engine,
                    action_abstraction="test_relabel")
    s.run(iters)
    assert s.num_infosets == 12
    pol = s.average_policy()
    assert isinstance(pol, AbstractedPolicy)
    assert os_expl.exploitability(KUHN, pol) < bound
    assert pol.misses == 0


@pytest.mark.parametrize("use_engine", [True, False])
def test_lossy_abstraction_never_plays_removed_actions(use_engine):
    s = MCCFRSolver(LEDUC, scheme="external", seed=0, use_engine=use_engine,
                    action_abstraction="test_nofold")
    s.run(300)
    pol = s.average_policy()
    table = s.average_policy_table()
    assert all(set(acts) <= {0, 1} for _, acts, _ in table.values())
    rng = random.Random(0)
    for _ in range(30):
        state = LEDUC.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
                continue
            probs = pol.action_probabilities(state)
            assert set(probs) == set(state.legal_actions())
            assert probs.get(0, 0.0) == 0.0 and sum(probs.values()) == pytest.approx(1.0)
            state.apply_action(rng.choice([a for a, p in probs.items() if p > 0]))


def test_repeated_moves_are_dropped():
    got = SameMove().actions(0, None, [3, 5, 8])
    assert got == [(0, 3), (2, 8)]
    class Illegal(SameMove):
        def candidates(self, player, info, legal):
            return [7]
    with pytest.raises(ValueError, match="illegal action 7"):
        Illegal().actions(0, None, [3, 5, 8])
    assert Relabel().actions(0, None, [0, 2]) == [(0, 0), (2, 2)]
    with pytest.raises(ValueError, match="maps no abstract action"):
        NoFold().actions(0, None, [0])


@pytest.mark.parametrize("use_engine", [True, False])
def test_same_seed_same_table_and_checkpoint_resume(tmp_path, use_engine):
    def solver():
        return MCCFRSolver(LEDUC, scheme="outcome", seed=4, use_engine=use_engine,
                           action_abstraction="test_nofold")
    straight = solver()
    straight.run(400)
    again = solver()
    again.run(400)
    assert again.average_policy_table() == straight.average_policy_table()
    first = solver()
    first.run(150)
    path = tmp_path / "c.npz"
    first.save_checkpoint(path)
    resumed = solver()
    resumed.load_checkpoint(path)
    resumed.run(250)
    assert resumed.average_policy_table() == straight.average_policy_table()
    with pytest.raises(ValueError, match="settings"):
        MCCFRSolver(LEDUC, scheme="outcome", use_engine=use_engine).load_checkpoint(path)
    with pytest.raises(ValueError, match="settings"):
        MCCFRSolver(LEDUC, scheme="outcome", use_engine=use_engine,
                    action_abstraction="test_relabel").load_checkpoint(path)


def test_bad_action_abstractions_refused():
    with pytest.raises(ValueError, match="unknown action abstraction"):
        MCCFRSolver(KUHN, action_abstraction="nope")
    with pytest.raises(TypeError, match="ActionAbstraction"):
        MCCFRSolver(KUHN, action_abstraction=lambda p, i, legal: legal)
    with pytest.raises(ValueError, match="unknown action abstraction"):
        MCCFRSolver(KUHN, action_abstraction="saboteur_actions")   # another game's
    with pytest.raises(ValueError, match="reads the engine"):
        MCCFRSolver(SABOTEUR, action_abstraction="saboteur_actions", use_engine=False)
    with pytest.raises(ValueError, match="needs a name"):
        abstractions.register_action_abstraction(ActionAbstraction())


def test_saboteur_abstractions_come_from_its_spec():
    from games.saboteur.abstraction import ABSTRACTIONS, SaboteurActions, saboteur_compact
    spec = games.spec.get_spec("saboteur")
    assert spec.abstraction() is ABSTRACTIONS
    assert abstractions.get_abstraction("saboteur_compact", SABOTEUR) is saboteur_compact
    assert abstractions.get_abstraction("saboteur_compact", "saboteur") is saboteur_compact
    assert isinstance(get_action_abstraction("saboteur_actions", SABOTEUR), SaboteurActions)
    assert abstractions.game_abstractions(KUHN) == abstractions.GameAbstractions()
    with pytest.raises(ValueError, match="unknown abstraction 'saboteur_compact'"):
        abstractions.get_abstraction("saboteur_compact", LEDUC)
    with pytest.raises(ValueError, match="must be an ActionAbstraction named 'x'"):
        abstractions.GameAbstractions(actions={"x": SaboteurActions()})
    with pytest.raises(ValueError, match="not callable"):
        abstractions.GameAbstractions(information={"x": 3})


def _saboteur_decisions(games_n: int, seed: int, game=SABOTEUR, move=None):
    """(state, player) at every decision of seeded games (default: Saboteur mini),
    each move ``move(state, rng)`` (default: uniformly random)."""
    rng = random.Random(seed)
    for _ in range(games_n):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices([a for a, _ in outcomes],
                                               [p for _, p in outcomes])[0])
                continue
            yield state, state.current_player()
            state.apply_action(move(state, rng) if move else rng.choice(state.legal_actions()))


@pytest.mark.parametrize("game", [
    SABOTEUR,  # the mini deck has no dead ends: "clear" never exists there
    pyspiel.load_game("saboteur(players=3,rounds=1,goal_distance=3,hand_size=3)")])
def test_saboteur_actions_map_to_the_moves_they_name(game):
    aa = get_action_abstraction("saboteur_actions", game)
    heuristic = SaboteurHeuristicBot(game)
    seen = set()
    for state, p in _saboteur_decisions(25, 0, game):
        e = state.engine
        legal = state.legal_actions()
        pairs = aa.actions(p, e, legal)
        ids = [k for k, _ in pairs]
        conc = [a for _, a in pairs]
        assert ids == sorted(set(ids)) and len(set(conc)) == len(conc) and set(conc) <= set(legal)
        assert pairs[0] == (0, heuristic.step(state))
        acts = ActionIds.of(e)
        for k, a in pairs:
            name = aa.action_names[k]
            seen.add(name)
            text = state.action_to_string(p, a)
            if name == "extend":
                assert acts.is_place(a) and acts.placement(a)[0] < 7, text
            elif name == "block":
                assert ((acts.is_place(a) and acts.placement(a)[0] >= 7)
                        or text.startswith("rockfall")), text
            elif name == "clear":
                assert text.startswith("rockfall")
                assert (e.player_view(p)["board"][e.cell_xy(acts.rockfall_cell(a))][0]
                        in range(7, 16))
            elif name == "break":
                assert text.startswith("break") and not text.endswith(f"p{p}"), text
            elif name == "repair":
                assert ": fix" in text, text
            elif name == "map":
                assert text.startswith("map goal"), text
            elif name == "pass":
                assert acts.is_pass(a), text
    assert seen == set(aa.action_names) - ({"clear"} if game is SABOTEUR else set())


def test_saboteur_buckets_and_actions_read_only_the_players_information():
    """A resampled world (same information state) gives the same bucket and moves."""
    aa = get_action_abstraction("saboteur_actions", SABOTEUR)
    compact = abstractions.get_abstraction("saboteur_compact", SABOTEUR)
    checked = 0
    for i, (state, p) in enumerate(_saboteur_decisions(6, 1)):
        e = state.engine
        label = abstractions.abstract_row(p, e, None, state.legal_actions(), compact, aa)
        for seed in range(2):
            world = state.resample(p, 100 * i + seed)
            assert world.information_state_string(p) == state.information_state_string(p)
            assert abstractions.abstract_row(p, world.engine, None, world.legal_actions(),
                                             compact, aa) == label
            checked += 1
    assert checked > 20


def test_saboteur_policy_file_and_bot(tmp_path):
    s = MCCFRSolver(SABOTEUR, scheme="outcome", seed=0, abstraction="saboteur_compact",
                    action_abstraction="saboteur_actions")
    s.run(150)
    pol = s.average_policy()
    path = tmp_path / "sab.npz"
    policy_io.save_array_policy(path, pol, solver="OS-MCCFR", iterations=150, seed=0)
    header = policy_io.read_array_policy_header(path)
    assert header["meta"] == {"abstraction": "saboteur_compact",
                              "action_abstraction": "saboteur_actions"}
    assert header["key_kind"] == "string"
    loaded = policy_io.load_policy_file(path, SABOTEUR)
    assert isinstance(loaded, AbstractedPolicy)
    assert np.array_equal(loaded.table.probs, pol.table.probs)
    bot = make_bot("cfr", SABOTEUR, policy_file=str(path), seed=3)
    heuristic = make_bot("heuristic", SABOTEUR)
    rng = random.Random(5)
    for _ in range(4):
        state = SABOTEUR.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices([a for a, _ in outcomes],
                                               [p for _, p in outcomes])[0])
            elif state.current_player() == 0:
                probs, action = bot.step_with_policy(state)
                assert action in state.legal_actions()
                assert sum(p for _, p in probs) == pytest.approx(1.0)
                expected = {a: p for a, p in pol.action_probabilities(state).items() if p > 0}
                assert {a: p for a, p in probs if p > 0} == pytest.approx(expected)
                state.apply_action(action)
            else:
                state.apply_action(heuristic.step(state))
    stats = bot.stats()
    assert stats["decisions"] > 0 and 0 <= stats["misses"] <= stats["decisions"]
    greedy = make_bot("cfr", SABOTEUR, policy_file=str(path), purify=True)
    state = SABOTEUR.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    probs, action = greedy.step_with_policy(state)
    assert action == max(probs, key=lambda ap: ap[1])[0]
    with pytest.raises(ValueError, match="purify"):
        make_bot("cfr", SABOTEUR, policy_file=str(path), purify="yes")


def test_abstracted_policy_file_refusals(tmp_path, monkeypatch):
    s = MCCFRSolver(LEDUC, scheme="outcome", seed=0, action_abstraction="test_nofold")
    s.run(50)
    path = tmp_path / "l.npz"
    policy_io.save_array_policy(path, s.average_policy(), solver="OS-MCCFR", iterations=50)
    assert isinstance(policy_io.load_policy_file(path, LEDUC), AbstractedPolicy)
    with pytest.raises(policy_io.PolicyFileError, match="not kuhn"):
        policy_io.load_policy_file(path, KUHN)
    monkeypatch.delitem(abstractions._ACTION_REGISTRY, "test_nofold")
    with pytest.raises(policy_io.PolicyFileError, match="unknown action abstraction"):
        policy_io.load_policy_file(path, LEDUC)
    unnamed = MCCFRSolver(LEDUC, seed=0, action_abstraction=NoFold(),
                          abstraction=lambda p, info: info[:3])
    unnamed.run(5)
    with pytest.raises(ValueError, match="registered name"):
        policy_io.save_array_policy(tmp_path / "u.npz", unnamed.average_policy(),
                                    solver="x", iterations=5)


@pytest.mark.slow
@pytest.mark.integration
@pytest.mark.parametrize("mode", ["response", "self-play"])
def test_main_job_saboteur_over_the_abstraction(tmp_path, monkeypatch, mode):
    measure = "paired difference vs heuristic"      # both modes
    from experiments import policy_tables as script
    monkeypatch.setattr(script, "HEAD_TO_HEAD_GAMES", 12)
    monkeypatch.setattr(script, "PAIRED_DEALS", 4)
    monkeypatch.setattr(script, "PAIRED_FINAL_DEALS", 6)
    monkeypatch.setattr(script, "SAMPLED_EPISODES", 30)
    monkeypatch.setattr(script, "CHECKPOINTS", 2)
    monkeypatch.setattr(script, "BR_RESPONDER", {"worlds": 1, "rollouts": 1, "lookahead": 0})
    outs = []
    for run in ("a", "b"):
        out = tmp_path / run
        extra = (["--best-deals", "2", "--br-deals", "2"] if mode == "response" and run == "a"
                 else [])
        (summary,) = script.main(["--games", "saboteur", "--iterations", "6", "--out", str(out),
                                  "--mccfr-mode", mode, *extra])
        if extra:
            mean, half, deals = summary["vs_best"]
            assert deals == 2 and f"**{mean:+.4f} ± {half:.4f}** over 2 deals" in (
                out / "saboteur" / "policy_table.md").read_text()
            mean, half, deals = summary["lower_bound"]
            assert deals == 2 and f"**{mean:+.4f} ± {half:.4f}** over 2 deals" in (
                out / "saboteur" / "policy_table.md").read_text()
        else:
            assert summary["vs_best"] is None and summary["lower_bound"] is None
        outs.append(out / "saboteur")
    assert "abstracted" in summary["solver"] and summary["measure"] == measure
    folder = outs[0]
    header = (folder / "policy_table.csv").read_text().splitlines()[0]
    assert header.startswith("player,phase,role,steps,treasure_known")
    policies = [row.rsplit(",", 1)[1] for row in
                (folder / "policy_table.csv").read_text().splitlines()[1:]]
    names = {item.split("=")[0].strip('" ') for cell in policies for item in cell.split("; ")}
    assert names <= set(get_action_abstraction("saboteur_actions", SABOTEUR).action_names)
    assert "heuristic" in names
    with open(folder / "convergence.csv") as f:
        assert f.readline().strip() == f"iterations,seconds,{measure},ci95"
    pol = policy_io.load_policy_file(folder / "policy.npz", SABOTEUR)
    assert isinstance(pol, AbstractedPolicy) and pol.num_rows == summary["infosets"]
    for name in ("policy_table.csv", "policy.npz"):
        assert (outs[0] / name).read_bytes() == (outs[1] / name).read_bytes(), name
    md = (folder / "policy_table.md").read_text()
    mean, half, deals = summary["paired"]
    assert deals == 6 and f"**{mean:+.4f} ± {half:.4f}**" in md
    pure = all(sorted(set(pol.table.probs[o:o + n].tolist())) in ([1.0], [0.0, 1.0])
               for o, n in zip(pol.table.row_offset.tolist(), pol.table.row_num.tolist()))
    assert pure == (mode == "response")      # greedy response; averaged self-play
    with pytest.raises(SystemExit):
        script.main(["--games", "saboteur", "--paired-deals", "1", "--out", str(tmp_path)])


def test_paired_head_to_head_against_the_heuristic():
    """The heuristic against itself scores exactly 0; uniform random play in its
    seat is clearly worse; the same deals give the same numbers."""
    from experiments.policy_tables import HeuristicPolicy, paired_vs_heuristic
    from open_spiel.python import policy as os_policy
    paired = paired_vs_heuristic(SABOTEUR, deals=40, seed=2)
    assert paired.baseline.shape == (40, 3)
    assert paired(HeuristicPolicy(SABOTEUR)) == (0.0, 0.0)
    uniform = os_policy.UniformRandomPolicy(SABOTEUR)
    mean, half = paired(uniform)
    assert mean + half < 0
    assert paired_vs_heuristic(SABOTEUR, deals=40, seed=2)(uniform) == (mean, half)
    with pytest.raises(ValueError, match="deals"):
        paired_vs_heuristic(SABOTEUR, deals=1, seed=0)


def test_default_fallback_plays_the_first_abstract_action(tmp_path):
    """An unseen bucket under fallback "default" plays abstract action 0 (Saboteur's
    heuristic move), in the policy and in the bot; plain policies refuse it."""
    s = MCCFRSolver(SABOTEUR, scheme="external", seed=0, abstraction="saboteur_compact",
                    action_abstraction="saboteur_actions", fixed_opponents="heuristic")
    pol = s.greedy_policy(fallback="default")
    assert pol.num_rows == 0                      # nothing solved: every lookup misses
    heuristic = SaboteurHeuristicBot(SABOTEUR)
    for state, p in _saboteur_decisions(3, 4):
        probs = pol.action_probabilities(state)
        assert probs[heuristic.step(state)] == 1.0 and sum(probs.values()) == 1.0
    assert pol.misses == pol.lookups > 0
    s.run(3)
    path = tmp_path / "g.npz"
    policy_io.save_array_policy(path, s.greedy_policy(), solver="ES-MCCFR", iterations=3)
    bot = make_bot("cfr", SABOTEUR, policy_file=str(path), fallback="default")
    loaded = policy_io.load_policy_file(path, SABOTEUR, fallback="default")
    for state, p in _saboteur_decisions(3, 5):
        probs, action = bot.step_with_policy(state)
        if loaded.concrete_row(state) is None:
            assert action == heuristic.step(state)
        expected = {a: q for a, q in loaded.action_probabilities(state).items() if q > 0}
        assert {a: q for a, q in probs if q > 0} == pytest.approx(expected)
    with pytest.raises(ValueError, match="fallback must be one of"):
        s.greedy_policy(fallback="nope")
    with pytest.raises(ValueError, match="needs a policy over an action abstraction"):
        make_bot("cfr", KUHN, iterations=2, fallback="default")
