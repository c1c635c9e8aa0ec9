"""Minimax with alpha-beta pruning, iterative deepening and exact expectation at chance nodes.

The textbook algorithm (Russell & Norvig, ch. 5: alpha-beta; expectiminimax for chance) from
the point of view of the player to move at the root: it maximises at its own nodes, minimises
at the opponent's, and averages at chance nodes with the game's probabilities. The game's
heuristic scores the leaves. Then the tricks that make it fast, one line each:

- iterative deepening: search depth 1, 2, ... and keep the deepest *finished* iteration's move,
  so a clock can stop it at any time (seed 004: start at depth 4, step 2, while time remains);
- a transposition table: positions reached by different move orders are searched once;
- move ordering: the table's best move first, then captures, then killer moves that cut off at
  the same depth before, so that alpha-beta prunes early;
- a compiled search: where the game offers one (`Game.compiled_minimax`), each iteration runs
  in a numba kernel that returns the same values as the Python search without the table;
- quiescence search (`quiescence=true`, compiled only: `Game.compiled_quiescence`): leaves
  are extended by captures until quiet, so a leaf is never scored in the middle of a trade;
- the engine search's pruning (`quiescence=true` only, each a setting, on by default; a
  game's search leaves out what measured worse there: docs/speed.md#engine-search-ablation):
  null-move pruning (`null_move`), late-move reductions (`lmr`), aspiration windows at the
  root (`aspiration`), and an exact end-game solve near the end (`endgame`);
- time management: with a clock, iterations go on until nine tenths of the time is spent
  (or, with `predict`, while the next is expected to finish: the last one's time times the
  growth between the last two); one that runs out of time is abandoned, but a root move it
  had already proved better than the last iteration's best is played, as engines do, so the
  time it spent is not lost.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.agent import Agent, Clock
from ..core.alphabeta import (ASPIRATION, DEEP_NULL_MOVE, DEEP_PRUNING, ENDGAME, EXACT,
                              FUTILITY, HISTORY_MALUS_USE, LATE_LOSING_CAPTURES,
                              LATE_MOVE_PRUNING, LATE_MOVE_REDUCTIONS, LOWER, NULL_MOVE,
                              QUIET_CHECKS_USE, QUIET_TABLE_USE, SAFE_CHECK_EXTENSION,
                              SCOUT_DEPTH, SORTED_QUIETS, STATIC_EXCHANGE, STATIC_FROM_TABLE,
                              UPPER, WIN_VALUE)
from ..core.game import CHANCE, CompiledSearch, Game, ParseError, State
from .evaluation import pick_evaluator, terminal_value

NO_DEPTH_LIMIT = 1000
"""The deepest iteration of `depth=0`: beyond any game's length here."""
NEXT_ITERATION_SHARE = 0.9
"""With a clock, no new iteration once this share of the move's time is spent (`predict`
off, or too few iterations timed to predict). An unfinished iteration still counts where it
proved a better move, so starting one late costs nothing; at 0.5, before partial iterations
counted, the search used about half its time (docs/speed.md#time-management)."""
GROWTH = (2.0, 8.0)
"""`predict`: the least and the most an iteration is expected to cost over the one before
(the last ratio, clamped: the first iterations are answered from the table in no time)."""
PREDICT_FROM_SECONDS = 0.002
"""`predict`: an iteration shorter than this is too quick to time; the next one is started."""
NODE_BUDGET_SHARE = 0.85
"""A compiled iteration may search this share of the nodes the remaining time allows at the
rate measured so far (deeper iterations search slower nodes: the rest is the margin)."""
RATE_SAMPLE_SECONDS = 0.05
"""A move's node rate is remembered once it has searched this long: shorter is too noisy."""
STOP_MARGIN = 0.005
"""Seconds before the end of the move's time at which a compiled search is stopped: what
the move still costs after it (the principal variation, the reply's transport)."""
TIME_CHECK_EVERY = 256
"""Nodes between clock checks: often enough to stop on time, rarely enough to cost nothing."""


@dataclass
class MinimaxSettings:
    depth: int = 3
    """Deepest iteration in plies (chance nodes do not count as plies); 0 = no limit, the
    clock (`time` or the arena's) stops the search."""
    eval: str = ""
    """Name of the game's heuristic for leaves; empty = the game's `minimax` heuristic, or
    with `quiescence=true` its `engine` heuristic where it names one (the heuristic measured
    strongest at equal time: the game's rules page says which)."""
    eval_weights: str = ""
    """A weights file the heuristic reads in place of the one BoardLab ships (a network or
    table you trained; the game's rules page says which heuristics read one and what makes
    the file); empty: the shipped weights."""
    start_depth: int = 1
    """First iteration's depth (seed 004 uses 4)."""
    step: int = 1
    """Depth added per iteration (seed 004 uses 2)."""
    time: float = 0.0
    """Seconds per move, 0 = only the arena's clock (if any) limits the search."""
    tt: bool = True
    """Use a transposition table."""
    kernel: bool = True
    """Use the game's compiled search for this heuristic when it has one (same values)."""
    quiescence: bool = False
    """The game's compiled search with quiescence search, check extensions, table cutoffs and
    the pruning below (stronger, other values); on the games that offer it, the strongest
    player here is `minimax:depth=0,time=1,quiescence=true` with the pruning settings at
    their defaults (their rules pages; docs/speed.md#engine-search-ablation)."""
    null_move: bool = NULL_MOVE
    """With `quiescence=true`: null-move pruning (pass, search 2-3 plies shallower, cut if
    still at beta), not in check nor where the game's search expects zugzwang (a side with
    pawns alone; never in a game where passing is a real move)."""
    lmr: bool = LATE_MOVE_REDUCTIONS
    """With `quiescence=true`: late-move reductions (a quiet move late in the order, 3 or
    more plies from the leaves, is searched a ply shallower first, at full depth if it beats
    alpha), in the games whose search reduces (where it measured better: the game's search
    module)."""
    aspiration: bool = ASPIRATION
    """With `quiescence=true`: aspiration windows (each iteration first searches a narrow
    window around the last one's value, wider when it fails), in the games whose search sets
    a window (only where they measured better: the game's search module)."""
    futility: bool = FUTILITY
    """With `quiescence=true`: futility pruning near the leaves (a null-window node whose
    evaluation is a margin per ply above beta cuts at once; one a margin below alpha skips its
    quiet moves), in the games whose search sets a margin (where it measured better: the
    game's search module)."""
    lmp: bool = LATE_MOVE_PRUNING
    """With `quiescence=true`: late-move pruning (a null-window node at most 3 plies from the
    leaves, not in check, searches 3 + depth^2 moves, then no more quiet ones), in the games
    whose search prunes late moves (where it measured better: the game's search module)."""
    log_lmr: bool | None = None
    """With `quiescence=true` and `lmr`: reductions that grow with the logarithms of depth and
    move number (games/alphabeta.py LOG_REDUCTIONS) instead of one ply (two late at depth
    6); unset: as the game's search chooses, as measured there (`SearchMemory.log_reductions`)."""
    see: bool = STATIC_EXCHANGE
    """With `quiescence=true`: the quiescence search does not try a capture by a piece worth
    more than its victim on a square the other side defends (one step of a static exchange
    evaluation), in the games whose search offers it."""
    deep_null: bool = DEEP_NULL_MOVE
    """With `quiescence=true` and `null_move`: the null move's search is 3 + depth/4 plies
    shallower (Stockfish's shape) instead of 2 (3 from depth 7)."""
    scout_depth: int = SCOUT_DEPTH
    """With `quiescence=true`: futility and late-move pruning at null-window nodes at most
    this many plies from the leaves (0: none)."""
    quiet_table: bool = QUIET_TABLE_USE
    """With `quiescence=true`: the quiescence search reads and writes the transposition
    table (as searches of depth 0), in the games whose search offers it."""
    quiet_checks: bool = QUIET_CHECKS_USE
    """With `quiescence=true`: the quiescence search's first ply also tries quiet moves that
    give check, in the games whose search offers it."""
    history_malus: bool = HISTORY_MALUS_USE
    """With `quiescence=true`: the quiet moves tried before one that cuts off lose history
    (the depth squared that a cutoff earns), and with `lmr` a late quiet move whose history
    is below 0 is reduced one ply more."""
    sort_quiets: bool = SORTED_QUIETS
    """With `quiescence=true`: quiet moves are sorted by history at every depth, so that
    late-move and futility pruning near the leaves skip those with the least history (false:
    in generation order at 2 plies or fewer from the leaves)."""
    safe_checks: bool = SAFE_CHECK_EXTENSION
    """With `quiescence=true`: a move that gives check is searched a ply deeper only if the
    checking piece cannot be taken at once at a loss (false: every check), in the games whose
    search offers it."""
    late_losses: bool = LATE_LOSING_CAPTURES
    """With `quiescence=true`: a capture by a piece worth more than its victim onto a square
    the other side attacks is ordered after the killers (false: with the other captures, by
    MVV-LVA), in the games whose search offers it."""
    table_static: bool = STATIC_FROM_TABLE
    """With `quiescence=true`: null-move and futility pruning read the static evaluation
    bounded by the node's transposition-table entry (a bound that says the node is worth more,
    or less, replaces it), in the games whose search offers it."""
    deep_prune: bool = DEEP_PRUNING
    """With `quiescence=true`: at null-window nodes up to 7 plies from the leaves, not in
    check, quiet moves are skipped past 5 + depth^2 of them (half as many where the evaluation
    fell since the side's last move) or when the evaluation plus a margin for the depth left
    after the move's reduction stays below alpha, in the games whose search offers it."""
    endgame: int = ENDGAME
    """With `quiescence=true`: a root with at most this many moves left to the end (the
    game's measure, such as empty squares on a board that fills up) is solved exactly after
    two ordinary iterations, where the game's search has an end-game solver; 0: only as the
    search's own leaves do (the game's search module)."""
    predict: bool = False
    """With a clock: start an iteration only if it is predicted to finish (the last one's
    time times the growth between the last two), which saved a fifth to a third of the time
    a move; false: while less than nine tenths of the time is spent, which with a budget
    per move (unused time is lost) scored better (docs/speed.md#engine-search-ablation)."""

    def __post_init__(self) -> None:
        if self.time < 0:
            raise ValueError("time must be >= 0")
        if self.endgame < 0:
            raise ValueError("endgame must be >= 0")
        if not 0 <= self.scout_depth <= 15:
            raise ValueError("scout_depth must be between 0 and 15")
        if self.depth < 1 and not (self.depth == 0 and self.time > 0) or \
                self.start_depth < 1 or self.step < 1:
            raise ValueError("depth, start_depth and step must be at least 1 (depth=0, no "
                             "depth limit, goes with time=<seconds>)")


class _OutOfTime(Exception):
    """The clock stopped an iteration; `proved` is a root move it had already proved better
    than the last iteration's best (its value beat that move's at the new depth), or None."""

    def __init__(self, proved: int | None = None) -> None:
        super().__init__()
        self.proved = proved


class MinimaxAgent(Agent):
    name = "minimax"
    Settings = MinimaxSettings

    @classmethod
    def cannot_play(cls, game: Game) -> str | None:
        if game.num_players != 2:
            return "minimax searches two-player games only"
        return None

    def __init__(self, game: Game, settings: MinimaxSettings | None = None, **params) -> None:
        super().__init__(game, settings, **params)
        # The engine search's own default where the game names one (a heuristic measured
        # stronger at equal time, e.g. a tuned one), else the game's `minimax` heuristic.
        default = ("engine" if self.settings.quiescence and "engine" in game.evaluators
                   else "minimax")
        self.eval_name, self.evaluate = pick_evaluator(game, self.settings.eval, default)
        if self.settings.eval_weights:
            self.evaluate = game.evaluator_with_weights(self.eval_name,
                                                        self.settings.eval_weights)
        self.kernel = self._compiled_search()
        self._warm_up()
        self.table: dict[Any, tuple[int, float, int, int | None]] = {}
        self.killers: dict[int, list[int]] = {}
        self.info: dict[str, Any] = {}
        self.root_scores: dict[int, float] = {}
        self.peak_rate = 0.0  # compiled nodes/s, the best measured over RATE_SAMPLE_SECONDS

    def _compiled_search(self) -> CompiledSearch | None:
        """The game's compiled search for our heuristic, if it offers one (or we want one)."""
        game = self.game
        settings = self.settings
        if settings.quiescence:
            search = game.compiled_quiescence(self.eval_name, self.settings.eval_weights)
            if search is None:
                raise ParseError(f"minimax quiescence=true: {game.name} offers no compiled "
                                 f"quiescence search for heuristic {self.eval_name!r}")
            # The engine's pruning switches, where the search has them (games/alphabeta.py's
            # SearchMemory.configure; a search without them ignores the settings).
            configure = getattr(search, "configure", None)
            if configure is not None:
                configure(null_move=settings.null_move, lmr=settings.lmr,
                          aspiration=settings.aspiration, endgame=settings.endgame,
                          futility=settings.futility, lmp=settings.lmp,
                          log_lmr=settings.log_lmr, see=settings.see,
                          deep_null=settings.deep_null, scout_depth=settings.scout_depth,
                          quiet_table=settings.quiet_table,
                          quiet_checks=settings.quiet_checks,
                          history_malus=settings.history_malus,
                          sort_quiets=settings.sort_quiets, safe_checks=settings.safe_checks,
                          late_losses=settings.late_losses,
                          table_static=settings.table_static, deep_prune=settings.deep_prune)
            return search
        if settings.eval_weights:
            return None  # the plain compiled searches read only the shipped weights
        return game.compiled_minimax(self.eval_name) if settings.kernel else None

    def _warm_up(self) -> None:
        """One tiny compiled search now: numba loads its code on the first call, which would
        otherwise be charged to the first move's clock."""
        start = self.game.initial_state(0)
        if self.kernel is not None and start.current_player() >= 0:
            self.kernel(start, start.legal_actions()[:1], 1, start.current_player(), 1000)

    def start_game(self, player: int, seed: int) -> None:
        super().start_game(player, seed)
        if self.kernel is not None:
            # A compiled search may keep tables from move to move: new ones for a new game,
            # so that every game replays alone.
            self.kernel = self._compiled_search()

    def act(self, state: State, clock: Clock) -> int:
        settings = self.settings
        if settings.time > 0 and (clock.budget is None or settings.time < clock.remaining()):
            clock = Clock.start(settings.time)
        self.me = state.current_player()
        self.clock = clock
        self.nodes = 0
        self.table.clear()  # values are from this root player's view; keep memory bounded
        self.killers.clear()
        # A compiled search that can be stopped by a timer is, at the end of the move's time
        # (less a margin for what follows it): its node budget alone overran on a busy machine.
        stop_at = getattr(self.kernel, "stop_at", None)
        if stop_at is not None and clock.budget is not None:
            stop_at(clock.remaining() - STOP_MARGIN)
        try:
            best_action, best_value, finished_depth = self._deepen(state, clock)
        finally:
            if stop_at is not None:
                stop_at(None)
        self.info = {"depth": finished_depth, "value": best_value, "nodes": self.nodes,
                     "seconds": clock.elapsed(),
                     "heat": {"root score": {state.action_to_str(a): v
                                             for a, v in self.root_scores.items()}},
                     "pv": self._principal_variation(state, best_action)}
        return best_action

    def _deepen(self, state: State, clock: Clock) -> tuple[int, float, int]:
        """Iterative deepening: the best move, its value and the deepest finished depth."""
        settings = self.settings
        actions = state.legal_actions()
        self.rng.shuffle(actions)  # equal moves are chosen at random, seeded
        best_action, best_value, finished_depth = actions[0], float("-inf"), 0
        deepest = settings.depth or NO_DEPTH_LIMIT
        depth = min(settings.start_depth, deepest)
        durations: list[float] = []  # seconds of each finished iteration
        while True:
            started = clock.elapsed()
            try:
                best_action, best_value = self._root(state, actions, depth, best_action)
                finished_depth = depth
            except _OutOfTime as stop:
                if stop.proved is not None:  # a move the unfinished iteration proved better
                    best_action = stop.proved
                break
            durations.append(clock.elapsed() - started)
            if depth >= deepest or abs(best_value) >= 0.5 * WIN_VALUE or \
                    getattr(self.kernel, "solved", False):
                break  # deepest iteration done, the game decided, or the root solved
            if clock.budget is not None and not self._next_iteration_fits(clock, durations):
                break  # the next iteration would most likely be abandoned
            depth = min(depth + settings.step, deepest)
        return best_action, best_value, finished_depth

    def _next_iteration_fits(self, clock: Clock, durations: list[float]) -> bool:
        """Whether the next iteration is expected to end within the clock's budget: with
        `predict`, the last iteration's time times the last growth (clamped to GROWTH) fits
        in the time left; else (or before two iterations were timed) less than
        NEXT_ITERATION_SHARE of the budget is spent."""
        assert clock.budget is not None
        elapsed = clock.elapsed()
        if self.settings.predict and len(durations) >= 2:
            last, before = durations[-1], durations[-2]
            if last < PREDICT_FROM_SECONDS:
                return elapsed < clock.budget
            growth = min(max(last / max(before, 1e-6), GROWTH[0]), GROWTH[1])
            return elapsed + growth * last < clock.budget
        return elapsed <= NEXT_ITERATION_SHARE * clock.budget

    def last_info(self) -> dict[str, Any]:
        """depth finished, value (for the mover, in the heuristic's units), nodes, seconds;
        heat: each root move's score in the deepest finished iteration (exact for the best
        move, an upper bound for a move alpha-beta proved worse; the compiled search reports
        the best move only); pv: the expected line, from the transposition table."""
        return self.info

    def _principal_variation(self, state: State, first: int, longest: int = 8) -> list[str]:
        """`first`, then the table's best move at each position below, up to a chance node."""
        line: list[str] = []
        action = first
        while len(line) < longest:
            line.append(state.action_to_str(action))
            state = state.child(action)
            if state.is_terminal() or state.current_player() == CHANCE or not self.settings.tt:
                break
            entry = self.table.get(state.key())
            if entry is None or entry[3] is None:
                break
            action = entry[3]
        return line

    def _root(self, state: State, actions: list[int], depth: int,
              previous_best: int) -> tuple[int, float]:
        ordered = [previous_best] + [a for a in actions if a != previous_best]
        if self.kernel is not None:
            return self._compiled_root(state, ordered, depth)
        alpha, best_action = float("-inf"), previous_best
        scores = {}
        for action in ordered:
            try:
                value = self._value(state.child(action), depth - 1, alpha, float("inf"))
            except _OutOfTime:
                raise _OutOfTime(best_action if best_action != previous_best else None) from None
            scores[action] = value
            if value > alpha:
                alpha, best_action = value, action
        self.root_scores = scores  # only a finished iteration's: last_info's heat map
        return best_action, alpha

    def _compiled_root(self, state: State, ordered: list[int], depth: int) -> tuple[int, float]:
        """One iteration in the game's kernel, stopped by the timer `act` set (a kernel without
        `stop_at`: by a node budget that the remaining time allows)."""
        max_nodes = 2**62
        remaining = self.clock.remaining()
        if remaining <= 0:
            raise _OutOfTime
        if remaining != float("inf") and not hasattr(self.kernel, "stop_at"):
            # No timer can stop this search: a node budget stands in for the clock.
            rate = self.nodes / max(self.clock.elapsed(), 1e-3) if self.nodes else 2e5
            # The kernel's table outlives the move, so the first iterations are answered from
            # it in no time with few nodes, and a rate measured on them starves the next one
            # (seen on one game: 8 of 21 middle-game moves gave up after 0.01-0.06 s of 1 s).
            rate = max(rate, self.peak_rate)
            # Deeper iterations search slower nodes (more misses in the table): keep a margin.
            max_nodes = max(1000, int(NODE_BUDGET_SHARE * rate * remaining))
        # _root calls this only when self.kernel is a compiled search, never None.
        best_index, value, nodes, completed = self.kernel(  # type: ignore[misc]
            state, ordered, depth, self.me, max_nodes)
        self.nodes += nodes
        elapsed = self.clock.elapsed()
        if elapsed > RATE_SAMPLE_SECONDS:
            self.peak_rate = max(self.peak_rate, self.nodes / elapsed)
        if not completed:
            proved = getattr(self.kernel, "partial_best", -1)
            raise _OutOfTime(ordered[proved] if proved > 0 else None)
        self.root_scores = {ordered[best_index]: value}
        return ordered[best_index], value

    def _value(self, state: State, depth: int, alpha: float, beta: float) -> float:
        self.nodes += 1
        if self.nodes % TIME_CHECK_EVERY == 0 and self.clock.expired():
            raise _OutOfTime
        if state.is_terminal():
            return terminal_value(state, self.me)
        mover = state.current_player()
        if mover == CHANCE:
            # Expectation with a full window: a bound on one outcome says little of the mean.
            return sum(p * self._value(state.child(a), depth, float("-inf"), float("inf"))
                       for a, p in state.chance_outcomes())
        if depth <= 0:
            return self.evaluate(state, self.me)

        key = state.key() if self.settings.tt else None
        table_move = None
        if key is not None:
            entry = self.table.get(key)
            if entry is not None:
                stored_depth, value, bound, table_move = entry
                if stored_depth >= depth and (
                        bound == EXACT or (bound == LOWER and value >= beta)
                        or (bound == UPPER and value <= alpha)):
                    return value

        maximising = mover == self.me
        alpha0, beta0 = alpha, beta
        best = float("-inf") if maximising else float("inf")
        best_move = None
        for action in self._ordered(state, depth, table_move):
            value = self._value(state.child(action), depth - 1, alpha, beta)
            if maximising:
                if value > best:
                    best, best_move = value, action
                alpha = max(alpha, value)
            else:
                if value < best:
                    best, best_move = value, action
                beta = min(beta, value)
            if alpha >= beta:
                killers = self.killers.setdefault(depth, [])
                if action not in killers:
                    killers.insert(0, action)
                    del killers[2:]
                break

        if key is not None:
            bound = EXACT
            if best <= alpha0:
                bound = UPPER
            elif best >= beta0:
                bound = LOWER
            self.table[key] = (depth, best, bound, best_move)
        return best

    def _ordered(self, state: State, depth: int, table_move: int | None) -> list[int]:
        actions = state.legal_actions()
        killers = self.killers.get(depth, ())

        def priority(action: int) -> int:
            if action == table_move:
                return 0
            if state.is_capture(action):
                return 1
            return 2 if action in killers else 3

        return sorted(actions, key=priority)


@dataclass
class DeepeningSettings(MinimaxSettings):
    depth: int = 0
    """Deepest iteration; 0 = no limit, deepen until the clock runs out (as the seed does)."""
    start_depth: int = 4
    """First iteration's depth: seed 004's 4."""
    step: int = 2
    """Depth added per iteration: seed 004's 2."""
    time: float = 1.0
    """Seconds per move. The seed's framework kills the program at its limit and keeps the
    last move written, i.e. the deepest finished iteration's, which is what stopping at
    `time` gives; the seed does not say the limit, so 1 s (the arena's usual) is ours."""


class DeepeningAgent(MinimaxAgent):
    """Seed 004's iterative deepening: alpha-beta at depths 4, 6, 8, ... until time runs out.

    As the seed writes it: the game's `minimax` heuristic (seed 004's is a material count),
    the deepest finished iteration's move. The same search as
    `minimax:start_depth=4,step=2,depth=0,time=1`, under a name."""

    name = "deepening"
    Settings = DeepeningSettings
