"""Seed 002's greedy heuristic ("location value") for Sequence, and a window potential.

The seed values *moves*, not positions: every empty space gets a place value and every
ordinary opponent chip a remove value from sliding windows of five in the four directions,
and the agent plays the card whose target has the highest value, then drafts (two-eyed jack
first, then one-eyed jack, else the draft card whose best space is worth most), and trades
its first dead card for that same draft card. BoardLab's agents score *states*, so the
"location-value" evaluator (the greedy agent's default) scores a state by the value of the
decision that led to it, computed on the board that decision saw (the state keeps the board
before the last play). The one-ply greedy agent compares the children of one state, so it
picks the seed's move (README.md says where it differs). `greedy_action_values` gives the
same values per legal action.

"window-potential" (the minimax agent's default) is a state score of our own in the same
spirit (a sum of e^chips over the open windows of each team, plus completed sequences),
because a move value means nothing at the leaves of a deeper search.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

from ...core.game import Evaluators
from .cards import CARD_SQUARES, HEART, NUM_CARDS, ONE_EYED_JACKS, SIZE, SQUARES, TWO_EYED_JACKS
from .game import SequenceState
from .rules import (
    BURN_BASE,
    CHIP,
    CORNER_CELL,
    DECLINE,
    DRAFT_BASE,
    EMPTY,
    SEQ_CHIP,
    TRADE_BASE,
)

INFINITE = 1e4
"""The seed's `inf` (a completing or heart-deciding move). Finite, and far below the generic
agents' WIN_VALUE (1e6), so that a move that really wins the game still ranks first."""
JACK_SAVING = 1e-6
"""The seed never plays a two-eyed jack where a normal card in hand could go: such a jack
play scores a hair below the normal card's play on the same space."""
TWO_EYED_DRAFT = 20 * INFINITE
ONE_EYED_DRAFT = 10 * INFINITE
"""The seed always drafts a two-eyed jack if one is offered, else a one-eyed jack."""
DEAD_DRAFT, DECLINE_VALUE = -1.0, -2.0
"""A draft card with no empty space is worth less than any live one; the seed never
declines a trade."""

HEART_TABLE: dict[tuple[int, int], tuple[float, float]] = {
    (0, 0): (15, 0), (1, 1): (20, 10), (2, 2): (0, 30),
    (1, 0): (30, 0), (0, 1): (20, 0),
    (2, 0): (50, 0), (0, 2): (30, 0),
    (3, 0): (INFINITE, 0), (0, 3): (INFINITE, 100),
    (2, 1): (50, 20), (1, 2): (30, 50),
    (3, 1): (0, 200), (1, 3): (0, 100),
}
"""The heart rule: (own, opponent) chips on the four heart spaces -> (the least value of
placing on an empty heart space, of removing an opponent chip there). Three own chips make
the fourth a win (inf); three opponent chips make blocking it inf."""


@dataclass(frozen=True)
class SeedWeights:
    """The seed's tunable constants (docs/design.md#sequence-greedy-constants; hill climbing
    starts from these)."""

    place_bias: float = 0.2
    """PLACE_BIAS: own-line (place) against blocking weight on an empty space."""
    remove_bias: float = 0.4
    """REMOVE_BIAS: breaking the opponent's line against retaking the space, on a removal."""
    place_remove_scale: float = -0.2
    """PLACE_REMOVE_SCALE: places are scaled by 1 + it, removals by 1 - it."""
    smooth: float = 0.1
    """SMOOTH: width of the Gaussian centre prior."""
    scale: float = 10.0
    """SCALE: height of the Gaussian centre prior."""
    growth: float = 1.0
    """Not the seed's: a direction holding v chips adds e^(growth * v) (the seed's e^v is 1)."""
    jack_cost: float = 0.0
    """Not the seed's: taken off any jack play but one that decides the game (an infinite
    value), so that a jack is kept for a move that matters (the seed spends one whenever it
    scores best: 0)."""
    jack_reserve: float = 0.0
    """Not the seed's: taken off a jack play that neither completes a window of five
    (two-eyed) nor breaks an opponent's window of four (one-eyed), so that jacks are kept for
    those moves (0: the seed's, which spends a jack wherever it scores best). Unlike jack_cost
    it spares the first sequence and the defence against one, not only the deciding move."""


DEFAULT_WEIGHTS = SeedWeights()


def _windows() -> list[tuple[int, list[tuple[int, ...]]]]:
    """Every line of at least five spaces as (direction, its windows of five)."""
    lines = []
    for direction, (dr, dc) in enumerate(((0, 1), (1, 0), (1, 1), (1, -1))):
        starts = [(r, c) for r in range(SIZE) for c in range(SIZE)
                  if not (0 <= r - dr < SIZE and 0 <= c - dc < SIZE)]
        for r, c in starts:
            line = []
            while 0 <= r < SIZE and 0 <= c < SIZE:
                line.append(r * SIZE + c)
                r, c = r + dr, c + dc
            if len(line) >= 5:
                lines.append((direction, [tuple(line[i:i + 5]) for i in range(len(line) - 4)]))
    return lines


LINES = _windows()
WINDOWS = [window for _, windows in LINES for window in windows]


@lru_cache(maxsize=16)
def centre_prior(smooth: float, scale: float) -> tuple[float, ...]:
    """C_p(x, y) = SCALE * exp(-SMOOTH * ((x - 4.5)^2 + (y - 4.5)^2)) for every space."""
    return tuple(scale * math.exp(-smooth * ((sq // SIZE - 4.5) ** 2 + (sq % SIZE - 4.5) ** 2))
                 for sq in range(SQUARES))


def _combine(values: list[int], completes: bool, growth: float = 1.0) -> float:
    """Sum of e^(growth v) over the four directions; inf if a 4 would complete the deciding
    line."""
    if completes and 4 in values:
        return INFINITE
    return sum(math.exp(growth * v) for v in values)


def _finish(value: float, prior: float, *parts: float) -> float:
    """Add the centre prior, as the seed's float('inf') arithmetic would: once any part is
    infinite the value is exactly INFINITE (scaling, max and the prior leave inf as it is),
    so all deciding moves tie as they do for the seed."""
    if max(parts) >= INFINITE:
        return INFINITE
    return value + prior


@lru_cache(maxsize=512)
def location_values(board: tuple[int, ...], team: int,
                    weights: SeedWeights = DEFAULT_WEIGHTS) -> tuple[tuple[float, ...], ...]:
    """(place value per space, remove value per space) for `team`, the seed's formulas:
    zero where the action is impossible. Cached: a greedy move asks for one board many times.
    """
    own, own_seq = CHIP[team], SEQ_CHIP[team]
    opp, opp_seq = CHIP[1 - team], SEQ_CHIP[1 - team]
    # per direction and space, the best window value of each kind
    place = [[0] * SQUARES for _ in range(4)]
    block = [[0] * SQUARES for _ in range(4)]
    removal = [[0] * SQUARES for _ in range(4)]
    override = [[0] * SQUARES for _ in range(4)]
    full_lines = [0, 0]  # lines whose best open window holds five: (own, opponent)
    for direction, windows in LINES:
        best_own = best_opp = 0
        for window in windows:
            n_own = n_own_seq = n_opp = n_opp_seq = n_corner = 0
            for sq in window:
                cell = board[sq]
                if cell == own:
                    n_own += 1
                elif cell == own_seq:
                    n_own_seq += 1
                elif cell == opp:
                    n_opp += 1
                elif cell == opp_seq:
                    n_opp_seq += 1
                elif cell == CORNER_CELL:
                    n_corner += 1
            mine = n_own + n_own_seq + n_corner
            theirs = n_opp + n_opp_seq + n_corner
            if n_opp + n_opp_seq == 0:
                best_own = max(best_own, mine)
            if n_own + n_own_seq == 0:
                best_opp = max(best_opp, theirs)
            # place: a window I can still fill; block: one only the opponent can fill
            v_place = mine if n_opp + n_opp_seq == 0 and n_own_seq < 2 else 0
            v_block = theirs if n_own + n_own_seq == 0 and n_opp_seq < 2 else 0
            # remove: breaking such an opponent window; override: a window that is mine once
            # this one opponent chip is gone. The seed's text ("replace value": own chips; its
            # example: 3 own, 1 empty, 1 opponent gives 3) leaves out the + 1 that its
            # authors' code adds (`red_override = counts[RED] + counts[RED_SEQ] +
            # counts[JOKER] + 1`): the freed space, which the team may take back at once.
            # docs/design.md#sequence-greedy-constants takes the greedy agent as that code
            # played it, so we keep the + 1.
            v_override = (mine + 1 if n_opp <= 1 and n_opp_seq == 0 and n_own_seq < 2 else 0)
            place_d, block_d = place[direction], block[direction]
            removal_d, override_d = removal[direction], override[direction]
            for sq in window:
                cell = board[sq]
                if cell == EMPTY:
                    if v_place > place_d[sq]:
                        place_d[sq] = v_place
                    if v_block > block_d[sq]:
                        block_d[sq] = v_block
                elif cell == opp:
                    if v_block > removal_d[sq]:
                        removal_d[sq] = v_block
                    if v_override > override_d[sq]:
                        override_d[sq] = v_override
        full_lines[0] += best_own == 5
        full_lines[1] += best_opp == 5
    i_complete, they_complete = full_lines[0] == 1, full_lines[1] == 1
    w = weights
    prior = centre_prior(w.smooth, w.scale)
    place_value = [0.0] * SQUARES
    remove_value = [0.0] * SQUARES
    heart_own = sum(1 for sq in HEART if board[sq] in (own, own_seq))
    heart_opp = sum(1 for sq in HEART if board[sq] in (opp, opp_seq))
    heart_place, heart_remove = HEART_TABLE.get((heart_own, heart_opp), (0.0, 0.0))
    for sq in range(SQUARES):
        cell = board[sq]
        if cell == EMPTY:
            placing = _combine([place[d][sq] for d in range(4)], i_complete, w.growth)
            blocking = _combine([block[d][sq] for d in range(4)], they_complete, w.growth)
            value = ((1 + w.place_bias) * placing + (1 - w.place_bias) * blocking) \
                * (1 + w.place_remove_scale)
            if sq in HEART:
                value = max(value, heart_place)
            place_value[sq] = _finish(value, prior[sq], placing, blocking, value)
        elif cell == opp:
            removing = _combine([removal[d][sq] for d in range(4)], they_complete,
                                w.growth)
            overriding = _combine([override[d][sq] for d in range(4)], i_complete, w.growth)
            value = ((1 + w.remove_bias) * removing + (1 - w.remove_bias) * overriding) \
                * (1 - w.place_remove_scale)
            if sq in HEART:
                value = max(value, heart_remove)
            remove_value[sq] = _finish(value, prior[sq], removing, overriding, value)
    return tuple(place_value), tuple(remove_value)


@lru_cache(maxsize=512)
def line_squares(board: tuple[int, ...], team: int) -> tuple[frozenset[int], frozenset[int]]:
    """(empty spaces where a chip of `team` completes a window of five, opponent chips whose
    removal breaks an opponent window of four chips and an empty space): the jack plays that
    `jack_reserve` spares. Cached like location_values; only asked for when it is set."""
    own, own_seq = CHIP[team], SEQ_CHIP[team]
    opp, opp_seq = CHIP[1 - team], SEQ_CHIP[1 - team]
    complete: set[int] = set()
    breaks: set[int] = set()
    for window in WINDOWS:
        cells = [board[sq] for sq in window]
        if cells.count(EMPTY) != 1:
            continue
        n_own_seq, n_opp_seq = cells.count(own_seq), cells.count(opp_seq)
        n_own, n_opp = cells.count(own) + n_own_seq, cells.count(opp) + n_opp_seq
        # a new sequence may share one chip with an earlier one, as in the rules
        if n_opp == 0 and n_own_seq < 2:
            complete.add(window[cells.index(EMPTY)])
        elif n_own == 0 and n_opp_seq < 2:
            breaks.update(sq for sq, cell in zip(window, cells) if cell == opp)
    return frozenset(complete), frozenset(breaks)


def draft_value(board: tuple[int, ...], team: int, card: int,
                weights: SeedWeights = DEFAULT_WEIGHTS) -> float:
    """The seed's draft preference: two-eyed jack, one-eyed jack, else the best empty space
    of the card."""
    if card in TWO_EYED_JACKS:
        return TWO_EYED_DRAFT
    if card in ONE_EYED_JACKS:
        return ONE_EYED_DRAFT
    place = location_values(board, team, weights)[0]
    spaces = [place[sq] for sq in CARD_SQUARES[card] if board[sq] == EMPTY]
    return max(spaces) if spaces else DEAD_DRAFT


def _jack_play(value: float, weights: SeedWeights, board: tuple[int, ...], team: int, sq: int,
               kind: int) -> float:
    """A jack play's value less its costs; `kind` 0 two-eyed (place), 1 one-eyed (remove)."""
    if value >= INFINITE:
        return value
    value -= weights.jack_cost
    if weights.jack_reserve and sq not in line_squares(board, team)[kind]:
        value -= weights.jack_reserve
    return value


def decision_value(board: tuple[int, ...], hand: list[int], team: int, action: int,
                   weights: SeedWeights = DEFAULT_WEIGHTS) -> float:
    """The seed's value of `action` by a player of `team` holding `hand` on `board` (the
    board as the decision saw it)."""
    if action < DRAFT_BASE:
        card, sq = divmod(action, SQUARES)
        place, remove = location_values(board, team, weights)
        if card in ONE_EYED_JACKS:
            return _jack_play(remove[sq], weights, board, team, sq, 1)
        if card in TWO_EYED_JACKS:
            value = _jack_play(place[sq], weights, board, team, sq, 0)
            if any(sq in CARD_SQUARES[c] for c in hand):
                value -= JACK_SAVING
            return value
        return place[sq]
    if action < TRADE_BASE:
        return draft_value(board, team, action - DRAFT_BASE, weights)
    if action < DECLINE:
        return draft_value(board, team, (action - TRADE_BASE) % NUM_CARDS, weights)
    if action == DECLINE:
        return DECLINE_VALUE
    return 0.0  # burning: every card is as good


def greedy_action_values(state: SequenceState,
                         weights: SeedWeights = DEFAULT_WEIGHTS) -> dict[int, float]:
    """The seed's value of every legal action of the player to move."""
    board = tuple(state.board)
    hand = state.hands[state.seat]
    team = state.seat % 2
    return {a: decision_value(board, hand, team, a, weights) for a in state.legal_actions()}


def seed_evaluator(weights: SeedWeights = DEFAULT_WEIGHTS) -> Callable[[SequenceState, int],
                                                                       float]:
    """An evaluator (state, player) -> the seed's value of `player`'s last decision, so that
    one-ply greedy play is the seed's agent; a tuner builds one per weight setting."""

    def evaluate(state: SequenceState, player: int) -> float:
        last = state.last
        if last is None or last[0] != player:
            return window_potential(state, player)
        seat, action, _ = last
        if action < DRAFT_BASE:
            board = state.prev_board
            assert board is not None
            hand = state.hands[seat]  # the played card is gone; the rest is as it was
        else:
            board = tuple(state.board)
            hand = state.hands[seat]
        if action >= BURN_BASE:
            return 0.0
        return decision_value(board, hand, seat % 2, action, weights)

    return evaluate


SEQUENCE_WEIGHT = 1000.0
"""Window potential: one completed sequence, worth more than any spread of open windows."""


def window_potential(state: SequenceState, player: int) -> float:
    """Sum over windows of five open to `player`'s team (no opponent chip) of e^(own chips
    and corners), minus the same for the opponent, plus SEQUENCE_WEIGHT per sequence ahead."""
    board = state.board
    team = player % 2
    own, own_seq = CHIP[team], SEQ_CHIP[team]
    opp, opp_seq = CHIP[1 - team], SEQ_CHIP[1 - team]
    exp = _EXP
    total = SEQUENCE_WEIGHT * (state.sequences[team] - state.sequences[1 - team])
    for window in WINDOWS:
        mine = theirs = corners = 0
        for sq in window:
            cell = board[sq]
            if cell == own or cell == own_seq:
                mine += 1
            elif cell == opp or cell == opp_seq:
                theirs += 1
            elif cell == CORNER_CELL:
                corners += 1
        # an empty window is open to both alike: it adds nothing
        if theirs == 0 and mine:
            total += exp[mine + corners]
        elif mine == 0 and theirs:
            total -= exp[theirs + corners]
    return total


_EXP = tuple(math.exp(k) for k in range(6))

WEIGHTED = "location-value"
"""The evaluator whose weights a name may change (`location-value/scale=12`)."""
WEIGHT_SEPARATOR = "/"
"""`location-value/place_bias=0.3/scale=12` names the seed evaluator with those weights
changed, so an agent spec carries the weights (`greedy:eval=location-value/place_bias=0.3`)
and a tuner can move them; "/" because spec strings already use ",", ":" and "="."""


class SequenceEvaluators(Evaluators[SequenceState]):
    """The named evaluators, plus `location-value/<weight>=<value>/...`: the seed evaluator
    with the given SeedWeights fields (lower or upper case) changed (also after an alias of
    it: `greedy/scale=12`). Built on demand and kept."""

    def name_of(self, name: str) -> str:
        base, separator, rest = name.partition(WEIGHT_SEPARATOR)
        return super().name_of(base) + separator + rest

    def parameters(self, name: str) -> dict[str, float]:
        """The tunable numbers of evaluator `name` with their default values."""
        if self.name_of(name.partition(WEIGHT_SEPARATOR)[0]) != WEIGHTED:
            return {}
        return dict(vars(DEFAULT_WEIGHTS))

    def __contains__(self, name: object) -> bool:
        if super().__contains__(name):
            return True
        if not isinstance(name, str):
            return False
        try:
            self[name]
        except KeyError:
            return False
        return True

    def __missing__(self, name: str) -> Callable[[SequenceState, int], float]:
        if not isinstance(name, str):
            raise KeyError(name)
        if name in self.aliases:
            return super().__missing__(name)
        base, _, rest = name.partition(WEIGHT_SEPARATOR)
        if self.name_of(base) != WEIGHTED or not rest:
            raise KeyError(name)
        self[name] = evaluator = seed_evaluator(parse_weights(rest, name))
        return evaluator


def parse_weights(text: str, where: str) -> SeedWeights:
    """`place_bias=0.3/scale=12` -> SeedWeights; ParseError naming `where` if malformed."""
    from ...core.game import ParseError

    fields = vars(DEFAULT_WEIGHTS)
    values: dict[str, float] = {}
    for item in text.split(WEIGHT_SEPARATOR):
        key, eq, value = item.partition("=")
        key = key.strip().lower()
        if not eq or key not in fields:
            raise ParseError(f"evaluator {where!r}: {item!r} is not weight=value; the weights "
                             f"are {', '.join(fields)}")
        try:
            values[key] = float(value)
        except ValueError:
            raise ParseError(f"evaluator {where!r}: weight {key} {value!r} is not a number") \
                from None
    return SeedWeights(**values)


EVALUATORS = SequenceEvaluators({
    WEIGHTED: seed_evaluator(),  # the seed's move values, the greedy agent's default
    "window-potential": window_potential,  # the minimax agent's default
}, aliases={"greedy": WEIGHTED, "minimax": "window-potential"})
