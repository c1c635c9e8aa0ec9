"""The engine searches' pruning (games/alphabeta.py and the games' search.py, switched by the
minimax agent's `null_move`, `lmr`, `aspiration`, `futility`, `lmp` and `predict` settings):
each keeps what it must not change. Null-move pruning is never tried where zugzwang is likely
(pawn endings) nor ever in Reversi; futility and late-move pruning only at scouts near the
leaves, never in check; with all of it on, the engine still finds the same move and value as
without it on tactical positions (mates, winning captures); aspiration windows alone keep the
root's value; the settings reach the compiled search; an iteration predicted not to finish
is not started."""

from __future__ import annotations

import random

import numpy as np
import pytest

from boardlab import make_agent
from boardlab.core.registry import make_game
from boardlab.agents.minimax import NEXT_ITERATION_SHARE
from boardlab.core.alphabeta import EXACT, LOWER, UPPER
from boardlab.games.alphabeta import (CAPTURE, DEEP_NULL, DEEP_PRUNE, ENGINE, FUTILE, KILLER,
                                      LATE_LOSSES, LOG_REDUCE, LOSING_CAPTURE, MALUS, NO_LIMIT,
                                      NULL, PRUNE_LATE, QUIET_CHECKS, QUIET_TABLE, REDUCE,
                                      SAFE_CHECKS, SCOUT_SHIFT, SEE, STOPPED, TABLE_STATIC,
                                      deep_pruning, improving, late_move_count, late_reduction,
                                      new_tables, null_reduction, probe, prunes_quiet,
                                      punish_quiets, score_moves, shallow_scout, store_node,
                                      table_static)
from boardlab.games.minichess import search as minichess_search
from boardlab.games.reversi import search as reversi_search
from boardlab.games.xiangqi import search as xiangqi_search
from boardlab.games.xiangqi.actions import ACTION_FROM, ACTION_TO
from boardlab.testing import search_decision as decide

OFF = "null_move=false,lmr=false,aspiration=false,futility=false,lmp=false"
"""The engine search without the pruning: the reference."""
VARIANTS = ("null_move=true,lmr=false,aspiration=false,futility=false,lmp=false",
            "null_move=false,lmr=true,aspiration=false,futility=false,lmp=false",
            "null_move=false,lmr=false,aspiration=true,futility=false,lmp=false",
            "null_move=false,lmr=false,aspiration=false,futility=true,lmp=false",
            "null_move=false,lmr=false,aspiration=false,futility=false,lmp=true",
            "null_move=false,lmr=true,log_lmr=true,aspiration=false,futility=false,lmp=false",
            "null_move=true,deep_null=true,lmr=false,aspiration=false,futility=false,lmp=false",
            "null_move=false,lmr=false,aspiration=false,futility=true,lmp=true,scout_depth=6",
            "null_move=false,lmr=false,aspiration=false,futility=false,lmp=false,"
            "quiet_table=true",
            "null_move=true,lmr=true,aspiration=true,futility=true,lmp=true",
            "null_move=true,lmr=true,log_lmr=true,aspiration=true,futility=true,lmp=true",
            "null_move=false,lmr=true,aspiration=false,futility=false,lmp=false,"
            "history_malus=true",
            # quiet moves sorted by history: alone it only reorders; with late-move and
            # futility pruning it decides which quiet moves are skipped
            f"{OFF},sort_quiets=true",
            "null_move=true,lmr=true,aspiration=true,futility=true,lmp=true,sort_quiets=true",
            # losing captures after the killers (Xiangqi's search; MiniChess ignores it)
            "null_move=true,lmr=true,aspiration=true,futility=true,lmp=true,late_losses=true",
            # the evaluation bounded by the table, and quiet moves pruned up to 7 plies from
            # the leaves (Xiangqi's search; MiniChess ignores them)
            "null_move=true,lmr=true,aspiration=false,futility=true,lmp=true,table_static=true",
            f"{OFF},deep_prune=true",
            "null_move=true,lmr=true,aspiration=false,futility=true,lmp=true,table_static=true,"
            "deep_prune=true")
# (With all the pruning on, `history_malus` reorders quiet moves so that late-move pruning
# drops a refutation: at depth 4, 'r1bakabnr/9/nc2c4/p1p1p1pC1/8p/6P2/P1P1P3P/1C7/9/RNBAKABNR
# w' plays b2a2 for 9 instead of h6e6 for 7, docs/speed.md; it stays off by default.)

# Positions of seeded random games where the engine without pruning finds a forced win (depth
# 4 in MiniChess, 3 in Xiangqi) or wins material by a capture; and a mate in one.
MINICHESS_TACTICS = [
    "k4/5/1Q3/5/5/4K w",  # b4c5: the king cannot escape the queen
    "1k1nQ/1p3/1Rq2/2Pbp/P4/2B1K b - - 0 16",
    "k1b2/3P1/ppNqr/2B1Q/2P1P/R3K w - - 0 14",
    "k4/5/p1b2/1qQ2/1pP1P/3K1 b - - 0 21",
    "1qQnr/k4/p3p/PpP2/1PQBP/RN2K w - - 0 9",
    "k1r2/3pp/P3P/n1pbQ/P4/3RK b - - 0 21",
    "k1bn1/pq1p1/N1pB1/3PQ/R1r2/3K1 b - - 0 11",
    "k1bn1/p2p1/N1p2/2qPQ/3R1/3K1 w - - 0 14",
    "k1b1r/pp2p/3Pn/1Pq2/P2PP/RNQ1K b - - 0 6",
    "k4/5/2q2/5/2R2/4K w",  # c2c4: the queen hangs
    "k1bnr/pp1p1/2pqp/2N2/PPP1P/R1BQK w - - 0 4",
    "kq1nr/p1ppp/1P3/3b1/1PP1P/RNBQK w - - 0 4",
    "kq2r/pppbp/2np1/3PP/PPPQ1/RNB1K w - - 0 4",
    "k2qr/pppbP/2np1/4P/PPPQK/RNB2 b - - 0 6",
    "kqb1r/pp1pp/4n/1P1P1/P3P/RNBQK w - - 0 4",
    "k1b1r/1p1pp/pq3/PP1P1/1B1nP/2RQK w - - 0 9",
    "1k1nr/p1pp1/b3p/RqP1P/1P1PK/1NBQ1 w - - 0 9",
]
XIANGQI_TACTICS = [
    "3k5/9/4R4/9/9/9/9/9/9/4K4 w",  # mate in one
    "5k3/8n/b1na1a2b/2p3p1r/3RN1C1R/C5B1P/4P4/B3K4/N2p2c2/5A3 w - - 0 79",
    "5kn2/4a4/4ba3/1R7/n1b5r/2N1P1p1P/9/B3BK3/C6c1/3RpA3 b - - 0 106",
    "2n6/4k1r2/b2a5/pC3r3/1P2p2np/P3P3P/9/4BA3/R4K3/1NNR1A3 b - - 0 46",
    "2n6/4k4/b2R5/p1C6/1PnRP3P/P8/9/NN2BA3/5K3/5A2r b - - 0 61",
    "2bn5/5k3/9/1P2P3P/Pn7/9/2R3R2/4BA3/2CNK4/3r5 w - - 0 79",
    "9/R8/2n1bk3/2P1P3P/rn7/9/3R5/4BA3/2CNK4/9 w - - 0 84",
    "r1bakabnr/9/nc2c4/p1p1p1pC1/8p/6P2/P1P1P3P/1C7/9/RNBAKABNR w - - 0 4",
    "2bakab2/r8/n3c3n/C1p1p1p1r/8p/6PC1/P1P1P3P/1c2B4/9/RNBAKA1NR w - - 0 9",
    "2bakab2/r3c4/n7n/Ccp1p1p1r/7CP/6P2/P1P1P4/4B4/9/RNBAKA1NR b - - 0 11",
    "2bakab2/2n1c4/7Cn/r1p1p1p1r/8P/C5P2/P1P1P4/4B4/1c7/RNBAKA1NR w - - 0 14",
    "2bakab2/2n1c4/8n/2p1p1p1r/1r6P/3C2PC1/P1P1P1c2/3R5/R8/1NBAKABN1 w - - 0 24",
]


def engine(game, null_move: bool, lmr: bool = False, aspiration: bool = False,
           futility: bool = False, lmp: bool = False):
    search = game.compiled_quiescence("minimax")
    search.configure(null_move=null_move, lmr=lmr, aspiration=aspiration, futility=futility,
                     lmp=lmp)
    return search


def random_positions(game, count: int, seed: int) -> list:
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.initial_state()
        stop = rng.randrange(6, 40)
        while not state.is_terminal() and state.move_number() < stop:
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            found.append(state)
    return found


@pytest.mark.parametrize("name,texts,depths", [("minichess", MINICHESS_TACTICS, (2, 3, 4, 5)),
                                               ("xiangqi", XIANGQI_TACTICS, (2, 3, 4))])
def test_pruning_keeps_the_move_and_value_on_tactical_positions(name, texts, depths):
    game = make_game(name)
    # The game's `minimax` heuristic (MiniChess: material), whose coarse values these
    # positions were chosen with; a reduction may move a finer evaluation's value a little.
    for depth in depths:
        for text in texts:
            state = game.state_from_text(text)
            spec = f"minimax:depth={depth},quiescence=true,eval=minimax"
            reference = decide(f"{spec},{OFF}", state)
            for variant in VARIANTS:
                found = decide(f"{spec},{variant}", state)
                assert found == reference, (depth, text, variant, reference, found)


@pytest.mark.parametrize("name,texts,depths", [("minichess", MINICHESS_TACTICS, (2, 3, 4, 5)),
                                               ("xiangqi", XIANGQI_TACTICS, (2, 3, 4))])
def test_static_exchange_pruning_keeps_the_move_on_tactical_positions(name, texts, depths):
    """The quiescence search's static exchange pruning (`see`) is a heuristic: a defended
    victim may still be worth taking (an overloaded or pinned defender), so a value may move;
    on these positions the move found stays the same, and so does every value where no
    losing capture arises."""
    game = make_game(name)
    changed = 0
    for depth in depths:
        for text in texts:
            state = game.state_from_text(text)
            spec = f"minimax:depth={depth},quiescence=true,eval=minimax,{OFF}"
            reference, found = decide(spec, state), decide(f"{spec},see=true", state)
            assert found[0] == reference[0], (depth, text, reference, found)
            changed += found[1] != reference[1]
    assert changed < len(depths) * len(texts) // 4


def test_the_mates_in_one_are_found_with_all_the_pruning_on():
    minichess = make_game("minichess").state_from_text(MINICHESS_TACTICS[0])
    assert decide("minimax:depth=3,quiescence=true", minichess) == ("b4c5", 1_000_000.0 - 2)
    xiangqi = make_game("xiangqi").state_from_text(XIANGQI_TACTICS[0])
    assert decide("minimax:depth=3,quiescence=true", xiangqi)[1] == 1_000_000.0 - 1


@pytest.mark.parametrize("name,text,depth", [
    ("minichess", "k4/ppp2/5/5/2PPP/4K w", 10),
    ("minichess", "4k/p1p2/1p3/3P1/P3P/K4 b", 10),
    ("minichess", "k4/1p3/5/1P3/5/4K w", 12),
    ("minichess", "2k2/5/p1p2/P1P2/5/2K2 w", 12),
    ("xiangqi", "3k5/9/9/9/2p1p4/4P4/9/9/9/5K3 w", 6),
    ("xiangqi", "3aka3/9/4b4/4p4/9/2P3P2/9/4B4/4A4/3AK4 b", 6),
])
def test_null_move_keeps_the_value_of_pawn_endings(name, text, depth):
    # Neither side may pass here (a pawn that promotes in MiniChess gives its side a queen
    # that may): zugzwang stays visible, so the value is the one without null moves.
    game = make_game(name)
    state = game.state_from_text(text)
    args = (state, state.legal_actions(), depth, state.current_player(), NO_LIMIT)
    with_null = engine(game, null_move=True)(*args)
    without = engine(game, null_move=False)(*args)
    assert with_null[1] == without[1] and with_null[3] and without[3]


def test_futility_and_late_move_pruning_only_at_scouts_near_the_leaves():
    scout = (4.0, np.nextafter(4.0, np.inf))  # a null window
    three = 3 << SCOUT_SHIFT  # the scout depth by default
    assert shallow_scout(three, 3, 3, *scout)
    assert not shallow_scout(three, 0, 3, *scout)  # the root
    assert not shallow_scout(three, 3, 4, *scout)  # too far from the leaves
    assert shallow_scout(6 << SCOUT_SHIFT, 3, 6, *scout)  # unless the scout depth reaches
    assert not shallow_scout(0, 3, 1, *scout)  # scout depth 0: nowhere
    assert not shallow_scout(three, 3, 3, 4.0, 9.0)  # the principal variation
    win = 1_000_000.0 - 7
    assert not shallow_scout(three, 3, 3, win, np.nextafter(win, np.inf))  # a mate's bound
    assert [late_move_count(d) for d in (1, 2, 3)] == [4, 7, 12]


@pytest.mark.parametrize("text,depth", [
    ("k4/5/1Q3/5/5/4K w", 5),  # a mate to find
    ("k4/5/4q/5/3P1/2RBK w", 6),  # our king attacked by the queen: no pruning there
    ("2k2/1p3/2p2/5/1NP2/2K2 b", 8),
])
def test_futility_and_late_move_pruning_keep_the_value_of_checks_and_mates(text, depth):
    game = make_game("minichess")
    state = game.state_from_text(text)
    args = (state, state.legal_actions(), depth, state.current_player(), NO_LIMIT)
    pruned = deepen(engine(game, null_move=False, futility=True, lmp=True), state, depth)
    plain = deepen(engine(game, null_move=False), state, depth)
    assert pruned == plain, args[0].to_text()


def test_the_null_move_hooks_refuse_pawn_endings():
    board = np.asarray(make_game("minichess").state_from_text("k4/ppp2/5/5/2PPN/4K w").board,
                       dtype=np.int8)
    assert minichess_search.null_move_allowed(board, 0)  # a knight
    assert not minichess_search.null_move_allowed(board, 1)  # pawns and the king
    xiangqi = make_game("xiangqi")
    board = np.asarray(xiangqi.state_from_text(
        "3aka3/9/4b4/4p4/9/2P3P2/9/4B4/4A4/3AK4 b").board, dtype=np.int8)
    assert not xiangqi_search.null_move_allowed(board, 0)
    assert not xiangqi_search.null_move_allowed(board, 1)
    board = np.asarray(xiangqi.initial_state().board, dtype=np.int8)
    assert xiangqi_search.null_move_allowed(board, 0)
    assert xiangqi_search.null_move_allowed(board, 1)


def test_reversi_never_uses_null_move():
    game = make_game("reversi")
    assert reversi_search.NULL_MOVE_PRUNING is False
    for state in random_positions(game, 8, seed=3):
        args = (state, state.legal_actions(), 5, state.current_player(), NO_LIMIT)
        on, off = engine(game, null_move=True)(*args), engine(game, null_move=False)(*args)
        assert on == off, state.to_text()  # the same move, value and node count


def deepen(search, state, depth: int) -> tuple[int, float]:
    """The best root index and value after iterations 1..depth, as the agent runs them."""
    for iteration in range(1, depth + 1):
        best, value, _, completed = search(state, state.legal_actions(), iteration,
                                           state.current_player(), NO_LIMIT)
        assert completed
    return best, value


@pytest.mark.parametrize("name,depth,window", [("minichess", 6, 1.0), ("xiangqi", 4, 10.0),
                                               ("reversi", 6, None)])
def test_aspiration_windows_alone_keep_the_root_value(name, depth, window):
    # The chess-likes search without aspiration (it measured worse there), but keep the code
    # path: switched on with a window of half a pawn or a soldier, it changes no value.
    game = make_game(name)
    for state in random_positions(game, 6, seed=5):
        narrow = game.compiled_quiescence("minimax")
        if window is not None:
            narrow.window = window
        narrow.configure(null_move=False, lmr=False, aspiration=True, futility=False,
                         lmp=False)
        assert narrow.aspiration
        full = engine(game, null_move=False)
        assert deepen(narrow, state, depth) == deepen(full, state, depth), state.to_text()


def test_an_aspiration_window_widens_on_the_side_that_failed():
    search = engine(make_game("reversi"), null_move=False, aspiration=True)
    search.guess = 5.0
    w = search.window
    windows = []
    answers = iter([5 + w, 5 + 8 * w, 5 + 10 * w])  # fails high twice, then lands inside

    def window_search(alpha, beta):
        windows.append((alpha, beta))
        return next(answers)
    search.tables.counters[STOPPED] = 0
    assert search.search(window_search) == 5 + 10 * w
    assert windows == [(5 - w, 5 + w), (5 - w, 5 + 8 * w), (5 - w, np.inf)]
    search.guess = None  # no earlier iteration at this root: the full window
    windows.clear()
    answers = iter([3.0])
    assert search.search(window_search) == 3.0 and windows == [(-np.inf, np.inf)]


def test_log_shaped_reductions_grow_with_depth_and_move_number_and_keep_a_ply():
    log = REDUCE | LOG_REDUCE
    assert [late_reduction(log, 3, i, 0) for i in (2, 3, 8)] == [0, 1, 1]
    assert [late_reduction(log, 10, i, 0) for i in (3, 10, 30)] == [1, 3, 4]
    assert late_reduction(REDUCE, 10, 30, 0) == 2  # the fixed reductions: at most two
    assert late_reduction(log, 10, 30, KILLER) == 0  # a killer is never reduced
    # never below one ply left: the reduced search still makes the move and looks at it
    assert all(late_reduction(log, d, i, 0) <= d - 1 for d in range(3, 64) for i in range(64))
    assert late_reduction(log, 63, 63, 0) == int(0.5 + np.log(63) ** 2 / 2)


def test_the_history_malus_reduces_moves_that_failed_one_ply_more():
    assert late_reduction(REDUCE | MALUS, 6, 5, -1) == late_reduction(REDUCE, 6, 5, -1) + 1 == 2
    assert late_reduction(REDUCE | MALUS, 6, 5, 0) == 1  # no worse than never tried
    assert late_reduction(REDUCE | MALUS, 5, 5, -1) == 1  # not near the leaves
    assert late_reduction(REDUCE | MALUS | LOG_REDUCE, 6, 60, -1) <= 5  # one ply left at least
    assert late_reduction(REDUCE | MALUS, 10, 30, KILLER) == 0


def test_the_history_malus_takes_from_the_quiet_moves_tried_before_a_cutoff():
    tables = new_tables(30)
    moves = np.zeros((4, 8, 3), dtype=np.int64)
    # At ply 1: a capture, two quiet moves, then the quiet move that cut off.
    for i, (frm, to, score) in enumerate([(0, 1, CAPTURE), (2, 3, 5), (4, 5, 0), (6, 7, 0)]):
        moves[1, i] = (frm, to, score)
    punish_quiets(tables, moves, 1, 3, 30, 4, ENGINE)  # the bit off: nothing
    assert not tables.history.any()
    punish_quiets(tables, moves, 1, 3, 30, 4, ENGINE | MALUS)
    assert tables.history[2 * 30 + 3] == tables.history[4 * 30 + 5] == -16
    assert tables.history[1] == 0 and tables.history[6 * 30 + 7] == 0  # the capture, the cut
    punish_quiets(tables, moves, 0, 3, 30, 4, ENGINE | MALUS)  # the root's order is its own
    assert tables.history.sum() == -32


def test_a_deep_null_move_reduction_grows_with_depth():
    assert [null_reduction(NULL, d) for d in (2, 6, 7, 12)] == [2, 2, 3, 3]
    assert [null_reduction(NULL | DEEP_NULL, d) for d in (2, 4, 8, 12)] == [3, 4, 5, 6]


def test_the_settings_reach_the_compiled_search():
    game = make_game("minichess")
    agent = make_agent("minimax:quiescence=true", game)
    switches = (1 << SCOUT_SHIFT) - 1
    assert agent.kernel.mode & switches == ENGINE | NULL | REDUCE | FUTILE | PRUNE_LATE
    assert agent.kernel.mode >> SCOUT_SHIFT == 3
    agent = make_agent("minimax:quiescence=true,null_move=false,lmr=false,futility=false,"
                       "lmp=false", game)
    agent.start_game(0, 0)  # a new game's search keeps the settings
    assert agent.kernel.mode & switches == ENGINE
    assert make_agent("minimax:quiescence=true,scout_depth=5",
                      game).kernel.mode >> SCOUT_SHIFT == 5
    assert make_agent("minimax:quiescence=true,deep_null=true", game).kernel.mode & DEEP_NULL
    assert not make_agent("minimax:quiescence=true,deep_null=true,null_move=false",
                          game).kernel.mode & DEEP_NULL
    assert make_agent("minimax:quiescence=true,quiet_table=true",
                      make_game("xiangqi")).kernel.mode & QUIET_TABLE
    assert not make_agent("minimax:quiescence=true,quiet_table=true",  # only Xiangqi's has it
                          game).kernel.mode & QUIET_TABLE
    with pytest.raises(ValueError, match="scout_depth"):
        make_agent("minimax:quiescence=true,scout_depth=16", game)
    assert make_agent("minimax:quiescence=true,quiet_checks=true",
                      make_game("xiangqi")).kernel.mode & QUIET_CHECKS
    assert not make_agent("minimax:quiescence=true,quiet_checks=true",  # Xiangqi's alone
                          game).kernel.mode & QUIET_CHECKS
    assert make_agent("minimax:quiescence=true,history_malus=true", game).kernel.mode & MALUS
    assert not agent.kernel.mode & MALUS

    assert make_agent("minimax:quiescence=true,log_lmr=true", game).kernel.mode & LOG_REDUCE
    assert not make_agent("minimax:quiescence=true,log_lmr=true,lmr=false",
                          game).kernel.mode & LOG_REDUCE
    assert make_agent("minimax:quiescence=true,see=true", game).kernel.mode & SEE
    assert make_agent("minimax:quiescence=true,see=true", make_game("xiangqi")).kernel.mode & SEE
    assert not make_agent("minimax:quiescence=true,see=true",  # only where a search has it
                          make_game("reversi")).kernel.mode & SEE
    # Futility and late-move pruning only where the game's search sets them (not Reversi)
    xiangqi = make_agent("minimax:quiescence=true", make_game("xiangqi")).kernel.mode
    assert xiangqi & FUTILE and xiangqi & PRUNE_LATE
    reversi_mode = make_agent("minimax:quiescence=true", make_game("reversi")).kernel.mode
    assert not reversi_mode & (FUTILE | PRUNE_LATE)
    assert make_agent("minimax:depth=2", game).kernel.mode == 0  # the plain search: none
    # Aspiration where the game's search has a window (Reversi's), the end-game solve.
    reversi = make_game("reversi")
    assert make_agent("minimax:quiescence=true", reversi).kernel.aspiration
    assert not make_agent("minimax:quiescence=true", reversi).kernel.mode & REDUCE
    assert not make_agent("minimax:quiescence=true", game).kernel.aspiration
    agent = make_agent("minimax:quiescence=true,aspiration=false,endgame=12", reversi)
    assert not agent.kernel.aspiration and agent.kernel.endgame == 12


class StoppedClock:
    """A clock read at a fixed moment."""

    def __init__(self, budget: float, elapsed: float) -> None:
        self.budget, self._elapsed = budget, elapsed

    def elapsed(self) -> float:
        return self._elapsed


def test_an_iteration_predicted_not_to_finish_is_not_started():
    game = make_game("minichess")
    agent = make_agent("minimax:depth=0,time=1,quiescence=true,predict=true", game)
    # The last iteration took 0.04 s, four times the one before: the next is expected to take
    # 0.16 s.
    durations = [0.01, 0.04]
    assert agent._next_iteration_fits(StoppedClock(0.3, 0.06), durations)
    assert not agent._next_iteration_fits(StoppedClock(0.2, 0.06), durations)
    # Growth is clamped (at least 2x, at most 8x), and too short an iteration is not timed.
    assert not agent._next_iteration_fits(StoppedClock(0.065, 0.03), [0.02, 0.02])
    assert agent._next_iteration_fits(StoppedClock(1.0, 0.5), [0.0001, 0.001])
    # Without `predict` (or before two iterations): only before NEXT_ITERATION_SHARE of the
    # time is spent.
    old = make_agent("minimax:depth=0,time=1,quiescence=true,predict=false", game)
    share = NEXT_ITERATION_SHARE
    assert old._next_iteration_fits(StoppedClock(0.2, 0.2 * share - 0.01), durations)
    assert not old._next_iteration_fits(StoppedClock(0.2, 0.2 * share + 0.01), durations)
    assert not agent._next_iteration_fits(StoppedClock(0.2, 0.2 * share + 0.01), [0.04])


@pytest.mark.parametrize("name", ["minichess", "xiangqi", "reversi"])
def test_a_stopped_iteration_names_only_a_move_it_proved_better(name):
    """A call stopped by its node budget reports a root move (`partial_best`) only if that
    move's exact value at the call's depth beats the first move's (the last iteration's best,
    searched first): checked against each move searched alone to the end, plain mode."""
    game = make_game(name)
    rng = random.Random(3)
    depth = {"minichess": 4, "xiangqi": 3, "reversi": 4}[name]
    proved = 0
    for seed in range(6):
        state = game.initial_state(seed)
        for _ in range(rng.randrange(4, 12)):
            state = state.child(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        actions = state.legal_actions()
        rng.shuffle(actions)
        me = state.current_player()

        def alone(action, state=state, me=me):
            return game.compiled_minimax("minimax")(state, [action], depth, me, NO_LIMIT)[1]

        full = game.compiled_minimax("minimax")
        nodes = full(state, actions, depth, me, NO_LIMIT)[2]
        for share in (0.2, 0.4, 0.6, 0.8, 0.95):
            search = game.compiled_minimax("minimax")
            completed = search(state, actions, depth, me, int(share * nodes))[3]
            if completed:
                continue
            if search.partial_best > 0:
                proved += 1
                assert alone(actions[search.partial_best]) > alone(actions[0])
    assert proved > 0, "no stopped call proved a move: the test saw nothing"


def test_quiet_checks_find_a_mate_behind_the_horizon():
    # At depth 1 the quiescence search's captures miss a mate in two by quiet checks; with
    # `quiet_checks` its first ply tries them and finds what depth 3 finds (a seeded random
    # game's position).
    state = make_game("xiangqi").state_from_text(
        "1nba1kb2/5r3/4r4/4p3C/2P6/p5P2/4P3P/4B2R1/1c2N2C1/1RBAKc1N1 w - - 0 37")
    plain = decide("minimax:depth=1,quiescence=true", state)
    checks = decide("minimax:depth=1,quiescence=true,quiet_checks=true", state)
    assert plain[1] < 1000 and checks[1] > 999_000
    assert checks == decide("minimax:depth=3,quiescence=true", state)


def assert_xiangqi_moves_kept(setting: str) -> None:
    """With `setting` on, the Xiangqi tactical positions keep the move of the search without
    pruning at depths 2 and 3, unless a win is found."""
    game = make_game("xiangqi")
    for depth in (2, 3):
        for text in XIANGQI_TACTICS:
            state = game.state_from_text(text)
            spec = f"minimax:depth={depth},quiescence=true,eval=minimax,{OFF}"
            reference = decide(spec, state)
            found = decide(f"{spec},{setting}", state)
            assert found[0] == reference[0] or found[1] > 999_000, (depth, text, found)


def test_quiet_checks_keep_the_move_on_tactical_positions():
    # They look further (a check that wins material, or mates, past the horizon), so values
    # may change; the moves stay those of the plain search, unless a win is found.
    assert_xiangqi_moves_kept("quiet_checks=true")


def test_a_check_that_gives_its_piece_away_is_not_extended():
    game = make_game("xiangqi")
    # Red's chariot checks from e9 next to black's general (which takes it): it hangs; from
    # i9 nothing attacks it: it does not.
    board = np.asarray(game.state_from_text("3kR4/9/9/9/9/9/9/9/9/4K4 b").board,
                       dtype=np.int8)
    to = int(np.flatnonzero(board == 5)[0])  # the chariot (rules.CHARIOT)
    assert xiangqi_search._hangs(board, 0, to, board[to], 0)
    assert not xiangqi_search._hangs(board, 0, to, board[to], -5)  # it took a chariot there
    board = np.asarray(game.state_from_text("3k4R/9/9/9/9/9/9/9/9/4K4 b").board,
                       dtype=np.int8)
    to = int(np.flatnonzero(board == 5)[0])
    assert not xiangqi_search._hangs(board, 0, to, board[to], 0)
    mode = make_agent("minimax:quiescence=true,safe_checks=true", game).kernel.mode
    assert mode & SAFE_CHECKS
    assert not make_agent("minimax:quiescence=true,safe_checks=true",  # Xiangqi's alone
                          make_game("minichess")).kernel.mode & SAFE_CHECKS


def test_checks_extended_only_when_safe_keep_the_mates_and_the_moves():
    game = make_game("xiangqi")
    assert decide("minimax:depth=3,quiescence=true,safe_checks=true",
                  game.state_from_text(XIANGQI_TACTICS[0]))[1] == 1_000_000.0 - 1
    # Values may change (a check that gives its piece away is searched a ply less).
    assert_xiangqi_moves_kept("safe_checks=true")


def test_captures_that_give_material_away_go_after_the_killers():
    game = make_game("xiangqi")
    # Red's chariot on a4 may take the soldier on a6 (defended by the chariot on a9: a loss)
    # or the soldier on e4 (undefended); red's soldier on c5 takes one of its own worth.
    state = game.state_from_text("r3k4/9/9/p1p6/2P6/R3p4/9/9/9/4K4 w")
    board = np.asarray(state.board, dtype=np.int64)
    actions = state.legal_actions()
    moves = np.zeros((2, len(actions), 3), dtype=np.int64)
    search = game.compiled_quiescence("minimax")
    for i, action in enumerate(actions):
        moves[0, i, :2] = ACTION_FROM[action], ACTION_TO[action]
    score_moves(board, moves, 0, len(actions), 90, -1, search.tables, xiangqi_search.ORDER_VALUES)
    xiangqi_search._demote_losing_captures(board, 0, moves, 0, len(actions))
    scores = {state.action_to_str(a): moves[0, i, 2] for i, a in enumerate(actions)}
    assert scores["a4a6"] == LOSING_CAPTURE
    assert scores["a4e4"] >= CAPTURE and scores["c5c6"] >= CAPTURE
    assert make_agent("minimax:quiescence=true,late_losses=true", game).kernel.mode & LATE_LOSSES
    assert not make_agent("minimax:quiescence=true", game).kernel.mode & LATE_LOSSES
    assert not make_agent("minimax:quiescence=true,late_losses=true",  # Xiangqi's alone
                          make_game("minichess")).kernel.mode & LATE_LOSSES


def test_the_table_bounds_the_static_evaluation_only_where_it_knows_better():
    tables = new_tables(90, table_bits=4)
    key = 21
    assert table_static(TABLE_STATIC, tables, probe(tables, key), 5.0) == 5.0  # no entry
    store_node(tables, key, 3, 9.0, 0.0, 8.0, -1)  # at least 9: a lower bound
    slot = probe(tables, key)
    assert tables.table[slot]["bound"] == LOWER
    assert table_static(TABLE_STATIC, tables, slot, 5.0) == 9.0
    assert table_static(TABLE_STATIC, tables, slot, 12.0) == 12.0  # says nothing against 12
    assert table_static(0, tables, slot, 5.0) == 5.0  # the setting off
    store_node(tables, key, 3, 2.0, 4.0, 8.0, -1)  # at most 2: an upper bound
    assert tables.table[slot]["bound"] == UPPER
    assert table_static(TABLE_STATIC, tables, slot, 5.0) == 2.0
    assert table_static(TABLE_STATIC, tables, slot, 1.0) == 1.0
    store_node(tables, key, 3, 6.0, 4.0, 8.0, -1)
    assert tables.table[slot]["bound"] == EXACT
    assert table_static(TABLE_STATIC, tables, slot, 1.0) == 6.0
    store_node(tables, key, 3, 1_000_000.0 - 9, 4.0, 8.0, -1)  # a win is the search's
    assert table_static(TABLE_STATIC, tables, slot, 1.0) == 1.0


def test_improving_compares_the_same_side_two_plies_apart():
    tables = new_tables(90, table_bits=4)
    assert improving(tables, 0, np.nan) and improving(tables, 1, 3.0)
    assert improving(tables, 2, 4.0)  # unknown at the root: taken as improving
    assert not improving(tables, 3, 2.0)  # 2 after 3
    assert improving(tables, 4, 5.0) and not improving(tables, 6, 5.0)  # equal: not
    assert improving(tables, 5, np.nan)  # in check: unknown
    assert improving(tables, 7, -8.0)


def test_deep_pruning_reaches_seven_plies_and_counts_moves_by_improving():
    scout = (4.0, np.nextafter(4.0, np.inf))
    assert deep_pruning(DEEP_PRUNE, 3, 7, *scout)
    assert not deep_pruning(DEEP_PRUNE, 3, 8, *scout)
    assert not deep_pruning(DEEP_PRUNE, 0, 3, *scout)  # the root
    assert not deep_pruning(DEEP_PRUNE, 3, 3, 4.0, 9.0)  # the principal variation
    assert not deep_pruning(0, 3, 3, *scout)
    high = 100.0  # an evaluation far above alpha: only the move count prunes
    # 5 + depth^2 moves where improving, half as many where not
    assert [min(i for i in range(60) if prunes_quiet(0, high, 20.0, d, i, 0, True, 4.0, False))
            for d in (1, 4, 7)] == [6, 21, 54]
    assert [min(i for i in range(60) if prunes_quiet(0, high, 20.0, d, i, 0, False, 4.0, False))
            for d in (1, 4, 7)] == [3, 10, 27]
    # below alpha by more than a margin for the depth left after the move's reduction
    assert prunes_quiet(0, 4.0 - 20.0 * (1 + 0.75 * 3), 20.0, 4, 1, 0, True, 4.0, False)
    assert not prunes_quiet(0, 4.0 - 20.0 * (1 + 0.75 * 3) + 1, 20.0, 4, 1, 0, True, 4.0,
                            False)
    log = REDUCE | LOG_REDUCE  # reduced 2 plies at depth 7, move 10: 4 plies left, not 6
    assert late_reduction(log, 7, 10, 0) == 2
    assert prunes_quiet(log, 4.0 - 20.0 * (1 + 0.75 * 4), 20.0, 7, 10, 0, True, 4.0, True)
    assert not prunes_quiet(0, 4.0 - 20.0 * (1 + 0.75 * 4), 20.0, 7, 10, 0, True, 4.0, True)


def test_deep_pruning_and_the_table_bound_reach_only_the_searches_that_have_them():
    xiangqi = make_agent("minimax:quiescence=true,table_static=true,deep_prune=true",
                         make_game("xiangqi")).kernel.mode
    assert xiangqi & TABLE_STATIC and xiangqi & DEEP_PRUNE and xiangqi >> SCOUT_SHIFT == 3
    minichess = make_agent("minimax:quiescence=true,table_static=true,deep_prune=true",
                           make_game("minichess")).kernel.mode
    assert not minichess & (TABLE_STATIC | DEEP_PRUNE)


def test_deep_pruning_keeps_the_mates_and_the_moves():
    game = make_game("xiangqi")
    assert decide("minimax:depth=4,quiescence=true,table_static=true,deep_prune=true",
                  game.state_from_text(XIANGQI_TACTICS[0]))[1] == 1_000_000.0 - 1
    assert_xiangqi_moves_kept("table_static=true,deep_prune=true")
