"""DQN training options beyond the seed: n-step targets and a guide whose moves are learned from."""

import random

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from boardlab import make_agent  # noqa: E402
from boardlab.core.agent import Clock  # noqa: E402
from boardlab.learn.cli import build_trainer  # noqa: E402
from boardlab.learn.episodes import OpponentMix, play_episode  # noqa: E402

SHORT = "jungle:no_capture_limit=10"


def _decisions(game, count, seed=3):
    """`count` states of one seeded random game where a player (not chance) is to move."""
    rng = random.Random(seed)
    state, found = game.initial_state(seed), []
    while len(found) < count and not state.is_terminal():
        if state.current_player() >= 0:
            found.append(state.clone())
            state.apply(rng.choice(state.legal_actions()))
        else:
            outcomes = state.chance_outcomes()
            state.apply(rng.choices([k for k, _ in outcomes], [p for _, p in outcomes])[0])
    return found


def test_n_step_targets_sum_discounted_rewards_and_flush_at_the_end():
    game, trainer = build_trainer(SHORT, "dqn", "n_step=3,warmup=100000,gamma=0.5")
    states = _decisions(game, 6)
    player = states[0].current_player()
    mine = [s for s in states if s.current_player() == player][:3]
    rewards = [1.0, 2.0, 4.0, 8.0]
    # four transitions of one seat: the first push waits for three rewards
    trainer.observe(mine[0], 11, rewards[0], mine[1], False)
    trainer.observe(mine[1], 12, rewards[1], mine[2], False)
    assert len(trainer.buffer) == 0
    trainer.observe(mine[2], 13, rewards[2], mine[0], False)
    assert len(trainer.buffer) == 1
    assert trainer.buffer.rewards[0] == pytest.approx(1 + 0.5 * 2 + 0.25 * 4)
    assert trainer.buffer.discounts[0] == pytest.approx(0.125)
    assert trainer.buffer.actions[0] == 11 and trainer.buffer.dones[0] == 0
    # the game ends: the three waiting transitions are pushed with their shorter returns
    trainer.observe(mine[0], 14, rewards[3], mine[1], True)
    assert len(trainer.buffer) == 4
    assert trainer.buffer.actions[1:4].tolist() == [12, 13, 14]
    assert trainer.buffer.rewards[1:4].tolist() == pytest.approx(
        [2 + 0.5 * 4 + 0.25 * 8, 4 + 0.5 * 8, 8])
    assert trainer.buffer.dones[1:4].tolist() == [1, 1, 1]


def test_one_step_is_the_seeds_target():
    game, trainer = build_trainer(SHORT, "dqn", "warmup=100000")
    a, b = _decisions(game, 3)[0::2]
    trainer.observe(a, 5, 0.25, b, False)
    assert trainer.buffer.rewards[0] == 0.25
    assert trainer.buffer.discounts[0] == pytest.approx(0.99)
    assert trainer.buffer.next_masks[0].nonzero()[0].tolist() == sorted(b.legal_actions())


def test_the_guide_plays_when_drawn_and_never_in_evaluation():
    game, trainer = build_trainer(SHORT, "dqn", "guide=greedy,guide_rate=1.0")
    reference = make_agent("greedy", game)
    trainer.start_episode(seed=1, k=0)
    reference.start_game(0, 0)
    states = _decisions(game, 12)
    for state in states:
        view_rng = random.Random(state.current_player())
        trainer.view_rng = random.Random(state.current_player())
        expected = reference.act(state.view(state.current_player(), view_rng), Clock())
        trainer.guide.rng = random.Random(0)
        reference.rng = random.Random(0)
        assert trainer.choose(state, explore=True) == expected
    network = [trainer.agent.choose(s, 0.0) for s in states]
    assert [trainer.choose(s, explore=False) for s in states] == network


def test_guide_rate_decays_per_episode_and_survives_a_checkpoint(tmp_path):
    game, trainer = build_trainer(SHORT, "dqn", "guide=random,guide_rate=0.8,guide_decay=0.5,"
                                  "guide_min=0.15")
    for _ in range(3):
        trainer.end_episode()
    assert trainer.guide_rate == pytest.approx(0.15)  # 0.8, 0.4, 0.2, then the floor
    trainer.save_checkpoint(tmp_path / "c.pt", {"algorithm": "dqn"})
    _, again = build_trainer(SHORT, "dqn", "guide=random,guide_rate=0.8")
    again.load_checkpoint(tmp_path / "c.pt")
    assert again.guide_rate == pytest.approx(0.15)


def test_a_guided_episode_wins_more_often_than_an_untrained_network():
    """Guided by greedy, the learner's episodes reach wins (the terminal reward the
    untrained network's own play rarely shows it)."""
    def wins(params):
        game, trainer = build_trainer("jungle", "dqn", params)
        mix = OpponentMix(game, "random")
        total = 0
        for k in range(10):
            trainer.start_episode(9, k)
            result = play_episode(game, trainer, trainer.reward, "random", mix.agents,
                                  seed=100 + k, learner_seat=k % 2)
            total += result.returns[k % 2] > 0
        return total
    assert wins("guide=greedy,guide_rate=1.0,warmup=100000") >= wins("warmup=100000") + 5


def test_bad_n_step_and_guide_rates_are_refused():
    from boardlab import ParseError
    for params, words in (("n_step=0", "n_step"), ("guide_rate=1.5", "guide_rate"),
                          ("guide=nosuchagent", "nosuchagent")):
        with pytest.raises(ParseError, match=words) as caught:
            build_trainer(SHORT, "dqn", params)
        assert "\n" not in str(caught.value)
