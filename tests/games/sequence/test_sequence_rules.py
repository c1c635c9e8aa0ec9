"""Sequence rules, one test per rule, built from text positions
(docs/design.md#sequence-seed-002, seed 002).

Position text: ten board rows (row 0 first, columns a-j; `.` empty, `*` corner, r/b chips of
team 0/1, R/B chips of a completed sequence), then `turn <seat> [draft] [traded]`,
`sequences <team 0> <team 1>`, `hand <seat>: cards`, `draft: cards`, `deck: cards` (top
first). Cards not named fill the other hands, the draft and the deck in card order.
Square e4 is row 4, column e: the framework's coords (4, 4).
"""

import pytest

from boardlab import IllegalActionError, TERMINAL, make_game
from boardlab.games.sequence.cards import CARD_NAMES, FULL_DECK, LAYOUT, parse_square
from boardlab.games.sequence.rules import CHIP, EMPTY, NUM_ACTIONS, SEQ_CHIP

EMPTY_ROWS = ["*........*"] + ["." * 10] * 8 + ["*........*"]


@pytest.fixture
def game():
    return make_game("sequence")


def board(**rows):
    """EMPTY_ROWS with some rows replaced: board(r4='rrrr......')."""
    lines = list(EMPTY_ROWS)
    for key, text in rows.items():
        lines[int(key[1:])] = text
    return "\n".join(lines)


def position(game, rows, *fields):
    return game.state_from_text(rows + "\n" + "\n".join(fields))


def play(state, *moves):
    for move in moves:
        state.apply(state.str_to_action(move))
    return state


def legal(state):
    return [state.action_to_str(a) for a in state.legal_actions()]


def cell(state, square):
    return state.board[parse_square(square)]


def test_board_layout_deck_and_deal(game):
    state = game.initial_state(seed=3)
    assert [CARD_NAMES[LAYOUT[sq]] for sq in range(1, 9)] == [
        "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s"]
    assert CARD_NAMES[LAYOUT[parse_square("e4")]] == "5h"  # the heart: 5h 4h / 2h 3h
    cards = sorted(state.deck + state.draft + sum(state.hands, []))
    assert cards == sorted(FULL_DECK) and len(cards) == 104
    assert len(state.draft) == 5 and [len(h) for h in state.hands] == [6, 6]
    assert state.current_player() == 0
    assert game.num_actions == NUM_ACTIONS == 8009
    four = make_game("sequence:num_players=4").initial_state(seed=3)
    assert [len(h) for h in four.hands] == [6, 6, 6, 6] and len(four.deck) == 104 - 5 - 24


def test_initial_shuffle_comes_from_the_seed(game):
    assert game.initial_state(seed=5).to_text() == game.initial_state(seed=5).to_text()
    assert game.initial_state(seed=5).to_text() != game.initial_state(seed=6).to_text()


def test_normal_card_goes_on_its_two_spaces_only_when_empty(game):
    state = position(game, board(r4="....b....."), "turn 0", "hand 0: 4h 7h 9d qc kc ad")
    plays_7h = [text for text in legal(state) if " 7h " in text]
    assert plays_7h == ["play 7h i4", "play 7h d5"]
    with pytest.raises(IllegalActionError, match="7h goes on i4 and d5, not a1"):
        play(state, "play 7h a1")
    state = position(game, board(r4="...b......"), "turn 0", "hand 0: 6h 7h 9d qc kc ad")
    assert [t for t in legal(state) if " 6h " in t] == ["play 6h i5"]


def test_two_eyed_jack_places_on_any_empty_space(game):
    state = position(game, board(r4="rb..R....."), "turn 0", "hand 0: jd 7h 9d qc kc ad")
    jack_plays = [t.split()[2] for t in legal(state) if t.startswith("play jd")]
    assert len(jack_plays) == 100 - 4 - 3
    assert "c4" in jack_plays and not {"a4", "b4", "e4", "a0", "j9"} & set(jack_plays)
    play(state, "jd c4")
    assert cell(state, "c4") == CHIP[0]
    with pytest.raises(IllegalActionError, match="corner"):
        position(game, board(), "turn 0", "hand 0: jc 7h 9d qc kc ad").str_to_action("jc a0")


def test_one_eyed_jack_removes_an_ordinary_opponent_chip(game):
    rows = board(r0="*b.......*", r4="bRBr..b...", r9="*BBBBB...*")
    state = position(game, rows, "turn 0", "sequences 0 1", "hand 0: js 7h 9d qc kc ad")
    assert [t for t in legal(state) if t.startswith("remove")] == [
        "remove js b0", "remove js a4", "remove js g4"]
    state.str_to_action("js-remove a4")
    play(state, "js-remove a4")
    assert cell(state, "a4") == EMPTY and state.hands[0].count(39) == 0
    assert state.phase == 1  # the draft step follows


def test_one_eyed_jack_cannot_remove_a_sequence_chip_nor_a_corner(game):
    rows = board(r0="*b.......*", r9="*BBBBB...*")
    state = position(game, rows, "turn 0", "sequences 0 1", "hand 0: jh 7h 9d qc kc ad")
    with pytest.raises(IllegalActionError, match="part of a completed sequence"):
        state.str_to_action("remove jh c9")
    with pytest.raises(IllegalActionError, match="corner"):
        state.str_to_action("remove jh a0")
    with pytest.raises(IllegalActionError, match="no chip of team 1"):
        state.str_to_action("remove jh e4")


def test_dead_card_trade_once_per_turn_then_a_normal_action(game):
    # 2c's spaces are e1 and g3, 3c's d1 and f3: all taken, so both cards are dead
    rows = board(r1="...bb.....", r3=".....bb...")
    state = position(game, rows, "turn 0", "hand 0: 2c 3c 7h 9d qc kc",
                     "draft: qs ks 5h 5h 9s", "deck: 8d 6h")
    assert state.in_trade_step()
    options = legal(state)
    assert "trade 2c for qs" in options and "trade 3c for 9s" in options
    assert options[-1] == "decline" and all(t.startswith("trade") for t in options[:-1])
    assert len(options) == 2 * 4 + 1  # two dead cards x four distinct draft cards + decline
    play(state, "trade 2c for ks")
    assert state.current_player() == 0  # the same player goes on
    assert "ks" not in [CARD_NAMES[c] for c in state.draft]
    assert CARD_NAMES[state.draft[-1]] == "8d"  # refilled from the top of the deck
    assert CARD_NAMES[state.discards[-1]] == "2c"
    assert not state.in_trade_step()  # 3c is still dead, but one trade a turn
    assert all(t.startswith(("play", "remove")) for t in legal(state))
    with pytest.raises(IllegalActionError, match="one trade a turn"):
        state.str_to_action("trade 3c for qs")
    play(state, "play ks b3", "draft qs")
    assert state.current_player() == 1 and not state.trade_done


def test_declining_a_trade_leads_to_the_play(game):
    rows = board(r1="....b.....", r3="......b...")
    state = position(game, rows, "turn 0", "hand 0: 2c 7h 9d qc kc ad")
    play(state, "decline")
    assert state.current_player() == 0 and state.trade_done
    assert "2c" in [CARD_NAMES[c] for c in state.hands[0]]
    assert all(t.startswith("play") for t in legal(state))


def test_five_in_a_row_is_a_sequence_and_corners_count_for_everyone(game):
    # row 0: corner 2s 3s 4s 5s ...; team 0 holds b0-d0, the corner is the fifth
    state = position(game, board(r0="*rrr.....*"), "turn 0", "hand 0: 5s 7h 9d qc kc ad")
    play(state, "play 5s e0")
    assert state.sequences == [1, 0]
    assert [cell(state, sq) for sq in ("b0", "c0", "d0", "e0")] == [SEQ_CHIP[0]] * 4
    state = position(game, board(r0="*bbb.....*"), "turn 1", "hand 1: 5s 7h 9d qc kc ad")
    play(state, "play 5s e0")
    assert state.sequences == [0, 1]


def test_four_in_a_row_is_no_sequence(game):
    state = position(game, board(r4="rrr......."), "turn 0", "hand 0: 6h 7h 9d qc kc ad")
    play(state, "play 6h d4")
    assert state.sequences == [0, 0] and cell(state, "d4") == CHIP[0]


def test_a_new_sequence_may_share_one_chip_with_an_earlier_one(game):
    # a4-e4 are a sequence; f4-h4 and the new i4 (7h) use e4 as their fifth chip
    rows = board(r4="RRRRRrrr..")
    state = position(game, rows, "turn 0", "sequences 1 0", "hand 0: 7h 9d qc kc ad 3d")
    play(state, "play 7h i4")
    assert state.sequences == [2, 0] and state.is_terminal()


def test_a_new_sequence_may_not_share_two_chips(game):
    # d4 and e4 both belong to the sequence a4-e4: d4-h4 would share two chips with it
    rows = board(r4="RRRRRrr...")
    state = position(game, rows, "turn 0", "sequences 1 0", "hand 0: 9d 7h qc kc ad 3d")
    play(state, "play 9d h4")
    assert state.sequences == [1, 0] and cell(state, "h4") == CHIP[0]


def test_sequences_crossing_at_one_chip_both_count(game):
    # column e (e1-e4 r) crosses the row-4 sequence a4-e4 at e4; e0 is 5s
    rows = board(r1="....r.....", r2="....r.....", r3="....r.....", r4="RRRRR.....")
    state = position(game, rows, "turn 0", "sequences 1 0", "hand 0: 5s 7h 9d qc kc ad")
    play(state, "play 5s e0")
    assert state.sequences == [2, 0] and state.returns() == [1.0, -1.0]


def test_a_line_of_six_to_eight_counts_once(game):
    state = position(game, board(r4="rrr.rrr..."), "turn 0", "hand 0: 6h 9d qc kc ad 3d")
    play(state, "play 6h d4")
    assert state.sequences == [1, 0] and not state.is_terminal()
    state = position(game, board(r4="rrrr.rrr.."), "turn 0", "hand 0: 5h 9d qc kc ad 3d")
    play(state, "play 5h e4")
    assert state.sequences == [1, 0]


def test_a_line_of_nine_counts_twice(game):
    # a4..i4 own chips but e4; 5h fills e4: nine in a row, two sequences (not three)
    state = position(game, board(r4="rrrr.rrrr."), "turn 0", "hand 0: 5h 9d qc kc ad 3d")
    play(state, "play 5h e4")
    assert state.sequences == [2, 0]
    assert state.is_terminal() and state.returns() == [1.0, -1.0]


def test_the_heart_of_the_board_counts_two_sequences(game):
    # e4 f4 e5 f5 hold 5h 4h 2h 3h; team 0 holds three, 3h takes the fourth
    rows = board(r4="....rr....", r5="....r.....")
    state = position(game, rows, "turn 0", "hand 0: 3h 9d qc kc ad 3d")
    play(state, "play 3h f5")
    assert state.sequences == [2, 0] and state.returns() == [1.0, -1.0]


def test_the_heart_with_an_opponent_chip_counts_nothing(game):
    rows = board(r4="....rb....", r5="....r.....")
    state = position(game, rows, "turn 0", "hand 0: 3h 9d qc kc ad 3d")
    play(state, "play 3h f5")
    assert state.sequences == [0, 0] and not state.is_terminal()


def test_a_team_with_two_sequences_wins_at_once(game):
    rows = board(r0="*rrr.....*", r9="*BBBB....*")
    state = position(game, rows, "turn 0", "sequences 1 1", "hand 0: 5s 9d qc kc ad 3d")
    play(state, "play 5s e0")
    assert state.current_player() == TERMINAL and state.legal_actions() == []
    assert state.returns() == [1.0, -1.0]
    four = make_game("sequence:num_players=4")
    state = position(four, rows, "turn 2", "sequences 1 1", "hand 2: 5s 9d qc kc ad 3d")
    play(state, "play 5s e0")
    assert state.returns() == [1.0, -1.0, 1.0, -1.0]  # seats 0 and 2 are team 0


def test_seats_alternate_teams_with_four_players(game):
    four = make_game("sequence:num_players=4")
    state = four.initial_state(seed=1)
    movers = []
    for _ in range(4):
        movers.append(state.current_player())
        while state.current_player() == movers[-1]:
            state.apply(state.legal_actions()[0])
    assert movers == [0, 1, 2, 3]


def _last_card_position(game, sequences):
    # the deck is empty and one card is left in the draft: the next draft ends the game
    return position(game, board(r0="*RRRR....*"), "turn 0", f"sequences {sequences}",
                    "hand 0: 7h 9d qc kc ad 3d", "hand 1: 6h 8d qd kd as 4d",
                    "draft: 2h", "deck: -")


def test_the_game_ends_when_the_draft_runs_dry_and_more_sequences_win(game):
    state = play(_last_card_position(game, "1 0"), "play 7h i4")
    assert not state.is_terminal()
    play(state, "draft 2h")
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    state = play(_last_card_position(game, "0 1"), "play 7h i4", "draft 2h")
    assert state.returns() == [-1.0, 1.0]


def test_equal_sequences_when_the_draft_runs_dry_is_a_draw(game):
    state = play(_last_card_position(game, "1 1"), "play 7h i4", "draft 2h")
    assert state.is_terminal() and state.returns() == [0.0, 0.0]


def test_the_draft_is_refilled_while_the_deck_lasts(game):
    state = position(game, board(), "turn 0", "hand 0: 7h 9d qc kc ad 3d",
                     "draft: 2h 2h 3h 3h 4h", "deck: 8d")
    play(state, "play 7h i4", "draft 3h")
    assert sorted(CARD_NAMES[c] for c in state.draft) == ["2h", "2h", "3h", "4h", "8d"]
    play(state, state.action_to_str(state.legal_actions()[0]), "draft 4h")
    assert len(state.draft) == 4 and not state.deck and not state.is_terminal()


def test_a_player_who_cannot_play_burns_a_card(game):
    # only one-eyed jacks and no opponent chip, after the trade step: burn, then draft
    state = position(game, board(r4="........r.", r5="...r......"), "turn 0 traded",
                     "hand 0: js js jh jh 7h 7h")
    assert sorted(legal(state)) == ["burn 7h", "burn jh", "burn js"]
    play(state, "burn js")
    assert state.phase == 1 and CARD_NAMES[state.discards[-1]] == "js"
