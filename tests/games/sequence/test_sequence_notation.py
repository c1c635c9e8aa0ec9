"""Sequence notation both ways, the framework's action dicts, position text, the board
picture and the hidden-information views."""

import random

import pytest

from boardlab import IllegalActionError, ParseError, make_game
from boardlab.games.sequence.cards import CARD_NAMES, FULL_DECK
from boardlab.games.sequence.notation import framework_actions, read_action, to_framework
from boardlab.games.sequence.rules import BURN_BASE, DECLINE, DRAFT_BASE, NUM_ACTIONS, TRADE_BASE

EMPTY_ROWS = "\n".join(["*........*"] + ["." * 10] * 8 + ["*........*"])


@pytest.fixture
def game():
    return make_game("sequence")


def test_action_ids_and_their_text():
    assert read_action("play 7h e4") == read_action("7h e4") == 5 * 4 * 100 + 2 * 100 + 44
    assert read_action("play jd e4") == read_action("jd e4") == 36 * 100 + 44
    assert read_action("js-remove c3") == read_action("remove js c3") == 39 * 100 + 32
    assert read_action("draft qs") == DRAFT_BASE + 43
    assert read_action("trade 2c for ks") == TRADE_BASE + 1 * 52 + 47
    assert read_action("decline") == DECLINE == 7956
    assert read_action("burn 2d") == BURN_BASE
    assert read_action("PLAY 10H E4") == read_action("play th e4")
    for action in range(NUM_ACTIONS):
        from boardlab.games.sequence.notation import action_text

        assert read_action(action_text(action)) == action


@pytest.mark.parametrize("text", ["", "play 1h e4", "play 7h k4", "trade 2c ks", "remove 7h e4",
                                  "hello"])
def test_malformed_moves_are_parse_errors(text):
    with pytest.raises(ParseError):
        read_action(text)


def test_framework_dicts_both_ways(game):
    state = game.state_from_text(EMPTY_ROWS + "\nturn 0\nhand 0: 7h 9d qc kc ad js"
                                 "\ndraft: qs ks 2h 3h 4h")
    place = {"play_card": "7h", "draft_card": "qs", "type": "place", "coords": (4, 8)}
    play_id, draft_id = framework_actions(state, place)
    assert state.action_to_str(play_id) == "play 7h i4"
    assert state.action_to_str(draft_id) == "draft qs"
    assert state.str_to_action(str(place)) == play_id  # the play step is due now
    state.apply(play_id)
    assert state.str_to_action(place) == draft_id  # then the draft step
    assert to_framework(play_id, draft_id) == place
    assert to_framework(DECLINE) == {"play_card": None, "draft_card": None, "type": "trade",
                                     "coords": None}
    trade = {"play_card": "2c", "draft_card": "ks", "type": "trade", "coords": None}
    assert framework_actions(state, trade) == [read_action("trade 2c for ks")]
    assert to_framework(read_action("trade 2c for ks")) == trade
    with pytest.raises(ParseError, match="one-eyed jack"):
        framework_actions(state, {"play_card": "js", "draft_card": "qs", "type": "place",
                                  "coords": (4, 4)})


def test_illegal_moves_are_sentences_with_the_position(game):
    state = game.state_from_text(EMPTY_ROWS + "\nturn 0\nhand 0: 7h 9d qc kc ad js")
    with pytest.raises(IllegalActionError, match="player 0 has no 8h") as error:
        state.str_to_action("play 8h d6")
    assert "player 0 to play" in str(error.value)  # the board is in the message
    with pytest.raises(IllegalActionError, match="takes a card from the draft|before taking"):
        state.str_to_action("draft 2d")
    with pytest.raises(IllegalActionError, match="no dead card"):
        state.str_to_action("decline")
    with pytest.raises(IllegalActionError):
        state.apply(-5)


def test_position_text_round_trip(game):
    rng = random.Random(4)
    for seed in range(20):
        state = game.initial_state(seed=seed)
        for _ in range(rng.randrange(1, 120)):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        text = state.to_text()
        again = game.state_from_text(text)
        assert again.to_text() == text
        assert again.legal_actions() == state.legal_actions()
        assert again.key() == state.key()


def test_position_text_rejects_bad_input(game):
    with pytest.raises(ParseError, match="board rows"):
        game.state_from_text("*...*")
    with pytest.raises(ParseError, match="corners"):
        game.state_from_text(EMPTY_ROWS.replace("*", ".", 1))
    with pytest.raises(ParseError, match="more than two"):
        game.state_from_text(EMPTY_ROWS + "\nhand 0: 7h 7h 7h 2c 3c 4c")
    with pytest.raises(ParseError, match="unknown line"):
        game.state_from_text(EMPTY_ROWS + "\ncolour red")


def test_the_board_shows_chips_corners_and_only_the_viewers_hand(game):
    state = game.state_from_text(EMPTY_ROWS.replace("*........*\n..", "*........*\nrb", 1)
                                 + "\nturn 0\nhand 0: 7h 9d qc kc ad js\nhand 1: 8h 8h 2s 3s 4s 5s")
    picture = str(state)
    assert " 6cr" in picture and " 5cb" in picture and " ** " in picture
    assert "hand 0: 7h 9d js qc kc ad" in picture and "hand 1: 2s 3s 4s 5s 8h 8h" in picture
    view = state.view(0, random.Random(1))
    shown = str(view)
    assert "hand 0 (yours): 7h 9d js qc kc ad" in shown
    assert "hand 1: 6 cards" in shown and "8h" not in shown.split("hand 1:")[1]


def play_some(state, rng, decisions):
    for _ in range(decisions):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_a_view_redraws_what_the_player_has_not_seen(game):
    rng = random.Random(9)
    differs = 0
    for seed in range(30):
        state = play_some(game.initial_state(seed=seed), rng, rng.randrange(0, 60))
        if state.is_terminal():
            continue
        me = state.current_player()
        view = state.view(me, random.Random(seed))
        # what the player knows is kept
        assert view.board == state.board and view.draft == state.draft
        assert view.discards == state.discards and view.hands[me] == state.hands[me]
        assert view.known == state.known and view.sequences == state.sequences
        assert [len(h) for h in view.hands] == [len(h) for h in state.hands]
        assert len(view.deck) == len(state.deck)
        assert view.legal_actions() == state.legal_actions()
        assert (view.encode(me) == state.encode(me)).all()
        # cards the opponent was seen to draft stay in its hand
        other = 1 - me
        hand = list(view.hands[other])
        for card in state.known[other]:
            hand.remove(card)
        # the unseen cards are the same multiset, dealt anew
        assert sorted(view.hands[other] + view.deck) == sorted(state.hands[other] + state.deck)
        assert sorted(sum(view.hands, []) + view.deck + view.draft + view.discards) == sorted(
            FULL_DECK)
        differs += sorted(view.hands[other]) != sorted(state.hands[other])
        assert view.deck != state.deck
    assert differs >= 20, "a view should guess the opponent's hand, not copy it"


def test_a_view_keeps_the_cards_an_opponent_drafted(game):
    state = game.state_from_text(EMPTY_ROWS + "\nturn 0\nhand 0: 7h 9d qc kc ad js"
                                 "\ndraft: qs ks 2h 3h 4h")
    state.apply(state.str_to_action("play 7h i4"))
    state.apply(state.str_to_action("draft qs"))
    state.apply(state.legal_actions()[0])  # seat 1 plays something
    state.apply(state.str_to_action("draft ks"))
    for seed in range(10):
        view = state.view(0, random.Random(seed))
        assert "ks" in [CARD_NAMES[c] for c in view.hands[1]]


def test_network_input_stays_in_unit_range_when_a_hand_holds_every_jack():
    # Two decks hold four jacks of each kind; with six cards a hand (four players) can hold
    # all four two-eyed jacks, which once encoded as 2.0 and broke PettingZoo's bounds check.
    from boardlab.games.sequence.cards import CARD_IDS

    state = make_game("sequence:num_players=4").initial_state(seed=1)
    jacks = [CARD_IDS["jd"], CARD_IDS["jd"], CARD_IDS["jc"], CARD_IDS["jc"]]
    state.hands[0][:4] = jacks
    state.draft[:4] = [CARD_IDS["jh"], CARD_IDS["jh"], CARD_IDS["js"], CARD_IDS["js"]]
    planes = state.encode(0)
    assert planes.min() >= 0.0 and planes.max() <= 1.0
    assert planes[9].max() == 1.0 and planes[12].max() == 1.0


def test_network_input_stays_in_unit_range_when_one_chip_completes_two_sequences():
    # A team with one sequence that fills a line of nine ends on three; that count once
    # encoded as 1.5 and broke PettingZoo's bounds check on a random game in CI.
    rows = ["*........*"] + ["." * 10] * 3 + ["rrrr.rrrr."] + ["." * 10] * 4 + ["*........*"]
    fields = ["turn 0", "sequences 1 0", "hand 0: 5h 9d qc kc ad 3d"]
    state = make_game("sequence").state_from_text("\n".join(rows + fields))
    state.apply(state.str_to_action("play 5h e4"))
    assert state.sequences == [3, 0]
    planes = state.encode(0)
    assert planes.min() >= 0.0 and planes.max() <= 1.0
    assert planes[15].max() == 1.0 and planes[16].max() == 0.0
