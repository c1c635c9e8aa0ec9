"""What a compiled alpha-beta search needs whatever the game (numba), written once for the
chess-like games' searches (xiangqi/search.py, minichess/search.py).

Each game's search is negamax alpha-beta with principal variation search over its own
make/unmake moves; this module gives it, over plain numpy arrays:
- `Tables`: the memory a search keeps from one iteration of iterative deepening to the next
  (a transposition table indexed by the low bits of a Zobrist key, killer moves per ply, the
  history heuristic) and its counters; `SearchMemory` holds it between the agent's calls;
- move ordering: `score_moves` ranks the table's move first, then captures by most valuable
  victim / least valuable attacker (MVV-LVA), then the two killer moves of the ply, then quiet
  moves by their history score (a game's search may move a capture that gives material away
  after the killers, LOSING_CAPTURE); `pick` brings the best remaining move forward (a lazy
  selection sort: after a cutoff the rest is never sorted);
- `take_value` and `store_node`: a node's bookkeeping after each move and at its end (a quiet
  move that cut off becomes a killer and earns history);
- `above`: the null window of PVS for float scores (`below`: the one under beta that a null
  move asks);
- `evaluate`: a piece-square sum over the board (material, or material and position);
- the engine mode's pruning (`mode` bits, each a minimax setting so it can be measured by
  switching it off: docs/speed.md#engine-search-ablation): null-move pruning (NULL,
  `null_move_worth`: the side to move passes and a search `null_reduction` plies shallower
  still reaches beta: cut), late-move reductions (REDUCE, `late_reduction`: a quiet move
  late in the order is searched shallower first, and again at full depth if it beats alpha)
  and aspiration windows at the root (`SearchMemory.search`: the last iteration's value +-
  the game's `window`, widened on a fail). The games decide where each applies (their
  search.py: no null move in check nor in a pawn ending, none at all in Reversi; no
  reduction of a check).
Moves live in a buffer moves[ply, i] = (from, to, ordering score); a move's id in the tables
is from * squares + to. Few arrays travel down the recursion on purpose: numba pays for each
array argument of every call (about 10 ns each here).

The win value and the table's bound flags are core/alphabeta.py's, which the Python minimax
agent uses too. Each module of compiled searches ends with `fresh_cache(__name__)`
(core/kernelcache.py), so that numba's disk cache notices an edit to this file as well.
"""

from __future__ import annotations

import threading
from typing import Callable, NamedTuple

import numpy as np
from numba import njit

from ..core.alphabeta import (ASPIRATION, DEEP_NULL_MOVE, DEEP_PRUNING, ENDGAME, EXACT,
                              FUTILITY, HISTORY_MALUS_USE, LATE_LOSING_CAPTURES,
                              LATE_MOVE_PRUNING, LATE_MOVE_REDUCTIONS, LOG_LATE_MOVE_REDUCTIONS,
                              LOWER, NULL_MOVE, QUIET_CHECKS_USE, QUIET_TABLE_USE,
                              SAFE_CHECK_EXTENSION, SCOUT_DEPTH, SORTED_QUIETS, STATIC_EXCHANGE,
                              STATIC_FROM_TABLE, UPPER, WIN_VALUE)
from ..core.kernelcache import fresh_cache

NO_LIMIT = np.iinfo(np.int64).max // 2
"""`max_nodes` meaning "never stop early"."""
MAX_PLY = 96
"""Deepest path below the root, extensions and quiescence included (deeper: evaluate)."""
HASH_MOVE, CAPTURE, KILLER = 1 << 40, 1 << 30, 1 << 29
"""Ordering scores: the table's move, captures (plus MVV-LVA), killers; history stays below."""
LOSING_CAPTURE = KILLER - 1
"""The ordering score of a capture that a game's search finds giving material away (LATE_LOSSES
bit): after the killers, level with the best quiet moves. (A first version also reduced and
pruned such captures late in the order, as quiet moves; Xiangqi's search reduces and prunes no
capture: docs/speed.md.)"""
NODES, MAX_NODES, STOPPED, ROOT_MOVES, ROOT_BEST, ROOT_RAISED, TIME_UP = range(7)
"""Slots of `Tables.counters`: nodes searched, the budget, 1 once the budget ran out, the
number of root moves (in moves[0]), the index of the best of them, the index of the last
root move whose search raised alpha (-1: none yet), the best move an unfinished call has
proved (`SearchMemory.partial_best`), and 1 once the move's time is up (written by the timer
of `SearchMemory.stop_at` while a search runs)."""
(ENGINE, NULL, REDUCE, AFTER_NULL, FUTILE, PRUNE_LATE, LOG_REDUCE, SEE, DEEP_NULL, QUIET_TABLE,
 QUIET_CHECKS, FIRST_QUIET, MALUS, SORT_QUIETS, SAFE_CHECKS, LATE_LOSSES, TABLE_STATIC,
 DEEP_PRUNE) = (1 << bit for bit in range(18))
"""Bits of a search's `mode`: the engine search (quiescence, table cutoffs; 0: the plain
search, the Python agent's values), null-move pruning on, late-move reductions on, (set
by the search itself) this node is the reply to a null move, which may not pass again,
futility pruning on, late-move pruning on, reductions that grow with the logarithms of
depth and move number, the quiescence search's static exchange pruning (a capture by a
piece worth more than its victim, on a defended square, is not tried), a null move's
reduction that grows with depth (`null_reduction`), the quiescence search's use of the
transposition table, quiet checks at the quiescence search's first ply, (set by the
search itself) this node is that first ply, and the history malus (`punish_quiets`: quiet
moves tried before the one that cut off lose history, and a late quiet move whose history
is below 0 is reduced one ply more), quiet moves sorted by history at every depth
(`keeps_sorting`), a check extended only where the checking piece cannot be taken at once at
a loss, captures that give material away ordered after the killers (`LOSING_CAPTURE`), the
static evaluation bounded by the table's entry (`table_static`), and the pruning of quiet moves
further from the leaves (`deep_pruning`)."""
SCOUT_SHIFT = 24
"""`mode >> SCOUT_SHIFT` is the scout depth: futility and late-move pruning apply at nodes
at most that many plies from the leaves (`shallow_scout`; the minimax agent's
`scout_depth`)."""
NULL_MOVE_MIN_DEPTH = 2
"""Null-move pruning from this remaining depth."""
REDUCE_MIN_DEPTH, REDUCE_FROM_MOVE = 3, 3
"""Late-move reductions from this remaining depth, for moves from this index of the order
(the first, the table's move, captures and killers are never reduced)."""
MALUS_MIN_DEPTH = 6
"""The history malus' extra ply of reduction from this remaining depth (at 4 it changed the
move of a tactical position of tests/search/test_pruning.py)."""
LOG_REDUCTIONS = np.array([[0 if d < 1 or i < 1 else int(0.5 + np.log(d) * np.log(i) / 2)
                            for i in range(64)] for d in range(64)], dtype=np.int64)
"""LOG_REDUCTIONS[depth, move index]: the plies a log-shaped late-move reduction takes off,
round(ln depth x ln index / 2), the shape of Stockfish's reductions (its table is 0.51 x ln
depth x ln index from version 10 on): 1 at depth 3 from the third move, 3 at depth 10 from
the tenth, 4 from the thirtieth."""
ENTRY = np.dtype([("key", np.int64), ("move", np.int64), ("value", np.float64),
                  ("depth", np.int16), ("bound", np.int8), ("filled", np.bool_)])
"""A transposition-table entry. All zeros is an empty slot, so a new table costs nothing
until its pages are written (np.zeros)."""


class Tables(NamedTuple):
    """A search's memory, numba-typed as a tuple of arrays."""

    table: np.ndarray
    """The transposition table: ENTRY records, 2**k of them."""
    killers: np.ndarray
    """killers[ply]: the two latest quiet moves that cut off at that ply, newest first."""
    history: np.ndarray
    """history[move id]: sum of depth**2 over the cutoffs the quiet move caused."""
    counters: np.ndarray
    statics: np.ndarray
    """statics[ply]: the static evaluation of the node being searched at that ply, for its side
    to move (NaN: in check, or not computed), which `improving` compares two plies apart."""


def new_tables(squares: int, table_bits: int = 20) -> Tables:
    return Tables(np.zeros(1 << table_bits, dtype=ENTRY),
                  np.full((MAX_PLY + 1, 2), -1, dtype=np.int64),
                  np.zeros(squares * squares, dtype=np.int64), np.zeros(7, dtype=np.int64),
                  np.full(MAX_PLY + 2, np.nan))


class SearchMemory:
    """What a game's compiled search keeps between the minimax agent's calls (one call per
    iteration of iterative deepening): the tables and the move buffer, the engine mode's
    switches (`configure`) and the last finished call's value (the next one's aspiration
    window)."""

    window = 0.0
    """Half the aspiration window, in the game's heuristic units (0: no aspiration)."""
    reductions = True
    """Whether the game's search reduces late moves at all (then `configure(lmr=False)`
    switches it off)."""
    futility_margin = 0.0
    """The futility margin per ply of depth in the game's heuristic units; 0: the game's
    search does not prune by futility (then `configure(futility=...)` changes nothing)."""
    prunes_late = False
    """Whether the game's search prunes late quiet moves (then `configure(lmp=False)`
    switches it off)."""
    exchanges = False
    """Whether the game's quiescence search can skip losing captures (then `configure(see=
    True)` switches it on)."""
    quiet_table = False
    """Whether the game's quiescence search can use the transposition table (then
    `configure(quiet_table=False)` switches it off)."""
    checks_in_quiescence = False
    """Whether the game's quiescence search can try quiet checks at its first ply (then
    `configure(quiet_checks=True)` switches it on)."""
    guards_checks = False
    """Whether the game's search can extend only the checks whose piece cannot be taken at a
    loss (then `configure(safe_checks=True)` switches it on)."""
    orders_losses = False
    """Whether the game's search can order the captures that give material away after the
    killers (then `configure(late_losses=True)` switches it on)."""
    prunes_deep = False
    """Whether the game's search can bound its static evaluation by the table and prune quiet
    moves up to DEEP_PRUNE_DEPTH plies from the leaves (then `configure(table_static=True,
    deep_prune=True)` switches them on)."""
    log_reductions = LOG_LATE_MOVE_REDUCTIONS
    """Whether the game's search reduces late moves by LOG_REDUCTIONS when the minimax agent
    leaves `log_lmr` unset (`configure(log_lmr=None)`): the game's choice, as measured there."""
    solved = False
    """Whether the last call solved the root exactly (a game's end-game solver): deeper
    iterations would find the same."""
    partial_best = -1
    """After a call the budget stopped: the index of a root move it proved better than the
    first one searched (the last iteration's best), else -1. Engines play such a move: its
    search finished at the new depth and beat the old best there."""

    def __init__(self, squares: int, max_moves: int, quiescence: bool) -> None:
        self.quiescence = quiescence
        self.tables = new_tables(squares)
        self.moves = np.zeros((MAX_PLY + 2, max_moves, 3), dtype=np.int64)
        self.root: object = None
        self.depth = 0
        self._timer: threading.Timer | None = None
        self.guess: float | None = None
        self.configure()

    def configure(self, null_move: bool = NULL_MOVE, lmr: bool = LATE_MOVE_REDUCTIONS,
                  aspiration: bool = ASPIRATION, endgame: int = ENDGAME,
                  futility: bool = FUTILITY, lmp: bool = LATE_MOVE_PRUNING,
                  log_lmr: bool | None = None,
                  see: bool = STATIC_EXCHANGE, deep_null: bool = DEEP_NULL_MOVE,
                  scout_depth: int = SCOUT_DEPTH, quiet_table: bool = QUIET_TABLE_USE,
                  quiet_checks: bool = QUIET_CHECKS_USE,
                  history_malus: bool = HISTORY_MALUS_USE,
                  sort_quiets: bool = SORTED_QUIETS,
                  safe_checks: bool = SAFE_CHECK_EXTENSION,
                  late_losses: bool = LATE_LOSING_CAPTURES,
                  table_static: bool = STATIC_FROM_TABLE,
                  deep_prune: bool = DEEP_PRUNING) -> None:
        """The engine mode's switches (the minimax agent's settings of the same names): the
        pruning, and from how close to the end a root is solved exactly (a game whose
        search has a solver reads `self.endgame`); the plain search ignores them, its
        values are the Python agent's. `log_lmr` None: the game's `log_reductions`."""
        log_lmr = self.log_reductions if log_lmr is None else log_lmr
        self.mode = (ENGINE | (NULL if null_move else 0)
                     | (REDUCE if lmr and self.reductions else 0)
                     | (FUTILE if futility and self.futility_margin > 0 else 0)
                     | (PRUNE_LATE if lmp and self.prunes_late else 0)
                     | (LOG_REDUCE if log_lmr and lmr and self.reductions else 0)
                     | (SEE if see and self.exchanges else 0)
                     | (DEEP_NULL if deep_null and null_move else 0)
                     | (QUIET_TABLE if quiet_table and self.quiet_table else 0)
                     | (QUIET_CHECKS if quiet_checks and self.checks_in_quiescence else 0)
                     | (MALUS if history_malus else 0)
                     | (SORT_QUIETS if sort_quiets else 0)
                     | (SAFE_CHECKS if safe_checks and self.guards_checks else 0)
                     | (LATE_LOSSES if late_losses and self.orders_losses else 0)
                     | (TABLE_STATIC if table_static and self.prunes_deep else 0)
                     | (DEEP_PRUNE if deep_prune and self.prunes_deep else 0)
                     | scout_depth << SCOUT_SHIFT
                     if self.quiescence else 0)
        self.aspiration = aspiration and self.quiescence and self.window > 0
        self.endgame = endgame

    def stop_at(self, seconds: float | None) -> None:
        """Stop the searches of this move `seconds` from now (None: no deadline; the last one
        is called off). A timer thread sets the TIME_UP counter, which every node reads
        (`count_node`): the games' searches release the GIL (`nogil`), so the timer runs while
        they do. A node budget alone overran the clock whenever the machine got busier than
        when the rate was measured."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        counters = self.tables.counters
        counters[TIME_UP] = 0
        if seconds is not None:
            self._timer = threading.Timer(max(seconds, 0.0), counters.__setitem__,
                                          (TIME_UP, 1))
            self._timer.daemon = True
            self._timer.start()

    def search(self, window_search: Callable[[float, float], float]) -> float:
        """The root's value by `window_search(alpha, beta)` (the game's root node searched
        within that window): with the full window, or with aspiration around the last
        iteration's value at the same root, widened on the side a search fails (8x, 64x, then
        to infinity); a value inside the window is exact (fail-soft)."""
        guess = self.guess
        if not self.aspiration or guess is None or abs(guess) >= 0.5 * WIN_VALUE:
            return window_search(-np.inf, np.inf)
        low = high = self.window
        while True:
            alpha = guess - low if low < 64 * self.window else -np.inf
            beta = guess + high if high < 64 * self.window else np.inf
            value = window_search(alpha, beta)
            if self.tables.counters[STOPPED]:
                return value
            if value <= alpha:
                low *= 8
            elif value >= beta:
                high *= 8
            else:
                return value

    def start(self, root: object, depth: int, max_nodes: int, root_moves: list) -> None:
        """Reset the counters and put the root's (from, to) moves in place. At a new move
        (another root, or a depth not above the last call's) forget the killers and halve
        the history (old, but still a fair ordering guess). The table stays: its values are
        each node's own (negamax), whatever the root; a new game gets a new SearchMemory
        (the minimax agent builds one per game, so every game replays alone)."""
        tables = self.tables
        tables.counters[:TIME_UP] = (0, max_nodes, 0, len(root_moves), 0, -1)
        self.moves[0, :len(root_moves), :2] = root_moves
        deeper = root == self.root and depth > self.depth
        if not deeper:
            tables.killers[:] = -1
            tables.history[:] //= 2
            self.guess = None  # aspiration: no earlier iteration at this root
        self.root, self.depth = root, depth

    def result(self, value: float, flip: bool) -> tuple[int, float, int, bool]:
        """(best root index, value, from the other player's side if `flip`, nodes,
        completed); a completed value is the next iteration's aspiration guess."""
        counters = self.tables.counters
        completed = not counters[STOPPED]
        self.guess = value if completed else None
        raised = int(counters[ROOT_RAISED])
        self.partial_best = raised if not completed and raised > 0 else -1
        return (int(counters[ROOT_BEST]), -value if flip else value, int(counters[NODES]),
                completed)


@njit(cache=True, inline="always")
def count_node(tables):
    """Count a node; True once past the node budget or the time (the search then unwinds)."""
    counters = tables.counters
    counters[NODES] += 1
    if counters[NODES] > counters[MAX_NODES] or counters[TIME_UP]:
        counters[STOPPED] = 1
    return counters[STOPPED] == 1


@njit(cache=True, inline="always")
def above(alpha):
    """The least float above `alpha`: (alpha, above(alpha)) is a window no score falls inside,
    PVS's null window, whatever the evaluator's values."""
    return np.nextafter(alpha, np.inf)


@njit(cache=True, inline="always")
def below(beta):
    """The greatest float under `beta`: (below(beta), beta) asks only "at least beta?", the
    window of a null move's search."""
    return np.nextafter(beta, -np.inf)


@njit(cache=True, inline="always")
def null_move_worth(mode, ply, depth, alpha, beta):
    """Whether a node may try a null move as far as the search goes (the game then asks: the
    side to move stands at beta by the evaluation, is not in check, and zugzwang is unlikely):
    the engine asks for it, below the root and not right after a null move, deep enough, at
    a null-window node (alpha-beta's scouts, not the principal variation) whose beta is no
    win or loss."""
    return (mode & (NULL | AFTER_NULL)) == NULL and ply > 0 and \
        depth >= NULL_MOVE_MIN_DEPTH and above(alpha) == beta and abs(beta) < 0.5 * WIN_VALUE


@njit(cache=True, inline="always")
def shallow_scout(mode, ply, depth, alpha, beta):
    """Whether a node may be pruned by its static evaluation or its move count as far as the
    search goes (the game then asks: not in check, the game's end not within reach): below
    the root, at most the scout depth (`mode >> SCOUT_SHIFT`) plies from the leaves, a
    null-window node whose beta is no win or loss. What follows, each under its `mode` bit:
    futility pruning (FUTILE; Heinz, "Extended futility pruning", ICCA Journal 1998, and
    Stockfish's "reverse futility"): with the evaluation a margin per ply above beta the node
    cuts at once, with it a margin per ply below alpha no quiet move is searched; late-move
    pruning (PRUNE_LATE, the "move count pruning" of Stockfish and most engines since:
    ordering puts the moves likely to matter first), after `late_move_count(depth)` moves no
    more quiet ones."""
    return ply > 0 and depth <= mode >> SCOUT_SHIFT and above(alpha) == beta and \
        abs(beta) < 0.5 * WIN_VALUE


@njit(cache=True, inline="always")
def scout_pruning(mode, static, margin, depth, alpha, beta):
    """Futility and late-move pruning at a node where `shallow_scout` holds (the game has made
    sure the side to move is not in check and the ply cap is out of reach): (cut, value,
    futile, searched_at_most). cut: the evaluation `static` is `margin` a ply above beta, and
    the node returns `value`; futile: the best a quiet move that gives no check is taken to
    reach, without searching it (-inf: every move is searched); searched_at_most: the moves
    searched before the quiet rest is skipped (1 << 30: all)."""
    futile = -np.inf
    searched_at_most = 1 << 30
    if mode & FUTILE:
        if static - margin * depth >= beta:
            return True, static, futile, searched_at_most
        if static + margin * depth <= alpha:
            futile = static + margin * depth
    if mode & PRUNE_LATE:
        searched_at_most = late_move_count(depth)
    return False, 0.0, futile, searched_at_most


@njit(cache=True, inline="always")
def table_static(mode, tables, slot, static):
    """The static evaluation `static` of the node whose table entry is in `slot` (-1: none),
    with TABLE_STATIC bounded by that entry as Stockfish does: an entry that is exact, or a
    lower bound above the evaluation, or an upper bound below it, is a better guess of what
    the node is worth than the evaluation, deep enough or not to cut off. A win or a loss is
    left to the search."""
    if not mode & TABLE_STATIC or slot < 0:
        return static
    entry = tables.table[slot]
    value = entry.value
    if abs(value) >= 0.5 * WIN_VALUE:
        return static
    if entry.bound == EXACT or (entry.bound == LOWER and value > static) or (
            entry.bound == UPPER and value < static):
        return value
    return static


@njit(cache=True, inline="always")
def improving(tables, ply, static):
    """Keep the static evaluation `static` of the node at `ply` (NaN: in check or not
    computed) and say whether it is above its value for the same side two plies up (true
    where either is unknown): a position that got better for the side to move since its
    last move is pruned less (Stockfish's "improving")."""
    tables.statics[ply] = static
    if ply < 2 or np.isnan(static) or np.isnan(tables.statics[ply - 2]):
        return True
    return static > tables.statics[ply - 2]


DEEP_PRUNE_DEPTH = 7
"""Deep pruning (`deep_pruning`) at nodes at most this many plies from the leaves."""


@njit(cache=True, inline="always")
def deep_pruning(mode, ply, depth, alpha, beta):
    """Whether a node may skip quiet moves by `prunes_quiet` as far as the search goes (the game
    then asks: not in check, the ply cap out of reach, a static evaluation known): DEEP_PRUNE,
    below the root, at most DEEP_PRUNE_DEPTH plies from the leaves, a null-window node whose
    beta is no win or loss. Stockfish's move count and futility pruning, whose reach is
    further from the leaves than `shallow_scout`'s and grows with the moves' reductions."""
    return (mode & DEEP_PRUNE) != 0 and ply > 0 and depth <= DEEP_PRUNE_DEPTH and \
        above(alpha) == beta and abs(beta) < 0.5 * WIN_VALUE


@njit(cache=True, inline="always")
def prunes_quiet(mode, static, margin, depth, index, score, rising, alpha, reducing):
    """Whether a node where `deep_pruning` holds skips its quiet move `index` (ordering
    `score`; no capture, no check, no killer nor table move, not the first move): past
    (5 + depth^2) moves, half as many where the position is not `improving` (`rising`)
    (Stockfish's futility_move_count); or when the evaluation `static` plus a margin that grows
    with the depth left after the move's late-move reduction stays at or below alpha (the
    reduced depth says how much the move could still find)."""
    limit = (5 + depth * depth) // (1 if rising else 2)
    if index >= limit:
        return True
    reduced = depth - 1
    if reducing:
        reduced -= late_reduction(mode, depth, index, score)
    return reduced < 6 and static + margin * (1.0 + 0.75 * reduced) <= alpha


@njit(cache=True, inline="always")
def late_move_count(depth):
    """Moves a shallow scout searches before late-move pruning skips the quiet rest."""
    return 3 + depth * depth


@njit(cache=True, inline="always")
def null_reduction(mode, depth):
    """R, the plies a null move's search skips besides the move: 2, 3 from depth 7; with
    DEEP_NULL 3 + depth / 4 (4 from depth 4, 5 from depth 8), the shape of Stockfish's (its
    R grows by a ply every three of depth from 4, and more when the evaluation is far above
    beta)."""
    if mode & DEEP_NULL:
        return 3 + depth // 4
    return 3 if depth >= 7 else 2


@njit(cache=True, inline="always")
def reduces(mode, depth):
    """Whether a node `depth` deep may reduce any move (`late_reduction`): a game tests this
    before what costs it more (is the side to move in check?)."""
    return (mode & REDUCE) != 0 and depth >= REDUCE_MIN_DEPTH


@njit(cache=True, inline="always")
def late_reduction(mode, depth, index, score):
    """Plies to take off the search of move `index` (ordering `score`) at a node `depth` deep:
    1 for a quiet move (not the table's, no capture, no killer) from REDUCE_FROM_MOVE on, 2
    from six moves later at depth 6 or more (LOG_REDUCE: LOG_REDUCTIONS), one more with MALUS
    for a move whose history is below 0 from MALUS_MIN_DEPTH on, never more than depth - 1;
    0 where the engine asks for no reductions. The game adds its own exceptions (checks)."""
    if not reduces(mode, depth) or index < REDUCE_FROM_MOVE or score >= KILLER:
        return 0
    if mode & LOG_REDUCE:
        plies = max(1, LOG_REDUCTIONS[min(depth, 63), min(index, 63)])
    else:
        plies = 2 if depth >= 6 and index >= REDUCE_FROM_MOVE + 6 else 1
    if mode & MALUS and score < 0 and depth >= MALUS_MIN_DEPTH:
        plies += 1  # a move that failed where others cut off
    return min(plies, depth - 1)


# --- transposition table -------------------------------------------------------------------------

@njit(cache=True, inline="always")
def probe(tables, key):
    """The table slot holding `key`, or -1."""
    slot = key & (tables.table.shape[0] - 1)
    entry = tables.table[slot]
    if entry.filled and entry.key == key:
        return slot
    return -1


@njit(cache=True, inline="always")
def table_cutoff(tables, slot, depth, alpha, beta):
    """Whether the entry in `slot` settles a node searched `depth` deep with (alpha, beta)."""
    if slot < 0:
        return False
    entry = tables.table[slot]
    if entry.depth < depth:
        return False
    return entry.bound == EXACT or (entry.bound == LOWER and entry.value >= beta) or (
        entry.bound == UPPER and entry.value <= alpha)


@njit(cache=True, inline="always")
def store_node(tables, key, depth, best, alpha0, beta, best_move):
    """Keep a searched node (`best` is exact inside the window (alpha0, beta), else a bound)
    unless its slot holds a deeper search of another position (one entry a slot: entries of
    earlier moves that gave way to this move's searches scored worse, docs/speed.md)."""
    entry = tables.table[key & (tables.table.shape[0] - 1)]
    if entry.filled and entry.key != key and entry.depth > depth:
        return
    entry.filled = True
    entry.key = key
    entry.depth = depth
    entry.value = best
    entry.bound = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
    entry.move = best_move


# --- move ordering -------------------------------------------------------------------------------

@njit(cache=True)
def score_moves(board, moves, ply, n, squares, slot, tables, values):
    """Ordering scores for moves[ply, :n]; `values[kind]` is a piece type's worth (MVV-LVA);
    `slot` the node's table entry (-1: none) whose move goes first."""
    hash_move = tables.table[slot].move if slot >= 0 else -1
    killer0 = tables.killers[ply, 0]
    killer1 = tables.killers[ply, 1]
    history = tables.history
    for i in range(n):
        frm = moves[ply, i, 0]
        to = moves[ply, i, 1]
        move = frm * squares + to
        victim = abs(board[to])
        if move == hash_move:
            score = HASH_MOVE
        elif victim != 0:
            score = CAPTURE + 64 * values[victim] - values[abs(board[frm])]
        elif move == killer0:
            score = KILLER + 1
        elif move == killer1:
            score = KILLER
        else:
            score = min(history[move], KILLER - 1)
        moves[ply, i, 2] = score


@njit(cache=True, inline="always")
def keeps_sorting(mode, depth, score):
    """Whether a node `depth` plies from the leaves still sorts its moves after trying one of
    ordering `score`: always with SORT_QUIETS (late-move and futility pruning then skip the
    quiet moves with the least history), else past the table's move, captures and killers
    only 3 or more plies from the leaves (near them the quiet rest goes in generation
    order)."""
    return (mode & SORT_QUIETS) != 0 or depth > 2 or score >= KILLER


@njit(cache=True, inline="always")
def pick(moves, ply, i, n):
    """Swap the best-scored of moves[ply, i:n] into place i."""
    best = i
    for j in range(i + 1, n):
        if moves[ply, j, 2] > moves[ply, best, 2]:
            best = j
    if best != i:
        for k in range(3):
            moves[ply, i, k], moves[ply, best, k] = moves[ply, best, k], moves[ply, i, k]


@njit(cache=True, inline="always")
def take_value(tables, ply, i, move, value, best, best_move, alpha, beta, depth, quiet):
    """After move `i` (id `move`) of a node came back with `value`: the new best, best move
    and alpha, and whether alpha-beta cuts off here (then a quiet move becomes the ply's
    newest killer and earns history). At the root (ply 0) the counters keep the best move's
    index, and the last that raised alpha: a value above alpha is exact or a lower bound,
    so that move is proved better than the ones before it even if the call stops later."""
    if value > best:
        best = value
        best_move = move
        if ply == 0:
            tables.counters[ROOT_BEST] = i
    if value > alpha:
        alpha = value
        if ply == 0:
            tables.counters[ROOT_RAISED] = i
    cut = alpha >= beta
    if cut and quiet:
        killers = tables.killers
        if killers[ply, 0] != move:
            killers[ply, 1] = killers[ply, 0]
            killers[ply, 0] = move
        tables.history[move] += depth * depth
    return best, best_move, alpha, cut


@njit(cache=True, inline="always")
def punish_quiets(tables, moves, ply, i, squares, depth, mode):
    """With the MALUS bit, after move i of a node below the root cut off: each quiet move
    tried before it (ordering score under KILLER) loses the depth**2 that a cutoff earns, so
    that history ranks the quiet moves that fail as well as those that cut (Stockfish's
    history bonus and malus) and `late_reduction` can reduce the failing ones further."""
    if mode & MALUS and ply > 0:
        for j in range(i):
            if moves[ply, j, 2] < KILLER:
                tables.history[moves[ply, j, 0] * squares + moves[ply, j, 1]] -= depth * depth


# --- evaluation ----------------------------------------------------------------------------------

@njit(cache=True)
def evaluate(board, table, player):
    """The sum over occupied squares of table[cell + offset, square] (what the piece adds to
    player 0's score; offset = the largest piece type), from `player`'s side. Square order, as
    chesslike.material_and_position sums, so the floats agree bit for bit."""
    offset = table.shape[0] // 2
    score = 0.0
    for sq in range(board.shape[0]):
        if board[sq] != 0:
            score += table[board[sq] + offset, sq]
    return score if player == 0 else -score


fresh_cache(__name__)  # numba's disk cache notices edits to every file read here
