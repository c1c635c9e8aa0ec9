"""MiniChess (seed 004): the NTHU I2P(II) 2023 framework's 6x5 chess, as
docs/design.md#minichess-seed-004 decides.

No check: the game ends as soon as the side to move could capture the enemy king, and that side
wins (the capture is not played). A side with no legal move loses. After `max_plies` plies the
game is adjudicated by material (P2 R6 N7 B8 Q20 K100): more wins, equal draws. See README.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ...core.benchcases import BenchCases, PeerGame
from ...core.game import (Evaluators, IllegalActionError, LinearEvaluation, ParseError,
                          check_action)
from ...render import Drawable
from ..chesslike import (Board, ChessLikeGame, ChessLikeSettings, ChessLikeState,
                         mailbox_bench_cases, own_piece, piece_square_evaluation, text_board)
from . import rules
from .notation import (FILES, SIDE_NAMES, START_FEN, fen_text, parse_fen_fields, parse_move,
                       square_name)
from .rules import (ADJUDICATION_VALUES, COLS, KING, LAST_ROW, LETTER_OF, NUM_ACTIONS, PAWN,
                    PIECE_NAMES, ROWS, SQUARES)

if TYPE_CHECKING:
    from ...core.arrayrules import ArrayRules

@dataclass(frozen=True)
class MiniChessSettings(ChessLikeSettings):
    max_plies: int = 50
    """Plies after which the game is adjudicated by material (the framework's 50)."""


class MiniChessGame(ChessLikeGame):
    name = "minichess"
    Settings = MiniChessSettings
    course_project = "004 MiniChess"
    action_count = NUM_ACTIONS
    start_text = START_FEN

    def state_from_text(self, text: str) -> "MiniChessState":
        return parse_fen(self, text)

    @property
    def evaluators(self):
        from .heuristics import material, positional, tuned

        # `engine`: the engine search's default (`minimax:quiescence=true`), the tuned table,
        # which beat `positional` at equal time (README.md#how-the-tuned-evaluation-was-made);
        # `minimax` stays seed 004's material count.
        return Evaluators({"material": material, "positional": positional, "tuned": tuned},
                          aliases={"greedy": "material", "minimax": "material",
                                   "engine": "tuned"})

    def linear_evaluation(self) -> LinearEvaluation:
        """The heuristics as piece-square tables (heuristics.parameters), the king's kept: its
        1000 only says the game ends without it; and the activity weights
        (heuristics.with_activity)."""
        from .heuristics import ACTIVITY, MATERIAL_VALUES, parameters, with_activity

        table = piece_square_evaluation(
            lambda name: parameters(self.evaluator_name(name))[:ACTIVITY],
            kinds=len(MATERIAL_VALUES) - 1, rows=ROWS, cols=COLS, fixed_kinds=(KING,),
            unit=MATERIAL_VALUES[PAWN])
        return with_activity(table, lambda name: parameters(self.evaluator_name(name)))

    def action_frame(self, player: int) -> np.ndarray | None:
        """Black's planes are white's turned 180 degrees (encode.py): square s is seen at
        SQUARES - 1 - s, so the move from f to t is seen as the move between those squares."""
        if player != 1:
            return None
        frm, to = np.divmod(np.arange(NUM_ACTIONS, dtype=np.int64), SQUARES)
        return (SQUARES - 1 - frm) * SQUARES + (SQUARES - 1 - to)

    def bench_cases(self) -> BenchCases:
        """Compiled perft, move generation (python rules against the kernel) and deeper
        compiled searches; the peers' names for the game."""
        from . import kernels  # compiled only when benchmarked
        from .engines import FAIRY_STOCKFISH_CONFIG, FAIRY_STOCKFISH_VARIANT

        return mailbox_bench_cases(
            kernels.perft, rules.moves, kernels.moves, perft_depth=(4, 5),
            kernel_perft_depth=(5, 6), alphabeta_depth=(3, 4),
            kernel_alphabeta_depth=(6, 8),
            peers=(PeerGame("pyffish", FAIRY_STOCKFISH_VARIANT, perft_depth=(2, 3),
                            config=FAIRY_STOCKFISH_CONFIG,
                            note="a king capture counts as a move"),))

    def array_rules(self) -> ArrayRules:
        """The rules over rows of 34 int64 words, compiled (kernels.py), for AlphaZero's
        search; tests/games/minichess/test_minichess_array_rules.py checks them against this
        State."""
        from .kernels import array_rules

        return array_rules()


class MiniChessState(Drawable, ChessLikeState):
    __slots__ = ("game", "board", "player", "plies", "winner", "end_reason", "_moves")
    side_names = SIDE_NAMES

    def __init__(self, game: MiniChessGame, board: Board, player: int, plies: int = 0) -> None:
        super().__init__(game, board, player, plies)
        self._moves: list[tuple[int, int]] = []
        self._settle()

    def _settle(self) -> None:
        """Decide whether the position just reached ends the game. A king capture on offer
        is checked first: it decides the game even on the last ply."""
        self._moves = rules.moves(self.board, self.player)
        if rules.can_capture_king(self.board, self.player, self._moves):
            self.winner = self.player
            self.end_reason = f"{SIDE_NAMES[self.player]} can capture the king"
        elif self.plies >= self.game.settings.max_plies:
            white, black = self.material(0), self.material(1)
            self.winner = 0 if white > black else 1 if black > white else -1
            self.end_reason = f"material after {self.plies} plies: {white} to {black}"
        elif not self._moves:
            self.winner = 1 - self.player
            self.end_reason = f"{SIDE_NAMES[self.player]} has no legal move"
        if self.winner is not None:
            self._moves = []

    def material(self, player: int) -> int:
        """`player`'s material by the adjudication values (P2 R6 N7 B8 Q20 K100)."""
        sign = 1 if player == 0 else -1
        return sum(ADJUDICATION_VALUES[cell * sign] for cell in self.board if cell * sign > 0)

    # --- actions -------------------------------------------------------------------------------
    def legal_actions(self) -> list[int]:
        return sorted(frm * SQUARES + to for frm, to in self._moves)

    def can_capture_king(self) -> bool:
        """Whether the side to move could take the enemy king (the game is then over)."""
        return rules.can_capture_king(self.board, self.player,
                                      rules.moves(self.board, self.player))

    def apply(self, action: int) -> None:
        check_action(self, action)
        frm, to = divmod(action, SQUARES)
        rules.play(self.board, self.player, frm, to)
        self.player = 1 - self.player
        self.plies += 1
        self._settle()

    def clone(self) -> "MiniChessState":
        new = self.copy_fields()
        new._moves = self._moves  # never mutated, only replaced
        return new

    # --- queries -------------------------------------------------------------------------------
    def is_capture(self, action: int) -> bool:
        return 0 <= action < NUM_ACTIONS and self.board[action % SQUARES] != 0

    def key(self):
        return (*self.board, self.player, self.plies)

    # --- notation ------------------------------------------------------------------------------
    def action_to_str(self, action: int) -> str:
        """Coordinate notation, `a2a3`; a pawn reaching the last row gets the UCI `q`."""
        if not 0 <= action < NUM_ACTIONS:
            raise ParseError(f"action id {action} is outside 0..{NUM_ACTIONS - 1}")
        frm, to = divmod(action, SQUARES)
        text = square_name(frm) + square_name(to)
        cell = self.board[frm]
        if abs(cell) == PAWN and to // COLS == LAST_ROW[0 if cell > 0 else 1]:
            text += "q"
        return text

    def str_to_action(self, text: str) -> int:
        frm, to = parse_move(text)
        action = frm * SQUARES + to
        if self.winner is not None:
            raise IllegalActionError(f"{text!r}: the game is over ({self.end_reason})")
        if (frm, to) not in self._moves:
            cell, why = own_piece(self.board, self.player, frm, square_name(frm))
            why = why or (f"your {PIECE_NAMES[cell]} cannot move from {square_name(frm)} to "
                          f"{square_name(to)}")
            raise IllegalActionError(f"{text!r} is not legal for {SIDE_NAMES[self.player]}: "
                                     f"{why}\n{self}")
        return action

    def to_text(self) -> str:
        """FEN: board, side, `- -` (no castling, no en passant), 0, move number."""
        return fen_text(self.board, self.player, self.plies)

    def __str__(self) -> str:
        lines = text_board(self.board, ROWS, COLS, LETTER_OF,
                           [str(ROWS - r) for r in range(ROWS)], FILES)
        lines.append(f"{self.ply_status()}; upper case white")
        return "\n".join(lines)


def parse_fen(game: MiniChessGame, text: str) -> MiniChessState:
    """The state of a FEN such as `kqbnr/ppppp/5/5/PPPPP/RNBQK w - - 0 1`
    (`notation.parse_fen_fields`)."""
    return MiniChessState(game, *parse_fen_fields(text))
