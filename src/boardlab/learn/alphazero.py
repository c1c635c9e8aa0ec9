"""AlphaZero training: self-play with PUCT search, a replay buffer, training, and a gate.

One iteration:
1. self-play: `workers` processes each play `games_per_worker` games *in lockstep* (every
   game's tree takes one simulation step, then all their new leaves go through the network in
   one call: agents/alphazero.py `PUCTSearch.search_many`), with Dirichlet noise at the root
   and temperature 1 for the first `temperature_moves` decisions, 0 after;
2. every decision becomes a sample (planes, visit distribution, value target) in the buffer;
3. `train_steps` minibatches of the buffer train the candidate network (cross-entropy to the
   visit distribution + squared error of the value, Adam with weight decay);
4. the candidate plays the best network so far (`eval_games`, seats alternating, random
   openings so that games differ); it becomes the best if it scores at least `gate`.
Self-play always uses the best network.

Value targets (seed 003's credit assignment, `value_target=`):
- "result" (AlphaZero, the default): the game's result for the player to move;
- "search" (seed 003 scheme 1): the PUCT score u of the move played at the root, normalised to
  [0, 1] by the least and greatest u met at that root during the search, mapped to [-1, 1];
  the last decision of the game takes the result;
- "hindsight" (seed 003 scheme 2, after "Hindsight Experience Replay"): each sample's value is
  relabelled with a goal drawn from the same game: a later decision s_{t+k}, k >= 1 uniform;
  the value target is 1 if the goal is the very next decision (k = 1), else 0. The seed's
  code also replaces the policy target by the goal's; we keep the state's own visit
  distribution so that the schemes differ in the value head only.

Everything is written in `out_dir`: `weights.pt` (the best network, loadable by the
`alphazero` agent), `checkpoint.pt` (both networks, optimizer, iteration; a rerun resumes),
`buffer.npz`, `metrics.csv` and `curve.png`.
"""

from __future__ import annotations

import csv
import math
import multiprocessing
import os
import random
import time
from collections import deque
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any, Callable

import numpy as np

from ..agents.alphazero import (
    AlphaZeroAgent,
    NetworkEvaluator,
    Node,
    PUCTSearch,
    add_dirichlet_noise,
    choose_move,
    visit_policy,
)
from ..core.game import CHANCE, BoardLabError, Game, ParseError, State
from ..core.match import derive_seed
from ..core.registry import make_agent, make_game

VALUE_TARGETS = ("result", "search", "hindsight")


@dataclass
class AlphaZeroTraining:
    iterations: int = 20
    """Self-play / train / gate rounds (a rerun resumes and goes on to this many)."""
    minutes: float = 0.0
    """Stop after this many minutes of training (0 = no limit); the iteration in progress ends."""
    workers: int = 2
    """Self-play processes."""
    games_per_worker: int = 16
    """Games each self-play process plays at once, in lockstep (their leaves batched)."""
    sims: int = 64
    """Simulations per self-play move."""
    c_puct: float = 1.5
    dirichlet_alpha: float = 0.5
    noise_fraction: float = 0.25
    temperature_moves: int = 10
    """Decisions per game played with temperature 1 (the rest most visited)."""
    value_target: str = "result"
    """result, search (seed 003 scheme 1) or hindsight (scheme 2)."""
    buffer: int = 40000
    """Samples kept (the newest)."""
    batch: int = 128
    train_steps: int = 200
    """Minibatches per iteration."""
    lr: float = 1e-3
    weight_decay: float = 1e-4
    channels: int = 32
    blocks: int = 3
    eval_games: int = 20
    """Candidate against best at each gate; 0 = always keep the candidate."""
    eval_sims: int = 32
    gate: float = 0.55
    opening_plies: int = 4
    """Random plies that open each gate game, so that games differ."""
    seed: int = 0

    def __post_init__(self) -> None:
        if self.value_target not in VALUE_TARGETS:
            raise ParseError(f"value_target={self.value_target!r} is not one of "
                             f"{', '.join(VALUE_TARGETS)}")
        for name in ("iterations", "workers", "games_per_worker", "sims", "buffer", "batch",
                     "train_steps", "eval_sims", "channels"):
            if getattr(self, name) < 1:
                raise ParseError(f"{name}={getattr(self, name)} must be at least 1")
        if not 0 <= self.gate <= 1:
            raise ParseError(f"gate={self.gate} must be a score in [0, 1]")


@dataclass
class Sample:
    planes: np.ndarray
    policy: np.ndarray
    value: float


@dataclass
class SelfPlayStats:
    games: int = 0
    positions: int = 0
    seconds: float = 0.0
    network_calls: int = 0


def _new_network(game: Game, config: AlphaZeroTraining, weights: Any = None):
    agent = make_agent(f"alphazero:weights=none,channels={config.channels},"
                       f"blocks={config.blocks},seed={config.seed}", game)
    if weights is not None:
        agent.network.load_state_dict(weights)
    return agent


def _resolve_chance(state: State, rng: random.Random) -> None:
    while state.current_player() == CHANCE:
        outcomes = state.chance_outcomes()
        state.apply(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])


def self_play(game: Game, network: Any, config: AlphaZeroTraining, games: int, seed: int
              ) -> tuple[list[Sample], SelfPlayStats]:
    """Play `games` games at once with `network` and return their samples."""
    import torch

    rng = random.Random(seed)
    noise_rng = np.random.default_rng(seed)
    evaluate = NetworkEvaluator(network, torch)
    search = PUCTSearch(config.c_puct, rng)
    num_actions = game.num_actions
    started = time.perf_counter()
    states = []
    for i in range(games):
        state = game.initial_state(seed=derive_seed(seed, "selfplay", i))
        _resolve_chance(state, rng)
        states.append(state)
    # per game: (planes, policy, mover, u normalised) of each decision
    histories: list[list[tuple[np.ndarray, np.ndarray, int, float]]] = [[] for _ in states]
    samples: list[Sample] = []
    active = [i for i, s in enumerate(states) if not s.is_terminal()]

    def noise(node: Node) -> None:
        add_dirichlet_noise(node, config.dirichlet_alpha, config.noise_fraction, noise_rng)

    while active:
        roots = [Node(states[i], 1.0) for i in active]
        search.u_range.clear()
        search.search_many(roots, config.sims, evaluate, noise)
        for i, root in zip(active, roots):
            state = states[i]
            mover = state.current_player()
            decisions = len(histories[i])
            temperature = 1.0 if decisions < config.temperature_moves else 0.0
            move = choose_move(root, temperature, rng)
            histories[i].append((state.encode(mover), visit_policy(root, num_actions), mover,
                                 search.normalised_u(root, move)))
            state.apply(move)
            _resolve_chance(state, rng)
        active = [i for i in active if not states[i].is_terminal()]
    for state, history in zip(states, histories):
        samples.extend(_targets(history, state.returns(), config.value_target, rng))
    stats = SelfPlayStats(games, len(samples), time.perf_counter() - started, evaluate.calls)
    return samples, stats


def _targets(history: list[tuple[np.ndarray, np.ndarray, int, float]], returns: list[float],
             scheme: str, rng: random.Random) -> list[Sample]:
    """The samples of one finished game under a value-target scheme (module docstring)."""
    out = []
    last = len(history) - 1
    for t, (planes, policy, mover, u) in enumerate(history):
        if scheme == "result" or t == last:
            value = returns[mover]
        elif scheme == "search":
            value = 2.0 * u - 1.0
        else:  # hindsight: a goal k >= 1 decisions ahead; reached at once only when k = 1
            goal = rng.randint(t + 1, last + 1)
            value = 1.0 if goal == t + 1 else 0.0
        out.append(Sample(planes, policy, float(value)))
    return out


# --- self-play in worker processes -------------------------------------------------------------
_WORKER: dict[str, Any] = {}


def _init_worker(game_spec: str) -> None:
    import torch

    torch.set_num_threads(1)
    _WORKER["game"] = make_game(game_spec)


def _self_play_task(task: tuple[dict, dict, int, int]) -> tuple[list[Sample], SelfPlayStats]:
    config_dict, weights, games, seed = task
    game = _WORKER["game"]
    config = AlphaZeroTraining(**config_dict)
    agent = _new_network(game, config, weights)
    agent.network.eval()
    return self_play(game, agent.network, config, games, seed)


# --- evaluation ----------------------------------------------------------------------------
def play_networks(game: Game, first: Any, second: Any, games: int, sims: int, c_puct: float,
                  opening_plies: int, seed: int) -> float:
    """Score of `first` against `second` (draws half), seats alternating, all games in
    lockstep: each step, the trees of the games where one network is to move share a call."""
    import torch

    rng = random.Random(seed)
    evaluators = [NetworkEvaluator(first, torch), NetworkEvaluator(second, torch)]
    search = PUCTSearch(c_puct, rng)
    states, seats = [], []
    for i in range(games):
        state = game.initial_state(seed=derive_seed(seed, "gate", i))
        _resolve_chance(state, rng)
        for _ in range(opening_plies):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
            _resolve_chance(state, rng)
        states.append(state)
        seats.append(i % 2)  # the seat of `first`
    active = [i for i, s in enumerate(states) if not s.is_terminal()]
    while active:
        for side in (0, 1):  # 0: games where `first` moves
            movers = [i for i in active if not states[i].is_terminal()
                      and (states[i].current_player() == seats[i]) == (side == 0)]
            if not movers:
                continue
            roots = [Node(states[i], 1.0) for i in movers]
            search.search_many(roots, sims, evaluators[side])
            for i, root in zip(movers, roots):
                states[i].apply(choose_move(root, 0.0, rng))
                _resolve_chance(states[i], rng)
        active = [i for i in active if not states[i].is_terminal()]
    score = sum((s.returns()[seat] + 1) / 2 for s, seat in zip(states, seats))
    return score / games


# --- the loop --------------------------------------------------------------------------------
class AlphaZeroTrainer:
    """Owns the networks, the buffer and the files of one training run in `out_dir`."""

    def __init__(self, game_spec: str, out_dir: str | os.PathLike[str],
                 config: AlphaZeroTraining) -> None:
        import torch

        self.torch = torch
        torch.set_num_threads(1)
        self.game = make_game(game_spec)
        self.game_spec = self.game.spec
        self.config = config
        self.out = Path(out_dir)
        self.out.mkdir(parents=True, exist_ok=True)
        torch.manual_seed(config.seed)
        self.best = _new_network(self.game, config)
        self.candidate = _new_network(self.game, config, self.best.network.state_dict())
        self.optimizer = torch.optim.Adam(self.candidate.network.parameters(), lr=config.lr,
                                          weight_decay=config.weight_decay)
        self.buffer: deque[Sample] = deque(maxlen=config.buffer)
        self.iteration = 0
        self.seconds = 0.0
        self.rows: list[dict[str, Any]] = []
        self._resume()

    # --- files -------------------------------------------------------------------------------
    @property
    def checkpoint_path(self) -> Path:
        return self.out / "checkpoint.pt"

    def _resume(self) -> None:
        from ..agents.dqn import load_payload

        path = self.checkpoint_path
        if not path.exists():
            return
        payload = load_payload(path, "boardlab-alphazero-checkpoint", self.game.name,
                               "AlphaZero checkpoint")
        saved = payload.get("config", {})
        for name in ("channels", "blocks"):
            if saved.get(name) != getattr(self.config, name):
                raise BoardLabError(f"checkpoint {path} has {name}={saved.get(name)}, this run "
                                    f"asks for {getattr(self.config, name)}: use another --out")
        self.best.network.load_state_dict(payload["best"])
        self.candidate.network.load_state_dict(payload["candidate"])
        self.optimizer.load_state_dict(payload["optimizer"])
        self.iteration = int(payload["iteration"])
        self.seconds = float(payload["seconds"])
        buffer_path = self.out / "buffer.npz"
        if buffer_path.exists():
            with np.load(buffer_path) as data:
                for planes, policy, value in zip(data["planes"], data["policy"], data["value"]):
                    self.buffer.append(Sample(planes, policy, float(value)))
        if (self.out / "metrics.csv").exists():
            with open(self.out / "metrics.csv", newline="") as handle:
                self.rows = list(csv.DictReader(handle))

    def _save(self) -> None:
        torch = self.torch
        if self.buffer:
            tmp = self.out / "buffer.tmp.npz"
            np.savez_compressed(tmp, planes=np.stack([s.planes for s in self.buffer]),
                                policy=np.stack([s.policy for s in self.buffer]),
                                value=np.array([s.value for s in self.buffer], np.float32))
            os.replace(tmp, self.out / "buffer.npz")
        payload = {"format": "boardlab-alphazero-checkpoint", "game": self.game.name,
                   "config": asdict(self.config), "iteration": self.iteration,
                   "seconds": self.seconds, "best": self.best.network.state_dict(),
                   "candidate": self.candidate.network.state_dict(),
                   "optimizer": self.optimizer.state_dict()}
        tmp = self.checkpoint_path.with_name("checkpoint.tmp.pt")
        torch.save(payload, tmp)
        os.replace(tmp, self.checkpoint_path)
        self.best.save(self.out / "weights.pt", {"iterations": self.iteration,
                                                 "value_target": self.config.value_target})
        self._write_metrics()

    def _write_metrics(self) -> None:
        if not self.rows:
            return
        with open(self.out / "metrics.csv", "w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(self.rows[0]))
            writer.writeheader()
            writer.writerows(self.rows)
        _plot(self.rows, self.out / "curve.png", self.game_spec)

    # --- one iteration -----------------------------------------------------------------------
    def self_play(self) -> SelfPlayStats:
        config = self.config
        weights = {k: v.clone() for k, v in self.best.network.state_dict().items()}
        tasks = [(asdict(config), weights, config.games_per_worker,
                  derive_seed(config.seed, "iteration", self.iteration, w))
                 for w in range(config.workers)]
        started = time.perf_counter()
        if config.workers == 1:
            _init_worker(self.game_spec)
            results = [_self_play_task(tasks[0])]
        else:
            context = multiprocessing.get_context("spawn")
            with context.Pool(config.workers, initializer=_init_worker,
                              initargs=(self.game_spec,)) as pool:
                results = pool.map(_self_play_task, tasks)
        total = SelfPlayStats()
        for samples, stats in results:
            self.buffer.extend(samples)
            total.games += stats.games
            total.positions += stats.positions
            total.network_calls += stats.network_calls
        total.seconds = time.perf_counter() - started
        return total

    def train(self) -> tuple[float, float]:
        """`train_steps` minibatches; the mean policy and value losses."""
        torch = self.torch
        config = self.config
        network = self.candidate.network
        network.train()
        rng = np.random.default_rng(derive_seed(config.seed, "train", self.iteration))
        policy_losses, value_losses = [], []
        samples = list(self.buffer)
        for _ in range(config.train_steps):
            picks = rng.integers(0, len(samples), size=min(config.batch, len(samples)))
            planes = torch.from_numpy(np.stack([samples[i].planes for i in picks]))
            target_policy = torch.from_numpy(np.stack([samples[i].policy for i in picks]))
            target_value = torch.tensor([samples[i].value for i in picks], dtype=torch.float32)
            logits, value = network(planes.float())
            policy_loss = -(target_policy * torch.log_softmax(logits, dim=1)).sum(1).mean()
            value_loss = ((value - target_value) ** 2).mean()
            self.optimizer.zero_grad()
            (policy_loss + value_loss).backward()
            self.optimizer.step()
            policy_losses.append(policy_loss.item())
            value_losses.append(value_loss.item())
        network.eval()
        return float(np.mean(policy_losses)), float(np.mean(value_losses))

    def gate(self) -> tuple[float, bool]:
        config = self.config
        if config.eval_games == 0:
            score = math.nan
            keep = True
        else:
            score = play_networks(self.game, self.candidate.network, self.best.network,
                                  config.eval_games, config.eval_sims, config.c_puct,
                                  config.opening_plies,
                                  derive_seed(config.seed, "gate", self.iteration))
            keep = score >= config.gate
        if keep:
            self.best.network.load_state_dict(self.candidate.network.state_dict())
        return score, keep

    def run(self, on_iteration: Callable[[dict[str, Any]], None] | None = None
            ) -> list[dict[str, Any]]:
        config = self.config
        deadline = time.perf_counter() + config.minutes * 60 if config.minutes > 0 else math.inf
        while self.iteration < config.iterations and time.perf_counter() < deadline:
            started = time.perf_counter()
            stats = self.self_play()
            policy_loss, value_loss = self.train()
            score, kept = self.gate()
            self.iteration += 1
            self.seconds += time.perf_counter() - started
            row = {"iteration": self.iteration, "games": stats.games,
                   "positions": stats.positions, "buffer": len(self.buffer),
                   "policy_loss": round(policy_loss, 5), "value_loss": round(value_loss, 5),
                   "gate_score": round(score, 4), "kept": int(kept),
                   "selfplay_positions_per_s": round(stats.positions / stats.seconds, 2),
                   "leaves_per_call": round(stats.positions * config.sims
                                            / max(stats.network_calls, 1), 2),
                   "seconds": round(self.seconds, 1)}
            self.rows.append(row)
            self._save()
            if on_iteration is not None:
                on_iteration(row)
        return self.rows


def measure_batching(game_spec: str, weights: Any, config: AlphaZeroTraining, games: int = 8,
                     seed: int = 0) -> dict[str, float]:
    """Self-play positions per second with all `games` in lockstep (one network call for
    their leaves) against the same games played one at a time, in the same process."""
    import torch

    torch.set_num_threads(1)
    game = make_game(game_spec)
    network = _new_network(game, config, weights).network
    network.eval()
    started = time.perf_counter()
    together, _ = self_play(game, network, config, games, seed)
    batched = len(together) / (time.perf_counter() - started)
    started = time.perf_counter()
    alone = []
    for i in range(games):
        samples, _ = self_play(game, network, config, 1, derive_seed(seed, "alone", i))
        alone.extend(samples)
    single = len(alone) / (time.perf_counter() - started)
    return {"batched_positions_per_s": batched, "single_positions_per_s": single,
            "gain": batched / single}


def _plot(rows: list[dict[str, Any]], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x = [int(r["iteration"]) for r in rows]
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    left.plot(x, [float(r["policy_loss"]) for r in rows], label="policy loss")
    left.plot(x, [float(r["value_loss"]) for r in rows], label="value loss")
    left.set_xlabel("iteration")
    left.legend()
    right.plot(x, [float(r["gate_score"]) for r in rows], "o-", label="candidate vs best")
    if "vs_mcts" in rows[0]:
        right.plot(x, [float(r["vs_mcts"]) for r in rows], "s-", label="vs mcts")
    right.axhline(0.5, color="grey", lw=0.5)
    right.set_ylim(0, 1)
    right.set_xlabel("iteration")
    right.legend()
    fig.suptitle(f"AlphaZero on {title}")
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    plt.close(fig)


def training_fields() -> list[str]:
    return [f.name for f in fields(AlphaZeroTraining)]


def train_command(game_spec: str, out: str, params: str, seed: int, progress: bool = True,
                  measure: bool = True) -> int:
    """`boardlab train GAME alphazero --out DIR --params k=v,...`: run (or resume) a training
    run, print a line per iteration, then throughput and the batching gain measured now."""
    from rich.console import Console

    from ..core.registry import build_settings, split_params

    console = Console()
    given = split_params(params, "train alphazero --params")
    known = set(training_fields())
    unknown = set(given) - known
    if unknown:
        raise ParseError(f"train alphazero --params: unknown {', '.join(sorted(unknown))}; it "
                         f"takes: {', '.join(sorted(known))}")
    given.setdefault("seed", str(seed))
    config = build_settings(AlphaZeroTraining, given, "alphazero training")
    out_dir = Path(out)
    if out_dir.suffix:
        raise ParseError(f"--out {out} names a file; alphazero writes a directory "
                         f"(weights.pt, checkpoint.pt, metrics.csv, curve.png in it)")
    trainer = AlphaZeroTrainer(game_spec, out_dir, config)
    if trainer.iteration:
        console.print(f"resumed at iteration {trainer.iteration} ({trainer.checkpoint_path})",
                      soft_wrap=True)

    def show(row: dict[str, Any]) -> None:
        if progress:
            console.print(f"iteration {row['iteration']}: {row['positions']} positions "
                          f"({row['selfplay_positions_per_s']}/s), policy loss "
                          f"{row['policy_loss']}, value loss {row['value_loss']}, gate "
                          f"{row['gate_score']} ({'kept' if row['kept'] else 'dropped'}), "
                          f"{row['seconds']}s", highlight=False, soft_wrap=True)

    rows = trainer.run(show)
    if not rows:
        console.print("nothing trained (iterations reached); raise iterations= to continue")
        return 0
    positions = sum(int(r["positions"]) for r in rows)
    console.print(f"weights {out_dir / 'weights.pt'}; metrics {out_dir / 'metrics.csv'}; curve "
                  f"{out_dir / 'curve.png'}", highlight=False, soft_wrap=True)
    console.print(f"throughput: {positions} self-play positions in {trainer.seconds:.0f}s of "
                  f"training ({positions / max(trainer.seconds, 1e-9):.1f} positions/s over "
                  f"the whole loop, {config.workers} workers)", highlight=False, soft_wrap=True)
    if measure:
        gain = measure_batching(game_spec, trainer.best.network.state_dict(), config,
                                games=min(8, config.games_per_worker), seed=config.seed)
        console.print(f"batching: {gain['batched_positions_per_s']:.1f} positions/s with "
                      f"{min(8, config.games_per_worker)} games' leaves in one call, "
                      f"{gain['single_positions_per_s']:.1f} one game at a time: "
                      f"{gain['gain']:.2f}x (one process, measured now)", highlight=False,
                      soft_wrap=True)
    return 0
