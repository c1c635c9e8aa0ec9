"""Play one game between agents: views for hidden information, seeded chance, clocks, a record.

Every game is reproducible from its seed: chance outcomes, the views handed to agents and the
agents' own randomness are all drawn from generators derived from it.
"""

from __future__ import annotations

import random
import traceback
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from .agent import Agent, Clock
from .game import CHANCE, Game, State

DEFAULT_GRACE = 1.0
"""Seconds past its budget an agent may take before it loses the game on time."""


@dataclass
class GameRecord:
    """Everything needed to replay and score one game."""

    game: str
    agents: list[str]
    seed: int
    actions: list[int] = field(default_factory=list)
    """Every action in order, chance outcomes included."""
    movers: list[int] = field(default_factory=list)
    """Who chose each action: a seat, or CHANCE (-1)."""
    returns: list[float] = field(default_factory=list)
    reason: str = ""
    """How the game ended: 'normal', or why a seat forfeited."""
    forfeit: int | None = None
    """The seat that forfeited (crash, illegal action, time), or None."""
    move_seconds: list[float] = field(default_factory=list)
    """Thinking time of each player decision, in order."""
    plies: int = 0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "GameRecord":
        return cls(**data)

    def replay(self, game: Game) -> State:
        """Rebuild the final state from the record (raises if the record is inconsistent)."""
        state = game.initial_state(self.seed)
        for action in self.actions:
            state.apply(action)
        return state


def derive_seed(*parts: Any) -> int:
    """A stable 31-bit seed from any printable parts (same parts, same seed, any platform)."""
    import hashlib

    digest = hashlib.sha256("|".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


def play_match(
    game: Game,
    agents: list[Agent],
    seed: int = 0,
    time_per_move: float | None = None,
    grace: float = DEFAULT_GRACE,
    on_move: Callable[[State, int, int], None] | None = None,
) -> GameRecord:
    """Play one game; seat i is `agents[i]`. Never raises because of an agent.

    An agent that raises, returns an illegal action or overruns `time_per_move + grace`
    forfeits: it gets the game's forfeit returns and the reason is recorded.
    `on_move(state_before, mover, action)` is called before each action is applied.
    """
    if len(agents) != game.num_players:
        raise ValueError(f"{game.name} needs {game.num_players} agents, got {len(agents)}")
    chance_rng = random.Random(derive_seed(seed, "chance"))
    view_rngs = [random.Random(derive_seed(seed, "view", p)) for p in range(game.num_players)]
    for seat, agent in enumerate(agents):
        agent.start_game(seat, derive_seed(seed, "agent", seat))
    state = game.initial_state(seed)
    record = GameRecord(game.spec, [a.spec for a in agents], seed)

    while not state.is_terminal():
        mover = state.current_player()
        if mover == CHANCE:
            action = sample_chance(state, chance_rng)
        else:
            action, failure, seconds = _ask(agents[mover], state, mover, view_rngs[mover],
                                            time_per_move, grace)
            record.move_seconds.append(seconds)
            if failure is not None:
                record.returns = game.forfeit_returns(mover)
                record.reason = failure
                record.forfeit = mover
                return record
            record.plies += 1
        if on_move is not None:
            on_move(state, mover, action)
        state.apply(action)
        record.actions.append(action)
        record.movers.append(mover)
    record.returns = list(state.returns())
    record.reason = "normal"
    return record


def draw_outcome(outcomes: list[tuple[int, float]], draw: float) -> int:
    """The chance outcome whose cumulative probability first exceeds `draw` (uniform in
    [0, 1)). Every part of BoardLab that samples chance (the match runner, MCTS, AlphaZero's
    search and self-play, the web page) draws this way, so one seed gives the same outcome."""
    total = 0.0
    for action, probability in outcomes:
        total += probability
        if draw < total:
            return action
    return outcomes[-1][0]  # rounding left `total` a hair under 1


def sample_chance(state: State, rng: random.Random) -> int:
    """Draw a chance outcome of `state` in proportion to its probability."""
    return draw_outcome(state.chance_outcomes(), rng.random())


def _ask(agent: Agent, state: State, seat: int, rng: random.Random,
         budget: float | None, grace: float) -> tuple[int, str | None, float]:
    """Ask `agent` for a move on its view; return (action, failure reason or None, seconds)."""
    view = state.view(seat, rng)
    clock = Clock.start(budget)
    try:
        action = agent.act(view, clock)
    except Exception as error:  # any agent bug forfeits the game, never the tournament
        where = traceback.extract_tb(error.__traceback__)[-1]
        return -1, (f"crash: seat {seat} ({agent.spec}) raised {type(error).__name__}: "
                    f"{error} at {where.filename}:{where.lineno}"), clock.elapsed()
    seconds = clock.elapsed()
    if budget is not None and seconds > budget + grace:
        return -1, (f"time: seat {seat} ({agent.spec}) took {seconds:.2f}s, "
                    f"budget {budget:g}s + grace {grace:g}s"), seconds
    legal = state.legal_actions()
    if not isinstance(action, int) or isinstance(action, bool):
        try:
            action = int(action)  # numpy integers are fine
        except (TypeError, ValueError):
            return -1, f"illegal: seat {seat} ({agent.spec}) returned {action!r}", seconds
    if action not in legal:
        try:
            shown = state.action_to_str(action)
        except Exception:
            shown = "not a move of this game"
        return -1, (f"illegal: seat {seat} ({agent.spec}) returned {action} ({shown})"), seconds
    return action, None, seconds
