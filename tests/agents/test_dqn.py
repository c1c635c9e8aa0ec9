"""DQN agent: the seed's network shape, seed 001's options, masking, the weights file."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from boardlab import BoardLabError, Clock, make_agent, make_game  # noqa: E402
from boardlab.agents.dqn import DQNAgent, build_network  # noqa: E402
from boardlab.core.weights import shipped_file  # noqa: E402


@pytest.fixture
def game():
    return make_game("jungle")


def test_network_maps_336_inputs_to_280_q_values_through_four_layers(game):
    agent = DQNAgent(game, weights="none")
    linear = [m for m in agent.network.modules() if isinstance(m, torch.nn.Linear)]
    assert [(m.in_features, m.out_features) for m in linear] == [
        (336, 128), (128, 128), (128, 128), (128, 280)]
    assert sum(isinstance(m, torch.nn.Dropout) for m in agent.network.modules()) == 2
    q = agent.q_values([game.initial_state()], [0])
    assert q.shape == (1, 280)


def test_dueling_head_subtracts_the_mean_advantage():
    net = build_network(336, 280, 32, 0.0, residual_blocks=2, dueling=True).eval()
    x = torch.rand(5, 336)
    q = net(x)
    value = net.value(net.body(x))
    assert torch.allclose(q.mean(dim=1, keepdim=True), value, atol=1e-5)
    assert sum(type(m).__name__ == "Residual" for m in net.modules()) == 2


def test_masked_choice_is_always_legal_unmasked_is_the_raw_argmax(game):
    state = game.initial_state()
    masked = DQNAgent(game, weights="none", seed=3, lookahead=0)
    unmasked = DQNAgent(game, weights="none", seed=3, masked=False, lookahead=0)
    q = masked.q_values([state], [0])[0]
    assert masked.act(state, Clock()) == max(state.legal_actions(), key=lambda a: q[a])
    assert unmasked.act(state, Clock()) == int(np.argmax(q))


def test_one_ply_lookahead_takes_a_winning_capture(game):
    # the lion can take the last enemy piece: the reward's +10 win decides, whatever the net
    agent = DQNAgent(game, weights="none", lookahead=1)
    state = game.state_from_text("8/8/8/8/8/2d5/2L5 0 0 - -")
    assert state.action_to_str(agent.act(state, Clock())) == "c1-c2"


def test_weights_round_trip_restores_the_same_q_values(game, tmp_path):
    agent = DQNAgent(game, weights="none", hidden=48, dueling=True, seed=7)
    path = tmp_path / "net.pt"
    agent.save(path)
    loaded = make_agent(f"dqn:weights={path}", game)
    assert loaded.settings.hidden == 48 and loaded.settings.dueling
    states = [game.initial_state(), game.state_from_text("8/8/8/8/2l5/8/2D4w 0 0 - -")]
    assert np.allclose(agent.q_values(states, [0, 0]), loaded.q_values(states, [0, 0]))


def test_truncated_weights_are_a_one_line_error_naming_the_file(game, tmp_path):
    path = tmp_path / "net.pt"
    DQNAgent(game, weights="none").save(path)
    path.write_bytes(path.read_bytes()[:1000])
    with pytest.raises(BoardLabError) as error:
        make_agent(f"dqn:weights={path}", game)
    assert str(path) in str(error.value) and "\n" not in str(error.value)


def test_foreign_weights_are_a_one_line_error_naming_the_file(game, tmp_path):
    other = tmp_path / "other.pt"
    torch.save({"layer.weight": torch.zeros(3)}, other)
    junk = tmp_path / "junk.pt"
    junk.write_bytes(b"not a weights file at all")
    for path in (other, junk):
        with pytest.raises(BoardLabError) as error:
            make_agent(f"dqn:weights={path}", game)
        assert str(path) in str(error.value) and "\n" not in str(error.value)


def test_an_absurd_network_size_is_refused_before_allocating(game):
    with pytest.raises(BoardLabError, match="hidden must be at most"):
        make_agent("dqn:weights=none,hidden=1000000000", game)


def test_plain_spec_loads_the_shipped_weights(game):
    assert shipped_file(f"{game.name}-dqn.pt").is_file()
    agent = make_agent("dqn", game)
    state = game.initial_state()
    assert agent.act(state, Clock()) in state.legal_actions()


def test_conv_network_shares_weights_across_squares_and_round_trips(game, tmp_path):
    """arch=conv: the same 3x3 filters see every square, so its parameters do not grow with
    the board; the file records the architecture, and `dqn:weights=FILE` rebuilds it."""
    agent = make_agent("dqn:weights=none,arch=conv,conv_layers=2,channels=8,lookahead=0", game)
    convolutions = [m for m in agent.network.convolutions if hasattr(m, "weight")]
    assert [tuple(m.weight.shape) for m in convolutions] == [(8, 6, 3, 3), (8, 8, 3, 3)]
    agent.save(tmp_path / "conv.pt")
    loaded = make_agent(f"dqn:weights={tmp_path / 'conv.pt'}", game)
    assert loaded.settings.arch == "conv" and loaded.settings.channels == 8
    state = game.initial_state(3)
    assert np.array_equal(agent.q_values([state], [0]), loaded.q_values([state], [0]))


def test_a_file_from_before_arch_is_the_seeds_network(game, tmp_path):
    """Files written before `arch` existed hold the seed's network, whatever the spec asks."""
    import torch
    make_agent("dqn:weights=none,hidden=16", game).save(tmp_path / "old.pt")
    payload = torch.load(tmp_path / "old.pt", weights_only=True)
    for key in ("arch", "conv_layers", "channels"):
        del payload["architecture"][key]
    torch.save(payload, tmp_path / "old.pt")
    agent = make_agent(f"dqn:weights={tmp_path / 'old.pt'},arch=conv", game)
    assert agent.settings.arch == "seed" and agent.settings.hidden == 16


def test_an_unknown_arch_is_refused_in_one_line(game):
    with pytest.raises(BoardLabError, match="arch") as caught:
        make_agent("dqn:weights=none,arch=transformer", game)
    assert "\n" not in str(caught.value)
