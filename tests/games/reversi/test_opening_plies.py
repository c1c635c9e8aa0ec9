"""`reversi:opening_plies=N`: arena games between deterministic agents start apart."""

import pytest

from boardlab import make_game


def test_opening_plies_start_games_apart_and_replay_from_the_seed():
    game = make_game("reversi:opening_plies=4")
    starts = {game.initial_state(seed).to_text() for seed in range(20)}
    assert len(starts) > 10
    assert game.initial_state(7).to_text() == game.initial_state(7).to_text()
    assert game.initial_state(7).move_number() == 4
    assert sum(game.initial_state(7).disc_counts()) == 8


def test_no_opening_plies_is_the_standard_start():
    assert make_game("reversi").initial_state(7).to_text() == \
        make_game("reversi").initial_state(0).to_text()


def test_negative_opening_plies_are_refused():
    with pytest.raises(Exception, match="opening_plies"):
        make_game("reversi:opening_plies=-1")
