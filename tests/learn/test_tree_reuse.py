"""Tree reuse in the PUCT forest (agents/puct.py `ArrayForest.keep`) and in self-play
(learn/alphazero.py `reuse`): the subtree under the move played becomes the next root's tree."""

from __future__ import annotations

import random

import numpy as np
import pytest

from boardlab import make_game

torch = pytest.importorskip("torch")

from boardlab.agents.alphazero import AlphaZeroAgent, NetworkEvaluator  # noqa: E402
from boardlab.learn.alphazero import AlphaZeroTraining, self_play  # noqa: E402
from boardlab.agents.puct import ArrayForest  # noqa: E402


def on_planes(evaluate):
    return evaluate.on_planes

TINY = {"workers": 1, "games_per_worker": 2, "sims": 6, "train_steps": 10, "batch": 32,
        "eval_games": 2, "eval_sims": 4, "temperature_moves": 4}


def network(game, seed=7):
    return AlphaZeroAgent(game, weights="none", channels=8, blocks=1, seed=seed).network.eval()


def rules_of(game, leaves):
    return None if leaves == "state" else game.array_rules()


def subtree(forest, node):
    """A node's statistics and its whole subtree, by actions (not node numbers)."""
    span = range(forest.first[node], forest.first[node] + max(forest.count[node], 0))
    words = forest.words[node].tolist() if forest.rules is not None else \
        str(forest.states[node])
    return (int(forest.visits[node]), float(forest.value_sum[node]), int(forest.mover[node]),
            words, [(int(forest.edge_action[e]), float(forest.edge_prior[e]),
                     subtree(forest, forest.edge_child[e]) if forest.edge_child[e] >= 0 else None)
                    for e in span])


def child_of(forest, root, action):
    span = range(forest.first[root], forest.first[root] + forest.count[root])
    return int(next(forest.edge_child[e] for e in span if forest.edge_action[e] == action))


def opening(plies, seed):
    state = make_game("reversi").initial_state(0)
    rng = random.Random(seed)
    for _ in range(plies):
        state.apply(rng.choice(state.legal_actions()))
    return state


def searched(leaves, sims=64):
    """Two Reversi positions searched together, and each one's most visited move."""
    game = make_game("reversi")
    evaluate = on_planes(NetworkEvaluator(network(game), torch))
    states = [opening(6, 1), opening(11, 2)]
    forest = ArrayForest(1.5, capacity=16, rules=rules_of(game, leaves))
    results = forest.search(states, sims, evaluate)
    moves = [int(r.actions[np.argmax(r.visits)]) for r in results]
    return forest, states, moves, evaluate


@pytest.mark.parametrize("leaves", ["state", "arrays"])
def test_a_kept_subtree_has_exactly_the_statistics_the_child_had(leaves):
    forest, _, moves, _ = searched(leaves)
    before = [subtree(forest, child_of(forest, tree, move)) for tree, move in enumerate(moves)]
    forest.keep([1, 0], [moves[1], moves[0]])  # in another order: the roots are renumbered
    assert subtree(forest, 0) == before[1]
    assert subtree(forest, 1) == before[0]
    assert forest.top[0] == before[0][0] + before[1][0]  # every kept node made one visit


@pytest.mark.parametrize("leaves", ["state", "arrays"])
def test_a_reused_search_stops_when_the_root_has_sims_visits(leaves):
    forest, states, moves, evaluate = searched(leaves)
    kept = [forest.visits[child_of(forest, t, m)] for t, m in enumerate(moves)]
    assert 0 < min(kept) and max(kept) < 64
    after = [s.child(m) for s, m in zip(states, moves)]
    forest.keep([0, 1], moves)
    evaluated = forest.evaluated
    results = forest.search(after, 64, evaluate)
    assert forest.visits[:2].tolist() == [64, 64]
    # the root's own evaluation is one of its visits: its moves hold the rest
    assert [r.visits.sum() for r in results] == [63, 63]
    assert forest.evaluated - evaluated <= 128 - sum(kept)  # only the missing visits
    assert forest.reused == sum(kept)


@pytest.mark.parametrize("leaves", ["state", "arrays"])
def test_a_kept_root_is_noised_once_on_the_network_priors(leaves):
    forest, states, moves, evaluate = searched(leaves)
    network_priors = [[p for _, p, _ in subtree(forest, child_of(forest, t, m))[4]]
                      for t, m in enumerate(moves)]
    seen = []

    def noise(priors):
        seen.append(priors.tolist())
        return np.full(len(priors), 1.0 / len(priors))
    forest.keep([0, 1], moves)
    results = forest.search([s.child(m) for s, m in zip(states, moves)], 64, evaluate, noise)
    assert seen == network_priors  # the old root's noise went with the old root
    for result in results:
        assert np.allclose(result.priors, 1.0 / len(result.priors))


@pytest.mark.parametrize("leaves", ["state", "arrays"])
def test_a_move_never_searched_gets_a_fresh_root(leaves):
    forest, states, moves, evaluate = searched(leaves, sims=2)
    span = range(forest.first[0], forest.first[0] + forest.count[0])
    unvisited = next(int(forest.edge_action[e]) for e in span if forest.edge_child[e] < 0)
    forest.keep([0], [unvisited])
    assert forest.count[0] == -1
    result = forest.search([states[0].child(unvisited)], 16, evaluate)[0]
    assert forest.visits[0] == 16 and result.visits.sum() == 16


def test_the_next_search_must_get_one_position_per_kept_root():
    forest, states, moves, evaluate = searched("arrays", sims=8)
    forest.keep([0, 1], moves)
    with pytest.raises(ValueError, match="2 roots kept"):
        forest.search([states[0].child(moves[0])], 8, evaluate)


def test_memory_stays_bounded_over_a_whole_game():
    game = make_game("reversi")
    evaluate = on_planes(NetworkEvaluator(network(game), torch))
    forest = ArrayForest(1.5, capacity=16, rules=game.array_rules())
    state = game.initial_state(0)
    sizes = []
    while not state.is_terminal():
        result = forest.search([state], 32, evaluate)[0]
        move = int(result.actions[np.argmax(result.visits)])
        state.apply(move)
        if not state.is_terminal():
            forest.keep([0], [move])
        sizes.append((len(forest.visits), len(forest.edge_action)))
    assert len(sizes) > 50
    # a search adds at most 32 nodes to the <= 32 it kept; edges grow by doubling from 128
    assert max(nodes for nodes, _ in sizes) <= 64
    assert max(edges for _, edges in sizes) <= 2048


def samples_of(reuse, rules="arrays", seed=4):
    game = make_game("reversi")
    return self_play(game, network(game), AlphaZeroTraining(rules=rules, reuse=reuse, **TINY),
                     3, seed=seed)


def test_self_play_with_reuse_is_reproducible_from_its_seed_and_asks_fewer_leaves():
    (first, stats), (again, _) = samples_of(True), samples_of(True)
    assert np.array_equal(first.planes, again.planes)
    assert np.array_equal(first.policy, again.policy)
    assert np.array_equal(first.value, again.value)
    assert stats.reused > 0
    fresh = samples_of(False)[1]
    assert stats.leaves / stats.positions < fresh.leaves / fresh.positions


def test_self_play_with_reuse_is_the_same_with_array_rules_or_states():
    (arrays, _), (states, _) = samples_of(True, "arrays"), samples_of(True, "state")
    assert np.array_equal(arrays.policy, states.policy)
    assert np.array_equal(arrays.value, states.value)


@pytest.mark.parametrize("rules", ["arrays", "state"])
def test_without_reuse_self_play_is_what_it_was_before_reuse(rules):
    """Figures of this seeded run taken before tree reuse was written (commit 600b5f8)."""
    samples, stats = samples_of(False, rules)
    visits = np.rint(samples.policy * TINY["sims"]).astype(int)
    assert (len(samples), stats.leaves, stats.reused) == (181, 1229, 0)
    assert int((visits * np.arange(65)).sum()) == 34478
    assert visits.sum(1).tolist() == [TINY["sims"]] * 181
