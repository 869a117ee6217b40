"""The maze-distance evaluation and the belief bot's options (games/saboteur/search.py)."""
import pyspiel
import pytest

import games  # noqa: F401
from solvers.bots import make_bot
from solvers.ismcts import SplitMix64, sample_sorted
from games.saboteur.search import (BeliefSaboteurBot, SaboteurBeliefAnchor, maze_distance, maze_frontier,
                                     possible_treasure_slots, scored_moves)

START = {(0, 0): (16, 0, 15, True, True)}
N, E, S, W = 1, 2, 4, 8


def card(edges: int, passable: bool = True) -> tuple:
    return (0, 0, edges, False, passable)


def test_distance_on_the_bare_start():
    up = [False] * 3
    assert maze_distance(START, 8, [1], up) == 7          # (1,0)..(7,0)
    assert maze_distance(START, 8, [0], up) == 9          # to a cell next to (8,-2)
    assert maze_distance(START, 8, [0, 1, 2], up) == 7
    assert maze_frontier(START, 8) == {(1, 0), (-1, 0), (0, 1), (0, -1)}


def test_a_dead_end_blocks_and_a_path_shortens():
    up = [False] * 3
    blocked = {**START, (1, 0): card(W, passable=False)}
    assert maze_frontier(blocked, 8) == {(-1, 0), (0, 1), (0, -1)}
    assert maze_distance(blocked, 8, [1], up) == 9
    straight = {**START, (1, 0): card(E | W), (2, 0): card(E | W)}
    assert maze_distance(straight, 8, [1], up) == 5
    # a card whose edge does not meet the start's is not reached
    turned_away = {**START, (1, 0): card(N | S)}
    assert (2, 0) not in maze_frontier(turned_away, 8)
    walled = {**START, **{(x, y): card(0, passable=False) for x in (1, -1) for y in (-1, 0, 1)},
              (0, 1): card(0, passable=False), (0, -1): card(0, passable=False)}
    assert maze_distance(walled, 8, [1], up, limit=40) == 40


def test_reaching_the_target_is_distance_zero():
    board = {**START, **{(x, 0): card(E | W) for x in range(1, 8)}}
    assert maze_distance(board, 8, [1], [False] * 3) == 0
    assert maze_distance(board, 8, [0], [False] * 3) > 0


def test_possible_treasure_slots():
    assert possible_treasure_slots([-1, -1, -1]) == [0, 1, 2]
    assert possible_treasure_slots([-1, 2, -1]) == [0, 2]
    assert possible_treasure_slots([1, -1, 0]) == [2]


def play(players: int, moves: int, seed: int):
    game = pyspiel.load_game("saboteur", {"players": players, "rounds": 1})
    bots = [make_bot("heuristic", game, seed=p) for p in range(players)]
    rng = SplitMix64(seed)
    s = game.new_initial_state()
    n = 0
    while not s.is_terminal() and n < moves:
        if s.is_chance_node():
            s.apply_action(sample_sorted(sorted(s.chance_outcomes()), rng))
            continue
        s.apply_action(bots[s.current_player()].step(s))
        n += 1
    while s.is_chance_node():
        s.apply_action(sample_sorted(sorted(s.chance_outcomes()), rng))
    return s


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_frontier_matches_the_engine_before_and_after_each_placement(seed):
    s = play(5, 18, seed)
    assert not s.is_terminal()
    me = s.current_player()
    view = s.engine.player_view(me)
    gx = view["goal_distance"]
    assert maze_frontier(view["board"], gx) == set(view["frontier"])
    C = (2 * s.engine.grid_radius + 1) ** 2
    checked = 0
    for d, a in scored_moves(s, me, sorted(s.legal_actions()), [0, 1, 2],
                             (range(0, 16),), True):
        t = s.clone()
        t.apply_action(a)
        after = t.engine.player_view(me)
        if t.is_terminal() or any(after["goals_up"]):
            continue                     # a goal turned: the engine read hidden cards
        assert maze_frontier(after["board"], gx) == set(after["frontier"]), \
            s.action_to_string(me, a)
        assert d == maze_distance(after["board"], gx, [0, 1, 2], after["goals_up"])
        checked += a < 32 * C
    assert checked > 0


def test_new_options_are_validated():
    game = pyspiel.load_game("saboteur", {"players": 5, "rounds": 1})
    for bad in (dict(strike=-1), dict(patience=-2)):
        with pytest.raises(ValueError):
            BeliefSaboteurBot(game, **bad)


@pytest.mark.parametrize("options", [dict(strike=5, useful_blocks=True),
                                     dict(dig_eval=True, repair_first=True),
                                     dict(patience=6, break_next=True, sab_map_first=True)])
def test_belief_bot_options_play_legal_reproducible_rounds(options):
    game = pyspiel.load_game("saboteur", {"players": 4, "rounds": 1})

    def run():
        bots = [BeliefSaboteurBot(game, seed=p, **options) for p in range(4)]
        rng = SplitMix64(9)
        s = game.new_initial_state()
        seq = []
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(sample_sorted(sorted(s.chance_outcomes()), rng))
                continue
            a = bots[s.current_player()].step(s)
            assert a in s.legal_actions()
            seq.append(a)
            s.apply_action(a)
        return seq
    assert run() == run()


def test_strike_lengthens_the_way_when_it_plays_a_block():
    game = pyspiel.load_game("saboteur", {"players": 5, "rounds": 1})
    bot = BeliefSaboteurBot(game, strike=40)
    seen = 0
    for seed in range(1, 30):
        s = play(5, 14, seed)
        if s.is_terminal():
            continue
        me = s.current_player()
        view = s.engine.player_view(me)
        if view["role"] != 1:
            continue
        a = bot._strike(s, me, sorted(s.legal_actions()), view)
        if a is None:
            continue
        seen += 1
        targets = possible_treasure_slots(view["known_goals"])
        d0 = maze_distance(view["board"], view["goal_distance"], targets, view["goals_up"])
        [(d, _)] = scored_moves(s, me, [a], targets, (range(7, 16),), True)
        assert d > d0
    assert seen > 0


def test_best_anchor_is_the_belief_bot():
    s = play(5, 10, 4)
    opts = dict(repair_first=True, dig_eval=True, strike=5)
    game = s.get_game()
    assert SaboteurBeliefAnchor(**opts).step(s) == BeliefSaboteurBot(game, **opts).step(s)


def test_paired_experiment_pairs_identical_deals():
    from repo import research_module
    paired, parse_opts = (getattr(research_module("saboteur_paired"), n)
                          for n in ("paired", "parse_opts"))
    r = paired("heuristic", 3, 3, 1, {})
    for label in ("digger", "saboteur"):
        x = r[label]
        assert x["paired_n"] == x["rounds"]                 # same deal, same roles
        assert x["paired_n"] == 0 or x["paired_mean"] == 0.0   # heuristic vs itself
    assert r["digger"]["rounds"] + r["saboteur"]["rounds"] == 9
    assert parse_opts(["strike=5", "dig_eval=true", "x=abc"]) == dict(strike=5, dig_eval=True, x="abc")
    with pytest.raises(ValueError, match="key=value"):
        parse_opts(["strike"])


def test_paired_experiment_against_a_reference_bot():
    from repo import research_module
    paired = research_module("saboteur_paired").paired
    same = paired("belief_heuristic", 3, 2, 1, {"strike": 5}, reference="belief_heuristic",
                  ref_options={"strike": 5})
    other = paired("belief_heuristic", 3, 2, 1, {"strike": 5})
    for label in ("digger", "saboteur"):
        x, y = same[label], other[label]
        assert x["paired_n"] == x["rounds"]
        assert x["paired_n"] == 0 or x["paired_mean"] == 0.0   # a bot against itself
        assert x["baseline_rate"] == x["rate"] or x["rounds"] == 0
        assert (x["wins"], x["rounds"]) == (y["wins"], y["rounds"])   # the same candidate rounds


def test_paired_experiment_with_search_bots_in_the_other_seats():
    from repo import research_module
    paired = research_module("saboteur_paired").paired
    opts = {"max_simulations": 8}
    same = paired("ismcts", 3, 2, 1, opts, reference="ismcts", ref_options=opts,
                  others="ismcts", others_options=opts)
    for label in ("digger", "saboteur"):
        x = same[label]
        assert x["paired_n"] == x["rounds"]                   # same deal, same roles
        assert x["paired_n"] == 0 or x["paired_mean"] == 0.0  # identically seeded seats
    assert same["digger"]["rounds"] + same["saboteur"]["rounds"] == 6
    # the other seats are the named bot, built with its options
    game = pyspiel.load_game("saboteur", {"players": 3, "rounds": 1})
    seats = research_module("saboteur_paired")._others(game, "ismcts", opts, 3, 1, 0)
    assert [type(b).__name__ for b in seats] == ["ISMCTSBot"] * 3
    assert {b.max_simulations for b in seats} == {8}
