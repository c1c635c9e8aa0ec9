"""Network inference speed: a small policy-value net over each game's `encode` planes.

Not a trained model: a stand-in of the size the learning agents start from, so the figure says
what one forward pass costs on this machine at batch 1 (an agent thinking move by move) and at
batch 256 (self-play workers evaluating many positions at once). Encoding is done before
timing; `state.encode` speed is another question.
"""

from __future__ import annotations

from functools import partial

from ..core.game import Game
from .ours import random_positions
from .timing import Batch, Job

BATCHES = (1, 256)
CHANNELS = 32
HIDDEN = 256
THREADS = 1
"""Torch threads while timing. One: on this 2-core machine shared with other work, torch's
two-thread pool measured 4-35x slower at batch 1 than one thread (its workers wait on a core
that is busy), and self-play runs one single-threaded worker per core anyway."""


def jobs_for(name: str, game: Game) -> list[Job]:
    return [Job(name, f"network-b{size}", f"torch CPU, {THREADS} thread", "positions",
                f"policy-value net forward pass, batch {size}",
                partial(_forward, game, size)) for size in BATCHES]


def _forward(game: Game, batch_size: int) -> Batch:
    import numpy as np
    import torch

    # Batch 1 runs over fewer positions so that one timed batch stays short.
    positions = random_positions(game, 32 if batch_size == 1 else 256, 9)
    planes = torch.from_numpy(np.stack([s.encode(s.current_player()) for s in positions])
                              .astype(np.float32))
    net = _make_net(tuple(planes.shape[1:]), game.num_actions).eval()
    batches = [planes[i:i + batch_size] for i in range(0, len(planes), batch_size)]

    def batch() -> int:
        threads = torch.get_num_threads()
        torch.set_num_threads(THREADS)
        try:
            with torch.inference_mode():
                for inputs in batches:
                    net(inputs)
        finally:
            torch.set_num_threads(threads)
        return len(planes)
    return batch


def _make_net(shape: tuple[int, ...], num_actions: int):
    """Two 3x3 convolutions over (planes, rows, cols) input, an MLP over anything else;
    then a policy head (one logit per action id) and a value head."""
    import torch
    from torch import nn

    torch.manual_seed(0)
    if len(shape) == 3:
        planes, rows, cols = shape
        body: nn.Module = nn.Sequential(
            nn.Conv2d(planes, CHANNELS, 3, padding=1), nn.ReLU(),
            nn.Conv2d(CHANNELS, CHANNELS, 3, padding=1), nn.ReLU(), nn.Flatten())
        features = CHANNELS * rows * cols
    else:
        size = 1
        for n in shape:
            size *= n
        body = nn.Sequential(nn.Flatten(), nn.Linear(size, HIDDEN), nn.ReLU())
        features = HIDDEN

    class PolicyValue(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.body = body
            self.policy = nn.Linear(features, num_actions)
            self.value = nn.Sequential(nn.Linear(features, 1), nn.Tanh())

        def forward(self, x):
            h = self.body(x)
            return self.policy(h), self.value(h)

    return PolicyValue()
