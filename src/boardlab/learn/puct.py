"""PUCT for many trees at once, over arrays: the self-play search at the network's bound.

The same search as agents/alphazero.py's `PUCTSearch` (the readable reference: one `Node`
object per position, a Python loop over its children), with the tree statistics in flat
numpy arrays shared by every tree of a worker and the hot loops compiled with numba, one call
for all trees per simulation step:
- `_descend`: every tree walks down by the PUCT score (`_walk`) to the edge it will expand;
- the new leaves are made, listed and encoded: by the game's `State` in Python (`child`,
  `legal_actions`, the end of the game, `encode_batch`), or, where the game declares array
  rules (`Game.array_rules()`, core/arrayrules.py), inside the compiled call itself
  (`_descend_and_make`), each node's position kept as a row of int64 words;
- the network evaluates all trees' new leaves in one call (`EvaluatePlanes`);
- `_set_priors` gives the leaves their normalised priors, `_back_up` every path its value.

Layout: a node is an index into the node arrays (visits, value sum from player 0's side, the
player to move, its first edge and edge count, -1 before it has edges); its edges (one per
legal move: action, prior, child node or -1) sit side by side in the edge arrays. Nodes and
edges are allocated from the top of the arrays and all freed at once when the games move,
or, with tree reuse (`keep`, as Leela Zero and KataGo do in self-play), all but the subtree
under each move played, which `_compact` copies into fresh arrays as the next roots' trees;
the next search walks each tree until its root has `sims` visits.

The array rules' functions reach `_descend_and_make` as function pointers (core/arrayrules.py
`CompiledFunction`), so the kernel is compiled once for every game and numba's cache keeps
it; passing them costs ~20 us a step.

Games with chance nodes are left to the reference search (learn/alphazero.py picks by
`game.facts.has_chance`). tests/learn/test_puct.py checks that both searches, with array
rules or States, give the same visit counts on seeded positions; tests/learn/test_tree_reuse.py
that a kept subtree is the child's exactly, and what a reused search does.
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

from ..agents.alphazero import NetworkEvaluator, Node, PUCTSearch
from ..core.arrayrules import ArrayRules
from ..core.game import TERMINAL, State
from ..core.kernelcache import fresh_cache

EvaluatePlanes = Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]
"""(Network input planes (n, *shape) float32 of positions with a player to move, those players)
-> (priors over all actions, values for the mover)."""


@njit(cache=True)
def _walk(root, visits, value_sum, mover, first, count, edge_child, edge_prior, c_puct,
          path, root_range, tree_range):
    """Walk one tree from `root` by the PUCT score (agents/alphazero.py `_select`, the same
    arithmetic and the same tie rule: the first best in legal-move order) to a terminal node
    or to an edge with no node yet. `path[:length]` gets the nodes walked; returns (length,
    that edge or -1 if the walk ended on a terminal node). root_range / tree_range = (least,
    greatest) score met at the root / anywhere in the tree (seed 003's scheme 1)."""
    node = root
    path[0] = node
    depth = 1
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
            root_range[0] = min(root_range[0], low)
            root_range[1] = max(root_range[1], high)
        tree_range[0] = min(tree_range[0], low)
        tree_range[1] = max(tree_range[1], high)
        if edge_child[best] < 0:
            return depth, best
        node = edge_child[best]
        path[depth] = node
        depth += 1
    return depth, -1


@njit(cache=True)
def _new_node(edge, edge_child, visits, value_sum, count, top):
    """A fresh node below `edge`, not yet expanded."""
    child = top[0]
    top[0] += 1
    edge_child[edge] = child
    visits[child] = 0
    value_sum[child] = 0.0
    count[child] = -1
    return child


@njit(cache=True)
def _descend(roots, visits, value_sum, mover, first, count, edge_child, edge_prior, c_puct,
             top, paths, lengths, leaf_edges, root_range, tree_range, left):
    """`_walk` every tree with simulations `left`; an edge with no node gets a fresh node at
    the end of the path (its state is made in Python, then evaluated). paths[t, :lengths[t]]
    is tree t's walk (length 0: tree t is done), leaf_edges[t] the edge that got a node (-1
    if the walk ended on a terminal node)."""
    for t in range(roots.shape[0]):
        leaf_edges[t] = -1
        lengths[t] = 0
        if left[t] <= 0:
            continue
        left[t] -= 1
        depth, edge = _walk(roots[t], visits, value_sum, mover, first, count, edge_child,
                            edge_prior, c_puct, paths[t], root_range[t], tree_range[t])
        if edge >= 0:
            paths[t, depth] = _new_node(edge, edge_child, visits, value_sum, count, top)
            depth += 1
        leaf_edges[t] = edge
        lengths[t] = depth


@njit(cache=True)
def _open(node, words, first, count, edge_action, edge_child, edge_top, planes, legal_actions,
          encode):
    """Give a node with a player to move its edges (its legal moves, no priors yet) and
    encode it into `planes`, by the game's array rules."""
    start = edge_top[0]
    n = legal_actions(words[node], edge_action[start:])
    edge_top[0] += n
    for e in range(start, start + n):
        edge_child[e] = -1
    first[node] = start
    count[node] = n
    encode(words[node], planes)


@njit(cache=True)
def _open_roots(roots, words, mover, first, count, edge_action, edge_child, edge_top,
                planes, legal_actions, current_player, encode):
    """`_open` every root (each has a player to move); planes[i] gets root i."""
    for i in range(roots.shape[0]):
        mover[roots[i]] = current_player(words[roots[i]])
        _open(roots[i], words, first, count, edge_action, edge_child, edge_top, planes[i],
              legal_actions, encode)


@njit(cache=True)
def _descend_and_make(roots, visits, value_sum, mover, first, count, edge_child, edge_prior,
                      edge_action, edge_top, words, c_puct, top, paths, lengths, root_range,
                      tree_range, left, values, planes, leaves, leaf_trees,
                      legal_actions, play, current_player, player0_return, encode):
    """`_descend` with the game's array rules: the new leaf of each tree is made by playing
    its edge on its parent's words; a final position gets its value in `values[t]` (player
    0's side), as does a final position walked to again; any other leaf gets its edges and
    its planes, `planes[k]`, `leaves[k]` and `leaf_trees[k]` for the k-th of them. Returns
    how many leaves wait for the network. A tree with no simulations `left` walks no path
    (length 0)."""
    waiting = 0
    for t in range(roots.shape[0]):
        lengths[t] = 0
        if left[t] <= 0:
            continue
        left[t] -= 1
        path = paths[t]
        depth, edge = _walk(roots[t], visits, value_sum, mover, first, count, edge_child,
                            edge_prior, c_puct, path, root_range[t], tree_range[t])
        if edge < 0:  # a final position reached again
            lengths[t] = depth
            values[t] = player0_return(words[path[depth - 1]])
            continue
        leaf = _new_node(edge, edge_child, visits, value_sum, count, top)
        path[depth] = leaf
        lengths[t] = depth + 1
        play(words[path[depth - 1]], edge_action[edge], words[leaf])
        mover[leaf] = current_player(words[leaf])
        if mover[leaf] == TERMINAL:
            values[t] = player0_return(words[leaf])
            continue
        _open(leaf, words, first, count, edge_action, edge_child, edge_top, planes[waiting],
              legal_actions, encode)
        leaves[waiting] = leaf
        leaf_trees[waiting] = t
        waiting += 1
    return waiting


@njit(cache=True)
def _add_edges(nodes, legal, legal_counts, first, count, edge_action, edge_child, edge_top):
    """Give each node its edges (`legal[...]`, `legal_counts[i]` moves for node i), without
    priors yet."""
    k = 0
    for i in range(nodes.shape[0]):
        n = legal_counts[i]
        start = edge_top[0]
        edge_top[0] += n
        for j in range(n):
            edge_action[start + j] = legal[k + j]
            edge_child[start + j] = -1
        first[nodes[i]] = start
        count[nodes[i]] = n
        k += n


@njit(cache=True)
def _set_priors(nodes, priors, first, count, edge_action, edge_prior):
    """The network's priors over each node's legal moves, normalised to sum 1 (uniform if
    the network gave them nothing)."""
    for i in range(nodes.shape[0]):
        node = nodes[i]
        start, n = first[node], count[node]
        total = 0.0
        for e in range(start, start + n):
            total += float(priors[i, edge_action[e]])
        for e in range(start, start + n):
            edge_prior[e] = float(priors[i, edge_action[e]]) / total if total > 0 else 1.0 / n


@njit(cache=True)
def _back_up(paths, lengths, values, visits, value_sum):
    """Add one visit and the leaf's value (player 0's side) to every node of every path."""
    for t in range(paths.shape[0]):
        for d in range(lengths[t]):
            node = paths[t, d]
            visits[node] += 1
            value_sum[node] += values[t]


@njit(cache=True)
def _compact(keep, visits, value_sum, mover, first, count, words, edge_action, edge_prior,
             edge_child, new_visits, new_value_sum, new_mover, new_first, new_count, new_words,
             new_edge_action, new_edge_prior, new_edge_child, old_of):
    """Copy the subtree under each old node `keep[i]` into the `new_` arrays with node i as
    its root (keep[i] = -1: an empty root, to be opened), renumbering nodes breadth first
    and edges in the same order; old_of[n] gets new node n's old node (-1 for an empty
    root). Returns (nodes, edges) used."""
    trees = keep.shape[0]
    for i in range(trees):
        old_of[i] = keep[i]
    top = trees
    edge_top = 0
    node = 0
    while node < top:
        old = old_of[node]
        if old < 0:
            new_visits[node] = 0
            new_value_sum[node] = 0.0
            new_count[node] = -1
            node += 1
            continue
        new_visits[node] = visits[old]
        new_value_sum[node] = value_sum[old]
        new_mover[node] = mover[old]
        new_words[node] = words[old]
        n = count[old]
        new_count[node] = n
        new_first[node] = edge_top
        for j in range(max(n, 0)):
            e = first[old] + j
            new_edge_action[edge_top + j] = edge_action[e]
            new_edge_prior[edge_top + j] = edge_prior[e]
            child = edge_child[e]
            if child >= 0:
                old_of[top] = child
                new_edge_child[edge_top + j] = top
                top += 1
            else:
                new_edge_child[edge_top + j] = -1
        edge_top += max(n, 0)
        node += 1
    return top, edge_top


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


@dataclass
class Walks:
    """One search's per-step buffers, a row per tree."""

    paths: np.ndarray
    """paths[t, :lengths[t]]: the nodes tree t walked this step."""
    lengths: np.ndarray
    values: np.ndarray
    """The value each tree backs up this step (player 0's side)."""
    root_range: np.ndarray
    tree_range: np.ndarray
    leaf_edges: np.ndarray
    """With States: the edge that got a node this step (-1: a final position again)."""
    planes: np.ndarray
    """With array rules: the new leaves' network input, leaves[k] encoded in planes[k]..."""
    leaves: np.ndarray
    leaf_trees: np.ndarray
    """... and found by tree leaf_trees[k]."""
    most_edges: int
    """With array rules: room for the edges one step may add (each tree's leaf may have every
    action legal)."""

    @classmethod
    def make(cls, trees: int, sims: int, shape: tuple[int, ...] = (), most_edges: int = 0
             ) -> "Walks":
        ranges = np.tile([np.inf, -np.inf], (trees, 1))
        return cls(np.zeros((trees, sims + 2), dtype=np.int64), np.zeros(trees, dtype=np.int64),
                   np.zeros(trees, dtype=np.float64), ranges, ranges.copy(),
                   np.zeros(trees, dtype=np.int64), np.zeros((trees, *shape), dtype=np.float32),
                   np.zeros(trees, dtype=np.int64), np.zeros(trees, dtype=np.int64), most_edges)


class ArrayForest:
    """Many PUCT trees over shared arrays; `search(states, ...)` grows one tree per state.
    With `rules` (the game's `array_rules()`) the leaves are made inside numba, else by the
    `State`s in Python."""

    def __init__(self, c_puct: float, capacity: int = 4096, rules: ArrayRules | None = None
                 ) -> None:
        self.c_puct = c_puct
        self.rules = rules
        # per node
        self.visits = np.zeros(capacity, dtype=np.int64)
        self.value_sum = np.zeros(capacity, dtype=np.float64)
        """From player 0's side."""
        self.mover = np.zeros(capacity, dtype=np.int64)
        """The player to move, or TERMINAL."""
        self.first = np.zeros(capacity, dtype=np.int64)
        self.count = np.zeros(capacity, dtype=np.int64)
        """Edges of the node; -1 until it has them."""
        self.words = np.zeros((capacity, rules.width if rules else 0), dtype=np.int64)
        """With array rules: each node's position as the rules' words."""
        self.states: list[Any] = [None] * capacity
        """Without: the State of each node (None for nodes not made yet)."""
        # per edge
        self.edge_action = np.zeros(8 * capacity, dtype=np.int64)
        self.edge_prior = np.zeros(8 * capacity, dtype=np.float64)
        self.edge_child = np.zeros(8 * capacity, dtype=np.int64)
        """The child's node, -1 until the edge is first walked."""
        self.top = np.zeros(1, dtype=np.int64)
        """The next free node."""
        self.edge_top = np.zeros(1, dtype=np.int64)
        """The next free edge."""
        self.calls = 0
        """Network calls made (one per simulation step with something to evaluate)."""
        self.evaluated = 0
        """Positions the network evaluated."""
        self.kept: int | None = None
        """Roots `keep` made for the next search (nodes 0..kept-1), or None: a fresh search."""
        self.reused = 0
        """Root visits the searches found already made (tree reuse), over all roots."""

    def _nodes(self, size: int) -> None:
        """Room for `size` nodes, keeping those made so far."""
        for name in ("visits", "value_sum", "mover", "first", "count"):
            setattr(self, name, np.resize(getattr(self, name), size))
        words = np.zeros((size, self.words.shape[1]), dtype=np.int64)
        used = min(len(self.words), size)
        words[:used] = self.words[:used]
        self.words = words
        self.states += [None] * (size - len(self.states))

    def keep(self, trees: Collection[int], actions: Collection[int]) -> None:
        """Tree reuse: after the last search's roots `trees` (indices into its states) played
        `actions`, keep the subtree under each played edge, with its visits, value sums,
        priors and rows, as root i of the next search, which must be given the positions
        after those moves in the same order. The subtrees are copied into fresh arrays
        (`_compact`), so memory stays bounded by one search's growth. A played edge with no
        node yet gives an empty root, opened by the next search as a fresh one.

        Only a root ever gets noise, and the played edge's node was not a root, so the kept
        priors are the network's: the old root's noise goes with the old root."""
        trees, actions = list(trees), list(actions)
        keep = np.full(len(trees), -1, dtype=np.int64)
        for i, (root, action) in enumerate(zip(trees, actions)):
            span = range(self.first[root], self.first[root] + max(self.count[root], 0))
            edge = next((e for e in span if self.edge_action[e] == action), None)
            if edge is None:
                raise ValueError(f"action {action} is not a move of root {root}")
            child = int(self.edge_child[edge])
            if child >= 0 and self.count[child] >= 0:  # a made node, not a final position
                keep[i] = child
        size = max(len(self.visits), len(trees))
        visits, mover, first, count, old_of = (np.zeros(size, dtype=np.int64)
                                               for _ in range(5))
        value_sum = np.zeros(size, dtype=np.float64)
        words = np.zeros((size, self.words.shape[1]), dtype=np.int64)
        edge_action, edge_child = np.zeros_like(self.edge_action), np.zeros_like(self.edge_child)
        edge_prior = np.zeros_like(self.edge_prior)
        top, edge_top = _compact(keep, self.visits, self.value_sum, self.mover, self.first,
                                 self.count, self.words, self.edge_action, self.edge_prior,
                                 self.edge_child, visits, value_sum, mover, first, count, words,
                                 edge_action, edge_prior, edge_child, old_of)
        self.visits, self.value_sum, self.mover, self.first, self.count = (
            visits, value_sum, mover, first, count)
        self.words = words
        self.edge_action, self.edge_prior, self.edge_child = edge_action, edge_prior, edge_child
        if self.rules is None:
            self.states = [self.states[o] if o >= 0 else None for o in old_of[:top]] \
                + [None] * (size - top)
        self.top[0], self.edge_top[0] = top, edge_top
        self.kept = len(trees)

    def _room_for_edges(self, more: int) -> None:
        """Room for `more` edges, keeping those made so far in this search."""
        needed = int(self.edge_top[0]) + more
        if needed > len(self.edge_action):
            size = max(needed, 2 * len(self.edge_action))
            for name in ("edge_action", "edge_prior", "edge_child"):
                setattr(self, name, np.resize(getattr(self, name), size))

    def search(self, states: Collection[State], sims: int, evaluate: EvaluatePlanes,
               noise: Callable[[np.ndarray], np.ndarray] | None = None) -> list[RootResult]:
        """`sims` simulations from each of `states` (decision nodes, not over), one leaf per
        tree per step and all new leaves evaluated in one call. `noise(priors)` returns the
        root priors to search with (Dirichlet noise in self-play).

        After `keep`, `states` are the kept roots' positions, and each tree searches only
        until its root has `sims` visits in all, its kept visits included (none if it has
        them already). A kept root's visits count its own evaluation, as any node's do, so
        its moves' visits sum to one less than the root's. The results' root_range and
        tree_range are the scores met during this search's new simulations only."""
        states = list(states)
        trees = len(states)
        kept, self.kept = self.kept, None
        if kept is None:
            self.top[0] = trees
            self.edge_top[0] = 0
            self.count[:trees] = -1
        elif kept != trees:
            raise ValueError(f"the search was given {trees} positions for the {kept} roots "
                             f"kept after the last moves")
        capacity = int(self.top[0]) + trees * sims
        if capacity > len(self.visits):
            self._nodes(capacity)
        roots = np.arange(trees, dtype=np.int64)
        opened = roots[self.count[:trees] < 0]  # fresh roots: no kept subtree
        self.visits[opened] = 0
        self.value_sum[opened] = 0.0
        self.reused += int(self.visits[:trees].sum())
        if self.rules is None:
            walks = Walks.make(trees, sims)
            for root in opened:
                self.states[root] = states[root]
            self.mover[opened] = [states[root].current_player() for root in opened]
            if len(opened):
                self._expand_states(opened, [states[root] for root in opened], evaluate)
        else:
            walks = Walks.make(trees, sims, states[0].encode(states[0].current_player()).shape,
                               trees * states[0].game.num_actions)
            if len(opened):
                self._open_roots(opened, [states[root] for root in opened], walks, evaluate)
        if noise is not None:
            for root in range(trees):
                span = slice(self.first[root], self.first[root] + self.count[root])
                self.edge_prior[span] = noise(self.edge_prior[span])
        left = np.maximum(sims - self.visits[:trees], 0)
        for _ in range(int(left.max(initial=0))):
            if self.rules is None:
                self._step_with_states(roots, walks, left, evaluate)
            else:
                self._step_with_rules(roots, walks, left, evaluate)
            _back_up(walks.paths, walks.lengths, walks.values, self.visits, self.value_sum)
        return [self._result(root, walks.tree_range[root], walks.root_range[root])
                for root in range(trees)]

    # --- leaves made by States, in Python ------------------------------------------------------
    def _step_with_states(self, roots: np.ndarray, walks: Walks, left: np.ndarray,
                          evaluate: EvaluatePlanes) -> None:
        """One simulation in every tree with simulations `left`: the walks in numba, the new
        leaves by `child()`."""
        _descend(roots, self.visits, self.value_sum, self.mover, self.first, self.count,
                 self.edge_child, self.edge_prior, self.c_puct, self.top, walks.paths,
                 walks.lengths, walks.leaf_edges, walks.root_range, walks.tree_range, left)
        paths, lengths, values = walks.paths, walks.lengths, walks.values
        waiting_nodes, waiting_states, waiting_trees = [], [], []
        for t in range(len(roots)):
            if lengths[t] == 0:  # this tree is done
                continue
            leaf = int(paths[t, lengths[t] - 1])
            edge = int(walks.leaf_edges[t])
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
            values[waiting_trees] = self._expand_states(
                np.array(waiting_nodes, dtype=np.int64), waiting_states, evaluate)

    def _expand_states(self, nodes: np.ndarray, states: list[State], evaluate: EvaluatePlanes
                       ) -> np.ndarray:
        """Give `nodes` (their `states`) edges and priors from one network call; returns their
        values from player 0's side."""
        legal = [state.legal_actions() for state in states]
        counts = np.array([len(moves) for moves in legal], dtype=np.int64)
        self._room_for_edges(int(counts.sum()))
        flat = np.fromiter((a for moves in legal for a in moves), dtype=np.int64,
                           count=int(counts.sum()))
        _add_edges(nodes, flat, counts, self.first, self.count, self.edge_action,
                   self.edge_child, self.edge_top)
        movers = [state.current_player() for state in states]
        return self._evaluate(nodes, states[0].game.encode_batch(states, movers), evaluate)

    # --- leaves made by the game's array rules, in numba ---------------------------------------
    def _open_roots(self, roots: np.ndarray, states: list[State], walks: Walks,
                    evaluate: EvaluatePlanes) -> None:
        """The roots' words from their States, then their edges and priors."""
        assert self.rules is not None
        legal_actions, _, current_player, _, encode = self.rules.functions
        self.words[roots] = [self.rules.pack(state) for state in states]
        self._room_for_edges(walks.most_edges)
        _open_roots(roots, self.words, self.mover, self.first, self.count, self.edge_action,
                    self.edge_child, self.edge_top, walks.planes, legal_actions,
                    current_player, encode)
        self._evaluate(roots, walks.planes[:len(roots)], evaluate)

    def _step_with_rules(self, roots: np.ndarray, walks: Walks, left: np.ndarray,
                         evaluate: EvaluatePlanes) -> None:
        """One simulation in every tree with simulations `left`, the walks and the new leaves
        in one numba call."""
        assert self.rules is not None
        self._room_for_edges(walks.most_edges)
        waiting = _descend_and_make(
            roots, self.visits, self.value_sum, self.mover, self.first, self.count,
            self.edge_child, self.edge_prior, self.edge_action, self.edge_top, self.words,
            self.c_puct, self.top, walks.paths, walks.lengths, walks.root_range,
            walks.tree_range, left, walks.values, walks.planes, walks.leaves, walks.leaf_trees,
            *self.rules.functions)
        if waiting:
            walks.values[walks.leaf_trees[:waiting]] = self._evaluate(
                walks.leaves[:waiting], walks.planes[:waiting], evaluate)

    # --- both ----------------------------------------------------------------------------------
    def _evaluate(self, nodes: np.ndarray, planes: np.ndarray, evaluate: EvaluatePlanes
                  ) -> np.ndarray:
        """Evaluate `nodes` (their edges made, encoded in `planes`) in one network call: their
        priors, and their values from player 0's side."""
        priors, values = evaluate(planes, self.mover[nodes])
        self.calls += 1
        self.evaluated += len(nodes)
        _set_priors(nodes, priors, self.first, self.count, self.edge_action, self.edge_prior)
        values = np.asarray(values, dtype=np.float64)
        return np.where(self.mover[nodes] == 0, values, -values)

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


def on_planes(evaluator: NetworkEvaluator) -> EvaluatePlanes:
    """`evaluator`'s network on planes the forest has encoded already (with their movers),
    counted in its `calls` and `positions` (the reference search gives it States instead)."""
    return evaluator.on_planes


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


def traced_for_inference(network: Any, shape: Collection[int], bfloat16: bool = False) -> Any:
    """The network traced by TorchScript, for inference only: batch norms folded into the
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


fresh_cache(__name__)  # numba's disk cache notices edits to every file read here
