"""Jungle dark chess's board symmetries (encode.board_symmetries, the learning kit's): each
turns a position into one the rules treat alike, so its legal moves, its moves' results, its
network input and its solved endings' distances are the original's, turned."""

from __future__ import annotations

import random

import numpy as np
import pytest

from boardlab import make_game
from boardlab.games.jungle.game import JungleDarkState
from boardlab.games.jungle.pursuit import win_distance
from boardlab.games.jungle.rules import SQUARES

GAME = make_game("jungle")
VIEWS = GAME.learning_kit().symmetries


def turned(state: JungleDarkState, view) -> JungleDarkState:
    """`state` seen through `view`: each square's piece moved to its image."""
    squares = view.inputs[:SQUARES]  # the first plane's gather is the squares'
    return JungleDarkState(GAME, [state.board[int(square)] for square in squares],
                           state.player, list(state.hidden), state.no_capture, state.plies)


def positions(games: int, seed: int) -> list[JungleDarkState]:
    """The decisions of random games."""
    rng = random.Random(seed)
    found = []
    for game_seed in range(games):
        state = GAME.initial_state(game_seed)
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
                continue
            found.append(state.clone())
            state.apply(rng.choice(state.legal_actions()))
    return found


def test_four_distinct_symmetries_the_identity_first_each_its_own_inverse():
    assert len(VIEWS) == 4
    assert np.array_equal(VIEWS[0].actions, np.arange(GAME.num_actions))
    assert len({view.actions.tobytes() for view in VIEWS}) == 4
    for view in VIEWS:
        assert np.array_equal(view.actions[view.actions], np.arange(GAME.num_actions))
        assert np.array_equal(np.sort(view.inputs), np.arange(len(view.inputs)))


def test_turned_positions_have_the_turned_moves_results_and_inputs():
    for state in positions(games=6, seed=1)[::7]:
        for view in VIEWS[1:]:
            image = turned(state, view)
            assert sorted(image.legal_actions()) == \
                sorted(int(view.where[a]) for a in state.legal_actions())
            encoding = state.encode(state.current_player()).reshape(-1)
            assert np.array_equal(image.encode(image.current_player()).reshape(-1),
                                  encoding[view.inputs])
            for action in state.legal_actions():
                after, image_after = state.child(action), image.child(int(view.where[action]))
                if after.is_chance_node():  # a reveal or a blind attack: the same draw in both
                    outcome = after.chance_outcomes()[0][0]
                    after, image_after = after.child(outcome), image_after.child(outcome)
                assert image_after.board == turned(after, view).board
                assert image_after.returns() == after.returns()


@pytest.mark.parametrize("hunter,evader", [(8, 5), (6, 2)])
def test_a_solved_endings_distances_do_not_change_when_turned(hunter, evader):
    rng = np.random.default_rng(4)
    for _ in range(20):
        hunter_square, evader_square = rng.choice(SQUARES, size=2, replace=False)
        board = [0] * SQUARES
        board[int(hunter_square)], board[int(evader_square)] = hunter, -evader
        state = JungleDarkState(GAME, board, int(rng.integers(2)), [0, 0])
        for view in VIEWS[1:]:
            for player in (0, 1):
                assert win_distance(turned(state, view), player) == win_distance(state, player)


def test_the_trainers_augmented_replay_turns_jungle_transitions_alike():
    """`augment=true` on Jungle: a sampled transition seen through a symmetry still moves
    one of the mover's own pieces (a reveal: a face-down one) onto a square not its own."""
    from boardlab.games.jungle.rules import decode_move
    from boardlab.learn import replay
    from boardlab.learn.cli import build_trainer

    _, trainer = build_trainer("jungle", "dqn", "arch=conv,channels=8,hidden=16,dropout=0,"
                               "lookahead=0,envs=8,warmup=64,buffer=4000,augment=true",
                               opponent="self")
    trainer.train_until(20)
    sample = trainer.buffer.sample(400, trainer.rng)
    turned = replay.turned(sample, trainer.views, trainer.rng)
    assert (turned["actions"] != sample["actions"]).mean() > 0.5
    planes = turned["states"].reshape(-1, 6, SQUARES)  # 3: face up, 4: the mover's pieces
    for row, action in zip(planes, turned["actions"]):
        if action < SQUARES:
            assert row[4, action] == 1 and row[3, action] == 0
        else:
            start, end = decode_move(int(action))
            assert row[4, start] == 1 and row[3, start] == 1 and row[4, end] == 0
    assert np.isfinite(trainer.update())
