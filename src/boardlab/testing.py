"""The contract tests BoardLab runs on each of its games, for any game package to run on itself.

A third-party game calls `check_game(MyGame())` in one of its own tests (the template that
`boardlab new-game` writes does): random games keep the contract of `core/game.py`, the match
runner replays them, and `encode_batch` equals one `encode` at a time. Each check raises
AssertionError with the game's name and what broke, so pytest shows it as a failed test.
"""

from __future__ import annotations

import math
import random

import numpy as np

from .core.game import CHANCE, Game, ParseError, State
from .core.agent import Clock
from .core.match import play_match, sample_chance
from .core.registry import make_agent

__all__ = ["array_legal", "array_played", "check_array_row", "check_array_rules",
           "check_batch_encoding", "check_game", "check_random_games", "check_replay"]


def check_game(game: Game, games: int = 20, seed: int = 12345) -> None:
    """Every check below on `game`: what BoardLab's own suite asks of each of its games."""
    check_random_games(game, games, seed)
    check_replay(game)
    check_batch_encoding(game)


def check_random_games(game: Game, games: int = 20, seed: int = 12345) -> None:
    """Play `games` uniformly random games and check at every step: legal actions sorted,
    unique, inside the action space and never empty before the end; chance probabilities
    positive and summing to 1; notation round trips (moves, and positions where the game has
    a position notation and no hidden information); a view keeps the legal actions; encodings
    finite in [0, 1] (the PettingZoo wrapper promises that range), final positions included;
    `apply` leaves a clone alone; length within `facts.max_length`; returns per player in
    [-1, 1] and summing to 0 in a zero-sum game."""
    name, facts = game.name, game.facts
    rng = random.Random(seed)
    for game_index in range(games):
        state = game.initial_state(seed=game_index)
        decisions = 0
        while not state.is_terminal():
            player = state.current_player()
            actions = state.legal_actions()
            assert actions, f"{name}: empty legal actions at a non-terminal node:\n{state}"
            assert actions == sorted(set(actions)), f"{name}: legal actions not sorted/unique"
            if player == CHANCE:
                outcomes = state.chance_outcomes()
                assert math.isclose(sum(p for _, p in outcomes), 1.0, abs_tol=1e-9), (
                    f"{name}: chance probabilities do not sum to 1: {outcomes}")
                assert all(p > 0 for _, p in outcomes), f"{name}: a chance outcome has p <= 0"
                action = sample_chance(state, rng)
            else:
                assert 0 <= player < facts.num_players, f"{name}: current player {player}"
                assert all(0 <= a < facts.num_actions for a in actions), (
                    f"{name}: an action outside 0..{facts.num_actions - 1}: {actions}")
                action = rng.choice(actions)
                text = state.action_to_str(action)
                assert state.str_to_action(text) == action, f"{name}: {text!r} round trip"
                view = state.view(player, random.Random(game_index))
                assert view.legal_actions() == actions, f"{name}: a view changed the moves"
                _check_encoding(state, player, name)
                decisions += 1
                _check_position_round_trip(game, state)
            twin = state.clone()
            state.apply(action)
            assert twin.current_player() == player, f"{name}: apply on a state changed its clone"
            assert decisions <= facts.max_length, f"{name}: longer than max_length"
        for player in range(facts.num_players):
            _check_encoding(state, player, name)  # PettingZoo shows the final position too
        returns = state.returns()
        assert len(returns) == facts.num_players, f"{name}: {returns} is not one per player"
        assert all(-1 <= r <= 1 for r in returns), f"{name}: returns {returns} outside [-1, 1]"
        if facts.zero_sum:
            assert math.isclose(sum(returns), 0.0, abs_tol=1e-9), (
                f"{name}: returns {returns} of a zero-sum game do not sum to 0")


def _check_encoding(state: State, player: int, name: str) -> None:
    encoded = state.encode(player)
    assert isinstance(encoded, np.ndarray) and np.isfinite(encoded).all(), (
        f"{name}: encode() must give a finite numpy array")
    assert encoded.min() >= 0.0 and encoded.max() <= 1.0, f"{name}: encoding outside [0, 1]"


def _check_position_round_trip(game: Game, state: State) -> None:
    """Text position -> state -> text gives the same text (games with a notation for it)."""
    if game.facts.hidden_information:
        return  # a hidden position's text is one player's view, not the whole state
    try:
        position = state.to_text()
    except (NotImplementedError, ParseError):
        return
    again = game.state_from_text(position).to_text()
    assert again == position, f"{game.name}: position {position!r} reads back as {again!r}"


def check_replay(game: Game, seed: int = 7) -> None:
    """Random agents play one game through the match runner; the same seed replays it move
    for move, and the stored record replays to the same returns."""
    agents = [make_agent("random", game) for _ in range(game.num_players)]
    first = play_match(game, agents, seed=seed)
    second = play_match(game, agents, seed=seed)
    assert first.reason == "normal", f"{game.name}: the game ended by {first.reason!r}"
    assert first.actions == second.actions, f"{game.name}: the same seed played another game"
    assert first.replay(game).returns() == first.returns, f"{game.name}: the record replays"


def check_batch_encoding(game: Game, games: int = 8, seed: int = 99) -> None:
    """`Game.encode_batch` (a compiled kernel in some games) gives exactly the stacked
    `State.encode` arrays, for every player, final positions included."""
    rng = random.Random(seed)
    states: list[State] = []
    players: list[int] = []
    for game_index in range(games):
        state = game.initial_state(seed=game_index)
        while True:
            for player in range(game.num_players):
                states.append(state.clone())
                players.append(player)
            if state.is_terminal():
                break
            if state.current_player() == CHANCE:
                state.apply(sample_chance(state, rng))
            else:
                state.apply(rng.choice(state.legal_actions()))
    batch = game.encode_batch(states, players)
    single = np.stack([s.encode(p) for s, p in zip(states, players)])
    assert batch.dtype == single.dtype and batch.shape == single.shape, (
        f"{game.name}: encode_batch gives {batch.dtype} {batch.shape}, "
        f"encode {single.dtype} {single.shape}")
    assert np.array_equal(batch, single), f"{game.name}: encode_batch differs from encode"


def search_decision(spec: str, state: State, seed: int = 5) -> tuple[str, float]:
    """The move (in notation) and root value a search agent built from `spec` picks."""
    agent = make_agent(spec, state.game)
    agent.start_game(state.current_player(), seed)
    action = agent.act(state.clone(), Clock())
    return state.action_to_str(action), agent.last_info()["value"]


def check_compiled_search(state: State, depth: int, seed: int = 5, evaluator: str = "",
                          weights: str = "") -> None:
    """A game's compiled alpha-beta (`Game.compiled_minimax`) picks the same move with the
    same value as the readable Python search (`minimax` without table or kernel) from
    `state` at `depth`, both with the heuristic named `evaluator` (empty: the game's
    `minimax`) reading the file `weights` (empty: its shipped one); AssertionError naming the
    position if not."""
    spec = f"minimax:depth={depth}" + (f",eval={evaluator}" if evaluator else "") + (
        f",eval_weights={weights}" if weights else "")
    python = search_decision(spec + ",tt=false,kernel=false", state, seed)
    compiled = search_decision(spec, state, seed)
    assert compiled == python, (depth, python, compiled, state.to_text())


# --- array rules (Game.array_rules: the compiled leaves of the AlphaZero self-play search) ---

def array_legal(game: Game, row: np.ndarray) -> list[int]:
    """The legal actions the game's array rules list for `row`."""
    rules = game.array_rules()
    assert rules is not None, f"{game.name} declares no array rules"
    out = np.zeros(game.num_actions, dtype=np.int64)
    return out[:rules.legal_actions(row, out)].tolist()


def array_played(game: Game, row: np.ndarray, action: int) -> np.ndarray:
    """The row after `action`, by the game's array rules."""
    rules = game.array_rules()
    assert rules is not None, f"{game.name} declares no array rules"
    out = np.zeros(rules.width, dtype=np.int64)
    rules.play(row, action, out)
    return out


def check_array_row(game: Game, row: np.ndarray, state: State) -> None:
    """The row says what `state` says: its packing, the player to move, the moves, the
    planes for the mover (equal to `encode` and `encode_batch`), the end and its return."""
    rules = game.array_rules()
    assert rules is not None, f"{game.name} declares no array rules"
    where = f"{game.name}: {state.to_text()}"
    assert row.tolist() == rules.pack(state).tolist(), where
    assert rules.current_player(row) == state.current_player(), where
    assert array_legal(game, row) == state.legal_actions(), where
    if state.is_terminal():
        assert rules.player0_return(row) == state.returns()[0], where
        return
    mover = state.current_player()
    planes = state.encode(mover)
    out = np.ones(planes.shape, dtype=np.float32)  # not zeros: encode must clear what it reuses
    rules.encode(row, out)
    assert np.array_equal(out, planes), where
    assert np.array_equal(out, game.encode_batch([state], [mover])[0]), where


def check_array_rules(game: Game, games: int = 100, seed: int = 7) -> list[State]:
    """Seeded random games played on rows and on States side by side, every position checked
    by `check_array_row`; returns the final States (for the caller's own checks)."""
    rules = game.array_rules()
    assert rules is not None, f"{game.name} declares no array rules"
    rng = random.Random(seed)
    finals = []
    for _ in range(games):
        state = game.initial_state()
        row = rules.pack(state)
        while True:
            check_array_row(game, row, state)
            if state.is_terminal():
                break
            action = rng.choice(state.legal_actions())
            state.apply(action)
            row = array_played(game, row, action)
        finals.append(state)
    return finals
