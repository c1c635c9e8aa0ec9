"""Deep Q-Network (Mnih et al. 2015; seed 000), with seed 001's residual and dueling options.

The network maps `State.encode(player)` (flattened; the game's rules page gives its planes)
to one Q-value per action of the game:
    h1 = ReLU(W1 s), h2 = Dropout(ReLU(W2 h1)), h3 = Dropout(ReLU(W3 h2)), Q = W4 h3
Four fully connected layers as the seed draws them. Hidden width 128 (setting `hidden`): the
seed gives none; on this project's shared 2-core machine a batch-64 update took 11 ms at
width 128 against 28 ms at 256, and a 20-minute training budget is counted in updates, so
the narrower net learns more in the time (112k weights, a 0.5 MB file).
Options for seed 001's variants, so other games reuse this file:
- `residual_blocks` > 0 inserts blocks h <- ReLU(h + W_b ReLU(W_a h)) after h1;
- `dueling` replaces the last layer by a value head and an advantage head,
  Q = V + A - mean(A) (Wang et al. 2016).

Playing: the legal action with the highest Q (illegal actions masked). `masked=false` takes
the argmax over every action, as the seed's unmasked agent did (an illegal choice forfeits in
a match; in training it earns the invalid-action penalty). `lookahead=1` adds a one-ply
search: each legal action a is scored E[r(s, a) - gamma max_b Q_opp(s', b)], the game's DQN
reward for the ply plus the opponent's best Q after it negated, chance outcomes averaged
exactly; see docs/learning.md for both figures. A weights file records its trainer's
`lookahead`, and the agent follows it unless the spec says otherwise (a game's rules page says
which of its shipped networks search). `DuelingDQNAgent` and
`MiniMaxDuelingDQNAgent` are the same agent with other default weights files
(models/<game>-dueling-dqn.pt, models/<game>-minimax-dueling-dqn.pt).

Weights files are `torch.save` dicts of tensors and plain values, read with
`torch.load(weights_only=True)`, so loading never runs code from the file.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..core.agent import Agent, Clock
from ..core.game import BoardLabError, Game, State
from ..core.learning import declared_symmetries
from ..core.weights import load_payload, one_torch_thread, save_payload, shipped_weights
from .evaluation import outcomes_after

FORMAT = "boardlab-dqn"
VERSION = 1


MAX_HIDDEN = 4096
MAX_RESIDUAL_BLOCKS = 64
"""Bounds on the network's size: far above anything trained here (128 wide, 2 blocks), far
below what would exhaust a laptop's memory."""


@dataclass
class DQNSettings:
    weights: str = ""
    """Weights file (.pt); empty = models/<game>-dqn.pt shipped in the package; `none` =
    a fresh network (for training)."""
    hidden: int = 128
    """Width of the hidden layers."""
    dropout: float = 0.1
    """Dropout after the second and third layers (training only)."""
    residual_blocks: int = 0
    """Residual fully connected blocks after the first layer (seed 001); 0 = the seed's net."""
    dueling: bool = False
    """Value + mean-subtracted advantage heads (seed 001's Dueling DQN)."""
    masked: bool = True
    """Choose among legal actions only; false = argmax over all actions (seed's unmasked)."""
    lookahead: int = -1
    """1 = one ply of search over the network and the reward (see module doc); 0 = the
    network alone; -1 (default) = what the weights file records (its trainer's `lookahead`),
    1 for a file that records nothing and for a fresh network."""
    seed: int = 0
    """Seed of a fresh network's initial weights."""
    random_moves: int = 0
    """Play the first N own moves of each game uniformly at random (seeded per game), so that
    arena games between deterministic agents differ; 0 = never."""
    reward: str = ""
    """The game's reward function the one-ply search adds (Game.learning_kit); empty = the one
    the weights were trained with (recorded in the file), else `dqn`."""
    arch: str = ""
    """`seed`: the fully connected network above (seed 000, seed 001's options); `conv`:
    `conv_layers` 3x3 convolutions over the game's input planes first, weights shared across
    squares (not the seeds'), then the same fully connected layers and heads. Empty = the
    game's default network (its learning kit's `dqn_network`, else `seed`). Naming an arch
    other than the default plays models/<game>-dqn-<arch>.pt where no weights are given."""
    symmetric: int = -1
    """1 = average the Q-values of the position seen through each of the board's symmetries
    (the game's learning kit declares them), each mapped back to the position's own actions:
    one batched forward of 8 views on a square board; 0 = the network's one view; -1
    (default) = what the weights file records (its trainer's `symmetric`), 0 for a file that
    records nothing."""
    conv_layers: int = 3
    """Convolutions of `arch=conv`."""
    channels: int = 32
    """Channels of each convolution of `arch=conv`."""

    def __post_init__(self) -> None:
        if self.arch and self.arch not in ARCHITECTURES:
            raise ValueError(f"arch must be one of {', '.join(ARCHITECTURES)}, not {self.arch!r}")
        if self.conv_layers < 1 or not 1 <= self.channels <= MAX_HIDDEN:
            raise ValueError(f"conv_layers must be >= 1 and channels in 1..{MAX_HIDDEN}")
        if self.random_moves < 0:
            raise ValueError("random_moves must be >= 0")
        if self.hidden < 1 or self.residual_blocks < 0 or not 0 <= self.dropout < 1:
            raise ValueError("hidden must be >= 1, residual_blocks >= 0, dropout in [0, 1)")
        if self.hidden > MAX_HIDDEN or self.residual_blocks > MAX_RESIDUAL_BLOCKS:
            # a typo of a few zeros would otherwise try to allocate gigabytes
            raise ValueError(f"hidden must be at most {MAX_HIDDEN} and residual_blocks at most "
                             f"{MAX_RESIDUAL_BLOCKS} (got {self.hidden}, "
                             f"{self.residual_blocks})")
        if self.lookahead not in (-1, 0, 1) or self.symmetric not in (-1, 0, 1):
            raise ValueError("lookahead and symmetric must be 0, 1 or -1 (as the weights file "
                             "says)")


ARCHITECTURES = ("seed", "conv")
ARCHITECTURE_FIELDS = ("hidden", "dropout", "residual_blocks", "dueling", "arch",
                       "conv_layers", "channels")
"""Settings that shape the network: stored in the weights file, restored on load (a file
from before `arch` existed holds only the first four and is the seed's network)."""


def default_network(game: Game) -> dict[str, Any]:
    """The architecture settings of `game`'s default DQN network (its learning kit's
    `dqn_network`, parsed and checked); empty for the seeds' network."""
    kit = game.learning_kit()
    if kit is None or not kit.dqn_network:
        return {}
    from ..core.registry import build_settings, split_params

    given = split_params(kit.dqn_network, f"{game.name} dqn_network")
    if not set(given) <= {"arch", "conv_layers", "channels"}:
        raise BoardLabError(f"{game.name} dqn_network may set arch, conv_layers and channels, "
                            f"not {kit.dqn_network!r}")
    settings = build_settings(DQNSettings, given, f"{game.name} dqn_network")
    return {key: getattr(settings, key) for key in given}


def build_network(inputs: int, actions: int, hidden: int, dropout: float,
                  residual_blocks: int, dueling: bool, planes: tuple[int, ...] = (),
                  conv_layers: int = 0, channels: int = 32):
    """The Q-network as a torch Module (torch is imported only when a network is built).

    It takes flat inputs (batch, inputs); with `conv_layers` > 0 they are viewed as `planes`
    (channels, rows, columns) and go through that many 3x3 convolutions (padding kept, ReLU)
    before the fully connected layers."""
    import torch
    from torch import nn

    convolutions: list[nn.Module] = []
    if conv_layers:
        if len(planes) != 3 or int(np.prod(planes)) != inputs:
            raise BoardLabError(f"arch=conv needs input planes (channels, rows, columns); "
                                f"this game's input has shape {planes}")
        width = planes[0]
        for _ in range(conv_layers):
            convolutions += [nn.Conv2d(width, channels, 3, padding=1), nn.ReLU()]
            width = channels
        convolutions.append(nn.Flatten())
        inputs = channels * planes[1] * planes[2]

    class Residual(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.a = nn.Linear(hidden, hidden)
            self.b = nn.Linear(hidden, hidden)

        def forward(self, h: torch.Tensor) -> torch.Tensor:
            return torch.relu(h + self.b(torch.relu(self.a(h))))

    class QNetwork(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.planes = tuple(planes)
            self.convolutions = nn.Sequential(*convolutions)
            self.body = nn.Sequential(
                nn.Linear(inputs, hidden), nn.ReLU(),
                *[Residual() for _ in range(residual_blocks)],
                nn.Linear(hidden, hidden), nn.ReLU(), nn.Dropout(dropout),
                nn.Linear(hidden, hidden), nn.ReLU(), nn.Dropout(dropout))
            if dueling:
                self.value = nn.Linear(hidden, 1)
                self.advantage = nn.Linear(hidden, actions)
            else:
                self.head = nn.Linear(hidden, actions)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            if conv_layers:
                x = self.convolutions(x.view(-1, *self.planes))
            h = self.body(x)
            if dueling:
                advantage = self.advantage(h)
                return self.value(h) + advantage - advantage.mean(dim=1, keepdim=True)
            return self.head(h)

    return QNetwork()


def recorded_switch(payload: dict[str, Any], key: str, default: int, path: Path) -> int:
    """A play setting a weights file records as 0 or 1 (`default` where it records none)."""
    value = payload.get(key, default)
    if value not in (0, 1) or isinstance(value, bool):
        raise BoardLabError(f"DQN weights {path} record {key} {value!r}; expected 0 or 1")
    return int(value)


class DQNAgent(Agent):
    name = "dqn"
    Settings = DQNSettings
    weights_kind = "dqn"
    train_args = "dqn"
    """What follows `boardlab train GAME` to train such weights (named when they are missing)."""

    def __init__(self, game: Game, settings: DQNSettings | None = None, **params: Any) -> None:
        super().__init__(game, settings, **params)
        import torch

        self.torch = torch
        self.num_actions = game.num_actions
        self.planes = tuple(game.initial_state(0).encode(0).shape)
        self.inputs = int(np.prod(self.planes))
        weights = self.settings.weights
        self.trained_reward = "dqn"
        self.recorded_lookahead = 1
        self.recorded_symmetric = 0
        suffix, train = self.weights_suffix, self.train_args
        default = default_network(game)
        arch = self.settings.arch
        if arch and arch != default.get("arch", "seed"):  # not the default: its own file
            suffix = f"-{arch}{suffix}"
            train += f",arch={arch}" if "--params" in train else f" --params arch={arch}"
        if not self.settings.arch:
            for key, value in {"arch": "seed", **default}.items():
                setattr(self.settings, key, value)
        if weights.lower() == "none":
            torch.manual_seed(self.settings.seed)
            self.network = self._build()
        else:
            path = Path(weights) if weights else shipped_weights(
                game.name, self.weights_kind, suffix, train,
                cannot_train=None if game.learning_kit() else
                f"{game.name} declares no learning kit (Game.learning_kit)")
            self.network = self.load(path)
        self.network.eval()
        self.lookahead = (self.settings.lookahead if self.settings.lookahead >= 0
                          else self.recorded_lookahead)
        self.gamma = 0.99  # the training discount (seed 000), for the one-ply search
        self.reward = None
        kit = game.learning_kit()
        symmetric = (self.settings.symmetric if self.settings.symmetric >= 0
                     else self.recorded_symmetric)
        self.symmetries = declared_symmetries(game, "dqn symmetric=1") if symmetric else ()
        if self.lookahead and kit is not None:
            name = self.settings.reward or self.trained_reward
            self.reward = kit.reward(name, game).action

    def _build(self):
        s = self.settings
        return build_network(self.inputs, self.num_actions, s.hidden, s.dropout,
                             s.residual_blocks, s.dueling, self.planes,
                             s.conv_layers if s.arch == "conv" else 0, s.channels)

    # --- files ---------------------------------------------------------------------------------
    def save(self, path: str | os.PathLike[str], extra: dict[str, Any] | None = None) -> int:
        """Write the weights and the architecture; returns the bytes written."""
        payload = {"format": FORMAT, "version": VERSION, "game": self.game.name,
                   "inputs": self.inputs, "actions": self.num_actions,
                   "architecture": {k: getattr(self.settings, k) for k in ARCHITECTURE_FIELDS},
                   "reward": self.trained_reward,
                   "lookahead": getattr(self, "lookahead", 1),
                   "symmetric": int(bool(getattr(self, "symmetries", ()))),
                   "state_dict": self.network.state_dict(), **(extra or {})}
        return save_payload(path, payload)

    def load(self, path: Path):
        """Read a weights file into a new network, taking its architecture from the file."""
        payload = load_payload(path, FORMAT, self.game.name, "DQN weights")
        if payload.get("inputs") != self.inputs or payload.get("actions") != self.num_actions:
            raise BoardLabError(f"DQN weights {path} expect {payload.get('inputs')} inputs and "
                                f"{payload.get('actions')} actions; {self.game.name} has "
                                f"{self.inputs} and {self.num_actions}")
        self.trained_reward = str(payload.get("reward", "dqn"))
        self.recorded_lookahead = recorded_switch(payload, "lookahead", 1, path)
        self.recorded_symmetric = recorded_switch(payload, "symmetric", 0, path)
        try:  # everything below reads the file's fields: a bad one is the file's fault
            if "arch" not in payload["architecture"]:
                self.settings.arch = "seed"  # written before there was another network
            for key, value in payload["architecture"].items():
                if key in ARCHITECTURE_FIELDS:
                    setattr(self.settings, key, value)
            network = self._build()
            network.load_state_dict(payload["state_dict"])
        except (RuntimeError, KeyError, AttributeError, TypeError, ValueError) as error:
            raise BoardLabError(f"DQN weights {path} do not fit the network they describe: "
                                f"{type(error).__name__}: "
                                f"{(str(error).splitlines() or [''])[0]}") from None
        return network

    # --- playing -------------------------------------------------------------------------------
    def q_values(self, states: list[State], players: list[int]) -> np.ndarray:
        """Q-values (len(states) x actions) from each given player's side, in one batch
        (with `symmetric`, the mean over the board's symmetries of each view's Q-values, read
        at the view's image of each action)."""
        batch = np.stack([s.encode(p).reshape(-1) for s, p in zip(states, players)])
        if self.symmetries:
            batch = np.concatenate([batch[:, view.inputs] for view in self.symmetries])
        with self.torch.no_grad():
            q = self.network(self.torch.from_numpy(batch)).numpy()
        if not self.symmetries:
            return q
        per_view = q.reshape(len(self.symmetries), len(states), -1)
        return np.mean([q_view[:, view.where] for view, q_view in zip(self.symmetries, per_view)],
                       axis=0)

    def start_game(self, player: int, seed: int) -> None:
        super().start_game(player, seed)
        self.moves_played = 0

    def act(self, state: State, clock: Clock) -> int:
        self.moves_played = getattr(self, "moves_played", 0) + 1
        if self.moves_played <= self.settings.random_moves:
            self.last_view: State | None = None
            return self.rng.choice(state.legal_actions())
        self.last_view = state  # last_info() scores it again on demand (training never asks)
        with one_torch_thread():
            if self.lookahead:
                return self.search_one_ply(state)
            return self.choose(state, epsilon=0.0)

    def last_info(self) -> dict[str, Any]:
        """heat: the scores the last move was chosen by, from the network (its Q-values of the
        legal moves, or the one-ply search's scores with lookahead); pv: the move. Empty
        after a random opening move."""
        state = getattr(self, "last_view", None)
        if state is None or state.is_terminal():
            return {}
        legal = state.legal_actions()
        if self.lookahead:
            kind, scores = "one-ply score", self.one_ply_scores(state)
        else:
            kind, scores = "Q-value", self.q_values([state], [state.current_player()])[0][legal]
        best = legal[int(np.argmax(scores))]
        return {"value": float(np.max(scores)),
                "heat": {kind: {state.action_to_str(a): float(v) for a, v in zip(legal, scores)}},
                "pv": [state.action_to_str(best)]}

    def choose(self, state: State, epsilon: float) -> int:
        """Epsilon-greedy: a random action with probability epsilon (a random legal one when
        masked, any action when not), else the best by Q."""
        if epsilon > 0 and self.rng.random() < epsilon:
            if self.settings.masked:
                return self.rng.choice(state.legal_actions())
            return self.rng.randrange(self.num_actions)
        q = self.q_values([state], [state.current_player()])[0]
        if not self.settings.masked:
            return int(np.argmax(q))
        legal = state.legal_actions()
        return legal[int(np.argmax(q[legal]))]

    def search_one_ply(self, state: State) -> int:
        """The legal action with the best `one_ply_scores`."""
        legal = state.legal_actions()
        return legal[int(np.argmax(self.one_ply_scores(state)))]

    def one_ply_scores(self, state: State) -> np.ndarray:
        """Score each legal action a (in `legal_actions()` order) by E[r(s, a) + gamma V(s')]
        over its chance outcomes: r the game's `dqn` reward (Game.learning_kit) and
        V(s') = -max_b Q(s', b) from the opponent's side (0 at a terminal s', whose result r
        already holds)."""
        me = state.current_player()
        legal = state.legal_actions()
        leaves: list[tuple[int, float, State]] = []  # (action index, probability, state)
        scores = np.zeros(len(legal))
        for i, action in enumerate(legal):
            for p, leaf in outcomes_after(state, action):
                if self.reward is not None:
                    scores[i] += p * self.reward(state, action, leaf)
                elif leaf.is_terminal():
                    scores[i] += p * 10.0 * leaf.returns()[me]
                if not leaf.is_terminal():
                    leaves.append((i, p if leaf.current_player() != me else -p, leaf))
        if leaves:
            q = self.q_values([leaf for _, _, leaf in leaves],
                              [leaf.current_player() for _, _, leaf in leaves])
            for (i, p, leaf), row in zip(leaves, q):
                best = max(row[a] for a in leaf.legal_actions())
                scores[i] -= self.gamma * p * best
        return scores


@dataclass
class DuelingDQNSettings(DQNSettings):
    weights: str = ""
    """Weights file (.pt); empty = models/<game>-dueling-dqn.pt shipped in the package;
    `none` = a fresh network (for training)."""
    dueling: bool = True
    """Value + mean-subtracted advantage heads (seed 001's Dueling DQN); a weights file
    brings its own."""


@dataclass
class MiniMaxDuelingDQNSettings(DuelingDQNSettings):
    weights: str = ""
    """Weights file (.pt); empty = models/<game>-minimax-dueling-dqn.pt shipped in the
    package; `none` = a fresh network (for training)."""


class DuelingDQNAgent(DQNAgent):
    """Seed 001's Dueling DQN: the same agent, loading models/<game>-dueling-dqn.pt."""

    name = "dueling-dqn"
    Settings = DuelingDQNSettings
    weights_kind = "dueling-dqn"
    train_args = "dqn --params dueling=true"


class MiniMaxDuelingDQNAgent(DQNAgent):
    """Seed 001's MiniMax Dueling DQN: a dueling network trained on R(p_current) - R(p_next)
    and played with one ply of minimax (`lookahead=1`), models/<game>-minimax-dueling-dqn.pt."""

    name = "minimax-dueling-dqn"
    Settings = MiniMaxDuelingDQNSettings
    weights_kind = "minimax-dueling-dqn"
    train_args = "dqn --params dueling=true,reward=minimax,lookahead=1"
