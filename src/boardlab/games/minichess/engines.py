"""MiniChess as a Fairy-Stockfish variant (docs/design.md#minichess-fairy-stockfish-config), for
the tests' oracle, the benchmarks
and the engine itself.

Load it with `pyffish.load_variant_config(FAIRY_STOCKFISH_CONFIG)`; the variant is then
`FAIRY_STOCKFISH_VARIANT`. Not `checking = false`: in Fairy-Stockfish that forbids giving check.
The engine (`engine:cmd=/usr/games/fairy-stockfish`) reads `ENGINE_VARIANTS_FILE`, the same
config plus `promotionRank = 6`: Debian's Fairy-Stockfish 11.1 does not know the
`promotionRegion*` keys and refuses promotions without it. Moves are our coordinate notation.
"""

from ...core.game import EngineDialect

FAIRY_STOCKFISH_VARIANT = "i2pminichess"
FAIRY_STOCKFISH_CONFIG = """
[i2pminichess:chess]
maxRank = 6
maxFile = e
startFen = kqbnr/ppppp/5/5/PPPPP/RNBQK w - - 0 1
king = -
commoner = k
castling = false
doubleStep = false
enPassantRegion = -
promotionPieceTypes = q
promotionRegionWhite = *6
promotionRegionBlack = *1
extinctionValue = loss
extinctionPieceTypes = k
stalemateValue = loss
nMoveRule = 0
nFoldRule = 0
"""

ENGINE_VARIANTS_FILE = FAIRY_STOCKFISH_CONFIG + "promotionRank = 6\n"
DIALECTS = (EngineDialect("uci", variant=FAIRY_STOCKFISH_VARIANT,
                          variants_file=ENGINE_VARIANTS_FILE),)
