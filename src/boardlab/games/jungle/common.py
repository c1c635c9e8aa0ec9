"""What the dark (7x8) and classic (7x9) Jungle games share beyond their animals (pieces.py):
the draw limit both settings have, the hooks both games declare alike, the fields of a State
both keep, and squares and a position's counts as text."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ...core.game import Game, GameFacts, ParseError, WinnerState, require_at_least


@dataclass(frozen=True)
class JungleSettings:
    """The settings of both games; each redefines `no_capture_limit` with its own default."""

    no_capture_limit: int = 40
    """Plies in a row without progress after which the game is drawn."""

    def __post_init__(self) -> None:
        require_at_least(self, no_capture_limit=1)


class JungleGame(Game):
    """A Jungle game for two without hidden information, whose `Settings` derive from
    `JungleSettings`: it sets `action_count`, `has_chance` and `quiet_runs`, and its package
    holds the `render.py`, the `heuristics.py` (`EVALUATORS`) and the `rewards.py`
    (`learning_kit()`) these hooks use, each imported on first use (`Game.package_module`)."""

    render_module = ".render"
    action_count: ClassVar[int] = 0
    """The size of the action space (`GameFacts.num_actions`)."""
    has_chance: ClassVar[bool] = False
    quiet_runs: ClassVar[int] = 1
    """The most runs of `no_capture_limit` plies without progress one game can hold: a
    game's length is at most that many times the limit."""

    @property
    def facts(self) -> GameFacts:
        return GameFacts(num_players=2, num_actions=self.action_count,
                         has_chance=self.has_chance, hidden_information=False,
                         max_length=self.quiet_runs * self.settings.no_capture_limit)

    def learning_kit(self) -> Any:
        return self.package_module(".rewards").learning_kit()

    @property
    def evaluators(self) -> Any:
        return self.package_module(".heuristics").EVALUATORS


class JungleState(WinnerState):
    """The fields both games' states keep: `board` (0 empty, +k player 0's animal of strength
    k, -k player 1's), `player`, `no_capture` (plies without progress), `plies`, `winner`
    (`WinnerState`), and `_legal`, the actions of the side to move once asked."""

    __slots__ = ()
    game: Game
    board: list[int]
    no_capture: int
    _legal: list[int] | None

    def __init__(self, game: Game, board: list[int], player: int, no_capture: int = 0,
                 plies: int = 0) -> None:
        self.game = game
        self.board = board
        self.player = player
        self.no_capture = no_capture
        self.plies = plies
        self.winner = None
        self._legal = None

    def legal_actions(self) -> list[int]:
        if self.winner is not None:
            return []
        if self._legal is None:
            self._legal = self.actions_of(self.player)
        return list(self._legal)

    def actions_of(self, player: int) -> list[int]:
        """The actions `player` would have if it were to move now."""
        raise NotImplementedError

    def result_text(self) -> str:
        """`draw` or `player N wins` at the end; `player N to move` before."""
        if self.winner is not None:
            return "draw" if self.winner == -1 else f"player {self.winner} wins"
        return f"player {self.player} to move"

    def encode(self, player: int) -> np.ndarray:
        """The network planes of the game's encode.py (`network_input`)."""
        return self.game.package_module(".encode").network_input(self, player)


def parse_square(text: str, rows: int, cols: int, board: str) -> int:
    """The square `a1` names (row * cols + col, as `pieces.square_name` writes it) on a board of
    `rows` x `cols`; ParseError naming the `board` otherwise."""
    cleaned = text.strip().lower()
    last_file = chr(ord("a") + cols - 1)
    if len(cleaned) != 2 or not ("a" <= cleaned[0] <= last_file) or \
            not ("1" <= cleaned[1] <= str(rows)):
        raise ParseError(f"{text!r} is not a square of the {board} (a1..{last_file}{rows})")
    return (int(cleaned[1]) - 1) * cols + ord(cleaned[0]) - ord("a")


def parse_counts(side: str, no_capture: str | None, limit: int, where: str) -> tuple[int, int]:
    """A position's side to move (`0` or `1`) and plies without capture (None: 0), checked
    to be below the draw `limit` (a live state cannot say the game was drawn)."""
    if side not in ("0", "1"):
        raise ParseError(f"{where}: side to move must be 0 or 1, not {side!r}")
    if no_capture is None:
        return int(side), 0
    if not (no_capture.isascii() and no_capture.isdigit()):
        raise ParseError(f"{where}: plies without capture must be a number, not "
                         f"{no_capture!r}")
    if int(no_capture) >= limit:
        raise ParseError(f"{where}: {int(no_capture)} plies without capture reach the draw "
                         f"limit {limit}: the game is over")
    return int(side), int(no_capture)
