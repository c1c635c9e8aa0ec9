"""The readable PUCT reference: one `Node` object per position, a Python loop over its
children. It was the agent's search before src/boardlab/agents/puct.py's `ArrayForest` became
the one search (issue 33); tests/learn/test_puct.py checks that the forest gives its visit
counts, score ranges and moves on seeded positions, chance nodes included.

What it does, plainly (the forest does the same over arrays):
- a decision node is evaluated once by the network: its priors over the legal moves,
  normalised; its value backed up along the path (player 0's side);
- a walk picks the child with the best Q + c_puct * P * sqrt(N) / (1 + N(child)), the first
  best in legal-move order;
- a chance node is walked through by drawing an outcome (`draw_outcome`) from `rng`, and the
  walk goes on below it in the same simulation;
- with `leaves` > 1, each walk after a tree's first meets the earlier ones as visits that
  lost (a virtual loss), taken back before the real values are backed up.
"""

from __future__ import annotations

import math
import random
from collections.abc import Collection
from typing import Callable

import numpy as np

from boardlab.agents.puct import RootResult, root_result
from boardlab.core.agent import Clock
from boardlab.core.game import CHANCE, TERMINAL, State
from boardlab.core.match import draw_outcome


class Node:
    """One position of the tree; `value_sum` holds player 0's returns."""

    __slots__ = ("state", "mover", "prior", "visits", "value_sum", "children", "priors",
                 "outcomes")

    def __init__(self, state: State, prior: float) -> None:
        self.state = state
        self.mover = state.current_player()
        """The player to move here, CHANCE or TERMINAL."""
        self.prior = prior
        self.visits = 0
        self.value_sum = 0.0
        self.children: dict[int, Node] = {}
        self.priors: dict[int, float] | None = None
        """Decision nodes: the network's prior of each legal move, once evaluated."""
        self.outcomes: list[tuple[int, float]] = (
            state.chance_outcomes() if self.mover == CHANCE else [])


Evaluate = Callable[[list[State]], tuple[np.ndarray, np.ndarray]]
"""States (each with a player to move) -> (priors over all actions, values for the mover)."""


class PUCTSearch:
    """The search itself, without the network: `evaluate` turns a batch of states into priors
    and values. Kept apart from the agent so that self-play drives many trees at once."""

    def __init__(self, c_puct: float, rng: random.Random) -> None:
        self.c_puct = c_puct
        self.rng = rng
        self.u_range: dict[int, tuple[float, float]] = {}
        """Per root (by id): the least and greatest PUCT score met at it (seed 003, scheme 1,
        our first reading)."""
        self.tree_range: dict[int, tuple[float, float]] = {}
        """Per root (by id): the least and greatest PUCT score met anywhere in its tree (seed
        003, scheme 1 as the seed writes it)."""

    def search_many(self, roots: Collection[Node], sims: int, evaluate: Evaluate,
                    noise: Callable[[Node], None] | None = None,
                    clock: Clock | None = None, leaves: int = 1) -> int:
        """`sims` simulations in every tree (0: no limit), `leaves` leaves per tree per step,
        evaluated together, or fewer if `clock` expires first (each tree gets at least one).
        Within a step each descent after a tree's first meets the paths before it as visits
        that lost (a virtual loss, taken back before the real values are backed up), so it
        goes elsewhere. Returns the simulations run per tree."""
        self.u_range.clear()
        self.tree_range.clear()
        unexpanded = [root for root in roots if root.priors is None and root.mover >= 0]
        if unexpanded:
            self._expand(unexpanded, evaluate)
        if noise is not None:
            for root in roots:
                noise(root)
        if sims == 0 and (clock is None or clock.budget is None):
            raise ValueError("search_many: sims=0 (no limit) needs a clock with a budget")
        done = 0
        while done < sims or sims == 0:
            if done > 0 and clock is not None and clock.expired():
                break
            step = leaves if sims == 0 else min(leaves, sims - done)
            done += step
            paths = []
            for root in roots:
                for _ in range(step):
                    paths.append(self._descend(root))
                    if step > 1:
                        _virtual_loss(paths[-1], 1)
            if step > 1:
                for path in paths:
                    _virtual_loss(path, -1)
            waiting = [path for path in paths if path[-1].mover >= 0
                       and path[-1].priors is None]
            if step > 1:  # two descents may end on one leaf: it is evaluated once
                waiting = list({id(path[-1]): path for path in waiting}.values())
            values = self._expand([path[-1] for path in waiting], evaluate) if waiting else []
            leaf_value = {id(path[-1]): v for path, v in zip(waiting, values)}
            for path in paths:
                leaf = path[-1]
                if leaf.mover == TERMINAL:
                    value = leaf.state.returns()[0]
                elif id(leaf) in leaf_value:
                    value = leaf_value[id(leaf)]
                else:  # a leaf reached twice in one step (only with duplicate roots)
                    value = leaf.value_sum / max(leaf.visits, 1)
                for node in path:
                    node.visits += 1
                    node.value_sum += value
        return done

    def _descend(self, root: Node) -> list[Node]:
        """Follow PUCT (and chance draws) from `root` to a node not yet evaluated."""
        node, path = root, [root]
        while True:
            mover = node.mover
            if mover == TERMINAL or (mover >= 0 and node.priors is None):
                return path
            if mover == CHANCE:
                action = draw_outcome(node.outcomes, self.rng.random())
                child = node.children.get(action)
                if child is None:
                    child = node.children[action] = Node(node.state.child(action), 1.0)
            else:
                action = self._select(node, root)
                child = node.children.get(action)
                if child is None:
                    assert node.priors is not None
                    child = node.children[action] = Node(node.state.child(action),
                                                         node.priors[action])
            node = child
            path.append(node)

    def _select(self, node: Node, root: Node) -> int:
        assert node.priors is not None
        sign = 1.0 if node.mover == 0 else -1.0
        explore = self.c_puct * math.sqrt(max(node.visits, 1))
        best_score, best = -math.inf, -1
        low, high = math.inf, -math.inf
        children = node.children
        for action, prior in node.priors.items():
            child = children.get(action)
            if child is None or child.visits == 0:
                score = explore * prior
            else:
                score = (sign * child.value_sum / child.visits
                         + explore * prior / (1 + child.visits))
            if score > best_score:
                best_score, best = score, action
            low, high = min(low, score), max(high, score)
        for ranges, seen in ((self.tree_range, True), (self.u_range, node is root)):
            if seen:
                old_low, old_high = ranges.get(id(root), (math.inf, -math.inf))
                ranges[id(root)] = (min(low, old_low), max(high, old_high))
        return best

    def _expand(self, nodes: list[Node], evaluate: Evaluate) -> list[float]:
        """Set the priors of `nodes` from one network call; their values, player 0's side."""
        priors, values = evaluate([node.state for node in nodes])
        out = []
        for node, prior_row, value in zip(nodes, priors, values):
            legal = node.state.legal_actions()
            masked = prior_row[legal].astype(np.float64)  # as agents/puct.py, to the last bit
            total = float(masked.sum())
            probs = masked / total if total > 0 else np.full(len(legal), 1.0 / len(legal))
            node.priors = dict(zip(legal, probs.tolist()))
            out.append(float(value) if node.mover == 0 else -float(value))
        return out


def _virtual_loss(path: list[Node], sign: int) -> None:
    """Count `path` as visited and lost by each player who chose a move on it (`sign` 1), or
    take that back (-1). Values are summed from player 0's side, so a loss for player 0 is -1."""
    path[0].visits += sign
    for parent, node in zip(path, path[1:]):
        node.visits += sign
        if parent.mover >= 0:
            node.value_sum -= sign * (1.0 if parent.mover == 0 else -1.0)


def add_dirichlet_noise(root: Node, alpha: float, fraction: float, rng: np.random.Generator
                        ) -> None:
    """Mix Dir(alpha) noise into the root priors (AlphaZero's exploration in self-play)."""
    if root.priors is None or len(root.priors) < 2 or alpha <= 0:
        return
    noise = rng.dirichlet([alpha] * len(root.priors))
    root.priors = {a: (1 - fraction) * p + fraction * n
                   for (a, p), n in zip(root.priors.items(), noise)}


def visit_policy(root: Node, num_actions: int) -> np.ndarray:
    """The root's visit counts as a distribution over the whole action space."""
    policy = np.zeros(num_actions, dtype=np.float32)
    for action, child in root.children.items():
        policy[action] = child.visits
    total = policy.sum()
    return policy / total if total > 0 else policy


def choose_move(root: Node, temperature: float, rng: random.Random) -> int:
    """The most visited child (ties: the higher prior), or one drawn by visits^(1/T)."""
    priors = root.priors
    assert priors is not None
    actions = list(priors)
    visits = [root.children[a].visits if a in root.children else 0 for a in actions]
    if temperature > 0 and sum(visits) > 0:
        weights = [v ** (1.0 / temperature) for v in visits]
        return rng.choices(actions, weights)[0]
    return max(zip(actions, visits), key=lambda item: (item[1], priors[item[0]]))[0]


def result_of(search: PUCTSearch, root: Node) -> RootResult:
    """A reference search's root as the forest reports it."""
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
