"""`replay(..., perfect_play=True)` and `simcards replay --perfect-play`: each card of a replayed
deal marked with what it gave away against perfect play, checked against the double_dummy
columns the run's solver wrote for the same deals (themselves checked position by position in
test_klaverjas_solve_lines.py and test_skat_solver.py)."""

from __future__ import annotations

import numpy as np
import pytest

import simcards
from simcards.errors import UserError
from simcards.games.klaverjas.solver import Solver, bot_margins

from test_cli_errors import assert_refused, cli, write_config


def _judged(story):
    """(every card's gave_away, the per-side sums of them)."""
    gave = [g for trick in story["tricks"] for g in trick["gave_away"]]
    assert all(len(trick["gave_away"]) == len(trick["best"]) == len(trick["cards"])
               for trick in story["tricks"])
    for trick in story["tricks"]:  # the best cards are named where a card gave something away
        for (_, card), g, best in zip(trick["cards"], trick["gave_away"], trick["best"]):
            assert (best is None) == (g == 0) and (best is None or card not in best)
    assert min(gave) >= 0  # perfect play from a position never does worse than a card played
    p = story["perfect_play"]
    declaring, other = p["declaring_side_gave_away"], p["other_side_gave_away"]
    assert sum(gave) == declaring + other
    assert p["start"] - declaring + other == p["end"]
    return gave, declaring, other


@pytest.mark.parametrize("name", ["klaverjas-rotterdam", "kraken-contra"])
def test_klaverjas_replay_matches_the_double_dummy_columns(name):
    game = simcards.load(name, double_dummy=True)
    deals = game.simulate(1 if game.unit == "match" else 4, seed=3)
    for row in deals.head(4).iter_rows(named=True):
        story = game.replay(3, row["deal_index"], "heuristic", perfect_play=True)
        gave, declaring, other = _judged(story)
        p = story["perfect_play"]
        assert p["start"] == row["dd_margin"]
        assert (declaring, other) == (row["dd_lost_declaring"], row["dd_lost_defending"])
        assert p["end"] == row["bot_margin"]
        assert len(gave) == 32 and gave[-4:] == [0, 0, 0, 0]  # the last trick is forced


def test_the_best_cards_keep_the_value_the_played_card_gave_away():
    """Against the solver's value of every legal card, position by position along the deal."""
    game = simcards.load("klaverjas-rotterdam")
    solver = Solver(game)
    story = game.replay(3, 2, "heuristic", perfect_play=True)
    state = game.deal(seed=3, index=2)
    checked = 0
    for trick in story["tricks"]:
        for (_, card), gave, best in zip(trick["cards"], trick["gave_away"], trick["best"]):
            if gave:
                values = solver.values(state)
                declaring = (state.to_move & 1) == (state.declarer & 1)
                kept = max(values.values()) if declaring else min(values.values())
                assert {c for c, v in values.items() if v == kept} == set(best)
                assert abs(kept - values[card]) == gave
                checked += 1
            state.play(card)
    assert checked >= 3


def test_the_end_value_is_the_margin_the_bots_reached_without_double_dummy_columns():
    """A run without the columns: the replay's end value is the row's margin as played."""
    game = simcards.load("kraken-contra")
    deals = game.simulate(1, seed=9)
    margins = bot_margins(deals)
    for k, row in enumerate(deals.head(3).iter_rows(named=True)):
        story = game.replay(9, row["deal_index"], "heuristic", perfect_play=True)
        _judged(story)
        assert story["perfect_play"]["end"] == margins[k]


def test_skat_replay_matches_the_double_dummy_columns():
    game = simcards.load("skat", double_dummy=True)
    deals = game.simulate(8, seed=15, start=52)  # suit games, Grands and the Null of deal 58
    kinds = {"null": 0, "points": 0}
    for row in deals.iter_rows(named=True):
        story = game.replay(15, row["deal_index"], "heuristic", perfect_play=True)
        p = story["perfect_play"]
        _, declaring, other = _judged(story)
        if row["dd_points"] is None:  # Null: 1 while the declarer wins, 0 once he cannot
            kinds["null"] += 1
            assert p["start"] == int(row["dd_wins"]) and p["end"] == int(story["result"]["won"])
            assert p["unit"].startswith("the Null game")
        else:
            kinds["points"] += 1
            assert p["start"] == row["dd_points"]
            assert (declaring, other) == (row["dd_lost_declarer"], row["dd_lost_defenders"])
            assert p["end"] == story["result"]["points_declarer"]
    assert kinds["null"] >= 1 and kinds["points"] >= 1


def test_a_passed_in_skat_deal_has_nothing_to_judge():
    game = simcards.load("skat")
    assert game.simulate(3, seed=4)["contract"][2] == -1  # deal 2 of seed 4 is passed in
    story = game.replay(4, 2, "heuristic", perfect_play=True)
    assert story["tricks"] == [] and story["perfect_play"]["start"] == story["perfect_play"]["end"] == 0


def test_a_ruleset_without_a_solver_is_refused():
    with pytest.raises(UserError, match="rulesets with one: .*klaverjas-rotterdam.*skat"):
        simcards.load("hearts").replay(1, 0, "heuristic", perfect_play=True)


def test_the_command_marks_the_cards_and_sums_up(tmp_path):
    cfg = write_config(tmp_path, name="dd", count=4, chunk=4, seed=3)
    assert cli("run", cfg, "--quiet").returncode == 0
    run = tmp_path / "results" / "dd"
    out = cli("replay", run, "--deal", "1", "--perfect-play")
    assert out.returncode == 0, out.stderr
    story = simcards.load("klaverjas-rotterdam").replay(3, 1, "heuristic", perfect_play=True)
    p = story["perfect_play"]
    assert f"at the start of play: {p['start']}" in out.stdout
    assert (f"{p['start']} - {p['declaring_side_gave_away']} + {p['other_side_gave_away']} "
            f"= {p['end']}") in out.stdout
    marks = [f"{card}(-{g}, best {'/'.join(best)})" for trick in story["tricks"]
             for (_, card), g, best in zip(trick["cards"], trick["gave_away"], trick["best"]) if g]
    assert marks and all(m in out.stdout for m in marks)
    tricks = [line for line in out.stdout.splitlines() if line.lstrip().startswith("trick")]
    assert sum(line.count("(-") for line in tricks) == len(marks)
    plain = cli("replay", run, "--deal", "1").stdout
    assert "(-" not in plain  # no marks unless asked
    assert plain.count("declarer: ") == 1  # the result does not repeat the header


def test_the_command_refuses_a_ruleset_without_a_solver(tmp_path):
    cfg = write_config(tmp_path, name="h", ruleset="hartenjagen", count=2, chunk=2)
    assert cli("run", cfg, "--quiet").returncode == 0
    assert_refused(cli("replay", tmp_path / "results" / "h", "--deal", "0", "--perfect-play"),
                   "--perfect-play", "hartenjagen has no double-dummy solver", "kraken-contra")


@pytest.mark.parametrize("name", ["klaverjas-rotterdam", "kraken-contra"])
def test_a_finished_deal_is_valued_as_the_solver_valued_its_last_trick(name):
    """The judge values a finished deal from its result (points, roem, pit and in Kraken the hand
    roem); that must agree with the solver's value of the last trick, where every card is forced."""
    from simcards.games.klaverjas.solver import LineJudge

    game = simcards.load(name)
    judge = LineJudge(game)
    # Rotterdam deal 31 of seed 11 ends in a pit; Kraken's deals hold hand roem
    indices = (0, 2, 31) if name == "klaverjas-rotterdam" else (0, 2, 3)
    for index in indices:
        state = game.deal(seed=11, index=index)
        while len(state.hand(state.to_move)) > 1 or state.trick:
            state.play(state.suggest())
        last_trick = judge.value(state)  # solved: four forced cards left
        while not state.is_over:
            state.play(state.legal_moves()[0])
        assert judge.value(state) == last_trick
        if index == 31:
            assert state.result()["pit"]


def test_skat_null_best_cards_keep_the_win():
    """The first Null game of seed 7 in which a side gave the win away: the named best cards
    are those after which the declarer's result under perfect play stays what it was."""
    import polars as pl

    from simcards.games.skat.solver import solve

    game = simcards.load("skat")
    nulls = game.simulate(400, seed=7).filter(pl.col("contract") == 5)["deal_index"].to_list()
    for index in nulls:
        story = game.replay(7, index, "heuristic", perfect_play=True)
        p = story["perfect_play"]
        if p["declaring_side_gave_away"] + p["other_side_gave_away"] > 0:
            break
    else:
        pytest.fail("no Null game of seed 7 in which a side gave the win away")
    assert p["unit"].startswith("the Null game")
    kinds, params = game.resolve_bots("heuristic")
    row, _ = game.run_deal(7, index, kinds, params)
    state = game.state_from_row(row, kinds, params)
    for trick in story["tricks"]:
        for (_, card), gave, best in zip(trick["cards"], trick["gave_away"], trick["best"]):
            if gave:
                solution = solve(state, values=True)
                values = solution.values
                assert values[best[0]] == int(solution.wins) != values[card]
                assert {c for c, v in values.items() if v == values[best[0]]} == set(best)
            state.play(card)
