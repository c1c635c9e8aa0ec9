"""Compiled Xiangqi jobs (numba): what tree search asks of a position, as whole calls.

The rules of rules.py and game.py again, over the same tables as numpy arrays (-1 ends a list)
and an int8 board of 90 cells: legal moves, the verdict on a position reached by a move (no
legal move, threefold repetition with perpetual check, the ply cap), a whole random game in one
call (MCTS rollouts), perft, and seed 003's 14x10x9 planes for a batch of positions. The
alpha-beta search (search.py) is built from these. tests/games/xiangqi/test_xiangqi_kernels.py
checks each against `XiangqiState` move by move on seeded random games.

Repetition compares Zobrist keys (64 random bits xor-ed per piece on a square, and for the side
to move) instead of whole boards: two different positions sharing a key is a 2**-64 chance per
comparison, which we accept.

Python-facing: `legal_moves`, `perft`, `verdict`, `random_playout`, `encode_batch`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.kernelcache import fresh_cache
from ..chesslike import ORTHOGONAL, padded, padded_ray_table
from . import rules
from .rules import ADVISOR, CANNON, CHARIOT, ELEPHANT, GENERAL, HORSE, SOLDIER, SQUARES

MAX_MOVES = 128
"""More than any xiangqi position has (the record is about 110)."""
ONGOING, DRAW = -2, -1
"""Verdicts besides a winner 0 or 1 (`XiangqiState.winner` uses -1 for a draw too)."""


# rules.py's tables as arrays numba freezes into the compiled code.
RAYS = padded_ray_table(rules.ROWS, rules.COLS, ORTHOGONAL)
"""RAYS[sq, d]: the squares a chariot passes going up, down, left, right, nearest first."""
HORSE_MOVES = padded(rules.HORSE_MOVES, 8, (2,))
HORSE_ATTACKERS = padded(rules.HORSE_ATTACKERS, 8, (2,))
ELEPHANT_MOVES = padded(rules.ELEPHANT_MOVES, 4, (2,))
STEPS_ORTHOGONAL = padded(rules.STEPS_ORTHOGONAL, 4)
STEPS_DIAGONAL = padded(rules.STEPS_DIAGONAL, 4)
PALACE = np.zeros((2, SQUARES), dtype=np.bool_)
OWN_SIDE = np.zeros((2, SQUARES), dtype=np.bool_)
PALACE_SQUARES = np.zeros((2, 9), dtype=np.int16)
"""PALACE_SQUARES[player]: where that player's general can be."""
for _p in (0, 1):
    PALACE[_p, list(rules.PALACE[_p])] = True
    OWN_SIDE[_p, list(rules.OWN_SIDE[_p])] = True
    PALACE_SQUARES[_p] = sorted(rules.PALACE[_p])

_KEYS = np.random.default_rng(3).integers(-2**63, 2**63 - 1, size=(SQUARES + 1, 15),
                                          dtype=np.int64)
_KEYS[:, 7] = 0  # an empty square adds nothing, so a capture needs no special case
ZOBRIST = _KEYS[:SQUARES]
"""ZOBRIST[sq, cell + 7]: the key bits of `cell` (-7..7) standing on `sq`."""
SIDE_KEY = _KEYS[SQUARES, 0]
"""Xor-ed in when black is to move."""


# --- moves ---------------------------------------------------------------------------------------

@njit(cache=True)
def _pseudo(board, player, out):
    """rules.pseudo_moves into out[:, 0:2] = (from, to); returns how many."""
    sign = 1 if player == 0 else -1
    n = 0
    for sq in range(90):
        cell = board[sq] * sign
        if cell <= 0:
            continue
        if cell == CHARIOT or cell == CANNON:
            for d in range(4):
                screened = False
                for k in range(9):
                    t = RAYS[sq, d, k]
                    if t < 0:
                        break
                    other = board[t] * sign
                    if cell == CHARIOT:
                        if other <= 0:
                            out[n, 0] = sq
                            out[n, 1] = t
                            n += 1
                        if other != 0:
                            break
                    elif not screened:
                        if other == 0:
                            out[n, 0] = sq
                            out[n, 1] = t
                            n += 1
                        else:
                            screened = True
                    elif other != 0:
                        if other < 0:
                            out[n, 0] = sq
                            out[n, 1] = t
                            n += 1
                        break
        elif cell == HORSE or cell == ELEPHANT:
            # A leap that a piece on one square blocks (the horse's leg, the elephant's eye);
            # the elephant stays on its own side of the river.
            leaps = HORSE_MOVES[sq] if cell == HORSE else ELEPHANT_MOVES[sq]
            for k in range(leaps.shape[0]):
                block = leaps[k, 0]
                if block < 0:
                    break
                t = leaps[k, 1]
                if board[block] == 0 and board[t] * sign <= 0 and (
                        cell == HORSE or OWN_SIDE[player, t]):
                    out[n, 0] = sq
                    out[n, 1] = t
                    n += 1
        elif cell == SOLDIER:
            t = sq - 9 if player == 0 else sq + 9
            if 0 <= t < 90 and board[t] * sign <= 0:
                out[n, 0] = sq
                out[n, 1] = t
                n += 1
            if not OWN_SIDE[player, sq]:  # across the river it may also step sideways
                col = sq % 9
                for dc in (-1, 1):
                    if 0 <= col + dc < 9 and board[sq + dc] * sign <= 0:
                        out[n, 0] = sq
                        out[n, 1] = sq + dc
                        n += 1
        else:  # advisor (diagonal) or general (orthogonal), both kept in the palace
            for k in range(4):
                t = STEPS_DIAGONAL[sq, k] if cell == ADVISOR else STEPS_ORTHOGONAL[sq, k]
                if t < 0:
                    break
                if PALACE[player, t] and board[t] * sign <= 0:
                    out[n, 0] = sq
                    out[n, 1] = t
                    n += 1
    return n


@njit(cache=True)
def _attacked(board, sq, player):
    """rules.is_attacked: `player`'s piece on `sq` is attacked (flying general included)."""
    return _attacks_on(board, sq, player, True)


@njit(cache=True)
def attacked_square(board, sq, player):
    """Whether the other side could take `player`'s piece on `sq` (any square): as `_attacked`,
    but the other general attacks only the squares one step from it in its palace.
    `_attacked` asks about a general's square, where an enemy general first on a line of the
    same file is the flying general; on another square that general would be no attacker."""
    return _attacks_on(board, sq, player, False)


@njit(cache=True, inline="always")
def _attacks_on(board, sq, player, flying):
    """`_attacked` (flying: the enemy general attacks along any clear line) or
    `attacked_square` (not: one step, inside its palace)."""
    sign = 1 if player == 0 else -1
    for d in range(4):
        seen_screen = False
        for k in range(9):
            t = RAYS[sq, d, k]
            if t < 0:
                break
            other = board[t] * sign
            if other == 0:
                continue
            if not seen_screen:
                if other == -CHARIOT or other == -GENERAL and (
                        flying or k == 0 and PALACE[1 - player, sq]):
                    return True
                seen_screen = True
            else:
                if other == -CANNON:
                    return True
                break
    for k in range(8):
        h = HORSE_ATTACKERS[sq, k, 0]
        if h < 0:
            break
        if board[h] * sign == -HORSE and board[HORSE_ATTACKERS[sq, k, 1]] == 0:
            return True
    behind = sq - 9 if player == 0 else sq + 9
    if 0 <= behind < 90 and board[behind] * sign == -SOLDIER:
        return True
    col = sq % 9
    if col > 0 and board[sq - 1] * sign == -SOLDIER and not OWN_SIDE[1 - player, sq - 1]:
        return True
    if col < 8 and board[sq + 1] * sign == -SOLDIER and not OWN_SIDE[1 - player, sq + 1]:
        return True
    return False


@njit(cache=True)
def general_square(board, player):
    target = GENERAL if player == 0 else -GENERAL
    for i in range(9):
        sq = PALACE_SQUARES[player, i]
        if board[sq] == target:
            return sq
    return -1


@njit(cache=True)
def in_check(board, player):
    return _attacked(board, general_square(board, player), player)


@njit(cache=True, inline="always")
def play(board, frm, to):
    """Move the piece on `frm` to `to`; returns the captured cell (0 if none). Undo with
    `take_back`: a move touches two cells, so undoing beats copying the board."""
    captured = board[to]
    board[to] = board[frm]
    board[frm] = 0
    return captured


@njit(cache=True, inline="always")
def take_back(board, frm, to, captured):
    board[frm] = board[to]
    board[to] = captured


@njit(cache=True)
def is_safe(board, player, general, frm, to):
    """Whether pseudo-legal (frm, to) leaves `player`'s general (on `general`) unattacked:
    rules.legal_moves's test, the board restored."""
    captured = play(board, frm, to)
    safe = not _attacked(board, to if frm == general else general, player)
    take_back(board, frm, to, captured)
    return safe


@njit(cache=True)
def legal(board, player, out):
    """rules.legal_moves into `out`; returns how many."""
    n = _pseudo(board, player, out)
    general = general_square(board, player)
    kept = 0
    for i in range(n):
        if is_safe(board, player, general, out[i, 0], out[i, 1]):
            out[kept, 0] = out[i, 0]
            out[kept, 1] = out[i, 1]
            kept += 1
    return kept


@njit(cache=True)
def _perft(board, player, depth):
    moves = np.empty((MAX_MOVES, 2), dtype=np.int16)
    n = legal(board, player, moves)
    if depth == 1:
        return n
    total = 0
    for i in range(n):
        captured = play(board, moves[i, 0], moves[i, 1])
        total += _perft(board, 1 - player, depth - 1)
        take_back(board, moves[i, 0], moves[i, 1], captured)
    return total


# --- the end of a game ---------------------------------------------------------------------------

@njit(cache=True)
def position_key(board, player):
    key = SIDE_KEY if player == 1 else np.int64(0)
    for sq in range(90):
        key ^= ZOBRIST[sq, board[sq] + 7]
    return key


@njit(cache=True, inline="always")
def next_key(key, moved, frm, to, captured):
    """The key after `moved` went from `frm` to `to` taking `captured` (0: nothing)."""
    return key ^ ZOBRIST[frm, moved + 7] ^ ZOBRIST[to, moved + 7] ^ ZOBRIST[to, captured + 7] \
        ^ SIDE_KEY


@njit(cache=True)
def repetition(keys, checks, start, top, player, occurrences=3):
    """XiangqiState._judge_repetition for the position keys[top], `player` to move there, with
    keys[start..top] the positions since the last capture and checks[i] whether the move into
    keys[i] gave check. ONGOING unless this is the position's third occurrence (or the
    `occurrences`-th: a search may judge a cycle the first time it closes); then the cycle
    since its first occurrence decides: a side that checked with each of its moves there
    (perpetual check) loses, unless both did; otherwise a draw."""
    key = keys[top]
    first = top
    count = 1
    for i in range(top - 2, start - 1, -2):  # the same side to move: every other position
        if keys[i] == key:
            count += 1
            first = i
    if count < occurrences:
        return ONGOING
    perpetual_red = perpetual_black = True
    for i in range(first + 1, top + 1):
        # The move into keys[i] was made by the side not to move there.
        mover = player if (top - i) % 2 == 1 else 1 - player
        if not checks[i]:
            if mover == 0:
                perpetual_red = False
            else:
                perpetual_black = False
    if perpetual_red == perpetual_black:
        return DRAW
    return 1 if perpetual_red else 0


@njit(cache=True)
def _has_legal(board, player, scratch):
    n = _pseudo(board, player, scratch)
    general = general_square(board, player)
    for i in range(n):
        if is_safe(board, player, general, scratch[i, 0], scratch[i, 1]):
            return True
    return False


@njit(cache=True)
def judge(board, player, plies, max_plies, keys, checks, start, top, scratch):
    """XiangqiState.apply's verdict on the position just reached, `player` to move: a side
    without a legal move has lost, then a threefold repetition, then the ply cap draws.
    ONGOING, DRAW or the winner."""
    if not _has_legal(board, player, scratch):
        return 1 - player
    verdict = repetition(keys, checks, start, top, player)
    if verdict != ONGOING:
        return verdict
    if plies >= max_plies:
        return DRAW
    return ONGOING


@njit(cache=True)
def history_keys(rows, room):
    """Keys of a game's positions given as rows of 90 cells + the side to move, with `room`
    more slots for positions still to come."""
    keys = np.zeros(rows.shape[0] + room, dtype=np.int64)
    for i in range(rows.shape[0]):
        keys[i] = position_key(rows[i, :90], rows[i, 90])
    return keys


# --- a random game -------------------------------------------------------------------------------

@njit(cache=True)
def _random_game(rows, checks_so_far, plies, max_plies, seed, trace):
    """Play uniformly random legal moves from the last of `rows` (the positions since the last
    capture, as `XiangqiState.history`) to the end; return (winner or DRAW, moves played).
    The moves go to `trace` as from * 90 + to while it has room."""
    np.random.seed(seed)  # numba's own generator: per thread, independent of numpy's
    top = rows.shape[0] - 1
    keys = history_keys(rows, max_plies - plies + 1)
    checks = np.zeros(keys.shape[0], dtype=np.bool_)
    checks[:top + 1] = checks_so_far
    board = rows[top, :90].copy()
    player = np.int64(rows[top, 90])
    start = 0
    key = keys[top]
    moves = np.empty((MAX_MOVES, 2), dtype=np.int16)
    played = 0
    while True:
        # A uniformly random legal move: draw pseudo-legal moves without replacement until one
        # is legal (the first legal one of a random order is uniform over the legal moves, and
        # most pseudo-legal moves are legal). None legal: the side to move has lost.
        n = _pseudo(board, player, moves)
        general = general_square(board, player)
        chosen = -1
        while n > 0:
            i = np.random.randint(0, n)
            if is_safe(board, player, general, moves[i, 0], moves[i, 1]):
                chosen = i
                break
            n -= 1
            moves[i, 0] = moves[n, 0]
            moves[i, 1] = moves[n, 1]
        if chosen < 0:
            return 1 - player, played
        # The rest of `judge`, in its order, now that a legal move is known to exist.
        verdict = repetition(keys, checks, start, top, player)
        if verdict != ONGOING:
            return verdict, played
        if plies >= max_plies:
            return DRAW, played
        frm = moves[chosen, 0]
        to = moves[chosen, 1]
        captured = play(board, frm, to)
        key = next_key(key, board[to], frm, to, captured)
        player = 1 - player
        plies += 1
        top += 1
        if captured != 0:
            start = top  # positions before a capture cannot recur
        keys[top] = key
        checks[top] = in_check(board, player)
        if played < trace.shape[0]:
            trace[played] = frm * 90 + to
        played += 1


# --- network input -------------------------------------------------------------------------------

@njit(cache=True)
def _encode(rows, players, out):
    """encode.network_input for each row's board (90 cells) from players[i]'s seat."""
    for i in range(rows.shape[0]):
        red = players[i] == 0
        for sq in range(90):
            cell = rows[i, sq]
            if cell == 0:
                continue
            r = sq // 9
            c = sq % 9
            # Red reads the rows from its back rank up; black turns the board 180 degrees.
            row = 9 - r if red else r
            col = c if red else 8 - c
            own = cell if red else -cell
            out[i, own - 1 if own > 0 else 6 - own, row, col] = 1.0


# --- Python-facing -------------------------------------------------------------------------------

def legal_moves(board: list[int], player: int) -> list[tuple[int, int]]:
    """The kernel's legal (from, to) moves, in generation order (tests compare as sets)."""
    out = np.empty((MAX_MOVES, 2), dtype=np.int16)
    n = legal(np.asarray(board, dtype=np.int8), player, out)
    return [(int(out[i, 0]), int(out[i, 1])) for i in range(n)]


def perft(board: list[int], player: int, depth: int) -> int:
    """Leaf count `depth` plies deep, as rules.perft counts it, in one compiled call."""
    if depth <= 0:
        return 1
    return int(_perft(np.asarray(board, dtype=np.int8), player, depth))


def history_rows(state) -> np.ndarray:
    """`state.history` (positions since the last capture, as bytes: 90 cells and the side to
    move) as an int8 array of rows, read in one buffer."""
    return np.frombuffer(b"".join(state.history), dtype=np.int8).reshape(-1, SQUARES + 1)


def verdict(state) -> int:
    """`judge` on `state`'s position: ONGOING, DRAW or the winner (tests compare it with the
    State's own verdict after every move)."""
    rows = history_rows(state)
    top = rows.shape[0] - 1
    checks = np.asarray(state.checks, dtype=np.bool_)
    return int(judge(rows[top, :90].copy(), state.player, state.plies,
                     state.game.settings.max_plies, history_keys(rows, 0), checks, 0, top,
                     np.empty((MAX_MOVES, 2), dtype=np.int16)))


def random_playout(state, seed: int,
                   trace_length: int = 0) -> tuple[list[float], list[int]]:
    """One uniformly random game from `state` (not finished) in one compiled call: (returns
    per player; the first `trace_length` moves played, as from * 90 + to). The same seed (taken
    modulo 2**32) gives the same game."""
    trace = np.empty(trace_length, dtype=np.int64)
    winner, played = _random_game(history_rows(state), np.asarray(state.checks, dtype=np.bool_),
                                  state.plies, state.game.settings.max_plies, seed & 0xFFFFFFFF,
                                  trace)
    returns = [0.0, 0.0] if winner == DRAW else [1.0, -1.0] if winner == 0 else [-1.0, 1.0]
    return returns, trace[:min(played, trace_length)].tolist()


def encode_batch(states, players) -> np.ndarray:
    """float32 (n, 14, 10, 9): `states[i].encode(players[i])` for all, in one compiled call."""
    rows = np.frombuffer(b"".join(s.key() for s in states), dtype=np.int8)
    rows = rows.reshape(-1, SQUARES + 1)
    out = np.zeros((len(states), 14, rules.ROWS, rules.COLS), dtype=np.float32)
    _encode(rows, np.asarray(players, dtype=np.int64), out)
    return out


fresh_cache(__name__)  # numba's disk cache notices edits to every file read here
