"""A game as text: its setup, seats, result and every move in the game's own notation, one
format for every game, that `boardlab replay FILE` plays back to the same final position.

The Play page downloads it (`GET /api/games/{id}/moves.txt`), as the Replay page does for a
stored game. PGN-like: tag lines, a blank line, then one numbered line per decision::

    [Format "boardlab-game 1"]
    [Game "GAME:param=1"]
    [Seed "0"]
    [Seat0 "human"]
    [Side0 "red"]
    [Seat1 "mcts:sims=200"]
    [Side1 "blue"]
    [Result "red (human) won"]
    [Returns "1 -1"]
    [Reason "blue has no pieces left"]
    [Plies "31"]

    1. reveal c1 {leopard} ; red
    2. reveal b7 {dog} ; blue, 0.41 s
    3. c1-c2 ; red

A move is written as the game writes it (`State.action_to_str`); the chance outcomes that
follow it (a face-down piece turned up) come after it in braces, as the game writes them,
so the replay draws nothing: it applies what was drawn. Outcomes before the first decision
stand on a line of their own. After `;` a line is a comment (the side, the agent's seconds).
Tag values are JSON strings (`\\n` in a multi-line `Position`). `Position` is the start
position in the game's text notation when the game did not start from its seed's usual start
(a position pasted in); `Forfeit` names the seat that resigned or ran out of time, whose
game ends before the position says so. `Result` is `*` while the game goes on.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..core.game import CHANCE, BoardLabError, ParseError, State, legal_move_from_text
from ..core.registry import make_game

FORMAT = "boardlab-game 1"
"""The first tag of every file, so a reader knows the text for one."""

_TAG = re.compile(r'^\[(\w+)\s+("(?:[^"\\]|\\.)*")\]\s*$')
_MOVE = re.compile(r"^(?:(\d+)\.\s*)?([^{};]*?)\s*((?:\{[^{}]*\}\s*)*)(?:;.*)?$")
_OUTCOME = re.compile(r"\{([^{}]*)\}")
_FORBIDDEN = set("{};\n")
"""Characters a move's notation cannot hold here (the game file's own marks)."""


@dataclass
class GameFile:
    """A game as the file holds it."""

    game: str
    """The game spec (`NAME:param=value,...`)."""
    seed: int = 0
    seats: list[str] = field(default_factory=list)
    sides: list[str] = field(default_factory=list)
    position: str | None = None
    """The start position in the game's notation (None: the seed's usual start)."""
    moves: list[tuple[str, list[str]]] = field(default_factory=list)
    """Each decision's notation with the chance outcomes that followed it."""
    opening: list[str] = field(default_factory=list)
    """Chance outcomes before the first decision."""
    result: str = "*"
    returns: list[float] | None = None
    reason: str = ""
    forfeit: int | None = None
    comments: list[str] = field(default_factory=list)
    """Per decision, the text after its `;` (the side, the seconds)."""
    tags: dict[str, str] = field(default_factory=dict)
    """Every tag read, those above included."""


def steps_to_moves(steps: list[tuple[int, str]]) -> tuple[list[str], list[tuple[str, list[str]]]]:
    """(mover, notation) steps, chance (-1) included, as the file's opening outcomes and its
    decisions with their outcomes."""
    opening: list[str] = []
    moves: list[tuple[str, list[str]]] = []
    for mover, notation in steps:
        if mover == CHANCE:
            (moves[-1][1] if moves else opening).append(notation)
        else:
            moves.append((notation, []))
    return opening, moves


def write(file: GameFile) -> str:
    """The game as text (see the module docstring)."""
    tags: list[tuple[str, str]] = [("Format", FORMAT), ("Game", file.game),
                                   ("Seed", str(file.seed))]
    if file.position is not None:
        tags.append(("Position", file.position))
    for seat, spec in enumerate(file.seats):
        tags.append((f"Seat{seat}", spec))
        if seat < len(file.sides):
            tags.append((f"Side{seat}", file.sides[seat]))
    tags.append(("Result", file.result))
    if file.returns is not None:
        tags.append(("Returns", " ".join(f"{value:g}" for value in file.returns)))
    if file.reason:
        tags.append(("Reason", file.reason))
    if file.forfeit is not None:
        tags.append(("Forfeit", str(file.forfeit)))
    tags.append(("Plies", str(len(file.moves))))
    lines = [f"[{name} {json.dumps(value, ensure_ascii=False)}]" for name, value in tags]
    lines.append("")
    if file.opening:
        lines.append(" ".join(_braced(outcome) for outcome in file.opening))
    for number, (move, outcomes) in enumerate(file.moves, 1):
        if not move.strip() or _FORBIDDEN & set(move):
            raise BoardLabError(f"move {number}, {move!r}, cannot be written in a game file "
                                "(its notation is empty or holds {, }, ; or a line break)")
        line = f"{number}. {move}" + "".join(" " + _braced(o) for o in outcomes)
        comment = file.comments[number - 1] if number - 1 < len(file.comments) else ""
        lines.append(line + (f" ; {comment}" if comment else ""))
    return "\n".join(lines) + "\n"


def _braced(outcome: str) -> str:
    if _FORBIDDEN & set(outcome):
        raise BoardLabError(f"the chance outcome {outcome!r} cannot be written in a game file")
    return "{" + outcome + "}"


def read(text: str) -> GameFile:
    """A game file's contents; ParseError with the line that cannot be read."""
    tags: dict[str, str] = {}
    opening: list[str] = []
    moves: list[tuple[str, list[str]]] = []
    comments: list[str] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("["):
            found = _TAG.match(line)
            if found is None:
                raise ParseError(f"line {number}: {line!r} is not a tag like [Game \"NAME\"]")
            tags[found.group(1)] = json.loads(found.group(2))
            continue
        found = _MOVE.match(line)
        if found is None:
            raise ParseError(f"line {number}: {line!r} is not a move like `12. e2e4 "
                             "{outcome} ; comment`")
        listed, move, braces = found.group(1), found.group(2).strip(), found.group(3)
        outcomes = [outcome.strip() for outcome in _OUTCOME.findall(braces)]
        if not move:
            if moves or listed:
                raise ParseError(f"line {number}: {line!r} has no move")
            opening.extend(outcomes)
            continue
        if listed is not None and int(listed) != len(moves) + 1:
            raise ParseError(f"line {number}: move number {listed}, expected {len(moves) + 1}")
        moves.append((move, outcomes))
        comments.append(line.partition(";")[2].strip())
    if tags.get("Format") != FORMAT:
        raise ParseError(f"not a BoardLab game file: it starts with [Format \"{FORMAT}\"]")
    if "Game" not in tags:
        raise ParseError("the game file names no game: [Game \"NAME\"] is missing")
    try:
        seed = int(tags.get("Seed", "0"))
        returns = ([float(value) for value in tags["Returns"].split()]
                   if tags.get("Returns") else None)
        forfeit = int(tags["Forfeit"]) if tags.get("Forfeit") else None
    except ValueError as error:
        raise ParseError(f"a tag of the game file is not a number: {error}") from None
    seats = [tags[f"Seat{seat}"] for seat in range(len(tags)) if f"Seat{seat}" in tags]
    sides = [tags[f"Side{seat}"] for seat in range(len(tags)) if f"Side{seat}" in tags]
    return GameFile(game=tags["Game"], seed=seed, seats=seats, sides=sides,
                    position=tags.get("Position"), moves=moves, opening=opening,
                    result=tags.get("Result", "*"), returns=returns,
                    reason=tags.get("Reason", ""), forfeit=forfeit, comments=comments,
                    tags=tags)


def replay(file: GameFile, movers: list[int] | None = None) -> State:
    """The game's final position: its start (the seed's, or `Position`), then each move and
    the chance outcomes written after it (each decision's seat appended to `movers`).
    ParseError names the first move that does not fit (not legal there, an outcome missing
    or left over)."""
    game = make_game(file.game)
    state = (game.state_from_text(file.position) if file.position is not None
             else game.initial_state(file.seed))
    pending = list(file.opening)
    _resolve(state, pending, "before the first move")
    for number, (move, outcomes) in enumerate(file.moves, 1):
        where = f"move {number} ({move})"
        action = legal_move_from_text(state, move, where)
        if movers is not None:
            movers.append(state.current_player())
        state.apply(action)
        _resolve(state, list(outcomes), f"after {where}")
    return state


def _resolve(state: State, outcomes: list[str], where: str) -> None:
    """Apply the written chance outcomes while the state waits for chance."""
    while state.current_player() == CHANCE:
        if not outcomes:
            raise ParseError(f"{where}: chance decides next, and no outcome is written "
                             "(in braces after the move)")
        outcome = outcomes.pop(0)
        try:
            action = state.str_to_action(outcome)
        except BoardLabError as error:
            raise ParseError(f"{where}: outcome {{{outcome}}}: {error}") from None
        if action not in {a for a, _ in state.chance_outcomes()}:
            raise ParseError(f"{where}: outcome {{{outcome}}} cannot happen there")
        state.apply(action)
    if outcomes:
        raise ParseError(f"{where}: outcomes {outcomes} are written, but chance does not "
                         "decide there")


def is_game_file(path: str | Path) -> bool:
    """Whether `path` starts as a game file (its first tag is the format's)."""
    try:
        with open(path, encoding="utf-8") as handle:
            start = handle.read(64)
    except (OSError, UnicodeDecodeError):
        return False
    return start.lstrip().startswith('[Format "boardlab-game')
