"""Legal moves and mate/stalemate verdicts agree with Fairy-Stockfish's `xiangqi`."""

import random
import re

import pytest

from boardlab.games.xiangqi import XiangqiGame

sf = pytest.importorskip("pyffish")

UCI = re.compile(r"^([a-i])(\d+)([a-i])(\d+)$")


def to_iccs(uci: str) -> str:
    """Fairy-Stockfish numbers ranks 1-10 from red's side; ICCS 0-9."""
    match = UCI.match(uci)
    assert match, uci
    f1, r1, f2, r2 = match.groups()
    return f"{f1}{int(r1) - 1}{f2}{int(r2) - 1}"


def random_positions(count: int, seed: int):
    """Positions of seeded random games (ply cap 120), every position of each game kept."""
    game = XiangqiGame(max_plies=120)
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.initial_state()
        found.append(state.clone())
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
            found.append(state.clone())
    return found[:count]


def test_legal_moves_equal_fairy_stockfish_on_random_positions():
    positions = random_positions(1200, seed=3)
    compared = finals = 0
    for state in positions:
        if state.is_terminal() and state.end_reason not in ("checkmate",
                                                           "stalemate (a loss in xiangqi)"):
            continue  # ply cap or repetition: the board still has moves for both engines
        fen = state.to_text()
        theirs = sorted(to_iccs(m) for m in sf.legal_moves("xiangqi", fen, []))
        ours = sorted(state.action_to_str(a) for a in
                      (state.legal_actions() if not state.is_terminal() else []))
        assert ours == theirs, fen
        compared += 1
        if not theirs:
            finals += 1
            # Checkmate and stalemate both lose for the side to move in both engines.
            assert sf.game_result("xiangqi", fen, []) == -sf.VALUE_MATE, fen
            assert state.returns()[state.player] == -1.0
    assert compared >= 1000


def test_mates_from_random_games_agree():
    """Random games rarely end in mate; play many short ones to collect a few verdicts."""
    game = XiangqiGame()
    rng = random.Random(7)
    verdicts = 0
    for _ in range(40):
        state = game.initial_state()
        while not state.is_terminal():
            actions = state.legal_actions()
            # Prefer captures to reach sparse, mate-prone positions sooner.
            captures = [a for a in actions if state.is_capture(a)]
            state.apply(rng.choice(captures if captures and rng.random() < 0.7 else actions))
        if state.end_reason.startswith(("checkmate", "stalemate")):
            fen = state.to_text()
            assert sf.legal_moves("xiangqi", fen, []) == [], fen
            assert sf.game_result("xiangqi", fen, []) == -sf.VALUE_MATE, fen
            verdicts += 1
    assert verdicts >= 5
