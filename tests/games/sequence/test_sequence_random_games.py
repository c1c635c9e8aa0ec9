"""Seeded random games of Sequence, 2 and 4 players, with invariants checked after every move.

CI plays 2,000 games of each; the `slow` versions play 10,000 of each.
"""

import random

import pytest

from boardlab import make_game
from boardlab.games.sequence.cards import FULL_DECK, ONE_EYED_JACKS, SQUARES
from boardlab.games.sequence.rules import (
    CHIP,
    CORNER_CELL,
    DRAFT_BASE,
    DRAFT_PHASE,
    PLAY_PHASE,
    SEQ_CHIP,
)

ALL_CARDS = sorted(FULL_DECK)


def check_cards(state, seat):
    """The 104 cards are all somewhere: deck, hands, draft or discards (played, traded,
    burnt); what others saw `seat` (who just moved) draft is still in its hand."""
    cards = state.deck + state.draft + state.discards
    for hand in state.hands:
        cards += hand
    cards.sort()
    assert cards == ALL_CARDS, "a card was lost or duplicated"
    hand = sorted(state.hands[seat])
    for card in state.known[seat]:
        hand.remove(card)  # raises if a card seen drafted is not in the hand
    if state.deck:
        assert len(state.draft) == 5, "the draft is refilled while the deck lasts"


def check_chips(state, placed, sequence_chips):
    """Chips on the board equal chips placed less chips removed, per team; corners stay;
    sequence chips never go away and back every completed sequence."""
    board = state.board
    assert board.count(CORNER_CELL) == 4
    assert board[0] == board[9] == board[90] == board[99] == CORNER_CELL
    counts = state.chip_counts()
    assert list(counts) == placed
    for team in (0, 1):
        seq_now = board.count(SEQ_CHIP[team])
        assert seq_now >= sequence_chips[team], "a sequence chip disappeared"
        sequence_chips[team] = seq_now
        # a sequence marks at least four chips (five less a corner); none without one
        assert (seq_now >= 4) if state.sequences[team] else (seq_now == 0)


def play_random_games(num_players, games, seed):
    game = make_game(f"sequence:num_players={num_players}")
    rng = random.Random(seed)
    wins = [0, 0, 0]  # team 0, team 1, draws
    for index in range(games):
        state = game.initial_state(seed=seed * 100_000 + index)
        placed = [0, 0]
        sequence_chips = [0, 0]
        decisions = 0
        while not state.is_terminal():
            seat = state.current_player()
            actions = state.legal_actions()
            assert actions and all(a < b for a, b in zip(actions, actions[1:]))
            if state.phase == PLAY_PHASE and not state.trade_done:
                assert len(state.hands[seat]) == 6, "a turn starts with six cards"
            action = rng.choice(actions)
            if action < DRAFT_BASE:
                card, sq = divmod(action, SQUARES)
                team = seat % 2
                if card in ONE_EYED_JACKS:
                    assert state.board[sq] == CHIP[1 - team]
                    placed[1 - team] -= 1
                else:
                    placed[team] += 1
            state.apply(action)
            decisions += 1
            check_cards(state, seat)
            check_chips(state, placed, sequence_chips)
            if not state.is_terminal() and action < DRAFT_BASE:
                assert state.phase == DRAFT_PHASE and state.current_player() == seat
        assert decisions <= game.facts.max_length
        returns = state.returns()
        assert sum(returns) == 0 and all(r in (-1.0, 0.0, 1.0) for r in returns)
        assert all(returns[s] == returns[s % 2] for s in range(num_players)), "team results"
        s0, s1 = state.sequences
        if state.winner == -1:
            assert s0 == s1 and not state.deck and not state.draft
            wins[2] += 1
        else:
            winner_seqs, loser_seqs = state.sequences[state.winner], state.sequences[
                1 - state.winner]
            assert winner_seqs >= 2 or (winner_seqs > loser_seqs and not state.draft)
            wins[state.winner] += 1
    return wins


@pytest.mark.parametrize("num_players", [2, 4])
def test_two_thousand_random_games_keep_the_invariants(num_players):
    wins = play_random_games(num_players, 2_000, seed=num_players)
    assert sum(wins) == 2_000 and min(wins) > 0  # both teams win sometimes, and draws happen


@pytest.mark.slow
@pytest.mark.parametrize("num_players", [2, 4])
def test_ten_thousand_random_games_keep_the_invariants(num_players):
    wins = play_random_games(num_players, 10_000, seed=10 + num_players)
    assert sum(wins) == 10_000
