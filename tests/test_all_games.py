"""One random-game test run over every registered game (STYLE.md point 5).

The checks live in `boardlab.testing`, so that a game package from outside BoardLab runs
exactly these on itself."""

import pytest

from boardlab.core.registry import game_names, make_game
from boardlab.testing import check_batch_encoding, check_random_games, check_replay


@pytest.mark.parametrize("name", game_names())
def test_random_games_keep_the_contract(name):
    check_random_games(make_game(name))


@pytest.mark.parametrize("name", game_names())
def test_every_game_plays_random_against_random_through_the_match_runner(name):
    check_replay(make_game(name))


@pytest.mark.parametrize("name", game_names())
def test_batch_encoding_equals_one_encoding_at_a_time(name):
    """`Game.encode_batch` (a compiled kernel in some games) gives exactly the stacked
    `State.encode` arrays, for every player, final positions included."""
    check_batch_encoding(make_game(name))
