"""The array search (learn/puct.py) against the reference PUCTSearch on seeded positions."""

from __future__ import annotations

import random

import numpy as np
import pytest

from boardlab import make_game

torch = pytest.importorskip("torch")

from boardlab.agents.alphazero import AlphaZeroAgent, NetworkEvaluator, Node, PUCTSearch  # noqa
from boardlab.learn.puct import ArrayForest, frozen, pick_move, result_of  # noqa: E402


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


@pytest.mark.parametrize("name", ["reversi", "xiangqi", "minichess"])
def test_array_search_gives_the_reference_visit_counts(name):
    game = make_game(name)
    evaluate = NetworkEvaluator(AlphaZeroAgent(game, weights="none", channels=8, blocks=1,
                                               seed=5).network.eval(), torch)
    states = positions(game, 6, seed=11)
    reference = PUCTSearch(1.5, random.Random(0))
    roots = [Node(state.clone(), 1.0) for state in states]
    reference.search_many(roots, 48, evaluate)
    expected = [result_of(reference, root) for root in roots]
    found = ArrayForest(1.5, capacity=16).search([s.clone() for s in states], 48, evaluate)
    for want, got, state in zip(expected, found, states):
        assert got.actions.tolist() == want.actions.tolist() == state.legal_actions()
        assert got.visits.tolist() == want.visits.tolist(), str(state)
        assert got.visits.sum() == 48
        assert got.value == pytest.approx(want.value)
        assert got.tree_range == pytest.approx(want.tree_range)
        assert got.root_range == pytest.approx(want.root_range)
        assert pick_move(got, 0.0, random.Random(0)) == pick_move(want, 0.0, random.Random(0))


def test_endgames_reach_final_positions_in_the_tree_as_the_reference_does():
    game = make_game("reversi")
    state = game.initial_state(0)
    rng = random.Random(4)
    while state.move_number() < 54:  # a few empty squares left: the tree sees the ends
        state.apply(rng.choice(state.legal_actions()))
    assert not state.is_terminal()

    def uninformed(states):
        return np.ones((len(states), game.num_actions), np.float32), np.zeros(len(states))

    forest = ArrayForest(1.5)
    result = forest.search([state], 300, uninformed)[0]
    reference = PUCTSearch(1.5, random.Random(0))
    root = Node(state, 1.0)
    reference.search_many([root], 300, uninformed)
    assert result.visits.tolist() == result_of(reference, root).visits.tolist()
    assert forest.evaluated < 300  # simulations that end on a final position ask no network


def test_noise_changes_only_the_root_priors():
    game = make_game("reversi")
    state = game.initial_state(0)

    def uninformed(states):
        return np.ones((len(states), 65), np.float32), np.zeros(len(states))

    plain = ArrayForest(1.5).search([state], 8, uninformed)[0]
    noisy = ArrayForest(1.5).search([state], 8, uninformed,
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
        fast_logits, fast_values = frozen(agent.network, agent.shape)(planes)
    assert torch.allclose(logits, fast_logits, atol=1e-4)
    assert torch.allclose(values, fast_values, atol=1e-5)
    with torch.no_grad():
        low_logits, low_values = frozen(agent.network, agent.shape, bfloat16=True)(planes)
    assert low_logits.dtype == torch.float32
    assert torch.allclose(logits, low_logits, atol=0.05)
    assert torch.allclose(values, low_values, atol=0.05)
