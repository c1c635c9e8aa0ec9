"""Legal moves agree with Fairy-Stockfish loaded with the MiniChess config
(docs/design.md#minichess-fairy-stockfish-config)."""

import random

import pytest

from boardlab.games.minichess import MiniChessGame
from boardlab.games.minichess.engines import FAIRY_STOCKFISH_CONFIG

sf = pytest.importorskip("pyffish")

CONFIG = FAIRY_STOCKFISH_CONFIG


@pytest.fixture(scope="module")
def variant():
    sf.load_variant_config(CONFIG)
    return "i2pminichess"


def test_fairy_stockfish_perft_counts_king_captures_as_moves(variant):
    def perft(fen, depth):
        moves = sf.legal_moves(variant, fen, [])
        if depth == 1:
            return len(moves)
        return sum(perft(sf.get_fen(variant, fen, [m]), depth - 1) for m in moves)
    assert [perft(MiniChessGame().initial_state().to_text(), d) for d in (1, 2, 3)] == \
        [7, 49, 452]


def test_legal_moves_equal_fairy_stockfish_on_random_positions(variant):
    game = MiniChessGame()
    rng = random.Random(4)
    compared = finals = 0
    while compared < 1200:
        state = game.initial_state()
        while True:
            fen = state.to_text()
            theirs = sf.legal_moves(variant, fen, [])
            enemy_king = "k" if state.player == 0 else "K"
            takes_king = any(_piece_on(fen, m[2:4]) == enemy_king for m in theirs)
            if state.is_terminal() and state.winner == state.player:
                # Our game ends where the side to move could take the king; theirs lists it.
                assert takes_king, fen
                finals += 1
                break
            assert not takes_king, fen
            if state.is_terminal():  # adjudicated at the ply limit or no legal move
                break
            ours = sorted(state.action_to_str(a) for a in state.legal_actions())
            assert ours == sorted(theirs), fen
            compared += 1
            state.apply(rng.choice(state.legal_actions()))
    assert finals > 10


def _piece_on(fen: str, square: str) -> str:
    """The piece letter on `square` (e.g. `c6`) of a MiniChess FEN, '' when empty."""
    ranks = fen.split()[0].split("/")
    row = ranks[6 - int(square[1])]
    cells = []
    for char in row:
        cells.extend([""] * int(char) if char.isdigit() else [char])
    return cells["abcde".index(square[0])]
