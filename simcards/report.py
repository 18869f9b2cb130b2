"""`simcards report RUN`: statistics of a finished run as report.html, report.md, PNG charts and
tables (Parquet and CSV) under reports/<run name>/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from simcards.dataset import DatasetError, open_run
from simcards.errors import UserError
from simcards.games import load
from simcards.present.render import Section, Table, write_report
from simcards.present.settings import bots_table, options_table


def settings_section(game, bots: Any, seat_names: list[str] | None = None,
                     bots_caption: str = "Bots at each seat") -> Section:
    """The rule options and every seat's bot settings as tables (* marks a changed value)."""
    kind_ids, params = game.resolve_bots(bots)
    names = {v: k for k, v in game.bots.kinds.items()}
    kinds = [names.get(int(k), str(k)) for k in kind_ids]
    seat_names = seat_names or [f"seat {s}" for s in game.seats]
    options = options_table([(o.name, game.options[o.name], o.default, o.doc) for o in game.option_specs])
    tables = [Table("rule_options", options, "Rule options of this ruleset")]
    if bots is not None:
        tables.append(Table("bot_settings", bots_table(seat_names, kinds, params.tolist(),
                                                       game.bots.params),
                            f"{bots_caption} (* a value changed from its default)"))
    return Section("Settings", f"Ruleset {game.name}: {game.summary}".rstrip(": "), tables=tables)


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
    sections = game.report_sections(run, out_dir)
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
    head = 1 if sections and sections[0].headlines else 0  # the summary stays on top
    sections = [*sections[:head], settings, *sections[head:]]
    return write_report(out_dir, f"simcards report: {run.name}", meta, sections)
