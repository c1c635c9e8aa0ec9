"""Can the Jungle DQN's network learn what its own two-ply search knows? (issue 31)

The DQN agent with `lookahead=2`, the reward `potential` and a network that says 0 is a
two-ply expectiminimax of the minimax evaluation (docs/learning.md). Expert Iteration and
TreeStrap (Veness et al. 2009, "Bootstrapping from game tree search") would distil that
search into the network, so that the same search over the network's leaves reads deeper.
This script tests the first step on positions from games of mixed agents:

    python experiments/jungle_search_distill.py label d0.npz --games 600
    python experiments/jungle_search_distill.py fit d0.npz net.pt --target all
    python experiments/jungle_search_distill.py fit d0.npz net.pt --target best --planes onehot
    boardlab arena jungle random greedy dqn:weights=net.pt --games 100 --workers 2

`label` plays games between random pairs of greedy, minimax depth 1 and 2, random and the
search itself (a tenth of every side's moves random) and labels each decision with the
search's score of every legal move (`DQNAgent.lookahead_scores`). `fit` trains a network of
the DQN's convolutional architecture: `--target all` regresses Q(s, a) on every legal move's
score; `--target best` regresses only the best move's (the state's value under the shaping,
the part the evaluation does not know) and pushes the other moves a margin below it.
It reports the mean absolute error of max_a Q(s, a) against the best score on held-out
positions whose best score is under 5 in size (quiet ones), beside the mean size of that
target: the error a network that always says 0 makes. `--planes onehot` replaces the seed's
six planes by one plane per side and strength, one per side's face-down pieces and a plane of
ones (an experiment only; no file is written); `onehot+pool` adds a constant plane for each
side's face-down strengths and one for the no-progress count (`label` stores them).
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import time

import numpy as np

from boardlab import make_agent, make_game
from boardlab.agents.dqn import DQNAgent, DQNSettings, build_network, zero_output_layers
from boardlab.core.match import play_match

PLAYERS = ("greedy", "minimax:depth=1", "minimax:depth=2", "random", "SEARCH")


class Noisy:
    """An agent that plays a random legal move with probability `share`."""

    def __init__(self, inner, share: float, rng: random.Random) -> None:
        self.inner, self.share, self.rng, self.spec = inner, share, rng, inner.spec

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def act(self, state, clock):
        if self.rng.random() < self.share:
            return self.rng.choice(state.legal_actions())
        return self.inner.act(state, clock)


def search_agent(game, weights: str):
    if weights != "none":
        return make_agent(f"dqn:weights={weights},lookahead=2", game)
    agent = make_agent("dqn:weights=none,reward=potential,lookahead=2,dropout=0", game)
    zero_output_layers(agent.network)
    return agent


def label_games(task: tuple[str, list[int], float]):
    weights, seeds, random_share = task
    import torch

    torch.set_num_threads(1)
    game = make_game("jungle")
    search = search_agent(game, weights)
    planes, masks, scores, extras = [], [], [], []
    for seed in seeds:
        rng = random.Random(seed)
        seats = [search if spec == "SEARCH" else make_agent(spec, game)
                 for spec in (rng.choice(PLAYERS), rng.choice(PLAYERS))]
        view_rng = random.Random(seed + 7)

        def record(state, mover, action, view_rng=view_rng):
            if mover < 0:
                return
            view = state.view(mover, view_rng)
            if len(view.legal_actions()) < 2:
                return
            mask, score = searched(game, search, view)
            planes.append(game.encode_batch([view], [mover]).reshape(-1))
            extras.append(pool_and_clock(view, mover))
            masks.append(mask)
            scores.append(score)
        noisy = [Noisy(agent, random_share, random.Random(seed * 3 + i))
                 for i, agent in enumerate(seats)]
        play_match(game, noisy, seed=seed, on_move=record)
    return (np.array(planes, np.float32), np.array(masks), np.array(scores),
            np.array(extras, np.float32))


def searched(game, search, view) -> tuple[np.ndarray, np.ndarray]:
    """(legal mask, the search's score of every legal move, 0 elsewhere) of the view."""
    legal = view.legal_actions()
    mask = np.zeros(game.num_actions, bool)
    mask[legal] = True
    score = np.zeros(game.num_actions, np.float32)
    score[legal] = search.lookahead_scores(view)
    return mask, score


def pool_and_clock(view, mover: int) -> np.ndarray:
    """What the seed's planes leave out: each side's face-down strengths (8 flags each, the
    mover's first) and the no-progress count as a share of the 40 plies that draw."""
    sides = (mover, 1 - mover)
    flags = [(view.hidden[side] >> k) & 1 for side in sides for k in range(1, 9)]
    return np.array(flags + [view.no_capture / 40], np.float32)


def label(args) -> None:
    seeds = list(range(args.seed * 100_000, args.seed * 100_000 + args.games))
    tasks = [(args.weights, seeds[i::16], args.random_share) for i in range(16)]
    started = time.time()
    with multiprocessing.get_context("fork").Pool(args.workers) as pool:
        parts = [part for part in pool.map(label_games, tasks) if len(part[0])]
    x, mask, y, extra = (np.concatenate([part[i] for part in parts]) for i in range(4))
    np.savez_compressed(args.data, x=x, mask=mask, y=y, extra=extra)
    print(f"{len(x)} positions in {time.time() - started:.0f} s")


def onehot(x: np.ndarray, extra: np.ndarray | None = None) -> np.ndarray:
    """One plane per side and face-up strength, one per side's face-down pieces, ones; with
    `extra` (`pool_and_clock`), one constant plane for each of its numbers too."""
    seed_planes = x.reshape(-1, 6, 7, 8)
    strength = np.rint(seed_planes[:, 2] * 8).astype(int)
    face_up = seed_planes[:, 3] > 0
    planes = []
    for side in (seed_planes[:, 4] > 0, seed_planes[:, 5] > 0):
        planes += [side & face_up & (strength == k) for k in range(1, 9)]
        planes.append(side & ~face_up)
    planes.append(np.ones_like(face_up))
    if extra is not None:
        planes += [np.broadcast_to(extra[:, i, None, None], face_up.shape)
                   for i in range(extra.shape[1])]
    return np.stack(planes, 1).astype(np.float32).reshape(len(x), -1)


def fit(args) -> None:
    import torch

    torch.set_num_threads(1)  # a second thread beside other work slowed it 20-fold
    game = make_game("jungle")
    data = np.load(args.data)
    x, mask, y = data["x"], data["mask"], np.clip(data["y"], -100, 100)
    if args.planes == "onehot":
        x = onehot(x)
    elif args.planes == "onehot+pool":
        x = onehot(x, data["extra"])
    rng = np.random.default_rng(0)
    order = rng.permutation(len(x))
    held, train = order[:len(x) // 20], order[len(x) // 20:]
    torch.manual_seed(0)
    agent = DQNAgent(game, DQNSettings(weights="none", reward="potential", lookahead=2,
                                       dropout=0.0, arch="conv", channels=args.channels))
    agent.trained_reward = "potential"
    if args.planes != "seed":
        agent.network = build_network(x.shape[1], game.num_actions, 128, 0.0, 0, False,
                                      (x.shape[1] // 56, 7, 8), 3, args.channels)
    net = agent.network
    optimizer = torch.optim.Adam(net.parameters(), lr=args.lr)
    xt, mt, yt = torch.from_numpy(x), torch.from_numpy(mask), torch.from_numpy(y)

    def report(rows: np.ndarray) -> str:
        net.eval()
        with torch.no_grad():
            q, m = net(xt[rows]), mt[rows]
            best_score = yt[rows].masked_fill(~m, -1e9).max(1).values
            best_q = q.masked_fill(~m, -1e9).max(1).values
            quiet = best_score.abs() < 5
            error = (best_q - best_score)[quiet].abs().mean().item()
            size = best_score[quiet].abs().mean().item()
        net.train()
        return f"max Q error {error:.3f} (saying 0: {size:.3f})"

    started = time.time()
    net.train()
    for step in range(1, args.steps + 1):
        rows = torch.from_numpy(rng.choice(train, args.batch))
        q, m = net(xt[rows]), mt[rows]
        if args.target == "all":
            loss = torch.nn.functional.smooth_l1_loss(q[m], yt[rows][m])
        else:
            best_score, best = yt[rows].masked_fill(~m, -1e9).max(1)
            q_best = q.gather(1, best[:, None])[:, 0]
            bonus = torch.full_like(q, args.margin).scatter(1, best[:, None], 0.0)
            others = (q + bonus).masked_fill(~m, -1e9).max(1).values
            loss = (torch.nn.functional.smooth_l1_loss(q_best, best_score)
                    + (others - q_best).mean())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 1000 == 0 or step == args.steps:
            print(f"{step} steps, {time.time() - started:.0f} s: training {report(train[:5000])}; "
                  f"held out {report(held)}", flush=True)
    net.eval()
    if args.planes == "seed":
        agent.save(args.out)


parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("command", choices=("label", "fit"))
parser.add_argument("data")
parser.add_argument("out", nargs="?", default="")
parser.add_argument("--games", type=int, default=600)
parser.add_argument("--weights", default="none", help="the search's network (none: zero)")
parser.add_argument("--seed", type=int, default=1)
parser.add_argument("--workers", type=int, default=2)
parser.add_argument("--random-share", type=float, default=0.1)
parser.add_argument("--target", choices=("all", "best"), default="all")
parser.add_argument("--planes", choices=("seed", "onehot", "onehot+pool"), default="seed")
parser.add_argument("--channels", type=int, default=32)
parser.add_argument("--steps", type=int, default=6000)
parser.add_argument("--batch", type=int, default=256)
parser.add_argument("--lr", type=float, default=1e-3)
parser.add_argument("--margin", type=float, default=0.05)

if __name__ == "__main__":
    arguments = parser.parse_args()
    (label if arguments.command == "label" else fit)(arguments)
