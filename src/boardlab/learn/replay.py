"""Experience replay (Lin 1992; Mnih et al. 2015): a ring buffer sampled uniformly, or by
priority (`PrioritizedReplay`, Schaul et al. 2016), with an optional protected share of
demonstrations (Hester et al. 2017, DQfD) that the ring never overwrites.

Observations are stored as uint8 eighths: every network input BoardLab's games produce is a
multiple of 1/8 in [0, 1] (0/1 planes, strength / 8), so x * 8 fits a byte exactly and the
buffer takes a quarter of the float32 memory. `ReplayBuffer` checks this on every push.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from ..core.learning import Symmetry
    from .selfplay import Transitions

SCALE = 8


class ReplayBuffer:
    """(s, a, r, s', done, legal mask of s', discount) transitions, newest overwriting
    oldest. The discount multiplies max Q(s') in the target: gamma for a one-step transition,
    gamma^n for an n-step one (r then holds the n discounted rewards).

    Demonstrations (`protect`) fill the first rows and stay: the ring turns over the rest.
    A sample says which of its transitions are demonstrations (`demos`)."""

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
        self.n_step_rows = np.zeros(capacity, dtype=bool)
        self.size = 0
        self.cursor = 0
        self.demos = 0
        """Rows 0..demos-1 hold demonstrations, never overwritten."""
        self.any_n_step_rows = False

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
        self.n_step_rows[i] = False
        self.written(np.array([i]))
        self.cursor = self.demos + (i + 1 - self.demos) % (self.capacity - self.demos)
        self.size = min(self.size + 1, self.capacity)

    def sample(self, batch: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
        """A uniform batch (with replacement), inputs back as float32."""
        return self.rows(rng.integers(0, self.size, size=batch))

    def rows(self, index: np.ndarray) -> dict[str, np.ndarray]:
        """The transitions at `index`, inputs back as float32; `demos` (which are
        demonstrations) and `n_step_rows` only where the buffer holds any."""
        rows = {
            "states": self.states[index].astype(np.float32) / SCALE,
            "actions": self.actions[index],
            "rewards": self.rewards[index],
            "next_states": self.next_states[index].astype(np.float32) / SCALE,
            "dones": self.dones[index],
            "discounts": self.discounts[index],
            "next_masks": self.next_masks[index],
        }
        if self.demos:
            rows["demos"] = index < self.demos
        if self.any_n_step_rows:
            rows["n_step_rows"] = self.n_step_rows[index]
        return rows

    def push_batch(self, batch: Transitions) -> None:
        """Store a batch of transitions (learn/selfplay.py), wrapping around the ring."""
        states = self.pack_rows(batch.states)
        next_states = self.pack_rows(batch.next_states)
        ring = self.capacity - self.demos
        for start in range(0, len(batch), ring):
            rows = slice(start, min(len(batch), start + ring))
            count = rows.stop - rows.start
            index = self.demos + (self.cursor - self.demos + np.arange(count)) % ring
            self._store(index, batch, rows, states, next_states)
            self.cursor = int(self.demos + (self.cursor - self.demos + count) % ring)
            self.size = min(self.size + count, self.capacity)

    def protect(self, batch: Transitions) -> None:
        """Store demonstrations in the protected share: before any other transition, and
        leaving the ring at least one row."""
        if self.size > self.demos:
            raise ValueError("demonstrations go into replay before any other transition")
        if self.demos + len(batch) >= self.capacity:
            raise ValueError(f"{self.demos + len(batch)} demonstrations leave no room in a "
                             f"replay of {self.capacity} transitions; raise buffer")
        index = self.demos + np.arange(len(batch))
        self._store(index, batch, slice(0, len(batch)), self.pack_rows(batch.states),
                    self.pack_rows(batch.next_states))
        self.demos = self.size = self.cursor = self.demos + len(batch)

    def _store(self, index: np.ndarray, batch: Transitions, rows: slice, states: np.ndarray,
               next_states: np.ndarray) -> None:
        self.states[index] = states[rows]
        self.next_states[index] = next_states[rows]
        self.actions[index] = batch.actions[rows]
        self.rewards[index] = batch.rewards[rows]
        self.dones[index] = batch.dones[rows]
        self.discounts[index] = batch.discounts[rows]
        self.next_masks[index] = batch.next_masks[rows]
        self.n_step_rows[index] = batch.n_step_rows[rows]
        self.any_n_step_rows = self.any_n_step_rows or bool(batch.n_step_rows[rows].any())
        self.written(index)

    def written(self, index: np.ndarray) -> None:
        """Called with the rows just written (a prioritized buffer gives them a priority)."""

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

        return {"size": self.size, "cursor": self.cursor, "demos": self.demos,
                **{name: torch.from_numpy(getattr(self, name)[:self.size].copy())
                   for name in _ARRAYS}}

    def load_state_dict(self, saved: dict[str, Any]) -> None:
        size, cursor = int(saved["size"]), int(saved["cursor"])
        demos = int(saved.get("demos", 0))  # a checkpoint from before demonstrations: none
        if size > self.capacity or demos >= self.capacity and demos:
            raise ValueError(f"the saved replay holds {size} transitions ({demos} "
                             f"demonstrations), more than the buffer's capacity "
                             f"{self.capacity} allows")
        for name in _ARRAYS:
            if name not in saved:  # a column newer than the checkpoint: its default
                getattr(self, name)[:size] = 0
                continue
            array = saved[name].numpy()
            if array.shape[1:] != getattr(self, name).shape[1:]:
                raise ValueError(f"the saved replay's {name} have shape {array.shape}")
            getattr(self, name)[:size] = array
        self.size, self.demos = size, demos
        self.any_n_step_rows = bool(self.n_step_rows[:size].any())
        self.cursor = demos + (cursor - demos) % (self.capacity - demos)


class SumTree:
    """Non-negative weights of `capacity` items with their sums over a binary tree: set any
    items' weights and draw items in proportion to them, each in O(log capacity), all numpy
    (a batch of items per call)."""

    def __init__(self, capacity: int) -> None:
        self.leaves = 1 << max(capacity - 1, 1).bit_length()
        self.tree = np.zeros(2 * self.leaves)  # node i's children are 2i, 2i + 1; root 1

    @property
    def total(self) -> float:
        return float(self.tree[1])

    def get(self, index: np.ndarray) -> np.ndarray:
        return self.tree[self.leaves + index]

    def set(self, index: np.ndarray, weights: np.ndarray) -> None:
        nodes = self.leaves + np.asarray(index)
        self.tree[nodes] = weights
        while len(nodes) and nodes[0] > 1:
            nodes = np.unique(nodes // 2)
            self.tree[nodes] = self.tree[2 * nodes] + self.tree[2 * nodes + 1]

    def find(self, mass: np.ndarray) -> np.ndarray:
        """For each mass in [0, total): the item whose share of the running sum holds it."""
        nodes = np.ones(len(mass), dtype=np.int64)
        mass = mass.astype(np.float64)
        while nodes[0] < self.leaves:
            left = self.tree[2 * nodes]
            right = mass >= left
            mass = np.where(right, mass - left, mass)
            nodes = 2 * nodes + right
        return nodes - self.leaves


class PrioritizedReplay(ReplayBuffer):
    """Proportional prioritized replay (Schaul et al. 2016): transition i is drawn with
    probability P(i) = p_i^alpha / sum_k p_k^alpha, p_i = |TD error| + `epsilon` (plus
    `demo_bonus` for a demonstration: DQfD's epsilon_d), a new one at the highest p so far.
    A sample's `weights` are the importance-sampling corrections (N P(i))^-beta over their
    largest; the trainer reports TD errors back through `update_priorities(indices, ...)`."""

    def __init__(self, capacity: int, inputs: int, actions: int, alpha: float, beta: float,
                 epsilon: float = 1e-3, demo_bonus: float = 1.0) -> None:
        super().__init__(capacity, inputs, actions)
        self.alpha, self.beta, self.epsilon, self.demo_bonus = alpha, beta, epsilon, demo_bonus
        self.priorities = SumTree(capacity)
        self.highest = 1.0

    def written(self, index: np.ndarray) -> None:
        self.priorities.set(index, np.full(len(index), self.highest ** self.alpha))

    def sample(self, batch: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
        """A batch drawn by priority, one item from each of `batch` equal slices of the
        total (stratified, as the paper), with `indices` and `weights`."""
        total = self.priorities.total
        mass = (np.arange(batch) + rng.random(batch)) * (total / batch)
        index = np.minimum(self.priorities.find(np.minimum(mass, np.nextafter(total, 0))),
                           self.size - 1)
        chance = self.priorities.get(index) / total
        weights = (self.size * np.maximum(chance, 1e-12)) ** -self.beta
        return {**self.rows(index), "indices": index,
                "weights": (weights / weights.max()).astype(np.float32)}

    def update_priorities(self, index: np.ndarray, errors: np.ndarray) -> None:
        """The sampled transitions' new priorities from their absolute TD errors."""
        p = np.abs(errors) + self.epsilon + self.demo_bonus * (index < self.demos)
        self.highest = max(self.highest, float(p.max()))
        order = np.argsort(index, kind="stable")  # a transition drawn twice: its last error
        last = np.r_[index[order][1:] != index[order][:-1], True]
        self.priorities.set(index[order][last], p[order][last] ** self.alpha)

    def state_dict(self) -> dict[str, Any]:
        import torch

        return {**super().state_dict(), "highest": self.highest, "priorities":
                torch.from_numpy(self.priorities.get(np.arange(self.size)).copy())}

    def load_state_dict(self, saved: dict[str, Any]) -> None:
        super().load_state_dict(saved)
        self.priorities = SumTree(self.capacity)
        if self.size:
            self.priorities.set(np.arange(self.size), saved["priorities"].numpy())
        self.highest = float(saved["highest"])


def stack_symmetries(symmetries: tuple[Symmetry, ...]) -> tuple[np.ndarray, ...]:
    """Every symmetry's input gather, action gather and action image, stacked (for `turned`);
    empty for none."""
    if not symmetries:
        return ()
    return tuple(np.stack([getattr(view, part) for view in symmetries])
                 for part in ("inputs", "actions", "where"))


def turned(sample: dict[str, np.ndarray], views: tuple[np.ndarray, ...],
           rng: np.random.Generator) -> dict[str, np.ndarray]:
    """A replay sample with each transition seen through a random one of the board's
    symmetries (`stack_symmetries`): states, action and next legal actions turned alike."""
    all_inputs, all_actions, all_where = views
    chosen = rng.integers(len(all_inputs), size=len(sample["actions"]))
    inputs, actions, where = all_inputs[chosen], all_actions[chosen], all_where[chosen]
    return {**sample,
            "states": np.take_along_axis(sample["states"], inputs, axis=1),
            "next_states": np.take_along_axis(sample["next_states"], inputs, axis=1),
            "next_masks": np.take_along_axis(sample["next_masks"], actions, axis=1),
            "actions": np.take_along_axis(where, sample["actions"][:, None].astype(np.int64),
                                          axis=1)[:, 0].astype(sample["actions"].dtype)}


_ARRAYS = ("states", "next_states", "actions", "rewards", "dones", "discounts", "next_masks",
           "n_step_rows")
