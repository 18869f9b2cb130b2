"""`simcards compare RUN_A RUN_B`: two runs of one ruleset (different options or bots) side by
side, with the difference of each headline figure (`Game.headline_rates`) and its 95% interval.

Runs with the same seed hold the same deals (and the same first deals of every match), so the
difference is taken unit by unit: the mean of the paired differences of the per-unit
indicators, with its standard error; this removes the variance of the cards and gives much
tighter intervals. Runs with different seeds are compared as independent samples: Newcombe's
hybrid score interval for two proportions (method 10 of Newcombe 1998), a normal interval for
two means."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import polars as pl

from simcards.dataset import DatasetError, open_run
from simcards.errors import UserError
from simcards.games import load
from simcards.present import charts, fmt
from simcards.present.render import Figure, Section, Table, write_report
from simcards.present.summary import estimate, values
from simcards.stats import Z95, wilson


def newcombe(h1: float, n1: float, h2: float, n2: float) -> tuple[float, float, float]:
    """Difference p1 - p2 of two independent proportions with Newcombe's 95% interval."""
    p1, p2 = h1 / n1, h2 / n2
    l1, u1 = wilson(h1, n1)
    l2, u2 = wilson(h2, n2)
    d = p1 - p2
    return d, d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2), d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)


def paired(xa: np.ndarray, xb: np.ndarray) -> tuple[float, float, float]:
    """Mean paired difference with a 95% normal interval."""
    d = xa - xb
    n = d.size
    mean = float(d.mean()) if n else float("nan")
    se = float(d.std(ddof=1)) / math.sqrt(n) if n > 1 else float("nan")
    return mean, mean - Z95 * se, mean + Z95 * se


def _frames(run) -> dict:
    try:
        matches = run.scan("matches")
    except DatasetError:
        matches = None
    return {"deals": run.scan(), "matches": matches}


def compare_runs(path_a, path_b) -> tuple[pl.DataFrame, dict]:
    """The comparison table (one row per headline both runs have) and what was compared."""
    a, b = open_run(path_a), open_run(path_b)
    if a.ruleset != b.ruleset:
        raise UserError(f"cannot compare runs of different rulesets: {a.path} is {a.ruleset}, "
                        f"{b.path} is {b.ruleset}")
    game_a, game_b = load(a.ruleset, **a.options), load(b.ruleset, **b.options)
    fa, fb = _frames(a), _frames(b)
    same_seed = a.manifest["seed"] == b.manifest["seed"]
    hb = {h.key: h for h in game_b.headline_rates(fb["deals"], fb["matches"])}
    rows = []
    for h in game_a.headline_rates(fa["deals"], fa["matches"]):
        if h.key not in hb:
            continue
        va, vb = values(h, fa), values(hb[h.key], fb)
        if va is None or vb is None or va.height == 0 or vb.height == 0:
            continue
        ea, eb = estimate(h, va["x"]), estimate(hb[h.key], vb["x"])
        if same_seed:
            joined = va.join(vb, on=list(h.key_columns), how="inner", suffix="_b")
            d, lo, hi = paired(joined["x"].to_numpy(), joined["x_b"].to_numpy())
            method, n_used = "paired by unit (same seed)", joined.height
        elif h.kind == "rate":
            d, lo, hi = newcombe(ea["value"] * ea["n"], ea["n"], eb["value"] * eb["n"], eb["n"])
            method, n_used = "Newcombe (independent runs)", ea["n"] + eb["n"]
        else:
            d = ea["value"] - eb["value"]
            se = math.sqrt(ea["se"] ** 2 + eb["se"] ** 2)
            lo, hi = d - Z95 * se, d + Z95 * se
            method, n_used = "normal (independent runs)", ea["n"] + eb["n"]
        rows.append({"key": h.key, "figure": h.text.format(rate="…", ci="").strip(),
                     "kind": h.kind, "bots": h.bots,
                     "a": ea["value"], "a_lo": ea["lo"], "a_hi": ea["hi"], "a_n": ea["n"],
                     "b": eb["value"], "b_lo": eb["lo"], "b_hi": eb["hi"], "b_n": eb["n"],
                     "diff": d, "diff_lo": lo, "diff_hi": hi, "units_compared": n_used,
                     "method": method, "significant": bool(lo > 0 or hi < 0)})
    table = pl.DataFrame(rows)
    return table, {"a": a, "b": b, "game_a": game_a, "game_b": game_b, "same_seed": same_seed}


def _show(kind: str, value, lo, hi) -> str:
    return fmt.rate_ci(value, lo, hi) if kind == "rate" else fmt.interval(value, lo, hi, signed=False)


def _diff(kind: str, d, lo, hi) -> str:
    return fmt.pct_diff(d, lo, hi) if kind == "rate" else fmt.interval(d, lo, hi)


def display_table(table: pl.DataFrame) -> pl.DataFrame:
    """The comparison as formatted text (the files keep the numbers)."""
    return pl.DataFrame({
        "figure": table["figure"].to_list(),
        "A": [_show(r["kind"], r["a"], r["a_lo"], r["a_hi"]) for r in table.iter_rows(named=True)],
        "B": [_show(r["kind"], r["b"], r["b_lo"], r["b_hi"]) for r in table.iter_rows(named=True)],
        "A − B (95% interval)": [_diff(r["kind"], r["diff"], r["diff_lo"], r["diff_hi"])
                                 for r in table.iter_rows(named=True)],
        "significant": ["yes" if s else "no" for s in table["significant"].to_list()],
    })


def _option_changes(game_a, game_b) -> list[str]:
    return [f"{o.name}: {game_a.options[o.name]} in A, {game_b.options[o.name]} in B"
            for o in game_a.option_specs if game_a.options[o.name] != game_b.options.get(o.name)]


def _diff_chart(table: pl.DataFrame, path: Path) -> None:
    rates = table.filter(pl.col("kind") == "rate")
    import matplotlib.pyplot as plt

    labels = [charts.wrap(f, 40) for f in rates["figure"].to_list()]
    y = np.arange(len(labels))
    d = rates["diff"].to_numpy() * 100
    err = np.vstack([d - rates["diff_lo"].to_numpy() * 100, rates["diff_hi"].to_numpy() * 100 - d])
    fig, ax = plt.subplots(figsize=(8, max(2.5, 0.6 * len(labels) + 1.2)))
    ax.errorbar(d, y, xerr=np.clip(err, 0, None), fmt="o", color=charts.BLUE, capsize=3,
                label="A − B, 95% interval")
    ax.axvline(0, color="#888", lw=0.8)
    ax.set_yticks(y, labels, fontsize=8)
    ax.invert_yaxis()
    ax.xaxis.set_major_formatter(charts.FuncFormatter(lambda v, _p: f"{v:+g} pp"))
    charts.finish(fig, ax, path, "Difference of each headline rate, run A minus run B",
                  "difference in percentage points", "")


def write_compare(path_a, path_b, reports_root: str | Path = "reports") -> tuple[pl.DataFrame, dict]:
    table, info = compare_runs(path_a, path_b)
    a, b = info["a"], info["b"]
    out_dir = Path(reports_root) / f"compare-{a.name}-vs-{b.name}"
    out_dir.mkdir(parents=True, exist_ok=True)
    shown = display_table(table) if table.height else pl.DataFrame({"figure": []})
    headlines = []
    for r in table.iter_rows(named=True):
        verdict = "a significant difference" if r["significant"] else "no significant difference"
        headlines.append(f"{r['figure']}: A {_show(r['kind'], r['a'], r['a_lo'], r['a_hi'])}, "
                         f"B {_show(r['kind'], r['b'], r['b_lo'], r['b_hi'])}; A − B = "
                         f"{_diff(r['kind'], r['diff'], r['diff_lo'], r['diff_hi'])}, {verdict}"
                         + (" (depends on the bots)" if r["bots"] else ""))
    method = ("Both runs have seed {0}, so they hold the same deals: each difference is the mean of "
              "the per-unit differences of the two runs on the same cards (paired), with its "
              "standard error.".format(a.manifest["seed"]) if info["same_seed"] else
              "The runs have different seeds, so they are independent samples: differences of "
              "rates carry Newcombe's hybrid score interval, of means a normal interval.")
    changes = _option_changes(info["game_a"], info["game_b"])
    bots_a, bots_b = a.manifest["config"]["bots"], b.manifest["config"]["bots"]
    if bots_a != bots_b:
        changes.append("the bots differ (tables below)")
    figures = []
    if table.height and table.filter(pl.col("kind") == "rate").height:
        _diff_chart(table, out_dir / "differences.png")
        figures.append(Figure("differences.png", "Each headline rate's difference A − B in "
                              "percentage points with its 95% interval; an interval that misses "
                              "0 is a significant difference."))
    from simcards.report import settings_section

    sa = settings_section(info["game_a"], bots_a, bots_caption="Bots of run A")
    sb = settings_section(info["game_b"], bots_b, bots_caption="Bots of run B")
    sa.tables[0].name, sa.tables[1].name = "rule_options_a", "bot_settings_a"
    sb.tables[0].name, sb.tables[1].name = "rule_options_b", "bot_settings_b"
    sections = [
        Section("Summary", f"A = {a.path}, B = {b.path}. What changes from A to B: "
                + ("; ".join(changes) if changes else "nothing in the options or bots") + ". " + method,
                headlines=headlines, figures=figures,
                tables=[Table("comparison_shown", shown, "Headline figures of both runs and their "
                              "difference"), Table("comparison", table, "The comparison in full "
                              "precision", show=False)]),
        Section("Settings of run A", "", tables=sa.tables),
        Section("Settings of run B", "", tables=sb.tables),
    ]
    meta = [f"ruleset: {a.ruleset}", f"run A: {a.path} (seed {a.manifest['seed']})",
            f"run B: {b.path} (seed {b.manifest['seed']})",
            "intervals are 95%; pp = percentage points"]
    paths = write_report(out_dir, f"simcards compare: {a.name} vs {b.name}", meta, sections)
    return shown, {**info, **paths, "out_dir": out_dir}
