"""Seeded Xiangqi games that reach every kind of end, for the kernel and search tests."""

import random

from boardlab.games.xiangqi import XiangqiGame
from boardlab.games.xiangqi.actions import ACTION_FROM, ACTION_OF_MOVE, ACTION_TO

GAME = XiangqiGame()


def repeating_game(seed: int, game: XiangqiGame = GAME) -> list:
    """Every state of a seeded random game in which, for two seeds in three, a side often plays
    back its own last move, so that positions repeat as well as games end by mate and by the
    ply cap."""
    rng = random.Random(seed)
    play_back = (0.0, 0.6, 0.9)[seed % 3]
    state = game.initial_state()
    states = [state.clone()]
    last: dict[int, tuple[int, int]] = {}
    while not state.is_terminal():
        legal = state.legal_actions()
        back = last.get(state.player)
        action = ACTION_OF_MOVE.get((back[1], back[0])) if back else None
        if action not in legal or rng.random() >= play_back:
            action = rng.choice(legal)
        last[state.player] = (ACTION_FROM[action], ACTION_TO[action])
        state.apply(action)
        states.append(state.clone())
    return states


def perpetual_check_game() -> list:
    """Red's chariot checks the general back and forth until the third repetition: red loses."""
    state = GAME.state_from_text("4k4/9/9/9/9/9/9/9/9/3K1R3 w")
    states = [state.clone()]
    for move in ["f0e0", "e9f9", "e0f0", "f9e9"] * 3:
        if state.is_terminal():
            break
        state.apply(state.str_to_action(move))
        states.append(state.clone())
    return states
