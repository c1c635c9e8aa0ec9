"""Can a network learn where the Jungle DQN's two-ply search goes wrong? (issue 31)

The DQN agent with `lookahead=2`, the reward `potential` and no network at the leaves is a
two-ply expectiminimax of the minimax evaluation S(s, a). Handing it a deeper search's move
(`minimax:depth=4`) as a bonus of 0.03-0.1 at the root lifts it against greedy from 0.63 to
0.675-0.69 (100 games). A network that imitates the deeper search alone and is added the same
way makes it worse: it picks the teacher's move first in 27% of held-out positions, far less
often than the search itself does, so its bonus mostly pushes the search off moves it had
right. This script asks the network for the correction instead (residual policy learning:
Silver et al. 2018, "Residual Policy Learning", arXiv 1812.06298): the root's scores
S(s, a) + tau Q(s, a) are read as the logits of a policy, softmax(S / tau + Q), and Q is
fitted so that this policy picks the teacher's move. The search's scores are fixed inputs to
the loss, so Q only has to learn where they fall short; tau is learnt beside it and becomes
the agent's `root_weight`.

    python experiments/jungle_residual_policy.py oracle --bonus 0.1 --games 100
    python experiments/jungle_residual_policy.py label r0.npz --games 400 --workers 2
    python experiments/jungle_residual_policy.py fit r0.npz net.pt --steps 6000
    boardlab arena jungle random greedy dqn:weights=net.pt --games 200 --workers 2

`oracle` plays the search with the teacher's move `--bonus` higher against `--opponent`
(seats alternating), the bound on what such a network could add. `label` plays games
between random pairs of greedy, minimax depth 1 to 4, random and the search itself (a tenth
of every side's moves random) and keeps, for each decision, the mover's input planes, the
search's score of every legal move and the teacher's move; `--seconds` stops every worker
with what it has. `fit` reports on held-out games how often
the teacher's move comes first by the search alone, by the network alone and by the two
together, and writes a DQN weights file (`lookahead=2`, `leaf_weight=0`, `root_weight` =
the learnt tau).
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import time

import numpy as np

from boardlab import make_agent, make_game
from boardlab.agents.dqn import DQNAgent, DQNSettings
from boardlab.core.agent import Clock
from boardlab.core.match import play_match
from jungle_search_distill import Noisy, searched  # this folder's

PLAYERS = ("greedy", "minimax:depth=1", "minimax:depth=2", "minimax:depth=3", "TEACHER",
           "random", "SEARCH")
SEARCH = "dqn:weights=none,reward=potential,lookahead=2,leaf_weight=0,root_weight=0"


class OutOfTime(Exception):
    pass


def label_games(task: tuple[list[int], str, float, float]):
    seeds, teacher_spec, random_share, deadline = task
    import torch

    torch.set_num_threads(1)
    game = make_game("jungle")
    search, teacher = make_agent(SEARCH, game), make_agent(teacher_spec, game)
    planes, masks, scores, moves, games = [], [], [], [], []
    for seed in seeds:
        rng = random.Random(seed)
        specs = (rng.choice(PLAYERS), rng.choice(PLAYERS))
        seats = [search if spec == "SEARCH" else teacher if spec == "TEACHER"
                 else make_agent(spec, game) for spec in specs]
        view_rng = random.Random(seed + 7)

        def record(state, mover, action, view_rng=view_rng, seed=seed):
            if mover < 0:
                return
            if time.time() > deadline:
                raise OutOfTime
            view = state.view(mover, view_rng)
            if len(view.legal_actions()) < 2:
                return
            mask, score = searched(game, search, view)
            teacher.start_game(mover, seed)
            planes.append(game.encode_batch([view], [mover]).reshape(-1).astype(np.float16))
            masks.append(mask)
            scores.append(score)
            moves.append(teacher.act(view, Clock.start(None)))
            games.append(seed)
        noisy = [Noisy(agent, random_share, random.Random(seed * 3 + i))
                 for i, agent in enumerate(seats)]
        try:
            play_match(game, noisy, seed=seed, on_move=record)
        except OutOfTime:
            break
    # a game cut off by the deadline keeps the positions it had: they are labelled alike
    return (np.array(planes, np.float16), np.array(masks), np.array(scores),
            np.array(moves, np.int64), np.array(games, np.int64))


def label(args) -> None:
    seeds = list(range(args.seed * 100_000, args.seed * 100_000 + args.games))
    chunks = max(args.workers, 1)
    deadline = time.time() + args.seconds
    tasks = [(seeds[i::chunks], args.teacher, args.random_share, deadline)
             for i in range(chunks)]
    started = time.time()
    with multiprocessing.get_context("fork").Pool(args.workers) as pool:
        parts = [part for part in pool.map(label_games, tasks) if len(part[0])]
    x, mask, score, move, games = (np.concatenate([part[i] for part in parts])
                                   for i in range(5))
    np.savez_compressed(args.data, x=x, mask=mask, score=score, move=move, game=games)
    print(f"{len(x)} positions from {len(np.unique(games))} games in "
          f"{time.time() - started:.0f} s")


class SearchWithTeacher:
    """The two-ply search with the teacher's move `bonus` higher at the root (the oracle a
    network at `root_weight` stands in for); equal best scores drawn at random."""

    def __init__(self, game, teacher_spec: str, bonus: float) -> None:
        self.search, self.teacher = make_agent(SEARCH, game), make_agent(teacher_spec, game)
        self.bonus, self.spec, self.rng = bonus, f"search+{bonus}*{teacher_spec}", random.Random()

    def start_game(self, player: int, seed: int) -> None:
        for agent in (self.search, self.teacher):
            agent.start_game(player, seed)
        self.rng = random.Random(seed)

    def act(self, state, clock):
        legal = state.legal_actions()
        scores = self.search.lookahead_scores(state)
        if self.bonus:
            scores[legal.index(self.teacher.act(state, clock))] += self.bonus
        best = np.flatnonzero(scores >= scores.max() - 1e-9)
        return legal[int(self.rng.choice(best.tolist()))]

    def __getattr__(self, name):
        return getattr(self.search, name)


def oracle_games(task: tuple[list[int], str, float, str]) -> list[float]:
    seeds, teacher_spec, bonus, opponent_spec = task
    import torch

    torch.set_num_threads(1)
    game = make_game("jungle")
    player, opponent = SearchWithTeacher(game, teacher_spec, bonus), make_agent(opponent_spec,
                                                                                game)
    scores = []
    for seed in seeds:  # seats alternate with the seed
        seat = seed % 2
        record = play_match(game, [player, opponent] if seat == 0 else [opponent, player],
                            seed=seed)
        scores.append(0.5 + 0.5 * np.sign(record.returns[seat]))
    return scores


def oracle(args) -> None:
    seeds = list(range(1000, 1000 + args.games))
    tasks = [(seeds[i::args.workers], args.teacher, args.bonus, args.opponent)
             for i in range(args.workers)]
    with multiprocessing.get_context("fork").Pool(args.workers) as pool:
        scores = sum(pool.map(oracle_games, tasks), [])
    wins, losses = scores.count(1.0), scores.count(0.0)
    print(f"the search + {args.bonus} x {args.teacher}'s move against {args.opponent}: "
          f"{np.mean(scores):.3f} ({wins}-{len(scores) - wins - losses}-{losses})")


def fit(args) -> None:
    import torch

    torch.set_num_threads(1)
    game = make_game("jungle")
    data = [np.load(path) for path in args.data.split(":")]
    x = np.concatenate([d["x"] for d in data]).astype(np.float32)
    mask = np.concatenate([d["mask"] for d in data])
    score = np.concatenate([d["score"] for d in data])
    move = np.concatenate([d["move"] for d in data])
    games = np.concatenate([d["game"] + 10**9 * k for k, d in enumerate(data)])
    held_games = set(np.random.default_rng(0).permutation(np.unique(games))[:len(
        np.unique(games)) // 10].tolist())
    held = np.array([g in held_games for g in games])
    train, test = np.flatnonzero(~held), np.flatnonzero(held)
    torch.manual_seed(args.seed)
    agent = DQNAgent(game, DQNSettings(weights="none", reward="potential", lookahead=2,
                                       leaf_weight=0.0, dropout=0.0, arch="conv",
                                       channels=args.channels))
    agent.trained_reward = "potential"
    net = agent.network
    log_tau = torch.nn.Parameter(torch.tensor(float(np.log(args.tau))),
                                 requires_grad=not args.fixed_tau)
    optimizer = torch.optim.Adam([*net.parameters(), log_tau] if not args.fixed_tau
                                 else net.parameters(), lr=args.lr)
    xt, mt = torch.from_numpy(x), torch.from_numpy(mask)
    st, yt = torch.from_numpy(np.clip(score, -100, 100)), torch.from_numpy(move)

    def logits(rows, with_search=True, with_net=True):
        q = net(xt[rows]) if with_net else torch.zeros(len(rows), game.num_actions)
        s = st[rows] / log_tau.exp() if with_search else 0
        return (s + q).masked_fill(~mt[rows], -1e9)

    def report(rows) -> str:
        net.eval()
        with torch.no_grad():
            firsts = [float((logits(rows, a, b).argmax(1) == yt[rows]).float().mean())
                      for a, b in ((True, False), (False, True), (True, True))]
            loss = float(torch.nn.functional.cross_entropy(logits(rows), yt[rows]))
        net.train()
        return (f"teacher's move first: search {firsts[0]:.1%}, network {firsts[1]:.1%}, "
                f"both {firsts[2]:.1%}; loss {loss:.3f}; tau {float(log_tau.exp()):.4f}")

    rng = np.random.default_rng(args.seed)
    print(f"{len(train)} training positions, {len(test)} held out; before: {report(test)}")
    started = time.time()
    net.train()
    for step in range(1, args.steps + 1):
        for group in optimizer.param_groups:
            group["lr"] = args.lr * (0.1 + 0.9 * 0.5 * (1 + np.cos(np.pi * step / args.steps)))
        rows = torch.from_numpy(rng.choice(train, args.batch))
        loss = torch.nn.functional.cross_entropy(logits(rows), yt[rows])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 1000 == 0 or step == args.steps:
            print(f"{step} steps, {time.time() - started:.0f} s: held out {report(test)}",
                  flush=True)
    net.eval()
    agent.root_weight = float(log_tau.exp())
    if args.out:
        agent.save(args.out)
        print(f"wrote {args.out} (root_weight {agent.root_weight:.4f})")


parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("command", choices=("label", "fit", "oracle"))
parser.add_argument("data", nargs="?", default="",
                    help="label: the file to write; fit: files joined by ':'")
parser.add_argument("out", nargs="?", default="")
parser.add_argument("--games", type=int, default=400)
parser.add_argument("--teacher", default="minimax:depth=4")
parser.add_argument("--seed", type=int, default=1)
parser.add_argument("--workers", type=int, default=2)
parser.add_argument("--seconds", type=float, default=1e9)
parser.add_argument("--random-share", type=float, default=0.1)
parser.add_argument("--channels", type=int, default=32)
parser.add_argument("--tau", type=float, default=0.05, help="tau's starting value")
parser.add_argument("--fixed-tau", action="store_true", help="keep tau at --tau")
parser.add_argument("--steps", type=int, default=6000)
parser.add_argument("--batch", type=int, default=256)
parser.add_argument("--lr", type=float, default=1e-3)
parser.add_argument("--bonus", type=float, default=0.1, help="oracle: the teacher move's bonus")
parser.add_argument("--opponent", default="greedy", help="oracle: whom it plays")

if __name__ == "__main__":
    arguments = parser.parse_args()
    {"label": label, "fit": fit, "oracle": oracle}[arguments.command](arguments)
