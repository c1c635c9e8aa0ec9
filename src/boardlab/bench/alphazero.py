"""AlphaZero self-play speed, beside the search it replaced and beside the network's bound.

Two tasks per game, each with its denominator measured in the same run (`attach_ratios`):
- `selfplay-alphazero` (positions/s, a position = one self-play decision): the compiled array
  search (agents/puct.py) with `LOCKSTEP` games a worker, its leaves made by the game's States
  in Python (`rules=state`) and, where the game declares array rules, inside numba
  (`rules=arrays`, the default), each with a fresh tree every move (`reuse=false`) and, for
  the game's fastest leaves, with tree reuse (`reuse=true`: the subtree under the move played
  kept, only the visits missing to `SIMS` searched), against the conditions of the Node
  search it replaced (`search=nodes`: the plain network, State leaves, fresh trees; the Node
  search itself now lives in the tests) with the trainer's former default of 16 games a
  worker, all on `WORKERS` worker
  processes (one, in this process, with --quick), `SIMS` simulations a move;
- `selfplay-alphazero-games` (positions/s, measured only when `--tasks` names it): whole
  self-play games from the start, as training plays them (temperature 1 for the trainer's
  first `temperature_moves` decisions, then the most visited move, the tree kept between
  moves): the game's fastest leaves with tree reuse against the same Node search; a batch is
  one round of games on every worker, the lockstep thinning as games end, as in training;
- `selfplay-alphazero-leaves` (positions the network evaluated per second, in one process):
  the array search's self-play (both kinds of leaves) against the same network's own forward
  pass at batch 256 in the same process, the bound self-play approaches;
- `play-alphazero` (simulations/s): the agent's search of one move, as it plays under a
  clock (`CLOCK_LEAVES` leaves a network call), against the same search with one leaf a
  call, over the same positions.
The network is the game's shipped one where there is one (a trained net shapes the trees as
training does), else an untrained one of the default size. Games open with up to
`OPENING_PLIES` seeded random plies so that every batch measures positions from the whole
game, and a batch stops after a fixed number of decisions per game (so with reuse the first
decision of each game in a batch searches a fresh tree).
"""

from __future__ import annotations

import atexit
from dataclasses import asdict
from functools import partial
from typing import Any

from ..core.game import Game
from .timing import Batch, Job, Skip

SIMS = 48
WORKERS = 2
LOCKSTEP = 64
QUICK_LOCKSTEP = 8
REFERENCE_LOCKSTEP = 16
OPENING_PLIES = 40
MOVES = (2, 6)
"""Decisions per game in one timed batch (quick, full)."""
PLAY_SIMS, PLAY_POSITIONS = (32, 400), 5
"""`play-alphazero`: simulations a move (quick, full), and the positions searched a batch."""


def jobs_for(name: str, game: Game, quick: bool) -> list[Job]:
    if game.facts.num_players != 2 or not game.facts.zero_sum:
        return []
    moves = MOVES[0] if quick else MOVES[1]
    lockstep = QUICK_LOCKSTEP if quick else LOCKSTEP
    workers = 1 if quick else WORKERS  # a smoke run starts no process pools
    work = f"sims={SIMS}, {workers} workers, {{}} games each, {moves} moves a game per batch"
    kinds = ["state"] + (["arrays"] if game.array_rules() is not None else [])
    names = {"state": "State leaves", "arrays": "array rules"}
    runs = [(rules, False) for rules in kinds] + [(kinds[-1], True)]
    jobs = []
    for rules, reuse in runs:
        for inference in ("float32", "bfloat16"):
            shown = f", {inference}" if inference == "bfloat16" else ""
            shown += ", tree reuse" if reuse else ""
            jobs.append(Job(
                name, "selfplay-alphazero",
                f"array search x{lockstep} games, {names[rules]}{shown}", "positions",
                work.format(lockstep) + f", rules={rules}, inference={inference}, "
                f"reuse={str(reuse).lower()}",
                partial(_self_play, game, "arrays", workers, lockstep, moves, inference, rules,
                        reuse), warmup=False))
    jobs.append(Job(name, "selfplay-alphazero", f"node search x{REFERENCE_LOCKSTEP} games "
                    "(before)", "positions", work.format(REFERENCE_LOCKSTEP),
                    lambda: _self_play(game, "nodes", workers, REFERENCE_LOCKSTEP, moves),
                    peer=True, warmup=False))
    jobs += _whole_games(name, game, kinds[-1], names[kinds[-1]], workers, lockstep)
    for rules in kinds:
        jobs.append(Job(name, "selfplay-alphazero-leaves",
                        f"array search x{lockstep} games, {names[rules]}, 1 process", "leaves",
                        f"network evaluations in self-play, sims={SIMS}, rules={rules}",
                        partial(_leaves, game, lockstep, moves, rules), warmup=False))
    jobs.append(Job(name, "selfplay-alphazero-leaves", "the same network alone, batch 256",
                    "leaves", "frozen forward pass, 1 thread", lambda: _bound(game), peer=True))
    jobs += _play(name, game, quick)
    return jobs


def _play(name: str, game: Game, quick: bool) -> list[Job]:
    """`play-alphazero`: one move's search at the agent's clock setting against one leaf."""
    from ..agents.alphazero import CLOCK_LEAVES

    sims = PLAY_SIMS[0] if quick else PLAY_SIMS[1]
    work = f"{sims} simulations a move from {PLAY_POSITIONS} positions, 1 thread"
    return [Job(name, "play-alphazero", f"agent, {leaves} {'leaf' if leaves == 1 else 'leaves'} "
                "a call", "simulations", work, partial(_searches, game, sims, leaves),
                peer=leaves == 1)
            for leaves in (CLOCK_LEAVES, 1)]


def _searches(game: Game, sims: int, leaves: int) -> Batch:
    from ..agents.alphazero import AlphaZeroAgent
    from ..core.agent import Clock
    from ..core.game import BoardLabError
    from .ours import random_positions

    try:
        agent = AlphaZeroAgent(game, sims=sims, leaves=leaves)
    except BoardLabError:
        agent = AlphaZeroAgent(game, weights="none", sims=sims, leaves=leaves)
    except ImportError as error:
        raise Skip(f"torch is not installed ({error})") from None
    positions = random_positions(game, PLAY_POSITIONS, 11)

    def batch() -> int:
        done = 0
        for state in positions:
            agent.act(state.clone(), Clock())
            done += agent.last_info()["simulations"]
        return done
    return batch


def _whole_games(name: str, game: Game, rules: str, leaves: str, workers: int,
                 lockstep: int) -> list[Job]:
    """`selfplay-alphazero-games`: rounds of whole games, the trainer's temperature schedule."""
    from ..learn.alphazero import AlphaZeroTraining

    temperature_moves = AlphaZeroTraining.temperature_moves
    work = (f"whole games, sims={SIMS}, {workers} workers, {{}} games each, temperature for "
            f"{temperature_moves} moves")
    jobs = [Job(name, "selfplay-alphazero-games",
                f"array search x{lockstep} games, {leaves}"
                + (", bfloat16" if inference == "bfloat16" else "") + ", tree reuse",
                "positions", work.format(lockstep) + f", rules={rules}, inference={inference},"
                " reuse=true",
                partial(_self_play, game, "arrays", workers, lockstep, 0, inference, rules,
                        True, 0, temperature_moves), warmup=False, on_request=True)
            for inference in ("float32", "bfloat16")]
    jobs.append(Job(name, "selfplay-alphazero-games",
                    f"node search x{REFERENCE_LOCKSTEP} games (before)", "positions",
                    work.format(REFERENCE_LOCKSTEP),
                    partial(_self_play, game, "nodes", workers, REFERENCE_LOCKSTEP, 0,
                            openings=0, temperature_moves=temperature_moves),
                    peer=True, warmup=False, on_request=True))
    return jobs


def _network(game: Game) -> tuple[Any, dict[str, Any]]:
    """The shipped network's agent where there is one, else an untrained default net."""
    from ..agents.alphazero import ARCHITECTURE_FIELDS, AlphaZeroAgent
    from ..core.game import BoardLabError

    try:
        agent = AlphaZeroAgent(game)
    except BoardLabError:
        agent = AlphaZeroAgent(game, weights="none")
    except ImportError as error:
        raise Skip(f"torch is not installed ({error})") from None
    return agent, {k: getattr(agent.settings, k) for k in ARCHITECTURE_FIELDS}


def _config(search: str, workers: int, lockstep: int, inference: str = "float32",
            rules: str = "arrays", reuse: bool = False, temperature_moves: int = 8) -> Any:
    from ..learn.alphazero import AlphaZeroTraining

    return AlphaZeroTraining(workers=workers, games_per_worker=lockstep, sims=SIMS,
                             search=search, temperature_moves=temperature_moves,
                             inference=inference, rules=rules, reuse=reuse)


def _self_play(game: Game, search: str, workers: int, lockstep: int, moves: int,
               inference: str = "float32", rules: str = "arrays", reuse: bool = False,
               openings: int = OPENING_PLIES, temperature_moves: int = 8) -> Batch:
    """Rounds of `lockstep` games on each of `workers` workers, opening with up to
    `openings` random plies and cut after `moves` decisions a game (0: played to the end)."""
    from ..learn.alphazero import Workers

    agent, architecture = _network(game)
    config = _config(search, workers, lockstep, inference, rules, reuse, temperature_moves)
    pool = Workers(game.spec, architecture, config)
    atexit.register(pool.close)
    weights = agent.network.state_dict()
    rounds = iter(range(10**9))

    def batch() -> int:
        seed = next(rounds)
        tasks = [(asdict(config), weights, lockstep, 1000 * seed + w, openings, moves)
                 for w in range(workers)]
        return sum(stats.positions for _, stats in pool.play(tasks))
    # Warm the workers up (imports, compiled kernels) outside the timed batches.
    pool.play([(asdict(config), weights, 2, 10**6 + w, OPENING_PLIES, 1)
               for w in range(workers)])
    return batch


def _leaves(game: Game, lockstep: int, moves: int, rules: str) -> Batch:
    from ..learn.alphazero import self_play

    agent, _ = _network(game)
    config = _config("arrays", 1, lockstep, rules=rules)
    self_play(game, agent.network, config, 2, 10**6, OPENING_PLIES, 1)  # compile
    rounds = iter(range(10**9))

    def batch() -> int:
        return self_play(game, agent.network, config, lockstep, next(rounds), OPENING_PLIES,
                         moves, agent.frame)[1].leaves
    return _one_thread(batch)


def _bound(game: Game) -> Batch:
    import numpy as np
    import torch

    from ..learn.puct import traced_for_inference
    from .ours import random_positions

    agent, _ = _network(game)
    positions = random_positions(game, 256, 9)
    planes = torch.from_numpy(game.encode_batch(positions, [s.current_player()
                                                            for s in positions])
                              .astype(np.float32))
    net = traced_for_inference(agent.network, agent.shape)

    def batch() -> int:
        with torch.no_grad():
            net(planes)
        return len(planes)
    return _one_thread(batch)


def _one_thread(batch: Batch) -> Batch:
    """`batch` on one torch thread, as a self-play worker runs (bench/network.py's reason)."""
    import torch

    def timed() -> int:
        threads = torch.get_num_threads()
        torch.set_num_threads(1)
        try:
            return batch()
        finally:
            torch.set_num_threads(threads)
    return timed
