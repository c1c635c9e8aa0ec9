"""The UCI (minichess) / UCCI (xiangqi) engine bridge: scripted sessions and bad input."""

from __future__ import annotations

import argparse
import io
import random
import subprocess
import sys
import time

import pytest

from boardlab.core.registry import make_game
from boardlab.interop.cli import add_uci_parser
from boardlab.interop.uci import Engine, run


def session(game: str, agent: str, *lines: str) -> list[str]:
    """Feed `lines` to the engine through run() and return its reply lines."""
    out = io.StringIO()
    assert run(game, agent, io.StringIO("".join(line + "\n" for line in lines)), out) == 0
    return out.getvalue().splitlines()


def bestmoves(replies: list[str]) -> list[str]:
    return [line.split()[1] for line in replies if line.startswith("bestmove")]


def errors(replies: list[str]) -> list[str]:
    return [line for line in replies if line.startswith("info string error:")]


def test_uci_handshake_and_isready() -> None:
    replies = session("minichess", "random", "uci", "isready")
    assert replies[0].startswith("id name BoardLab minichess")
    assert replies[1].startswith("id author")
    assert replies[2:] == ["uciok", "readyok"]


def test_ucci_handshake() -> None:
    replies = session("xiangqi", "random", "ucci")
    assert replies[-1] == "ucciok"


def test_minichess_bestmove_is_legal_in_the_position_given() -> None:
    replies = session("minichess", "minimax:depth=2", "ucinewgame",
                      "position startpos moves a2a3 e5e4", "go depth 2")
    [move] = bestmoves(replies)
    state = make_game("minichess").initial_state()
    for text in ("a2a3", "e5e4"):
        state.apply(state.str_to_action(text))
    assert state.str_to_action(move) in state.legal_actions()
    assert any(line.startswith("info depth 2") for line in replies)


def test_xiangqi_bestmove_in_iccs_from_a_fen() -> None:
    fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"
    replies = session("xiangqi", "minimax:depth=1", "ucci", f"position fen {fen}",
                      "go time 60000 increment 0")
    [move] = bestmoves(replies)
    state = make_game("xiangqi").state_from_text(fen)
    assert len(move) == 4 and state.str_to_action(move) in state.legal_actions()


def test_mate_in_one_is_found() -> None:
    # Minichess is won by a king capture on offer: two rooks box the king on a6 in one move
    # (Rb3-a3 or Rb4-a4), after which every black reply leaves the king to be taken.
    fen = "k4/5/1R3/1R3/5/4K w - - 0 1"
    replies = session("minichess", "minimax:depth=3", f"position fen {fen}", "go depth 3")
    [move] = bestmoves(replies)
    state = make_game("minichess").state_from_text(fen)
    state.apply(state.str_to_action(move))
    for reply in state.legal_actions():
        after = state.child(reply)
        assert after.is_terminal() and after.returns()[0] == 1.0


def test_finished_minichess_game_answers_bestmove_none() -> None:
    # The black king already taken is not a position; a game played out to its end is.
    game = make_game("minichess")
    ended = game.initial_state()
    rng = random.Random(0)
    moves = []
    while not ended.is_terminal():
        action = rng.choice(ended.legal_actions())
        moves.append(ended.action_to_str(action))
        ended.apply(action)
    replies = session("minichess", "random", "position startpos moves " + " ".join(moves),
                      "go")
    assert replies == ["bestmove (none)"]


def test_mated_xiangqi_side_answers_nobestmove() -> None:
    # Black's general on d9 faces a red chariot on d0 with nowhere to go: the game is over.
    replies = session("xiangqi", "random", "ucci",
                      "position fen 3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1", "go depth 1")
    assert replies[-1] == "nobestmove"


@pytest.mark.parametrize("line, says", [
    ("position startpos moves a2a9", "move 1 (a2a9)"),
    ("position fen not/a/fen", "fen"),
    ("position", "startpos"),
    ("position somewhere", "neither"),
    ("go depth two", "whole number"),
    ("go depth 0", "out of range"),
    ("go sideways", "unknown argument"),
    ("xyzzy", "unknown command"),
])
def test_malformed_line_gets_one_error_line_and_the_engine_carries_on(line: str,
                                                                      says: str) -> None:
    replies = session("minichess", "random", line, "isready", "position startpos", "go")
    [error] = errors(replies)
    assert says.lower() in error.lower()
    assert "readyok" in replies and len(bestmoves(replies)) == 1


def test_bad_position_keeps_the_previous_one() -> None:
    replies = session("minichess", "minimax:depth=1", "position startpos moves a2a3",
                      "position startpos moves a2a3 a2a3", "go depth 1")
    assert len(errors(replies)) == 1
    state = make_game("minichess").initial_state()
    state.apply(state.str_to_action("a2a3"))
    assert state.str_to_action(bestmoves(replies)[0]) in state.legal_actions()


def test_stop_ends_an_infinite_search_with_a_bestmove() -> None:
    out = io.StringIO()
    engine = Engine(make_game("xiangqi"), "minimax:depth=30,kernel=false", out)
    engine.handle("position startpos")
    engine.handle("go infinite")
    time.sleep(0.3)
    started = time.perf_counter()
    engine.handle("stop")
    assert time.perf_counter() - started < 5
    assert len(bestmoves(out.getvalue().splitlines())) == 1


def test_isready_is_answered_during_a_search() -> None:
    out = io.StringIO()
    engine = Engine(make_game("xiangqi"), "minimax:depth=30,kernel=false", out)
    engine.handle("go infinite")
    engine.handle("isready")
    assert "readyok" in out.getvalue().splitlines()
    assert engine.handle("quit") is False
    assert len(bestmoves(out.getvalue().splitlines())) == 1


def test_cli_parser_runs_the_engine(monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser(prog="boardlab")
    add_uci_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["uci", "minichess", "random", "--seed", "3"])
    monkeypatch.setattr(sys, "stdin", io.StringIO("uci\nquit\n"))
    assert args.run(args) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "uciok"


def test_subprocess_session_speaks_uci_line_by_line() -> None:
    engine = subprocess.Popen([sys.executable, "-m", "boardlab.interop.uci", "minichess",
                               "minimax:depth=2"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True, bufsize=1)
    assert engine.stdin is not None and engine.stdout is not None

    def ask(line: str, until: str) -> list[str]:
        engine.stdin.write(line + "\n")
        engine.stdin.flush()
        got = []
        while not got or not got[-1].startswith(until):
            got.append(engine.stdout.readline().strip())
        return got

    try:
        assert ask("uci", "uciok")[-1] == "uciok"
        assert ask("isready", "readyok") == ["readyok"]
        engine.stdin.write("position startpos moves b2b3\n")
        reply = ask("go movetime 500", "bestmove")
        assert reply[-1].startswith("bestmove ")
        assert ask("garbage here", "info string error")[-1].startswith("info string error:")
        engine.stdin.write("quit\n")
        engine.stdin.flush()
        assert engine.wait(timeout=10) == 0
    finally:
        if engine.poll() is None:
            engine.kill()
