"""Misbehaving agents for the arena's fault tests, entered as `path/to/this.py:Class`.

Each fails on its first move in one way; none can harm the machine: the sleeper sleeps (the
arena kills its worker), the hog stops by itself after 1 GiB if no limit stops it first.
"""

from __future__ import annotations

import time

from boardlab import Agent


class Sleeper(Agent):
    """Thinks far past any budget the tests give."""

    name = "sleeper"

    def act(self, state, clock):
        time.sleep(60)
        return state.legal_actions()[0]


class Raiser(Agent):
    """Raises on its first move."""

    name = "raiser"

    def act(self, state, clock):
        raise RuntimeError("the agent's own bug")


class Cheater(Agent):
    """Answers a move that is not in the legal list."""

    name = "cheater"

    def act(self, state, clock):
        legal = set(state.legal_actions())
        return next(action for action in range(state.game.num_actions) if action not in legal)


class Hog(Agent):
    """Allocates memory 32 MiB at a time, keeping all of it, until MemoryError or 1 GiB."""

    name = "hog"
    CHUNK = 32 * 1024 * 1024
    CEILING = 1024 * 1024 * 1024

    def act(self, state, clock):
        held = []
        while len(held) * self.CHUNK < self.CEILING:
            held.append(bytearray(self.CHUNK))  # zero-filled: the pages are really touched
        return state.legal_actions()[0]  # no limit stopped it: the test will say so


class Steady(Agent):
    """Plays the first legal move after a short, fixed think (a well-behaved slow agent)."""

    name = "steady"

    def act(self, state, clock):
        time.sleep(0.01)
        return state.legal_actions()[0]


class Quitter(Agent):
    """Ends its own process in the middle of its move, as a crash in native code would."""

    name = "quitter"

    def act(self, state, clock):
        import os

        os._exit(3)
