"""A person at the keyboard: moves typed in the game's notation, re-asked until legal.

What a person may type besides a move, here and in `boardlab play` (which adds `undo`):
`help` (the legal moves and these words), `quit` / `exit` (leave the game), `resign`.
Ctrl-D (end of input) leaves the game too: it is said as "you left the game", not as a crash.
"""

from __future__ import annotations

import re
from typing import Callable

from ..core.agent import Agent, Clock
from ..core.game import BoardLabError, Game, State

HELP_WORDS = ("help", "?", "moves")
QUIT_WORDS = ("quit", "exit", "q")
RESIGN_WORDS = ("resign",)
UNDO_WORDS = ("undo", "takeback")
COMMANDS_HELP = ("type a move in notation, or: help (this list and the legal moves), "
                 "undo (take back your last move), resign, quit (or Ctrl-D) to leave")

_POSITION_TAIL = re.compile(r"[,;:]?\s+in (this |the )?position\b.*$")


class LeftGame(BoardLabError):
    """The person quit (or closed the input); the message is what to tell them."""


class Resigned(BoardLabError):
    """The person resigned."""


def command_of(text: str) -> str | None:
    """'help', 'quit', 'resign' or 'undo' when `text` is one of those words, else None."""
    word = text.strip().lower()
    for name, words in (("help", HELP_WORDS), ("quit", QUIT_WORDS),
                        ("resign", RESIGN_WORDS), ("undo", UNDO_WORDS)):
        if word in words:
            return name
    return None


def short_error(error: BaseException) -> str:
    """A game's refusal of a typed move, as one line for a person who sees the board: the
    first line, without the position the game quotes for bug reports (a long position
    string, a board dump)."""
    first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return _POSITION_TAIL.sub("", first).rstrip(" :,;")


def legal_moves_text(state: State) -> str:
    return ", ".join(state.action_to_str(a) for a in state.legal_actions())


class HumanAgent(Agent):
    name = "human"

    def __init__(self, game: Game, settings=None, input_fn: Callable[[str], str] = input,
                 output_fn: Callable[[str], None] = print, **params) -> None:
        super().__init__(game, settings, **params)
        self.input_fn = input_fn
        self.output_fn = output_fn

    def act(self, state: State, clock: Clock) -> int:
        while True:  # the runner shows the board; re-ask until the move is legal
            try:
                text = self.input_fn(f"player {state.current_player()}, your move "
                                     "(`help` lists the legal ones): ")
            except EOFError:
                raise LeftGame("you left the game") from None
            command = command_of(text)
            if command == "help":
                self.output_fn(f"legal moves: {legal_moves_text(state)}")
                continue
            if command == "quit":
                raise LeftGame("you left the game")
            if command == "resign":
                raise Resigned("resigned")
            if command == "undo":  # the match runner cannot take moves back; `play` can
                self.output_fn("undo is not possible here; type a move")
                continue
            try:
                return state.str_to_action(text)
            except BoardLabError as error:
                self.output_fn(f"not played: {short_error(error)}")
