"""A search teaches a network: positions from a strong search's games, labelled with its move
and its score, written to disk in shards for supervised learning.

This is the first half of Expert Iteration (Anthony, Tian & Barber 2017, "Thinking Fast and
Slow with Deep Learning and Tree Search", arXiv 1705.08439): an expert (here any agent,
usually our alpha-beta) labels positions, an apprentice network imitates it, and self-play then
improves the apprentice (learn/alphazero.py `teacher=`). On two cores it is the difference
between a network that learns and one that does not: a blank network's self-play games are
random walks that end at the ply cap, while a search's games are real ones from the first.

How a dataset is made (`boardlab teach GAME --search SPEC --positions N --out DIR`):
1. the search plays both seats of a game from a varied start: up to `opening_plies` uniformly
   random plies first (their positions are not labelled), then a share `random_moves` of its
   own moves replaced by a random legal move, so that the games do not repeat and the data
   covers positions a search would avoid;
2. every decision of the search becomes a labelled position: the mover's input planes (of the
   view the search is handed, so hidden information stays hidden), the search's move (the
   policy target; the compiled searches report their best move only), the search's score for
   the mover (`last_info()["value"]`, in its heuristic's units) and, once the game is over,
   the game's result for the mover;
3. positions are grouped in shards of whole games, each written atomically as
   `shard-NNNNN.npz`; `manifest.json` records the game, the search spec, the seed and the
   settings. Shard k's games are seeded by (seed, k), so a killed run resumes by writing the
   shards still missing, and the dataset is the same as an unbroken run's wherever the search
   itself is deterministic (fixed depth, not a clock).

How a network reads it (`teacher_values`): the value target is
    (1 - result_weight) * tanh(score / scale) + result_weight * result,
the blend of Stockfish's NNUE training data (the search's score with the game's result); a won
or lost search score (a mate found) maps to +-1. `scale` turns heuristic units into a value in
[-1, 1]; `fitted_scale` finds it from the data the way Texel's tuning fits its constant: the
scale whose tanh(score / scale) best predicts the game results (least squares).
"""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import random
import time
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from ..agents.evaluation import WIN_VALUE
from ..core.agent import Clock
from ..core.game import CHANCE, BoardLabError, Game, ParseError, State
from ..core.match import derive_seed, sample_chance
from ..core.registry import make_agent, make_game

FORMAT = "boardlab-teacher"
VERSION = 1
MANIFEST = "manifest.json"


@dataclass
class TeacherSettings:
    search: str = ""
    """The teacher: any agent spec whose `last_info()` has a `value` for the mover; empty =
    `default_search(game)`."""
    positions: int = 10_000
    """Labelled positions to reach in all (a rerun with more adds shards)."""
    shard_positions: int = 2_000
    """Positions a shard holds at least (whole games, so a few more)."""
    opening_plies: int = 4
    """Random plies before the search plays, drawn uniformly from 0 to this (not labelled)."""
    random_moves: float = 0.05
    """Share of the search's moves replaced by a random legal move (still labelled with the
    search's choice: the label is what the search would play)."""
    max_plies: int = 400
    """A game still going after this many plies stops; its positions take a drawn result."""
    workers: int = 2
    """Processes labelling shards at once (1 = in this process)."""
    seed: int = 0

    def __post_init__(self) -> None:
        if self.positions < 1 or self.shard_positions < 1 or self.max_plies < 1:
            raise ParseError("positions, shard_positions and max_plies must be at least 1")
        if self.opening_plies < 0:
            raise ParseError(f"opening_plies={self.opening_plies} must not be negative")
        if not 0 <= self.random_moves <= 1:
            raise ParseError(f"random_moves={self.random_moves} must be a share in [0, 1]")
        if self.workers < 1:
            raise ParseError(f"workers={self.workers} must be at least 1")


@dataclass
class Labels:
    """Labelled positions as arrays, one row each."""

    planes: np.ndarray
    """The mover's network input (float16)."""
    action: np.ndarray
    """The search's move (int32)."""
    score: np.ndarray
    """The search's score for the mover, in its heuristic's units (float32)."""
    result: np.ndarray
    """The game's result for the mover: 1, 0 or -1 (float32)."""
    game: np.ndarray
    """Which game of the shard the position is from (int32): held-out splits go by game."""
    mover: np.ndarray
    """The seat that moved (int8): a network whose input is seen from the mover's seat may
    need it to place the move (-1 in shards written before it was recorded)."""

    def __len__(self) -> int:
        return len(self.action)

    @staticmethod
    def join(parts: list["Labels"]) -> "Labels":
        return Labels(*(np.concatenate([getattr(p, name) for p in parts]) for name in FIELDS))

    def take(self, rows: np.ndarray) -> "Labels":
        return Labels(*(getattr(self, name)[rows] for name in FIELDS))


FIELDS = ("planes", "action", "score", "result", "game", "mover")
"""The arrays of a shard, in `Labels` order."""


@dataclass
class ShardStats:
    games: int = 0
    positions: int = 0
    seconds: float = 0.0
    decided: int = 0
    """Games that ended in a win (not a draw or the ply cap)."""


def default_search(game: Game) -> str:
    """The game's compiled alpha-beta with quiescence search at depth 4 where it has one (about
    100 positions a second on one core on the largest board here: `boardlab bench --tasks
    teach`), else the Python alpha-beta at depth 3."""
    strong = "minimax:depth=4,quiescence=true"
    try:
        make_agent(strong, game)
    except (BoardLabError, ValueError):
        return "minimax:depth=3"
    return strong


# --- labelling one shard -------------------------------------------------------------------------
def label_shard(game_spec: str, settings: TeacherSettings, shard: int) -> tuple[Labels, ShardStats]:
    """Play the search against itself until the shard has `shard_positions` positions."""
    started = time.perf_counter()
    game = make_game(game_spec)
    if not settings.search:
        settings = replace(settings, search=default_search(game))
    seats = [make_agent(settings.search, game) for _ in range(game.num_players)]
    rng = random.Random(derive_seed(settings.seed, "shard", shard))
    planes: list[np.ndarray] = []
    actions: list[int] = []
    scores: list[float] = []
    results: list[float] = []
    games: list[int] = []
    moved: list[int] = []
    stats = ShardStats()
    while len(actions) < settings.shard_positions:
        game_seed = derive_seed(settings.seed, "shard", shard, "game", stats.games)
        movers, decided = _play_one(game, seats, settings, game_seed, rng, planes, actions,
                                    scores)
        results.extend(decided[mover] for mover in movers)
        games.extend([stats.games] * len(movers))
        moved.extend(movers)
        stats.games += 1
        stats.decided += int(any(value != 0 for value in decided))
    stats.positions = len(actions)
    stats.seconds = time.perf_counter() - started
    labels = Labels(np.stack(planes).astype(np.float16), np.array(actions, np.int32),
                    np.array(scores, np.float32), np.array(results, np.float32),
                    np.array(games, np.int32), np.array(moved, np.int8))
    return labels, stats


def _play_one(game: Game, seats: list[Any], settings: TeacherSettings, seed: int,
              rng: random.Random, planes: list[np.ndarray], actions: list[int],
              scores: list[float]) -> tuple[list[int], list[float]]:
    """One game of the search against itself; appends each decision's planes, move and score.
    Returns the movers of the labelled decisions and the game's returns (zeros at the cap)."""
    movers: list[int] = []

    def label(view: State, mover: int, chosen: int) -> None:
        value = seats[mover].last_info().get("value")
        if value is None:
            raise BoardLabError(f"teacher {settings.search!r} reports no value for the mover "
                                f"(last_info()['value']): only a search can teach")
        planes.append(view.encode(mover))
        actions.append(int(chosen))
        scores.append(float(value))
        movers.append(mover)
    returns = play_searched_game(game, seats, seed, rng, settings.opening_plies,
                                 settings.random_moves, settings.max_plies, label)
    return movers, returns


def play_searched_game(game: Game, seats: list[Any], seed: int, rng: random.Random,
                       opening_plies: int, random_moves: float, max_plies: int,
                       record: Callable[[State, int, int], None]) -> list[float]:
    """One game of the seats' search against itself from a varied opening, the game loop of
    the teacher and of the evaluation tuner (learn/texel.py): a number of random plies up to
    `opening_plies` (drawn from `rng`), then each decision searched by the mover's seat and
    handed to `record(the mover's view, mover, the search's move)` before a move is played:
    the search's, or with probability `random_moves` a random one, so that positions differ.
    Returns the game's returns (zeros when `max_plies` cut it)."""
    chance_rng = random.Random(derive_seed(seed, "chance"))
    view_rng = random.Random(derive_seed(seed, "view"))
    for seat, agent in enumerate(seats):
        agent.start_game(seat, derive_seed(seed, "agent", seat))
    state = game.initial_state(seed)
    opening = rng.randint(0, opening_plies)
    plies = 0
    while not state.is_terminal() and plies < max_plies:
        mover = state.current_player()
        if mover == CHANCE:
            state.apply(sample_chance(state, chance_rng))
            continue
        legal = state.legal_actions()
        plies += 1
        if plies <= opening:
            state.apply(rng.choice(legal))
            continue
        view = state.view(mover, view_rng)
        chosen = seats[mover].act(view, Clock.start(None))
        record(view, mover, chosen)
        state.apply(rng.choice(legal) if rng.random() < random_moves else chosen)
    return list(state.returns()) if state.is_terminal() else [0.0] * game.num_players


# --- the dataset on disk -------------------------------------------------------------------------
def shard_path(folder: Path, shard: int) -> Path:
    return folder / f"shard-{shard:05d}.npz"


def write_shard(folder: Path, shard: int, labels: Labels) -> None:
    """Write a shard whole or not at all (a temporary file, then a rename)."""
    target = shard_path(folder, shard)
    partial = target.with_suffix(".partial.npz")
    np.savez_compressed(partial, planes=labels.planes, action=labels.action,
                        score=labels.score, result=labels.result, game=labels.game,
                        mover=labels.mover)
    os.replace(partial, target)


def read_shard(path: Path) -> Labels:
    try:
        with np.load(path) as data:
            mover = (data["mover"] if "mover" in data.files
                     else np.full(len(data["action"]), -1, np.int8))
            return Labels(data["planes"], data["action"], data["score"], data["result"],
                          data["game"], mover)
    except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile) as error:
        raise BoardLabError(f"{path} is not a teacher shard ({error}); delete it and rerun "
                            f"`boardlab teach` to label it again") from None


def read_manifest(folder: str | Path, game: Game | None = None) -> dict[str, Any]:
    """The dataset's manifest; with `game`, refuse a dataset of another game."""
    folder = Path(folder)
    path = folder / MANIFEST
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BoardLabError(f"{folder} holds no teacher dataset ({MANIFEST} is missing); make "
                            f"one with `boardlab teach GAME --out {folder}`") from None
    except (OSError, ValueError) as error:
        raise BoardLabError(f"{path} is not a teacher manifest: {error}") from None
    if manifest.get("format") != FORMAT:
        raise BoardLabError(f"{path} is not a teacher manifest (format "
                            f"{manifest.get('format')!r}, expected {FORMAT!r})")
    if game is not None and str(manifest.get("game", "")).split(":")[0] != game.name:
        raise BoardLabError(f"{folder} teaches {manifest.get('game')!r}, not {game.name!r}")
    return manifest


def existing_shards(folder: Path) -> list[int]:
    return sorted(int(p.stem.split("-")[1]) for p in folder.glob("shard-[0-9]*.npz")
                  if not p.name.endswith(".partial.npz"))


def load_dataset(folder: str | Path, game: Game | None = None) -> tuple[dict[str, Any], Labels]:
    """The manifest and every shard's positions, in shard order (games numbered across
    shards). With `game`, refuse a dataset of another game."""
    folder = Path(folder)
    manifest = read_manifest(folder, game)
    parts = [read_shard(shard_path(folder, shard)) for shard in existing_shards(folder)]
    if not parts:
        raise BoardLabError(f"{folder} has a manifest but no shard yet: run `boardlab teach` "
                            f"to label some")
    return manifest, games_numbered_across(parts)


def games_numbered_across(parts: list[Labels]) -> Labels:
    """The parts' positions joined, each part's games numbered after the last part's (a
    shard numbers its own games from 0), so a held-out split by game stays whole games."""
    games = 0
    for labels in parts:
        labels.game = labels.game + games
        games = int(labels.game.max()) + 1 if len(labels) else games
    return Labels.join(parts)


def dataset_folders(folders: str) -> list[str]:
    """The folders a `teacher=` setting names: one, or several joined by the path separator
    (`:` on Linux and macOS, as PATH), so datasets labelled apart train one network."""
    return [folder for folder in folders.split(os.pathsep) if folder]


def load_datasets(folders: str, game: Game | None = None) -> tuple[list[dict[str, Any]], Labels]:
    """`load_dataset` of each folder `dataset_folders` names, their positions joined in that
    order with the games numbered across them (held-out splits go by game)."""
    loaded = [load_dataset(folder, game) for folder in dataset_folders(folders)]
    if not loaded:
        raise BoardLabError("no teacher dataset named")
    manifests = [manifest for manifest, _ in loaded]
    return manifests, games_numbered_across([labels for _, labels in loaded])


def require_same_settings(made: str, found: dict[str, Any], wanted: dict[str, Any]) -> None:
    """Refuse to add to a file made with other settings than `wanted` (a BoardLabError
    naming each difference): the teacher's dataset and the tuner's positions cache resume
    only what the same command started. `made` begins the sentence ("FOLDER was labelled")."""
    differs = [key for key, value in wanted.items() if found.get(key) != value]
    if differs:
        raise BoardLabError(f"{made} with other settings ("
                            + ", ".join(f"{key}: {found.get(key)!r} there, {wanted[key]!r} "
                                        f"now" for key in differs)
                            + "); use another --out or the same settings")


# --- labelling a dataset: the command's work -----------------------------------------------------
@dataclass
class TeachReport:
    """What one `teach` did: the shards it labelled, and the dataset they are now part of."""

    positions: int = 0
    """Positions in the dataset at the end (old shards included)."""
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    """CPU time of this process and its finished workers (os.times)."""
    per_shard: list[ShardStats] = field(default_factory=list)
    """The shards written, in order."""

    @property
    def shards_written(self) -> int:
        return len(self.per_shard)

    @property
    def new_positions(self) -> int:
        """Positions labelled by this run."""
        return sum(stats.positions for stats in self.per_shard)

    @property
    def games(self) -> int:
        return sum(stats.games for stats in self.per_shard)

    @property
    def decided(self) -> int:
        """Games that ended in a win."""
        return sum(stats.decided for stats in self.per_shard)

    @property
    def positions_per_second(self) -> float:
        return self.new_positions / max(self.seconds, 1e-9)


def _label_in_process(task: tuple[str, TeacherSettings, int]) -> tuple[int, Labels, ShardStats]:
    game_spec, settings, shard = task
    labels, stats = label_shard(game_spec, settings, shard)
    return shard, labels, stats


def teach(game_spec: str, settings: TeacherSettings, out: str | Path,
          on_shard: Callable[[TeachReport], None] | None = None) -> TeachReport:
    """Label shards until the dataset at `out` has `settings.positions` positions; a rerun
    writes only the shards still missing. `on_shard(report)` after each shard (progress)."""
    game = make_game(game_spec)  # fails early, with the registry's sentence, on a bad spec
    if not settings.search:
        settings = replace(settings, search=default_search(game))
    make_agent(settings.search, game)
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    manifest_path = folder / MANIFEST
    identity = {"format": FORMAT, "version": VERSION, "game": game.spec,
                "search": settings.search, "seed": settings.seed,
                "shard_positions": settings.shard_positions,
                "opening_plies": settings.opening_plies, "random_moves": settings.random_moves,
                "max_plies": settings.max_plies}
    if manifest_path.exists():
        require_same_settings(f"{folder} was labelled", read_manifest(folder), identity)
    manifest_path.write_text(json.dumps(identity, indent=1) + "\n", encoding="utf-8")

    report = TeachReport()
    done = existing_shards(folder)
    report.positions = sum(len(read_shard(shard_path(folder, s)).action) for s in done)
    before = os.times()
    started = time.perf_counter()
    missing = iter(_missing_shards(done))
    for shard, labels, stats in _labelled(game.spec, settings, folder, missing, report):
        write_shard(folder, shard, labels)
        report.positions += len(labels)
        report.per_shard.append(stats)
        report.seconds = time.perf_counter() - started
        if on_shard is not None:
            on_shard(report)
    after = os.times()
    report.seconds = time.perf_counter() - started
    report.cpu_seconds = (after.user - before.user + after.system - before.system
                          + after.children_user - before.children_user
                          + after.children_system - before.children_system)
    return report


def _missing_shards(done: list[int]) -> Iterator[int]:
    """Shard numbers not yet on disk, in order, without end."""
    have, shard = set(done), 0
    while True:
        if shard not in have:
            yield shard
        shard += 1


def _labelled(game_spec: str, settings: TeacherSettings, folder: Path, missing: Iterator[int],
              report: TeachReport) -> Iterator[tuple[int, Labels, ShardStats]]:
    """Labelled shards until the dataset is big enough: in this process, or `workers` processes
    each labelling one shard at a time (a spawned pool; the shards still to come are asked for
    only while the count falls short, so an over-shoot is at most workers - 1 shards)."""
    def short() -> int:
        return settings.positions - report.positions

    if settings.workers == 1:
        while short() > 0:
            yield _label_in_process((game_spec, settings, next(missing)))
        return
    context = multiprocessing.get_context("spawn")
    with context.Pool(settings.workers) as pool:
        pending: list[Any] = []
        while short() > 0 or pending:
            in_flight = len(pending) * settings.shard_positions
            while short() - in_flight > 0 and len(pending) < settings.workers:
                pending.append(pool.apply_async(_label_in_process,
                                                ((game_spec, settings, next(missing)),)))
                in_flight += settings.shard_positions
            if not pending:
                break
            finished = pending.pop(0).get()
            yield finished


# --- targets for a network -----------------------------------------------------------------------
def squashed(score: np.ndarray, scale: float) -> np.ndarray:
    """A search score as a value in [-1, 1]: tanh(score / scale); won or lost scores are +-1."""
    score = np.asarray(score, dtype=np.float64)
    value = np.tanh(score / scale)
    won = np.abs(score) >= WIN_VALUE / 2
    return np.where(won, np.sign(score), value)


def fitted_scale(labels: Labels) -> float:
    """The scale whose tanh(score / scale) best predicts the game results (least squares over
    the positions whose score is not a found win or loss): Texel's way of fitting the constant
    that turns an evaluation into an expected result. 1 if there is nothing to fit."""
    plain = np.abs(labels.score) < WIN_VALUE / 2
    score, result = labels.score[plain].astype(np.float64), labels.result[plain]
    if not len(score) or not np.any(score):
        return 1.0
    spread = float(np.percentile(np.abs(score[score != 0]), 90)) or 1.0
    candidates = spread * np.geomspace(0.05, 20, 121)
    errors = [float(np.mean((np.tanh(score / k) - result) ** 2)) for k in candidates]
    return float(candidates[int(np.argmin(errors))])


def teacher_values(labels: Labels, result_weight: float, scale: float = 0.0) -> np.ndarray:
    """Value targets: (1 - result_weight) * squashed score + result_weight * result, with the
    fitted scale where `scale` is 0."""
    if not 0 <= result_weight <= 1:
        raise ParseError(f"result weight {result_weight} must be in [0, 1]")
    scale = scale or fitted_scale(labels)
    blended = (1 - result_weight) * squashed(labels.score, scale) + result_weight * labels.result
    return blended.astype(np.float32)


def held_out_split(labels: Labels, share: float, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Row indices (train, held out), the held-out rows a `share` of whole games, so that no
    position of a held-out game is trained on."""
    games = np.unique(labels.game)
    rng = np.random.default_rng(seed)
    count = int(round(share * len(games)))
    if share > 0 and len(games) > 1:
        count = min(max(count, 1), len(games) - 1)
    held = rng.choice(games, size=count, replace=False) if count else np.zeros(0, np.int32)
    mask = np.isin(labels.game, held)
    return np.flatnonzero(~mask), np.flatnonzero(mask)


def describe(manifests: list[dict[str, Any]], labels: Labels) -> str:
    games = len(np.unique(labels.game))
    wins = float(np.mean(np.abs(labels.result) > 0)) if len(labels) else math.nan
    made = " and ".join(f"{m['search']} (seed {m['seed']})" for m in manifests)
    return (f"{len(labels):,} positions from {games:,} games of {made} on "
            f"{manifests[0]['game']}; {wins:.0%} of positions are from "
            f"decided games; fitted score scale {fitted_scale(labels):.4g}")
