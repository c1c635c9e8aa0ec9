"""A supervised start for a policy/value network: it learns a teacher's labelled positions
(learn/teacher.py) before self-play improves it, the apprentice step of Expert Iteration
(Anthony, Tian & Barber 2017) and the supervised first stage of AlphaGo and of Tencent's
agent for Chinese chess (arXiv 2410.04865).

The loss is AlphaZero's, with the teacher's move as a one-hot policy target and the blended
search value (learn/teacher.py `teacher_values`) as the value target:

    loss = cross-entropy(policy, teacher's move) + value_weight * (value - target)^2

`value_weight` is small in a supervised start (AlphaGo's value network overfitted whole games
when trained on positions that share a result; a small weight keeps the value head from
memorising the few thousand games a dataset holds). Whole games are held out, and the held-out
loss says whether the network learnt the teacher or the games.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..agents.alphazero import SeatFrame
from ..core.game import BoardLabError, Game
from .teacher import fitted_scale, held_out_split, load_datasets, teacher_values


@dataclass
class TeacherData:
    """Teacher positions ready for a network: planes, the move to imitate, the value target."""

    planes: np.ndarray
    action: np.ndarray
    value: np.ndarray

    def __len__(self) -> int:
        return len(self.action)


@dataclass
class TeacherSplit:
    train: TeacherData
    held_out: TeacherData
    scale: float
    """The score scale the value targets used (fitted on the training games unless given)."""
    description: str


def load_teacher(folder: str, game: Game, result_weight: float, scale: float = 0.0,
                 held_out: float = 0.05, seed: int = 0, frame: SeatFrame | None = None
                 ) -> TeacherSplit:
    """The dataset at `folder` (or the datasets, `teacher.dataset_folders`) split by whole
    games into training and held-out positions, the moves named in `frame`'s seat ids where
    the network names them so."""
    from .teacher import describe

    manifests, labels = load_datasets(folder, game)
    train_rows, held_rows = held_out_split(labels, held_out, seed)
    train_labels, held_labels = labels.take(train_rows), labels.take(held_rows)
    scale = scale or fitted_scale(train_labels)

    def ready(part: Any) -> TeacherData:
        actions = part.action.astype(np.int64)
        if frame is not None:
            if (part.mover < 0).any():
                raise BoardLabError(f"{folder} has positions without their mover (shards "
                                    f"written before shards recorded it), and this network "
                                    f"names moves from the mover's seat: label them again")
            actions = frame.seat_actions(actions, part.mover)
        return TeacherData(part.planes, actions, teacher_values(part, result_weight, scale))
    return TeacherSplit(ready(train_labels), ready(held_labels), scale,
                        describe(manifests, labels))


def losses(network: Any, planes: Any, actions: Any, values: Any) -> tuple[Any, Any]:
    """(policy cross-entropy to the teacher's move, squared value error), batch means."""
    import torch

    logits, value = network(planes)
    policy_loss = torch.nn.functional.cross_entropy(logits, actions)
    value_loss = ((value - values) ** 2).mean()
    return policy_loss, value_loss


def batch(data: TeacherData, rows: np.ndarray) -> tuple[Any, Any, Any]:
    import torch

    return (torch.from_numpy(data.planes[rows].astype(np.float32)),
            torch.from_numpy(data.action[rows]), torch.from_numpy(data.value[rows]))


def cosine_share(step: int, steps: int, end: float) -> float:
    """The share of the starting learning rate at `step` of `steps`: 1 down to `end` along a
    half cosine (Loshchilov & Hutter, "SGDR", 2017, without restarts)."""
    return end + (1 - end) * 0.5 * (1 + math.cos(math.pi * step / max(steps - 1, 1)))


def distill(network: Any, optimizer: Any, data: TeacherData, steps: int, batch_size: int,
            value_weight: float, rng: np.random.Generator, lr_end: float = 1.0,
            loss: Callable[..., tuple[Any, Any]] = losses) -> tuple[float, float]:
    """`steps` minibatches of the teacher's positions, the learning rate annealed to `lr_end`
    of the optimizer's (and set back after); the mean policy and value losses. `loss(network,
    planes, actions, values)` gives the two (AlphaZero's `losses`; a DQN passes its own)."""
    network.train()
    policy_losses, value_losses = [], []
    start_lrs = [group["lr"] for group in optimizer.param_groups]
    for step in range(steps):
        for group, start_lr in zip(optimizer.param_groups, start_lrs):
            group["lr"] = start_lr * cosine_share(step, steps, lr_end)
        rows = rng.integers(0, len(data), size=min(batch_size, len(data)))
        policy_loss, value_loss = loss(network, *batch(data, rows))
        optimizer.zero_grad()
        (policy_loss + value_weight * value_loss).backward()
        optimizer.step()
        policy_losses.append(policy_loss.item())
        value_losses.append(value_loss.item())
    for group, start_lr in zip(optimizer.param_groups, start_lrs):
        group["lr"] = start_lr
    network.eval()
    return float(np.mean(policy_losses)), float(np.mean(value_losses))


def held_out_losses(network: Any, data: TeacherData, batch_size: int = 512
                    ) -> dict[str, float]:
    """Policy loss, value loss and the share of positions where the network's most likely move
    is the teacher's, over held-out positions (nan where there are none)."""
    import torch

    if not len(data):
        return {"policy_loss": float("nan"), "value_loss": float("nan"),
                "top1": float("nan")}
    network.eval()
    sums = np.zeros(3)
    with torch.no_grad():
        for start in range(0, len(data), batch_size):
            rows = np.arange(start, min(start + batch_size, len(data)))
            planes, actions, values = batch(data, rows)
            logits, value = network(planes)
            sums[0] += float(torch.nn.functional.cross_entropy(logits, actions,
                                                               reduction="sum"))
            sums[1] += float(((value - values) ** 2).sum())
            sums[2] += float((logits.argmax(1) == actions).sum())
    policy, value, top1 = (float(x) for x in sums / len(data))
    return {"policy_loss": policy, "value_loss": value, "top1": top1}
