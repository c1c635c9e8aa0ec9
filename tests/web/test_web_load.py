"""A bounded load test on loopback: 50 games at once, each played to the end against random.

The server runs in its own process (as `boardlab serve` does); 50 client threads each play
one game through the HTTP API, the person's moves chosen at random among the legal ones.
Every request must succeed, the whole run must end within its time bound, and the median
request latency is printed (run with -s to see it).
"""

from __future__ import annotations

import random
import statistics
import threading
import time

import httpx
import pytest

from boardlab.core.registry import game_names

from web_helpers import short_spec

pytestmark = pytest.mark.e2e  # a server process under 50 concurrent games

GAMES = 50
TIME_BOUND_S = 60.0
LOAD_GAMES = [name for name in ("reversi", "minichess", "jungle", "xiangqi")
              if name in game_names()]


def play_one(base: str, spec: str, seed: int, latencies: list[float], errors: list[str],
             deadline: float) -> None:
    rng = random.Random(seed)
    with httpx.Client(base_url=base, timeout=30) as client:

        def call(method: str, path: str, body: dict | None = None) -> dict | None:
            started = time.perf_counter()
            response = client.request(method, path, json=body)
            latencies.append(time.perf_counter() - started)
            if response.status_code >= 400:
                errors.append(f"{spec} {method} {path}: {response.status_code} {response.text}")
                return None
            return response.json() if response.content else {}

        state = call("POST", "/api/games", {"game": spec, "seats": ["human", "random"],
                                            "seed": seed})
        while state is not None and not state["over"]:
            if time.monotonic() > deadline:
                errors.append(f"{spec} seed {seed}: not finished within {TIME_BOUND_S} s")
                return
            if state["to_move_kind"] == "human":
                move = rng.choice(state["legal"])
                state = call("POST", f"/api/games/{state['id']}/move", {"action": move["id"]})
            else:
                state = call("POST", f"/api/games/{state['id']}/agent-move")
        if state is not None:
            call("DELETE", f"/api/games/{state['id']}")


@pytest.mark.skipif(not LOAD_GAMES, reason="none of the load-test games loads")
def test_fifty_concurrent_games_against_random_finish_without_errors(live_server):
    latencies: list[float] = []
    errors: list[str] = []
    started = time.monotonic()
    deadline = started + TIME_BOUND_S
    threads = [threading.Thread(target=play_one,
                                args=(live_server, short_spec(LOAD_GAMES[i % len(LOAD_GAMES)]),
                                      i, latencies, errors, deadline))
               for i in range(GAMES)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIME_BOUND_S + 30)
    elapsed = time.monotonic() - started
    median_ms = 1000 * statistics.median(latencies)
    p95_ms = 1000 * statistics.quantiles(latencies, n=20)[-1]
    print(f"\nload: {GAMES} concurrent games ({', '.join(LOAD_GAMES)}), {len(latencies)} "
          f"requests in {elapsed:.1f} s, median latency {median_ms:.1f} ms, "
          f"95th percentile {p95_ms:.1f} ms, {len(errors)} errors")
    assert not errors, errors[:5]
    assert not any(thread.is_alive() for thread in threads)
    assert elapsed < TIME_BOUND_S
