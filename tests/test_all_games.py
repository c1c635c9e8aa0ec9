"""One random-game test run over every registered game (STYLE.md point 5)."""

import random

import numpy as np
import pytest

from boardlab import CHANCE, ParseError, play_match
from boardlab.core.registry import game_names, make_agent, make_game


@pytest.mark.parametrize("name", game_names())
def test_random_games_keep_the_contract(name):
    game = make_game(name)
    facts = game.facts
    rng = random.Random(12345)
    for game_index in range(20):
        state = game.initial_state(seed=game_index)
        decisions = 0
        while not state.is_terminal():
            player = state.current_player()
            actions = state.legal_actions()
            assert actions, f"{name}: empty legal actions at a non-terminal node"
            assert actions == sorted(set(actions))
            if player == CHANCE:
                outcomes = state.chance_outcomes()
                assert sum(p for _, p in outcomes) == pytest.approx(1.0)
                assert all(p > 0 for _, p in outcomes)
                action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                assert 0 <= player < facts.num_players
                assert all(0 <= a < facts.num_actions for a in actions)
                action = rng.choice(actions)
                text = state.action_to_str(action)
                assert state.str_to_action(text) == action, f"{name}: {text!r} round trip"
                view = state.view(player, random.Random(game_index))
                assert view.legal_actions() == actions
                encoded = state.encode(player)
                assert isinstance(encoded, np.ndarray) and np.isfinite(encoded).all()
                # the PettingZoo wrapper promises observations in [0, 1]
                assert encoded.min() >= 0.0 and encoded.max() <= 1.0, f"{name}: encoding range"
                decisions += 1
                try:
                    position = state.to_text()
                except (NotImplementedError, ParseError):
                    position = None
                if position is not None and not facts.hidden_information:
                    assert game.state_from_text(position).to_text() == position
            twin = state.clone()
            state.apply(action)
            assert twin.current_player() == player, "apply on a state changed its clone"
            assert decisions <= facts.max_length
        for player in range(facts.num_players):
            # PettingZoo shows every agent the final position too
            encoded = state.encode(player)
            assert encoded.min() >= 0.0 and encoded.max() <= 1.0, f"{name}: final encoding"
        returns = state.returns()
        assert len(returns) == facts.num_players
        assert all(-1 <= r <= 1 for r in returns)
        if facts.zero_sum:
            assert sum(returns) == pytest.approx(0.0)


@pytest.mark.parametrize("name", game_names())
def test_every_game_plays_random_against_random_through_the_match_runner(name):
    game = make_game(name)
    agents = [make_agent("random", game) for _ in range(game.num_players)]
    first = play_match(game, agents, seed=7)
    second = play_match(game, agents, seed=7)
    assert first.reason == "normal"
    assert first.actions == second.actions, "the same seed must replay the same game"
    assert first.replay(game).returns() == first.returns


@pytest.mark.parametrize("name", game_names())
def test_batch_encoding_equals_one_encoding_at_a_time(name):
    """`Game.encode_batch` (a compiled kernel in some games) gives exactly the stacked
    `State.encode` arrays, for every player, final positions included."""
    game = make_game(name)
    rng = random.Random(99)
    states, players = [], []
    for game_index in range(8):
        state = game.initial_state(seed=game_index)
        while True:
            for player in range(game.num_players):
                states.append(state.clone())
                players.append(player)
            if state.is_terminal():
                break
            if state.current_player() == CHANCE:
                outcomes = state.chance_outcomes()
                state.apply(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            else:
                state.apply(rng.choice(state.legal_actions()))
    batch = game.encode_batch(states, players)
    single = np.stack([s.encode(p) for s, p in zip(states, players)])
    assert batch.dtype == single.dtype and batch.shape == single.shape
    assert np.array_equal(batch, single)
