"""The UCI (minichess) / UCCI (xiangqi) engine reader (`boardlab uci`) fed generated lines:
commands with mutated arguments, positions from real games with damaged FENs and moves, and
lines of any text.

The property (issue #15): the engine never raises and never stops on bad input; a line it
cannot use gets an `info string error: ...` answer, and every `go` it accepts is answered
with exactly one `bestmove` (or `nobestmove`).
"""

from __future__ import annotations

import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardlab.core.registry import make_game
from boardlab.interop.uci import Engine
from fuzz_support import COUNTER, fuzz_settings, sample_move_texts, sample_position_texts

ENGINE_GAMES = ["minichess", "xiangqi"]
WORDS = st.sampled_from(["uci", "ucci", "isready", "ucinewgame", "position", "startpos",
                         "fen", "moves", "go", "depth", "movetime", "wtime", "btime", "winc",
                         "binc", "movestogo", "time", "increment", "infinite", "stop",
                         "setoption", "name", "value", "ponderhit", "banmoves", "debug", "on",
                         "-1", "0", "1", "5", "99999999999999999999", "²", "nan", "", "w",
                         "b", "-", "startpos moves"])


@st.composite
def line(draw: st.DrawFn, game: str) -> str:
    fens = sample_position_texts(game)
    moves = sample_move_texts(game)
    kind = draw(st.integers(0, 5))
    if kind == 0:
        tail = draw(st.lists(st.one_of(st.sampled_from(moves), WORDS), max_size=4))
        return " ".join(["position", "startpos", "moves", *tail])
    if kind == 1:
        fen = draw(st.sampled_from(fens)).split()
        if draw(st.booleans()):  # damage the board field itself
            at = draw(st.integers(0, len(fen[0])))
            fen[0] = fen[0][:at] + draw(WORDS) + fen[0][at + draw(st.integers(0, 2)):]
        cut = draw(st.integers(0, len(fen)))
        tail = draw(st.lists(st.one_of(st.sampled_from(moves), WORDS), max_size=3))
        return " ".join(["position", "fen", *fen[:cut], *draw(st.lists(WORDS, max_size=2)),
                         "moves", *tail])
    if kind == 2:
        # a go that is quick to answer (movetime 5 ms) or a malformed one
        args = draw(st.one_of(st.just(["movetime", "5"]), st.just(["depth", "1"]),
                              st.lists(WORDS, max_size=4)))
        if "movetime" not in args and "depth" not in args:
            args += ["movetime", "5"]
        return " ".join(["go", *args])
    if kind == 3:
        return " ".join(draw(st.lists(WORDS, min_size=1, max_size=5)))
    if kind == 4:
        return draw(st.text(max_size=20))
    return draw(st.sampled_from(["uci", "ucci", "isready", "ucinewgame", "stop", "go movetime 5",
                                 "position startpos", "setoption name Hash value 1"]))


@pytest.mark.parametrize("game", ENGINE_GAMES)
def test_the_engine_answers_every_line_and_never_stops_on_bad_input(game: str) -> None:
    built = make_game(game)

    @fuzz_settings(max_examples=90)
    @given(lines=st.lists(line(game), min_size=1, max_size=6))
    def attack(lines: list[str]) -> None:
        out = io.StringIO()
        engine = Engine(built, "random", out)
        for text in lines:
            COUNTER.add("UCI/UCCI reader")
            before = len(out.getvalue().splitlines())
            for part in text.splitlines() or [""]:  # a line never holds a newline on stdin
                assert engine.handle(part) in (True, False)
            engine.wait()
            said = out.getvalue().splitlines()[before:]
            errors = [s for s in said if s.startswith("info string error:")]
            answers = [s for s in said if s.split()[:1] in (["bestmove"], ["nobestmove"])]
            if text.split()[:1] == ["go"] and "\n" not in text and not errors:
                assert len(answers) == 1, f"{text!r} answered {said}"
            if text.split()[:1] == ["quit"]:
                break
        engine.stop()

    attack()


@pytest.mark.parametrize("fen", [
    "kqbnr/ppppp/5/5/PPPPP/RNBQK99999999999999999999 w - - 0 1",  # OverflowError before
    "kqbnr/ppppp/²/5/PPPPP/RNBQK w - - 0 1",
])
def test_a_fen_that_broke_the_parser_gets_an_error_line_and_the_engine_goes_on(fen: str) -> None:
    out = io.StringIO()
    engine = Engine(make_game("minichess"), "random", out)
    assert engine.handle(f"position fen {fen}")
    assert engine.handle("isready")
    said = out.getvalue().splitlines()
    assert said[0].startswith("info string error:") and said[1] == "readyok"
