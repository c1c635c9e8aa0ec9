"""AlphaZero (Silver et al. 2018): PUCT search guided by a policy/value network.

The paper: "A general reinforcement learning algorithm that masters chess, shogi and Go
through self-play", Science 362 (2018).

The network reads the game's `State.encode(player)` planes (channels, height, width) and gives
a prior over the game's whole action space and a value in [-1, 1] for the player to move. The
search is agents/puct.py's `ArrayForest` with one tree (self-play, learn/az_selfplay.py, runs
the same search over many trees at once): a simulation walks down choosing at each decision
node the child with the best

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

Weights files are written by `boardlab train GAME alphazero`.
"""

from __future__ import annotations

import os
from collections.abc import Collection
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from ..core.agent import Agent, Clock, collector_paused
from ..core.game import CHANCE, BoardLabError, Game, State
from ..core.weights import one_torch_thread, shipped_weights
from .mcts import PV_LENGTH, REUSE_DEPTH
from .puct import ArrayForest, pick_move

FORMAT = "boardlab-alphazero"
VERSION = 1
CLOCK_LEAVES = 8
"""Leaves a network call when only time stops the search: 2.7 times the simulations a second
of one leaf on the largest shipped network (`boardlab bench GAME --tasks play-alphazero`;
docs/alphazero.md, "More leaves a network call")."""
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
    leaves: int = 0
    """Leaves a network call evaluates in one move's search: each descent after the first is
    steered off the ones before it by a virtual loss (more simulations a second where a
    batch-1 forward costs nearly as much as a batch of 8; see docs/alphazero.md). 0 (the
    default) picks: `CLOCK_LEAVES` when only time stops the search (`sims=0`), where more
    simulations a second is all that counts, else 1, so that a fixed number of simulations
    searches the same tree as before this setting existed."""
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
        if self.leaves < 0:
            raise ValueError(f"leaves={self.leaves} must be at least 1 (or 0: chosen)")

    def leaves_per_call(self) -> int:
        """`leaves`, or what 0 chooses."""
        if self.leaves:
            return self.leaves
        return CLOCK_LEAVES if self.sims == 0 else 1


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
        """The same for positions already encoded (agents/puct.py's forest encodes its own)."""
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
        # One tree; array rules make its leaves in numba where the game has them (games with
        # chance nodes declare none, and make theirs by their States).
        self.forest = ArrayForest(self.settings.c_puct, capacity=256,
                                  rules=game.array_rules(), rng=self.rng)
        # A tiny search now (virtual loss included): numba compiles the forest's kernels on
        # first use, or loads them from its cache, which would otherwise spend the first
        # move's clock (after a fresh install, over a second: a forfeit at 0.3 s a move).
        with one_torch_thread():
            self.forest.search([state], 4, self.evaluate.on_planes, leaves=2)
        self.info: dict[str, Any] = {}
        self.played: int | None = None
        """The move we played from the forest's root, for reuse at our next move."""

    def start_game(self, player: int, seed: int) -> None:
        super().start_game(player, seed)
        self.played = None

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
        played, self.played = self.played, None
        if len(actions) == 1:  # nothing to think about; the old tree no longer fits either
            self.info = {"simulations": 0, "value": None, "visits": {}, "heat": {},
                         "reused_visits": 0, "pv": [state.action_to_str(actions[0])]}
            return actions[0]
        settings = self.settings
        if settings.time > 0 and (clock.budget is None or settings.time < clock.remaining()):
            clock = Clock.start(settings.time)
        forest = self.forest
        forest.rng = self.rng
        found = forest.find(0, played, state, REUSE_DEPTH) if played is not None else -1
        if found >= 0:  # the position after our move and the replies, with its subtree
            forest.keep_nodes([found])
        reused = int(forest.visits[0]) if found >= 0 else 0
        noise = None
        if settings.dirichlet_alpha > 0:
            generator = np.random.default_rng(self.rng.getrandbits(32))

            def noise(priors: np.ndarray) -> np.ndarray:
                if len(priors) < 2:
                    return priors
                mixed = generator.dirichlet([settings.dirichlet_alpha] * len(priors))
                return (1 - settings.noise_fraction) * priors + settings.noise_fraction * mixed
        with one_torch_thread(), collector_paused():
            result = forest.search([state], settings.sims, self.evaluate.on_planes, noise,
                                   clock, settings.leaves_per_call())[0]
        move = int(result.actions[pick_move(result, settings.temperature, self.rng)])
        if settings.reuse and not self.game.facts.hidden_information:
            self.played = move
        names = [state.action_to_str(int(a)) for a in result.actions]
        top = np.argsort(-result.visits, kind="stable")[:5]
        total = int(result.visits.sum()) or 1
        self.info = {
            "simulations": result.simulations,
            "reused_visits": reused,
            "value": result.value,
            "visits": {names[i]: int(result.visits[i]) for i in top if result.visits[i] > 0},
            "heat": {"visit share": {name: int(v) / total
                                     for name, v in zip(names, result.visits) if v > 0},
                     "prior": {name: float(p) for name, p in zip(names, result.priors)}},
            "pv": forest.most_visited_line(0, state, move, PV_LENGTH),
        }
        return move

    def last_info(self) -> dict[str, Any]:
        """simulations, reused_visits (kept from the last move's tree), value (mean return of
        the mover at the root), visits of the top moves;
        heat (visit shares and the network's priors of the root moves) and pv (the most
        visited line from the move played, in notation)."""
        return self.info
