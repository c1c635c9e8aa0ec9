"""Issue 34, the rest, in headless Chromium and over the API: the game's moves downloaded and
played back by `boardlab replay FILE`, side lines on the analysis board, heat-map numbers and
expected-line badges that cover no piece and no other (SVG bounding boxes), Sequence's draft
cards clicked in the picture, the replay page's layout and end reasons, the move animation
(none with reduced motion), the last move and a king in danger marked."""

from __future__ import annotations

import random
import re

import httpx
import pytest

from boardlab import render
from boardlab.core.game import CHANCE
from boardlab.core.match import sample_chance
from boardlab.core.registry import game_names, make_game

from test_web_browser import IDLE, click_moves, start_game
from test_web_play_live import PLY, game_id, moves_of
from test_web_walkthrough import boxes_apart
from web_helpers import short_spec

e2e = pytest.mark.e2e  # drives Chromium

LINE = "(n) => document.getElementById('board').dataset.line === String(n)"


def type_move(page, move: str) -> None:
    before = page.get_attribute("#board", "data-ply")
    page.fill("#move-text", move)
    page.press("#move-text", "Enter")
    page.wait_for_function(IDLE, arg=before)


# --- 1. the moves as a file, played back by the command line --------------------------------

@e2e
@pytest.mark.parametrize("name", ["reversi", "xiangqi", "jungle"])
def test_the_downloaded_moves_replayed_by_the_cli_give_the_pages_position(
        page, live_server, tmp_path, capsys, name):
    from boardlab.cli import main

    start_game(page, live_server, short_spec(name), ("human", "random"))
    click_moves(page, random.Random(7), 6)
    page.click("#position-box summary")
    with page.expect_download() as download:
        page.click("#download-moves")
    assert download.value.suggested_filename.startswith(f"boardlab-{name}-")
    path = tmp_path / "moves.txt"
    download.value.save_as(path)
    text = path.read_text(encoding="utf-8")
    assert f'[Game "{short_spec(name)}"]' in text and '[Seat0 "human"]' in text
    assert '[Seat1 "random"]' in text and "[Result " in text
    listed = [line for line in text.splitlines() if re.match(r"\d+\. ", line)]
    assert len(listed) == int(page.get_attribute("#board", "data-ply"))
    if name == "jungle":  # the reveals' outcomes are written, so the replay draws nothing
        assert re.search(r"^1\. reveal \w+ \{\w+\}", text, re.MULTILINE), text
    capsys.readouterr()
    assert main(["replay", str(path), "--position"]) == 0
    assert capsys.readouterr().out.strip() == page.input_value("#position-text").strip()


def test_a_finished_games_file_says_who_won_and_why(client, tmp_path, capsys):
    from boardlab.cli import main

    game = client.post("/api/games", json={"game": "reversi", "seats": ["random", "greedy"],
                                           "seed": 2}).json()
    while not game["over"]:
        game = client.post(f"/api/games/{game['id']}/agent-move").json()
    reason = game["result"]["reason"]
    assert reason.startswith(("the board is full", "neither side can move"))
    assert game["result"]["text"].endswith(f"({reason})")
    text = client.get(f"/api/games/{game['id']}/moves.txt").text
    assert f'[Reason "{reason}"]' in text and f'[Result "{game["result"]["text"]}"]' in text
    assert re.search(r"^1\. \w+ ; black, \d+\.\d\d s$", text, re.MULTILINE)
    path = tmp_path / "moves.txt"
    path.write_text(text, encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"({reason})" in out and "the final position: over" in out
    assert out.rstrip().endswith(game["position_text"])
    # A resignation: the file names the seat, and the position alone cannot say it.
    resigned = client.post("/api/games", json={"game": "reversi", "seats": ["human", "random"]})
    gid = resigned.json()["id"]
    client.post(f"/api/games/{gid}/move", json={"move": "d3"})
    client.post(f"/api/games/{gid}/resign", json={})
    text = client.get(f"/api/games/{gid}/moves.txt").text
    assert '[Forfeit "0"]' in text and '[Reason "black (human) resigned"]' in text


def test_a_hidden_cards_game_is_downloaded_once_it_is_over(client):
    game = client.post("/api/games", json={"game": "sequence", "seats": ["human", "random"]})
    gid = game.json()["id"]
    refused = client.get(f"/api/games/{gid}/moves.txt")
    assert refused.status_code == 409 and "once it is over" in refused.json()["detail"]
    client.post(f"/api/games/{gid}/resign", json={})
    assert client.get(f"/api/games/{gid}/moves.txt").status_code == 200


# --- 2. side lines ------------------------------------------------------------------------------

@e2e
def test_side_lines_try_moves_for_both_sides_without_changing_the_game(page, live_server):
    start_game(page, live_server, "minichess", ("human", "human"))
    for move in ("b2b3", "c5c4", "d2d3"):
        type_move(page, move)
    gid = game_id(page)
    moves = moves_of(page)
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if r.method == "POST" and
            r.url.endswith(("/move", "/agent-move", "/undo")) else None)
    page.click("#history-list li[data-ply='1']")
    page.wait_for_function(PLY, arg="1")
    page.click("#line-start")
    page.wait_for_function(LINE, arg=0)
    assert page.query_selector('#board g.cell[data-square="d5"][data-movable="1"]')  # black's
    page.click('#board g.cell[data-square="d5"]')
    page.click('#board g.cell[data-square="d4"]')
    page.wait_for_function(LINE, arg=1)
    assert page.get_attribute("#board", "data-ply") == "2"
    assert page.get_attribute("#board", "data-live") == "0"
    page.click('#board g.cell[data-square="e2"]')  # then white's, in the line
    page.click('#board g.cell[data-square="e3"]')
    page.wait_for_function(LINE, arg=2)
    note = page.inner_text("#line-note")
    assert "Side line after move 1" in note and "1. black: d5d4" in note
    assert "2. white: e2e3" in note
    last = page.eval_on_selector_all("#board g.cell rect.last",
                                     "rs => rs.map(r => r.parentNode.dataset.square)")
    assert sorted(last) == ["e2", "e3"]  # the line's last move is marked
    page.click("#line-back")
    page.wait_for_function(LINE, arg=1)
    # The game did not change: no request played anything, the list and server agree.
    server = httpx.get(f"{live_server}/api/games/{gid}").json()
    assert server["ply"] == 3 and moves_of(page) == moves and sent == []
    page.click("#view-live")
    page.wait_for_function(PLY, arg="3")
    assert page.get_attribute("#board", "data-live") == "1"
    assert page.get_attribute("#board", "data-line") is None
    assert page.inner_text("#line-note") == ""
    assert page.query_selector('#board g.cell[data-movable="1"]') is not None  # play goes on
    type_move(page, "d5d4")
    assert moves_of(page)[-1] == "black: d5d4"


@e2e
def test_a_side_line_draws_chance_as_the_game_would(page, live_server):
    start_game(page, live_server, "jungle", ("human", "human"))
    page.click("#line-start")
    page.wait_for_function(LINE, arg=0)
    page.click('#board g.cell[data-place="1"] >> nth=0')  # a reveal: one click
    page.wait_for_function(LINE, arg=1)
    note = page.inner_text("#line-note")
    assert re.search(r"1\. red: reveal \w+ → \w+", note), note
    first = note
    page.click("#line-back")
    page.wait_for_function(LINE, arg=0)
    page.click('#board g.cell[data-place="1"] >> nth=0')
    page.wait_for_function(LINE, arg=1)
    assert page.inner_text("#line-note") == first  # the same draw again
    assert httpx.get(f"{live_server}/api/games/{game_id(page)}").json()["ply"] == 0


# --- 3. heat-map numbers and badges -------------------------------------------------------------

BOXES = """() => {
  const box = (e) => { const b = e.getBBox(); return [b.x, b.y, b.x + b.width, b.y + b.height]; };
  const symbols = [];
  for (const e of document.querySelectorAll('g.piece text, g.piece use, g.piece circle.strength'))
    symbols.push(box(e));
  for (const e of document.querySelectorAll('text.piece')) {  // a chess symbol: none below its line
    const b = box(e);
    symbols.push([b[0], b[1], b[2], Math.min(b[3], parseFloat(e.getAttribute('y')))]);
  }
  const plates = {};
  for (const g of document.querySelectorAll('g.heat')) {
    plates[g.dataset.kind] = [...g.querySelectorAll('rect, text')].map(box);
  }
  const badges = [...document.querySelectorAll('g.pv g.badge')].map(box);
  const middles = document.querySelectorAll('g.piece > circle:first-child, text.piece');
  const centres = [...middles].map((e) => {
    const b = box(e);
    const y = e.tagName === 'text' ? b[1] + 0.6 * (b[3] - b[1]) : (b[1] + b[3]) / 2;
    return [(b[0] + b[2]) / 2, y];
  });
  let tintsUnder = true;
  for (const cell of document.querySelectorAll('g.cell')) {
    const piece = cell.querySelector('.piece');
    for (const tint of cell.querySelectorAll('.heat-tint')) {
      const after = tint.compareDocumentPosition(piece || tint) & Node.DOCUMENT_POSITION_FOLLOWING;
      if (piece && !after) tintsUnder = false;
    }
  }
  return { symbols, plates, badges, centres, tintsUnder,
           tints: document.querySelectorAll('.heat-tint').length };
}"""


def overlap(a, b, slack: float = 0.5) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > slack and min(a[3], b[3]) - max(a[1], b[1]) > slack


def thinking_position(name: str, seed: int):
    """A position a few moves in, with every legal move in a heat map (shares and scores) and
    an expected line that, where the game has moves from one square to another, comes back to
    the square it left (1: a to b, 2: a reply, 3: b to a)."""
    game = make_game(short_spec(name))
    rng = random.Random(seed)
    for attempt in range(400):
        state = game.initial_state(seed + attempt)
        for _ in range(6 + attempt % 7):
            if state.is_terminal():
                break
            state.apply(sample_chance(state, rng) if state.current_player() == CHANCE
                        else rng.choice(state.legal_actions()))
        if state.is_terminal() or state.current_player() == CHANCE:
            continue
        line = find_return(state, rng)
        if line is not None:
            return state, line
    raise AssertionError(f"{name}: no position with a line found")


def find_return(state, rng):
    """[a to b, a reply, b to a] in notation where the game has such moves, else three moves."""
    two_cell = [a for a in state.legal_actions() if len(render.action_cells(state, a)) == 2]
    for first in rng.sample(two_cell, min(len(two_cell), 12)):
        cells = render.action_cells(state, first)
        after = state.child(first)
        if after.is_terminal() or after.current_player() == CHANCE:
            continue
        for reply in after.legal_actions()[:30]:
            back = after.child(reply)
            if back.is_terminal() or back.current_player() == CHANCE:
                continue
            for third in back.legal_actions():
                if tuple(render.action_cells(back, third)) == (cells[1], cells[0]):
                    return [state.action_to_str(first), after.action_to_str(reply),
                            back.action_to_str(third)]
    if two_cell:
        return None
    walk, line = state.clone(), []
    for _ in range(3):
        if walk.is_terminal() or walk.current_player() == CHANCE:
            break
        action = rng.choice(walk.legal_actions())
        line.append(walk.action_to_str(action))
        walk.apply(action)
    return line


@e2e
@pytest.mark.parametrize("name", [n for n in game_names()
                                  if render.has_renderer(make_game(n))])
def test_heat_numbers_and_badges_cover_no_piece_and_no_other(page, name, artifacts):
    for seed in (1, 2, 3):
        state, line = thinking_position(name, seed)
        legal = state.legal_actions()
        shares = {state.action_to_str(a): 1 / len(legal) for a in legal}
        scores = {state.action_to_str(a): rng_score for a, rng_score in
                  zip(legal, [-0.125, 262, -35000, 4.5, 1234, -12.5] * len(legal))}
        info = {"heat": {"visit share": shares, "root score": scores}, "pv": line}
        thought = render.thinking(state, info)
        svg = render.svg(state, thought=thought)
        page.set_content(f"<!doctype html><body style='margin:0'>{svg}</body>")
        found = page.evaluate(BOXES)
        assert found["tints"] > 0 and found["tintsUnder"], "a heat tint drawn over a piece"
        badges = found["badges"]
        assert len(badges) == len(thought.arrows) >= 1  # the moves with squares (no draft)
        for kind, plates in found["plates"].items():
            assert plates, kind
            for plate in plates:
                for symbol in found["symbols"]:
                    assert not overlap(plate, symbol), (name, kind, plate, symbol)
                for badge in badges:
                    assert not overlap(plate, badge), (name, kind, plate, badge)
        for i, a in enumerate(badges):
            for b in badges[i + 1:]:
                assert not overlap(a, b, 0.0), (name, line, a, b)  # never one on another
            for x, y in found["centres"]:  # nor on the middle of a piece
                assert not (a[0] < x < a[2] and a[1] < y < a[3]), (name, line, a, (x, y))
        if seed == 1:
            page.screenshot(path=str(artifacts / f"heat-badges-{name}.png"))


def test_a_line_back_to_its_square_puts_its_badges_apart_without_a_browser():
    """The same rule read from the SVG's numbers (for machines without Chromium): badges
    of a line that returns to its square, and the heat plates, never meet."""
    import xml.etree.ElementTree as ElementTree

    from boardlab.render.grid import BADGE_R

    for name in ("minichess", "xiangqi", "jungle-classic"):
        state, line = thinking_position(name, 1)
        shares = {state.action_to_str(a): 0.01 for a in state.legal_actions()}
        svg = render.svg(state, thought=render.thinking(state, {"heat": {"share": shares},
                                                                "pv": line}))
        root = ElementTree.fromstring(svg)
        ns = "{http://www.w3.org/2000/svg}"
        badges = [(float(c.get("cx")), float(c.get("cy"))) for g in root.iter(f"{ns}g")
                  if g.get("class") == "badge" for c in g.iter(f"{ns}circle")]
        plates = [(float(r.get("x")), float(r.get("y")), float(r.get("x")) +
                   float(r.get("width")), float(r.get("y")) + float(r.get("height")))
                  for r in root.iter(f"{ns}rect") if r.get("class") == "heat-plate"]
        assert len(badges) == 3 and plates
        for i, (x, y) in enumerate(badges):
            for x2, y2 in badges[i + 1:]:
                assert ((x - x2) ** 2 + (y - y2) ** 2) ** 0.5 >= 2 * BADGE_R, (name, line)
            box = (x - BADGE_R, y - BADGE_R, x + BADGE_R, y + BADGE_R)
            assert not any(overlap(box, plate, 0.0) for plate in plates), (name, line)


# --- 4. cards in the picture, the replay page ---------------------------------------------------

@e2e
def test_draft_cards_are_clicked_in_the_picture(page, live_server):
    start_game(page, live_server, "sequence", ("human", "random"))
    before = page.get_attribute("#board", "data-ply")
    page.click('#board g.cell[data-movable="1"] >> nth=0')  # play a card on the board
    page.wait_for_function("(b) => document.getElementById('board').dataset.ply !== b "
                           "&& document.body.dataset.busy === '0'", arg=before)
    assert page.inner_text("#status").endswith("click a marked card, or its button.")
    cards = page.query_selector_all('#board g.card[data-movable="1"]')
    assert cards and all(c.get_attribute("data-pick").startswith("0:") for c in cards)
    hand = page.query_selector_all('#board g.cards[data-row="1"] g.card')
    assert hand and not any(c.get_attribute("data-movable") for c in hand)
    before = page.get_attribute("#board", "data-ply")
    assert page.query_selector_all("#extra-moves button")  # the keyboard's way, kept
    cards[-1].click()
    page.wait_for_function("(before) => document.getElementById('board').dataset.ply !== before"
                           " || document.getElementById('extra-moves').dataset.choice === '1'",
                           arg=before)
    if page.get_attribute("#board", "data-ply") == before:  # a draft and trades: choose
        page.click("#extra-moves button >> nth=0")
    page.wait_for_function(IDLE, arg=before)
    assert moves_of(page)[1].startswith(("red: draft ", "red: trade ")), moves_of(page)


@e2e
def test_the_replay_page_keeps_the_board_in_view_with_end_reasons(browser, live_server):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    try:
        page.goto(f"{live_server}/replay?game=0")  # a Reversi game of about 60 moves
        page.wait_for_selector("#game-list tbody tr")
        page.wait_for_function(PLY, arg=page.eval_on_selector(
            "#game-list tbody tr", "r => r.lastElementChild.textContent"))
        board = page.locator("#board svg").bounding_box()
        assert board["y"] >= 0 and board["y"] + board["height"] <= 900, board
        for other in ("#stored", "#history"):
            assert boxes_apart(board, page.locator(other).bounding_box()), other
        assert page.locator("#history").bounding_box()["y"] < 200  # beside, not under
        results = page.eval_on_selector_all("#game-list td.result",
                                            "tds => tds.map(t => t.textContent)")
        assert len(results) == 4
        assert all(re.search(r"(the board is full|neither side can move): black \d+, white \d+",
                             text) for text in results[:2]), results
        assert all(re.search(r"no pieces left|plies without a capture|no legal move", text)
                   for text in results[2:]), results
        assert "(" in page.inner_text("#status").partition("won")[2] or \
            "draw (" in page.inner_text("#status")
        page.set_viewport_size({"width": 390, "height": 844})
        page.reload()
        page.wait_for_selector("#board svg")
        board = page.locator("#board svg").bounding_box()
        assert board["y"] < page.locator("#stored").bounding_box()["y"]  # the board first
        assert board["y"] + board["height"] <= 844 and board["width"] >= 300
    finally:
        context.close()


def test_replay_writes_no_seconds_for_a_persons_moves_and_gives_the_reason(tmp_path):
    from fastapi.testclient import TestClient

    from boardlab.web.app import create_app

    with TestClient(create_app(db=tmp_path / "r.sqlite", store_games=True)) as client:
        game = client.post("/api/games", json={"game": "reversi", "seed": 4,
                                               "seats": ["human", "random"]}).json()
        while not game["over"]:
            if game["to_move_kind"] == "human":
                game = client.post(f"/api/games/{game['id']}/move",
                                   json={"action": game["legal"][0]["id"]}).json()
            else:
                game = client.post(f"/api/games/{game['id']}/agent-move").json()
        stored = client.get("/api/db/games/0").json()
        people = [m for m in stored["moves"] if m["mover"] == 0]
        agents = [m for m in stored["moves"] if m["mover"] == 1]
        assert people and all(m["seconds"] is None for m in people)
        assert agents and all(isinstance(m["seconds"], float) for m in agents)
        assert stored["end"] == game["result"]["reason"] and stored["result"].endswith(
            f"({stored['end']})")
        listed = client.get("/api/db/games").json()["games"][0]
        assert listed["end"] == stored["end"]
        text = client.get("/api/db/games/0/moves.txt").text
        assert f'[Reason "{stored["end"]}"]' in text and "; black, " not in text


# --- 5. the move animation, the last move, a king in danger -------------------------------------

UNMARKED = """(svg) => { const d = document.createElement('div');
  d.innerHTML = svg === null ? document.getElementById('board').innerHTML : svg;
  for (const c of d.querySelectorAll('g.cell'))
    for (const a of ['movable', 'place', 'target', 'selected']) delete c.dataset[a];
  return d.innerHTML; }"""
"""The board's SVG (or `svg`) without the page's own marks of playable cells."""

WATCH_FX = """() => { window.fxSeen = 0; new MutationObserver(() => {
  if (document.getElementById('board-fx').childElementCount) window.fxSeen += 1; })
  .observe(document.getElementById('board-fx'), { childList: true }); }"""


@e2e
@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_move_glides_unless_the_person_prefers_reduced_motion(browser, live_server, motion):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, reduced_motion=motion)
    page = context.new_page()
    page.set_default_timeout(20_000)
    try:
        start_game(page, live_server, "minichess", ("human", "human"))
        page.evaluate(WATCH_FX)
        page.click('#board g.cell[data-square="b2"]')
        page.click('#board g.cell[data-square="b3"]')
        page.wait_for_function(IDLE, arg="0")
        b3 = page.get_attribute('#board g.cell[data-square="b3"]', "data-cell")
        if motion == "reduce":
            assert page.get_attribute("#board", "data-animated") == "reduced"
            assert page.evaluate("() => window.fxSeen") == 0
        else:
            assert page.get_attribute("#board", "data-animated") == b3
            assert page.evaluate("() => window.fxSeen") >= 1  # the piece glided in the overlay
        page.wait_for_function("() => document.getElementById('board-fx').hasAttribute('hidden')")
        # The board is the server's picture (the page's marks of playable cells aside), the
        # last move framed on both its squares.
        server = httpx.get(f"{live_server}/api/games/{game_id(page)}").json()
        assert page.evaluate(UNMARKED, None) == page.evaluate(UNMARKED, server["svg"])
        framed = page.eval_on_selector_all("#board g.cell rect.last",
                                           "rs => rs.map(r => r.parentNode.dataset.square)")
        assert sorted(framed) == ["b2", "b3"]
    finally:
        context.close()


@e2e
@pytest.mark.parametrize("spec, position, square", [
    ("xiangqi", "4k4/9/9/9/9/9/9/9/4R4/4K4 b - - 0 1", "e9"),
    ("minichess", "k4/5/5/5/5/r3K w - - 0 1", "e1"),
])
def test_a_king_in_danger_is_marked(page, live_server, spec, position, square):
    game = httpx.post(f"{live_server}/api/games", json={
        "game": spec, "seats": ["human", "human"], "position": position}).json()
    page.goto(f"{live_server}/play/{game['id']}?delay=0")
    page.wait_for_function(PLY, arg="0")
    marked = page.eval_on_selector_all('#board g.cell[data-check="1"]',
                                       "cs => cs.map(c => c.dataset.square)")
    assert marked == [square]
    assert page.query_selector(f'#board g.cell[data-square="{square}"] circle.check')
    # Out of danger, no mark: the usual start.
    start_game(page, live_server, spec, ("human", "human"))
    assert page.query_selector('#board g.cell[data-check="1"]') is None
