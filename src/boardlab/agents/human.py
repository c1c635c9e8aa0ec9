"""A person at the keyboard: moves typed in the game's notation, re-asked until legal."""

from __future__ import annotations

from typing import Callable

from ..core.agent import Agent, Clock
from ..core.game import BoardLabError, Game, State


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
                raise BoardLabError("no more input: the human player left the game") from None
            if text.strip().lower() in ("help", "?", "moves"):
                moves = ", ".join(state.action_to_str(a) for a in state.legal_actions())
                self.output_fn(f"legal moves: {moves}")
                continue
            try:
                return state.str_to_action(text)
            except BoardLabError as error:
                self.output_fn(f"not played: {error}")
