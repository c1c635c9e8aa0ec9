"""Tabular Q-learning (Watkins 1989; seed 000): a table Q(s, a) over positions and actions.

The update, with the seed's alpha 0.1 and gamma 0.95:
    Q(s, a) <- Q(s, a) + alpha [r + gamma max_a' Q(s', a') - Q(s, a)]
where s' is the learner's next decision (after the opponent's reply) and r the game's
`qlearning` reward (its Game.learning_kit, described in the game package's rewards.py).
Where Q(s, a) is filed is the game's business (its learning kit, core/learning.py): by
default one row per exact position (the kit's `table_key`, e.g. the board plus the side to
move, as bytes) with a column per action; a game may declare other keys by name (setting
`key`), such as a feature abstraction that files positions and actions that look alike under
one entry (a game's rules page names its keys). The table file records its key and the key's
version, and a table filed under another is refused. The agent imports no game.

Exact positions rarely repeat after the opening, so most decisions meet a state the table
has never seen. Then the agent falls back (setting `fallback`) to Q(s, a) as it would be with
nothing known of the future, the expected reward of the transition the table learns from:
`transition` (default) = the own ply's reward plus the reply reward of the opponent's most
damaging reply (a transition ends after the reply; chance averaged exactly); `reward` = the
own ply's reward alone; or the game's `greedy` heuristic one ply ahead (what the greedy
agent plays), or random. `stats` counts table hits and fallbacks; `boardlab train` and
docs/learning.md report the rate.

The table is saved as compressed npz (no pickle): its key's name and version, the rows
(N x key length, uint8), and for each stored (row, column) the row's index, the column (the
action for an exact table) and the value.
"""

from __future__ import annotations

import os
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..core.agent import Agent, Clock
from ..core.game import BoardLabError, Evaluator, Game, State
from ..core.learning import EXACT_KEY, RewardFunction, kit_for
from ..core.weights import shipped_weights
from .evaluation import expected_value, outcomes_after, pick_evaluator

FORMAT = "boardlab-qtable"
VERSION = 1
DEFAULT_REWARD = "qlearning"
"""Seed 000's reward, which tables written before they recorded one learnt."""


FALLBACKS = ("transition", "reward", "greedy", "random")


@dataclass
class QLearningSettings:
    weights: str = ""
    """Q table (.npz); empty = models/<game>-qlearning.npz shipped in the package; `none`
    = an empty table (for training)."""
    alpha: float = 0.1
    """Learning rate (seed 000)."""
    gamma: float = 0.95
    """Discount factor (seed 000)."""
    epsilon: float = 0.3
    """Exploration rate at the first training episode."""
    epsilon_decay: float = 0.999
    """Exploration rate multiplier per training episode."""
    epsilon_min: float = 0.02
    """Lowest exploration rate."""
    fallback: str = "transition"
    """For states not in the table: transition (the own ply's expected reward plus the reply
    reward of the worst reply: Q with the future unknown), reward (the own ply's alone),
    greedy (one ply on the game's greedy heuristic), or random."""
    min_visits: int = 2
    """Saving keeps only states updated at least this often (the rest are noise)."""
    reward: str = ""
    """The game's reward the table learns and the `transition` and `reward` fallbacks score
    (one of its learning kit's `rewards`); empty = the one the table file records (`qlearning`,
    seed 000's, for a file that records none), and for a new table `qlearning`."""
    key: str = ""
    """The game's table key Q(s, a) is filed under (Game.learning_kit: `exact`, one row per
    exact position, or another the game names, e.g. a feature abstraction); empty = the key the
    table file records (`exact` for a file that records none), and for a new table the
    game's default."""

    def __post_init__(self) -> None:
        if self.fallback not in FALLBACKS:
            raise ValueError(f"fallback {self.fallback!r} is not one of {', '.join(FALLBACKS)}")
        if not (0 < self.alpha <= 1 and 0 <= self.gamma <= 1):
            raise ValueError("alpha must be in (0, 1] and gamma in [0, 1]")


class QTable:
    """Q(s, a) for the states seen: row -> {column: value}, with update counts per row; `key`
    names the game's table key that files (s, a) under a row and a column."""

    def __init__(self, key: str = EXACT_KEY, key_version: int = 1,
                 reward: str = DEFAULT_REWARD) -> None:
        self.q: dict[bytes, dict[int, float]] = {}
        self.visits: dict[bytes, int] = {}
        self.key = key
        self.key_version = key_version
        self.reward = reward
        """The reward the values were learnt from (a game's learning kit names it)."""

    def __len__(self) -> int:
        return len(self.q)

    def entries(self) -> int:
        return sum(len(row) for row in self.q.values())

    def update(self, row: bytes, column: int, target: float, alpha: float) -> float:
        """Q += alpha (target - Q) at (row, column); returns the TD error."""
        entries = self.q.setdefault(row, {})
        old = entries.get(column, 0.0)
        error = target - old
        entries[column] = old + alpha * error
        self.visits[row] = self.visits.get(row, 0) + 1
        return error

    def save(self, path: str | os.PathLike[str], game: str, min_visits: int = 1) -> int:
        """Write the states updated at least `min_visits` times; returns the bytes written."""
        kept = [k for k in self.q if self.visits.get(k, 0) >= min_visits and self.q[k]]
        width = max((len(k) for k in kept), default=0)
        keys = np.zeros((len(kept), width), dtype=np.uint8)
        lengths = np.zeros(len(kept), dtype=np.int16)
        index, actions, values, visits = [], [], [], []
        for i, key in enumerate(kept):
            keys[i, :len(key)] = np.frombuffer(key, dtype=np.uint8)
            lengths[i] = len(key)
            visits.append(self.visits.get(key, 0))
            for action, value in self.q[key].items():
                index.append(i)
                actions.append(action)
                values.append(value)
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        with open(tmp, "wb") as handle:  # a file handle keeps numpy from adding ".npz"
            np.savez_compressed(
                handle, format=np.array(FORMAT), version=np.array(VERSION),
                game=np.array(game), key=np.array(self.key),
                key_version=np.array(self.key_version), reward=np.array(self.reward),
                keys=keys, lengths=lengths,
                visits=np.array(visits, dtype=np.int32),
                index=np.array(index, dtype=np.int32), actions=np.array(actions, dtype=np.int32),
                values=np.array(values, dtype=np.float32))
        os.replace(tmp, path)  # never leave a half-written table under the real name
        return path.stat().st_size

    @classmethod
    def load(cls, path: str | os.PathLike[str], game: str) -> "QTable":
        """Read a table written by `save`; BoardLabError naming the file if it is missing,
        truncated, not a Q table, or for another game."""
        path = Path(path)
        if not path.is_file():
            raise BoardLabError(f"Q table {path} does not exist (train one with "
                                f"`boardlab train {game} qlearning --out {path}`)")
        try:
            with np.load(path, allow_pickle=False) as data:
                if "format" not in data.files or str(data["format"]) != FORMAT:
                    raise BoardLabError(f"{path} is not a BoardLab Q table")
                if str(data["game"]) != game:
                    raise BoardLabError(f"Q table {path} was trained for {data['game']}, "
                                        f"not {game}")
                keys, lengths = data["keys"], data["lengths"]
                filed_under = str(data["key"]) if "key" in data.files else EXACT_KEY
                version = int(data["key_version"]) if "key_version" in data.files else 1
                reward = str(data["reward"]) if "reward" in data.files else DEFAULT_REWARD
                visits = data["visits"]
                index, actions, values = data["index"], data["actions"], data["values"]
        except BoardLabError:
            raise
        except (OSError, ValueError, EOFError, KeyError, zipfile.BadZipFile, zlib.error) as error:
            raise BoardLabError(f"Q table {path} is unreadable (truncated or not an npz "
                                f"file): {type(error).__name__}: {error}") from None
        table = cls(filed_under, version, reward)
        try:
            rows = [bytes(keys[i, :lengths[i]]) for i in range(len(keys))]
            for key, count in zip(rows, visits.tolist()):
                table.q[key] = {}
                table.visits[key] = int(count)
            for i, action, value in zip(index.tolist(), actions.tolist(), values.tolist()):
                if not 0 <= i < len(rows):
                    raise IndexError(f"row {i} of {len(rows)}")
                table.q[rows[i]][int(action)] = float(value)
        except (IndexError, TypeError, ValueError) as error:  # arrays that do not fit together
            raise BoardLabError(f"Q table {path} is damaged: its arrays do not fit together "
                                f"({type(error).__name__}: {error})") from None
        return table


class QLearningAgent(Agent):
    name = "qlearning"
    Settings = QLearningSettings
    weights_kind = "qlearning"
    weights_suffix = ".npz"

    def __init__(self, game: Game, settings: QLearningSettings | None = None, **params: Any
                 ) -> None:
        super().__init__(game, settings, **params)
        self.kit = kit_for(game)
        self.evaluate: Evaluator | None = (pick_evaluator(game, "", "greedy")[1]
                                           if game.evaluators else None)
        self.stats = {"decisions": 0, "table_hits": 0, "fallbacks": 0}
        weights, wanted = self.settings.weights, self.settings.key
        if weights.lower() == "none":
            name = wanted or self.kit.default_table_key
            self.table = QTable(name, self.kit.table_key_named(name, game).version,
                                self.settings.reward or DEFAULT_REWARD)
        else:
            path = (Path(weights) if weights
                    else shipped_weights(game.name, self.weights_kind, self.weights_suffix,
                                         "qlearning"))
            self.table = QTable.load(path, game.name)
            if wanted and wanted != self.table.key:
                raise BoardLabError(f"Q table {path} is filed under the key "
                                    f"{self.table.key!r}, not {wanted!r} (key={wanted})")
            version = self.kit.table_key_named(self.table.key, game).version
            if version != self.table.key_version:
                raise BoardLabError(f"Q table {path} is filed under version "
                                    f"{self.table.key_version} of the key "
                                    f"{self.table.key!r}; {game.name} computes version "
                                    f"{version} now (train the table again)")
            if self.settings.reward and self.settings.reward != self.table.reward:
                raise BoardLabError(f"Q table {path} learnt the reward {self.table.reward!r}, "
                                    f"not {self.settings.reward!r} (reward="
                                    f"{self.settings.reward})")
        self.reward = self.kit.reward(self.table.reward, game)
        """The table's reward: what the fallbacks score and the trainer pays."""
        self.key = self.kit.table_key_named(self.table.key, game)
        self.table_key = self.key.state
        """The row of a position (the key's `state`); `key.columns` gives its actions'."""

    @classmethod
    def cannot_play(cls, game: Game) -> str | None:
        if game.learning_kit() is None:
            return "it declares no table key and rewards (Game.learning_kit)"
        return None

    # --- playing -------------------------------------------------------------------------------
    def act(self, state: State, clock: Clock) -> int:
        self.last_view = state  # for last_info's heat map, read from the table on demand
        return self.choose(state, epsilon=0.0)

    def choose(self, state: State, epsilon: float) -> int:
        """Epsilon-greedy over the table; states not in it use the fallback."""
        legal = state.legal_actions()
        if epsilon > 0 and self.rng.random() < epsilon:
            return self.rng.choice(legal)
        self.stats["decisions"] += 1
        row = self.table.q.get(self.table_key(state)) or {}
        known = ([(a, c) for a, c in zip(legal, self.key.columns(state, legal)) if c in row]
                 if row else [])
        if known:
            # Trust the table when a tried action paid off or every action was tried; when
            # all tried ones lost value, an untried one may be better: ask the fallback.
            best = max(row[c] for _, c in known)
            if best >= 0 or len(known) == len(legal):
                self.stats["table_hits"] += 1
                choices = [a for a, c in known if row[c] == best]
                return self.rng.choice(choices)
        self.stats["fallbacks"] += 1
        return self.fallback(state, legal)

    def fallback(self, state: State, legal: list[int]) -> int:
        kind = self.settings.fallback
        if kind == "random" or (kind == "greedy" and self.evaluate is None):
            return self.rng.choice(legal)
        me = state.current_player()
        if kind == "greedy" and self.evaluate is not None:  # None: a random move above
            values = [expected_value(state.child(a), me, self.evaluate) for a in legal]
        elif kind == "transition":
            values = [expected_reward(state, a, self.reward.action, self.reward) for a in legal]
        else:
            values = [expected_reward(state, a, self.reward.action) for a in legal]
        best = max(values)
        return self.rng.choice([a for a, v in zip(legal, values) if v == best])

    def last_info(self) -> dict[str, Any]:
        """decisions, table_hits, fallbacks so far; heat: the table's Q-values of the legal
        moves in the last position played (empty where the table has no row for it)."""
        info: dict[str, Any] = dict(self.stats)
        state = getattr(self, "last_view", None)
        if state is not None and not state.is_terminal():
            row = self.table.q.get(self.table_key(state)) or {}
            legal = state.legal_actions()
            info["heat"] = {"Q-value": {state.action_to_str(a): row[c] for a, c in
                                        zip(legal, self.key.columns(state, legal)) if c in row}}
        return info

    # --- learning ------------------------------------------------------------------------------
    def learn(self, state: State, action: int, reward: float, next_state: State,
              done: bool) -> float:
        """One Q-learning update from a transition; returns the TD error."""
        target = reward
        if not done:
            target += self.settings.gamma * self.best_value(next_state)
        [column] = self.key.columns(state, [action])
        return self.table.update(self.table_key(state), column, target, self.settings.alpha)

    def best_value(self, state: State) -> float:
        """max over legal actions a of Q(state, a); entries not in the table count 0."""
        row = self.table.q.get(self.table_key(state))
        if not row:
            return 0.0
        legal = state.legal_actions()
        return max(row.get(c, 0.0) for c in self.key.columns(state, legal))


def expected_reward(state: State, action: int, reward, replies: RewardFunction | None = None
                    ) -> float:
    """The reward of `action` averaged exactly over the chance outcomes it leads to; with
    `replies`, plus the reply reward of the opponent's worst reply after each outcome."""
    total = 0.0
    for p, after in outcomes_after(state, action):
        value = reward(state, action, after)
        if replies is not None and not after.is_terminal():
            value += worst_reply(after, state.current_player(), replies)
        total += p * value
    return total


def worst_reply(state: State, player: int, replies: RewardFunction) -> float:
    """The lowest expected reply reward `player` can get from the opponent's move in `state`
    (0 if no reply hurts; the opponent may also simply not take)."""
    mover = state.current_player()
    if mover == player or mover < 0:
        return 0.0
    candidates = (replies.threats(state, player) if replies.threats is not None
                  else state.legal_actions())
    worst = 0.0
    for action in candidates:
        value = sum(p * replies.reply(state, after, player)
                    for p, after in outcomes_after(state, action))
        worst = min(worst, value)
    return worst
