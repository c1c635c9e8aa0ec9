"""The one PUCT search (agents/puct.py `ArrayForest`), its leaves made by States or by the
game's array rules, against the readable reference (puct_reference.py, beside this file) on
seeded positions: one leaf or several a step (virtual loss), and chance nodes."""

from __future__ import annotations

import random

import numpy as np
import pytest

from boardlab import make_game

torch = pytest.importorskip("torch")

from puct_reference import Node, PUCTSearch, result_of  # noqa: E402

from boardlab.agents.alphazero import AlphaZeroAgent, NetworkEvaluator  # noqa: E402
from boardlab.agents.puct import ArrayForest, pick_move  # noqa: E402
from boardlab.core.game import CHANCE  # noqa: E402
from boardlab.core.match import draw_outcome  # noqa: E402
from boardlab.learn.puct import traced_for_inference  # noqa: E402


def on_planes(evaluate):
    return evaluate.on_planes


def positions(game, count, seed):
    """Seeded positions from the start to 30 random plies in, none over."""
    rng, found = random.Random(seed), []
    while len(found) < count:
        state = game.initial_state(rng.randrange(1000))
        for _ in range(rng.randrange(30)):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            found.append(state)
    return found


def rules_of(game, leaves):
    """The forest's `rules` argument: the game's array rules, or None for States."""
    if leaves == "state":
        return None
    rules = game.array_rules()
    if rules is None:
        pytest.skip(f"{game.name} declares no array rules")
    return rules


@pytest.mark.parametrize("leaves", ["state", "arrays"])
@pytest.mark.parametrize("name", ["reversi", "xiangqi", "minichess"])
def test_array_search_gives_the_reference_visit_counts(name, leaves):
    game = make_game(name)
    evaluate = NetworkEvaluator(AlphaZeroAgent(game, weights="none", channels=8, blocks=1,
                                               seed=5).network.eval(), torch)
    states = positions(game, 6, seed=11)
    reference = PUCTSearch(1.5, random.Random(0))
    roots = [Node(state.clone(), 1.0) for state in states]
    reference.search_many(roots, 48, evaluate)
    expected = [result_of(reference, root) for root in roots]
    forest = ArrayForest(1.5, capacity=16, rules=rules_of(game, leaves))
    found = forest.search([s.clone() for s in states], 48, on_planes(evaluate))
    for want, got, state in zip(expected, found, states):
        assert got.actions.tolist() == want.actions.tolist() == state.legal_actions()
        assert got.visits.tolist() == want.visits.tolist(), str(state)
        assert got.visits.sum() == 48
        assert got.value == pytest.approx(want.value)
        assert got.tree_range == pytest.approx(want.tree_range)
        assert got.root_range == pytest.approx(want.root_range)
        assert pick_move(got, 0.0, random.Random(0)) == pick_move(want, 0.0, random.Random(0))


@pytest.mark.parametrize("leaves", ["state", "arrays"])
def test_many_seeded_reversi_searches_agree_with_the_reference(leaves):
    """40 seeded positions from the start to the last moves (passes and final positions in
    the trees), searched together: every root's visit counts are the reference's."""
    game = make_game("reversi")
    evaluate = NetworkEvaluator(AlphaZeroAgent(game, weights="none", channels=8, blocks=1,
                                               seed=3).network.eval(), torch)
    rng, states = random.Random(5), []
    while len(states) < 40:
        state = game.initial_state(0)
        for _ in range(rng.randrange(64)):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            states.append(state)
    reference = PUCTSearch(1.5, random.Random(0))
    roots = [Node(state.clone(), 1.0) for state in states]
    reference.search_many(roots, 64, evaluate)
    found = ArrayForest(1.5, capacity=16, rules=rules_of(game, leaves)).search(
        states, 64, on_planes(evaluate))
    for root, got, state in zip(roots, found, states):
        assert got.visits.tolist() == result_of(reference, root).visits.tolist(), str(state)


def uninformed(planes, movers):
    return np.ones((len(planes), 65), np.float32), np.zeros(len(planes))


@pytest.mark.parametrize("leaves", ["state", "arrays"])
def test_endgames_reach_final_positions_in_the_tree_as_the_reference_does(leaves):
    game = make_game("reversi")
    state = game.initial_state(0)
    rng = random.Random(4)
    while state.move_number() < 54:  # a few empty squares left: the tree sees the ends
        state.apply(rng.choice(state.legal_actions()))
    assert not state.is_terminal()

    forest = ArrayForest(1.5, rules=rules_of(game, leaves))
    result = forest.search([state], 300, uninformed)[0]
    reference = PUCTSearch(1.5, random.Random(0))
    root = Node(state, 1.0)
    reference.search_many([root], 300, lambda states: uninformed(states, None))
    assert result.visits.tolist() == result_of(reference, root).visits.tolist()
    assert forest.evaluated < 300  # simulations that end on a final position ask no network


@pytest.mark.parametrize("leaves", ["state", "arrays"])
def test_noise_changes_only_the_root_priors(leaves):
    game = make_game("reversi")
    state = game.initial_state(0)
    rules = rules_of(game, leaves)
    plain = ArrayForest(1.5, rules=rules).search([state], 8, uninformed)[0]
    noisy = ArrayForest(1.5, rules=rules).search([state], 8, uninformed,
                                                 lambda p: np.array([0.7, 0.1, 0.1, 0.1]))[0]
    assert plain.priors.tolist() == [0.25] * 4
    assert noisy.priors.tolist() == [0.7, 0.1, 0.1, 0.1]


def test_the_frozen_network_computes_what_the_module_does():
    game = make_game("xiangqi")
    agent = AlphaZeroAgent(game, weights="none", channels=8, blocks=1)
    states = positions(game, 5, seed=2)
    planes = torch.from_numpy(game.encode_batch(states, [s.current_player() for s in states]))
    with torch.no_grad():
        logits, values = agent.network.eval()(planes)
        fast_logits, fast_values = traced_for_inference(agent.network, agent.shape)(planes)
    assert torch.allclose(logits, fast_logits, atol=1e-4)
    assert torch.allclose(values, fast_values, atol=1e-5)
    with torch.no_grad():
        low_logits, low_values = traced_for_inference(agent.network, agent.shape,
                                                      bfloat16=True)(planes)
    assert low_logits.dtype == torch.float32
    assert torch.allclose(logits, low_logits, atol=0.05)
    assert torch.allclose(values, low_values, atol=0.05)


@pytest.mark.parametrize("leaves", ["state", "arrays"])
@pytest.mark.parametrize("walks", [4, 7])
def test_several_leaves_a_step_give_the_reference_visit_counts(leaves, walks):
    """`walks` descents a tree a step, spread by a virtual loss that is taken back: the
    forest's trees are the reference's, three trees searched together."""
    game = make_game("reversi")
    evaluate = NetworkEvaluator(AlphaZeroAgent(game, weights="none", channels=8, blocks=1,
                                               seed=2).network.eval(), torch)
    states = positions(game, 3, seed=7)
    reference = PUCTSearch(1.5, random.Random(0))
    roots = [Node(state.clone(), 1.0) for state in states]
    reference.search_many(roots, 50, evaluate, leaves=walks)
    forest = ArrayForest(1.5, capacity=16, rules=rules_of(game, leaves))
    found = forest.search([s.clone() for s in states], 50, on_planes(evaluate), leaves=walks)
    for root, got in zip(roots, found):
        want = result_of(reference, root)
        assert got.visits.tolist() == want.visits.tolist()
        assert got.value == pytest.approx(want.value)
        assert got.tree_range == pytest.approx(want.tree_range)
        assert got.simulations == 50
    # the roots' call, then at most one a step: each step's new leaves of all trees together
    assert forest.calls <= 1 + -(-50 // walks)
    assert forest.visits[:3].tolist() == [50, 50, 50]


def dark_positions(game, count, seed):
    """Seeded positions of a game with chance nodes, a player to move at each."""
    rng, found = random.Random(seed), []
    while len(found) < count:
        state = game.initial_state(rng.randrange(1000))
        for _ in range(rng.randrange(12)):
            while state.current_player() == CHANCE:
                state.apply(draw_outcome(state.chance_outcomes(), rng.random()))
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        while state.current_player() == CHANCE:
            state.apply(draw_outcome(state.chance_outcomes(), rng.random()))
        if not state.is_terminal():
            found.append(state)
    return found


@pytest.mark.parametrize("walks", [1, 4])
def test_chance_nodes_give_the_reference_visit_counts(walks):
    """Dark Jungle (pieces revealed by chance): one tree at a time, the chance outcomes drawn
    from the same seeded stream, the forest's visits are the reference's."""
    game = make_game("jungle")
    assert game.facts.has_chance
    evaluate = NetworkEvaluator(AlphaZeroAgent(game, weights="none", channels=8, blocks=1,
                                               seed=4).network.eval(), torch)
    for state in dark_positions(game, 5, seed=3):
        reference = PUCTSearch(1.5, random.Random(9))
        root = Node(state.clone(), 1.0)
        reference.search_many([root], 64, evaluate, leaves=walks)
        forest = ArrayForest(1.5, capacity=16, rng=random.Random(9))
        got = forest.search([state.clone()], 64, on_planes(evaluate), leaves=walks)[0]
        want = result_of(reference, root)
        assert got.visits.tolist() == want.visits.tolist(), str(state)
        assert got.value == pytest.approx(want.value)
        assert got.tree_range == pytest.approx(want.tree_range)


def test_a_chance_node_is_walked_through_by_its_probabilities():
    """Uninformed priors, many simulations: a reveal's chance node shares its visits among
    the outcomes as their probabilities say, and asks the network nothing."""
    game = make_game("jungle")
    state = dark_positions(game, 1, seed=1)[0]
    forest = ArrayForest(1.5, rng=random.Random(2))

    def uninformed_jungle(planes, movers):
        return np.ones((len(planes), game.num_actions), np.float32), np.zeros(len(planes))

    result = forest.search([state], 3000, uninformed_jungle)[0]
    reveals = [i for i, a in enumerate(result.actions)
               if state.child(int(a)).current_player() == CHANCE]
    assert reveals, "the position has a piece to reveal"
    index = max(reveals, key=lambda i: result.visits[i])
    node = forest.child(0, int(result.actions[index]))
    assert forest.mover[node] == CHANCE
    span = range(forest.first[node], forest.first[node] + forest.count[node])
    outcomes = dict(state.child(int(result.actions[index])).chance_outcomes())
    children = [(int(forest.edge_action[e]), int(forest.edge_child[e])) for e in span]
    total = sum(forest.visits[c] for _, c in children if c >= 0)
    assert total == forest.visits[node] > 200
    for action, child in children:
        share = forest.visits[child] / total if child >= 0 else 0.0
        assert share == pytest.approx(outcomes[action], abs=0.08)
    made = forest.mover[:forest.top[0]]
    assert (made == CHANCE).sum() > 0
    assert forest.evaluated == (made >= 0).sum()  # the decision nodes: chance nodes need none


def test_a_clock_stops_the_search_after_at_least_one_step():
    from boardlab import Clock

    game = make_game("reversi")
    state = game.initial_state(0)
    forest = ArrayForest(1.5, rules=rules_of(game, "arrays"))
    result = forest.search([state], 0, uninformed, clock=Clock.start(0.0), leaves=3)[0]
    assert result.simulations == 3 and result.visits.sum() == 3
    result = forest.search([state], 0, uninformed, clock=Clock.start(0.05))[0]
    assert result.simulations > 3
    with pytest.raises(ValueError, match="needs a clock"):
        forest.search([state], 0, uninformed)
