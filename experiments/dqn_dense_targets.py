"""Can seed 000's DQN network learn Jungle's one-transition values at all? (docs/learning.md)

The DQN learns Q(s, a) from one sampled action per transition. This experiment gives the same
network the easiest version of its task instead: supervised regression, on every legal action
of every position, of the exact value the Q-learning agent's `transition` fallback computes
(the own ply's reward plus the opponent's most damaging reply, seed 000's full reward, chance
averaged exactly). A network that cannot fit these targets cannot reach the Q-learning agent's
strength through its search-free argmax, let alone past it.

    python experiments/dqn_dense_targets.py generate OUT.npz --seed 1 --seconds 240
    python experiments/dqn_dense_targets.py fit TRAIN.npz[,MORE.npz] TEST.npz --hidden 128 \
        --seconds 300 --out fitted.pt
    boardlab arena jungle random greedy dqn:weights=fitted.pt --games 40
    python experiments/dqn_dense_targets.py score TEST.npz dqn:lookahead=0 dqn:weights=fitted.pt

`generate` plays games with a mix of random and greedy moves (each game picks the share of
random moves from 1.0, 0.5, 0.2) and keeps about half of the positions with their targets.
`fit` trains the seed's network (`agents.dqn.build_network`: four fully connected layers,
dropout 0.1) with masked MSE on the legal actions, targets / 10, Adam, batch 64, and prints
how often its argmax among the legal actions is one of the best actions of held-out positions.
`--out` saves the fitted network as DQN weights (reward `qlearning`, playing the network alone)
for the arena. `--conv C` replaces the first fully connected layer by two 3x3 convolutions of
C channels over the seed's 6x7x8 planes (not the seed's network, and not one a DQN agent can
load: it measures what sharing weights across squares buys). `score` measures DQN agents'
networks (and a random legal move) the same way.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from boardlab.agents.qlearning import expected_reward
from boardlab.core.agent import Clock
from boardlab.core.game import CHANCE
from boardlab.core.registry import make_agent, make_game
from boardlab.core.learning import kit_for

TARGET_SCALE = 10.0
"""Targets run to about +-140 (the terminal +-100 plus a capture); divided for the MSE."""


def generate(out: str, seed: int, seconds: float) -> None:
    game = make_game("jungle")
    reward = kit_for(game).reward("qlearning", game)
    greedy = make_agent("greedy", game)
    rng = random.Random(seed)
    inputs, targets, masks = [], [], []
    start, games = time.time(), 0
    while time.time() - start < seconds:
        state = game.initial_state(seed=seed * 100_000 + games)
        games += 1
        random_share = rng.choice([1.0, 0.5, 0.2])
        greedy.start_game(0, games)
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                outcomes = state.chance_outcomes()
                state.apply(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
                continue
            legal = state.legal_actions()
            if rng.random() < 0.5:  # every other position: neighbours are near duplicates
                target = np.zeros(game.num_actions, np.float32)
                mask = np.zeros(game.num_actions, bool)
                for action in legal:
                    target[action] = expected_reward(state, action, reward.action, reward)
                    mask[action] = True
                inputs.append(state.encode(player).reshape(-1))
                targets.append(target)
                masks.append(mask)
            move = rng.choice(legal) if rng.random() < random_share else greedy.act(state,
                                                                                     Clock())
            state.apply(move)
    np.savez_compressed(out, x=np.array(inputs), y=np.array(targets), m=np.array(masks))
    print(f"{out}: {len(inputs)} positions from {games} games in {time.time() - start:.0f} s")


def load(paths: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    files = [np.load(p) for p in paths]
    return (np.concatenate([f["x"] for f in files]),
            np.concatenate([f["y"] for f in files]) / TARGET_SCALE,
            np.concatenate([f["m"] for f in files]))


def best_action_agreement(q: np.ndarray, targets: np.ndarray, masks: np.ndarray
                          ) -> tuple[float, float]:
    """Share of positions where the argmax of q over the legal actions is a best action, and
    the mean value given up against the best (in reward units)."""
    pick = np.where(masks, q, -np.inf).argmax(axis=1)
    best = np.where(masks, targets, -np.inf).max(axis=1)
    got = targets[np.arange(len(targets)), pick]
    return float(np.mean(got >= best - 1e-6)), float(np.mean(best - got) * TARGET_SCALE)


def convolutional_network(channels: int, hidden: int):
    """Two 3x3 convolutions over the (6, 7, 8) planes, then the seed's last three layers."""
    from torch import nn

    return nn.Sequential(
        nn.Unflatten(1, (6, 7, 8)),
        nn.Conv2d(6, channels, 3, padding=1), nn.ReLU(),
        nn.Conv2d(channels, channels, 3, padding=1), nn.ReLU(), nn.Flatten(),
        nn.Linear(channels * 7 * 8, hidden), nn.ReLU(), nn.Dropout(0.1),
        nn.Linear(hidden, hidden), nn.ReLU(), nn.Dropout(0.1),
        nn.Linear(hidden, 280))


def fit(train: list[str], test: str, hidden: int, seconds: float, lr: float,
        report_every: int, out: str | None, conv: int = 0) -> None:
    import torch

    from boardlab.agents.dqn import DQNAgent

    torch.set_num_threads(1)
    x, y, m = (torch.from_numpy(a) for a in load(train))
    x_test, y_test, m_test = load([test])
    random_pick = np.mean([(row[mask] >= row[mask].max() - 1e-6).mean()
                           for row, mask in zip(y_test, m_test)])
    print(f"train {len(x)} positions, test {len(x_test)}; a random legal move is a best one "
          f"{random_pick:.3f} of the time")
    agent = DQNAgent(make_game("jungle"), weights="none", hidden=hidden, lookahead=0)
    network = convolutional_network(conv, hidden) if conv else agent.network
    optimizer = torch.optim.Adam(network.parameters(), lr=lr)
    rng = np.random.default_rng(0)

    def report(step: int) -> None:
        network.eval()
        with torch.no_grad():
            q = network(torch.from_numpy(x_test)).numpy()
        network.train()
        agree, regret = best_action_agreement(q, y_test, m_test)
        print(f"{time.time() - start:6.0f} s  update {step:7d}  best action {agree:.3f}  "
              f"value given up {regret:.2f}", flush=True)

    start, step = time.time(), 0
    network.train()
    while time.time() - start < seconds:
        batch = torch.from_numpy(rng.integers(0, len(x), 64))
        mask = m[batch]
        loss = (((network(x[batch]) - y[batch].float()) ** 2) * mask).sum() / mask.sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        step += 1
        if step % report_every == 0:
            report(step)
    report(step)
    if out:
        with torch.no_grad():  # back to reward units: Q = TARGET_SCALE x the fitted output
            last = [layer for layer in network.modules() if isinstance(layer, torch.nn.Linear)]
            last[-1].weight.mul_(TARGET_SCALE)
            last[-1].bias.mul_(TARGET_SCALE)
        agent.trained_reward = "qlearning"
        print(f"{out}: {agent.save(out)} bytes")


def score(test: str, specs: list[str]) -> None:
    import torch

    x, y, m = load([test])
    noise = np.random.default_rng(0).random(y.shape).astype(np.float32)
    print("a random legal move: best action {:.3f}, value given up {:.2f}".format(
        *best_action_agreement(noise, y, m)))
    game = make_game("jungle")
    for spec in specs:
        network = make_agent(spec, game).network
        with torch.no_grad():
            q = network(torch.from_numpy(x)).numpy()
        print("{}: best action {:.3f}, value given up {:.2f}".format(
            spec, *best_action_agreement(q, y, m)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    gen = commands.add_parser("generate")
    gen.add_argument("out")
    gen.add_argument("--seed", type=int, default=1)
    gen.add_argument("--seconds", type=float, default=240)
    fitting = commands.add_parser("fit")
    fitting.add_argument("train", help="comma-separated .npz files from generate")
    fitting.add_argument("test")
    fitting.add_argument("--hidden", type=int, default=128)
    fitting.add_argument("--seconds", type=float, default=300)
    fitting.add_argument("--lr", type=float, default=1e-3)
    fitting.add_argument("--report-every", type=int, default=5000)
    fitting.add_argument("--out", help="save the fitted network here as DQN weights")
    fitting.add_argument("--conv", type=int, default=0,
                         help="channels of a convolutional first stage (0 = the seed's net)")
    scoring = commands.add_parser("score")
    scoring.add_argument("test")
    scoring.add_argument("specs", nargs="+", help="DQN agent specs, e.g. dqn:lookahead=0")
    args = parser.parse_args()
    if args.command == "fit" and args.conv and args.out:
        parser.error("--out saves DQN weights, which hold the seed's network only: drop --conv")
    if args.command == "generate":
        generate(args.out, args.seed, args.seconds)
    elif args.command == "score":
        score(args.test, args.specs)
    else:
        fit(args.train.split(","), args.test, args.hidden, args.seconds, args.lr,
            args.report_every, args.out, args.conv)


if __name__ == "__main__":
    main()
