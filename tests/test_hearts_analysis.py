"""Hartenjagen / Hearts statistics (simcards/games/hearts/stats.py) against direct counts."""

import numpy as np
import polars as pl
import pytest

import simcards
from simcards.games.hearts import stats as A
from simcards.stats import wilson

BOTS = ["heuristic", "random", "heuristic", "random"]


@pytest.fixture(scope="module", params=["hartenjagen", "hearts"])
def run(request):
    frames = simcards.load(request.param).simulate_chunk(120, seed=6, bots=BOTS)
    return request.param, frames["deals"], frames["matches"]


def test_moon_rate(run):
    _, deals, _ = run
    out = A.moon_rate(deals.lazy())
    assert out["measure"].to_list() == ["attempted", "made", "made_when_attempted", "unplanned"]
    outbound = deals.filter(pl.col("phase") == 0)
    made = out.filter(pl.col("measure") == "made").row(0, named=True)
    hits = int((outbound["moon"] >= 0).sum())
    assert made["n"] == outbound.height and made["hits"] == hits
    assert (made["lo"], made["hi"]) == pytest.approx(wilson(hits, outbound.height))
    tried = out.filter(pl.col("measure") == "made_when_attempted").row(0, named=True)
    attempts = outbound.filter(pl.col("moon_attempt") >= 0)
    assert tried["n"] == attempts.height
    assert tried["hits"] == int((attempts["moon"] == attempts["moon_attempt"]).sum())
    opts = A.moon_option_counts(deals.lazy())
    assert opts["hits"].sum() == hits


def test_points_per_deal(run):
    _, deals, _ = run
    out = A.points_per_deal(deals.lazy())
    for row in out.iter_rows(named=True):
        values = deals.filter(pl.col("phase") == row["phase"])[f"points_{row['seat']}"].to_numpy()
        assert row["n"] == values.size
        assert row["mean"] == pytest.approx(values.mean())
        assert row["se"] == pytest.approx(values.std(ddof=1) / np.sqrt(values.size))
    # the heuristic seats (0, 2) avoid points on the way out
    out0 = out.filter(pl.col("phase") == 0).sort("seat")["mean"].to_list()
    assert out0[0] < out0[1] and out0[2] < out0[3]


def test_takers(run):
    name, deals, _ = run
    qs = A.qs_taker(deals.lazy())
    assert qs["hits"].sum() == deals.height
    assert qs["hits"].to_list() == [int((deals["qs_taker"] == s).sum()) for s in range(4)]
    jc = A.jc_taker(deals.lazy())
    assert jc["hits"].sum() == (deals.height if name == "hartenjagen" else 0)


def test_game_length(run):
    name, _, matches = run
    out = A.game_length(matches.lazy()).row(0, named=True)
    assert out["n"] == 120
    assert out["mean"] == pytest.approx(matches["deals"].cast(pl.Float64).mean())
    assert out["max"] == matches["deals"].max()
    if name == "hearts":
        assert out["return_start_mean"] is None
    else:
        assert 0 < out["return_start_mean"] < out["mean"]
    dist = A.game_length_distribution(matches.lazy())
    assert dist["n"].sum() == 120 and dist["share"].sum() == pytest.approx(1)


def test_win_rates(run):
    _, _, matches = run
    seats = A.win_rate_per_seat(matches.lazy())
    assert seats["hits"].to_list() == [int((matches[f"place_{s}"] == 1).sum()) for s in range(4)]
    bots = A.win_rate_per_bot(matches.lazy(), BOTS)
    by = dict(zip(bots["bot"], bots["hits"]))
    assert by["heuristic"] == seats["hits"][0] + seats["hits"][2]
    assert by["heuristic"] > by["random"]
    assert set(bots["n"].to_list()) == {240}
    places = A.placing_rates(matches.lazy())
    assert places.height == 16
    per_seat = places.group_by("seat").agg(pl.col("hits").sum().alias("hits")).sort("seat")
    assert per_seat["hits"].to_list() == [120] * 4
    with pytest.raises(ValueError, match="seat_bots"):
        A.win_rate_per_bot(matches.lazy(), ["a", "b"])


def test_every_column_is_named(run):
    _, deals, matches = run
    for frame in (A.moon_rate(deals.lazy()), A.points_per_deal(deals.lazy()),
                  A.game_length(matches.lazy()), A.win_rate_per_seat(matches.lazy())):
        assert all(not c.startswith(("literal", "len")) for c in frame.columns)


def test_report_sections_write_their_charts(run, tmp_path):
    from simcards.games.hearts.report import all_tables, seat_bot_labels, sections

    name, deals, matches = run
    labels = seat_bot_labels(BOTS)
    assert labels == BOTS
    assert seat_bot_labels({"kind": "heuristic", "params": {"moon_threshold": 18}}) == \
        ["heuristic(moon_threshold=18)"] * 4
    tables = all_tables(deals.lazy(), matches.lazy(), labels)
    out = sections(tables, tmp_path, dutch=name == "hartenjagen")
    assert [s.title for s in out][0] == "Shooting the moon" and out[-1].title == "Games"
    for section in out:
        for figure in section.figures:
            assert (tmp_path / figure.filename).stat().st_size > 0
