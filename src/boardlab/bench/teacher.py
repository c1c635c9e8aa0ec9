"""`teach` (positions/s): how fast the game's teacher search labels positions for a network
(learn/teacher.py), whole shards of its own games in one process, labels and all, as
`boardlab teach` runs them on each worker. Ours only: no peer labels positions for BoardLab's
networks; the figure sizes a dataset (positions wanted / this rate / workers = seconds).
"""

from __future__ import annotations

from functools import partial

from ..core.game import Game
from .timing import Batch, Job

SHARD_POSITIONS = (20, 200)
"""Positions a timed batch labels (quick, full): whole games, so a few more."""


def jobs_for(name: str, game: Game, quick: bool) -> list[Job]:
    from ..learn.teacher import default_search

    if game.facts.num_players != 2:
        return []
    search = default_search(game)
    positions = SHARD_POSITIONS[0] if quick else SHARD_POSITIONS[1]
    return [Job(name, "teach", f"teacher {search}, 1 process", "positions",
                f"label_shard: {search} plays itself from up to 4 random plies, 5% random "
                f"moves, {positions} positions a batch",
                partial(_teach, game, search, positions))]


def _teach(game: Game, search: str, positions: int) -> Batch:
    from ..learn.teacher import TeacherSettings, label_shard

    shards = iter(range(1 << 30))  # a new shard each batch: new games, the same settings

    def batch() -> int:
        labels, _ = label_shard(game.spec, TeacherSettings(search=search,
                                                           shard_positions=positions),
                                next(shards))
        return len(labels)
    return batch
