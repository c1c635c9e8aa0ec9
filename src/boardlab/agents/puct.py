"""PUCT over arrays, for one tree or many at once: the AlphaZero agent's search and self-play's.

The search (Silver et al. 2018) walks down each tree choosing at each decision node the move
with the best

    Q(child) + c_puct * P(child) * sqrt(N(node)) / (1 + N(child))

(Q from the mover's side, 0 for an unvisited child; ties: the first in legal-move order),
evaluates the first node not yet evaluated with the network (or its exact returns if the game
is over), and backs the value up the path. tests/learn/puct_reference.py is the same search
written plainly, one object per node: tests/learn/test_puct.py checks that both give the
same visit counts on seeded positions.

Layout: a node is an index into the node arrays (visits, value sum from player 0's side, the
player to move, its first edge and edge count); its edges (one per legal move or chance
outcome: action, prior, child node or -1) sit side by side in the edge arrays. A node's count
stays -1 until it has its priors: a walk stops at such a node (a final position, or a leaf
waiting for this step's network call). Nodes and edges are allocated from the top of the
arrays and all freed at once when the games move, or, with tree reuse (`keep`, as Leela Zero
and KataGo do in self-play, and the agent's `reuse`), all but the subtrees kept, which
`_compact` copies into fresh arrays as the next roots' trees.

One simulation step, for every tree at once (one network call for all their leaves):
- each tree walks `leaves` times by the PUCT score (`_walk`); after each walk but the last a
  virtual loss on its path (`_virtual_loss`: visits that lost for every mover on it) sends
  the next walk elsewhere; the losses are taken back before the real values are backed up;
- a walk that ends on an edge with no node makes the node: by the game's `State` in Python
  (`_step_with_states`), or, where the game declares array rules (`Game.array_rules()`,
  core/arrayrules.py), inside the compiled call itself (`_descend_and_make`), each node's
  position kept as a row of int64 words;
- chance nodes (State path only: array rules have none) get their outcomes as edges, with the
  probabilities as priors, the moment they are made, and need no network: a walk through one
  draws an outcome (`draw_outcome`'s rule, from uniforms drawn in order from the search's
  `random.Random`, so a seed replays) and goes on below it in the same simulation;
- the network evaluates the new leaves in one call; `_set_priors` gives them their priors and
  `_back_up` every path its leaf's value (two walks that end on one leaf share its value).
A search stops when each tree has its `sims` visits, or when the clock expires (after at least
one step).

The array rules' functions reach `_descend_and_make` as function pointers (core/arrayrules.py
`CompiledFunction`), so the kernel is compiled once for every game and numba's cache keeps
it; passing them costs ~20 us a step.
"""

from __future__ import annotations

import math
import random
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
from numba import njit

from ..core.agent import Clock
from ..core.arrayrules import ArrayRules
from ..core.game import CHANCE, TERMINAL, State
from ..core.kernelcache import fresh_cache
from ..core.match import draw_outcome

EvaluatePlanes = Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]
"""(Network input planes (n, *shape) float32 of positions with a player to move, those players)
-> (priors over all actions, values for the mover)."""

PENDING = -3
"""`mover` of a node made in this step whose position the State path has not made yet."""
UNIFORMS_PER_WALK = 64
"""Chance draws kept ready per walk of a step (a walk meeting more reuses them in turn)."""


# --- compiled kernels ----------------------------------------------------------------------------
@njit(cache=True)
def _walk(root, visits, value_sum, mover, first, count, edge_child, edge_prior, c_puct,
          path, root_range, tree_range, uniforms, cursor):
    """Walk one tree from `root` to a node without priors (a final position, or a leaf waiting
    for the network) or to an edge with no node yet: by the PUCT score at decision nodes (the
    reference's arithmetic and tie rule), by the next uniform at chance nodes.
    `path[:length]` gets the nodes walked; returns (length, that edge or -1). root_range /
    tree_range = (least, greatest) score met at the root / anywhere in the tree (seed 003's
    scheme 1)."""
    node = root
    path[0] = node
    depth = 1
    while count[node] >= 0:
        if mover[node] == CHANCE:  # draw_outcome: the first outcome whose cumulative
            draw = uniforms[cursor[0] % uniforms.shape[0]]  # probability exceeds the draw
            cursor[0] += 1
            best = first[node] + count[node] - 1
            total = 0.0
            for e in range(first[node], first[node] + count[node]):
                total += edge_prior[e]
                if draw < total:
                    best = e
                    break
        else:
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
def _new_node(edge, edge_child, visits, value_sum, mover, count, top):
    """A fresh node below `edge`, its position not made yet."""
    child = top[0]
    top[0] += 1
    edge_child[edge] = child
    visits[child] = 0
    value_sum[child] = 0.0
    mover[child] = PENDING
    count[child] = -1
    return child


@njit(cache=True)
def _virtual_loss(path, length, mover, visits, value_sum, sign):
    """Count `path` as visited and lost by each player who chose a move on it (`sign` 1), or
    take that back (-1); a chance node's outcome is nobody's choice."""
    visits[path[0]] += sign
    for d in range(1, length):
        node = path[d]
        visits[node] += sign
        chooser = mover[path[d - 1]]
        if chooser >= 0:
            value_sum[node] -= sign * (1.0 if chooser == 0 else -1.0)


@njit(cache=True)
def _take_back(paths, lengths, steps, leaves, mover, visits, value_sum):
    """Take back the virtual losses of every tree that walked more than once this step."""
    for t in range(steps.shape[0]):
        if steps[t] > 1:
            for j in range(steps[t]):
                p = t * leaves + j
                _virtual_loss(paths[p], lengths[p], mover, visits, value_sum, -1)


@njit(cache=True)
def _descend(roots, steps, leaves, round_, visits, value_sum, mover, first, count, edge_child,
             edge_prior, c_puct, top, paths, lengths, leaf_edges, root_range, tree_range,
             uniforms, cursor):
    """Walk `round_` of this step in every tree with more `steps`: path p = t * leaves +
    round_. An edge with no node gets a fresh node at the end of the path (its position is
    made in Python); leaf_edges[p] is that edge, -1 if the walk ended on a node."""
    for t in range(roots.shape[0]):
        if round_ >= steps[t]:
            continue
        p = t * leaves + round_
        depth, edge = _walk(roots[t], visits, value_sum, mover, first, count, edge_child,
                            edge_prior, c_puct, paths[p], root_range[t], tree_range[t],
                            uniforms, cursor)
        if edge >= 0:
            paths[p, depth] = _new_node(edge, edge_child, visits, value_sum, mover, count, top)
            depth += 1
        leaf_edges[p] = edge
        lengths[p] = depth


@njit(cache=True)
def _open(node, words, first, edge_action, edge_child, edge_top, planes, legal_actions,
          encode):
    """Give a node with a player to move its edges (its legal moves, no priors yet: its count
    is set with them) and encode it into `planes`, by the game's array rules; returns the
    edge count."""
    start = edge_top[0]
    n = legal_actions(words[node], edge_action[start:])
    edge_top[0] += n
    for e in range(start, start + n):
        edge_child[e] = -1
    first[node] = start
    encode(words[node], planes)
    return n


@njit(cache=True)
def _open_roots(roots, words, mover, first, edge_action, edge_child, edge_top, planes,
                counts, legal_actions, current_player, encode):
    """`_open` every root (each has a player to move); planes[i] gets root i."""
    for i in range(roots.shape[0]):
        mover[roots[i]] = current_player(words[roots[i]])
        counts[i] = _open(roots[i], words, first, edge_action, edge_child, edge_top,
                          planes[i], legal_actions, encode)


@njit(cache=True)
def _descend_and_make(roots, steps, leaves, visits, value_sum, mover, first, count,
                      edge_child, edge_prior, edge_action, edge_top, words, c_puct, top,
                      paths, lengths, root_range, tree_range, leaf_value, planes, waiting,
                      counts, uniforms, cursor, legal_actions, play, current_player,
                      player0_return, encode):
    """A whole step's walks with the game's array rules: tree t walks steps[t] times (path
    p = t * leaves + j), a virtual loss on each path when it walks more than once. A new
    leaf is made by playing its edge on its parent's words; a final position (new or walked
    to again) gets its value in leaf_value (player 0's side); any other new leaf gets its
    edges and its planes: planes[k], waiting[k] and counts[k] for the k-th of them. Returns
    how many leaves wait for the network."""
    n_waiting = 0
    for t in range(roots.shape[0]):
        for j in range(steps[t]):
            p = t * leaves + j
            path = paths[p]
            depth, edge = _walk(roots[t], visits, value_sum, mover, first, count, edge_child,
                                edge_prior, c_puct, path, root_range[t], tree_range[t],
                                uniforms, cursor)
            if edge >= 0:
                leaf = _new_node(edge, edge_child, visits, value_sum, mover, count, top)
                path[depth] = leaf
                depth += 1
                play(words[path[depth - 2]], edge_action[edge], words[leaf])
                mover[leaf] = current_player(words[leaf])
                if mover[leaf] != TERMINAL:
                    counts[n_waiting] = _open(leaf, words, first, edge_action, edge_child,
                                              edge_top, planes[n_waiting], legal_actions,
                                              encode)
                    waiting[n_waiting] = leaf
                    n_waiting += 1
            leaf = path[depth - 1]
            if mover[leaf] == TERMINAL:
                leaf_value[leaf] = player0_return(words[leaf])
            lengths[p] = depth
            if steps[t] > 1:
                _virtual_loss(path, depth, mover, visits, value_sum, 1)
    return n_waiting


@njit(cache=True)
def _add_edges(nodes, legal, legal_counts, first, edge_action, edge_child, edge_top):
    """Give each node its edges (`legal[...]`, `legal_counts[i]` moves for node i), without
    priors yet (so without their count)."""
    k = 0
    for i in range(nodes.shape[0]):
        n = legal_counts[i]
        start = edge_top[0]
        edge_top[0] += n
        for j in range(n):
            edge_action[start + j] = legal[k + j]
            edge_child[start + j] = -1
        first[nodes[i]] = start
        k += n


@njit(cache=True)
def _set_priors(nodes, counts, priors, first, count, edge_action, edge_prior):
    """The network's priors over each node's legal moves, normalised to sum 1 (uniform if
    the network gave them nothing); the node is then complete: its count is set."""
    for i in range(nodes.shape[0]):
        node = nodes[i]
        start, n = first[node], counts[i]
        total = 0.0
        for e in range(start, start + n):
            total += float(priors[i, edge_action[e]])
        for e in range(start, start + n):
            edge_prior[e] = float(priors[i, edge_action[e]]) / total if total > 0 else 1.0 / n
        count[node] = n


@njit(cache=True)
def _back_up(paths, lengths, leaf_value, visits, value_sum):
    """Add one visit and the path's leaf's value (player 0's side) to every node of every
    path (a path of length 0 was not walked)."""
    for p in range(paths.shape[0]):
        if lengths[p] == 0:
            continue
        value = leaf_value[paths[p, lengths[p] - 1]]
        for d in range(lengths[p]):
            node = paths[p, d]
            visits[node] += 1
            value_sum[node] += value


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


# --- what a search says about a root ------------------------------------------------------------
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
    """The PUCT score of each root move now (as `_walk` computes it)."""
    root_range: tuple[float, float]
    tree_range: tuple[float, float]
    simulations: int = 0
    """Simulations this search ran in this tree (not counting visits kept by reuse)."""

    def normalised(self, index: int, whole_tree: bool) -> float:
        """Seed 003's u of the move at `index` in [0, 1], by the range met at the root only or
        over the whole tree (the seed's reading); 0.5 when the range is empty."""
        low, high = self.tree_range if whole_tree else self.root_range
        u = float(self.scores[index])
        low, high = min(low, u), max(high, u)
        return 0.5 if high - low < 1e-12 else (u - low) / (high - low)


def root_result(actions: np.ndarray, priors: np.ndarray, visits: np.ndarray, sums: np.ndarray,
                mover: int, root_visits: int, root_sum: float, c_puct: float,
                root_range: tuple[float, float], tree_range: tuple[float, float],
                simulations: int = 0) -> RootResult:
    """A RootResult from a root's statistics (children's visits and value sums from player
    0's side): the PUCT score of each move computed as `_walk` does."""
    sign = 1.0 if mover == 0 else -1.0
    explore = c_puct * math.sqrt(max(root_visits, 1))
    scores = np.where(visits > 0, sign * sums / np.maximum(visits, 1)
                      + explore * priors / (1 + visits), explore * priors)
    return RootResult(actions, visits, priors, sign * root_sum / max(root_visits, 1), scores,
                      root_range, tree_range, simulations)


def pick_move(result: RootResult, temperature: float, rng: Any) -> int:
    """Index of the move to play: the most visited (ties: the higher prior, then the first),
    or one drawn in proportion to visits^(1/T) (self-play's opening moves)."""
    visits = result.visits
    if temperature > 0 and visits.sum() > 0:
        weights = (visits.astype(np.float64) ** (1.0 / temperature)).tolist()
        return rng.choices(range(len(visits)), weights)[0]
    return max(range(len(visits)), key=lambda i: (visits[i], result.priors[i]))


@dataclass
class Walks:
    """One search's per-step buffers: a row per walk (path p = tree * leaves + walk)."""

    paths: np.ndarray
    """paths[p, :lengths[p]]: the nodes walk p went through this step (length 0: none)."""
    lengths: np.ndarray
    leaf_edges: np.ndarray
    """With States: the edge that got a node this walk (-1: the walk ended on a node)."""
    root_range: np.ndarray
    tree_range: np.ndarray
    """Per tree: the least and greatest PUCT score met at the root / anywhere (seed 003)."""
    planes: np.ndarray
    """With array rules: the new leaves' network input, waiting[k] encoded in planes[k]..."""
    waiting: np.ndarray
    counts: np.ndarray
    """... with counts[k] edges."""

    @classmethod
    def make(cls, trees: int, leaves: int, depth: int, shape: tuple[int, ...] = ()
             ) -> "Walks":
        walks = trees * leaves
        ranges = np.tile([np.inf, -np.inf], (trees, 1))
        return cls(np.zeros((walks, depth), dtype=np.int64), np.zeros(walks, dtype=np.int64),
                   np.zeros(walks, dtype=np.int64), ranges, ranges.copy(),
                   np.zeros((walks, *shape), dtype=np.float32),
                   np.zeros(walks, dtype=np.int64), np.zeros(walks, dtype=np.int64))

    def deepen(self, depth: int) -> None:
        """Room for paths of `depth` nodes."""
        if depth > self.paths.shape[1]:
            paths = np.zeros((len(self.paths), max(depth, 2 * self.paths.shape[1])),
                             dtype=np.int64)
            paths[:, :self.paths.shape[1]] = self.paths
            self.paths = paths


# --- the forest ----------------------------------------------------------------------------------
class ArrayForest:
    """PUCT trees over shared arrays; `search(states, ...)` grows one tree per state. With
    `rules` (the game's `array_rules()`) the leaves are made inside numba, else by the
    `State`s in Python (the only way for games with chance nodes). `rng` draws the chance
    outcomes of walks through chance nodes."""

    def __init__(self, c_puct: float, capacity: int = 4096, rules: ArrayRules | None = None,
                 rng: random.Random | None = None) -> None:
        self.c_puct = c_puct
        self.rules = rules
        self.rng = rng or random.Random(0)
        # per node
        self.visits = np.zeros(capacity, dtype=np.int64)
        self.value_sum = np.zeros(capacity, dtype=np.float64)
        """From player 0's side."""
        self.mover = np.zeros(capacity, dtype=np.int64)
        """The player to move, CHANCE, TERMINAL, or PENDING while the State path makes it."""
        self.first = np.zeros(capacity, dtype=np.int64)
        self.count = np.zeros(capacity, dtype=np.int64)
        """Edges of the node; -1 until it has them with their priors."""
        self.leaf_value = np.zeros(capacity, dtype=np.float64)
        """A step's scratch: the value (player 0's side) of each node a walk ended on."""
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
        self.uniforms = np.zeros(1, dtype=np.float64)
        self.cursor = np.zeros(1, dtype=np.int64)
        """Chance draws from `rng`, in order, and the next one to use."""
        self.deepest = 1
        """The longest path walked in the trees now held (so the next walks fit)."""
        self.calls = 0
        """Network calls made (one per simulation step with something to evaluate)."""
        self.evaluated = 0
        """Positions the network evaluated."""
        self.num_actions = 0
        """The game's action space: the most edges one leaf may get."""
        self.kept: int | None = None
        """Roots `keep` made for the next search (nodes 0..kept-1), or None: a fresh search."""
        self.reused = 0
        """Root visits the searches found already made (tree reuse), over all roots."""

    # --- room --------------------------------------------------------------------------------
    def _room_for_nodes(self, more: int, exact: bool = False) -> None:
        """Room for `more` nodes above the top, keeping those made so far: just that room
        (`exact`, a search's start, which knows its growth) or twice the arrays."""
        needed = int(self.top[0]) + more
        if needed <= len(self.visits):
            return
        size = needed if exact else max(needed, 2 * len(self.visits))
        for name in ("visits", "value_sum", "mover", "first", "count", "leaf_value"):
            setattr(self, name, np.resize(getattr(self, name), size))
        words = np.zeros((size, self.words.shape[1]), dtype=np.int64)
        words[:len(self.words)] = self.words
        self.words = words
        self.states += [None] * (size - len(self.states))

    def _room_for_edges(self, more: int) -> None:
        """Room for `more` edges, keeping those made so far."""
        needed = int(self.edge_top[0]) + more
        if needed > len(self.edge_action):
            size = max(needed, 2 * len(self.edge_action))
            for name in ("edge_action", "edge_prior", "edge_child"):
                setattr(self, name, np.resize(getattr(self, name), size))

    # --- tree reuse ----------------------------------------------------------------------------
    def keep(self, trees: Collection[int], actions: Collection[int]) -> None:
        """Tree reuse: after the last search's roots `trees` (indices into its states) played
        `actions`, keep the subtree under each played edge, with its visits, value sums,
        priors and rows, as root i of the next search, which must be given the positions
        after those moves in the same order. A played edge with no node yet gives an empty
        root, opened by the next search as a fresh one."""
        self.keep_nodes([self.child(root, action) for root, action in zip(trees, actions)])

    def child(self, node: int, action: int) -> int:
        """The node below `node`'s edge `action`: -1 if none was made (or `node` has no
        edges), ValueError if `action` is not one of its edges."""
        span = range(self.first[node], self.first[node] + max(self.count[node], 0))
        edge = next((e for e in span if self.edge_action[e] == action), None)
        if edge is None:
            if self.count[node] < 0:
                return -1
            raise ValueError(f"action {action} is not a move of node {node}")
        return int(self.edge_child[edge])

    def keep_nodes(self, nodes: Collection[int]) -> None:
        """Keep the subtree under each of `nodes` as root i of the next search (the agent
        keeps a position two plies below its last root: `agents/alphazero.py`). A node that
        is -1, a final position or has no priors gives an empty root. The subtrees are
        copied into fresh arrays (`_compact`), so memory stays bounded by one search's growth.

        Only a root ever gets noise, and a kept node was not a root, so the kept priors are
        the network's: the old root's noise goes with the old root."""
        keep = np.array([n if n >= 0 and self.count[n] >= 0 and self.mover[n] >= 0 else -1
                         for n in nodes], dtype=np.int64)
        trees = len(keep)
        size = max(len(self.visits), trees)
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
        self.leaf_value = np.zeros(size, dtype=np.float64)
        self.words = words
        self.edge_action, self.edge_prior, self.edge_child = edge_action, edge_prior, edge_child
        if self.rules is None:
            self.states = [self.states[o] if o >= 0 else None for o in old_of[:top]] \
                + [None] * (size - top)
        self.top[0], self.edge_top[0] = top, edge_top
        self.kept = trees

    # --- the search ------------------------------------------------------------------------
    def search(self, states: Collection[State], sims: int, evaluate: EvaluatePlanes,
               noise: Callable[[np.ndarray], np.ndarray] | None = None,
               clock: Clock | None = None, leaves: int = 1) -> list[RootResult]:
        """`sims` simulations from each of `states` (decision nodes, not over), `leaves` walks
        per tree per step, all new leaves evaluated in one call; fewer if `clock` expires
        first (each tree gets at least one step); sims=0: no limit, the clock stops it.
        `noise(priors)` returns the root priors to search with (Dirichlet noise).

        After `keep`, `states` are the kept roots' positions, and each tree searches only
        until its root has `sims` visits in all, its kept visits included (none if it has
        them already). A kept root's visits count its own evaluation, as any node's do, so
        its moves' visits sum to one less than the root's. The results' root_range and
        tree_range are the scores met during this search's new simulations only."""
        if sims == 0 and (clock is None or clock.budget is None):
            raise ValueError("search: sims=0 (no limit) needs a clock with a budget")
        states = list(states)
        trees = len(states)
        self.num_actions = states[0].game.num_actions
        kept, self.kept = self.kept, None
        if kept is None:
            self.top[0] = trees
            self.edge_top[0] = 0
            self.count[:trees] = -1
            self.deepest = 1
        elif kept != trees:
            raise ValueError(f"the search was given {trees} positions for the {kept} roots "
                             f"kept after the last moves")
        self._room_for_nodes(trees * (sims or 64), exact=True)  # each walk makes <= 1 node
        roots = np.arange(trees, dtype=np.int64)
        opened = roots[self.count[:trees] < 0]  # fresh roots: no kept subtree
        self.visits[opened] = 0
        self.value_sum[opened] = 0.0
        self.reused += int(self.visits[:trees].sum())
        chance = self.rules is None and states[0].game.facts.has_chance
        if chance:  # uniforms drawn afresh: a search replays from the rng's state
            self.uniforms = np.array([self.rng.random() for _ in
                                      range(UNIFORMS_PER_WALK * trees * leaves)])
            self.cursor[0] = 0
        depth = self.deepest + 2 + (min(sims, 64) if sims else 64)  # grown as walks deepen
        if self.rules is None:
            walks = Walks.make(trees, leaves, depth)
            for root in opened:
                self.states[root] = states[root]
            self.mover[opened] = [states[root].current_player() for root in opened]
            if len(opened):
                self._expand_states(opened, [states[root] for root in opened], evaluate)
        else:
            shape = states[0].encode(states[0].current_player()).shape
            walks = Walks.make(trees, leaves, depth, shape)
            if len(opened):
                self._open_roots(opened, [states[root] for root in opened], walks, evaluate)
        if noise is not None:
            for root in range(trees):
                span = slice(self.first[root], self.first[root] + self.count[root])
                self.edge_prior[span] = noise(self.edge_prior[span])
        unlimited = np.iinfo(np.int64).max // 2
        left = (np.maximum(sims - self.visits[:trees], 0) if sims else
                np.full(trees, unlimited, dtype=np.int64))
        done = np.zeros(trees, dtype=np.int64)
        while left.max(initial=0) > 0:
            if done.max() > 0 and clock is not None and clock.expired():
                break
            steps = np.minimum(left, leaves)
            left -= steps
            done += steps
            self._room_for_nodes(int(steps.sum()))
            walks.deepen(self.deepest + 2)
            walks.lengths[:] = 0
            if self.rules is None:
                self._step_with_states(roots, steps, leaves, walks, evaluate, chance)
            else:
                self._step_with_rules(roots, steps, leaves, walks, evaluate)
            _take_back(walks.paths, walks.lengths, steps, leaves, self.mover, self.visits,
                       self.value_sum)
            _back_up(walks.paths, walks.lengths, self.leaf_value, self.visits, self.value_sum)
            self.deepest = max(self.deepest, int(walks.lengths.max()))
        return [self._result(root, walks.tree_range[root], walks.root_range[root],
                             int(done[root])) for root in range(trees)]

    # --- leaves made by States, in Python ------------------------------------------------------
    def _step_with_states(self, roots: np.ndarray, steps: np.ndarray, leaves: int,
                          walks: Walks, evaluate: EvaluatePlanes, chance: bool) -> None:
        """One step: round j walks once in every tree with more than j steps (numba), then
        makes the new nodes' positions by `child()`, going on below chance nodes; a tree
        that walks again first puts a virtual loss on this walk's path."""
        lengths = walks.lengths
        waiting_nodes: list[int] = []
        waiting_states: list[State] = []
        for round_ in range(int(steps.max())):
            if chance:  # the draws used so far replaced by the next ones, in order
                self._refill()
            self._room_for_nodes(len(roots))  # walks through chance nodes made some more
            paths = walks.paths  # a walk through chance nodes may have deepened them
            _descend(roots, steps, leaves, round_, self.visits, self.value_sum, self.mover,
                     self.first, self.count, self.edge_child, self.edge_prior, self.c_puct,
                     self.top, paths, lengths, walks.leaf_edges, walks.root_range,
                     walks.tree_range, self.uniforms, self.cursor)
            for t in np.flatnonzero(steps > round_):
                p = int(t) * leaves + round_
                leaf = int(paths[p, lengths[p] - 1])
                edge = int(walks.leaf_edges[p])
                if edge >= 0:  # a new node: play the edge on its parent's state
                    parent = self.states[int(paths[p, lengths[p] - 2])]
                    state = parent.child(int(self.edge_action[edge]))
                    while True:
                        self.states[leaf] = state
                        self.mover[leaf] = player = state.current_player()
                        if player != CHANCE:
                            break
                        leaf, state = self._through_chance(leaf, state, walks, p)
                    if player == TERMINAL:
                        self.leaf_value[leaf] = state.returns()[0]
                    else:
                        waiting_nodes.append(leaf)
                        waiting_states.append(state)
                elif self.mover[leaf] == TERMINAL:  # a final position reached again
                    self.leaf_value[leaf] = self.states[leaf].returns()[0]
                # else: a leaf waiting for this step's network call: it shares its value
                if steps[t] > 1:
                    _virtual_loss(walks.paths[p], lengths[p], self.mover, self.visits,
                                  self.value_sum, 1)
        if waiting_nodes:
            nodes = np.array(waiting_nodes, dtype=np.int64)
            self.leaf_value[nodes] = self._expand_states(nodes, waiting_states, evaluate)

    def _through_chance(self, node: int, state: State, walks: Walks, p: int
                        ) -> tuple[int, State]:
        """A chance node just made: its outcomes become its edges (priors = probabilities),
        and walk p goes on through the outcome drawn, to a new node appended to its path."""
        outcomes = state.chance_outcomes()
        self._room_for_edges(len(outcomes))
        start = int(self.edge_top[0])
        self.edge_top[0] += len(outcomes)
        span = slice(start, start + len(outcomes))
        self.edge_action[span] = [action for action, _ in outcomes]
        self.edge_prior[span] = [probability for _, probability in outcomes]
        self.edge_child[span] = -1
        self.first[node], self.count[node] = start, len(outcomes)
        action = draw_outcome(outcomes, self._uniform())
        edge = start + [a for a, _ in outcomes].index(action)
        self._room_for_nodes(1)
        child = int(self.top[0])
        self.top[0] += 1
        self.edge_child[edge] = child
        self.visits[child], self.value_sum[child], self.count[child] = 0, 0.0, -1
        walks.deepen(int(walks.lengths[p]) + 1)
        walks.paths[p, walks.lengths[p]] = child
        walks.lengths[p] += 1
        return child, state.child(action)

    def _uniform(self) -> float:
        """The next chance draw (the walks' numba code reads the same buffer)."""
        draw = float(self.uniforms[self.cursor[0] % len(self.uniforms)])
        self.cursor[0] += 1
        return draw

    def _refill(self) -> None:
        """Replace the draws used since the last refill by the rng's next ones, so that the
        walks read the rng's draws in the order they were made (the reference draws them
        one at a time: tests/learn/test_puct.py compares the two on chance games)."""
        used = min(int(self.cursor[0]), len(self.uniforms))
        if used:
            self.uniforms = np.concatenate([self.uniforms[used:],
                                            [self.rng.random() for _ in range(used)]])
            self.cursor[0] = 0

    def _expand_states(self, nodes: np.ndarray, states: list[State], evaluate: EvaluatePlanes
                       ) -> np.ndarray:
        """Give `nodes` (their `states`) edges and priors from one network call; returns their
        values from player 0's side."""
        legal = [state.legal_actions() for state in states]
        counts = np.array([len(moves) for moves in legal], dtype=np.int64)
        self._room_for_edges(int(counts.sum()))
        flat = np.fromiter((a for moves in legal for a in moves), dtype=np.int64,
                           count=int(counts.sum()))
        _add_edges(nodes, flat, counts, self.first, self.edge_action, self.edge_child,
                   self.edge_top)
        movers = [state.current_player() for state in states]
        return self._evaluate(nodes, counts, states[0].game.encode_batch(states, movers),
                              evaluate)

    # --- leaves made by the game's array rules, in numba ---------------------------------------
    def _open_roots(self, roots: np.ndarray, states: list[State], walks: Walks,
                    evaluate: EvaluatePlanes) -> None:
        """The roots' words from their States, then their edges and priors."""
        assert self.rules is not None
        legal_actions, _, current_player, _, encode = self.rules.functions
        self.words[roots] = [self.rules.pack(state) for state in states]
        self._room_for_edges(len(roots) * states[0].game.num_actions)
        planes = np.zeros((len(roots), *walks.planes.shape[1:]), dtype=np.float32)
        counts = np.zeros(len(roots), dtype=np.int64)
        _open_roots(roots, self.words, self.mover, self.first, self.edge_action,
                    self.edge_child, self.edge_top, planes, counts, legal_actions,
                    current_player, encode)
        self._evaluate(roots, counts, planes, evaluate)

    def _step_with_rules(self, roots: np.ndarray, steps: np.ndarray, leaves: int,
                         walks: Walks, evaluate: EvaluatePlanes) -> None:
        """One step, its walks and new leaves in one numba call, then the network's."""
        assert self.rules is not None
        self._room_for_edges(int(steps.sum()) * self.num_actions)
        waiting = _descend_and_make(
            roots, steps, leaves, self.visits, self.value_sum, self.mover, self.first,
            self.count, self.edge_child, self.edge_prior, self.edge_action, self.edge_top,
            self.words, self.c_puct, self.top, walks.paths, walks.lengths, walks.root_range,
            walks.tree_range, self.leaf_value, walks.planes, walks.waiting, walks.counts,
            self.uniforms, self.cursor, *self.rules.functions)
        if waiting:
            nodes = walks.waiting[:waiting]
            self.leaf_value[nodes] = self._evaluate(nodes, walks.counts[:waiting],
                                                    walks.planes[:waiting], evaluate)

    # --- both ----------------------------------------------------------------------------------
    def _evaluate(self, nodes: np.ndarray, counts: np.ndarray, planes: np.ndarray,
                  evaluate: EvaluatePlanes) -> np.ndarray:
        """Evaluate `nodes` (their edges made, encoded in `planes`) in one network call: their
        priors, and their values from player 0's side."""
        priors, values = evaluate(planes, self.mover[nodes])
        self.calls += 1
        self.evaluated += len(nodes)
        _set_priors(nodes, counts, priors, self.first, self.count, self.edge_action,
                    self.edge_prior)
        values = np.asarray(values, dtype=np.float64)
        return np.where(self.mover[nodes] == 0, values, -values)

    def _result(self, root: int, tree_range: np.ndarray, root_range: np.ndarray,
                simulations: int) -> RootResult:
        span = slice(self.first[root], self.first[root] + self.count[root])
        children = self.edge_child[span]
        return root_result(self.edge_action[span].copy(), self.edge_prior[span].copy(),
                           np.where(children >= 0, self.visits[np.maximum(children, 0)], 0),
                           np.where(children >= 0, self.value_sum[np.maximum(children, 0)], 0.0),
                           int(self.mover[root]), int(self.visits[root]),
                           float(self.value_sum[root]), self.c_puct,
                           (float(root_range[0]), float(root_range[1])),
                           (float(tree_range[0]), float(tree_range[1])), simulations)

    # --- reading a tree ------------------------------------------------------------------------
    def most_visited_line(self, root: int, state: State, first: int, longest: int) -> list[str]:
        """`first` from `root` (its `state`), then the most visited move at each decision node
        below, in notation; it stops at a chance node or a node without moves searched."""
        line: list[str] = []
        node, action, state = root, first, state.clone()
        while len(line) < longest:
            line.append(state.action_to_str(action))
            child = self.child(node, action)
            if child < 0 or self.mover[child] < 0 or self.count[child] <= 0:
                break
            state.apply(action)
            span = range(self.first[child], self.first[child] + self.count[child])
            made = [e for e in span if self.edge_child[e] >= 0]
            if not made:
                break
            node = child
            best = max(made, key=lambda e: self.visits[self.edge_child[e]])
            action = int(self.edge_action[best])
        return line

    def find(self, root: int, played: int, state: State, depth: int) -> int:
        """The node of `state` within `depth` levels below `root`'s move `played` (the agent's
        tree reuse: the position after its move and the replies), or -1. Positions compare by
        the rules' words, or by `State.key()` (no reuse where a game gives none)."""
        if self.rules is not None:
            target: Any = self.rules.pack(state)
        else:
            target = state.key()
            if target is None:
                return -1
        me = state.current_player()
        frontier = [self.child(root, played)] if self.count[root] >= 0 else []
        for _ in range(depth):
            deeper: list[int] = []
            for node in frontier:
                if node < 0 or self.count[node] < 0:
                    continue
                if self.mover[node] == me:
                    if (np.array_equal(self.words[node], target) if self.rules is not None
                            else self.states[node].key() == target):
                        return node
                    continue  # our turn again, elsewhere: not the position we are in
                span = range(self.first[node], self.first[node] + self.count[node])
                deeper.extend(int(self.edge_child[e]) for e in span)
            frontier = deeper
        return -1


fresh_cache(__name__)  # numba's disk cache notices edits to every file read here
