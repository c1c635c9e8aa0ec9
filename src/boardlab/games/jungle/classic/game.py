"""Classic Jungle (斗兽棋, Dou Shou Qi): the open 7 x 9 game with dens, traps and two rivers.

The exact rules chosen, and the common variations not chosen, are in README.md beside this
file (rules.py holds the board's tables, notation.py squares as text, encode.py the network
input). In short: each side has the eight animals of `pieces.py`; a move is one square
orthogonally, or a lion's or tiger's jump across a river; entering the enemy den wins.
"""

from __future__ import annotations

from dataclasses import dataclass

from ....core.game import IllegalActionError, ParseError, check_action, slots_clone
from ....render import Drawable
from ...chesslike import board_field, cell_letter, own_piece, parse_board_field
from ..common import JungleGame, JungleSettings, JungleState, parse_counts
from ..pieces import ANIMAL_LETTERS, ANIMAL_NAMES, LETTER_TO_STRENGTH, LION, RAT, TIGER
from .notation import START_TEXT, parse_square, sq_name
from .rules import (COLS, DENS, DIRECTION_NAMES, IS_WATER, JUMP, JUMPERS, NUM_ACTIONS, ROWS,
                    SQUARES, STEP, TRAP_OWNER, ZOBRIST, ZOBRIST_SIDE, captures, position_hash)


@dataclass(frozen=True)
class JungleClassicSettings(JungleSettings):
    no_capture_limit: int = 100
    """Plies in a row without a capture after which the game is drawn."""
    repetition_draw: bool = True
    """Whether the third occurrence of a position (board and side to move) is a draw."""


class JungleClassicGame(JungleGame):
    name = "jungle-classic"
    Settings = JungleClassicSettings
    action_count = NUM_ACTIONS
    quiet_runs = 16
    """At most 15 captures end a game (the 15th empties a side); each may follow
    no_capture_limit quiet plies."""

    def initial_state(self, seed: int | None = None) -> "JungleClassicState":
        return parse_position(self, START_TEXT)

    def state_from_text(self, text: str) -> "JungleClassicState":
        return parse_position(self, text)


class JungleClassicState(Drawable, JungleState):
    __slots__ = ("game", "board", "player", "no_capture", "plies", "winner", "hash",
                 "history", "counts", "_legal")

    def __init__(self, game: JungleClassicGame, board: list[int], player: int,
                 no_capture: int = 0, plies: int = 0) -> None:
        super().__init__(game, board, player, no_capture, plies)
        self.hash = position_hash(board, player)
        self.history = [self.hash]
        """Hashes of the positions since the last capture (a capture makes them unreachable)."""
        self.counts = [sum(1 for cell in board if cell > 0), sum(1 for cell in board if cell < 0)]

    # --- actions -------------------------------------------------------------------------------
    def actions_of(self, player: int) -> list[int]:
        """The moves `player` would have if it were to move now, sorted."""
        board = self.board
        sign = 1 if player == 0 else -1
        own_den = DENS[player]
        actions: list[int] = []
        for sq in range(SQUARES):
            rank = board[sq] * sign
            if rank <= 0:
                continue
            steps = STEP[sq]
            for d in range(4):
                to = steps[d]
                if to < 0 or to == own_den:
                    continue
                if IS_WATER[to]:
                    if rank == RAT:
                        target = board[to] * sign
                        # Only a rat already in the water may take a rat in the water.
                        if target == 0 or (target == -RAT and IS_WATER[sq]):
                            actions.append(sq * 4 + d)
                    elif rank == LION or rank == TIGER:
                        landing, crossed = JUMP[sq][d]  # type: ignore[misc]
                        if any(board[w] for w in crossed):
                            continue  # a rat (either side's) in the way blocks the jump
                        target = board[landing] * sign
                        if target == 0 or (target < 0 and captures(rank, -target, landing,
                                                                     player)):
                            actions.append(sq * 4 + d)
                    continue
                target = board[to] * sign
                if target == 0:
                    actions.append(sq * 4 + d)
                elif target < 0 and not IS_WATER[sq] and captures(rank, -target, to, player):
                    actions.append(sq * 4 + d)
        return actions

    def destination(self, action: int) -> int:
        """The square the move lands on: the neighbour, or beyond the river for a jump."""
        square, direction = divmod(action, 4)
        to = STEP[square][direction]
        if to >= 0 and IS_WATER[to] and abs(self.board[square]) in JUMPERS:
            return JUMP[square][direction][0]  # type: ignore[index]
        return to

    def apply(self, action: int) -> None:
        check_action(self, action)
        frm = action >> 2
        to = self.destination(action)
        board = self.board
        mover, opponent = self.player, 1 - self.player
        piece, captured = board[frm], board[to]
        board[to], board[frm] = piece, 0
        self.hash ^= (ZOBRIST[frm][piece + 8] ^ ZOBRIST[to][piece + 8]
                      ^ ZOBRIST[to][captured + 8] ^ ZOBRIST_SIDE)
        self.player = opponent
        self.plies += 1
        self._legal = None
        if captured:
            self.no_capture = 0
            self.counts[opponent] -= 1
            self.history = [self.hash]
        else:
            self.no_capture += 1
            self.history.append(self.hash)
        if to == DENS[opponent] or self.counts[opponent] == 0:
            self.winner = mover
            return
        self._legal = self.actions_of(opponent)
        if not self._legal:
            self.winner = mover  # no legal move on your turn loses
        elif self.game.settings.repetition_draw and self.history.count(self.hash) >= 3:
            self.winner = -1
        elif self.no_capture >= self.game.settings.no_capture_limit:
            self.winner = -1

    # _legal is never mutated in place, so it can be shared
    clone = slots_clone(__slots__, copied=("board", "history", "counts"))

    # --- outcome -------------------------------------------------------------------------------
    def piece_counts(self) -> tuple[int, int]:
        return self.counts[0], self.counts[1]

    def repetitions(self) -> int:
        """How often the current position has occurred since the last capture (1 = first)."""
        return self.history.count(self.hash)

    def is_capture(self, action: int) -> bool:
        if not 0 <= action < NUM_ACTIONS:
            return False
        to = self.destination(action)
        return to >= 0 and self.board[to] != 0

    def key(self):
        return (self.hash, self.no_capture, self.repetitions())

    # --- notation ------------------------------------------------------------------------------
    def action_to_str(self, action: int) -> str:
        if not 0 <= action < NUM_ACTIONS:
            raise ParseError(f"action id {action} is outside 0..{NUM_ACTIONS - 1}")
        square = action >> 2
        to = self.destination(action)
        if to < 0:
            return f"{sq_name(square)}-off-board-{DIRECTION_NAMES[action & 3]}"
        return f"{sq_name(square)}-{sq_name(to)}"

    def str_to_action(self, text: str) -> int:
        """`a1-a2`; `a1a2` and `a1xa2` are read too; a jump is written `c3-c7`."""
        raw = text
        cleaned = text.strip().lower().replace("-", "").replace("x", "").replace(" ", "")
        if len(cleaned) != 4:
            raise ParseError(f"{raw!r} is not a Jungle move: write from and to square, "
                             "e.g. `a1-a2`")
        frm, to = parse_square(cleaned[:2]), parse_square(cleaned[2:])
        action = self._action_between(frm, to)
        if action is None:
            raise IllegalActionError(f"{raw!r}: animals move one square north, south, west or "
                                     "east, and only a lion or tiger jumps, straight across a "
                                     "river")
        if action not in self.legal_actions():
            raise IllegalActionError(f"{raw!r} is not legal here: {self.why_illegal(action)}"
                                     f"\n{self}")
        return action

    def _action_between(self, frm: int, to: int) -> int | None:
        for d in range(4):
            if STEP[frm][d] == to:
                return frm * 4 + d
            jump = JUMP[frm][d]
            if jump is not None and jump[0] == to and abs(self.board[frm]) in JUMPERS:
                return frm * 4 + d
        return None

    def why_illegal(self, action: int) -> str:
        """A sentence saying why a well-formed action is illegal in this position."""
        if self.winner is not None:
            return "the game is over"
        frm = action >> 2
        rank, why = own_piece(self.board, self.player, frm, sq_name(frm))
        if why:
            return why
        animal = ANIMAL_NAMES[rank]
        to = self.destination(action)
        if to < 0:
            return f"the {animal} on {sq_name(frm)} would leave the board"
        if to == DENS[self.player]:
            return "a piece may not enter its own den"
        step = STEP[frm][action & 3]
        if IS_WATER[step] and rank != RAT and rank not in JUMPERS:
            return f"only the rat may enter the water; the {animal} may not"
        if rank in JUMPERS and IS_WATER[step]:
            crossed = JUMP[frm][action & 3][1]  # type: ignore[index]
            blockers = [sq_name(w) for w in crossed if self.board[w]]
            if blockers:
                return f"a rat on {blockers[0]} blocks the {animal}'s jump"
        target = self.board[to] * (1 if self.player == 0 else -1)
        if target > 0:
            return f"{sq_name(to)} holds your own {ANIMAL_NAMES[target]}"
        enemy = ANIMAL_NAMES[-target]
        if IS_WATER[frm]:
            return f"a rat in the water cannot take the {enemy} on land at {sq_name(to)}"
        if IS_WATER[to]:
            return f"the {enemy} in the water at {sq_name(to)} can only be taken by a rat " \
                   "in the water"
        return f"the {animal} cannot take the {enemy} on {sq_name(to)}"

    def to_text(self) -> str:
        """`<ranks 9..1> <side to move> <plies without capture>` (README.md)."""
        field = board_field(self.board, ROWS, COLS, ANIMAL_LETTERS, row0_at_bottom=True)
        return f"{field} {self.player} {self.no_capture}"

    def __str__(self) -> str:
        lines = ["    " + " ".join(chr(ord("a") + c) for c in range(COLS))]
        for r in range(ROWS - 1, -1, -1):
            row = []
            for c in range(COLS):
                sq = r * COLS + c
                cell = self.board[sq]
                if cell:
                    row.append(cell_letter(cell, ANIMAL_LETTERS))
                elif IS_WATER[sq]:
                    row.append("~")
                elif sq in DENS:
                    row.append("@")
                elif TRAP_OWNER[sq] >= 0:
                    row.append("#")
                else:
                    row.append(".")
            lines.append(f" {r + 1}  " + " ".join(row))
        limit = self.game.settings.no_capture_limit
        lines.append(f"{self.result_text()}; {self.no_capture}/{limit} plies without capture; "
                     "~ water, # trap, @ den; upper case player 0 (den d1), lower case player 1 "
                     "(den d9)")
        return "\n".join(lines)



def parse_position(game: JungleClassicGame, text: str) -> JungleClassicState:
    """Inverse of `JungleClassicState.to_text`; ParseError naming what is wrong."""
    if not isinstance(text, str):
        raise ParseError(f"jungle-classic position {text!r} is not text")
    parts = text.split()
    where = f"jungle-classic position {text!r}"
    if len(parts) not in (2, 3):
        raise ParseError(f"{where}: expected `<ranks 9..1> <side to move 0|1> "
                         "[<plies without capture>]`")
    board = parse_board_field(parts[0], ROWS, COLS, LETTER_TO_STRENGTH, where,
                              row0_at_bottom=True)
    to_move, no_capture = parse_counts(parts[1], parts[2] if len(parts) == 3 else None,
                                       game.settings.no_capture_limit, where)
    for player, sign in ((0, 1), (1, -1)):
        ranks_seen = [sign * cell for cell in board if sign * cell > 0]
        if len(set(ranks_seen)) != len(ranks_seen):
            raise ParseError(f"{where}: player {player} has the same animal twice")
        if not ranks_seen:
            raise ParseError(f"{where}: player {player} has no pieces and has already lost")
    for sq, cell in enumerate(board):
        if cell == 0:
            continue
        owner = 0 if cell > 0 else 1
        if IS_WATER[sq] and abs(cell) != RAT:
            raise ParseError(f"{where}: the {ANIMAL_NAMES[abs(cell)]} on {sq_name(sq)} stands "
                             "in the water, where only a rat may go")
        if sq == DENS[owner]:
            raise ParseError(f"{where}: player {owner}'s {ANIMAL_NAMES[abs(cell)]} stands in "
                             "its own den, which it may not enter")
        if sq == DENS[1 - owner]:
            raise ParseError(f"{where}: player {owner}'s {ANIMAL_NAMES[abs(cell)]} is in the "
                             "enemy den: the game is already over")
    state = JungleClassicState(game, board, player=to_move, no_capture=no_capture)
    if not state.legal_actions():
        state.winner = 1 - state.player
    return state
