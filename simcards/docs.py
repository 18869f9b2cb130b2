"""Generated documentation: what the docs site shows from the code rather than from a copy.

- The rules: ``simcards/rules.md`` (package data) is their one source. `simcards rulesets NAME
  --rules` prints a ruleset's section (`rules_section`); a docs page shows the same text where
  it holds the marker ``<!-- rules: NAME -->`` (``<!-- rules: all -->``: the whole file).
- The dataset columns of every ruleset, from the column specs (`columns_markdown`), where a page
  holds ``<!-- columns -->``.
- The performance tables, from the committed ``docs/bench.json`` that ``simcards bench --json``
  writes (`bench_markdown`), where a page holds ``<!-- bench -->``.

`expand_markers` replaces the markers of one page; the mkdocs hook (``scripts/mkdocs_hooks.py``)
calls it for every page, so nothing generated is committed by hand.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from simcards.games import game_class, rulesets

RULES_MARKER = re.compile(r"<!-- rules: (.+?) -->")
COLUMNS_MARKER = "<!-- columns -->"
BENCH_MARKER = "<!-- bench -->"


# ------------------------------------------------------------------ the rules


def rules_text() -> str:
    """The rules as simcards plays them (``simcards/rules.md``, shipped in the package)."""
    from importlib.resources import files

    return files("simcards").joinpath("rules.md").read_text(encoding="utf-8")


def rules_section(name: str) -> str | None:
    """The section of the rules for ruleset ``name`` (from its "## name" heading to the next
    heading of that level), or None when the rules have none."""
    out, inside = [], False
    for line in rules_text().splitlines():
        if line.startswith("## "):
            if inside:
                break
            inside = line[3:].strip() == name
        if inside:
            out.append(line)
    return "\n".join(out).rstrip() + "\n" if out else None


def rules_for_page(name: str) -> str:
    """What a page shows for ``<!-- rules: name -->``: the section without its heading line (the
    page gives its own), or for ``all`` the whole rules. ValueError for a section the rules do
    not have, so a page naming one fails the site's build."""
    if name == "all":
        return rules_text()
    section = rules_section(name)
    if section is None:
        raise ValueError(f"the rules (simcards/rules.md) have no section '## {name}'")
    return section.split("\n", 1)[1].lstrip("\n")


# ------------------------------------------------------------------ the dataset columns


def _column_table(columns) -> list[str]:
    lines = ["| column | type | meaning |", "|---|---|---|"]
    return lines + [f"| `{c.name}` | {c.dtype} | {c.doc} |" for c in columns]


def columns_markdown(level: int = 2) -> str:
    """The dataset columns of every ruleset as Markdown tables under headings of ``level``
    (a ruleset whose columns equal an earlier one's says so instead of repeating them)."""
    hashes = "#" * level
    blocks = []
    seen: dict[tuple, str] = {}
    for name in rulesets():
        game = game_class(name)
        key = (game.deal_columns, game.match_columns)
        if key in seen:
            blocks.append(f"{hashes} `{name}`\n\nThe same columns as `{seen[key]}`.\n")
            continue
        seen[key] = name
        lines = [f"{hashes} `{name}`", "", f"Deal rows (`deals/part-*.parquet`) of `{name}`:", "",
                 *_column_table(game.deal_columns)]
        if game.match_columns:
            lines += ["", f"Match rows (`matches/part-*.parquet`) of `{name}`:", "",
                      *_column_table(game.match_columns)]
        blocks.append("\n".join(lines) + "\n")
    return "\n".join(blocks)


# ------------------------------------------------------------------ the performance figures


def _number(value: Any, digits: int = 0) -> str:
    if value is None:
        return "-"
    if isinstance(value, float) and digits:
        return f"{value:,.{digits}f}"
    return f"{round(value):,}"


def _ms(value: float) -> str:
    return f"{value:.3g}"


def _bench_section(title: str, intro: str, columns: list[str], rows: list[list[str]],
                   labels: int = 1) -> list[str]:
    """One performance table: a heading, what it measures, and its rows (the first ``labels``
    columns left aligned, the figures right aligned); nothing when there are no rows."""
    if not rows:
        return []
    align = "|" + "---|" * labels + "---:|" * (len(columns) - labels)
    return [f"### {title}", "", intro, "", "| " + " | ".join(columns) + " |", align,
            *("| " + " | ".join(row) + " |" for row in rows), ""]


def _solver_row(ruleset: str, row: dict) -> list[str]:
    median = _ms(row["solve_median_ms"])
    if "solve_target_ms" in row:
        median += f"; target {row['solve_target_ms']:g}"
    pimc = "-"
    if "pimc_deals_per_s" in row:
        pimc = f"{row['pimc_deals_per_s']:.2f} ({row['pimc_samples']} samples)"
        if "pimc_target_deals_per_s" in row:
            pimc += f"; target {row['pimc_target_deals_per_s']:g}"
    return [f"`{ruleset}`", f"{row['deals']:,}", median,
            f"{_ms(row['solve_median_lo_ms'])}-{_ms(row['solve_median_hi_ms'])}", _ms(row["solve_p95_ms"]),
            _number(row["positions_median"]), _number(row["positions_per_s"]), pimc]


def bench_markdown(bench: dict) -> str:
    """Markdown tables of one ``simcards bench --json`` result: its stamp (commit, date,
    machine), kernel deals per second against the targets, the cold start (compile seconds per
    ruleset), OpenSpiel side by side, user bots,
    the double-dummy solver and search bot, and the end-to-end runs."""
    out = [f"Measured at commit `{bench.get('commit', '?')}` on {bench.get('date', '?')} "
           f"(simcards {bench.get('simcards_version', '?')}, {bench.get('cpu_count', '?')} cores"
           + (", `--quick`: short timings" if bench.get("quick") else "") + ").", ""]
    frame, targets = bench.get("with_frame", {}), bench.get("targets", {})
    kernel_rows = []
    for ruleset, rates in bench.get("kernel", {}).items():
        for bots, rate in rates.items():
            target = targets.get(ruleset, {}).get(bots)
            mark = "" if target is None else f"{target:,} " + ("(met)" if rate >= target else "(missed)")
            kernel_rows.append([f"`{ruleset}`", bots, _number(rate),
                                _number(frame.get(ruleset, {}).get(bots)), mark])
    out += _bench_section(
        "Deals per second per core",
        "One process, heuristic or random bots at every seat. *Kernel* times the compiled batch "
        "loop alone, *with frame* adds the polars frame every worker makes per chunk; a target is "
        "checked against the kernel figure.",
        ["ruleset", "bots", "kernel", "with frame", "target"], kernel_rows, labels=2)
    out += _bench_section(
        "Cold start",
        "A first heuristic `simulate` of 1,000 units in a fresh process with an empty cache "
        "folder: the seconds it spends compiling the kernels it uses, and in all (import, "
        "compile, play: what a first run waits for). Later runs load the kernels from the cache.",
        ["ruleset", "compile (s)", "first run (s)", "process CPU (s)"],
        [[f"`{ruleset}`", _number(row.get("compile_seconds"), 1), _number(row["wall_seconds"], 1),
          _number(row["cpu_seconds"], 1)]
         for ruleset, row in bench.get("compile", {}).items()])
    out += _bench_section(
        "Against OpenSpiel",
        "Uniform random play through OpenSpiel's Python API beside simcards' random bots (with "
        "frame), in the same process.",
        ["ruleset", "OpenSpiel deals/s", "simcards deals/s", "ratio"],
        [[f"`{ruleset}`", _number(row["openspiel_random_deals_per_s"], 1),
          _number(row["simcards_random_deals_per_s"]), f"{row['ratio']:,.0f}x"]
         for ruleset, row in bench.get("openspiel", {}).items()])
    out += _bench_section(
        "User bots",
        "Process time, best of three; units are deals, or matches where a run counts them. "
        "*Python overhead*: what simcards adds per decision around an empty Python bot. *Numba "
        "copy*: a Numba user bot that copies the heuristic, beside the built-in heuristic. "
        "*Build*: compiling the Numba bot's loop (once per worker and table) and the Python bots' "
        "loops (once per machine, then cached).",
        ["ruleset", "Python overhead (µs/decision)", "Numba copy units/s", "heuristic units/s",
         "ratio", "build Numba (s)", "build Python (s)"],
        [[f"`{ruleset}`", f"{row['python_overhead_us_per_decision']:.1f}",
          _number(row["numba_copy_units_per_s"]), _number(row["heuristic_units_per_s"]),
          f"{row['numba_vs_heuristic']:.0%}", f"{row.get('build_seconds', {}).get('numba', 0):.1f}",
          f"{row.get('build_seconds', {}).get('python', 0):.1f}"]
         for ruleset, row in bench.get("user_bots", {}).items()])
    out += _bench_section(
        "Perfect play",
        "A full deal solved from the start of play with all hands open, one core: the median time "
        "with its 95% interval, the 95th percentile, the median positions searched (which no "
        "machine changes) and positions per second; and the search bot (pimc, one seat) in deals "
        "per second, each with its target where the game names one.",
        ["ruleset", "deals", "median (ms)", "95% interval (ms)", "p95 (ms)", "median positions",
         "positions/s", "pimc deals/s"],
        [_solver_row(ruleset, row) for ruleset, row in bench.get("solver", {}).items()])
    out += _bench_section(
        "End to end",
        "`simcards run` of the demo config in a fresh process: deals per second over the whole "
        "run, the kernel's rate per worker, the efficiency (end to end over kernel times workers), "
        "Parquet bytes per deal and the peak memory of the process tree.",
        ["deals", "workers", "deals/s", "kernel deals/s per worker", "efficiency", "bytes/deal",
         "peak memory (MiB)"],
        [[f"{row['deals']:,}", str(row["workers"]), _number(row["end_to_end_deals_per_s"]),
          _number(row["kernel_deals_per_s_per_worker"]), f"{row['efficiency']:.0%}",
          f"{row['parquet_bytes_per_deal']:.1f}", f"{row['peak_memory_mib']:,.0f}"]
         for row in bench.get("end_to_end", [])])
    return "\n".join(out)


# ------------------------------------------------------------------ pages


def expand_markers(markdown: str, bench_json: Path | None = None) -> str:
    """``markdown`` with every marker replaced by what it stands for (see the module's doc)."""
    markdown = RULES_MARKER.sub(lambda m: rules_for_page(m.group(1).strip()), markdown)
    if COLUMNS_MARKER in markdown:
        markdown = markdown.replace(COLUMNS_MARKER, columns_markdown())
    if BENCH_MARKER in markdown:
        if bench_json is None or not Path(bench_json).exists():
            raise ValueError(f"a page shows the benchmark figures but {bench_json} does not exist; "
                             f"write it with: simcards bench --json > docs/bench.json")
        markdown = markdown.replace(BENCH_MARKER,
                                    bench_markdown(json.loads(Path(bench_json).read_text())))
    return markdown
