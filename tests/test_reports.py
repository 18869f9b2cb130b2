"""Reports for people: number formatting, the summary, seat pooling, the Kraken break-even,
`simcards compare`, the rules document, and each report page in headless Chromium."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from simcards.cli import main
from simcards.compare import newcombe, paired
from simcards.present import fmt
from simcards.present.render import display
from simcards.present.seats import chi2_sf, rate_check

sys.path.insert(0, str(Path(__file__).resolve().parent))
import browser  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
E_NOTATION = re.compile(r"\d[eE][+-]?\d")


# ------------------------------------------------------------------ formatting


def test_formatting_helpers():
    assert fmt.rate_ci(0.2143, 0.2131, 0.2155) == "21.4% (21.3–21.6%)"
    assert fmt.pct(2.1e-05) == "1 in 48,000"
    assert fmt.rate_ci(0.0, 0.0, 3e-5) == "never (at most 1 in 33,000)"
    assert fmt.count(1234567) == "1,234,567"
    assert fmt.mean_se(12.3456, 0.0123) == "12.35 ± 0.01"
    assert fmt.p_value(8.47e-22) == "< 0.0001"
    for x in (8.47e-22, 2.111e-05, 1e20, 123456.789, -3e-9, 0.5):
        for text in (fmt.number(x), fmt.pct(abs(x) if abs(x) <= 1 else 0.5)):
            assert not E_NOTATION.search(text), text


def test_tables_show_percentages_intervals_and_means():
    frame = pl.DataFrame({"seat": [0], "n": [123456], "hits": [32345], "rate": [0.2622],
                          "lo": [0.2597], "hi": [0.2646], "mean": [104.312], "se": [0.071],
                          "exact": [2.111e-05]})
    headers, rows = display(frame)
    assert headers == ["seat", "n", "hits", "rate (95% interval)", "mean ± se", "exact"]
    assert rows[0] == ["0", "123,456", "32,345", "26.2% (26.0–26.5%)", "104.31 ± 0.07", "1 in 47,000"]


# ------------------------------------------------------------------ seats


def test_binned_shares_end_bins_hold_what_lies_beyond(tmp_path):
    """The end bins take every value beyond them, their labels say so, and a chart's caption
    names only the end bins it draws."""
    from simcards.present.charts import binned_bars
    from simcards.stats import binned_shares

    values = pl.LazyFrame({"value": [-500, -200, -181, -180, -5, 0, 19, 179, 180, 999]})
    shares = binned_shares(values, width=20, limit=200)
    by_bin = {row["bin"]: row for row in shares.iter_rows(named=True)}
    assert by_bin[-200]["hits"] == 3 and by_bin[-200]["label"] == "< -180"
    assert by_bin[-180]["hits"] == 1 and by_bin[-20]["hits"] == 1 and by_bin[0]["hits"] == 2
    assert by_bin[180]["hits"] == 2 and by_bin[180]["label"] == "≥ 180"
    assert by_bin[100]["hits"] == 0 and by_bin[100]["rate"] == 0  # empty bins between stay
    assert shares["bin"].to_list() == list(range(-200, 200, 20))
    assert shares["hits"].sum() == 10 and set(shares["n"]) == {10}
    caption = binned_bars(shares, tmp_path / "gap.png", "t", "x", "y", unit="deal")
    assert '"< -180" and "≥ 180" hold every deal' in caption
    inside = binned_shares(pl.LazyFrame({"value": [-5, 0, 40]}), width=20, limit=200)
    assert inside["bin"].to_list() == [-20, 0, 20, 40] and inside["hits"].to_list() == [1, 1, 0, 1]
    assert binned_bars(inside, tmp_path / "inside.png", "t", "x", "y") == ""
    assert (tmp_path / "gap.png").exists() and (tmp_path / "inside.png").exists()
    # nothing to bin (a Skat run of Null games only): an empty table, not an error
    empty = binned_shares(pl.LazyFrame({"value": pl.Series([], dtype=pl.Int32)}), width=10, limit=60)
    assert empty.height == 0 and {"bin", "label", "rate", "lo", "hi"} <= set(empty.columns)


def test_replay_pointer_names_the_deal_that_gave_away_the_most(tmp_path):
    """The perfect-play sections' pointer to `simcards replay --perfect-play`: the deal with the
    largest sum of the two loss columns (the lowest index among equals), nulls skipped; nothing
    when no deal gave anything away. Backquoted commands are code in the HTML."""
    from types import SimpleNamespace

    from simcards.present.render import Section, write_report
    from simcards.present.summary import replay_pointer

    run = SimpleNamespace(path=Path("results/x"))
    cols = ("a", "b")
    deals = pl.LazyFrame({"deal_index": [0, 1, 2, 3, 4], "a": [5, 30, None, 10, 0],
                          "b": [1, 2, None, 22, 0]}, schema_overrides={"a": pl.Int16, "b": pl.Int16})
    text = replay_pointer(run, deals, cols, "points")
    assert "`simcards replay results/x --deal I --perfect-play`" in text
    assert "deal 1 gave away the most here, 32 points" in text  # deal 3 ties at 32: the first
    assert replay_pointer(run, deals.filter(pl.col("deal_index") == 4), cols, "points") == ""
    assert replay_pointer(run, deals.filter(pl.col("deal_index") == 2), cols, "points") == ""
    paths = write_report(tmp_path, "t", [], [Section("S", "a < b;" + text)])
    page = paths["html"].read_text()
    assert "<code>simcards replay results/x --deal I --perfect-play</code>" in page
    assert "a &lt; b;" in page and "`" not in page.split("<body>")[1]


def test_chi_square_and_seat_check():
    assert chi2_sf(7.815, 3) == pytest.approx(0.05, abs=1e-3)
    assert chi2_sf(3.841, 1) == pytest.approx(0.05, abs=1e-3)
    even = pl.DataFrame({"seat": [0, 1, 2, 3], "hits": [250, 252, 249, 251], "n": [1000] * 4})
    assert "no sign that the seats differ" in rate_check(even, "x")
    skewed = pl.DataFrame({"seat": [0, 1, 2, 3], "hits": [250, 250, 250, 400], "n": [1000] * 4})
    assert "differ by more than chance" in rate_check(skewed, "x")


# ------------------------------------------------------------------ Kraken break-even


def test_break_even_found_when_the_crossing_lies_in_thin_bins():
    """Superkraak decisions are thin at high estimates: the bins where the gain turns positive
    held fewer than min_n decisions each, were dropped, and the break-even came out NaN."""
    from simcards.games.kraken.stats import break_even_from_table

    bins = [40.0, 45.0, 50.0, 55.0, 60.0, 65.0, 70.0, 75.0, 80.0, 85.0, 90.0]
    n = [300, 300, 300, 200, 100, 40, 30, 20, 20, 20, 20]
    gain = [-3.0, -2.8, -2.5, -2.0, -1.5, -1.0, -0.5, 0.2, 1.0, 2.0, 3.0]
    table = pl.DataFrame({"bid": ["superkraak"] * len(bins), "level": [3] * len(bins),
                          "estimate_bin": bins, "n": n, "gain_mean": gain,
                          "rate": [0.5 + g / 10 for g in gain]},
                         schema_overrides={"level": pl.Int8})
    row = break_even_from_table(table, bin_width=5.0, min_n=50).row(0, named=True)
    assert row["decisions"] == sum(n)
    assert 70 < row["break_even_estimate"] < 85
    assert 70 < row["half_success_estimate"] < 85
    too_few = table.with_columns(pl.lit(1, pl.UInt32).alias("n"))
    assert np.isnan(break_even_from_table(too_few, min_n=50)["break_even_estimate"][0])


# ------------------------------------------------------------------ compare statistics


def test_newcombe_and_paired_intervals():
    d, lo, hi = newcombe(56, 70, 48, 80)  # Newcombe (1998), example (a): 0.0524 to 0.3339
    assert d == pytest.approx(0.2) and lo == pytest.approx(0.0524, abs=1e-4)
    assert hi == pytest.approx(0.3339, abs=1e-4)
    a = np.array([1.0, 0, 1, 1, 0, 1, 0, 1] * 50)
    mean, lo, hi = paired(a, a)
    assert mean == 0 and lo == 0 and hi == 0


# ------------------------------------------------------------------ runs, reports, browser


def _run(tmp_path: Path, name: str, body: str) -> Path:
    cfg = tmp_path / f"{name}.toml"
    cfg.write_text(f'name = "{name}"\noutput = "{tmp_path / "results"}"\nworkers = 1\n' + body)
    assert main(["run", str(cfg), "--quiet"]) == 0
    return tmp_path / "results" / name


KJ = 'ruleset = "klaverjas-amsterdam"\ndeals = 2000\nseed = 3\nchunk_size = 2000\n' \
     'bots = "heuristic"\n[rules]\nnat_on_tie = {tie}\n'
HEARTS = 'ruleset = "hearts"\nmatches = 20\nseed = 3\nchunk_size = 20\nbots = {bots}\n'


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("runs")
    return {
        "tie": _run(tmp, "tie", KJ.format(tie="true")),
        "notie": _run(tmp, "notie", KJ.format(tie="false")),
        "moon": _run(tmp, "moon", HEARTS.format(bots='"heuristic"')),
        "nomoon": _run(tmp, "nomoon", HEARTS.format(
            bots='{ kind = "heuristic", params = { moon_threshold = 99 } }')),
        "tmp": tmp,
    }


def _table_cells(markdown: str) -> list[str]:
    return [c.strip() for line in markdown.splitlines() if line.startswith("|")
            for c in line.strip("|").split("|")]


@pytest.mark.parametrize("which", ["tie", "moon"])
def test_report_opens_with_a_summary_and_formats_every_cell(runs, which):
    out = runs["tmp"] / "reports"
    assert main(["report", str(runs[which]), "--out", str(out)]) == 0
    md = (out / which / "report.md").read_text()
    sections = re.findall(r"^## (.+)$", md, flags=re.M)
    assert sections[:2] == ["Summary", "Settings"]
    summary = md.split("## Summary")[1].split("## Settings")[0]
    bullets = [line for line in summary.splitlines() if line.startswith("- ")]
    assert 5 <= len(bullets) <= 8 and "depends on the bots" in summary
    assert all("%" in b or "1 in" in b or "±" in b or "never" in b for b in bullets)
    cells = _table_cells(md)
    assert not [c for c in cells if E_NOTATION.search(c)]
    assert not [c for c in cells if re.fullmatch(r"0\.\d{3,}", c)]  # raw fractions
    assert "{'kind'" not in md and "Seat symmetry" in md
    # the last section asks "is this the game, or the bot?" with a random-play reference
    assert sections[-1] == "Bot sanity: the game, or the bot?"
    sanity = md.split("## Bot sanity")[1]
    margin = re.search(r"Duplicate margin of heuristic over random bots: ([0-9.]+)", sanity)
    assert margin and float(margin.group(1)) > 0
    assert "uniform random play" in sanity and (out / which / "tables" / "bot_sanity.csv").exists()


def test_compare_paired_klaverjas_and_hearts(runs, capsys):
    out = runs["tmp"] / "reports"
    assert main(["compare", str(runs["tie"]), str(runs["notie"]), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    nat = next(line for line in printed.splitlines() if "goes nat" in line)
    assert "pp" in nat and nat.rstrip().endswith("yes")  # nat on tie: more nat, always
    table = pl.read_csv(out / "compare-tie-vs-notie" / "tables" / "comparison.csv")
    row = table.filter(pl.col("key") == "nat").row(0, named=True)
    assert row["method"].startswith("paired") and 0 < row["diff_lo"] <= row["diff"] <= row["diff_hi"]
    dealt = table.filter(pl.col("key") == "hand_meld").row(0, named=True)
    assert dealt["diff"] == 0 and dealt["diff_lo"] == 0  # the same cards
    assert main(["compare", str(runs["moon"]), str(runs["nomoon"]), "--out", str(out)]) == 0
    hearts = pl.read_csv(out / "compare-moon-vs-nomoon" / "tables" / "comparison.csv")
    attempt = hearts.filter(pl.col("key") == "moon_attempt").row(0, named=True)
    assert attempt["b"] == 0 and attempt["significant"]
    assert (out / "compare-moon-vs-nomoon" / "report.html").exists()


def test_compare_refuses_different_rulesets(runs, capsys):
    assert main(["compare", str(runs["tie"]), str(runs["moon"]), "--out", str(runs["tmp"])]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "different rulesets" in err


@pytest.mark.skipif(browser.CHROMIUM is None,
                    reason="headless Chromium is not installed (apt-get install chromium); "
                           ".ci/run installs it")
def test_reports_load_in_headless_chromium(runs, tmp_path):
    out = runs["tmp"] / "reports"
    pages = []
    for which in ("tie", "moon"):
        main(["report", str(runs[which]), "--out", str(out)])
        pages.append(out / which / "report.html")
    main(["compare", str(runs["tie"]), str(runs["notie"]), "--out", str(out)])
    pages.append(out / "compare-tie-vs-notie" / "report.html")
    for page in pages:
        result = browser.render(page, tmp_path / f"{page.parent.name}.png")
        assert result["problems"] == [], (page, result)
        assert result["images"] >= 1
        assert (tmp_path / f"{page.parent.name}.png").stat().st_size > 10_000
    broken = tmp_path / "broken.html"
    broken.write_text("<!doctype html><html><head></head><body><img alt='gone' "
                      "src='data:image/png;base64,AAAA'><script>console.error('boom')</script>"
                      "</body></html>")
    problems = browser.render(broken)["problems"]
    assert any("missing image" in p for p in problems) and any("boom" in p for p in problems)


# ------------------------------------------------------------------ documentation


def test_rules_document_has_every_ruleset_and_option(capsys):
    from simcards.docs import rules_section
    from simcards.games import game_class, rulesets

    for name in rulesets():
        text = rules_section(name)
        assert text, f"simcards/rules.md has no section '## {name}'"
        missing = [o.name for o in game_class(name).option_specs if f"`{o.name}`" not in text]
        assert not missing, f"{name}: options not described: {missing}"
        assert main(["rulesets", name, "--rules"]) == 0
        assert capsys.readouterr().out.startswith(f"## {name}")
    # the site's one-page rules show the package's file through a marker, never a copy
    assert "<!-- rules: all -->" in (ROOT / "docs" / "rules.md").read_text()


def test_readme_links_stay_inside_the_repository():
    text = (ROOT / "README.md").read_text()
    assert "../" not in text
    for target in re.findall(r"\]\(([^)]+)\)", text):
        assert not re.match(r"[a-z]+://", target), target
        assert (ROOT / target.split("#")[0]).resolve().is_relative_to(ROOT), target
        assert (ROOT / target.split("#")[0]).exists(), target


def test_version(capsys):
    import simcards

    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0 and capsys.readouterr().out.strip() == f"simcards {simcards.__version__}"
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert f'version = "{simcards.__version__}"' in pyproject
