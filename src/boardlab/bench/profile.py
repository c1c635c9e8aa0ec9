"""Where one benchmark job spends its time: `python -m boardlab.bench.profile GAME TASK`.

Runs the job `boardlab bench` would run (ours, not a peer's) under cProfile for a few seconds
and prints the functions with the most time of their own, which is how docs/speed.md names
each engine's bottleneck. Compiled kernels show as one opaque call; profile their Python
twins instead.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m boardlab.bench.profile",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("task", help="playout, perft, movegen, alphabeta, mcts, network-b1...")
    parser.add_argument("--engine", default="python", help="start of the engine's name "
                        "(default: python)")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--sort", default="tottime", choices=["tottime", "cumulative"])
    args = parser.parse_args(argv)

    from . import plan

    jobs = [j for j in plan([args.game], peers=False, quick=False)
            if j.task == args.task and j.engine.startswith(args.engine)]
    if not jobs:
        print(f"no {args.game} {args.task} job whose engine starts with {args.engine!r}",
              file=sys.stderr)
        return 2
    batch = jobs[0].setup()
    batch()  # warm-up outside the profile
    profiler = cProfile.Profile()
    units, started = 0, time.perf_counter()
    profiler.enable()
    while time.perf_counter() - started < args.seconds:
        units += batch()
    profiler.disable()
    print(f"{jobs[0].game} {jobs[0].task} ({jobs[0].engine}): {jobs[0].work}; "
          f"{units} {jobs[0].unit} under the profiler")
    pstats.Stats(profiler).strip_dirs().sort_stats(args.sort).print_stats(args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
