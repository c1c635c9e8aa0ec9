"""Reversi's board symmetries (its learning kit's), checked against the rules: a position
turned square by square through its text parses to a state whose network input, legal moves
and every move's result are the symmetry's images of the original's."""

from __future__ import annotations

import random

import numpy as np
import pytest

from boardlab.core.registry import make_game

GAME = make_game("reversi")
SYMMETRIES = GAME.learning_kit().symmetries
SQUARES = 64


def turned_state(state, symmetry):
    """The position with every square moved where the symmetry sends it (through the text)."""
    board, side = state.to_text().split()
    cells = np.array(list(board))
    # the square s of the turned position shows the original square symmetry.actions[s]
    return GAME.state_from_text("".join(cells[symmetry.actions[:SQUARES]]) + " " + side)


def positions(count: int, seed: int):
    rng = random.Random(seed)
    for _ in range(count):
        state = GAME.initial_state()
        for _ in range(rng.randrange(0, 50)):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        yield state


def test_eight_distinct_symmetries_with_the_identity_first():
    assert len(SYMMETRIES) == 8
    assert np.array_equal(SYMMETRIES[0].actions, np.arange(SQUARES + 1))
    assert len({view.actions.tobytes() for view in SYMMETRIES}) == 8
    for view in SYMMETRIES:
        assert view.actions[SQUARES] == SQUARES  # the pass stays the pass
        assert sorted(view.inputs) == list(range(len(view.inputs)))


@pytest.mark.parametrize("index", range(8))
def test_a_turned_position_plays_as_the_image_of_the_original(index):
    view = SYMMETRIES[index]
    for state in positions(12, seed=index):
        turned = turned_state(state, view)
        for player in (0, 1):
            assert np.array_equal(turned.encode(player).reshape(-1),
                                  state.encode(player).reshape(-1)[view.inputs])
        assert sorted(turned.legal_actions()) == sorted(int(view.where[a])
                                                        for a in state.legal_actions())
        for action in state.legal_actions():
            after, turned_after = state.child(action), turned.child(int(view.where[action]))
            assert turned_after.to_text() == turned_state(after, view).to_text()
