"""Round-robin tournaments: every pair plays N seeded games, seats alternating, each game
stored the moment it ends so that a killed tournament resumes where it stopped.

For the pair (a, b), listed in the order the agents were given, game k (0..N-1) seats a in
seat 0 when k is even and in seat 1 when k is odd, and is seeded with
`derive_seed(seed, game_spec, a, b, k)`. A game therefore depends only on its key, never on
which worker played it or in which order, so any worker count gives the same results.

Games run in this process (one worker, no limits) or in worker processes started with
"spawn" that the arena watches and replaces when an agent hangs or exhausts its memory
(arena/workers.py), or as Ray tasks (arena/ray_backend.py). Workers receive only spec strings
and build the game and agents themselves, once per process; the parent process alone writes
to the store, one transaction per game as results arrive.
"""

from __future__ import annotations

import math
import os
from collections.abc import Collection
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Literal

from ..core.game import BoardLabError, ParseError
from ..core.match import derive_seed
from ..core.registry import make_agent, make_game
from .ratings import Rating, bradley_terry_elo
from .store import GameKey, GameRow, ResultStore, TournamentEntry
from .workers import Limits, Task, play_games


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
class Thinking:
    """An agent's thinking times over its decisions in the tournament's games, in seconds:
    what shows that a comparison "at equal time" was one."""

    decisions: int = 0
    total: float = 0.0
    longest: float = 0.0

    @property
    def mean(self) -> float:
        return self.total / self.decisions if self.decisions else math.nan

    def add(self, seconds: float) -> None:
        self.decisions += 1
        self.total += seconds
        self.longest = max(self.longest, seconds)


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
    thinking: dict[str, Thinking] = field(default_factory=dict)
    """Each agent's thinking times, every game of the tournament counted."""

    def pair(self, first: str, second: str) -> tuple[int, int, int, int]:
        """(games, wins, draws, losses) of `first` against `second`, whichever order."""
        for pair in self.pairs:
            if (pair.a, pair.b) == (first, second):
                return pair.games, pair.a_wins, pair.draws, pair.b_wins
            if (pair.a, pair.b) == (second, first):
                return pair.games, pair.b_wins, pair.draws, pair.a_wins
        raise KeyError(f"{first!r} and {second!r} did not meet in this tournament")


def round_robin_keys(game: str, agents: list[str], games_per_pair: int, seed: int,
                     time_per_move: float | None) -> Iterator[Task]:
    """Every game of the tournament, round by round (game k of every pair, then k + 1), so an
    interrupted run leaves every pair with about as many games."""
    pairs = [(agents[i], agents[j]) for i in range(len(agents)) for j in range(i + 1, len(agents))]
    for k in range(games_per_pair):
        for a, b in pairs:
            seat0, seat1 = (a, b) if k % 2 == 0 else (b, a)
            yield Task(GameKey(game, seat0, seat1, a, b, k, seed, time_per_move),
                       derive_seed(seed, game, a, b, k))


BACKENDS = ("local", "ray")


def run_tournament(game_spec: str, agent_specs: list[str], games_per_pair: int,
                   db_path: str | os.PathLike[str], seed: int = 0, workers: int | None = 1,
                   time_per_move: float | None = None, progress: bool = True,
                   on_game: Callable[[GameRow], None] | None = None,
                   memory_mb: int | None = None, backend: str = "local",
                   ray_address: str | None = None) -> TournamentResult:
    """Play a round robin (see the module docstring) and return its result from the store.

    Games already in the store at `db_path` are not played again. Bad specs raise ParseError
    (or BoardLabError for an agent that cannot play the game) before any game starts.
    `time_per_move` is each agent's budget; a move past budget + max(1 s, budget) is stopped
    and lost on time (arena/workers.py). `memory_mb` caps the address space each worker may
    add once its agents are built; an agent that runs out loses with reason "memory".
    `workers=None` means one per core (local) or per CPU of the Ray cluster.
    `backend="ray"` plays the games on Ray actors (`ray_address`: an existing cluster; None
    starts a local one); the results are the same as with the local backend.
    `on_game(row)` is called after each new game is stored (a hook for UIs and tests; the
    row's boardlab_version and finished_at are left empty there, the store has them).
    """
    game = make_game(game_spec)
    game_spec = game.spec  # canonical: `NAME:param=default` and `NAME` share rows
    specs = _check_agents(agent_specs)
    built = {spec: make_agent(spec, game) for spec in specs}
    if game.num_players != 2:
        raise BoardLabError(f"the arena plays two-player games; {game_spec} has "
                            f"{game.num_players} players")
    if not isinstance(games_per_pair, int) or games_per_pair < 1:
        raise ParseError(f"games per pair must be a positive whole number, got {games_per_pair!r}")
    if workers is not None and (not isinstance(workers, int) or workers < 1):
        raise ParseError(f"workers must be a positive whole number, got {workers!r}")
    if time_per_move is not None and not time_per_move > 0:
        raise ParseError(f"time per move must be positive seconds, got {time_per_move!r}")
    if memory_mb is not None and (not isinstance(memory_mb, int) or memory_mb < 1):
        raise ParseError(f"memory per worker must be a positive number of MiB, got "
                         f"{memory_mb!r}")
    if backend not in BACKENDS:
        raise ParseError(f"backend {backend!r} is not one of {', '.join(BACKENDS)}")
    if backend == "ray":
        from .ray_backend import import_ray

        import_ray()  # a missing Ray is said now, before the store is touched
    time_per_move = None if time_per_move is None else float(time_per_move)
    limits = Limits(time_per_move, memory_mb)

    with ResultStore(db_path) as store:
        store.add_tournament(TournamentEntry(game_spec, tuple(specs), games_per_pair, seed,
                                             time_per_move, memory_mb))
        done = store.finished_keys(game_spec, seed, time_per_move)
        total = games_per_pair * len(specs) * (len(specs) - 1) // 2
        # A generator, not a list: a 10,000-game tournament holds only the games in flight.
        tasks = (task for task in round_robin_keys(game_spec, specs, games_per_pair, seed,
                                                   time_per_move) if task.key not in done)
        finished = sum(1 for task in round_robin_keys(game_spec, specs, games_per_pair, seed,
                                                      time_per_move) if task.key in done)
        played = 0
        if workers is None and backend == "local":
            workers = os.cpu_count() or 1
        if workers is not None:
            workers = max(1, min(workers, total - finished))  # no idle workers to start
        if backend == "ray":
            from .ray_backend import play_games_on_ray

            games = play_games_on_ray(game_spec, specs, tasks, workers, limits, ray_address)
        else:
            assert workers is not None
            games = play_games(game_spec, built, tasks, workers, limits)
        # closing(): an error or Ctrl-C here shuts the workers down at once.
        with _ProgressBar(progress, game_spec, total, finished) as advance, closing(games):
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


def stored_tournaments(db_path: str | os.PathLike[str]) -> list[TournamentEntry]:
    """The tournaments a results database holds: those it recorded (BoardLab 0.1 stores with
    schema 2), then any others its games show (grouped by game, seed and time limit, agents in
    an order that keeps every stored pair as it was listed)."""
    with ResultStore(db_path) as store:
        entries = store.tournaments()
        groups: dict[tuple[str, int, float | None], list[GameKey]] = {}
        for row in store.games(with_moves=False):
            key = row.key
            if not any(belongs_to(key, entry) for entry in entries):
                groups.setdefault((key.game, key.base_seed, key.time_per_move), []).append(key)
    for (game, seed, limit), keys in groups.items():
        agents = _listed_order(keys)
        per_pair = max(key.game_index for key in keys) + 1
        entries.append(TournamentEntry(game, tuple(agents), per_pair, seed, limit))
    return entries


def belongs_to(key: GameKey, entry: TournamentEntry) -> bool:
    """Whether the game `key` is one of the tournament `entry`'s games."""
    return (key.game, key.base_seed, key.time_per_move) == \
        (entry.game, entry.base_seed, entry.time_per_move) \
        and key.pair_a in entry.agents and key.pair_b in entry.agents \
        and entry.agents.index(key.pair_a) < entry.agents.index(key.pair_b) \
        and key.game_index < entry.games_per_pair


def _listed_order(keys: list[GameKey]) -> list[str]:
    """Agents ordered so that each stored pair (a, b) has a before b."""
    before: dict[str, set[str]] = {}
    for key in keys:
        before.setdefault(key.pair_a, set())
        before.setdefault(key.pair_b, set()).add(key.pair_a)
    order: list[str] = []
    while len(order) < len(before):
        ready = [a for a, needs in before.items() if a not in order and needs <= set(order)]
        order.extend(ready or [a for a in before if a not in order])  # a cycle: keep the rest
    return order


def resume_tournament(db_path: str | os.PathLike[str], workers: int | None = 1,
                      progress: bool = True, backend: str = "local",
                      ray_address: str | None = None,
                      memory_mb: int | None | Literal["stored"] = "stored") -> TournamentResult:
    """Finish the latest unfinished tournament recorded in `db_path` with its own parameters
    (game, agents, games a pair, seed, time per move, memory limit unless one is given)."""
    path = Path(db_path)
    if not path.is_file():
        raise BoardLabError(f"{path}: no such results database to resume")
    with ResultStore(path) as store:
        entries = store.tournaments()
        if not entries:
            raise BoardLabError(f"{path} records no tournament parameters (written by an "
                                "older BoardLab); run the arena command again with its agents")
        counts = [(entry, len(list(round_robin_keys(
            entry.game, list(entry.agents), entry.games_per_pair, entry.base_seed,
            entry.time_per_move))), len(_finished_of(store, entry))) for entry in entries]
    unfinished = [entry for entry, total, done in counts if done < total]
    entry = max(unfinished, key=lambda e: e.updated_at) if unfinished else \
        max(entries, key=lambda e: e.updated_at)
    return run_tournament(entry.game, list(entry.agents), entry.games_per_pair, path,
                          seed=entry.base_seed, workers=workers,
                          time_per_move=entry.time_per_move, progress=progress,
                          memory_mb=entry.memory_mb if memory_mb == "stored" else memory_mb,
                          backend=backend, ray_address=ray_address)


def _finished_of(store: ResultStore, entry: TournamentEntry) -> set[GameKey]:
    done = store.finished_keys(entry.game, entry.base_seed, entry.time_per_move)
    return {task.key for task in round_robin_keys(entry.game, list(entry.agents),
                                                  entry.games_per_pair, entry.base_seed,
                                                  entry.time_per_move) if task.key in done}


def _check_agents(agent_specs: Collection[str]) -> list[str]:
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


class _ProgressBar:
    """A rich progress bar (games done, rate, ETA), or nothing when `enabled` is false."""

    def __init__(self, enabled: bool, title: str, total: int, completed: int) -> None:
        self.enabled = enabled
        self.title, self.total, self.completed = title, total, completed
        self._progress: Any = None  # a rich Progress once started
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

def tournament_result(store: ResultStore, game_spec: str, agent_specs: Collection[str],
                      games_per_pair: int, seed: int = 0, time_per_move: float | None = None,
                      intervals: bool = True, resamples: int | None = None) -> TournamentResult:
    """The result of a tournament from the games the store holds for it (any subset).

    `intervals=False` (or `resamples=0`, from the bootstrap the intervals replaced) skips the
    95% intervals."""
    specs = list(agent_specs)
    position = {spec: i for i, spec in enumerate(specs)}
    tallies: dict[tuple[str, str], list[int]] = {}
    for i, a in enumerate(specs):
        for b in specs[i + 1:]:
            tallies[(a, b)] = [0, 0, 0, 0, 0]  # a wins, draws, b wins, a forfeits, b forfeits
    thinking = {spec: Thinking() for spec in specs}
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
        seats = row.record.agents
        decisions = (mover for mover in row.record.movers if mover >= 0)
        for mover, seconds in zip(decisions, row.record.move_seconds):
            thinking[seats[mover]].add(seconds)
    pairs = []
    for (a, b), (wins, draws, losses, a_forfeits, b_forfeits) in tallies.items():
        games = wins + draws + losses
        pairs.append(PairResult(a, b, games, wins, draws, losses,
                                (wins + 0.5 * draws) / games if games else 0.0,
                                {"a": a_forfeits, "b": b_forfeits}))
    ratings = bradley_terry_elo(pairs, agents=specs, intervals=intervals and resamples != 0)
    return TournamentResult(game_spec, specs, games_per_pair, seed, time_per_move, pairs,
                            ratings, db_path=str(store.path), thinking=thinking)
