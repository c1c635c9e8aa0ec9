"""PUCT for many trees at once, over arrays: the self-play search at the network's bound.

The same search as agents/alphazero.py's `PUCTSearch` (the readable reference: one `Node`
object per position, a Python loop over its children), with the tree statistics in flat
numpy arrays shared by every tree of a worker and the two hot loops compiled with numba:
- `_descend`: every tree walks down by the PUCT score to the edge it will expand (one call for
  all trees per simulation step);
- `_expand_and_back_up`: the new leaves get their legal moves and normalised priors, and every
  path gets its value (one call per step).
What stays in Python per leaf is what only the game's `State` knows: `child(action)`,
`legal_actions()` and the end of the game. The network sees all trees' new leaves in one call
through the game's `encode_batch` hook (a compiled encoder where the game declares one).

Layout: a node is an index into the node arrays (visits, value sum from player 0's side, the
player to move, its first edge and edge count, -1 before it is expanded); its edges (one per
legal move: action, prior, child node or -1) sit side by side in the edge arrays. Nodes and
edges are allocated from the top of the arrays and all freed at once when the games move.

Games with chance nodes are left to the reference search (learn/alphazero.py picks by
`game.facts.has_chance`). tests/learn/test_puct.py checks that both searches give the same
visit counts on seeded positions.
"""

from __future__ import annotations

import copy
import math
import warnings
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
from numba import njit

from ..agents.alphazero import Node, PUCTSearch
from ..core.game import TERMINAL, State

Evaluate = Callable[[list[State]], tuple[np.ndarray, np.ndarray]]
"""States (each with a player to move) -> (priors over all actions, values for the mover)."""


@njit(cache=True)
def _descend(roots, visits, value_sum, mover, first, count, edge_child, edge_prior, c_puct,
             top, paths, lengths, leaf_edges, root_range, tree_range):
    """Walk every tree from its root by the PUCT score (agents/alphazero.py `_select`, the
    same arithmetic and the same tie rule: the first best in legal-move order) to a terminal
    node or to an edge with no node yet, which gets a fresh node. paths[t, :lengths[t]] is the
    walk, leaf_edges[t] the edge that got a node (-1 if the walk ended on a terminal node).
    root_range / tree_range[t] = (least, greatest) score met at the root / anywhere in the tree
    (seed 003's scheme 1)."""
    for t in range(roots.shape[0]):
        node = roots[t]
        paths[t, 0] = node
        depth = 1
        leaf_edges[t] = -1
        while mover[node] != TERMINAL:
            sign = 1.0 if mover[node] == 0 else -1.0
            explore = c_puct * math.sqrt(max(visits[node], 1))
            best_score = -np.inf
            best = -1
            low = np.inf
            high = -np.inf
            for e in range(first[node], first[node] + count[node]):
                child = edge_child[e]
                if child < 0 or visits[child] == 0:
                    score = explore * edge_prior[e]
                else:
                    score = (sign * value_sum[child] / visits[child]
                             + explore * edge_prior[e] / (1 + visits[child]))
                if score > best_score:
                    best_score = score
                    best = e
                low = min(low, score)
                high = max(high, score)
            if depth == 1:
                root_range[t, 0] = min(root_range[t, 0], low)
                root_range[t, 1] = max(root_range[t, 1], high)
            tree_range[t, 0] = min(tree_range[t, 0], low)
            tree_range[t, 1] = max(tree_range[t, 1], high)
            child = edge_child[best]
            if child < 0:  # a new node: the state is made in Python, then evaluated
                child = top[0]
                top[0] += 1
                edge_child[best] = child
                visits[child] = 0
                value_sum[child] = 0.0
                count[child] = -1
                paths[t, depth] = child
                leaf_edges[t] = best
                depth += 1
                break
            node = child
            paths[t, depth] = node
            depth += 1
        lengths[t] = depth


@njit(cache=True)
def _expand(nodes, legal, legal_counts, priors, first, count, edge_action, edge_prior,
            edge_child, edge_top):
    """Give each node its edges: the legal moves and the network's priors over them,
    normalised to sum 1 (uniform if the network gave them nothing)."""
    k = 0
    for i in range(nodes.shape[0]):
        node = nodes[i]
        n = legal_counts[i]
        start = edge_top[0]
        edge_top[0] += n
        total = 0.0
        for j in range(n):
            total += float(priors[i, legal[k + j]])
        for j in range(n):
            e = start + j
            a = legal[k + j]
            edge_action[e] = a
            edge_prior[e] = float(priors[i, a]) / total if total > 0 else 1.0 / n
            edge_child[e] = -1
        first[node] = start
        count[node] = n
        k += n


@njit(cache=True)
def _back_up(paths, lengths, values, visits, value_sum):
    """Add one visit and the leaf's value (player 0's side) to every node of every path."""
    for t in range(paths.shape[0]):
        for d in range(lengths[t]):
            node = paths[t, d]
            visits[node] += 1
            value_sum[node] += values[t]


@dataclass
class RootResult:
    """What a finished search says about one root: its moves, their visits and priors, and
    the PUCT score of each move scaled by the root's and the tree's score ranges."""

    actions: np.ndarray
    visits: np.ndarray
    priors: np.ndarray
    value: float
    """Mean value of the root from the mover's side."""
    scores: np.ndarray
    """The PUCT score of each root move now (as `_select` computes it)."""
    root_range: tuple[float, float]
    tree_range: tuple[float, float]

    def normalised(self, index: int, whole_tree: bool) -> float:
        """Seed 003's u of the move at `index` in [0, 1], by the range met at the root only or
        over the whole tree (the seed's reading); 0.5 when the range is empty."""
        low, high = self.tree_range if whole_tree else self.root_range
        u = float(self.scores[index])
        low, high = min(low, u), max(high, u)
        return 0.5 if high - low < 1e-12 else (u - low) / (high - low)


class ArrayForest:
    """Many PUCT trees over shared arrays; `search(states, ...)` grows one tree per state."""

    def __init__(self, c_puct: float, capacity: int = 4096) -> None:
        self.c_puct = c_puct
        # per node
        self.visits = np.zeros(capacity, dtype=np.int64)
        self.value_sum = np.zeros(capacity, dtype=np.float64)
        """From player 0's side."""
        self.mover = np.zeros(capacity, dtype=np.int64)
        """The player to move, or TERMINAL."""
        self.first = np.zeros(capacity, dtype=np.int64)
        self.count = np.zeros(capacity, dtype=np.int64)
        """Edges of the node; -1 until it is expanded."""
        # per edge
        self.edge_action = np.zeros(8 * capacity, dtype=np.int64)
        self.edge_prior = np.zeros(8 * capacity, dtype=np.float64)
        self.edge_child = np.zeros(8 * capacity, dtype=np.int64)
        """The child's node, -1 until the edge is first walked."""
        self.top = np.zeros(1, dtype=np.int64)
        """The next free node."""
        self.edge_top = np.zeros(1, dtype=np.int64)
        """The next free edge."""
        self.states: list[Any] = []
        """The State of each node (None for nodes not made yet)."""
        self.calls = 0
        """Network calls made (one per simulation step with something to evaluate)."""
        self.evaluated = 0
        """Positions the network evaluated."""

    def _nodes(self, size: int) -> None:
        """Room for `size` nodes (the arrays are refilled by each search)."""
        for name in ("visits", "value_sum", "mover", "first", "count"):
            setattr(self, name, np.resize(getattr(self, name), size))

    def _edges(self, size: int) -> None:
        """Room for `size` edges, keeping those made so far in this search."""
        for name in ("edge_action", "edge_prior", "edge_child"):
            setattr(self, name, np.resize(getattr(self, name), size))

    def _expand(self, nodes: list[int], states: Collection[State], evaluate: Evaluate,
                ) -> np.ndarray:
        """Evaluate `states` in one network call, give their nodes edges; returns the values
        from player 0's side."""
        legal = [state.legal_actions() for state in states]
        counts = np.array([len(moves) for moves in legal], dtype=np.int64)
        needed = self.edge_top[0] + int(counts.sum())
        if needed > len(self.edge_action):
            self._edges(max(needed, 2 * len(self.edge_action)))
        priors, values = evaluate(list(states))
        self.calls += 1
        self.evaluated += len(states)
        flat = np.fromiter((a for moves in legal for a in moves), dtype=np.int64,
                           count=int(counts.sum()))
        _expand(np.asarray(nodes, dtype=np.int64), flat, counts, priors, self.first,
                self.count, self.edge_action, self.edge_prior, self.edge_child,
                self.edge_top)
        movers = self.mover[np.asarray(nodes, dtype=np.int64)]
        values = np.asarray(values, dtype=np.float64)
        return np.where(movers == 0, values, -values)

    def search(self, states: Collection[State], sims: int, evaluate: Evaluate,
               noise: Callable[[np.ndarray], np.ndarray] | None = None) -> list[RootResult]:
        """`sims` simulations from each of `states` (decision nodes, not over), one leaf per
        tree per step and all new leaves evaluated in one call. `noise(priors)` returns the
        root priors to search with (Dirichlet noise in self-play)."""
        trees = len(states)
        capacity = trees * (sims + 1)
        if capacity > len(self.visits):
            self._nodes(capacity)
        self.top[0] = trees
        self.edge_top[0] = 0
        roots = np.arange(trees, dtype=np.int64)
        self.states = list(states) + [None] * (capacity - trees)
        self.visits[:trees] = 0
        self.value_sum[:trees] = 0.0
        self.mover[:trees] = [state.current_player() for state in states]
        self._expand(list(range(trees)), states, evaluate)
        if noise is not None:
            for root in range(trees):
                span = slice(self.first[root], self.first[root] + self.count[root])
                self.edge_prior[span] = noise(self.edge_prior[span])
        paths = np.zeros((trees, sims + 2), dtype=np.int64)
        lengths = np.zeros(trees, dtype=np.int64)
        leaf_edges = np.zeros(trees, dtype=np.int64)
        root_range = np.tile([np.inf, -np.inf], (trees, 1))
        tree_range = root_range.copy()
        values = np.zeros(trees, dtype=np.float64)
        for _ in range(sims):
            _descend(roots, self.visits, self.value_sum, self.mover, self.first, self.count,
                     self.edge_child, self.edge_prior, self.c_puct, self.top, paths, lengths,
                     leaf_edges, root_range, tree_range)
            waiting_nodes, waiting_states, waiting_trees = [], [], []
            for t in range(trees):
                leaf = int(paths[t, lengths[t] - 1])
                edge = int(leaf_edges[t])
                if edge >= 0:  # a new node: play the edge's move on its parent's state
                    parent = self.states[int(paths[t, lengths[t] - 2])]
                    state = parent.child(int(self.edge_action[edge]))
                    self.states[leaf] = state
                    self.mover[leaf] = player = state.current_player()
                    if player == TERMINAL:
                        values[t] = state.returns()[0]
                        continue
                    waiting_nodes.append(leaf)
                    waiting_states.append(state)
                    waiting_trees.append(t)
                else:  # a terminal node reached again
                    values[t] = self.states[leaf].returns()[0]
            if waiting_nodes:
                values[waiting_trees] = self._expand(waiting_nodes, waiting_states, evaluate)
            _back_up(paths, lengths, values, self.visits, self.value_sum)
        return [self._result(root, tree_range[root], root_range[root]) for root in range(trees)]

    def _result(self, root: int, tree_range: np.ndarray, root_range: np.ndarray) -> RootResult:
        span = slice(self.first[root], self.first[root] + self.count[root])
        children = self.edge_child[span]
        return root_result(self.edge_action[span].copy(), self.edge_prior[span].copy(),
                           np.where(children >= 0, self.visits[np.maximum(children, 0)], 0),
                           np.where(children >= 0, self.value_sum[np.maximum(children, 0)], 0.0),
                           int(self.mover[root]), int(self.visits[root]),
                           float(self.value_sum[root]), self.c_puct,
                           (float(root_range[0]), float(root_range[1])),
                           (float(tree_range[0]), float(tree_range[1])))


def root_result(actions: np.ndarray, priors: np.ndarray, visits: np.ndarray, sums: np.ndarray,
                mover: int, root_visits: int, root_sum: float, c_puct: float,
                root_range: tuple[float, float], tree_range: tuple[float, float]
                ) -> RootResult:
    """A RootResult from a root's statistics (children's visits and value sums from player
    0's side): the PUCT score of each move computed as `_select` does."""
    sign = 1.0 if mover == 0 else -1.0
    explore = c_puct * math.sqrt(max(root_visits, 1))
    scores = np.where(visits > 0, sign * sums / np.maximum(visits, 1)
                      + explore * priors / (1 + visits), explore * priors)
    return RootResult(actions, visits, priors, sign * root_sum / max(root_visits, 1), scores,
                      root_range, tree_range)


def result_of(search: PUCTSearch, root: Node) -> RootResult:
    """A reference search's root as the array search reports it (learn/alphazero.py uses
    either search through `RootResult`)."""
    assert root.priors is not None
    children = [root.children.get(a) for a in root.priors]
    empty = (math.inf, -math.inf)
    return root_result(np.array(list(root.priors), dtype=np.int64),
                       np.array(list(root.priors.values()), dtype=np.float64),
                       np.array([c.visits if c else 0 for c in children], dtype=np.int64),
                       np.array([c.value_sum if c else 0.0 for c in children]),
                       root.mover, root.visits, root.value_sum, search.c_puct,
                       search.u_range.get(id(root), empty),
                       search.tree_range.get(id(root), empty))


def pick_move(result: RootResult, temperature: float, rng: Any) -> int:
    """Index of the move to play: the most visited (ties: the higher prior, then the first),
    or one drawn in proportion to visits^(1/T) (agents/alphazero.py `choose_move`)."""
    visits = result.visits
    if temperature > 0 and visits.sum() > 0:
        weights = (visits.astype(np.float64) ** (1.0 / temperature)).tolist()
        return rng.choices(range(len(visits)), weights)[0]
    return max(range(len(visits)), key=lambda i: (visits[i], result.priors[i]))


def frozen(network: Any, shape: Collection[int], bfloat16: bool = False) -> Any:
    """The network for inference only, compiled by TorchScript: batch norms folded into the
    convolutions and oneDNN kernels (measured 1.8-2x the module on two games' nets at batch
    64; the outputs agree to float rounding). `bfloat16` computes in bfloat16 inside (another
    1.3-1.5x where the CPU has bfloat16 units, outputs within ~5e-4), float32 in and out.
    `shape`: one input's (planes, height, width)."""
    import torch
    from torch import nn

    class BFloat16(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.inner = copy.deepcopy(network).to(torch.bfloat16)

        def forward(self, planes: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            logits, values = self.inner(planes.to(torch.bfloat16))
            return logits.float(), values.float()

    network.eval()
    module = BFloat16().eval() if bfloat16 else network
    # TorchScript is deprecated in favour of torch.compile, which needs a C++ compiler at run
    # time and compiles again for each batch size; this still works and is what we measured.
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        traced = torch.jit.trace(module, torch.zeros((2, *shape)))
        return torch.jit.optimize_for_inference(torch.jit.freeze(traced))
