"""Issue 34 in headless Chromium: a game's address (reload, a second tab, live watching),
moves that never race with a thinking agent, and the phone layout."""

from __future__ import annotations

import random
import re
import time

import httpx
import pytest

from boardlab.core.registry import game_names

from test_web_browser import IDLE, click_moves, click_one_move, fill_params, start_game
from test_web_walkthrough import boxes_apart
from web_helpers import short_spec

pytestmark = pytest.mark.e2e  # drives Chromium

PLY = "(ply) => document.getElementById('board').dataset.ply === String(ply)"
ADDRESS = re.compile(r"/play/([A-Za-z0-9_-]+)")


def game_id(page) -> str:
    found = ADDRESS.search(page.url)
    assert found, f"the page's address {page.url} names no game"
    return found.group(1)


def moves_of(page) -> list[str]:
    return page.eval_on_selector_all("#history-list li", "items => items.map(i => i.textContent)")


def click_square(page, square: str) -> None:
    before = page.get_attribute("#board", "data-ply")
    page.click(f'#board g.cell[data-square="{square}"]')
    page.wait_for_function(IDLE, arg=before)


# --- 1. every game has an address ---------------------------------------------------------------

def test_a_game_has_an_address_that_survives_reload_and_opens_in_a_second_tab(
        page, browser, live_server):
    start_game(page, live_server, "reversi", ("human", "random"))
    gid = game_id(page)
    click_square(page, "d3")
    ply, moves = page.get_attribute("#board", "data-ply"), moves_of(page)
    svg = page.inner_html("#board")
    assert ply == "2" and len(moves) == 2
    page.reload()
    page.wait_for_function(PLY, arg=ply)
    assert game_id(page) == gid and moves_of(page) == moves and page.inner_html("#board") == svg
    assert page.get_attribute("#status", "data-turn") == "human"
    # The setup form says how the game was started.
    assert page.input_value("#game") == "reversi" and page.input_value("#seat-1") == "random"
    # Another person (another browser context) opens the address, or /?game=<id>.
    other = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        second = other.new_page()
        second.goto(f"{live_server}/?game={gid}&delay=0")
        second.wait_for_function(PLY, arg=ply)
        assert game_id(second) == gid and moves_of(second) == moves
        # The first page moves; the second sees the move, live, within 2 s.
        first_target = page.get_attribute('#board g.cell[data-movable="1"]', "data-square")
        started = time.monotonic()
        page.click(f'#board g.cell[data-square="{first_target}"]')
        second.wait_for_function("() => +document.getElementById('board').dataset.ply >= 3",
                                 timeout=2_000)
        seen_after = time.monotonic() - started
        page.wait_for_function(IDLE, arg=ply)
        second.wait_for_function(PLY, arg=page.get_attribute("#board", "data-ply"),
                                 timeout=2_000)
        assert moves_of(second) == moves_of(page)
        assert seen_after < 2.0
        print(f"\nthe second page saw the first page's move after {1000 * seen_after:.0f} ms")
    finally:
        other.close()


def test_a_watcher_follows_agents_playing_at_the_address(page, browser, live_server):
    start_game(page, live_server, "reversi", ("greedy", "random"))
    gid = game_id(page)
    watcher = browser.new_context().new_page()
    try:
        watcher.goto(f"{live_server}/play/{gid}")
        watcher.wait_for_function(PLY, arg="0")
        page.click("#step")
        watcher.wait_for_function(PLY, arg="1", timeout=2_000)
        assert "greedy (black, seat 0) played" in watcher.inner_text("#agent-info")
    finally:
        watcher.context.close()


def test_unknown_games_get_a_readable_page_not_json(page, live_server):
    for path, words in [("/play/does-not-exist", "no game with id 'does-not-exist'"),
                        ("/game/does-not-exist", "There is no page at /game/does-not-exist")]:
        response = page.goto(live_server + path)
        assert response.status == 404
        assert words in page.inner_text("#status")
        assert "{" not in page.inner_text("body")  # no raw JSON
        assert page.query_selector("a[href='/']") is not None
    page.goto(f"{live_server}/?game=nope")
    page.wait_for_function("() => document.getElementById('status').textContent"
                           ".includes('no game')")
    assert 'There is no game "nope"' in page.inner_text("#status")
    page.goto(f"{live_server}/replay?game=abc")
    page.wait_for_function("() => document.getElementById('status').textContent.includes('abc')")
    status = page.inner_text("#status")
    assert 'no stored game "abc"' in status and "numbered 0 to 3" in status
    assert page.inner_text("#error") == ""  # no pydantic message
    # The API keeps answering JSON.
    assert httpx.get(f"{live_server}/api/games/nope").json()["detail"].startswith("no game")


def test_replay_and_tournament_games_have_addresses(page, live_server):
    page.goto(f"{live_server}/replay")
    page.wait_for_selector("#game-list tbody tr")
    page.click("#game-list tbody tr >> nth=1")
    page.wait_for_function("() => document.getElementById('board').dataset.ply !== undefined")
    page.click("#first")
    page.wait_for_function(PLY, arg="0")
    page.click("#forward")
    page.wait_for_function(PLY, arg="1")
    assert page.url.endswith("/replay?game=1&ply=1")
    page.reload()
    page.wait_for_function(PLY, arg="1")
    assert "Game 1:" in page.inner_text("#status")
    # A tournament's tables have an anchor and a link to its games.
    page.goto(f"{live_server}/tournament")
    page.wait_for_selector("h3#t1 a.games")
    page.click("h3#t1 a.games")
    page.wait_for_selector("#game-list tbody tr")
    assert page.url.endswith("/replay?tournament=1")
    shown = page.eval_on_selector_all("#game-list tbody tr td:nth-child(2)",
                                      "tds => tds.map(t => t.textContent)")
    assert len(shown) == 2 and len(set(shown)) == 1


# --- 2. moves never race ------------------------------------------------------------------------

THINKING_NOW = "() => !document.getElementById('thinking-now').hidden"
ROUNDS = 10
THINK_S = 2.0


def test_nothing_moves_while_the_agent_thinks_and_the_page_keeps_the_servers_position(
        page, live_server, artifacts):
    """Ten rounds against mcts at 2 s a move: during each search, Enter in the notation box
    and a click on the board send nothing; after the reply the page's ply is the server's and
    the person moves again."""
    start_game(page, live_server, "reversi", ("human", f"mcts:sims=0,time={THINK_S}"))
    gid = game_id(page)
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if r.method == "POST" and
            r.url.endswith("/move") else None)
    checked = 0
    for round_ in range(ROUNDS):
        if page.get_attribute("#status", "data-over") == "1":
            break
        legal = page.eval_on_selector_all('#board g.cell[data-movable="1"]',
                                          "cells => cells.map(c => c.dataset.square)")
        if not legal:
            break  # the person must pass: no square to click (mcts's timed play varies)
        before = page.get_attribute("#board", "data-ply")
        page.click(f'#board g.cell[data-square="{legal[0]}"]')
        page.wait_for_function(THINKING_NOW, timeout=5_000)
        moves_sent = len(sent)
        assert page.get_attribute("#status", "data-turn") == "agent"
        assert page.is_disabled("#move-play") and page.is_disabled("#undo")
        assert page.is_disabled("#resign") and page.is_disabled("#new")
        page.fill("#move-text", legal[-1])
        page.press("#move-text", "Enter")
        page.click(f'#board g.cell[data-square="{legal[-1]}"]', force=True)
        for cell in page.query_selector_all('#board g.cell')[:3]:
            cell.click(force=True)
        assert page.is_visible("#thinking-now"), "the agent answered before the test was done"
        if round_ == 0:
            page.screenshot(path=str(artifacts / "thinking-indicator.png"))
            assert "is thinking…" in page.inner_text("#thinking-now")
        page.wait_for_function(IDLE, arg=before, timeout=int(3_000 * THINK_S) + 5_000)
        assert len(sent) == moves_sent, "a move went out while the agent was thinking"
        server = httpx.get(f"{live_server}/api/games/{gid}").json()
        assert page.get_attribute("#board", "data-ply") == str(server["ply"])
        assert len(moves_of(page)) == len(server["moves"]) == server["ply"]
        assert server["thinking"] is None
        page.fill("#move-text", "")
        checked += 1
    assert checked >= 3, f"only {checked} rounds checked"
    assert page.inner_text("#error") == ""


def test_stop_ends_the_search_and_the_agent_plays_at_once(page, live_server):
    start_game(page, live_server, "reversi", ("human", "mcts:sims=0,time=30"))
    page.click('#board g.cell[data-square="d3"]')
    page.wait_for_function(THINKING_NOW, timeout=5_000)
    page.wait_for_timeout(300)
    started = time.monotonic()
    page.click("#stop")
    page.wait_for_function(IDLE, arg="0", timeout=5_000)
    assert time.monotonic() - started < 2.0
    assert page.is_hidden("#thinking-now") and len(moves_of(page)) == 2
    assert "played" in page.inner_text("#agent-info")


def test_a_refused_move_brings_the_servers_position_back(page, live_server):
    start_game(page, live_server, "reversi", ("human", "human"))
    gid = game_id(page)
    # The page stops following (a dropped connection) and another player moves meanwhile.
    page.evaluate("() => following.close()")
    played = httpx.post(f"{live_server}/api/games/{gid}/move", json={"move": "d3"}).json()
    assert played["ply"] == 1
    assert page.get_attribute("#board", "data-ply") == "0"  # the page does not know yet
    page.click('#board g.cell[data-square="f5"]')  # legal at move 0, sent with ply 0
    page.wait_for_function(PLY, arg="1")
    assert "the game has moved on" in page.inner_text("#error")
    assert moves_of(page) == ["black: d3"]
    assert page.get_attribute("#status", "data-turn") == "human"


def test_the_server_refuses_out_of_turn_moves_while_an_agent_thinks(live_server):
    import threading

    with httpx.Client(base_url=live_server, timeout=30) as client:
        game = client.post("/api/games", json={"game": "reversi", "seed": 1, "seats": [
            "human", "mcts:sims=0,time=20"]}).json()
        gid = game["id"]
        first = client.post(f"/api/games/{gid}/move", json={"move": "d3", "ply": 0})
        assert first.json()["ply"] == 1
        stale = client.post(f"/api/games/{gid}/move", json={"move": "c5", "ply": 0})
        assert stale.status_code == 409 and "moved on" in stale.json()["detail"]
        nothing = client.post(f"/api/games/{gid}/stop")
        assert nothing.status_code == 409 and "no agent is thinking" in nothing.json()["detail"]
        replies: list[httpx.Response] = []
        asking = threading.Thread(target=lambda: replies.append(
            client.post(f"/api/games/{gid}/agent-move")))
        asking.start()
        deadline = time.monotonic() + 5
        while client.get(f"/api/games/{gid}").json()["thinking"] is None:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        time.sleep(0.3)
        seen = client.get(f"/api/games/{gid}").json()  # no lock: answered while it thinks
        assert seen["thinking"]["spec"] == "mcts:sims=0,time=20"
        assert seen["thinking"]["elapsed"] > 0.2
        for path, body in [("move", {"move": "c5"}), ("agent-move", None), ("undo", {}),
                           ("resign", {}), ("new", {})]:
            refused = client.post(f"/api/games/{gid}/{path}", json=body)
            assert refused.status_code == 409, path
            assert "is thinking; nothing else was played" in refused.json()["detail"]
        stopped_at = time.monotonic()
        assert client.post(f"/api/games/{gid}/stop").status_code == 200
        asking.join(10)
        assert time.monotonic() - stopped_at < 2.0
        reply = replies[0].json()
        assert reply["ply"] == 2 and reply["thinking"] is None and reply["agent"]["seconds"] < 5


def test_the_clock_stops_a_search_that_derived_its_own_clock():
    import threading

    from boardlab.core.agent import Clock, stop_on
    from boardlab.core.registry import make_agent, make_game

    game = make_game("reversi")
    agent = make_agent("mcts:sims=0,time=30", game)
    agent.start_game(0, 1)
    event = threading.Event()
    threading.Timer(0.3, event.set).start()
    started = time.monotonic()
    with stop_on(event):
        action = agent.act(game.initial_state(0), Clock.start(None))
    assert time.monotonic() - started < 2.0
    assert action in game.initial_state(0).legal_actions()
    assert not Clock.start(1.0).expired()  # outside: clocks read as before


# --- 3. phones ----------------------------------------------------------------------------------

PHONE_PARTS = [("header", "header"), ("status", "#status"), ("you", "#you"),
               ("board", "#board svg"), ("controls", "#controls"),
               ("notation", "#move-text"), ("setup", "#setup"), ("thinking", "#thinking"),
               ("moves", "#history")]


@pytest.mark.parametrize("width, height", [(390, 844), (360, 740)])
@pytest.mark.parametrize("game", game_names())
def test_the_phone_layout_puts_the_board_first_and_nothing_overlaps(
        browser, live_server, artifacts, width, height, game):
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(20_000)
    try:
        start_game(page, live_server, short_spec(game), ("human", "mcts:sims=50"))
        click_one_move(page, random.Random(3))
        if page.get_attribute("#status", "data-turn") == "human" and \
                page.query_selector("#extra-moves button"):  # a second decision (a draft)
            click_one_move(page, random.Random(3))
        page.evaluate("() => window.scrollTo(0, 0)")
        boxes = {name: page.locator(selector).bounding_box() for name, selector in PHONE_PARTS}
        assert boxes["board"]["width"] >= 300, boxes["board"]
        for a in boxes:
            for b in boxes:
                if a < b:
                    assert boxes_apart(boxes[a], boxes[b]), (a, b, boxes[a], boxes[b])
        for name, box in boxes.items():
            assert box["x"] >= 0 and box["x"] + box["width"] <= width, (name, box)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
        # The board comes first, the panels below it.
        assert boxes["board"]["y"] < min(boxes[n]["y"] for n in ("setup", "thinking", "moves"))
        assert boxes["board"]["y"] < height  # the board is on the first screen
        if width == 390:
            page.screenshot(path=str(artifacts / f"phone-{game}-{width}x{height}.png"))
    finally:
        context.close()


# --- 4. the smaller things ----------------------------------------------------------------------

def test_auto_play_reads_auto_play_again_when_the_game_ends(page, live_server):
    start_game(page, live_server, "minichess:max_plies=12", ("random", "random"))
    page.click("#auto")
    assert page.inner_text("#auto") == "Pause"
    page.wait_for_function("() => document.getElementById('status').dataset.over === '1'",
                           timeout=30_000)
    page.wait_for_function("() => document.getElementById('auto').textContent === 'Auto-play'")
    assert page.is_disabled("#auto") and page.is_disabled("#step")


def test_agent_parameters_stay_when_a_game_parameter_changes(page, live_server):
    page.goto(f"{live_server}/?delay=0")
    page.select_option("#game", "sequence")
    page.select_option("#seat-1", "minimax")
    fill_params(page, "seat-1-p", "depth=1")
    page.evaluate("() => { document.getElementById('seat-1').marked = true; }")
    fill_params(page, "game-p", "num_players=4")
    assert len(page.query_selector_all("#seats .seat-row")) == 4
    # The same seat row, not a rebuilt one (a click on it is never lost), with what was typed.
    assert page.evaluate("() => document.getElementById('seat-1').marked === true")
    assert page.input_value("#seat-1") == "minimax" and page.input_value("#seat-1-p-depth") == "1"
    fill_params(page, "game-p", "num_players=2")
    assert len(page.query_selector_all("#seats .seat-row")) == 2
    assert page.input_value("#seat-1-p-depth") == "1"
    # Another agent with a parameter of the same name keeps it too.
    page.select_option("#seat-1", "mcts")
    fill_params(page, "seat-1-p", "time=0.5")
    page.select_option("#seat-1", "minimax")
    page.select_option("#seat-1", "mcts")
    assert page.input_value("#seat-1-p-time") == "0.5"


def test_start_brings_the_board_into_view_and_errors_sit_above_it(page, live_server):
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(f"{live_server}/?delay=0")
    page.select_option("#game", "reversi")
    page.select_option("#seat-1", "mcts")
    fill_params(page, "seat-1-p", "sims=20")
    page.select_option("#seat-0", "minimax")
    page.eval_on_selector_all("#setup details", "ds => ds.forEach(d => d.open = true)")
    page.select_option("#seat-0", "human")
    page.click("#start")  # far down the page: the browser scrolls to it
    page.wait_for_function(IDLE, arg="undefined")
    board = page.locator("#board svg").bounding_box()
    assert 0 <= board["y"] < 900 - 200, board  # the board is in view, not above the window
    page.fill("#move-text", "a1")
    page.press("#move-text", "Enter")
    page.wait_for_function("() => document.getElementById('error').textContent !== ''")
    error = page.locator("#error").bounding_box()
    board = page.locator("#board svg").bounding_box()
    assert error["y"] + error["height"] <= board["y"] + 1  # above the board
    assert 0 <= error["y"] < 900
    assert page.inner_text("#error").startswith("422")


def test_the_value_graph_says_whose_side_it_plots(page, live_server):
    start_game(page, live_server, "reversi", ("human", "mcts:sims=100"))
    click_square(page, "d3")
    graph = page.inner_text("#value-graph")
    assert "values from black’s side: up is better for black" in graph
    assert "white: mcts:sims=100" in graph and "human" not in graph  # no entry for a person


def test_xiangqi_captures_in_the_move_list_need_no_chinese_font(page, live_server):
    start_game(page, live_server, "xiangqi", ("human", "human"))
    for move in ("h2e2", "h9g7", "e2e6"):  # the cannon takes the pawn on e6
        before = page.get_attribute("#board", "data-ply")
        page.fill("#move-text", move)
        page.press("#move-text", "Enter")
        page.wait_for_function(IDLE, arg=before)
    listed = " ".join(moves_of(page))
    assert "× black soldier" in listed  # it read `× black soldier (卒, P)`
    assert not re.search(r"[\u2e80-\u9fff]", listed), listed


def test_the_analysis_board_steps_back_flips_asks_an_agent_and_returns(page, live_server,
                                                                       artifacts):
    start_game(page, live_server, "reversi", ("human", "random"))
    gid = game_id(page)
    rng = random.Random(5)
    for _ in range(4):
        click_one_move(page, rng)
    plies = int(page.get_attribute("#board", "data-ply"))
    back = plies - 3
    page.click(f"#history-list li[data-ply='{back}']")
    page.wait_for_function(PLY, arg=back)
    assert page.get_attribute("#board", "data-live") == "0"
    server = httpx.get(f"{live_server}/api/games/{gid}/position?ply={back}").json()
    assert page.inner_html("#board") == page.evaluate(
        "(svg) => { const d = document.createElement('div'); d.innerHTML = svg; "
        "return d.innerHTML; }", server["svg"])  # the server's picture of that position
    assert page.inner_text("#history-list li.current").startswith(moves_of(page)[back - 1][:6])
    assert page.query_selector('#board g.cell[data-movable="1"]') is None  # no moves here
    assert page.is_disabled("#move-play")
    # During play a person may not ask an agent.
    page.click("#ask-box summary")
    page.fill("#ask-params", "sims=200")
    page.click("#ask")
    page.wait_for_function("() => document.getElementById('error').textContent.includes('over')")
    page.click("#view-live")
    page.wait_for_function(PLY, arg=plies)
    assert page.get_attribute("#board", "data-live") == "1"
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#resign")
    page.wait_for_function("() => document.getElementById('status').dataset.over === '1'")
    for _ in range(3):
        page.click("#view-back")
    page.wait_for_function(PLY, arg=back)
    page.click("#ask")
    page.wait_for_function("() => document.getElementById('agent-info').textContent"
                           ".includes('would play')")
    assert page.get_attribute("#board", "data-ply") == str(back)
    assert page.query_selector("#board g.heat") is not None
    assert f"asked about move {back}" in page.inner_text("#agent-info")
    page.screenshot(path=str(artifacts / "analysis-1400.png"))
    unflipped = page.inner_html("#board")
    page.click("#flip")
    page.wait_for_function("(before) => document.getElementById('board').innerHTML !== before",
                           arg=unflipped)
    assert page.get_attribute("#board", "data-ply") == str(back)
    page.click("#view-live")
    page.wait_for_function(PLY, arg=plies)
    assert page.get_attribute("#board", "data-live") == "1"
    assert page.inner_text("#status").startswith("Game over")


@pytest.mark.parametrize("name", game_names())
def test_a_pasted_position_starts_a_game_there(page, live_server, name):
    start_game(page, live_server, short_spec(name), ("human", "human"))
    click_moves(page, random.Random(11), 3)
    text = page.input_value("#position-text")
    board = httpx.get(f"{live_server}/api/games/{game_id(page)}").json()["text"]
    page.click("#position-start summary")
    page.fill("#position", text)
    page.click("#start")
    page.wait_for_function(PLY, arg="0")
    started = httpx.get(f"{live_server}/api/games/{game_id(page)}").json()
    assert started["position"] == text and started["position_text"] == text
    assert started["text"] == board
    assert page.input_value("#position") == text  # a reload keeps it in the form
    page.fill("#position", "no such position")
    page.click("#start")
    page.wait_for_function("() => document.getElementById('error').textContent.startsWith('422')")


# --- clocks -------------------------------------------------------------------------------------

def start_with_clock(page, base: str, spec: str, seats: tuple[str, str], mode: str,
                     seconds: str, increment: str = "") -> None:
    page.goto(f"{base}/?delay=0")
    page.select_option("#game", spec.partition(":")[0])
    fill_params(page, "game-p", spec.partition(":")[2])
    for seat, kind in enumerate(seats):
        page.select_option(f"#seat-{seat}", kind.partition(":")[0])
        fill_params(page, f"seat-{seat}-p", kind.partition(":")[2])
    page.select_option("#time-mode", mode)
    page.fill("#time-base", seconds)
    if increment:
        page.fill("#time-increment", increment)
    page.click("#start")
    page.wait_for_function("() => document.getElementById('board').dataset.ply === '0'")


def test_a_five_second_game_ends_on_time_when_the_person_lets_it_run(page, live_server,
                                                                     artifacts):
    start_with_clock(page, live_server, "reversi", ("human", "random"), "game", "5", "0")
    assert page.inner_text("#clocks .clock[data-seat='0']").startswith("black 0:0")
    assert page.get_attribute("#clocks .clock[data-seat='0']", "data-running") == "1"
    started = time.monotonic()
    page.wait_for_function("() => document.getElementById('status').dataset.over === '1'",
                           timeout=10_000)
    waited = time.monotonic() - started
    assert 4.0 < waited < 7.0, waited
    assert "black (human) ran out of time; white (random) won" in page.inner_text("#status")
    assert page.get_attribute("#clocks .clock[data-seat='0']", "data-flagged") == "1"
    assert page.inner_text("#clocks .clock[data-seat='0']") == "black 0:00.0"
    assert page.query_selector('#board g.cell[data-movable="1"]') is None
    page.screenshot(path=str(artifacts / "clock-flag.png"))


def test_agents_get_the_clock_and_increments_are_added(page, live_server):
    start_with_clock(page, live_server, "reversi", ("minimax:depth=30", "human"), "move", "1")
    # It answers by itself, or loses on time (then the page says so: shown in the failure).
    page.wait_for_function("() => document.getElementById('board').dataset.ply === '1' || "
                           "document.getElementById('status').dataset.over === '1'",
                           timeout=30_000)
    report = httpx.get(f"{live_server}/api/games/{game_id(page)}").json()
    assert report["ply"] == 1, (page.inner_text("#status"), report["clocks"], report["agent"])
    assert report["agent"]["seconds"] <= 1.2 and report["agent"]["info"]["depth"] >= 2
    assert report["clocks"]["per_move"] == 1.0
    with httpx.Client(base_url=live_server) as client:
        game = client.post("/api/games", json={"game": "reversi", "seats": ["human", "human"],
                                               "clock": {"base": 5, "increment": 2}}).json()
        time.sleep(0.3)
        after = client.post(f"/api/games/{game['id']}/move", json={"move": "d3"}).json()
        assert 6.5 < after["clocks"]["left"][0] < 6.75 and after["clocks"]["running"] == 1
        refused = client.post(f"/api/games/{game['id']}/undo")
        assert refused.status_code == 409 and "clocks" in refused.json()["detail"]


def test_an_agents_clock_starts_when_it_is_asked_and_keeps_a_margin():
    """The page's pause before asking an agent is not its time, and the agent is told its time
    less an overhead: a 1 s-a-move minimax lost on time on a loaded machine by a few ms."""
    from boardlab.web.sessions import MOVE_OVERHEAD, Session, TimeControl

    session = Session("reversi", ["minimax:depth=30", "human"], clock=TimeControl(per_move=1.0))
    time.sleep(0.3)  # the page's pause
    clocks = session.clocks()
    assert clocks["running"] is None and clocks["left"][0] == 1.0
    with session.lock:
        report = session.agent_move()
    assert session.flagged is None and session.ply() == 1
    # It searches (depth 30 is never reached) until its budget: the second less the overhead.
    assert 0.75 < report["seconds"] <= 1.0 - MOVE_OVERHEAD + 0.02, report["seconds"]
    assert session.clocks()["running"] == 1


def test_quick_steps_in_replay_are_not_lost(page, live_server):
    page.goto(f"{live_server}/replay?game=1&ply=4")
    page.wait_for_function(PLY, arg="4")
    for _ in range(3):
        page.click("#back")  # without waiting for each position
    page.wait_for_function(PLY, arg="1")
    page.wait_for_function("() => document.body.dataset.busy === '0'")
    assert page.get_attribute("#board", "data-ply") == "1" and page.url.endswith("ply=1")
