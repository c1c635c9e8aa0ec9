"""Every game's state draws itself as SVG (`state.svg()`, Jupyter's `_repr_svg_`)."""

import random
import xml.etree.ElementTree as ElementTree

import pytest

from boardlab import CHANCE, make_game
from boardlab.core.registry import game_names


@pytest.mark.parametrize("name", game_names())
def test_states_draw_as_well_formed_svg_with_and_without_the_last_move(name):
    game = make_game(name)
    state = game.initial_state(seed=3)
    rng = random.Random(3)
    last = None
    for _ in range(6):
        if state.is_terminal():
            break
        action = rng.choice(state.legal_actions())
        if state.current_player() != CHANCE:
            last = action
        state.apply(action)
    plain = state.svg()
    marked = state.svg(last_action=last)
    for picture in (plain, marked, state._repr_svg_()):
        assert ElementTree.fromstring(picture).tag.endswith("svg")


def test_replay_plot_draws_a_stored_games_value_graph_as_png(tmp_path):
    import subprocess
    import sys

    from boardlab.arena.tournament import run_tournament

    db = tmp_path / "r.sqlite"
    run_tournament("reversi", ["random", "greedy"], 1, db, progress=False)
    png = tmp_path / "values.png"
    result = subprocess.run([sys.executable, "-m", "boardlab.cli", "replay", str(db), "0",
                             "--plot", str(png), "--agent", "mcts:sims=30"],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "1. black: " in result.stdout and f"value graph written to {png}" in result.stdout
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000
