"""Monte Carlo tree search: UCT (Kocsis & Szepesvári 2006, "Bandit based Monte-Carlo planning").

Each simulation starts at the root and repeats four steps:
1. selection: at a node whose moves have all been tried, follow the child with the best UCB1
   score, `mean return of the player to move here + c * sqrt(ln N(node) / N(child))`;
2. expansion: at the first node with an untried move, try one (chosen at random) and add its
   node to the tree;
3. rollout: estimate the new node by playing random moves to the end (or by the game's
   heuristic, see `rollout`);
4. backup: every node on the path counts the visit and adds the return of the player whose
   move led to it.
The move played is the root's most visited child.

How the game contract's features enter:
- chance: a chance node keeps one child per outcome (closed loop: the shipped games have at
  most 8 outcomes at a chance node) and is descended by drawing an outcome with the game's
  probabilities, so outcomes are visited in proportion to their probabilities;
- several players: each node sums the return of the player who chose the move into it, so
  every player maximises its own return; team games work because `returns()` gives each seat
  its team's result;
- hidden information: the agent is handed a view (one determinization); `determinizations=k`
  searches k views, re-drawn with `state.view(player, rng)`, each with a k-th of the budget,
  and adds their root visit counts (determinized UCT, as in "ensemble" UCT).

Tricks, one line each:
- each node keeps its state, so a simulation walks down without replaying moves and pays one
  `child()` for the new node (memory: one state per simulation);
- a game's compiled random playout (`Game.random_playout_kernel(state, seed) -> returns`,
  None where the game has none) replaces the Python rollout: one numba call per simulation;
- tree reuse: in perfect-information games the subtree of the position the opponent left us
  in (found below our last move by `State.key()`) keeps its visits into the next move.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

from ..core.agent import Agent, Clock, collector_paused
from ..core.game import CHANCE, TERMINAL, Evaluator, Game, ParseError, State
from ..core.match import draw_outcome
from .evaluation import pick_evaluator

REUSE_DEPTH = 4
"""Tree levels searched below our last move for the new root (opponent moves, chance)."""
TOP_MOVES = 5
"""Root moves listed in `last_info()["visits"]`."""

PV_LENGTH = 8
"""Longest principal variation `last_info()["pv"]` reports."""


@dataclass
class MCTSSettings:
    sims: int = 400
    """Simulations per move (0 = no limit: `time` or the arena's clock stops the search)."""
    time: float = 0.0
    """Seconds per move, 0 = none; the arena's clock (if any) also stops the search."""
    c: float = 1.4
    """UCB1 exploration constant, sized for returns in [-1, 1]."""
    rollout: str = "random"
    """Leaf value: "random" (random moves to the end) or "heuristic:<evaluator name>"."""
    rollout_depth: int = 0
    """Random plies before the heuristic scores the leaf; 0 = "random" plays to the end."""
    scale: float = 100.0
    """A heuristic value v becomes the return tanh(v / scale), in [-1, 1]."""
    determinizations: int = 1
    """Views searched per move in hidden-information games; their root visits are added."""
    reuse: bool = True
    """Keep the subtree of the new position between moves (perfect information only)."""
    kernel: bool = True
    """Use the game's compiled random playout when it has one (same random game, faster)."""

    def __post_init__(self) -> None:
        if self.sims < 0 or self.time < 0:
            raise ValueError(f"sims={self.sims} and time={self.time} must not be negative")
        if self.sims == 0 and self.time == 0:
            raise ValueError("sims=0 means no simulation limit, so give time=<seconds> too")
        if self.c < 0:
            raise ValueError(f"c={self.c} must not be negative")
        if self.rollout_depth < 0:
            raise ValueError(f"rollout_depth={self.rollout_depth} must not be negative")
        if self.scale <= 0:
            raise ValueError(f"scale={self.scale} must be positive")
        if self.determinizations < 1:
            raise ValueError(f"determinizations={self.determinizations} must be at least 1")
        kind, _, _ = self.rollout.partition(":")
        if kind not in ("random", "heuristic") or self.rollout.startswith("random:"):
            raise ValueError(f"rollout={self.rollout!r}: write random or heuristic:<name>")


class Node:
    """One position of the tree."""

    __slots__ = ("state", "owner", "mover", "visits", "value", "children", "untried",
                 "outcomes")

    def __init__(self, state: State, owner: int) -> None:
        self.state = state
        """The position; never changed (rollouts play on a clone)."""
        self.owner = owner
        """The player whose move led here; `value` sums that player's returns (-1: chance)."""
        self.mover = state.current_player()
        """The player to move here, CHANCE or TERMINAL."""
        self.visits = 0
        self.value = 0.0
        self.children: dict[int, Node] = {}
        self.untried: list[int] = []
        """Moves without a child yet (decision nodes)."""
        self.outcomes: list[tuple[int, float]] = []
        """(outcome, probability) at chance nodes."""


def reused_node(old_root: Any, played: int, state: State) -> Any:
    """The node of `state` in the tree searched at our last move (`old_root`, where we played
    `played`), found within REUSE_DEPTH levels below that move by `State.key()`, or None.
    Any tree whose nodes have `state`, `mover` and `children` (AlphaZero's too)."""
    target = state.key()
    node = old_root.children.get(played)
    if target is None or node is None:
        return None
    me = state.current_player()
    frontier = [node]
    for _ in range(REUSE_DEPTH):
        deeper: list[Any] = []
        for node in frontier:
            if node.mover == me:
                if node.state.key() == target:
                    return node
                continue  # our turn again, elsewhere: not the position we are in
            deeper.extend(node.children.values())
        frontier = deeper
    return None


def principal_variation(root: Any, first: int) -> list[str]:
    """The line the tree believes in, for `last_info`: `first`, then the most visited reply at
    each decision node below, in notation; it stops at a chance node (no single line). Any
    tree whose nodes have `state`, `mover`, `children` and `visits` (AlphaZero's too)."""
    line: list[str] = []
    node, action = root, first
    while len(line) < PV_LENGTH:
        line.append(node.state.action_to_str(action))
        child = node.children.get(action)
        if child is None or child.mover < 0 or not child.children:
            break
        node = child
        action = max(node.children, key=lambda a: node.children[a].visits)
    return line


class MCTSAgent(Agent):
    name = "mcts"
    Settings = MCTSSettings

    def __init__(self, game: Game, settings: MCTSSettings | None = None, **params: Any) -> None:
        super().__init__(game, settings, **params)
        settings = self.settings
        self.players = range(game.num_players)
        self.evaluate: Evaluator | None = None
        kind, _, wanted = settings.rollout.partition(":")
        if kind == "heuristic" or settings.rollout_depth > 0:
            # A cut random rollout with rollout=random is scored by the game's default heuristic.
            try:
                self.eval_name, self.evaluate = pick_evaluator(game, wanted, "minimax")
            except ParseError as error:
                raise ParseError(f"mcts rollout={settings.rollout!r}: {error}") from None
        self.max_plies = settings.rollout_depth if self.evaluate is not None else -1
        self.use_kernel = settings.kernel and self.evaluate is None
        """Ask the game for compiled random playouts (until it says it has none)."""
        if self.use_kernel:
            # One playout now: numba loads its code on the first call, which would otherwise
            # be charged to the first move's clock (0.5-0.8 s here for a bitboard game).
            start = game.initial_state(0)
            if start.current_player() >= 0 and game.random_playout_kernel(start, 0) is None:
                self.use_kernel = False
        self.hidden = game.facts.hidden_information
        self.tree: tuple[Node, int] | None = None
        """(root, the move we played) kept for reuse at our next move."""
        self.info: dict[str, Any] = {}
        self.tail = 0.0
        self.searched = 0.0
        """Seconds the last move took after its search (the collector's pass, the statistics):
        the next search stops that much before the clock, so the whole move keeps to it."""

    def start_game(self, player: int, seed: int) -> None:
        super().start_game(player, seed)
        self.tree = None

    # --- one move ---------------------------------------------------------------------------
    def act(self, state: State, clock: Clock) -> int:
        settings = self.settings
        started = time.perf_counter()
        if settings.time > 0 and (clock.budget is None or settings.time < clock.remaining()):
            clock = Clock.start(settings.time)
        if clock.budget is not None:
            clock = Clock(max(clock.budget - self.tail, 0.0), clock.started)
        me = state.current_player()
        actions = state.legal_actions()
        if len(actions) == 1:  # nothing to think about; the old tree no longer fits either
            self.tree = None
            self.info = {"simulations": 0, "value": None, "visits": {}, "reused_visits": 0,
                         "determinizations": 0, "seconds": time.perf_counter() - started,
                         "heat": {}, "pv": [state.action_to_str(actions[0])]}
            return actions[0]

        views = settings.determinizations if self.hidden else 1
        visits: dict[int, int] = {}
        values: dict[int, float] = {}
        simulations = reused = 0
        for i in range(views):
            view = state if i == 0 else state.view(me, self.rng)
            found = self._reused_root(view) if views == 1 else None
            if found is None:
                root = self._new_node(view, me)
            else:
                root, reused = found, found.visits
            share = settings.sims * (i + 1) // views - settings.sims * i // views
            part = clock if clock.budget is None else Clock.start(clock.remaining() / (views - i))
            simulations += self._search(root, share, part)
            for action, child in root.children.items():
                visits[action] = visits.get(action, 0) + child.visits
                values[action] = values.get(action, 0.0) + child.value
        # Most visits wins; equal visits go to the better mean, then to the first tried.
        best = max(visits, key=lambda a: (visits[a], values[a] / max(visits[a], 1)))
        self.tree = (root, best) if (
            settings.reuse and not self.hidden and views == 1) else None

        total = sum(visits.values())
        top = sorted(visits, key=lambda a: -visits[a])[:TOP_MOVES]
        self.info = {
            "simulations": simulations,
            "value": sum(values.values()) / total if total else 0.0,
            "visits": {state.action_to_str(a): visits[a] for a in top},
            "reused_visits": reused,
            "determinizations": views,
            "seconds": time.perf_counter() - started,
            "heat": {"visit share": {state.action_to_str(a): n / total
                                     for a, n in visits.items()} if total else {}},
            "pv": principal_variation(root, best),
        }
        self.tail = time.perf_counter() - self.searched
        return best

    def last_info(self) -> dict[str, Any]:
        """simulations run, value (mean return of the mover), visits of the top root moves,
        reused_visits (kept from the last move), determinizations, seconds; heat (each root
        move's share of the visits) and pv (the most visited line, in notation)."""
        return self.info

    # --- the search ---------------------------------------------------------------------------
    def _search(self, root: Node, sims: int, clock: Clock) -> int:
        """Run simulations from `root` until `sims` are done (0: no limit) or `clock` expires."""
        timed = clock.budget is not None
        done = 0
        with collector_paused():
            while done < sims or sims == 0:
                if timed and done > 0 and clock.expired():
                    break
                self._simulate(root)
                done += 1
            self.searched = time.perf_counter()  # what follows, the collector first, is `tail`
        return done

    def _simulate(self, root: Node) -> None:
        """One simulation: selection, expansion, rollout, backup."""
        rng = self.rng
        node = root
        path = [root]
        while True:
            mover = node.mover
            if mover >= 0:
                untried = node.untried
                if untried:  # expansion: a random untried move (swap-remove keeps it O(1))
                    i = rng.randrange(len(untried))
                    action = untried[i]
                    untried[i] = untried[-1]
                    untried.pop()
                    child = self._new_node(node.state.child(action), mover)
                    node.children[action] = node = child
                    path.append(node)
                    break
                node = self._select(node)
            elif mover == CHANCE:
                action = draw_outcome(node.outcomes, rng.random())
                known = node.children.get(action)
                if known is None:
                    child = self._new_node(node.state.child(action), CHANCE)
                    node.children[action] = node = child
                    path.append(node)
                    break
                node = known
            else:  # a terminal node: its returns are exact
                break
            path.append(node)
        returns = self._rollout(node.state)
        for node in path:
            node.visits += 1
            owner = node.owner
            if owner >= 0:
                node.value += returns[owner]

    def _select(self, node: Node) -> Node:
        """The child with the best UCB1 score for the player to move at `node`."""
        explore = self.settings.c * math.sqrt(math.log(node.visits))
        best_score = -math.inf
        best = node
        for child in node.children.values():
            n = child.visits
            score = child.value / n + explore / math.sqrt(n)
            if score > best_score:
                best_score = score
                best = child
        return best

    def _new_node(self, state: State, owner: int) -> Node:
        node = Node(state, owner)
        if node.mover >= 0:
            node.untried = list(state.legal_actions())  # a copy: states may cache their list
        elif node.mover == CHANCE:
            node.outcomes = state.chance_outcomes()
        return node

    def _rollout(self, state: State) -> list[float]:
        """Returns per player estimated from the leaf `state` (left unchanged)."""
        if state.current_player() == TERMINAL:
            return state.returns()
        if self.use_kernel:
            returns = self.game.random_playout_kernel(state, self.rng.getrandbits(32))
            if returns is not None:
                return returns
            self.use_kernel = False  # the game has no compiled playout: play in Python
        rng = self.rng
        state = state.clone()  # the node keeps its own
        plies = 0
        while True:
            mover = state.current_player()
            if mover == TERMINAL:
                return state.returns()
            if mover == CHANCE:
                state.apply(draw_outcome(state.chance_outcomes(), rng.random()))
                continue
            if plies == self.max_plies:
                break
            state.apply(rng.choice(state.legal_actions()))
            plies += 1
        evaluate = self.evaluate
        assert evaluate is not None  # max_plies is -1 (never reached) without a heuristic
        # Each player's own view of the heuristic: right for evaluators that are not symmetric.
        scale = self.settings.scale
        return [math.tanh(evaluate(state, p) / scale) for p in self.players]

    # --- tree reuse ---------------------------------------------------------------------------
    def _reused_root(self, state: State) -> Node | None:
        """The node for `state` below our last move in the last tree, if it is there."""
        if self.tree is None:
            return None
        old_root, played = self.tree
        self.tree = None
        node = reused_node(old_root, played, state)
        if node is not None:
            node.owner = state.current_player()  # a root sums the mover's own returns
        return node
