"""Does a Xiangqi policy learn better when its moves are seen from the mover's seat, as its
input planes are?

Seed 003's planes turn the board for black (games/xiangqi/encode.py), so the start position
gives the same planes for both seats, while a move is an absolute action id: the same planes
can ask for two different ids. This script trains the same small network twice on the same
teacher positions (a `boardlab teach xiangqi` dataset) for the same minibatches: once on the
absolute ids, once on ids turned 180 degrees for black (the mover's frame, in which red's ids
are unchanged), and a third time in the mover's frame with a policy head of 16 planes instead
of two, and prints each one's share of held-out positions (whole held-out games) where its
first choice is the teacher's move.

Positions whose mover cannot be told from the planes and the move (a dataset written before
shards recorded the mover) are left out of both runs.

    python experiments/xiangqi_policy_frame.py DATASET [--steps 1500]
"""

from __future__ import annotations

import argparse

import numpy as np

from boardlab import make_game
from boardlab.games.xiangqi.actions import ACTION_FROM
from boardlab.games.xiangqi.actions import TURNED as TURNED_IDS
from boardlab.games.xiangqi.rules import COLS, ROWS
from boardlab.learn.teacher import held_out_split, load_dataset

TURNED = np.array(TURNED_IDS)


def movers_of(planes: np.ndarray, actions: np.ndarray) -> np.ndarray:
    """0 or 1 where only one seat's view has one of its own pieces on the move's from-square
    (encode.py: red sees row r at plane row 9 - r, black sees column c at plane column 8 - c),
    -1 where both or neither do."""
    own = planes[:, :7].sum(1) > 0  # (n, rows, cols)
    rows, cols = np.array(ACTION_FROM)[actions] // COLS, np.array(ACTION_FROM)[actions] % COLS
    index = np.arange(len(actions))
    red = own[index, ROWS - 1 - rows, cols]
    black = own[index, rows, COLS - 1 - cols]
    return np.where(red & ~black, 0, np.where(black & ~red, 1, -1))


def top1_after_training(planes, targets, train, held, steps: int, seed: int = 0,
                        policy_planes: int = 2) -> float:
    import torch
    from torch import nn

    from boardlab.agents.alphazero import build_network

    torch.manual_seed(seed)
    network = build_network(14, ROWS, COLS, len(ACTION_FROM), 32, 2)
    if policy_planes != 2:  # a wider policy head than AlphaGo Zero's two planes
        network.policy_conv = nn.Sequential(nn.Conv2d(32, policy_planes, 1, bias=False),
                                            nn.BatchNorm2d(policy_planes), nn.ReLU())
        network.policy = nn.Linear(policy_planes * ROWS * COLS, len(ACTION_FROM))
    optimizer = torch.optim.Adam(network.parameters(), lr=1e-3, weight_decay=1e-4)
    rng = np.random.default_rng(seed)
    network.train()
    for _ in range(steps):
        rows = train[rng.integers(0, len(train), 256)]
        logits, _ = network(torch.from_numpy(planes[rows].astype(np.float32)))
        loss = torch.nn.functional.cross_entropy(logits, torch.from_numpy(targets[rows]))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    network.eval()
    hits = 0
    with torch.no_grad():
        for start in range(0, len(held), 1024):
            rows = held[start:start + 1024]
            logits, _ = network(torch.from_numpy(planes[rows].astype(np.float32)))
            hits += int((logits.argmax(1).numpy() == targets[rows]).sum())
    return hits / len(held)


def main() -> None:
    import torch

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset")
    parser.add_argument("--steps", type=int, default=1500)
    args = parser.parse_args()
    torch.set_num_threads(2)
    _, labels = load_dataset(args.dataset, make_game("xiangqi"))
    movers = np.where(labels.mover >= 0, labels.mover,
                      movers_of(labels.planes, labels.action.astype(np.int64)))
    train, held = held_out_split(labels, 0.05, seed=1)
    train, held = train[movers[train] >= 0], held[movers[held] >= 0]
    absolute = labels.action.astype(np.int64)
    own_frame = np.where(movers == 1, TURNED[absolute], absolute)
    print(f"{len(train):,} training and {len(held):,} held-out positions "
          f"({int(np.sum(movers < 0)):,} left out: mover unknown); {args.steps} minibatches of "
          f"256, a 32-channel 2-block network")
    for name, targets, policy_planes in (
            ("absolute ids", absolute, 2), ("ids in the mover's frame", own_frame, 2),
            ("ids in the mover's frame, a 16-plane policy head", own_frame, 16)):
        share = top1_after_training(labels.planes, targets, train, held, args.steps,
                                    policy_planes=policy_planes)
        print(f"{name}: the teacher's move first in {share:.1%} of held-out positions")


if __name__ == "__main__":
    main()
