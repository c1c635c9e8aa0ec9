"""The legality shortcut of rules.legal_moves (moves off the general's exposed squares are not
tried on the board) gives exactly the moves of trying every pseudo-legal move."""

import random

from boardlab.games.xiangqi import XiangqiGame, rules


def tried_on_the_board(board: list[int], player: int) -> list[tuple[int, int]]:
    king = rules.general_square(board, player)
    kept = []
    for frm, to in rules.pseudo_moves(board, player):
        moved, captured = board[frm], board[to]
        board[to], board[frm] = moved, 0
        if not rules.is_attacked(board, to if frm == king else king, player):
            kept.append((frm, to))
        board[frm], board[to] = moved, captured
    return kept


def test_shortcut_equals_trying_every_move_over_random_games():
    game = XiangqiGame()
    positions = checks = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = game.initial_state(seed)
        while not state.is_terminal():
            board, player = list(state.board), state.player
            assert rules.legal_moves(board, player) == tried_on_the_board(board, player)
            assert board == state.board  # restored
            positions += 1
            checks += rules.in_check(board, player)
            state.apply(rng.choice(state.legal_actions()))
    assert positions > 5000 and checks > 100  # the games reach many positions in check
