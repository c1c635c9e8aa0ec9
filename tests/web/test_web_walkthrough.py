"""Issue 23's walk-through, in headless Chromium: each thing a new user met, and what an agent
thinks drawn on the board (heat map, expected line, value graph), with screenshots kept in
the `artifacts` folder (see test_web_browser.py)."""

from __future__ import annotations

import pytest

from test_web_browser import IDLE, fill_params, start_game

pytestmark = pytest.mark.e2e  # drives Chromium

THINKING = """() => document.body.dataset.busy === '0' &&
  document.getElementById('status').dataset.turn === 'human' &&
  document.querySelector('#board g.heat') !== null"""


def click_and_wait(page, selector: str) -> None:
    before = page.get_attribute("#board", "data-ply")
    page.click(selector)
    page.wait_for_function(IDLE, arg=before)


def boxes_apart(first: dict, second: dict) -> bool:
    return (first["x"] + first["width"] <= second["x"]
            or second["x"] + second["width"] <= first["x"]
            or first["y"] + first["height"] <= second["y"]
            or second["y"] + second["height"] <= first["y"])


# --- what the agent thinks --------------------------------------------------------------------

@pytest.mark.parametrize("game, first_move", [("reversi", "d3"), ("jungle", "reveal a1")])
def test_heat_map_expected_line_and_value_graph(page, live_server, artifacts, game, first_move):
    start_game(page, live_server, game, ("human", "mcts:sims=300"))
    page.fill("#move-text", first_move)
    page.click("#move-play")
    page.wait_for_function(THINKING)
    board = page.locator("#board")
    assert page.eval_on_selector("#board g.heat", "g => g.dataset.kind") == "visit share"
    assert len(page.query_selector_all("#board g.heat rect")) >= 2
    assert "%" in page.eval_on_selector("#board g.heat", "g => g.textContent")
    assert page.query_selector("#board g.pv circle") is not None  # the expected line, numbered
    assert "expected line:" in page.inner_text("#agent-info")
    assert page.query_selector("#value-graph svg polyline.series") is not None
    board.screenshot(path=str(artifacts / f"{game}-thinking-board.png"))
    page.screenshot(path=str(artifacts / f"{game}-thinking.png"))
    # The toggles hide what they name, and show it again.
    page.uncheck("#show-heat")
    page.uncheck("#show-pv")
    assert page.eval_on_selector("#board g.heat", "g => getComputedStyle(g).display") == "none"
    assert page.eval_on_selector("#board g.pv", "g => getComputedStyle(g).display") == "none"
    page.check("#show-heat")
    assert page.eval_on_selector("#board g.heat", "g => getComputedStyle(g).display") != "none"


def test_a_search_agents_arrows_show_its_expected_line(page, live_server, artifacts):
    start_game(page, live_server, "reversi", ("human", "minimax:depth=3,kernel=false"))
    page.fill("#move-text", "d3")
    page.click("#move-play")
    page.wait_for_function(THINKING)
    numbers = page.eval_on_selector_all("#board g.pv text", "ts => ts.map(t => t.textContent)")
    assert numbers[:3] == ["1", "2", "3"]
    assert page.eval_on_selector("#board g.heat", "g => g.dataset.kind") == "root score"
    page.screenshot(path=str(artifacts / "reversi-minimax-line.png"))


def test_alphazero_thinking_shows_numbers_not_object_object(page, live_server, artifacts):
    # It showed `visits [object Object]`: play.js turned a dict into a string.
    start_game(page, live_server, "reversi", ("human", "alphazero:sims=40"))
    page.fill("#move-text", "d3")
    page.click("#move-play")
    page.wait_for_function(THINKING)
    info = page.inner_text("#agent-info")
    assert "[object Object]" not in info and "visits" in info
    assert page.query_selector("#heat-kind option[value='prior']") is not None
    page.select_option("#heat-kind", "prior")
    shown = page.eval_on_selector_all(
        "#board g.heat", "gs => gs.filter(g => getComputedStyle(g).display !== 'none')"
                         ".map(g => g.dataset.kind)")
    assert shown == ["prior"]
    page.screenshot(path=str(artifacts / "reversi-alphazero.png"))


# --- setting up a game -------------------------------------------------------------------------

def test_a_refused_agent_leaves_no_old_game_on_the_board(page, live_server):
    start_game(page, live_server, "reversi")
    page.select_option("#game", "jungle")
    page.select_option("#seat-1", "alphazero")
    page.click("#start")
    page.wait_for_function("() => document.getElementById('error').textContent !== ''")
    assert (page.inner_text("#error").startswith("422")
            and "alphazero weights" in page.inner_text("#error").lower())
    assert page.query_selector("#board svg") is None  # not the finished reversi game
    assert page.inner_text("#status").startswith("Not started")


def test_parameter_forms_come_from_the_settings(page, live_server, artifacts):
    page.goto(f"{live_server}/?delay=0")
    page.select_option("#game", "sequence")
    assert page.get_attribute("#game-p-num_players", "type") == "number"
    assert "2 or 4" in page.inner_text("#game-params")
    fill_params(page, "game-p", "num_players=4")
    assert len(page.query_selector_all("#seats select[id^='seat-']")) == 4
    page.select_option("#game", "jungle")
    assert page.query_selector("#game-p-no_capture_limit") is not None
    assert page.query_selector("#game-p-num_players") is None
    page.select_option("#seat-1", "minimax")
    page.click("#seat-1-details summary")
    assert page.get_attribute("#seat-1-p-depth", "placeholder") == "3"
    assert page.query_selector("#seat-1-p-tt").evaluate("f => f.tagName") == "SELECT"
    page.screenshot(path=str(artifacts / "forms.png"))
    fill_params(page, "seat-1-p", "depth=1")
    page.click("#start")
    page.wait_for_function(IDLE, arg="undefined")
    assert "minimax:depth=1" in page.inner_text("#status") or "human" in page.inner_text("#status")


def test_resign_asks_first_ends_the_caption_too_and_undo_takes_back_only_it(page, live_server):
    start_game(page, live_server, "jungle", ("human", "greedy"))
    page.fill("#move-text", "reveal a1")
    click_and_wait(page, "#move-play")
    plies = page.get_attribute("#board", "data-ply")
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.click("#resign")
    assert page.get_attribute("#status", "data-over") == "0"  # changed my mind: still playing
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#resign")
    page.wait_for_function("() => document.getElementById('status').dataset.over === '1'")
    caption = page.eval_on_selector(
        "#board svg",
        "s => [...s.querySelectorAll('text.caption')].map(t => t.textContent).join(' ')")
    assert "resigned" in caption and "to move" not in caption
    page.click("#undo")
    page.wait_for_function("() => document.getElementById('status').dataset.over === '0'")
    assert page.get_attribute("#board", "data-ply") == plies  # the move before it stays


# --- recognisable games ------------------------------------------------------------------------

def test_sequence_draws_cards_names_teams_and_marks_the_opponents_chip(page, live_server,
                                                                     artifacts):
    start_game(page, live_server, "sequence", ("human", "random"))
    assert len(page.query_selector_all("#board g.card")) == 11  # draft 5 + my hand 6
    assert "red (human, seat 0) to move" in page.inner_text("#status")
    assert page.inner_text("#you") == "You play red (seat 0)."
    click_and_wait(page, '#board g.cell[data-place="1"]')
    # Now a draft: the page says so, and the buttons show cards as printed.
    assert "choose one of the moves under the board" in page.inner_text("#status")
    assert page.inner_text("#extra-moves button").startswith("take ")
    click_and_wait(page, "#extra-moves button")
    # Blue played a chip and drafted: its chip, not the draft, is marked.
    blue = [li.inner_text() for li in page.query_selector_all("#history-list li")]
    assert blue[2].startswith("blue: play") and blue[3].startswith("blue: draft")
    marked = page.query_selector_all("#board g.cell rect.last")
    assert len(marked) == 1
    page.screenshot(path=str(artifacts / "sequence.png"))
    width = float(page.get_attribute("#board svg", "width"))
    assert width <= 10 * 56 + 2 * 26  # no empty band beside the board


def test_jungle_says_which_side_you_are_and_notes_captures(page, live_server, artifacts):
    start_game(page, live_server, "jungle", ("greedy", "greedy"))
    page.click("#auto")
    page.wait_for_function("() => [...document.querySelectorAll('#history-list li')]"
                           ".some(li => li.textContent.includes('×'))", timeout=60_000)
    page.click("#auto")
    capture = next(li.inner_text() for li in page.query_selector_all("#history-list li")
                   if "×" in li.inner_text())
    assert capture.split(":")[0] in ("red", "blue") and "strength" in capture
    assert page.inner_text("#you") == "You are watching agents play."
    page.screenshot(path=str(artifacts / "jungle-captures.png"))


def test_a_target_ring_leaves_the_captured_piece_readable(page, live_server, artifacts):
    # A target dot used to cover the letter of the piece it takes. Xiangqi's opening cannon
    # b2 can take the horse on b9 (over the cannon on b7).
    start_game(page, live_server, "xiangqi", ("human", "human"))
    page.click('#board g.cell[data-square="b2"]')
    horse = page.query_selector('#board g.cell[data-square="b9"]')
    assert horse.get_attribute("data-target") == "1" and horse.get_attribute("data-occupied") == "1"
    mark = horse.query_selector("circle.hl")
    assert mark.evaluate("c => getComputedStyle(c).fill") == "none"  # a ring, not a dot
    assert mark.evaluate("c => getComputedStyle(c).stroke") != "none"
    page.locator("#board").screenshot(path=str(artifacts / "xiangqi-capture-target.png"))


def test_the_move_list_heading_stays_in_view(page, live_server):
    start_game(page, live_server, "reversi", ("random", "random"))
    page.click("#auto")
    page.wait_for_function("() => document.querySelectorAll('#history-list li').length >= 40",
                           timeout=60_000)
    page.click("#auto")
    heading = page.locator("#history h2").bounding_box()
    listing = page.locator("#history-list").bounding_box()
    assert heading["y"] + heading["height"] <= listing["y"]  # above the scrolled list
    assert page.eval_on_selector("#history-list", "l => l.scrollHeight > l.clientHeight")
    assert page.eval_on_selector("#history-list li.current",
                                 "li => { const r = li.getBoundingClientRect(),"
                                 " l = li.parentElement.getBoundingClientRect();"
                                 " return r.bottom <= l.bottom + 1 && r.top >= l.top - 1; }")


# --- layout ------------------------------------------------------------------------------------

@pytest.mark.parametrize("width, height", [(1280, 800), (1920, 1080)])
@pytest.mark.parametrize("game", ["reversi", "jungle", "sequence"])
def test_board_moves_and_thinking_do_not_overlap(browser, live_server, artifacts, width, height,
                                                 game):
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(20_000)
    try:
        start_game(page, live_server, game, ("human", "mcts:sims=50"))
        click_and_wait(page, '#board g.cell[data-place="1"]')
        if page.query_selector("#extra-moves button"):  # Sequence's draft
            click_and_wait(page, "#extra-moves button")
        parts = {name: page.locator(selector).bounding_box() for name, selector in
                 [("board", "#board svg"), ("moves", "#history"), ("thinking", "#thinking"),
                  ("setup", "#setup"), ("controls", "#controls")]}
        for a in parts:
            for b in parts:
                if a < b and {a, b} != {"board", "controls"}:
                    assert boxes_apart(parts[a], parts[b]), (a, b, parts[a], parts[b])
        assert parts["board"]["y"] + parts["board"]["height"] <= parts["controls"]["y"] + 1
        for box in parts.values():
            assert box["x"] >= 0 and box["x"] + box["width"] <= width  # nothing off screen
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
        page.evaluate("() => window.scrollTo(0, 0)")  # as the page first shows the game
        page.screenshot(path=str(artifacts / f"layout-{game}-{width}x{height}.png"))
    finally:
        context.close()
