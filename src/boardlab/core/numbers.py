"""Numbers as people read them: no negative zero.

Python formats -0.0 as "-0", and -0.0004 with three decimals as "-0.000"; a negamax search
hands back -0.0 for an even position, and an Elo of -0.3 prints as "-0". The values that the
command line, the arena reports and the web pages print go through `number_text`, so that a
zero reads "0".
"""

from __future__ import annotations


def number_text(value: float, spec: str = "") -> str:
    """`format(value, spec)`, without the minus sign of a number that shows as zero:
    number_text(-0.0, ".3g") == "0", number_text(-0.0004, ".3f") == "0.000",
    number_text(-0.3, "+.0f") == "+0"; "-inf" stays."""
    text = format(value, spec)
    if "-" in text and "0" in text and not any(digit in text for digit in "123456789"):
        return format(abs(value), spec)  # the same rounding, width and sign policy
    return text
