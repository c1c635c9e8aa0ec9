"""The browser face: a JSON API over games in memory and stored results, and static pages.

`create_app()` builds the FastAPI application; `boardlab serve` runs it with uvicorn on
127.0.0.1. docs/web.md lists the endpoints. Errors are JSON `{"detail": "<a sentence>"}`:
400 for a request that cannot be read, 404 for an unknown game or stored game, 409 for a
request that does not fit the game's situation (not your turn, an agent thinking, the game
moved on, game over), 422 for a move or spec the game refuses. Endpoints are plain functions:
FastAPI runs them in its thread pool, and each game's lock serialises requests on the same
game; reading a game and following it (`/events`, server-sent events) take no lock. Pages
that are not found are HTML pages with a sentence, API paths answer JSON.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import html
import json
import string
import threading
from pathlib import Path
from typing import Any, Callable

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    StreamingResponse,
)
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from .. import render
from ..core.game import BoardLabError, IllegalActionError, ParseError
from ..core.registry import agent_class, agent_names, describe_settings, game_class, game_names
from .results import BrowserGames, Results
from .sessions import NotFound, Session, Sessions, SessionError, TimeControl

STATIC = Path(__file__).parent / "static"


@dataclasses.dataclass(frozen=True)
class Page:
    """A page of the site: static/page.html around the `<main>` and scripts in static/`main`,
    titled `BoardLab: title`, linked from every page's header as `link`, with these
    attributes on its `<body>`."""

    main: str
    title: str
    link: str
    body_attributes: str = ""


PAGES = {"/": Page("index.html", "play", "Play", 'data-busy="0" class="play-page"'),
         "/replay": Page("replay.html", "replay", "Replay", 'data-busy="0" class="replay-page"'),
         "/tournament": Page("tournament.html", "tournaments", "Tournaments")}
"""The site's pages by address, in the order the header links them."""


class NewGame(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(description="game spec, `NAME` or `NAME:param=value,...` "
                               "(GET /api/games lists the games)")
    seats: list[str] = Field(description="one per seat: `human` or an agent spec")
    seed: int = 0
    time_per_move: float | None = None
    position: str | None = Field(None, description="start from this position, in the game's "
                                                   "text notation (`position_text` of a game)")
    clock: Clocks | None = Field(None, description="clocks for every seat; running out loses")


class Clocks(BaseModel):
    model_config = ConfigDict(extra="forbid")
    base: float = Field(0.0, description="seconds for the whole game (with `increment`)")
    increment: float = Field(0.0, description="seconds added after each decision")
    per_move: float | None = Field(None, description="or seconds for each decision")


class Move(BaseModel):
    model_config = ConfigDict(extra="forbid")
    move: str | None = Field(None, description="the move in the game's notation")
    action: int | None = Field(None, description="or its action id")
    ply: int | None = Field(None, description="the move number the sender saw (the game's "
                                              "`ply`): refused with 409 if the game moved on")


class Analyse(BaseModel):
    model_config = ConfigDict(extra="forbid")
    ply: int = Field(description="the position after this many decisions")
    agent: str = Field(description="an agent spec, `NAME` or `NAME:param=value,...`")
    seconds: float | None = Field(None, description="a clock for the agent (at most 60 s)")
    flip: bool = False
    line: list[str] = Field([], description="side-line moves (notation) played after `ply`")


class Line(BaseModel):
    model_config = ConfigDict(extra="forbid")
    ply: int = Field(description="the side line starts after this many decisions of the game")
    moves: list[str] = Field([], description="the side line's moves in notation, in turn")
    flip: bool = False


class Resign(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int | None = None


class Restart(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seed: int | None = None


def create_app(db: str | Path | None = None, max_games: int = 200,
               store_games: bool = False) -> FastAPI:
    """The application; `db` is the results database the replay and tournament pages read.
    With `store_games`, every game that ends in the browser is written to `db` (created if
    missing) as the arena writes its games."""
    app = FastAPI(title="BoardLab", docs_url="/api/docs", redoc_url=None,
                  openapi_url="/api/openapi.json")
    sessions = Sessions(max_games)
    browser_games = BrowserGames(db) if store_games and db is not None else None
    results = Results(db) if db is not None else None
    app.state.sessions = sessions

    def store(session: Session) -> None:
        if browser_games is None or session.position is not None:
            return  # a game from a pasted position cannot be replayed from its seed
        try:
            browser_games.store(session)
        except BoardLabError as error:  # the game itself is fine; say why it was not kept
            session.store_error = f"not stored in {browser_games.path.name}: {error}"

    @app.exception_handler(BoardLabError)
    def _boardlab_error(request: Request, error: BoardLabError) -> JSONResponse:
        status = (404 if isinstance(error, NotFound) else 409 if isinstance(error, SessionError)
                  else 422 if isinstance(error, (IllegalActionError, ParseError)) else 400)
        return JSONResponse({"detail": str(error)}, status_code=status)

    @app.exception_handler(StarletteHTTPException)
    def _http_error(request: Request, error: StarletteHTTPException):
        if request.url.path.startswith("/api/") or error.status_code != 404:
            return JSONResponse({"detail": error.detail}, status_code=error.status_code,
                                headers=getattr(error, "headers", None))
        return _not_found_page(f"There is no page at {request.url.path}.")

    @app.exception_handler(RequestValidationError)
    def _bad_request(request: Request, error: RequestValidationError) -> JSONResponse:
        problems = []
        for item in error.errors():
            where = ".".join(str(part) for part in item.get("loc", ()) if part != "body")
            if item.get("type") == "json_invalid":
                problems.append("the request body is not valid JSON "
                                f"({item.get('ctx', {}).get('error', 'parse error')})")
            else:
                problems.append(f"{where or 'body'}: {item.get('msg', 'invalid')}")
        return JSONResponse({"detail": "bad request: " + "; ".join(problems)}, status_code=400)

    # --- what there is -----------------------------------------------------------------------
    @app.get("/api/games")
    def list_games() -> list[dict[str, Any]]:
        def entry(cls: Any) -> dict[str, Any]:
            game = cls()
            facts = game.facts
            return {"players": facts.num_players, "has_chance": facts.has_chance,
                    "hidden_information": facts.hidden_information,
                    "renderer": render.has_renderer(game), "params": _params(cls.Settings)}

        return _listing(game_names(), game_class, entry)

    @app.get("/api/agents")
    def list_agents() -> list[dict[str, Any]]:
        def entry(cls: Any) -> dict[str, Any]:
            # Which games BoardLab ships this agent's default weights for (None: needs none),
            # so the page can mark a choice that would stop with "no weights".
            weights = ({game: cls.ships_weights_for(game) for game in game_names()}
                       if cls.weights_kind else None)
            return {"params": _params(cls.Settings), "weights": weights}

        return _listing(agent_names(), agent_class, entry)

    # --- games in play -----------------------------------------------------------------------
    @app.post("/api/games", status_code=201)
    def new_game(body: NewGame) -> dict[str, Any]:
        name = body.game.strip().partition(":")[0]
        try:
            game_class(name)
        except (ImportError, AttributeError) as error:  # its module is being written
            raise ParseError(f"game {name!r} does not load yet: "
                             f"{type(error).__name__}: {error}") from None
        try:
            clock = None if body.clock is None else TimeControl(
                body.clock.base, body.clock.increment, body.clock.per_move)
            session = Session(body.game, body.seats, body.seed, body.time_per_move, store,
                              position=body.position, clock=clock)
        except (ParseError, IllegalActionError):
            raise
        except BoardLabError as error:  # an agent that cannot be built: its spec is refused
            raise ParseError(str(error)) from None
        sessions.add(session)
        with session.lock:
            return session.publish()

    def change(session: Session, act: Callable[[], object], ply: int | None = None) -> dict:
        """Apply one change under the game's lock (none while an agent thinks, none on a
        position the sender no longer sees) and publish it to every page that follows."""
        session.refuse_while_thinking()
        with session.lock:
            try:
                session.expect_ply(ply)
                act()
            finally:
                session.publish()
            return session.snapshot

    @app.get("/api/games/{game_id}")
    def get_game(game_id: str) -> dict[str, Any]:
        return sessions.get(game_id).current()

    @app.get("/api/games/{game_id}/events")
    async def follow_game(game_id: str, request: Request) -> StreamingResponse:
        """Server-sent events: the game now, then each change (`data:` the game as GET
        returns it, `id:` its version), within 0.1 s; a comment line every 15 s of quiet."""
        session = sessions.get(game_id)

        async def stream():
            seen, quiet = -1, 0.0
            while not await request.is_disconnected():
                if session.version != seen:
                    snapshot = session.current()
                    seen = snapshot.get("version", seen)
                    yield (f"id: {seen}\ndata: "
                           f"{json.dumps(jsonable_encoder(snapshot), separators=(',', ':'))}\n\n")
                    quiet = 0.0
                    continue
                await asyncio.sleep(FOLLOW_EVERY_S)
                quiet += FOLLOW_EVERY_S
                if quiet >= 15:
                    yield ": still here\n\n"
                    quiet = 0.0

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache"})

    @app.delete("/api/games/{game_id}", status_code=204)
    def delete_game(game_id: str) -> None:
        sessions.remove(game_id)

    @app.post("/api/games/{game_id}/move")
    def human_move(game_id: str, body: Move) -> dict[str, Any]:
        session = sessions.get(game_id)
        return change(session, lambda: session.human_move(body.move, body.action), body.ply)

    @app.post("/api/games/{game_id}/agent-move")
    def agent_move(game_id: str) -> dict[str, Any]:
        session = sessions.get(game_id)
        return change(session, session.agent_move)

    @app.get("/api/games/{game_id}/position")
    def position(game_id: str, ply: int | None = None, flip: bool = False) -> dict[str, Any]:
        """The analysis board: the position after `ply` decisions (default: now)."""
        session = sessions.get(game_id)
        return session.picture(session.ply() if ply is None else ply, flip)

    @app.post("/api/games/{game_id}/analyse")
    def analyse(game_id: str, body: Analyse) -> dict[str, Any]:
        """What an agent thinks of a position of the game (once it is over, if a person
        plays it): the position's picture with its heat map and line, and its report."""
        session = sessions.get(game_id)
        return session.analyse(body.ply, body.agent, body.seconds, body.flip, body.line)

    @app.post("/api/games/{game_id}/line")
    def side_line(game_id: str, body: Line) -> dict[str, Any]:
        """A side line on the analysis board: moves tried after `ply` that the game does not
        play: the position they reach, its legal moves (any side's), the line as a move list."""
        session = sessions.get(game_id)
        return session.line(body.ply, body.moves, body.flip)

    @app.get("/api/games/{game_id}/moves.txt")
    def game_file(game_id: str) -> PlainTextResponse:
        """The game's moves in its notation with a header of seats, result and reason, as a
        file `boardlab replay FILE` plays back (interop/gamefile.py)."""
        session = sessions.get(game_id)
        return _download(session.game_file(), f"boardlab-{session.game.name}-{session.id}.txt")

    @app.post("/api/games/{game_id}/stop")
    def stop(game_id: str) -> dict[str, Any]:
        """End the thinking agent's search: it plays its best move so far at once."""
        session = sessions.get(game_id)
        session.stop()
        return session.current()

    @app.post("/api/games/{game_id}/undo")
    def undo(game_id: str) -> dict[str, Any]:
        session = sessions.get(game_id)
        return change(session, session.undo)

    @app.post("/api/games/{game_id}/resign")
    def resign(game_id: str, body: Resign | None = None) -> dict[str, Any]:
        session = sessions.get(game_id)
        return change(session, lambda: session.resign(body.seat if body else None))

    @app.post("/api/games/{game_id}/new")
    def restart(game_id: str, body: Restart | None = None) -> dict[str, Any]:
        session = sessions.get(game_id)
        seed = body.seed if body is not None and body.seed is not None else None
        return change(session, lambda: session.restart(
            seed if seed is not None else session.seed + 1))

    # --- stored results ----------------------------------------------------------------------
    def need_results() -> Results:
        if results is None:
            raise NotFound("this server has no results database: start it with "
                           "`boardlab serve --db results.sqlite`")
        return results

    @app.get("/api/db")
    def db_info() -> dict[str, Any]:
        return {"db": None if results is None else results.path.name,
                "stores_browser_games": browser_games is not None}

    @app.get("/api/db/games")
    def stored_games(game: str | None = None, offset: int = 0, limit: int = 100,
                     tournament: int | None = None) -> dict:
        if offset < 0 or not 1 <= limit <= 1000:
            raise ParseError("offset must be >= 0 and limit 1..1000")
        return need_results().list_games(game, offset, limit, tournament)

    @app.get("/api/db/games/{number}")
    def stored_game(number: int, ply: int | None = None) -> dict[str, Any]:
        return need_results().replay(number, ply)

    @app.get("/api/db/games/{number}/moves.txt")
    def stored_game_file(number: int) -> PlainTextResponse:
        text, game = need_results().game_file(number)
        return _download(text, f"boardlab-{game}-stored-{number}.txt")

    @app.get("/api/db/tournaments")
    def stored_tournaments() -> list[dict[str, Any]]:
        return need_results().tournaments()

    # --- pages -------------------------------------------------------------------------------
    for route, page in PAGES.items():
        app.add_api_route(route, _page(route, page), methods=["GET"], include_in_schema=False)

    @app.get("/play/{game_id}", include_in_schema=False)
    def play_page(game_id: str):
        """A game's address: the Play page, which opens the game and follows it."""
        try:
            sessions.get(game_id)
        except NotFound as error:
            return _not_found_page(str(error))
        return HTMLResponse(_page_html("/", PAGES["/"]))

    # StaticFiles resolves every path and refuses any outside its folder (a 404).
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


FOLLOW_EVERY_S = 0.1
"""How often a followed game is looked at for a change (a version number: no lock)."""


def _listing(names: list[str], load: Callable[[str], Any],
             entry: Callable[[Any], dict[str, Any]]) -> list[dict[str, Any]]:
    """/api/games and /api/agents: for each name, `{"name", "loads": True}` and what `entry`
    says of the class `load` gives; a class that does not load (a game or agent being written,
    an agent missing torch) is listed, not usable: `{"name", "loads": False, "error"}`."""
    out = []
    for name in names:
        try:
            cls = load(name)
        except Exception as error:
            out.append({"name": name, "loads": False,
                        "error": f"{type(error).__name__}: {error}"})
            continue
        out.append({"name": name, "loads": True, **entry(cls)})
    return out


def _download(text: str, filename: str) -> PlainTextResponse:
    """A text file the browser saves under `filename` (letters, digits, - . _ only)."""
    safe = "".join(char if char.isalnum() or char in "-._" else "-" for char in filename)
    return PlainTextResponse(text, headers={
        "Content-Disposition": f'attachment; filename="{safe}"'})


def _not_found_page(sentence: str) -> HTMLResponse:
    """A person's 404: the sentence, and the ways on, as a page like the others."""
    main = NOT_FOUND_MAIN.replace("{sentence}", html.escape(sentence))
    return HTMLResponse(_shell("", "not found", "", main), status_code=404)


NOT_FOUND_MAIN = """<main><section class="panel" id="not-found"><h2>Not found</h2>
<p id="status">{sentence}</p>
<p><a href="/">Start a new game</a> or open a stored one in <a href="/replay">Replay</a>.</p>
</section></main>
"""


def _shell(here: str, title: str, body_attributes: str, main: str) -> str:
    """static/page.html filled in: the title, the `<body>` attributes, the header's links
    (the one to `here` marked), and `main`, the page's own `<main>` and scripts."""
    links = "".join(f'<a class="here" href="{route}">{page.link}</a>' if route == here else
                    f'<a href="{route}">{page.link}</a>' for route, page in PAGES.items())
    shell = string.Template((STATIC / "page.html").read_text(encoding="utf-8"))
    return shell.substitute(title=title, body=f" {body_attributes}" if body_attributes else "",
                            links=links, main=main)


def _page_html(route: str, page: Page) -> str:
    main = (STATIC / page.main).read_text(encoding="utf-8")
    return _shell(route, page.title, page.body_attributes, main)


def _page(route: str, page: Page) -> Callable[[], HTMLResponse]:
    def serve() -> HTMLResponse:
        return HTMLResponse(_page_html(route, page))

    return serve


_PARAMS_LOCK = threading.Lock()


@functools.lru_cache(maxsize=None)
def _described(settings_class: type) -> tuple[tuple[str, str, str], ...]:
    return tuple(describe_settings(settings_class))


def _params(settings_class: type) -> list[dict[str, str]]:
    """A Settings dataclass as the page's form: each field's name, type (`int`, `float`,
    `bool`, `str`, ...), default and doc, the same source as `boardlab agents`."""
    if not dataclasses.is_dataclass(settings_class):
        return []
    # describe_settings parses source with `ast`, which CPython 3.11 does not make safe to
    # run in two threads at once (SystemError: AST constructor recursion depth mismatch).
    with _PARAMS_LOCK:
        described = _described(settings_class)
    kinds = {f.name: f.type if isinstance(f.type, str) else getattr(f.type, "__name__", "str")
             for f in dataclasses.fields(settings_class)}
    return [{"name": name, "type": kinds.get(name, "str"), "default": default, "doc": doc}
            for name, default, doc in described]
