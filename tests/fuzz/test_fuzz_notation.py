"""Move notation and position text of every registered game, attacked with generated text.

The property (issue #15): `str_to_action` and `state_from_text` either answer or raise a
BoardLabError with a message; never another exception, never a hang. A position text that is
accepted must give a state that works: it prints, its text parses back to the same text, and
random play from it keeps the contract (legal actions at every decision, moves that round-trip).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardlab.core.game import CHANCE, BoardLabError, ParseError, State
from boardlab.core.registry import game_names
from fuzz_support import (documented, fuzz_settings, game_of,
                          random_step, sample_move_texts, sample_position_texts,
                          sample_positions)

GAMES = game_names()

# Characters a move or a FEN is made of, plus the ones that break naive parsers: Unicode
# digits ('²' passes str.isdigit() but not int()), signs, separators and control characters.
NOTATION_CHARS = ("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                  " -x?/:=,.*+#()[]{}'\"\n\t\x00²³١٣¹½Ⅻ⁰éß")
NASTY = ["²", "٣", "-1", "0", "00", "1", "9", "10", "99", str(10 ** 30), "+3", "1e3", "nan",
         "", " ", "\n", ":", "/", "-", "\x00", "é", "hand 0:", "turn", "moves"]
"""Pieces that broke parsers here or elsewhere: Unicode digits, huge and signed numbers,
separators, empty fields, keywords of the Sequence position format."""
UNICODE_DIGITS = "²³¹٣۵१௮"
"""Characters str.isdigit() accepts and int() refuses (²³¹) or reads as another number."""


@st.composite
def mutated(draw: st.DrawFn, corpus: tuple[str, ...]) -> str:
    """A real text with one to four edits (replace, insert, delete a span, cut, duplicate,
    swap an ASCII digit for a Unicode one), at a random character, with a nasty piece or a
    notation character. The edits are
    driven by a seeded `random.Random` that Hypothesis draws, which spreads them far more
    than Hypothesis's own small-value bias would; the failing text is in the error."""
    rng = draw(st.randoms(use_true_random=False))
    text = rng.choice(corpus)
    for _ in range(rng.randint(1, 4)):
        at = rng.randint(0, len(text))
        kind = rng.random()
        piece = (rng.choice(UNICODE_DIGITS) if kind < 0.2 else rng.choice(NASTY) if kind < 0.7
                 else rng.choice(NOTATION_CHARS))
        edit = rng.randrange(6)
        digits = [i for i, char in enumerate(text) if "0" <= char <= "9"]
        if edit == 5 and digits:  # a number field written in other digits
            at = rng.choice(digits)
            text = text[:at] + rng.choice(UNICODE_DIGITS) + text[at + 1:]
        elif edit == 0:
            text = text[:at] + piece + text[at + 1:]
        elif edit == 1:
            text = text[:at] + piece + text[at:]
        elif edit == 2:
            text = text[:at] + text[at + rng.randint(1, 8):]
        elif edit == 3:
            text = text[:at]
        else:
            span = text[at:at + rng.randint(1, 12)]
            where = rng.randint(0, len(text))
            text = text[:where] + span + text[where:]
    return text


BATCH = 6
"""Inputs per Hypothesis example: a batch shares the engine's per-example cost (about 4 ms
here), and a failing batch still shrinks to the one text that fails."""
BATCHES = 125


def batch(strategy: st.SearchStrategy[str]) -> st.SearchStrategy[list[str]]:
    return st.lists(strategy, min_size=BATCH, max_size=BATCH)


def text_for(corpus: tuple[str, ...]) -> st.SearchStrategy[str]:
    return st.one_of(
        mutated(corpus),
        st.text(st.sampled_from(NOTATION_CHARS), max_size=24),
        mutated(corpus),
        st.text(max_size=12),  # any Unicode at all
        mutated(corpus),
    )


def check_usable(state: State, rng: random.Random, plies: int = 12) -> None:
    """An accepted position must work: print, re-parse to the same text, and play on."""
    str(state)
    try:
        text = state.to_text()
    except BoardLabError:  # a chance node has no text form
        text = None
    if text is not None:
        assert state.game.state_from_text(text).to_text() == text
    for _ in range(plies):
        if state.is_terminal():
            assert len(state.returns()) == state.game.num_players
            return
        actions = state.legal_actions()
        assert actions, f"no legal action in an accepted position that is not over:\n{text}"
        action = random_step(state, rng)
        if state.current_player() != CHANCE:
            assert state.str_to_action(state.action_to_str(action)) == action
            state.encode(state.current_player())
        state.apply(action)


@pytest.mark.parametrize("name", GAMES)
def test_move_text_either_parses_or_raises_a_boardlab_error(name: str) -> None:
    positions = [s for s in sample_positions(name) if not s.is_terminal()]
    corpus = sample_move_texts(name)

    @fuzz_settings(max_examples=BATCHES)
    @given(index=st.integers(0, len(positions) - 1), texts=batch(text_for(corpus)))
    def attack(index: int, texts: list[str]) -> None:
        state = positions[index]
        for text in texts:
            action = documented("move notation", state.str_to_action, text)
            if action is not None:
                assert action in state.legal_actions(), f"{text!r} parsed to an illegal {action}"

    attack()


@pytest.mark.parametrize("name", GAMES)
def test_position_text_either_parses_to_a_working_state_or_raises(name: str) -> None:
    game = game_of(name)
    corpus = sample_position_texts(name)
    if not corpus:
        pytest.skip(f"{name} has no position notation")

    @fuzz_settings(max_examples=BATCHES)
    @given(texts=batch(text_for(corpus)), seed=st.integers(0, 3))
    def attack(texts: list[str], seed: int) -> None:
        for text in texts:
            state = documented("position text", game.state_from_text, text)
            if state is not None:
                check_usable(state, random.Random(seed))

    attack()


@pytest.mark.parametrize("name", GAMES)
def test_a_finished_game_refuses_every_move_with_a_boardlab_error(name: str) -> None:
    game = game_of(name)
    finished = [s for s in sample_positions(name) if s.is_terminal()]
    corpus = sample_move_texts(name)
    if not finished:
        pytest.skip(f"no sample game of {name} finished within the sampled plies")

    @fuzz_settings(max_examples=100)
    @given(index=st.integers(0, len(finished) - 1), text=st.sampled_from(corpus))
    def attack(index: int, text: str) -> None:
        state = finished[index]
        assert documented("move notation", state.str_to_action, text) is None
        assert game.num_players >= 1

    attack()


# What the fuzzers found (issue #15), kept as examples: each raised something other than a
# BoardLabError (ValueError, IndexError, OverflowError) or was accepted and then broke play.
EMPTY_SEQUENCE_BOARD = "\n".join(["*........*"] + [".........."] * 8 + ["*........*"])
FOUND = [
    ("minichess", "kqbnr/ppppp/5/5/PPPPP/RNBQK" + "1" * 3 + "0" * 30 + " w - - 0 1"),
    ("xiangqi", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR" + "9" * 25
     + " w - - 0 1"),
    ("minichess", "kqbnr/ppppp/²/5/PPPPP/RNBQK w - - 0 1"),
    ("minichess", "kqbnr/ppppp/5/5/PPPPP/RNBQK w - - 0 ²"),
    ("xiangqi", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 ³"),
    ("jungle", "xxxxxxxx/²/8/8/8/8/XXXXXXXX 0 0"),
    ("jungle", "xxxxxxxx/8/8/8/8/8/XXXXXXXX 0 ²"),
    ("jungle-classic", "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L 0 ²"),
    ("jungle-classic", "l5t/1d3c1/r1p1w1e/7/7/²/E1W1P1R/1C3D1/T5L 0"),
    ("sequence", EMPTY_SEQUENCE_BOARD + "\nturn 0 play\nmoves -1 0"),
    ("sequence", EMPTY_SEQUENCE_BOARD + "\nturn 0 play\nmoves ²"),
    ("sequence", EMPTY_SEQUENCE_BOARD + "\nturn 0 play\n: 2c"),
    ("sequence", EMPTY_SEQUENCE_BOARD + "\nturn 1 play\nhand 1:"),
    ("sequence", EMPTY_SEQUENCE_BOARD + "\nturn 0 draft\ndraft:\ndeck:"),
    ("sequence", EMPTY_SEQUENCE_BOARD + "\nturn ² play"),
    ("sequence", EMPTY_SEQUENCE_BOARD + "\nturn 0 play\nsequences ² 0"),
    ("sequence", EMPTY_SEQUENCE_BOARD + "\nturn 0 play\nhand ²: 2c"),
]
FOUND_MOVES = [
    ("minichess", "4 0 3 ²"),
    ("xiangqi", "h²e2"),
    ("sequence", "7h a²"),
]


@pytest.mark.parametrize("name, text", FOUND)
def test_position_texts_the_fuzzer_found_raise_a_parse_error(name: str, text: str) -> None:
    with pytest.raises(ParseError):
        game_of(name).state_from_text(text)


@pytest.mark.parametrize("name, text", FOUND_MOVES)
def test_move_texts_the_fuzzer_found_raise_a_boardlab_error(name: str, text: str) -> None:
    state = game_of(name).initial_state(0)
    with pytest.raises(BoardLabError):
        state.str_to_action(text)
