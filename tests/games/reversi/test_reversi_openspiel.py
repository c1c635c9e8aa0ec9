"""Reversi against OpenSpiel's `othello` as an oracle: legal moves, boards and results.

OpenSpiel numbers squares the same way (a1 = 0 at the top left, row by row, h8 = 63) and its
pass is also action 64, so ids map one to one; the test still goes through the notation
(`action_to_string` against ours) so that a change on either side shows.
"""

from __future__ import annotations

import random

import pytest

from boardlab.games.reversi import PASS, ReversiGame

pyspiel = pytest.importorskip("pyspiel")

GAME = ReversiGame()
OTHELLO = pyspiel.load_game("othello")


def openspiel_cells(os_state) -> str:
    """The 64 cells of OpenSpiel's printout (rows `1 - - x o ... 1`) as our x/o/- text."""
    cells = []
    for line in str(os_state).splitlines():
        parts = line.split()
        if len(parts) == 10 and parts[0].isdigit():
            cells.extend(parts[1:9])
    assert len(cells) == 64, str(os_state)
    return "".join(cells)


def our_action(os_state, os_action: int, state) -> int:
    text = os_state.action_to_string(os_state.current_player(), os_action)
    return state.str_to_action("pass" if os_action == PASS else text)


def test_legal_moves_boards_and_results_match_openspiel():
    rng = random.Random(2024)
    positions = games = 0
    while positions < 3000:
        state, os_state = GAME.initial_state(), OTHELLO.new_initial_state()
        while not os_state.is_terminal():
            assert not state.is_terminal()
            assert state.current_player() == os_state.current_player()
            assert state.to_text().split()[0] == openspiel_cells(os_state)
            os_legal = os_state.legal_actions()
            assert sorted(our_action(os_state, a, state) for a in os_legal) \
                == state.legal_actions(), state.to_text()
            positions += 1
            os_action = rng.choice(os_legal)
            state.apply(our_action(os_state, os_action, state))
            os_state.apply_action(os_action)
        assert state.is_terminal(), state.to_text()
        assert state.returns() == list(os_state.returns())
        games += 1
    assert games >= 40


def test_forced_passes_appear_and_match_openspiel():
    """Random games until 20 forced passes were met, each checked against OpenSpiel."""
    rng = random.Random(7)
    passes = 0
    while passes < 20:
        state, os_state = GAME.initial_state(), OTHELLO.new_initial_state()
        while not os_state.is_terminal():
            legal = os_state.legal_actions()
            if legal == [PASS]:
                assert state.legal_actions() == [PASS]
                passes += 1
            action = rng.choice(legal)
            os_state.apply_action(action)
            state.apply(action)
        assert state.returns() == list(os_state.returns())
