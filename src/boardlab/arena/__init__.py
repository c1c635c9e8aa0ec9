"""The arena: round-robin tournaments stored in SQLite, Bradley-Terry Elo, reports.

`run_tournament` plays (and resumes) a tournament, `ResultStore` is its database,
`bradley_terry_elo` rates agents from pair results, and `report` turns a result into the
`--json` document, rich tables and a report folder.
"""

from .ratings import Rating, bradley_terry_elo
from .report import print_table, to_json, write_report
from .store import GameKey, GameRow, ResultStore
from .tournament import PairResult, TournamentResult, run_tournament, tournament_result

__all__ = [
    "Rating", "bradley_terry_elo", "print_table", "to_json", "write_report", "GameKey",
    "GameRow", "ResultStore", "PairResult", "TournamentResult", "run_tournament",
    "tournament_result",
]
