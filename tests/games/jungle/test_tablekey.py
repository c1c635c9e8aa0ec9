"""Jungle's Q-table keys: the seed's exact board, and the feature key that generalises."""

import pytest

from boardlab import make_game
from boardlab.core.learning import kit_for
from boardlab.games.jungle.tablekey import CAPTURE, SIZES, STEP, Column, pack, unpack


@pytest.fixture
def game():
    return make_game("jungle")


@pytest.fixture(params=["exact", "features"])
def key(request, game):
    return kit_for(game).table_key_named(request.param, game)


def entries(key, state):
    legal = state.legal_actions()
    return key.state(state), dict(zip(legal, key.columns(state, legal)))


def test_setups_that_differ_only_in_hidden_pieces_share_every_entry(game, key):
    """The same board, but other animals still face down on both sides (other pieces were
    taken earlier): a reveal there shows other animals, and the key is the same, row and
    every action's column."""
    one = game.state_from_text("x6x/8/3t4/8/2D5/8/X6X 0 3 RE cw")
    other = game.state_from_text("x6x/8/3t4/8/2D5/8/X6X 0 3 CL re")
    assert one.legal_actions() == other.legal_actions()
    assert entries(key, one) == entries(key, other)
    # and every opening, whatever its seed, is one entry: nothing is drawn before a reveal
    assert entries(key, game.initial_state(1)) == entries(key, game.initial_state(2))


def test_the_feature_key_files_the_same_situation_anywhere_on_the_board(game):
    """A dog that can take a cat, a tiger watching from afar: shifted two columns right and
    a row up, the exact key sees a new position; the feature key the same row, and the
    capture (and every other move) in the same column."""
    kit = kit_for(game)
    here = game.state_from_text("x6x/8/6t1/8/2c5/2D5/X6X 0 3 RE dw")
    there = game.state_from_text("x6x/8/8/4c3/4D3/8/X5tX 0 3 RE dw")
    exact, features = kit.table_key_named("exact", game), kit.table_key_named("features", game)
    assert exact.state(here) != exact.state(there)
    assert features.state(here) == features.state(there)
    take_here, take_there = here.str_to_action("c2-c3"), there.str_to_action("e3-e4")
    [column_here] = features.columns(here, [take_here])
    [column_there] = features.columns(there, [take_there])
    assert column_here == column_there
    step_back = features.columns(here, [here.str_to_action("c2-c1")])
    assert step_back != [column_here]


def test_the_feature_column_sees_a_piece_left_hanging(game):
    """The dog may take the rat on d3, next to the enemy lion, or step back: the capture's
    column says a rat is taken and the dog then stands attacked (by the lion); the step's
    that the dog is safe there and further from its prey (the rat)."""
    features = kit_for(game).table_key_named("features", game)
    state = game.state_from_text("x6x/8/8/3l4/2Dr4/8/X6X 0 3 RE cw")
    take, back = (state.str_to_action(move) for move in ("c3-d3", "c3-c2"))
    [take_column, back_column] = map(unpack, features.columns(state, [take, back]))
    assert take_column == Column(CAPTURE, 3, 1, before=0, after=2, approach=0, hanging=0)
    assert back_column == Column(STEP, 3, 0, before=0, after=0, approach=2, hanging=0)
    # a capture with nothing to fear after it forgets the taker: one entry for all takers
    safe = game.state_from_text("x6x/8/8/8/2Dr4/8/X6X 0 3 RE cw")
    assert unpack(features.columns(safe, [take])[0]) == Column(CAPTURE, 0, 1, 0, 0, 0, 0)


def test_columns_pack_and_unpack(game):
    biggest = Column(*(size - 1 for size in SIZES))
    assert unpack(pack(biggest)) == biggest and pack(biggest) == 34_991
