"""A network names moves from the mover's seat where the game turns the board for one side
(`Game.action_frame`, agents/alphazero.py `SeatFrame`): a position and the same position with
colours swapped and the board turned must give the same planes, and their moves the same ids."""

from __future__ import annotations

import random

import numpy as np
import pytest
import torch

from boardlab import make_game
from boardlab.agents.alphazero import AlphaZeroAgent, SeatFrame
from boardlab.core.weights import load_payload, save_payload

TURNING_GAMES = ["xiangqi", "minichess"]


def turned(fen: str) -> str:
    """The position seen from the other side: ranks and files reversed, colours swapped."""
    board, side, *rest = fen.split(" ")
    ranks = [rank[::-1].swapcase() for rank in board.split("/")[::-1]]
    return " ".join(["/".join(ranks), "b" if side == "w" else "w", *rest])


def positions_with_first_player_to_move(game, count: int, seed: int = 1):
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.initial_state(0)
        for _ in range(2 * rng.randint(0, 12)):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_terminal() and state.current_player() == 0:
            found.append(state)
    return found


@pytest.mark.parametrize("name", TURNING_GAMES)
def test_a_turned_position_has_the_same_planes_and_the_same_seat_ids(name):
    game = make_game(name)
    frame = SeatFrame.of(game, True)
    assert frame is not None and set(frame.seat_ids) == {1}
    for state in positions_with_first_player_to_move(game, 12):
        other = game.state_from_text(turned(state.to_text()))
        assert other.current_player() == 1
        assert np.array_equal(other.encode(1), state.encode(0))
        moves = np.array(other.legal_actions())
        seat = frame.seat_actions(moves, np.ones(len(moves), int))
        assert sorted(seat.tolist()) == sorted(state.legal_actions())


@pytest.mark.parametrize("name", TURNING_GAMES)
def test_the_frame_is_a_permutation_and_priors_come_back_to_absolute_ids(name):
    game = make_game(name)
    frame = SeatFrame(game)
    ids = frame.seat_ids[1]
    assert sorted(ids.tolist()) == list(range(game.num_actions))
    rows = np.random.default_rng(0).random((3, game.num_actions))
    movers = [0, 1, 1]
    back = frame.to_absolute(frame.to_seat(rows, movers), movers)
    assert np.array_equal(back, rows)
    assert np.array_equal(frame.to_seat(rows, movers)[0], rows[0])  # the first seat's ids stay


@pytest.mark.parametrize("name", TURNING_GAMES)
def test_one_network_gives_a_turned_position_the_turned_priors_and_the_same_value(name):
    game = make_game(name)
    agent = AlphaZeroAgent(game, weights="none", channels=8, blocks=1, seed=3)
    assert agent.frame is not None
    state = positions_with_first_player_to_move(game, 1, seed=5)[0]
    other = game.state_from_text(turned(state.to_text()))
    priors, values = agent.evaluate([state, other])
    assert values[0] == pytest.approx(values[1], abs=1e-6)
    legal = np.array(state.legal_actions())
    turned_ids = agent.frame.absolute_ids[1][legal]  # the same moves, as black plays them
    assert np.allclose(priors[0][legal], priors[1][turned_ids], atol=1e-6)


def tiny_weights_with(path, architecture: dict, keep: bool = False):
    """A small untrained MiniChess network's weights file at `path` whose recorded
    architecture is `architecture` (added to the real one if `keep`)."""
    AlphaZeroAgent(make_game("minichess"), weights="none", channels=8, blocks=1).save(path)
    payload = load_payload(path, "boardlab-alphazero", "minichess", "test")
    payload["architecture"] = ({**payload["architecture"], **architecture} if keep
                               else architecture)
    save_payload(path, payload)
    return path


def test_a_weights_file_from_before_the_frame_keeps_absolute_ids(tmp_path):
    game = make_game("minichess")
    path = tiny_weights_with(tmp_path / "old.pt", {"channels": 8, "blocks": 1})  # as before
    old = AlphaZeroAgent(game, weights=str(path))
    assert old.frame is None and old.settings.policy_planes == 2
    assert AlphaZeroAgent(game, weights=str(path), seat_frame=True).frame is None
    new = AlphaZeroAgent(game, weights="none", channels=8, blocks=1, policy_planes=4)
    new.save(tmp_path / "new.pt")
    again = AlphaZeroAgent(game, weights=str(tmp_path / "new.pt"))
    assert again.frame is not None and again.settings.policy_planes == 4
    with torch.no_grad():
        planes = torch.zeros((1, *new.shape))
        assert torch.equal(again.network(planes)[0], new.network(planes)[0])


def own_piece_on_from_square(planes: np.ndarray, seat_action: int) -> bool:
    """MiniChess: planes 0-5 are the mover's pieces in its own frame, and a seat id is
    from * SQUARES + to in that frame."""
    rows, cols = planes.shape[1:]
    frm = seat_action // (rows * cols)
    return bool(planes[:6, frm // cols, frm % cols].sum() > 0)


@pytest.mark.parametrize("search", ["arrays", "nodes"])
def test_self_play_policy_targets_name_moves_from_the_movers_seat(search):
    from boardlab.learn.alphazero import AlphaZeroTraining, self_play

    game = make_game("minichess")
    agent = AlphaZeroAgent(game, weights="none", channels=8, blocks=1)
    config = AlphaZeroTraining(workers=1, sims=8, search=search, temperature_moves=4)
    samples, _ = self_play(game, agent.network, config, 2, seed=3, moves=6, frame=agent.frame)
    assert len(samples) == 12  # both seats' decisions
    for planes, policy in zip(samples.planes, samples.policy):
        moves = np.flatnonzero(policy)
        assert len(moves) and all(own_piece_on_from_square(planes, m) for m in moves)


def test_teacher_moves_are_named_from_the_movers_seat(tmp_path):
    from boardlab.learn.distill import load_teacher
    from boardlab.learn.teacher import TeacherSettings, teach

    teach("minichess", TeacherSettings(search="minimax:depth=1", positions=60,
                                       shard_positions=60, workers=1, seed=2), tmp_path)
    game = make_game("minichess")
    split = load_teacher(str(tmp_path), game, 0.5, held_out=0.0, frame=SeatFrame(game))
    assert len(split.train) >= 60
    assert all(own_piece_on_from_square(p, a) for p, a in zip(split.train.planes,
                                                               split.train.action))
    absolute = load_teacher(str(tmp_path), game, 0.5, held_out=0.0)
    assert not all(own_piece_on_from_square(p, a) for p, a in zip(absolute.train.planes,
                                                                  absolute.train.action))


def test_a_weights_file_with_a_malformed_architecture_is_one_sentence(tmp_path):
    from boardlab.core.game import BoardLabError

    game = make_game("minichess")
    path = tiny_weights_with(tmp_path / "bad.pt", {"policy_planes": "wide"}, keep=True)
    with pytest.raises(BoardLabError, match="'policy_planes': 'wide'"):
        AlphaZeroAgent(game, weights=str(path))
