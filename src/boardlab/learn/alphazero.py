"""AlphaZero training (Silver et al. 2018) on the training protocol (learn/protocol.py), with
AlphaGo Zero's gate (Silver et al. 2017: a candidate replaces the best network only when it
beats it; AlphaZero dropped the gate, and `eval_games=0` does too).

One iteration (one unit of `train_until`; `boardlab train GAME alphazero --episodes N` runs N):
1. self-play: `workers` processes (or Ray actors) each play `games_per_worker` games *in
   lockstep*: every game's tree takes one simulation step, then all their new leaves go
   through the network in one call (learn/puct.py `ArrayForest`, its leaves made inside
   numba where the game declares array rules, or agents/alphazero.py `PUCTSearch` with
   `search=nodes`, the reference kept for comparison and for games with chance nodes), with
   Dirichlet noise at the root and temperature 1 for the first `temperature_moves`
   decisions, 0 after; with `reuse` (search=arrays) the subtree under the move played stays
   as the next root's tree (Leela Zero's and KataGo's tree reuse), its root gets fresh
   noise, and the search stops when the root has `sims` visits in all, so only the missing
   visits cost network evaluations;
2. every decision becomes a sample (planes, visit distribution, value target) in the buffer;
3. `train_steps` minibatches of the buffer train the candidate network (cross-entropy to the
   visit distribution + squared error of the value, Adam with weight decay);
4. the gate: the candidate plays the best network so far (`eval_games`, seats alternating,
   random openings so that games differ); it becomes the best if it scores at least `gate`.
Self-play always uses the best network, and the best network is what the protocol exports
and evaluates against random and greedy.

Value targets (seed 003's credit assignment, `value_target=`: result, search, search_root,
hindsight) are computed once a game is over; learn/value_targets.py defines them.

A supervised start (`teacher=DIR`, a dataset of `boardlab teach`, learn/teacher.py): iteration 1
trains the network on the teacher's labelled positions (`distill_steps` minibatches,
learn/distill.py) instead of playing, and reports its losses on held-out teacher games;
self-play continues from that network. `teacher_share` keeps a share of teacher positions in
every later minibatch (Expert Iteration's apprentice keeps learning from the expert).

Files (the protocol's, for `--out PATH`): PATH the best network (loadable by the `alphazero`
agent), PATH.ckpt (both networks, optimizer, buffer, counters), PATH.metrics.csv; the command
line draws PATH.curve.png.
"""

from __future__ import annotations

import io
import json
import math
import multiprocessing
import random
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable, ClassVar

import numpy as np

from ..agents.alphazero import (ARCHITECTURE_FIELDS, AlphaZeroAgent, NetworkEvaluator, Node,
                                PUCTSearch, SeatFrame)
from ..core.agent import Agent
from ..core.game import CHANCE, BoardLabError, Game, ParseError, State
from ..core.match import derive_seed, sample_chance
from ..core.registry import make_game
from .protocol import Trainer, unfit_checkpoint
from .puct import ArrayForest, RootResult, on_planes, pick_move, result_of, traced_for_inference
from .value_targets import VALUE_TARGETS, Decision, value_targets

SEARCHES = ("arrays", "nodes")


@dataclass
class AlphaZeroTraining:
    minutes: float = 0.0
    """Stop after this many minutes of this invocation (0 = no limit); the iteration in
    progress ends and is checkpointed first."""
    workers: int = 2
    """Self-play processes (or Ray actors)."""
    games_per_worker: int = 32
    """Games each worker plays at once, in lockstep (their leaves share each network call)."""
    sims: int = 64
    """Simulations per self-play move."""
    search: str = "arrays"
    """Self-play search: arrays (learn/puct.py, compiled) or nodes (agents/alphazero.py's
    reference PUCTSearch, as before; games with chance nodes always use it)."""
    rules: str = "arrays"
    """Leaves of search=arrays: arrays (the game's rules compiled over arrays, inside the
    search's numba calls, where the game declares them: `Game.array_rules`) or state (its
    State in Python at every leaf, as before)."""
    reuse: bool = True
    """search=arrays: keep the subtree under the move played as the next root's tree and
    search until the root has `sims` visits in all (false: a fresh tree every move)."""
    inference: str = "float32"
    """Self-play network arithmetic with search=arrays: float32, or bfloat16 (faster on CPUs
    with bfloat16 units, e.g. AVX512-BF16; outputs within ~5e-4)."""
    backend: str = "local"
    """Where self-play workers run: local processes, or ray (actors on a Ray cluster:
    RAY_ADDRESS if set, else a local one)."""
    c_puct: float = 1.5
    dirichlet_alpha: float = 0.5
    noise_fraction: float = 0.25
    temperature_moves: int = 10
    """Decisions per game played with temperature 1 (the rest most visited)."""
    value_target: str = "result"
    """result, search (seed 003 scheme 1), search_root (our first reading of it) or
    hindsight (scheme 2)."""
    search_discount: float = 0.97
    """g of value_target=search: how fast later steps' u fade against the result."""
    buffer: int = 40000
    """Samples kept (the newest)."""
    batch: int = 128
    train_steps: int = 200
    """Minibatches per iteration."""
    lr: float = 1e-3
    weight_decay: float = 1e-4
    init: str = ""
    """Weights file (.pt) both networks start from instead of a fresh one (e.g. to compare
    value targets from the same start); its architecture is used."""
    eval_games: int = 20
    """Candidate against best at each gate; 0 = always keep the candidate."""
    eval_sims: int = 32
    """Simulations per move at the gate and in the protocol's evaluation games."""
    gate: float = 0.55
    opening_plies: int = 4
    """Random plies that open each gate game, so that games differ."""
    teacher: str = ""
    """A teacher dataset folder (`boardlab teach`): iteration 1 trains on it instead of
    self-play (a supervised start), and self-play continues from there."""
    distill_steps: int = 2000
    """Minibatches of teacher positions in that first iteration."""
    teacher_result_weight: float = 0.5
    """Value target of a teacher position: this share the game's result, the rest the
    search's score squashed to [-1, 1] (learn/teacher.py)."""
    teacher_value_weight: float = 0.25
    """Weight of the value loss while learning the teacher (small: the positions of one game
    share its result, and a large weight memorises the games)."""
    teacher_share: float = 0.0
    """Share of each self-play minibatch drawn from the teacher's positions."""
    teacher_scale: float = 0.0
    """Score units per tanh unit of the teacher's value targets (0 = fitted to the results)."""
    max_moves: int = 0
    """Decisions a self-play game may last (0 = until its rules end it); a game cut there is
    adjudicated by the game's heuristic (learn/game_end.py)."""
    adjudicate_scale: float = 0.0
    """Heuristic units per tanh unit when adjudicating (0 = the teacher's fitted scale, and
    a capped game is a draw without a teacher)."""
    resign: float = -1.0
    """A self-play mover whose root value is below this resigns (-1: never)."""
    never_resign: float = 0.2
    """Share of self-play games played out whatever the values, to count false resignations."""

    def __post_init__(self) -> None:
        if self.value_target not in VALUE_TARGETS:
            raise ParseError(f"value_target={self.value_target!r} is not one of "
                             f"{', '.join(VALUE_TARGETS)}")
        if self.search not in SEARCHES:
            raise ParseError(f"search={self.search!r} is not one of {', '.join(SEARCHES)}")
        if self.rules not in ("arrays", "state"):
            raise ParseError(f"rules={self.rules!r} is not arrays or state")
        if self.inference not in ("float32", "bfloat16"):
            raise ParseError(f"inference={self.inference!r} is not float32 or bfloat16")
        if self.backend not in ("local", "ray"):
            raise ParseError(f"backend={self.backend!r} is not local or ray")
        for name in ("workers", "games_per_worker", "sims", "buffer", "batch", "train_steps",
                     "eval_sims"):
            if getattr(self, name) < 1:
                raise ParseError(f"{name}={getattr(self, name)} must be at least 1")
        if not 0 <= self.gate <= 1:
            raise ParseError(f"gate={self.gate} must be a score in [0, 1]")
        if not 0 <= self.search_discount <= 1:
            raise ParseError(f"search_discount={self.search_discount} must be in [0, 1]")
        for name in ("teacher_result_weight", "teacher_share"):
            if not 0 <= getattr(self, name) <= 1:
                raise ParseError(f"{name}={getattr(self, name)} must be in [0, 1]")
        if self.teacher_share > 0 and not self.teacher:
            raise ParseError("teacher_share needs teacher=<dataset folder>")
        if self.distill_steps < 0 or self.teacher_value_weight < 0 or self.teacher_scale < 0:
            raise ParseError("distill_steps, teacher_value_weight and teacher_scale must not "
                             "be negative")
        if self.max_moves < 0 or self.adjudicate_scale < 0:
            raise ParseError("max_moves and adjudicate_scale must not be negative")
        if not 0 <= self.never_resign <= 1:
            raise ParseError(f"never_resign={self.never_resign} must be in [0, 1]")


@dataclass
class Samples:
    """Training samples as arrays: planes (n, *shape), policy (n, actions), value (n,)."""

    planes: np.ndarray
    policy: np.ndarray
    value: np.ndarray

    def __len__(self) -> int:
        return len(self.value)


@dataclass
class SelfPlayStats:
    games: int = 0
    positions: int = 0
    seconds: float = 0.0
    network_calls: int = 0
    leaves: int = 0
    """Positions the network evaluated."""
    reused: int = 0
    """Root visits found already made by tree reuse (of positions x sims)."""
    resigned: int = 0
    adjudicated: int = 0
    """Games cut at `max_moves` and scored by the heuristic."""
    would_resign: int = 0
    """Players that would have resigned in the games played out (never_resign)."""
    false_resignations: int = 0
    """Those of them who did not lose."""

    def add(self, other: "SelfPlayStats") -> None:
        for name in ("games", "positions", "network_calls", "leaves", "reused", "resigned",
                     "adjudicated", "would_resign", "false_resignations"):
            setattr(self, name, getattr(self, name) + getattr(other, name))


# --- self-play -----------------------------------------------------------------------------------
Noise = Callable[[np.ndarray], np.ndarray]
Search = Callable[[list[State], int, NetworkEvaluator, "Noise | None"], list[RootResult]]


def array_forest(game: Game, c_puct: float, kind: str, rules: str = "arrays"
                 ) -> ArrayForest | None:
    """The compiled array forest for `kind` arrays, its leaves made by the game's array rules
    where it declares them (and `rules` is arrays) or by its States; None where the reference
    Node search plays (`kind` nodes, and always for games with chance nodes)."""
    if kind != "arrays" or game.facts.has_chance:
        return None
    return ArrayForest(c_puct, rules=game.array_rules() if rules == "arrays" else None)


def searcher(game: Game, c_puct: float, kind: str, rng: random.Random, rules: str = "arrays",
             forest: ArrayForest | None = None) -> Search:
    """`search(states, sims, evaluate, noise)` -> a RootResult per state: `forest` (or a new
    `array_forest`), or the reference Node search where there is none."""
    forest = forest or array_forest(game, c_puct, kind, rules)
    if forest is not None:
        array_search = forest

        def search_arrays(states: list[State], sims: int, evaluate: NetworkEvaluator,
                          noise: Noise | None = None) -> list[RootResult]:
            return array_search.search(states, sims, on_planes(evaluate), noise)
        return search_arrays
    reference = PUCTSearch(c_puct, rng)

    def search(states: list[State], sims: int, evaluate: NetworkEvaluator,
               noise: Noise | None = None) -> list[RootResult]:
        roots = [Node(state, 1.0) for state in states]

        def noisy(root: Node) -> None:
            if noise is not None and root.priors is not None:
                root.priors = dict(zip(root.priors, noise(np.array(list(root.priors.values())))))
        reference.search_many(roots, sims, evaluate, noisy)
        return [result_of(reference, root) for root in roots]
    return search


def dirichlet(alpha: float, fraction: float, rng: np.random.Generator) -> Noise:
    """Root priors mixed with Dir(alpha) noise (AlphaZero's exploration in self-play)."""
    def noise(priors: np.ndarray) -> np.ndarray:
        if len(priors) < 2 or alpha <= 0:
            return priors
        return (1 - fraction) * priors + fraction * rng.dirichlet([alpha] * len(priors))
    return noise


def resolve_chance(state: State, rng: random.Random) -> None:
    """Play chance outcomes until a player is to move (the match runner's sampling)."""
    while state.current_player() == CHANCE:
        state.apply(sample_chance(state, rng))


def self_play(game: Game, network: Any, config: AlphaZeroTraining, games: int, seed: int,
              openings: int = 0, moves: int = 0, frame: SeatFrame | None = None
              ) -> tuple[Samples, SelfPlayStats]:
    """Play `games` games at once with `network` and return their samples (policies in
    `frame`'s seat ids where the network names moves so: `AlphaZeroAgent.frame`).

    For `boardlab bench` (positions from the whole game, batches of a fixed size): each game
    may open with up to `openings` seeded random plies (a game they end is not played), and
    `moves` > 0 stops after that many decisions per game, a cut game's samples taking the
    targets of a draw."""
    import torch

    from ..agents.evaluation import pick_evaluator
    from .game_end import ResignWatch, adjudicated_returns, resigned_returns

    rng = random.Random(seed)
    heuristic = pick_evaluator(game, "", "minimax")[1] if config.max_moves else None
    if config.search == "arrays" and not isinstance(network, torch.jit.ScriptModule):
        network = traced_for_inference(network, game_input_shape(game),
                                       config.inference == "bfloat16")
    evaluate = NetworkEvaluator(network, torch, frame)
    forest = array_forest(game, config.c_puct, config.search, config.rules)
    search = searcher(game, config.c_puct, config.search, rng, config.rules, forest)
    noise = dirichlet(config.dirichlet_alpha, config.noise_fraction,
                      np.random.default_rng(seed))
    started = time.perf_counter()
    states = []
    for i in range(games):
        state = game.initial_state(seed=derive_seed(seed, "selfplay", i))
        resolve_chance(state, rng)
        for _ in range(rng.randint(0, openings) if openings else 0):
            if state.is_terminal():  # plain random plies: cheap, unlike random_opening's
                break                # look-ahead, which would dominate a timed batch
            state.apply(rng.choice(state.legal_actions()))
            resolve_chance(state, rng)
        states.append(state)
    histories: list[list[Decision]] = [[] for _ in states]
    resigning = config.resign > -1  # only then a draw: seeded runs without it stay the same
    watches = [ResignWatch(config.resign, resigning and rng.random() >= config.never_resign)
               for _ in states]
    ended: dict[int, list[float]] = {}
    """Games ended before their rules ended them: by resignation or at the move cap."""
    tally = SelfPlayStats()
    active = [i for i, s in enumerate(states) if not s.is_terminal()]
    while active:
        playing = [states[i] for i in active]
        results = search(playing, config.sims, evaluate, noise)
        movers = [state.current_player() for state in playing]
        planes = game.encode_batch(playing, movers)
        played = []
        for k, (i, result) in enumerate(zip(active, results)):
            made = len(histories[i])
            temperature = 1.0 if made < config.temperature_moves else 0.0
            index = pick_move(result, temperature, rng)
            policy = np.zeros(game.num_actions, dtype=np.float32)
            policy[result.actions] = result.visits / max(result.visits.sum(), 1)
            if frame is not None:
                policy = frame.to_seat(policy[None], movers[k:k + 1])[0]
            histories[i].append(Decision(planes[k], policy, movers[k],
                                         result.normalised(index, whole_tree=True),
                                         result.normalised(index, whole_tree=False)))
            played.append(int(result.actions[index]))
            if watches[i].resigns(movers[k], result.value):
                ended[i] = resigned_returns(movers[k], game.num_players)
                tally.resigned += 1
                continue
            states[i].apply(played[-1])
            resolve_chance(states[i], rng)
            if 0 < config.max_moves <= len(histories[i]) and not states[i].is_terminal():
                scale = config.adjudicate_scale
                ended[i] = (adjudicated_returns(states[i], heuristic, scale, game.num_players)
                            if scale > 0 and heuristic is not None
                            else [0.0] * game.num_players)
                tally.adjudicated += 1
        going = [k for k, i in enumerate(active) if not states[i].is_terminal()
                 and i not in ended and not 0 < moves <= len(histories[i])]
        if forest is not None and config.reuse and going:
            forest.keep(going, [played[k] for k in going])
        active = [active[k] for k in going]
    finals = [ended.get(i) or list(state.returns()) for i, state in enumerate(states)]
    for watch, final in zip(watches, finals):
        would, false = watch.false_resignations(final)
        tally.would_resign += would
        tally.false_resignations += false
    values = [value_targets(history, final, config.value_target, config.search_discount, rng)
              for final, history in zip(finals, histories)]
    decisions = [d for history in histories for d in history]
    if not decisions:  # every game was over before it began
        return Samples(np.zeros((0, *game_input_shape(game)), np.float32),
                       np.zeros((0, game.num_actions), np.float32), np.zeros(0, np.float32)), \
            SelfPlayStats(games, 0, time.perf_counter() - started)
    samples = Samples(np.stack([d.planes for d in decisions]),
                      np.stack([d.policy for d in decisions]),
                      np.concatenate(values).astype(np.float32))
    stats = SelfPlayStats(games, len(decisions), time.perf_counter() - started, evaluate.calls,
                          evaluate.positions, forest.reused if forest is not None else 0)
    stats.add(tally)  # the ends of games: resignations, adjudications
    return samples, stats


def game_input_shape(game: Game) -> tuple[int, ...]:
    """The shape of the game's network input (its first decision's planes)."""
    state = game.initial_state(0)
    resolve_chance(state, random.Random(0))
    return tuple(state.encode(max(state.current_player(), 0)).shape)


# --- self-play workers: processes or Ray actors --------------------------------------------------
class SelfPlayWorker:
    """Plays self-play tasks for the trainer: a process of a pool, or a Ray actor."""

    def __init__(self, game_spec: str, architecture: dict[str, Any]) -> None:
        import torch

        torch.set_num_threads(1)  # one worker per core
        self.game = make_game(game_spec)
        self.agent = AlphaZeroAgent(self.game, weights="none", **architecture)
        self.traced: Any = None
        self.inference = ""
        """The network compiled for inference, kept while the weights stay the same."""

    def play(self, config: dict[str, Any], weights: dict, games: int, seed: int,
             openings: int = 0, moves: int = 0) -> tuple[Samples, SelfPlayStats]:
        import torch

        network = self.agent.network
        loaded = network.state_dict()
        settings = AlphaZeroTraining(**config)
        if (self.traced is None or self.inference != settings.inference
                or any(not torch.equal(loaded[k], v) for k, v in weights.items())):
            network.load_state_dict(weights)
            self.inference = settings.inference
            self.traced = traced_for_inference(network, self.agent.shape,
                                               self.inference == "bfloat16")
        return self_play(self.game, self.traced if settings.search == "arrays" else network,
                         settings, games, seed, openings, moves, self.agent.frame)


_WORKER: dict[str, SelfPlayWorker] = {}


def _start_process(game_spec: str, architecture: dict[str, Any]) -> None:
    _WORKER["worker"] = SelfPlayWorker(game_spec, architecture)


def _play_in_process(task: tuple) -> tuple[Samples, SelfPlayStats]:
    return _WORKER["worker"].play(*task)


class Workers:
    """`workers` self-play workers kept for the whole run (numba and torch load once)."""

    def __init__(self, game_spec: str, architecture: dict[str, Any], config: AlphaZeroTraining
                 ) -> None:
        self.count, self.backend = config.workers, config.backend
        self.pool: Any = None
        self.actors: list[Any] = []
        if self.backend == "ray":
            try:
                import ray
            except ImportError:
                raise BoardLabError("backend=ray needs Ray; install it with "
                                    "`pip install 'ray[default]'`") from None
            self.ray = ray
            if not ray.is_initialized():
                ray.init(include_dashboard=False, log_to_driver=False)
            actor = ray.remote(num_cpus=1)(SelfPlayWorker)
            self.actors = [actor.remote(game_spec, architecture) for _ in range(self.count)]
        elif self.count > 1:
            context = multiprocessing.get_context("spawn")
            self.pool = context.Pool(self.count, initializer=_start_process,
                                     initargs=(game_spec, architecture))
        else:
            self.local = SelfPlayWorker(game_spec, architecture)

    def play(self, tasks: list[tuple]) -> list[tuple[Samples, SelfPlayStats]]:
        if self.actors:
            return self.ray.get([a.play.remote(*t) for a, t in zip(self.actors, tasks)])
        if self.pool is not None:
            return self.pool.map(_play_in_process, tasks)
        return [self.local.play(*task) for task in tasks]

    def close(self) -> None:
        if self.pool is not None:
            self.pool.terminate()
            self.pool = None
        for actor in self.actors:
            self.ray.kill(actor)
        self.actors = []


# --- the gate ------------------------------------------------------------------------------------
def play_networks(game: Game, first: Any, second: Any, games: int, sims: int, c_puct: float,
                  opening_plies: int, seed: int, search: str = "arrays",
                  frame: SeatFrame | None = None) -> float:
    """Score of `first` against `second` (draws half), seats alternating, all games in
    lockstep: each step, the trees of the games where one network is to move share a call.
    Both networks name moves in `frame`'s ids."""
    import torch

    rng = random.Random(seed)
    evaluators = [NetworkEvaluator(first, torch, frame), NetworkEvaluator(second, torch, frame)]
    run = searcher(game, c_puct, search, rng)
    states, seats = [], []
    for i in range(games):
        state = game.initial_state(seed=derive_seed(seed, "gate", i))
        resolve_chance(state, rng)
        for _ in range(opening_plies):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
            resolve_chance(state, rng)
        states.append(state)
        seats.append(i % 2)  # the seat of `first`
    active = [i for i, s in enumerate(states) if not s.is_terminal()]
    while active:
        for side in (0, 1):  # 0: games where `first` moves
            movers = [i for i in active if not states[i].is_terminal()
                      and (states[i].current_player() == seats[i]) == (side == 0)]
            if not movers:
                continue
            results = run([states[i] for i in movers], sims, evaluators[side], None)
            for i, result in zip(movers, results):
                states[i].apply(int(result.actions[pick_move(result, 0.0, rng)]))
                resolve_chance(states[i], rng)
        active = [i for i in active if not states[i].is_terminal()]
    score = sum((s.returns()[seat] + 1) / 2 for s, seat in zip(states, seats))
    return score / games


# --- the buffer ----------------------------------------------------------------------------------
class SampleBuffer:
    """The newest `capacity` samples in preallocated arrays (planes and policies as float16:
    planes are 0/1 and visit shares need no more)."""

    def __init__(self, capacity: int, shape: tuple[int, ...], actions: int) -> None:
        self.planes = np.zeros((capacity, *shape), dtype=np.float16)
        self.policy = np.zeros((capacity, actions), dtype=np.float16)
        self.value = np.zeros(capacity, dtype=np.float32)
        self.size = 0
        self.next = 0

    def __len__(self) -> int:
        return self.size

    def extend(self, samples: Samples) -> None:
        capacity = len(self.value)
        for start in range(0, len(samples), capacity):
            part = slice(start, min(start + capacity, len(samples)))
            n = part.stop - part.start
            where = (self.next + np.arange(n)) % capacity
            self.planes[where] = samples.planes[part]
            self.policy[where] = samples.policy[part]
            self.value[where] = samples.value[part]
            self.next = (self.next + n) % capacity
            self.size = min(self.size + n, capacity)

    def state_dict(self) -> bytes:
        """The filled part, compressed (policies are mostly zeros)."""
        data = io.BytesIO()
        order = (np.arange(self.size) + (self.next if self.size == len(self.value) else 0)) \
            % len(self.value)
        np.savez_compressed(data, planes=self.planes[order], policy=self.policy[order],
                            value=self.value[order])
        return data.getvalue()

    def load_state_dict(self, blob: bytes) -> None:
        with np.load(io.BytesIO(blob)) as data:
            self.size = self.next = 0
            self.extend(Samples(data["planes"], data["policy"], data["value"]))


# --- the trainer ---------------------------------------------------------------------------------
@dataclass
class IterationRow:
    """What one iteration measured (the metrics row's AlphaZero columns)."""

    policy_loss: float = math.nan
    value_loss: float = math.nan
    gate_score: float = math.nan
    held_out: dict[str, float] | None = None
    """The distilling iteration's losses on held-out teacher games (learn/distill.py)."""
    ends: SelfPlayStats | None = None
    """Self-play's counts of games resigned and adjudicated."""
    kept: int = 0
    positions: int = 0
    selfplay_seconds: float = 0.0
    leaves: int = 0
    network_calls: int = 0


class AlphaZeroTrainer(Trainer):
    """Self-play, training and the gate; an iteration is the protocol's unit (`episodes`)."""

    algorithm = "alphazero"
    unit: ClassVar[str] = "iteration"
    checkpoint_every: ClassVar[int | None] = 1  # iterations are long: keep every one
    metric_fields: ClassVar[tuple[str, ...]] = (
        "policy_loss", "value_loss", "gate_score", "kept", "selfplay_positions_per_s",
        "leaves_per_call", "teacher_policy_loss", "teacher_value_loss", "teacher_top1",
        "games", "resigned", "adjudicated", "false_resignations")

    def __init__(self, game: Game, settings: AlphaZeroTraining | None = None,
                 agent_params: dict[str, Any] | None = None, seed: int = 0,
                 opponent: str = "") -> None:
        super().__init__(game, seed)
        import torch

        if opponent:
            raise BoardLabError("alphazero trains by self-play only; --opponent does not "
                                "apply to it")
        self.torch = torch
        self.config = config = settings or AlphaZeroTraining()
        params = {k: v for k, v in (agent_params or {}).items() if k in ARCHITECTURE_FIELDS}
        torch.manual_seed(derive_seed(seed, "alphazero"))
        self.best = (AlphaZeroAgent(game, weights=config.init) if config.init else
                     AlphaZeroAgent(game, weights="none", seed=seed, **params))
        self.architecture: dict[str, Any] = {k: getattr(self.best.settings, k)
                                             for k in ARCHITECTURE_FIELDS}
        self.candidate = AlphaZeroAgent(game, weights="none", **self.architecture)
        self.candidate.network.load_state_dict(self.best.network.state_dict())
        self.optimizer = torch.optim.Adam(self.candidate.network.parameters(), lr=config.lr,
                                          weight_decay=config.weight_decay)
        self.buffer = SampleBuffer(config.buffer, self.best.shape, game.num_actions)
        self.workers: Workers | None = None
        self.started: float | None = None
        """When this invocation's first iteration began (minutes= counts from there)."""
        self.rows: list[IterationRow] = []
        self.kept = 0
        self.distilled = False
        self.teacher_split: Any = None
        """learn/distill.py's TeacherSplit, loaded when first needed."""
        if config.teacher:  # a missing or foreign dataset is refused now, not mid-run
            from .teacher import read_manifest

            read_manifest(config.teacher, game)
        self.held_out: dict[str, float] = {}
        """Held-out teacher losses before and after distilling (before_*, after_*)."""

    def identity(self) -> dict[str, Any]:
        teacher = {"teacher": self.config.teacher} if self.config.teacher else {}
        return {**super().identity(), **self.architecture,
                "value_target": self.config.value_target, **teacher}

    # --- the loop ----------------------------------------------------------------------------
    def train_until(self, total_episodes: int) -> None:
        if self.started is None:
            self.started = time.perf_counter()
        while self.progress.episodes < total_episodes:
            self.iterate()  # at least one: a rerun with minutes= always moves on
            if self.out_of_budget():
                break

    def out_of_budget(self) -> bool:
        minutes = self.config.minutes
        return (minutes > 0 and self.started is not None
                and time.perf_counter() - self.started > minutes * 60)

    def iterate(self) -> None:
        if self.config.teacher and not self.distilled:
            self.distill()
            return
        row = IterationRow()
        stats = self.self_play()
        row.positions, row.selfplay_seconds = stats.positions, stats.seconds
        row.leaves, row.network_calls = stats.leaves, stats.network_calls
        row.ends = stats
        row.policy_loss, row.value_loss = self.learn()
        row.gate_score, kept = self.gate()
        row.kept = int(kept)
        self.kept += row.kept
        self.rows.append(row)
        self.progress.episodes += 1
        self.progress.env_steps += stats.positions
        self.progress.updates += self.config.train_steps

    def self_play(self) -> SelfPlayStats:
        config = self.config
        if self.workers is None:
            self.workers = Workers(self.game.spec, self.architecture, config)
        weights = {k: v.clone() for k, v in self.best.network.state_dict().items()}
        settings = asdict(config)
        if config.max_moves and not config.adjudicate_scale and config.teacher:
            settings["adjudicate_scale"] = self.teacher().scale  # heuristic units, fitted
        tasks = [(settings, weights, config.games_per_worker,
                  derive_seed(self.seed, "iteration", self.progress.episodes, w))
                 for w in range(config.workers)]
        started = time.perf_counter()
        total = SelfPlayStats()
        for samples, stats in self.workers.play(tasks):
            self.buffer.extend(samples)
            total.add(stats)
        total.seconds = time.perf_counter() - started
        return total

    def teacher(self) -> Any:
        if self.teacher_split is None:
            from .distill import load_teacher

            config = self.config
            self.teacher_split = load_teacher(config.teacher, self.game,
                                              config.teacher_result_weight,
                                              config.teacher_scale,
                                              seed=derive_seed(self.seed, "held out"),
                                              frame=self.best.frame)
        return self.teacher_split

    def distill(self) -> None:
        """The supervised first iteration: the candidate learns the teacher's positions and
        becomes the best network without a gate (there is nothing to gate against yet)."""
        from .distill import distill, held_out_losses

        config = self.config
        split = self.teacher()
        network = self.candidate.network
        before = held_out_losses(network, split.held_out)
        rng = np.random.default_rng(derive_seed(self.seed, "distill"))
        row = IterationRow()
        row.policy_loss, row.value_loss = distill(network, self.optimizer, split.train,
                                                  config.distill_steps, config.batch,
                                                  config.teacher_value_weight, rng)
        after = held_out_losses(network, split.held_out)
        self.held_out = {**{f"before_{k}": v for k, v in before.items()},
                         **{f"after_{k}": v for k, v in after.items()}}
        row.held_out = after
        self.best.network.load_state_dict(network.state_dict())
        self.distilled = True
        self.rows.append(row)
        self.progress.episodes += 1
        self.progress.updates += config.distill_steps

    def learn(self) -> tuple[float, float]:
        """`train_steps` minibatches; the mean policy and value losses."""
        torch = self.torch
        config = self.config
        network = self.candidate.network
        network.train()
        rng = np.random.default_rng(derive_seed(self.seed, "train", self.progress.episodes))
        policy_losses, value_losses = [], []
        buffer = self.buffer
        teacher = self.teacher().train if config.teacher_share > 0 else None
        from_teacher = round(config.teacher_share * config.batch) if teacher is not None else 0
        for _ in range(config.train_steps):
            picks = rng.integers(0, len(buffer), size=min(config.batch - from_teacher,
                                                          len(buffer)))
            planes = torch.from_numpy(buffer.planes[picks].astype(np.float32))
            target_policy = torch.from_numpy(buffer.policy[picks].astype(np.float32))
            target_value = torch.from_numpy(buffer.value[picks])
            if teacher is not None and from_teacher:  # the teacher's move as a one-hot policy
                rows = rng.integers(0, len(teacher), size=from_teacher)
                taught = np.zeros((from_teacher, self.game.num_actions), np.float32)
                taught[np.arange(from_teacher), teacher.action[rows]] = 1.0
                planes = torch.cat([planes, torch.from_numpy(
                    teacher.planes[rows].astype(np.float32))])
                target_policy = torch.cat([target_policy, torch.from_numpy(taught)])
                target_value = torch.cat([target_value, torch.from_numpy(teacher.value[rows])])
            logits, value = network(planes)
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
            score, keep = math.nan, True
        else:
            score = play_networks(self.game, self.candidate.network, self.best.network,
                                  config.eval_games, config.eval_sims, config.c_puct,
                                  config.opening_plies,
                                  derive_seed(self.seed, "gate", self.progress.episodes),
                                  config.search, self.best.frame)
            keep = score >= config.gate
        if keep:
            self.best.network.load_state_dict(self.candidate.network.state_dict())
        return score, keep

    # --- the protocol's other parts ----------------------------------------------------------
    def player(self) -> Agent:
        player = AlphaZeroAgent(self.game, weights="none", sims=self.config.eval_sims,
                                c_puct=self.config.c_puct, **self.architecture)
        player.network.load_state_dict(self.best.network.state_dict())
        player.network.eval()
        player.spec = "alphazero (training)"
        return player

    def metrics(self) -> dict[str, Any]:
        """Means over the iterations since the last row, and the last gate."""
        rows, self.rows = self.rows, []
        if not rows:
            return {}
        positions = sum(r.positions for r in rows)
        seconds = sum(r.selfplay_seconds for r in rows)
        policy = float(np.mean([r.policy_loss for r in rows]))
        value = float(np.mean([r.value_loss for r in rows]))
        held = next((r.held_out for r in rows if r.held_out), None)
        taught: dict[str, Any] = ({f"teacher_{k}": round(v, 5) for k, v in held.items()}
                                  if held else {})
        ends = SelfPlayStats()
        for r in rows:
            if r.ends is not None:
                ends.add(r.ends)
        if ends.games:
            taught.update(games=ends.games, resigned=ends.resigned, adjudicated=ends.adjudicated,
                          false_resignations=f"{ends.false_resignations}/{ends.would_resign}")
        return {**taught, "loss": round(policy + value, 5), "policy_loss": round(policy, 5),
                "value_loss": round(value, 5), "gate_score": round(rows[-1].gate_score, 4),
                "kept": sum(r.kept for r in rows),
                "selfplay_positions_per_s": round(positions / max(seconds, 1e-9), 2),
                "leaves_per_call": round(sum(r.leaves for r in rows)
                                         / max(sum(r.network_calls for r in rows), 1), 2)}

    def save_checkpoint(self, path: Path, meta: dict[str, Any]) -> None:
        from ..core.weights import save_payload

        save_payload(path, {
            "format": "boardlab-alphazero-checkpoint", "game": self.game.name,
            "checkpoint": json.dumps({**meta, "kept": self.kept, "distilled": self.distilled,
                                      "held_out": self.held_out,
                                      "config": asdict(self.config)}),
            "best": self.best.network.state_dict(),
            "candidate": self.candidate.network.state_dict(),
            "optimizer": self.optimizer.state_dict(), "buffer": self.buffer.state_dict(),
            "torch_rng": self.torch.get_rng_state()})

    def load_checkpoint(self, path: Path) -> dict[str, Any]:
        from ..core.weights import load_payload

        payload = load_payload(path, "boardlab-alphazero-checkpoint", self.game.name,
                               "AlphaZero checkpoint")
        try:
            meta = json.loads(payload["checkpoint"])
            self.best.network.load_state_dict(payload["best"])
            self.candidate.network.load_state_dict(payload["candidate"])
            self.optimizer.load_state_dict(payload["optimizer"])
            self.buffer.load_state_dict(payload["buffer"])
            self.torch.set_rng_state(payload["torch_rng"])
            self.kept = int(meta["kept"])
            self.distilled = bool(meta.get("distilled", False))
            self.held_out = dict(meta.get("held_out", {}))
            self.progress.restore(meta)
        except (RuntimeError, KeyError, TypeError, ValueError) as error:
            raise unfit_checkpoint(path, "AlphaZero checkpoint", error) from None
        return meta

    def export(self, path: Path) -> int:
        taught = ({"teacher": self.config.teacher, "held_out": self.held_out}
                  if self.config.teacher else {})
        return self.best.save(path, {"iterations": self.progress.episodes,
                                     "value_target": self.config.value_target, **taught})

    def describe(self) -> str:
        taught = ""
        if self.held_out:
            h = self.held_out
            taught = (f"; held-out teacher games: policy loss {h['before_policy_loss']:.3f} -> "
                      f"{h['after_policy_loss']:.3f}, value loss {h['before_value_loss']:.3f} "
                      f"-> {h['after_value_loss']:.3f}, teacher's move first "
                      f"{h['before_top1']:.1%} -> {h['after_top1']:.1%}")
        return (f"{self.progress.episodes} iterations, {self.kept} candidates kept by the "
                f"gate; buffer {len(self.buffer)} samples; self-play {self.config.search} "
                f"search, {self.config.workers} {self.config.backend} workers x "
                f"{self.config.games_per_worker} games in lockstep{taught}")

    def close(self) -> None:
        if self.workers is not None:
            self.workers.close()
            self.workers = None
