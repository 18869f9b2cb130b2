"""Kraken statistics: each query against a direct count on simulated data, the gain of a bid
against its definition, the break-even crossing on known curves, and the report sections."""

import math

import polars as pl
import pytest

import simcards
from simcards.games.kraken import stats as stats


@pytest.fixture(scope="module")
def contra():
    game = simcards.load("kraken-contra")
    return game, game.simulate_chunk(150, seed=41)


@pytest.fixture(scope="module")
def scorebord():
    game = simcards.load("kraken-scorebord")
    return game, game.simulate_chunk(150, seed=42)


def test_bid_rates_and_success_count_the_deals(contra):
    _, run = contra
    deals = run["deals"]
    rates = stats.bid_rates(deals.lazy())
    for level, name in enumerate(stats.CONTRA_BIDS, 1):
        row = rates.filter((pl.col("bid") == name) & (pl.col("among") == "per deal")).row(0, named=True)
        assert row["n"] == deals.height and row["hits"] == (deals["bid"] >= level).sum()
        assert row["lo"] <= row["rate"] <= row["hi"]
    success = stats.bid_success(deals.lazy())
    for row in success.iter_rows(named=True):
        chosen = deals.filter(pl.col("bid") == row["bid"])
        assert row["n"] == chosen.height and row["hits"] == (chosen["bid_won"] == 1).sum()


def test_nat_rates_split_by_bid(contra):
    _, run = contra
    deals = run["deals"]
    nat = {r["deals"]: r for r in stats.nat_rates(deals.lazy()).iter_rows(named=True)}
    assert nat["all deals"]["hits"] == deals["nat"].sum()
    assert nat["with a bid"]["n"] + nat["without a bid"]["n"] == deals.height
    assert nat["without a bid"]["hits"] == deals.filter(pl.col("bid") == 0)["nat"].sum()


def test_decisions_and_contra_gain(contra):
    _, run = contra
    deals = run["deals"]
    decisions = stats._decisions(deals.lazy()).collect()
    n_est = sum(deals[f"est_{b}_{j}"].is_not_nan().sum() for b in stats.CONTRA_BIDS for j in (1, 2))
    assert decisions.height == n_est
    assert decisions["took"].sum() == (deals["bid"]).cast(pl.Int64).sum()
    # gain by its definition, deal by deal, for the rekraak decisions
    rows = deals.filter(pl.col("est_rekraak_1").is_not_nan())
    got = decisions.filter((pl.col("bid") == "rekraak") & (pl.col("j") == 1))["gain"].to_list()
    for row, gain in zip(rows.iter_rows(named=True), got):
        spades = 2 if row["trump"] == 3 else 1
        with_bid = 4 if row["would_win_rekraak"] else -4
        without = -2 if row["would_win_kraak"] else 2
        assert gain == (with_bid - without) * spades


def test_scorebord_kraak_gain_by_definition(scorebord):
    game, run = scorebord
    deals = run["deals"].filter(pl.col("bid") == 0).head(300)
    decisions = stats._decisions(deals.lazy(), game.options).collect()
    first = decisions.filter((pl.col("bid") == "kraak") & (pl.col("j") == 1))
    from simcards.games.kraken.scoring import scorebord_entry

    for row, gain in zip(deals.iter_rows(named=True), first["gain"].to_list()):
        playing = row["declarer"] % 2
        facts = (row["trump"], row["declarer"] % 2, (row["points_0"], row["points_1"]),
                 (row["roem_0"], row["roem_1"]))
        plain = scorebord_entry(facts[0], 0, *facts[1:])["entry"]
        kraak = scorebord_entry(facts[0], 1, *facts[1:])["entry"]
        defenders = 1 - playing
        assert gain == (kraak[defenders] - kraak[playing]) - (plain[defenders] - plain[playing])


def test_crossing():
    assert stats._crossing([0, 10, 20], [-1.0, -1.0, 1.0], 0.0) == 15.0
    assert stats._crossing([0, 10, 20], [1.0, 2.0, 3.0], 0.0) == 0.0  # positive throughout
    assert math.isnan(stats._crossing([0, 10, 20], [-3.0, -2.0, -1.0], 0.0))
    # the last rise counts
    assert stats._crossing([0, 10, 20, 30], [-1.0, 1.0, -1.0, 1.0], 0.0) == 25.0


def test_break_even_is_near_the_default_kraak_threshold(contra):
    _, run = contra
    table = stats.bid_break_even(run["deals"].lazy(), bin_width=5.0)
    kraak = table.filter(pl.col("bid") == "kraak").row(0, named=True)
    assert 64 < kraak["break_even_estimate"] < 84  # calibrated default: 74
    assert 64 < kraak["half_success_estimate"] < 84


def test_roem_and_match_statistics(contra, scorebord):
    _, run = contra
    deals, matches = run["deals"], run["matches"]
    contest = stats.hand_roem_contest(deals.lazy())
    row = contest.filter(pl.col("measure").str.starts_with("contested")
                         & (pl.col("among") == "all deals")).row(0, named=True)
    assert row["hits"] == deals["contested"].sum()
    melds = stats.winning_melds(deals.lazy())
    contested = melds.filter(pl.col("among") == "contested deals")
    assert contested["hits"].sum() == deals["contested"].sum()
    crosses = stats.crosses_per_match(matches.lazy())
    assert crosses["hits"].sum() == 2 * matches.height
    assert (crosses["crosses"] * crosses["hits"]).sum() == matches["crosses_0"].sum() + matches["crosses_1"].sum()
    tables = stats.all_tables(scorebord[1]["deals"].lazy(), scorebord[1]["matches"].lazy(), scorebord[0].options)
    assert "crosses_per_match" not in tables
    win = tables["match_win_by_activity"]
    assert set(win["team"]) <= {"declared more", "bids more"} and (win["n"] > 0).all()


def test_report_sections(contra, tmp_path):
    from simcards.games.kraken import report as report

    game, run = contra
    tables = stats.all_tables(run["deals"].lazy(), run["matches"].lazy(), game.options)
    sections = report.sections(tables, tmp_path, contra=True, thresholds={"kraak": [74.0]})
    assert [s.title for s in sections] == ["Bids", "Bids against the bidder's estimate", "Nat",
                                           "Roem in the hand", "Matches"]
    for section in sections:
        for figure in section.figures:
            assert (tmp_path / figure.filename).stat().st_size > 1000
