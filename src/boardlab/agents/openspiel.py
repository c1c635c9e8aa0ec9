"""OpenSpiel's bots as agents: `openspiel:sims=1000,rollouts=1` is OpenSpiel's own Python
`MCTSBot` (UCT with random rollouts) playing in our arena, on a game OpenSpiel also has.

The game declares its OpenSpiel name and notation (`Game.engine_dialects`, protocol
`openspiel`); moves cross between the two libraries as text (`d3`, `pass`), so both sides'
action ids stay their own. OpenSpiel's state is kept in step with ours move by move, as the
`engine` agent does for engine processes (`MoveFollower`). `pip install open_spiel`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from ..core.agent import Agent, Clock
from ..core.game import BoardLabError, EngineDialect, Game, State
from .engine import MoveFollower


@dataclass
class OpenSpielSettings:
    bot: Literal["mcts", "random"] = "mcts"
    """OpenSpiel's bot: `mcts` (MCTSBot with RandomRolloutEvaluator) or `random`."""
    sims: int = 1000
    """MCTS simulations per move (MCTSBot's max_simulations)."""
    rollouts: int = 1
    """Random rollouts per new leaf (RandomRolloutEvaluator's n_rollouts)."""
    uct_c: float = 2.0
    """The UCT exploration constant."""
    solve: bool = True
    """Back up proven wins and losses (MCTS-Solver), as MCTSBot does by default."""

    def __post_init__(self) -> None:
        if self.sims < 1 or self.rollouts < 1:
            raise ValueError("sims and rollouts must be at least 1")


class OpenSpielAgent(Agent):
    """One of OpenSpiel's own bots, on OpenSpiel's version of the game."""

    name = "openspiel"
    Settings = OpenSpielSettings

    @classmethod
    def cannot_play(cls, game: Game) -> str | None:
        if _dialect(game) is None:
            return "the game declares no OpenSpiel counterpart (Game.engine_dialects)"
        try:
            import pyspiel  # noqa: F401
        except ImportError:
            return "OpenSpiel is not installed (pip install open_spiel)"
        return None

    def __init__(self, game: Game, settings: OpenSpielSettings | None = None, **params) -> None:
        super().__init__(game, settings, **params)
        import pyspiel

        dialect = _dialect(game)
        assert dialect is not None  # cannot_play said so
        self.dialect = dialect
        self.spiel_game = pyspiel.load_game(dialect.variant)
        self.spiel_state: Any = None
        self.follower = MoveFollower()
        self.bot: Any = None

    def start_game(self, player: int, seed: int) -> None:
        import numpy as np
        from open_spiel.python.algorithms import mcts
        from open_spiel.python.bots import uniform_random

        super().start_game(player, seed)
        self.spiel_state = self.spiel_game.new_initial_state()
        self.follower.reset(self.game.initial_state())
        random_state = np.random.RandomState(seed)
        settings = self.settings
        if settings.bot == "random":
            self.bot = uniform_random.UniformRandomBot(player, random_state)
        else:
            evaluator = mcts.RandomRolloutEvaluator(settings.rollouts, random_state)
            self.bot = mcts.MCTSBot(self.spiel_game, settings.uct_c, settings.sims, evaluator,
                                    solve=settings.solve, random_state=random_state)

    def act(self, state: State, clock: Clock) -> int:
        replies = self.follower.replies(state)
        if replies is None:
            raise BoardLabError("openspiel follows a game from its start move by move; this "
                                f"position was not reached that way ({state.to_text()!r})")
        for before, action in replies:
            self._apply(self.dialect.to_engine(before, action))
        choice = self.bot.step(self.spiel_state)
        text = self.spiel_state.action_to_string(self.spiel_state.current_player(), choice)
        action = self.dialect.from_engine(state, text)
        self._apply(text)
        self.follower.played(state, action)
        return action

    def _apply(self, text: str) -> None:
        """Play the move written `text` in OpenSpiel's state (found among its legal moves)."""
        spiel = self.spiel_state
        mover = spiel.current_player()
        for action in spiel.legal_actions():
            if spiel.action_to_string(mover, action).lower() == text.lower():
                spiel.apply_action(action)
                return
        raise BoardLabError(f"OpenSpiel's {self.dialect.variant} has no legal move {text!r} "
                            f"here; the two games disagree:\n{spiel}")


def _dialect(game: Game) -> EngineDialect | None:
    return next((d for d in game.engine_dialects if d.protocol == "openspiel"), None)
