"""tictactoe: a BoardLab game in a package of its own, found through its `boardlab.games` entry
point (pyproject.toml), so every agent, the arena, the web page, the env wrappers and
training play it with no change to BoardLab.

It starts as tic-tac-toe, the smallest game that uses the whole contract: edit the rules into
your game, then run `pytest` (tests/test_contract.py checks the contract on random games).
The guide: docs/new-game.md in BoardLab.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

import numpy as np

from boardlab import TERMINAL, Game, GameFacts, IllegalActionError, ParseError, State
from boardlab.core.game import Evaluator
from boardlab.core.learning import LearningKit, RewardFunction

SIZE = 3
CELLS = SIZE * SIZE
EMPTY = -1
MARKS = "xo"
"""Player 0 writes x and moves first; player 1 writes o."""
LINES = ([tuple(range(r * SIZE, r * SIZE + SIZE)) for r in range(SIZE)]
         + [tuple(range(c, CELLS, SIZE)) for c in range(SIZE)]
         + [tuple(range(0, CELLS, SIZE + 1)), tuple(range(SIZE - 1, CELLS - 1, SIZE - 1))])
"""The rows, columns and diagonals: three marks of one player on a line win."""


def cell_name(cell: int) -> str:
    """Columns a-c left to right, rows 1-3 top to bottom: cell 0 is a1, cell 8 is c3."""
    return "abc"[cell % SIZE] + str(cell // SIZE + 1)


@dataclass(frozen=True)
class Settings:
    """The game's parameters, given in a spec string (`tictactoe:name=value`). None yet: add
    fields here (with a one-line docstring each, which `boardlab games` and the web form
    show)."""


class TictactoeGame(Game):
    """The rules as a whole: facts, the first position, and the hooks agents ask for."""

    name = "tictactoe"
    Settings = Settings

    @property
    def facts(self) -> GameFacts:
        return GameFacts(num_players=2, num_actions=CELLS, has_chance=False,
                         hidden_information=False, max_length=CELLS)

    def initial_state(self, seed: int | None = None) -> TictactoeState:
        return TictactoeState(self, [EMPTY] * CELLS, player=0)

    def state_from_text(self, text: str) -> TictactoeState:
        """`x.o/.x./... o`: rows top to bottom (`.` empty), then the side to move."""
        rows, _, mover = text.strip().partition(" ")
        board = [MARKS.index(ch) if ch in MARKS else EMPTY for ch in rows.replace("/", "")]
        if len(board) != CELLS or mover not in MARKS or set(rows) - set(MARKS + "./"):
            raise ParseError(f"{text!r} is not a position such as 'x.o/.x./... o'")
        return TictactoeState(self, board, player=MARKS.index(mover))

    @property
    def evaluators(self) -> dict[str, Evaluator]:
        """Heuristics by name for greedy and minimax (`minimax:eval=lines`)."""
        return {"lines": open_lines}

    def learning_kit(self) -> LearningKit:
        """What qlearning and dqn train on: a table key and rewards by the names they ask."""
        result = RewardFunction(action=own_move_reward, reply=reply_reward)
        return LearningKit(table_key=table_key,
                           rewards={"qlearning": result, "dqn": result, "minimax": result})


class TictactoeState(State):
    """A position: the board (EMPTY or the player whose mark stands there) and the mover."""

    def __init__(self, game: TictactoeGame, board: list[int], player: int) -> None:
        self.game, self.board, self.player = game, board, player
        self.winner = next((self.board[line[0]] for line in LINES if self.board[line[0]] != EMPTY
                            and len({self.board[cell] for cell in line}) == 1), None)

    def current_player(self) -> int:
        if self.winner is not None or EMPTY not in self.board:
            return TERMINAL
        return self.player

    def legal_actions(self) -> list[int]:
        if self.is_terminal():
            return []
        return [cell for cell in range(CELLS) if self.board[cell] == EMPTY]

    def apply(self, action: int) -> None:
        if action not in self.legal_actions():
            raise IllegalActionError(f"{self._name(action)} is not legal here (the game is over "
                                     f"or the cell is taken):\n{self}")
        self.board[action] = self.player
        self.player = 1 - self.player
        if any(self.board[line[0]] == 1 - self.player and
               all(self.board[cell] == 1 - self.player for cell in line) for line in LINES):
            self.winner = 1 - self.player  # only the mover can have completed a line

    def clone(self) -> TictactoeState:
        new = TictactoeState.__new__(TictactoeState)
        new.game, new.board, new.player, new.winner = (self.game, self.board.copy(),
                                                       self.player, self.winner)
        return new

    def returns(self) -> list[float]:
        if self.winner is None:
            return [0.0, 0.0]  # a draw, or not over yet
        return [1.0, -1.0] if self.winner == 0 else [-1.0, 1.0]

    def action_to_str(self, action: int) -> str:
        return cell_name(action)

    def str_to_action(self, text: str) -> int:
        names = [cell_name(cell) for cell in range(CELLS)]
        if text.strip().lower() not in names:
            raise ParseError(f"{text!r} is not a cell; cells are a1 .. c3 (column, row)")
        return names.index(text.strip().lower())

    def _name(self, action: int) -> str:
        return cell_name(action) if 0 <= action < CELLS else f"action {action}"

    def to_text(self) -> str:
        rows = ["".join(MARKS[m] if m != EMPTY else "." for m in self.board[r:r + SIZE])
                for r in range(0, CELLS, SIZE)]
        return "/".join(rows) + " " + MARKS[self.player]

    def encode(self, player: int) -> np.ndarray:
        """Network input from `player`'s side: planes of its marks, the other's, the empty
        cells (3 x 3 x 3, values 0 or 1; AlphaZero's convolutions want planes)."""
        board = np.array(self.board).reshape(SIZE, SIZE)
        return np.stack([board == player, board == 1 - player, board == EMPTY]).astype(
            np.float32)

    def key(self) -> tuple[int, ...]:
        return (*self.board, self.player)

    def move_number(self) -> int:
        return CELLS - self.board.count(EMPTY)

    def __str__(self) -> str:
        return "\n".join(" ".join(MARKS[m] if m != EMPTY else "." for m in self.board[r:r + SIZE])
                         for r in range(0, CELLS, SIZE))


def board_of(state: State) -> list[int]:
    """The board of one of this game's states (agents hand hooks a plain `State`)."""
    return cast(TictactoeState, state).board


def open_lines(state: State, player: int) -> float:
    """Lines still open to `player` (no enemy mark), each worth its marks squared, minus the
    same for the opponent: a heuristic for greedy and minimax."""
    board = board_of(state)
    score = 0.0
    for line in LINES:
        marks = [board[cell] for cell in line]
        if 1 - player not in marks:
            score += marks.count(player) ** 2
        if player not in marks:
            score -= marks.count(1 - player) ** 2
    return score


# --- for the learners (Game.learning_kit): a table key, and the result as the only reward ----

def table_key(state: State) -> bytes:
    """An exact key of the position and the mover, for Q-learning's table."""
    return bytes(mark + 1 for mark in board_of(state)) + bytes([cast(TictactoeState, state).player])


def own_move_reward(before: State, action: int, after: State | None) -> float:
    """The mover's reward for its own move: the result if it ended the game; -1 if invalid."""
    if after is None:
        return -1.0
    return after.returns()[before.current_player()]


def reply_reward(before: State, after: State, learner: int) -> float:
    """The learner's reward for the opponent's reply: the result if the reply ended it."""
    return after.returns()[learner]
