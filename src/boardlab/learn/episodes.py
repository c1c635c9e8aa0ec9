"""Training episodes, the one place that says what a learner's transition is.

A transition (s, a, r, s', done) starts where the learner is to move and ends where it is to
move again (or the game is over): r = the game's reward for the own ply (chance included) +
the reply reward (own pieces the opponent took, and the terminal reward if the reply ended
the game). Chance outcomes are drawn with `sample_chance`, as the match runner does.

`Episode` is one training game under that rule, and the only code that plays one; two
drivers step it. `run_episode` plays one to the end and feeds a `Learner` States as its
transitions complete (the tabular learner: an update looks the position up);
learn/selfplay.py steps N of them in lockstep for the DQN, their positions encoded in one
batch. Episode k of a run is the same game in both (`Episode.numbered`).

Opponents are spec strings mixed by weight: `random@0.3+greedy@0.4+self@0.3`. `self` means
the learner plays both seats (both sides' transitions are learned from).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Generic, Protocol, TypeVar

from ..core.agent import Agent, Clock
from ..core.game import CHANCE, Game, IllegalActionError, ParseError, State
from ..core.learning import RewardFunction
from ..core.match import derive_seed, sample_chance
from ..core.registry import make_agent

SELF = "self"
DEFAULT_OPPONENTS = "random@0.3+greedy@0.4+self@0.3"
MAX_INVALID_IN_A_ROW = 8
"""Unmasked learners: after this many illegal choices in a row a random legal action is
played, so an untrained network cannot stall an episode forever."""

P = TypeVar("P")
"""What a driver keeps of a position for its transitions: a State, or its network input."""


class OpponentMix:
    """Draws an opponent per episode from weighted specs; agents are built once."""

    def __init__(self, game: Game, text: str) -> None:
        self.specs: list[str] = []
        self.weights: list[float] = []
        for part in text.split("+"):
            spec, at, weight = part.strip().rpartition("@") if "@" in part else (part, "", "1")
            spec = spec.strip()
            try:
                value = float(weight)
            except ValueError:
                raise ParseError(f"opponent {text!r}: weight {weight!r} of {spec!r} is not a "
                                 "number (write spec@weight, e.g. random@0.3+greedy@0.7)") from None
            if not spec or value <= 0:
                raise ParseError(f"opponent {text!r}: each part is spec@weight with a positive "
                                 "weight")
            self.specs.append(spec)
            self.weights.append(value)
        self.agents: dict[str, Agent] = {
            spec: make_agent(spec, game) for spec in self.specs if spec != SELF}

    def draw(self, rng: random.Random) -> str:
        return rng.choices(self.specs, self.weights)[0]

    def __str__(self) -> str:
        return "+".join(f"{s}@{w:g}" for s, w in zip(self.specs, self.weights))


@dataclass
class Episode(Generic[P]):
    """One training game and the learner's plies still waiting for the reply's reward.

    A driver calls `to_decision` (chance and the opponent play), then, with `here` what it
    keeps of the position, `arrived` (the mover's last transition, now complete) and `play`
    (the mover's action); `finish` completes the rest at the end."""

    number: int
    state: State
    rng: random.Random
    opponent: str
    learner_seats: tuple[int, ...]
    opponent_agent: Agent | None
    reward: RewardFunction[Any]
    masked: bool = True
    # seat -> its last ply, waiting for the reply: (s, action, own reward, state after)
    waiting: dict[int, tuple[P, int, float, State]] = field(default_factory=dict)
    plies: int = 0
    """Plies played by anyone (chance excluded)."""
    learner_steps: int = 0
    invalid: int = 0
    invalid_in_a_row: int = 0

    @classmethod
    def start(cls, game: Game, seed: int, learner_seat: int, opponent: str,
              agent: Agent | None, reward: RewardFunction[Any], masked: bool = True,
              number: int = 0) -> "Episode[P]":
        """The game `game.initial_state(seed)`, the learner in `learner_seat` (both seats in
        self-play, `opponent` SELF) against `agent`, the `opponent` spec's agent."""
        if agent is not None:
            agent.start_game(1 - learner_seat, derive_seed(seed, "opponent"))
        return cls(number, game.initial_state(seed), random.Random(derive_seed(seed, "episode")),
                   opponent, (0, 1) if opponent == SELF else (learner_seat,), agent, reward,
                   masked)

    @classmethod
    def numbered(cls, game: Game, run_seed: int, k: int, opponents: OpponentMix,
                 agent_for: Callable[[str], Agent], reward: RewardFunction[Any],
                 masked: bool = True) -> "Episode[P]":
        """Episode k of a training run seeded `run_seed`: its opponent drawn from the mix
        (`agent_for(spec)` its agent), the learner in seat k % 2."""
        opponent = opponents.draw(random.Random(derive_seed(run_seed, "opponent", k)))
        agent = None if opponent == SELF else agent_for(opponent)
        return cls.start(game, derive_seed(run_seed, "train", k), k % 2, opponent, agent,
                         reward, masked, number=k)

    def to_decision(self) -> int | None:
        """Draw chance and play the opponent until a learner seat is to move: that seat, or
        None when the game is over."""
        state = self.state
        while not state.is_terminal():
            mover = state.current_player()
            if mover == CHANCE:
                state.apply(sample_chance(state, self.rng))
            elif mover not in self.learner_seats:
                assert self.opponent_agent is not None
                state.apply(self.opponent_agent.act(state.view(mover, self.rng), Clock()))
                self.plies += 1
            else:
                return mover
        return None

    def arrived(self, mover: int) -> tuple[P, int, float] | None:
        """(s, a, r) of the mover's last ply, complete now that it is to move again (s' is
        here); None if it has none waiting."""
        if mover not in self.waiting:
            return None
        before, action, own, after = self.waiting.pop(mover)
        return before, action, own + self.reward.reply(after, self.state, mover)

    def play(self, mover: int, action: int, here: P,
             legal: list[int]) -> list[tuple[P, int, float, bool]]:
        """Play the mover's `action` from `here` (`legal` its legal actions); returns the
        transitions (s, a, r, done) it ends at once: an unmasked learner's illegal choice
        (its penalty, s' = s, position kept) and a ply that ends the game (done)."""
        state = self.state
        ended: list[tuple[P, int, float, bool]] = []
        self.learner_steps += 1
        if not self.masked and action not in legal:
            self.invalid += 1
            self.invalid_in_a_row += 1
            ended.append((here, action, self.reward.action(state, action, None), False))
            if self.invalid_in_a_row < MAX_INVALID_IN_A_ROW:
                return ended
            action = self.rng.choice(legal)
        self.invalid_in_a_row = 0
        before = state.clone()
        play_own_ply(state, action, self.rng)
        self.plies += 1
        own = self.reward.action(before, action, state)
        if state.is_terminal():
            ended.append((here, action, own, True))
        else:
            self.waiting[mover] = (here, action, own, state.clone())
        return ended

    def finish(self) -> list[tuple[int, P, int, float]]:
        """At the end: (seat, s, a, r) of every ply still waiting, the final reply scored."""
        final = self.state
        ended = [(seat, before, action, own + self.reward.reply(after, final, seat))
                 for seat, (before, action, own, after) in self.waiting.items()]
        self.waiting.clear()
        return ended

    def end(self) -> EpisodeEnd:
        return EpisodeEnd(self.number, self.opponent, self.learner_seats, self.state.returns(),
                          self.plies, self.learner_steps, self.invalid)


@dataclass
class EpisodeEnd:
    """A finished training game (what is left of an `Episode`: small, sent between
    processes)."""

    number: int
    opponent: str
    learner_seats: tuple[int, ...]
    returns: list[float]
    plies: int
    learner_steps: int
    invalid: int


class Learner(Protocol):
    def choose(self, state: State, explore: bool) -> int: ...

    def observe(self, state: State, action: int, reward: float, next_state: State,
                done: bool) -> None: ...


def play_episode(game: Game, learner: Learner, reward: RewardFunction[Any], opponent: str,
                 agents: dict[str, Agent], seed: int, learner_seat: int,
                 masked: bool = True) -> EpisodeEnd:
    """Play one training game (`Episode.start`; `agents[opponent]` the opponent) and feed the
    learner its transitions."""
    agent = None if opponent == SELF else agents[opponent]
    return run_episode(Episode.start(game, seed, learner_seat, opponent, agent, reward, masked),
                       learner)


def run_episode(episode: Episode[State], learner: Learner) -> EpisodeEnd:
    """Play `episode` to the end, feeding the learner each transition as it completes."""
    state = episode.state
    while (mover := episode.to_decision()) is not None:
        here = state.clone()
        if (done := episode.arrived(mover)) is not None:
            learner.observe(*done, here, False)
        for s, a, r, over in episode.play(mover, learner.choose(here, explore=True), here,
                                          state.legal_actions()):
            learner.observe(s, a, r, state if over else s, over)
    for _, s, a, r in episode.finish():
        learner.observe(s, a, r, state, True)
    return episode.end()


def play_own_ply(state: State, action: int, rng: random.Random) -> None:
    """Apply the learner's `action` and draw the chance outcomes it opens (a reveal, a blind
    attack), so the next position is a decision or the end; a masked learner's illegal choice
    is a bug, raised with the position."""
    try:
        state.apply(action)
    except IllegalActionError:  # refused before anything moved: `state` is the position
        raise IllegalActionError(f"the learner chose an illegal action {action} in a masked "
                                 f"episode:\n{state}") from None
    while state.current_player() == CHANCE:
        state.apply(sample_chance(state, rng))


def evaluate(game: Game, make_player: Callable[[], Agent], opponent: Agent, games: int,
             base_seed: int) -> tuple[float, int, int, int]:
    """Score (draws half), wins, draws, losses of the learner against `opponent` over a fixed
    seed set, seats alternating: the same games every evaluation, so curves compare."""
    from ..core.match import play_match

    player = make_player()
    wins = draws = losses = 0
    for k in range(games):
        seat = k % 2
        seated = [player, opponent] if seat == 0 else [opponent, player]
        record = play_match(game, seated, seed=derive_seed(base_seed, "eval", k))
        result = record.returns[seat]
        wins += result > 0
        draws += result == 0
        losses += result < 0
    return (wins + draws / 2) / games, wins, draws, losses
