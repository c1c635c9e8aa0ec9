"""Jungle dark chess (simplified 斗兽棋 with face-down pieces, 7 rows x 8 columns), seed 000.

The exact rules are in README.md beside this file (decided in
docs/design.md#jungle-dark-chess-seed-000). In short: each side
has its eight animals face down on its home row; a turn reveals one of your face-down pieces or
moves a revealed one a square orthogonally. A face-down piece's strength is drawn when it is
revealed, uniformly from its side's strengths not yet seen: a chance node, which equals a hidden
shuffle and lets search take the exact expectation.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...core.benchcases import BenchCases
from ...core.game import CHANCE, TERMINAL, IllegalActionError, ParseError, check_action, slots_clone
from ...render import Drawable
from ..chesslike import board_field, cell_letter, own_piece, parse_board_field
from .common import JungleGame, JungleSettings, JungleState, parse_counts
from .notation import LETTER_OF, LETTERS, parse_square, sq_name
from .pieces import (
    ANIMAL_LETTERS,
    ANIMAL_NAMES,
    LETTER_TO_STRENGTH,
    NAME_TO_STRENGTH,
    can_capture,
    square_name,
)
from .rules import (ALL_STRENGTHS_MASK, COLS, DIRECTIONS, HIDDEN, NEIGHBOURS, NUM_ACTIONS,
                    NUM_REVEALS, ROWS, SQUARES, decode_move, move_action, owner_of)


@dataclass(frozen=True)
class JungleDarkSettings(JungleSettings):
    reveal_is_progress: bool = True
    """Whether a reveal, like a capture, restarts the count (OpenSpiel's banqi does the same)."""


class JungleDarkGame(JungleGame):
    name = "jungle"
    Settings = JungleDarkSettings
    course_project = "000 Jungle dark chess"
    action_count = NUM_ACTIONS
    has_chance = True
    quiet_runs = 17

    def encode_batch(self, states, players) -> np.ndarray:
        from .encode import network_inputs

        return network_inputs(list(states), list(players))

    def initial_state(self, seed: int | None = None) -> "JungleDarkState":
        board = [0] * SQUARES
        for c in range(COLS):
            board[c] = HIDDEN
            board[(ROWS - 1) * COLS + c] = -HIDDEN
        return JungleDarkState(self, board, player=0,
                               hidden=[ALL_STRENGTHS_MASK, ALL_STRENGTHS_MASK])

    def state_from_text(self, text: str) -> "JungleDarkState":
        return parse_position(self, text)

    def bench_cases(self) -> BenchCases:
        """Alpha-beta one ply deeper than the default: Jungle's nodes are cheap."""
        return BenchCases(alphabeta_depth=(2, 3))

    def compiled_minimax(self, evaluator: str):
        """The numba search (kernels.py) for the minimax evaluators; None for the others."""
        from . import kernels

        weights = kernels.EVALUATION_WEIGHTS.get(self.evaluator_name(evaluator))
        if weights is None:
            return None

        def search(state, root_actions, depth, player, max_nodes):
            best, value, nodes, completed = kernels.compiled_search(
                state, depth, player, weights[0], weights[1], root_actions, max_nodes,
                weights[2])
            return root_actions.index(best), value, nodes, completed

        return search


class JungleDarkState(Drawable, JungleState):
    __slots__ = ("game", "board", "player", "hidden", "pending", "no_capture", "plies",
                 "winner", "_legal")

    def __init__(self, game: JungleDarkGame, board: list[int], player: int, hidden: list[int],
                 no_capture: int = 0, plies: int = 0) -> None:
        super().__init__(game, board, player, no_capture, plies)
        self.hidden = hidden
        """hidden[p]: bitmask of the strengths of p's face-down pieces (bit k = strength k)."""
        self.pending: tuple[int, int] | None = None
        """At a chance node: (from square, to square); from == to for a reveal."""

    # --- whose turn ----------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.winner is not None:
            return TERMINAL
        if self.pending is not None:
            return CHANCE
        return self.player

    # --- actions -------------------------------------------------------------------------------
    def legal_actions(self) -> list[int]:
        if self.pending is not None:  # a chance node (never a finished game's)
            return [k for k, _ in self.chance_outcomes()]
        return JungleState.legal_actions(self)

    def actions_of(self, player: int) -> list[int]:
        """The actions `player` would have if it were to move now (mobility, heuristics)."""
        board = self.board
        sign = 1 if player == 0 else -1
        reveals: list[int] = []
        moves: list[int] = []
        for sq in range(SQUARES):
            cell = board[sq] * sign
            if cell <= 0:
                continue
            if cell == HIDDEN:
                reveals.append(sq)
                continue
            for d, to in NEIGHBOURS[sq]:
                target = board[to] * sign
                if target == 0 or target == -HIDDEN:
                    moves.append(NUM_REVEALS + sq * 4 + d)
                elif target < 0 and (cell == -target or can_capture(cell, -target)):
                    moves.append(NUM_REVEALS + sq * 4 + d)
        return reveals + moves

    def has_action(self, player: int) -> bool:
        """Whether `player` has any legal action (stops at the first one found)."""
        board = self.board
        sign = 1 if player == 0 else -1
        for sq in range(SQUARES):
            cell = board[sq] * sign
            if cell <= 0:
                continue
            if cell == HIDDEN:
                return True
            for _, to in NEIGHBOURS[sq]:
                target = board[to] * sign
                if target == 0 or target == -HIDDEN or (
                        target < 0 and (cell == -target or can_capture(cell, -target))):
                    return True
        return False

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.pending is None:
            return super().chance_outcomes()
        _, to = self.pending
        owner = owner_of(self.board[to])
        strengths = [k for k in range(1, 9) if self.hidden[owner] >> k & 1]
        p = 1.0 / len(strengths)
        return [(k, p) for k in strengths]

    def apply(self, action: int) -> None:
        if self.pending is not None:
            self._resolve_chance(action)
            return
        check_action(self, action)
        self._legal = None
        self.plies += 1
        if action < NUM_REVEALS:
            self.pending = (action, action)
            return
        frm, to = decode_move(action)
        target = self.board[to]
        if target in (HIDDEN, -HIDDEN):
            self.pending = (frm, to)  # a blind attack: the defender is revealed first
            return
        attacker = abs(self.board[frm])
        if target == 0:
            self.board[to] = self.board[frm]
            self.board[frm] = 0
            self._end_turn(progress=False)
        elif can_capture(attacker, abs(target)):
            self.board[to] = self.board[frm]
            self.board[frm] = 0
            self._end_turn(progress=True)
        else:  # equal strengths: both are destroyed (the only other legal case)
            self.board[to] = 0
            self.board[frm] = 0
            self._end_turn(progress=True)

    def _resolve_chance(self, strength: int) -> None:
        assert self.pending is not None
        frm, to = self.pending
        cell = self.board[to]
        owner = owner_of(cell)
        if not (isinstance(strength, (int, np.integer)) and 1 <= strength <= 8
                and self.hidden[owner] >> strength & 1):
            raise IllegalActionError(
                f"chance outcome {strength!r} is not a hidden strength of player {owner} "
                f"(hidden: {self._pool_text(owner)}) in:\n{self}")
        strength = int(strength)
        self.hidden[owner] &= ~(1 << strength)
        sign = 1 if owner == 0 else -1
        self.board[to] = sign * strength
        self.pending = None
        if frm == to:
            self._end_turn(progress=self.game.settings.reveal_is_progress)
            return
        attacker = abs(self.board[frm])
        if can_capture(attacker, strength):
            self.board[to] = self.board[frm]
            self.board[frm] = 0
        elif attacker == strength:
            self.board[to] = 0
            self.board[frm] = 0
        else:  # the defender is stronger: the attacker dies, the defender stays revealed
            self.board[frm] = 0
        self._end_turn(progress=True)

    def _end_turn(self, progress: bool) -> None:
        """Finish a ply; `progress`: a capture (a capture, or a reveal if it counts)."""
        self.no_capture = 0 if progress else self.no_capture + 1
        mover, opponent = self.player, 1 - self.player
        self.player = opponent
        self._legal = None
        count = self.piece_counts()
        if count[mover] == 0 and count[opponent] == 0:
            self.winner = -1
        elif count[opponent] == 0:
            self.winner = mover
        elif count[mover] == 0:
            self.winner = opponent
        elif self.no_capture >= self.game.settings.no_capture_limit:
            self.winner = -1
        elif not self.has_action(opponent):
            self.winner = mover  # no legal action on your turn loses

    clone = slots_clone(__slots__, copied=("board", "hidden"))  # _legal: never changed in place

    # --- queries used by heuristics, encodings and rewards ----------------------------------------
    def piece_counts(self) -> tuple[int, int]:
        zero = sum(1 for cell in self.board if cell > 0)
        return zero, sum(1 for cell in self.board if cell < 0)

    def hidden_strengths(self, player: int) -> list[int]:
        """Strengths `player`'s face-down pieces may turn out to have."""
        return [k for k in range(1, 9) if self.hidden[player] >> k & 1]

    def is_capture(self, action: int) -> bool:
        if action < NUM_REVEALS or action >= NUM_ACTIONS:
            return False
        _, to = decode_move(action)
        return self.board[to] != 0

    def key(self):
        return (tuple(self.board), self.player, self.pending, self.hidden[0], self.hidden[1],
                self.no_capture)

    # --- notation ------------------------------------------------------------------------------
    def action_to_str(self, action: int) -> str:
        if self.pending is not None:
            return ANIMAL_NAMES.get(action, f"<bad chance outcome {action}>")
        if not 0 <= action < NUM_ACTIONS:
            raise ParseError(f"action id {action} is outside 0..{NUM_ACTIONS - 1}")
        if action < NUM_REVEALS:
            return f"reveal {sq_name(action)}"
        square, direction = divmod(action - NUM_REVEALS, 4)
        r, c = divmod(square, COLS)
        dr, dc = DIRECTIONS[direction]
        if not (0 <= r + dr < ROWS and 0 <= c + dc < COLS):
            return f"{sq_name(square)}-off-board"
        return f"{sq_name(square)}-{square_name(r + dr, c + dc)}"

    def str_to_action(self, text: str) -> int:
        """`reveal b1` (or `?b1`), `b2-b3` / `b2b3` / `b2xb3`; at a chance node an animal."""
        raw = text
        text = text.strip().lower()
        if self.pending is not None:
            if text in NAME_TO_STRENGTH:
                return NAME_TO_STRENGTH[text]
            raise ParseError(f"{raw!r}: at a reveal the outcome is an animal "
                             f"({', '.join(ANIMAL_NAMES.values())})")
        if text.startswith("reveal") or text.startswith("?"):
            square = parse_square(text.removeprefix("reveal").removeprefix("?"))
            action = square
        else:
            cleaned = text.replace("-", "").replace("x", "").replace(" ", "")
            if len(cleaned) != 4:
                raise ParseError(f"{raw!r} is not a Jungle move: write `reveal b1` or `b2-b3`")
            frm, to = parse_square(cleaned[:2]), parse_square(cleaned[2:])
            fr, fc = divmod(frm, COLS)
            tr, tc = divmod(to, COLS)
            try:
                direction = DIRECTIONS.index((tr - fr, tc - fc))
            except ValueError:
                raise IllegalActionError(f"{raw!r}: pieces move one square up, down, left or "
                                         "right") from None
            action = move_action(frm, direction)
        if action not in self.legal_actions():
            raise IllegalActionError(f"{raw!r} is not legal here: {self.why_illegal(action)}")
        return action

    def why_illegal(self, action: int) -> str:
        """A sentence explaining why a well-formed action is illegal in this position."""
        if self.winner is not None:
            return "the game is over"
        if action < NUM_REVEALS:
            _, why = own_piece(self.board, self.player, action, sq_name(action))
            return why or f"the piece on {sq_name(action)} is already face up"
        frm, to = decode_move(action)
        cell, why = own_piece(self.board, self.player, frm, sq_name(frm))
        if why:
            return why
        if cell == HIDDEN:
            return f"the piece on {sq_name(frm)} is face down; reveal it first"
        target = self.board[to] * (1 if self.player == 0 else -1)
        if target > 0:
            return f"{sq_name(to)} holds your own piece"
        return (f"your {ANIMAL_NAMES[cell]} would die attacking the "
                f"{ANIMAL_NAMES[-target]} on {sq_name(to)}")

    def _pool_text(self, player: int) -> str:
        letters = "".join(ANIMAL_LETTERS[k] for k in self.hidden_strengths(player))
        return (letters if player == 0 else letters.lower()) or "-"

    def to_text(self) -> str:
        """`<ranks 7..1> <side to move> <plies without capture> <hidden 0> <hidden 1>`."""
        if self.pending is not None:
            raise ParseError("a position waiting for a chance outcome has no text form")
        field = board_field(self.board, ROWS, COLS, LETTER_OF, row0_at_bottom=True)
        return (f"{field} {self.player} {self.no_capture} "
                f"{self._pool_text(0)} {self._pool_text(1)}")

    def __str__(self) -> str:
        lines = ["    " + "  ".join(chr(ord("a") + c) for c in range(COLS))]
        for r in range(ROWS - 1, -1, -1):
            cells = self.board[r * COLS:(r + 1) * COLS]
            row = [cell_letter(cell, LETTER_OF) if cell else "." for cell in cells]
            lines.append(f" {r + 1}  " + "  ".join(row))
        if self.pending is not None:
            status = f"player {self.player} waits for a reveal on {sq_name(self.pending[1])}"
        else:
            status = self.result_text()
        progress = "capture or reveal" if self.game.settings.reveal_is_progress else "capture"
        lines.append(f"{status}; {self.no_capture}/{self.game.settings.no_capture_limit} plies "
                     f"without {progress}; face down: {self._pool_text(0)} / {self._pool_text(1)}"
                     " (X/x = face-down piece of player 0/1)")
        return "\n".join(lines)



def parse_position(game: JungleDarkGame, text: str) -> JungleDarkState:
    """Inverse of `JungleDarkState.to_text`. The hidden pools may be omitted when every piece
    of a side not on the board face up is still face down (nothing was captured yet)."""
    parts = text.split()
    where = f"jungle position {text!r}"
    if len(parts) not in (3, 5):
        raise ParseError(f"{where}: expected `<ranks> <side 0|1> <plies without capture> "
                         "[<hidden 0> <hidden 1>]`")
    board = parse_board_field(parts[0], ROWS, COLS, LETTERS, where, row0_at_bottom=True)
    to_move, no_capture = parse_counts(parts[1], parts[2], game.settings.no_capture_limit,
                                       where)
    hidden = [0, 0]
    for player in (0, 1):
        sign = 1 if player == 0 else -1
        revealed = [sign * cell for cell in board if 0 < sign * cell < HIDDEN]
        face_down = sum(1 for cell in board if cell == sign * HIDDEN)
        if len(set(revealed)) != len(revealed):
            raise ParseError(f"{where}: player {player} has the same animal twice face up")
        if len(revealed) + face_down > 8:
            raise ParseError(f"{where}: player {player} has more than 8 pieces")
        if len(parts) == 5:
            pool_text = parts[3 + player]
            pool = set()
            for char in ("" if pool_text == "-" else pool_text.upper()):
                if char not in LETTER_TO_STRENGTH:
                    raise ParseError(f"{where}: {char!r} in player {player}'s hidden "
                                     "strengths is no animal")
                pool.add(LETTER_TO_STRENGTH[char])
        else:
            pool = set(range(1, 9)) - set(revealed)
        if pool & set(revealed):
            raise ParseError(f"{where}: player {player}'s hidden strengths include an "
                             "animal already face up")
        if len(pool) != face_down:
            raise ParseError(f"{where}: player {player} has {face_down} face-down pieces but "
                             f"{len(pool)} hidden strengths; give them as the last two fields")
        hidden[player] = sum(1 << k for k in pool)
    state = JungleDarkState(game, board, player=to_move, hidden=hidden, no_capture=no_capture)
    counts = state.piece_counts()
    if counts[0] == 0 or counts[1] == 0:
        raise ParseError(f"{where}: a side without pieces has already lost")
    if not state.actions_of(state.player):
        state.winner = 1 - state.player
    return state
