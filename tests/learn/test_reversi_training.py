"""Reversi learning (seed 001): the paper's rewards, self-play DQN training that learns, and
the shipped networks loadable by spec strings."""

import random

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from boardlab import Clock, make_agent, make_game  # noqa: E402
from boardlab.agents.dqn import DQNAgent  # noqa: E402
from boardlab.core.weights import shipped_file  # noqa: E402
from boardlab.games.reversi.rewards import (  # noqa: E402
    TERMINAL_REWARD,
    dqn_reply_reward,
    dqn_reward,
    minimax_reply_reward,
    placed_square,
)
from boardlab.learn.cli import build_trainer  # noqa: E402
from boardlab.learn import replay  # noqa: E402
from boardlab.learn.episodes import evaluate  # noqa: E402
from boardlab.core.learning import kit_for  # noqa: E402


@pytest.fixture(scope="module")
def game():
    return make_game("reversi")


def test_own_move_earns_the_papers_flip_reward_over_100(game):
    state = game.initial_state()
    d3 = state.str_to_action("d3")
    after = state.child(d3)
    # d3 (V = -1) turns d4 (V = -1) over: R = -2, scaled by 1/100
    assert dqn_reward(state, d3, after) == pytest.approx(-0.02)


def test_minimax_reward_subtracts_the_opponents_reply(game):
    state = game.initial_state()
    after_own = state.child(state.str_to_action("d3"))
    reply = after_own.str_to_action("c3")
    after_reply = after_own.child(reply)
    assert placed_square(after_own, after_reply) == reply
    # white's c3 (V = -1) turns d4 (V = -1) back: black loses R(c3) = -2 / 100
    assert minimax_reply_reward(after_own, after_reply, 0) == pytest.approx(0.02)
    assert dqn_reply_reward(after_own, after_reply, 0) == 0.0


def test_a_game_ending_move_adds_the_terminal_reward(game):
    # black takes the last white disc: the game is over, black wins
    state = game.state_from_text("xo" + "-" * 62 + " x")
    c1 = state.str_to_action("c1")
    after = state.child(c1)
    assert after.is_terminal()
    assert dqn_reward(state, c1, after) == pytest.approx((10 - 20) / 100 + TERMINAL_REWARD)


def test_reversi_kit_has_the_papers_two_rewards_and_an_exact_table_key(game):
    kit = kit_for(game)
    assert {"dqn", "minimax"} <= set(kit.rewards)
    start = game.initial_state()
    assert kit.table_key(start) != kit.table_key(start.child(start.legal_actions()[0]))
    assert kit.table_key(start) == kit.table_key(game.initial_state())


def test_weights_file_records_whether_to_search(game, tmp_path):
    plain = DQNAgent(game, weights="none", hidden=16, lookahead=0)
    plain.save(tmp_path / "plain.pt")
    assert make_agent(f"dqn:weights={tmp_path / 'plain.pt'}", game).lookahead == 0
    searched = make_agent(f"dqn:weights={tmp_path / 'plain.pt'},lookahead=1", game)
    assert searched.lookahead == 1 and searched.reward is not None


def test_weights_file_records_whether_to_average_the_symmetric_views(game, tmp_path):
    one_view = DQNAgent(game, weights="none", hidden=16)
    one_view.save(tmp_path / "one.pt")
    views = DQNAgent(game, weights="none", hidden=16, symmetric=1)
    views.save(tmp_path / "views.pt")
    assert len(make_agent(f"dqn:weights={tmp_path / 'one.pt'}", game).symmetries) == 0
    assert len(make_agent(f"dqn:weights={tmp_path / 'views.pt'}", game).symmetries) == 8
    assert len(make_agent(f"dqn:weights={tmp_path / 'views.pt'},symmetric=0",
                          game).symmetries) == 0


def _score(game, agent, games=40):
    opponent = make_agent("random", game)
    return evaluate(game, lambda: agent, opponent, games, base_seed=11)[0]


def test_reversi_self_play_training_learns(game):
    """A CI-sized vectorized run: the greedy network beats random more often than the same
    network did untrained (the TD loss of self-play need not fall: targets grow as the
    values are learned)."""
    game, trainer = build_trainer(
        "reversi", "dqn", "hidden=64,residual_blocks=1,dropout=0,lookahead=0,lr=1e-3,"
        "gamma=0.9,warmup=256,train_every=2,epsilon=0.3,epsilon_decay=1,target_sync=5,envs=8",
        opponent="self")
    before = _score(game, trainer.player())
    trainer.train_until(40)
    after = _score(game, trainer.player())
    assert trainer.progress.updates > 800
    assert np.isfinite(trainer.metrics()["loss"])
    assert after >= before + 0.15, (before, after)


def _one_game(game, agents, seed=0):
    state = game.initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        mover = state.current_player()
        action = agents[mover].act(state.view(mover, rng), Clock())
        assert action in state.legal_actions()
        state.apply(action)
    return state


@pytest.mark.parametrize("spec, kind, lookahead, dueling", [
    ("dqn", "dqn", 0, False),
    ("boardlab.agents.dqn:DuelingDQNAgent", "dueling-dqn", 0, True),
    ("boardlab.agents.dqn:MiniMaxDuelingDQNAgent", "minimax-dueling-dqn", 1, True),
])
def test_shipped_reversi_networks_load_by_spec_and_play(game, spec, kind, lookahead, dueling):
    if not shipped_file(f"reversi-{kind}.pt").is_file():
        pytest.skip(f"models/reversi-{kind}.pt is not shipped in this checkout")
    agent = make_agent(spec, game)
    assert agent.lookahead == lookahead and agent.settings.dueling == dueling
    _one_game(game, [agent, make_agent("random", game)])


def _scores_against(opponents, games, tmp_path):
    from boardlab.arena.tournament import run_tournament

    result = run_tournament("reversi:opening_plies=4", ["dqn", *opponents], games,
                            tmp_path / "dqn.sqlite", workers=2, progress=False)
    return {pair.b: pair.a_score for pair in result.pairs if pair.a == "dqn"}


@pytest.mark.e2e  # a strength match
def test_the_shipped_dqn_beats_the_disc_counting_minimax(tmp_path):
    """Issue 19's headline, smaller (docs/learning.md has the 200-game figure)."""
    if not shipped_file("reversi-dqn.pt").is_file():
        pytest.skip("models/reversi-dqn.pt is not shipped in this checkout")
    assert _scores_against(["minimax:depth=1,eval=discs"], 40, tmp_path)[
        "minimax:depth=1,eval=discs"] >= 0.8


@pytest.mark.slow
def test_the_shipped_dqn_meets_issue_19s_bar_over_200_games(tmp_path):
    """0.9 against the paper's opponent (one ply on the disc count), above half against the
    one-ply searches on the positional table, 200 games each from 4 random opening plies."""
    scores = _scores_against(["minimax:depth=1,eval=discs", "greedy", "minimax:depth=1"], 200,
                             tmp_path)
    assert scores["minimax:depth=1,eval=discs"] >= 0.9
    assert scores["greedy"] > 0.5 and scores["minimax:depth=1"] > 0.5


@pytest.mark.parametrize("key", ["lookahead", "symmetric"])
def test_a_weights_file_with_a_bad_play_switch_is_a_one_line_error(game, tmp_path, key):
    import torch

    from boardlab import BoardLabError

    DQNAgent(game, weights="none", hidden=16).save(tmp_path / "good.pt")
    payload = torch.load(tmp_path / "good.pt", weights_only=True)
    torch.save({**payload, key: "deep"}, tmp_path / "bad.pt")
    with pytest.raises(BoardLabError,
                       match=f"bad.pt record {key} 'deep'; expected (0 or 1|an integer 0..4)"):
        make_agent(f"dqn:weights={tmp_path / 'bad.pt'}", game)


def test_augmented_replay_turns_state_action_and_next_moves_alike(game):
    """`augment=true`: each sampled transition is seen through one symmetry of the board, so
    its action is still a legal move of its (turned) state and the next legal moves still
    match the turned next state's move plane."""
    _, trainer = build_trainer("reversi", "dqn", "hidden=16,dropout=0,lookahead=0,envs=8,"
                               "warmup=64,buffer=4000,augment=true", opponent="self")
    trainer.train_until(20)
    sample = trainer.buffer.sample(400, trainer.rng)
    turned = replay.turned(sample, trainer.views, trainer.rng)
    assert (turned["actions"] != sample["actions"]).mean() > 0.5
    moves = turned["states"].reshape(-1, 3, 64)[:, 2]
    placed = turned["actions"] < 64
    assert (moves[placed, turned["actions"][placed]] == 1).all()
    next_moves = turned["next_states"].reshape(-1, 3, 64)[:, 2] > 0
    assert np.array_equal(turned["next_masks"][:, :64], next_moves)
    assert np.isfinite(trainer.update())


def test_symmetric_q_values_are_the_same_for_every_turn_of_a_position(game):
    """`symmetric=1` averages the Q-values over the 8 views, so a position and its turned
    copies get the same values at corresponding moves; one view alone does not."""
    views = game.learning_kit().symmetries
    state = game.initial_state(seed=5)
    for _ in range(9):
        state.apply(state.legal_actions()[0])
    board, side = state.to_text().split()
    for symmetric in (True, False):
        agent = make_agent(f"dqn:symmetric={int(symmetric)}", game)
        q = agent.q_values([state], [state.current_player()])[0]
        gaps = []
        for view in views[1:]:
            turned = game.state_from_text(
                "".join(np.array(list(board))[view.actions[:64]]) + " " + side)
            q_turned = agent.q_values([turned], [turned.current_player()])[0]
            gaps.append(np.abs(q_turned[view.where] - q).max())
        assert (max(gaps) < 1e-4) == symmetric, gaps


def test_symmetries_on_a_game_that_declares_none_is_a_one_line_error():
    from boardlab import BoardLabError

    classic = make_game("jungle-classic")  # its rivers and dens are not declared symmetric
    with pytest.raises(BoardLabError,
                       match="symmetric=1: jungle-classic declares no board symmetries"):
        make_agent("dqn:symmetric=1", classic)
    with pytest.raises(BoardLabError,
                       match="augment=true: jungle-classic declares no board symmetries"):
        build_trainer("jungle-classic", "dqn", "augment=true")
