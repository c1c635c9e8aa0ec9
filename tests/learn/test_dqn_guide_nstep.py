"""Vectorized DQN training: the same games as the sequential episodes, n-step targets, a guide
whose moves are learned from, and the checkpoint that carries it all."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from boardlab import make_agent, make_game  # noqa: E402
from boardlab.core.agent import Clock  # noqa: E402
from boardlab.core.game import BoardLabError  # noqa: E402
from boardlab.learn.cli import build_trainer  # noqa: E402
from boardlab.learn.episodes import OpponentMix, play_episode  # noqa: E402
from boardlab.core.learning import kit_for  # noqa: E402
from boardlab.learn.selfplay import VectorSelfPlay  # noqa: E402

SHORT = "jungle:no_capture_limit=10"


def middle_legal(encoded, masks, states):
    """A deterministic policy: the middle legal action of every game."""
    return np.array([np.flatnonzero(m)[len(np.flatnonzero(m)) // 2] for m in masks])


def vector_transitions(game, episodes, envs, opponent, n_step=1, gamma=0.99, seed=0):
    """Every transition of `episodes` training games played `envs` at a time."""
    games = VectorSelfPlay(game, envs, kit_for(game).reward("dqn", game),
                           OpponentMix(game, opponent), seed, gamma, n_step)
    games.play_until(episodes)
    rows = []
    while games.running():
        batch = games.step(middle_legal)
        if batch is not None:
            rows += [(batch.states[i], int(batch.actions[i]), float(batch.rewards[i]),
                      bool(batch.dones[i]), float(batch.discounts[i]))
                     for i in range(len(batch))]
    return rows, games


class Recorder:
    """A sequential learner (learn/episodes.py) with the same policy, recording transitions."""

    def __init__(self):
        self.rows = []

    def choose(self, state, explore):
        legal = state.legal_actions()
        return legal[len(legal) // 2]

    def observe(self, state, action, reward, next_state, done):
        self.rows.append((state.encode(state.current_player()).reshape(-1), action, reward,
                          done))


@pytest.mark.parametrize("spec, opponent", [(SHORT, "random"), ("reversi", "greedy")])
def test_vectorized_games_are_the_sequential_episodes(spec, opponent):
    """Six seeded episodes three at a time give the transitions the one-game-at-a-time
    loop gives (compared as multisets: the vector interleaves games)."""
    game = make_game(spec)
    rows, _ = vector_transitions(game, 6, envs=3, opponent=opponent)
    recorder = Recorder()
    mix = OpponentMix(game, opponent)
    from boardlab.core.match import derive_seed
    for k in range(6):
        play_episode(game, recorder, kit_for(game).reward("dqn", game), opponent, mix.agents,
                     derive_seed(0, "train", k), learner_seat=k % 2)
    key = lambda row: (row[0].tobytes(), row[1], round(row[2], 5), row[3])  # noqa: E731
    assert len(rows) == len(recorder.rows) > 20
    assert sorted(map(key, rows)) == sorted(map(key, recorder.rows))


def test_n_step_returns_sum_discounted_one_step_rewards_and_flush_at_the_end():
    game = make_game(SHORT)
    one, _ = vector_transitions(game, 1, envs=1, opponent="random")
    three, _ = vector_transitions(game, 1, envs=1, opponent="random", n_step=3, gamma=0.5)
    rewards = [r for _, _, r, _, _ in one]
    assert [a for _, a, *_ in three] == [a for _, a, *_ in one] and len(one) > 4
    for t, (_, _, ret, done, discount) in enumerate(three):
        window = rewards[t:t + 3]
        assert ret == pytest.approx(sum(0.5 ** j * r for j, r in enumerate(window)), abs=1e-5)
        if t + 3 <= len(one) - 1:
            assert not done and discount == pytest.approx(0.125)
        else:  # the game ended within n steps: the shorter return, nothing to bootstrap
            assert done and discount == 0.0


def test_one_step_targets_are_the_seeds():
    game = make_game(SHORT)
    rows, _ = vector_transitions(game, 2, envs=2, opponent="random")
    assert all(discount == pytest.approx(0.99) for *_, done, discount in rows if not done)
    assert sum(done for *_, done, _ in rows) == 2


def test_the_guide_plays_when_drawn_and_never_in_evaluation():
    game, trainer = build_trainer("reversi", "dqn",
                                  "guide=greedy,guide_rate=1.0,envs=4,lookahead=0",
                                  opponent="self")
    reference = make_agent("greedy", game)
    trainer.guide.rng.seed(0)
    reference.rng.seed(0)
    games = trainer.new_games(0)
    games.play_until(4)
    chosen = []  # the trainer's actions at each step

    def choose(encoded, masks, s):
        chosen.append(trainer.choose(encoded, masks, s))
        return chosen[-1]
    for _ in range(10):
        states = [e.state.clone() for e in games.slots]
        games.step(choose)
        assert [int(a) for a in chosen[-1]] == [reference.act(s.clone(), Clock()) for s in states]
    player = trainer.player()
    network = [trainer.agent.choose(e.state, 0.0) for e in games.slots]
    assert [player.act(e.state, None) for e in games.slots] == network


def test_guide_rate_decays_per_episode_and_survives_a_checkpoint(tmp_path):
    game, trainer = build_trainer(SHORT, "dqn", "guide=random,guide_rate=0.8,guide_decay=0.5,"
                                  "guide_min=0.15,envs=1", opponent="random")
    trainer.train_until(3)
    assert trainer.guide_rate == pytest.approx(0.15)  # 0.8, 0.4, 0.2, then the floor
    trainer.save_checkpoint(tmp_path / "c.pt", {**trainer.identity(),
                                                **trainer.progress.to_dict()})
    _, again = build_trainer(SHORT, "dqn", "guide=random,guide_rate=0.8,envs=1",
                             opponent="random")
    again.load_checkpoint(tmp_path / "c.pt")
    assert again.guide_rate == pytest.approx(0.15) and again.progress.episodes == 3
    assert len(again.buffer) == len(trainer.buffer) > 0


def test_guided_episodes_win_more_often_than_an_untrained_network():
    """Guided by greedy, the learner's episodes reach wins (the terminal reward the
    untrained network's own play rarely shows it)."""
    def wins(params):
        _, trainer = build_trainer("jungle", "dqn", params + ",envs=5,epsilon=0",
                                   seed=9, opponent="random")
        trainer.train_until(10)
        return sum(e.returns[e.learner_seats[0]] > 0 for e in trainer.recent)
    assert wins("guide=greedy,guide_rate=1.0,warmup=100000") >= wins("warmup=100000") + 5


def test_bad_n_step_guide_rates_and_envs_are_refused():
    from boardlab import ParseError
    for params, words in (("n_step=0", "n_step"), ("guide_rate=1.5", "guide_rate"),
                          ("guide=nosuchagent", "nosuchagent"), ("envs=0", "envs")):
        with pytest.raises(ParseError, match=words) as caught:
            build_trainer(SHORT, "dqn", params)
        assert "\n" not in str(caught.value)


def test_a_checkpoint_from_another_network_is_a_one_line_error(tmp_path):
    _, small = build_trainer(SHORT, "dqn", "hidden=16,envs=2,warmup=10", opponent="random")
    small.train_until(2)
    small.save_checkpoint(tmp_path / "c.pt", {**small.identity(), **small.progress.to_dict()})
    _, large = build_trainer(SHORT, "dqn", "hidden=32,envs=2", opponent="random")
    with pytest.raises(BoardLabError) as caught:
        large.load_checkpoint(tmp_path / "c.pt")
    assert "c.pt" in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize("params", ["zero_head=true", "zero_head=true,dueling=true"])
def test_a_zero_head_network_says_nothing_until_it_learns(params):
    game, trainer = build_trainer("jungle", "dqn", params + ",lookahead=0")
    state = game.initial_state(0)
    assert not np.any(trainer.agent.q_values([state], [0]))
    _, plain = build_trainer("jungle", "dqn", "lookahead=0")
    assert np.any(plain.agent.q_values([state], [0]))
