"""10,000 seeded random games of Jungle dark chess with invariants checked after every move
(e2e: half a minute), and 1,000 others for the fast loop."""

import random

import numpy as np
import pytest

from boardlab import CHANCE, make_game
from boardlab.games.jungle.rules import HIDDEN
from boardlab.games.jungle.encode import network_input, tabular_state

GAMES = 10_000


def check_invariants(state, previous_counts):
    board = state.board
    counts = state.piece_counts()
    assert counts[0] <= previous_counts[0] and counts[1] <= previous_counts[1]
    for player, sign in ((0, 1), (1, -1)):
        revealed = [sign * c for c in board if 0 < sign * c < HIDDEN]
        face_down = sum(1 for c in board if c == sign * HIDDEN)
        pool = state.hidden_strengths(player)
        assert len(set(revealed)) == len(revealed), "an animal twice"
        assert not set(revealed) & set(pool), "a face-up animal still counted hidden"
        assert face_down == len(pool), "face-down pieces and hidden strengths disagree"
        assert len(revealed) + face_down == counts[player] <= 8
    return counts


def check_encodings(state, player):
    planes = network_input(state, player)
    assert planes.shape == (6, 7, 8)
    counts = state.piece_counts()
    assert planes[0].sum() == counts[0] and planes[1].sum() == counts[1]
    assert planes[4].sum() == counts[player] and planes[5].sum() == counts[1 - player]
    assert np.array_equal(planes[3] > 0, planes[2] > 0)
    table = tabular_state(state)
    assert table.shape == (7, 8, 4)
    assert table[..., 3].sum() == sum(counts)
    assert np.array_equal(table[..., 2], planes[3])


def play_random_games(games, seed):
    """`games` seeded random games, the invariants checked after every move: how many ended
    1.0, -1.0 and 0.0 for the first player."""
    game = make_game("jungle")
    rng = random.Random(seed)
    outcomes = {1.0: 0, -1.0: 0, 0.0: 0}
    for index in range(games):
        state = game.initial_state()
        counts = (8, 8)
        check_encodings_this_game = index % 50 == 0  # encodings are the slow part
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                outcomes_here = state.chance_outcomes()
                assert sum(p for _, p in outcomes_here) == pytest.approx(1.0)
                action = rng.choice([a for a, _ in outcomes_here])
            else:
                if check_encodings_this_game:
                    check_encodings(state, player)
                action = rng.choice(state.legal_actions())
            state.apply(action)
            counts = check_invariants(state, counts)
        assert state.no_capture <= game.settings.no_capture_limit
        outcomes[state.returns()[0]] += 1
    assert sum(outcomes.values()) == games
    return outcomes


def test_a_thousand_random_games_keep_the_invariants():
    play_random_games(1_000, seed=2027)  # other games than the ten thousand's


@pytest.mark.e2e  # half a minute
def test_ten_thousand_random_games_keep_the_invariants():
    outcomes = play_random_games(GAMES, seed=2026)
    # Random play does end games both ways, not only in draws (rarely: a thousand games may
    # end in draws but one).
    assert outcomes[1.0] > 0 and outcomes[-1.0] > 0
