"""The JSON API, endpoint by endpoint, with FastAPI's TestClient (no network, no browser)."""

from __future__ import annotations

from pathlib import Path

import pytest

from web_helpers import short_spec

import boardlab
from boardlab.core.registry import game_names


def new_game(client, game="reversi", seats=("human", "random"), seed=0, **extra):
    response = client.post("/api/games", json={"game": game, "seats": list(seats), "seed": seed,
                                                **extra})
    assert response.status_code == 201, response.text
    return response.json()


def move(client, game_id, **body):
    return client.post(f"/api/games/{game_id}/move", json=body)


# --- listing ---------------------------------------------------------------------------------

def test_games_lists_every_registered_game_and_says_which_load(client):
    listed = {g["name"]: g for g in client.get("/api/games").json()}
    assert set(listed) == set(game_names())
    for name in game_names():
        assert listed[name]["loads"] and listed[name]["players"] == 2
    assert listed["jungle"]["has_chance"] and listed["jungle"]["renderer"]
    assert any(p["name"] == "no_capture_limit" for p in listed["jungle"]["params"])
    for entry in listed.values():
        if not entry["loads"]:
            assert entry["error"]  # a game being written says why it is not playable


def test_agents_lists_parameters(client):
    agents = {a["name"]: a for a in client.get("/api/agents").json()}
    assert {"random", "greedy", "minimax", "human"} <= set(agents)
    assert "depth" in {p["name"] for p in agents["minimax"]["params"]}


def test_agents_say_for_which_games_weights_are_shipped(client):
    agents = {a["name"]: a for a in client.get("/api/agents").json()}
    assert agents["random"]["weights"] is None and agents["minimax"]["weights"] is None
    models = Path(boardlab.__file__).parent / "models"
    for name, suffix in [("dqn", ".pt"), ("qlearning", ".npz"), ("alphazero", ".pt")]:
        weights = agents[name]["weights"]
        assert set(weights) == set(game_names())
        for game, shipped in weights.items():
            assert shipped == (models / f"{game}-{name}{suffix}").is_file(), (name, game)
    assert agents["dqn"]["weights"]["reversi"] and not agents["dqn"]["weights"]["sequence"]


# --- playing ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name", game_names())
def test_new_game_has_picture_text_and_clickable_legal_moves(client, name):
    state = new_game(client, short_spec(name))
    assert state["svg"].startswith("<svg") and state["text"]
    assert state["to_move"] == 0 and state["to_move_kind"] == "human"
    assert state["legal"] and all(m["notation"] for m in state["legal"])
    if state["renderer"]:
        assert 'data-cell="0"' in state["svg"] and all(m["cells"] for m in state["legal"])
    else:  # a game without a picture yet: its text board, moves picked from a list
        assert "text-board" in state["svg"] and all(m["cells"] == [] for m in state["legal"])
    assert not state["over"] and state["result"] is None and not state["can_undo"]


def test_human_moves_by_notation_and_by_id(client):
    state = new_game(client, "reversi", ("human", "human"))
    after = move(client, state["id"], move="d3").json()
    assert after["history"][0]["notation"] == "d3" and after["to_move"] == 1
    c5 = next(m for m in after["legal"] if m["notation"] == "c5")
    after = move(client, state["id"], action=c5["id"]).json()
    assert [h["notation"] for h in after["history"]] == ["d3", "c5"]
    assert after["last"]["notation"] == "c5" and after["last"]["cells"] == [c5["id"]]


def test_agent_move_reports_thinking_time_and_minimax_info(client):
    state = new_game(client, "reversi", ("minimax:depth=2", "human"))
    assert state["to_move_kind"] == "agent" and state["legal"] == []
    after = client.post(f"/api/games/{state['id']}/agent-move").json()
    report = after["agent"]
    assert report["spec"] == "minimax:depth=2" and report["seconds"] >= 0
    assert report["info"]["depth"] == 2 and report["info"]["nodes"] > 0
    assert after["history"][0]["seconds"] is not None and after["to_move_kind"] == "human"


def test_chance_is_resolved_on_the_server_from_the_seed(client):
    outcomes = []
    for _ in range(2):
        state = new_game(client, "jungle", ("human", "human"), seed=7)
        after = move(client, state["id"], move="reveal a1").json()
        assert after["history"][1]["mover"] == -1  # the reveal's outcome, drawn by the server
        assert after["to_move"] == 1
        outcomes.append(after["history"][1]["notation"])
    assert outcomes[0] == outcomes[1]


def test_reveal_in_jungle_is_one_click_on_a_face_down_piece(client):
    state = new_game(client, "jungle")
    reveal = next(m for m in state["legal"] if m["notation"] == "reveal a1")
    assert len(reveal["cells"]) == 1


def test_undo_goes_back_to_the_last_human_decision(client):
    state = new_game(client, "reversi")
    game_id = state["id"]
    move(client, game_id, move="d3")
    client.post(f"/api/games/{game_id}/agent-move")
    undone = client.post(f"/api/games/{game_id}/undo").json()
    assert undone["history"] == [] and undone["to_move_kind"] == "human"
    refused = client.post(f"/api/games/{game_id}/undo")
    assert refused.status_code == 409 and "nothing to undo" in refused.json()["detail"]


def test_resign_ends_the_game_and_new_restarts_it(client):
    state = new_game(client, "minichess")
    game_id = state["id"]
    resigned = client.post(f"/api/games/{game_id}/resign", json={}).json()
    assert resigned["over"] and resigned["result"]["returns"] == [-1.0, 1.0]
    assert "resigned" in resigned["result"]["text"]
    late = move(client, game_id, move="a2a3")
    assert late.status_code == 409 and "over" in late.json()["detail"]
    fresh = client.post(f"/api/games/{game_id}/new", json={"seed": 5}).json()
    assert not fresh["over"] and fresh["seed"] == 5 and fresh["history"] == []


def test_get_and_delete_a_game(client):
    state = new_game(client)
    assert client.get(f"/api/games/{state['id']}").json()["id"] == state["id"]
    assert client.delete(f"/api/games/{state['id']}").status_code == 204
    assert client.get(f"/api/games/{state['id']}").status_code == 404


def test_games_in_memory_are_capped_oldest_first(client):
    first = new_game(client)
    for _ in range(client.app.state.sessions.cap):
        new_game(client)
    assert len(client.app.state.sessions) == client.app.state.sessions.cap
    gone = client.get(f"/api/games/{first['id']}")
    assert gone.status_code == 404 and "no game with id" in gone.json()["detail"]


# --- bad requests: 4xx with a sentence --------------------------------------------------------

@pytest.mark.parametrize("body, status, words", [
    ({"game": "chess", "seats": ["human", "random"]}, 422, "unknown game 'chess'"),
    ({"game": "reversi", "seats": ["human", "alphabeta"]}, 422, "unknown agent 'alphabeta'"),
    ({"game": "reversi", "seats": ["human"]}, 422, "2 seats"),
    ({"game": "reversi", "seats": ["human", "minimax:depth=0"]}, 422, "depth"),
    ({"game": "reversi:size=9", "seats": ["human", "random"]}, 422, "size"),
    ({"seats": ["human", "random"]}, 400, "game"),
    ({"game": "reversi", "seats": "human"}, 400, "seats"),
    ({"game": "reversi", "seats": ["human", "random"], "colour": "red"}, 400, "colour"),
])
def test_bad_new_game_requests_get_a_clear_4xx(client, body, status, words):
    response = client.post("/api/games", json=body)
    assert response.status_code == status, response.text
    assert words in response.json()["detail"]


def test_a_game_that_does_not_load_yet_is_refused_with_its_reason(client):
    missing = [name for name in game_names() if name not in game_names()]
    if not missing:
        pytest.skip("every registered game loads")
    response = client.post("/api/games", json={"game": missing[0], "seats": ["human"] * 2})
    assert response.status_code == 422 and "does not load" in response.json()["detail"]


def test_illegal_and_unreadable_moves_get_422_with_the_games_message(client):
    game_id = new_game(client, "reversi")["id"]
    illegal = move(client, game_id, move="a1")
    assert illegal.status_code == 422 and "a1" in illegal.json()["detail"]
    garbled = move(client, game_id, move="zz99")
    assert garbled.status_code == 422 and "not a Reversi move" in garbled.json()["detail"]
    bad_id = move(client, game_id, action=0)
    assert bad_id.status_code == 422 and "not legal" in bad_id.json()["detail"]
    both = move(client, game_id, move="d3", action=19)
    assert both.status_code == 422 and "either" in both.json()["detail"]


def test_malformed_json_gets_400_saying_so(client):
    game_id = new_game(client)["id"]
    response = client.post(f"/api/games/{game_id}/move", content=b"{move: d3",
                           headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert "not valid JSON" in response.json()["detail"]


def test_moving_out_of_turn_gets_409(client):
    state = new_game(client, "reversi", ("random", "human"))
    assert move(client, state["id"], move="d3").status_code == 409
    human_first = new_game(client, "reversi", ("human", "random"))
    response = client.post(f"/api/games/{human_first['id']}/agent-move")
    assert response.status_code == 409 and "human" in response.json()["detail"]


def test_unknown_game_id_gets_404(client):
    response = client.post("/api/games/nope/move", json={"move": "d3"})
    assert response.status_code == 404 and "nope" in response.json()["detail"]


@pytest.mark.parametrize("path", [
    "/static/../app.py",
    "/static/%2e%2e/app.py",
    "/static/..%2fapp.py",
    "/static/%2e%2e%2f%2e%2e%2fcore/game.py",
    "/static/....//app.py",
    "/static//etc/passwd",
    "/static/%2fetc%2fpasswd",
])
def test_static_files_never_leave_the_static_folder(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert "create_app" not in response.text and "root:" not in response.text


def test_pages_and_static_files_are_served(client):
    for path in ("/", "/replay", "/tournament"):
        page = client.get(path)
        assert page.status_code == 200 and "<title>BoardLab" in page.text
    assert "function api" in client.get("/static/common.js").text


# --- stored games ----------------------------------------------------------------------------

def test_stored_games_are_listed_and_replayed_move_by_move(client):
    listing = client.get("/api/db/games").json()
    assert listing["total"] == 4  # two tournaments: one pair each, two games a pair
    first = listing["games"][0]
    whole = client.get(f"/api/db/games/{first['number']}").json()
    assert whole["ply"] == whole["plies"] == len(whole["moves"]) > 0
    start = client.get(f"/api/db/games/{first['number']}?ply=0").json()
    assert start["ply"] == 0 and start["svg"].startswith("<svg")
    one = client.get(f"/api/db/games/{first['number']}?ply=1").json()
    assert one["text"] != start["text"]


def test_jungle_replays_show_the_reveals(client):
    jungle = client.get("/api/db/games?game=jungle:no_capture_limit=12").json()["games"]
    assert client.get("/api/db/games?game=jungle").json()["games"] == jungle
    replay = client.get(f"/api/db/games/{jungle[0]['number']}").json()
    # Written as the Play page writes them (it once said `reveal a1 (tiger)` here and
    # `reveal a1 → tiger` there), each move named by its side's colour.
    reveals = [m["text"] for m in replay["moves"] if m["text"].startswith("reveal")]
    assert reveals and all(" → " in text for text in reveals)
    assert {m["name"] for m in replay["moves"]} == {"red", "blue"}


def test_a_browser_game_and_its_replay_write_the_moves_alike(client, tmp_path):
    from fastapi.testclient import TestClient

    from boardlab.web.app import create_app

    db = tmp_path / "browser.sqlite"
    with TestClient(create_app(db=db, store_games=True)) as own:
        game = new_game(own, "jungle:no_capture_limit=12", ("random", "greedy"), seed=3)
        while not game["over"]:
            game = own.post(f"/api/games/{game['id']}/agent-move").json()
        stored = own.get("/api/db/games").json()["games"]
        assert [g["seats"] for g in stored] == [["random", "greedy"]]
        replay = own.get(f"/api/db/games/{stored[0]['number']}").json()
    assert [m["text"] for m in replay["moves"]] == [m["text"] for m in game["moves"]]
    assert any("×" in m["text"] for m in game["moves"])  # captures leave a trace


def test_bad_replay_requests_get_4xx(client):
    assert client.get("/api/db/games/999").status_code == 404
    response = client.get("/api/db/games/0?ply=10000")
    assert response.status_code == 422 and "outside" in response.json()["detail"]
    assert client.get("/api/db/games/abc").status_code == 400
    assert client.get("/api/db/games?limit=0").status_code == 422


def test_tournaments_page_data_matches_the_arena(client, results_db):
    from boardlab.arena.store import ResultStore
    from boardlab.arena.tournament import tournament_result

    tournaments = {t["game"]: t for t in client.get("/api/db/tournaments").json()}
    assert set(tournaments) == {"reversi", "jungle:no_capture_limit=12"}
    shown = tournaments["reversi"]
    with ResultStore(results_db) as store:
        expected = tournament_result(store, "reversi", ["random", "greedy"], 2)
    pair = expected.pairs[0]
    assert shown["pairs"][0]["a_wins"] == pair.a_wins and shown["pairs"][0]["games"] == 2
    assert shown["agents"] == ["random", "greedy"] and shown["cross"][0][0] is None
    assert shown["cross"][0][1]["wins"] == pair.a_wins


def test_without_a_database_the_replay_endpoints_say_how_to_get_one():
    from fastapi.testclient import TestClient

    from boardlab.web.app import create_app

    with TestClient(create_app()) as bare:
        assert bare.get("/api/db").json() == {"db": None, "stores_browser_games": False}
        response = bare.get("/api/db/games")
        assert response.status_code == 404 and "--db" in response.json()["detail"]


# --- issue 34: addresses, the analysis board, positions ----------------------------------------

def test_a_games_address_serves_the_play_page_and_unknown_pages_read_as_pages(client):
    game = new_game(client)
    page = client.get(f"/play/{game['id']}")
    assert page.status_code == 200 and "<title>BoardLab: play" in page.text
    for path in ("/play/nope", "/game/nope"):
        missing = client.get(path)
        assert missing.status_code == 404
        assert missing.headers["content-type"].startswith("text/html")
        assert "Not found" in missing.text and '"detail"' not in missing.text
    assert client.get("/api/nope").json() == {"detail": "Not Found"}  # the API stays JSON


def test_every_change_is_published_once_with_a_new_version(client):
    game = new_game(client, "reversi", ("human", "human"))
    assert game["version"] == 1 and game["thinking"] is None
    after = move(client, game["id"], move="d3", ply=0).json()
    assert after["version"] == 2
    refused = move(client, game["id"], move="c5", ply=0)
    assert refused.status_code == 409 and "moved on" in refused.json()["detail"]
    assert client.get(f"/api/games/{game['id']}").json()["version"] == 2  # nothing changed


def test_positions_of_the_past_and_an_agents_judgement_once_the_game_is_over(client):
    game = new_game(client, "reversi", ("human", "random"))
    gid = game["id"]
    move(client, gid, move="d3")
    client.post(f"/api/games/{gid}/agent-move")
    first = client.get(f"/api/games/{gid}/position?ply=1").json()
    assert first["ply"] == 1 and first["plies"] == 2 and not first["live"]
    assert first["last"] == "d3" and first["to_move"] == 1
    assert client.get(f"/api/games/{gid}/position").json()["live"]
    assert client.get(f"/api/games/{gid}/position?ply=9").status_code == 422
    asked = {"ply": 1, "agent": "mcts:sims=30"}
    early = client.post(f"/api/games/{gid}/analyse", json=asked)
    assert early.status_code == 409 and "once it is over" in early.json()["detail"]
    client.post(f"/api/games/{gid}/resign", json={})
    judged = client.post(f"/api/games/{gid}/analyse", json=asked).json()
    assert judged["agent"]["spec"] == "mcts:sims=30" and judged["agent"]["seat"] == 1
    assert 'class="heat"' in judged["svg"]
    bad = client.post(f"/api/games/{gid}/analyse", json={"ply": 1, "agent": "nobody"})
    assert bad.status_code == 422 and "unknown agent" in bad.json()["detail"]


def test_a_game_from_a_pasted_position_starts_there_and_is_not_stored(tmp_path):
    from fastapi.testclient import TestClient

    from boardlab.web.app import create_app

    with TestClient(create_app(db=tmp_path / "store.sqlite", store_games=True)) as own:
        game = new_game(own, "reversi", ("human", "human"))
        after = move(own, game["id"], move="d3").json()
        pasted = new_game(own, "reversi", ("random", "random"), position=after["position_text"])
        assert pasted["text"] == after["text"] and pasted["to_move"] == 1
        while not pasted["over"]:
            pasted = own.post(f"/api/games/{pasted['id']}/agent-move").json()
        assert own.get("/api/db/games").json()["total"] == 0


def test_the_replay_list_filters_a_tournaments_games(client):
    tournaments = client.get("/api/db/tournaments").json()
    for number, tournament in enumerate(tournaments):
        games = client.get(f"/api/db/games?tournament={number}").json()["games"]
        assert len(games) == tournament["stored_games"]
        assert {g["game"] for g in games} == {tournament["game"]}
    missing = client.get(f"/api/db/games?tournament={len(tournaments)}")
    assert missing.status_code == 404 and "no tournament number" in missing.json()["detail"]
