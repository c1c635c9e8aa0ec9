"""The browser face: a JSON API over games in memory and stored results, and static pages.

`create_app()` builds the FastAPI application; `boardlab serve` runs it with uvicorn on
127.0.0.1. docs/web.md lists the endpoints. Errors are JSON `{"detail": "<a sentence>"}`:
400 for a request that cannot be read, 404 for an unknown game or stored game, 409 for a
request that does not fit the game's situation (not your turn, game over), 422 for a move or
spec the game refuses. Endpoints are plain functions: FastAPI runs them in its thread pool,
and each game's lock serialises requests on the same game.
"""

from __future__ import annotations

import dataclasses
import functools
import threading
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field

from .. import render
from ..core.game import BoardLabError, IllegalActionError, ParseError
from ..core.registry import agent_class, agent_names, describe_settings, game_class, game_names
from .results import Results
from .sessions import NotFound, Session, Sessions, SessionError

STATIC = Path(__file__).parent / "static"
PAGES = {"/": "index.html", "/replay": "replay.html", "/tournament": "tournament.html"}


class NewGame(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(description="game spec, e.g. `jungle` or `xiangqi:max_plies=60`")
    seats: list[str] = Field(description="one per seat: `human` or an agent spec")
    seed: int = 0
    time_per_move: float | None = None


class Move(BaseModel):
    model_config = ConfigDict(extra="forbid")
    move: str | None = Field(None, description="the move in the game's notation")
    action: int | None = Field(None, description="or its action id")


class Resign(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int | None = None


class Restart(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seed: int | None = None


def create_app(db: str | Path | None = None, max_games: int = 200) -> FastAPI:
    """The application; `db` is the results database the replay and tournament pages read."""
    app = FastAPI(title="BoardLab", docs_url="/api/docs", redoc_url=None,
                  openapi_url="/api/openapi.json")
    sessions = Sessions(max_games)
    results = Results(db) if db is not None else None
    app.state.sessions = sessions

    @app.exception_handler(BoardLabError)
    def _boardlab_error(request: Request, error: BoardLabError) -> JSONResponse:
        status = (404 if isinstance(error, NotFound) else 409 if isinstance(error, SessionError)
                  else 422 if isinstance(error, (IllegalActionError, ParseError)) else 400)
        return JSONResponse({"detail": str(error)}, status_code=status)

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
        out = []
        for name in game_names():
            try:
                cls = game_class(name)
            except Exception as error:  # a game being written: listed, not playable
                out.append({"name": name, "loads": False,
                            "error": f"{type(error).__name__}: {error}"})
                continue
            facts = cls().facts
            out.append({"name": name, "loads": True, "players": facts.num_players,
                        "has_chance": facts.has_chance,
                        "hidden_information": facts.hidden_information,
                        "renderer": render.has_renderer(name),
                        "params": _params(cls.Settings)})
        return out

    @app.get("/api/agents")
    def list_agents() -> list[dict[str, Any]]:
        out = []
        for name in agent_names():
            try:
                cls = agent_class(name)
            except Exception as error:  # an agent being written (or missing torch)
                out.append({"name": name, "loads": False,
                            "error": f"{type(error).__name__}: {error}"})
                continue
            out.append({"name": name, "loads": True, "params": _params(cls.Settings)})
        return out

    # --- games in play -----------------------------------------------------------------------
    @app.post("/api/games", status_code=201)
    def new_game(body: NewGame) -> dict[str, Any]:
        name = body.game.strip().partition(":")[0]
        try:
            game_class(name)
        except (ImportError, AttributeError) as error:  # its module is being written
            raise ParseError(f"game {name!r} does not load yet: "
                             f"{type(error).__name__}: {error}") from None
        session = Session(body.game, body.seats, body.seed, body.time_per_move)
        sessions.add(session)
        with session.lock:
            return session.describe()

    @app.get("/api/games/{game_id}")
    def get_game(game_id: str) -> dict[str, Any]:
        session = sessions.get(game_id)
        with session.lock:
            return session.describe()

    @app.delete("/api/games/{game_id}", status_code=204)
    def delete_game(game_id: str) -> None:
        sessions.remove(game_id)

    @app.post("/api/games/{game_id}/move")
    def human_move(game_id: str, body: Move) -> dict[str, Any]:
        session = sessions.get(game_id)
        with session.lock:
            session.human_move(body.move, body.action)
            return session.describe()

    @app.post("/api/games/{game_id}/agent-move")
    def agent_move(game_id: str) -> dict[str, Any]:
        session = sessions.get(game_id)
        with session.lock:
            session.agent_move()
            return session.describe()

    @app.post("/api/games/{game_id}/undo")
    def undo(game_id: str) -> dict[str, Any]:
        session = sessions.get(game_id)
        with session.lock:
            session.undo()
            return session.describe()

    @app.post("/api/games/{game_id}/resign")
    def resign(game_id: str, body: Resign | None = None) -> dict[str, Any]:
        session = sessions.get(game_id)
        with session.lock:
            session.resign(body.seat if body else None)
            return session.describe()

    @app.post("/api/games/{game_id}/new")
    def restart(game_id: str, body: Restart | None = None) -> dict[str, Any]:
        session = sessions.get(game_id)
        with session.lock:
            seed = body.seed if body is not None and body.seed is not None else session.seed + 1
            session.restart(seed)
            return session.describe()

    # --- stored results ----------------------------------------------------------------------
    def need_results() -> Results:
        if results is None:
            raise NotFound("this server has no results database: start it with "
                           "`boardlab serve --db results.sqlite`")
        return results

    @app.get("/api/db")
    def db_info() -> dict[str, Any]:
        return {"db": None if results is None else results.path.name}

    @app.get("/api/db/games")
    def stored_games(game: str | None = None, offset: int = 0, limit: int = 100) -> dict:
        if offset < 0 or not 1 <= limit <= 1000:
            raise ParseError("offset must be >= 0 and limit 1..1000")
        return need_results().list_games(game, offset, limit)

    @app.get("/api/db/games/{number}")
    def stored_game(number: int, ply: int | None = None) -> dict[str, Any]:
        return need_results().replay(number, ply)

    @app.get("/api/db/tournaments")
    def stored_tournaments() -> list[dict[str, Any]]:
        return need_results().tournaments()

    # --- pages -------------------------------------------------------------------------------
    for route, filename in PAGES.items():
        app.add_api_route(route, _page(filename), methods=["GET"], include_in_schema=False)
    # StaticFiles resolves every path and refuses any outside its folder (a 404).
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


def _page(filename: str):
    path = STATIC / filename

    def page() -> FileResponse:
        return FileResponse(path, media_type="text/html")

    return page


_PARAMS_LOCK = threading.Lock()


@functools.lru_cache(maxsize=None)
def _described(settings_class: type) -> tuple[tuple[str, str, str], ...]:
    return tuple(describe_settings(settings_class))


def _params(settings_class: type) -> list[dict[str, str]]:
    if not dataclasses.is_dataclass(settings_class):
        return []
    # describe_settings parses source with `ast`, which CPython 3.11 does not make safe to
    # run in two threads at once (SystemError: AST constructor recursion depth mismatch).
    with _PARAMS_LOCK:
        described = _described(settings_class)
    return [{"name": name, "default": default, "doc": doc} for name, default, doc in described]
