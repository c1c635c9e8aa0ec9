"""Fixtures for the web tests: an app, a small results database, a live server on loopback
and headless Chromium (skipped with a reason where /usr/bin/chromium is missing)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest



def pytest_configure(config: pytest.Config) -> None:
    # Starlette's TestClient warns that it will move to `httpx2`; nothing to act on here.
    config.addinivalue_line("filterwarnings",
                            "ignore:Using `httpx` with `starlette.testclient`")

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install '.[web]')")

from web_helpers import CHROMIUM, CHROMIUM_ARGS  # noqa: E402


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """Where screenshots are kept after the run: $BOARDLAB_ARTIFACTS, else tmp/web-artifacts
    in the checkout (ignored by git)."""
    folder = Path(os.environ.get("BOARDLAB_ARTIFACTS", Path(__file__).parents[2] / "tmp"
                                 / "web-artifacts"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="session")
def results_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A results database with two small tournaments (reversi and jungle)."""
    from boardlab.arena.tournament import run_tournament

    path = tmp_path_factory.mktemp("db") / "results.sqlite"
    run_tournament("reversi", ["random", "greedy"], 2, path, progress=False)
    run_tournament("jungle:no_capture_limit=12", ["random", "greedy"], 2, path, progress=False)
    return path


@pytest.fixture()
def client(results_db: Path):
    from fastapi.testclient import TestClient

    from boardlab.web.app import create_app

    with TestClient(create_app(db=results_db, max_games=50)) as test_client:
        yield test_client


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def live_server(results_db: Path):
    """The app served by uvicorn in its own process on 127.0.0.1 (as `boardlab serve` does),
    so that the server does not share a GIL with the browser driver or load generator."""
    port = _free_port()
    code = ("import sys, uvicorn; from boardlab.web.app import create_app; "
            "uvicorn.run(create_app(db=sys.argv[1], max_games=400), host='127.0.0.1', "
            "port=int(sys.argv[2]), log_level='warning')")
    process = subprocess.Popen([sys.executable, "-c", code, str(results_db), str(port)],
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
    base = f"http://127.0.0.1:{port}"
    import httpx

    deadline = time.monotonic() + 30
    while True:
        try:
            if httpx.get(base + "/api/games", timeout=2).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            pytest.fail(f"the test server did not start on {base}")
        time.sleep(0.2)
    yield base
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing: install it with `apt-get install -y chromium` "
                    "to run the browser tests")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture()
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    opened = context.new_page()
    opened.set_default_timeout(20_000)
    yield opened
    context.close()
