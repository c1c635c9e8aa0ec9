"""Xiangqi (Chinese chess), seed 003, with the rules docs/design.md#xiangqi-seed-003 decides.

Red (player 0, upper case in FEN) moves first. Checkmate or stalemate loses; a threefold
repetition is lost by a side that gave check with every move of the repeated cycle (perpetual
check) and drawn otherwise; `max_plies` plies without a result draw. Chase rules are not
implemented. See README.md beside this file.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass

import numpy as np

from ...core.benchcases import BenchCases, PeerGame
from ...core.game import (Evaluators, IllegalActionError, LinearEvaluation, ParseError,
                          check_action)
from ...render import Drawable
from ..chesslike import (Board, ChessLikeGame, ChessLikeSettings, ChessLikeState,
                         mailbox_bench_cases, own_piece, piece_square_evaluation, text_board)
from . import rules
from .actions import ACTION_FROM, ACTION_OF_MOVE, ACTION_TO, MOVE_NAMES, NUM_ACTIONS
from .notation import (FILES, SIDE_NAMES, START_FEN, fen_text, parse_fen_fields, parse_move,
                       square_name)
from .rules import COLS, LETTER_OF, PIECE_NAMES, ROWS, SOLDIER



@dataclass(frozen=True)
class XiangqiSettings(ChessLikeSettings):
    max_plies: int = 300
    """Plies after which a game still undecided is drawn."""


class XiangqiGame(ChessLikeGame):
    name = "xiangqi"
    Settings = XiangqiSettings
    course_project = "003 Xiangqi"
    action_count = NUM_ACTIONS
    start_text = START_FEN

    def state_from_text(self, text: str) -> "XiangqiState":
        return parse_fen(self, text)

    @property
    def evaluators(self):
        from .heuristics import material_and_position, neural, tuned

        # `engine`: the engine search's default (`minimax:quiescence=true`): `neural`, the
        # tuned table corrected by the evaluation network, which beat the tuned table at equal
        # time as the tuned table beat `positional` (README.md#heuristics); `minimax` stays
        # the hand-set `positional`.
        return Evaluators({"positional": material_and_position, "tuned": tuned,
                           "neural": neural},
                          aliases={"greedy": "positional", "minimax": "positional",
                                   "engine": "neural"})

    def evaluator_with_weights(self, evaluator: str, path: str):
        """`neural` with the evaluation network in `path` (evalnet.py's file, as
        experiments/xiangqi_eval_net.py writes it) in place of the shipped one."""
        from .evalnet import network_base, read_quantised
        from .heuristics import corrected

        if self.evaluator_name(evaluator) != "neural":
            return super().evaluator_with_weights(evaluator, path)
        network, base = read_quantised(path), network_base(path)
        return lambda state, player: corrected(state, player, network, base)

    def linear_evaluation(self) -> LinearEvaluation:
        """The heuristics as piece-square tables (value plus bonus per piece type and square,
        red's view; heuristics.parameters), every entry free: the generals' value is 0 and
        both always stand; the activity weights; and the endgame table the phase blends in
        (heuristics.with_activity)."""
        from .heuristics import ACTIVITY, PIECE_VALUES, parameters, with_activity

        table = piece_square_evaluation(
            lambda name: parameters(self.evaluator_name(name))[:ACTIVITY],
            kinds=len(PIECE_VALUES) - 1, rows=ROWS, cols=COLS, unit=PIECE_VALUES[SOLDIER])
        return with_activity(table, lambda name: parameters(self.evaluator_name(name)))

    def action_frame(self, player: int) -> np.ndarray | None:
        """Black's planes are red's turned 180 degrees (encode.py), so black's moves are too."""
        from .actions import TURNED

        return np.array(TURNED, dtype=np.int64) if player == 1 else None

    def bench_cases(self) -> BenchCases:
        """Compiled perft, move generation (python rules against the kernel) and deeper
        compiled searches, the engine search also with `tuned`, its table without the
        network; the peers' names for the game."""
        from . import kernels  # compiled only when benchmarked

        return mailbox_bench_cases(
            kernels.perft, rules.legal_moves, kernels.legal_moves, perft_depth=(2, 3),
            kernel_perft_depth=(3, 4), alphabeta_depth=(2, 3),
            kernel_alphabeta_depth=(4, 5), engine_evaluators=("tuned",),
            peers=(PeerGame("openspiel", "xiangqi", perft_depth=(2, 3)),
                   PeerGame("pyffish", "xiangqi", perft_depth=(1, 2))))


class XiangqiState(Drawable, ChessLikeState):
    __slots__ = ("game", "board", "player", "plies", "winner", "history", "checks", "_legal",
                 "end_reason")
    side_names = SIDE_NAMES

    def __init__(self, game: XiangqiGame, board: Board, player: int, plies: int = 0) -> None:
        super().__init__(game, board, player, plies)
        self.history: list[bytes] = [self._position_key()]
        """Positions since the last capture (none before it can recur), oldest first."""
        self.checks: list[bool] = [False]
        """checks[i]: whether the move that led to history[i] gave check."""
        self._legal: list[int] | None = None

    def _position_key(self) -> bytes:
        """The board's cells as signed bytes, then the side to move: hashable, and a kernel
        reads a whole history as one buffer (kernels.history_rows)."""
        return array("b", self.board).tobytes() + bytes((self.player,))

    # --- actions -------------------------------------------------------------------------------
    def legal_actions(self) -> list[int]:
        if self.winner is not None:
            return []
        if self._legal is None:
            self._legal = self._legal_ids(None)
        return list(self._legal)

    def _legal_ids(self, in_check: bool | None) -> list[int]:
        moves = rules.legal_moves(self.board, self.player, in_check)
        return sorted(ACTION_OF_MOVE[m] for m in moves)

    def apply(self, action: int) -> None:
        check_action(self, action)
        frm, to = ACTION_FROM[action], ACTION_TO[action]
        board = self.board
        captured = board[to]
        board[to], board[frm] = board[frm], 0
        mover = self.player
        self.player = 1 - mover
        self.plies += 1
        self._legal = None
        gave_check = rules.in_check(board, self.player)
        if captured:
            self.history, self.checks = [], []
        self.history.append(self._position_key())
        self.checks.append(gave_check)
        self._legal = self._legal_ids(gave_check)  # the check test is done: not twice a ply
        if not self._legal:
            self.winner = mover
            self.end_reason = "checkmate" if gave_check else "stalemate (a loss in xiangqi)"
        elif not self._judge_repetition() and self.plies >= self.game.settings.max_plies:
            self.winner = -1
            self.end_reason = f"{self.game.settings.max_plies} plies played"

    def _judge_repetition(self) -> bool:
        """On a threefold repetition, end the game; True if it ended. The cycle is every move
        since the first of the three occurrences; a side that checked with each of its moves
        there loses, unless both did (a draw), as does any other repetition."""
        key = self.history[-1]
        seen = [i for i, k in enumerate(self.history) if k == key]
        if len(seen) < 3:
            return False
        first = seen[0]
        last = len(self.history) - 1
        perpetual = [True, True]
        for i in range(first + 1, last + 1):
            # The move into history[i] was made by the side not to move in history[i].
            mover = 1 - self.history[i][-1]
            if not self.checks[i]:
                perpetual[mover] = False
        if perpetual[0] != perpetual[1]:
            self.winner = 1 if perpetual[0] else 0
            self.end_reason = f"perpetual check by {SIDE_NAMES[1 - self.winner]}"
        else:
            self.winner = -1
            self.end_reason = "threefold repetition"
        self._legal = None
        return True

    def clone(self) -> "XiangqiState":
        new = self.copy_fields()
        new.history = self.history.copy()
        new.checks = self.checks.copy()
        new._legal = self._legal
        return new

    # --- queries -------------------------------------------------------------------------------
    def in_check(self) -> bool:
        """Whether the side to move is in check."""
        return rules.in_check(self.board, self.player)

    def is_capture(self, action: int) -> bool:
        return 0 <= action < NUM_ACTIONS and self.board[ACTION_TO[action]] != 0

    def key(self):
        return self._position_key()

    # --- notation ------------------------------------------------------------------------------
    def action_to_str(self, action: int) -> str:
        if not 0 <= action < NUM_ACTIONS:
            raise ParseError(f"action id {action} is outside 0..{NUM_ACTIONS - 1}")
        return MOVE_NAMES[action]

    def str_to_action(self, text: str) -> int:
        """An ICCS move (`h2e2`, `h2-e2`)."""
        frm, to = parse_move(text)
        action = ACTION_OF_MOVE.get((frm, to))
        if action is None:
            raise IllegalActionError(f"{text!r}: no xiangqi piece moves from "
                                     f"{square_name(frm)} to {square_name(to)}")
        if action not in self.legal_actions():
            raise IllegalActionError(f"{text!r} is not legal for {SIDE_NAMES[self.player]} "
                                     f"here: {self.why_illegal(frm, to)}\n{self}")
        return action

    def why_illegal(self, frm: int, to: int) -> str:
        if self.winner is not None:
            return "the game is over"
        cell, why = own_piece(self.board, self.player, frm, square_name(frm))
        if why:
            return why
        if (frm, to) in rules.pseudo_moves(self.board, self.player):
            return "it would leave your general in check or facing the other general"
        return f"your {PIECE_NAMES[cell]} on {square_name(frm)} cannot move to {square_name(to)}"

    def to_text(self) -> str:
        """Standard xiangqi FEN: board, side (`w` red, `b` black), `- -`, 0, move number."""
        return fen_text(self.board, self.player, self.plies)

    def __str__(self) -> str:
        lines = text_board(self.board, ROWS, COLS, LETTER_OF,
                           [str(ROWS - 1 - r) for r in range(ROWS)], FILES)
        lines.insert(5, "    " + "~ " * (COLS - 1) + "~   (river)")
        lines.append(f"{self.ply_status()}; upper case red")
        return "\n".join(lines)

    def to_move_note(self) -> str:
        return " (in check)" if self.in_check() else ""


def parse_fen(game: XiangqiGame, text: str) -> XiangqiState:
    """The state of a standard xiangqi FEN (`notation.parse_fen_fields`): checked that the
    side not to move is not in check, and over at once without a legal move."""
    board, player, plies = parse_fen_fields(text)
    state = XiangqiState(game, board, player, plies)
    if rules.in_check(board, 1 - player):
        raise ParseError(f"xiangqi FEN {text!r}: {SIDE_NAMES[1 - player]}, not to move, is in "
                         "check (or the generals face each other)")
    if not state.legal_actions():
        state.winner = 1 - player
        state.end_reason = "checkmate" if state.in_check() else "stalemate (a loss in xiangqi)"
    return state
