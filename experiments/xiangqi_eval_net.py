"""Fit Xiangqi's evaluation network (games/xiangqi/evalnet.py, the `neural` heuristic) to a
teacher engine's search values, in two steps (three with `selfplay`).

    python experiments/xiangqi_eval_net.py label POSITIONS.npz LABELS_0.txt --part 0 --parts 2
    python experiments/xiangqi_eval_net.py train POSITIONS.npz LABELS_0.txt LABELS_1.txt \
        --out xiangqi-eval-net.npz
    python experiments/xiangqi_eval_net.py selfplay MORE_0.npz --games 2000 --seed 0
    python experiments/xiangqi_eval_net.py train POSITIONS.npz LABELS_0.txt LABELS_1.txt \
        --more MORE_0.npz MORE_0.npz.labels.txt --more MORE_1.npz MORE_1.npz.labels.txt
    python experiments/xiangqi_eval_net.py played OURS.npz STORE.sqlite ...  # then `label` it

`label` asks Fairy-Stockfish (`go depth N`, one engine per process; run `--parts` of them side
by side, each a share of the games) for its value of every position of a Texel positions cache
(`boardlab train xiangqi texel` writes one beside its output: OUT.positions.npz, the positions'
texts in `text`, their games in `game`), from the side to move, and its best move, game by game
with the hash kept through a game; it appends "row value move" lines, so a killed run resumes.
`selfplay` writes positions of the same kind (`text`, `game`) and their labels from the
engine's games against itself at `go depth N` from random starts (`--opening` random plies,
then a random move with probability `--noise`), one search labelling a position and choosing
its move: the play of a strong engine, where the Texel cache holds our own search's. `played`
writes the positions of the games in arena stores (`boardlab arena --db`) for `label`: those
our engine search plays into, against the engine or itself. `train`
keeps the positions not in check whose best move takes nothing (the network corrects a quiet
position's value; a capture's gain is the quiescence search's) and whose value is under 300 of
our units, holds out every tenth game, and fits the network so that tuned + correction matches
the engine's value through the sigmoid of the Texel fit (K, our units: the engine's centipawns
x UNITS_PER_CENTIPAWN), Adam, `--epochs` passes; `--more` adds another positions file and its
labels (each file's every tenth game held out). It prints the held-out loss before (the tuned
table alone) and after each pass, and writes the weights with what made them.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import numpy as np

ENGINE = "/usr/games/fairy-stockfish"
UNITS_PER_CENTIPAWN = 0.1432
"""Our units (a soldier 10) per engine centipawn: the least-squares line through 0 from the
engine's static values to `positional`'s (games/xiangqi/README.md, the tuned evaluation)."""
K = 0.01707
"""The Texel fit's sigmoid slope in our units (games/xiangqi/README.md)."""
MATE = 3000
"""Labels at or past this many centipawns are mates (the engine agent's MATE_CENTIPAWNS;
files labelled before it wrote 30000): `train` leaves them out."""
LEARNING_RATE = 2e-3
"""Adam's step size at the start of `train`."""
BATCH = 512
"""Positions a step of `train`."""
LAST_RATE_SHARE = 0.02
"""`--schedule linear`: the least share of LEARNING_RATE a step takes, reached at the end."""


def _engine(depth: int):
    """Fairy-Stockfish at `go depth DEPTH` as the arena's engine agent, whose `searched_value`
    gives a position's value for the side to move and the best move (a fresh hash each call,
    so a label does not depend on the positions asked before it)."""
    from boardlab.core.registry import make_agent, make_game

    return make_agent(f"engine:cmd={ENGINE},go=depth {depth}", make_game("xiangqi"))


def _label(row: int, engine, state, fresh: bool = True) -> tuple[str, int]:
    """"row value move" for `state` (the engine's value in centipawns, a mate as
    +-MATE_CENTIPAWNS, and its best move in its own notation) and that move's action;
    `fresh`: from a cleared hash (`EngineAgent.searched_value`)."""
    from boardlab.games.xiangqi.engines import to_fairy_stockfish

    value, best = engine.searched_value(state, fresh=fresh)
    return f"{row} {int(value)} {to_fairy_stockfish(state, best)}", best


def label(positions: str, out: str, depth: int, part: int, parts: int) -> None:
    from boardlab.core.registry import make_game

    cache = np.load(positions)
    texts, games = cache["text"], cache["game"]
    path = Path(out)
    done = {int(line.split()[0]) for line in path.read_text().splitlines()} \
        if path.exists() else set()
    engine = _engine(depth)
    game = make_game("xiangqi")
    # Game by game (this part's: game number % parts), its positions in the file's order, the
    # hash cleared at the first and kept after, as in `selfplay`: a tenth of the time of a
    # cleared hash each position. (A game a killed run left unfinished resumes from a cleared
    # hash at its first position not labelled.)
    with path.open("a") as labels:
        for number in np.unique(games[games % parts == part]):
            rows = [int(row) for row in np.flatnonzero(games == number) if int(row) not in done]
            for row in rows:
                state = game.state_from_text(str(texts[row]))
                labels.write(_label(row, engine, state, fresh=row == rows[0])[0] + "\n")
    engine.close()


def played(out: str, stores: list[str]) -> None:
    """The positions of every game in the arena stores `stores` (`boardlab arena --db`), each
    once (the first time it occurs: the board, the side to move and the move number), in a
    positions file as `selfplay` writes (`text`, `game`): the positions our search reaches in
    its own games, against the engine or itself, where its evaluation's errors are the ones
    it plays into."""
    from boardlab.arena import ResultStore
    from boardlab.core.registry import make_game

    texts: list[str] = []
    numbers: list[int] = []
    seen: set[str] = set()
    number = 0
    for store in stores:
        for row in ResultStore(store).games():
            record = row.record
            state = make_game(record.game).initial_state(record.seed)
            for action in record.actions:
                if state.is_terminal():
                    break
                text = state.to_text()
                position = text.rsplit(" ", 2)[0]  # without the move counters
                if position not in seen:
                    seen.add(position)
                    texts.append(text)
                    numbers.append(number)
                state.apply(action)
            number += 1
    np.savez(out, text=np.array(texts), game=np.array(numbers, dtype=np.int64))
    print(f"{len(texts)} positions of {number} games written to {out}")


def selfplay(out: str, games: int, depth: int, opening: int, noise: float, seed: int) -> None:
    """`games` games of the engine against itself at `go depth DEPTH`, which labels each
    position as `label` does, in the same search (but with the hash kept from move to move):
    the positions (`text`, `game`) to `out`, the labels ("row value move") to
    `out`.labels.txt, both rewritten every 20 games, and a run killed starts again after the
    last 20 written."""
    from boardlab.core.registry import make_game

    game = make_game("xiangqi")
    positions, labels_path = Path(out), Path(f"{out}.labels.txt")
    texts: list[str] = []
    group: list[int] = []
    labels: list[str] = []
    if positions.exists() and labels_path.exists():
        saved = np.load(positions)
        texts, group = [str(text) for text in saved["text"]], [int(g) for g in saved["game"]]
        labels = labels_path.read_text().splitlines()[:len(texts)]
    engine = _engine(depth)
    for number in range(len(set(group)), games):
        rng = np.random.default_rng([seed, number])
        state = game.initial_state()
        random_plies = int(rng.integers(2, opening + 1))
        while not state.is_terminal():
            # The hash is cleared at each game's start and kept through it, as in a game: a
            # tenth of the time of a cleared one each position, and the same labels again.
            line, best = _label(len(texts), engine, state, fresh=state.plies == 0)
            labels.append(line)
            texts.append(state.to_text())
            group.append(number)
            if state.plies < random_plies or rng.random() < noise:
                legal = state.legal_actions()
                state.apply(legal[int(rng.integers(len(legal)))])
            else:
                state.apply(best)
        if number % 20 == 19 or number == games - 1:
            # Labels first: a run killed between the two writes keeps only labelled positions
            # (the labels are cut to the positions when it resumes).
            labels_path.write_text("\n".join(labels) + "\n")
            np.savez_compressed(positions, text=np.array(texts), game=np.array(group))
            print(f"{number + 1} games, {len(texts)} positions", flush=True)
    engine.close()


def _target_square(move: str) -> int:
    """Our square of a UCI move's destination (files a-i, ranks 1-10 from red's side)."""
    match = re.fullmatch(r"([a-i])(\d+)([a-i])(\d+)", move)
    if match is None:
        raise ValueError(f"not a move: {move!r}")
    return (10 - int(match.group(4))) * 9 + ord(match.group(3)) - ord("a")


def _examples(positions: str, label_files: list[str]):
    """(active features for the side to move, and for the other side, tuned's value, its
    tables' value alone, the engine's value in our units, game) of each labelled position
    kept: not in check, the engine's best move no capture, under 300 units and no mate."""
    from boardlab.core.registry import make_game
    from boardlab.games.xiangqi.evalnet import features
    from boardlab.games.xiangqi.heuristics import tuned_tables
    from boardlab.games.xiangqi.kernels import in_check

    game = make_game("xiangqi")
    tuned = game.evaluators["tuned"]
    cache = np.load(positions)
    texts, games = cache["text"], cache["game"]
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
            yield (features(board, player), features(board, 1 - player), tuned(state, player),
                   tuned_tables(state, player), value, int(games[int(row_text)]))


def _cached_examples(positions: str, label_files: list[str]) -> dict[str, np.ndarray]:
    """`_examples` of one positions file and its labels as arrays (features padded to 32 with
    FEATURES), kept in POSITIONS.examples.npz and read from there again while the files are
    the same sizes: reading the positions is most of a fit's time."""
    from boardlab.games.xiangqi.evalnet import FEATURES

    cache = Path(f"{positions}.examples.npz")
    stamp = " ".join(f"{name}:{Path(name).stat().st_size}" for name in [positions, *label_files])
    if cache.exists():
        saved = np.load(cache)
        if str(saved["stamp"]) == stamp and "tables" in saved.files:
            return {name: saved[name] for name in saved.files}
    rows: dict[str, list] = {"inputs": [], "other_inputs": [], "tuned": [], "tables": [],
                             "target": [], "game": []}
    for active, other, tuned_value, tables_value, value, game_number in _examples(
            positions, label_files):
        rows["inputs"].append(active + [FEATURES] * (32 - len(active)))
        rows["other_inputs"].append(other + [FEATURES] * (32 - len(other)))
        rows["tuned"].append(tuned_value)
        rows["tables"].append(tables_value)
        rows["target"].append(value)
        rows["game"].append(game_number)
    arrays = {name: np.array(values, dtype=np.int16 if "inputs" in name else
                             np.int64 if name == "game" else np.float64)
              for name, values in rows.items()}
    np.savez(cache, stamp=stamp, **arrays)
    return arrays


def train(datasets: list[tuple[str, list[str]]], out: str, width: int, second: int,
          epochs: int, seed: int, views: int = 1, base: str = "tuned",
          schedule: str = "step") -> None:
    """Fit the network to the labelled positions of `datasets` (a positions file and its
    label files each); `views` 2: the second layer reads the other side's view too
    (evalnet.py `views`); `base`: what the network corrects, the tuned evaluation ("tuned")
    or its tables without the activity term ("tables": a leaf of the search then needs no
    move generation for the other side; evalnet.py `network_base`); `schedule`: the learning
    rate cut to three tenths after two thirds of the passes ("step"), or falling step by step
    to a fiftieth of the first ("linear", whose last pass moves the weights less: the final
    network is less the chance of its last batches)."""
    import torch

    from boardlab.games.xiangqi.evalnet import FEATURES, Network, write_network

    parts = [_cached_examples(positions, label_files) for positions, label_files in datasets]
    # Games of different files stay apart; every tenth game of each is held out.
    group = np.concatenate([part["game"] + number * 10_000_000
                            for number, part in enumerate(parts)])
    held = group % 10 == 0
    torch.manual_seed(seed)
    x = torch.tensor(np.concatenate([part["inputs"] for part in parts]).astype(np.int64))
    x_other = (torch.tensor(np.concatenate([part["other_inputs"] for part in parts])
                            .astype(np.int64)) if views == 2 else None)
    base_values = torch.tensor(np.concatenate([part[base] for part in parts]),
                               dtype=torch.float32)
    goal = torch.sigmoid(K * torch.tensor(np.concatenate([part["target"] for part in parts]),
                                          dtype=torch.float32))
    train_rows = torch.tensor(np.flatnonzero(~held))
    held_rows = torch.tensor(np.flatnonzero(held))
    source = np.array(group) // 10_000_000
    held_by_file = [torch.tensor(np.flatnonzero(held & (source == number)))
                    for number in range(len(datasets))]
    print(f"{len(train_rows)} positions to fit, {len(held_rows)} held out")

    first = torch.nn.EmbeddingBag(FEATURES + 1, width, mode="sum", padding_idx=FEATURES)
    torch.nn.init.normal_(first.weight, std=0.05)
    with torch.no_grad():
        first.weight[FEATURES] = 0
    bias = torch.nn.Parameter(torch.zeros(width))
    hidden = torch.nn.Linear(views * width, second)
    last = torch.nn.Linear(second, 1)
    torch.nn.init.zeros_(last.weight)  # the correction starts at 0: the tuned table
    torch.nn.init.zeros_(last.bias)
    parameters = [*first.parameters(), bias, *hidden.parameters(), *last.parameters()]

    def correction(rows: torch.Tensor) -> torch.Tensor:
        layer = torch.clamp(first(x[rows]) + bias, 0, 1)
        if x_other is not None:
            layer = torch.cat([layer, torch.clamp(first(x_other[rows]) + bias, 0, 1)], dim=-1)
        return last(torch.clamp(hidden(layer), 0, 1)).squeeze(-1)

    def loss(rows: torch.Tensor, network: bool = True) -> torch.Tensor:
        value = base_values[rows] + (correction(rows) if network else 0.0)
        return ((torch.sigmoid(K * value) - goal[rows]) ** 2).mean()

    def held_out(network: bool = True) -> str:
        each = " ".join(f"{loss(rows, network).item():.6f}" for rows in held_by_file)
        return f"{loss(held_rows, network).item():.6f}" + (
            f" (each file: {each})" if len(datasets) > 1 else "")

    with torch.no_grad():
        print(f"held-out loss, the base ({base}) alone: {held_out(False)}")
    optimiser = torch.optim.Adam(parameters, lr=LEARNING_RATE)
    steps = epochs * ((len(train_rows) + BATCH - 1) // BATCH)
    step = 0
    for epoch in range(epochs):
        order = train_rows[torch.randperm(len(train_rows))]
        for start in range(0, len(order), BATCH):
            if schedule == "linear":
                for group_settings in optimiser.param_groups:
                    group_settings["lr"] = LEARNING_RATE * max(LAST_RATE_SHARE, 1 - step / steps)
                step += 1
            optimiser.zero_grad()
            loss(order[start:start + BATCH]).backward()
            optimiser.step()
        if schedule == "step" and epoch == epochs * 2 // 3:
            for group_settings in optimiser.param_groups:
                group_settings["lr"] *= 0.3
        with torch.no_grad():
            print(f"pass {epoch + 1}: held-out loss {held_out()}", flush=True)
    with torch.no_grad():
        network = Network(first.weight[:FEATURES].numpy(), bias.numpy(),
                          hidden.weight.numpy(), hidden.bias.numpy(), last.weight[0].numpy(),
                          last.bias.numpy())
        write_network(out, network,
                      positions=" ".join(positions for positions, _ in datasets),
                      labels=" ".join(" ".join(files) for _, files in datasets),
                      width=width, second=second, views=views, base=base, epochs=epochs,
                      seed=seed, schedule=schedule,
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
    fitting.add_argument("--more", nargs="+", action="append", default=[],
                         metavar="POSITIONS LABELS", help="another positions file and its labels")
    fitting.add_argument("--seed", type=int, default=0)
    fitting.add_argument("--views", type=int, choices=(1, 2), default=1,
                         help="2: the second layer reads both sides' views (evalnet.py)")
    fitting.add_argument("--base", choices=("tuned", "tables"), default="tuned",
                         help="what the network corrects: the tuned evaluation, or its tables "
                              "without the activity term (faster leaves)")
    fitting.add_argument("--schedule", choices=("step", "linear"), default="step",
                         help="the learning rate: cut once after two thirds of the passes, "
                              "or falling linearly to a fiftieth")
    playing = commands.add_parser("selfplay", help="positions of the engine's games")
    playing.add_argument("out")
    playing.add_argument("--games", type=int, default=1000)
    playing.add_argument("--depth", type=int, default=8)
    playing.add_argument("--opening", type=int, default=8)
    playing.add_argument("--noise", type=float, default=0.02)
    playing.add_argument("--seed", type=int, default=0)
    ours = commands.add_parser("played", help="positions of the games of arena stores")
    ours.add_argument("out")
    ours.add_argument("stores", nargs="+")
    args = parser.parse_args()
    if args.command == "played":
        played(args.out, args.stores)
    elif args.command == "label":
        label(args.positions, args.out, args.depth, args.part, args.parts)
    elif args.command == "selfplay":
        selfplay(args.out, args.games, args.depth, args.opening, args.noise, args.seed)
    else:
        datasets = [(args.positions, args.labels)]
        datasets += [(more[0], more[1:]) for more in args.more]
        train(datasets, args.out, args.width, args.second, args.epochs, args.seed, args.views,
              args.base, args.schedule)


if __name__ == "__main__":
    main()
