"""The Jungle animals and who eats whom: shared by the dark (7x8) and classic (7x9) games."""

from __future__ import annotations

RAT, CAT, DOG, WOLF, LEOPARD, TIGER, LION, ELEPHANT = range(1, 9)
STRENGTHS = tuple(range(1, 9))

ANIMAL_NAMES = {RAT: "rat", CAT: "cat", DOG: "dog", WOLF: "wolf", LEOPARD: "leopard",
                TIGER: "tiger", LION: "lion", ELEPHANT: "elephant"}
ANIMAL_LETTERS = {RAT: "R", CAT: "C", DOG: "D", WOLF: "W", LEOPARD: "P", TIGER: "T",
                  LION: "L", ELEPHANT: "E"}
"""Player 0 writes upper case, player 1 lower case. P is the leopard (panther)."""
LETTER_TO_STRENGTH = {letter: strength for strength, letter in ANIMAL_LETTERS.items()}
NAME_TO_STRENGTH = {name: strength for strength, name in ANIMAL_NAMES.items()}


def can_capture(attacker: int, defender: int) -> bool:
    """Rank order, except that the rat eats the elephant and the elephant cannot eat the rat.

    Equal strengths are not a capture: in the dark game they destroy each other.
    """
    if attacker == RAT and defender == ELEPHANT:
        return True
    if attacker == ELEPHANT and defender == RAT:
        return False
    return attacker > defender


def square_name(row: int, col: int) -> str:
    """Row 0 is rank 1 (player 0's home row); columns are files a, b, c..."""
    return f"{chr(ord('a') + col)}{row + 1}"
