"""The pursuit endings' verdicts (games/jungle/pursuit.py) against an exhaustive search of
the game's own State, on a game whose no-capture rule draws after a few plies so that the
search reaches every end, endings after a capture included."""

from __future__ import annotations

import random

import numpy as np
import pytest

from boardlab import make_game
from boardlab.games.jungle.pursuit import (distances, forced_win, small_ending, solve,
                                          win_distance)
from boardlab.games.jungle.rules import COLS, SQUARES

LETTERS = {1: "R", 2: "C", 3: "D", 4: "W", 5: "P", 6: "T", 7: "L", 8: "E"}
LIMIT = 3
GAME = make_game(f"jungle:no_capture_limit={LIMIT}")


def position(hunters, squares, evader, evader_square, hunters_to_move, counter) -> str:
    """Player 0 hunts with `hunters` on `squares`; player 1's last piece."""
    cells = [""] * SQUARES
    for strength, square in zip(hunters, squares):
        cells[square] = LETTERS[strength]
    cells[evader_square] = LETTERS[evader].lower()
    ranks = []
    for row in reversed(range(SQUARES // COLS)):
        text, empty = "", 0
        for cell in cells[row * COLS:(row + 1) * COLS]:
            if cell:
                text, empty = text + (str(empty) if empty else "") + cell, 0
            else:
                empty += 1
        ranks.append(text + (str(empty) if empty else ""))
    return f"{'/'.join(ranks)} {0 if hunters_to_move else 1} {counter} - -"


def hunters_win(state, memo) -> bool:
    """Player 0 wins whatever player 1 does (an exhaustive search to the game's end)."""
    key = state.key()
    if key not in memo:
        if state.is_terminal():
            memo[key] = state.returns()[0] > 0
        else:
            children = [hunters_win(state.child(a), memo) for a in state.legal_actions()]
            memo[key] = any(children) if state.current_player() == 0 else all(children)
    return memo[key]


@pytest.mark.parametrize("hunters,evader", [
    ((8,), 5),     # an elephant chases a leopard alone: the parity decides
    ((7,), 7),     # lion against lion: the trade is a draw, never a win
    ((1,), 8),     # the rat takes the elephant, which may not take it
    ((7, 3), 6),   # the tiger eats the dog, then the lion alone goes on afresh
    ((6, 2), 6),   # a trade of tigers leaves the cat: a win
    ((8, 7), 3),   # a dog in a corner between two it may not take has no move: it loses
])
def test_the_verdicts_are_the_exhaustive_search_s(hunters, evader):
    rng = random.Random(sum(hunters) * 10 + evader)
    memo: dict = {}
    wins = 0
    corners = [s for s in range(SQUARES) if min(s % COLS, COLS - 1 - s % COLS) +
               min(s // COLS, SQUARES // COLS - 1 - s // COLS) <= 1]
    for _ in range(150):
        # The last piece near a corner, the hunters near it: corners, captures and trades
        # happen within the few plies.
        prey = rng.choice(corners)
        near = [s for s in range(SQUARES) if s != prey and
                abs(s // COLS - prey // COLS) + abs(s % COLS - prey % COLS) <= 2]
        chosen = rng.sample(near, len(hunters)) + [prey]
        hunters_to_move = rng.random() < 0.5
        counter = rng.randrange(LIMIT)
        state = GAME.state_from_text(position(hunters, chosen[:-1], evader, chosen[-1],
                                              hunters_to_move, counter))
        verdicts = solve(hunters, evader, LIMIT - counter, LIMIT)
        table = verdicts.hunters_to_move if hunters_to_move else verdicts.evader_to_move
        expected = hunters_win(state, memo)
        assert bool(table[tuple(chosen)]) == expected, state.to_text()
        assert forced_win(state, 0) == (None if state.is_terminal() else expected)
        wins += expected
    assert wins or hunters == (7,)  # the positions test something


def plies_to_win(state, hunters_left, memo) -> int | None:
    """The fewest plies in which player 0 wins by force (an exhaustive search), None if it
    cannot; a capture by the last piece that leaves player 0 a won ending counts as its end,
    as the solver counts it."""
    key = state.key()
    if key not in memo:
        left = state.piece_counts()[0]
        if state.is_terminal():
            memo[key] = 0 if state.returns()[0] > 0 else None
        elif left < hunters_left:
            memo[key] = 0 if hunters_win(state, {}) else None
        else:
            children = [plies_to_win(state.child(a), left, memo) for a in state.legal_actions()]
            if state.current_player() == 0:
                found = [d for d in children if d is not None]
                memo[key] = 1 + min(found) if found else None
            else:
                memo[key] = None if None in children else 1 + max(children)
    return memo[key]


@pytest.mark.parametrize("hunters,evader", [((8,), 5), ((6, 2), 6), ((8, 7), 3), ((7, 3), 6)])
def test_the_distances_are_the_exhaustive_search_s(hunters, evader):
    limit = 5
    game = make_game(f"jungle:no_capture_limit={limit}")
    rng = np.random.default_rng(sum(hunters) * 7 + evader)
    memo: dict = {}
    table = distances(hunters, evader, limit)
    for hunters_to_move, found in ((True, table.hunters_to_move),
                                   (False, table.evader_to_move)):
        values = set(np.unique(found).tolist())
        assert len(values - {-1}) >= 2  # wins at more than one distance are checked
        for value in sorted(values):
            # Placements at each distance the solver gives (not only the few near ones),
            # each read with the whole count and with part of it used.
            places = np.argwhere(found == value)
            for chosen in places[rng.choice(len(places), size=3)]:
                squares = [int(s) for s in chosen]
                if len(set(squares)) < len(squares):
                    continue  # two pieces on a square: not a position
                for counter in (0, 2):
                    state = game.state_from_text(position(
                        hunters, squares[:-1], evader, squares[-1], hunters_to_move, counter))
                    if state.is_terminal():
                        continue  # a last piece with no move has lost already
                    expected = plies_to_win(state, len(hunters), memo)
                    assert win_distance(state, 0) == (-1 if expected is None else expected), \
                        state.to_text()
                    assert value == -1 or counter or expected == value


def test_a_capture_by_the_last_piece_starts_the_count_again():
    # The tiger, to move, may take the dog in the corner; the lion alone then needs more than
    # one ply to corner it, and has the whole count again: the hunters still win.
    state = GAME.state_from_text("8/8/8/8/8/2L5/Dt6 1 0 - -")
    assert hunters_win(state, {})
    assert forced_win(state, 0) is True
    lion, dog, tiger = 2 * COLS + 2 - COLS, 0, 1
    assert solve((7, 3), 6, LIMIT, LIMIT).evader_to_move[lion, dog, tiger]
    assert not solve((7,), 6, 1, LIMIT).hunters_to_move[lion, dog]  # the dog's square


def test_only_face_up_endings_against_one_piece_are_read():
    game = make_game("jungle")
    assert forced_win(game.initial_state(0), 0) is None
    ending = game.state_from_text("8/8/8/3l4/8/8/2E1D3 0 0 - -")
    assert forced_win(ending, 0) is not None and forced_win(ending, 1) is None
    with pytest.raises(ValueError, match="hunters"):
        solve((1, 2, 3, 4), 5, 40, 40)


@pytest.mark.parametrize("text, inside", [
    ("7w/8/8/8/8/8/L7 0 0 - -", True),  # one against one
    ("7w/8/8/8/8/8/LT6 0 0 - -", True),  # two against the last piece
    ("7w/8/8/8/8/8/LTD5 0 0 - -", False),  # three: solved, but not kept whole
    ("6ew/8/8/8/8/8/LT6 0 0 - -", False),  # nobody is down to a last piece
    ("x6x/8/3t4/2x5/2D5/8/X6X 0 3 RE cwe", False),  # face-down pieces
])
def test_the_small_endings_are_a_last_piece_against_one_or_two_face_up(text, inside):
    game = make_game("jungle")
    assert small_ending(game.state_from_text(text)) is inside
    assert game.learning_kit().domain("endings", game)(game.state_from_text(text)) is inside
