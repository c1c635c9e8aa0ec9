"""DQfD's pieces in the DQN trainer (Hester et al. 2017): prioritized replay, demonstrations in
a protected share of replay that survive a resume, and the large-margin imitation loss."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from boardlab import BoardLabError, make_game  # noqa: E402
from boardlab.core.learning import kit_for  # noqa: E402
from boardlab.learn.cli import build_trainer  # noqa: E402
from boardlab.learn.dqn import margin_loss  # noqa: E402
from boardlab.learn.episodes import OpponentMix  # noqa: E402
from boardlab.learn.replay import PrioritizedReplay, ReplayBuffer, SumTree  # noqa: E402
from boardlab.learn.selfplay import Transitions, VectorSelfPlay  # noqa: E402

SHORT = "jungle:no_capture_limit=10"


def transitions(actions, inputs=4, num_actions=5):
    n = len(actions)
    return Transitions(states=np.zeros((n, inputs), np.float32),
                       actions=np.array(actions, dtype=np.int64),
                       rewards=np.arange(n, dtype=np.float32),
                       next_states=np.ones((n, inputs), np.float32),
                       dones=np.zeros(n, np.float32), next_masks=np.ones((n, num_actions), bool),
                       discounts=np.full(n, 0.99, np.float32), n_step_rows=np.zeros(n, bool))


def test_the_margin_loss_on_a_constructed_batch():
    """max_a [Q(s, a) + l(a_E, a)] - Q(s, a_E), averaged over the demonstrations only."""
    q = torch.tensor([[1.0, 2.0, 0.0],    # expert 0: 2 + 0.8 - 1 = 1.8
                      [3.0, 1.0, 2.5],    # expert 0 beats the rest by 0.5 < 0.8: 2.5 + 0.8 - 3
                      [5.0, 0.0, 0.0],    # expert 0 beats the rest by more than the margin: 0
                      [0.0, 9.0, 0.0]],   # not a demonstration: left out
                     requires_grad=True)
    actions = torch.tensor([0, 0, 0, 0])
    demos = torch.tensor([True, True, True, False])
    loss = margin_loss(q, actions, demos, 0.8)
    assert loss.item() == pytest.approx((1.8 + 0.3 + 0.0) / 3)
    loss.backward()
    assert q.grad[3].abs().sum() == 0  # no gradient to a transition the agent found itself
    assert q.grad[0].tolist() == pytest.approx([-1 / 3, 1 / 3, 0])
    assert q.grad[2].abs().sum() == 0  # satisfied: nothing to push
    no_demos = margin_loss(q, actions, torch.zeros(4, dtype=torch.bool), 0.8)
    assert no_demos.item() == 0


def test_demonstrations_are_never_overwritten_by_the_ring():
    buffer = ReplayBuffer(6, 4, 5)
    buffer.protect(transitions([1, 2]))
    for _ in range(5):
        buffer.push_batch(transitions([3, 4, 3]))
    assert buffer.demos == 2 and len(buffer) == 6
    assert buffer.actions[:2].tolist() == [1, 2]
    assert set(buffer.actions[2:].tolist()) == {3, 4}
    sample = buffer.sample(300, np.random.default_rng(0))
    assert np.array_equal(sample["demos"], np.isin(sample["actions"], [1, 2]))
    with pytest.raises(ValueError, match="before any other"):
        buffer.protect(transitions([1]))
    with pytest.raises(ValueError, match="no room"):
        ReplayBuffer(3, 4, 5).protect(transitions([1, 2, 3]))


def test_a_sum_tree_draws_in_proportion_to_its_weights():
    tree = SumTree(5)
    tree.set(np.arange(5), np.array([1.0, 0.0, 3.0, 0.0, 4.0]))
    tree.set(np.array([0]), np.array([2.0]))
    assert tree.total == 9.0
    drawn = tree.find(np.random.default_rng(0).random(9000) * tree.total)
    counts = np.bincount(drawn, minlength=5) / 9000
    assert counts == pytest.approx([2 / 9, 0, 3 / 9, 0, 4 / 9], abs=0.02)


def test_prioritized_replay_draws_large_errors_more_and_weights_them_less():
    buffer = PrioritizedReplay(8, 4, 5, alpha=1.0, beta=1.0, epsilon=0.0, demo_bonus=0.0)
    buffer.push_batch(transitions([0, 1, 2, 3]))
    buffer.update_priorities(np.array([0, 1, 2, 3, 3]), np.array([1.0, 1.0, 1.0, 0.0, 7.0]))
    sample = buffer.sample(1000, np.random.default_rng(1))
    share = np.mean(sample["actions"] == 3)
    assert share == pytest.approx(0.7, abs=0.05)  # its last error counts, 7 of 10
    # (N P(i))^-beta over the largest: 1 for the others (P = 0.1), 1/7 for it (P = 0.7)
    assert sample["weights"][sample["actions"] != 3] == pytest.approx(1.0)
    assert sample["weights"][sample["actions"] == 3] == pytest.approx(1 / 7)
    again = PrioritizedReplay(8, 4, 5, alpha=1.0, beta=1.0)
    again.load_state_dict(buffer.state_dict())
    assert again.priorities.total == pytest.approx(buffer.priorities.total)
    assert again.highest == buffer.highest


def test_demonstrations_fill_replay_first_and_survive_a_resume(tmp_path):
    params = ("hidden=16,envs=3,warmup=10,buffer=400,demos=greedy,demo_episodes=2,"
              "demo_pretrain=4,margin_weight=1,prioritized=true,n_step=3,n_step_weight=1")
    _, trainer = build_trainer(SHORT, "dqn", params, opponent="random")
    trainer.train_until(2)
    demos = trainer.buffer.demos
    assert demos > 10 and trainer.pretrained == 4
    assert trainer.progress.updates >= 4
    kept = trainer.buffer.rows(np.arange(demos))
    trainer.save_checkpoint(tmp_path / "c.pt", {**trainer.identity(),
                                                **trainer.progress.to_dict()})
    _, again = build_trainer(SHORT, "dqn", params, opponent="random")
    again.load_checkpoint(tmp_path / "c.pt")
    assert again.buffer.demos == demos and again.pretrained == 4
    again.train_until(40)  # the ring turns over: 400 rows, far more transitions
    assert again.transitions > 400 and again.buffer.demos == demos
    assert again.pretrained == 4  # not demonstrated again
    for name, values in again.buffer.rows(np.arange(demos)).items():
        assert np.array_equal(values, kept[name]), name
    assert "demonstrations" in again.describe()


def test_one_step_rows_beside_the_n_step_rows():
    """`one_step_too` (DQfD's two TD losses): every transition comes as its one-step row and
    its n-step row, each the row the n = 1 and n = 3 runs give on their own."""
    game = make_game(SHORT)

    def rows(n_step, both):
        games = VectorSelfPlay(game, 2, kit_for(game).reward("dqn", game),
                               OpponentMix(game, "random"), 0, 0.5, n_step, one_step_too=both)
        games.play_until(2)
        found = []
        while games.running():
            b = games.step(lambda e, masks, s: np.array([np.flatnonzero(m)[0] for m in masks]))
            if b is not None:
                found += [(b.states[i].tobytes(), int(b.actions[i]), round(float(b.rewards[i]), 5),
                           bool(b.dones[i]), round(float(b.discounts[i]), 5),
                           b.next_states[i].tobytes(), bool(b.n_step_rows[i]))
                          for i in range(len(b))]
        return found
    both = rows(3, True)
    assert not any(row[-1] for row in rows(3, False))
    assert sorted(r[:-1] for r in both if not r[-1]) == sorted(r[:-1] for r in rows(1, False))
    assert sorted(r[:-1] for r in both if r[-1]) == sorted(r[:-1] for r in rows(3, False))
    assert len(both) > 20


def test_demonstrations_for_a_run_that_has_played_are_a_one_line_error(tmp_path):
    _, plain = build_trainer(SHORT, "dqn", "hidden=16,envs=2,warmup=10", opponent="random")
    plain.train_until(2)
    plain.save_checkpoint(tmp_path / "c.pt", {**plain.identity(), **plain.progress.to_dict()})
    _, late = build_trainer(SHORT, "dqn", "hidden=16,envs=2,warmup=10,demos=random,"
                            "demo_episodes=1", opponent="random")
    late.load_checkpoint(tmp_path / "c.pt")
    with pytest.raises(BoardLabError, match="demos=random: .*before any other") as caught:
        late.train_until(3)
    assert "\n" not in str(caught.value)


def test_a_teacher_dataset_teaches_the_network_its_moves_before_the_first_game(tmp_path):
    """`teacher=DIR`: the network learns a search's labelled positions (the default loss, the
    cross-entropy of its Q-values), reported on its held-out games; the target network copies
    the result, and a resumed run does not learn them again."""
    from boardlab.learn.teacher import TeacherSettings, teach

    teach("jungle", TeacherSettings(search="minimax:depth=1", positions=5000,
                                    shard_positions=1000, workers=1, seed=1), tmp_path / "data")
    params = (f"arch=conv,channels=16,dropout=0,envs=2,warmup=10,teacher={tmp_path / 'data'},"
              "teacher_steps=800,teacher_batch=128")
    _, trainer = build_trainer("jungle", "dqn", params, opponent="random")
    trainer.learn_teacher()
    target = trainer.target.state_dict()
    assert all(torch.equal(target[k], v) for k, v in trainer.network.state_dict().items())
    trainer.train_until(1)  # taught already: it plays
    assert trainer.progress.episodes == 1
    report = trainer.teacher_report
    losses = [float(x) for x in report.split("entropy loss ")[1].split(",")[0].split(" -> ")]
    firsts = [float(x.rstrip("%")) for x in
              report.split("move first ")[1].split(" -> ")]
    assert losses[1] < losses[0] - 1 and firsts[1] > firsts[0] + 5, report
    assert trainer.taught
    trainer.save_checkpoint(tmp_path / "c.pt", {**trainer.identity(),
                                                **trainer.progress.to_dict()})
    _, again = build_trainer("jungle", "dqn", params, opponent="random")
    again.load_checkpoint(tmp_path / "c.pt")
    before = {k: v.clone() for k, v in again.network.state_dict().items()}
    again.learn_teacher = lambda: pytest.fail("taught again after a resume")
    again.train_until(1)
    assert again.taught and again.teacher_report == report
    assert all(torch.equal(before[k], v) for k, v in again.network.state_dict().items())
    with pytest.raises(BoardLabError, match="teacher needs teacher_steps"):
        build_trainer("jungle", "dqn", f"teacher={tmp_path / 'data'}", opponent="random")
