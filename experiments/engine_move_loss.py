"""How much worse than a judge engine's choice are a search's moves? Centipawn loss on fixed
positions (issue 35's yardstick between settings of the engine search).

Games against Fairy-Stockfish decide the ladder, but 40 of them tell apart only changes of
about 100 Elo, and a game of Xiangqi takes minutes. Here every setting plays the same
positions, once each, and a judge engine (Fairy-Stockfish at a fixed depth, its hash cleared
before each search, so the same question gets the same answer) scores the position and the
move played (`searchmoves`); the loss is the difference, at least 0. The judge's answers are
cached per position and move, so a second setting costs its own thinking time and the judge's
look at the moves it plays differently.

    python experiments/engine_move_loss.py positions xiangqi STORE.sqlite positions.json
    python experiments/engine_move_loss.py judge positions.json \\
        "minimax:depth=0,time=0.2,quiescence=true" \\
        "minimax:depth=0,time=0.2,quiescence=true,sort_quiets=true"

`positions` draws middle-game positions (plies 12-110, one in nine) from the games of an
arena store; `judge` prints, per agent spec, the mean loss over all positions and over the
even ones (the judge's value within 400 centipawns), how often it played the judge's move, how
often it lost 100 centipawns or more, and its mean nodes (an agent that reports them, 0 for an
engine) and seconds a move. A fixed depth (`minimax:depth=8,quiescence=true`) gives a setting's
nodes and quality apart from the clock. Timed searches vary from run to run: run a setting
twice to see how far its figures move by themselves (docs/speed.md).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

from boardlab import Clock, make_agent
from boardlab.arena import ResultStore
from boardlab.core.registry import make_game

JUDGE = "engine:cmd=/usr/games/fairy-stockfish,go=depth 12"
EVEN = 400.0
"""Positions whose judged value is within this many centipawns count as even."""


def draw_positions(game_name: str, store: str, out: str, count: int, seed: int) -> None:
    rng = random.Random(seed)
    found: list[str] = []
    for row in ResultStore(store).games():
        record = row.record
        state = make_game(record.game).initial_state(record.seed)
        for ply, action in enumerate(record.actions):
            if 12 <= ply <= 110 and ply % 9 == rng.randrange(9) and not state.is_terminal():
                found.append(state.to_text())
            state.apply(action)
    rng.shuffle(found)
    Path(out).write_text(json.dumps({"game": game_name, "positions": found[:count]}))
    print(f"{min(count, len(found))} of {len(found)} positions written to {out}")


def judge(positions_file: str, specs: list[str], judge_spec: str, cache_file: str) -> None:
    data = json.loads(Path(positions_file).read_text())
    game = make_game(data["game"])
    cache_path = Path(cache_file)
    cache: dict[str, list] = json.loads(cache_path.read_text()) if cache_path.exists() else {}
    referee = make_agent(judge_spec, game)

    def judged(text: str, state, action: int | None) -> list:
        key = f"{judge_spec} | {text} | {'best' if action is None else action}"
        if key not in cache:
            cache[key] = list(referee.searched_value(state, action))
        return cache[key]

    for spec in specs:
        agent = make_agent(spec, game)
        losses, even, best_moves, nodes, seconds = [], [], 0, 0, 0.0
        for text in data["positions"]:
            state = game.state_from_text(text)
            agent.start_game(state.current_player(), 0)
            started = time.perf_counter()
            action = agent.act(state.clone(), Clock())
            seconds += time.perf_counter() - started
            nodes += agent.last_info().get("nodes", 0)
            best, best_action = judged(text, state, None)
            value = best if action == best_action else judged(text, state, action)[0]
            loss = max(0.0, best - value)
            losses.append(loss)
            best_moves += action == best_action
            if abs(best) < EVEN:
                even.append(loss)
        cache_path.write_text(json.dumps(cache))
        print(f"{spec}: mean loss {sum(losses) / len(losses):.1f} cp over {len(losses)} "
              f"positions, {sum(even) / max(len(even), 1):.1f} over the {len(even)} even; "
              f"the judge's move {best_moves}, "
              f"100 cp or more lost {sum(x >= 100 for x in losses)}; "
              f"{nodes / len(losses):,.0f} nodes and {seconds / len(losses):.3f} s a move",
              flush=True)
    referee.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    draw = commands.add_parser("positions", help="draw positions from an arena store")
    draw.add_argument("game")
    draw.add_argument("store")
    draw.add_argument("out")
    draw.add_argument("--count", type=int, default=240)
    draw.add_argument("--seed", type=int, default=1)
    score = commands.add_parser("judge", help="the centipawn loss of each agent's moves")
    score.add_argument("positions")
    score.add_argument("specs", nargs="+")
    score.add_argument("--judge", default=JUDGE, help=f"the judge engine (default {JUDGE!r})")
    score.add_argument("--cache", default="engine_move_loss_cache.json")
    args = parser.parse_args()
    if args.command == "positions":
        draw_positions(args.game, args.store, args.out, args.count, args.seed)
    else:
        judge(args.positions, args.specs, args.judge, args.cache)


if __name__ == "__main__":
    main()
