"""AlphaZero training's settings (`boardlab train GAME alphazero --params name=value,...`):
self-play, its search, the ends of games, the value targets, the teacher, the network's
training and the gate. learn/alphazero.py trains with them; learn/az_selfplay.py plays."""

from __future__ import annotations

from dataclasses import dataclass

from ..core.game import ParseError
from .value_targets import VALUE_TARGETS

SEARCHES = ("arrays", "nodes")


@dataclass
class AlphaZeroTraining:
    minutes: float = 0.0
    """Stop after this many minutes of this invocation (0 = no limit); the iteration in
    progress ends and is checkpointed first."""
    workers: int = 2
    """Self-play processes (or Ray actors)."""
    games_per_worker: int = 32
    """Games each worker plays at once, in lockstep (their leaves share each network call)."""
    sims: int = 64
    """Simulations per self-play move."""
    search: str = "arrays"
    """Self-play always searches with agents/puct.py's forest (the agent's search). arrays:
    the traced network, the leaves as `rules` says, tree reuse as `reuse` says; nodes: the
    conditions of the Node search it replaced (issue 33: that search now lives in the tests
    as the reference), i.e. the plain network, State leaves and a fresh tree every move,
    kept so that old command lines run and `boardlab bench` has its denominator."""
    rules: str = "arrays"
    """Leaves of search=arrays: arrays (the game's rules compiled over arrays, inside the
    search's numba calls, where the game declares them: `Game.array_rules`) or state (its
    State in Python at every leaf, as before)."""
    reuse: bool = True
    """search=arrays: keep the subtree under the move played as the next root's tree and
    search until the root has `sims` visits in all (false: a fresh tree every move)."""
    inference: str = "float32"
    """Self-play network arithmetic with search=arrays: float32, or bfloat16 (faster on CPUs
    with bfloat16 units, e.g. AVX512-BF16; outputs within ~5e-4)."""
    backend: str = "local"
    """Where self-play workers run: local processes, or ray (actors on a Ray cluster:
    RAY_ADDRESS if set, else a local one)."""
    c_puct: float = 1.5
    dirichlet_alpha: float = 0.5
    noise_fraction: float = 0.25
    temperature_moves: int = 10
    """Decisions per game played with temperature 1 (the rest most visited)."""
    value_target: str = "result"
    """result, search (seed 003 scheme 1), search_root (our first reading of it) or
    hindsight (scheme 2)."""
    search_discount: float = 0.97
    """g of value_target=search: how fast later steps' u fade against the result."""
    buffer: int = 40000
    """Samples kept (the newest)."""
    batch: int = 128
    train_steps: int = 200
    """Minibatches per iteration."""
    lr: float = 1e-3
    weight_decay: float = 1e-4
    init: str = ""
    """Weights file (.pt) both networks start from instead of a fresh one (e.g. to compare
    value targets from the same start); its architecture is used."""
    eval_games: int = 20
    """Candidate against best at each gate; 0 = always keep the candidate."""
    eval_sims: int = 32
    """Simulations per move at the gate and in the protocol's evaluation games."""
    gate: float = 0.55
    opening_plies: int = 4
    """Random plies that open each gate game, so that games differ."""
    teacher: str = ""
    """A teacher dataset folder (`boardlab teach`), or several joined by `:` (the path
    separator): iteration 1 trains on them instead of self-play (a supervised start), and
    self-play continues from there."""
    distill_steps: int = 2000
    """Minibatches of teacher positions in that first iteration."""
    distill_lr_end: float = 1.0
    """The learning rate at the last of them, as a share of `lr`: a cosine from `lr` down to
    it (1 = constant, as before this setting; self-play goes on at `lr`)."""
    teacher_result_weight: float = 0.5
    """Value target of a teacher position: this share the game's result, the rest the
    search's score squashed to [-1, 1] (learn/teacher.py)."""
    teacher_value_weight: float = 0.25
    """Weight of the value loss while learning the teacher (small: the positions of one game
    share its result, and a large weight memorises the games)."""
    teacher_share: float = 0.0
    """Share of each self-play minibatch drawn from the teacher's positions."""
    teacher_scale: float = 0.0
    """Score units per tanh unit of the teacher's value targets (0 = fitted to the results)."""
    max_moves: int = 0
    """Decisions a self-play game may last (0 = until its rules end it); a game cut there is
    adjudicated by the game's heuristic (learn/game_end.py)."""
    adjudicate_scale: float = 0.0
    """Heuristic units per tanh unit when adjudicating (0 = the teacher's fitted scale, and
    a capped game is a draw without a teacher)."""
    resign: float = -1.0
    """A self-play mover whose root value is below this resigns (-1: never)."""
    never_resign: float = 0.2
    """Share of self-play games played out whatever the values, to count false resignations."""

    def __post_init__(self) -> None:
        if self.value_target not in VALUE_TARGETS:
            raise ParseError(f"value_target={self.value_target!r} is not one of "
                             f"{', '.join(VALUE_TARGETS)}")
        if self.search not in SEARCHES:
            raise ParseError(f"search={self.search!r} is not one of {', '.join(SEARCHES)}")
        if self.rules not in ("arrays", "state"):
            raise ParseError(f"rules={self.rules!r} is not arrays or state")
        if self.inference not in ("float32", "bfloat16"):
            raise ParseError(f"inference={self.inference!r} is not float32 or bfloat16")
        if self.backend not in ("local", "ray"):
            raise ParseError(f"backend={self.backend!r} is not local or ray")
        for name in ("workers", "games_per_worker", "sims", "buffer", "batch", "train_steps",
                     "eval_sims"):
            if getattr(self, name) < 1:
                raise ParseError(f"{name}={getattr(self, name)} must be at least 1")
        if not 0 <= self.gate <= 1:
            raise ParseError(f"gate={self.gate} must be a score in [0, 1]")
        if not 0 <= self.search_discount <= 1:
            raise ParseError(f"search_discount={self.search_discount} must be in [0, 1]")
        for name in ("teacher_result_weight", "teacher_share"):
            if not 0 <= getattr(self, name) <= 1:
                raise ParseError(f"{name}={getattr(self, name)} must be in [0, 1]")
        if self.teacher_share > 0 and not self.teacher:
            raise ParseError("teacher_share needs teacher=<dataset folder>")
        if not 0 < self.distill_lr_end <= 1:
            raise ParseError(f"distill_lr_end={self.distill_lr_end} must be in (0, 1]")
        if self.distill_steps < 0 or self.teacher_value_weight < 0 or self.teacher_scale < 0:
            raise ParseError("distill_steps, teacher_value_weight and teacher_scale must not "
                             "be negative")
        if self.max_moves < 0 or self.adjudicate_scale < 0:
            raise ParseError("max_moves and adjudicate_scale must not be negative")
        if not 0 <= self.never_resign <= 1:
            raise ParseError(f"never_resign={self.never_resign} must be in [0, 1]")

