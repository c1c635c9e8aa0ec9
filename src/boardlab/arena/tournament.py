"""Round-robin tournaments: every pair plays N seeded games, seats alternating, each game
stored the moment it ends so that a killed tournament resumes where it stopped.

For the pair (a, b), listed in the order the agents were given, game k (0..N-1) seats a in
seat 0 when k is even and in seat 1 when k is odd, and is seeded with
`derive_seed(seed, game_spec, a, b, k)`. A game therefore depends only on its key, never on
which worker played it or in which order, so any worker count gives the same results.

With `workers > 1` games run in a `multiprocessing` pool started with "spawn" (safe with
threads, numba and torch, and the same on every platform). Workers receive only spec strings
and build the game and agents themselves, once per process; the parent process alone writes
to the store, one transaction per game as results arrive.
"""

from __future__ import annotations

import multiprocessing
import os
from contextlib import closing
from dataclasses import dataclass
from typing import Callable, Iterator, NamedTuple, Sequence

from ..core.agent import Agent
from ..core.game import BoardLabError, Game, ParseError
from ..core.match import GameRecord, derive_seed, play_match
from ..core.registry import make_agent, make_game
from .ratings import Rating, bradley_terry_elo
from .store import GameKey, GameRow, ResultStore


@dataclass(frozen=True)
class PairResult:
    """The games of a against b (both seats), from a's side; `a_score` counts draws as half."""

    a: str
    b: str
    games: int
    a_wins: int
    draws: int
    b_wins: int
    a_score: float
    forfeits: dict[str, int]
    """Games lost by forfeit (crash, illegal action, time): {"a": n, "b": m}."""


@dataclass
class TournamentResult:
    """A tournament's outcome, computed from every stored game of it (earlier runs included)."""

    game: str
    agents: list[str]
    games_per_pair: int
    seed: int
    time_per_move: float | None
    pairs: list[PairResult]
    ratings: list[Rating]
    played: int = 0
    """Games played by this call (the rest were already in the store)."""
    db_path: str = ""

    def pair(self, first: str, second: str) -> tuple[int, int, int, int]:
        """(games, wins, draws, losses) of `first` against `second`, whichever order."""
        for pair in self.pairs:
            if (pair.a, pair.b) == (first, second):
                return pair.games, pair.a_wins, pair.draws, pair.b_wins
            if (pair.a, pair.b) == (second, first):
                return pair.games, pair.b_wins, pair.draws, pair.a_wins
        raise KeyError(f"{first!r} and {second!r} did not meet in this tournament")


class _Task(NamedTuple):
    """One game to play; everything a worker needs, as plain values (it crosses processes)."""

    key: GameKey
    seed: int


def round_robin_keys(game: str, agents: Sequence[str], games_per_pair: int, seed: int,
                     time_per_move: float | None) -> Iterator[_Task]:
    """Every game of the tournament, round by round (game k of every pair, then k + 1), so an
    interrupted run leaves every pair with about as many games."""
    pairs = [(agents[i], agents[j]) for i in range(len(agents)) for j in range(i + 1, len(agents))]
    for k in range(games_per_pair):
        for a, b in pairs:
            seat0, seat1 = (a, b) if k % 2 == 0 else (b, a)
            yield _Task(GameKey(game, seat0, seat1, a, b, k, seed, time_per_move),
                        derive_seed(seed, game, a, b, k))


# --- playing ------------------------------------------------------------------------------

class _Player:
    """Builds the game and each agent once (per process) and plays tasks."""

    def __init__(self, game_spec: str, agents: dict[str, Agent] | None = None) -> None:
        self.game: Game = make_game(game_spec)
        self.agents: dict[str, Agent] = dict(agents or {})

    def agent(self, spec: str) -> Agent:
        if spec not in self.agents:
            self.agents[spec] = make_agent(spec, self.game)
        return self.agents[spec]

    def play(self, task: _Task) -> tuple[_Task, GameRecord]:
        key = task.key
        seats = [self.agent(key.seat0), self.agent(key.seat1)]
        return task, play_match(self.game, seats, seed=task.seed, time_per_move=key.time_per_move)


_WORKER: _Player | None = None


def _init_worker(game_spec: str) -> None:
    global _WORKER
    _WORKER = _Player(game_spec)


def _play_in_worker(task: _Task) -> tuple[_Task, GameRecord]:
    assert _WORKER is not None, "worker used before _init_worker"
    return _WORKER.play(task)


def run_tournament(game_spec: str, agent_specs: list[str], games_per_pair: int,
                   db_path: str | os.PathLike[str], seed: int = 0, workers: int = 1,
                   time_per_move: float | None = None, progress: bool = True,
                   on_game: Callable[[GameRow], None] | None = None) -> TournamentResult:
    """Play a round robin (see the module docstring) and return its result from the store.

    Games already in the store at `db_path` are not played again. Bad specs raise ParseError
    (or BoardLabError for an agent that cannot play the game) before any game starts.
    `on_game(row)` is called after each new game is stored (a hook for UIs and tests; the
    row's boardlab_version and finished_at are left empty there, the store has them).
    """
    game = make_game(game_spec)
    game_spec = game.spec  # canonical, so `jungle:no_capture_limit=40` and `jungle` share rows
    specs = _check_agents(agent_specs)
    built = {spec: make_agent(spec, game) for spec in specs}
    if game.num_players != 2:
        raise BoardLabError(f"the arena plays two-player games; {game_spec} has "
                            f"{game.num_players} players")
    if not isinstance(games_per_pair, int) or games_per_pair < 1:
        raise ParseError(f"games per pair must be a positive whole number, got {games_per_pair!r}")
    if not isinstance(workers, int) or workers < 1:
        raise ParseError(f"workers must be a positive whole number, got {workers!r}")
    if time_per_move is not None and not time_per_move > 0:
        raise ParseError(f"time per move must be positive seconds, got {time_per_move!r}")
    time_per_move = None if time_per_move is None else float(time_per_move)

    with ResultStore(db_path) as store:
        done = store.finished_keys(game_spec, seed, time_per_move)
        tasks = [task for task in round_robin_keys(game_spec, specs, games_per_pair, seed,
                                                   time_per_move) if task.key not in done]
        total = games_per_pair * len(specs) * (len(specs) - 1) // 2
        played = 0
        games = _play_all(game_spec, built, tasks, workers)
        # closing(): an error or Ctrl-C here shuts the worker pool down at once.
        with _ProgressBar(progress, game_spec, total, total - len(tasks)) as advance, \
                closing(games):
            for task, record in games:
                store.add(task.key, record)
                played += 1
                advance()
                if on_game is not None:
                    on_game(GameRow(task.key, record, "", ""))
        result = tournament_result(store, game_spec, specs, games_per_pair, seed, time_per_move)
    result.played = played
    result.db_path = str(db_path)
    return result


def _check_agents(agent_specs: Sequence[str]) -> list[str]:
    if isinstance(agent_specs, str) or len(agent_specs) < 2:
        raise ParseError(f"a tournament needs at least two agents, got {list(agent_specs)!r}")
    specs = []
    for spec in agent_specs:
        if not isinstance(spec, str) or not spec.strip():
            raise ParseError(f"agent spec {spec!r} is empty")
        spec = spec.strip()
        if spec in specs:
            raise ParseError(f"agent {spec!r} is entered twice; a round robin lists each "
                             "agent once")
        specs.append(spec)
    return specs


def _play_all(game_spec: str, built: dict[str, Agent], tasks: list[_Task],
              workers: int) -> Iterator[tuple[_Task, GameRecord]]:
    if not tasks:
        return
    if workers == 1 or len(tasks) == 1:
        player = _Player(game_spec, built)
        for task in tasks:
            yield player.play(task)
        return
    context = multiprocessing.get_context("spawn")
    processes = min(workers, len(tasks))
    # Leaving the `with` (normally, on Ctrl-C or on an error) terminates the workers.
    with context.Pool(processes, initializer=_init_worker, initargs=(game_spec,)) as pool:
        # Small chunks: results reach the store (and the bar) soon after each game ends.
        yield from pool.imap_unordered(_play_in_worker, tasks, chunksize=1)


class _ProgressBar:
    """A rich progress bar (games done, rate, ETA), or nothing when `enabled` is false."""

    def __init__(self, enabled: bool, title: str, total: int, completed: int) -> None:
        self.enabled = enabled
        self.title, self.total, self.completed = title, total, completed
        self._progress = None
        self._task = None

    def __enter__(self) -> Callable[[], None]:
        if not self.enabled:
            return lambda: None
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                   TimeElapsedColumn, TimeRemainingColumn)

        self._progress = Progress(
            TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
            TextColumn("games"),
            TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TextColumn("ETA"),
            TimeRemainingColumn(), transient=False)
        self._progress.start()
        self._task = self._progress.add_task(self.title, total=self.total,
                                             completed=self.completed, rate="")
        return self._advance

    def _advance(self) -> None:
        assert self._progress is not None and self._task is not None
        self._progress.advance(self._task)
        speed = self._progress.tasks[0].speed
        self._progress.update(self._task, rate=f"{speed:.1f}/s" if speed else "")

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.stop()


# --- results ------------------------------------------------------------------------------

def tournament_result(store: ResultStore, game_spec: str, agent_specs: Sequence[str],
                      games_per_pair: int, seed: int = 0, time_per_move: float | None = None,
                      resamples: int = 200) -> TournamentResult:
    """The result of a tournament from the games the store holds for it (any subset)."""
    specs = list(agent_specs)
    position = {spec: i for i, spec in enumerate(specs)}
    tallies: dict[tuple[str, str], list[int]] = {}
    for i, a in enumerate(specs):
        for b in specs[i + 1:]:
            tallies[(a, b)] = [0, 0, 0, 0, 0]  # a wins, draws, b wins, a forfeits, b forfeits
    for row in store.games(game_spec, specs, base_seed=seed, time_per_move=time_per_move,
                           with_moves=False):
        key = row.key
        tally = tallies.get((key.pair_a, key.pair_b))
        if tally is None or key.game_index >= games_per_pair \
                or position[key.pair_a] > position[key.pair_b]:
            continue  # a game of another tournament on the same agents
        score = row.score_of_a()
        tally[0 if score == 1.0 else 1 if score == 0.5 else 2] += 1
        if row.record.forfeit is not None:
            tally[3 if row.record.forfeit == row.seat_of_a else 4] += 1
    pairs = []
    for (a, b), (wins, draws, losses, a_forfeits, b_forfeits) in tallies.items():
        games = wins + draws + losses
        pairs.append(PairResult(a, b, games, wins, draws, losses,
                                (wins + 0.5 * draws) / games if games else 0.0,
                                {"a": a_forfeits, "b": b_forfeits}))
    ratings = bradley_terry_elo(pairs, agents=specs, resamples=resamples, seed=seed)
    return TournamentResult(game_spec, specs, games_per_pair, seed, time_per_move, pairs,
                            ratings, db_path=str(store.path))
