"""The compiled Jungle search (kernels.py) against the Python State, heuristics and agent.

The kernel rewrites the rules, the evaluation and MinimaxAgent's search; these tests hold it to
the readable versions: legal actions and end-of-turn verdicts on every state of 300 seeded
random games, evaluations to 1e-9 for both players and both weightings, and search values and
moves equal to `MinimaxAgent._root` (tt=false) at depths 1-3 from openings full of face-down
pieces, midgames and positions at the edge of the no-capture limit.
"""

import os
import random

os.environ.setdefault("NUMBA_CACHE_DIR", os.path.join(os.path.dirname(__file__), "..", "..",
                                                      "..", ".numba_cache"))

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from boardlab import CHANCE, Clock, make_agent, make_game  # noqa: E402
from boardlab.core.alphabeta import WIN_VALUE  # noqa: E402
from boardlab.games.jungle import kernels  # noqa: E402
from boardlab.games.jungle.heuristics import (  # noqa: E402
    HUNT_WEIGHT,
    SIMPLIFY_WEIGHT,
    hunt,
    minimax_evaluation,
)

RANDOM_GAMES = 300
WEIGHTINGS = ((100.0, HUNT_WEIGHT, SIMPLIFY_WEIGHT), (1.0, 0.0, 0.0))
"""(piece_count_weight, hunt_weight, simplify_weight): BoardLab's `minimax` and the seed's boxed
formula."""


def play_random_game(game, seed):
    """Every decision state of one seeded random game, and the final state."""
    rng = random.Random(seed)
    state = game.initial_state()
    decisions = []
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            decisions.append(state.clone())
            state.apply(rng.choice(state.legal_actions()))
    return decisions, state


def board_of(state):
    return np.asarray(state.board, dtype=np.int8)


def python_search(game, spec, state, depth):
    """MinimaxAgent._root over legal_actions() in order, as the brief of the kernel defines."""
    agent = make_agent(f"minimax:depth={depth},tt=false,eval={spec}", game)
    agent.me = state.current_player()
    agent.clock = Clock.start(None)
    agent.nodes = 0
    actions = state.legal_actions()
    action, value = agent._root(state, actions, depth, actions[0])
    return action, value


@pytest.fixture(scope="module")
def jungle():
    return make_game("jungle")


@pytest.fixture(scope="module")
def random_games(jungle):
    return [play_random_game(jungle, seed) for seed in range(RANDOM_GAMES)]


# --- rules -----------------------------------------------------------------------------------

def test_legal_actions_equal_actions_of_for_both_players_on_300_random_games(random_games):
    out = np.zeros(kernels.NUM_ACTIONS, dtype=np.int64)
    checked = 0
    for decisions, _ in random_games:
        for state in decisions:
            board = board_of(state)
            for player in (0, 1):
                n = kernels.legal_actions(board, player, out)
                assert out[:n].tolist() == state.actions_of(player), state.to_text()
                checked += 1
    assert checked > 20_000


def test_end_of_turn_verdict_equals_the_state_after_every_ply(jungle, random_games):
    limit = jungle.settings.no_capture_limit
    for decisions, final in random_games:
        for state in decisions[1:] + [final]:
            verdict = kernels.end_of_turn_status(board_of(state), state.player,
                                                 state.no_capture, limit)
            expected = kernels.ONGOING if state.winner is None else state.winner
            assert verdict == expected, str(state)


def test_side_to_move_without_actions_loses():
    # Player 1's rat is boxed in by player 0's cat, dog and the corner: 1 cannot move.
    game = make_game("jungle")
    state = game.state_from_text("rC6/D7/8/8/8/8/8 1 0 - -")
    assert kernels.end_of_turn_status(board_of(state), 1, 0, 40) == 0


# --- evaluation ------------------------------------------------------------------------------

def test_evaluation_equals_the_python_heuristics_on_300_random_games(random_games):
    for decisions, _ in random_games:
        for state in decisions:
            board = board_of(state)
            for player in (0, 1):
                for weight, hunt_weight, simplify in WEIGHTINGS:
                    expected = minimax_evaluation(state, player, weight, simplify)
                    if hunt_weight:
                        expected += hunt_weight * hunt(state, player,
                                                       trade_when_ahead=simplify != 0.0)
                    got = kernels.evaluate(board, player, state.hidden[1 - player], weight,
                                           hunt_weight, simplify)
                    assert got == pytest.approx(expected, abs=1e-9), (state.to_text(), player)


def test_named_evaluation_weights_give_the_games_evaluators(jungle, random_games):
    for name, (weight, hunt_weight, simplify) in kernels.EVALUATION_WEIGHTS.items():
        python_evaluator = jungle.evaluators[name]
        for decisions, _ in random_games[:20]:
            for state in decisions[::5]:
                got = kernels.evaluate(board_of(state), 1, state.hidden[0], weight, hunt_weight,
                                       simplify)
                assert got == pytest.approx(python_evaluator(state, 1), abs=1e-9), name


def test_face_down_nearest_enemy_counts_with_its_odds():
    # Player 0's cat (2) on a1 has a face-down enemy next to it (the other is far), the rat
    # (1) or the dog (3): it takes it with probability 1/2 and is taken with probability 1/2.
    game = make_game("jungle")
    state = game.state_from_text("7x/8/8/8/8/x7/C7 0 0 - RD")
    expected = minimax_evaluation(state, 0) + HUNT_WEIGHT * (0.5 * 3.0 / 2 - 0.5 * 4.0 / 2)
    got = kernels.evaluate(board_of(state), 0, state.hidden[1], 100.0, HUNT_WEIGHT)
    assert got == pytest.approx(expected, abs=1e-9)


# --- search ----------------------------------------------------------------------------------

def search_positions(game, seeds, openings):
    """Decision states of seeded random games: openings (plies 1..4, nearly all face down) if
    asked, plies 12 and 25, the middle, and the last three (the no-capture count near its
    limit, where quiet moves draw)."""
    positions = []
    for seed in seeds:
        decisions, _ = play_random_game(game, seed)
        picks = [12, 25, len(decisions) // 2, -3, -1]
        if openings:
            picks = [1 + seed % 4] + picks
        for index in picks:
            if -len(decisions) <= index < len(decisions):
                positions.append(decisions[index])
    return positions


def assert_same_search(game, spec, weights, state, depth):
    expected_action, expected_value = python_search(game, spec, state, depth)
    actions = state.legal_actions()
    action, value, nodes, completed = kernels.compiled_search(
        state, depth, state.current_player(), weights[0], weights[1], actions, None,
        *weights[2:])
    where = f"depth {depth}, {game.settings}, {state.to_text()}"
    assert completed and nodes > 0
    assert value == pytest.approx(expected_value, rel=1e-12, abs=1e-9), where
    assert action == expected_action, where


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_search_equals_the_python_minimax_agent(jungle, depth):
    # Openings at depth 3 take the Python agent seconds each: one here, the rest in the slow
    # version below.
    positions = search_positions(jungle, range(8), openings=depth < 3)
    if depth == 3:
        positions.append(play_random_game(jungle, 2)[0][6])
    assert len(positions) >= 40
    for state in positions:
        assert_same_search(jungle, "minimax", kernels.EVALUATION_WEIGHTS["minimax"], state,
                           depth)


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_search_with_the_boxed_formula_and_reveals_not_progress(depth):
    game = make_game("jungle:no_capture_limit=12,reveal_is_progress=false")
    positions = search_positions(game, range(3), openings=depth < 3)
    for state in positions:
        assert_same_search(game, "course-minimax-boxed", (1.0, 0.0), state, depth)


@pytest.mark.slow
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_search_equals_the_python_agent_from_openings_slow(jungle, depth):
    positions = search_positions(jungle, range(8, 16), openings=True)
    assert len(positions) >= 40
    for state in positions:
        assert_same_search(jungle, "minimax", kernels.EVALUATION_WEIGHTS["minimax"], state,
                           depth)


def test_capturing_the_last_enemy_wins_less_the_plies(jungle):
    state = jungle.state_from_text("8/8/8/8/8/1r6/1L6 0 0 - -")
    state.plies = 10
    action, value, _, completed = kernels.compiled_search(
        state, 2, 0, 100.0, HUNT_WEIGHT, state.legal_actions())
    assert completed
    assert state.action_to_str(action) == "b1-b2"
    assert value == WIN_VALUE - 11


def test_quiet_moves_at_the_no_capture_limit_draw(jungle):
    state = jungle.state_from_text("7r/8/8/8/8/8/L7 0 39 - -")
    _, value, _, _ = kernels.compiled_search(state, 3, 0, 100.0, HUNT_WEIGHT,
                                             state.legal_actions())
    assert value == 0.0


def test_a_reveal_restarts_the_count_only_if_the_setting_says_so():
    text = "7r/8/8/8/8/8/X6L 0 11 D -"
    values = {}
    for progress in (True, False):
        game = make_game(f"jungle:no_capture_limit=12,reveal_is_progress={str(progress).lower()}")
        state = game.state_from_text(text)
        _, values[progress], _, _ = kernels.compiled_search(
            state, 1, 0, 100.0, HUNT_WEIGHT, [game.state_from_text(text).str_to_action("?a1")])
    assert values[False] == 0.0
    assert values[True] != 0.0


def test_a_blind_attack_restarts_the_count(jungle):
    # The lion attacks the face-down cat on a2 at 39 plies without progress: a capture.
    state = jungle.state_from_text("7r/8/8/8/8/x7/L7 0 39 - C")
    expected_action, expected_value = python_search(jungle, "minimax", state, 1)
    action, value, _, _ = kernels.compiled_search(state, 1, 0, 100.0, HUNT_WEIGHT,
                                                  state.legal_actions())
    assert state.action_to_str(action) == "a1-a2"
    assert (action, value) == (expected_action, expected_value) and value != 0.0


def test_search_stops_past_max_nodes(jungle):
    state = jungle.initial_state()
    _, _, nodes, completed = kernels.compiled_search(state, 3, 0, 100.0, HUNT_WEIGHT,
                                                     state.legal_actions(), max_nodes=500)
    assert not completed and nodes == 501


def test_compiled_search_refuses_a_pending_reveal(jungle):
    state = jungle.initial_state()
    state.apply(state.str_to_action("reveal a1"))
    with pytest.raises(ValueError, match="pending reveal"):
        kernels.compiled_search(state, 1, 0, 100.0, HUNT_WEIGHT, [1])
