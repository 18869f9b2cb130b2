"""The Doppelkopf report: every section, the sanity line beside the exact 11/47, no raw
numbers, and the statistics' own figures checked on a small run."""

from pathlib import Path

import polars as pl
import pytest

import simcards
from simcards.cli import main
from simcards.games.doppelkopf import stats


@pytest.mark.e2e
def test_report_reads_well(tmp_path: Path):
    cfg = tmp_path / "doko.toml"
    cfg.write_text(f'name = "doko"\noutput = "{tmp_path / "results"}"\nworkers = 1\n'
                   'ruleset = "doppelkopf"\ndeals = 3000\nseed = 3\nchunk_size = 3000\n'
                   'bots = "heuristic"\n')
    assert main(["run", str(cfg), "--quiet"]) == 0
    assert main(["report", str(tmp_path / "results" / "doko"), "--out", str(tmp_path / "reports")]) == 0
    text = (tmp_path / "reports" / "doko" / "report.md").read_text()
    for title in ("## Summary", "## Games and parties", "## Announcements",
                  "## What the calls gain", "## Solos and marriages", "## Special points",
                  "## Scores", "## Bot sanity"):
        assert title in text
    assert "one player holds both club queens in 23.4% of random deals" in text
    assert "exactly 11/47 = 23.4%" in text
    assert "Re wins" in text and "strong tables announce" not in text.lower()
    assert "Doppelkopf-Wissen" in text and "the source gives no sample size" in text
    assert "neither" not in text.lower()
    gains = pl.read_csv(tmp_path / "reports" / "doko" / "tables" / "call_gains.csv")
    assert gains["call"].to_list()[:2] == ["Re", "Kontra"] and (gains["deals"] == 3000).all()
    assert gains.filter(pl.col("call") == "Re")["made in the duplicate"][0] > 0
    for png in ("game_types.png", "announcements.png", "success_by_estimate.png", "score_hist.png"):
        assert (tmp_path / "reports" / "doko" / png).exists()


def test_statistics_agree_with_the_rows():
    deals = simcards.load("doppelkopf").simulate(4000, seed=5)
    lf = deals.lazy()
    calls = stats.announcement_rates(lf)
    re_row = calls.filter(pl.col("call") == "Re").row(0, named=True)
    made = deals.filter(pl.col("ann_re") >= 0)
    assert re_row["hits"] == made.height and re_row["n"] == deals.height
    assert re_row["won_n"] == made.height and re_row["won_hits"] == (made["winner"] == 1).sum()
    normal = deals.filter(pl.col("game_type") == 0)
    first = stats.re_win_normal(lf).row(0, named=True)
    assert first["n"] == normal.height and first["hits"] == (normal["winner"] == 1).sum()
    values = stats.call_values(lf)
    assert values["n"].sum() > 0
    queens = stats.both_queens(lf).row(0, named=True)
    assert abs(queens["exact"] - 11 / 47) < 1e-12 and queens["lo"] <= 11 / 47 <= queens["hi"]
    by_estimate = stats.success_by_estimate(lf)
    assert set(by_estimate["seats"]) == {"every seat", "announcers"}
