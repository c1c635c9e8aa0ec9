"""How many of its moves does a Q-learning agent's table play, and how many its fallback?

Replays every game an agent played in an arena results store and asks the agent, at each of
its decisions, what it would do (`choose` without exploration): whether the table answers is
independent of the random tie-breaks, so the count is exact for those games. By opponent:

    boardlab arena jungle random greedy qlearning qlearning:weights=NEW.npz --games 200 \
        --db arena.sqlite
    python experiments/qtable_share.py arena.sqlite qlearning qlearning:weights=NEW.npz
"""

from __future__ import annotations

import argparse
import json
import sqlite3
from collections import defaultdict
from typing import Any

from boardlab import make_agent, make_game


def table_share(db_path: str, spec: str) -> dict[str, tuple[int, int]]:
    """(table moves, decisions) of the agent `spec` against each opponent in the store."""
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    agents: dict[str, Any] = {}  # QLearningAgents, by game
    with sqlite3.connect(db_path) as db:
        rows = db.execute("SELECT game, seats, actions, movers, seed FROM games").fetchall()
    for game_spec, seats_text, actions, movers, seed in rows:
        seats = json.loads(seats_text)
        if spec not in seats:
            continue
        game = make_game(game_spec)
        agent = agents.setdefault(game_spec, make_agent(spec, game))
        seat = seats.index(spec)
        agent.stats = {"decisions": 0, "table_hits": 0, "fallbacks": 0}
        state = game.initial_state(seed)
        for action, mover in zip(json.loads(actions), json.loads(movers)):
            if mover == seat:
                agent.choose(state, 0.0)
            state = state.child(action)
        opponent = seats[1 - seat]
        counts[opponent][0] += agent.stats["table_hits"]
        counts[opponent][1] += agent.stats["decisions"]
    return {opponent: (hits, decisions) for opponent, (hits, decisions) in counts.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("db", help="arena results store (--db of boardlab arena)")
    parser.add_argument("specs", nargs="+", help="Q-learning agent specs as the arena named them")
    args = parser.parse_args()
    for spec in args.specs:
        shares = table_share(args.db, spec)
        total = [sum(v[0] for v in shares.values()), sum(v[1] for v in shares.values())]
        for opponent, (hits, decisions) in sorted(shares.items()) + [("all", tuple(total))]:
            print(f"{spec} vs {opponent}: the table played {hits} of {decisions} decisions "
                  f"({hits / max(1, decisions):.1%})")


if __name__ == "__main__":
    main()
