"""The peers' figures, measured in the same run as ours so that ratios mean something on a
shared machine: OpenSpiel (C++ games driven from Python, its Python MCTSBot), Fairy-Stockfish
through pyffish, and Pgx when JAX is there. A peer that is not installed becomes a note.

Each peer does the work ours does: the same start positions, the same ply caps (a peer's
random game stops where ours would be drawn), perft counting leaves with the same shortcut as
`boardlab.core.perft` (at depth 1 the length of the move list).
"""

from __future__ import annotations

import random
from typing import Any

from ..core.benchcases import PeerGame
from ..core.game import Game
from .ours import MCTS_SIMULATIONS, MOVEGEN_POSITIONS, random_positions, size
from .timing import Batch, Job, Skip, Tally


def jobs_for(name: str, game: Game, quick: bool) -> list[Job]:
    """The peers' jobs for the peers the game names (`Game.bench_cases().peers`)."""
    jobs: list[Job] = []
    for peer in game.bench_cases().peers:
        if peer.library == "openspiel":
            jobs.append(_openspiel_playouts(name, peer.name, game))
            jobs.append(_openspiel_perft(name, peer, quick))
            if peer.mcts:
                jobs.append(_openspiel_mcts(name, peer.name, quick))
        elif peer.library == "pgx":
            jobs.append(Job(name, "playout", "Pgx (JAX)", "games",
                            f"batched `{peer.name}` playouts", _pgx, peer=True))
        elif peer.library == "pyffish":
            jobs += _pyffish_jobs(name, peer, game, quick)
        else:
            raise ValueError(f"{name} names an unknown bench peer {peer.library!r}: "
                             "the peers are openspiel, pyffish and pgx")
    return jobs


# --- OpenSpiel ------------------------------------------------------------------------------------

def _load_openspiel(game_name: str) -> Any:
    try:
        import pyspiel
    except ImportError:
        raise Skip("OpenSpiel not installed (pip install open_spiel)") from None
    return pyspiel.load_game(game_name)


def _openspiel_playouts(name: str, game_name: str, ours: Game) -> Job:
    cap = ours.facts.max_length
    tally = Tally()

    def setup() -> Batch:
        game = _load_openspiel(game_name)
        rng = random.Random(1)

        def batch() -> int:
            state = game.new_initial_state()
            plies = 0
            while not state.is_terminal() and plies < cap:
                state.apply_action(rng.choice(state.legal_actions()))
                plies += 1
            tally.add(plies)
            return 1
        return batch
    return Job(name, "playout", "OpenSpiel", "games",
               f"`{game_name}` random games from Python, capped at {cap} plies as ours",
               setup, peer=True, tally=tally)


def _openspiel_perft(name: str, peer: PeerGame, quick: bool) -> Job:
    game_name = peer.name
    depth = size(peer.perft_depth, quick)

    def setup() -> Batch:
        start = _load_openspiel(game_name).new_initial_state()

        def perft(state: Any, depth: int) -> int:
            if state.is_terminal():
                return 0  # a game over before the last level adds nothing, as core.perft
            if depth == 1:
                return len(state.legal_actions())
            return sum(perft(state.child(a), depth - 1) for a in state.legal_actions())
        return lambda: perft(start, depth)
    return Job(name, "perft", "OpenSpiel", "leaves",
               f"`{game_name}` perft depth {depth} by recursion from Python", setup, peer=True)


def _openspiel_mcts(name: str, game_name: str, quick: bool) -> Job:
    sims = MCTS_SIMULATIONS[0] if quick else MCTS_SIMULATIONS[1]

    def setup() -> Batch:
        game = _load_openspiel(game_name)
        import numpy as np
        from open_spiel.python.algorithms import mcts

        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1,
                                                random_state=np.random.RandomState(0))
        bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=sims, evaluator=evaluator,
                           random_state=np.random.RandomState(0))
        start = game.new_initial_state()

        def batch() -> int:
            bot.step(start)
            return sims
        return batch
    return Job(name, "mcts", "OpenSpiel MCTSBot", "simulations",
               f"Python MCTSBot on `{game_name}`, random rollouts, {sims} simulations a move",
               setup, peer=True)


# --- Pgx ----------------------------------------------------------------------------------------

def _pgx() -> Batch:
    try:
        import pgx  # noqa: F401
    except ImportError:
        raise Skip("Pgx not installed (it needs JAX, left out by choice: "
                   "docs/design.md#what-was-not-chosen)") from None
    raise Skip("Pgx is installed but its batched playout job is not written yet")


# --- Fairy-Stockfish (pyffish) --------------------------------------------------------------------

def _load_pyffish(peer: PeerGame) -> Any:
    try:
        import pyffish
    except ImportError:
        raise Skip("pyffish not installed (pip install pyffish)") from None
    if peer.config and peer.name not in pyffish.variants():
        pyffish.load_variant_config(peer.config)
    return pyffish


def _pyffish_jobs(name: str, peer: PeerGame, game: Game, quick: bool) -> list[Job]:
    variant = peer.name
    cap = game.facts.max_length
    depth = size(peer.perft_depth, quick)
    positions = MOVEGEN_POSITIONS[0] if quick else MOVEGEN_POSITIONS[1]
    tally = Tally()

    def playouts() -> Batch:
        sf = _load_pyffish(peer)
        start = sf.start_fen(variant)
        rng = random.Random(1)

        def batch() -> int:
            moves: list[str] = []
            while len(moves) < cap:
                legal = sf.legal_moves(variant, start, moves)
                if not legal:
                    break
                moves.append(rng.choice(legal))
            tally.add(len(moves))
            return 1
        return batch

    def perft() -> Batch:
        sf = _load_pyffish(peer)
        start = sf.start_fen(variant)

        def count(moves: list[str], depth: int) -> int:
            legal = sf.legal_moves(variant, start, moves)
            if not legal:
                return 0  # a game over before the last level adds nothing, as core.perft
            if depth == 1:
                return len(legal)
            return sum(count(moves + [m], depth - 1) for m in legal)
        return lambda: count([], depth)

    def movegen() -> Batch:
        sf = _load_pyffish(peer)
        fens = [s.to_text() for s in random_positions(game, positions, 5)]

        def batch() -> int:
            for fen in fens:
                sf.legal_moves(variant, fen, [])
            return len(fens)
        return batch

    # No warm-up: nothing compiles, and every pyffish call is slow enough to count.
    return [
        Job(name, "playout", "pyffish", "games",
            f"`{variant}` random games over legal_moves, capped at {cap} plies as ours",
            playouts, peer=True, warmup=False, tally=tally),
        Job(name, "perft", "pyffish", "leaves",
            f"`{variant}` perft depth {depth} by recursion over legal_moves"
            + (f" ({peer.note})" if peer.note else ""),
            perft, peer=True, warmup=False),
        Job(name, "movegen", "pyffish", "positions",
            f"legal_moves on the FENs of the same {positions} positions", movegen,
            peer=True, warmup=False),
    ]
