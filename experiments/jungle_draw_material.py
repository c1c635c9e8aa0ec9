"""How do an agent's Jungle games end? The pieces each side has left, by result.

Replays every game of the agent in an arena results store to its last position and counts
the games by (result, the agent's pieces, the opponent's pieces), face-down pieces included.
A draw where the agent is ahead is one it could not convert before the no-progress rule; of
those against a last piece, the exact pursuit solver (games/jungle/pursuit.py) says which the
agent had won by force at the last capture, with the whole count before it:

    boardlab arena jungle greedy "dqn:weights=none,reward=potential,lookahead=2,leaf_weight=0" \
        --games 100 --workers 2 --db silent.sqlite
    python experiments/jungle_draw_material.py silent.sqlite \
        "dqn:weights=none,reward=potential,lookahead=2,leaf_weight=0"
"""

from __future__ import annotations

import argparse
from collections import Counter

from boardlab import make_game
from boardlab.arena import ResultStore
from boardlab.games.jungle.pursuit import forced_win

RESULT = {1.0: "won", 0.0: "drawn", -1.0: "lost"}


def endings(db_path: str, spec: str) -> tuple[Counter[tuple[str, int, int]], Counter[str]]:
    """(result, own pieces, opponent's pieces) at the end of each of `spec`'s games; and of
    its draws ahead against a last piece, how many were won by force after the last capture
    ("won", "not won", or "not solved": a face-down piece or more than three hunters)."""
    found: Counter[tuple[str, int, int]] = Counter()
    solved: Counter[str] = Counter()
    with ResultStore(db_path) as results:
        rows = [row for row in results.games() if spec in (row.key.seat0, row.key.seat1)]
    for row in rows:
        seat = 0 if row.key.seat0 == spec else 1
        state = make_game(row.key.game).initial_state(row.record.seed)
        after_last_capture = state
        for action in row.record.actions:
            state = state.child(action)
            if state.no_capture == 0 and not state.is_chance_node():
                after_last_capture = state
        pieces = state.piece_counts()
        result = RESULT[state.returns()[seat]]
        found[(result, pieces[seat], pieces[1 - seat])] += 1
        if result == "drawn" and pieces[seat] > pieces[1 - seat] == 1:
            verdict = forced_win(after_last_capture, seat)
            solved["not solved" if verdict is None else "won" if verdict else "not won"] += 1
    return found, solved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("db", help="arena results store (--db of boardlab arena)")
    parser.add_argument("spec", help="the agent's spec as the arena named it")
    args = parser.parse_args()
    found, solved = endings(args.db, args.spec)
    for (result, own, other), count in sorted(found.items()):
        print(f"{result:5} with {own} pieces against {other}: {count}")
    drawn = sum(n for (result, _, _), n in found.items() if result == "drawn")
    ahead = sum(n for (result, own, other), n in found.items()
                if result == "drawn" and own > other)
    last = sum(n for (result, own, other), n in found.items()
               if result == "drawn" and own > other == 1)
    print(f"{drawn} draws; ahead in {ahead}; ahead against a last piece in {last}, of which "
          f"won by force at the last capture {solved['won']}, not {solved['not won']}, not "
          f"solved {solved['not solved']}")


if __name__ == "__main__":
    main()
