"""`boardlab bench`: how fast each engine is, and how that compares with the peers.

For each game: random playouts (games/s) with the readable Python `State` and with the game's
numba kernel where it has one; perft (leaves/s); move generation where a peer has the game
(positions/s); alpha-beta (nodes/s, `minimax:depth=D`); MCTS (simulations/s, `mcts:sims=N`);
and a small network's forward pass over the game's `encode` planes at batch 1 and 256. With
peers, the same work on OpenSpiel, Fairy-Stockfish (pyffish) and Pgx in the same run, and our
figure over theirs as a ratio: on a shared machine only ratios from one run mean much.

    from boardlab.bench import run_bench
    figures = run_bench([game_spec], peers=True, repeat=3)
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Callable

from ..core.game import ParseError
from .timing import Figure, Job, Skip, attach_ratios, run_jobs

__all__ = ["Figure", "Job", "Skip", "run_bench", "plan", "loadable_games"]

QUICK_SECONDS = 0.02
"""Shortest sample with --quick: enough for the clock, not for a steady figure."""
FULL_SECONDS = 0.25


def loadable_games() -> list[str]:
    """Every registered game that imports here (a game still being written is left out)."""
    from ..core.registry import game_class, game_names

    names = []
    for name in game_names():
        try:
            game_class(name)
        except ImportError:
            continue
        names.append(name)
    return names


def plan(games: Collection[str] | None, peers: bool, quick: bool) -> list[Job]:
    """The jobs for `games` (all loadable games if None), ours first, then the peers'."""
    from ..core.registry import make_game
    from . import alphazero, network, ours, teacher, train
    from . import peers as peer_jobs

    names = list(games) if games else loadable_games()
    jobs: list[Job] = []
    for name in names:
        try:
            game = make_game(name)
        except ImportError as error:
            raise ParseError(f"game {name!r} cannot be loaded: {error}") from None
        jobs += ours.jobs_for(game.name, game, quick)
        jobs += network.jobs_for(game.name, game)
        jobs += train.jobs_for(game.name, game, quick)
        jobs += alphazero.jobs_for(game.name, game, quick)
        jobs += teacher.jobs_for(game.name, game, quick)
        if peers:
            jobs += peer_jobs.jobs_for(game.name, game, quick)
    return jobs


def run_bench(games: Collection[str] | None = None, peers: bool = False, quick: bool = False,
              repeat: int | None = None,
              on_figure: Callable[[Figure], None] | None = None,
              tasks: Collection[str] | None = None) -> list[Figure]:
    """Measure every job of `plan(...)`: those whose task is in `tasks` if given, else all
    but the jobs measured on request (`Job.on_request`);
    each figure is the median of `repeat` samples (default 5, or 2 with `quick`).
    `on_figure` sees each figure once its game is done."""
    if repeat is None:
        repeat = 2 if quick else 5
    if repeat < 1:
        raise ParseError(f"--repeat must be at least 1, not {repeat}")
    seconds = QUICK_SECONDS if quick else FULL_SECONDS
    jobs = plan(games, peers, quick)
    if tasks:
        known = {job.task for job in jobs}
        unknown = set(tasks) - known
        if unknown:
            raise ParseError(f"--tasks: no job is called {', '.join(sorted(unknown))}; the "
                             f"tasks here: {', '.join(sorted(known))}")
        jobs = [job for job in jobs if job.task in tasks]
    else:
        jobs = [job for job in jobs if not job.on_request]
    figures: list[Figure] = []
    for game in dict.fromkeys(job.game for job in jobs):
        # One game's jobs at a time, interleaved: ours and its peers share the same minutes.
        for figure in run_jobs([job for job in jobs if job.game == game], repeat, seconds):
            figures.append(figure)
            if on_figure is not None:
                on_figure(figure)
    attach_ratios(figures)
    return figures
