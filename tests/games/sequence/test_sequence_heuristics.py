"""Seed 002's greedy heuristic: its formulas, its preferences, and the generic greedy agent
reproducing its choices through the state evaluator."""

import math
import random

import pytest

from boardlab import Clock, make_agent, make_game, play_match
from boardlab.games.sequence.cards import parse_square
from boardlab.games.sequence.heuristics import (
    DEFAULT_WEIGHTS,
    INFINITE,
    SeedWeights,
    greedy_action_values,
    location_values,
    window_potential,
)

EMPTY_ROWS = ["*........*"] + ["." * 10] * 8 + ["*........*"]


@pytest.fixture
def game():
    return make_game("sequence")


def position(game, rows=None, *fields, **row_edits):
    lines = list(EMPTY_ROWS)
    for key, text in row_edits.items():
        lines[int(key[1:])] = text
    return game.state_from_text("\n".join(lines) + "\n" + "\n".join(fields))


def values_by_text(state):
    return {state.action_to_str(a): v for a, v in greedy_action_values(state).items()}


def best(state):
    values = values_by_text(state)
    top = max(values.values())
    return sorted(t for t, v in values.items() if v == top)


def test_the_seed_constants_are_the_defaults():
    assert DEFAULT_WEIGHTS == SeedWeights(place_bias=0.2, remove_bias=0.4,
                                          place_remove_scale=-0.2, smooth=0.1, scale=10.0)


def test_place_value_on_an_empty_board_follows_the_formula(game):
    board = tuple(position(game).board)
    place, remove = location_values(board, 0)
    # d3: every window is empty but the main diagonal's, which holds the corner a0 (v = 1)
    per_kind = 3 + math.e
    expected = (1.2 * per_kind + 0.8 * per_kind) * 0.8 + 10 * math.exp(-0.1 * 2 * 1.5 ** 2)
    assert place[parse_square("d3")] == pytest.approx(expected)
    # e4 is in the heart: the table's 15 for an empty heart beats the windows
    assert place[parse_square("e4")] == pytest.approx(15 + 10 * math.exp(-0.1 * 0.5))
    assert max(remove) == 0  # no opponent chip to remove


def test_completing_the_second_sequence_is_infinite(game):
    state = position(game, None, "turn 0", "sequences 1 0", "hand 0: 9d 2c 3c 4c 5c 6c",
                     r4="RRRRR.....", r7=".....rrrr.")
    # team 0 has one sequence and holds f7-i7: a chip on e7 or j7 wins
    place, _ = location_values(tuple(state.board), 0)
    assert place[parse_square("j7")] == place[parse_square("e7")] == INFINITE
    assert place[parse_square("d7")] < INFINITE


def test_blocking_the_opponents_second_sequence_is_infinite(game):
    state = position(game, None, "turn 0", "sequences 0 1", "hand 0: kd 2c 3c 4c 5c 6c",
                     r4="BBBBB.....", r7="...bbbb...")
    assert best(state) == ["play kd h7"]


def test_the_heart_rule(game):
    mine = position(game, None, "turn 0", "hand 0: 3h 9d qc kc ad 7c",
                    r4="....rr....", r5="....r.....")
    assert values_by_text(mine)["play 3h f5"] >= INFINITE
    theirs = position(game, None, "turn 0", "hand 0: 3h 9d qc kc ad 7c",
                      r4="....bb....", r5="....b.....")
    assert values_by_text(theirs)["play 3h f5"] >= INFINITE  # block the heart


def test_the_draft_prefers_a_two_eyed_jack_then_a_one_eyed_jack(game):
    state = position(game, None, "turn 0 draft", "hand 0: 9d qc kc ad 7c",
                     "draft: 6h js jd 2h 3h")
    assert best(state) == ["draft jd"]
    state = position(game, None, "turn 0 draft", "hand 0: 9d qc kc ad 7c",
                     "draft: 6h js 5h 2h 3h")
    assert best(state) == ["draft js"]


def test_the_seed_always_trades_a_dead_card(game):
    state = position(game, None, "turn 0", "hand 0: 2c 9d qc kc ad 7c",
                     "draft: 6h 5h 4h 2h 3h", r1="....b.....", r3="......b...")
    values = values_by_text(state)
    assert max(values, key=values.get).startswith("trade 2c for")
    assert values["decline"] < min(v for t, v in values.items() if t != "decline")


def test_a_two_eyed_jack_is_not_spent_where_a_normal_card_goes(game):
    state = position(game, None, "turn 0", "hand 0: 6h jd 9d qc kc ad")
    values = values_by_text(state)
    assert values["play 6h d4"] > values["play jd d4"]


def test_jack_cost_is_taken_off_jack_plays_that_do_not_complete_a_line(game):
    # our addition, off by default (the seed spends a jack whenever it scores best)
    from boardlab.games.sequence.heuristics import decision_value

    state = position(game, None, "turn 0", "hand 0: 6h jd 9d qc kc ad")
    board, hand = tuple(state.board), state.hands[0]
    costly = SeedWeights(jack_cost=7.0)
    for text in ("play jd d4", "play jd a5", "play 6h d4"):
        action = state.str_to_action(text)
        plain = decision_value(board, hand, 0, action)
        cost = 7.0 if "jd" in text else 0.0
        assert decision_value(board, hand, 0, action, costly) == pytest.approx(plain - cost)


def reserve_position(game):
    # team 0 holds f7-i7 (e7 or j7 completes its first sequence); team 1 holds a2-d2 (e2
    # would complete theirs) and a lone chip on i5
    return position(game, None, "turn 0", "hand 0: jd js 2c 3c 4c 5c",
                    r2="bbbb......", r5="........b.", r7=".....rrrr.")


def test_jack_reserve_is_off_by_default_and_leaves_the_seeds_values(game):
    state = reserve_position(game)
    assert DEFAULT_WEIGHTS.jack_reserve == 0
    seed_values = greedy_action_values(state)
    assert greedy_action_values(state, SeedWeights(jack_reserve=0.0)) == seed_values
    assert greedy_action_values(state, DEFAULT_WEIGHTS) == seed_values


def test_jack_reserve_keeps_jacks_for_completing_a_line_or_breaking_a_four(game):
    state = reserve_position(game)
    reserve = 40.0
    plain = {state.action_to_str(a): v for a, v in greedy_action_values(state).items()}
    kept = {state.action_to_str(a): v
            for a, v in greedy_action_values(state, SeedWeights(jack_reserve=reserve)).items()}
    # spared: the two-eyed jack completing the line, the one-eyed jack breaking the four
    for text in ("play jd e7", "play jd j7", "remove js a2", "remove js d2"):
        assert kept[text] == plain[text]
    # charged: every other jack play
    for text in ("play jd a5", "play jd e2", "remove js i5"):
        assert kept[text] == pytest.approx(plain[text] - reserve)
    # normal cards are untouched
    assert all(kept[t] == v for t, v in plain.items() if " j" not in t)
    # the seed's second choice, a two-eyed jack blocking e2 for 46, now ranks below a
    # normal card (the two-eyed jack completing e7 stays above both)
    assert plain["play jd e2"] > max(v for t, v in plain.items() if " j" not in t)
    assert kept["play jd e2"] < max(v for t, v in kept.items() if " j" not in t)


def test_growth_weighs_longer_lines_more(game):
    state = position(game, None, "turn 0", "hand 0: 6h jd 9d qc kc ad")
    board = tuple(state.board)
    place_1 = location_values(board, 0)[0]
    assert location_values(board, 0, SeedWeights(growth=1.0))[0] == place_1
    # on an empty board a window value is 0 or 1 (a corner); e^(2v) grows the corner's share
    steep = location_values(board, 0, SeedWeights(growth=2.0))[0]
    d3 = parse_square("d3")
    per_kind = 3 + math.e ** 2
    prior = 10 * math.exp(-0.1 * 2 * 1.5 ** 2)
    assert steep[d3] == pytest.approx((1.2 * per_kind + 0.8 * per_kind) * 0.8 + prior)


def test_the_evaluator_on_each_child_is_the_action_value(game):
    evaluate = game.evaluators["greedy"]
    rng = random.Random(3)
    for seed in range(10):
        state = game.initial_state(seed=seed)
        for _ in range(rng.randrange(0, 80)):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        me = state.current_player()
        for action, value in greedy_action_values(state).items():
            child = state.child(action)
            if not child.is_terminal():
                assert evaluate(child, me) == pytest.approx(value)


def test_the_generic_greedy_agent_plays_the_seeds_choice(game):
    agent = make_agent("greedy", game)
    agent.start_game(0, 1)
    rng = random.Random(5)
    checked = 0
    for seed in range(40):
        state = game.initial_state(seed=seed)
        for _ in range(rng.randrange(0, 100)):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        if state.is_terminal() or any(state.child(a).is_terminal()
                                      for a in state.legal_actions()):
            continue
        me = state.current_player()
        chosen = agent.act(state.view(me, random.Random(seed)), Clock())
        assert chosen in best_ids(state)
        checked += 1
    assert checked >= 30


def best_ids(state):
    values = greedy_action_values(state)
    top = max(values.values())
    return {a for a, v in values.items() if v == top}


def test_window_potential_is_zero_sum(game):
    state = position(game, None, "turn 0", "sequences 1 0", r4="RRRRRb.r..", r6="..bb.r....")
    assert window_potential(state, 0) == pytest.approx(-window_potential(state, 1))
    assert window_potential(state, 0) > 0


def test_greedy_beats_random(game):
    greedy, rand = make_agent("greedy", game), make_agent("random", game)
    score = 0.0
    for index in range(10):
        seats = [greedy, rand] if index % 2 == 0 else [rand, greedy]
        record = play_match(game, seats, seed=index)
        score += (record.returns[index % 2] + 1) / 2
    assert score >= 9


def test_minimax_runs_on_sequence(game):
    agent = make_agent("minimax:depth=2", game)
    agent.start_game(0, 0)
    state = game.initial_state(seed=2)
    action = agent.act(state.view(0, random.Random(0)), Clock())
    assert action in state.legal_actions()
