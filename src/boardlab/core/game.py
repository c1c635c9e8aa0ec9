"""The one contract every game implements and every agent, arena and face relies on.

Shaped after OpenSpiel's `Game`/`State` (integer actions in a fixed action space, chance as an
explicit player, returns per player) but small, typed and Pythonic. See
docs/design.md#the-game-contract.
"""

from __future__ import annotations

import functools
import importlib
import random
import sys
from collections.abc import Collection
from dataclasses import dataclass, fields
from types import ModuleType
from typing import (TYPE_CHECKING, Any, Callable, ClassVar, Generic, Protocol, Self, TypeVar, cast,
                    overload)

import numpy as np

if TYPE_CHECKING:
    from .arrayrules import ArrayRules
    from .benchcases import BenchCases
    from .learning import LearningKit

CHANCE = -1
"""`current_player()` at a chance node: the next action is drawn from `chance_outcomes()`."""
TERMINAL = -2
"""`current_player()` once the game is over."""


class BoardLabError(Exception):
    """Base of every error BoardLab raises on purpose; the CLI prints these as one line."""


class IllegalActionError(BoardLabError, ValueError):
    """An action that is not legal in the state it was applied to."""


class ParseError(BoardLabError, ValueError):
    """Text (a move, a position, a spec string, a file) that could not be understood."""


Evaluator = Callable[["State", int], float]
"""A heuristic: (state, player) -> score from `player`'s point of view, higher is better."""
CompiledSearch = Callable[["State", list[int], int, int, int], tuple[int, float, int, bool]]
"""(state, root actions, depth, player, max nodes) -> (best index, value, nodes, completed)."""


@dataclass(frozen=True)
class GameFacts:
    """What a game is, declared up front so an agent can refuse a game it cannot play."""

    num_players: int
    num_actions: int
    has_chance: bool
    hidden_information: bool
    max_length: int
    """An upper bound on the number of player decisions in one game."""
    zero_sum: bool = True


@dataclass(frozen=True)
class LinearEvaluation:
    """A game's evaluation as a tuner sees it (`Game.linear_evaluation`, learn/texel.py): linear
    in a parameter array, player 0's value of a state being sum(sign * parameters.flat[index])
    over the state's features. For a chess-like game the parameters are a piece-square table,
    value plus bonus of piece type k on square s as player 0 sees it (player 1's pieces read the
    mirrored square with the opposite sign)."""

    shape: tuple[int, ...]
    """The parameters' shape."""
    features: Callable[["State"], tuple[np.ndarray, np.ndarray]]
    """A state -> (flat indices into the parameters, int64; signs, +-1, or shares of them where
    two tables are blended by the game's phase), one pair per feature."""
    parameters: Callable[[str], np.ndarray]
    """A named evaluator (`Game.evaluators`) -> its parameters (`shape`, float64); ValueError
    for one that is not linear in them."""
    fixed: np.ndarray
    """Boolean, `shape`: the parameters a tuner keeps as they are (a king's huge value)."""
    unit: float
    """A small piece's worth in the evaluation's units (a pawn's): how close a quiescence
    value must stay to the static one for a position to count as quiet."""


def require_at_least(settings: Any, **least: int) -> None:
    """For a `Settings.__post_init__`: ValueError `NAME must be at least N` for the first of
    the fields named here that is below its least value."""
    for name, value in least.items():
        if getattr(settings, name) < value:
            raise ValueError(f"{name} must be at least {value}")


class Game:
    """An immutable description of a game (its rules and parameters) and a factory of states.

    Subclasses set `name`, a `Settings` dataclass of their parameters (may be empty) and
    implement `facts` and `initial_state`. `evaluators` maps names used in agent specs
    (`greedy:eval=positional`) to heuristics, so that agents never import a game.
    """

    name: ClassVar[str] = ""
    Settings: ClassVar[type] = type(None)
    course_project: ClassVar[str] = ""
    """The course project ("seed") whose rules this game implements, as its number and title
    (`NNN Title`): agents' and trainers' help cite the projects by number, and `boardlab
    agents` lists the installed games' projects. Empty (the default): from no course project.
    A game that sets `seed_project`, this attribute's first name, declares it as well."""
    render_module: ClassVar[str] = ""
    """The module that draws the game, which `renderer()` returns: usually ".render", the
    `render.py` beside the game's module (`package_module`). Empty (the default): the game is
    drawn as its text."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        first_name = vars(cls).get("seed_project")  # course_project's first name
        if isinstance(first_name, str) and "course_project" not in vars(cls):
            cls.course_project = first_name

    def __init__(self, settings: Any = None, **params: Any) -> None:
        if settings is None:
            settings = self.Settings(**params) if params else self.Settings()
        elif params:
            raise TypeError("give either a settings object or keyword parameters, not both")
        self.settings = settings

    # --- facts -----------------------------------------------------------------------------
    @property
    def facts(self) -> GameFacts:
        raise NotImplementedError

    @property
    def num_players(self) -> int:
        return self.facts.num_players

    @property
    def num_actions(self) -> int:
        return self.facts.num_actions

    # --- states ----------------------------------------------------------------------------
    def initial_state(self, seed: int | None = None) -> "State":
        raise NotImplementedError

    def state_from_text(self, text: str) -> "State":
        """Parse a position in the game's position notation (FEN-like); ParseError if bad."""
        raise NotImplementedError(f"{self.name} has no position notation")

    # --- pieces agents may ask for -----------------------------------------------------------
    @property
    def evaluators(self) -> dict[str, Evaluator]:
        """Named heuristics for greedy/minimax, each agent playing the one named as itself
        (`greedy`, `minimax`) by default, else the first one. An `Evaluators` mapping names
        them for what they compute and gives such names as aliases."""
        return {}

    def evaluator_name(self, name: str) -> str:
        """The name in `evaluators` that `name` selects (itself unless it is an alias)."""
        evaluators = self.evaluators
        return evaluators.name_of(name) if isinstance(evaluators, Evaluators) else name

    def evaluator_with_weights(self, evaluator: str, path: str) -> Evaluator:
        """The heuristic `evaluator` reading its weights from the file `path` instead of the
        ones BoardLab ships (a network or table a user trained; `minimax:eval_weights=FILE`),
        where the game's heuristic reads a weights file; a ParseError otherwise, and a
        BoardLabError of one sentence when the file is not such weights. The compiled searches
        take the same file (`compiled_quiescence(evaluator, weights=path)`)."""
        raise ParseError(f"{self.name}'s heuristic {evaluator!r} reads no weights file")

    def compiled_minimax(self, evaluator: str) -> "CompiledSearch | None":
        """A compiled alpha-beta search with this evaluator, if the game offers one.

        Called as `search(state, root_actions, depth, player, max_nodes)` it returns
        `(best_index, best_value, nodes, completed)` with exactly the values of the Python
        minimax agent without a transposition table (checked in the game's tests).
        """
        return None

    def compiled_quiescence(self, evaluator: str, weights: str = "") -> "CompiledSearch | None":
        """A stronger compiled alpha-beta with this evaluator, if the game offers one: called
        and answering as `compiled_minimax`'s search, but its leaves are extended by a
        quiescence search (captures until the position is quiet), and it may extend checks
        and cut on its transposition table, so its values are its own (`minimax:quiescence=
        true` uses it). `weights`: a file the heuristic reads in place of its shipped weights
        (`evaluator_with_weights`; empty: the shipped ones)."""
        return None

    def random_playout_kernel(self, state: "State", seed: int) -> list[float] | None:
        """Returns of one uniformly random game played from `state` by a compiled kernel
        (MCTS rollouts: one call per simulation), or None when the game has none (the
        default; MCTS then plays the random game in Python). The same seed gives the same
        game; the game's tests check the kernel against its `State` move by move."""
        return None

    def array_rules(self) -> "ArrayRules | None":
        """The rules compiled over rows of int64 words (core/arrayrules.py), so that
        AlphaZero's self-play search makes and encodes its leaves without leaving numba; None
        (the default): the search plays the `State` at every leaf. The game's tests check the
        functions against its `State` move by move."""
        return None

    def learning_kit(self) -> "LearningKit[Any] | None":
        """The pieces the learning agents need (core/learning.py): a table key for Q-learning
        and the game's named reward functions; None = the learners cannot train here."""
        return None

    def linear_evaluation(self) -> LinearEvaluation | None:
        """The game's evaluators as parameters a tuner may fit (learn/texel.py, `boardlab train
        GAME texel`), or None (the default): no evaluator of the game is linear in a table."""
        return None

    def action_frame(self, player: int) -> np.ndarray | None:
        """Each action id as `player` sees it: the id of the same move drawn in the frame of
        `encode(player)`'s planes, where the game turns the board for one side. A network that
        reads those planes then names its moves in that frame too, so one position asks for
        one output whoever is to move (agents/alphazero.py `SeatFrame`). A permutation of
        range(num_actions); None (the default): the same ids for every player."""
        return None

    def encode_batch(self, states: list["State"], players: list[int]) -> np.ndarray:
        """`states[i].encode(players[i])` for every i, stacked (len(states), *shape) float32.

        Batched training calls this once per step for hundreds of games; a game may override
        it with a compiled kernel that must give exactly the same arrays (tested)."""
        return np.stack([state.encode(player) for state, player in zip(states, players)])

    def bench_cases(self) -> "BenchCases":
        """What `boardlab bench` measures for this game beyond what it measures for every
        game, and at which sizes (core/benchcases.py): perft and alpha-beta depths, compiled
        perft, move generation and batched playouts, and the peers' names for the game. The
        default: small depths, no kernels, no peer. A game imports its kernels inside this
        method, so that the rules load without them."""
        from .benchcases import BenchCases

        return BenchCases()

    @property
    def engine_dialects(self) -> "tuple[EngineDialect, ...]":
        """The engine protocols this game can be spoken over (the `engine` agent, `boardlab
        uci`), the game's usual one first; empty when no engine protocol knows the game."""
        return ()

    def renderer(self) -> "Renderer | None":
        """How positions are drawn (the web page, `boardlab play`, replays): the module
        `render_module` names, imported when something first draws, so the rules load without
        any drawing code. None (no `render_module`, the default): the game is drawn as its text
        (`str(state)`)."""
        if not self.render_module:
            return None
        return cast("Renderer", self.package_module(self.render_module))

    def package_module(self, name: str) -> ModuleType:
        """The module `name` of the game's package, imported now: a name with a leading dot
        (".render", ".kernels") is relative to the package of the module that defines the
        game's class. The hooks import drawing code and kernels this way, inside themselves,
        so that the rules load without them."""
        return _package_module(type(self).__module__, name)

    def forfeit_returns(self, loser: int) -> list[float]:
        """Returns when `loser` forfeits (crash, illegal action, time): loser -1, the rest +1."""
        n = self.num_players
        return [-1.0 if p == loser else 1.0 / (n - 1) for p in range(n)]

    @property
    def spec(self) -> str:
        """The spec string that rebuilds this game: `NAME:param=value,...`, naming only the
        settings that differ from the defaults."""
        changed = []
        default = self.Settings()
        for f in fields(self.settings) if self.settings is not None else []:
            value = getattr(self.settings, f.name)
            if value != getattr(default, f.name):
                changed.append(f"{f.name}={value}")
        return self.name + (":" + ",".join(changed) if changed else "")

    def __repr__(self) -> str:
        return f"<Game {self.spec}>"


@functools.cache
def _package_module(game_module: str, name: str) -> ModuleType:
    """`Game.package_module` for a game class defined in `game_module`, remembered: a hook may
    run once per MCTS simulation."""
    return importlib.import_module(name, sys.modules[game_module].__package__)


class Renderer(Protocol):
    """What `Game.renderer()` returns, usually a module: a game's picture for
    `boardlab.render`, which draws it (core draws nothing). It may also define `PLAYER_NAMES`
    (the sides' names by seat), `TEXT_KEY` (what the letters of `str(state)` mean) and
    `move_label(state, action) -> str` (a move that has no cell, as a person reads it).

    `state` is typed Any: a renderer is only handed its own game's states, so a game's
    render module may take its own State class (a module cannot be a generic Protocol)."""

    def picture(self, state: Any, viewer: int | None = None) -> Any:
        """A `boardlab.render.Picture` of `state` as seat `viewer` may see it (None: all)."""

    def action_cells(self, state: Any, action: int) -> Collection[int]:
        """The cells of the picture a person clicks to play `action` (none for a pass)."""


class State:
    """A game position. Mutable: `apply` changes it in place; `child` returns a new one."""

    game: Game

    # --- whose turn --------------------------------------------------------------------------
    def current_player(self) -> int:
        """0..n-1 for a player's decision, CHANCE, or TERMINAL."""
        raise NotImplementedError

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    # --- actions -----------------------------------------------------------------------------
    def legal_actions(self) -> list[int]:
        """Sorted legal actions; never empty at a decision or chance node; [] when terminal."""
        raise NotImplementedError

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a chance node: (action, probability) pairs whose probabilities sum to 1."""
        raise BoardLabError(f"{self.game.name}: chance_outcomes() asked at a non-chance node")

    def apply(self, action: int) -> None:
        """Play `action` in place; IllegalActionError (naming move and position) if illegal."""
        raise NotImplementedError

    def child(self, action: int) -> Self:
        """A new state: this one after `action` (this one is unchanged)."""
        new = self.clone()
        new.apply(action)
        return new

    def clone(self) -> Self:
        """An independent copy of the same class: applying to it leaves this one as it is."""
        raise NotImplementedError

    # --- outcome -----------------------------------------------------------------------------
    def returns(self) -> list[float]:
        """+1 win, -1 loss, 0 draw per player at a terminal state; zeros before."""
        raise NotImplementedError

    # --- information -------------------------------------------------------------------------
    def view(self, player: int, rng: random.Random) -> "State":
        """What `player` may know: hidden parts re-drawn consistently (a determinization).

        Perfect-information games return a clone.
        """
        return self.clone()

    # --- notation ----------------------------------------------------------------------------
    def action_to_str(self, action: int) -> str:
        raise NotImplementedError

    def str_to_action(self, text: str) -> int:
        """Parse a move typed in the game's notation; ParseError or IllegalActionError."""
        raise NotImplementedError

    def to_text(self) -> str:
        """The position in the game's position notation (inverse of Game.state_from_text)."""
        raise NotImplementedError(f"{self.game.name} has no position notation")

    # --- for learning and search ---------------------------------------------------------------
    def encode(self, player: int) -> np.ndarray:
        """Network input from `player`'s side."""
        raise NotImplementedError

    def key(self) -> Any:
        """A hashable key equal for equal positions (transposition tables); None if unknown."""
        return None

    def move_number(self) -> int:
        """Player decisions made so far."""
        raise NotImplementedError

    def is_capture(self, action: int) -> bool:
        """Whether a move takes material: a hint for search move ordering (False if unknown)."""
        return False

    def __str__(self) -> str:
        raise NotImplementedError


def slots_clone(slots: Collection[str], copied: Collection[str] = (),
                copied_each: Collection[str] = ()) -> Callable[[AnyState], AnyState]:
    """A `State.clone` for a class whose fields are `slots` (its `__slots__`): a new object of
    the same class holding this one's fields, shared, but for the `copied` ones (`.copy()`) and
    the `copied_each` ones (lists of containers: a new list of each item's `.copy()`). A field
    left shared must be immutable or never changed in place.

    Used in the class body: `clone = slots_clone(__slots__, copied=("board",))`. Like the
    `__init__` that `dataclasses` writes, the method is written out, one line a field, and
    compiled once, so a clone costs what a hand-written one does (a loop over the fields would
    cost several times more, and search clones states in its inner loop)."""
    unknown = (set(copied) | set(copied_each)) - set(slots)
    if unknown:
        raise ValueError(f"slots_clone: {sorted(unknown)} are not among the slots {slots}")
    lines = ["def clone(self):", "    new = _new(type(self))"]
    for name in slots:
        value = f"self.{name}"
        if name in copied:
            value += ".copy()"
        elif name in copied_each:
            value = f"[item.copy() for item in {value}]"
        lines.append(f"    new.{name} = {value}")
    lines.append("    return new")
    namespace: dict[str, Any] = {"_new": object.__new__}
    exec("\n".join(lines), namespace)  # the source is built above from the slots' names only
    clone = namespace["clone"]
    clone.__doc__ = State.clone.__doc__
    return clone


def two_player_returns(winner: int | None) -> list[float]:
    """The returns of a two-player game won by `winner` (0 or 1); zeros for None (not over)
    and -1 (a draw)."""
    if winner is None or winner == -1:
        return [0.0, 0.0]
    return [1.0, -1.0] if winner == 0 else [-1.0, 1.0]


class WinnerState(State):
    """A two-player `State` that keeps its result in one field, `winner`: None while the game
    goes on, then the winner (0 or 1) or -1 for a draw; `player` is the side to move and
    `plies` the moves made. It gives `current_player` (a game with chance nodes overrides it),
    `is_terminal`, `returns` and `move_number`."""

    __slots__ = ()
    winner: int | None
    player: int
    plies: int

    def current_player(self) -> int:
        return TERMINAL if self.winner is not None else self.player

    def is_terminal(self) -> bool:
        return self.winner is not None

    def returns(self) -> list[float]:
        return two_player_returns(self.winner)

    def move_number(self) -> int:
        return self.plies


@dataclass(frozen=True)
class EngineDialect:
    """How a game is written for engines of one protocol: declared by the game (a hook), so
    the protocol code never asks which game it plays. Moves default to the game's notation,
    positions to `State.to_text()`."""

    protocol: str
    """`uci`, `ucci` or `gtp`."""
    variant: str = ""
    """The engine's name for the game (UCI_Variant), '' when the engine needs none."""
    variants_file: str = ""
    """Text of a variants file the engine loads (`setoption name VariantPath`), or ''."""
    move_to_engine: Callable[["State", int], str] | None = None
    """Action -> the engine's move text; None: `state.action_to_str`."""
    move_from_engine: Callable[["State", str], int] | None = None
    """The engine's move text -> action (ParseError or IllegalActionError if it is none);
    None: `state.str_to_action`."""
    colours: tuple[str, ...] = ("black", "white")
    """GTP: the colour names of players 0 and 1."""
    board_size: int = 0
    """GTP: the `boardsize` to announce."""

    def to_engine(self, state: "State", action: int) -> str:
        if self.move_to_engine is None:
            return state.action_to_str(action)
        return self.move_to_engine(state, action)

    def from_engine(self, state: "State", text: str) -> int:
        if self.move_from_engine is None:
            return state.str_to_action(text)
        return self.move_from_engine(state, text)


AnyState = TypeVar("AnyState", bound=State)
Default = TypeVar("Default")


class Evaluators(dict[str, Callable[[AnyState, int], float]], Generic[AnyState]):
    """A game's named heuristics (`Game.evaluators`), each named for what it computes, and
    `aliases`: more names that select one of them without being listed, such as an agent's
    name (`greedy`, `minimax`: the heuristic that agent plays where a spec names none) or a
    heuristic's earlier name. Iteration, `len` and error messages show the listed names only;
    `[]`, `in` and `get` take an alias too."""

    def __init__(self, named: dict[str, Callable[[AnyState, int], float]],
                 aliases: dict[str, str] | None = None) -> None:
        super().__init__(named)
        self.aliases = dict(aliases or {})
        unknown = {alias: name for alias, name in self.aliases.items() if name not in named}
        if unknown:
            raise ValueError(f"aliases of no listed heuristic: {unknown}")

    def name_of(self, name: str) -> str:
        """The listed name `name` selects: itself unless it is an alias."""
        return self.aliases.get(name, name)

    def __missing__(self, name: str) -> Callable[[AnyState, int], float]:
        if name in self.aliases:
            return self[self.aliases[name]]
        raise KeyError(name)

    def __contains__(self, name: object) -> bool:
        return dict.__contains__(self, name) or name in self.aliases

    @overload
    def get(self, name: str, default: None = None, /) -> Callable[[AnyState, int], float] | None:
        ...

    @overload
    def get(self, name: str, default: Callable[[AnyState, int], float], /
            ) -> Callable[[AnyState, int], float]:
        ...

    @overload
    def get(self, name: str, default: Default, /) -> Callable[[AnyState, int], float] | Default:
        ...

    def get(self, name: str, default: Any = None, /) -> Any:
        return self[name] if name in self else default


def random_opening(state: AnyState, plies: int, seed: int | None) -> AnyState:
    """`state` after `plies` uniformly random moves drawn from `seed` (a game's
    `opening_plies` setting, so a tournament's games start apart), each chosen among the moves
    that do not end the game; chance nodes on the way are drawn too and do not count."""
    rng = random.Random(seed)
    played = 0
    while played < plies and not state.is_terminal():
        if state.is_chance_node():
            actions, weights = zip(*state.chance_outcomes())
            state.apply(rng.choices(actions, weights)[0])
            continue
        moves = state.legal_actions()
        going_on = [a for a in moves if not state.child(a).is_terminal()]
        state.apply(rng.choice(going_on or moves))
        played += 1
    return state


def check_action(state: State, action: int) -> None:
    """Raise IllegalActionError with the position unless `action` is legal in `state`."""
    if state.is_terminal():
        raise IllegalActionError(f"action {action} played in a finished game:\n{state}")
    if not isinstance(action, (int, np.integer)) or action not in state.legal_actions():
        try:
            shown = state.action_to_str(int(action))
        except Exception:  # an id outside the action space has no notation
            shown = repr(action)
        raise IllegalActionError(
            f"{shown} (id {action!r}) is not legal for "
            f"{_whose(state)} in this position:\n{state}"
        )


def legal_move_from_text(state: State, text: str, where: str) -> int:
    """The legal action that `text` (the game's move notation) names in `state`, for a move
    read from a file or a page; a ParseError that begins with `where` ("move 3 (d3)")
    otherwise: the game is over, the text names no move, or the move is not legal here."""
    if state.is_terminal():
        raise ParseError(f"{where}: the game is already over")
    try:
        action = state.str_to_action(text)
    except BoardLabError as error:
        raise ParseError(f"{where}: {error}") from None
    if action not in state.legal_actions():
        raise ParseError(f"{where} is not legal in the position reached")
    return action


def _whose(state: State) -> str:
    player = state.current_player()
    return "chance" if player == CHANCE else f"player {player}"
