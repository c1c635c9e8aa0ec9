"""AlphaZero training (Silver et al. 2018) on the training protocol (learn/protocol.py), with
AlphaGo Zero's gate (Silver et al. 2017: a candidate replaces the best network only when it
beats it; AlphaZero dropped the gate, and `eval_games=0` does too).

One iteration (one unit of `train_until`; `boardlab train GAME alphazero --episodes N` runs N):
1. self-play: `workers` processes (or Ray actors) each play `games_per_worker` games *in
   lockstep*: every game's tree takes one simulation step, then all their new leaves go
   through the network in one call (agents/puct.py `ArrayForest`, the agent's search too,
   its leaves made inside numba where the game declares array rules, else by the game's
   States, chance nodes included), with
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

The settings live in learn/az_settings.py, self-play, its workers, the gate's games and the
buffer in learn/az_selfplay.py; this file is the loop that joins them.

Files (the protocol's, for `--out PATH`): PATH the best network (loadable by the `alphazero`
agent), PATH.ckpt (both networks, optimizer, buffer, counters), PATH.metrics.csv; the command
line draws PATH.curve.png.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from ..agents.alphazero import ARCHITECTURE_FIELDS, AlphaZeroAgent
from ..core.agent import Agent
from ..core.game import BoardLabError, Game
from ..core.match import derive_seed
from .az_selfplay import (SampleBuffer, Samples, SelfPlayStats, Workers, play_networks,
                          self_play)
from .az_settings import AlphaZeroTraining
from .protocol import Trainer, unfit_checkpoint

__all__ = ["AlphaZeroTrainer", "AlphaZeroTraining", "Samples", "SelfPlayStats", "Workers",
           "play_networks", "self_play"]


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
            from .teacher import dataset_folders, read_manifest

            for folder in dataset_folders(config.teacher):
                read_manifest(folder, game)
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
                                                  config.teacher_value_weight, rng,
                                                  config.distill_lr_end)
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
