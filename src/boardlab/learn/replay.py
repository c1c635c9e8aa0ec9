"""Experience replay (Lin 1992; Mnih et al. 2015): a ring buffer sampled uniformly.

Observations are stored as uint8 eighths: every network input BoardLab's games produce is a
multiple of 1/8 in [0, 1] (0/1 planes, strength / 8), so x * 8 fits a byte exactly and the
buffer takes a quarter of the float32 memory. `ReplayBuffer` checks this on every push.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from .selfplay import Transitions

SCALE = 8


class ReplayBuffer:
    """(s, a, r, s', done, legal mask of s', discount) transitions, newest overwriting
    oldest. The discount multiplies max Q(s') in the target: gamma for a one-step transition,
    gamma^n for an n-step one (r then holds the n discounted rewards)."""

    def __init__(self, capacity: int, inputs: int, actions: int) -> None:
        if capacity < 1:
            raise ValueError("replay capacity must be at least 1")
        self.capacity = capacity
        self.states = np.zeros((capacity, inputs), dtype=np.uint8)
        self.next_states = np.zeros((capacity, inputs), dtype=np.uint8)
        self.actions = np.zeros(capacity, dtype=np.int64)
        self.rewards = np.zeros(capacity, dtype=np.float32)
        self.dones = np.zeros(capacity, dtype=np.float32)
        self.discounts = np.zeros(capacity, dtype=np.float32)
        self.next_masks = np.zeros((capacity, actions), dtype=bool)
        self.size = 0
        self.cursor = 0

    def __len__(self) -> int:
        return self.size

    @staticmethod
    def pack(x: np.ndarray) -> np.ndarray:
        return ReplayBuffer.pack_rows(np.asarray(x)[None])[0]

    def push(self, state: np.ndarray, action: int, reward: float, next_state: np.ndarray,
             done: bool, next_legal: list[int], discount: float = 1.0) -> None:
        i = self.cursor
        self.states[i] = self.pack(state)
        self.next_states[i] = self.pack(next_state)
        self.actions[i] = action
        self.rewards[i] = reward
        self.dones[i] = float(done)
        self.discounts[i] = discount
        self.next_masks[i] = False
        self.next_masks[i, next_legal] = True
        self.cursor = (i + 1) % self.capacity
        self.size = min(self.size + 1, self.capacity)

    def sample(self, batch: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
        """A uniform batch (with replacement), inputs back as float32."""
        index = rng.integers(0, self.size, size=batch)
        return {
            "states": self.states[index].astype(np.float32) / SCALE,
            "actions": self.actions[index],
            "rewards": self.rewards[index],
            "next_states": self.next_states[index].astype(np.float32) / SCALE,
            "dones": self.dones[index],
            "discounts": self.discounts[index],
            "next_masks": self.next_masks[index],
        }

    def push_batch(self, batch: Transitions) -> None:
        """Store a batch of transitions (learn/selfplay.py), wrapping around the ring."""
        states = self.pack_rows(batch.states)
        next_states = self.pack_rows(batch.next_states)
        for start in range(0, len(batch), self.capacity):
            rows = slice(start, min(len(batch), start + self.capacity))
            count = rows.stop - rows.start
            index = (self.cursor + np.arange(count)) % self.capacity
            self.states[index] = states[rows]
            self.next_states[index] = next_states[rows]
            self.actions[index] = batch.actions[rows]
            self.rewards[index] = batch.rewards[rows]
            self.dones[index] = batch.dones[rows]
            self.discounts[index] = batch.discounts[rows]
            self.next_masks[index] = batch.next_masks[rows]
            self.cursor = int((self.cursor + count) % self.capacity)
            self.size = min(self.size + count, self.capacity)

    @staticmethod
    def pack_rows(x: np.ndarray) -> np.ndarray:
        """`pack` for a batch of inputs at once."""
        scaled = np.asarray(x, dtype=np.float32).reshape(len(x), -1) * SCALE
        packed = np.rint(scaled)
        if packed.size and (packed.min() < 0 or packed.max() > 255
                            or not np.allclose(packed, scaled, atol=1e-4)):
            raise ValueError("replay stores inputs that are multiples of 1/8 in [0, 31]")
        return packed.astype(np.uint8)

    def state_dict(self) -> dict[str, Any]:
        """The buffer's contents as tensors, for a checkpoint (torch.load weights_only)."""
        import torch

        return {"size": self.size, "cursor": self.cursor,
                **{name: torch.from_numpy(getattr(self, name)[:self.size].copy())
                   for name in _ARRAYS}}

    def load_state_dict(self, saved: dict[str, Any]) -> None:
        size, cursor = int(saved["size"]), int(saved["cursor"])
        if size > self.capacity:
            raise ValueError(f"the saved replay holds {size} transitions, more than the "
                             f"buffer's capacity {self.capacity}")
        for name in _ARRAYS:
            array = saved[name].numpy()
            if array.shape[1:] != getattr(self, name).shape[1:]:
                raise ValueError(f"the saved replay's {name} have shape {array.shape}")
            getattr(self, name)[:size] = array
        self.size, self.cursor = size, cursor % self.capacity


_ARRAYS = ("states", "next_states", "actions", "rewards", "dones", "discounts", "next_masks")
