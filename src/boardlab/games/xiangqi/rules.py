"""Xiangqi move generation on a 10x9 mailbox: the rules as tables and a few loops.

Squares: row * 9 + col, row 0 on top (black's back rank, ICCS rank 9), row 9 at the bottom
(red's back rank, ICCS rank 0). Red is player 0 (positive cells), black player 1 (negative).
Legality: a pseudo-legal move is played on the board and kept unless it leaves the mover's
general attacked, where two generals facing on an open file count as an attack (flying
general). Out of check, only moves that touch a square where the general can be exposed
(`exposure`) need that test: it took random games from 0.15x to 0.28x OpenSpiel's in
`boardlab bench xiangqi --peers` (benchmarks/README.md), and it is checked against testing
every move (tests/games/xiangqi/test_xiangqi_rules_exposure.py).
"""

from __future__ import annotations

from ..chesslike import DIAGONAL, ORTHOGONAL, Board, ray_table, slide, step_table

ROWS, COLS = 10, 9
SQUARES = ROWS * COLS
GENERAL, ADVISOR, ELEPHANT, HORSE, CHARIOT, CANNON, SOLDIER = range(1, 8)
LETTER_OF = {GENERAL: "K", ADVISOR: "A", ELEPHANT: "B", HORSE: "N", CHARIOT: "R", CANNON: "C",
             SOLDIER: "P"}
PIECE_NAMES = {GENERAL: "general", ADVISOR: "advisor", ELEPHANT: "elephant", HORSE: "horse",
               CHARIOT: "chariot", CANNON: "cannon", SOLDIER: "soldier"}


def _palace(rows: range) -> frozenset[int]:
    return frozenset(r * COLS + c for r in rows for c in (3, 4, 5))


PALACE = (_palace(range(7, 10)), _palace(range(0, 3)))
"""PALACE[player]: the nine squares of that player's palace."""
OWN_SIDE = (frozenset(range(45, 90)), frozenset(range(0, 45)))
"""OWN_SIDE[player]: that player's half of the board, up to its bank of the river."""
ADVISOR_SQUARES = tuple(frozenset(s for s in PALACE[p] if (s // COLS + s % COLS) % 2 == p)
                        for p in (0, 1))
"""ADVISOR_SQUARES[player]: the five palace points an advisor can stand on."""
ELEPHANT_SQUARES = (frozenset(r * COLS + c for r, c in ((9, 2), (9, 6), (7, 0), (7, 4), (7, 8),
                                                        (5, 2), (5, 6))),
                    frozenset(r * COLS + c for r, c in ((0, 2), (0, 6), (2, 0), (2, 4), (2, 8),
                                                        (4, 2), (4, 6))))
FORWARD = (-COLS, COLS)
"""FORWARD[player]: the square offset of a soldier's step toward the enemy."""

RAYS = ray_table(ROWS, COLS, ORTHOGONAL)
STEPS_ORTHOGONAL = step_table(ROWS, COLS, ORTHOGONAL)
STEPS_DIAGONAL = step_table(ROWS, COLS, DIAGONAL)


def _elephant_moves() -> list[tuple[tuple[int, int], ...]]:
    """table[sq] = ((eye, target), ...) for two-square diagonal leaps inside the board."""
    table = []
    for square in range(SQUARES):
        row, col = divmod(square, COLS)
        moves = []
        for dr, dc in DIAGONAL:
            r, c = row + 2 * dr, col + 2 * dc
            if 0 <= r < ROWS and 0 <= c < COLS:
                moves.append(((row + dr) * COLS + col + dc, r * COLS + c))
        table.append(tuple(moves))
    return table


def _horse_moves() -> list[tuple[tuple[int, int], ...]]:
    """table[sq] = ((leg, target), ...): one orthogonal step (the leg, which must be empty),
    then one diagonal step outward."""
    table = []
    for square in range(SQUARES):
        row, col = divmod(square, COLS)
        moves = []
        for dr, dc in ORTHOGONAL:
            leg_r, leg_c = row + dr, col + dc
            for side in (-1, 1):
                r = leg_r + dr + (side if dr == 0 else 0)
                c = leg_c + dc + (side if dc == 0 else 0)
                if 0 <= r < ROWS and 0 <= c < COLS:
                    moves.append((leg_r * COLS + leg_c, r * COLS + c))
        table.append(tuple(moves))
    return table


ELEPHANT_MOVES = _elephant_moves()
HORSE_MOVES = _horse_moves()


def _horse_attackers() -> list[tuple[tuple[int, int], ...]]:
    """table[target] = ((horse square, its leg), ...): who could leap onto `target`."""
    table: list[list[tuple[int, int]]] = [[] for _ in range(SQUARES)]
    for square in range(SQUARES):
        for leg, target in HORSE_MOVES[square]:
            table[target].append((square, leg))
    return [tuple(entries) for entries in table]


HORSE_ATTACKERS = _horse_attackers()


def pseudo_moves(board: Board, player: int) -> list[tuple[int, int]]:
    """Every (from, to) `player`'s pieces may play by their own movement rules, before the
    test that the mover's general is safe."""
    sign = 1 if player == 0 else -1
    moves: list[tuple[int, int]] = []
    add = moves.append
    palace = PALACE[player]
    own_side = OWN_SIDE[player]
    for square in range(SQUARES):
        cell = board[square] * sign
        if cell <= 0:
            continue
        if cell == CHARIOT:
            slide(board, square, sign, RAYS[square], add)
        elif cell == CANNON:
            for ray in RAYS[square]:
                screened = False
                for target in ray:
                    other = board[target] * sign
                    if not screened:
                        if other == 0:
                            add((square, target))
                        else:
                            screened = True  # the screen: jump it to capture, never land on it
                    elif other != 0:
                        if other < 0:
                            add((square, target))
                        break
        elif cell == HORSE:
            for leg, target in HORSE_MOVES[square]:
                if board[leg] == 0 and board[target] * sign <= 0:
                    add((square, target))
        elif cell == SOLDIER:
            target = square + FORWARD[player]
            if 0 <= target < SQUARES and board[target] * sign <= 0:
                add((square, target))
            if square not in own_side:  # across the river it may also step sideways
                col = square % COLS
                if col > 0 and board[square - 1] * sign <= 0:
                    add((square, square - 1))
                if col < COLS - 1 and board[square + 1] * sign <= 0:
                    add((square, square + 1))
        elif cell == ELEPHANT:
            for eye, target in ELEPHANT_MOVES[square]:
                if board[eye] == 0 and target in own_side and board[target] * sign <= 0:
                    add((square, target))
        elif cell == ADVISOR:
            for target in STEPS_DIAGONAL[square]:
                if target in palace and board[target] * sign <= 0:
                    add((square, target))
        else:  # GENERAL
            for target in STEPS_ORTHOGONAL[square]:
                if target in palace and board[target] * sign <= 0:
                    add((square, target))
    return moves


def is_attacked(board: Board, square: int, player: int) -> bool:
    """Whether `player`'s piece on `square` (its general, in practice) is attacked by the
    opponent, counting the opposing general on an open file (the flying-general rule).
    Advisors and elephants never leave their own half, so they cannot attack a general."""
    sign = 1 if player == 0 else -1
    for ray in RAYS[square]:
        seen_screen = False
        for target in ray:
            other = board[target] * sign
            if other == 0:
                continue
            if not seen_screen:
                if other == -CHARIOT or other == -GENERAL:
                    return True
                seen_screen = True
            else:
                if other == -CANNON:
                    return True
                break
    for horse, leg in HORSE_ATTACKERS[square]:
        if board[horse] * sign == -HORSE and board[leg] == 0:
            return True
    # An enemy soldier attacks from one square nearer its own side (its forward step) or,
    # once across the river, from beside; beside a general it has always crossed.
    enemy_behind = square + FORWARD[player]
    if 0 <= enemy_behind < SQUARES and board[enemy_behind] * sign == -SOLDIER:
        return True
    col = square % COLS
    if col > 0 and board[square - 1] * sign == -SOLDIER and square - 1 not in OWN_SIDE[1 - player]:
        return True
    if col < COLS - 1 and board[square + 1] * sign == -SOLDIER \
            and square + 1 not in OWN_SIDE[1 - player]:
        return True
    return False


def general_square(board: Board, player: int) -> int:
    target = GENERAL if player == 0 else -GENERAL
    for square in PALACE[player]:
        if board[square] == target:
            return square
    raise ValueError(f"player {player} has no general in its palace")


def exposure(board: Board, king: int, player: int) -> set[int]:
    """Squares where another piece's move (leaving or arriving) can expose `player`'s general
    on `king` when it is not in check: every square of a ray from the general that holds an
    enemy chariot, cannon or general (a line attack needs one there, and only a change on
    that ray can open it), and the leg of each enemy horse a leap away. Our moves only add
    own pieces or remove enemy ones elsewhere, and soldiers attack from beside."""
    sign = 1 if player == 0 else -1
    squares: set[int] = set()
    for ray in RAYS[king]:
        if any(board[target] * sign in (-CHARIOT, -CANNON, -GENERAL) for target in ray):
            squares.update(ray)
    for horse, leg in HORSE_ATTACKERS[king]:
        if board[horse] * sign == -HORSE:
            squares.add(leg)
    return squares


def legal_moves(board: Board, player: int, in_check: bool | None = None
                ) -> list[tuple[int, int]]:
    """Pseudo-legal moves that do not leave `player`'s general attacked (board restored).
    Out of check, a move of another piece is tried on the board only when it leaves or
    enters a square of `exposure`; the rest cannot expose the general. `in_check`: whether
    the general is attacked, where the caller knows (None: tested here)."""
    king = general_square(board, player)
    check = is_attacked(board, king, player) if in_check is None else in_check
    exposed = exposure(board, king, player)
    result = []
    for frm, to in pseudo_moves(board, player):
        if not check and frm != king and frm not in exposed and to not in exposed:
            result.append((frm, to))
            continue
        moved, captured = board[frm], board[to]
        board[to], board[frm] = moved, 0
        if not is_attacked(board, to if frm == king else king, player):
            result.append((frm, to))
        board[frm], board[to] = moved, captured
    return result


def in_check(board: Board, player: int) -> bool:
    return is_attacked(board, general_square(board, player), player)


def perft(board: Board, player: int, depth: int) -> int:
    """Leaf count of the legal-move tree `depth` plies deep (no repetition or ply cap: the
    standard perft convention). The board is restored before returning."""
    moves = legal_moves(board, player)
    if depth <= 1:
        return len(moves) if depth == 1 else 1
    total = 0
    for frm, to in moves:
        moved, captured = board[frm], board[to]
        board[to], board[frm] = moved, 0
        total += perft(board, 1 - player, depth - 1)
        board[frm], board[to] = moved, captured
    return total
