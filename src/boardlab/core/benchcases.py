"""What `boardlab bench` measures for one game, declared by the game (`Game.bench_cases()`):
the sizes of its jobs, its compiled kernels beyond the ones every game may declare on `Game`,
and the names its peers (OpenSpiel, Fairy-Stockfish through pyffish, Pgx) give it. The bench
reads only this, so a game from outside BoardLab is measured like ours.

Sizes are `(quick, full)` pairs: `boardlab bench --quick` uses the first. Every figure is a
rate, so the size changes the noise of a figure, not its meaning.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

Sizes = tuple[int, int]
"""(quick, full) size of a job: a depth, or a number of games or positions."""
OwnState = Any
"""A state of the game that declared the case: the bench passes a game's functions only its
own states, so they may read its fields (a bitboard, a board list) without a cast."""


@dataclass(frozen=True)
class MoveGeneration:
    """Move generation timed alone on positions of random games, where a peer times the same:
    `arguments(state)` is taken once per position, then `python(*arguments)` (the rules
    behind the `State`) and `kernel(*arguments)` (the compiled ones) are timed over them."""

    arguments: Callable[[OwnState], tuple[Any, ...]]
    python: Callable[..., object]
    kernel: Callable[..., object]


@dataclass(frozen=True)
class PeerGame:
    """A peer library's name for the game, so `bench --peers` times the same work there."""

    library: str
    """`openspiel`, `pyffish` or `pgx`."""
    name: str
    """The peer's name of the game (`pyspiel.load_game`) or variant (pyffish)."""
    perft_depth: Sizes = (1, 2)
    """Depth of the peer's perft (pyffish pays ~5 ms of setup a call: keep it shallow)."""
    config: str = ""
    """pyffish: the variants config text to load when the variant is not built in."""
    note: str = ""
    """How the peer's perft counts differ from ours, shown beside its figure."""
    mcts: bool = False
    """OpenSpiel: also time its Python `MCTSBot` with random rollouts."""


@dataclass(frozen=True)
class BenchCases:
    """The game's bench jobs beyond the ones every game gets (random playouts over the
    `State` and `Game.random_playout_kernel`, `compiled_minimax`, MCTS, networks, training).
    The defaults suit a game with no compiled kernels and no peer."""

    perft_depth: Sizes = (1, 2)
    """Perft over the Python `State`: aim at about 0.01 s / 0.3 s a tree."""
    alphabeta_depth: Sizes = (1, 2)
    """`minimax:depth=D` over the Python `State`."""
    kernel_alphabeta_depth: Sizes | None = None
    """Depth of the compiled searches (`compiled_minimax`, `compiled_quiescence`); None:
    `alphabeta_depth`. Deeper where good move ordering leaves too few nodes at the Python
    depths to time the search rather than the call around it."""
    engine_evaluators: tuple[str, ...] = ()
    """Evaluators whose engine search (`minimax:depth=D,quiescence=true,eval=NAME`) is timed
    too, from the same position as the default's: what a costlier or a cheaper evaluation
    does to the nodes a second (the tree it searches differs as well: the depth's time is
    in the nodes divided by the rate)."""
    kernel_perft: Callable[[OwnState, int], int] | None = None
    """(start, depth) -> leaves, by the game's compiled perft."""
    kernel_perft_depth: Sizes = (1, 2)
    movegen: MoveGeneration | None = None
    batch_playouts: Callable[[OwnState, int, int], object] | None = None
    """(start, seed, games): that many random games from `start` in one compiled call."""
    batch_games: int = 5000
    """Games per `batch_playouts` call."""
    peers: tuple[PeerGame, ...] = ()
