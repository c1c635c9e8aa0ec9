"""A game's rules over a row of int64 words, compiled, so that a search can stay compiled.

A game that declares `Game.array_rules()` describes each position as `width` int64 words (on
a board of bitboards: the two sides' discs, the player to move, its moves) and gives five numba
functions over such rows. A search keeps its nodes' rows in one (nodes, width) array and
calls the functions inside its own compiled kernel (agents/puct.py): making a leaf, listing
its moves, scoring the end of the game and encoding the leaf for the network never go back
to Python. The `State` stays the reference: the game's tests check every function against it
move by move on many random games.

The functions, with the numba signatures they are compiled to (`row` is one position's
words, int64[::1]):
- `legal_actions(row, out) -> int`: the legal actions, ascending as `State.legal_actions()`,
  written to `out[:count]` (`out` has room for `num_actions`); 0 when the game is over;
- `play(row, action, out) -> None`: the position after `action` (legal) written to `out`;
- `current_player(row) -> int`: the player to move, or TERMINAL once the game is over;
- `player0_return(row) -> float`: player 0's return at a position where the game is over;
- `encode(row, out) -> None`: `State.encode(current_player)` written to `out`, float32
  (channels, height, width), at a position with a player to move.
They must not raise: they run behind C function pointers, which carry no Python errors.
`pack(state)` (plain Python) gives a `State`'s row, for the roots of a search.

Games with chance nodes or history-dependent rules (repetition) declare none.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Callable

import numpy as np
from numba.core import types
from numba.extending import typeof_impl

ROW = types.int64[::1]
SIGNATURES = {
    "legal_actions": types.int64(ROW, types.int64[::1]),
    "play": types.none(ROW, types.int64, types.int64[::1]),
    "current_player": types.int64(ROW),
    "player0_return": types.float64(ROW),
    "encode": types.none(ROW, types.float32[:, :, ::1]),
}
"""Each function's numba signature: what a search kernel may rely on."""


@dataclass(frozen=True)
class ArrayRules:
    """A game's rules over rows of `width` int64 words (the module docstring says what each
    function does)."""

    width: int
    """int64 words per position."""
    pack: Callable[[Any], np.ndarray]
    """A State's row, (width,) int64 (typed Any: it is handed only its own game's states)."""
    legal_actions: Any
    play: Any
    current_player: Any
    player0_return: Any
    encode: Any

    @cached_property
    def functions(self) -> tuple[Any, ...]:
        """The five functions, in the module docstring's order, compiled to their signatures
        as first-class function values, to pass to a compiled kernel as arguments."""
        return tuple(CompiledFunction(getattr(self, name), signature)
                     for name, signature in SIGNATURES.items())


class CompiledFunction(types.CompileResultWAP):
    """A numba function compiled to one signature, passed to a kernel as a function pointer.

    A kernel that takes these (rather than the dispatchers) has a fixed type, so numba's
    cache keeps it; and a dispatcher passed as it is costs ~20 us a call to look its address
    up, this ~4 us (its numba type is kept too)."""

    def __init__(self, dispatcher: Any, signature: Any) -> None:
        dispatcher.compile(signature)
        compiled = dispatcher.overloads[signature.args]
        if compiled.signature != signature:
            raise TypeError(f"{dispatcher.__name__} is compiled as {compiled.signature}; "
                            f"array rules need {signature}")
        super().__init__(compiled)
        self.numba_type = types.FunctionType(signature)


@typeof_impl.register(CompiledFunction)
def _typeof_compiled(value: CompiledFunction, context: Any) -> Any:
    return value.numba_type
