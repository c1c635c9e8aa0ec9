"""Hill climbing of agent parameters (arena/tune.py) and its command line."""

from __future__ import annotations

import argparse

import pytest

from boardlab import make_agent, make_game
from boardlab.arena.tune import (AgentSpace, Param, hill_climb, parse_param, score_interval,
                                 tune, validate)
from boardlab.arena.tune_cli import add_tune_parser
from boardlab.core.game import ParseError


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="boardlab")
    add_tune_parser(parser.add_subparsers(dest="command"))
    return parser


def test_hill_climb_converges_on_a_toy_objective():
    # the better of two points is the one nearer (3, -2): a "match" it always wins
    def loss(v):
        return (v["x"] - 3) ** 2 + (v["y"] + 2) ** 2

    def score(candidate, current, round_, index):
        return 1.0 if loss(candidate) < loss(current) else 0.0 if loss(candidate) > loss(
            current) else 0.5

    params = [Param("x", -10, 10), Param("y", -10, 10)]
    best = hill_climb(params, {"x": -8.0, "y": 9.0}, score, rounds=40, step=0.1)
    assert best["x"] == pytest.approx(3, abs=0.1)
    assert best["y"] == pytest.approx(-2, abs=0.1)


def test_hill_climb_keeps_only_changes_scoring_more_than_half():
    seen = []
    best = hill_climb([Param("x", 0, 1)], {"x": 0.5}, lambda *_: 0.5, rounds=2, step=0.2,
                      on_step=seen.append)
    assert best == {"x": 0.5}
    assert seen and not any(step.kept for step in seen)


def test_a_margin_raises_the_score_a_change_must_reach():
    # 0.55 wins the comparison, but at 100 games one standard error is 0.05: with a margin
    # of 2 standard errors the change must score above 0.6
    seen = []
    best = hill_climb([Param("x", 0, 1)], {"x": 0.5}, lambda *_: 0.55, rounds=1, step=0.2,
                      on_step=seen.append, threshold=0.5 + 2 * 0.5 / 100 ** 0.5)
    assert best == {"x": 0.5} and len(seen) == 2 and not any(step.kept for step in seen)
    assert hill_climb([Param("x", 0, 1)], {"x": 0.5}, lambda *_: 0.55, rounds=1,
                      step=0.2) == {"x": 0.7}


def test_score_interval_is_the_mean_with_a_normal_95_percent_interval():
    score, low, high = score_interval(60, 0, 40)
    # sample standard deviation of sixty 1s and forty 0s is sqrt(0.24 * 100 / 99)
    half = 1.959964 * (0.24 * 100 / 99 / 100) ** 0.5
    assert score == 0.6 and low == pytest.approx(0.6 - half) and high == pytest.approx(0.6 + half)
    assert score_interval(10, 0, 0) == (1.0, 1.0, 1.0)  # no variance: no doubt
    with pytest.raises(ParseError, match="two games"):
        score_interval(1, 0, 0)


def test_validate_plays_fresh_seeds_and_reports_the_interval(tmp_path):
    check = validate("sequence", "greedy", "random", 6, db_path=str(tmp_path / "v.sqlite"))
    assert (check.games, check.wins + check.draws + check.losses) == (6, 6)
    assert check.low <= check.score <= check.high
    assert check.score == (check.wins + check.draws / 2) / 6
    with pytest.raises(ParseError, match="nothing to validate"):
        validate("sequence", "greedy", "greedy", 6, db_path=str(tmp_path / "v.sqlite"))


def test_integer_parameter_moves_in_whole_steps_within_range():
    best = hill_climb([Param("d", 1, 3, integer=True)], {"d": 1},
                      lambda cand, cur, *_: 1.0 if cand["d"] > cur["d"] else 0.0, rounds=5)
    assert best == {"d": 3}


def test_start_value_outside_range_is_refused():
    game = make_game("sequence")
    with pytest.raises(ParseError, match="depth=5 is outside its range 1:3"):
        AgentSpace(game, "minimax:depth=5", [parse_param("depth=1:3")])
    with pytest.raises(ParseError, match="place_bias=0.2 is outside its range 0.5:1"):
        AgentSpace(game, "greedy", [parse_param("PLACE_BIAS=0.5:1")])


@pytest.mark.parametrize("text", ["depth", "depth=1", "depth=a:b", "depth=3:1", "9x=1:2"])
def test_malformed_param_is_refused(text):
    with pytest.raises(ParseError, match="--param"):
        parse_param(text)


def test_unknown_parameter_is_refused_with_the_names_it_has():
    with pytest.raises(ParseError, match="no numeric parameter of that name.*place_bias"):
        AgentSpace(make_game("sequence"), "greedy", [parse_param("nonsense=0:1")])


def test_fractional_range_for_whole_number_setting_is_refused():
    with pytest.raises(ParseError, match="whole number"):
        AgentSpace(make_game("sequence"), "minimax:depth=2", [parse_param("depth=1:2.5")])


def test_spec_strings_carry_settings_and_evaluator_weights():
    game = make_game("sequence")
    space = AgentSpace(game, "greedy", [parse_param("PLACE_BIAS=-1:1"),
                                        parse_param("scale=0:20")])
    assert space.start == {"place_bias": 0.2, "scale": 10.0}
    spec = space.spec({"place_bias": 0.35, "scale": 12.0})
    assert spec == "greedy:eval=location-value/place_bias=0.35/scale=12"
    agent = make_agent(spec, game)
    assert agent.eval_name == "location-value/place_bias=0.35/scale=12"
    assert make_agent("greedy:eval=greedy/place_bias=0.35/scale=12", game).eval_name == \
        agent.eval_name  # the weights still follow the evaluator's first name
    depth = AgentSpace(game, "minimax:depth=2,eval=minimax", [parse_param("depth=1:3")])
    assert depth.start == {"depth": 2}
    assert depth.spec({"depth": 3}) == "minimax:depth=3,eval=minimax"


def test_tune_command_prints_a_spec_that_rebuilds_the_tuned_agent(tmp_path, capsys):
    out = tmp_path / "best.txt"
    db = tmp_path / "tune.sqlite"
    argv = ["tune", "sequence", "greedy", "--param", "PLACE_BIAS=-1:1", "--param",
            "scale=0:20", "--rounds", "1", "--games", "2", "--step", "0.25", "--db", str(db),
            "--out", str(out), "--validate", "4"]
    args = _parser().parse_args(argv)
    assert args.run(args) == 0
    printed = capsys.readouterr().out
    best = out.read_text().strip()
    assert f"best:  {best}" in printed and "round 1  place_bias 0.2 -> 0.7" in printed
    assert "validate: best vs start over 4 games" in printed or "nothing kept" in printed
    agent = make_agent(best, make_game("sequence"))
    assert agent.eval_name.startswith("location-value")
    # run again: every game is in the store, so the same climb ends at the same spec
    again = tune("sequence", "greedy", [parse_param("PLACE_BIAS=-1:1"),
                                        parse_param("scale=0:20")], rounds=1, games=2,
                 step=0.25, db_path=str(db))
    assert again.best == best


def test_tune_settings_field_gives_an_agent_spec(tmp_path):
    result = tune("sequence", "minimax:depth=1", [parse_param("depth=1:2")], rounds=1, games=2,
                  db_path=str(tmp_path / "t.sqlite"))
    assert [step.candidate for step in result.steps] == [{"depth": 2}]
    assert make_agent(result.best, make_game("sequence")).settings.depth in (1, 2)
