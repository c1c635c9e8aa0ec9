"""The web API (`boardlab serve`) attacked over its OpenAPI routes: generated paths, methods,
query strings and bodies (valid shapes with wild values, any JSON, bytes that are not JSON),
in short sequences so that requests also hit games that exist.

The property (issue #15): every answer is a 2xx or a clean 4xx whose JSON `detail` is a
sentence; the server never answers 5xx and never raises.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from urllib.parse import quote

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fuzz_support import COUNTER, fuzz_settings, good_store_bytes

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install '.[web]')")
pytest.importorskip("httpx", reason="FastAPI's TestClient needs httpx")


@pytest.fixture(scope="module")
def client():
    from fastapi.testclient import TestClient

    from boardlab.web.app import create_app

    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "results.sqlite"
        db.write_bytes(good_store_bytes())
        with TestClient(create_app(db=db, max_games=20)) as test_client:
            yield test_client


def check(response) -> None:
    COUNTER.add("web API")
    assert response.status_code < 500, (
        f"{response.request.method} {response.request.url} -> {response.status_code}: "
        f"{response.text[:300]}")
    if 400 <= response.status_code < 500 and "json" in response.headers.get("content-type", ""):
        detail = response.json().get("detail")
        assert detail, f"{response.request.url}: a {response.status_code} with no detail"


JSON_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-2 ** 70, 2 ** 70),
                         st.floats(allow_nan=False), st.text(max_size=12))
ANY_JSON = st.recursive(JSON_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)),
    max_leaves=6)
SEATS = st.sampled_from(["human", "random", "greedy", "Human", " human ", "", "nope",
                         "minimax:depth=1", "random:x=1", "mcts:sims=5", "greedy:eval=nope",
                         "/etc/passwd:Bot", "x.py:Bot"])
GAME_SPECS = st.sampled_from(["reversi", "jungle", "jungle-classic", "minichess", "xiangqi",
                              "sequence", "sequence:num_players=4", "reversi:x=1", "nope", "",
                              ":", "jungle:no_capture_limit=0", "jungle:no_capture_limit=5"])
NUMBERS = st.one_of(st.integers(-3, 300), st.integers(-2 ** 70, 2 ** 70),
                    st.floats(allow_nan=False), st.text(max_size=6))
MOVES = st.one_of(st.sampled_from(["d3", "c4", "pass", "reveal a1", "a2a3", "h2e2", "a1-a2",
                                   "7h a1", "", " ", "²", "d3 d3"]), st.text(max_size=10))


@st.composite
def new_game_body(draw: st.DrawFn):
    body = {"game": draw(GAME_SPECS), "seats": draw(st.lists(SEATS, max_size=5))}
    if draw(st.booleans()):
        body["seed"] = draw(NUMBERS)
    if draw(st.booleans()):
        body["time_per_move"] = draw(st.one_of(st.none(), st.floats(-1, 0.05), NUMBERS))
    if draw(st.integers(0, 5)) == 0:
        body[draw(st.text(max_size=5))] = draw(JSON_SCALARS)
    return body


BODIES = {
    "/api/games": new_game_body(),
    "move": st.fixed_dictionaries({}, optional={"move": st.one_of(st.none(), MOVES),
                                                "action": st.one_of(st.none(), NUMBERS)}),
    "resign": st.fixed_dictionaries({}, optional={"seat": st.one_of(st.none(), NUMBERS)}),
    "new": st.fixed_dictionaries({}, optional={"seed": st.one_of(st.none(), NUMBERS)}),
    # an agent asked about a position: short clocks keep a fuzzed search short
    "analyse": st.fixed_dictionaries(
        {"ply": NUMBERS, "agent": SEATS},
        optional={"seconds": st.one_of(st.none(), st.floats(-1, 0.05), NUMBERS),
                  "flip": st.one_of(st.booleans(), NUMBERS), "line": st.lists(MOVES, max_size=3)}),
    "line": st.fixed_dictionaries({"ply": NUMBERS}, optional={
        "moves": st.one_of(st.lists(MOVES, max_size=4), NUMBERS), "flip": st.booleans()}),
}


def body_for(route: str) -> st.SearchStrategy:
    shaped = BODIES.get(route, st.none())
    return st.one_of(shaped, shaped, shaped, ANY_JSON.map(lambda v: ("json", v)),
                     st.binary(max_size=20).map(lambda b: ("raw", b)),
                     st.just(("raw", b"{\"move\": ")))


def send(client, method: str, path: str, body, params=None):
    if isinstance(body, tuple) and body[0] == "raw":
        return client.request(method, path, content=body[1], params=params,
                              headers={"content-type": "application/json"})
    if isinstance(body, tuple):
        body = body[1]
    if body is None:
        return client.request(method, path, params=params)
    return client.request(method, path, content=json.dumps(body), params=params,
                          headers={"content-type": "application/json"})


GAME_ACTIONS = ["move", "agent-move", "undo", "resign", "new", "stop", "analyse", "line"]
GAME_READS = ["position", "moves.txt"]
"""GET /api/games/{id}/...: besides these, `events` is a stream that never ends for a game
that exists, so it is fuzzed with ids of no game (its refusal), below."""
IDS = st.one_of(st.just("existing"), st.text(max_size=12), st.sampled_from(
    ["..", "%2e%2e", "0", "-1", "a" * 300, "existing/extra", "é", "%00"]))


@fuzz_settings(max_examples=110)
@given(data=st.data())
def test_the_game_api_answers_every_request_with_2xx_or_a_clean_4xx(client, data) -> None:
    created = send(client, "POST", "/api/games", data.draw(body_for("/api/games")))
    check(created)
    game_id = created.json()["id"] if created.status_code == 201 else "nothing-here"
    for _ in range(4):
        route = data.draw(st.sampled_from(GAME_ACTIONS + GAME_READS + ["get", "delete",
                                                                       "events"]))
        which = data.draw(IDS)
        # quoted as a browser would (httpx refuses control characters); '/' and '%' kept
        target = quote(game_id if which == "existing" else which, safe="/%.")
        if route == "get":
            check(client.get(f"/api/games/{target}"))
        elif route in GAME_READS:
            params = data.draw(st.dictionaries(st.sampled_from(["ply", "flip", "x"]),
                                               NUMBERS.map(str), max_size=2))
            check(client.get(f"/api/games/{target}/{route}", params=params))
        elif route == "events":
            check(client.get(f"/api/games/{quote(which, safe='%.')}-not-a-game/events"))
        elif route == "delete":
            check(client.delete(f"/api/games/{target}"))
        else:
            body = data.draw(body_for(route)) if route in BODIES else None
            check(send(client, "POST", f"/api/games/{target}/{route}", body))


@fuzz_settings(max_examples=90)
@given(path=st.sampled_from(["/api/db/games", "/api/db/games/{n}", "/api/db/tournaments",
                             "/api/db/games/{n}/moves.txt",
                             "/api/db", "/api/games", "/api/agents", "/", "/replay",
                             "/tournament", "/static/{n}", "/api/{n}", "/{n}"]),
       n=st.one_of(NUMBERS.map(str), st.sampled_from(["../../etc/passwd", "..%2f..%2fpyproject"
                                                      ".toml", "app.js", "index.html"])),
       params=st.dictionaries(st.sampled_from(["game", "offset", "limit", "ply", "x"]),
                              NUMBERS.map(str), max_size=3),
       method=st.sampled_from(["GET", "GET", "GET", "POST", "PUT", "DELETE", "PATCH"]))
def test_the_read_api_and_pages_answer_with_2xx_or_a_clean_4xx(client, path, n, params,
                                                               method) -> None:
    check(client.request(method, path.replace("{n}", quote(n, safe="/%.")), params=params))


FUZZED_ROUTES = {
    ("post", "/api/games"), ("get", "/api/games/{game_id}"), ("delete", "/api/games/{game_id}"),
    *(("post", f"/api/games/{{game_id}}/{action}") for action in GAME_ACTIONS),
    ("get", "/api/db/games"), ("get", "/api/db/games/{number}"), ("get", "/api/db/tournaments"),
    ("get", "/api/db"), ("get", "/api/games"), ("get", "/api/agents"),
    *(("get", f"/api/games/{{game_id}}/{read}") for read in GAME_READS + ["events"]),
    ("get", "/api/db/games/{number}/moves.txt"),
}


def test_the_fuzzed_routes_are_every_route_of_the_openapi_spec(client) -> None:
    spec = client.get("/api/openapi.json").json()
    served = {(method, path) for path, methods in spec["paths"].items() for method in methods}
    assert served == FUZZED_ROUTES, f"routes not fuzzed: {served - FUZZED_ROUTES}"
