"""Hill climbing of an agent's numeric parameters (seed 002: "change the value, compare the
agent with and without the change, keep the better").

A tuned parameter is either a field of the agent's settings (`minimax:depth=2`, `--param
depth=1:3`) or a weight of the agent's evaluator when the game's `evaluators` mapping offers
`parameters(name)` (`EVALUATOR/weight=0.3/...`, see the game package's heuristics.py);
the tuner writes the latter into the agent's `eval` parameter, so every point it visits is an
ordinary agent spec that `make_agent` rebuilds.

The climb: for each round, for each parameter in the order given, try the value one step up,
then one step down (clipped to the range); play the changed agent against the current one
(`score`, seats alternating) and keep the change if it scores more than the threshold. The
seed keeps any change that wins (threshold 0.5); with few games per comparison that keeps a
change that is no better half the time, so `tune` raises the threshold by `margin` standard
errors of the score (0.5/sqrt(games), the largest a game scored 1, 1/2 or 0 can have). A
round in which nothing was kept halves the step. `validate` then plays the best agent against
the start on fresh seeds and reports the score with its 95% interval. Every choice is a
function of the seed, so a climb whose games are stored (`run_tournament` with a database)
replays them from the store when run again and continues where it stopped.
"""

from __future__ import annotations

import dataclasses
import math
import typing
from collections.abc import Collection
from dataclasses import dataclass
from typing import Callable

from ..core.game import Game, ParseError
from ..core.registry import agent_class, make_agent, split_params

Values = dict[str, float]


@dataclass(frozen=True)
class Param:
    """One tuned parameter: its name and the closed range it may take."""

    name: str
    low: float
    high: float
    integer: bool = False
    """Whole numbers only (an int settings field such as minimax depth)."""

    def check(self, value: float, where: str) -> None:
        if not self.low <= value <= self.high:
            raise ParseError(f"{where}: {self.name}={_text(value)} is outside its range "
                             f"{_text(self.low)}:{_text(self.high)}")


@dataclass(frozen=True)
class Step:
    """One comparison of the climb, as `on_step` receives it."""

    round: int
    param: str
    current: Values
    candidate: Values
    score: float
    """The candidate's score against the current agent (draws half)."""
    kept: bool


def parse_param(text: str) -> Param:
    """`NAME=LOW:HIGH` -> Param; ParseError if malformed or empty."""
    name, eq, bounds = text.partition("=")
    low_text, colon, high_text = bounds.partition(":")
    name = name.strip()
    if not eq or not colon or not name.isidentifier():
        raise ParseError(f"--param {text!r}: write it as NAME=LOW:HIGH, e.g. depth=1:4")
    try:
        low, high = float(low_text), float(high_text)
    except ValueError:
        raise ParseError(f"--param {text!r}: LOW and HIGH must be numbers") from None
    if not (math.isfinite(low) and math.isfinite(high)) or low > high:
        raise ParseError(f"--param {text!r}: LOW must not exceed HIGH")
    return Param(name, low, high)


def hill_climb(params: Collection[Param], start: Values, score: Callable[[Values, Values, int,
               int], float], rounds: int = 3, step: float = 0.1,
               on_step: Callable[[Step], None] | None = None,
               threshold: float = 0.5) -> Values:
    """Climb from `start`; `score(candidate, current, round, index)` is the candidate's score
    against the current values (> `threshold` keeps it); `index` numbers the comparisons of a
    round. `step` is a fraction of each range; an integer parameter moves by at least 1."""
    if rounds < 0:
        raise ParseError(f"rounds must not be negative, got {rounds}")
    if not 0 < step <= 1:
        raise ParseError(f"step must be a fraction of the range in (0, 1], got {step}")
    for param in params:
        param.check(start[param.name], "start value")
    current = dict(start)
    for round_ in range(1, rounds + 1):
        index, kept_any = 0, False
        for param in params:
            for direction in (1, -1):
                candidate = dict(current)
                candidate[param.name] = _moved(param, current[param.name], direction, step)
                if candidate[param.name] == current[param.name]:
                    continue
                value = score(candidate, current, round_, index)
                index += 1
                kept = value > threshold
                if on_step is not None:
                    on_step(Step(round_, param.name, dict(current), candidate, value, kept))
                if kept:
                    current, kept_any = candidate, True
                    break  # the other direction would undo it
        if not kept_any:
            step /= 2  # nothing helped at this scale: look closer
    return current


def _moved(param: Param, value: float, direction: int, step: float) -> float:
    width = param.high - param.low
    if param.integer:
        delta = max(1, round(step * width))
        return min(param.high, max(param.low, value + direction * delta))
    # rounded so that spec strings stay short and a resumed climb builds the same specs
    return round(min(param.high, max(param.low, value + direction * step * width)), 6)


# --- agent specs ----------------------------------------------------------------------------

class AgentSpace:
    """The agent spec `base` with some parameters free: `spec(values)` writes a point as a
    spec string, `start` holds the values the base spec (or the defaults) gives them."""

    def __init__(self, game: Game, base: str, params: Collection[Param]) -> None:
        self.game = game
        name, _, param_text = base.strip().partition(":")
        if not name:
            raise ParseError("empty agent spec")
        cls = agent_class(name)
        self.name = name
        self.fixed = split_params(param_text, f"agent {base!r}")
        settings = cls.Settings if dataclasses.is_dataclass(cls.Settings) else None
        fields = {f.name: f for f in dataclasses.fields(settings)} if settings else {}
        hints = typing.get_type_hints(settings) if settings else {}
        base_agent = make_agent(base, game)  # refuses a bad base spec before any game
        self.eval_name: str = self.fixed.get("eval", "") or getattr(base_agent, "eval_name", "")
        eval_base, _, eval_rest = self.eval_name.partition("/")
        self.eval_base = eval_base
        eval_given = _weights(eval_rest)
        offered = getattr(game.evaluators, "parameters", None)
        weights = offered(self.eval_base) if callable(offered) and self.eval_base else {}
        self.params: list[Param] = []
        self.in_settings: set[str] = set()
        self.start: Values = {}
        for param in params:
            if param.name in fields and hints.get(param.name) in (int, float):
                integer = hints[param.name] is int
                if integer and not (param.low.is_integer() and param.high.is_integer()):
                    raise ParseError(f"--param {param.name}: {name}'s {param.name} is a whole "
                                     "number; give a whole-number range")
                param = dataclasses.replace(param, integer=integer)
                self.in_settings.add(param.name)
                value = float(getattr(base_agent.settings, param.name))
            elif param.name.lower() in weights:
                param = dataclasses.replace(param, name=param.name.lower())
                value = eval_given.get(param.name, weights[param.name])
            else:
                numeric = [k for k in fields if hints.get(k) in (int, float)]
                raise ParseError(f"--param {param.name}: agent {name!r} has no numeric "
                                 f"parameter of that name; it has: "
                                 f"{', '.join(numeric + list(weights)) or 'none'}")
            param.check(value, f"agent {base!r}")
            self.params.append(param)
            self.start[param.name] = int(value) if param.integer else value
        self.eval_fixed = {k: v for k, v in eval_given.items() if k not in self.start}

    def spec(self, values: Values) -> str:
        params = dict(self.fixed)
        weights = dict(self.eval_fixed)
        for param in self.params:
            value = values[param.name]
            if param.name in self.in_settings:
                params[param.name] = _text(value)
            else:
                weights[param.name] = value
        if weights:
            params["eval"] = "/".join([self.eval_base] + [f"{k}={_text(v)}"
                                                          for k, v in weights.items()])
        text = ",".join(f"{k}={v}" for k, v in params.items())
        return f"{self.name}:{text}" if text else self.name


def _weights(text: str) -> Values:
    found: Values = {}
    for item in filter(None, text.split("/")):
        key, _, value = item.partition("=")
        try:
            found[key.strip().lower()] = float(value)
        except ValueError:
            pass  # make_agent has already refused it
    return found


def _text(value: float) -> str:
    """Shortest text for a number: 2 not 2.0, 0.25 not 0.25000000001."""
    if float(value).is_integer():
        return str(int(value))
    return repr(round(float(value), 6))


# --- the tune command -------------------------------------------------------------------------

@dataclass
class TuneResult:
    start: str
    best: str
    best_values: Values
    steps: list[Step]


def tune(game_spec: str, agent_spec: str, params: Collection[Param], rounds: int = 3,
         games: int = 20, step: float = 0.1, seed: int = 0, db_path: str = "tune.sqlite",
         workers: int = 1, on_step: Callable[[Step, str, str], None] | None = None,
         margin: float = 0.0) -> TuneResult:
    """Hill-climb `params` of `agent_spec` on `game_spec`, each comparison `games` games
    (seats alternating) stored in `db_path`, so a rerun with the same arguments resumes. A
    change is kept when it scores above 0.5 + margin * 0.5 / sqrt(games)."""
    from ..core.match import derive_seed
    from ..core.registry import make_game
    from .tournament import run_tournament

    if not params:
        raise ParseError("give at least one --param NAME=LOW:HIGH to tune")
    if len({p.name for p in params}) != len(params):
        raise ParseError("a --param is given twice")
    if not isinstance(games, int) or games < 1:
        raise ParseError(f"games per comparison must be a positive whole number, got {games!r}")
    if not margin >= 0:
        raise ParseError(f"margin must be a non-negative number of standard errors, got {margin!r}")
    game = make_game(game_spec)
    space = AgentSpace(game, agent_spec, params)
    steps: list[Step] = []

    def score(candidate: Values, current: Values, round_: int, index: int) -> float:
        a, b = space.spec(candidate), space.spec(current)
        result = run_tournament(game.spec, [a, b], games, db_path,
                                seed=derive_seed(seed, "tune", round_, index),
                                workers=workers, progress=False)
        return result.pairs[0].a_score

    def record(found: Step) -> None:
        steps.append(found)
        if on_step is not None:
            on_step(found, space.spec(found.candidate), space.spec(found.current))

    threshold = 0.5 + margin * 0.5 / math.sqrt(games)
    best = hill_climb(space.params, space.start, score, rounds, step, record, threshold)
    return TuneResult(space.spec(space.start), space.spec(best), best, steps)


@dataclass(frozen=True)
class Validation:
    """`first` against `second` over `games` games: the score (draws half) and its 95% interval
    (normal approximation with the games' sample variance)."""

    first: str
    second: str
    games: int
    wins: int
    draws: int
    losses: int
    score: float
    low: float
    high: float

    @property
    def significant(self) -> bool:
        """The interval lies wholly above or below 0.5."""
        return self.low > 0.5 or self.high < 0.5


def score_interval(wins: int, draws: int, losses: int) -> tuple[float, float, float]:
    """(score, low, high): the mean of per-game scores 1, 1/2, 0 and its 95% interval."""
    n = wins + draws + losses
    if n < 2:
        raise ParseError(f"an interval needs at least two games, got {n}")
    mean = (wins + draws / 2) / n
    variance = (wins * (1 - mean) ** 2 + draws * (0.5 - mean) ** 2 + losses * mean ** 2) / (n - 1)
    half = 1.959964 * math.sqrt(variance / n)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def validate(game_spec: str, first: str, second: str, games: int, seed: int = 0,
             db_path: str = "tune.sqlite", workers: int = 1) -> Validation:
    """Play `first` against `second` (seats alternating) on seeds the climb never used."""
    from ..core.match import derive_seed
    from .tournament import run_tournament

    if first == second:
        raise ParseError(f"nothing to validate: the best agent is the start ({first})")
    result = run_tournament(game_spec, [first, second], games, db_path,
                            seed=derive_seed(seed, "validate"), workers=workers, progress=False)
    n, wins, draws, losses = result.pair(first, second)
    return Validation(first, second, n, wins, draws, losses, *score_interval(wins, draws, losses))
