"""Reversi's array rules (kernels.py, core/arrayrules.py) against the Python State, move by
move: the rows the compiled search plays must say what the State says at every position."""

from __future__ import annotations

import random

import numpy as np

from boardlab.core.game import TERMINAL
from boardlab.games.reversi import PASS, ReversiGame

GAME = ReversiGame()
RULES = GAME.array_rules()
GAMES = 400


def position(text: str):
    return GAME.state_from_text(text)


def legal(row) -> list[int]:
    out = np.zeros(GAME.num_actions, dtype=np.int64)
    return out[:RULES.legal_actions(row, out)].tolist()


def played(row, action: int) -> np.ndarray:
    out = np.zeros(RULES.width, dtype=np.int64)
    RULES.play(row, action, out)
    return out


def encoded(row) -> np.ndarray:
    out = np.zeros((3, 8, 8), dtype=np.float32)
    RULES.encode(row, out)
    return out


def assert_agrees(row, state) -> None:
    """The row says what `state` says: the player to move, the moves, the encoding, the end."""
    where = state.to_text()
    assert row.tolist() == RULES.pack(state).tolist(), where
    assert RULES.current_player(row) == state.current_player(), where
    assert legal(row) == state.legal_actions(), where
    if state.is_terminal():
        assert RULES.player0_return(row) == state.returns()[0], where
    else:
        mover = state.current_player()
        assert np.array_equal(encoded(row), state.encode(mover)), where
        assert np.array_equal(encoded(row), GAME.encode_batch([state], [mover])[0]), where


def test_random_games_agree_with_the_state_move_by_move():
    """400 seeded random games: the row made by `play` from the start equals the packed State
    at every position, and says the same moves, passes, end, returns and planes."""
    rng = random.Random(7)
    positions = passes = 0
    results = set()
    for _ in range(GAMES):
        state = GAME.initial_state()
        row = RULES.pack(state)
        while True:
            assert_agrees(row, state)
            positions += 1
            if state.is_terminal():
                results.add(state.returns()[0])
                break
            action = rng.choice(state.legal_actions())
            passes += action == PASS
            state.apply(action)
            row = played(row, action)
    assert positions > 20_000
    assert passes > 0 and results == {-1.0, 0.0, 1.0}


def test_forced_pass_then_the_end():
    state = position("""
        ox------
        --------
        --------
        --------
        --------
        --------
        --------
        --------  x""")
    row = RULES.pack(state)
    assert legal(row) == [PASS]
    state.apply(PASS)
    row = played(row, PASS)
    assert RULES.current_player(row) == 1
    c1 = state.str_to_action("c1")
    assert legal(row) == [c1]
    row = played(row, c1)
    assert RULES.current_player(row) == TERMINAL
    assert legal(row) == []
    assert RULES.player0_return(row) == -1.0


def test_discs_on_the_sign_bit_square_survive_the_int64_words():
    """h8 is bit 63: a row keeps it through play, encode and the count although the words
    are signed."""
    state = position("""
        --------
        --------
        --------
        --------
        --------
        --------
        ------o-
        -------x  x""")
    row = RULES.pack(state)
    assert row[0] < 0  # black's h8 disc is the sign bit
    assert_agrees(row, state)
    f6 = state.str_to_action("f6")
    assert legal(row) == [f6]
    state.apply(f6)
    row = played(row, f6)
    assert_agrees(row, state)
    assert RULES.current_player(row) == TERMINAL and RULES.player0_return(row) == 1.0
