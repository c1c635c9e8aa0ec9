"""A game's learning kit names its default DQN network (`dqn_network`): a spec without `arch`
plays and trains that one, and naming another arch plays models/<game>-dqn-<arch>.pt."""

import dataclasses

import pytest

pytest.importorskip("torch")

from boardlab import BoardLabError, make_agent, make_game  # noqa: E402
from boardlab.learn.cli import build_trainer  # noqa: E402


def with_default(game, network: str):
    kit = dataclasses.replace(game.learning_kit(), dqn_network=network)
    game.learning_kit = lambda: kit  # this instance only
    return game


def test_a_fresh_network_takes_the_games_default_unless_arch_is_named():
    game = with_default(make_game("jungle"), "arch=conv,conv_layers=2,channels=8")
    fresh = make_agent("dqn:weights=none", game)
    assert (fresh.settings.arch, fresh.settings.conv_layers, fresh.settings.channels) == \
        ("conv", 2, 8)
    assert fresh.network.convolutions[0].out_channels == 8
    named = make_agent("dqn:weights=none,arch=mlp", game)
    assert named.settings.arch == "mlp" and len(named.network.convolutions) == 0
    first_name = make_agent("dqn:weights=none,arch=seed", game)  # mlp's first name
    assert first_name.settings.arch == "mlp" and len(first_name.network.convolutions) == 0


def test_without_a_default_the_seeds_network_is_built():
    game = with_default(make_game("jungle"), "")
    assert make_agent("dqn:weights=none", game).settings.arch == "mlp"


def test_naming_a_non_default_arch_looks_for_its_own_shipped_file():
    game = with_default(make_game("jungle"), "arch=mlp")
    with pytest.raises(BoardLabError) as error:
        make_agent("dqn:arch=conv", game)
    message = str(error.value)
    assert "jungle-dqn-conv.pt" in message and "--params arch=conv" in message
    assert "\n" not in message
    # Jungle's default is the conv network; the seed's ships beside it, by its first name too.
    seed = make_agent("dqn:arch=seed", make_game("jungle"))
    assert seed.settings.arch == "mlp" and len(seed.network.convolutions) == 0


def test_a_bad_default_is_a_one_line_error_naming_the_game():
    game = with_default(make_game("jungle"), "hidden=64")
    with pytest.raises(BoardLabError, match="jungle dqn_network"):
        make_agent("dqn:weights=none", game)


def test_training_builds_the_default_network():
    _, trainer = build_trainer("jungle", "dqn", "envs=2,buffer=100")
    kit_default = trainer.game.learning_kit().dqn_network
    assert trainer.agent.settings.arch == ("conv" if "arch=conv" in kit_default else "mlp")
