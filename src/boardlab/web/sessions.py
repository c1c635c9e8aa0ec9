"""Games being played in the browser: seats, agents, seeded chance, undo, and what a seat sees.

A `Session` is one game in memory. Seats are `human` or agent specs; agents move only when
asked (the page asks after each human move, or step by step when watching), chance nodes are
resolved at once on the server from a generator seeded by the game's seed and the position
in the game, so undoing and replaying a move gives the same reveal. `Sessions` keeps many
games under a cap, each behind its own lock, for a threaded server.

Every change to a game is published: `snapshot` is the game as the API describes it and
`version` counts the changes, so any number of pages at the game's address can follow it
(the server streams each new snapshot) without taking the game's lock. While an agent
thinks, `thinking` says who and since when; nothing else may change the game then, and
`stop()` ends the search through the agent's clock (`core.agent.stop_on`).
"""

from __future__ import annotations

import math
import random
import secrets
import threading
import time
from collections import Counter, OrderedDict
from dataclasses import dataclass
from typing import Any, Callable

from .. import render
from ..core.agent import Agent, Clock, stop_on
from ..core.game import (CHANCE, BoardLabError, Game, IllegalActionError, ParseError, State,
                         legal_move_from_text)
from ..core.match import GameRecord, derive_seed, sample_chance
from ..core.registry import make_agent, make_game
from ..interop.gamefile import GameFile, steps_to_moves
from ..interop.gamefile import write as write_game_file
from ..render.graph import value_graph_svg
from ..render.thinking import Thinking

HUMAN = "human"


class SessionError(BoardLabError):
    """A request that cannot be served in the game's current situation (HTTP 409)."""


class NotFound(BoardLabError):
    """An unknown game id (HTTP 404)."""


@dataclass(frozen=True)
class TimeControl:
    """A game's clocks: `per_move` seconds for each decision, or `base` seconds for the whole
    game with `increment` added after each decision. A seat whose time runs out loses (a
    person's flag falls on the server even with no page open). Agents get their share through
    the arena's `Clock`: the move's time, or (a game clock) what is left / MOVES_TO_GO plus the
    increment, never more than what is left less MOVE_OVERHEAD. An agent's clock runs from the
    moment it is asked to move: the page's pause before asking is not its thinking."""

    base: float = 0.0
    increment: float = 0.0
    per_move: float | None = None

    def __post_init__(self) -> None:
        if self.per_move is not None:
            if not self.per_move > 0 or self.base or self.increment:
                raise ParseError("a clock is per move (`per_move` > 0 seconds) or per game "
                                 "(`base` > 0 seconds, `increment` >= 0), not both")
        elif not self.base > 0 or self.increment < 0:
            raise ParseError(f"a game clock needs base > 0 and increment >= 0 seconds, got "
                             f"base {self.base}, increment {self.increment}")

    def text(self) -> str:
        if self.per_move is not None:
            return f"{self.per_move:g} s a move"
        return f"{self.base:g} s + {self.increment:g} s"


MOVES_TO_GO = 20
"""An agent on a game clock plans for this many more moves of its own."""
MOVE_OVERHEAD = 0.1
"""Share of an agent's time left (at most MOVE_OVERHEAD_MAX_S seconds) kept back from its
budget for what a move costs after the search, and for a busy machine pausing the server
(without it a 1 s-a-move minimax could lose on time on a loaded 2-core machine)."""
MOVE_OVERHEAD_MAX_S = 0.25


@dataclass
class Step:
    """One action in the game's history."""

    action: int
    mover: int
    """A seat, or CHANCE (-1)."""
    notation: str
    seconds: float | None = None
    """Thinking time of an agent's decision."""
    note: str = ""
    """What the move took off the board (`× blue wolf (strength 4)`), see `capture_note`."""
    value: float | None = None
    """The value an agent reported for the position it moved in, from its own side."""
    cells: tuple[int, ...] = ()
    """The board cells of the move (render.action_cells), for marking the last move."""


class Session:
    """One game between seats, each `human` or an agent spec (see the module docstring)."""

    def __init__(self, game_spec: str, seats: list[str], seed: int = 0,
                 time_per_move: float | None = None,
                 on_finish: Callable[["Session"], None] | None = None,
                 position: str | None = None, clock: TimeControl | None = None) -> None:
        self.game: Game = make_game(game_spec)
        self.clock = clock
        self._timer: threading.Timer | None = None
        self._running: int | None = None
        """The seat whose clock runs (set with the lock held, read without it)."""
        self.position = position.strip() if position and position.strip() else None
        """The start position in the game's text notation (None: the game's own start)."""
        if self.position is not None:
            try:
                start = self.game.state_from_text(self.position)
            except NotImplementedError:
                raise ParseError(f"{self.game.name} has no position notation: a game of it "
                                 "starts from its usual start") from None
            if start.is_terminal():
                raise ParseError("that position is already decided: there is nothing to play")
        if len(seats) != self.game.num_players:
            raise ParseError(f"{self.game.name} is played by {self.game.num_players} seats, "
                             f"got {len(seats)}: {seats}")
        if time_per_move is not None and not time_per_move > 0:
            raise ParseError(f"time_per_move must be positive seconds, got {time_per_move!r}")
        self.seats = [seat.strip() for seat in seats]
        self.agents: list[Agent | None] = [
            None if seat == HUMAN else make_agent(seat, self.game) for seat in self.seats]
        self.time_per_move = time_per_move
        self.id = secrets.token_urlsafe(9)
        self.lock = threading.Lock()
        self.version = 0
        """How many times the game was published (each change once)."""
        self.changes = 0
        """Counts changes not yet published; see `publish`."""
        self.snapshot: dict[str, Any] = {}
        """The game as last published (`describe()` plus `version`): what every page sees."""
        self.thinking: dict[str, Any] | None = None
        """While an agent thinks: its seat, name, spec and `started` (time.monotonic())."""
        self._stop = threading.Event()
        self.touched = time.monotonic()
        self.on_finish = on_finish
        """Called once each time the game ends (the server stores it in the results store)."""
        self.names = [render.player_name(self.game, seat)
                      for seat in range(self.game.num_players)]
        self.restart(seed)

    # --- lifecycle ---------------------------------------------------------------------------
    def restart(self, seed: int) -> None:
        self.seed = int(seed)
        self.state: State = self._start_state()
        self.history: list[Step] = []
        self.resigned: int | None = None
        self.flagged: int | None = None
        """The seat whose time ran out (it lost)."""
        self.remaining = [self.clock.base if self.clock else 0.0] * self.game.num_players
        """Seconds left on each seat's game clock at the start of its turn."""
        self.turn_started = time.monotonic()
        self.last_agent: dict[str, Any] | None = None
        self._thought: tuple[int, Thinking] | None = None
        """The last agent decision's thinking on the board, and the history length after it
        (drawn only while nothing has been played since)."""
        self.finished = False
        self.store_error = ""
        """Why the finished game could not be written to the results store, if it could not."""
        for seat, agent in enumerate(self.agents):
            if agent is not None:
                agent.start_game(seat, derive_seed(self.seed, "agent", seat))
        self._view_rngs = [random.Random(derive_seed(self.seed, "view", p))
                           for p in range(self.game.num_players)]
        self._resolve_chance()
        self._start_turn()
        self.changes += 1

    @property
    def human_seats(self) -> list[int]:
        return [seat for seat, agent in enumerate(self.agents) if agent is None]

    def is_over(self) -> bool:
        return (self.resigned is not None or self.flagged is not None
                or self.state.is_terminal())

    def to_move(self) -> int | None:
        return None if self.is_over() else self.state.current_player()

    # --- playing -----------------------------------------------------------------------------
    def human_move(self, move: str | None = None, action: int | None = None) -> None:
        """Play the human seat to move's move, given in notation or as an action id."""
        seat = self._expect_turn(human=True)
        if (move is None) == (action is None):
            raise ParseError("give the move either as `move` (notation) or as `action` (id)")
        if move is not None:
            action = self._view_for(seat).str_to_action(move)
        assert action is not None
        if action not in self.state.legal_actions():
            try:
                shown = self.state.action_to_str(action)
            except BoardLabError:
                shown = "not a move of this game"
            raise IllegalActionError(f"action {action} ({shown}) is not legal for seat {seat} "
                                     f"here; legal: {self._legal_text(seat)}")
        if self._charge(seat):
            raise SessionError(f"{self.names[seat]} ran out of time before this move: "
                               "the game is over")
        self._play(action, seat, None)

    def agent_move(self) -> dict[str, Any]:
        """Ask the agent to move to choose and play; return its report (time, info). The
        caller holds the lock; the game is published as thinking while the agent searches."""
        seat = self._expect_turn(human=False)
        agent = self.agents[seat]
        assert agent is not None
        view = self.state.view(seat, self._view_rngs[seat])
        self._stop.clear()
        self.turn_started = time.monotonic()
        self._running = seat
        self.thinking = {"seat": seat, "name": self.names[seat], "spec": agent.spec,
                         "started": self.turn_started}
        self.changes += 1
        self.publish()
        clock = Clock.start(self._agent_budget(seat))
        try:
            with stop_on(self._stop):
                action = agent.act(view, clock)
        except Exception as error:  # an agent bug is reported, the game stays playable
            raise SessionError(f"agent {agent.spec} in seat {seat} failed: "
                               f"{type(error).__name__}: {error}") from None
        finally:
            self.thinking = None
            self.changes += 1
        seconds = clock.elapsed()
        if action not in self.state.legal_actions():
            raise SessionError(f"agent {agent.spec} in seat {seat} returned {action!r}, which "
                               "is not a legal action")
        if self._charge(seat):
            self.last_agent = None
            return {}
        notation = self.state.action_to_str(action)
        info = agent.last_info()
        value = info.get("value")
        value = float(value) if isinstance(value, (int, float)) and not math.isnan(value) \
            else None
        thought = render.thinking(view, info)
        self._play(int(action), seat, seconds, value)
        self._thought = (len(self.history), thought)
        self.last_agent = {
            "seat": seat, "name": self.names[seat], "spec": agent.spec, "move": notation,
            "seconds": round(seconds, 4), "value": _json_safe(value),
            "info": _json_safe({k: v for k, v in info.items() if k not in ("heat", "pv")}),
            "heat_kinds": [kind for kind, _ in thought.layers], "pv": thought.pv,
            "off_board": thought.off_board}
        return self.last_agent

    def stop(self) -> None:
        """End the thinking agent's search now: its clock runs out, and it plays the best move
        it has (a search bounded only by simulations or depth runs on). Needs no lock."""
        if self.thinking is None:
            raise SessionError("no agent is thinking now: there is nothing to stop")
        self._stop.set()

    def refuse_while_thinking(self) -> None:
        """Refuse any change while an agent thinks (the page closes every way to move)."""
        thinking = self.thinking
        if thinking is not None:
            raise SessionError(
                f"{thinking['name']} ({thinking['spec']}, seat {thinking['seat']}) is thinking; "
                "nothing else was played: wait for its move or press Stop")

    def expect_ply(self, ply: int | None) -> None:
        """Refuse a request made on a position that is no longer the game's."""
        if ply is not None and ply != self.ply():
            raise SessionError(f"the game has moved on: it is at move {self.ply()}, the move "
                               f"was sent from move {ply}; nothing was played")

    def ply(self) -> int:
        return len([s for s in self.history if s.mover != CHANCE])

    def publish(self) -> dict[str, Any]:
        """Describe the game for every page, if it changed since the last time; the snapshot."""
        if self.changes or not self.snapshot:
            self.changes = 0
            self.version += 1
            self.snapshot = {**self.describe(), "version": self.version}
        return self.snapshot

    def current(self) -> dict[str, Any]:
        """The last snapshot, the thinking time brought up to now (needs no lock)."""
        snapshot, thinking = self.snapshot, self.thinking
        if thinking is not None and snapshot.get("thinking") is not None:
            snapshot = {**snapshot, "thinking": self._thinking_json(thinking)}
        if self.clock is not None:
            snapshot = {**snapshot, "clocks": self.clocks()}
        return snapshot

    @staticmethod
    def _thinking_json(thinking: dict[str, Any] | None) -> dict[str, Any] | None:
        if thinking is None:
            return None
        return {"seat": thinking["seat"], "name": thinking["name"], "spec": thinking["spec"],
                "elapsed": round(time.monotonic() - thinking["started"], 3)}

    def undo(self) -> None:
        """Take back a resignation; else back to the last human decision (with no human
        seat: back one decision). Not in a game with clocks."""
        if self.clock is not None:
            raise SessionError("no take-backs in a game with clocks")
        if self.resigned is not None:
            self.resigned = None
            self.finished = False
            self.changes += 1
            return
        humans = self.human_seats
        for index in range(len(self.history) - 1, -1, -1):
            mover = self.history[index].mover
            if mover != CHANCE and (mover in humans or not humans):
                self._rebuild(self.history[:index])
                self.changes += 1
                self.last_agent = None
                self._thought = None
                self.finished = False
                return
        raise SessionError("nothing to undo: no " + ("human " if humans else "")
                           + "move has been played yet")

    def resign(self, seat: int | None = None) -> None:
        if self.is_over():
            raise SessionError("the game is already over")
        if seat is None:
            humans = self.human_seats
            mover = self.state.current_player()
            if mover in humans:
                seat = mover
            elif len(humans) == 1:
                seat = humans[0]
            else:
                raise ParseError("say which seat resigns: {\"seat\": 0}")
        if not 0 <= seat < self.game.num_players:
            raise ParseError(f"seat {seat} does not exist in {self.game.name}")
        self.resigned = seat
        self.changes += 1
        self._finish()

    # --- clocks ------------------------------------------------------------------------------
    def _left(self, seat: int, now: float | None = None) -> float:
        """Seconds `seat` has left now (its turn's time running if it is to move)."""
        assert self.clock is not None
        if seat == self.flagged:
            return 0.0
        running = self._running == seat
        spent = ((time.monotonic() if now is None else now) - self.turn_started) if running \
            else 0.0
        if self.clock.per_move is not None:
            return self.clock.per_move - spent if running else self.clock.per_move
        return self.remaining[seat] - spent

    def _agent_budget(self, seat: int) -> float | None:
        """The seconds an agent's Clock gets for this move (None: no limit)."""
        budgets = [] if self.time_per_move is None else [self.time_per_move]
        if self.clock is not None:
            left = max(self._left(seat), 0.0)
            usable = left - min(MOVE_OVERHEAD * left, MOVE_OVERHEAD_MAX_S)
            budgets.append(usable if self.clock.per_move is not None
                           else min(usable, left / MOVES_TO_GO + self.clock.increment))
        return min(budgets) if budgets else None

    def _charge(self, seat: int) -> bool:
        """Take the turn's time off `seat`'s clock (then add the increment); True, and the
        game over, if its time ran out first."""
        if self.clock is None:
            return False
        left = self._left(seat)
        if left < 0:
            self.flag(seat)
            return True
        if self.clock.per_move is None:
            self.remaining[seat] = left + self.clock.increment
        return False

    def flag(self, seat: int) -> None:
        if self.clock is not None and self.clock.per_move is None:
            self.remaining[seat] = 0.0
        self.flagged = seat
        self.changes += 1
        self._finish()

    def _start_turn(self) -> None:
        """A new decision's time starts; a person's flag falls by a timer, on the server."""
        self.turn_started = time.monotonic()
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        mover = self.to_move()
        # An agent's clock starts when it is asked (agent_move), a person's now.
        self._running = mover if mover is not None and self.agents[mover] is None else None
        if self.clock is None or mover is None or self.agents[mover] is not None:
            return
        marker = (len(self.history), self.seed, self.turn_started)
        self._timer = threading.Timer(max(self._left(mover), 0.0) + 0.05, self._time_up,
                                      args=(marker,))
        self._timer.daemon = True
        self._timer.start()

    def _time_up(self, marker: tuple[int, int, float]) -> None:
        with self.lock:
            mover = self.to_move()
            if mover is None or marker != (len(self.history), self.seed, self.turn_started):
                return  # moved, restarted or over meanwhile
            if self._left(mover) <= 0:
                self.flag(mover)
                self.publish()

    def clocks(self) -> dict[str, Any] | None:
        """The clocks as the page shows them: each seat's seconds left now, who is running."""
        if self.clock is None:
            return None
        now = time.monotonic()
        return {"text": self.clock.text(), "per_move": self.clock.per_move,
                "base": self.clock.base, "increment": self.clock.increment,
                "left": [round(max(self._left(seat, now), 0.0), 3)
                         for seat in range(self.game.num_players)],
                "running": self._running, "flagged": self.flagged}

    # --- the analysis board ------------------------------------------------------------------
    def state_at(self, ply: int) -> tuple[State, list[Step]]:
        """The position after `ply` decisions (their chance outcomes included) and the steps
        that led there, rebuilt from the start; reads the history without the lock."""
        history = list(self.history)
        decisions = [index for index, step in enumerate(history) if step.mover != CHANCE]
        if not 0 <= ply <= len(decisions):
            raise ParseError(f"ply {ply} is outside 0..{len(decisions)} for this game")
        end = len(history) if ply == len(decisions) else decisions[ply]
        state = self._start_state()
        for step in history[:end]:
            state.apply(step.action)
        return state, history[:end]

    def picture(self, ply: int, flip: bool = False,
                thought: Thinking | None = None) -> dict[str, Any]:
        """The position after `ply` decisions as the page shows it (the viewer's eyes), the
        board turned the other way with `flip`; the live position keeps its agent's thinking."""
        state, steps = self.state_at(ply)
        live = len(steps) == len(self.history)
        viewer = self.viewer(state)
        shown = state.view(viewer, random.Random(derive_seed(self.seed, "page", viewer))) \
            if viewer is not None else state
        last, cells = self._last_marked(steps)
        if thought is None and live and self._thought is not None \
                and self._thought[0] == len(self.history):
            thought = self._thought[1]
        ended = live and (self.resigned is not None or self.flagged is not None)
        result = self._result() if ended else None  # a forfeit: the position cannot say
        return {"ply": ply, "plies": self.ply(), "live": live, "flipped": self._flipped(flip),
                "to_move": None if state.is_terminal() else state.current_player(),
                "last": None if last is None else last.notation,
                "svg": render.svg(shown, viewer=viewer, flipped=self._flipped(flip),
                                  last_cells=cells, thought=thought,
                                  caption=result["text"] if result is not None else None),
                "text": str(shown), "position_text": position_text(shown)}

    def analyse(self, ply: int, spec: str, seconds: float | None = None,
                flip: bool = False, line: list[str] | None = None) -> dict[str, Any]:
        """What agent `spec` thinks of the position after `ply` decisions, seen as its mover
        sees it: its move, value, heat map and line on the board. A fresh agent, so the
        game's own agents keep their memory. A game with a person in it is analysed only
        once it is over (no advice during play); needs no lock."""
        if self.human_seats and not self.is_over():
            raise SessionError("an agent may judge positions of this game once it is over: "
                               "a person is playing it (resign or finish it first)")
        if seconds is not None and not 0 < seconds <= ANALYSIS_MAX_S:
            raise ParseError(f"seconds must be in (0, {ANALYSIS_MAX_S}], got {seconds!r}")
        if line:
            state, _, _ = self._line_state(ply, line)
        else:
            state, _ = self.state_at(ply)
        if state.is_terminal():
            raise SessionError(f"the game is over at move {ply}"
                               + (f" and {len(line)} side-line moves" if line else "")
                               + ": there is nothing to judge")
        mover = state.current_player()
        try:
            agent = make_agent(spec, self.game)
        except BoardLabError as error:
            raise ParseError(str(error)) from None
        agent.start_game(mover, derive_seed(self.seed, "analysis", ply))
        view = state.view(mover, random.Random(derive_seed(self.seed, "analysis view", ply)))
        clock = Clock.start(seconds)
        try:
            action = agent.act(view, clock)
        except Exception as error:
            raise SessionError(f"agent {agent.spec} failed on this position: "
                               f"{type(error).__name__}: {error}") from None
        info = agent.last_info()
        thought = render.thinking(view, info)
        value = info.get("value")
        value = float(value) if isinstance(value, (int, float)) and not math.isnan(value) \
            else None
        report = {"seat": mover, "name": self.names[mover], "spec": agent.spec,
                  "move": view.action_to_str(action), "seconds": round(clock.elapsed(), 4),
                  "value": _json_safe(value),
                  "info": _json_safe({k: v for k, v in info.items() if k not in ("heat", "pv")}),
                  "heat_kinds": [kind for kind, _ in thought.layers], "pv": thought.pv,
                  "off_board": thought.off_board}
        if line:
            return {**self.line(ply, line, flip, thought), "agent": report}
        return {**self.picture(ply, flip, thought), "agent": report}

    def _line_state(self, ply: int, moves: list[str]) -> tuple[State, list[Step], list[Step]]:
        """A side line: the position after `ply` decisions as the page shows it, then `moves`
        (notation) played on it, each mover's in turn; the game itself is not touched. Chance
        in the line is drawn from the game's seed and the line's place, so the same moves
        give the same outcomes. Returns the line's position, the game's steps up to `ply`
        and the line's steps."""
        state, steps = self.state_at(ply)
        viewer = self.viewer(state)
        if viewer is not None:  # hidden information: the line goes on from what the page shows
            state = state.view(viewer, random.Random(derive_seed(self.seed, "page", viewer)))
        played: list[Step] = []
        for number, move in enumerate(moves, 1):
            action = legal_move_from_text(state, move, f"side-line move {number} ({move})")
            mover = state.current_player()
            before = state.clone()
            step = Step(action, mover, state.action_to_str(action),
                        cells=render.action_cells(before, action))
            state.apply(action)
            played.append(step)
            while state.current_player() == CHANCE:
                rng = random.Random(derive_seed(self.seed, "side line", ply, len(played)))
                outcome = sample_chance(state, rng)
                notation = state.action_to_str(outcome)
                state.apply(outcome)
                played.append(Step(outcome, CHANCE, notation))
            step.note = capture_note(before, state)
        return state, steps, played

    def line(self, ply: int, moves: list[str], flip: bool = False,
             thought: Thinking | None = None) -> dict[str, Any]:
        """A side line on the analysis board (see `_line_state`): its position's picture, its
        moves as the move list writes them, and every legal move there (any seat's: the
        person tries both sides). Needs no lock: the game is only read."""
        state, steps, played = self._line_state(ply, moves)
        _, cells = self._last_marked(steps + played)
        terminal = state.is_terminal()
        return {"ply": ply, "plies": self.ply(), "live": False, "flipped": self._flipped(flip),
                "line": [step.notation for step in played if step.mover != CHANCE],
                "moves": move_entries(played, self.names),
                "to_move": None if terminal else state.current_player(),
                "over": terminal,
                "result": (result_text(list(state.returns()), self.seats, self.names)
                           + (f" ({render.end_reason(state)})" if render.end_reason(state)
                              else "") if terminal else None),
                "legal": [] if terminal else legal_moves(state),
                "svg": render.svg(state, viewer=self.viewer(state), flipped=self._flipped(flip),
                                  last_cells=cells, thought=thought),
                "text": str(state), "position_text": position_text(state)}

    def game_file(self) -> str:
        """The game as a game file (interop/gamefile.py): seats, result and its reason, every
        move in the game's notation with the chance outcomes. Refused in a game with hidden
        information and a person in it until it is over (the seed tells the hidden cards)."""
        if self.game.facts.hidden_information and self.human_seats and not self.is_over():
            raise SessionError("the moves of a game with hidden information can be downloaded "
                               "once it is over: its seed would tell the cards nobody may see")
        history = list(self.history)  # read without the lock, as GET reads the game
        result = self._result()
        opening, moves = steps_to_moves([(step.mover, step.notation) for step in history])
        decisions = [step for step in history if step.mover != CHANCE]
        comments = [self.names[step.mover] + ("" if step.seconds is None
                                              else f", {step.seconds:.2f} s")
                    for step in decisions]
        return write_game_file(GameFile(
            game=self.game.spec, seed=self.seed, seats=list(self.seats), sides=list(self.names),
            position=self.position, moves=moves, opening=opening,
            result="*" if result is None else result["text"],
            returns=None if result is None else [float(v) for v in result["returns"]],
            reason="" if result is None else result["reason"],
            forfeit=self.resigned if self.resigned is not None else self.flagged,
            comments=comments))

    def _flipped(self, flip: bool) -> bool:
        """Seat 1's side down when the one person plays seat 1; `flip` turns it round."""
        return (self.human_seats == [1]) != flip

    # --- what the page sees ------------------------------------------------------------------
    def shown(self) -> State:
        """The position as the page (or a terminal) shows it: through the viewer's eyes."""
        viewer = self.viewer()
        return self._view_for(viewer) if viewer is not None else self.state

    def viewer(self, state: State | None = None) -> int | None:
        """Whose eyes the page sees through: the only human seat, the human seat to move
        (seats sharing a screen), or None (a spectator of agents sees everything); in the
        game's position, or in `state` (a position of its past)."""
        if not self.game.facts.hidden_information:
            return None
        humans = self.human_seats
        if len(humans) == 1:
            return humans[0]
        state = self.state if state is None else state
        mover = state.current_player()
        return mover if mover in humans else None

    def describe(self) -> dict[str, Any]:
        """The JSON the API returns for this game."""
        viewer = self.viewer()
        shown = self.shown()
        mover = self.to_move()
        human_turn = mover is not None and self.agents[mover] is None
        legal = []
        if human_turn:
            legal = legal_moves(shown)
        last, last_cells = self._last_marked()
        result = self._result()
        thought = None
        if self._thought is not None and self._thought[0] == len(self.history):
            thought = self._thought[1]
        return {
            "id": self.id,
            "game": self.game.name,
            "spec": self.game.spec,
            "seats": self.seats,
            "names": self.names,
            "humans": self.human_seats,
            "seed": self.seed,
            "ply": self.ply(),
            "thinking": self._thinking_json(self.thinking),
            "clocks": self.clocks(),
            "to_move": mover,
            "to_move_kind": None if mover is None else (HUMAN if human_turn else "agent"),
            "over": self.is_over(),
            "result": result,
            "viewer": viewer,
            "renderer": render.has_renderer(self.game),
            "svg": render.svg(shown, viewer=viewer, flipped=self._flipped(False),
                              last_cells=last_cells, thought=thought,
                              caption=(result["text"] if result is not None
                                       and (self.resigned is not None
                                            or self.flagged is not None) else None)),
            "text": str(shown),
            "position": self.position,
            "position_text": position_text(shown),
            "legal": legal,
            "last": None if last is None else {"mover": last.mover, "notation": last.notation,
                                               "cells": last_cells},
            "history": [{"mover": s.mover, "notation": s.notation, "seconds": s.seconds}
                        for s in self.history],
            "moves": move_entries(self.history, self.names),
            "agent": self.last_agent,
            "thinking_on_board": thought is not None,
            "value_graph": self._value_graph(),
            "store_error": self.store_error,
            "can_undo": self.clock is None and (self.resigned is not None or any(
                s.mover != CHANCE for s in self.history)),
        }

    def record(self) -> GameRecord:
        """The game as the arena stores it (a resignation is a forfeit by that seat)."""
        decisions = [step for step in self.history if step.mover != CHANCE]
        result = self._result()
        assert result is not None, "only a finished game has a record"
        return GameRecord(
            game=self.game.spec, agents=list(self.seats), seed=self.seed,
            actions=[step.action for step in self.history],
            movers=[step.mover for step in self.history], returns=result["returns"],
            reason=self._end_reason(),
            forfeit=self.resigned if self.resigned is not None else self.flagged,
            move_seconds=[step.seconds or 0.0 for step in decisions], plies=len(decisions))

    def _end_reason(self) -> str:
        """The store's reason: `normal`, or why a seat forfeited (as the arena words it)."""
        if self.resigned is not None:
            return f"resigned: seat {self.resigned} ({self.seats[self.resigned]})"
        if self.flagged is not None and self.clock is not None:
            return (f"time: seat {self.flagged} ({self.seats[self.flagged]}) ran out of its "
                    f"clock ({self.clock.text()})")
        return "normal"

    # --- internals ---------------------------------------------------------------------------
    def _expect_turn(self, human: bool) -> int:
        result = self._result()  # None while the game is not over
        if result is not None:
            raise SessionError(f"the game is over ({result['text']}); start a new one")
        seat = self.state.current_player()
        is_human = self.agents[seat] is None
        if human and not is_human:
            raise SessionError(f"it is seat {seat}'s turn ({self.seats[seat]}); ask it with "
                               "POST /api/games/{id}/agent-move")
        if not human and is_human:
            raise SessionError(f"it is seat {seat}'s turn, a human: send the move with "
                               "POST /api/games/{id}/move")
        return seat

    def _view_for(self, seat: int | None) -> State:
        if seat is None or not self.game.facts.hidden_information:
            return self.state
        return self.state.view(seat, random.Random(derive_seed(self.seed, "page", seat)))

    def _legal_text(self, seat: int) -> str:
        view = self._view_for(seat)
        moves = [view.action_to_str(a) for a in view.legal_actions()]
        return ", ".join(moves[:40]) + (" ..." if len(moves) > 40 else "")

    def _play(self, action: int, mover: int, seconds: float | None,
              value: float | None = None) -> None:
        notation = self.state.action_to_str(action)
        before = self.state.clone()
        self.state.apply(action)
        step = Step(action, mover, notation, None if seconds is None else round(seconds, 4),
                    value=value, cells=render.action_cells(before, action))
        self.history.append(step)
        self.changes += 1
        self._resolve_chance()
        step.note = capture_note(before, self.state)
        if self.state.is_terminal():
            self._finish()
        self._start_turn()

    def _finish(self) -> None:
        self._running = None
        if not self.finished:
            self.finished = True
            if self.on_finish is not None:
                self.on_finish(self)

    def _last_marked(self, steps: list[Step] | None = None) -> tuple[Step | None, list[int]]:
        """The last decision, and the cells to outline: those of the latest move with cells
        in the last mover's turn (a chip placed, not the card drawn that ends the turn)."""
        decisions = [step for step in (self.history if steps is None else steps)
                     if step.mover != CHANCE]
        if not decisions:
            return None, []
        last = decisions[-1]
        for step in reversed(decisions):
            if step.mover != last.mover:
                break
            if step.cells:
                return last, list(step.cells)
        return last, []

    def _value_graph(self) -> str | None:
        """What the agents believed over the game, from seat 0's side (two-player games)."""
        if self.game.num_players != 2:
            return None
        points, ply = [], 0
        for step in self.history:
            if step.mover == CHANCE:
                continue
            if step.value is not None:
                points.append((ply, step.mover, step.value if step.mover == 0 else -step.value))
            ply += 1
        if not points:
            return None
        return value_graph_svg(points, [f"{self.names[s]}: {self.seats[s]}" for s in (0, 1)],
                               ply, side=self.names[0])

    def _resolve_chance(self) -> None:
        while self.state.current_player() == CHANCE:
            rng = random.Random(derive_seed(self.seed, "chance", len(self.history)))
            outcome = sample_chance(self.state, rng)
            notation = self.state.action_to_str(outcome)
            self.state.apply(outcome)
            self.history.append(Step(outcome, CHANCE, notation))

    def _start_state(self) -> State:
        if self.position is not None:
            return self.game.state_from_text(self.position)
        return self.game.initial_state(self.seed)

    def _rebuild(self, steps: list[Step]) -> None:
        self.state = self._start_state()
        for step in steps:
            self.state.apply(step.action)
        self.history = list(steps)

    def _result(self) -> dict[str, Any] | None:
        if self.flagged is not None:
            returns = self.game.forfeit_returns(self.flagged)
            reason = f"{self.names[self.flagged]} ({self.seats[self.flagged]}) ran out of time"
            text = f"{reason}; " + result_text(returns, self.seats, self.names)
        elif self.resigned is not None:
            returns = self.game.forfeit_returns(self.resigned)
            reason = f"{self.names[self.resigned]} ({self.seats[self.resigned]}) resigned"
            text = f"{reason}; " + result_text(returns, self.seats, self.names)
        elif self.state.is_terminal():
            returns = list(self.state.returns())
            reason = render.end_reason(self.state)
            text = result_text(returns, self.seats, self.names) + (f" ({reason})" if reason
                                                                   else "")
        else:
            return None
        return {"returns": returns, "text": text, "reason": reason}


ANALYSIS_MAX_S = 60.0
"""The longest an agent may be given to judge a position on the analysis board."""


def position_text(state: State) -> str | None:
    """The position in the game's text notation, None for a game without one."""
    try:
        return state.to_text()
    except NotImplementedError:
        return None


def legal_moves(state: State) -> list[dict[str, Any]]:
    """The moves of the side to move as the page offers them: id, notation, the label of a
    button, the cells to click, and the cards under the board to click (`ROW:INDEX`)."""
    return [{"id": action, "notation": state.action_to_str(action),
             "label": render.move_label(state, action),
             "cells": list(render.action_cells(state, action)),
             "cards": render.action_cards(state, action)}
            for action in state.legal_actions()]


def result_text(returns: list[float], seats: list[str], names: list[str] | None = None) -> str:
    """`red (minimax) won`, `draw`; seats are named `seat N` where the game names no sides."""
    best = max(returns)
    winners = [seat for seat, value in enumerate(returns) if value == best]
    if len(winners) == len(returns):
        return "draw"
    names = names or [f"seat {seat}" for seat in range(len(seats))]
    return " and ".join(f"{names[w]} ({seats[w]})" for w in winners) + " won"


def capture_note(before: State, after: State) -> str:
    """What a move (with its chance outcomes) took off the board, from the game's pictures:
    `× blue wolf (strength 4)`, or both pieces of an equal fight; '' when nothing was taken
    or the game has no picture. A move that adds a piece (a disc, a chip) takes nothing."""
    drawn_before, drawn_after = render.picture(before), render.picture(after)
    if drawn_before is None or drawn_after is None:
        return ""
    if len(drawn_after.pieces) >= len(drawn_before.pieces):
        return ""
    # In plain words (`name`), never a glyph the reader's font may lack (Chinese characters).
    lost = (Counter(piece.name or piece.title for piece in drawn_before.pieces.values())
            - Counter(piece.name or piece.title for piece in drawn_after.pieces.values()))
    return "× " + " and ".join(sorted(lost.elements()))


def move_entries(steps: list[Step], names: list[str]) -> list[dict[str, Any]]:
    """The move list as the Play and Replay pages show it: one entry per decision, named by
    side (`red`), chance outcomes after an arrow (`reveal a1 → leopard`), captures noted."""
    entries: list[dict[str, Any]] = []
    for step in steps:
        if step.mover == CHANCE:
            if entries:
                entries[-1]["text"] += f" → {step.notation}"
            continue
        entries.append({"mover": step.mover, "name": names[step.mover], "text": step.notation,
                        "seconds": step.seconds, "note": step.note})
    for entry in entries:
        if entry["note"]:
            entry["text"] += f" {entry['note']}"
    return entries


def _json_safe(value: Any) -> Any:
    """Agent reports as JSON: infinities and NaN (a decided search) become text."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return {str(k): _json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_safe(v) for v in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)


class Sessions:
    """Games in memory by id, at most `cap`: a new game past the cap evicts the one left
    untouched longest."""

    def __init__(self, cap: int = 200) -> None:
        if cap < 1:
            raise ValueError("the cap on games in memory must be at least 1")
        self.cap = cap
        self._games: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, session: Session) -> None:
        with self._lock:
            while len(self._games) >= self.cap:
                self._games.popitem(last=False)
            self._games[session.id] = session

    def get(self, game_id: str) -> Session:
        with self._lock:
            session = self._games.get(game_id)
            if session is None:
                raise NotFound(f"no game with id {game_id!r} (finished games are dropped after "
                               f"{self.cap} newer ones, and on a server restart)")
            self._games.move_to_end(game_id)
            session.touched = time.monotonic()
            return session

    def remove(self, game_id: str) -> None:
        with self._lock:
            if self._games.pop(game_id, None) is None:
                raise NotFound(f"no game with id {game_id!r}")

    def __len__(self) -> int:
        return len(self._games)
