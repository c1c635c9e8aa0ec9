"""Can the DQN's network learn the exact endings? The pursuit solver's values as its targets.

`experiments/jungle_pursuit_leaves.py` shows what the two-ply search gains from the exact
values of the endings (games/jungle/pursuit.py) at its leaves. This asks the network for
them: random endings of one or two face-up hunters against the last piece, every legal
move labelled with its exact Q-value under the potential-shaped reward (the move's reward
plus the discounted, negated exact value of the position after it), and positions of played
games that are not such endings labelled 0 (the network stays silent there, as the untrained
search's network is):

    python experiments/jungle_ending_network.py generate endings.npz --positions 200000 --seed 3
    boardlab arena jungle random greedy minimax:depth=1 \\
        "dqn:weights=none,reward=potential,lookahead=1,leaf_weight=0" --games 40 --db anchors.sqlite
    python experiments/jungle_ending_network.py fit endings.npz anchors.sqlite net.pt --steps 12000
    boardlab arena jungle greedy "dqn:weights=net.pt" --games 100 --workers 2
    boardlab arena jungle greedy \\
        "experiments/jungle_ending_network.py:EndingLeaves:weights=net.pt" --games 100 --workers 2

`EndingLeaves` reads the network only at leaves that are endings against a last face-up
piece (up to four hunters) and 0 elsewhere: the network's errors off the endings then
cannot enter the search.
"""

from __future__ import annotations

import argparse
import importlib.util
import time
from pathlib import Path

import numpy as np

from boardlab import make_agent, make_game
from boardlab.agents.dqn import DQNAgent
from boardlab.arena import ResultStore
from boardlab.games.jungle.game import JungleDarkState
from boardlab.games.jungle.rewards import SHAPING_DISCOUNT, potential_reward
from boardlab.games.jungle.rules import HIDDEN, SQUARES

_spec = importlib.util.spec_from_file_location(
    "jungle_pursuit_leaves", Path(__file__).with_name("jungle_pursuit_leaves.py"))
assert _spec is not None and _spec.loader is not None
_leaves = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_leaves)
ending_value = _leaves.ending_value

GAME = make_game("jungle")
PLAY = "reward=potential,lookahead=2,leaf_weight=1"
"""How the fitted network plays (recorded in its file): the two-ply search over the reward."""


def exact_q(state: JungleDarkState) -> np.ndarray:
    """Every action's exact Q-value in a solved ending (NaN for the illegal ones)."""
    q = np.full(GAME.num_actions, np.nan, dtype=np.float32)
    for action in state.legal_actions():
        after = state.child(action)
        q[action] = potential_reward(state, action, after)
        if not after.is_terminal():
            q[action] -= SHAPING_DISCOUNT * ending_value(after, after.current_player())
    return q


def random_endings(rng: np.random.Generator, count: int) -> list[JungleDarkState]:
    """Endings of one (40%) or two (60%) face-up hunters of random strengths and sides
    against a last piece, placed at random, either side to move, the count just restarted;
    grouped by material so that each ending is solved once."""
    material = []
    for _ in range(count):
        hunters = int(rng.choice([1, 2], p=[0.4, 0.6]))
        strengths = tuple(sorted(rng.choice(np.arange(1, 9), size=hunters,
                                            replace=False).tolist()))
        material.append((strengths, int(rng.integers(1, 9))))
    states = []
    for strengths, evader in sorted(material):
        while True:
            squares = rng.choice(SQUARES, size=len(strengths) + 1, replace=False)
            sign = 1 if rng.integers(2) == 0 else -1
            board = [0] * SQUARES
            for square, strength in zip(squares[:-1], strengths):
                board[int(square)] = sign * strength
            board[int(squares[-1])] = -sign * evader
            state = JungleDarkState(GAME, board, player=int(rng.integers(2)), hidden=[0, 0])
            if state.legal_actions():  # a last piece with no move has lost already
                states.append(state)
                break
    return states


def in_ending(state: JungleDarkState) -> bool:
    """A last face-up piece against up to four face-up hunters."""
    counts = state.piece_counts()
    return min(counts) == 1 and max(counts) <= 4 and \
        not any(abs(cell) == HIDDEN for cell in state.board)


def played_positions(stores: str) -> list[JungleDarkState]:
    """The decisions of every game in the arena stores (comma-separated) that are not
    endings against a last piece."""
    states = []
    for store in stores.split(","):
        with ResultStore(store) as results:
            for row in results.games():
                state = make_game(row.key.game).initial_state(row.record.seed)
                for action in row.record.actions:
                    state = state.child(action)
                    if not state.is_terminal() and not state.is_chance_node() and \
                            not in_ending(state) and min(state.piece_counts()) >= 1:
                        states.append(state)
    return states


def generate(args: argparse.Namespace) -> None:
    start = time.time()
    states = random_endings(np.random.default_rng(args.seed), args.positions)
    planes = GAME.encode_batch(states, [state.current_player() for state in states])
    np.savez_compressed(args.out, planes=planes.reshape(len(states), -1),
                        q=np.array([exact_q(state) for state in states]))
    print(f"{len(states)} endings in {time.time() - start:.0f} s")


def fit(args: argparse.Namespace) -> None:
    import torch

    torch.set_num_threads(1)
    files = [np.load(name) for name in args.endings.split(",")]
    planes = np.concatenate([data["planes"] for data in files])
    per_file = [data["q"] for data in files]
    targets = np.concatenate(per_file)
    played = [] if args.played == "none" else played_positions(args.played)
    played_planes = GAME.encode_batch(played, [s.current_player() for s in played])
    played_targets = np.full((len(played), GAME.num_actions), np.nan, dtype=np.float32)
    for row, state in zip(played_targets, played):
        row[state.legal_actions()] = 0.0
    print(f"{len(targets)} endings, {len(played)} other positions")
    held = len(per_file[0]) // 20  # from the first file: the same with more files after it
    held_planes, held_targets = planes[:held], targets[:held]
    x = np.concatenate([planes[held:], played_planes.reshape(len(played), planes.shape[1])])
    y = np.concatenate([targets[held:], played_targets]) / args.scale
    # Fitted on the endings alone, the file says so: the agent reads it only there.
    domain = ",domain=endings" if args.played == "none" else ""
    start_from = "none" if args.widen else args.init or "none"
    # Shown through the board's symmetries, the network is also read through them all.
    shape = f"symmetric={int(args.augment)}"
    if args.widen:  # the narrow network's convolutions, wider fully connected layers
        narrow = make_agent(f"dqn:weights={args.init}", GAME)
        if args.widen < narrow.settings.hidden:
            raise SystemExit(f"--widen {args.widen}: {args.init} has {narrow.settings.hidden} "
                             "units a layer already")
        shape += (f",hidden={args.widen},conv_layers={narrow.settings.conv_layers},"
                  f"channels={narrow.settings.channels}")
    agent = make_agent(f"dqn:weights={start_from},arch=conv,dropout=0,{PLAY}{domain},{shape}",
                       GAME)
    if args.widen:
        widen(narrow.network, agent.network)
    views = GAME.learning_kit().symmetries
    view_inputs = np.stack([view.inputs for view in views])
    view_actions = np.stack([view.actions for view in views])
    agent.trained_reward = "potential"  # the targets' reward: the file records it for play
    network = agent.network
    if args.init:  # a saved network's output layer is in the targets' units: scale it down
        import torch

        with torch.no_grad():
            network.head.weight.div_(args.scale)
            network.head.bias.div_(args.scale)
    network.train()
    optimiser = torch.optim.Adam(network.parameters(), lr=args.lr)
    rng = np.random.default_rng(0)
    start = time.time()
    for step in range(1, args.steps + 1):
        batch = rng.integers(0, len(x), args.batch)
        inputs, target = x[batch], y[batch]
        if args.augment:  # each sample through a random symmetry, its moves turned alike
            view = rng.integers(0, len(views), args.batch)
            rows = np.arange(args.batch)[:, None]
            inputs, target = inputs[rows, view_inputs[view]], target[rows, view_actions[view]]
        target = torch.from_numpy(target)
        known = ~torch.isnan(target)
        error = (network(torch.from_numpy(inputs)) - torch.nan_to_num(target)) ** 2
        loss = (error * known).sum() / known.sum()
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        for group in optimiser.param_groups:  # a half cosine to 0
            group["lr"] = args.lr * 0.5 * (1 + np.cos(np.pi * step / args.steps))
        if step % 2000 == 0 or step == args.steps:
            network.eval()
            with torch.no_grad():  # through every symmetry the agent reads, averaged
                q = agent.q_values_of_inputs(held_planes) * args.scale
            network.train()
            print(f"{step} minibatches, {time.time() - start:.0f} s: held-out endings' "
                  f"value error {value_error(q, held_targets)[0]:.2f} (mean)", flush=True)
        if step % args.save_every == 0 or step == args.steps:
            export(agent, args.scale, args.out)  # a long fit can be measured on the way


def widen(narrow, wide) -> None:
    """Copy the fully connected layers of `narrow` into the wider `wide` (the convolutions
    as they are) so that `wide` computes the same Q-values: each old unit keeps its weights
    from the old units and takes nothing from the new ones, and the head reads the new units
    with weight 0 (they start from `wide`'s fresh weights; their output then learns).
    Net2Net's function-preserving widening (Chen et al. 2016, arXiv 1511.05641)."""
    import torch

    with torch.no_grad():
        wide.convolutions.load_state_dict(narrow.convolutions.state_dict())
        old_layers = [m for m in narrow.body if isinstance(m, torch.nn.Linear)] + [narrow.head]
        new_layers = [m for m in wide.body if isinstance(m, torch.nn.Linear)] + [wide.head]
        for index, (old, new) in enumerate(zip(old_layers, new_layers)):
            rows, columns = old.weight.shape
            if index:  # the old units read nothing from the new ones
                new.weight[:, columns:] = 0.0
            new.weight[:rows, :columns] = old.weight
            new.bias[:rows] = old.bias


def export(agent: DQNAgent, scale: float, path: str) -> None:
    """Save the agent's network with the output layer scaled back to the targets' units (the
    targets were divided by `scale` for the fit), leaving the network being fitted as it is."""
    import copy

    import torch

    network = agent.network
    agent.network = copy.deepcopy(network).eval()
    with torch.no_grad():
        agent.network.head.weight.mul_(scale)
        agent.network.head.bias.mul_(scale)
    agent.save(path)
    agent.network = network


def error(args: argparse.Namespace) -> None:
    """How far the network, read as the agent reads it (through the symmetries its file
    records), is from the exact values of generated endings it was not fitted on
    (`value_error`)."""
    agent = make_agent(f"dqn:weights={args.weights}", GAME)
    data = np.load(args.endings)
    planes, exact = data["planes"], data["q"]
    q = np.concatenate([agent.q_values_of_inputs(planes[start:start + 4096])
                        for start in range(0, len(planes), 4096)])
    mean_error, best_chosen = value_error(q, exact)
    print(f"{len(exact)} endings: value error {mean_error:.2f} (mean), "
          f"a best move chosen in {best_chosen:.1%}")


def value_error(q: np.ndarray, exact: np.ndarray) -> tuple[float, float]:
    """The mean error of the network's value (its best legal Q) against the exact one, and
    the share of endings where its best move is an exactly best one (within half a unit,
    well under a ply's worth); `exact` is NaN at the illegal moves."""
    legal = ~np.isnan(exact)
    best = np.where(legal, exact, -np.inf).max(1)
    value = np.where(legal, q, -np.inf).max(1)
    chosen = exact[np.arange(len(exact)), np.where(legal, q, -np.inf).argmax(1)]
    return float(np.abs(value - best).mean()), float((chosen >= best - 0.5).mean())


def quiet(args: argparse.Namespace) -> None:
    """How far from silent the network is off the endings: its largest |Q| over the legal
    moves of each other position of the games in an arena store it did not learn from."""
    agent = make_agent(f"dqn:weights={args.weights}", GAME)
    states = played_positions(args.played)
    largest = []
    for start in range(0, len(states), 4096):
        chunk = states[start:start + 4096]
        q = agent.q_values(chunk, [state.current_player() for state in chunk])
        largest += [np.abs(row[state.legal_actions()]).max() for state, row in zip(chunk, q)]
    print(f"{len(largest)} positions: largest |Q| {np.mean(largest):.3f} on average, "
          f"median {np.median(largest):.3f}")


class EndingLeaves(DQNAgent):
    """The DQN agent whose network is read only at leaves that are endings (`in_ending`)."""

    name = "ending-leaves"

    def _leaf_values(self, leaves) -> np.ndarray:
        values = np.zeros(len(leaves))
        where = [i for i, leaf in enumerate(leaves) if in_ending(leaf)]
        if where:
            chosen = [leaves[i] for i in where]
            q = self.q_values(chosen, [leaf.current_player() for leaf in chosen])
            for i, leaf, row in zip(where, chosen, q):
                values[i] = row[leaf.legal_actions()].max()
        return self.leaf_weight * values


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("generate", help="random endings with exact Q-values")
    make.add_argument("out")
    make.add_argument("--positions", type=int, default=200_000)
    make.add_argument("--seed", type=int, default=3)
    train = commands.add_parser("fit", help="a convolutional Q-network on them")
    train.add_argument("endings", help="generated endings (several: comma-separated)")
    train.add_argument("played", help="arena stores whose other positions are labelled 0 "
                       "(`none`: the endings alone; the file then records "
                       "`domain=endings`, read only there)")
    train.add_argument("out")
    train.add_argument("--steps", type=int, default=12_000)
    train.add_argument("--batch", type=int, default=256)
    train.add_argument("--lr", type=float, default=1e-3)
    train.add_argument("--init", default="",
                       help="a weights file this fit goes on from (default: fresh weights)")
    train.add_argument("--save-every", type=int, default=20_000,
                       help="minibatches between saves of the weights file (the last one too)")
    train.add_argument("--widen", type=int, default=0,
                       help="with --init: a network of this many hidden units per fully "
                       "connected layer, computing what the --init one does to begin with")
    train.add_argument("--augment", action="store_true",
                       help="show each sample through a random symmetry of the board; the "
                       "file then records symmetric=1 (read through all of them)")
    train.add_argument("--scale", type=float, default=100.0,
                       help="targets divided by this for the fit, the output layer multiplied")
    check = commands.add_parser("error", help="the network against exact endings")
    check.add_argument("weights")
    check.add_argument("endings", help="generated endings it was not fitted on")
    probe = commands.add_parser("quiet", help="the network's |Q| off the endings")
    probe.add_argument("weights")
    probe.add_argument("played", help="arena stores")
    args = parser.parse_args()
    if args.command == "fit" and args.widen and not args.init:
        parser.error("--widen needs --init: the network it widens")
    {"generate": generate, "fit": fit, "error": error, "quiet": quiet}[args.command](args)


if __name__ == "__main__":
    main()
