"""The pages in headless Chromium, driven the way a person uses them: clicks on the board.

Each game that loads is played to the end against `random` by clicking what the page itself
marks as playable (`data-movable` cells, then `data-target` cells, or move buttons), with
screenshots saved under the test's temporary folder.
"""

from __future__ import annotations

import random

import pytest

from boardlab.core.registry import game_names

from web_helpers import short_spec

pytestmark = pytest.mark.e2e  # drives Chromium

MAX_HUMAN_MOVES = 400


IDLE = """(before) => {
  const status = document.getElementById('status');
  const board = document.getElementById('board');
  return document.body.dataset.busy === '0' && board.dataset.ply !== before &&
         (status.dataset.over === '1' || status.dataset.turn === 'human');
}"""
"""The page is waiting for the person again (or the game ended) after a move was sent."""


def fill_params(page, prefix: str, params: str) -> None:
    """Fill a generated parameter form (`name=value,...`), opening its box first."""
    for pair in filter(None, params.split(",")):
        name, _, value = pair.partition("=")
        field = f"#{prefix}-{name.strip()}"
        page.eval_on_selector(field,
                              "f => { const d = f.closest('details'); if (d) d.open = true; }")
        if page.eval_on_selector(field, "f => f.tagName") == "SELECT":
            page.select_option(field, value.strip())
        else:
            page.fill(field, value.strip())
            page.dispatch_event(field, "change")


def start_game(page, base: str, spec: str, seats: tuple[str, ...] = ("human", "random")):
    name, _, params = spec.partition(":")
    page.goto(f"{base}/?delay=0")
    page.select_option("#game", name)
    fill_params(page, "game-p", params)
    for seat, kind in enumerate(seats):
        page.select_option(f"#seat-{seat}", kind.partition(":")[0])
        fill_params(page, f"seat-{seat}-p", kind.partition(":")[2])
    page.click("#start")
    if "human" in seats:
        page.wait_for_function(IDLE, arg="undefined")
    else:
        page.wait_for_function("() => document.getElementById('board').dataset.ply === '0'")


def click_one_move(page, rng: random.Random) -> None:
    """Play one legal move by clicks chosen among the page's own marks."""
    before = page.get_attribute("#board", "data-ply")
    movable = page.query_selector_all('#board g.cell[data-movable="1"]')
    cards = page.query_selector_all('#board g.card[data-movable="1"]')  # a draft, say
    buttons = page.query_selector_all("#extra-moves button[data-action]")
    choices = ([("cell", c) for c in movable] + [("card", c) for c in cards]
               + [("button", b) for b in buttons])
    assert choices, "it is the person's turn but the page offers nothing to click"
    kind, chosen = rng.choice(choices)
    chosen.click()
    if kind == "card":  # one move takes that card (it went out), or several: their buttons
        page.wait_for_function(
            "(before) => document.getElementById('board').dataset.ply !== before || "
            "document.getElementById('extra-moves').dataset.choice === '1'", arg=before)
        if page.get_attribute("#board", "data-ply") == before:
            rng.choice(page.query_selector_all("#extra-moves button[data-action]")).click()
    if kind == "cell" and page.get_attribute("#board", "data-ply") == before:
        targets = page.query_selector_all('#board g.cell[data-target="1"]')
        if targets:
            rng.choice(targets).click()
        else:  # a one-click move (a reveal, a placement) already went out
            pass
        choosers = page.query_selector_all("#extra-moves button[data-action]")
        if not targets and choosers:
            rng.choice(choosers).click()
    page.wait_for_function(IDLE, arg=before)


def click_moves(page, rng: random.Random, count: int) -> None:
    """Up to `count` moves by `click_one_move`, fewer if the game ends first."""
    for _ in range(count):
        if page.get_attribute("#status", "data-over") == "1":
            break
        click_one_move(page, rng)


@pytest.mark.parametrize("name", game_names())
def test_a_person_plays_a_whole_game_against_random_by_clicks(page, live_server, tmp_path,
                                                              name):
    rng = random.Random(2024)
    start_game(page, live_server, short_spec(name))
    page.screenshot(path=str(tmp_path / f"{name}-start.png"))
    moves = 0
    while page.get_attribute("#status", "data-over") != "1":
        click_one_move(page, rng)
        moves += 1
        assert moves <= MAX_HUMAN_MOVES, f"{name}: no end after {moves} moves"
        if moves == 6:
            page.screenshot(path=str(tmp_path / f"{name}-middle.png"))
    page.screenshot(path=str(tmp_path / f"{name}-end.png"))
    assert page.inner_text("#status").startswith("Game over")
    assert page.inner_text("#error") == ""
    assert len(page.query_selector_all("#history-list li")) >= moves


def test_selecting_a_piece_marks_its_targets(page, live_server):
    start_game(page, live_server, "minichess")
    page.click('#board g.cell[data-square="b2"]')
    targets = {c.get_attribute("data-square")
               for c in page.query_selector_all('#board g.cell[data-target="1"]')}
    assert targets == {"b3"}
    before = page.get_attribute("#board", "data-ply")
    page.click('#board g.cell[data-square="b3"]')
    page.wait_for_function(IDLE, arg=before)
    assert page.inner_text("#history-list li:first-child").startswith("white: b2b3")


def test_the_seat_list_marks_learned_agents_without_weights_for_the_game(page, live_server):
    page.goto(f"{live_server}/?delay=0")
    page.select_option("#game", "sequence")  # BoardLab ships no Sequence network
    option = page.locator('#seat-1 option[value="dqn"]')
    assert option.inner_text() == "dqn (no weights for sequence)"
    assert "weights=FILE" in option.get_attribute("title")
    page.select_option("#game", "reversi")  # it ships a Reversi DQN
    assert page.locator('#seat-1 option[value="dqn"]').inner_text() == "dqn"
    assert page.locator('#seat-1 option[value="minimax"]').inner_text() == "minimax"


def test_undo_resign_and_new_game_buttons(page, live_server):
    start_game(page, live_server, "reversi")
    before = page.get_attribute("#board", "data-ply")
    page.click('#board g.cell[data-square="d3"]')
    page.wait_for_function(IDLE, arg=before)
    assert len(page.query_selector_all("#history-list li")) == 2
    assert "random (white, seat 1) played" in page.inner_text("#agent-info")
    page.click("#undo")
    page.wait_for_function("() => document.querySelectorAll('#history-list li').length === 0")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#resign")
    page.wait_for_function("() => document.getElementById('status').dataset.over === '1'")
    assert "resigned" in page.inner_text("#status")
    page.click("#new")
    page.wait_for_function("() => document.getElementById('status').dataset.over === '0'")


def test_watching_agents_step_by_step_shows_thinking_time(page, live_server):
    start_game(page, live_server, "reversi", ("minimax:depth=1", "random"))
    assert page.get_attribute("#status", "data-turn") == "agent"
    page.click("#step")
    page.wait_for_function("() => document.querySelectorAll('#history-list li').length === 1")
    info = page.inner_text("#agent-info")
    assert "minimax:depth=1 (black, seat 0) played" in info and "depth\n1" in info
    page.click("#auto")
    page.wait_for_function("() => document.querySelectorAll('#history-list li').length >= 4")
    page.click("#auto")  # stop


def test_a_bad_request_shows_the_servers_sentence(page, live_server):
    start_game(page, live_server, "reversi")
    page.fill("#move-text", "a1")
    page.click("#move-play")
    page.wait_for_function("() => document.getElementById('error').textContent !== ''")
    error = page.inner_text("#error")
    assert error.startswith("422") and "a1" in error
    fill_params(page, "game-p", "")
    page.select_option("#seat-1", "minimax")
    fill_params(page, "seat-1-p", "depth=0")
    page.click("#start")
    page.wait_for_function("() => document.getElementById('error').textContent.includes('depth')")
    assert page.inner_text("#error").startswith("422")


def test_the_replay_page_opens_a_game_at_its_end_with_the_move_marked(page, live_server,
                                                                      artifacts):
    page.goto(f"{live_server}/replay")
    page.wait_for_selector("#game-list tbody tr")
    rows = page.query_selector_all("#game-list tbody tr")
    assert len(rows) == 4
    rows[-1].click()  # a jungle game
    page.wait_for_function("() => document.getElementById('status').textContent.includes('won')"
                           " || document.getElementById('status').textContent.includes('draw')")
    items = page.query_selector_all("#history-list li")
    assert page.get_attribute("#board", "data-ply") == str(len(items))  # the end, not move 0
    assert items[-1].get_attribute("class").split()[-1] == "current"
    # Reveals are written as on the Play page, moves named by side.
    first = items[0].inner_text()
    assert first.startswith("red: reveal") and " → " in first
    page.click("#first")
    page.wait_for_function("() => document.getElementById('board').dataset.ply === '0'")
    assert not page.query_selector_all("#history-list li.current")
    page.click("#forward")
    page.wait_for_function("() => document.getElementById('board').dataset.ply === '1'")
    assert page.inner_text("#history-list li.current") == first
    page.screenshot(path=str(artifacts / "replay.png"))


def test_the_tournament_page_shows_the_cross_table(page, live_server, tmp_path):
    page.goto(f"{live_server}/tournament")
    page.wait_for_selector("table.cross")
    assert len(page.query_selector_all("table.cross")) == 2
    assert "greedy" in page.inner_text("table.cross")
    page.screenshot(path=str(tmp_path / "tournament.png"))
