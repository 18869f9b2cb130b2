"""`simcards report RUN`: statistics of a finished run as report.html, report.md, PNG charts and
tables (Parquet and CSV) under reports/<run name>/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from simcards.dataset import DatasetError, open_run
from simcards.errors import UserError
from simcards.games import load
from simcards.games.botspec import is_user_spec, per_seat
from simcards.present import fmt
from simcards.present.render import Section, Table, write_report
from simcards.present.settings import bots_table, options_table
from simcards.present.summary import estimate, summary_lines, values
from simcards.stats import seating_gain

# units the bot-sanity section simulates: enough for a stable margin, a few seconds of work
SANITY_UNITS = {"deal": 20_000, "match": 300}


def settings_section(game, bots: Any, seat_names: list[str] | None = None,
                     bots_caption: str = "Bots at each seat") -> Section:
    """The rule options and every seat's bot settings as tables (* marks a changed value)."""
    seat_names = seat_names or [f"seat {s}" for s in game.seats]
    options = options_table([(o.name, game.options[o.name], o.default, o.doc) for o in game.option_specs])
    tables = [Table("rule_options", options, "Rule options of this ruleset")]
    if bots is not None:  # None: the rule options only (a tournament with more bots than seats)
        kind_ids, params = game.resolve_bots(bots)
        names = {v: k for k, v in game.bots.kinds.items()}
        kinds = [names.get(int(k), str(k)) for k in kind_ids]
        for seat, item in enumerate(per_seat(bots, game.n_seats) or []):
            if is_user_spec(item):
                kinds[seat] = user_bot_label(item, game.bots)
        tables.append(Table("bot_settings", bots_table(seat_names, kinds, params.tolist(),
                                                       game.bots.params),
                            f"{bots_caption} (* a value changed from its default)"))
    return Section("Settings", f"Ruleset {game.name}: {game.summary}".rstrip(": "), tables=tables)


def user_bot_label(item: dict, family) -> str:
    """A user's bot in the settings: its kind, import path and its own parameters (a Numba
    bot's game parameters are the table's columns) with * on a value changed from its default."""
    from simcards.games.userbots import user_param_defaults

    label = f"{item['kind']} {item['entry']}"
    defaults = user_param_defaults(item, family)
    if item["kind"] == "numba":  # the game's parameters have columns of their own
        defaults = {k: v for k, v in defaults.items() if k not in family.param_names}
    given = dict(item.get("params") or {})
    values = {**defaults, **given}
    if not values:
        return label
    shown = []
    for name, value in values.items():
        changed = "*" if name in given and given[name] != defaults.get(name) else ""
        shown.append(f"{name} = {value:g}{changed}" if isinstance(value, (int, float))
                     else f"{name} = {value!r}{changed}")
    return f"{label} ({', '.join(shown)})"


def _frames(game, chunk: dict) -> dict:
    return {"deals": chunk["deals"].lazy(), "matches": chunk["matches"].lazy() if "matches" in chunk else None}


def summary_section(game, run) -> Section:
    """The summary a report opens with: the game's note and one sentence per headline figure
    (`Game.headline_rates`) the run's frames can answer."""
    deals = run.scan()
    matches = None
    if game.unit == "match":
        try:
            matches = run.scan("matches")
        except DatasetError:  # a run cut short before any match part was written
            matches = None
    return Section("Summary", game.summary_note,
                   headlines=summary_lines(game.headline_rates(deals, matches),
                                           {"deals": deals, "matches": matches}))


def bot_sanity_section(game, run) -> Section:
    """"Is this the game, or the bot?": the heuristic bots' duplicate margin over random bots,
    the bot-dependent headline figures of the run beside uniform random play on the same
    seed's cards, and the published figures the game knows of."""
    seed = run.manifest["seed"]
    units = min(SANITY_UNITS[game.unit], max(run.units_done, 1))
    sim = game.comparison_game()
    lines = []
    if game.objectives and "heuristic" in game.bots.kinds:
        name, objective = next(iter(game.objectives.items()))
        gains = np.zeros(units)
        for seats in game.tune_seatings:
            bots = ["heuristic" if s in seats else "random" for s in game.seats]
            values_ = objective.seat_values(sim.simulate_chunk(units, seed=seed, bots=bots))
            gains += seating_gain(values_, seats)
        gains /= len(game.tune_seatings)
        se = gains.std(ddof=1) / np.sqrt(gains.size)
        lines.append(f"Duplicate margin of heuristic over random bots: {fmt.mean_se(gains.mean(), se)} "
                     f"per {game.unit} in {objective.name} ({objective.doc}; positive: the heuristic "
                     f"side does better), over {units:,} {game.unit}es played on the same cards once "
                     f"per seating".replace("deales", "deals"))
    random_run = _frames(sim, sim.simulate_chunk(units, seed=seed, bots="random"))
    run_frames = {"deals": run.scan(), "matches": run.scan("matches") if game.unit == "match" else None}
    rows = []
    for h in game.headline_rates(run_frames["deals"], run_frames["matches"]):
        if not h.bots:
            continue
        here = values(h, run_frames)
        try:
            rand = values(h, random_run)
        except pl.exceptions.ColumnNotFoundError:  # a column only the run has (comparison_game)
            rand = None
        if here is None or rand is None or here.height == 0 or rand.height == 0:
            continue
        a, b = estimate(h, here["x"]), estimate(h, rand["x"])
        shown = fmt.rate_ci if h.kind == "rate" else (lambda v, lo, hi: fmt.mean_se(v, (hi - v) / 1.96))
        rows.append({"figure": h.text.replace("{rate}", "…").replace("{ci}", "").strip(), "this run's bots": shown(a["value"], a["lo"], a["hi"]),
                     "uniform random play": shown(b["value"], b["lo"], b["hi"])})
    tables = []
    if rows:
        tables.append(Table("bot_sanity", pl.DataFrame(rows),
                            f"Figures that depend on the bots: this run, and uniform random play on the "
                            f"same seed's first {units:,} {game.unit}es".replace("deales", "deals")))
    lines += [str(reference) for reference in game.published_references]
    text = ("Figures marked 'depends on the bots' are properties of these bots playing the game, "
            "not of the game alone: a stronger or weaker bot moves them. The random-play column "
            "is a floor (no skill at all); published figures, where the game has them, come from "
            "people or other programs, each with its source and sample size. Card-only figures "
            "(the cards dealt, exact odds) do not depend on the bots.")
    return Section("Bot sanity: the game, or the bot?", text, tables=tables, notes=lines)


def build_report(run_path: str | Path, reports_root: str | Path = "reports") -> dict[str, Path]:
    """Write the report of the run at ``run_path``; returns the paths of report.html and .md."""
    run = open_run(run_path)
    run.check()  # every part against its checksum, before anything is written
    try:
        game = load(run.ruleset, **run.options)
    except UserError as err:
        raise DatasetError(f"{run.path}: {err}") from None
    out_dir = Path(reports_root) / run.name
    out_dir.mkdir(parents=True, exist_ok=True)
    sections = game.report_sections(run, out_dir)  # the game's own, below the summary
    m = run.manifest
    units = run.units_done
    meta = [
        f"run: {run.path} ({units:,} {'matches' if m['unit'] == 'match' else 'deals'}"
        f"{'' if run.complete else ', INCOMPLETE'})",
        f"ruleset: {m['ruleset']} (rules version {m['rules_version']}), seed {m['seed']}",
        f"simcards {m['simcards_version']}; made {m['created']}",
        "intervals are 95% (Wilson score intervals for rates); ± values are standard errors",
    ]
    settings = settings_section(game, m["config"]["bots"])
    sections = [summary_section(game, run), settings, *sections, bot_sanity_section(game, run)]
    return write_report(out_dir, f"simcards report: {run.name}", meta, sections)
