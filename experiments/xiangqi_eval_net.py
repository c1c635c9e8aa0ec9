"""Fit Xiangqi's evaluation network (games/xiangqi/evalnet.py, the `neural` heuristic) to a
teacher engine's search values, in two steps.

    python experiments/xiangqi_eval_net.py label POSITIONS.npz LABELS_0.txt --part 0 --parts 2
    python experiments/xiangqi_eval_net.py train POSITIONS.npz LABELS_0.txt LABELS_1.txt \
        --out xiangqi-eval-net.npz

`label` asks Fairy-Stockfish (`go depth N`, one engine per process; run `--parts` of them side
by side) for its value of every position of a Texel positions cache (`boardlab train xiangqi
texel` writes one beside its output: OUT.positions.npz, the positions' texts in `text`), from
the side to move, and its best move; it appends "row value move" lines, so a killed run
resumes. `train` keeps the positions not in check whose best move takes nothing (the network
corrects a quiet position's value; a capture's gain is the quiescence search's) and whose value
is under 300 of our units, holds out every tenth game, and fits the network so that
tuned + correction matches the engine's value through the sigmoid of the Texel fit (K, our
units: the engine's centipawns x UNITS_PER_CENTIPAWN), Adam, `--epochs` passes. It prints the
held-out loss before (the tuned table alone) and after each pass, and writes the weights with
what made them.
"""

from __future__ import annotations

import argparse
import re
import subprocess
from pathlib import Path

import numpy as np

ENGINE = "/usr/games/fairy-stockfish"
UNITS_PER_CENTIPAWN = 0.1432
"""Our units (a soldier 10) per engine centipawn: the least-squares line through 0 from the
engine's static values to `positional`'s (games/xiangqi/README.md, the tuned evaluation)."""
K = 0.01707
"""The Texel fit's sigmoid slope in our units (games/xiangqi/README.md)."""
MATE = 30000
"""The engine's value of a mate, in centipawns (clipped away by `train`)."""


def label(positions: str, out: str, depth: int, part: int, parts: int) -> None:
    texts = np.load(positions)["text"]
    rows = np.random.default_rng(0).permutation(len(texts))[part::parts]
    path = Path(out)
    done = {int(line.split()[0]) for line in path.read_text().splitlines()} \
        if path.exists() else set()
    engine = subprocess.Popen([ENGINE], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, bufsize=1)
    assert engine.stdin is not None and engine.stdout is not None

    def send(command: str) -> None:
        engine.stdin.write(command + "\n")
        engine.stdin.flush()

    send("uci")
    send("setoption name UCI_Variant value xiangqi")
    send("isready")
    while engine.stdout.readline().strip() != "readyok":
        pass
    with path.open("a") as labels:
        for row in rows:
            if int(row) in done:
                continue
            send(f"position fen {texts[row]}")
            send(f"go depth {depth}")
            value = None
            while True:
                line = engine.stdout.readline()
                words = line.split()
                if words and words[0] == "info" and "score" in words:
                    kind, number = words[words.index("score") + 1:words.index("score") + 3]
                    value = int(number) if kind == "cp" else MATE * (1 if int(number) > 0 else -1)
                if words and words[0] == "bestmove":
                    break
            labels.write(f"{row} {value} {words[1]}\n")
    send("quit")


def _target_square(move: str) -> int:
    """Our square of a UCI move's destination (files a-i, ranks 1-10 from red's side)."""
    match = re.fullmatch(r"([a-i])(\d+)([a-i])(\d+)", move)
    if match is None:
        raise ValueError(f"not a move: {move!r}")
    return (10 - int(match.group(4))) * 9 + ord(match.group(3)) - ord("a")


def train(positions: str, label_files: list[str], out: str, width: int, second: int,
          epochs: int, seed: int) -> None:
    import torch

    from boardlab.core.registry import make_game
    from boardlab.games.xiangqi.evalnet import FEATURES, Network, features, write_network
    from boardlab.games.xiangqi.kernels import in_check

    cache = np.load(positions)
    texts, games = cache["text"], cache["game"]
    game = make_game("xiangqi")
    tuned = game.evaluators["tuned"]
    inputs, linear, target, group = [], [], [], []
    for name in label_files:
        for line in Path(name).read_text().splitlines():
            row_text, value_text, move = line.split()
            if value_text == "None" or abs(int(value_text)) >= MATE:
                continue
            state = game.state_from_text(str(texts[int(row_text)]))
            player = state.current_player()
            board = np.asarray(state.board, dtype=np.int64)
            value = int(value_text) * UNITS_PER_CENTIPAWN
            if board[_target_square(move)] != 0 or in_check(board, player) or abs(value) >= 300:
                continue
            active = features(board, player)
            inputs.append(active + [FEATURES] * (32 - len(active)))  # FEATURES: padding
            linear.append(tuned(state, player))
            target.append(value)
            group.append(int(games[int(row_text)]))
    held = np.array(group) % 10 == 0
    torch.manual_seed(seed)
    x = torch.tensor(inputs)
    base = torch.tensor(linear, dtype=torch.float32)
    goal = torch.sigmoid(K * torch.tensor(target, dtype=torch.float32))
    train_rows = torch.tensor(np.flatnonzero(~held))
    held_rows = torch.tensor(np.flatnonzero(held))
    print(f"{len(train_rows)} positions to fit, {len(held_rows)} held out")

    first = torch.nn.EmbeddingBag(FEATURES + 1, width, mode="sum", padding_idx=FEATURES)
    torch.nn.init.normal_(first.weight, std=0.05)
    with torch.no_grad():
        first.weight[FEATURES] = 0
    bias = torch.nn.Parameter(torch.zeros(width))
    hidden = torch.nn.Linear(width, second)
    last = torch.nn.Linear(second, 1)
    torch.nn.init.zeros_(last.weight)  # the correction starts at 0: the tuned table
    torch.nn.init.zeros_(last.bias)
    parameters = [*first.parameters(), bias, *hidden.parameters(), *last.parameters()]

    def correction(rows: torch.Tensor) -> torch.Tensor:
        layer = torch.clamp(first(x[rows]) + bias, 0, 1)
        return last(torch.clamp(hidden(layer), 0, 1)).squeeze(-1)

    def loss(rows: torch.Tensor, network: bool = True) -> torch.Tensor:
        value = base[rows] + (correction(rows) if network else 0.0)
        return ((torch.sigmoid(K * value) - goal[rows]) ** 2).mean()

    with torch.no_grad():
        print(f"held-out loss, the tuned table alone: {loss(held_rows, False).item():.6f}")
    optimiser = torch.optim.Adam(parameters, lr=2e-3)
    for epoch in range(epochs):
        order = train_rows[torch.randperm(len(train_rows))]
        for start in range(0, len(order), 512):
            optimiser.zero_grad()
            loss(order[start:start + 512]).backward()
            optimiser.step()
        if epoch == epochs * 2 // 3:
            for group_settings in optimiser.param_groups:
                group_settings["lr"] *= 0.3
        with torch.no_grad():
            print(f"pass {epoch + 1}: held-out loss {loss(held_rows).item():.6f}", flush=True)
    with torch.no_grad():
        network = Network(first.weight[:FEATURES].numpy(), bias.numpy(),
                          hidden.weight.numpy(), hidden.bias.numpy(), last.weight[0].numpy(),
                          last.bias.numpy())
        write_network(out, network, positions=positions, labels=" ".join(label_files),
                      width=width, second=second, epochs=epochs, seed=seed,
                      fitted=len(train_rows), held_out=len(held_rows),
                      held_out_loss=f"{loss(held_rows).item():.6f}")
    print(f"written to {out}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    labelling = commands.add_parser("label", help="the engine's values of the positions")
    labelling.add_argument("positions")
    labelling.add_argument("out")
    labelling.add_argument("--depth", type=int, default=8)
    labelling.add_argument("--part", type=int, default=0)
    labelling.add_argument("--parts", type=int, default=1)
    fitting = commands.add_parser("train", help="fit the network to the values")
    fitting.add_argument("positions")
    fitting.add_argument("labels", nargs="+")
    fitting.add_argument("--out", default="xiangqi-eval-net.npz")
    fitting.add_argument("--width", type=int, default=32)
    fitting.add_argument("--second", type=int, default=16)
    fitting.add_argument("--epochs", type=int, default=5)
    fitting.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.command == "label":
        label(args.positions, args.out, args.depth, args.part, args.parts)
    else:
        train(args.positions, args.labels, args.out, args.width, args.second, args.epochs,
              args.seed)


if __name__ == "__main__":
    main()
