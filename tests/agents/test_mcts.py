"""The MCTS agent (UCT), one test per promise of agents/mcts.py and docs/agents/mcts.md.

Games are built from text positions; two toy games written here (a game given as a table of
its tree, and a hidden coin) test chance sampling, several players and determinizations
exactly, where the real games would need too many simulations.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from boardlab import CHANCE, TERMINAL, Clock, Game, GameFacts, ParseError, State, play_match
from boardlab.core.match import sample_chance
from boardlab.core.registry import game_names, make_agent, make_game


def agent(spec: str, game: Game, seat: int = 0, seed: int = 7):
    built = make_agent(spec, game)
    built.start_game(seat, seed)
    return built


def forces_win(state: State, action: int) -> bool:
    """Whether `action` wins at once, or leaves the opponent only replies that lose at once."""
    me = state.current_player()
    after = state.child(action)
    if after.is_terminal():
        return after.returns()[me] == 1.0
    return all(after.child(reply).is_terminal() and after.child(reply).returns()[me] == 1.0
               for reply in after.legal_actions())


# --- toy games ---------------------------------------------------------------------------------

class TableGame(Game):
    """A game given as its tree: history (tuple of actions) -> ("player", p, actions),
    ("chance", [(outcome, probability), ...]) or ("end", returns)."""

    name = "table"

    def __init__(self, table: dict, num_players: int) -> None:
        super().__init__(None)
        self.table = table
        self.players = num_players

    @property
    def facts(self) -> GameFacts:
        return GameFacts(num_players=self.players, num_actions=10, has_chance=True,
                         hidden_information=False, max_length=4)

    def initial_state(self, seed: int | None = None) -> "TableState":
        return TableState(self, ())


class TableState(State):
    def __init__(self, game: TableGame, history: tuple[int, ...]) -> None:
        self.game = game
        self.history = history

    def _entry(self):
        return self.game.table[self.history]

    def current_player(self) -> int:
        kind = self._entry()[0]
        return {"player": self._entry()[1], "chance": CHANCE, "end": TERMINAL}[kind]

    def legal_actions(self) -> list[int]:
        entry = self._entry()
        if entry[0] == "player":
            return list(entry[2])
        if entry[0] == "chance":
            return [a for a, _ in entry[1]]
        return []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return list(self._entry()[1])

    def apply(self, action: int) -> None:
        assert action in self.legal_actions()
        self.history = self.history + (action,)

    def clone(self) -> "TableState":
        return TableState(self.game, self.history)

    def returns(self) -> list[float]:
        entry = self._entry()
        return list(entry[1]) if entry[0] == "end" else [0.0] * self.game.players

    def key(self):
        return self.history

    def action_to_str(self, action: int) -> str:
        return str(action)

    def move_number(self) -> int:
        return len(self.history)


@dataclass
class CoinState(State):
    """Nature hid a coin; player 0 guesses it (action = the guess) and wins if right."""

    game: Game
    coin: int
    guessed: int | None = None

    def current_player(self) -> int:
        return 0 if self.guessed is None else TERMINAL

    def legal_actions(self) -> list[int]:
        return [0, 1] if self.guessed is None else []

    def apply(self, action: int) -> None:
        self.guessed = action

    def clone(self) -> "CoinState":
        return CoinState(self.game, self.coin, self.guessed)

    def returns(self) -> list[float]:
        if self.guessed is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.guessed == self.coin else [-1.0, 1.0]

    def view(self, player: int, rng: random.Random) -> "CoinState":
        return CoinState(self.game, rng.randrange(2), self.guessed)  # the coin is unseen

    def action_to_str(self, action: int) -> str:
        return f"guess {action}"


class CoinGame(Game):
    name = "coin"

    @property
    def facts(self) -> GameFacts:
        return GameFacts(num_players=2, num_actions=2, has_chance=False,
                         hidden_information=True, max_length=1)

    def initial_state(self, seed: int | None = None) -> CoinState:
        return CoinState(self, random.Random(seed).randrange(2))


# --- every game --------------------------------------------------------------------------------

@pytest.mark.parametrize("name", game_names())
def test_plays_legal_moves_in_every_game(name):
    game = make_game(name)
    seats = [agent("mcts:sims=6", game, seat) for seat in range(game.num_players)]
    heuristic = agent("mcts:sims=6,rollout=heuristic", game)
    state = game.initial_state(seed=3)
    rng = random.Random(3)
    decisions = 0
    while not state.is_terminal() and decisions < 4:
        mover = state.current_player()
        if mover == CHANCE:
            state.apply(sample_chance(state, rng))
            continue
        for player in (seats[mover], heuristic):
            action = player.act(state.view(mover, rng), Clock())
            assert action in state.legal_actions(), f"{name}: {action} is not legal"
        state.apply(action)
        decisions += 1


# --- finding wins ------------------------------------------------------------------------------

def test_minichess_mate_in_one():
    # The queen on e3 shields the king from the rook on e6; of 24 moves only Qxe6 wins (the
    # rook on b1 holds the b-file, so the king on a6 has no escape); the queen leaving the
    # e-file loses the king.
    game = make_game("minichess")
    state = game.state_from_text("k3r/p4/5/4Q/5/1R2K w - - 0 1")
    assert [state.action_to_str(a) for a in state.legal_actions()
            if forces_win(state, a)] == ["e3e6"]
    for seed in range(3):
        action = agent("mcts:sims=1000", game, seed=seed).act(state, Clock())
        assert state.action_to_str(action) == "e3e6"


def test_jungle_captures_the_last_enemy_piece():
    game = make_game("jungle")
    state = game.state_from_text("8/8/8/8/8/1r6/1L2T3 0 0 - -")
    action = agent("mcts:sims=300", game).act(state, Clock())
    assert state.action_to_str(action) == "b1-b2"


# --- chance, players, hidden information -------------------------------------------------------

def test_chance_outcomes_are_sampled_in_proportion_to_their_probabilities():
    probabilities = {0: 0.6, 1: 0.3, 2: 0.1}
    table = {(): ("player", 0, [0, 1]), (0,): ("chance", list(probabilities.items())),
             (1,): ("end", [0.0, 0.0])}
    for outcome, result in zip(probabilities, (1.0, 0.5, -1.0)):
        table[(0, outcome)] = ("end", [result, -result])
    game = TableGame(table, 2)
    mcts = agent("mcts:sims=3000", game)
    assert mcts.act(game.initial_state(), Clock()) == 0
    root, _ = mcts.tree
    chance = root.children[0]
    assert chance.mover == CHANCE
    for outcome, p in probabilities.items():
        n = chance.visits - 1  # the visit that created the chance node drew no child of it
        expected = n * p
        spread = 5 * (n * p * (1 - p)) ** 0.5
        assert abs(chance.children[outcome].visits - expected) < spread


def test_each_player_maximises_its_own_return():
    # Three players. After 0's move "0", player 1 picks between (+1, +1, -1) and (-1, 0, +1):
    # it takes the first, good for player 0. After "1" everything is 0. A search that assumed
    # the others play against player 0 would fear -1 and pick "1".
    table = {(): ("player", 0, [0, 1]), (0,): ("player", 1, [0, 1]),
             (1,): ("player", 1, [0, 1]),
             (0, 0): ("end", [1.0, 1.0, -1.0]), (0, 1): ("end", [-1.0, 0.0, 1.0]),
             (1, 0): ("end", [0.0, 0.0, 0.0]), (1, 1): ("end", [0.0, 0.0, 0.0])}
    game = TableGame(table, 3)
    mcts = agent("mcts:sims=400", game)
    assert mcts.act(game.initial_state(), Clock()) == 0
    assert mcts.last_info()["value"] > 0.5


def test_determinized_views_merge_their_root_visits():
    game = CoinGame()
    state = game.initial_state(seed=1)
    single = agent("mcts:sims=200", game)
    single.act(state, Clock())
    # One view: the search "sees" the coin and spends nearly all visits on one guess.
    assert min(single.last_info()["visits"].values(), default=0) < 40
    merged = agent("mcts:sims=400,determinizations=8", game)
    merged.act(state, Clock())
    info = merged.last_info()
    assert info["determinizations"] == 8 and info["simulations"] == 400
    assert sum(info["visits"].values()) == 400
    # Eight re-drawn coins: both guesses are backed by several views.
    assert min(info["visits"].values()) > 80


def test_determinizations_are_ignored_with_perfect_information():
    game = make_game("minichess")
    mcts = agent("mcts:sims=20,determinizations=4", game)
    mcts.act(game.initial_state(), Clock())
    assert mcts.last_info()["determinizations"] == 1


def test_sequence_searches_several_views():
    game = make_game("sequence")
    state = game.initial_state(seed=2)
    view = state.view(0, random.Random(0))
    mcts = agent("mcts:sims=24,determinizations=3", game)
    assert mcts.act(view, Clock()) in state.legal_actions()
    assert mcts.last_info()["determinizations"] == 3
    assert mcts.last_info()["simulations"] == 24
    assert mcts.tree is None  # no reuse with hidden information


# --- tree reuse, seeds, clocks -----------------------------------------------------------------

def test_tree_reuse_keeps_the_visits_of_the_position_reached():
    game = make_game("reversi")
    mcts = agent("mcts:sims=300", game)
    state = game.initial_state()
    state.apply(mcts.act(state, Clock()))
    root, played = mcts.tree
    reply = max(root.children[played].children.items(), key=lambda item: item[1].visits)
    kept = reply[1].visits
    assert kept > 1
    state.apply(reply[0])
    mcts.act(state, Clock())
    assert mcts.last_info()["reused_visits"] == kept
    assert mcts.tree[0].visits == kept + 300


def test_no_reuse_when_turned_off():
    game = make_game("reversi")
    mcts = agent("mcts:sims=100,reuse=false", game)
    state = game.initial_state()
    state.apply(mcts.act(state, Clock()))
    state.apply(state.legal_actions()[0])
    mcts.act(state, Clock())
    assert mcts.last_info()["reused_visits"] == 0


def test_same_seed_same_moves():
    game = make_game("minichess")
    records = [play_match(game, [agent("mcts:sims=30", game), agent("mcts:sims=30", game)],
                          seed=5) for _ in range(2)]
    assert records[0].actions == records[1].actions
    other = play_match(game, [agent("mcts:sims=30", game), agent("mcts:sims=30", game)], seed=6)
    assert other.actions != records[0].actions


TICK = 1 / 128
"""Seconds the ticking clock (conftest.py) moves per read, exact in binary: a 0.2 s budget lasts
25.6 reads, one read a simulation, whatever the machine's load."""


def test_time_limit_stops_the_search(ticking_time):
    game = make_game("reversi")
    mcts = agent("mcts:sims=0,time=0.2", game)  # sims=0: only the time stops it
    ticking_time(TICK, "boardlab.agents.mcts")
    mcts.act(game.initial_state(), Clock())
    # Stopped when 0.2 s were read off the clock, not before: a few reads go to setting up.
    assert 0.15 / TICK <= mcts.last_info()["simulations"] <= 0.2 / TICK + 1


def test_arena_clock_stops_the_search(ticking_time):
    game = make_game("reversi")
    mcts = agent("mcts:sims=10000000", game)
    ticking_time(TICK, "boardlab.agents.mcts")
    mcts.act(game.initial_state(), Clock.start(0.2))
    assert 1 < mcts.last_info()["simulations"] <= 0.2 / TICK + 1


# --- rollouts ----------------------------------------------------------------------------------

def test_compiled_random_playout_is_used_when_the_game_offers_one():
    game = make_game("reversi")
    calls = []

    def kernel(state: State, seed: int) -> list[float]:
        calls.append(seed)
        return [1.0, -1.0]

    game.random_playout_kernel = kernel
    mcts = agent("mcts:sims=50", game)
    assert len(calls) == 1  # the warm-up when built, so the first move's clock pays no load
    mcts.act(game.initial_state(), Clock())
    assert len(calls) == 51
    agent("mcts:sims=50,kernel=false", game).act(game.initial_state(), Clock())
    assert len(calls) == 51


def test_heuristic_leaf_values_are_squashed_to_plus_minus_one():
    game = make_game("reversi")
    mcts = agent("mcts:sims=60,rollout=heuristic:discs,scale=4", game)
    mcts.act(game.initial_state(), Clock())
    assert -1.0 <= mcts.last_info()["value"] <= 1.0
    cut = agent("mcts:sims=60,rollout_depth=6", game)  # random plies, then the heuristic
    assert cut.act(game.initial_state(), Clock()) in game.initial_state().legal_actions()


@pytest.mark.parametrize("spec, words", [
    ("mcts:rollout=greedy", "random or heuristic"),
    ("mcts:rollout=heuristic:nope", "no heuristic 'nope'"),
    ("mcts:sims=0", "give time"),
    ("mcts:determinizations=0", "at least 1"),
])
def test_bad_settings_are_refused_with_a_sentence(spec, words):
    with pytest.raises(ParseError, match=words):
        make_agent(spec, make_game("reversi"))


def test_what_a_move_spends_after_its_search_comes_off_the_next_search(ticking_time):
    """The collector's pass and the statistics after a search are timed (`tail`) and the next
    search stops that much earlier, so whole moves keep to `time`, not only searches."""
    game = make_game("minichess")
    mcts = agent("mcts:sims=0,time=0.4", game)
    state = game.initial_state()
    ticking_time(TICK, "boardlab.agents.mcts")
    mcts.act(state, Clock())
    whole = mcts.last_info()["simulations"]
    assert 0 < mcts.tail < 0.4 and whole >= 0.3 / TICK
    mcts.tail = 0.3
    mcts.act(state, Clock())
    assert 0 < mcts.last_info()["simulations"] <= 0.1 / TICK + 1  # 0.1 s searched, not 0.4


def test_the_cycle_collector_is_paused_for_a_search_and_restored_after():
    import gc

    from boardlab.core.agent import collector_paused

    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()  # a caller's own choice is kept
    finally:
        gc.enable()
