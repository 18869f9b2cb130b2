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
                objective: str, path: Path, against: str = "baseline") -> None:
    fig, ax = plt.subplots(figsize=(7, 4))
    x = profile["value"].to_numpy()
    ax.plot(x, profile["gain"].to_numpy(), marker="o", ms=3, color="#4C78A8", label="expected gain")
    ax.fill_between(x, profile["lo"].to_numpy(), profile["hi"].to_numpy(), alpha=0.25,
                    color="#4C78A8", label="95% interval")
    ax.axhline(0, color="#888", lw=0.8)
    ax.axvline(chosen, color="#E45756", lw=1.5, label=f"chosen {chosen:g}")
    ax.axvline(baseline, color="#222", lw=1, ls="--", label=f"{against} {baseline:g}")
    what = (f"crosses saved ({against} minus tuned)" if objective == "crosses"
            else f"{objective}: tuned minus {against}")
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


def _path_chart(result, rng, path: Path) -> None:
    """One parameter's value over the iterations (0: the baseline), its range edges dashed."""
    fig, ax = plt.subplots(figsize=(7, 4))
    xs = list(range(len(result.iterations) + 1))
    ys = [result.baseline_values[rng.name]] + [it.best[rng.name] for it in result.iterations]
    ax.plot(xs, ys, marker="o", ms=4, color="#4C78A8", label="best response")
    if result.config.damping:  # the profiles played against differ from the best responses
        ax.plot(xs[1:], [it.against[rng.name] for it in result.iterations], marker="s", ms=4,
                color="#F58518", ls=":", label="profile played against")
    ax.axhline(result.shipped[rng.name], color="#E45756", lw=1.5,
               label=f"shipped {result.shipped[rng.name]:g}")
    for limit in (rng.low, rng.high):
        ax.axhline(limit, color="#888", lw=0.8, ls="--")
    ax.set_xticks(xs)
    charts.finish(fig, ax, path, f"{rng.name} over the iterations",
                  "iteration (0: the config's baseline)", f"{rng.name} (range edges dashed)")


def _iteration_gain_chart(result, unit: str, path: Path) -> None:
    """Each iteration's verified gain over the profile it was tuned against, with its 95%
    interval; settled iterations (no gain, no value at an edge) in grey."""
    fig, ax = plt.subplots(figsize=(7, 4))
    for it in result.iterations:
        v = it.verification
        ax.errorbar([it.number], [v["gain"]], yerr=[[v["gain"] - v["lo"]], [v["hi"] - v["gain"]]],
                    fmt="o", capsize=4, color="#888" if it.settled else "#4C78A8")
    ax.axhline(0, color="#222", lw=0.8)
    if result.config.tolerance > 0:
        ax.axhline(result.config.tolerance, color="#E45756", lw=1, ls="--",
                   label=f"tolerance {result.config.tolerance:g}")
    ax.set_xticks([it.number for it in result.iterations])
    charts.finish(fig, ax, path, "Verified gain of each iteration's best response",
                  "iteration", f"{result.config.objective}: gain per {unit} over the profile")


def _runner_up(iteration, unit: str) -> str:
    """The best candidate other than the profile, on the iteration's tuning seed."""
    others = [c for c in iteration.result.search.candidates if c.params != iteration.against]
    if not others:
        return ""
    best = max(others, key=lambda c: c.gain)
    values = ", ".join(f"{k} = {x:g}" for k, x in best.params.items())
    return f" (the best other, {values}, gained {fmt.interval(best.gain, best.lo, best.hi)} per {unit})"


def write_equilibrium_report(result, out_dir: Path) -> dict[str, Path]:
    """The report of an equilibrium tune (simcards/tune/equilibrium.py): each parameter's path
    over the iterations, each iteration's verified gain, the last iteration's gain curves, and
    at the end the exploitability of the shipped profile."""
    c = result.config
    unit = "match" if game_class(c.ruleset).unit == "match" else "deal"
    units = "matches" if unit == "match" else "deals"
    last = result.iterations[-1]
    shipped = ", ".join(f"{k} = {x:g}" for k, x in result.shipped.items())
    baseline = ", ".join(f"{k} = {x:g}" for k, x in result.baseline_values.items())
    e = result.exploitability
    exploit_text = (f"{fmt.interval(e['gain'], e['lo'], e['hi'])} per {unit}" if e is not None
                    else "not measured (the run stopped at max_iterations)")
    summary = Section("Summary", "Each iteration tunes a best response to the profile before it "
                      "(the first to the config's baseline) and verifies it on a fresh seed; the run "
                      "stops when two iterations in a row find no gain. The gains are these bots' "
                      "gains in this ruleset.", headlines=[
        result.status(),
        f"Shipped: {shipped} (the config's baseline: {baseline})",
        f"Exploitability of the shipped profile: {exploit_text}",
        *[f"WARNING: {m}" for m in result.edges],
    ])
    game = load(c.ruleset, **(c.rules or {}))
    settings = settings_section(game, c.baseline, bots_caption="The config's baseline bot (iteration 1 "
                                                                "plays against it)")

    path_figures = []
    for rng in c.ranges:
        filename = f"path_{rng.name}.png"
        _path_chart(result, rng, out_dir / filename)
        path_figures.append(Figure(filename, f"{rng.name} of each iteration's best response "
                                   f"(iteration 0: the config's baseline); red: the shipped value; "
                                   f"dashed: the range [{rng.low:g}, {rng.high:g}]."))
    _iteration_gain_chart(result, unit, out_dir / "iteration_gains.png")
    path_figures.append(Figure("iteration_gains.png", f"Verified gain per {unit} of each iteration's "
                               "best response over the profile it was tuned against, with its 95% "
                               "interval (grey: settled, no gain and no value at a range edge)."))
    rows = []
    for it in result.iterations:
        v = it.verification
        rows.append({"iteration": it.number, "tune_seed": it.tune_seed, "verify_seed": it.verify_seed,
                     **{f"against_{k}": x for k, x in it.against.items()},
                     **{f"best_{k}": x for k, x in it.best.items()},
                     "gain": v["gain"], "lo": v["lo"], "hi": v["hi"], "units": v["units"],
                     "settled": it.settled, "verdict": it.verdict()})
    damping = (f" With damping {c.damping:g}, iteration k instead played against the profile "
               f"{1 - c.damping:g} of the way from iteration k-1's profile to its best response "
               f"(orange in the charts), so best responses that overshoot do not cycle."
               if c.damping else "")
    iterations = Section(
        "Iterations",
        f"Iteration k searched against copies of iteration k-1's best response on its own tuning "
        f"seed ({c.units:,} {units} per candidate, in duplicate), starting from those values, and "
        f"verified its best response against them on its own seed ({c.verify:,} {units}). No gain: "
        f"the interval includes 0 or the gain is below the tolerance ({c.tolerance:g} per {unit}); "
        f"a value within one resolution step of its range's edge never counts as settled."
        + damping, figures=path_figures, tables=[Table("iterations", pl.DataFrame(rows), "Iterations")])

    curve_figures, curve_tables = [], []
    for name, profile in last.result.profiles.items():
        filename = f"gain_{name}.png"
        _gain_chart(profile, name, last.best[name], last.against[name], unit, c.objective,
                    out_dir / filename, against="profile")
        curve_figures.append(Figure(filename, f"Iteration {last.number}: expected gain per {unit} "
                                    f"over the profile it was tuned against as {name} varies (the "
                                    f"other parameters at the best response), with its 95% interval "
                                    f"on the tuning seed. Red: best response; dashed: the profile."))
        curve_tables.append(Table(f"gain_{name}", profile, f"Gain curve of {name} (iteration {last.number})"))
    curves = Section(f"Gain curves of iteration {last.number}",
                     f"Against the profile {', '.join(f'{k} = {x:g}' for k, x in last.against.items())}.",
                     figures=curve_figures, tables=curve_tables)

    candidates = pl.DataFrame([{"iteration": it.number, **cand.params, "gain": cand.gain, "se": cand.se,
                                "n": cand.n, "diff_to_best": cand.diff_to_best, "diff_se": cand.diff_se}
                               for it in result.iterations for cand in it.result.search.candidates])
    log = pl.DataFrame({"iteration": [it.number for it in result.iterations for _ in it.result.search.rounds],
                        "round": [r for it in result.iterations for r in it.result.search.rounds]})
    search = Section("Search", "Every candidate of every iteration (gain per unit over that "
                     "iteration's profile on its tuning seed) and the search rounds.",
                     tables=[Table("candidates", candidates, "Candidates", show=False),
                             Table("search", log, "Search log", show=False)])

    if e is not None and e.get("identical"):
        exploit = Section("Exploitability",
                          f"The best response iteration {last.number} found to the shipped profile "
                          f"({shipped}) is the profile itself: on its tuning seed no candidate did "
                          f"better{_runner_up(last, unit)}. Its gain is exactly 0 (the same bots "
                          f"play the same cards alike, so the verification match is not played). A "
                          f"better search could find more: this is the gain this search finds.",
                          tables=[Table("exploitability", pl.DataFrame([e]), "Exploitability")])
    elif e is not None:
        exploit = Section("Exploitability",
                          f"The best response iteration {last.number} found to the shipped profile "
                          f"({shipped}) gains {exploit_text} in a fresh duplicate match on seed "
                          f"{e['seed']} ({e['units']:,} {units}, 95% interval). A better search "
                          f"could find more: this is the gain this search finds.",
                          tables=[Table("exploitability", pl.DataFrame([e]), "Exploitability")])
    else:
        exploit = Section("Exploitability", result.status() + ". Raise max_iterations, or widen a "
                          "range a value ended at, and run again.")
    meta = [f"ruleset: {c.ruleset}", f"objective: {c.objective}; seed {c.seed}; mode equilibrium",
            "thresholds: thresholds.toml (include it in a run config as is); iterations: iterations.json"]
    sections = [summary, settings, iterations, curves, search, exploit]
    return write_report(out_dir, f"simcards tune: {c.name} (equilibrium)", meta, sections)
