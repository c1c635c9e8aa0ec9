"""Game files (interop/gamefile.py, issue 34): every game's moves written in its own notation
with the chance outcomes, read back and replayed to the same final position, by the library
and by `boardlab replay FILE`."""

from __future__ import annotations

import random

import pytest

from boardlab.core.game import CHANCE, ParseError
from boardlab.core.match import sample_chance
from boardlab.core.registry import game_names, make_game
from boardlab.interop.gamefile import GameFile, read, replay, steps_to_moves, write


def played(name: str, seed: int, plies: int):
    """A game of `name` played at random for up to `plies` steps: its start and (mover,
    notation) steps, and the position reached."""
    game = make_game(name)
    state = game.initial_state(seed)
    rng = random.Random(seed)
    steps = []
    for step in range(10_000):
        if state.is_terminal() or (step >= plies and state.current_player() != CHANCE):
            break  # a decision's chance outcomes are always drawn (as a game's server does)
        mover = state.current_player()
        action = (sample_chance(state, rng) if mover == CHANCE
                  else rng.choice(state.legal_actions()))
        steps.append((mover, state.action_to_str(action)))
        state.apply(action)
    return game, steps, state


def text_of(state) -> str:
    try:
        return state.to_text()
    except NotImplementedError:
        return str(state)


@pytest.mark.parametrize("name", game_names())
def test_every_game_written_and_replayed_reaches_the_same_position(name):
    for seed in (1, 2):
        game, steps, state = played(name, seed, 400 if seed == 1 else 25)
        opening, moves = steps_to_moves(steps)
        text = write(GameFile(game=game.spec, seed=seed, seats=["random", "human"],
                              sides=["a", "b"], moves=moves, opening=opening,
                              comments=["a"] * len(moves)))
        back = read(text)
        assert back.moves == moves and back.seats == ["random", "human"]
        movers: list[int] = []
        final = replay(back, movers)
        assert text_of(final) == text_of(state)
        assert movers == [mover for mover, _ in steps if mover != CHANCE]
        assert final.is_terminal() == state.is_terminal()


def test_chance_outcomes_are_written_in_braces_and_must_be_there():
    game, steps, state = played("jungle", 4, 12)
    opening, moves = steps_to_moves(steps)
    text = write(GameFile(game=game.spec, seed=4, moves=moves, opening=opening))
    assert "1. reveal " in text and "} " not in text.splitlines()[-1][:3]
    first = next(line for line in text.splitlines() if line.startswith("1. "))
    assert first.count("{") == 1 and first.endswith("}")
    assert text_of(replay(read(text))) == text_of(state)
    without = text.replace(first, first.partition(" {")[0])
    with pytest.raises(ParseError, match="move 1 .*no outcome is written"):
        replay(read(without))


def test_a_file_with_a_header_of_seats_result_and_reason_reads_back():
    text = write(GameFile(game="reversi", seed=3, seats=["human", "mcts:sims=5"],
                          sides=["black", "white"], moves=[("d3", []), ("c5", [])],
                          result="black (human) resigned; white (mcts:sims=5) won",
                          returns=[-1.0, 1.0], reason="black (human) resigned", forfeit=0,
                          comments=["black", "white, 0.12 s"]))
    assert text.startswith('[Format "boardlab-game 1"]\n[Game "reversi"]\n[Seed "3"]\n')
    assert '[Seat1 "mcts:sims=5"]' in text and '[Reason "black (human) resigned"]' in text
    assert "2. c5 ; white, 0.12 s" in text
    back = read(text)
    assert (back.result, back.returns, back.reason, back.forfeit, back.sides) == (
        "black (human) resigned; white (mcts:sims=5) won", [-1.0, 1.0],
        "black (human) resigned", 0, ["black", "white"])


def test_a_pasted_start_position_travels_in_the_header():
    game = make_game("minichess")
    start = game.initial_state(0)
    start.apply(start.str_to_action("b2b3"))
    position = start.to_text()
    text = write(GameFile(game="minichess", position=position, moves=[("c5c4", [])]))
    assert f'[Position "{position}"]' in text
    final = replay(read(text))
    start.apply(start.str_to_action("c5c4"))
    assert final.to_text() == start.to_text()


@pytest.mark.parametrize("text, words", [
    ("[Game \"reversi\"]\n\n1. d3\n", "not a BoardLab game file"),
    ("[Format \"boardlab-game 1\"]\n\n1. d3\n", "names no game"),
    ("[Format \"boardlab-game 1\"]\n[Game \"reversi\"]\n\n1. d3\n3. c5\n", "move number 3"),
    ("[Format \"boardlab-game 1\"]\n[Game \"reversi\"]\n\n1. a1\n", "move 1 \\(a1\\)"),
    ("[Format \"boardlab-game 1\"]\n[Game \"reversi\"]\n\n1. d3 {x}\n", "chance does not"),
    ("[Format \"boardlab-game 1\"]\n[Game reversi]\n", "line 2"),
])
def test_a_bad_file_is_refused_with_the_line_or_move_at_fault(text, words):
    with pytest.raises(ParseError, match=words):
        replay(read(text))


def test_boardlab_replay_plays_a_game_file_back(tmp_path, capsys):
    from boardlab.cli import main

    game, steps, state = played("xiangqi", 5, 30)
    opening, moves = steps_to_moves(steps)
    path = tmp_path / "moves.txt"
    path.write_text(write(GameFile(game=game.spec, seed=5, seats=["human", "random"],
                                   sides=["red", "black"], moves=moves, opening=opening)))
    assert main(["replay", str(path), "--position"]) == 0
    assert capsys.readouterr().out.strip() == state.to_text()
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{game.spec}, seed 5: red human, black random")
    assert f"   1. red: {moves[0][0]}" in out
    assert out.rstrip().endswith("final position:\n" + state.to_text())
    assert main(["replay", str(path), "3"]) == 2
    assert "a game file is played back whole" in capsys.readouterr().err
