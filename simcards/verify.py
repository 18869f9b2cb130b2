"""`simcards verify RUN`: check every part of a run against its manifest.

A part is good when it is present and its size and SHA-256 match what the run recorded when it
renamed the part into place. Also reported: chunks not made yet, parts on disk the manifest does
not list, and temporary files a killed run left behind."""

from __future__ import annotations

from pathlib import Path

from simcards.dataset import open_run
from simcards.manifest import KINDS, Plan, done_entries, entry_problems, part_name


def verify_run(path: str | Path) -> tuple[list[str], str]:
    """(problems, summary) of the run at ``path``; DatasetError when it is not a run."""
    run = open_run(path)
    m = run.manifest
    unit = "matches" if m.get("unit") == "match" else "deals"
    problems: list[str] = []
    entries = done_entries(m)
    for entry in entries:
        problems.extend(entry_problems(run.path, entry))
    plan = Plan(m["units"], m["chunk_size"])
    missing = len(plan) - len(entries)
    if missing:
        made = sum(e["n"] for e in entries)
        problems.append(f"{run.path} is incomplete: {made:,} of {m['units']:,} {unit} made "
                        f"({missing:,} of {len(plan):,} parts to make); rerun the config to finish it")
    recorded = {e["index"] for e in entries}
    for kind in KINDS:
        folder = run.path / kind
        if not folder.is_dir():
            continue
        known = {part_name(i) for i in recorded}
        for file in sorted(folder.iterdir()):
            if file.name.endswith(".tmp"):
                problems.append(f"{file} is a temporary file of an interrupted run (rerun to clean up)")
            elif file.name not in known:
                problems.append(f"{file} is not in the manifest (rerun the config to make it again)")
    parts = sum(len(e.get("rows", {})) for e in entries)
    rows = sum(e["n"] for e in entries)
    summary = f"{run.path}: {parts:,} parts, {rows:,} {unit}; every checksum matches the manifest"
    return problems, summary
