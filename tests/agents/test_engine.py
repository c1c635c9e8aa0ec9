"""The `engine` agent: UCI, UCCI and GTP engine processes as agents.

Without Debian's engines, BoardLab's own `boardlab uci` engine and small fake engines (written
below) play the other side; the fakes die, hang or lie on purpose. The Fairy-Stockfish and
GRhino games at the end skip with a sentence when those packages are absent.
"""

from __future__ import annotations

import shutil
import sys
import textwrap
from pathlib import Path

import pytest

from boardlab.arena.tournament import run_tournament
from boardlab.core.game import BoardLabError
from boardlab.core.match import play_match
from boardlab.core.registry import make_agent, make_game

FAIRY_STOCKFISH = "/usr/games/fairy-stockfish"
GRHINO = "/usr/games/gtp-rhino"
OUR_ENGINE = f"{sys.executable} -m boardlab.interop.uci"


FAKE_UCI = """\
import sys, time
with open({log!r}, "a") as log:
    log.write("started\\n")
for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word == "uci":
        print("id name fake", flush=True)
        print("uciok", flush=True)
    elif word == "isready":
        print("readyok", flush=True)
    elif word == "go":
{on_go}
        sys.stdout.flush()
"""


def fake_uci_engine(tmp_path: Path, on_go: str, reply_timeout: float = 30) -> str:
    """A UCI engine that shakes hands properly and then does `on_go` (Python lines) when asked
    to move; it appends a line to starts.log each time it starts."""
    script = tmp_path / "fake_engine.py"
    script.write_text(FAKE_UCI.format(log=str(tmp_path / "starts.log"),
                                      on_go=textwrap.indent(on_go, " " * 8)))
    return f"engine:cmd={sys.executable} {script},reply_timeout={reply_timeout:g}"


def starts(tmp_path: Path) -> int:
    return len((tmp_path / "starts.log").read_text().splitlines())


def tournament_against(fake: str, tmp_path: Path, games: int = 2):
    return run_tournament("minichess", ["random", fake], games, tmp_path / "faults.sqlite",
                          progress=False)


def forfeit_reasons(result, tmp_path: Path) -> list[str]:
    from boardlab.arena.store import ResultStore

    with ResultStore(tmp_path / "faults.sqlite") as store:
        return [row.record.reason for row in store.games(with_moves=False)]


# --- faults: each loses its game with a reason, and the tournament goes on -------------------

def test_an_engine_that_exits_loses_each_game_and_is_started_again(tmp_path: Path) -> None:
    fake = fake_uci_engine(tmp_path, "sys.exit(3)")
    result = tournament_against(fake, tmp_path)
    assert result.pair("random", fake) == (2, 2, 0, 0)
    reasons = forfeit_reasons(result, tmp_path)
    assert all("exited while answering `go depth 1` (exit code 3)" in r for r in reasons)
    assert starts(tmp_path) == 2  # the dead process was replaced for the second game


@pytest.mark.e2e  # waits out a 3 s reply timeout, twice
def test_an_engine_that_hangs_is_stopped_and_loses(tmp_path: Path) -> None:
    fake = fake_uci_engine(tmp_path, "time.sleep(600)", reply_timeout=3)
    result = tournament_against(fake, tmp_path)
    assert result.pair("random", fake) == (2, 2, 0, 0)
    for reason in forfeit_reasons(result, tmp_path):
        assert "did not answer `go depth 1` within 3s; it was stopped" in reason


@pytest.mark.e2e  # waits out a 2 s reply timeout, twice
def test_an_engine_that_cannot_start_loses_at_its_first_move(tmp_path: Path) -> None:
    """A fault before the first move (no handshake) forfeits the game too."""
    script = tmp_path / "silent.py"
    script.write_text("import time\ntime.sleep(600)\n")
    fake = f"engine:cmd={sys.executable} {script},reply_timeout=2"
    result = tournament_against(fake, tmp_path)
    assert result.pair("random", fake) == (2, 2, 0, 0)
    assert all("did not answer `uci` within 2s" in r for r in forfeit_reasons(result, tmp_path))


def test_an_engine_that_answers_an_illegal_move_loses(tmp_path: Path) -> None:
    fake = fake_uci_engine(tmp_path, 'print("bestmove a1a1")')
    result = tournament_against(fake, tmp_path)
    assert result.pair("random", fake) == (2, 2, 0, 0)
    for reason in forfeit_reasons(result, tmp_path):
        assert "answered 'a1a1', not a legal move here" in reason
    assert starts(tmp_path) == 1  # a live engine is kept for the next game


def test_an_engine_that_answers_garbage_loses(tmp_path: Path) -> None:
    fake = fake_uci_engine(tmp_path, 'print("bestmove"); print("bestmove ¿?")')
    result = tournament_against(fake, tmp_path)
    assert result.pair("random", fake) == (2, 2, 0, 0)
    assert all("found no move" in r for r in forfeit_reasons(result, tmp_path))


def test_a_missing_engine_is_one_clear_error() -> None:
    with pytest.raises(BoardLabError, match="engine command '/no/such/engine' not found"):
        make_agent("engine:cmd=/no/such/engine", make_game("minichess"))


def test_a_game_without_an_engine_dialect_is_refused() -> None:
    with pytest.raises(BoardLabError, match="declares no engine protocol"):
        make_agent(f"engine:cmd={sys.executable}", make_game("jungle"))


def test_engine_options_must_be_name_value_pairs() -> None:
    agent = make_agent(f"engine:cmd={OUR_ENGINE} minichess random,options=Hash",
                       make_game("minichess"))
    with pytest.raises(BoardLabError, match="'Hash' is not of the form Name=value"):
        agent.start_game(0, 0)
    agent.close()


# --- real protocol sessions with BoardLab's own engine (no Debian package needed) -------------

@pytest.mark.parametrize("game, protocol", [("minichess", "uci"), ("xiangqi", "uci"),
                                            ("xiangqi", "ucci")])
def test_engine_plays_whole_games_through_one_process(game: str, protocol: str) -> None:
    """xiangqi over UCI goes through Fairy-Stockfish's ranks 1-10 both ways."""
    built = make_game(f"{game}:max_plies=40")
    engine = make_agent(f"engine:cmd={OUR_ENGINE} {game} random,protocol={protocol}", built)
    opponent = make_agent("random", built)
    pids = set()
    for seed in range(3):
        seats = [engine, opponent] if seed % 2 == 0 else [opponent, engine]
        record = play_match(built, seats, seed=seed)
        assert record.reason == "normal", record.reason
        pids.add(engine.process.popen.pid)
    assert len(pids) == 1
    engine.close()


def test_engine_starts_from_a_random_opening_by_fen() -> None:
    built = make_game("minichess:opening_plies=4")
    engine = make_agent(f"engine:cmd={OUR_ENGINE} minichess random", built)
    record = play_match(built, [make_agent("random", built), engine], seed=5)
    assert record.reason == "normal", record.reason
    assert engine.root != make_game("minichess").initial_state().to_text()
    engine.close()


FAKE_GTP = """\
import sys
from boardlab.core.registry import make_game

state = make_game("reversi").initial_state()

def skip_passes():  # as GRhino: a forced pass is played by the engine itself
    while not state.is_terminal() and state.legal_actions() == [64]:
        state.apply(64)

for line in sys.stdin:
    words = line.split()
    reply = ""
    if words[:1] == ["clear_board"]:
        state = make_game("reversi").initial_state()
    elif words[:1] == ["play"]:
        if words[2].lower() == "pass":
            print("? illegal move\\n", flush=True)
            continue
        state.apply(state.str_to_action(words[2]))
        skip_passes()
    elif words[:1] == ["genmove"]:
        if state.legal_actions() == [64]:
            reply = "PASS"
        else:
            action = state.legal_actions()[-1]
            reply = state.action_to_str(action).upper()
            state.apply(action)
            skip_passes()
    print(f"= {reply}\\n", flush=True)
"""


def test_gtp_engine_follows_reversi_games_with_passes(tmp_path: Path) -> None:
    script = tmp_path / "fake_gtp.py"
    script.write_text(FAKE_GTP)
    built = make_game("reversi")
    engine = make_agent(f"engine:cmd={sys.executable} {script}", built)
    opponent = make_agent("greedy", built)
    passes = 0
    for seed in range(4):
        seats = [engine, opponent] if seed % 2 == 0 else [opponent, engine]
        record = play_match(built, seats, seed=seed)
        assert record.reason == "normal", record.reason
        passes += record.actions.count(64)
    assert passes > 0, "no game had a pass; the test would not show that passes are skipped"
    engine.close()


# --- Debian's engines --------------------------------------------------------------------------

needs_fairy_stockfish = pytest.mark.skipif(
    shutil.which(FAIRY_STOCKFISH) is None,
    reason="Debian's fairy-stockfish is not installed (apt-get install fairy-stockfish)")
needs_grhino = pytest.mark.skipif(
    shutil.which(GRHINO) is None,
    reason="Debian's grhino is not installed (apt-get install grhino)")


@needs_fairy_stockfish
@pytest.mark.parametrize("game", ["xiangqi", "minichess"])
@pytest.mark.e2e  # a real engine
def test_fairy_stockfish_plays_clean_arena_games(game: str, tmp_path: Path) -> None:
    engine = f"engine:cmd={FAIRY_STOCKFISH},go=depth 1"
    result = run_tournament(f"{game}:opening_plies=2", ["random", engine], 2,
                            tmp_path / "fs.sqlite", progress=False)
    games, wins, draws, losses = result.pair(engine, "random")
    assert games == 2 and result.pairs[0].forfeits == {"a": 0, "b": 0}
    assert wins + draws / 2 >= 1  # depth 1 beats random


@needs_grhino
@pytest.mark.e2e  # a real engine
def test_grhino_plays_clean_arena_games(tmp_path: Path) -> None:
    engine = f"engine:cmd={GRHINO} --level=1"
    result = run_tournament("reversi", ["random", engine], 2, tmp_path / "gr.sqlite",
                            progress=False)
    assert result.pair(engine, "random")[0] == 2
    assert result.pairs[0].forfeits == {"a": 0, "b": 0}


# --- OpenSpiel's bots ----------------------------------------------------------------------------

def test_openspiel_mcts_plays_reversi_games_in_step_with_ours() -> None:
    pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install open_spiel)")
    built = make_game("reversi")
    bot = make_agent("openspiel:sims=20", built)
    opponent = make_agent("greedy", built)
    for seed in range(2):
        seats = [bot, opponent] if seed % 2 == 0 else [opponent, bot]
        record = play_match(built, seats, seed=seed)
        assert record.reason == "normal", record.reason
        # the same game replayed in OpenSpiel ends the same (othello's ids are ours)
        replayed = bot.spiel_game.new_initial_state()
        for action in record.actions:
            replayed.apply_action(action)
        assert replayed.returns() == record.returns


@needs_fairy_stockfish
@pytest.mark.parametrize("game,ahead,checked", [
    # white (red) a queen (chariot) up, with either side to move; then a side in check (the
    # engine's MiniChess takes kings, so it has no check to refuse)
    ("minichess", "k4/ppp2/5/5/PPPQ1/4K {}", ""),
    ("xiangqi", "4k4/9/9/9/9/9/9/9/R8/3K5 {}", "4k4/9/9/9/9/9/9/9/9/3KR4 b"),
])
def test_fairy_stockfish_gives_its_static_evaluation_for_the_first_player(
        game: str, ahead: str, checked: str) -> None:
    built = make_game(game)
    engine = make_agent(f"engine:cmd={FAIRY_STOCKFISH}", built)
    start = engine.static_evaluation(built.initial_state())
    assert start is not None and abs(start) < 1  # an even start, in pawns
    for mover in "wb":  # the first player's view whoever is to move
        value = engine.static_evaluation(built.state_from_text(ahead.format(mover)))
        assert value is not None and value > 3
    if checked:
        assert engine.static_evaluation(built.state_from_text(checked)) is None
    engine.close()


@needs_fairy_stockfish
def test_fairy_stockfish_judges_a_move_against_its_own_choice() -> None:
    # Red (to move) is a chariot up: the judge's own move is worth at least any move it is
    # asked about, and each of those is the move it then names.
    built = make_game("xiangqi")
    engine = make_agent(f"engine:cmd={FAIRY_STOCKFISH},go=depth 6", built)
    state = built.state_from_text("4k4/9/9/9/9/9/9/9/R8/3K5 w")
    best, best_action = engine.searched_value(state)
    assert best > 300 and best_action in state.legal_actions()
    assert engine.searched_value(state) == (best, best_action)  # a cleared hash: the same
    for action in state.legal_actions()[:6]:
        value, played = engine.searched_value(state, action)
        assert played == action and value <= best
    # The side to move's value: black, a chariot up, to move.
    assert engine.searched_value(built.state_from_text("4k4/9/9/9/9/9/9/9/r8/3K5 b"))[0] > 300
    engine.close()


@needs_fairy_stockfish
def test_a_kept_hash_gives_the_same_answers_to_the_same_calls() -> None:
    """`searched_value(..., fresh=False)` keeps the hash of the calls before it, as the
    self-play labelling does within a game: two engines asked the same positions in the same
    order agree, and the first, fresh, answer is the one a cleared hash gives."""
    built = make_game("xiangqi")
    line = [built.initial_state()]
    for pick in (3, 5, 7):
        line.append(line[-1].child(line[-1].legal_actions()[pick]))
    answers = []
    for _ in range(2):
        engine = make_agent(f"engine:cmd={FAIRY_STOCKFISH},go=depth 5", built)
        answers.append([engine.searched_value(state, fresh=number == 0)
                        for number, state in enumerate(line)])
        engine.close()
    assert answers[0] == answers[1]
    assert all(move in state.legal_actions() for state, (_, move) in zip(line, answers[0]))
