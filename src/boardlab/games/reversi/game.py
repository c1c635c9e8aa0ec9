"""Reversi (Othello) on 8x8, seed 001, with the rules decided in docs/design.md#reversi-seed-001.

Black (player 0, `x`) moves first from the standard start (white on d4 and e5, black on d5 and
e4). A move places a disc that flanks one or more runs of opponent discs, which turn over. A
player with no such move must pass (action 64, legal only then); the game ends when neither
player can move, and more discs wins. README.md beside this file has the details; this file
holds the `Game` and `State`, `rules.py` the constants they play by.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import index as as_int
from typing import TYPE_CHECKING, cast

import numpy as np

from ...core.benchcases import BenchCases, PeerGame
from ...core.game import (TERMINAL, EngineDialect, Evaluators, Game, GameFacts,
                          IllegalActionError, LinearEvaluation, ParseError, State,
                          random_opening, slots_clone)
from ...render import Drawable
from .bitboard import SIZE, SQUARES, flips, legal_moves, parse_square, square_name, squares_of
from .notation import parse_cells, position_text
from .rules import (BLACK, COLOUR_NAMES, MARKS, MAX_LENGTH, NUM_ACTIONS, PASS, START_BLACK,
                    START_WHITE, WHITE)

if TYPE_CHECKING:
    from ...core.arrayrules import ArrayRules


@dataclass(frozen=True)
class ReversiSettings:
    """The standard 8x8 game; `opening_plies` only varies where it starts."""

    opening_plies: int = 0
    """Random plies from the start, drawn from the game's seed, so that arena games between
    deterministic agents (a network, alpha-beta) start apart; 0 = the standard start."""

    def __post_init__(self) -> None:
        if self.opening_plies < 0:
            raise ValueError("opening_plies must be at least 0")


class ReversiGame(Game):
    name = "reversi"
    Settings = ReversiSettings
    course_project = "001 Reversi"
    render_module = ".render"

    @property
    def facts(self) -> GameFacts:
        return GameFacts(num_players=2, num_actions=NUM_ACTIONS, has_chance=False,
                         hidden_information=False, max_length=MAX_LENGTH)

    def learning_kit(self):
        from .rewards import learning_kit

        return learning_kit()

    def initial_state(self, seed: int | None = None) -> "ReversiState":
        start = ReversiState(self, START_BLACK, START_WHITE, BLACK)
        return random_opening(start, self.settings.opening_plies, seed)

    def state_from_text(self, text: str) -> "ReversiState":
        return parse_position(self, text)

    def bench_cases(self) -> BenchCases:
        """Perft, playouts (also 5000 games a call) and alpha-beta by the kernels, the engine
        search also with `mobility` beside its pattern tables; OpenSpiel's `othello` (with its
        MCTSBot) and Pgx's as peers."""
        from . import kernels  # compiled only when benchmarked

        return BenchCases(
            perft_depth=(5, 6), alphabeta_depth=(2, 4), kernel_alphabeta_depth=(5, 7),
            engine_evaluators=("mobility",),
            kernel_perft=lambda start, depth: kernels.perft(
                start.black, start.white, start.player, depth),
            kernel_perft_depth=(7, 9),
            batch_playouts=lambda start, seed, games: kernels.random_playouts(
                start.black, start.white, start.player, seed, games),
            peers=(PeerGame("openspiel", "othello", perft_depth=(5, 6), mcts=True),
                   PeerGame("pgx", "othello")))

    @property
    def engine_dialects(self) -> tuple[EngineDialect, ...]:
        """GTP (GRhino) and OpenSpiel's `othello` (engines.py)."""
        from .engines import DIALECTS

        return DIALECTS

    @property
    def evaluators(self):
        from .heuristics import disc_difference, mobility_value, positional_value
        from .patterns import tuned_value

        # `engine`: the engine search's default (`minimax:quiescence=true`), `tuned`, the
        # pattern tables, which scored 0.708 and 0.80 against `mobility` at equal time
        # (README.md#pattern-tables-patternspy-evaltuned); `mobility` won 40-0-0 against
        # `positional` the same way.
        return Evaluators({"positional": positional_value, "discs": disc_difference,
                           "mobility": mobility_value, "tuned": tuned_value},
                          aliases={"greedy": "positional", "minimax": "positional",
                                   "engine": "tuned"})

    def linear_evaluation(self) -> LinearEvaluation:
        """Pattern tables of edges, corners, lines and diagonals (patterns.py), which hold
        `mobility` and `positional` exactly and which Texel's method tunes."""
        from .patterns import linear_evaluation

        return linear_evaluation()

    def compiled_minimax(self, evaluator: str):
        """The numba alpha-beta (search.py) with the Python agent's values."""
        from .search import compiled_minimax

        return compiled_minimax(self.evaluator_name(evaluator))

    def compiled_quiescence(self, evaluator: str, weights: str = ""):
        """The numba alpha-beta with table cutoffs and end games solved (search.py); no
        heuristic here reads a weights file (`evaluator_with_weights` refuses `weights`)."""
        from .search import compiled_quiescence

        if weights:
            self.evaluator_with_weights(evaluator, weights)
        return compiled_quiescence(self.evaluator_name(evaluator))

    def encode_batch(self, states, players) -> np.ndarray:
        """`encode` for many positions in one compiled call (batched training)."""
        from .kernels import encode_planes

        return encode_planes([s.discs(p) for s, p in zip(states, players)],
                             [s.discs(1 - p) for s, p in zip(states, players)],
                             [s.is_terminal() for s in states])

    def array_rules(self) -> ArrayRules:
        """The rules over rows of 4 int64 words, compiled (kernels.py), for AlphaZero's
        search; tests/games/reversi/test_reversi_array_rules.py checks them against this
        State."""
        from .kernels import array_rules

        return array_rules()

    def random_playout_kernel(self, state: State, seed: int) -> list[float]:
        """Returns of one uniformly random game from `state`, played in one numba call
        (MCTS rollouts; kernels.py is checked move by move against this State)."""
        from .kernels import random_playout

        state = cast(ReversiState, state)  # the hook is only called with this game's states
        if state.is_terminal():
            return state.returns()
        difference = random_playout(state.black, state.white, state.player, seed)
        return [0.0, 0.0] if difference == 0 else (
            [1.0, -1.0] if difference > 0 else [-1.0, 1.0])


class ReversiState(Drawable, State):
    __slots__ = ("game", "black", "white", "player", "plies", "_moves", "_over")

    def __init__(self, game: ReversiGame, black: int, white: int, player: int,
                 plies: int = 0) -> None:
        if black & white:
            raise ValueError("a square cannot hold a black and a white disc")
        self.game = game
        self.black = black
        """Bitboard of black's discs (player 0)."""
        self.white = white
        """Bitboard of white's discs (player 1)."""
        self.player = player
        """The side to move (after the game ends: the side that would have moved next)."""
        self.plies = plies
        self._moves = 0
        """Placements open to the side to move, as a bitmask."""
        self._over = False
        self._settle()

    def _settle(self) -> None:
        """Compute the mover's placements; with none and none for the opponent, game over."""
        if self.player == BLACK:
            own, opp = self.black, self.white
        else:
            own, opp = self.white, self.black
        self._moves = moves = legal_moves(own, opp)
        self._over = moves == 0 and legal_moves(opp, own) == 0

    # --- whose turn ----------------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self._over else self.player

    def is_terminal(self) -> bool:
        return self._over

    # --- actions -------------------------------------------------------------------------------
    def legal_actions(self) -> list[int]:
        if self._over:
            return []
        moves = self._moves
        return squares_of(moves) if moves else [PASS]

    def legal_moves_mask(self) -> int:
        """The placements open to the side to move, as a bitmask (0 when it must pass)."""
        return self._moves

    def apply(self, action: int) -> None:
        if type(action) is not int:
            action = _action_id(action, self)
        if 0 <= action < SQUARES and self._moves >> action & 1:
            move = 1 << action
            if self.player == BLACK:
                turned = flips(self.black, self.white, action)
                self.black |= turned | move
                self.white ^= turned
            else:
                turned = flips(self.white, self.black, action)
                self.white |= turned | move
                self.black ^= turned
        elif not (action == PASS and self._moves == 0 and not self._over):
            raise IllegalActionError(self._illegal_text(action))
        self.player = player = self.player ^ 1
        self.plies += 1
        # _settle() inlined: this is the hot path of every search and playout.
        own, opp = (self.black, self.white) if player == BLACK else (self.white, self.black)
        self._moves = moves = legal_moves(own, opp)
        self._over = moves == 0 and legal_moves(opp, own) == 0

    clone = slots_clone(__slots__)  # every field an int or a bool

    # --- outcome -------------------------------------------------------------------------------
    def returns(self) -> list[float]:
        if not self._over:
            return [0.0, 0.0]
        diff = self.disc_difference()
        if diff == 0:
            return [0.0, 0.0]
        return [1.0, -1.0] if diff > 0 else [-1.0, 1.0]

    # --- queries for heuristics, encodings and rewards ------------------------------------------
    def discs(self, player: int) -> int:
        """Bitboard of `player`'s discs."""
        return self.black if player == BLACK else self.white

    def disc_counts(self) -> tuple[int, int]:
        return self.black.bit_count(), self.white.bit_count()

    def disc_difference(self) -> int:
        """Black's discs minus white's."""
        return self.black.bit_count() - self.white.bit_count()

    def moves_of(self, player: int) -> int:
        """Placements `player` would have if it were to move now, as a bitmask (mobility)."""
        if player == self.player:
            return self._moves
        return legal_moves(self.discs(player), self.discs(1 - player))

    def flips_of(self, action: int, player: int | None = None) -> int:
        """Bitmask of the discs that `player` (default: the side to move) would turn over by
        playing `action`; 0 for a pass or a square where it flips nothing."""
        if player is None:
            player = self.player
        if not 0 <= action < SQUARES or (self.black | self.white) >> action & 1:
            return 0
        return flips(self.discs(player), self.discs(1 - player), action)

    def key(self) -> tuple[int, int, int]:
        return self.black, self.white, self.player

    def move_number(self) -> int:
        return self.plies

    # --- notation ------------------------------------------------------------------------------
    def action_to_str(self, action: int) -> str:
        action = _action_id(action, self)
        if action == PASS:
            return "pass"
        if not 0 <= action < SQUARES:
            raise ParseError(f"action id {action} is outside Reversi's 0..{NUM_ACTIONS - 1}")
        return square_name(action)

    def str_to_action(self, text: str) -> int:
        """`d3` (column a-h, row 1-8 counted from the top) or `pass`."""
        cleaned = text.strip().lower()
        if cleaned == "pass":
            action = PASS
        else:
            square = parse_square(cleaned)
            if square is None:
                raise ParseError(f"{text!r} is not a Reversi move: write a square from a1 to "
                                 "h8 (column a-h, row 1-8 from the top) or `pass`")
            action = square
        if action not in self.legal_actions():
            raise IllegalActionError(self._illegal_text(action))
        return action

    def why_illegal(self, action: int) -> str:
        """A sentence saying why `action` cannot be played here ('' if it can)."""
        if self._over:
            return "the game is over"
        if action == PASS:
            if self._moves == 0:
                return ""
            return ("a player may pass only without a move, and "
                    f"{COLOUR_NAMES[self.player]} can play "
                    f"{' '.join(square_name(s) for s in squares_of(self._moves))}")
        if not 0 <= action < SQUARES:
            return f"action id {action} is outside 0..{NUM_ACTIONS - 1}"
        name = square_name(action)
        for colour in (BLACK, WHITE):
            if self.discs(colour) >> action & 1:
                return f"{name} is occupied by a {COLOUR_NAMES[colour]} disc"
        if self._moves == 0:
            return f"{COLOUR_NAMES[self.player]} has no move and must pass"
        if not self._moves >> action & 1:
            return f"a disc on {name} would flip no {COLOUR_NAMES[1 - self.player]} disc"
        return ""

    def _illegal_text(self, action: int) -> str:
        shown = square_name(action) if 0 <= action < SQUARES else (
            "pass" if action == PASS else f"action {action}")
        return (f"{shown} is not legal for {COLOUR_NAMES[self.player]}: "
                f"{self.why_illegal(action)}, in position {self.to_text()!r}:\n{self}")

    def to_text(self) -> str:
        """64 cells from a1 row by row (x black, o white, - empty), a space, the side to move
        (x or o). The start is
        `---------------------------ox------xo--------------------------- x`."""
        return position_text(self.black, self.white, self.player)

    def __str__(self) -> str:
        lines = ["  " + " ".join("abcdefgh")]
        for row in range(SIZE):
            cells = []
            for col in range(SIZE):
                square = row * SIZE + col
                if self.black >> square & 1:
                    cells.append("x")
                elif self.white >> square & 1:
                    cells.append("o")
                elif self._moves >> square & 1 and not self._over:
                    cells.append("*")
                else:
                    cells.append("-")
            lines.append(f"{row + 1} " + " ".join(cells))
        black, white = self.disc_counts()
        if self._over:
            diff = black - white
            status = "draw" if diff == 0 else f"{COLOUR_NAMES[0 if diff > 0 else 1]} wins"
        elif self._moves == 0:
            status = f"{COLOUR_NAMES[self.player]} ({MARKS[self.player]}) has no move: pass"
        else:
            status = f"{COLOUR_NAMES[self.player]} ({MARKS[self.player]}) to move, * = legal"
        lines.append(f"{status}; discs x {black}, o {white}")
        return "\n".join(lines)

    def encode(self, player: int) -> np.ndarray:
        from .encode import network_input

        return network_input(self, player)


def _action_id(action: object, state: ReversiState) -> int:
    """Accept numpy integers as action ids; anything else is a clear IllegalActionError."""
    try:
        return as_int(action)  # type: ignore[arg-type]
    except TypeError:
        raise IllegalActionError(f"{action!r} is not an action id (an int 0..{NUM_ACTIONS - 1})"
                                 f" in position {state.to_text()!r}") from None


def parse_position(game: ReversiGame, text: str) -> ReversiState:
    """Inverse of `ReversiState.to_text` (the text format: `notation.parse_cells`). Whether
    the side to move must pass, or the game is over, follows from the position."""
    black, white, player = parse_cells(text)
    placed = (black | white).bit_count()
    # Passes leave no trace on the board: count placements only.
    return ReversiState(game, black, white, player, plies=max(placed - 4, 0))
