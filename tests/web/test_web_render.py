"""Pictures of every game, the text fallback, and what a human seat may see."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ElementTree

import pytest

from boardlab import render
from boardlab.render import grid
from boardlab.core.game import TERMINAL, Game, GameFacts, State
from boardlab.core.registry import make_game
from boardlab.web import sessions as sessions_module
from boardlab.web.cli import add_serve_parser
from boardlab.web.sessions import Session
from boardlab.core.registry import game_names


@pytest.mark.parametrize("name", [n for n in game_names() if render.has_renderer(make_game(n))])
def test_every_drawn_game_has_one_named_clickable_cell_per_square(name):
    state = make_game(name).initial_state(0)
    drawn = render.picture(state)
    svg = render.svg(state)
    assert svg.count('<g class="cell"') == drawn.rows * drawn.cols
    assert len(set(drawn.square_names)) == drawn.rows * drawn.cols
    for action in state.legal_actions():
        cells = render.action_cells(state, action)
        assert all(0 <= c < drawn.rows * drawn.cols for c in cells)


def test_jungle_move_cells_follow_the_notation():
    state = make_game("jungle").state_from_text("7r/8/8/8/8/T7/8 0 0 - -")
    action = state.str_to_action("a2-a3")
    drawn = render.picture(state)
    assert [drawn.square_names[c] for c in render.action_cells(state, action)] == ["a2", "a3"]


def test_xiangqi_cells_are_named_in_iccs():
    state = make_game("xiangqi").initial_state()
    drawn = render.picture(state)
    cells = render.action_cells(state, state.str_to_action("h2e2"))
    assert [drawn.square_names[c] for c in cells] == ["h2", "e2"]


def test_highlights_take_square_names_and_refuse_unknown_ones():
    state = make_game("reversi").initial_state()
    assert 'class="hl on"' in render.svg(state, highlights=["d3"])
    with pytest.raises(ValueError, match="'z9' is not a square of reversi"):
        render.svg(state, highlights=["z9"])


def test_the_last_move_is_marked():
    state = make_game("minichess").initial_state()
    action = state.str_to_action("a2a3")
    state.apply(action)
    assert render.svg(state, last_action=action).count('class="last"') == 2


def test_a_game_without_a_renderer_is_drawn_as_its_text():
    state = _SecretGame().initial_state(3)
    assert not render.has_renderer(_SecretGame())
    svg = render.svg(state)
    assert "text-board" in svg and "secret 0: 3" in svg and render.action_cells(state, 0) == ()


def test_flipped_board_turns_the_picture_not_the_cells():
    state = make_game("jungle").initial_state()
    upright, flipped = render.svg(state), render.svg(state, flipped=True)
    assert upright != flipped and upright.count("data-cell") == flipped.count("data-cell")


def test_a_sequence_picture_draws_the_draft_and_only_the_viewers_hand_as_cards():
    state = make_game("sequence").initial_state(4)
    view = state.view(0, random.Random(1))
    drawn = render.picture(view, viewer=0)
    titles = [title for title, _ in drawn.card_rows]
    assert titles == ["draft", "hand of red (seat 0)"]
    assert len(drawn.card_rows[1][1]) == 6 and len(drawn.card_rows[0][1]) == 5
    svg = render.svg(view, viewer=0)
    assert svg.count('class="card"') == 11 and "seat 1" not in svg


def test_a_long_caption_wraps_instead_of_widening_the_board():
    # The Sequence board once carried its draft and hand in one caption line, which made the
    # picture ~1.6 times wider than the board: an empty band beside it.
    state = make_game("sequence").initial_state(4)
    drawn = render.picture(state)
    drawn.caption = "a very long caption " * 20
    width = float(ElementTree.fromstring(grid.to_svg(drawn)).get("width"))
    assert width == drawn.cols * grid.CELL + 2 * grid.MARGIN


def test_jungle_animals_are_drawn_as_pictures_shipped_with_the_package():
    state = make_game("jungle").initial_state(0)
    state.apply(state.str_to_action("reveal a1"))
    state.apply(state.chance_outcomes()[0][0])
    svg = render.svg(state)
    assert '<symbol id="icon-' in svg and '<use href="#icon-' in svg
    assert "http" not in svg.replace("http://www.w3.org/2000/svg", "")  # nothing to download


@pytest.mark.parametrize("font, shown", [(True, "帥"), (False, ">K<")])
def test_xiangqi_pieces_show_chinese_characters_only_where_a_font_exists(monkeypatch, font,
                                                                         shown):
    from boardlab.games.xiangqi import render as xiangqi

    monkeypatch.setattr(xiangqi, "has_chinese_font", lambda: font)
    svg = render.svg(make_game("xiangqi").initial_state(0))
    assert shown in svg


# --- hidden information ----------------------------------------------------------------------

class _SecretState(State):
    """Each seat holds a secret number; a view hides the other seat's as '?'."""

    def __init__(self, game: Game, secrets: list[str], moves: int = 0) -> None:
        self.game, self.secrets, self.moves = game, secrets, moves

    def current_player(self) -> int:
        return TERMINAL if self.moves >= 2 else self.moves

    def legal_actions(self) -> list[int]:
        return [] if self.moves >= 2 else [0, 1]

    def apply(self, action: int) -> None:
        self.moves += 1

    def clone(self) -> "_SecretState":
        return _SecretState(self.game, list(self.secrets), self.moves)

    def returns(self) -> list[float]:
        return [0.0, 0.0]

    def view(self, player: int, rng: random.Random) -> "_SecretState":
        seen = self.clone()
        seen.secrets[1 - player] = "?"
        return seen

    def action_to_str(self, action: int) -> str:
        return f"say {action}"

    def str_to_action(self, text: str) -> int:
        return int(text.split()[-1])

    def __str__(self) -> str:
        return f"secret 0: {self.secrets[0]}, secret 1: {self.secrets[1]}"


class _SecretGame(Game):
    name = "secret-test"

    @property
    def facts(self) -> GameFacts:
        return GameFacts(2, 2, has_chance=False, hidden_information=True, max_length=2)

    def initial_state(self, seed: int | None = None) -> _SecretState:
        return _SecretState(self, [str(seed), str((seed or 0) + 1)])


@pytest.fixture()
def secret_game(monkeypatch):
    monkeypatch.setattr(sessions_module, "make_game", lambda spec: _SecretGame())


def test_a_human_seat_sees_only_its_view(secret_game):
    seen = Session("secret-test", ["human", "random"], seed=3).describe()
    assert seen["viewer"] == 0
    assert "secret 0: 3" in seen["text"] and "secret 1: ?" in seen["text"]
    assert "secret 1: 4" not in seen["svg"]


def test_seats_sharing_a_screen_see_through_the_seat_to_move(secret_game):
    session = Session("secret-test", ["human", "human"], seed=3)
    session.human_move(move="say 1")
    seen = session.describe()
    assert seen["viewer"] == 1 and "secret 0: ?" in seen["text"] and "secret 1: 4" in seen["text"]


def test_a_spectator_of_agents_sees_everything(secret_game):
    seen = Session("secret-test", ["random", "random"], seed=3).describe()
    assert seen["viewer"] is None and "secret 0: 3, secret 1: 4" in seen["text"]


# --- the serve command -----------------------------------------------------------------------

def test_serve_listens_on_loopback_by_default():
    import argparse

    parser = argparse.ArgumentParser()
    add_serve_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["serve"])
    assert args.host == "127.0.0.1" and args.port == 8000 and args.db == "boardlab.sqlite"
    assert not args.no_store  # browser games are stored unless the user opts out
    args = parser.parse_args(["serve", "--port", "9001", "--db", "r.sqlite"])
    assert args.port == 9001 and args.db == "r.sqlite" and callable(args.run)
