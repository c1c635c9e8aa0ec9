"""Any engine process as an agent: UCI or UCCI (Fairy-Stockfish, ...) or the Go Text Protocol
(GRhino, ...).

    engine:cmd=/usr/games/fairy-stockfish,variant=VARIANT,go=depth 1
    engine:cmd=/usr/games/fairy-stockfish,go=nodes 2000           (the game's own variant)
    engine:cmd=/usr/games/gtp-rhino --level=3                       (GTP)

The game declares how it is written for each protocol (`Game.engine_dialects`: move notation,
the engine's variant name, a variants file), so nothing here knows a game by name.

One engine process per agent, started at its first game and reused for the next ones (UCI
`ucinewgame`, GTP `clear_board`); a process that died is started again at the next game. The
engine follows the game move by move: the agent remembers the position after its own move and
finds the opponent's reply among that position's moves, so a UCI engine gets `position fen
ROOT moves ...` (the repetition history too) and a GTP engine one `play` per opponent move.
A dead, hung or lying engine raises EngineError with a sentence, so the match runner scores a
forfeit with that reason and the tournament goes on: no reply within `reply_timeout` seconds
stops the process; a move that is not legal, or text that is not a move, is refused.
"""

from __future__ import annotations

import collections
import os
import queue
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import weakref
from dataclasses import dataclass
from typing import Callable

from ..core.agent import Agent, Clock
from ..core.game import BoardLabError, EngineDialect, Game, ParseError, State

PROTOCOLS = ("uci", "ucci", "gtp")
MATE_CENTIPAWNS = 3000.0
"""`searched_value`'s value of a forced mate (the engine's `score mate N`), in centipawns."""


class EngineError(BoardLabError):
    """The engine process died, hung, or answered something that is not a legal move."""


@dataclass
class EngineSettings:
    cmd: str = ""
    """The engine's command line, split as a shell would (no shell runs it)."""
    protocol: str = ""
    """uci, ucci or gtp; empty: uci where the game has a UCI dialect, else the game's first."""
    go: str = "depth 1"
    """UCI/UCCI: the words after `go`, e.g. `depth 1`, `nodes 2000`, `movetime 100`."""
    variant: str = ""
    """UCI_Variant to set; empty: the game's own name for the engine (`EngineDialect.variant`)."""
    variants_file: str = ""
    """A variants file (VariantPath); empty: the game's own, where it declares one."""
    options: str = ""
    """setoption values, `Name=value;Other name=value` (e.g. `Hash=16;Threads=1`)."""
    reply_timeout: float = 30.0
    """Seconds the engine may take to answer any command; past that it is stopped and
    forfeits the game."""

    def __post_init__(self) -> None:
        if not self.cmd.strip():
            raise ValueError("engine needs cmd=PATH (e.g. cmd=/usr/games/fairy-stockfish)")
        if self.protocol not in ("",) + PROTOCOLS:
            raise ValueError(f"protocol {self.protocol!r} is not one of {', '.join(PROTOCOLS)}")
        if not self.reply_timeout > 0:
            raise ValueError("reply_timeout must be positive seconds")


class EngineAgent(Agent):
    """An external engine process (UCI, UCCI or GTP) playing as a BoardLab agent."""

    name = "engine"
    Settings = EngineSettings

    @classmethod
    def cannot_play(cls, game: Game) -> str | None:
        if not any(d.protocol in PROTOCOLS for d in game.engine_dialects):
            return "the game declares no engine protocol (Game.engine_dialects)"
        return None

    def __init__(self, game: Game, settings: EngineSettings | None = None, **params) -> None:
        super().__init__(game, settings, **params)
        self.dialect = _pick_dialect(game, self.settings.protocol)
        self.argv = shlex.split(self.settings.cmd)
        if shutil.which(self.argv[0]) is None:
            raise ParseError(f"engine command {self.argv[0]!r} not found (Debian: apt-get "
                             "install fairy-stockfish or grhino)")
        self.process: EngineProcess | None = None
        self.failure: EngineError | None = None
        """Why the engine could not start this game (raised at the first move)."""
        self.follower = MoveFollower()
        self.root = ""
        self.moves: list[str] = []
        """UCI/UCCI: the game so far as `position fen ROOT moves ...`."""

    # --- the game ------------------------------------------------------------------------
    def start_game(self, player: int, seed: int) -> None:
        super().start_game(player, seed)
        # The match runner scores faults raised by `act`, not here: a failure to start is
        # kept and raised at the first move, so it forfeits this game like any other fault.
        self.failure = None
        try:
            self._new_game()
        except EngineError as error:
            self.failure = error

    def _new_game(self) -> None:
        if self.process is None or not self.process.alive():
            self._start_engine()
        assert self.process is not None
        self.root, self.moves = "", []
        self.follower.reset(None)
        if self.dialect.protocol == "gtp":
            self.process.gtp(f"boardsize {self.dialect.board_size}")
            self.process.gtp("clear_board")
            self.follower.reset(self.game.initial_state())  # clear_board's position
        else:
            if self.dialect.protocol == "uci":
                self.process.send("ucinewgame")
            self.process.send("isready")
            self.process.expect(lambda line: line == "readyok", "isready")

    def act(self, state: State, clock: Clock) -> int:
        if self.failure is not None:
            raise self.failure
        if self.process is None or not self.process.alive():
            raise EngineError(f"{self._name()} is not running (it exited: "
                              f"{self.process.exit_text() if self.process else 'never started'})")
        followed = self.follower.replies(state)
        replies = None if followed is None else [self.dialect.to_engine(before, action)
                                                 for before, action in followed]
        if self.dialect.protocol == "gtp":
            text = self._gtp_move(state, replies)
        else:
            text = self._uci_move(state, replies)
        try:
            action = self.dialect.from_engine(state, text)
        except BoardLabError as error:
            first_line = str(error).splitlines()[0] if str(error) else type(error).__name__
            raise EngineError(f"{self._name()} answered {text!r}, not a legal move here: "
                              f"{first_line}") from None
        self.follower.played(state, action)
        return action

    # --- UCI / UCCI --------------------------------------------------------------------------
    def _uci_move(self, state: State, replies: list[str] | None) -> str:
        assert self.process is not None
        if replies is None:
            self.root, self.moves = state.to_text(), []
        else:
            self.moves += replies
        position = f"position fen {self.root}"
        if self.moves:
            position += " moves " + " ".join(self.moves)
        self.process.send(position)
        self.process.send(f"go {self.settings.go}".strip())
        line = self.process.expect(
            lambda text: text.startswith("bestmove") or text == "nobestmove",
            f"go {self.settings.go}")
        words = line.split()
        if len(words) < 2 or words[1] in ("(none)", "0000"):
            raise EngineError(f"{self._name()} found no move ({line!r}) in "
                              f"{state.to_text()!r}, where the game has "
                              f"{len(state.legal_actions())}")
        self.moves.append(words[1])
        return words[1]

    def static_evaluation(self, state: State) -> float | None:
        """The engine's static evaluation of `state` (no search), for the first player, in
        the engine's own unit (a pawn); None where it gives none (the side to move in check).
        Asked with the `eval` command of the Stockfish family (Fairy-Stockfish), whose answer
        ends `Total evaluation: 0.13 (white side)`; learn/texel.py's `teacher` reads it."""
        if self.dialect.protocol == "gtp":
            raise EngineError(f"{self._name()} speaks GTP, which has no static evaluation")
        if self.process is None or not self.process.alive():
            self._new_game()
        assert self.process is not None
        self.process.send(f"position fen {state.to_text()}")
        self.process.send("eval")
        line = self.process.expect(
            lambda text: text.startswith(("Total evaluation", "Final evaluation")), "eval")
        words = line.replace(":", " ").split()
        try:
            value = None if words[2] == "none" else float(words[2])
        except (IndexError, ValueError):
            raise EngineError(f"{self._name()} answered `eval` with {line!r}, not a "
                              "value") from None
        if value is not None and "black side" in line:
            value = -value
        return value

    def searched_value(self, state: State, action: int | None = None,
                       fresh: bool = True) -> tuple[float, int]:
        """The engine's searched value of `state` for the side to move, in centipawns, and its
        best move, after `go` with this agent's settings, restricted to `action` if given
        (UCI `searchmoves`): a judge of another agent's move is the difference between the
        two. A mate counts MATE_CENTIPAWNS. Each call starts from a cleared hash
        (`ucinewgame`), so a depth-limited search gives the same answer every time; `fresh`
        False keeps the hash of the calls before, as in a game (the same answers for the same
        calls in the same order since the last fresh one, and about a tenth of the time for
        Fairy-Stockfish at depth 8 on the positions of one game)."""
        if self.dialect.protocol == "gtp":
            raise EngineError(f"{self._name()} speaks GTP, which has no searched value")
        if self.process is None or not self.process.alive():
            self._new_game()
        assert self.process is not None
        if fresh:
            self.process.send("ucinewgame")
        self.process.send(f"position fen {state.to_text()}")
        go = f"go {self.settings.go}".strip()
        if action is not None:
            go += f" searchmoves {self.dialect.to_engine(state, action)}"
        self.process.send(go)
        scored = ""
        while True:
            line = self.process.expect(lambda text: text.startswith(("info", "bestmove")), go)
            if line.startswith("bestmove"):
                break
            if " score " in line and " pv " in line:
                scored = line
        words = scored.split()
        if not words or len(line.split()) < 2:
            raise EngineError(f"{self._name()} gave no score and move for {go!r} in "
                              f"{state.to_text()!r} ({line!r})")
        kind, number = words[words.index("score") + 1], int(words[words.index("score") + 2])
        value = float(number) if kind == "cp" else float(MATE_CENTIPAWNS if number > 0
                                                         else -MATE_CENTIPAWNS)
        return value, self.dialect.from_engine(state, line.split()[1])

    # --- GTP ---------------------------------------------------------------------------------
    def _gtp_move(self, state: State, replies: list[str] | None) -> str:
        assert self.process is not None
        if replies is None:
            raise EngineError(f"{self._name()} speaks GTP, which follows a game from its start "
                              "move by move; this position was not reached that way "
                              f"({state.to_text()!r})")
        colours = self.dialect.colours
        opponent = colours[1 - state.current_player()]
        # GTP engines for games with forced passes (GRhino) play them themselves: they refuse
        # `play ... pass`, and are not asked for a move when the only one is a pass.
        for move in replies:
            if move.lower() != "pass":
                self.process.gtp(f"play {opponent} {move}")
        legal = state.legal_actions()
        if len(legal) == 1 and self.dialect.to_engine(state, legal[0]).lower() == "pass":
            return self.dialect.to_engine(state, legal[0])
        answer = self.process.gtp(f"genmove {colours[state.current_player()]}")
        if answer.lower() == "resign":
            raise EngineError(f"{self._name()} resigned")
        return answer

    # --- the process -------------------------------------------------------------------------
    def _start_engine(self) -> None:
        if self.process is not None:
            self.process.stop()
        self.process = EngineProcess(self.argv, self.settings.reply_timeout)
        if self.dialect.protocol == "gtp":
            return
        protocol = self.dialect.protocol
        self.process.send(protocol)
        self.process.expect(lambda line: line == f"{protocol}ok", protocol)
        variants_file = self.settings.variants_file or self._write_variants_file()
        if variants_file:
            self.process.send(f"setoption name VariantPath value {variants_file}")
        variant = self.settings.variant or self.dialect.variant
        if variant:
            self.process.send(f"setoption name UCI_Variant value {variant}")
        for name, value in _parse_options(self.settings.options):
            self.process.send(f"setoption name {name} value {value}")

    def _write_variants_file(self) -> str:
        """The game's variants file, written once per agent to a temporary file."""
        if not self.dialect.variants_file:
            return ""
        handle, path = tempfile.mkstemp(prefix="boardlab-variants-", suffix=".ini")
        with os.fdopen(handle, "w") as out:
            out.write(self.dialect.variants_file)
        weakref.finalize(self, _remove_file, path)
        return path

    def _name(self) -> str:
        return f"engine {os.path.basename(self.argv[0])}"

    def close(self) -> None:
        """Stop the engine process (it is also stopped when the agent is collected)."""
        if self.process is not None:
            self.process.stop()
            self.process = None


class MoveFollower:
    """Follows a game through an agent's own turns: remembers the position after the agent's
    move and finds the opponent's reply among that position's moves (one ply: a forced pass
    is a move too), so a stateful opponent program can be told the game move by move."""

    def __init__(self) -> None:
        self.last: State | None = None

    def reset(self, start: State | None) -> None:
        """A new game, whose position is `start` (None: unknown until the first move)."""
        self.last = start

    def replies(self, state: State) -> list[tuple[State, int]] | None:
        """(position, action) for each move since the agent's last one; None when `state`
        was not reached from it that way (a game's first move, or a start mid-game)."""
        if self.last is None:
            return None
        if self.last.to_text() == state.to_text():
            return []
        for action in self.last.legal_actions():
            if self.last.child(action).to_text() == state.to_text():
                return [(self.last, action)]
        return None

    def played(self, state: State, action: int) -> None:
        self.last = state.child(action)


def _pick_dialect(game: Game, protocol: str) -> EngineDialect:
    dialects = {d.protocol: d for d in game.engine_dialects if d.protocol in PROTOCOLS}
    if not protocol:
        protocol = "uci" if "uci" in dialects else next(iter(dialects))
    if protocol not in dialects:
        raise ParseError(f"{game.name} is not written for {protocol} engines; it declares "
                         f"{', '.join(dialects)}")
    return dialects[protocol]


def _parse_options(text: str) -> list[tuple[str, str]]:
    """`Hash=16;Skill Level=3` -> [('Hash', '16'), ('Skill Level', '3')]."""
    options = []
    for item in filter(None, (part.strip() for part in text.split(";"))):
        name, equals, value = item.partition("=")
        if not equals or not name.strip():
            raise ParseError(f"engine option {item!r} is not of the form Name=value")
        options.append((name.strip(), value.strip()))
    return options


def _remove_file(path: str) -> None:
    try:
        os.remove(path)
    except OSError:
        pass


class EngineProcess:
    """An engine process spoken to line by line; every wait is bounded by `timeout`.

    A thread reads the engine's output into a queue, so a wait can give up; the process dies
    with this one (Linux: the parent-death signal), so an arena worker that is killed leaves
    no engine behind."""

    def __init__(self, argv: list[str], timeout: float) -> None:
        self.argv, self.timeout = argv, timeout
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.errors: collections.deque[str] = collections.deque(maxlen=3)
        try:
            self.popen = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                text=True, bufsize=1, preexec_fn=_die_with_parent if sys.platform ==
                "linux" else None)
        except OSError as error:
            raise EngineError(f"engine {argv[0]} could not start: {error}") from None
        self._finalizer = weakref.finalize(self, _kill, self.popen)
        _reader(self.popen.stdout, self.lines.put, end=None)
        _reader(self.popen.stderr, self.errors.append)

    def alive(self) -> bool:
        return self.popen.poll() is None

    def exit_text(self) -> str:
        code = self.popen.poll()
        text = "still running" if code is None else f"exit code {code}"
        if self.errors:
            text += "; it said: " + " / ".join(self.errors)
        return text

    def send(self, line: str) -> None:
        try:
            assert self.popen.stdin is not None
            self.popen.stdin.write(line + "\n")
            self.popen.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise EngineError(f"engine {self.argv[0]} exited before `{line}` "
                              f"({self.exit_text()})") from None

    def expect(self, wanted: Callable[[str], bool], what: str) -> str:
        """The first line `wanted` accepts; EngineError if the engine exits, or gives no such
        line within `timeout` seconds (it is then stopped)."""
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                self.stop()
                raise EngineError(f"engine {self.argv[0]} did not answer `{what}` within "
                                  f"{self.timeout:g}s; it was stopped") from None
            if line is None:
                self.popen.wait(5)
                raise EngineError(f"engine {self.argv[0]} exited while answering `{what}` "
                                  f"({self.exit_text()})")
            if wanted(line.strip()):
                return line.strip()

    def gtp(self, command: str) -> str:
        """One GTP exchange: the text after `=`; EngineError on `?` (the engine refused)."""
        self.send(command)
        head = self.expect(lambda line: line.startswith(("=", "?")), command)
        self.expect(lambda line: line == "", command)  # a GTP reply ends with an empty line
        if head.startswith("?"):
            raise EngineError(f"engine {self.argv[0]} refused `{command}`: {head[1:].strip()}")
        return head[1:].strip()

    def stop(self) -> None:
        self._finalizer()


def _reader(stream, put: Callable, end: object = ...) -> None:
    """A daemon thread passing `stream`'s lines to `put` (then `end`, unless it is ...)."""
    def pump() -> None:
        try:
            for line in stream:
                put(line.rstrip("\r\n"))
        except (OSError, ValueError):
            pass
        if end is not ...:
            put(end)

    threading.Thread(target=pump, daemon=True).start()


def _kill(popen: subprocess.Popen) -> None:
    if popen.poll() is None:
        popen.kill()
    try:
        popen.wait(5)
    except subprocess.TimeoutExpired:
        pass
    try:  # only stdin: the reader threads own stdout and stderr and end at their EOF
        if popen.stdin is not None:
            popen.stdin.close()
    except OSError:
        pass


def _die_with_parent() -> None:
    """In the engine's process before exec: SIGKILL it when its parent dies (Linux prctl)."""
    import ctypes

    PR_SET_PDEATHSIG = 1
    ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
