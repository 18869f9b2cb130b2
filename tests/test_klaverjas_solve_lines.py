"""Perfect play along the bots' line (simcards/games/klaverjas/_solve_lines.py): the points each
team's card play gave away, in the double_dummy columns ``dd_lost_declaring`` and
``dd_lost_defending``."""

from __future__ import annotations

import numpy as np
import pytest

import simcards
from simcards.games.klaverjas.solver import Solver

CASES = [("klaverjas-rotterdam", {}, 24), ("klaverjas-amsterdam", {"table_roem": False}, 16),
         ("kraken-contra", {}, 1)]


@pytest.mark.parametrize("name,options,units", CASES)
@pytest.mark.parametrize("bots", ["heuristic", "random"])
def test_lost_points_account_for_the_gap(name, options, units, bots):
    """Each team's losses are never negative, and the bots' margin is the perfect-play margin
    minus what the declaring team gave away plus what the defenders gave away."""
    game = simcards.load(name, double_dummy=True, **options)
    deals = game.simulate(units, seed=4, bots=bots)
    margin, bot = deals["dd_margin"].to_numpy(), deals["bot_margin"].to_numpy()
    declaring = deals["dd_lost_declaring"].to_numpy()
    defending = deals["dd_lost_defending"].to_numpy()
    assert (declaring >= 0).all() and (defending >= 0).all()
    assert np.array_equal(bot.astype(int), margin.astype(int) - declaring + defending)
    if bots == "random":  # random card play gives points away nearly every deal
        assert (declaring > 0).mean() > 0.8


@pytest.mark.parametrize("name", ["klaverjas-rotterdam", "kraken-contra"])
def test_lost_points_follow_the_solver_card_by_card(name):
    """The columns against the public solver (itself checked against brute force in
    test_klaverjas_solver.py) run position by position along each deal's cards: the value before a card
    minus the value after it, summed per team."""
    game = simcards.load(name, double_dummy=True)
    plain = simcards.load(name)
    solver = Solver(plain)
    kinds, params = game.resolve_bots("heuristic")
    frames, traces = game._simulate_traced(6, 0, 1, kinds, params)
    deals = game.solver.with_perfect_play(game, frames["deals"], traces)
    for k in range(min(3, deals.height)):
        row = deals.row(k, named=True)
        state = plain.state_from_row(row, kinds, params)
        declaring_team = row["declarer"] & 1
        value = solver.margin(state)
        assert value == row["dd_margin"]
        lost = [0, 0]
        for card in traces[k]:
            if card < 0 or state.is_over:
                break
            team = state.to_move & 1
            state.play(plain.deck.code(int(card)))
            if state.is_over:
                break
            after = solver.margin(state)
            if team == declaring_team:
                lost[0] += value - after
            else:
                lost[1] += after - value
            value = after
        assert (row["dd_lost_declaring"], row["dd_lost_defending"]) == tuple(lost)


def test_the_report_answers_the_perfect_play_questions():
    """The first lines of "Against perfect play": nat under perfect play beside the bots', the
    points each team leaves on the table, and (Kraken) the kraak threshold of a strong player."""
    import polars as pl

    from simcards.games.klaverjas import stats
    from simcards.games.klaverjas.report import perfect_play_answers
    from simcards.games.kraken.report import kraak_threshold_answer
    from simcards.present import fmt

    game = simcards.load("klaverjas-rotterdam", double_dummy=True, trump_selection="forced")
    deals = game.simulate(24, seed=8).lazy()
    nat = stats.nat_perfect_vs_bots(deals, "forced")
    margins = stats.margin_gap_summary(deals)
    lost = stats.lost_points_summary(deals)
    nat_line, lost_line = perfect_play_answers(nat, margins, lost, "forced", "playing team")
    frame = deals.collect()
    row = nat.filter((pl.col("trump_suit") == "all") & (pl.col("play") == "perfect")).row(0, named=True)
    assert row["rate"] == frame["dd_nat"].mean()
    assert nat_line.startswith("Under perfect play the playing team (trump forced on forehand) goes "
                               f"nat in {fmt.rate_ci(row['rate'], row['lo'], row['hi'])} of 24 deals")
    gap = (frame["bot_margin"].cast(pl.Int32) - frame["dd_margin"].cast(pl.Int32)).mean()
    assert f"{abs(gap):.0f}" in lost_line and ("below" if gap < 0 else "above") in lost_line
    assert f"{frame['dd_lost_declaring'].mean():.0f}" in lost_line
    # without the loss columns (runs made before them) the gap alone is said
    old = perfect_play_answers(nat, margins, None, "forced", "playing team")
    assert len(old) == 2 and f"{abs(gap):.0f}" in old[1] and "does not split" in old[1]

    half = pl.DataFrame({"play": ["bots", "perfect"], "decisions": [900, 900],
                         "half_success_estimate": [71.84, float("nan")]})
    line = kraak_threshold_answer(half, "kraak", "76")
    assert "under perfect play from no estimate seen" in line and "71.8" in line and "76" in line
