"""AlphaZero (Silver et al. 2018): PUCT search guided by a policy/value network.

The paper: "A general reinforcement learning algorithm that masters chess, shogi and Go
through self-play", Science 362 (2018).

The network reads the game's `State.encode(player)` planes (channels, height, width) and gives
a prior over the game's whole action space and a value in [-1, 1] for the player to move. A
simulation walks down the tree choosing at each decision node the child with the best

    Q(child) + c_puct * P(child) * sqrt(N(node)) / (1 + N(child))

(Q from the mover's side, 0 for an unvisited child), evaluates the first unexpanded node with
the network (or its exact returns if the game is over), and backs the value up the path. The
move played is the most visited root child (or, with a temperature, drawn in proportion to
visits^(1/T): self-play uses that for its opening moves).

How the game contract's features enter, as in agents/mcts.py:
- chance: a chance node is descended by drawing an outcome with the game's probabilities;
- hidden information: the agent searches the view it is handed (one determinization);
- the network's value is for the player to move; the tree stores every value from player 0's
  side, so this agent plays two-player zero-sum games only.

`search_many` runs several trees in lockstep and evaluates their new leaves in one network
call: self-play (learn/alphazero.py) plays many games at once that way, which is where the
batching gain comes from. Weights files are written by `boardlab train GAME alphazero`.
"""

from __future__ import annotations

import math
import os
import random
from collections.abc import Collection
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable

import numpy as np

from ..core.agent import Agent, Clock, collector_paused
from ..core.game import CHANCE, TERMINAL, BoardLabError, Game, State
from ..core.match import draw_outcome
from ..core.weights import one_torch_thread, shipped_weights
from .mcts import principal_variation, reused_node

FORMAT = "boardlab-alphazero"
VERSION = 1
ARCHITECTURE_FIELDS = ("channels", "blocks", "policy_planes", "seat_frame")
BEFORE_FIELDS = {"policy_planes": 2, "seat_frame": False}
"""What a weights file written before a field existed was trained with."""


@dataclass
class AlphaZeroSettings:
    sims: int = 200
    """Simulations per move (0 = no limit: `time` or the arena's clock stops the search)."""
    time: float = 0.0
    """Seconds per move, 0 = none; the arena's clock (if any) also stops the search."""
    c_puct: float = 1.5
    """Exploration weight of the prior in the PUCT score."""
    temperature: float = 0.0
    """0 plays the most visited move; T > 0 draws a move in proportion to visits^(1/T)."""
    dirichlet_alpha: float = 0.0
    """Root noise Dir(alpha) mixed into the priors (0 = none, the default in play)."""
    noise_fraction: float = 0.25
    """Share of the noise in the root priors when dirichlet_alpha > 0."""
    reuse: bool = False
    """Keep the subtree of the new position between moves (perfect information only), as
    `mcts` does: its visits count in the next search. Off by default: on the 6x5 chess at
    0.1 s a move it made no difference measurable in 40 games (docs/alphazero.md), and off
    keeps the fixed-simulation figures of the docs reproducible."""
    leaves: int = 1
    """Leaves a network call evaluates in one move's search: each descent after the first is
    steered off the ones before it by a virtual loss (more simulations a second where a
    batch-1 forward costs nearly as much as a batch of 8; see docs/alphazero.md)."""
    weights: str = ""
    """Weights file (.pt); empty = models/<game>-alphazero.pt; `none` = an untrained network."""
    channels: int = 32
    """Convolution channels of an untrained network (a weights file brings its own)."""
    blocks: int = 3
    """Residual blocks of an untrained network (a weights file brings its own)."""
    policy_planes: int = 2
    """Planes of the policy head's 1x1 convolution (AlphaGo Zero's 2; a game with thousands
    of moves learns its teacher's moves better with more: docs/alphazero.md)."""
    seat_frame: bool = True
    """The network names moves as the mover sees them where the game turns the board for one
    side (`Game.action_frame`), so one position asks for one output whoever is to move.
    Weights files written before this setting were trained without it and keep it off."""
    seed: int = 0
    """Initialisation seed of an untrained network."""

    def __post_init__(self) -> None:
        if self.sims < 0 or self.time < 0:
            raise ValueError(f"sims={self.sims} and time={self.time} must not be negative")
        if self.sims == 0 and self.time == 0:
            raise ValueError("sims=0 means no simulation limit, so give time=<seconds> too")
        if self.c_puct < 0 or self.temperature < 0 or self.dirichlet_alpha < 0:
            raise ValueError("c_puct, temperature and dirichlet_alpha must not be negative")
        if not 0 <= self.noise_fraction <= 1:
            raise ValueError(f"noise_fraction={self.noise_fraction} must be in [0, 1]")
        if self.channels < 1 or self.blocks < 0 or self.policy_planes < 1:
            raise ValueError("channels and policy_planes must be positive and blocks not "
                             "negative")
        if self.leaves < 1:
            raise ValueError(f"leaves={self.leaves} must be at least 1")


def build_network(planes: int, height: int, width: int, actions: int, channels: int,
                  blocks: int, policy_planes: int = 2):
    """A small residual CNN: a 3x3 stem, `blocks` residual blocks, then a policy head (1x1
    convolution to `policy_planes` planes, a linear layer to the action logits) and a value
    head (1x1 to one plane, 64 hidden units, tanh)."""
    import torch
    from torch import nn

    class ResidualBlock(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.conv1 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
            self.bn1 = nn.BatchNorm2d(channels)
            self.conv2 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
            self.bn2 = nn.BatchNorm2d(channels)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            h = torch.relu(self.bn1(self.conv1(x)))
            return torch.relu(x + self.bn2(self.conv2(h)))

    class PolicyValueNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(planes, channels, 3, padding=1, bias=False),
                                      nn.BatchNorm2d(channels), nn.ReLU())
            self.tower = nn.Sequential(*[ResidualBlock() for _ in range(blocks)])
            self.policy_conv = nn.Sequential(
                nn.Conv2d(channels, policy_planes, 1, bias=False),
                nn.BatchNorm2d(policy_planes), nn.ReLU())
            self.policy = nn.Linear(policy_planes * height * width, actions)
            self.value_conv = nn.Sequential(nn.Conv2d(channels, 1, 1, bias=False),
                                            nn.BatchNorm2d(1), nn.ReLU())
            self.value = nn.Sequential(nn.Linear(height * width, 64), nn.ReLU(),
                                       nn.Linear(64, 1), nn.Tanh())

        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            h = self.tower(self.stem(x))
            logits = self.policy(self.policy_conv(h).flatten(1))
            value = self.value(self.value_conv(h).flatten(1)).squeeze(1)
            return logits, value

    return PolicyValueNet()


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
            masked = prior_row[legal].astype(np.float64)  # as learn/puct.py, to the last bit
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


class SeatFrame:
    """Moves as the mover sees them (`Game.action_frame`): the network's outputs and policy
    targets use these ids, the search and the game the absolute ones. Where a game turns the
    board for black, the start position's planes are the same for both sides, and absolute ids
    would ask one input for two different outputs (docs/alphazero.md measures what that
    costs)."""

    def __init__(self, game: Game) -> None:
        self.seat_ids: dict[int, np.ndarray] = {}
        """player -> seat id of each absolute id, for the players whose ids differ."""
        for player in range(game.num_players):
            ids = game.action_frame(player)
            if ids is not None:
                self.seat_ids[player] = np.asarray(ids, dtype=np.int64)
        self.absolute_ids = {player: np.argsort(ids) for player, ids in self.seat_ids.items()}
        """player -> absolute id of each seat id."""

    @classmethod
    def of(cls, game: Game, on: bool) -> "SeatFrame | None":
        """The game's frame where `on` and the game declares one, else None (absolute ids)."""
        frame = cls(game) if on else None
        return frame if frame is not None and frame.seat_ids else None

    def to_absolute(self, rows: np.ndarray, movers: Collection[int]) -> np.ndarray:
        """Rows over seat ids (the network's priors) as rows over absolute ids."""
        return self._permuted(rows, movers, self.seat_ids)

    def to_seat(self, rows: np.ndarray, movers: Collection[int]) -> np.ndarray:
        """Rows over absolute ids (a search's visit shares) as rows over seat ids."""
        return self._permuted(rows, movers, self.absolute_ids)

    def seat_actions(self, actions: np.ndarray, movers: np.ndarray) -> np.ndarray:
        """Absolute action ids (a teacher's moves) as their movers' seat ids."""
        out = np.array(actions, dtype=np.int64)
        for player, ids in self.seat_ids.items():
            mine = np.asarray(movers) == player
            out[mine] = ids[out[mine]]
        return out

    @staticmethod
    def _permuted(rows: np.ndarray, movers: Collection[int], columns: dict[int, np.ndarray]
                  ) -> np.ndarray:
        movers = np.asarray(movers)
        out = rows.copy()
        for player, order in columns.items():
            mine = movers == player
            if mine.any():
                out[mine] = rows[mine][:, order]
        return out


class NetworkEvaluator:
    """Batches states into one forward pass: (softmax priors over absolute ids, values for
    the mover); `frame` turns the network's seat ids into absolute ones."""

    def __init__(self, network: Any, torch: Any, frame: SeatFrame | None = None) -> None:
        self.network = network
        self.torch = torch
        self.frame = frame
        self.calls = 0
        self.positions = 0

    def __call__(self, states: list[State]) -> tuple[np.ndarray, np.ndarray]:
        # The game's batch encoder: one compiled call for the whole batch where it has one.
        movers = [s.current_player() for s in states]
        return self.on_planes(states[0].game.encode_batch(states, movers), movers)

    def on_planes(self, planes: np.ndarray, movers: Collection[int]
                  ) -> tuple[np.ndarray, np.ndarray]:
        """The same for positions already encoded (learn/puct.py's forest encodes its own)."""
        torch = self.torch
        with torch.no_grad():
            logits, values = self.network(torch.from_numpy(planes.astype(np.float32,
                                                                         copy=False)))
            priors = torch.softmax(logits, dim=1).numpy()
        if self.frame is not None:
            priors = self.frame.to_absolute(priors, movers)
        self.calls += 1
        self.positions += len(planes)
        return priors, values.numpy()


class AlphaZeroAgent(Agent):
    name = "alphazero"
    Settings = AlphaZeroSettings
    weights_kind = "alphazero"

    def __init__(self, game: Game, settings: AlphaZeroSettings | None = None,
                 **params: Any) -> None:
        super().__init__(game, settings, **params)
        import torch

        self.torch = torch
        state = game.initial_state(0)
        while state.current_player() == CHANCE:
            state = state.child(state.chance_outcomes()[0][0])
        self.shape = tuple(state.encode(max(state.current_player(), 0)).shape)
        if len(self.shape) != 3:
            raise BoardLabError(f"alphazero needs planes (channels, height, width) from "
                                f"{game.name}'s encode(), got shape {self.shape}")
        weights = self.settings.weights
        if weights.lower() == "none":
            torch.manual_seed(self.settings.seed)
            self.network = self.build()
        else:
            path = (Path(weights) if weights
                    else shipped_weights(game.name, self.weights_kind, self.weights_suffix,
                                         "alphazero"))
            self.network = self.load(path)
        self.network.eval()
        self.frame = SeatFrame.of(game, self.settings.seat_frame)
        """The network's move ids where they are not the game's (None: the same)."""
        self.evaluate = NetworkEvaluator(self.network, torch, self.frame)
        # One forward now: torch prepares its kernels on the first call (0.6 s for a small
        # network here), which would otherwise spend the first move's clock on one simulation.
        with one_torch_thread():
            self.evaluate([state])
        self.search = PUCTSearch(self.settings.c_puct, self.rng)
        self.info: dict[str, Any] = {}
        self.tree: tuple[Node, int] | None = None
        """(root, the move we played) kept for reuse at our next move."""

    def start_game(self, player: int, seed: int) -> None:
        super().start_game(player, seed)
        self.tree = None

    @classmethod
    def cannot_play(cls, game: Game) -> str | None:
        facts = game.facts
        if facts.num_players != 2 or not facts.zero_sum:
            return "it searches two-player zero-sum games only"
        return None

    def build(self):
        channels, height, width = self.shape
        return build_network(channels, height, width, self.game.num_actions,
                             self.settings.channels, self.settings.blocks,
                             self.settings.policy_planes)

    # --- files ---------------------------------------------------------------------------------
    def save(self, path: str | os.PathLike[str], extra: dict[str, Any] | None = None) -> int:
        """Write the weights and the architecture (atomically); returns the bytes written."""
        from ..core.weights import save_payload

        payload = {"format": FORMAT, "version": VERSION, "game": self.game.name,
                   "shape": list(self.shape), "actions": self.game.num_actions,
                   "architecture": {k: getattr(self.settings, k) for k in ARCHITECTURE_FIELDS},
                   "state_dict": self.network.state_dict(), **(extra or {})}
        return save_payload(path, payload)

    def load(self, path: Path):
        from ..core.weights import load_payload

        if not path.is_file():  # the command that writes exactly this file
            raise BoardLabError(f"AlphaZero weights {path} do not exist; train them with "
                                f"`boardlab train {self.game.spec} alphazero --out {path}` "
                                "(or give weights=FILE, or weights=none for an untrained net)")
        payload = load_payload(path, FORMAT, self.game.name, "AlphaZero weights")
        if (list(payload.get("shape", [])) != list(self.shape)
                or payload.get("actions") != self.game.num_actions):
            raise BoardLabError(f"AlphaZero weights {path} expect input {payload.get('shape')} "
                                f"and {payload.get('actions')} actions; {self.game.name} has "
                                f"{list(self.shape)} and {self.game.num_actions}")
        architecture = {**BEFORE_FIELDS, **dict(payload.get("architecture", {}))}
        fields = {k: v for k, v in architecture.items() if k in ARCHITECTURE_FIELDS}
        try:
            if not all(isinstance(v, int) for v in fields.values()):
                raise ValueError("each must be a whole number or a flag")
            described = replace(self.settings, **fields)  # its checks run on the file's values
        except ValueError as error:
            raise BoardLabError(f"AlphaZero weights {path} describe an architecture no "
                                f"network has ({fields}): {error}") from None
        for key in ARCHITECTURE_FIELDS:
            setattr(self.settings, key, getattr(described, key))
        network = self.build()
        try:
            network.load_state_dict(payload["state_dict"])
        except (RuntimeError, KeyError) as error:
            raise BoardLabError(f"AlphaZero weights {path} do not fit the network they "
                                f"describe: {str(error).splitlines()[0]}") from None
        return network

    # --- playing -------------------------------------------------------------------------------
    def act(self, state: State, clock: Clock) -> int:
        actions = state.legal_actions()
        last, self.tree = self.tree, None
        if len(actions) == 1:  # nothing to think about; the old tree no longer fits either
            self.info = {"simulations": 0, "value": None, "visits": {}, "heat": {},
                         "reused_visits": 0, "pv": [state.action_to_str(actions[0])]}
            return actions[0]
        settings = self.settings
        if settings.time > 0 and (clock.budget is None or settings.time < clock.remaining()):
            clock = Clock.start(settings.time)
        found = reused_node(*last, state) if last is not None else None
        root = found if found is not None else Node(state, 1.0)
        reused = root.visits
        noise = None
        if settings.dirichlet_alpha > 0:
            generator = np.random.default_rng(self.rng.getrandbits(32))

            def noise(node: Node) -> None:
                add_dirichlet_noise(node, settings.dirichlet_alpha, settings.noise_fraction,
                                    generator)
        self.search.rng = self.rng
        self.search.u_range.clear()
        with one_torch_thread(), collector_paused():
            simulations = self.search.search_many([root], settings.sims, self.evaluate, noise,
                                                  clock, settings.leaves)
        move = choose_move(root, settings.temperature, self.rng)
        if settings.reuse and not self.game.facts.hidden_information:
            self.tree = (root, move)
        me = state.current_player()
        top = sorted(root.children.items(), key=lambda item: -item[1].visits)[:5]
        total = sum(child.visits for child in root.children.values()) or 1
        self.info = {
            "simulations": simulations,
            "reused_visits": reused,
            "value": (root.value_sum / root.visits) * (1 if me == 0 else -1),
            "visits": {state.action_to_str(a): child.visits for a, child in top},
            "heat": {"visit share": {state.action_to_str(a): child.visits / total
                                     for a, child in root.children.items()},
                     "prior": {state.action_to_str(a): float(p)
                               for a, p in (root.priors or {}).items()}},
            "pv": principal_variation(root, move),
        }
        return move

    def last_info(self) -> dict[str, Any]:
        """simulations, reused_visits (kept from the last move's tree), value (mean return of
        the mover at the root), visits of the top moves;
        heat (visit shares and the network's priors of the root moves) and pv (the most
        visited line from the move played, in notation)."""
        return self.info
