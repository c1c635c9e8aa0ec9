"""The numbers every alpha-beta search here shares, defined once: the Python `minimax` agent
(agents/minimax.py, agents/evaluation.py) and the games' compiled searches (games/alphabeta.py
and the kernels that search) import them from this module, the lowest layer both may import
(docs/design.md#layers).

The compiled searches read them as numba globals, frozen into the machine code when a kernel
compiles; core/kernelcache.py makes the kernels' disk cache notice an edit here.
"""

from __future__ import annotations

WIN_VALUE = 1_000_000.0
"""A won game's value for the winner; a heuristic stays far below it. A search scores a win
reached after `plies` plies WIN_VALUE - plies (a loss the negative), so a quick win beats a
slow one (agents/evaluation.py's `terminal_value`)."""

EXACT, LOWER, UPPER = 0, 1, 2
"""Transposition-table bounds: the stored value is exact, a lower or an upper bound."""

NULL_MOVE, LATE_MOVE_REDUCTIONS, ASPIRATION = True, True, True
"""The engine searches' (`minimax:quiescence=true`) pruning switches by default, the minimax
agent's `null_move`, `lmr` and `aspiration` settings. A game's search leaves out what measured
worse there or does not apply (its aspiration window 0, no reductions, no null move; each
game's search.py, docs/speed.md#engine-search-ablation)."""
FUTILITY = True
"""The engine searches' futility pruning by default (the minimax agent's `futility`), in the
games whose search sets a margin (games/alphabeta.py `SearchMemory.futility_margin`)."""
LATE_MOVE_PRUNING = True
"""The engine searches' late-move pruning by default (the minimax agent's `lmp`), in the games
whose search prunes late moves (games/alphabeta.py `SearchMemory.prunes_late`)."""
LOG_LATE_MOVE_REDUCTIONS = False
"""The engine searches' log-shaped late-move reductions where a game's search does not choose
otherwise (games/alphabeta.py `SearchMemory.log_reductions`; the minimax agent's `log_lmr`
overrides it): off; a game's search that measured better with them turns them on
(docs/speed.md#engine-search-ablation)."""
DEEP_NULL_MOVE = False
"""The engine searches' null-move reduction by default (the minimax agent's `deep_null`): a
fixed 2-3 plies (False) or one that grows with depth (True, games/alphabeta.py
`null_reduction`)."""
SCOUT_DEPTH = 3
"""The engine searches' reach of futility and late-move pruning by default (the minimax
agent's `scout_depth`): nodes at most this many plies from the leaves."""
QUIET_TABLE_USE = False
"""The quiescence searches' use of the transposition table by default (the minimax agent's
`quiet_table`), in the games whose search offers it."""
QUIET_CHECKS_USE = False
"""The quiescence searches' quiet checks at their first ply by default (the minimax agent's
`quiet_checks`), in the games whose search offers them."""
HISTORY_MALUS_USE = False
"""The engine searches' history malus by default (the minimax agent's `history_malus`): quiet
moves tried before a cutoff lose history, and late ones with history below 0 are reduced a
ply more (games/alphabeta.py `punish_quiets`)."""
SORTED_QUIETS = False
"""The engine searches' order of quiet moves near the leaves by default (the minimax agent's
`sort_quiets`): by history everywhere (True), or in generation order at 2 plies or fewer from
the leaves (False), where sorting once cost more than it saved."""
SAFE_CHECK_EXTENSION = False
"""The engine searches' check extension by default (the minimax agent's `safe_checks`, in the
games whose search offers it): only for a check whose piece cannot be taken at once at a loss
(True; Stockfish extends only checks that its static exchange evaluation does not lose), or for
every check (False)."""
LATE_LOSING_CAPTURES = False
"""The engine searches' order of captures by default (the minimax agent's `late_losses`, in
the games whose search offers it): a capture by a piece worth more than its victim, onto a
square the other side attacks, goes after the killers (True) or with the other captures by
MVV-LVA (False): a quarter fewer nodes to the same depth, but no better against an engine
over 120 games (docs/speed.md#engine-search-ablation), so off."""
STATIC_EXCHANGE = False
"""The quiescence searches' static exchange pruning by default (the minimax agent's `see`, in
the games whose search offers it): off, as measured (docs/speed.md#engine-search-ablation)."""
STATIC_FROM_TABLE = False
"""The engine searches' static evaluation by default (the minimax agent's `table_static`):
the evaluation alone (False), or bounded by the node's transposition-table entry (True,
Stockfish's: an entry whose bound says the node is worth more, or less, than the evaluation
replaces it where null-move and futility pruning read it), in the games whose search
offers it."""
DEEP_PRUNING = False
"""The engine searches' pruning of quiet moves up to 7 plies from the leaves by default (the
minimax agent's `deep_prune`, in the games whose search offers it: games/alphabeta.py
`deep_pruning`)."""
ENDGAME = 0
"""The minimax agent's `endgame` by default: a root with at most this many moves left (the
game's measure) is solved exactly where the game's engine search has a solver; 0: none."""
