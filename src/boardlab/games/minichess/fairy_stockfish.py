"""MiniChess as a Fairy-Stockfish variant (DESIGN.md), for the tests' oracle and the benchmarks.

Load it with `pyffish.load_variant_config(FAIRY_STOCKFISH_CONFIG)`; the variant is then
`FAIRY_STOCKFISH_VARIANT`. Not `checking = false`: in Fairy-Stockfish that forbids giving check.
"""

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
