"""The arena: round-robin tournaments stored in SQLite, Bradley-Terry Elo, reports.

`run_tournament` plays (and resumes) a tournament, locally or on Ray, under time and memory
limits (`workers`); `resume_tournament` finishes one from its store alone; `ResultStore` is
the database; `bradley_terry_elo` rates agents from pair results, and `report` turns a result
into the `--json` document, rich tables and a report folder.
"""

from .ratings import Rating, bradley_terry_elo
from .report import print_table, to_json, write_report
from .store import GameKey, GameRow, ResultStore, TournamentEntry
from .tournament import (PairResult, TournamentResult, resume_tournament, run_tournament,
                         stored_tournaments, tournament_result)
from .workers import Limits

__all__ = [
    "Rating", "bradley_terry_elo", "print_table", "to_json", "write_report", "GameKey",
    "GameRow", "ResultStore", "TournamentEntry", "PairResult", "TournamentResult",
    "resume_tournament", "run_tournament", "stored_tournaments", "tournament_result", "Limits",
]
