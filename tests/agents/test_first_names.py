"""Names that say what they are, and the first names they replaced, which still parse: the
games' heuristics (named for what they compute; `greedy` and `minimax` select each agent's
default, `seed-*` the course project's formulas), and `Game.seed_project`."""

import pytest

from boardlab import make_agent, make_game
from boardlab.core.game import Evaluators, Game

LISTED = {
    "jungle": {"greedy", "minimax", "course-greedy", "course-minimax", "course-minimax-boxed"},
    "reversi": {"positional", "discs", "mobility", "tuned"},
    "minichess": {"material", "positional", "tuned"},
    "xiangqi": {"positional", "tuned", "neural"},
    "sequence": {"location-value", "window-potential"},
}
FIRST_NAMES = {  # game: {first name: the name it selects}
    "jungle": {"seed-greedy": "course-greedy", "seed-minimax": "course-minimax",
               "seed-minimax-boxed": "course-minimax-boxed"},
    "reversi": {"greedy": "positional", "minimax": "positional"},
    "minichess": {"greedy": "material", "minimax": "material"},
    "xiangqi": {"greedy": "positional", "minimax": "positional"},
    "sequence": {"greedy": "location-value", "minimax": "window-potential"},
}


@pytest.mark.parametrize("game_name", sorted(LISTED))
def test_heuristics_are_listed_by_name_and_first_names_select_them(game_name):
    game = make_game(game_name)
    assert set(game.evaluators) == LISTED[game_name]
    for first, name in FIRST_NAMES[game_name].items():
        assert first in game.evaluators and game.evaluators[first] is game.evaluators[name]
        assert game.evaluators.get(first) is game.evaluators[name]
        assert game.evaluator_name(first) == name
        assert make_agent(f"minimax:depth=1,eval={first}", game).eval_name == name


@pytest.mark.parametrize("game_name", sorted(LISTED))
def test_each_agent_plays_its_default_without_an_eval(game_name):
    game = make_game(game_name)
    for agent in ("greedy", "minimax"):
        assert make_agent(agent, game).eval_name == game.evaluator_name(agent)
        assert make_agent(agent, game).eval_name in LISTED[game_name]


def test_a_compiled_search_is_found_by_a_first_name_too():
    for game_name, first in (("reversi", "minimax"), ("jungle", "seed-minimax")):
        game = make_game(game_name)
        assert game.compiled_minimax(first) is not None


def test_sequence_weights_follow_the_evaluator_or_its_first_name():
    game = make_game("sequence")
    assert game.evaluator_name("greedy/scale=12") == "location-value/scale=12"
    assert "greedy/scale=12" in game.evaluators and "location-value/scale=12" in game.evaluators
    assert game.evaluators.parameters("greedy") == game.evaluators.parameters("location-value")
    assert "window-potential/scale=12" not in game.evaluators


def test_an_alias_of_no_listed_heuristic_is_refused():
    with pytest.raises(ValueError, match="no listed heuristic"):
        Evaluators({"material": lambda state, player: 0.0}, aliases={"greedy": "materiel"})


def test_a_game_declaring_seed_project_declares_its_course_project():
    class Old(Game):
        seed_project = "009 Old"

    class New(Game):
        course_project = "010 New"

    assert Old.course_project == "009 Old" and New.course_project == "010 New"
    assert make_game("reversi").course_project == "001 Reversi"
