"""Tabular Q-learning agent: the update rule, the fallback, the table file."""

import numpy as np
import pytest

from boardlab import BoardLabError, Clock, make_agent, make_game
from boardlab.agents.qlearning import QLearningAgent, QTable
from boardlab.core.weights import shipped_file


@pytest.fixture
def game():
    return make_game("jungle")


def test_update_follows_the_seed_rule(game):
    agent = QLearningAgent(game, weights="none")
    state = game.initial_state()
    action = state.legal_actions()[0]
    after = state.child(action)
    after.apply(after.chance_outcomes()[0][0])  # player 1 to move: stands for "next state"
    # terminal: Q <- 0 + 0.1 (r - 0)
    agent.learn(state, action, 2.0, after, done=True)
    key = agent.table_key(state)
    assert agent.table.q[key][action] == pytest.approx(0.2)
    # not terminal: target r + 0.95 max_a' Q(s', a')
    next_key = agent.table_key(after)
    agent.table.q[next_key] = {after.legal_actions()[0]: 4.0}
    agent.learn(state, action, 1.0, after, done=False)
    assert agent.table.q[key][action] == pytest.approx(0.2 + 0.1 * (1.0 + 0.95 * 4.0 - 0.2))


def test_known_state_uses_the_table_and_unknown_falls_back(game):
    agent = QLearningAgent(game, weights="none")
    state = game.initial_state()
    best = state.legal_actions()[3]
    agent.table.q[agent.table_key(state)] = {best: 5.0}
    assert agent.act(state, Clock()) == best
    other = state.child(best)
    other.apply(other.chance_outcomes()[0][0])
    assert agent.act(other, Clock()) in other.legal_actions()
    assert agent.stats == {"decisions": 2, "table_hits": 1, "fallbacks": 1}


def test_table_round_trip_keeps_values_and_drops_rare_states(game, tmp_path):
    table = QTable()
    table.update(b"\x01\x02\x03", 5, 1.0, 0.1)
    table.update(b"\x01\x02\x03", 7, -2.0, 0.1)
    table.update(b"\x09", 0, 3.0, 0.5)
    path = tmp_path / "q.npz"
    size = table.save(path, "jungle", min_visits=2)
    assert size == path.stat().st_size > 0
    loaded = QTable.load(path, "jungle")
    assert loaded.q == {b"\x01\x02\x03": {5: pytest.approx(0.1), 7: pytest.approx(-0.2)}}
    assert loaded.visits == {b"\x01\x02\x03": 2}


def test_truncated_table_is_a_one_line_error_naming_the_file(game, tmp_path):
    table = QTable()
    table.update(b"\x01" * 57, 5, 1.0, 0.1)
    path = tmp_path / "q.npz"
    table.save(path, "jungle")
    path.write_bytes(path.read_bytes()[:40])
    with pytest.raises(BoardLabError) as error:
        make_agent(f"qlearning:weights={path}", game)
    assert str(path) in str(error.value) and "\n" not in str(error.value)


def test_foreign_file_is_a_one_line_error_naming_the_file(game, tmp_path):
    path = tmp_path / "other.npz"
    np.savez(path, numbers=np.arange(3))
    with pytest.raises(BoardLabError, match="not a BoardLab Q table") as error:
        make_agent(f"qlearning:weights={path}", game)
    assert str(path) in str(error.value) and "\n" not in str(error.value)
    text = tmp_path / "notes.npz"
    text.write_text("hello")
    with pytest.raises(BoardLabError) as error:
        make_agent(f"qlearning:weights={text}", game)
    assert str(text) in str(error.value) and "\n" not in str(error.value)


def test_missing_table_says_how_to_train_one(game, tmp_path):
    with pytest.raises(BoardLabError, match="boardlab train jungle qlearning"):
        make_agent(f"qlearning:weights={tmp_path / 'none-here.npz'}", game)


def test_plain_spec_loads_the_shipped_table(game):
    assert shipped_file("jungle-qlearning.npz").is_file()
    agent = make_agent("qlearning", game)
    assert len(agent.table) > 0
    state = game.initial_state()
    assert agent.act(state, Clock()) in state.legal_actions()


def test_transition_fallback_sees_the_reply_that_takes_the_capturer(game):
    """The dog can take the cat, but the tiger behind it takes the dog back: the own ply's
    reward says capture (+10), the transition's (own ply + worst reply, what the table
    learns) says the capture loses 12 - 10 and a quiet move is better."""
    from boardlab.agents.qlearning import worst_reply
    from boardlab.core.learning import kit_for

    state = game.state_from_text("8/8/8/3t4/3c4/3D4/7E 0 0 - -")
    capture = state.str_to_action("d2-d3")
    greedy_for_reward = QLearningAgent(game, weights="none", fallback="reward")
    transition = QLearningAgent(game, weights="none")
    assert transition.settings.fallback == "transition"
    assert greedy_for_reward.act(state, Clock()) == capture
    assert transition.act(state, Clock()) != capture
    after = state.child(capture)
    reward = kit_for(game).reward("qlearning", game)
    assert worst_reply(after, 0, reward) == pytest.approx(-8 * 1.5)  # the dog, V = 1.5
    quiet = state.child(state.str_to_action("h1-g1"))
    assert worst_reply(quiet, 0, reward) == 0.0


def one_capture_learnt(game, path, **settings):
    """A new table that learnt one capture, saved to `path`; returns its agent."""
    agent = QLearningAgent(game, weights="none", **settings)
    state = game.state_from_text("x6x/8/6t1/8/2c5/2D5/X6X 0 3 RE dw")
    take = state.str_to_action("c2-c3")
    agent.learn(state, take, 10.0, state.child(take), done=True)
    agent.table.save(path, "jungle", min_visits=1)
    return agent


def test_a_table_records_its_key_and_a_spec_naming_another_is_refused(game, tmp_path):
    agent = one_capture_learnt(game, tmp_path / "features.npz", key="features")
    loaded = make_agent(f"qlearning:weights={tmp_path / 'features.npz'}", game)
    assert loaded.table.key == "features" and loaded.table.q == agent.table.q
    with pytest.raises(BoardLabError, match="filed under the key 'features', not 'exact'"):
        make_agent(f"qlearning:weights={tmp_path / 'features.npz'},key=exact", game)
    with pytest.raises(BoardLabError, match="no table key 'board'"):
        make_agent("qlearning:weights=none,key=board", game)
    QTable().save(tmp_path / "exact.npz", "jungle")
    assert make_agent(f"qlearning:weights={tmp_path / 'exact.npz'}", game).table.key == "exact"
    agent.table.key_version = 0  # filed under an earlier definition of the features
    agent.table.save(tmp_path / "old.npz", "jungle", min_visits=1)
    with pytest.raises(BoardLabError, match="version 0 of the key 'features'") as error:
        make_agent(f"qlearning:weights={tmp_path / 'old.npz'}", game)
    assert "old.npz" in str(error.value) and "\n" not in str(error.value)


def test_the_feature_table_plays_a_position_it_never_saw(game):
    """Learnt once (the dog takes the cat), the capture is found again elsewhere on the
    board: a table hit where the exact table has no row."""
    here = game.state_from_text("x6x/8/6t1/8/2c5/2D5/X6X 0 3 RE dw")
    there = game.state_from_text("x6x/8/8/4c3/4D3/8/X5tX 0 3 RE dw")
    features = QLearningAgent(game, weights="none", key="features")
    exact = QLearningAgent(game, weights="none", key="exact")
    take = here.str_to_action("c2-c3")
    for agent in (features, exact):
        agent.learn(here, take, 10.0, here.child(take), done=True)
    assert there.action_to_str(features.act(there, Clock())) == "e3-e4"
    exact.act(there, Clock())
    assert features.stats["table_hits"] == 1 and exact.stats["table_hits"] == 0


def test_a_checkpoint_is_resumed_only_under_its_own_key(game, tmp_path):
    from boardlab.learn.qlearning import QLearningTrainer

    features = QLearningTrainer(game, agent_params={"key": "features"})
    features.save_checkpoint(tmp_path / "run.ckpt", {"episodes": 0, "env_steps": 0,
                                                     "updates": 0, "seconds": 0.0})
    QLearningTrainer(game, agent_params={"key": "features"}).load_checkpoint(tmp_path / "run.ckpt")
    with pytest.raises(BoardLabError, match="filed under the table key 'features'"):
        QLearningTrainer(game).load_checkpoint(tmp_path / "run.ckpt")


def test_a_table_records_its_reward_and_its_fallback_scores_that_reward(game, tmp_path):
    one_capture_learnt(game, tmp_path / "shaped.npz", reward="potential")
    loaded = make_agent(f"qlearning:weights={tmp_path / 'shaped.npz'}", game)
    assert loaded.table.reward == "potential"
    from boardlab.games.jungle.rewards import potential_reward
    assert loaded.reward.action is potential_reward
    with pytest.raises(BoardLabError, match="learnt the reward 'potential', not 'qlearning'"):
        make_agent(f"qlearning:weights={tmp_path / 'shaped.npz'},reward=qlearning", game)
    with np.load(tmp_path / "shaped.npz") as data:  # a table from before tables said
        arrays = {name: data[name] for name in data.files if name != "reward"}
    np.savez_compressed(tmp_path / "before.npz", **arrays)
    assert make_agent(f"qlearning:weights={tmp_path / 'before.npz'}", game).table.reward \
        == "qlearning"
