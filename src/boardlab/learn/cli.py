"""`boardlab train GAME qlearning|dqn|alphazero|texel --out PATH ...`: the train subcommand.

cli.py calls `add_train_parser(subparsers)`; this module owns the arguments and the command.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import time
from pathlib import Path
from typing import Any

from ..core.game import ParseError
from ..core.registry import build_settings, make_game, split_params

ALGORITHMS = ("qlearning", "dqn", "alphazero", "texel")


def add_train_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add `train` to an argparse subparsers object; the command runs `args.run(args)`."""
    train = subparsers.add_parser(
        "train", help="train a learning agent (qlearning, dqn, alphazero) or tune an "
                      "evaluation table (texel); a rerun resumes",
        description="Train a learning agent with a progress bar, periodic evaluation against "
                    "random and greedy, a metrics CSV and a learning-curve PNG next to --out. "
                    "Rerunning the same command resumes from the checkpoint PATH.ckpt. "
                    "For alphazero an episode is a whole iteration (self-play, training, "
                    "gate): --episodes counts iterations, minutes= in --params stops early, "
                    "and an --out without a suffix is a directory (DIR/weights.pt). "
                    "texel fits the game's evaluation table to the results of a search's "
                    "games, or to a teacher engine's evaluations of their positions "
                    "(learn/texel.py): --params positions=,depth=,start=,l2=,workers=,"
                    "teacher=...; "
                    "--seed is its seed, --episodes and the evaluation flags are not used; the "
                    "positions are kept in OUT.positions.npz, which a rerun reuses.")
    train.add_argument("game", help="game spec (`boardlab games` lists them)")
    train.add_argument("agent", choices=ALGORITHMS)
    train.add_argument("--out", required=True, help="weights file to write, e.g. "
                       "GAME-dqn.pt, GAME-qlearning.npz or GAME-alphazero.pt (for "
                       "alphazero a path without a suffix is a directory: DIR/weights.pt)")
    train.add_argument("--episodes", type=int, default=2000, help="total episodes (default 2000)")
    train.add_argument("--seed", type=int, default=0)
    train.add_argument("--opponent", default="",
                       help="opponents mixed by weight, spec@weight joined by +; `self` is "
                            "self-play (default random@0.3+greedy@0.4+self@0.3)")
    train.add_argument("--params", default="", help="agent and training settings, "
                       "name=value,... (e.g. hidden=128,dueling=true,lr=3e-4)")
    train.add_argument("--eval-every", type=int, default=200, help="episodes between evaluations")
    train.add_argument("--eval-games", type=int, default=20,
                       help="games against random and against greedy at each evaluation")
    train.add_argument("--no-progress", action="store_true")
    train.set_defaults(run=cmd_train)
    return train


def build_trainer(game_spec: str, algorithm: str, params: str = "", seed: int = 0,
                  opponent: str = ""):
    """(game, trainer) with `params` split between the agent's and the training settings."""
    from ..agents.dqn import DQNSettings
    from ..agents.qlearning import QLearningSettings
    from ..agents.alphazero import AlphaZeroSettings
    from .alphazero import AlphaZeroTrainer, AlphaZeroTraining
    from .dqn import DQNTrainer, DQNTraining
    from .qlearning import QLearningTrainer, QLearningTraining

    game = make_game(game_spec)
    agent_class, training_class, trainer_class = {
        "qlearning": (QLearningSettings, QLearningTraining, QLearningTrainer),
        "dqn": (DQNSettings, DQNTraining, DQNTrainer),
        "alphazero": (AlphaZeroSettings, AlphaZeroTraining, AlphaZeroTrainer)}[algorithm]
    given = split_params(params, f"train {algorithm} --params")
    agent_fields = {f.name for f in dataclasses.fields(agent_class)} - {"weights"}
    training_fields = {f.name for f in dataclasses.fields(training_class)}
    unknown = set(given) - agent_fields - training_fields
    if unknown:
        raise ParseError(f"train {algorithm} --params: unknown {', '.join(sorted(unknown))}; "
                         f"it takes: {', '.join(sorted(agent_fields | training_fields))}")
    agent_settings = build_settings(agent_class, {k: v for k, v in given.items()
                                                  if k in agent_fields}, f"{algorithm} agent")
    training = build_settings(training_class, {k: v for k, v in given.items()
                                               if k in training_fields}, f"{algorithm} training")
    agent_params = {k: getattr(agent_settings, k) for k in agent_fields}
    return game, trainer_class(game, training, agent_params, seed=seed, opponent=opponent)


def cmd_train(args: argparse.Namespace) -> int:
    import matplotlib
    import torch
    from rich.console import Console

    from .protocol import paths_for, train

    matplotlib.use("Agg")  # curves are files; no window, whatever the machine has
    console = Console()
    torch.set_num_threads(1)  # small networks: a second thread only contends (measured)
    if args.agent == "texel":
        return cmd_texel(args, console)
    out = Path(args.out)
    if args.agent == "alphazero" and not out.suffix:  # the directory its older runs wrote
        out = out / "weights.pt"
    paths = paths_for(out)
    game, trainer = build_trainer(args.game, args.agent, args.params, args.seed,
                                  args.opponent)
    started = time.time()
    bar = ProgressBar(not args.no_progress, args.episodes)

    def on_row(rows: list[dict[str, Any]]) -> None:
        plot_curve(rows, paths["png"], trainer.algorithm, trainer.unit)
        bar.note(rows[-1])

    try:
        report = train(trainer, out, args.episodes, eval_every=args.eval_every,
                       eval_games=args.eval_games,
                       on_row=on_row, on_progress=bar.update, on_start=bar.start)
    finally:
        bar.close()
        close = getattr(trainer, "close", None)
        if close is not None:
            close()
    if report.resumed_from >= args.episodes:
        console.print(f"already trained for {report.resumed_from} {trainer.unit}s "
                      f"({paths['checkpoint']}); nothing to do (raise --episodes to continue)")
        return 0
    if report.resumed_from:
        console.print(f"resumed from {trainer.unit} {report.resumed_from} "
                      f"({paths['checkpoint']})")
    if report.rows:
        last = report.rows[-1]
        console.print(f"{trainer.unit} {last['episode']}: vs random {last['score_random']:.3f}, "
                      f"vs greedy {last['score_greedy']:.3f} (draws half, "
                      f"{args.eval_games} games each)")
    console.print(trainer.describe())
    console.print(f"weights {out} ({report.weights_bytes / 1e6:.2f} MB); metrics "
                  f"{paths['csv']}; curve {paths['png']}")
    console.print(f"throughput: {report.steps_per_second:.0f} environment steps/s, "
                  f"{report.updates_per_second:.0f} updates/s ({report.env_steps} plies, "
                  f"{report.updates} updates in {report.train_seconds:.0f}s of training, "
                  f"{report.eval_seconds:.0f}s of evaluation; {time.time() - started:.0f}s "
                  "wall)")
    return 0


def cmd_texel(args: argparse.Namespace, console: Any) -> int:
    """`boardlab train GAME texel`: collect (or resume) positions, fit, write --out."""
    from .texel import TexelSettings, describe, run

    given = split_params(args.params, "train texel --params")
    given.setdefault("seed", str(args.seed))
    settings = build_settings(TexelSettings, given, "train texel --params")
    bar = ProgressBar(not args.no_progress, settings.positions)
    started = time.time()

    def on_chunk(count: int) -> None:
        done = min(count, settings.positions)
        bar.start(argparse.Namespace(episodes=done))  # once; nothing when progress is off
        if bar.progress is not None:
            bar.progress.update(bar.task, completed=done, info=f"{count:,} positions")

    try:
        report = run(args.game, settings, args.out, on_chunk)
    finally:
        bar.close()
    console.print(describe(report))
    console.print(f"table {args.out} ({settings.search}, seed {settings.seed}); "
                  f"{time.time() - started:.0f}s wall")
    return 0


def plot_curve(rows: list[dict[str, Any]], path: Path, title: str, unit: str = "episode"
               ) -> None:
    """Score against random and greedy (draws half), and the loss, against episodes (or the
    trainer's unit: AlphaZero's iterations)."""
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
    bottom.set_ylabel("mean |TD error|" if title == "qlearning" else "loss")
    bottom.set_xlabel(unit)
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    plt.close(fig)


class ProgressBar:
    """A rich progress bar over episodes (or nothing when progress is off), drawn from
    `start`, which training calls only when it has episodes to run: a finished run's rerun
    says "nothing to do" without an empty bar first."""

    def __init__(self, enabled: bool, total: int) -> None:
        self.enabled, self.total = enabled, total
        self.progress: Any = None
        self.text = ""

    def start(self, progress: Any) -> None:
        """Draw the bar, already at the episodes a resumed run starts from."""
        if not self.enabled or self.progress is not None:
            return
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                   TimeElapsedColumn, TimeRemainingColumn)

        self.progress = Progress(TextColumn("train"), BarColumn(), MofNCompleteColumn(),
                                 TimeElapsedColumn(), TimeRemainingColumn(),
                                 TextColumn("{task.fields[info]}"))
        self.progress.start()
        self.task = self.progress.add_task("train", total=self.total,
                                           completed=progress.episodes, info="")

    def update(self, progress: Any) -> None:
        if self.progress is not None:
            rate = progress.env_steps / progress.seconds if progress.seconds else 0.0
            self.progress.update(self.task, completed=progress.episodes,
                                 info=f"{rate:.0f} steps/s {self.text}")

    def note(self, row: dict[str, Any]) -> None:
        self.text = f"vs random {row['score_random']:.2f} vs greedy {row['score_greedy']:.2f}"

    def close(self) -> None:
        if self.progress is not None:
            self.progress.stop()
