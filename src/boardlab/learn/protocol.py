"""The training protocol: what every learner implements, and the one loop that drives it.

A `Trainer` knows its algorithm; `train` knows everything around it, once for all learners:
resuming from the checkpoint, evaluation against random and greedy at fixed seeds, the
weights a user plays with, the metrics CSV, and callbacks through which the command line
draws progress and curves (this module prints and plots nothing).

Files for `out` (e.g. GAME-dqn.pt; the shipped files live in src/boardlab/models/):
- out: the weights a user plays with, written at every evaluation and at the end;
- out.ckpt (+ out.ckpt.json for Q tables): the whole training state (network, target,
  optimizer, replay buffer, counters, random generators), written between episodes: a
  vectorized trainer finishes the games it started before it returns from `train_until`. A rerun
  of the same command resumes from it up to the requested number of episodes and plays
  exactly the games an uninterrupted run would have played (tests/learn check this);
- out.metrics.csv: one row per evaluation.
"""

from __future__ import annotations

import csv
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, ClassVar

from ..core.agent import Agent
from ..core.game import BoardLabError, Game
from ..core.match import derive_seed
from ..core.registry import make_agent
from .episodes import evaluate

METRIC_FIELDS = ["episode", "env_steps", "updates", "epsilon", "loss", "score_random",
                 "score_greedy", "wins_random", "draws_random", "losses_random", "wins_greedy",
                 "draws_greedy", "losses_greedy", "fallback_rate", "train_seconds",
                 "steps_per_second", "updates_per_second", "cpu_seconds"]
EVALUATION_OPPONENTS = ("random", "greedy")


@dataclass
class Progress:
    """Counters of a training run, summed over all its resumed parts."""

    episodes: int = 0
    env_steps: int = 0
    """Plies played in training games by anyone (chance outcomes excluded)."""
    updates: int = 0
    """Gradient steps (DQN) or table updates (Q-learning)."""
    seconds: float = 0.0
    """Time spent training (evaluation and checkpoints excluded)."""
    cpu_seconds: float = 0.0
    """CPU time of the training process (all its threads) in those seconds; self-play
    workers in other processes are not counted (one worker plays in this process)."""

    def to_dict(self) -> dict[str, Any]:
        return {"episodes": self.episodes, "env_steps": self.env_steps,
                "updates": self.updates, "seconds": self.seconds,
                "cpu_seconds": self.cpu_seconds}

    def restore(self, meta: dict[str, Any]) -> None:
        """The counters saved in a checkpoint's meta (KeyError if one is missing)."""
        self.episodes, self.env_steps = meta["episodes"], meta["env_steps"]
        self.updates, self.seconds = meta["updates"], meta["seconds"]
        self.cpu_seconds = meta.get("cpu_seconds", 0.0)  # checkpoints from before it


def unfit_checkpoint(path: Path, what: str, error: Exception) -> BoardLabError:
    """The one-line error for a checkpoint whose contents do not fit the trainer."""
    first = (str(error).splitlines() or [""])[0][:120]
    return BoardLabError(f"{what} {path} does not fit this training run "
                         f"({type(error).__name__}: {first}); delete it or use another --out")


class Trainer(ABC):
    """One learning algorithm on one game, driven by `train`."""

    algorithm: ClassVar[str] = ""
    unit: ClassVar[str] = "episode"
    """What `episodes` counts for this trainer: AlphaZero's unit is a whole iteration
    (self-play, training, gate), too coarse to stop inside and still resume exactly."""
    checkpoint_every: ClassVar[int | None] = None
    """Episodes between checkpoints when `train` is given none (None: at each evaluation);
    AlphaZero keeps every iteration, each minutes long."""
    metric_fields: ClassVar[tuple[str, ...]] = ()
    """Columns this trainer adds to METRIC_FIELDS in the metrics CSV (from `metrics()`)."""

    def __init__(self, game: Game, seed: int) -> None:
        self.game = game
        self.seed = seed
        self.progress = Progress()

    @abstractmethod
    def train_until(self, total_episodes: int) -> None:
        """Train until `progress.episodes == total_episodes` (a total, not a number more):
        every episode started has ended."""

    @abstractmethod
    def player(self) -> Agent:
        """An agent playing the current policy greedily (sharing the trainer's weights)."""

    def metrics(self) -> dict[str, Any]:
        """Values for the metrics row since the last call: `loss`, `epsilon`, ..."""
        return {}

    def identity(self) -> dict[str, Any]:
        """What a checkpoint must agree on to be resumed by this trainer."""
        return {"algorithm": self.algorithm, "seed": self.seed}

    @abstractmethod
    def save_checkpoint(self, path: Path, meta: dict[str, Any]) -> None:
        """The whole training state, `meta` (identity and progress) included, atomically."""

    @abstractmethod
    def load_checkpoint(self, path: Path) -> dict[str, Any]:
        """Restore the training state; returns the meta saved with it. A damaged file is a
        one-line BoardLabError naming it."""

    @abstractmethod
    def export(self, path: Path) -> int:
        """Write the weights a user plays with; returns the bytes written."""

    def describe(self) -> str:
        return ""

    def out_of_budget(self) -> bool:
        """Whether the trainer's own budget (AlphaZero's minutes=) is spent: `train` then ends
        as if the requested episodes were done (evaluation, export, checkpoint), and `train_until`
        may return early. Default: no budget of its own."""
        return False


@dataclass
class RunReport(Progress):
    """What one invocation of `train` did (this part only, not the resumed ones): the
    `Progress` it made, and what it spent and wrote besides."""

    resumed_from: int = 0
    eval_seconds: float = 0.0
    weights_bytes: int = 0
    rows: list[dict[str, Any]] = field(default_factory=list)

    @property
    def train_seconds(self) -> float:
        """Time spent training (`seconds`; evaluation and checkpoints excluded)."""
        return self.seconds

    @property
    def steps_per_second(self) -> float:
        return self.env_steps / self.seconds if self.seconds else 0.0

    @property
    def updates_per_second(self) -> float:
        return self.updates / self.seconds if self.seconds else 0.0


def paths_for(out: Path) -> dict[str, Path]:
    return {"weights": out, "checkpoint": out.with_name(out.name + ".ckpt"),
            "csv": out.with_name(out.name + ".metrics.csv"),
            "png": out.with_name(out.name + ".curve.png")}


def train(trainer: Trainer, out: Path, episodes: int, eval_every: int = 200,
          eval_games: int = 20, checkpoint_every: int | None = None,
          on_row: Callable[[list[dict[str, Any]]], None] | None = None,
          on_progress: Callable[[Progress], None] | None = None,
          on_start: Callable[[Progress], None] | None = None) -> RunReport:
    """Train until `episodes` episodes are done in total, resuming from out.ckpt.

    Every `eval_every` episodes (and at the end) the greedy policy plays `eval_games` games
    against random and against greedy (the same seeded games every time, seats alternating),
    the weights are exported and a metrics row is written; `on_row(rows)` then sees all rows.
    The checkpoint is written every `checkpoint_every` episodes (default: at each evaluation)
    and at the end. `on_start(progress)` is called once, when there is training to do (not
    when a checkpoint has done `episodes` already), and `on_progress(progress)` after each chunk
    of training.
    """
    if episodes < 1:
        raise BoardLabError(f"--episodes must be at least 1, got {episodes}")
    if eval_every < 1 or eval_games < 1:
        raise BoardLabError("--eval-every and --eval-games must be at least 1")
    checkpoint_every = checkpoint_every or trainer.checkpoint_every or eval_every
    paths = paths_for(out)
    rows: list[dict[str, Any]] = []
    report = RunReport()
    if paths["checkpoint"].exists():
        meta = trainer.load_checkpoint(paths["checkpoint"])
        expected = trainer.identity()
        found = {key: meta.get(key) for key in expected}
        if found != expected:
            raise BoardLabError(f"checkpoint {paths['checkpoint']} is from a different run "
                                f"({found}, this run: {expected}); delete it or use another "
                                "--out")
        # rows past the checkpoint were written by a run killed before it could checkpoint
        # them; the resumed run writes them again
        rows = [row for row in read_rows(paths["csv"])
                if isinstance(row.get("episode"), int)
                and row["episode"] <= trainer.progress.episodes]
        report.resumed_from = trainer.progress.episodes
    if trainer.progress.episodes >= episodes:
        return report
    if on_start is not None:
        on_start(trainer.progress)
    evaluators = {name: make_agent(name, trainer.game) for name in EVALUATION_OPPONENTS}
    start = Progress(**trainer.progress.to_dict())
    while trainer.progress.episodes < episodes:
        done = trainer.progress.episodes
        target = min(episodes, _next_multiple(done, eval_every),
                     _next_multiple(done, checkpoint_every))
        started, cpu_started = time.perf_counter(), time.process_time()
        trainer.train_until(target)
        trainer.progress.seconds += time.perf_counter() - started
        trainer.progress.cpu_seconds += time.process_time() - cpu_started
        _since(report, trainer.progress, start)
        if on_progress is not None:
            on_progress(trainer.progress)
        done = trainer.progress.episodes
        finished = done >= episodes or trainer.out_of_budget()
        if finished or _crossed(target, done, eval_every):
            started = time.perf_counter()
            rows.append(evaluation_row(trainer, evaluators, eval_games))
            report.eval_seconds += time.perf_counter() - started
            report.weights_bytes = trainer.export(paths["weights"])
            write_rows(rows, paths["csv"], trainer.metric_fields)
            if on_row is not None:
                on_row(rows)
        if finished or _crossed(target, done, checkpoint_every):
            trainer.save_checkpoint(paths["checkpoint"],
                                    {**trainer.identity(), **trainer.progress.to_dict()})
        if finished:  # done, or the trainer's own budget is spent
            break
    report.rows = rows
    return report


def _next_multiple(done: int, every: int) -> int:
    return (done // every + 1) * every


def _crossed(target: int, done: int, every: int) -> bool:
    """Whether training reached the multiple of `every` it was advancing to."""
    return target % every == 0 and done >= target


def _since(report: RunReport, now: Progress, start: Progress) -> None:
    report.episodes = now.episodes - start.episodes
    report.env_steps = now.env_steps - start.env_steps
    report.updates = now.updates - start.updates
    report.seconds = now.seconds - start.seconds
    report.cpu_seconds = now.cpu_seconds - start.cpu_seconds


def evaluation_row(trainer: Trainer, evaluators: dict[str, Agent],
                   games: int) -> dict[str, Any]:
    """The metrics row: counters, the trainer's metrics, and the scores of its greedy policy."""
    p = trainer.progress
    row: dict[str, Any] = {"episode": p.episodes, "env_steps": p.env_steps,
                           "updates": p.updates, **trainer.metrics()}
    player = trainer.player()
    for name, opponent in evaluators.items():
        score, wins, draws, losses = evaluate(trainer.game, lambda: player, opponent, games,
                                              derive_seed(trainer.seed, "evaluation", name))
        row[f"score_{name}"] = score
        row[f"wins_{name}"], row[f"draws_{name}"], row[f"losses_{name}"] = wins, draws, losses
    stats = getattr(player, "stats", None)
    row["fallback_rate"] = (stats["fallbacks"] / stats["decisions"]
                            if stats and stats["decisions"] else "")
    row["train_seconds"] = round(p.seconds, 1)
    row["steps_per_second"] = round(p.env_steps / p.seconds, 1) if p.seconds else ""
    row["updates_per_second"] = round(p.updates / p.seconds, 1) if p.seconds else ""
    row["cpu_seconds"] = round(p.cpu_seconds, 3)
    return row


def write_rows(rows: list[dict[str, Any]], path: Path, extra: tuple[str, ...] = ()) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=METRIC_FIELDS + list(extra),
                                extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    tmp.replace(path)


def read_rows(path: Path) -> list[dict[str, Any]]:
    """The metrics rows written so far; BoardLabError naming the file if it is not a CSV."""
    if not path.exists():
        return []
    try:
        with open(path, newline="", encoding="utf-8") as handle:
            return [{k: _number(v) for k, v in row.items()} for row in csv.DictReader(handle)]
    except (UnicodeDecodeError, csv.Error) as error:
        raise BoardLabError(f"metrics file {path} is not a readable CSV ({error}); delete it "
                            "(the checkpoint holds the training state) or use another --out") \
            from None


def _number(text: str) -> Any:
    try:
        value = float(text)
    except (TypeError, ValueError):
        return text
    return int(value) if value.is_integer() and "." not in text else value
