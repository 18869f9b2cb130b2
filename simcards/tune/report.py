"""The report of `simcards tune`: each parameter's expected-gain curve with its 95% band, the
chosen values, the search log and the fresh-seed verification."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import polars as pl  # noqa: E402

from simcards.games.registry import game_class, load  # noqa: E402
from simcards.present import charts, fmt  # noqa: E402
from simcards.present.render import Figure, Section, Table, write_report  # noqa: E402
from simcards.report import settings_section  # noqa: E402


def _gain_chart(profile: pl.DataFrame, name: str, chosen: float, baseline: float, unit: str,
                objective: str, path: Path) -> None:
    fig, ax = plt.subplots(figsize=(7, 4))
    x = profile["value"].to_numpy()
    ax.plot(x, profile["gain"].to_numpy(), marker="o", ms=3, color="#4C78A8", label="expected gain")
    ax.fill_between(x, profile["lo"].to_numpy(), profile["hi"].to_numpy(), alpha=0.25,
                    color="#4C78A8", label="95% interval")
    ax.axhline(0, color="#888", lw=0.8)
    ax.axvline(chosen, color="#E45756", lw=1.5, label=f"chosen {chosen:g}")
    ax.axvline(baseline, color="#222", lw=1, ls="--", label=f"baseline {baseline:g}")
    what = ("crosses saved (baseline minus tuned)" if objective == "crosses"
            else f"{objective}: tuned minus baseline")
    charts.finish(fig, ax, path, f"Expected gain per {unit} against {name}",
                  f"{name} (bot parameter)", f"{what} per {unit}")


def write_tune_report(result, out_dir: Path) -> dict[str, Path]:
    c = result.config
    unit = "match" if game_class(c.ruleset).unit == "match" else "deal"
    figures, tables = [], []
    for name, profile in result.profiles.items():
        filename = f"gain_{name}.png"
        _gain_chart(profile, name, result.best[name], result.baseline_values[name], unit, c.objective,
                    out_dir / filename)
        figures.append(Figure(filename, f"Expected gain of the tuned bot over the baseline per {unit} "
                              f"as {name} varies (the other tuned parameters at their chosen values), "
                              f"with its 95% interval. Red: chosen value; dashed: the baseline's value."))
        tables.append(Table(f"gain_{name}", profile, f"Gain curve of {name}"))
    candidates = pl.DataFrame([{**cand.params, "gain": cand.gain, "se": cand.se, "n": cand.n,
                                "diff_to_best": cand.diff_to_best, "diff_se": cand.diff_se}
                               for cand in result.search.candidates])
    tables.append(Table("candidates", candidates, "Every candidate evaluated in the search "
                        "(gain per unit with its standard error; paired difference to the chosen values)"))
    v = result.verification
    verdict = ("a significant gain" if v["significant"] and v["gain"] > 0 else
               "a significant loss" if v["significant"] else "no significant difference")
    chosen = ", ".join(f"{k} = {x:g}" for k, x in result.best.items())
    baseline = ", ".join(f"{k} = {x:g}" for k, x in result.baseline_values.items())
    gain_text = fmt.interval(v["gain"], v["lo"], v["hi"])
    summary = Section("Summary", "The gains are these bots' gains in this ruleset: a bot that "
                      "plays differently would want other thresholds.", headlines=[
        f"Chosen: {chosen} (the baseline bot: {baseline})",
        f"Verification on a fresh seed ({v['units']:,} {unit}es): gain per {unit} {gain_text}, "
        f"{verdict}".replace("deales", "deals").replace("matchs", "matches"),
        f"{len(result.search.candidates):,} candidates evaluated in {len(result.search.rounds):,} "
        f"search rounds, each on {c.units:,} {unit}es played twice".replace("deales", "deals"),
    ])
    game = load(c.ruleset, **(c.rules or {}))
    settings = settings_section(game, c.baseline, bots_caption="The baseline bot")
    sections = [
        summary, settings,
        Section("Chosen values",
                f"Chosen: {chosen} (baseline: {baseline}). Each candidate played a duplicate match "
                f"against the baseline bot on the same {c.units:,} {unit}es (every {unit} twice, "
                f"with the teams' seats swapped), and the search compared candidates on their paired "
                f"differences.".replace("deales", "deals"),
                figures=figures, tables=tables),
        Section("Verification",
                f"A fresh duplicate match on seed {v['seed']} ({v['units']:,} {unit}es) of the tuned "
                f"bot against the baseline: gain per {unit} {gain_text} (95% interval), "
                f"z = {v['z']:.2f}: {verdict}.".replace("deales", "deals"),
                tables=[Table("verification", pl.DataFrame([v]), "Verification match")]),
        Section("Search", "Each round evaluates a grid of values of one parameter and narrows the "
                "range around the best, until the candidates can no longer be told apart.",
                tables=[Table("search", pl.DataFrame({"round": result.search.rounds}), "Search log")]),
    ]
    meta = [f"ruleset: {c.ruleset}", f"objective: {c.objective}; seed {c.seed}",
            "thresholds: thresholds.toml (include it in a run config as is)"]
    return write_report(out_dir, f"simcards tune: {c.name}", meta, sections)
