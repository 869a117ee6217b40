"""Gold Thief heuristic rollouts: engine and pyspiel twins agree; bots use them."""
import random

import pyspiel
import pytest

import games  # noqa: F401
from games.saboteur.ai import ActionIds
from games.testing import random_action
from solvers import ismcts as I
from games.gold_thief.rollout import gold_thief_rollout


def _position(players: int, seed: int) -> pyspiel.State:
    game = pyspiel.load_game("gold_thief", {"players": players})
    rng = random.Random(seed)
    state = game.new_initial_state()
    while state.is_chance_node() or state.move_number() < 30 + seed:
        state.apply_action(random_action(state, rng))
    return state


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 4), (4, 2)])
def test_heuristic_rollouts_identical_on_both_paths(players, seed):
    state = _position(players, seed)
    player = state.current_player()
    fast_policy = I._resolve_rollout("gold_thief", "heuristic", True)
    kw = dict(max_simulations=300, seed=7)
    fast = I.fast_search(state.engine, player, rollout=fast_policy, **kw)
    slow = I.slow_search(state, player, rollout=gold_thief_rollout, **kw)
    assert fast == slow
    assert fast != I.fast_search(state.engine, player, **kw)   # the policy matters


def test_rollout_rules():
    rng = I.SplitMix64(0)
    assert gold_thief_rollout(None, [1, 46 + 3], rng) == 49          # always score
    assert gold_thief_rollout(None, [0], rng) == 0
    picks = {gold_thief_rollout(None, [0, 2, 3, 41], rng) for _ in range(200)}
    assert picks == {0, 2, 3, 41}
    window = [gold_thief_rollout(None, [1, 42], rng) for _ in range(400)]
    assert 150 < window.count(42) < 250                              # about half


def test_bot_accepts_heuristic_rollout():
    game = pyspiel.load_game("gold_thief", {"players": 2})
    bot = I.ISMCTSBot(game, max_simulations=100, seed=1, rollout="heuristic")
    state = _position(2, 1)
    assert bot.step(state) in state.legal_actions()


# ---------------------------------------------------------------- Saboteur
from games.saboteur import saboteur_rollout  # noqa: E402

CROSS, DE_EW, MAP, BRK_PICK, REP_PICK = 6, 12, 16, 18, 21
DIG, SAB = 0, 1


def _sab_position(params: dict, seed: int) -> pyspiel.State:
    game = pyspiel.load_game("saboteur", params)
    rng = random.Random(seed)
    state = game.new_initial_state()
    while state.is_chance_node() or state.move_number() < 3 * params["players"] + 20 + seed:
        state.apply_action(random_action(state, rng))
    return state


@pytest.mark.parametrize("players,seed", [(3, 1), (3, 5), (5, 2), (5, 7)])
def test_saboteur_heuristic_rollouts_identical_on_both_paths(players, seed):
    state = _sab_position({"players": players, "rounds": 1, "deck_scale": 50}, seed)
    player = state.current_player()
    fast_policy = I._resolve_rollout("saboteur", "heuristic", True)
    kw = dict(max_simulations=150, seed=seed)
    fast = I.fast_search(state.engine, player, rollout=fast_policy, **kw)
    slow = I.slow_search(state, player, rollout=saboteur_rollout, **kw)
    assert fast == slow
    assert fast != I.fast_search(state.engine, player, **kw)   # the policy matters


@pytest.mark.parametrize("players", [3, 5])
def test_saboteur_rollout_plays_legal_moves_to_the_end(players):
    game = pyspiel.load_game("saboteur", {"players": players, "rounds": 2, "deck_scale": 50})
    rng = I.SplitMix64(players)
    for _ in range(6):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(I.sample_sorted(sorted(state.chance_outcomes()), rng))
                continue
            legal = sorted(state.legal_actions())
            action = saboteur_rollout(state, legal, rng)
            assert action in legal
            state.apply_action(action)
        state.engine.check_invariants()


def _sab_setup(roles: list[int], hands: list[list[int]]) -> pyspiel.State:
    """Roles dealt in seat order, the treasure in the north slot, chosen hands,
    goals 4 steps east of the start; player 0 to move."""
    n = len(hands)
    game = pyspiel.load_game("saboteur", {"players": n, "rounds": 1, "goal_distance": 4,
                                          "hand_size": len(hands[0])})
    state = game.new_initial_state()
    for r in roles:
        state.apply_action(r)
    state.apply_action(0)
    for i in range(n * len(hands[0])):
        state.apply_action(hands[i % n][i // n])
    assert state.current_player() == 0
    return state


def _choices(state: pyspiel.State, draws: int = 400) -> list[int]:
    legal = sorted(state.legal_actions())
    rng = I.SplitMix64(3)
    out = [saboteur_rollout(state, legal, rng) for _ in range(draws)]
    assert set(out) <= set(legal)
    return out


def test_saboteur_rollout_digger_heads_for_the_goals():
    state = _sab_setup([DIG, SAB, DIG], [[CROSS, DE_EW], [MAP, MAP], [MAP, MAP]])
    e = state.engine
    ids = ActionIds.of(e)
    toward = ids.place(CROSS, 0, e.cell_action(1, 0))
    out = _choices(state)
    assert 330 < out.count(toward) < 395                 # 0.9 + 0.1 / 6 expected
    assert not any(ids.is_place(a) and ids.placement(a)[0] == DE_EW for a in out)  # no dead ends


def test_saboteur_rollout_saboteur_blocks_and_never_builds():
    state = _sab_setup([SAB, DIG, DIG], [[CROSS, DE_EW], [MAP, MAP], [MAP, MAP]])
    e = state.engine
    ids = ActionIds.of(e)
    block = ids.place(DE_EW, 0, e.cell_action(1, 0))
    out = _choices(state)
    assert 305 < out.count(block) < 375                  # 0.8 + 0.2 / 4 expected
    assert not any(ids.is_place(a) and ids.placement(a)[0] == CROSS for a in out)  # no open paths


def test_saboteur_rollout_repairs_own_tool_first():
    state = _sab_setup([DIG, SAB, DIG], [[REP_PICK, MAP], [BRK_PICK, CROSS], [MAP, CROSS]])
    ids = ActionIds.of(state.engine)
    state.apply_action(ids.pass_discarding(MAP))         # p0 passes
    state.apply_action(CROSS)                            # and draws
    state.apply_action(ids.break_tool(0, 0))             # p1 breaks p0's pickaxe
    state.apply_action(CROSS)
    state.apply_action(ids.pass_discarding(MAP))         # p2 passes
    state.apply_action(CROSS)
    assert state.current_player() == 0
    assert set(_choices(state, 50)) == {ids.repair(0, 0, 0)}   # repair pickaxe of p0


def test_bot_accepts_saboteur_heuristic_rollout():
    game = pyspiel.load_game("saboteur", {"players": 3, "rounds": 1, "deck_scale": 50})
    bot = I.ISMCTSBot(game, max_simulations=50, seed=1, rollout="heuristic")
    state = _sab_position({"players": 3, "rounds": 1, "deck_scale": 50}, 2)
    assert bot.step(state) in state.legal_actions()


# ------------------------------------------------ knowledge rollouts (twins)
@pytest.mark.parametrize("name,players,seed", [("gold_nugget", 2, 1), ("gold_nugget", 3, 2),
                                               ("ardillas_del_bosque", 2, 1),
                                               ("ardillas_del_bosque", 3, 2)])
def test_knowledge_rollouts_identical_on_both_paths(name, players, seed):
    """Gold Nugget's and Ardillas' engine rollouts and their pyspiel twins
    (``games.spec.engine_twin``) give the same search; bots accept them."""
    from games.spec import find_spec
    game = pyspiel.load_game(name, {"players": players})
    rng = random.Random(seed)
    state = game.new_initial_state()
    while state.is_chance_node() or state.move_number() < 40:
        state.apply_action(random_action(state, rng))
    player = state.current_player()
    kw = dict(max_simulations=150, seed=7)
    fast = I.fast_search(state.engine, player,
                         rollout=I._resolve_rollout(name, "heuristic", True), **kw)
    slow = I.slow_search(state, player, rollout=find_spec(name).slow_rollout(), **kw)
    assert fast == slow
    assert fast != I.fast_search(state.engine, player, **kw)    # the policy matters
    bot = I.ISMCTSBot(game, max_simulations=30, seed=1, rollout="heuristic")
    assert bot.step(state) in state.legal_actions()


def test_rollout_choice_refuses_bad_calls():
    """``src_cy.ismcts.rollout_choice`` (every engine twin's entry) names what
    is wrong: a chance node, or no actions."""
    from src_cy.gold_nugget.rollout import GoldNuggetRollout
    from src_cy.ismcts import rollout_choice
    state = pyspiel.load_game("gold_nugget", {"players": 2}).new_initial_state()
    with pytest.raises(ValueError, match="decision node"):
        rollout_choice(GoldNuggetRollout(), state.engine, [0], 1)
    while state.is_chance_node():
        state.apply_action(random_action(state, random.Random(0)))
    with pytest.raises(ValueError, match="1..1024 actions, got 0"):
        rollout_choice(GoldNuggetRollout(), state.engine, [], 1)


def test_knowledge_rollouts_on_another_games_engine_are_uniform():
    """A game's policy handed another game's engine does not read it as its
    own state (no crash): it draws uniformly, as a random rollout would."""
    from src_cy.ardillas_del_bosque.rollout import ArdillasRollout
    from src_cy.gold_nugget.rollout import GoldNuggetRollout
    from src_cy.ismcts import rollout_choice
    state = _position(2, 1)                     # a Gold Thief decision
    legal = state.legal_actions()
    for policy in (GoldNuggetRollout(), ArdillasRollout()):
        s, picks = 5, set()
        for _ in range(60 * len(legal)):
            a, s = rollout_choice(policy, state.engine, legal, s)
            picks.add(a)
        assert picks == set(legal)
