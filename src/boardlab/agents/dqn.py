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
a match; in training it earns the invalid-action penalty). `lookahead=d` adds an expectimax
of d plies over the game's reward and the network (`lookahead_scores`): `lookahead=1` scores
each legal action a by E[r(s, a) - gamma max_b Q_opp(s', b)], the reward of the ply plus the
opponent's best Q after it negated; `lookahead=2` lets the opponent reply with its own one-ply
score first, and so on. Chance outcomes (a reveal) are averaged exactly with the game's
probabilities at every ply; see docs/learning.md for the figures. A weights file records its
trainer's `lookahead`, and the agent follows it unless the spec says otherwise (a game's rules
page says which of its shipped networks search). `DuelingDQNAgent` and
`MiniMaxDuelingDQNAgent` are the same agent with other default weights files
(models/<game>-dueling-dqn.pt, models/<game>-minimax-dueling-dqn.pt).

Weights files are `torch.save` dicts of tensors and plain values, read with
`torch.load(weights_only=True)`, so loading never runs code from the file.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from ..core.agent import Agent, Clock
from ..core.game import BoardLabError, Game, State
from ..core.learning import ALL_POSITIONS, declared_symmetries, kit_for
from ..core.weights import load_payload, one_torch_thread, save_payload, shipped_weights
from .evaluation import outcomes_after

FORMAT = "boardlab-dqn"
VERSION = 1


MAX_HIDDEN = 4096
MAX_RESIDUAL_BLOCKS = 64
"""Bounds on the network's size: far above anything trained here (128 wide, 2 blocks), far
below what would exhaust a laptop's memory."""
TIE = 1e-9
"""Scores this close are equal (the same reward sums, added in another order)."""

MAX_LOOKAHEAD = 4
"""The deepest search `lookahead` allows: the tree grows as (actions x chance outcomes) per
ply, so depth 2 from an opening of reveals may already score thousands of leaves
(docs/learning.md gives one game's figures)."""
MAX_ROOT_WEIGHT = 100.0
"""A bound on `root_weight` that catches a typo (the useful weights are well under 1)."""
LEAF_BATCH = 4096
"""Leaves scored per forward of the search (bounds its memory, not its result)."""

Outcome = tuple[float, float, float, "int | list[list[Outcome]] | None"]
"""One chance outcome in the search tree (`DQNAgent._expand`): its probability, the mover's
reward, +1 or -1 (the same side or the other to move next), and what follows: None at a
terminal state, a leaf's index, or the next decision's tree (one list of outcomes per
action)."""


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
    """Plies of expectimax over the reward and the network (see module doc; chance averaged
    exactly): 1 = the agent's move, 2 = the move and the opponent's reply, up to 4; 0 = the
    network alone; -1 (default) = what the weights file records (its trainer's `lookahead`),
    1 for a file that records nothing and for a fresh network."""
    leaf_weight: float = -1.0
    """The weight of the network's value at the search's leaves: with a potential-shaped
    reward the leaf then reads (1 - w) x the potential + w x the learnt value (AlphaGo's
    mixing of its value network with another evaluation); 1 = the network's alone, 0 = the
    potential's alone; -1 (default) = what the weights file records, 1 where it records none."""
    root_weight: float = -1.0
    """With `lookahead` >= 1, each legal move's search score plus this times the network's
    Q(s, a) at the root: the network chooses among the moves the search scores alike (a
    policy over the search's tactics) without its errors entering every leaf; 0 = the search
    alone; -1 (default) = what the weights file records, 0 where it records none."""
    domain: str = ""
    """With `lookahead` >= 1, read the network only at the search's leaves (and, with
    `root_weight`, at a root) inside this position domain of the game's learning kit
    (`LearningKit.domains`, such as one game's `endings`): a network taught there alone reads 0
    elsewhere, so the reward's potential alone scores those leaves; `all` = everywhere; empty
    (default) = what the weights file records, `all` where it records none. The network alone
    (`lookahead=0`) plays everywhere."""
    seed: int = 0
    """Seed of a fresh network's initial weights."""
    random_moves: int = 0
    """Play the first N own moves of each game uniformly at random (seeded per game), so that
    arena games between deterministic agents differ; 0 = never."""
    reward: str = ""
    """The game's reward function the one-ply search adds (Game.learning_kit); empty = the one
    the weights were trained with (recorded in the file), else `dqn`."""
    arch: str = ""
    """`mlp`: the fully connected network above (seed 000, seed 001's options; `seed`, its
    first name, is accepted too); `conv`: `conv_layers` 3x3 convolutions over the game's input
    planes first, weights shared across squares (not the seeds'), then the same fully
    connected layers and heads. Empty = the game's default network (its learning kit's
    `dqn_network`, else `mlp`). Naming an arch other than the default plays
    models/<game>-dqn-<arch>.pt where no weights are given."""
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
        self.arch = ARCHITECTURE_ALIASES.get(self.arch, self.arch)
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
        if not -1 <= self.lookahead <= MAX_LOOKAHEAD:
            raise ValueError(f"lookahead must be 0..{MAX_LOOKAHEAD}, or -1 (as the weights "
                             "file says)")
        if not (0 <= self.leaf_weight <= 1 or self.leaf_weight == -1):
            raise ValueError("leaf_weight must be in [0, 1], or -1 (as the weights file says)")
        if not (0 <= self.root_weight <= MAX_ROOT_WEIGHT or self.root_weight == -1):
            raise ValueError(f"root_weight must be in [0, {MAX_ROOT_WEIGHT}], or -1 (as the "
                             "weights file says)")
        if self.symmetric not in (-1, 0, 1):
            raise ValueError("symmetric must be 0, 1 or -1 (as the weights file says)")


ARCHITECTURES = ("mlp", "conv")
ARCHITECTURE_ALIASES = {"seed": "mlp"}
"""Earlier names of an arch, still accepted in specs and read from weights files."""
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


def zero_output_layers(network: Any) -> None:
    """Set the weights and biases of the layers that give Q (`head`, or dueling's `value` and
    `advantage`) to zero: every Q-value is then 0 until training moves them."""
    import torch

    with torch.no_grad():
        for name in ("head", "value", "advantage"):
            layer = getattr(network, name, None)
            if layer is not None:
                layer.weight.zero_()
                layer.bias.zero_()


def recorded_switch(payload: dict[str, Any], key: str, default: int, path: Path,
                    most: int = 1) -> int:
    """A play setting a weights file records as an integer 0..`most` (`default` where it
    records none)."""
    value = payload.get(key, default)
    if value not in range(most + 1) or isinstance(value, bool):
        expected = "0 or 1" if most == 1 else f"an integer 0..{most}"
        raise BoardLabError(f"DQN weights {path} record {key} {value!r}; expected {expected}")
    return int(value)


def recorded_weight(payload: dict[str, Any], key: str, default: float, most: float,
                    path: Path) -> float:
    """A play setting a weights file records as a number in [0, `most`] (`default` where it
    records none)."""
    value = payload.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= most:
        raise BoardLabError(f"DQN weights {path} record {key} {value!r}; expected a number "
                            f"in [0, {most:g}]")
    return float(value)


class DQNAgent(Agent):
    name = "dqn"
    Settings = DQNSettings
    weights_kind = "dqn"
    train_args = "dqn"
    """What follows `boardlab train GAME` to train such weights (named when they are missing)."""

    def __init__(self, game: Game, settings: DQNSettings | None = None, *,
                 network: Any = None, trained_reward: str = "dqn", **params: Any) -> None:
        """`network` and `trained_reward` are a trainer's (`from_network`); a spec gives
        neither, and the network comes from the weights file (or is built fresh)."""
        super().__init__(game, settings, **params)
        import torch

        self.torch = torch
        self.num_actions = game.num_actions
        self.planes = tuple(game.initial_state(0).encode(0).shape)
        self.inputs = int(np.prod(self.planes))
        weights = self.settings.weights
        self.trained_reward = trained_reward
        """The reward the network learnt from: recorded in its file, searched by `lookahead`."""
        self.recorded_lookahead = 1
        self.recorded_symmetric = 0
        self.recorded_leaf_weight = 1.0
        self.recorded_root_weight = 0.0
        self.recorded_domain = ALL_POSITIONS
        suffix, train = self.weights_suffix, self.train_args
        default = default_network(game)
        arch = self.settings.arch
        if arch and arch != default.get("arch", "mlp"):  # not the default: its own file
            suffix = f"-{arch}{suffix}"
            train += f",arch={arch}" if "--params" in train else f" --params arch={arch}"
        if not self.settings.arch:
            for key, value in {"arch": "mlp", **default}.items():
                setattr(self.settings, key, value)
        if network is not None:
            self.network = network
        elif weights.lower() == "none":
            torch.manual_seed(self.settings.seed)
            self.network = self.build()
        else:
            path = Path(weights) if weights else shipped_weights(
                game.name, self.weights_kind, suffix, train,
                cannot_train=None if game.learning_kit() else
                f"{game.name} declares no learning kit (Game.learning_kit)")
            self.network = self.load(path)
        if network is None:  # a trainer's network is in the mode its trainer sets
            self.network.eval()
        self.lookahead = (self.settings.lookahead if self.settings.lookahead >= 0
                          else self.recorded_lookahead)
        self.leaf_weight = (self.settings.leaf_weight if self.settings.leaf_weight >= 0
                            else self.recorded_leaf_weight)
        self.root_weight = (self.settings.root_weight if self.settings.root_weight >= 0
                            else self.recorded_root_weight)
        self.gamma = 0.99  # the training discount (seed 000), for the search
        self.reward = None
        kit = game.learning_kit()
        self.domain = self.settings.domain or self.recorded_domain
        self.in_domain = (kit_for(game).domain(self.domain, game)
                          if self.domain != ALL_POSITIONS else None)
        """The domain's test of a position; None: every position."""
        symmetric = (self.settings.symmetric if self.settings.symmetric >= 0
                     else self.recorded_symmetric)
        self.symmetries = declared_symmetries(game, "dqn symmetric=1") if symmetric else ()
        if self.lookahead and kit is not None:
            name = self.settings.reward or self.trained_reward
            self.reward = kit.reward(name, game).action

    @classmethod
    def from_network(cls, game: Game, settings: DQNSettings, network: Any,
                     trained_reward: str = "dqn", spec: str = "") -> "DQNAgent":
        """An agent playing `network` itself, not a copy (a trainer's: it sees every later
        update), a module of `settings`' architecture (`build`) that learnt from the game's
        reward `trained_reward`; it plays as the weights file the trainer exports would."""
        agent = cls(game, replace(settings, weights="none"), network=network,
                    trained_reward=trained_reward)
        agent.spec = spec or agent.spec
        return agent

    def build(self):
        """A new network of this agent's architecture, fresh weights (from torch's generator)."""
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
                   "leaf_weight": float(getattr(self, "leaf_weight", 1.0)),
                   "root_weight": float(getattr(self, "root_weight", 0.0)),
                   "domain": getattr(self, "domain", ALL_POSITIONS),
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
        self.recorded_lookahead = recorded_switch(payload, "lookahead", 1, path, MAX_LOOKAHEAD)
        self.recorded_symmetric = recorded_switch(payload, "symmetric", 0, path)
        self.recorded_leaf_weight = recorded_weight(payload, "leaf_weight", 1.0, 1.0, path)
        self.recorded_root_weight = recorded_weight(payload, "root_weight", 0.0,
                                                    MAX_ROOT_WEIGHT, path)
        self.recorded_domain = payload.get("domain", ALL_POSITIONS)
        if not isinstance(self.recorded_domain, str) or not self.recorded_domain:
            raise BoardLabError(f"DQN weights {path} record domain {self.recorded_domain!r}; "
                                "expected the name of a position domain")
        try:  # everything below reads the file's fields: a bad one is the file's fault
            if "arch" not in payload["architecture"]:
                self.settings.arch = "mlp"  # written before there was another network
            for key, value in payload["architecture"].items():
                if key in ARCHITECTURE_FIELDS:
                    setattr(self.settings, key, value)
            self.settings.arch = ARCHITECTURE_ALIASES.get(self.settings.arch, self.settings.arch)
            network = self.build()
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
        return self.q_values_of_inputs(
            self.game.encode_batch(states, players).reshape(len(states), -1))

    def q_values_of_inputs(self, batch: np.ndarray) -> np.ndarray:
        """`q_values` of positions already encoded (flat network inputs, one row each)."""
        count = len(batch)
        if self.symmetries:
            batch = np.concatenate([batch[:, view.inputs] for view in self.symmetries])
        with self.torch.no_grad():
            q = self.network(self.torch.from_numpy(batch)).numpy()
        if not self.symmetries:
            return q
        per_view = q.reshape(len(self.symmetries), count, -1)
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
                return self.search(state)
            return self.choose(state, epsilon=0.0)

    def last_info(self) -> dict[str, Any]:
        """heat: the scores the last move was chosen by, from the network (its Q-values of the
        legal moves, or the search's scores with lookahead); pv: the move. Empty after a
        random opening move."""
        state = getattr(self, "last_view", None)
        if state is None or state.is_terminal():
            return {}
        legal = state.legal_actions()
        if self.lookahead:
            with one_torch_thread():
                scores = self.root_scores(state)
            kind = "one-ply score" if self.lookahead == 1 else f"{self.lookahead}-ply score"
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

    def search(self, state: State) -> int:
        """The legal action with the best `lookahead_scores`, equal best ones drawn at random
        (seeded), as minimax does: always the first of equal moves walks a piece back and
        forth into the no-progress draw where the scores cannot tell the moves apart."""
        legal = state.legal_actions()
        scores = self.root_scores(state)
        best = np.flatnonzero(scores >= scores.max() - TIE)
        return legal[int(best[0]) if len(best) == 1 else self.rng.choice(best.tolist())]

    def root_scores(self, state: State) -> np.ndarray:
        """`lookahead_scores` plus `root_weight` x the network's Q-values of the legal moves."""
        scores = self.lookahead_scores(state)
        if self.root_weight and (self.in_domain is None or self.in_domain(state)):
            q = self.q_values([state], [state.current_player()])[0]
            scores = scores + self.root_weight * q[state.legal_actions()]
        return scores

    def lookahead_scores(self, state: State, depth: int = 0) -> np.ndarray:
        """Score each legal action a of `state` (in `legal_actions()` order) by an expectimax
        of `depth` plies (0: the agent's `lookahead`) over the reward and the network:

            score_d(s, a) = sum_o P(o) [r(s, a, s_o) + gamma v_(d-1)(s_o)]

        over the chance outcomes o of a (`outcomes_after`: the game's exact probabilities;
        one outcome of probability 1 where there is no chance), r the game's reward the
        network was trained with (Game.learning_kit; without a kit, +-10 at a result), and
        v seen from the side that played a, negated where the other side is to move in s_o:
        v_0(t) = max_b Q(t, b) (the network, legal b), v_k(t) = max_b score_k(t, b) (that
        side's own best reply), 0 at a terminal t (the reward holds the result). Depth 1 is
        the one-ply search; every leaf of the tree is scored in one batched forward."""
        leaves: list[State] = []
        tree = self._expand(state, depth or self.lookahead, leaves)
        return self._back_up(tree, self._leaf_values(leaves))

    def _expand(self, state: State, depth: int, leaves: list[State]) -> list[list[Outcome]]:
        """The search tree below `state`: for each legal action the outcomes it may have, each
        (probability, reward, sign, what follows): None at a terminal state, the index of a
        leaf in `leaves` at the last ply, else the subtree of the next decision."""
        me = state.current_player()
        tree = []
        for action in state.legal_actions():
            outcomes = []
            for p, after in outcomes_after(state, action):
                if self.reward is not None:
                    reward = self.reward(state, action, after)
                else:
                    reward = 10.0 * after.returns()[me] if after.is_terminal() else 0.0
                follows: int | list[list[Outcome]] | None = None
                if not after.is_terminal():
                    if depth > 1:
                        follows = self._expand(after, depth - 1, leaves)
                    else:
                        leaves.append(after)
                        follows = len(leaves) - 1
                sign = 1.0 if after.current_player() == me else -1.0
                outcomes.append((p, reward, sign, follows))
            tree.append(outcomes)
        return tree

    def _leaf_values(self, leaves: list[State]) -> np.ndarray:
        """`leaf_weight` x the max over legal b of Q(t, b) from the side to move in t, for each
        leaf t in the `domain`, 0 for the others (no forward at all at weight 0: the potential
        alone)."""
        values = np.zeros(len(leaves))
        if not self.leaf_weight:
            return values
        read = [i for i, leaf in enumerate(leaves)
                if self.in_domain is None or self.in_domain(leaf)]
        for start in range(0, len(read), LEAF_BATCH):
            chunk = [leaves[i] for i in read[start:start + LEAF_BATCH]]
            q = self.q_values(chunk, [leaf.current_player() for leaf in chunk])
            for i, leaf, row in zip(read[start:start + LEAF_BATCH], chunk, q):
                values[i] = row[leaf.legal_actions()].max()
        return self.leaf_weight * values

    def _back_up(self, tree: list[list[Outcome]], leaf_values: np.ndarray) -> np.ndarray:
        """The scores of a decision's actions from its subtree (`_expand`) and leaf values."""
        scores = np.zeros(len(tree))
        for i, outcomes in enumerate(tree):
            for p, reward, sign, follows in outcomes:
                if follows is None:
                    value = 0.0
                elif isinstance(follows, int):
                    value = float(leaf_values[follows])
                else:  # a decision of a game not over: it has a legal action
                    value = float(np.max(self._back_up(follows, leaf_values)))
                scores[i] += p * (reward + self.gamma * sign * value)
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
