"""`simcards report RUN`: statistics of a finished run as report.html, report.md, PNG charts and
tables (Parquet and CSV) under reports/<run name>/."""

from __future__ import annotations

from pathlib import Path

from simcards.dataset import DatasetError, open_run
from simcards.errors import UserError
from simcards.games import load
from simcards.present.render import write_report


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
        "options: " + ", ".join(f"{k}={v}" for k, v in m["options"].items()),
        f"bots: {m['config']['bots']}",
        f"simcards {m['simcards_version']}; made {m['created']}",
        "intervals are 95% Wilson score intervals; ± values are standard errors",
    ]
    return write_report(out_dir, f"simcards report: {run.name}", meta, sections)
