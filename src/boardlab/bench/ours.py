"""BoardLab's own figures: the readable Python `State`, each game's numba kernels, the agents.

Every job starts from positions that depend only on a fixed seed, so two runs (and ours beside
a peer's) do the same work. Depths and sizes come in a quick and a full size; the figure is a
rate either way, so `--quick` changes the noise, not the meaning.
"""

from __future__ import annotations

import functools

import random
from typing import Any, Callable

from ..core.agent import Clock
from ..core.benchcases import BenchCases, MoveGeneration, Sizes
from ..core.game import Game, ParseError, State
from ..core.perft import perft
from ..core.registry import make_agent
from .timing import Batch, Job, Skip, Staged, Tally

MCTS_SIMULATIONS = (50, 400)
OPENING_PLIES = 6
"""Random plies from the start to the position searched by alpha-beta (past the book-like
opening, where every engine's move ordering behaves alike)."""


def size(sizes: Sizes, quick: bool) -> int:
    """The quick or the full one of a game's (quick, full) sizes."""
    return sizes[0] if quick else sizes[1]


# --- positions and random games ------------------------------------------------------------------

def random_step(state: State, rng: random.Random) -> None:
    """One uniformly random legal action; at a chance node, an outcome by its probability."""
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
    else:
        state.apply(rng.choice(state.legal_actions()))


def after_random_plies(game: Game, plies: int, seed: int) -> State:
    """The start position after `plies` seeded random player decisions (chance resolved)."""
    rng = random.Random(seed)
    state = game.initial_state(seed)
    while state.move_number() < plies and not state.is_terminal():
        random_step(state, rng)
    while state.is_chance_node():
        random_step(state, rng)
    return state


def random_positions(game: Game, count: int, seed: int) -> list[State]:
    """`count` decision positions (not final, not chance) from seeded random games."""
    rng = random.Random(seed)
    found: list[State] = []
    while len(found) < count:
        state = game.initial_state(rng.randrange(2**31))
        while not state.is_terminal() and len(found) < count:
            if not state.is_chance_node():
                found.append(state.clone())
            random_step(state, rng)
    return found


# --- the jobs ------------------------------------------------------------------------------------

def jobs_for(name: str, game: Game, quick: bool) -> list[Job]:
    """Our jobs for one game: playouts, perft, move generation, alpha-beta, MCTS, at the
    sizes and with the kernels the game declares (`Game.bench_cases()`)."""
    cases = game.bench_cases()
    jobs = [_python_playouts(name, game)]
    jobs += _kernel_playouts(name, game, cases)
    depth = size(cases.perft_depth, quick)
    jobs.append(Job(name, "perft", "python State", "leaves", f"perft depth {depth} from the "
                    "start (boardlab.core.perft)", lambda: _python_perft(game, depth)))
    jobs += _kernel_perft(name, game, cases, quick)
    if cases.movegen is not None:
        jobs += _movegen(name, game, cases.movegen, quick)
    jobs += _alphabeta(name, game, cases, quick)
    jobs.append(_mcts(name, game, quick))
    return jobs


def _python_playouts(name: str, game: Game) -> Job:
    tally = Tally()

    def setup() -> Batch:
        rng = random.Random(1)

        def batch() -> int:
            state = game.initial_state(rng.randrange(2**31))
            while not state.is_terminal():
                random_step(state, rng)
            tally.add(state.move_number())
            return 1

        def batch_without_chance() -> int:
            # The loop a user writes for a game without chance: no chance-node test per ply.
            state = game.initial_state(rng.randrange(2**31))
            while not state.is_terminal():
                state.apply(rng.choice(state.legal_actions()))
            tally.add(state.move_number())
            return 1
        return batch if game.facts.has_chance else batch_without_chance
    return Job(name, "playout", "python State", "games",
               "random games from the start: legal_actions + apply", setup, tally=tally)


def _kernel_playouts(name: str, game: Game, cases: BenchCases) -> list[Job]:
    """The game's compiled random playout (`Game.random_playout_kernel`, as MCTS calls it)
    from the start; where the game has one, also many games per call."""
    start = after_random_plies(game, 0, 0)

    def one_call_per_game() -> Batch:
        if game.random_playout_kernel(start, 0) is None:
            raise Skip(f"{name} has no compiled random playout")
        seeds = iter(range(10**9))

        def batch() -> int:
            for _ in range(20):
                game.random_playout_kernel(start, next(seeds))
            return 20
        return batch

    jobs = [Job(name, "playout", "numba kernel", "games",
                "Game.random_playout_kernel from the start, one call per game",
                one_call_per_game)]
    playouts, games = cases.batch_playouts, cases.batch_games
    if playouts is not None:
        def many_per_call() -> Batch:
            seeds = iter(range(10**9))

            def batch() -> int:
                playouts(start, next(seeds), games)
                return games
            return batch
        jobs.append(Job(name, "playout", "numba kernel, batch", "games",
                        f"BenchCases.batch_playouts, {games} games per call", many_per_call))
    return jobs


def _python_perft(game: Game, depth: int) -> Batch:
    start = game.initial_state(0)
    return lambda: perft(start, depth)


def _kernel_perft(name: str, game: Game, cases: BenchCases, quick: bool) -> list[Job]:
    kernel_perft = cases.kernel_perft
    if kernel_perft is None:
        return []
    depth = size(cases.kernel_perft_depth, quick)

    def setup() -> Batch:
        start = game.initial_state(0)
        return lambda: kernel_perft(start, depth)
    return [Job(name, "perft", "numba kernel", "leaves",
                f"perft depth {depth} from the start (BenchCases.kernel_perft)", setup)]


MOVEGEN_POSITIONS = (40, 200)
"""(quick, full) number of positions whose moves are generated, ours and the peers' alike."""


def _movegen(name: str, game: Game, movegen: MoveGeneration, quick: bool) -> list[Job]:
    """Move lists per second on positions of random games, where a peer has the game too."""
    count = MOVEGEN_POSITIONS[0] if quick else MOVEGEN_POSITIONS[1]
    work = f"legal moves of {count} positions from seeded random games"

    def timed(generate: Callable[..., object]) -> Callable[[], Batch]:
        def setup() -> Batch:
            arguments = [movegen.arguments(s) for s in random_positions(game, count, 5)]
            return _over_positions(arguments, generate)
        return setup

    return [Job(name, "movegen", "python rules", "positions", work, timed(movegen.python)),
            Job(name, "movegen", "numba kernel", "positions", work, timed(movegen.kernel))]


def _over_positions(arguments: list[tuple[Any, ...]],
                    generate: Callable[..., object]) -> Batch:
    def batch() -> int:
        for position in arguments:
            generate(*position)
        return len(arguments)
    return batch


def _alphabeta(name: str, game: Game, cases: BenchCases, quick: bool) -> list[Job]:
    depth = size(cases.alphabeta_depth, quick)
    work = f"minimax:depth={depth} from a position {OPENING_PLIES} random plies in"
    jobs = [Job(name, "alphabeta", "python State", "nodes", work,
                lambda: _search(game, f"minimax:depth={depth},kernel=false",
                                fallback=f"minimax:depth={depth}"), detail=f"depth {depth}")]
    deep = size(cases.kernel_alphabeta_depth or cases.alphabeta_depth, quick)
    deep_work = f"minimax:depth={deep} from a position {OPENING_PLIES} random plies in"
    if game.compiled_minimax("minimax") is not None:
        jobs.append(Job(name, "alphabeta", "numba kernel", "nodes",
                        deep_work + " (compiled search)",
                        lambda: _search(game, f"minimax:depth={deep},kernel=true"),
                        detail=f"depth {deep}"))
    if game.compiled_quiescence("minimax") is not None:
        jobs.append(Job(name, "alphabeta", "numba kernel, quiescence", "nodes",
                        deep_work + ",quiescence=true (the engine search: its nodes include "
                        "the quiescence search's)",
                        lambda: _search(game, f"minimax:depth={deep},quiescence=true"),
                        detail=f"depth {deep}"))
        for evaluator in cases.engine_evaluators:
            spec = f"minimax:depth={deep},quiescence=true,eval={evaluator}"
            jobs.append(Job(name, "alphabeta", f"numba kernel, quiescence, eval={evaluator}",
                            "nodes", f"{spec} from a position {OPENING_PLIES} random plies in "
                            f"(the engine search with another evaluation)",
                            functools.partial(_search, game, spec), detail=f"depth {deep}"))
    return jobs


def _search(game: Game, spec: str, fallback: str | None = None) -> Staged:
    """One move from the bench position, timed alone: the new game before it (the compiled
    search's fresh tables) is prepared untimed, as a game's first move finds it."""
    try:
        agent = make_agent(spec, game)
    except ParseError:
        if fallback is None:
            raise Skip(f"{spec} cannot be built here") from None
        agent = make_agent(fallback, game)  # an older minimax without the `kernel` switch
    position = after_random_plies(game, OPENING_PLIES, 3)

    def new_game() -> None:
        agent.start_game(position.current_player(), 0)

    def move() -> int:
        agent.act(position.clone(), Clock())
        return int(agent.last_info()["nodes"])
    return Staged(new_game, move)


def _mcts(name: str, game: Game, quick: bool) -> Job:
    sims = MCTS_SIMULATIONS[0] if quick else MCTS_SIMULATIONS[1]

    def setup() -> Batch:
        try:
            agent = make_agent(f"mcts:sims={sims}", game)
        except (ParseError, ImportError) as error:
            raise Skip(f"no mcts agent here yet ({error})") from None
        start = game.initial_state(0)
        while start.is_chance_node():
            random_step(start, random.Random(0))

        def batch() -> int:
            agent.start_game(start.current_player(), 0)
            agent.act(start.clone(), Clock())
            return int(agent.last_info().get("simulations", sims))
        return batch
    return Job(name, "mcts", "python tree", "simulations",
               f"mcts:sims={sims}, one move from the start", setup)
