"""The training loop behind `boardlab train`: episodes, periodic evaluation, metrics, resume.

Files for `--out PATH` (e.g. models/jungle-dqn.pt):
- PATH: the weights a user plays with, written at every evaluation and at the end;
- PATH.ckpt (+ PATH.ckpt.json for Q tables): the full training state; a rerun of the same
  command resumes from it up to the requested episode count;
- PATH.metrics.csv and PATH.curve.png: one row per evaluation; the curve shows the score
  (draws half) against random and greedy, and the loss, against episodes.
Episode k is seeded with derive_seed(seed, "train", k) and plays seat k % 2, so a resumed run
plays the same games as an uninterrupted one (the replay buffer, not checkpointed, refills).
"""

from __future__ import annotations

import csv
import math
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ..core.game import BoardLabError, Game
from ..core.match import derive_seed
from ..core.registry import make_agent
from .episodes import OpponentMix, evaluate, play_episode
from .trainers import Trainer

METRIC_FIELDS = ["episode", "learner_steps", "plies", "epsilon", "loss", "score_random",
                 "score_greedy", "wins_random", "draws_random", "losses_random", "wins_greedy",
                 "draws_greedy", "losses_greedy", "fallback_rate", "train_seconds",
                 "steps_per_second", "updates_per_second"]


@dataclass
class RunReport:
    episodes_done: int
    learner_steps: int
    plies: int
    updates: int
    train_seconds: float
    eval_seconds: float
    rows: list[dict[str, Any]] = field(default_factory=list)
    weights_bytes: int = 0
    resumed_from: int = 0

    @property
    def steps_per_second(self) -> float:
        return self.plies / self.train_seconds if self.train_seconds else 0.0

    @property
    def updates_per_second(self) -> float:
        return self.updates / self.train_seconds if self.train_seconds else 0.0


def paths_for(out: Path) -> dict[str, Path]:
    return {"weights": out, "checkpoint": out.with_name(out.name + ".ckpt"),
            "csv": out.with_name(out.name + ".metrics.csv"),
            "png": out.with_name(out.name + ".curve.png")}


def run_training(game: Game, trainer: Trainer, out: Path, episodes: int, seed: int = 0,
                 opponent: str = "", eval_every: int = 200, eval_games: int = 20,
                 checkpoint_every: int = 100, progress: bool = True,
                 on_row: Callable[[dict[str, Any]], None] | None = None) -> RunReport:
    """Train until `episodes` episodes are done in total (resuming from the checkpoint)."""
    from .episodes import DEFAULT_OPPONENTS

    if episodes < 1:
        raise BoardLabError(f"--episodes must be at least 1, got {episodes}")
    paths = paths_for(out)
    mix = OpponentMix(game, opponent or DEFAULT_OPPONENTS)
    rows: list[dict[str, Any]] = []
    resumed = 0
    if paths["checkpoint"].exists():
        meta = trainer.load_checkpoint(paths["checkpoint"])
        if meta.get("algorithm") != trainer.algorithm or meta.get("seed") != seed \
                or meta.get("opponent") != str(mix):
            raise BoardLabError(
                f"checkpoint {paths['checkpoint']} is from a different run ({meta.get('algorithm')}, "
                f"seed {meta.get('seed')}, opponent {meta.get('opponent')}); delete it or use "
                "another --out")
        rows = _read_rows(paths["csv"])
        resumed = trainer.episode
    report = RunReport(trainer.episode, 0, 0, 0, 0.0, 0.0, rows, resumed_from=resumed)
    if trainer.episode >= episodes:
        return report
    evaluators = {"random": make_agent("random", game), "greedy": make_agent("greedy", game)}
    start_updates = trainer.updates
    bar = _Bar(progress, episodes, trainer.episode)
    meta_base = {"algorithm": trainer.algorithm, "seed": seed, "opponent": str(mix)}
    try:
        while trainer.episode < episodes:
            k = trainer.episode
            started = time.perf_counter()
            trainer.start_episode(seed, k)
            name = mix.draw(random.Random(derive_seed(seed, "opponent", k)))
            result = play_episode(game, trainer, trainer.reward, name, mix.agents,
                                  derive_seed(seed, "train", k), learner_seat=k % 2,
                                  masked=trainer.masked)
            trainer.end_episode()
            report.train_seconds += time.perf_counter() - started
            report.learner_steps += result.learner_steps
            report.plies += result.plies
            report.updates = trainer.updates - start_updates
            done = trainer.episode
            if done % eval_every == 0 or done == episodes:
                started = time.perf_counter()
                row = _evaluate_row(game, trainer, evaluators, eval_games, seed, report)
                report.eval_seconds += time.perf_counter() - started
                rows.append(row)
                if on_row is not None:
                    on_row(row)
                report.weights_bytes = trainer.export(paths["weights"])
                write_metrics(rows, paths["csv"], paths["png"], trainer.algorithm)
                bar.note(row)
            if done % checkpoint_every == 0 or done == episodes:
                trainer.save_checkpoint(paths["checkpoint"], meta_base)
            bar.advance(trainer.epsilon)
    finally:
        bar.close()
    report.episodes_done = trainer.episode
    return report


def _evaluate_row(game: Game, trainer: Trainer, evaluators: dict, games: int, seed: int,
                  report: RunReport) -> dict[str, Any]:
    player = trainer.player()
    row: dict[str, Any] = {"episode": trainer.episode, "learner_steps": report.learner_steps,
                           "plies": report.plies, "epsilon": round(trainer.epsilon, 5),
                           "loss": trainer.take_losses()}
    for name, opponent in evaluators.items():
        score, wins, draws, losses = evaluate(game, lambda: player, opponent, games,
                                              derive_seed(seed, "evaluation", name))
        row[f"score_{name}"] = score
        row[f"wins_{name}"], row[f"draws_{name}"], row[f"losses_{name}"] = wins, draws, losses
    stats = getattr(player, "stats", None)
    row["fallback_rate"] = (stats["fallbacks"] / stats["decisions"]
                            if stats and stats["decisions"] else "")
    row["train_seconds"] = round(report.train_seconds, 1)
    row["steps_per_second"] = round(report.steps_per_second, 1)
    row["updates_per_second"] = round(report.updates_per_second, 1)
    return row


def write_metrics(rows: list[dict[str, Any]], csv_path: Path, png_path: Path,
                  title: str) -> None:
    csv_path.parent.mkdir(parents=True, exist_ok=True)
    with open(csv_path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=METRIC_FIELDS, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    plot_curve(rows, png_path, title)


def _read_rows(path: Path) -> list[dict[str, Any]]:
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


def plot_curve(rows: list[dict[str, Any]], path: Path, title: str) -> None:
    """Score against random and greedy (draws half), and the loss, against episodes."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    episodes = [r["episode"] for r in rows]
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
    for name in ("random", "greedy"):
        top.plot(episodes, [r[f"score_{name}"] for r in rows], marker="o", label=f"vs {name}")
    top.axhline(0.5, color="grey", linewidth=0.5)
    top.set_ylim(0, 1)
    top.set_ylabel("score (draws half)")
    top.legend()
    top.set_title(f"{title}: learning curve")
    losses = [(r["episode"], r["loss"]) for r in rows
              if isinstance(r["loss"], (int, float)) and not math.isnan(r["loss"])]
    bottom.plot([e for e, _ in losses], [v for _, v in losses], color="tab:red", marker=".")
    bottom.set_ylabel("loss" if title == "dqn" else "mean |TD error|")
    bottom.set_xlabel("episode")
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    plt.close(fig)


class _Bar:
    """A rich progress bar (or nothing when progress is off)."""

    def __init__(self, enabled: bool, total: int, done: int) -> None:
        self.progress = None
        self.text = ""
        if not enabled:
            return
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                   TimeElapsedColumn, TimeRemainingColumn)

        self.progress = Progress(TextColumn("train"), BarColumn(), MofNCompleteColumn(),
                                 TimeElapsedColumn(), TimeRemainingColumn(),
                                 TextColumn("{task.fields[info]}"))
        self.progress.start()
        self.task = self.progress.add_task("train", total=total, completed=done, info="")

    def advance(self, epsilon: float) -> None:
        if self.progress is not None:
            self.progress.update(self.task, advance=1, info=f"eps {epsilon:.3f} {self.text}")

    def note(self, row: dict[str, Any]) -> None:
        self.text = (f"vs random {row['score_random']:.2f} vs greedy {row['score_greedy']:.2f}")

    def close(self) -> None:
        if self.progress is not None:
            self.progress.stop()
