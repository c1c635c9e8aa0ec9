"""Arena benchmarks (benchmarks/arena.md shows the figures and the commands that made them).

    python benchmarks/arena_bench.py speed  [--games 100] [--json out.json]
        6 agents x N games a pair on Jungle, --workers 1 then --workers 2 in the same run:
        wall time of each, their ratio, and whether every game (key, actions, returns,
        reason) came out the same.
    python benchmarks/arena_bench.py memory [--games 10000] [--workers 1] [--json out.json]
        a round robin of two random agents, N games; the arena process's resident size (and
        its workers') at 1,000 / 5,000 / 10,000 games, and its peak.

Each run uses fresh databases in a temporary folder; the load average before and after is
printed because the machine these were measured on is shared.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

from boardlab.arena.store import ResultStore
from boardlab.arena.tournament import run_tournament

SPEED_AGENTS = ["random", "greedy", "greedy:eval=seed-greedy", "minimax:depth=1",
                "minimax:depth=2", "mcts:sims=20,rollout=heuristic:greedy"]
"""Fast agents of different kinds; MCTS scores its leaves with the greedy heuristic because
random rollouts of Jungle in Python take seconds a game."""


def load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(with_children: bool = True) -> float:
    """CPU time of this process and (by default) of its finished children (the workers,
    once stopped)."""
    import resource

    own = resource.getrusage(resource.RUSAGE_SELF)
    total = own.ru_utime + own.ru_stime
    if with_children:
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        total += children.ru_utime + children.ru_stime
    return total


def game_log(path: Path) -> list[tuple]:
    with ResultStore(path) as store:
        return sorted((row.key, row.record.actions, row.record.returns, row.record.reason)
                      for row in store.games())


def speed(args: argparse.Namespace) -> dict:
    out: dict = {"agents": SPEED_AGENTS, "games_per_pair": args.games, "game": args.game,
                 "load_before": load(), "runs": []}
    with tempfile.TemporaryDirectory() as folder:
        logs = {}
        for workers in (1, 2):
            path = Path(folder) / f"w{workers}.sqlite"
            started, cpu, own = time.perf_counter(), cpu_seconds(), cpu_seconds(False)
            per_worker: dict[int, float] = {}

            def on_game(row: object) -> None:
                for pid in children():  # each worker's CPU so far (the tracker uses ~none)
                    try:
                        with open(f"/proc/{pid}/stat") as stat:
                            fields = stat.read().rsplit(")", 1)[1].split()
                        per_worker[pid] = (int(fields[11]) + int(fields[12])) / TICKS
                    except (OSError, IndexError, ValueError):
                        pass

            result = run_tournament(args.game, SPEED_AGENTS, args.games, path, seed=args.seed,
                                    workers=workers, progress=False, on_game=on_game)
            seconds = time.perf_counter() - started
            used = cpu_seconds() - cpu
            arena = cpu_seconds(False) - own
            logs[workers] = game_log(path)
            # cpu_per_wall near the worker count means the run got the cores it asked for;
            # far below it, the machine's other work took them (see benchmarks/arena.md).
            run = {"workers": workers, "seconds": round(seconds, 2), "games": result.played,
                   "games_per_s": round(result.played / seconds, 2),
                   "cpu_seconds": round(used, 1), "cpu_per_wall": round(used / seconds, 2),
                   "arena_process_cpu": round(arena, 1),
                   "worker_cpu": sorted(round(c, 1) for c in per_worker.values()),
                   "load_after": load()}
            out["runs"].append(run)
            print(json.dumps(run), flush=True)
    out["ratio"] = round(out["runs"][0]["seconds"] / out["runs"][1]["seconds"], 3)
    # Not a measurement of wall time: the ratio these CPU times would allow on two otherwise
    # idle cores (the longest worker, or all the work shared by two cores, whichever is more).
    one, two = out["runs"]
    busiest = max(two["worker_cpu"] or [0.0])
    bound = max(busiest, two["cpu_seconds"] / 2)
    out["cpu_bound_ratio"] = round(one["cpu_seconds"] / bound, 3) if bound else None
    out["identical"] = logs[1] == logs[2]
    out["load_after"] = load()
    return out


def resident(pid: int | str = "self") -> tuple[float, float]:
    """(resident MiB now, peak resident MiB) of a process, from /proc."""
    now = peak = 0.0
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                now = int(line.split()[1]) / 1024
            elif line.startswith("VmHWM:"):
                peak = int(line.split()[1]) / 1024
    return round(now, 1), round(peak, 1)


def children() -> list[int]:
    me = os.getpid()
    try:
        with open(f"/proc/{me}/task/{me}/children") as handle:
            return [int(pid) for pid in handle.read().split()]
    except OSError:
        return []


def memory(args: argparse.Namespace) -> dict:
    checkpoints = {1000, 5000, 10000, args.games} & set(range(1, args.games + 1))
    samples: list[dict] = []
    started = time.perf_counter()
    count = [0]

    def on_game(row: object) -> None:
        count[0] += 1
        if count[0] in checkpoints:
            workers = []
            for pid in children():
                try:
                    workers.append(resident(pid))
                except OSError:
                    pass
            sample = {"games": count[0], "seconds": round(time.perf_counter() - started, 1),
                      "arena_rss_mib": resident()[0], "arena_peak_mib": resident()[1],
                      "worker_rss_mib": [w[0] for w in workers]}
            samples.append(sample)
            print(json.dumps(sample), flush=True)

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "m.sqlite"
        result = run_tournament(args.game, ["random", "random:"], args.games, path,
                                workers=args.workers, progress=False, on_game=on_game)
        size = sum(p.stat().st_size for p in Path(folder).iterdir()) / 2**20
    return {"game": args.game, "games": result.played, "workers": args.workers,
            "samples": samples, "db_mib": round(size, 1), "load_after": load()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    fast = commands.add_parser("speed")
    fast.add_argument("--games", type=int, default=100)
    fast.add_argument("--game", default="jungle")
    fast.add_argument("--seed", type=int, default=0)
    fast.add_argument("--json", default=None)
    flat = commands.add_parser("memory")
    flat.add_argument("--games", type=int, default=10000)
    flat.add_argument("--game", default="jungle")
    flat.add_argument("--workers", type=int, default=1)
    flat.add_argument("--json", default=None)
    args = parser.parse_args()
    out = speed(args) if args.command == "speed" else memory(args)
    out.update({"python": platform.python_version(), "machine": platform.machine(),
                "cpus": os.cpu_count(), "date": time.strftime("%Y-%m-%d %H:%M UTC",
                                                             time.gmtime())})
    print(json.dumps({k: v for k, v in out.items() if k not in ("samples", "runs")}))
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
