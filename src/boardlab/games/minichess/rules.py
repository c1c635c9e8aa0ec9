"""MiniChess move generation on a 6x5 mailbox (the NTHU I2P(II) 2023 framework's rules).

Squares: row * 5 + col, row 0 on top (black's back rank, FEN rank 6). White is player 0
(positive cells, moving up the board), black player 1. There is no check: every move a piece
can make is legal, moving into attack included; the game ends when the side to move could
capture the enemy king (see game.py), so a king is never actually taken.
"""

from __future__ import annotations

from ..chesslike import DIAGONAL, KNIGHT, ORTHOGONAL, Board, ray_table, slide, step_table

ROWS, COLS = 6, 5
SQUARES = ROWS * COLS
PAWN, ROOK, KNIGHT_, BISHOP, QUEEN, KING = range(1, 7)
"""Piece types in the framework's order (its `material_value` table indexes them so)."""
LETTER_OF = {PAWN: "P", ROOK: "R", KNIGHT_: "N", BISHOP: "B", QUEEN: "Q", KING: "K"}
PIECE_NAMES = {PAWN: "pawn", ROOK: "rook", KNIGHT_: "knight", BISHOP: "bishop", QUEEN: "queen",
               KING: "king"}
FORWARD = (-1, 1)
"""FORWARD[player]: the row step of that player's pawns."""
LAST_ROW = (0, ROWS - 1)
"""LAST_ROW[player]: where that player's pawns become queens."""
NUM_ACTIONS = SQUARES * SQUARES
"""Action id = from_square * 30 + to_square, square = row * 5 + col (row 0 on top)."""
ADJUDICATION_VALUES = (0, 2, 6, 7, 8, 20, 100)
"""The framework's end-of-game material count, indexed by piece type (P R N B Q K)."""

ROOK_RAYS = ray_table(ROWS, COLS, ORTHOGONAL)
BISHOP_RAYS = ray_table(ROWS, COLS, DIAGONAL)
QUEEN_RAYS = [r + b for r, b in zip(ROOK_RAYS, BISHOP_RAYS)]
KNIGHT_STEPS = step_table(ROWS, COLS, KNIGHT)
KING_STEPS = step_table(ROWS, COLS, ORTHOGONAL + DIAGONAL)
SLIDER_RAYS = {ROOK: ROOK_RAYS, BISHOP: BISHOP_RAYS, QUEEN: QUEEN_RAYS}
LEAPER_STEPS = {KNIGHT_: KNIGHT_STEPS, KING: KING_STEPS}


def _pawn_table(player: int) -> list[tuple[int, tuple[int, ...]]]:
    """table[sq] = (step target or -1, diagonal capture targets) for `player`'s pawn."""
    table: list[tuple[int, tuple[int, ...]]] = []
    for square in range(SQUARES):
        row, col = divmod(square, COLS)
        r = row + FORWARD[player]
        if not 0 <= r < ROWS:
            table.append((-1, ()))
            continue
        captures = tuple(r * COLS + c for c in (col - 1, col + 1) if 0 <= c < COLS)
        table.append((r * COLS + col, captures))
    return table


PAWN_MOVES = (_pawn_table(0), _pawn_table(1))


def moves(board: Board, player: int) -> list[tuple[int, int]]:
    """Every (from, to) `player` may play. A pawn reaching its last row becomes a queen (the
    only promotion), so from and to say all."""
    sign = 1 if player == 0 else -1
    result: list[tuple[int, int]] = []
    add = result.append
    pawn_moves = PAWN_MOVES[player]
    for square in range(SQUARES):
        cell = board[square] * sign
        if cell <= 0:
            continue
        if cell == PAWN:
            step, captures = pawn_moves[square]
            if step >= 0 and board[step] == 0:
                add((square, step))
            for target in captures:
                if board[target] * sign < 0:
                    add((square, target))
        elif cell in LEAPER_STEPS:
            for target in LEAPER_STEPS[cell][square]:
                if board[target] * sign <= 0:
                    add((square, target))
        else:
            slide(board, square, sign, SLIDER_RAYS[cell][square], add)
    return result


def can_capture_king(board: Board, player: int, move_list: list[tuple[int, int]]) -> bool:
    """Whether one of `move_list` (player's moves) lands on the enemy king."""
    enemy_king = -KING if player == 0 else KING
    return any(board[to] == enemy_king for _, to in move_list)


def play(board: Board, player: int, frm: int, to: int) -> int:
    """Make the move on `board` in place (promoting a pawn on its last row); returns the
    captured cell. Undo by putting back the old from and to cells."""
    captured = board[to]
    moved = board[frm]
    if (moved == PAWN or moved == -PAWN) and to // COLS == LAST_ROW[player]:
        moved = QUEEN if moved > 0 else -QUEEN
    board[to], board[frm] = moved, 0
    return captured


def perft(board: Board, player: int, depth: int) -> int:
    """Leaf count `depth` plies deep, where a position in which the side to move could capture
    the enemy king is final (a leaf: it counts 1 at depth 0 and adds nothing deeper).
    The board is restored before returning."""
    if depth == 0:
        return 1
    move_list = moves(board, player)
    if can_capture_king(board, player, move_list):
        return 0
    if depth == 1:
        return len(move_list)
    total = 0
    for frm, to in move_list:
        moved, captured = board[frm], board[to]
        play(board, player, frm, to)
        total += perft(board, 1 - player, depth - 1)
        board[frm], board[to] = moved, captured
    return total
