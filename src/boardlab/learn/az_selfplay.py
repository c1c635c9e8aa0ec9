"""AlphaZero's self-play (learn/alphazero.py's step 1): games in lockstep and their samples,
the workers that play them (processes or Ray actors), the gate's games between two networks,
and the buffer the samples wait in for training."""

from __future__ import annotations

import io
import random
import time
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from ..agents.alphazero import AlphaZeroAgent, NetworkEvaluator, SeatFrame
from ..agents.puct import ArrayForest, RootResult, pick_move
from ..core.game import CHANCE, Game, State
from ..core.match import derive_seed, sample_chance
from ..core.registry import make_game
from ..core.workers import ActorPool
from .az_settings import AlphaZeroTraining
from .puct import traced_for_inference
from .value_targets import Decision, value_targets


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


def array_forest(game: Game, c_puct: float, kind: str, rng: random.Random,
                 rules: str = "arrays") -> ArrayForest:
    """The PUCT forest (agents/puct.py) for self-play, its leaves made by the game's array
    rules where it declares them (and `kind` and `rules` are arrays), else by its States
    (always so for games with chance nodes, whose outcomes it draws from `rng`)."""
    arrays = kind == "arrays" and rules == "arrays"
    return ArrayForest(c_puct, rules=game.array_rules() if arrays else None, rng=rng)


def searcher(forest: ArrayForest) -> Search:
    """`search(states, sims, evaluate, noise)` -> a RootResult per state, by `forest`, the
    network given the planes the forest encodes."""
    def search(states: list[State], sims: int, evaluate: NetworkEvaluator,
               noise: Noise | None = None) -> list[RootResult]:
        return forest.search(states, sims, evaluate.on_planes, noise)
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
    forest = array_forest(game, config.c_puct, config.search, rng, config.rules)
    search = searcher(forest)
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
        if config.search == "arrays" and config.reuse and going:
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
                          evaluate.positions, forest.reused)
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


class Workers:
    """`workers` self-play workers kept for the whole run (numba and torch load once): Ray
    actors with backend=ray, else processes, or this process for one worker (core/workers.py).
    """

    def __init__(self, game_spec: str, architecture: dict[str, Any], config: AlphaZeroTraining
                 ) -> None:
        self.count, self.backend = config.workers, config.backend
        where = "ray" if self.backend == "ray" else "local" if self.count > 1 else "inline"
        self.pool = ActorPool(SelfPlayWorker, [(game_spec, architecture)] * self.count, where,
                              name="self-play worker")

    def play(self, tasks: list[tuple]) -> list[tuple[Samples, SelfPlayStats]]:
        """`SelfPlayWorker.play(*task)`, task k on worker k; the results in order."""
        return self.pool.map("play", tasks)

    def close(self) -> None:
        self.pool.close()


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
    run = searcher(array_forest(game, c_puct, search, rng))
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

