"""Strength against CPU-minutes for AlphaZero runs, one curve per run, in one plot.

Each run is its metrics CSV (`boardlab train GAME alphazero` writes OUT.metrics.csv, whose
`cpu_seconds` column is the training process's CPU time) and the CPU seconds it spent before
training (a teacher's labelling, read with /usr/bin/time; 0 for self-play alone), so the
curves start where each run's CPU went in:

    python experiments/warm_start_curve.py out.png \
        "self-play alone=A/weights.pt.metrics.csv=0" \
        "teacher + self-play=B/weights.pt.metrics.csv=75.3"

Plots the evaluation scores against `greedy` and `random` (the protocol's games, draws half)
and prints the rows it plotted.
"""

from __future__ import annotations

import argparse
import csv


def read_curve(path: str, offset_seconds: float) -> list[tuple[float, float, float, int]]:
    """(CPU minutes, score vs greedy, score vs random, iteration) per evaluation row."""
    with open(path, newline="") as handle:
        rows = list(csv.DictReader(handle))
    curve = []
    for row in rows:
        if not row.get("cpu_seconds"):
            raise SystemExit(f"{path}: a row without cpu_seconds (a run from before the column)")
        minutes = (offset_seconds + float(row["cpu_seconds"])) / 60
        curve.append((minutes, float(row["score_greedy"]), float(row["score_random"]),
                      int(row["episode"])))
    return curve


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", help="PNG to write")
    parser.add_argument("runs", nargs="+", help="LABEL=METRICS_CSV=CPU_SECONDS_BEFORE")
    args = parser.parse_args()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(1, 2, figsize=(10, 4), sharex=True)
    for run in args.runs:
        label, path, before = run.rsplit("=", 2)
        curve = read_curve(path, float(before))
        minutes = [c[0] for c in curve]
        axes[0].plot(minutes, [c[1] for c in curve], marker="o", label=label)
        axes[1].plot(minutes, [c[2] for c in curve], marker="o", label=label)
        for point in curve:
            print(f"{label}: iteration {point[3]}, {point[0]:.1f} CPU-minutes, "
                  f"vs greedy {point[1]:.3f}, vs random {point[2]:.3f}")
    for ax, opponent in zip(axes, ("greedy", "random")):
        ax.set_xlabel("CPU-minutes (teacher included)")
        ax.set_ylabel(f"score vs {opponent} (draws half)")
        ax.set_ylim(-0.02, 1.02)
        ax.grid(alpha=0.3)
    axes[0].legend()
    figure.tight_layout()
    figure.savefig(args.out, dpi=100)


if __name__ == "__main__":
    main()
