"""The template game (examples/tictactoe) is a first-class game once installed on its own.

It is installed from its own folder as a separate distribution, with no file of BoardLab
changed, into a virtual environment that sees this one's packages (conftest's `make_nested_venv`):
its entry point registers it there only, so no other test's registry sees it. Everything
that must work for it runs with that environment's Python: the arena with four agents, the
PettingZoo and Gymnasium checkers, an AlphaZero training iteration, its own contract tests,
and the web page, where a person plays a whole game by clicks in Chromium.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from boardlab.templates import game_package

pytestmark = pytest.mark.e2e  # installs packages into a nested venv

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "tictactoe"
GAME = "tictactoe"


def test_the_example_is_what_new_game_writes() -> None:
    """examples/tictactoe is the template written out: the two cannot drift apart."""
    written = game_package(GAME)
    on_disk = {path.relative_to(EXAMPLE) for path in EXAMPLE.rglob("*") if path.is_file()
               and "egg-info" not in str(path) and "__pycache__" not in path.parts}
    assert on_disk == set(written)
    for relative, text in written.items():
        assert (EXAMPLE / relative).read_text(encoding="utf-8") == text, relative


def test_new_game_writes_a_package_named_after_the_game(tmp_path: Path) -> None:
    out = tmp_path / "four"
    run([sys.executable, "-m", "boardlab.cli", "new-game", "connect-four", "--out", str(out)])
    pyproject = (out / "pyproject.toml").read_text(encoding="utf-8")
    assert 'connect-four = "boardlab_connect_four:ConnectFourGame"' in pyproject
    assert 'name = "boardlab-connect-four"' in pyproject
    assert "class ConnectFourGame(Game)" in (
        out / "src" / "boardlab_connect_four" / "game.py").read_text(encoding="utf-8")
    again = subprocess.run([sys.executable, "-m", "boardlab.cli", "new-game", "connect-four",
                            "--out", str(out)], capture_output=True, text=True)
    assert again.returncode != 0 and "exists" in again.stderr
    refused = subprocess.run([sys.executable, "-m", "boardlab.cli", "new-game", "reversi",
                              "--out", str(tmp_path / "r")], capture_output=True, text=True)
    assert refused.returncode != 0 and "installed already" in refused.stderr


def run(command: list[str | Path], cwd: Path | None = None, timeout: float = 120) -> str:
    """Run a command; its output, or a failure that shows it."""
    done = subprocess.run([str(part) for part in command], cwd=cwd, capture_output=True,
                          text=True, timeout=timeout)
    assert done.returncode == 0, f"{command} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def plugin_python(tmp_path_factory: pytest.TempPathFactory, nested_venv) -> Path:
    """The Python of a virtual environment holding BoardLab (from this one) and the template
    game installed from examples/tictactoe as its own distribution."""
    python = nested_venv(tmp_path_factory.mktemp("plugin") / "venv", also=(ROOT / "src",))
    run([python, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation", "-e",
         EXAMPLE])
    assert GAME in run([python, "-m", "boardlab.cli", "games"])
    return python


def test_the_arena_plays_it_with_random_greedy_minimax_and_mcts(plugin_python: Path,
                                                                 tmp_path: Path) -> None:
    run([plugin_python, "-m", "boardlab.cli", "arena", GAME, "random", "greedy", "minimax",
         "mcts", "--games", "2", "--db", tmp_path / "results.sqlite", "--json",
         tmp_path / "out.json", "--no-progress"], cwd=tmp_path)
    result = json.loads((tmp_path / "out.json").read_text())
    assert result["game"] == GAME and len(result["pairs"]) == 6
    for pair in result["pairs"]:
        assert pair["games"] == 2 and pair["forfeits"] == {"a": 0, "b": 0}, pair


def test_the_pettingzoo_and_gymnasium_checkers_pass(plugin_python: Path) -> None:
    pytest.importorskip("pettingzoo")
    pytest.importorskip("gymnasium")
    script = f"""
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test
from boardlab.interop.gymnasium import BoardLabEnv
from boardlab.interop.pettingzoo import env
api_test(env({GAME!r}), num_cycles=100)
check_env(BoardLabEnv({GAME!r}), skip_render_check=True)
check_env(BoardLabEnv({GAME!r}, opponent="greedy", seat=1), skip_render_check=True)
print("both checkers passed")
"""
    assert "both checkers passed" in run([plugin_python, "-c", script])


def test_alphazero_trains_an_iteration_on_it(plugin_python: Path, tmp_path: Path) -> None:
    pytest.importorskip("torch")
    out = tmp_path / "az"
    run([plugin_python, "-m", "boardlab.cli", "train", GAME, "alphazero", "--out", out,
         "--episodes", "1", "--eval-games", "2", "--no-progress", "--params",
         "workers=1,games_per_worker=2,sims=4,train_steps=2,batch=8,eval_games=2,eval_sims=2"],
        cwd=tmp_path)
    weights = out / "weights.pt"
    assert weights.is_file()
    # the trained network plays: an AlphaZero agent from these weights beats nobody in
    # particular after one iteration, but it loads and finishes its games without a forfeit
    run([plugin_python, "-m", "boardlab.cli", "arena", GAME, f"alphazero:weights={weights},"
         "sims=8", "random", "--games", "2", "--db", tmp_path / "r.sqlite", "--json",
         tmp_path / "az.json", "--no-progress"], cwd=tmp_path)
    pair = json.loads((tmp_path / "az.json").read_text())["pairs"][0]
    assert pair["games"] == 2 and pair["forfeits"] == {"a": 0, "b": 0}


def test_the_package_runs_boardlabs_contract_kit_on_itself(plugin_python: Path) -> None:
    run([plugin_python, "-m", "pytest", "-q", "-p", "no:cacheprovider", EXAMPLE / "tests"],
        cwd=EXAMPLE)


@pytest.fixture()
def plugin_server(plugin_python: Path, tmp_path: Path):
    """`boardlab serve` from the environment that has the game, on a free loopback port."""
    pytest.importorskip("fastapi")
    httpx = pytest.importorskip("httpx")
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    process = subprocess.Popen([plugin_python, "-m", "boardlab.cli", "serve", "--port",
                                str(port), "--no-store"], cwd=tmp_path,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if GAME in httpx.get(base + "/api/games", timeout=2).text:
                    break
            except httpx.HTTPError:
                pass
            assert process.poll() is None, f"the server stopped: {process.stderr.read()}"
            assert time.monotonic() < deadline, f"no server on {base} after 60 s"
            time.sleep(0.3)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=20)


def test_a_person_plays_it_to_the_end_by_clicks_in_chromium(plugin_server: str,
                                                             tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "tests" / "web"))  # the web tests' own page drivers
    from test_web_browser import click_one_move, start_game
    from web_helpers import CHROMIUM, CHROMIUM_ARGS

    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing: apt-get install -y chromium")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.set_default_timeout(20_000)
            start_game(page, plugin_server, GAME)
            rng, moves = random.Random(5), 0
            while page.get_attribute("#status", "data-over") != "1":
                click_one_move(page, rng)
                moves += 1
                assert moves <= 5, "a person makes at most 5 of tic-tac-toe's 9 moves"
            page.screenshot(path=str(tmp_path / f"{GAME}-end.png"))
            assert page.inner_text("#status").startswith("Game over")
            assert page.inner_text("#error") == ""
            assert len(page.query_selector_all("#history-list li")) >= 2 * moves - 1
        finally:
            browser.close()
