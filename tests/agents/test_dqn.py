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
    agent = DQNAgent(game, weights="none", arch="mlp")  # the seed's (the default is conv)
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
    make_agent("dqn:weights=none,arch=mlp,hidden=16", game).save(tmp_path / "old.pt")
    payload = torch.load(tmp_path / "old.pt", weights_only=True)
    for key in ("arch", "conv_layers", "channels"):
        del payload["architecture"][key]
    torch.save(payload, tmp_path / "old.pt")
    agent = make_agent(f"dqn:weights={tmp_path / 'old.pt'},arch=conv", game)
    assert agent.settings.arch == "mlp" and agent.settings.hidden == 16


def test_a_file_recording_the_archs_first_name_loads_as_mlp(game, tmp_path):
    """`seed` was the fully connected arch's first name: files and specs that say it mean mlp."""
    import torch
    make_agent("dqn:weights=none,arch=mlp,hidden=16", game).save(tmp_path / "old.pt")
    payload = torch.load(tmp_path / "old.pt", weights_only=True)
    payload["architecture"]["arch"] = "seed"
    torch.save(payload, tmp_path / "old.pt")
    assert make_agent(f"dqn:weights={tmp_path / 'old.pt'}", game).settings.arch == "mlp"
    assert make_agent("dqn:weights=none,arch=seed", game).settings.arch == "mlp"


def test_an_unknown_arch_is_refused_in_one_line(game):
    with pytest.raises(BoardLabError, match="arch") as caught:
        make_agent("dqn:weights=none,arch=transformer", game)
    assert "\n" not in str(caught.value)


def _material_q(states, players):
    """A stand-in network: every action of t is worth 0.01 x (the mover's face-up strengths
    - the other side's), so a leaf's value depends on what a reveal showed."""
    rows = []
    for state, player in zip(states, players):
        own = sum(abs(c) for c in state.board if 0 < abs(c) < 9 and (c > 0) == (player == 0))
        other = sum(abs(c) for c in state.board if 0 < abs(c) < 9 and (c > 0) != (player == 0))
        rows.append(np.full(280, 0.01 * (own - other)))
    return np.array(rows)


def test_two_ply_lookahead_averages_both_plies_chance_exactly(game):
    """The dog on b2 may attack the face-down piece on b3 (cat, tiger or lion, 1/3 each) or
    step aside; the other side's replies are reveals, chance again. By hand, with the DQN
    reward (move +0.05, reveal +0.1, capture +0.2 x strength, lost -0.3, loss -10), gamma 0.99
    and `_material_q` at the leaves:
    - b2-b3: the cat (1/3) is taken, +0.4; the reply reveals g7 or h7 (tiger or lion, 1/2
      each): 0.1 + 0.99 x mean(-(0.03 - 0.06), -(0.03 - 0.07)) = 0.13465 for the replier.
      The tiger or the lion (2/3) takes the dog, the last piece: -0.3 - 10, game over.
      Score: (0.4 - 0.99 x 0.13465) / 3 - 2 x 10.3 / 3.
    - b2-a2: +0.05; each reveal shows cat, tiger or lion (1/3 each) and leaves the dog's side
      0.01 x (3 - k) to move: 0.1 + 0.99 x 0.01 x (mean(k) - 3) = 0.1198 for the replier.
      Score: 0.05 - 0.99 x 0.1198."""
    state = game.state_from_text("6xx/8/8/8/1x6/1D6/8 0 0 - ctl")
    agent = DQNAgent(game, weights="none", lookahead=2)
    agent.q_values = _material_q
    scores = dict(zip(map(state.action_to_str, state.legal_actions()),
                      agent.lookahead_scores(state)))
    assert scores["b2-b3"] == pytest.approx((0.4 - 0.99 * 0.13465) / 3 - 2 * 10.3 / 3)
    assert scores["b2-a2"] == pytest.approx(0.05 - 0.99 * 0.1198)
    assert state.action_to_str(agent.act(state, Clock())) != "b2-b3"


def test_lookahead_scores_match_a_plain_enumeration_of_two_plies(game):
    """Any position, the real network: the search equals nested loops over the game's own
    chance outcomes and single-position forwards."""
    agent = DQNAgent(game, weights="none", seed=5, lookahead=2)
    reward = agent.reward
    state = game.state_from_text("x6x/8/3t4/2x5/2D5/8/X6X 0 3 RE cwe")

    def resolved(state, action):
        child = state.child(action)
        if child.current_player() >= 0:
            return [(1.0, child)]
        return [(p, child.child(k)) for k, p in child.chance_outcomes()]

    def q_max(leaf):
        q = agent.q_values([leaf], [leaf.current_player()])[0]
        return max(q[b] for b in leaf.legal_actions())

    expected = []
    for action in state.legal_actions():
        total = 0.0
        for p, after in resolved(state, action):
            best_reply = 0.0
            if not after.is_terminal():
                best_reply = max(
                    sum(p2 * (reward(after, reply, leaf)
                              - (0.0 if leaf.is_terminal() else 0.99 * q_max(leaf)))
                        for p2, leaf in resolved(after, reply))
                    for reply in after.legal_actions())
            total += p * (reward(state, action, after) - 0.99 * best_reply)
        expected.append(total)
    assert np.allclose(agent.lookahead_scores(state), expected, atol=1e-5)


def test_a_weights_file_records_the_lookahead_and_a_spec_overrides_it(game, tmp_path):
    DQNAgent(game, weights="none", hidden=16, lookahead=2).save(tmp_path / "two.pt")
    assert make_agent(f"dqn:weights={tmp_path / 'two.pt'}", game).lookahead == 2
    assert make_agent(f"dqn:weights={tmp_path / 'two.pt'},lookahead=0", game).lookahead == 0
    with pytest.raises(BoardLabError, match="lookahead must be 0..4"):
        make_agent("dqn:weights=none,lookahead=9", game)


@pytest.mark.parametrize("name", ["reversi", "jungle-classic"])
def test_two_ply_lookahead_plays_the_other_learning_games(name):
    other = make_game(name)
    agent = make_agent("dqn:weights=none,hidden=16,lookahead=2", other)
    state = other.initial_state(0)
    for _ in range(3):
        action = agent.act(state, Clock())
        assert action in state.legal_actions()
        assert agent.last_info()["heat"]["2-ply score"]
        state = state.child(action)


def test_equal_best_search_scores_are_drawn_at_random_and_never_a_worse_move(game):
    """With every Q-value 0 and the shaped reward, quiet moves far from anything score alike:
    the search draws among the equal best (seeded), as minimax does, instead of always the
    first, which walks a piece back and forth into the no-progress draw."""
    state = game.state_from_text("7w/8/8/8/8/8/L7 0 0 - -")
    agent = DQNAgent(game, weights="none", lookahead=1, trained_reward="potential")
    agent.q_values = lambda states, players: np.zeros((len(states), game.num_actions))
    scores = agent.lookahead_scores(state)
    legal = state.legal_actions()
    best = {a for a, s in zip(legal, scores) if s >= scores.max() - 1e-9}
    assert len(best) == 2  # a1-a2 and a1-b1 near the wolf alike
    chosen = set()
    for seed in range(20):
        agent.start_game(0, seed)
        chosen.add(agent.act(state, Clock()))
    assert chosen == best


def test_leaf_weight_scales_what_the_network_adds_at_the_leaves(game, tmp_path):
    """Every leaf of two plies is the agent's own turn again: a network that says 1 everywhere
    adds gamma^2 x leaf_weight to every move's score; the file records the weight."""
    state = game.state_from_text("x6x/8/3t4/2x5/2D5/8/X6X 0 3 RE cwe")
    scores = {}
    for weight in (0.0, 0.5, 1.0):
        agent = DQNAgent(game, weights="none", lookahead=2, trained_reward="potential",
                         leaf_weight=weight)
        agent.q_values = lambda states, players: np.ones((len(states), game.num_actions))
        scores[weight] = agent.lookahead_scores(state)
    assert np.allclose(scores[0.5] - scores[0.0], 0.5 * 0.99 ** 2)
    assert np.allclose(scores[1.0] - scores[0.0], 0.99 ** 2)
    DQNAgent(game, weights="none", hidden=16, leaf_weight=0.25).save(tmp_path / "w.pt")
    assert make_agent(f"dqn:weights={tmp_path / 'w.pt'}", game).leaf_weight == 0.25
    assert make_agent(f"dqn:weights={tmp_path / 'w.pt'},leaf_weight=1", game).leaf_weight == 1
    with pytest.raises(BoardLabError, match="leaf_weight must be in"):
        make_agent("dqn:weights=none,leaf_weight=2", game)


def test_a_domain_reads_the_network_only_at_leaves_inside_it(game, tmp_path):
    """With `domain=endings` a leaf that is a small ending (a last piece against one or two,
    all face up) reads the network, any other reads 0; the file records the domain."""
    ending = game.state_from_text("7w/8/8/8/8/8/L7 0 0 - -")
    hidden = game.state_from_text("x6x/8/3t4/2x5/2D5/8/X6X 0 3 RE cwe")
    ones = lambda states, players: np.ones((len(states), game.num_actions))  # noqa: E731
    inside = DQNAgent(game, weights="none", lookahead=2, trained_reward="potential",
                      domain="endings")
    everywhere = DQNAgent(game, weights="none", lookahead=2, trained_reward="potential")
    silent = DQNAgent(game, weights="none", lookahead=2, trained_reward="potential",
                      leaf_weight=0.0)
    for agent in (inside, everywhere, silent):
        agent.q_values = ones
    assert list(inside._leaf_values([ending, hidden, ending])) == [1.0, 0.0, 1.0]
    assert list(everywhere._leaf_values([ending, hidden])) == [1.0, 1.0]
    # Two plies from the ending every leaf is one (no capture is possible yet); from the
    # opening none is.
    assert np.allclose(inside.lookahead_scores(ending), everywhere.lookahead_scores(ending))
    assert np.allclose(inside.lookahead_scores(hidden), silent.lookahead_scores(hidden))
    assert not np.allclose(everywhere.lookahead_scores(hidden), silent.lookahead_scores(hidden))
    DQNAgent(game, weights="none", hidden=16, domain="endings").save(tmp_path / "w.pt")
    assert make_agent(f"dqn:weights={tmp_path / 'w.pt'}", game).domain == "endings"
    assert make_agent(f"dqn:weights={tmp_path / 'w.pt'},domain=all", game).in_domain is None
    assert make_agent("dqn:weights=none", game).domain == "all"  # nothing recorded: all
    with pytest.raises(BoardLabError, match="no position domain 'middle'; it has: all, endings"):
        make_agent("dqn:weights=none,domain=middle", game)
    # A file recording a domain that is not a name is the file's fault, said in one line.
    payload = torch.load(tmp_path / "w.pt", weights_only=True)
    payload["domain"] = 3
    torch.save(payload, tmp_path / "bad.pt")
    with pytest.raises(BoardLabError, match="record domain 3; expected the name"):
        make_agent(f"dqn:weights={tmp_path / 'bad.pt'}", game)


def test_root_weight_adds_the_networks_q_values_at_the_root_alone(game, tmp_path):
    """The root's scores are the search's plus root_weight x Q(s, a) of each legal move; the
    leaves do not see it (leaf_weight 0 here: the network's values enter nowhere else), and
    the network's favourite among moves the search scores alike is the one played."""
    state = game.state_from_text("7w/8/8/8/8/8/L7 0 0 - -")
    legal = state.legal_actions()
    q = np.zeros(game.num_actions)
    q[legal] = np.arange(len(legal), dtype=float)
    agent = DQNAgent(game, weights="none", lookahead=2, trained_reward="potential",
                     leaf_weight=0.0, root_weight=0.01)
    agent.q_values = lambda states, players: np.tile(q, (len(states), 1))
    search = agent.lookahead_scores(state)
    assert np.allclose(agent.root_scores(state), search + 0.01 * q[legal])
    tied = [a for a, s in zip(legal, search) if s >= search.max() - 1e-9]
    assert len(tied) == 2  # a1-a2 and a1-b1 near the wolf alike: the network decides
    agent.start_game(0, 0)
    assert agent.act(state, Clock()) == max(tied, key=lambda a: q[a])
    DQNAgent(game, weights="none", hidden=16, root_weight=0.25).save(tmp_path / "w.pt")
    assert make_agent(f"dqn:weights={tmp_path / 'w.pt'}", game).root_weight == 0.25
    assert make_agent(f"dqn:weights={tmp_path / 'w.pt'},root_weight=0", game).root_weight == 0
    assert make_agent("dqn:weights=none", game).root_weight == 0  # nothing recorded: none
    with pytest.raises(BoardLabError, match="root_weight must be in"):
        make_agent("dqn:weights=none,root_weight=-0.5", game)
