"""Classic Jungle evaluation (games/jungle/classic/heuristics.py) and the generic agents that use
it."""

import random

import pytest

from boardlab import make_agent, make_game, play_match
from boardlab.core.agent import Clock
from boardlab.games.jungle.classic.heuristics import DEN_ENTRY_BOUND, EVALUATORS, evaluate


@pytest.fixture
def game():
    return make_game("jungle-classic")


def test_the_game_offers_greedy_and_minimax_evaluators(game):
    assert set(game.evaluators) >= {"greedy", "minimax"}
    assert game.evaluators is EVALUATORS or game.evaluators == EVALUATORS


def test_the_start_is_even(game):
    state = game.initial_state()
    assert evaluate(state, 0) == pytest.approx(0.0) == evaluate(state, 1)


def test_the_evaluation_is_zero_sum(game):
    rng = random.Random(3)
    for _ in range(20):
        state = game.initial_state()
        for _ in range(rng.randrange(1, 60)):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            assert evaluate(state, 0) == pytest.approx(-evaluate(state, 1))


def test_material_counts(game):
    full = game.state_from_text("6l/7/7/3p3/7/7/3P3/7/6L 0 0")
    down = game.state_from_text("6l/7/7/7/7/7/3P3/7/6L 0 0")
    assert evaluate(down, 0) > evaluate(full, 0) + 300


def test_nearer_the_enemy_den_is_better(game):
    back = game.state_from_text("6l/7/7/7/7/7/7/7/D6 1 0")
    ahead = game.state_from_text("6l/7/D6/7/7/7/7/7/7 1 0")
    assert evaluate(ahead, 0) > evaluate(back, 0)


def test_an_animal_next_to_the_enemy_den_on_its_move_is_a_win_bound(game):
    state = game.state_from_text("1lC4/3e3/7/7/7/7/7/7/6L 0 0")
    assert evaluate(state, 0) == DEN_ENTRY_BOUND and evaluate(state, 1) == -DEN_ENTRY_BOUND


def test_an_intruder_nobody_can_take_is_a_loss_bound_for_the_defender(game):
    # Player 0's cat on c9, next to player 1's den; nothing of player 1 stands next to c9.
    state = game.state_from_text("2C4/7/7/7/7/7/7/7/L5l 1 0")
    assert evaluate(state, 1) == -DEN_ENTRY_BOUND and evaluate(state, 0) == DEN_ENTRY_BOUND


def test_an_intruder_next_to_a_defender_is_no_bound(game):
    state = game.state_from_text("1lC4/7/7/7/7/7/7/7/L6 1 0")
    assert abs(evaluate(state, 0)) < DEN_ENTRY_BOUND


def test_two_intruders_cannot_both_be_taken(game):
    state = game.state_from_text("1lC1E2/7/7/7/7/7/7/7/6L 1 0")
    assert evaluate(state, 0) == DEN_ENTRY_BOUND


def choose(game, spec, text):
    state = game.state_from_text(text)
    agent = make_agent(spec, game)
    agent.start_game(state.player, 1)
    return state.action_to_str(agent.act(state.clone(), Clock.start(None)))


def test_greedy_enters_the_den(game):
    assert choose(game, "greedy", "2C4/7/7/7/7/7/7/7/L5l 0 0") == "c9-d9"


def test_greedy_takes_an_elephant_for_free(game):
    assert choose(game, "greedy", "6l/7/7/7/7/7/e6/R6/6L 0 0") == "a2-a3"


@pytest.mark.parametrize("spec", ["greedy", "minimax:depth=2"])
def test_agents_take_the_intruder_rather_than_a_free_tiger(game, spec):
    # Player 1's cat on c1 would enter the den d1 next; the lion could take a tiger instead.
    assert choose(game, spec, "6l/7/7/t6/L6/7/7/7/1Ec4 0 0") == "b1-c1"


def test_greedy_beats_random(game):
    score = 0.0
    for index in range(10):
        seats = ["greedy", "random"] if index % 2 == 0 else ["random", "greedy"]
        record = play_match(game, [make_agent(s, game) for s in seats], seed=index)
        score += (record.returns[index % 2] + 1) / 2
    assert score / 10 >= 0.8


def arena_score(game, strong, weak, games):
    score = 0.0
    for index in range(games):
        seats = [strong, weak] if index % 2 == 0 else [weak, strong]
        record = play_match(game, [make_agent(s, game) for s in seats], seed=index)
        score += (record.returns[index % 2] + 1) / 2
    return score / games


@pytest.mark.slow
@pytest.mark.parametrize("strong, weak", [("greedy", "random"),
                                          ("minimax:depth=3", "greedy")])
def test_measured_strength_forty_games(game, strong, weak):
    assert arena_score(game, strong, weak, 40) >= 0.8
