"""Stored arena games for the replay and tournament pages, read from a results database.

The database is named when the server starts (`boardlab serve --db FILE`), never by a
request, so a page can read only that one file. A stored game is numbered by its position
in the store's order (oldest first), which never changes as games are added.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import threading

from .. import render
from ..arena.report import cross_table, to_json, totals
from ..arena.store import GameKey, GameRow, ResultStore
from ..arena.tournament import belongs_to, stored_tournaments, tournament_result
from ..core.game import CHANCE, BoardLabError, ParseError, State
from ..core.match import GameRecord, derive_seed
from ..core.registry import make_game
from ..interop.gamefile import GameFile, steps_to_moves
from ..interop.gamefile import write as write_game_file
from .sessions import HUMAN, NotFound, Session, Step, capture_note, move_entries, result_text

BROWSER_SEED = derive_seed("games played in the browser")
"""The base seed under which games between two agents played in the browser are stored: they
form one tournament of their own in the store (never mixed into an arena run's), rated as the
arena rates any stored games."""
BROWSER_HUMAN_SEED = derive_seed("games a person played in the browser")
"""The same for games with a human seat: stored for replay, never rated."""


class Results:
    """Read access to one results database (see the module docstring)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if not self.path.is_file():
            raise BoardLabError(f"{self.path}: no such results database")
        ResultStore(self.path).close()  # refuses a file that is not a BoardLab store, now
        self._reasons: dict[tuple[int, str], str] = {}
        """Why each stored game ended, by (number, finished_at), once worked out."""

    def _rows(self, with_moves: bool) -> list[GameRow]:
        with ResultStore(self.path) as store:
            return list(store.games(with_moves=with_moves))

    def list_games(self, game: str | None = None, offset: int = 0,
                   limit: int = 100, tournament: int | None = None) -> dict[str, Any]:
        """Stored games by number; `game` a spec (`NAME:param=value`) or a name (every game
        of that name), `tournament` the index of a tournament in `tournaments()` (its games)."""
        rows = self._rows(with_moves=False)
        entry = None
        if tournament is not None:
            entries = rated_tournaments(self.path)
            if not 0 <= tournament < len(entries):
                raise NotFound(f"no tournament number {tournament}; {self.path.name} holds "
                               f"{len(entries)} (numbers 0..{len(entries) - 1})")
            entry = entries[tournament]
        numbered = [(n, row) for n, row in enumerate(rows)
                    if (game is None or game in (row.key.game, row.key.game.partition(":")[0]))
                    and (entry is None or belongs_to(row.key, entry))]
        shown = numbered[offset:offset + limit]
        ends = self._end_reasons([(n, row.finished_at) for n, row in shown])
        return {"db": self.path.name, "total": len(numbered), "offset": offset,
                "games": [{"number": n, "game": row.key.game, "seats": row.record.agents,
                           "seed": row.record.seed, "plies": row.record.plies,
                           "returns": row.record.returns, "reason": row.record.reason,
                           "end": ends.get(n, ""),
                           "result": result_text(row.record.returns, row.record.agents),
                           "finished_at": row.finished_at} for n, row in shown]}

    def _end_reasons(self, wanted: list[tuple[int, str]]) -> dict[int, str]:
        """Why each of the games `wanted` (number, finished_at) ended, in words: a forfeit as
        stored (`resigned: ...`, `time: ...`, an agent's failure), else the game's own reason
        (`checkmate`, `red has no pieces left`) from its final position, worked out once."""
        missing = [key for key in wanted if key not in self._reasons]
        if missing:
            rows = self._rows(with_moves=True)
            for number, finished in missing:
                if 0 <= number < len(rows):
                    try:
                        self._reasons[(number, finished)] = end_of(rows[number].record)
                    except (BoardLabError, ImportError, AttributeError):
                        self._reasons[(number, finished)] = ""  # a game that does not load
        return {number: self._reasons.get((number, finished), "") for number, finished in wanted}

    def record(self, number: int) -> GameRecord:
        """Stored game `number`'s record (seed, actions, seats)."""
        rows = self._rows(with_moves=True)
        if not 0 <= number < len(rows):
            raise NotFound(f"no stored game number {number}; {self.path.name} holds "
                           f"{len(rows)} games (numbers 0..{len(rows) - 1})")
        return rows[number].record

    def replay(self, number: int, ply: int | None = None) -> dict[str, Any]:
        """Stored game `number` rebuilt from its seed and actions, shown after `ply` player
        decisions (None: at the end), with every move in notation."""
        record = self.record(number)
        try:
            game = make_game(record.game)
        except (ImportError, AttributeError) as error:  # its module is being written
            raise BoardLabError(f"stored game {number} is {record.game}, which does not load "
                                f"here: {error}") from None
        state = game.initial_state(record.seed)
        names = [render.player_name(game, seat)
                 for seat in range(game.num_players)]
        steps: list[Step] = []
        pending: Step | None = None  # the last decision, noted once its chance is resolved
        decisions = 0
        frame: tuple[State, int | None] | None = None  # the position shown, its last action
        last_action: int | None = None
        seconds = iter(record.move_seconds)
        before = state.clone()
        for action, mover in zip(record.actions, record.movers):
            if mover != CHANCE:
                if ply is not None and decisions == ply and frame is None:
                    frame = (state.clone(), last_action)
                if pending is not None:
                    pending.note = capture_note(before, state)
                before = state.clone()
            notation = state.action_to_str(action)
            state.apply(action)  # an inconsistent record raises IllegalActionError: a 4xx
            if mover == CHANCE:
                steps.append(Step(action, mover, notation))
                continue
            decisions += 1
            last_action = action
            spent = next(seconds, None)
            if record.agents[mover] == HUMAN:
                spent = None  # a person's time is not stored: no "(0.00 s)"
            pending = Step(action, mover, notation, None if spent is None else round(spent, 4))
            steps.append(pending)
        if pending is not None:
            pending.note = capture_note(before, state)
        if ply is not None and not 0 <= ply <= decisions:
            raise ParseError(f"ply {ply} is outside 0..{decisions} for stored game {number}")
        if frame is None:
            frame = (state, last_action)
        shown, shown_last = frame
        if ply is None:
            ply = decisions
        end = record.reason if record.reason != "normal" else render.end_reason(state)
        return {"number": number, "game": record.game, "seats": record.agents, "names": names,
                "seed": record.seed, "ply": ply, "plies": decisions,
                "moves": move_entries(steps, names),
                "result": result_text(record.returns, record.agents, names)
                + (f" ({end})" if end else ""),
                "reason": record.reason, "end": end, "renderer": render.has_renderer(game),
                "svg": render.svg(shown, shown_last), "text": str(shown)}

    def game_file(self, number: int) -> tuple[str, str]:
        """Stored game `number` as a game file (interop/gamefile.py), and its game's name."""
        record = self.record(number)
        game = make_game(record.game)
        state = game.initial_state(record.seed)
        steps = []
        for action, mover in zip(record.actions, record.movers):
            steps.append((mover, state.action_to_str(action)))
            state.apply(action)
        opening, moves = steps_to_moves(steps)
        names = [render.player_name(game, seat) for seat in range(game.num_players)]
        spent = iter(record.move_seconds)
        comments = []
        for mover in (mover for mover in record.movers if mover != CHANCE):
            seconds = next(spent, None)
            comments.append(names[mover] + ("" if seconds is None or record.agents[mover] == HUMAN
                                            else f", {seconds:.2f} s"))
        end = record.reason if record.reason != "normal" else render.end_reason(state)
        return write_game_file(GameFile(
            game=record.game, seed=record.seed, seats=list(record.agents), sides=names,
            moves=moves, opening=opening, result=result_text(record.returns, record.agents, names),
            returns=[float(v) for v in record.returns], reason=end, forfeit=record.forfeit,
            comments=comments)), game.name

    def tournaments(self) -> list[dict[str, Any]]:
        """Every rated tournament in the store, as the arena finds them (`stored_tournaments`:
        those it recorded, then the others its games show; games with a person in them are
        not rated), with the arena's own tables (pairs, cross table, totals, ratings)."""
        keys = [row.key for row in self._rows(with_moves=False)]
        out = []
        with ResultStore(self.path) as store:
            for entry in rated_tournaments(self.path):
                agents = list(entry.agents)
                result = tournament_result(store, entry.game, agents, entry.games_per_pair,
                                           entry.base_seed, entry.time_per_move, resamples=100)
                cells = cross_table(result)
                document = to_json(result)
                document.update({
                    "seed": entry.base_seed, "time_per_move": entry.time_per_move,
                    "agents": agents,
                    "stored_games": sum(belongs_to(key, entry) for key in keys),
                    "cross": [[None if a == b else _cell_json(cells[(a, b)]) for b in agents]
                              for a in agents],
                    "totals": [{"agent": a, **_cell_json(cell)}
                               for a, cell in totals(result).items()]})
                out.append(document)
        return out


def end_of(record: GameRecord) -> str:
    """Why a stored game ended: its forfeit as stored, else its game's reason at the end."""
    if record.reason != "normal":
        return record.reason
    state = make_game(record.game).initial_state(record.seed)
    for action in record.actions:
        state.apply(action)
    return render.end_reason(state)


def _cell_json(cell: Any) -> dict[str, Any]:
    return {"games": cell.games, "wins": cell.wins, "draws": cell.draws, "losses": cell.losses,
            "rate": cell.rate_text(), "wdl": cell.wdl_text()}


def rated_tournaments(path: str | Path) -> list:
    """The store's tournaments without those that have a person in a seat (browser games
    against `human`): those are kept for replay, not rated."""
    return [entry for entry in stored_tournaments(path) if "human" not in entry.agents]


class BrowserGames:
    """Writes games that end in the browser into a results store (`boardlab serve` does,
    unless `--no-store`), so they can be replayed, and rated when both seats are agents.

    Each is keyed like an arena game: its seats, the pair in name order, the next free index
    in that pair, and a base seed of its own (BROWSER_SEED, or BROWSER_HUMAN_SEED with a
    person in a seat), so browser games never join an arena tournament's pairs. Only
    two-seat games fit the store; others are not stored.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        ResultStore(self.path).close()  # creates it, or refuses a file that is not a store
        self._lock = threading.Lock()  # one index per game even when two end at once

    def store(self, session: Session) -> bool:
        record = session.record()
        if len(record.agents) != 2:
            return False
        seat0, seat1 = record.agents
        pair_a, pair_b = sorted(record.agents)
        base = BROWSER_HUMAN_SEED if "human" in record.agents else BROWSER_SEED
        with self._lock, ResultStore(self.path) as store:
            index = sum(1 for row in store.games(record.game, record.agents, base_seed=base,
                                                 time_per_move=session.time_per_move,
                                                 with_moves=False)
                        if (row.key.pair_a, row.key.pair_b) == (pair_a, pair_b))
            while not store.add(GameKey(record.game, seat0, seat1, pair_a, pair_b, index, base,
                                        session.time_per_move), record):
                index += 1  # a row with this index exists (another server wrote it)
        return True
