"""`boardlab train GAME qlearning|dqn --out PATH ...`: the train subcommand.

cli.py calls `add_train_parser(subparsers)`; this module owns the arguments and the command.
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from pathlib import Path
from typing import Any

from ..core.game import BoardLabError, ParseError
from ..core.registry import build_settings, make_game, split_params

ALGORITHMS = ("qlearning", "dqn", "alphazero")


def add_train_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add `train` to an argparse subparsers object; the command runs `args.run(args)`."""
    train = subparsers.add_parser(
        "train", help="train a learning agent (qlearning, dqn, alphazero); a rerun resumes",
        description="Train a learning agent with a progress bar, periodic evaluation against "
                    "random and greedy, a metrics CSV and a learning-curve PNG next to --out. "
                    "Rerunning the same command resumes from the checkpoint PATH.ckpt. "
                    "alphazero writes a directory (--out DIR) and takes its settings from "
                    "--params (iterations=, minutes=, workers=, sims=, value_target=, ...); "
                    "--episodes, --opponent and --eval-* do not apply to it.")
    train.add_argument("game", help="game spec, e.g. jungle")
    train.add_argument("agent", choices=ALGORITHMS)
    train.add_argument("--out", required=True, help="weights file to write, e.g. "
                       "models/jungle-dqn.pt or models/jungle-qlearning.npz; a directory "
                       "for alphazero")
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


def build_trainer(game_spec: str, algorithm: str, params: str = ""):
    """(game, trainer) with `params` split between the agent's and the training settings."""
    from ..agents.dqn import DQNSettings
    from ..agents.qlearning import QLearningSettings
    from .trainers import DQNTrainer, DQNTraining, QLearningTrainer, QLearningTraining

    game = make_game(game_spec)
    agent_class, training_class, trainer_class = {
        "qlearning": (QLearningSettings, QLearningTraining, QLearningTrainer),
        "dqn": (DQNSettings, DQNTraining, DQNTrainer)}[algorithm]
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
    return game, trainer_class(game, training, agent_params)


def cmd_train(args: argparse.Namespace) -> int:
    from rich.console import Console

    from .loop import paths_for, run_training

    console = Console()
    if args.agent == "alphazero":  # its own loop: self-play, a gate, a directory of files
        from .alphazero import train_command

        return train_command(args.game, args.out, args.params, args.seed,
                             progress=not args.no_progress)
    if args.eval_every < 1 or args.eval_games < 1:
        raise BoardLabError("--eval-every and --eval-games must be at least 1")
    out = Path(args.out)
    game, trainer = build_trainer(args.game, args.agent, args.params)
    started = time.time()
    report = run_training(game, trainer, out, args.episodes, seed=args.seed,
                          opponent=args.opponent, eval_every=args.eval_every,
                          eval_games=args.eval_games, progress=not args.no_progress)
    paths = paths_for(out)
    if report.resumed_from:
        console.print(f"resumed from episode {report.resumed_from} ({paths['checkpoint']})")
    if report.resumed_from >= args.episodes:
        console.print(f"already trained for {report.resumed_from} episodes; nothing to do "
                      f"(raise --episodes to continue)")
        return 0
    if report.rows:
        last = report.rows[-1]
        console.print(f"episode {last['episode']}: vs random {last['score_random']:.3f}, "
                      f"vs greedy {last['score_greedy']:.3f} (draws half, "
                      f"{args.eval_games} games each)")
    console.print(trainer.describe())
    console.print(f"weights {out} ({report.weights_bytes / 1e6:.2f} MB); metrics "
                  f"{paths['csv']}; curve {paths['png']}")
    console.print(f"throughput: {report.steps_per_second:.0f} environment steps/s, "
                  f"{report.updates_per_second:.0f} updates/s ({report.plies} plies, "
                  f"{report.updates} updates in {report.train_seconds:.0f}s of training, "
                  f"{report.eval_seconds:.0f}s of evaluation; {time.time() - started:.0f}s "
                  "wall)")
    return 0
