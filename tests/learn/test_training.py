"""Training: replay, episodes, learning that actually learns, the train command and resume."""

import argparse

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from boardlab import BoardLabError, make_agent, make_game  # noqa: E402
from boardlab.learn.cli import add_train_parser, build_trainer  # noqa: E402
from boardlab.learn.episodes import OpponentMix, play_episode  # noqa: E402
from boardlab.learn.replay import ReplayBuffer  # noqa: E402

SHORT = "jungle:no_capture_limit=10"
"""Short games (10 plies without progress draw) keep CI runs small."""


def parser():
    main = argparse.ArgumentParser(prog="boardlab")
    main.add_argument("--debug", action="store_true")
    add_train_parser(main.add_subparsers(dest="command"))
    return main


def run(*argv):
    args = parser().parse_args(list(argv))
    return args.run(args)


def test_replay_stores_inputs_exactly_and_samples_uniformly():
    buffer = ReplayBuffer(3, 4, 5)
    for i in range(4):  # the fourth push overwrites the first
        buffer.push(np.array([0, 1, i / 8, 0.5]), i, float(i), np.ones(4), i == 3, [i])
    assert len(buffer) == 3
    batch = buffer.sample(200, np.random.default_rng(0))
    assert set(batch["actions"].tolist()) == {1, 2, 3}
    row = batch["states"][batch["actions"] == 2][0]
    assert row.tolist() == [0, 1, 0.25, 0.5]
    assert batch["next_masks"][batch["actions"] == 3][0].tolist() == [0, 0, 0, 1, 0]
    with pytest.raises(ValueError):
        buffer.push(np.array([0.3, 0, 0, 0]), 0, 0.0, np.ones(4), False, [])


def test_episode_transitions_chain_from_decision_to_decision():
    game, trainer = build_trainer(SHORT, "qlearning")
    seen = []
    trainer.observe = lambda s, a, r, s2, done: seen.append((s, a, r, s2, done))
    mix = OpponentMix(game, "random")
    result = play_episode(game, trainer, trainer.reward, "random", mix.agents, seed=5,
                          learner_seat=1)
    assert len(seen) == result.learner_steps > 0
    assert all(s.current_player() == 1 for s, *_ in seen)
    assert all(s2.current_player() == 1 for *_, s2, done in seen if not done)
    assert [done for *_, done in seen] == [False] * (len(seen) - 1) + [True]


def test_dqn_loss_falls_on_a_few_hundred_steps():
    game, trainer = build_trainer(SHORT, "dqn", "hidden=64,lr=1e-3,warmup=1000000,envs=4",
                                  opponent="random")
    trainer.train_until(12)  # fills the buffer; the warmup keeps it from updating yet
    assert len(trainer.buffer) >= 150 and trainer.progress.updates == 0
    losses = [trainer.update() for _ in range(150)]
    assert np.mean(losses[-25:]) < 0.6 * np.mean(losses[:25])


def test_qlearning_td_error_falls_when_experience_repeats():
    # alpha 0.5 so that values settle within a CI-sized number of sweeps
    game, trainer = build_trainer(SHORT, "qlearning", "alpha=0.5,fallback=reward")
    kept = []
    observe = trainer.observe
    trainer.observe = lambda *t: kept.append(t)
    agents = OpponentMix(game, "random").agents
    for k in range(6):
        play_episode(game, trainer, trainer.reward, "random", agents, seed=k, learner_seat=k % 2)
    trainer.observe = observe
    sweeps = []
    for _ in range(20):
        for t in kept:
            trainer.observe(*t)
        sweeps.append(trainer.metrics()["loss"])
    assert sweeps[-1] < 0.5 * sweeps[0]


def test_train_command_writes_weights_metrics_curve_and_resumes(tmp_path, capsys):
    out = tmp_path / "q.npz"
    common = [SHORT, "qlearning", "--out", str(out), "--opponent", "random@1+self@1",
              "--eval-every", "1", "--eval-games", "1", "--no-progress"]
    assert run("train", *common, "--episodes", "2") == 0
    for suffix in ("", ".ckpt", ".ckpt.json", ".metrics.csv", ".curve.png"):
        assert (tmp_path / f"q.npz{suffix}").is_file(), suffix
    assert "environment steps/s" in capsys.readouterr().out
    assert run("train", *common, "--episodes", "3") == 0
    printed = capsys.readouterr().out
    assert "resumed from episode 2" in printed
    rows = (tmp_path / "q.npz.metrics.csv").read_text().splitlines()
    assert [r.split(",")[0] for r in rows] == ["episode", "1", "2", "3"]
    # CPU time adds up over the resumed parts, as the training seconds do
    import csv
    table = list(csv.DictReader(rows))
    cpu = [float(r["cpu_seconds"]) for r in table]
    assert 0 < cpu[0] <= cpu[1] <= cpu[2]
    assert cpu[2] <= 2 * float(table[2]["train_seconds"]) + 0.5  # at most two busy cores
    assert run("train", *common, "--episodes", "3") == 0
    assert "nothing to do" in capsys.readouterr().out
    make_agent(f"qlearning:weights={out}", make_game(SHORT))  # the export loads


def test_dqn_train_command_resumes_from_its_checkpoint(tmp_path, capsys):
    out = tmp_path / "d.pt"
    common = [SHORT, "dqn", "--out", str(out), "--opponent", "random", "--params",
              "hidden=16,warmup=32", "--eval-every", "2", "--eval-games", "1", "--no-progress"]
    assert run("train", *common, "--episodes", "2") == 0
    assert run("train", *common, "--episodes", "3") == 0
    assert "resumed from episode 2" in capsys.readouterr().out
    assert make_agent(f"dqn:weights={out}", make_game(SHORT)).settings.hidden == 16


def test_a_binary_metrics_file_on_resume_is_a_one_line_error(tmp_path):
    out = tmp_path / "q.npz"
    common = [SHORT, "qlearning", "--out", str(out), "--opponent", "random", "--eval-every",
              "1", "--eval-games", "1", "--no-progress"]
    assert run("train", *common, "--episodes", "1") == 0
    (tmp_path / "q.npz.metrics.csv").write_bytes(b"\xff\xfe\x00binary")
    with pytest.raises(BoardLabError) as error:
        run("train", *common, "--episodes", "2")
    assert "q.npz.metrics.csv" in str(error.value) and "\n" not in str(error.value)


def test_a_broken_checkpoint_is_a_one_line_error(tmp_path):
    out = tmp_path / "d.pt"
    (tmp_path / "d.pt.ckpt").write_bytes(b"\x00garbage")
    with pytest.raises(BoardLabError) as error:
        run("train", SHORT, "dqn", "--out", str(out), "--episodes", "1", "--no-progress")
    assert "d.pt.ckpt" in str(error.value) and "\n" not in str(error.value)


def test_bad_params_and_opponents_are_clear_errors():
    with pytest.raises(BoardLabError, match="unknown colour"):
        build_trainer(SHORT, "dqn", "colour=red")
    game = make_game(SHORT)
    with pytest.raises(BoardLabError, match="spec@weight"):
        OpponentMix(game, "random@lots")


def test_the_trainers_player_shares_its_network_and_plays_as_the_exported_file(tmp_path):
    """`DQNAgent.from_network`: the player sees every update, and searches with the reward the
    network learnt (recorded in the file), as the exported weights will."""
    game, trainer = build_trainer("reversi", "dqn", "hidden=16,envs=2,warmup=10,reward=minimax",
                                  opponent="self")
    trainer.train_until(2)
    player = trainer.player()
    assert player.network is trainer.network and player.spec == "dqn (training)"
    trainer.export(tmp_path / "w.pt")
    exported = make_agent(f"dqn:weights={tmp_path / 'w.pt'}", game)
    state = game.initial_state(0)
    for _ in range(5):
        state.apply(state.legal_actions()[0])
    assert player.lookahead == exported.lookahead == 1
    assert np.allclose(player.lookahead_scores(state), exported.lookahead_scores(state))
    with torch.no_grad():
        next(trainer.network.parameters()).add_(1.0)
    assert not np.allclose(player.lookahead_scores(state), exported.lookahead_scores(state))
