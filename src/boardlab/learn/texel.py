"""Texel's tuning method: fit an evaluation's parameters to the results of real games.

Texel (Peter Österlund's engine, 2014; the Chess Programming Wiki's "Texel's Tuning Method")
treats the evaluation e of a position as a prediction of its game's result r (1 a win, 0.5 a
draw, 0 a loss, for the side to move) through a sigmoid, and fits the parameters by least
squares:

    loss = mean over positions of (sigmoid(K * e) - r)^2  [+ l2 * mean((K * (w - w0))^2)]

K is fitted first, with the hand-written parameters w0, and then kept: it fixes the scale, so
the tuned values stay in the units of the table they start from. The l2 term, in logit units
(K * value), pulls towards w0 the entries that few positions see.

What this module does, whatever the game (`Game.linear_evaluation` gives the parameters, a
state's features and which entries to keep; for the chess-like games a piece-square table):
1. positions: a compiled alpha-beta plays both sides (`minimax:depth=D,quiescence=true,
   eval=START`) from varied starts, as learn/teacher.py's games do: up to `opening_plies`
   uniformly random plies first, then a share `random_moves` of the search's moves replaced by
   a random legal one. Every position the search moves in is kept with its features, the
   mover, the static value and a quiescence value (one ply and captures: the game's
   `compiled_quiescence` at depth 1), and, once the game is over, the result for the mover
   (a game still going after `max_plies` is a draw). Games come in chunks of
   `games_per_chunk`, seeded by (seed, chunk), kept in the cache `OUT.positions.npz`
   (written every SAVE_SECONDS and at the end): a killed run resumes there, a rerun asking
   for more positions adds chunks, and one with other fitting settings reuses them. (The
   teacher's game loop keeps a network's input planes, not the state, hence a loop here.);
2. quiet positions only (Texel's filter): the quiescence value within `quiet_margin` units (a
   pawn's worth: `LinearEvaluation.unit`) of the static value, and no win found;
3. the fit: a held-out share of whole games is never trained on; K by a scan of the training
   loss, then the free parameters by L-BFGS (torch, float64) from w0. With a `teacher` (an
   engine that gives its static evaluation, such as Fairy-Stockfish) the targets are the
   teacher's evaluations on the results' scale instead of the results (`teacher_targets`):
   the table learns a stronger evaluation's judgement of each position, not the outcome of
   one game between weak searches;
4. the file: `OUT` (.npz, no pickle) with the tuned `table` and the run's record (game,
   search, seed, positions, games, K, l2, losses before and after on both splits, CPU time),
   which a game's `tuned` evaluator reads (games/chesslike.py `read_tuned_table`).

`boardlab train GAME texel --out FILE --params positions=N,depth=D,...` runs it (learn/cli.py).
"""

from __future__ import annotations

import functools
import os
import random
import time
from collections.abc import Callable
import dataclasses
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np

from ..core.alphabeta import WIN_VALUE
from ..core.game import BoardLabError, Game, LinearEvaluation, ParseError, State
from ..core.match import derive_seed
from ..core.registry import make_agent, make_game
from .teacher import play_searched_game, require_same_settings

FORMAT = "boardlab-texel"
"""The `format` entry of the tuned file (games/chesslike.py reads it)."""
POSITIONS_FORMAT = "boardlab-texel-positions"
VERSION = 1
SAVE_SECONDS = 30.0
"""How often the positions cache is written while games are played (a killed run loses at
most this much play)."""


@dataclass
class TexelSettings:
    start: str = "positional"
    """The evaluator whose parameters the fit starts from and is pulled towards; the search
    that plays the games plays it too."""
    depth: int = 4
    """The playing search: `minimax:depth=DEPTH,quiescence=true,eval=START` (fixed depth:
    the same seed gives the same positions)."""
    positions: int = 20_000
    """Positions to collect, quiet or not (a rerun with more adds chunks)."""
    games_per_chunk: int = 20
    opening_plies: int = 8
    """Random plies before the search plays, drawn uniformly from 0 to this (not kept)."""
    random_moves: float = 0.02
    """Share of the search's moves replaced by a random legal move (few: where a king may be
    taken, a random move that hangs it decides the game, and the positions before it take a
    result they did not deserve)."""
    max_plies: int = 400
    """A game still going after this many plies stops as a draw."""
    quiet_margin: float = 0.5
    """A position is quiet when its quiescence value is within this many units (pawns) of
    its static value."""
    held_out: float = 0.2
    """Share of the games kept out of the fit, to measure it on."""
    l2: float = 0.01
    """Weight of the pull towards the starting parameters (mean square, in K * value)."""
    iterations: int = 300
    """L-BFGS iterations at most."""
    keep_rows: int = 0
    """The first this many rows of the parameters stay as they start: with a game's
    piece-square rows kept, only the rows below them (an activity row) are fitted, which
    overfits less where the games are few."""
    workers: int = 1
    """Processes playing chunks at once."""
    seed: int = 0
    teacher: str = ""
    """An engine agent whose static evaluation of each quiet position is the fit's target
    instead of the game's result (distillation: `teacher_targets`), e.g.
    `engine:cmd=/usr/games/fairy-stockfish`, a UCI engine of the Stockfish family, which
    answers its `eval` command; empty: the results (Texel's method)."""

    def __post_init__(self) -> None:
        if self.depth < 1 or self.positions < 1 or self.games_per_chunk < 1 \
                or self.max_plies < 1 or self.iterations < 1 or self.workers < 1:
            raise ParseError("texel: depth, positions, games_per_chunk, max_plies, iterations "
                             "and workers must be at least 1")
        if self.opening_plies < 0:
            raise ParseError(f"texel: opening_plies={self.opening_plies} must not be negative")
        if not 0 <= self.random_moves <= 1 or not 0 < self.held_out < 1:
            raise ParseError("texel: random_moves must be in [0, 1] and held_out in (0, 1)")
        if self.quiet_margin < 0 or self.l2 < 0 or self.keep_rows < 0:
            raise ParseError("texel: quiet_margin, l2 and keep_rows must not be negative")

    @property
    def search(self) -> str:
        return f"minimax:depth={self.depth},quiescence=true,eval={self.start}"


GENERATION = ("start", "depth", "games_per_chunk", "opening_plies", "random_moves",
              "max_plies", "seed")
"""The settings the cached positions depend on."""


# --- positions -----------------------------------------------------------------------------------
@dataclass
class Positions:
    """Positions as arrays, one row each; features padded with index -1, sign 0."""

    index: np.ndarray
    """(n, features) int32: flat indices into the parameters."""
    sign: np.ndarray
    """(n, features) float32: each feature's sign for player 0's value (+-1, or a share of it
    where the evaluation blends two tables by the game's phase)."""
    mover: np.ndarray
    """int8: the side to move (its value is player 0's times +-1)."""
    result: np.ndarray
    """float32: the game's result for the mover, 1, 0.5 or 0."""
    static: np.ndarray
    """float64: the starting evaluator's value for the mover."""
    quiet_value: np.ndarray
    """float64: one ply and captures searched, for the mover."""
    game: np.ndarray
    """int32: which game (numbered over the chunks): the held-out split goes by game."""
    text: np.ndarray
    """The position in the game's notation (unicode), to look at or featurise again."""

    def __len__(self) -> int:
        return len(self.mover)

    @staticmethod
    def join(parts: list["Positions"]) -> "Positions":
        width = max((p.index.shape[1] for p in parts), default=0)
        padded = [_pad(p, width) for p in parts]
        return Positions(*(np.concatenate([getattr(p, f.name) for p in padded])
                           for f in fields(Positions)))

    def take(self, rows: np.ndarray) -> "Positions":
        return Positions(*(getattr(self, f.name)[rows] for f in fields(Positions)))


def _pad(part: Positions, width: int) -> Positions:
    extra = width - part.index.shape[1]
    if not extra:
        return part
    rows = len(part)
    return Positions(np.hstack([part.index, np.full((rows, extra), -1, np.int32)]),
                     np.hstack([part.sign, np.zeros((rows, extra), np.float32)]),
                     part.mover, part.result, part.static, part.quiet_value, part.game,
                     part.text)


def linear_evaluation(game: Game) -> LinearEvaluation:
    linear = game.linear_evaluation()
    if linear is None:
        raise BoardLabError(f"{game.name} declares no evaluation linear in a table "
                            f"(Game.linear_evaluation): Texel's method has nothing to tune")
    return linear


def _keep_position(linear: LinearEvaluation, static: Callable[[State, int], float],
                   quiescence: Any, kept: list[tuple[Any, ...]], state: State, mover: int,
                   chosen: int) -> None:
    """A decision of a tuning game: its features, the mover, the static value and the value
    after one ply and captures (to tell a quiet position), and its text."""
    index, sign = linear.features(state)
    quiet = (quiescence(state, state.legal_actions(), 1, mover, 1 << 40)[1]
             if quiescence is not None else static(state, mover))
    kept.append((index, sign, mover, static(state, mover), quiet, state.to_text()))


def _padded(features: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """Positions' (indices, signs) as two arrays, one row each, padded with index -1, sign 0."""
    width = max((len(index) for index, _ in features), default=0)
    index = np.full((len(features), width), -1, np.int32)
    sign = np.zeros((len(features), width), np.float32)
    for row, (indices, signs) in enumerate(features):
        index[row, :len(indices)] = indices
        sign[row, :len(signs)] = signs
    return index, sign


def play_chunk(game_spec: str, settings: TexelSettings, chunk: int) -> Positions:
    """`games_per_chunk` games of the search against itself; their positions."""
    game = make_game(game_spec)
    linear = linear_evaluation(game)
    seats = [make_agent(settings.search, game) for _ in range(game.num_players)]
    static = game.evaluators[settings.start]
    quiescence = game.compiled_quiescence(settings.start)
    rows: list[tuple[Any, ...]] = []
    for number in range(settings.games_per_chunk):
        game_number = chunk * settings.games_per_chunk + number
        seed = derive_seed(settings.seed, "texel", chunk, "game", number)
        kept: list[tuple[Any, ...]] = []
        record = functools.partial(_keep_position, linear, static, quiescence, kept)
        returns = play_searched_game(game, seats, seed, random.Random(seed),
                                     settings.opening_plies, settings.random_moves,
                                     settings.max_plies, record)
        rows += [(index, sign, mover, (returns[mover] + 1) / 2, value, quiet, game_number, text)
                 for index, sign, mover, value, quiet, text in kept]
    index, sign = _padded([(row[0], row[1]) for row in rows])
    return Positions(index, sign, np.array([r[2] for r in rows], np.int8),
                     np.array([r[3] for r in rows], np.float32),
                     np.array([r[4] for r in rows], np.float64),
                     np.array([r[5] for r in rows], np.float64),
                     np.array([r[6] for r in rows], np.int32),
                     np.array([r[7] for r in rows], dtype=str))


def cache_path(out: str | Path) -> Path:
    out = Path(out)
    return out.with_name(out.name + ".positions.npz")


def _identity(game_spec: str, settings: TexelSettings) -> dict[str, Any]:
    return {"format": POSITIONS_FORMAT, "version": VERSION, "game": game_spec,
            **{name: getattr(settings, name) for name in GENERATION}}


def read_positions(path: Path, identity: dict[str, Any]) -> tuple[Positions, int]:
    """The cached positions and the chunks they hold; a BoardLabError when they were made
    with other settings or the file is not a cache."""
    try:
        with np.load(path, allow_pickle=False) as data:
            found = {key: data[f"meta_{key}"].item() for key in identity
                     if f"meta_{key}" in data.files}
            positions = Positions(*(data[f.name] for f in fields(Positions)))
            chunks = int(data["chunks"])
    except (OSError, KeyError, ValueError, EOFError) as error:
        why = f"no {error}" if isinstance(error, KeyError) else "not an .npz archive"
        raise BoardLabError(f"{path} is not a Texel positions cache ({why}); delete it to "
                            f"play the games again") from None
    require_same_settings(f"{path} holds positions made", found, identity)
    return positions, chunks


def write_positions(path: Path, identity: dict[str, Any], positions: Positions,
                    chunks: int) -> None:
    partial = path.with_name(path.name + ".partial.npz")
    np.savez_compressed(partial, chunks=chunks,
                        **{f"meta_{key}": value for key, value in identity.items()},
                        **{f.name: getattr(positions, f.name) for f in fields(Positions)})
    os.replace(partial, path)


def _play_in_process(task: tuple[str, TexelSettings, int]) -> tuple[int, Positions]:
    game_spec, settings, chunk = task
    return chunk, play_chunk(game_spec, settings, chunk)


def featurised(game_spec: str, positions: Positions) -> Positions:
    """`positions` with their features computed again from their texts: a cache made before
    the game's evaluation gained features still serves."""
    game = make_game(game_spec)
    linear = linear_evaluation(game)
    index, sign = _padded([linear.features(game.state_from_text(str(text)))
                           for text in positions.text])
    return dataclasses.replace(positions, index=index, sign=sign)


def collect(game_spec: str, settings: TexelSettings, cache: Path | None = None,
            on_chunk: Callable[[int], None] | None = None) -> tuple[Positions, int]:
    """Positions until there are `settings.positions` (resuming `cache`, written every
    SAVE_SECONDS and at the end when given), and the chunks played; `on_chunk(positions so
    far)` at the start and after each chunk."""
    identity = _identity(game_spec, settings)
    parts: list[Positions] = []
    chunks = 0
    if cache is not None and cache.exists():
        old, chunks = read_positions(cache, identity)
        parts.append(featurised(game_spec, old))
    count = sum(len(p) for p in parts)
    if on_chunk is not None:
        on_chunk(count)

    saved = time.monotonic()

    def record(part: Positions) -> None:
        nonlocal count, chunks, saved
        parts.append(part)
        count += len(part)
        chunks += 1
        # The cache is written again whole: every SAVE_SECONDS, and at the end.
        if cache is not None and (count >= settings.positions
                                  or time.monotonic() - saved > SAVE_SECONDS):
            joined = Positions.join(parts)
            parts[:] = [joined]
            write_positions(cache, identity, joined, chunks)
            saved = time.monotonic()
        if on_chunk is not None:
            on_chunk(count)

    if settings.workers == 1:
        while count < settings.positions:
            record(play_chunk(game_spec, settings, chunks))
    else:
        import multiprocessing

        with multiprocessing.get_context("spawn").Pool(settings.workers) as pool:
            pending: list[Any] = []
            next_chunk = chunks
            while count < settings.positions or pending:
                each = count / chunks if chunks else 1  # positions a chunk brings
                while count + len(pending) * each < settings.positions and \
                        len(pending) < settings.workers:
                    pending.append(pool.apply_async(_play_in_process,
                                                    ((game_spec, settings, next_chunk),)))
                    next_chunk += 1
                if not pending:
                    break
                record(pending.pop(0).get()[1])
    if not parts:
        raise BoardLabError("texel: no positions were collected")
    return Positions.join(parts), chunks


# --- the fit -------------------------------------------------------------------------------------
def quiet_rows(positions: Positions, margin: float) -> np.ndarray:
    """Texel's quiet positions: the quiescence value within `margin` of the static one, no win
    or loss found."""
    calm = np.abs(positions.quiet_value - positions.static) <= margin
    return np.flatnonzero(calm & (np.abs(positions.quiet_value) < WIN_VALUE / 2))


def held_out_split(game: np.ndarray, share: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Row indices (train, held out), the held-out rows a `share` of whole games."""
    games = np.unique(game)
    count = min(max(int(round(share * len(games))), 1), len(games) - 1) if len(games) > 1 else 0
    held = np.random.default_rng(seed).choice(games, size=count, replace=False)
    mask = np.isin(game, held)
    return np.flatnonzero(~mask), np.flatnonzero(mask)


def values(positions: Positions, parameters: np.ndarray) -> np.ndarray:
    """Each position's value for its mover under `parameters` (flat)."""
    padded = np.append(np.asarray(parameters, np.float64).ravel(), 0.0)
    player0 = (positions.sign * padded[positions.index]).sum(axis=1)
    return np.where(positions.mover == 0, player0, -player0)


def loss(positions: Positions, parameters: np.ndarray, k: float) -> float:
    """Mean squared error of sigmoid(k * value) against the results."""
    predicted = 1 / (1 + np.exp(-k * values(positions, parameters)))
    return float(np.mean((predicted - positions.result) ** 2))


def fit_k(positions: Positions, parameters: np.ndarray) -> float:
    """The K that best predicts the results with `parameters` (a log scan, then refined)."""
    value = values(positions, parameters)
    spread = float(np.percentile(np.abs(value[value != 0]), 90)) if np.any(value) else 1.0

    def error(k: float) -> float:
        return float(np.mean((1 / (1 + np.exp(-k * value)) - positions.result) ** 2))

    candidates = np.geomspace(0.01, 30, 200) / max(spread, 1e-9)
    best = int(np.argmin([error(k) for k in candidates]))
    low, high = candidates[max(best - 1, 0)], candidates[min(best + 1, len(candidates) - 1)]
    for _ in range(40):  # golden section on the bracket
        a, b = high - (high - low) / 1.618, low + (high - low) / 1.618
        low, high = (low, b) if error(a) < error(b) else (a, high)
    return float((low + high) / 2)


def fit(positions: Positions, start: np.ndarray, free: np.ndarray, k: float, l2: float,
        iterations: int) -> np.ndarray:
    """The parameters minimising the loss plus the l2 pull towards `start`, only the `free`
    entries (a boolean mask) moving: L-BFGS from `start`."""
    import torch

    flat = torch.from_numpy(np.append(start.ravel(), 0.0).astype(np.float64))
    moving = torch.from_numpy(np.flatnonzero(free.ravel()))
    index = torch.from_numpy(np.where(positions.index < 0, flat.numel() - 1,
                                      positions.index).astype(np.int64))
    mover = np.where(positions.mover == 0, 1.0, -1.0)[:, None]
    sign = torch.from_numpy(positions.sign.astype(np.float64) * mover)
    result = torch.from_numpy(positions.result.astype(np.float64))
    delta = torch.zeros(len(moving), dtype=torch.float64, requires_grad=True)
    optimizer = torch.optim.LBFGS([delta], lr=1, max_iter=iterations, history_size=20,
                                  tolerance_grad=1e-10, tolerance_change=1e-14,
                                  line_search_fn="strong_wolfe")

    def objective() -> Any:
        optimizer.zero_grad()
        weights = flat.index_add(0, moving, delta)
        value = (sign * weights[index]).sum(dim=1)
        error = ((torch.sigmoid(k * value) - result) ** 2).mean()
        total = error + l2 * ((k * delta) ** 2).mean() if len(moving) else error
        total.backward()
        return total

    if len(moving):
        optimizer.step(objective)
    tuned = start.ravel().astype(np.float64).copy()
    tuned[moving.numpy()] += delta.detach().numpy()
    return tuned.reshape(start.shape)


@dataclass
class TexelReport:
    table: np.ndarray
    start: np.ndarray
    k: float
    positions: int
    """Positions collected, quiet or not."""
    quiet: int
    train: int
    held: int
    games: int
    losses: dict[str, float] = field(default_factory=dict)
    """train_before, train_after, held_before, held_after: the mean squared error."""
    play_seconds: float = 0.0
    fit_seconds: float = 0.0
    cpu_seconds: float = 0.0


def tune(positions: Positions, linear: LinearEvaluation, settings: TexelSettings,
         game_spec: str = "") -> TexelReport:
    """The fit on collected positions: quiet ones, split by game, K, then the table."""
    start = np.asarray(linear.parameters(settings.start), dtype=np.float64)
    quiet = positions.take(quiet_rows(positions, settings.quiet_margin * linear.unit))
    train_rows, held_rows = held_out_split(quiet.game, settings.held_out, settings.seed)
    if not len(train_rows) or not len(held_rows):
        raise BoardLabError(f"texel: {len(quiet)} quiet positions from "
                            f"{len(np.unique(quiet.game))} games are too few to split; "
                            f"collect more (positions=)")
    train, held = quiet.take(train_rows), quiet.take(held_rows)
    k = fit_k(train, start)
    started = time.perf_counter()
    free = ~linear.fixed
    free[:settings.keep_rows] = False
    targets = train
    taught: dict[str, float] = {}
    if settings.teacher:
        judged = teacher_targets(quiet, start, k, train_rows, settings.teacher, game_spec)
        targets = judged.take(train_rows[np.isin(train_rows, judged.rows)])
        held_judged = judged.take(held_rows[np.isin(held_rows, judged.rows)])
    table = fit(targets, start, free, k, settings.l2, settings.iterations)
    if settings.teacher:
        taught = {"teacher_scale": judged.scale, "teacher_positions": len(judged.rows),
                  "teacher_held_before": loss(held_judged, start, k),
                  "teacher_held_after": loss(held_judged, table, k)}
    report = TexelReport(table, start, k, len(positions), len(quiet), len(train), len(held),
                         len(np.unique(positions.game)))
    report.fit_seconds = time.perf_counter() - started
    report.losses = {"train_before": loss(train, start, k), "train_after": loss(train, table, k),
                     "held_before": loss(held, start, k), "held_after": loss(held, table, k),
                     **taught}
    return report


@dataclass
class Judged:
    """Positions whose `result` is a teacher's target; `rows` are their rows among the
    positions judged (a position the teacher gives no value, one in check, is left out), and
    `scale` the teacher's unit in the table's (`teacher_targets`)."""

    positions: Positions
    rows: np.ndarray
    scale: float

    def take(self, rows: np.ndarray) -> Positions:
        """The judged positions at `rows` (rows of the positions judged, all in `self.rows`)."""
        return self.positions.take(np.searchsorted(self.rows, rows))


def teacher_targets(positions: Positions, start: np.ndarray, k: float, train_rows: np.ndarray,
                    teacher: str, game_spec: str) -> Judged:
    """Each position's target from a teacher engine's static evaluation t (its own unit, for
    the side to move): sigmoid(K * scale * t), where scale, the table's units per teacher unit,
    is the least-squares line through 0 from the teacher's values to the starting table's
    over the training positions (the most lopsided tenth left out). The fit then asks the table
    to predict the teacher's evaluation on the scale of the results: a target without the
    noise of one game's result."""
    game = make_game(game_spec)
    agent = make_agent(teacher, game)
    judge = getattr(agent, "static_evaluation", None)
    if judge is None:
        raise ParseError(f"texel: teacher={teacher!r} is no engine agent that can evaluate a "
                         f"position (engine:cmd=...)")
    try:
        said = np.array([_for_mover(judge(game.state_from_text(str(text))), mover)
                         for text, mover in zip(positions.text, positions.mover)])
    finally:
        getattr(agent, "close", lambda: None)()  # an engine's process stops now
    rows = np.flatnonzero(~np.isnan(said))
    ours = values(positions, start)
    train = rows[np.isin(rows, train_rows)]
    usual = train[np.abs(said[train]) <= np.percentile(np.abs(said[train]), 90)]
    if not len(usual) or not np.any(said[usual]):
        raise BoardLabError(f"texel: the teacher {teacher!r} judged no training position")
    scale = float(np.dot(ours[usual], said[usual]) / np.dot(said[usual], said[usual]))
    judged = positions.take(rows)
    judged.result = (1 / (1 + np.exp(-k * scale * said[rows]))).astype(np.float32)
    return Judged(judged, rows, scale)


def _for_mover(player0_value: float | None, mover: int) -> float:
    if player0_value is None:
        return np.nan
    return player0_value if mover == 0 else -player0_value


# --- the file ------------------------------------------------------------------------------------
def save_table(path: str | Path, game_spec: str, settings: TexelSettings,
               report: TexelReport) -> None:
    """The tuned table and its record as an .npz without pickled objects, written whole or not
    at all."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial.npz")
    record: dict[str, Any] = {
        "format": FORMAT, "version": VERSION, "game": game_spec, "search": settings.search,
        "table": report.table, "start_table": report.start, "k": report.k,
        "positions": report.positions, "quiet": report.quiet, "train": report.train,
        "held": report.held, "games": report.games, "play_seconds": report.play_seconds,
        "fit_seconds": report.fit_seconds, "cpu_seconds": report.cpu_seconds,
        **{f"loss_{name}": value for name, value in report.losses.items()},
        **{f"setting_{name}": value for name, value in asdict(settings).items()}}
    np.savez(partial, **record)
    os.replace(partial, path)


def read_record(path: str | Path) -> dict[str, Any]:
    """A tuned file's entries as Python values (the table as an array)."""
    try:
        with np.load(path, allow_pickle=False) as data:
            record = {key: data[key] if data[key].ndim else data[key].item()
                      for key in data.files}
    except (OSError, ValueError, EOFError):
        raise BoardLabError(f"{path} is not a tuned evaluation file (no .npz archive without "
                            f"pickled objects there)") from None
    if record.get("format") != FORMAT:
        raise BoardLabError(f"{path} is not a tuned evaluation file (format "
                            f"{record.get('format')!r}, not {FORMAT!r})")
    return record


def run(game_spec: str, settings: TexelSettings, out: str | Path,
        on_chunk: Callable[[int], None] | None = None) -> TexelReport:
    """Collect (or resume) the positions beside `out`, fit, write `out`."""
    game = make_game(game_spec)
    linear = linear_evaluation(game)
    try:
        linear.parameters(settings.start)
    except (KeyError, ValueError) as error:
        raise ParseError(f"texel: start={settings.start!r} is no table of {game.name} "
                         f"({error})") from None
    if settings.keep_rows >= linear.shape[0]:
        raise ParseError(f"texel: keep_rows={settings.keep_rows} would keep every row of "
                         f"{game.name}'s {linear.shape[0]}: nothing would be fitted")
    make_agent(settings.search, game)
    before = os.times()
    started = time.perf_counter()
    positions, _ = collect(game.spec, settings, cache_path(out), on_chunk)
    play_seconds = time.perf_counter() - started
    report = tune(positions, linear, settings, game.spec)
    after = os.times()
    report.play_seconds = play_seconds
    report.cpu_seconds = (after.user - before.user + after.system - before.system
                          + after.children_user - before.children_user
                          + after.children_system - before.children_system)
    save_table(out, game.spec, settings, report)
    return report


def describe(report: TexelReport) -> str:
    losses = report.losses
    moved = np.abs(report.table - report.start)
    taught = ""
    if "teacher_held_after" in losses:
        taught = (f"the teacher's targets ({losses['teacher_positions']:,.0f} positions judged, "
                  f"{losses['teacher_scale']:.4g} units a teacher's unit): held out "
                  f"{losses['teacher_held_before']:.5f} -> {losses['teacher_held_after']:.5f}\n")
    return (f"{report.positions:,} positions from {report.games:,} games, {report.quiet:,} "
            f"quiet ({report.train:,} train, {report.held:,} held out); K = {report.k:.4g}\n"
            f"loss (results) train {losses['train_before']:.5f} -> "
            f"{losses['train_after']:.5f}, held out {losses['held_before']:.5f} -> "
            f"{losses['held_after']:.5f}\n{taught}"
            f"entries moved by {float(moved.mean()):.3g} on average, "
            f"{float(moved.max()):.3g} at most; {report.play_seconds:.0f}s playing, "
            f"{report.fit_seconds:.1f}s fitting, {report.cpu_seconds:.0f}s CPU")
