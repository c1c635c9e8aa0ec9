"""A BoardLab agent as a UCI or UCCI engine on stdin/stdout, for a game that declares either.

`boardlab uci GAME AGENT` or `python -m boardlab.interop.uci GAME AGENT` (docs/interop.md).
Commands understood (either protocol's greeting is accepted, and answered in kind):

  uci | ucci                 id name/author, then uciok | ucciok
  isready                    readyok (answered at once, even during a search)
  ucinewgame                 forget the game; the agent is started afresh
  position startpos|fen FEN [moves M1 M2 ...]
  go [depth D] [movetime MS] [wtime MS btime MS winc MS binc MS movestogo N] [infinite]
     (UCCI: go [depth D] [time MS increment MS movestogo N opptime ...])
                             bestmove MOVE, or `bestmove (none)` (UCI) / `nobestmove` (UCCI)
                             when the side to move has no move
  stop                       the search ends as soon as the agent looks at its clock
  quit                       ends the engine (after the running search, stopped)

Moves are written as the game declares for the protocol spoken (`Game.engine_dialects`: a
game may write a move one way in UCCI and another in UCI, its rules page says how); a game
that declares nothing uses its own notation. The protocol before any greeting is
the game's first declared UCI or UCCI one. FEN is the game's `to_text` notation. The search
runs in a thread against a `Clock` whose budget comes from `go`; `stop` sets that budget to
zero. `depth D` sets the agent's `depth` parameter for that search when the agent has one. A
line that cannot be understood gets one `info string error: ...` line and the engine carries
on; it never exits on bad input.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import threading
from typing import Any, TextIO

from ..core.agent import Agent, Clock
from ..core.game import BoardLabError, EngineDialect, Game, State
from ..core.registry import make_agent, make_game

SAFETY = 0.05
"""Seconds kept back from every budget for Python's own overhead and the reply."""
DEFAULT_MOVES_TO_GO = 30
"""Moves assumed left in the game when `go` gives a clock without `movestogo`."""


class Engine:
    """The protocol state machine: feed it lines with `handle`, it writes replies to `out`."""

    def __init__(self, game: Game, agent_spec: str, out: TextIO, seed: int = 0) -> None:
        self.game = game
        self.agent_spec = agent_spec
        self.agent: Agent = make_agent(agent_spec, game)
        self.out = out
        self.seed = seed
        self.games_started = 0
        self.dialects = {d.protocol: d for d in game.engine_dialects
                         if d.protocol in ("uci", "ucci")}
        self.protocol = next(iter(self.dialects), "uci")
        self.state: State = game.initial_state(seed)
        self._write_lock = threading.Lock()
        self._search: threading.Thread | None = None
        self._clock: Clock | None = None
        self._new_game()

    # --- input ---------------------------------------------------------------------------
    def handle(self, line: str) -> bool:
        """Act on one input line; False once the engine should exit (after `quit`)."""
        words = line.split()
        if not words:
            return True
        command, args = words[0], words[1:]
        if command == "quit":
            self.stop()
            return False
        if command == "stop":
            self.stop()
            return True
        if command == "isready":
            self.say("readyok")
            return True
        self.wait()  # every other command acts on a position, so the search must be over
        try:
            if command in ("uci", "ucci"):
                self.protocol = command
                self.say(f"id name BoardLab {self.game.name} {self.agent_spec}")
                self.say("id author BoardLab")
                self.say(f"{command}ok")
            elif command == "ucinewgame":
                self._new_game()
            elif command == "position":
                self.state = self._parse_position(args)
            elif command == "go":
                self._go(args)
            elif command in ("setoption", "debug", "register", "ponderhit", "banmoves",
                             "probe"):
                self.say(f"info string {command} is not supported and was ignored")
            else:
                raise BoardLabError(f"unknown command {command!r} in line {line.strip()!r}")
        except (BoardLabError, ValueError) as error:
            self.say(f"info string error: {_one_line(error)}")
        return True

    def run(self, lines: TextIO) -> int:
        """Read commands until `quit` or end of input; the exit status (always 0)."""
        for line in lines:
            if not self.handle(line):
                return 0
        self.wait()  # end of input: let a running search answer before exiting
        return 0

    # --- searching ---------------------------------------------------------------------------
    def stop(self) -> None:
        """End the running search (if any) as soon as the agent checks its clock; wait for it."""
        if self._clock is not None:
            self._clock.budget = 0.0
        self.wait()

    def wait(self) -> None:
        if self._search is not None:
            self._search.join()
            self._search = None

    def _go(self, args: list[str]) -> None:
        options = _parse_go(args)
        if self.state.is_terminal():
            self.say("nobestmove" if self.protocol == "ucci" else "bestmove (none)")
            return
        budget = self._budget(options)
        settings = self.agent.settings
        if "depth" in options:
            if not (dataclasses.is_dataclass(settings) and not isinstance(settings, type)
                    and hasattr(settings, "depth")):
                self.say(f"info string {self.agent_spec} has no depth parameter; "
                         "depth ignored")
            else:
                settings = dataclasses.replace(settings, depth=options["depth"])
        self._clock = Clock.start(budget)
        self._search = threading.Thread(target=self._think, daemon=True,
                                        args=(self.state.clone(), self._clock, settings))
        self._search.start()

    def _think(self, state: State, clock: Clock, settings: Any) -> None:
        saved = self.agent.settings
        self.agent.settings = settings
        self.agent.player = state.current_player()
        try:
            action = self.agent.act(state.view(self.agent.player, self.agent.rng), clock)
            move = self.dialect().to_engine(state, action)
            if action not in state.legal_actions():
                raise BoardLabError(f"the agent chose {move}, which is not legal here")
        except Exception as error:  # an agent bug must not kill the engine
            self.say(f"info string error: agent {self.agent_spec} failed: "
                     f"{type(error).__name__}: {_one_line(error)}")
            # Still answer: a GUI waiting for bestmove would hang otherwise.
            move = self.dialect().to_engine(state, state.legal_actions()[0])
        finally:
            self.agent.settings = saved
        info = self.agent.last_info()
        parts = [f"{key} {int(info[key])}" for key in ("depth", "nodes") if key in info]
        parts.append(f"time {int(clock.elapsed() * 1000)}")
        self.say("info " + " ".join(parts))
        self.say(f"bestmove {move}")

    def _budget(self, options: dict[str, int]) -> float | None:
        """Seconds for this move from `go`'s time controls; None when unlimited."""
        if "movetime" in options:
            return max(0.01, options["movetime"] / 1000 - SAFETY)
        red = self.state.current_player() == 0
        left = options.get("time", options.get("wtime" if red else "btime"))
        if left is None:
            return None
        increment = options.get("increment", options.get("winc" if red else "binc", 0))
        moves = max(1, options.get("movestogo", DEFAULT_MOVES_TO_GO))
        budget = left / 1000 / moves + 0.8 * increment / 1000
        return max(0.01, min(budget, left / 1000 / 2) - SAFETY)

    # --- positions -------------------------------------------------------------------------
    def _new_game(self) -> None:
        self.games_started += 1
        self.state = self.game.initial_state(self.seed)
        self.agent.start_game(0, self.seed + self.games_started)

    def _parse_position(self, args: list[str]) -> State:
        """A new state from `position ...` arguments; the old one stays if anything is wrong."""
        if not args:
            raise BoardLabError("position needs 'startpos' or 'fen FEN'")
        moves_at = args.index("moves") if "moves" in args else len(args)
        head, moves = args[:moves_at], args[moves_at + 1:]
        if head == ["startpos"]:
            state = self.game.initial_state(self.seed)
        elif head[0] == "fen" and len(head) > 1:
            state = self.game.state_from_text(" ".join(head[1:]))
        else:
            raise BoardLabError(f"position {' '.join(head)!r} is neither 'startpos' nor "
                                "'fen FEN'")
        for number, text in enumerate(moves, 1):
            try:
                state.apply(self.dialect().from_engine(state, text))
            except BoardLabError as error:
                raise BoardLabError(f"move {number} ({text}) of the position command: "
                                    f"{_one_line(error)}; position unchanged") from None
        return state

    def dialect(self) -> EngineDialect:
        """How moves are written in the protocol now spoken (the game's own notation when it
        declares nothing for it)."""
        return self.dialects.get(self.protocol, EngineDialect(self.protocol))

    def say(self, text: str) -> None:
        with self._write_lock:
            self.out.write(text + "\n")
            self.out.flush()


GO_NUMBERS = {"depth", "movetime", "wtime", "btime", "winc", "binc", "movestogo", "time",
              "increment", "opptime", "oppincrement", "nodes", "mate"}
GO_FLAGS = {"infinite", "ponder", "draw"}


def _parse_go(args: list[str]) -> dict[str, int]:
    """`go` arguments -> {name: number}; BoardLabError naming the bad word."""
    options: dict[str, int] = {}
    words = iter(args)
    for word in words:
        if word in GO_FLAGS:
            continue
        if word not in GO_NUMBERS:
            raise BoardLabError(f"go: unknown argument {word!r}")
        value = next(words, None)
        try:
            options[word] = int(value)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise BoardLabError(f"go: {word} needs a whole number, got {value!r}") from None
        if options[word] < 0 or (word == "depth" and options[word] == 0):
            raise BoardLabError(f"go: {word} {options[word]} is out of range")
    return options


def _one_line(error: BaseException) -> str:
    return " / ".join(part.strip() for part in str(error).splitlines() if part.strip())


def run(game_spec: str, agent_spec: str, stdin: TextIO | None = None,
        stdout: TextIO | None = None, seed: int = 0) -> int:
    """Serve `agent_spec` playing `game_spec` over the protocol until `quit` or end of input."""
    game = make_game(game_spec)
    if game.num_players != 2:
        raise BoardLabError(f"{game.spec} has {game.num_players} players; UCI/UCCI engines "
                            "play two-player games")
    engine = Engine(game, agent_spec, stdout or sys.stdout, seed=seed)
    return engine.run(stdin or sys.stdin)


def add_uci_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of `boardlab uci` and `python -m boardlab.interop.uci`."""
    parser.add_argument("game", help="game spec of a game that declares an engine protocol "
                        "(Game.engine_dialects: UCCI, UCI)")
    parser.add_argument("agent", help="agent spec, e.g. minimax:depth=3 or mcts:sims=800")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed of the agent's randomness (default 0)")
    parser.set_defaults(run=cmd_uci)


def cmd_uci(args: argparse.Namespace) -> int:
    return run(args.game, args.agent, seed=args.seed)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m boardlab.interop.uci",
                                     description=__doc__.splitlines()[0])
    add_uci_arguments(parser)
    args = parser.parse_args(argv)
    try:
        return cmd_uci(args)
    except BoardLabError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
