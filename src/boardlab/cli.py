"""`boardlab ...`: play board games with AI agents, run tournaments, train and compare.

Run `boardlab COMMAND --help` for one command. The documentation is the repository's docs/
folder (docs/getting-started.md first) and each game's rules page (boardlab/games/GAME/
README.md).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from .agents.human import COMMANDS_HELP, command_of, legal_moves_text, short_error
from .core.game import CHANCE, BoardLabError, Game, State
from .core.numbers import number_text
from .core.perft import perft

def seeds_line() -> str:
    """The course projects of the installed games (each declares its own, `Game.course_project`),
    which the agents' help cites by number; empty when no game declares one."""
    from .core.registry import game_class, game_names

    seeds = set()
    for name in game_names():
        try:
            seeds.add(game_class(name).course_project)
        except Exception:  # one broken plug-in must not hide the others (`boardlab games`)
            continue
    seeds.discard("")
    if not seeds:
        return ""
    return ("Seeds: the course projects BoardLab grew from, named in the agents' help: "
            + ", ".join(sorted(seeds)) + " (README.md, the games table).")


def main(argv: list[str] | None = None) -> int:
    # Process-wide, so set here at the entry point and not by a library module: agents run
    # small networks one position at a time and arena workers share the cores, where a
    # second torch/BLAS thread per process only contends (measured 40x slower with 2 threads
    # on a busy machine). Read by torch when it is imported, later; a user's own value wins.
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 0
    try:
        return args.run(args) or 0
    except BoardLabError as error:
        if args.debug:
            raise
        print(f"boardlab: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nboardlab: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `boardlab play ... | head`: the reader left, nothing is wrong
        # Point stdout at /dev/null so Python's flush at exit does not fail a second time.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as error:  # the last line of defence: one line, details with --debug
        if args.debug:
            raise
        print(f"boardlab: internal error: {type(error).__name__}: {error} "
              "(run again with --debug for the traceback)", file=sys.stderr)
        return 1


def build_parser() -> argparse.ArgumentParser:
    from . import __version__

    parser = argparse.ArgumentParser(prog="boardlab", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"boardlab {__version__}")
    parser.add_argument("--debug", action="store_true", help="show tracebacks on errors")
    commands = parser.add_subparsers(dest="command")

    games = commands.add_parser("games", help="list the games")
    games.set_defaults(run=cmd_games)

    agents = commands.add_parser("agents", help="list the agents and their parameters")
    agents.set_defaults(run=cmd_agents)

    play = commands.add_parser(
        "play", help="play one game, shown move by move",
        description="One game, the board shown after every move. A `human` seat types its "
                    "moves in the game's notation, or: " + COMMANDS_HELP + ".")
    play.add_argument("game", help="game spec, NAME or NAME:param=value,... "
                                      "(`boardlab games` lists them)")
    play.add_argument("agents", nargs="+", help="one agent spec per seat; `human` to play")
    play.add_argument("--seed", type=int, default=0)
    play.add_argument("--time-per-move", type=float, default=None, metavar="S")
    play.add_argument("--quiet", action="store_true", help="print only the result")
    play.set_defaults(run=cmd_play)

    arena = commands.add_parser(
        "arena", help="round-robin tournament",
        description="Round robin, N games a pair, seats alternating; every game stored in "
                    "--db as it ends, so a rerun (or --resume DB) finishes a killed run.")
    arena.add_argument("game", nargs="?", help="game spec (not with --resume)")
    arena.add_argument("agents", nargs="*", help="two or more agent specs")
    arena.add_argument("--games", type=int, default=20, help="games per pair (default 20)")
    arena.add_argument("--db", default="boardlab.sqlite",
                       help="SQLite results store; a rerun resumes (default boardlab.sqlite)")
    arena.add_argument("--resume", default=None, metavar="DB",
                       help="finish the latest unfinished tournament stored in DB, with the "
                            "parameters it was started with")
    arena.add_argument("--seed", type=int, default=0, help="base seed of the tournament")
    arena.add_argument("--workers", type=int, default=None,
                       help="worker processes (default: the number of cores)")
    arena.add_argument("--backend", choices=("local", "ray"), default="local",
                       help="local processes, or a Ray cluster (pip install -e "
                            "'.[distributed]')")
    arena.add_argument("--ray-address", default=None, metavar="ADDRESS",
                       help="an existing Ray cluster (default: start one on this machine)")
    arena.add_argument("--time-per-move", type=float, default=None, metavar="S",
                       help="each agent's budget; a move past S + max(1, S) seconds is "
                            "stopped and lost on time")
    arena.add_argument("--memory-per-worker", type=int, default=None, metavar="MB",
                       help="address space a worker may add once its agents are built; an "
                            "agent that runs out loses with reason 'memory' (Linux)")
    arena.add_argument("--json", dest="json_path", default=None, help="write results as JSON")
    arena.add_argument("--report", default=None, metavar="DIR",
                       help="write JSON, Markdown and a heatmap PNG to DIR")
    arena.add_argument("--no-progress", action="store_true")
    arena.set_defaults(run=cmd_arena)

    report = commands.add_parser(
        "report", help="tables and ratings of the tournaments in a results store (no play)")
    report.add_argument("db", help="SQLite results store written by `boardlab arena`")
    report.add_argument("--report", default=None, metavar="DIR",
                        help="write JSON, Markdown and a heatmap PNG to DIR (one folder per "
                             "tournament when the store holds several)")
    report.add_argument("--json", dest="json_path", default=None,
                        help="write the results as JSON (a list when there are several)")
    report.set_defaults(run=cmd_report)

    perft = commands.add_parser("perft", help="count move-generation leaves")
    perft.add_argument("game")
    perft.add_argument("--depth", type=int, required=True)
    perft.add_argument("--fen", default=None, help="start from a position in the game's notation")
    perft.add_argument("--moves", default="", help='moves in notation from the start, "M1 M2"')
    perft.set_defaults(run=cmd_perft)

    replay = commands.add_parser(
        "replay", help="a stored game's moves, or a game file played back; --plot draws "
                       "a stored game's value graph as PNG",
        description="List the games of a results store, or show one game's moves. With "
                    "--plot, an agent (--agent) judges every position of the game and its "
                    "values, from seat 0's side, are drawn over the game with matplotlib. "
                    "Given a game file (the moves the browser's Download moves saves, "
                    "docs/web.md), it plays the moves back and prints the final position.")
    replay.add_argument("db", help="SQLite results store (boardlab arena / boardlab serve), "
                                   "or a game file (moves.txt from the browser)")
    replay.add_argument("number", nargs="?", type=int, default=None,
                        help="the stored game's number (as listed without it)")
    replay.add_argument("--plot", default=None, metavar="PNG", help="write the value graph")
    replay.add_argument("--agent", default="mcts:sims=200",
                        help="the agent that judges each position (default mcts:sims=200)")
    replay.add_argument("--position", action="store_true",
                        help="a game file: print only its final position, in the game's text "
                             "notation")
    replay.set_defaults(run=cmd_replay)

    new_agent = commands.add_parser("new-agent", help="write a starting agent file to edit")
    new_agent.add_argument("name", help="class name, e.g. MyBot")
    new_agent.add_argument("--out", default=None, help="file to write (default: NAME lower.py)")
    new_agent.add_argument("--force", action="store_true", help="overwrite an existing file")
    new_agent.set_defaults(run=cmd_new_agent)

    new_game = commands.add_parser(
        "new-game", help="write a game package of its own (starts as tic-tac-toe) to edit",
        description="Write a game package with its own pyproject.toml, whose `boardlab.games` "
                    "entry point registers the game once it is installed (pip install -e DIR): "
                    "a working tic-tac-toe to edit into your game, a README and a test that "
                    "runs BoardLab's contract checks (boardlab.testing). See docs/new-game.md.")
    new_game.add_argument("name", help="the game's name in specs, e.g. connect-four")
    new_game.add_argument("--out", default=None,
                          help="folder to write (default: NAME in the current folder)")
    new_game.add_argument("--force", action="store_true", help="overwrite existing files")
    new_game.set_defaults(run=cmd_new_game)

    # Faces that live in their own packages add their own subcommands.
    from .arena.tune_cli import add_tune_parser
    from .bench.cli import add_bench_parser
    from .interop.cli import add_uci_parser
    from .learn.cli import add_train_parser
    from .learn.teach_cli import add_teach_parser
    from .web.cli import add_serve_parser

    add_train_parser(commands)
    add_teach_parser(commands)
    add_tune_parser(commands)
    add_bench_parser(commands)
    add_serve_parser(commands)
    add_uci_parser(commands)
    return parser


# --- commands ------------------------------------------------------------------------------------

def cmd_games(args: argparse.Namespace) -> int:
    from .core.registry import game_class, game_names

    for name in game_names():
        try:
            game = game_class(name)()
            facts = game.facts
            print(f"{name:16} {facts.num_players} players, {facts.num_actions} actions"
                  f"{', chance' if facts.has_chance else ''}"
                  f"{', hidden information' if facts.hidden_information else ''}")
        except Exception as error:  # one broken plug-in must not hide the others
            print(f"{name:16} (cannot load: {type(error).__name__}: {error})")
    return 0


def cmd_agents(args: argparse.Namespace) -> int:
    import shutil
    import textwrap

    from .core.registry import agent_class, agent_names, agent_summary, describe_settings

    # Each agent's whole first sentence (its docstring's first line often stops mid-way),
    # then its parameters four spaces in, each wrapped to the terminal with a hanging indent.
    width = max(40, min(shutil.get_terminal_size().columns, 100))

    def wrapped(text: str, indent: str, hang: str) -> str:
        return textwrap.fill(text, width=width, initial_indent=indent, subsequent_indent=hang,
                             break_long_words=False, break_on_hyphens=False)

    for name in agent_names():
        cls = agent_class(name)
        print(wrapped(f"{name}: {agent_summary(cls)}", "", "  "))
        for param, default, help_text in describe_settings(cls.Settings):
            print(wrapped(f"{param}={default}  {help_text}", "    ", "        "))
    print("your own: path/to/file.py:ClassName[:param=value,...]")
    seeds = seeds_line()
    if seeds:
        print(seeds)
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from .core.match import play_match
    from .core.registry import make_agent, make_game

    game = make_game(args.game)
    if len(args.agents) != game.num_players:
        raise BoardLabError(f"{game.name} needs {game.num_players} agents, "
                            f"got {len(args.agents)}")
    if "human" in (spec.strip() for spec in args.agents):
        return _play_with_people(args)
    agents = [make_agent(spec, game) for spec in args.agents]
    if not args.quiet:
        print(game.initial_state(args.seed))

    def show(state: State, mover: int, action: int) -> None:
        if args.quiet:
            return
        who = "chance" if mover == CHANCE else f"player {mover} ({agents[mover].spec})"
        print(f"\n{who}: {state.action_to_str(action)}")
        if mover != CHANCE:
            thinking = thinking_text(agents[mover].last_info())
            if thinking:
                print(thinking)
        after = state.child(action)
        if not after.is_chance_node():
            print(after)

    record = play_match(game, agents, seed=args.seed, time_per_move=args.time_per_move,
                        on_move=show)
    print(f"\nresult: {_describe_result(game, record.returns, args.agents)} "
          f"({record.reason}, {record.plies} plies)")
    return 0


def _play_with_people(args: argparse.Namespace) -> int:
    """A game with a person at the keyboard: the web page's session (seeded chance, undo,
    resignation, a person sees only their side of hidden information) driven from a
    terminal."""
    from . import render
    from .web.sessions import Session, SessionError, move_entries

    session = Session(args.game, args.agents, args.seed, args.time_per_move)
    names = session.names
    key = render.text_key(session.game)
    print(session.shown())
    if key:
        print(key)
    print(f"({COMMANDS_HELP})")

    def show_last() -> None:
        entry = move_entries(session.history, names)[-1]
        spec = session.seats[entry["mover"]]
        print(f"\n{entry['name']} ({spec}): {entry['text']}")
        if session.last_agent is not None and session.last_agent["seat"] == entry["mover"] \
                and spec != "human":
            thinking = thinking_text(session.agents[entry["mover"]].last_info())
            if thinking:
                print(thinking)
        print(session.shown())

    while not session.is_over():
        seat = session.state.current_player()
        if session.agents[seat] is not None:
            session.agent_move()
            show_last()
            continue
        try:
            text = input(f"{names[seat]} (seat {seat}), your move: ")
        except EOFError:  # Ctrl-D: a person leaving is no crash
            print("\nyou left the game")
            return 0
        command = command_of(text)
        if command == "help":
            print(f"legal moves: {legal_moves_text(session.shown())}\n{COMMANDS_HELP}"
                  + (f"\n{key}" if key else ""))
        elif command == "quit":
            print("you left the game")
            return 0
        elif command == "resign":
            session.resign(seat)
        elif command == "undo":
            try:
                session.undo()
            except SessionError as error:
                print(f"not undone: {error}")
                continue
            print("\nundone: your move again")
            print(session.shown())
        elif text.strip():
            try:
                session.human_move(move=text.strip())
            except BoardLabError as error:
                print(f"not played: {short_error(error)}")
                continue
            show_last()
    result = session.describe()["result"]
    print(f"\nresult: {result['text']}")
    return 0


def thinking_text(info: dict) -> str:
    """An agent's `last_info()` as one indented line: value, expected line, its best moves
    by the first heat map ('' when it reports nothing of the kind)."""
    parts = []
    value = info.get("value")
    if isinstance(value, (int, float)):
        parts.append(f"value {number_text(value, '.3g')}")
    if len(info.get("pv") or []) > 1:
        parts.append("expects " + " ".join(info["pv"]))
    for kind, scores in (info.get("heat") or {}).items():
        best = sorted(scores.items(), key=lambda item: -item[1])[:3]
        if best:
            parts.append(f"{kind}: " + ", ".join(f"{move} {number_text(score, '.3g')}"
                                                 for move, score in best))
        break
    return "  thinks: " + "; ".join(parts) if parts else ""


def _describe_result(game: Game, returns: list[float], specs: list[str]) -> str:
    best = max(returns)
    if all(r == best for r in returns):
        return "draw"
    winners = [f"player {i} ({specs[i]})" for i, r in enumerate(returns) if r == best]
    return " and ".join(winners) + " won"


def cmd_arena(args: argparse.Namespace) -> int:
    from rich.console import Console

    from .arena.report import print_table, to_json, write_report
    from .arena.tournament import resume_tournament, run_tournament

    # No --workers: every core here, or every CPU of the Ray cluster.
    workers = args.workers
    if workers is None and args.backend == "local":
        workers = os.cpu_count() or 1
    if workers is not None and workers < 1:
        raise BoardLabError(f"--workers must be at least 1, got {workers}")
    started = time.time()
    if args.resume:
        if args.game or args.agents:
            raise BoardLabError("--resume DB takes the game and agents from DB; give no "
                                "game or agents with it")
        db = args.resume
        result = resume_tournament(db, workers=workers, progress=not args.no_progress,
                                   backend=args.backend, ray_address=args.ray_address,
                                   memory_mb=("stored" if args.memory_per_worker is None
                                              else args.memory_per_worker))
    else:
        if not args.game:
            raise BoardLabError("arena needs a game and at least two agents (or --resume DB)")
        if len(args.agents) < 2:
            raise BoardLabError("an arena needs at least two agents")
        if args.games < 1:
            raise BoardLabError("--games must be at least 1")
        db = args.db
        result = run_tournament(args.game, args.agents, args.games, db, seed=args.seed,
                                workers=workers, time_per_move=args.time_per_move,
                                progress=not args.no_progress,
                                memory_mb=args.memory_per_worker, backend=args.backend,
                                ray_address=args.ray_address)
    console = Console()
    print_table(result, console)
    console.print(f"{sum(p.games for p in result.pairs)} games in the table, stored in "
                  f"{db}; {result.played} played in {time.time() - started:.1f}s this run")
    if args.json_path:
        Path(args.json_path).write_text(json.dumps(to_json(result), indent=2) + "\n")
        console.print(f"JSON written to {args.json_path}")
    if args.report:
        write_report(result, Path(args.report))
        console.print(f"report written to {args.report}/")
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    from rich.console import Console

    from .arena.report import print_table, to_json, write_report
    from .arena.store import ResultStore
    from .arena.tournament import stored_tournaments, tournament_result

    path = Path(args.db)
    if not path.is_file():
        raise BoardLabError(f"{path}: no such results database")
    entries = stored_tournaments(path)
    if not entries:
        raise BoardLabError(f"{path} holds no games yet")
    console = Console()
    results = []
    with ResultStore(path) as store:
        for entry in entries:
            result = tournament_result(store, entry.game, list(entry.agents),
                                       entry.games_per_pair, entry.base_seed,
                                       entry.time_per_move)
            results.append(result)
            print_table(result, console)
            games = sum(p.games for p in result.pairs)
            expected = entry.games_per_pair * len(entry.agents) * (len(entry.agents) - 1) // 2
            console.print(f"{games} of {expected} games stored"
                          + ("" if games == expected else
                             f"; finish it with: boardlab arena --resume {path}") + "\n")
    if args.json_path:
        documents = [to_json(result) for result in results]
        Path(args.json_path).write_text(
            json.dumps(documents[0] if len(documents) == 1 else documents, indent=2) + "\n")
        console.print(f"JSON written to {args.json_path}")
    if args.report:
        for number, result in enumerate(results, 1):
            folder = Path(args.report)
            if len(results) > 1:
                folder = folder / f"tournament-{number}"
            write_report(result, folder)
            console.print(f"report written to {folder}/")
    return 0


def cmd_perft(args: argparse.Namespace) -> int:
    from .core.registry import make_game

    game = make_game(args.game)
    state = game.state_from_text(args.fen) if args.fen else game.initial_state(0)
    for text in args.moves.split():
        state.apply(state.str_to_action(text))
    if args.depth < 0:
        raise BoardLabError("--depth must be >= 0")
    started = time.perf_counter()
    for depth in range(1, args.depth + 1):
        count = perft(state, depth)
        seconds = time.perf_counter() - started
        print(f"depth {depth}: {count} ({seconds:.2f}s)")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from .interop.gamefile import is_game_file

    if is_game_file(args.db):
        return replay_game_file(args)
    from .web.results import Results

    results = Results(args.db)
    if args.number is None:
        listing = results.list_games(limit=1000)
        for game in listing["games"]:
            print(f"{game['number']:5}  {game['game']:28} {' vs '.join(game['seats']):40} "
                  f"{game['result']} ({game['plies']} plies)")
        print(f"{listing['total']} games; `boardlab replay {args.db} NUMBER` shows one")
        return 0
    shown = results.replay(args.number)
    print(f"game {args.number}: {shown['game']}, {' vs '.join(shown['seats'])}, "
          f"seed {shown['seed']}")
    for index, move in enumerate(shown["moves"], 1):
        print(f"{index:4}. {move['name']}: {move['text']}")
    print(f"result: {shown['result']} ({shown['reason']})")
    if args.plot:
        plot_values(results, args.number, args.agent, Path(args.plot))
        print(f"value graph written to {args.plot}")
    return 0


def replay_game_file(args: argparse.Namespace) -> int:
    """`boardlab replay FILE` for a game file: its header, its moves played back (each one
    checked), the result the file states and what the final position says, and the final
    position in the game's notation (its text board for a game without one)."""
    from .interop.gamefile import read, replay
    from .render import end_reason, player_name

    if args.number is not None or args.plot:
        raise BoardLabError("replay: a game file is played back whole: give no game number "
                            "and no --plot (those are for a results store)")
    file = read(Path(args.db).read_text(encoding="utf-8"))
    movers: list[int] = []
    state = replay(file, movers)
    try:
        position = state.to_text()
    except NotImplementedError:
        position = None
    if args.position:
        print(position if position is not None else str(state))
        return 0
    seats = ", ".join(f"{file.sides[seat] if seat < len(file.sides) else f'seat {seat}'} "
                      f"{spec}" for seat, spec in enumerate(file.seats))
    print(f"{file.game}, seed {file.seed}: {seats}")
    names = [player_name(state.game, seat) for seat in range(state.game.num_players)]
    for number, ((move, outcomes), mover) in enumerate(zip(file.moves, movers), 1):
        chance = "".join(f" → {outcome}" for outcome in outcomes)
        print(f"{number:4}. {names[mover]}: {move}{chance}")
    stated = file.result if not file.reason or file.reason in file.result \
        else f"{file.result} ({file.reason})"
    print(f"result: {stated}")
    if state.is_terminal():
        reason = end_reason(state)
        print(f"the final position: over, returns {list(state.returns())}"
              + (f" ({reason})" if reason else ""))
    elif file.forfeit is not None:
        print(f"the final position: not over; seat {file.forfeit} forfeited")
    else:
        print("the final position: the game goes on")
    print("final position:" if position is not None else "final position (this game has "
          "no text notation):")
    print(position if position is not None else str(state))
    return 0


def plot_values(results, number: int, spec: str, out: Path) -> None:
    """Judge every decision position of stored game `number` with the agent `spec` and draw
    its values, from seat 0's side, over the game (a PNG by matplotlib)."""
    import random

    import matplotlib

    matplotlib.use("Agg")  # files only, no display: set here, in the command, never deeper
    import matplotlib.pyplot as plt

    from .core.agent import Clock
    from .core.match import derive_seed
    from .core.registry import make_agent, make_game
    from .render.graph import scaled_series

    record = results.record(number)
    game = make_game(record.game)
    if game.num_players != 2:
        raise BoardLabError(f"a value graph needs a two-player game; {game.name} has "
                            f"{game.num_players}")
    judge = make_agent(spec, game)
    state = game.initial_state(record.seed)
    points, ply = [], 0
    for action, mover in zip(record.actions, record.movers):
        if mover != CHANCE:
            judge.start_game(mover, derive_seed(record.seed, "judge", ply))
            view = state.view(mover, random.Random(derive_seed(record.seed, "view", ply)))
            judge.act(view, Clock.start(None))
            value = judge.last_info().get("value")
            if isinstance(value, (int, float)):
                points.append((ply, 0, value if mover == 0 else -value))
            ply += 1
        state.apply(action)
    if not points:
        raise BoardLabError(f"agent {spec} reports no value (last_info()['value']); judge "
                            "with one that does, e.g. mcts or minimax")
    (series, scale), = scaled_series(points, 1)
    figure, axes = plt.subplots(figsize=(8, 3.2), dpi=100)
    axes.plot([p for p, _ in series], [v for _, v in series], marker=".", color="#c0392b")
    axes.axhline(0, color="#999", linewidth=0.8)
    axes.set_ylim(-1.05, 1.05)
    axes.set_xlim(0, max(ply, 1))
    axes.set_xlabel("ply")
    axes.set_ylabel("value for seat 0" + ("" if scale == 1 else f" (÷{scale:.3g})"))
    result = " vs ".join(record.agents)
    axes.set_title(f"{record.game}: {result}, game {number}, judged by {spec}", fontsize=10)
    figure.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(out)
    plt.close(figure)


def cmd_new_agent(args: argparse.Namespace) -> int:
    from .agents.template import agent_file, example_game

    if not args.name.isidentifier() or not args.name[0].isupper():
        raise BoardLabError(f"new-agent: {args.name!r} is not a class name (e.g. MyBot)")
    path = Path(args.out or f"{args.name.lower()}.py")
    if path.exists() and not args.force:
        raise BoardLabError(f"new-agent: {path} exists; choose --out or add --force")
    game = example_game()
    path.write_text(agent_file(args.name, str(path), game))
    print(f"wrote {path}; try: boardlab arena {game} {path}:{args.name} random greedy --games 20")
    return 0


def cmd_new_game(args: argparse.Namespace) -> int:
    from .core.registry import game_names
    from .templates import write_game_package

    if args.name in game_names():
        raise BoardLabError(f"new-game: a game named {args.name!r} is installed already; "
                            "choose another name")
    out = Path(args.out or args.name)
    for path in write_game_package(args.name, out, force=args.force):
        print(f"wrote {path}")
    print(f"next: pip install -e {out} && boardlab arena {args.name} random greedy --games 10")
    return 0


if __name__ == "__main__":
    sys.exit(main())
