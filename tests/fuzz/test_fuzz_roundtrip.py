"""Round trips on positions from random games (issue #15): for every registered game, the
text of a position parses back to the same position, and every legal move's text parses back
to the same move. For hidden-information games the text a player may see (the view's) is
checked too (docs/design.md#hidden-information: an agent only ever holds a view).

What is sampled: seeded uniformly random games played to the end (the default suite caps
xiangqi at 80 and sequence at 90 decisions a game); every 10th decision position is checked
in the default suite (200 games a game), every 3rd with -m slow (1,000 games a game, no cap).
At a checked position: to_text -> state_from_text -> to_text is the identity, the parsed state
has the same player to move and legal actions, and action_to_str -> str_to_action is the
identity on every legal action; at chance nodes the outcomes' texts round-trip too.
"""

from __future__ import annotations

import random

import pytest

from boardlab.core.game import CHANCE, BoardLabError, ParseError, State
from boardlab.core.registry import make_game
from boardlab.core.registry import game_names
from fuzz_support import COUNTER

GAMES = game_names()
DEFAULT_CAPS = {"xiangqi": 80, "sequence": 90}
"""Decisions a game in the default suite: the Python engines' long games cost the most."""


def same_position(state: State, text: str) -> None:
    parsed = state.game.state_from_text(text)
    assert parsed.to_text() == text, f"text round trip changed:\n{text}\n->\n{parsed.to_text()}"
    assert parsed.current_player() == state.current_player(), text
    assert parsed.legal_actions() == state.legal_actions(), text


def check_position(state: State, rng: random.Random) -> int:
    """All round trips at one decision position; the number of texts parsed."""
    for action in state.legal_actions():
        text = state.action_to_str(action)
        assert state.str_to_action(text) == action, f"{text!r} is not {action}"
    parsed = len(state.legal_actions())
    try:
        text = state.to_text()
    except (BoardLabError, NotImplementedError):
        return parsed
    same_position(state, text)
    parsed += 1
    if state.game.facts.hidden_information:
        view = state.view(state.current_player(), rng)
        view_text = view.to_text()
        assert state.game.state_from_text(view_text).to_text() == view_text
        assert view.legal_actions() == state.legal_actions()
        parsed += 1
    return parsed


def check_finished(state: State) -> int:
    """A finished game's text parses back to the same text and, when the text can show why
    the game ended, to the same result. A game ended by a rule the notation does not record
    (repetition, as FEN drops the history) parses as the position it shows; one whose text
    says it is over (no pieces, the no-capture count at its limit) may be refused with a
    ParseError instead."""
    try:
        text = state.to_text()
    except (BoardLabError, NotImplementedError):
        return 0
    try:
        parsed = state.game.state_from_text(text)
    except ParseError as error:
        assert str(error).strip()
        return 1
    assert parsed.to_text() == text
    if parsed.is_terminal():
        assert parsed.returns() == state.returns(), text
    return 1


def round_trips(name: str, games: int, every: int, cap: int | None) -> tuple[int, int]:
    """Play `games` seeded random games; (positions checked, texts parsed)."""
    game = make_game(name)
    rng = random.Random(2026)
    positions = texts = 0
    for index in range(games):
        state = game.initial_state(seed=index)
        decisions = 0
        while not state.is_terminal() and (cap is None or decisions < cap):
            if state.current_player() == CHANCE:
                outcomes = state.chance_outcomes()
                for action, _ in outcomes:
                    assert state.str_to_action(state.action_to_str(action)) == action
                texts += len(outcomes)
                state.apply(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
                continue
            if decisions % every == 0:
                texts += check_position(state, rng)
                positions += 1
            state.apply(rng.choice(state.legal_actions()))
            decisions += 1
        if state.is_terminal():
            positions += check_finished(state)
    COUNTER.add(f"round trip: {name} positions", positions)
    COUNTER.add(f"round trip: {name} texts", texts)
    return positions, texts


@pytest.mark.parametrize("name", GAMES)
def test_positions_and_moves_of_200_random_games_round_trip_through_text(name: str) -> None:
    positions, texts = round_trips(name, games=200, every=10, cap=DEFAULT_CAPS.get(name))
    assert positions >= 200


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_positions_and_moves_of_1000_random_games_round_trip_through_text(name: str) -> None:
    positions, texts = round_trips(name, games=1000, every=3, cap=None)
    assert positions >= 1000
