"""Machinery shared by the chess-like games (Xiangqi, MiniChess; Jungle writes FEN ranks), once:
board tables, FEN fields, text boards, bench cases, and `ChessLikeGame` and `ChessLikeState`:
the settings, hooks and state fields Xiangqi's and MiniChess's share.

Boards are mailboxes: a flat list of ints, square = row * cols + col with row 0 on top (the
first rank a FEN names). A cell holds 0 when empty, +k for player 0's piece of type k and -k for
player 1's. Move generation walks precomputed tables (rays for sliders, steps for leapers), so
the per-move work is list lookups, which is the fastest plain Python gets and which a numba
kernel can reuse as arrays.
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, ClassVar, Iterable, Mapping, Self, Sequence

import numpy as np

from ..core.benchcases import BenchCases, MoveGeneration, PeerGame, Sizes
from ..core.game import (BoardLabError, CompiledSearch, EngineDialect, Game, GameFacts,
                         LinearEvaluation, ParseError, State, WinnerState, random_opening,
                         require_at_least)
from ..core.weights import shipped_file, shipped_weights

Board = list[int]

ORTHOGONAL = ((-1, 0), (1, 0), (0, -1), (0, 1))
DIAGONAL = ((-1, -1), (-1, 1), (1, -1), (1, 1))
KNIGHT = ((-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1))


def on_board(row: int, col: int, rows: int, cols: int) -> bool:
    return 0 <= row < rows and 0 <= col < cols


def ray(square: int, direction: tuple[int, int], rows: int, cols: int) -> tuple[int, ...]:
    """The squares a slider on `square` passes going in `direction` (row step, column step),
    nearest first, up to the edge of the board."""
    row, col = divmod(square, cols)
    dr, dc = direction
    squares = []
    r, c = row + dr, col + dc
    while on_board(r, c, rows, cols):
        squares.append(r * cols + c)
        r, c = r + dr, c + dc
    return tuple(squares)


def ray_table(rows: int, cols: int,
              directions: Iterable[tuple[int, int]]) -> list[list[tuple[int, ...]]]:
    """table[square] = one tuple per direction of the squares a slider passes, nearest first
    (directions that leave the board at once give no tuple)."""
    directions = tuple(directions)
    return [[r for r in (ray(square, d, rows, cols) for d in directions) if r]
            for square in range(rows * cols)]


def padded(rows: Sequence[Sequence[Any]], width: int,
           item_shape: tuple[int, ...] = ()) -> np.ndarray:
    """A table of lists as an int16 array for numba kernels: table[i, j] = rows[i][j], and -1
    where rows[i] is shorter than `width` (a kernel stops at the first -1)."""
    table = np.full((len(rows), width, *item_shape), -1, dtype=np.int16)
    for i, items in enumerate(rows):
        for j, item in enumerate(items):
            table[i, j] = item
    return table


def padded_ray_table(rows: int, cols: int, directions: Sequence[tuple[int, int]]) -> np.ndarray:
    """`ray_table` for numba kernels: table[square, d] is the ray in directions[d] (kept in
    its slot even when empty, so a kernel knows each ray's direction), -1 padded to the
    longest ray a board of this size has."""
    length = max(rows, cols) - 1
    table = np.full((rows * cols, len(directions), length), -1, dtype=np.int16)
    for square in range(rows * cols):
        for d, direction in enumerate(directions):
            squares = ray(square, direction, rows, cols)
            table[square, d, :len(squares)] = squares
    return table


def step_table(rows: int, cols: int,
               offsets: Iterable[tuple[int, int]]) -> list[tuple[int, ...]]:
    """table[square] = the squares one leap of each offset reaches inside the board."""
    offsets = tuple(offsets)
    table = []
    for square in range(rows * cols):
        row, col = divmod(square, cols)
        table.append(tuple((row + dr) * cols + col + dc for dr, dc in offsets
                           if on_board(row + dr, col + dc, rows, cols)))
    return table


def slide(board: Board, square: int, sign: int, rays: Sequence[Sequence[int]],
          add: Callable[[tuple[int, int]], object]) -> None:
    """A slider's moves (rook, bishop, queen, chariot): along each ray from `square`, every
    empty square and the first enemy piece, stopping at the first piece. `sign` is +1 when the
    mover is player 0, -1 when player 1 (its pieces are then negative); `add` takes each
    (from, to), e.g. a list's append bound once by the caller."""
    for ray in rays:
        for target in ray:
            other = board[target] * sign
            if other == 0:
                add((square, target))
            else:
                if other < 0:
                    add((square, target))
                break


def mirror_square(square: int, rows: int, cols: int) -> int:
    """The same square seen from the other side's seat (row flipped, column kept): lets one
    piece-square table, written for player 0, serve player 1."""
    row, col = divmod(square, cols)
    return (rows - 1 - row) * cols + col


# --- FEN board field ---------------------------------------------------------------------------

def _rows_flipped(board: Sequence[int], rows: int, cols: int) -> Board:
    """The board with its rows in the other order (its own inverse)."""
    return [board[row * cols + col] for row in range(rows - 1, -1, -1) for col in range(cols)]


def parse_board_field(field: str, rows: int, cols: int, letters: Mapping[str, int],
                      where: str, row0_at_bottom: bool = False) -> Board:
    """Parse the piece-placement field of a FEN (ranks top to bottom, '/' between them, digits
    for runs of empty squares, upper case for player 0). `letters` maps upper-case letters to
    piece types; `where` names the input in error messages. The board's row 0 is the top rank,
    or with `row0_at_bottom` the bottom one (Jungle numbers its rows from player 0's side)."""
    ranks = field.split("/")
    if len(ranks) != rows:
        raise ParseError(f"{where}: the board has {len(ranks)} ranks, expected {rows}")
    board: Board = []
    for index, rank in enumerate(ranks):
        width = 0
        digits = ""
        cells: list[int] = []
        # Multi-digit runs (`10`) only matter on boards wider than 9, but cost nothing here.
        for char in rank + " ":
            if "0" <= char <= "9":  # not str.isdigit(): it passes '²', which int() refuses
                digits += char
                continue
            if digits:
                # Bounded before it is read: `10**30` empty squares must not build a list.
                run = int(digits) if len(digits) <= 3 else None
                if run == 0:
                    raise ParseError(f"{where}: rank {index + 1} from the top holds a run of "
                                     "0 empty squares")
                if run is None or width + run > cols:
                    shown = f"more than {cols}" if run is None else str(width + run)
                    raise ParseError(f"{where}: rank {index + 1} from the top ({rank!r}) is "
                                     f"{shown} squares wide, expected {cols}")
                cells.extend([0] * run)
                width += run
                digits = ""
            if char == " ":
                break
            kind = letters.get(char.upper())
            if kind is None:
                known = "".join(sorted(letters))
                raise ParseError(f"{where}: unknown piece {char!r} on rank {index + 1} from the "
                                 f"top (pieces: {known}, lower case for the second player)")
            cells.append(kind if char.isupper() else -kind)
            width += 1
        if width != cols:
            raise ParseError(f"{where}: rank {index + 1} from the top ({rank!r}) is {width} "
                             f"squares wide, expected {cols}")
        board.extend(cells)
    return _rows_flipped(board, rows, cols) if row0_at_bottom else board


def fen_rank(letters: Iterable[str]) -> str:
    """One rank of a FEN board field from its cells' letters, '' for an empty cell: a run of
    empty cells is written as its length (`r`, `n`, '', '', `k` -> `rn2k`)."""
    text, empty = "", 0
    for letter in letters:
        if not letter:
            empty += 1
            continue
        if empty:
            text += str(empty)
            empty = 0
        text += letter
    return text + (str(empty) if empty else "")


def board_field(board: Sequence[int], rows: int, cols: int, letter_of: Mapping[int, str],
                row0_at_bottom: bool = False) -> str:
    """Inverse of `parse_board_field`; `letter_of` maps piece types to upper-case letters."""
    if row0_at_bottom:
        board = _rows_flipped(board, rows, cols)
    return "/".join(fen_rank(cell_letter(board[row * cols + col], letter_of) if
                             board[row * cols + col] else "" for col in range(cols))
                    for row in range(rows))


def cell_letter(cell: int, letter_of: Mapping[int, str]) -> str:
    """The letter of a non-empty cell: `letter_of[kind]` for player 0's, lower case for
    player 1's."""
    letter = letter_of[abs(cell)]
    return letter if cell > 0 else letter.lower()


def parse_side_to_move(field: str | None, where: str, first: Sequence[str] = ("w", "r")) -> int:
    """FEN side-to-move field -> player index (0 for `w`/`r`, 1 for `b`)."""
    if field is None:
        raise ParseError(f"{where}: the side to move is missing (add ` w` or ` b`)")
    lowered = field.lower()
    if lowered in first:
        return 0
    if lowered == "b":
        return 1
    raise ParseError(f"{where}: side to move {field!r} is neither "
                     f"{' nor '.join(repr(f) for f in (*first, 'b'))}")


def fen_text(board: Sequence[int], player: int, plies: int, rows: int, cols: int,
             letter_of: Mapping[int, str]) -> str:
    """A chess-like FEN: board, side to move (`w`, `b`), `- -` (no castling, no en passant),
    0, the move number."""
    side = "w" if player == 0 else "b"
    return f"{board_field(board, rows, cols, letter_of)} {side} - - 0 {plies // 2 + 1}"


def parse_fen_text(text: str, rows: int, cols: int, letters: Mapping[str, int], where: str,
                   first: Sequence[str] = ("w", "r")) -> tuple[Board, int, int]:
    """Inverse of `fen_text`: (board, player to move, plies played). The fields after the
    side to move are optional; the last (the move number) sets the ply count a ply cap
    reads. `letters` and `first` as `parse_board_field` and `parse_side_to_move` take them."""
    parts = text.split()
    if not parts:
        raise ParseError(f"{where}: empty text")
    board = parse_board_field(parts[0], rows, cols, letters, where)
    player = parse_side_to_move(parts[1] if len(parts) > 1 else None, where, first)
    plies = 0
    if len(parts) >= 6:
        if not (parts[5].isascii() and parts[5].isdigit()) or int(parts[5]) < 1:
            raise ParseError(f"{where}: move number {parts[5]!r} is not a positive integer")
        plies = 2 * (int(parts[5]) - 1) + player
    return board, player, plies


def own_piece(board: Sequence[int], player: int, square: int, name: str) -> tuple[int, str]:
    """The cell on `square` as `player` sees it (positive: the type of its own piece), and why
    `player` cannot move from there, "" where its own piece stands: `NAME is empty` or `the
    piece on NAME is the opponent's` (`name`: the square's name)."""
    cell = board[square] * (1 if player == 0 else -1)
    if cell == 0:
        return cell, f"{name} is empty"
    if cell < 0:
        return cell, f"the piece on {name} is the opponent's"
    return cell, ""


def count_pieces(board: Sequence[int], kind: int) -> tuple[int, int]:
    """How many pieces of type `kind` each player has."""
    return board.count(kind), board.count(-kind)


def text_board(board: Sequence[int], rows: int, cols: int, letter_of: Mapping[int, str],
               rank_labels: Sequence[str], file_labels: str) -> list[str]:
    """The board as lines a person reads in a terminal: `.` empty, upper case player 0."""
    lines = []
    for row in range(rows):
        cells = []
        for col in range(cols):
            cell = board[row * cols + col]
            cells.append(cell_letter(cell, letter_of) if cell else ".")
        lines.append(f"{rank_labels[row]:>2}  " + " ".join(cells))
    lines.append("    " + " ".join(file_labels[:cols]))
    return lines


# --- evaluation --------------------------------------------------------------------------------

def material_and_position(board: Sequence[int], player: int, values: Sequence[float],
                          tables: Sequence[Sequence[float]] | None, rows: int,
                          cols: int) -> float:
    """Sum over `player`'s pieces of value + piece-square bonus, minus the opponent's.

    `values[k]` is piece type k's value; `tables[k][square]` its bonus on a square as player 0
    sees the board (player 1's pieces read the mirrored square). `tables` None: material only.
    """
    score = 0.0
    for square, cell in enumerate(board):
        if cell == 0:
            continue
        kind = cell if cell > 0 else -cell
        value = values[kind]
        if tables is not None:
            seen = square if cell > 0 else mirror_square(square, rows, cols)
            value += tables[kind][seen]
        score += value if cell > 0 else -value
    return score if player == 0 else -score


def shipped_tuned_rows(game: str, file_name: str, read: Callable[[Path], np.ndarray]
                       ) -> tuple[tuple[float, ...], ...]:
    """The tuned evaluation BoardLab ships for `game` (boardlab/models/`file_name`), read by
    `read`, as tuples of floats; a BoardLabError naming the command that makes one when it is
    not installed."""
    if not shipped_file(file_name).is_file():
        raise BoardLabError(f"BoardLab ships no tuned {game} evaluation (models/{file_name} "
                            f"is not installed): make one with `boardlab train {game} texel "
                            f"--out {file_name}` and put it there")
    path = shipped_weights(game, "tuned-eval", ".npz", "texel")
    return tuple(tuple(float(x) for x in row) for row in read(path))


def table_and_activity(board: Any, player: int, rows: Sequence[Sequence[float]],
                       activity: Callable[[Any, Sequence[float]], float],
                       board_rows: int, cols: int) -> float:
    """A tuned evaluation's value for `player`: the piece-square sum of rows[:-1] (material
    included), plus `activity(board, rows[-1])`, player 0's activity minus player 1's, when
    that last row of weights is not all 0. The compiled searches add the same terms in the
    same order, so the floats agree."""
    value = material_and_position(board, player, (0.0,) * (len(rows) - 1), rows[:-1],
                                  board_rows, cols)
    if not any(rows[-1]):
        return value
    active = activity(board, rows[-1])
    return value + (active if player == 0 else -active)


def piece_square_parameters(values: Sequence[float], tables: Sequence[Sequence[float]] | None,
                             squares: int) -> np.ndarray:
    """parameters[k, s] = values[k] + tables[k][s] (or values[k]; row 0, the empty cell, 0):
    what player 0's piece of type k on square s adds, added as material_and_position adds."""
    parameters = np.zeros((len(values), squares), dtype=np.float64)
    for kind in range(1, len(values)):
        for square in range(squares):
            parameters[kind, square] = values[kind] + (tables[kind][square] if tables else 0)
    return parameters


def signed_table(parameters: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """The compiled search's table (games/alphabeta.py `evaluate`) of piece-square parameters:
    table[cell + K, s], K the largest type, is parameters[cell, s] for player 0's pieces and
    -parameters[-cell, mirrored s] for player 1's."""
    kinds = parameters.shape[0] - 1
    mirrored = [mirror_square(square, rows, cols) for square in range(rows * cols)]
    table = np.zeros((2 * kinds + 1, rows * cols), dtype=np.float64)
    for kind in range(1, kinds + 1):
        table[kinds + kind] = parameters[kind]
        table[kinds - kind] = -parameters[kind, mirrored]
    return table


def piece_square_evaluation(parameters: Callable[[str], np.ndarray], kinds: int, rows: int,
                            cols: int, fixed_kinds: Sequence[int] = (),
                            unit: float = 1.0) -> LinearEvaluation:
    """`Game.linear_evaluation` of a chess-like game whose evaluators are material_and_position
    sums: a (kinds + 1, squares) table, player 1's pieces on the mirrored square with a minus
    sign; `parameters(evaluator)` gives a named evaluator's table, `fixed_kinds` the piece types
    a tuner keeps."""
    squares = rows * cols
    mirrored = np.array([mirror_square(square, rows, cols) for square in range(squares)])
    fixed = np.zeros((kinds + 1, squares), dtype=bool)
    fixed[0] = True  # the empty cell is never a feature
    fixed[list(fixed_kinds)] = True

    def features(state: Any) -> tuple[np.ndarray, np.ndarray]:
        board = np.asarray(state.board, dtype=np.int64)
        square = np.flatnonzero(board)
        cell = board[square]
        seen = np.where(cell > 0, square, mirrored[square])
        return np.abs(cell) * squares + seen, np.sign(cell)

    return LinearEvaluation((kinds + 1, squares), features, parameters, fixed, unit)


def with_counted_features(table: LinearEvaluation, parameters_of: Callable[[str], np.ndarray],
                          row: int, free: Sequence[int],
                          counted: Callable[[Any], Iterable[tuple[int, int, int]]]
                          ) -> LinearEvaluation:
    """A game's `linear_evaluation` of piece-square `table` plus one more parameter row,
    `row`, of weights on counts (a MiniChess or Xiangqi activity term): `counted(board)` gives
    (sign, column, count) triples, each `count` features of entry [row, column] with `sign`
    (+1 player 0's count, -1 player 1's), so a weight times a count needs no weighted feature;
    of that row only the `free` columns are tuned. `parameters_of(evaluator)`: all the rows."""
    squares = table.shape[1]
    base = row * squares

    def features(state: Any) -> tuple[np.ndarray, np.ndarray]:
        index, sign = table.features(state)
        more_index: list[int] = []
        more_sign: list[int] = []
        for side, column, count in counted(state.board):
            more_index += [base + column] * count
            more_sign += [side] * count
        return (np.concatenate([index, np.array(more_index, dtype=index.dtype)]),
                np.concatenate([sign, np.array(more_sign, dtype=sign.dtype)]))

    fixed = np.ones((row + 1, squares), dtype=bool)
    fixed[:row] = table.fixed
    fixed[row, list(free)] = False
    return LinearEvaluation((row + 1, squares), features, parameters_of, fixed, table.unit)


def tapered_sum(board: Sequence[int], player: int, midgame: Sequence[Sequence[float]],
                endgame: Sequence[Sequence[float]], phase_weights: Sequence[int],
                phase_max: int, rows: int, cols: int) -> float:
    """Two piece-square tables blended by the game's phase, for `player`: with phase p, the
    sum over pieces of phase_weights[type] capped at phase_max (all the heavy pieces on the
    board: the middle game), (p x midgame sum + (phase_max - p) x endgame sum) / phase_max,
    the sums as material_and_position's (material in the tables). A tuned evaluation learns
    what a piece is worth early and late (Fruit's and Stockfish's tapered evaluation). The
    compiled searches compute the same floats in the same order."""
    zeros = (0.0,) * len(midgame)
    early = material_and_position(board, 0, zeros, midgame, rows, cols)
    late = material_and_position(board, 0, zeros, endgame, rows, cols)
    phase = min(sum(phase_weights[abs(cell)] for cell in board), phase_max)
    value = (phase * early + (phase_max - phase) * late) / phase_max
    return value if player == 0 else -value


def with_endgame_table(table: LinearEvaluation, piece_rows: int,
                       phase_of: Callable[[Any], int], phase_max: int,
                       parameters_of: Callable[[str], np.ndarray]) -> LinearEvaluation:
    """A game's `linear_evaluation` whose piece-square rows (the first `piece_rows` of `table`)
    are blended with an endgame table by the phase (`tapered_sum`): the endgame rows follow
    `table`'s rows, and each piece's feature becomes two, its midgame entry with the share
    phase / phase_max of its sign and its endgame entry with the rest. `table`'s other rows
    (an activity row) keep their features. `phase_of(board)`: the phase, capped."""
    rows, squares = table.shape
    piece_entries = piece_rows * squares

    def features(state: Any) -> tuple[np.ndarray, np.ndarray]:
        index, sign = table.features(state)
        share = phase_of(state.board) / phase_max
        pieces = index < piece_entries
        return (np.concatenate([index, index[pieces] + rows * squares]),
                np.concatenate([np.where(pieces, sign * share, sign),
                                sign[pieces] * (1 - share)]))

    fixed = np.vstack([table.fixed, table.fixed[:piece_rows]])
    return LinearEvaluation((rows + piece_rows, squares), features, parameters_of, fixed,
                            table.unit)


TUNED_FORMAT = "boardlab-texel"
"""The `format` entry of a tuned evaluation file (learn/texel.py writes it)."""


def npz_fields(path: str | Path, names: Sequence[str],
               wrong: Callable[[str], BoardLabError]) -> dict[str, np.ndarray]:
    """The arrays of an .npz file that are among `names` (those it lacks are left out); the
    error `wrong(reason)` when there is no such file or it is not an .npz archive without
    pickled objects."""
    try:
        with np.load(path, allow_pickle=False) as data:
            return {name: data[name] for name in names if name in data.files}
    except FileNotFoundError:
        raise wrong("no such file") from None
    except (OSError, ValueError, EOFError, zipfile.BadZipFile):
        raise wrong("not an .npz archive without pickled objects") from None


def read_tuned_table(path: str | Path, game: str, shape: tuple[int, ...],
                     older: tuple[tuple[int, ...], ...] = ()) -> np.ndarray:
    """The `table` (float64, `shape`, or one of the `older` shapes a file may still have) of a
    tuned evaluation file for `game`; a BoardLabError of one sentence naming the file when it
    is not one."""
    def wrong(reason: str) -> BoardLabError:
        return BoardLabError(f"{path} is not a tuned {game} evaluation ({reason}); make one "
                             f"with `boardlab train {game} texel --out FILE`")
    fields = npz_fields(path, ("format", "game", "table"), wrong)
    if str(fields.get("format", "")) != TUNED_FORMAT:
        raise wrong(f"format {str(fields.get('format', 'missing'))!r}, not {TUNED_FORMAT!r}")
    if str(fields.get("game", "")).split(":")[0] != game:
        raise wrong(f"it was tuned for {str(fields.get('game'))!r}")
    table = fields.get("table")
    if table is None or (table.shape != shape and table.shape not in older) or \
            table.dtype.kind != "f":
        found = "no table" if table is None else f"a {table.dtype} table of shape {table.shape}"
        raise wrong(f"{found}, not float of shape {shape}")
    if not np.all(np.isfinite(table)):
        raise wrong("its table holds a value that is not finite")
    return np.ascontiguousarray(table, dtype=np.float64)


# --- bench cases ---------------------------------------------------------------------------------

MoveGenerator = Callable[[Board, int], Any]
"""(board, player) -> that player's moves, in any form the generator likes."""


def mailbox_bench_cases(perft: Callable[[Board, int, int], int], python_moves: MoveGenerator,
                        kernel_moves: MoveGenerator, *, perft_depth: Sizes,
                        kernel_perft_depth: Sizes, alphabeta_depth: Sizes,
                        kernel_alphabeta_depth: Sizes,
                        peers: tuple[PeerGame, ...],
                        engine_evaluators: tuple[str, ...] = ()) -> BenchCases:
    """`Game.bench_cases()` of a chess-like game whose states hold `board` and `player`: the
    compiled `perft(board, player, depth)`, move generation by the Python rules against the
    kernel's, and the depths, peers and other evaluations of the engine search the game
    chooses."""
    return BenchCases(
        perft_depth=perft_depth, alphabeta_depth=alphabeta_depth,
        kernel_alphabeta_depth=kernel_alphabeta_depth, engine_evaluators=engine_evaluators,
        kernel_perft=lambda start, depth: perft(start.board, start.player, depth),
        kernel_perft_depth=kernel_perft_depth,
        movegen=MoveGeneration(arguments=lambda state: (state.board, state.player),
                               python=python_moves, kernel=kernel_moves),
        peers=peers)


# --- the game and its states ------------------------------------------------------------------

@dataclass(frozen=True)
class ChessLikeSettings:
    """The settings of every chess-like game; a game redefines `max_plies` with its own default
    and says what the cap does."""

    max_plies: int = 100
    """Plies after which the game ends."""
    opening_plies: int = 0
    """Random plies from the start, drawn from the game's seed (so arena games start apart)."""

    def __post_init__(self) -> None:
        require_at_least(self, max_plies=1, opening_plies=0)


class ChessLikeGame(Game):
    """A chess-like game for two, without chance or hidden information, whose `Settings`
    derive from `ChessLikeSettings`: it sets `action_count` and `start_text` (its FEN of the
    start), and implements `state_from_text`.

    The hooks of a game whose package holds its kernels as Xiangqi's and MiniChess's do: its
    `search.py` has `compiled_search(game, evaluator, quiescence)` (the alpha-beta on
    games/alphabeta.py, None for a heuristic it does not compute), its `kernels.py`
    `random_playout(state, seed)` (returns first) and `encode_batch(states, players)`, and its
    `engines.py` the `DIALECTS` engines speak. A game that inherits this declares none of these
    hooks; each imports the module it calls on first use (`Game.package_module`), so the rules
    load without numba. Its render.py draws it."""

    render_module = ".render"
    action_count: ClassVar[int] = 0
    """The size of the action space (`GameFacts.num_actions`)."""
    start_text: ClassVar[str] = ""
    """The start position, in the text `state_from_text` reads."""

    @property
    def facts(self) -> GameFacts:
        return GameFacts(num_players=2, num_actions=self.action_count, has_chance=False,
                         hidden_information=False, max_length=self.settings.max_plies)

    def initial_state(self, seed: int | None = None) -> Any:
        """The start, then `opening_plies` random plies drawn from `seed`."""
        start = self.state_from_text(self.start_text)
        return random_opening(start, self.settings.opening_plies, seed)

    @property
    def engine_dialects(self) -> tuple[EngineDialect, ...]:
        """The engine protocols the game is spoken over: its engines.py `DIALECTS`."""
        return self.package_module(".engines").DIALECTS

    def compiled_minimax(self, evaluator: str) -> CompiledSearch | None:
        """The numba alpha-beta (the game's search.py) with the Python agent's values."""
        return self.package_module(".search").compiled_search(self, evaluator, quiescence=False)

    def compiled_quiescence(self, evaluator: str, weights: str = "") -> CompiledSearch | None:
        """The numba alpha-beta with quiescence search and table cutoffs (search.py), its
        heuristic reading `weights` where it reads a file (`evaluator_with_weights`)."""
        if weights:
            self.evaluator_with_weights(evaluator, weights)  # refused here if not read
            return self.package_module(".search").compiled_search(self, evaluator,
                                                                  quiescence=True,
                                                                  weights=weights)
        return self.package_module(".search").compiled_search(self, evaluator, quiescence=True)

    def random_playout_kernel(self, state: State, seed: int) -> list[float]:
        """Returns of one uniformly random game from `state`, played in one numba call."""
        if state.is_terminal():
            return state.returns()
        return self.package_module(".kernels").random_playout(state, seed)[0]

    def encode_batch(self, states: list[State], players: list[int]) -> np.ndarray:
        """The network planes of a batch of positions in one numba call."""
        return self.package_module(".kernels").encode_batch(states, players)


class ChessLikeState(WinnerState):
    """What the states of the chess-like games share: a mailbox `board`, `player`, `plies`,
    `winner` (`WinnerState`) and `end_reason`, a phrase for how the game ended; the class names
    its sides in `side_names` (player 0 writes upper case)."""

    __slots__ = ()
    side_names: ClassVar[tuple[str, str]]
    game: Game
    board: Board
    end_reason: str

    def __init__(self, game: Game, board: Board, player: int, plies: int = 0) -> None:
        self.game = game
        self.board = board
        self.player = player
        self.plies = plies
        self.winner = None
        self.end_reason = ""

    def copy_fields(self) -> Self:
        """A new state of this class holding these fields (the board copied), for `clone`
        to complete with the class's own."""
        new = type(self).__new__(type(self))
        new.game = self.game
        new.board = self.board.copy()
        new.player = self.player
        new.plies = self.plies
        new.winner = self.winner
        new.end_reason = self.end_reason
        return new

    def status(self) -> str:
        """The game's state in words: `white wins (how)`, `draw (how)`, or `black to move`
        and what `to_move_note` adds."""
        if self.winner is not None:
            result = "draw" if self.winner == -1 else f"{self.side_names[self.winner]} wins"
            return f"{result} ({self.end_reason})"
        return f"{self.side_names[self.player]} to move{self.to_move_note()}"

    def to_move_note(self) -> str:
        """What `status` says after `... to move` (Xiangqi: ` (in check)`); empty here."""
        return ""

    def ply_status(self) -> str:
        """`ply P/MAX; ` and `status()`: a picture's caption, a text board's last line."""
        return f"ply {self.plies}/{self.game.settings.max_plies}; {self.status()}"

    def encode(self, player: int) -> np.ndarray:
        """The network planes of the game's encode.py (`network_input`)."""
        return self.game.package_module(".encode").network_input(self, player)
