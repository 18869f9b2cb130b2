"""Turn report sections into files: PNG charts, report.md, a self-contained report.html, and
every table as Parquet and CSV."""

from __future__ import annotations

import base64
import html
import re
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from simcards.present import fmt


@dataclass
class Figure:
    filename: str  # PNG written by the section's chart function
    caption: str


@dataclass
class Table:
    name: str  # file stem under tables/
    frame: pl.DataFrame
    caption: str
    columns: list[str] | None = None  # columns shown in the report (all are written to files)
    percent: tuple[str, ...] = ()  # further columns holding fractions shown as percentages
    show: bool = True  # False: written to tables/ only (per-seat detail), named in the report


@dataclass
class Section:
    title: str
    text: str
    figures: list[Figure] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    headlines: list[str] = field(default_factory=list)  # bullet points shown before the text
    notes: list[str] = field(default_factory=list)  # lines after the text (seat-symmetry checks)


COUNT_NAMES = ("n", "hits", "count", "games", "deals", "decisions", "wins", "units", "matches")
PERCENT_NAMES = ("exact", "share", "p_win", "win_rate", "draw_rate")


def _format(value, percent: bool = False, is_count: bool = False) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if percent and isinstance(value, (int, float)):
        return fmt.pct(float(value))
    if isinstance(value, float) and is_count and value == value and value.is_integer():
        return fmt.count(value)
    if isinstance(value, (int, float)):
        return fmt.number(value)
    return str(value)


def display(frame: pl.DataFrame, percent: tuple[str, ...] = ()) -> tuple[list[str], list[list[str]]]:
    """The headers and formatted cells of a table as a report shows it: every rate with its
    95% interval in one cell ("21.4% (21.3–21.5%)"), every mean with its standard error
    ("12.3 ± 0.1"), counts with thousands separators, other fractions as percentages. The
    table files keep the full precision."""
    cols = frame.columns
    plan: list[tuple[str, list[str], str]] = []  # (header, source columns, kind)
    used: set[str] = set()
    for c in cols:
        if c in used:
            continue
        if c.endswith("rate") and f"{c[:-4]}lo" in cols and f"{c[:-4]}hi" in cols:
            pre = c[:-4]
            plan.append((f"{pre.replace('_', ' ')}rate (95% interval)".strip(), [c, f"{pre}lo", f"{pre}hi"], "rate"))
            used.update([c, f"{pre}lo", f"{pre}hi"])
        elif c.endswith("mean") and f"{c[:-4]}se" in cols:
            pre = c[:-4]
            plan.append((f"{pre.replace('_', ' ')}mean ± se".strip(), [c, f"{pre}se"], "mean"))
            used.update([c, f"{pre}se"])
        elif c.endswith("lo") and f"{c[:-2]}hi" in cols and f"{c[:-2]}rate" not in cols:
            pre = c[:-2]
            plan.append((f"{pre.replace('_', ' ')}95% interval".strip(), [c, f"{pre}hi"], "interval"))
            used.update([c, f"{pre}hi"])
        else:
            base = c.rsplit("_", 1)[-1] if "_" in c else c
            is_pct = (c in percent or c == "rate" or c.endswith("_rate") or base in PERCENT_NAMES
                      or c.startswith("share"))
            is_count = base in COUNT_NAMES or c.startswith(("n_", "count"))
            plan.append((c, [c], "pct" if is_pct else "count" if is_count else "plain"))
            used.add(c)
    rows = []
    for row in frame.select(cols).iter_rows(named=True):
        cells = []
        for _, srcs, kind in plan:
            vals = [row[s] for s in srcs]
            if kind == "pct" and srcs[0] == "exact" and isinstance(vals[0], float):
                cells.append(fmt.pct(vals[0], None if vals[0] < fmt.RARE else 2))
            elif kind == "rate":
                cells.append(fmt.rate_ci(*vals))
            elif kind == "mean":
                cells.append(fmt.mean_se(*vals))
            elif kind == "interval" and vals[0] is None and vals[1] is None:
                cells.append("")  # no interval (too few values)
            elif kind == "interval":
                pre = srcs[0][:-2]
                both_pct = (pre in percent or "rate" in pre or "share" in pre) and all(
                    v is None or 0 <= v <= 1 for v in vals)
                cells.append(f"{fmt.pct(vals[0])} to {fmt.pct(vals[1])}" if both_pct
                             else f"{fmt.number(vals[0])} to {fmt.number(vals[1])}")
            else:
                cells.append(_format(vals[0], percent=kind == "pct", is_count=kind == "count"))
        rows.append(cells)
    return [h for h, _, _ in plan], rows


def _shown(table: Table) -> pl.DataFrame:
    return table.frame.select(table.columns) if table.columns else table.frame


def markdown_table(frame: pl.DataFrame, max_rows: int = 40, percent: tuple[str, ...] = ()) -> str:
    headers, rows = display(frame.head(max_rows), percent)
    head = "| " + " | ".join(headers) + " |"
    rule = "|" + "|".join("---" for _ in headers) + "|"
    lines = ["| " + " | ".join(r) + " |" for r in rows]
    more = [f"\n({frame.height - max_rows:,} more rows in the CSV)"] if frame.height > max_rows else []
    return "\n".join([head, rule, *lines, *more])


def _cls(cell: str) -> str:
    """Text cells align left, figures right."""
    head = cell[:1]
    # a sentence that happens to start with a digit ("1: leads a club queen ...") is text
    figure = (head.isdigit() or head in "+-−<>") and len(cell.split()) <= 4
    return "" if (figure or cell.startswith(("1 in", "n/a"))) else " class='t'"


def html_table(frame: pl.DataFrame, max_rows: int = 40, percent: tuple[str, ...] = ()) -> str:
    headers, rows = display(frame.head(max_rows), percent)
    head = "".join(f"<th>{html.escape(c)}</th>" for c in headers)
    body = "".join("<tr>" + "".join(f"<td{_cls(v)}>{html.escape(v)}</td>" for v in row) + "</tr>"
                   for row in rows)
    more = (f"<p class='more'>{frame.height - max_rows:,} more rows in the CSV.</p>"
            if frame.height > max_rows else "")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>{more}"


_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 1000px; margin: 2em auto; color: #222; line-height: 1.45; }
h1 { border-bottom: 2px solid #444; } h2 { margin-top: 2em; border-bottom: 1px solid #ccc; }
figure { margin: 1.5em 0; } figure img { max-width: 100%; } figcaption { color: #555; font-size: 0.92em; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0 1.5em; }
th, td { border: 1px solid #ccc; padding: 2px 8px; text-align: right; } th { background: #f0f0f0; }
.meta { color: #555; font-size: 0.9em; } .more, .caption { color: #555; font-size: 0.9em; }
td.t, th:first-child, td:first-child { text-align: left; }
ul.headlines { background: #f6f8fa; border: 1px solid #dde; padding: 0.8em 1em 0.8em 2.2em; font-size: 1.05em; }
p.note { color: #333; font-size: 0.92em; border-left: 3px solid #aac; padding-left: 0.6em; }
code { background: #f0f0f0; padding: 0 0.25em; border-radius: 3px; font-size: 0.92em; }
"""


def _prose(text: str) -> str:
    """A paragraph's text as HTML: escaped, and `backquoted` spans (commands, as in the
    Markdown report) set as code."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(text))


def write_report(out_dir: Path, title: str, meta: list[str], sections: list[Section]) -> dict[str, Path]:
    """Write report.md, report.html (charts embedded) and tables/*.parquet|csv into out_dir
    (the charts are already there). Returns the paths written."""
    tables_dir = out_dir / "tables"
    tables_dir.mkdir(parents=True, exist_ok=True)
    md = [f"# {title}", "", *[f"- {line}" for line in meta], ""]
    body = [f"<h1>{html.escape(title)}</h1>",
            "<ul class='meta'>" + "".join(f"<li>{html.escape(m)}</li>" for m in meta) + "</ul>"]
    for section in sections:
        md += [f"## {section.title}", ""]
        body.append(f"<h2>{html.escape(section.title)}</h2>")
        if section.headlines:
            md += [*[f"- {h}" for h in section.headlines], ""]
            body.append("<ul class='headlines'>" + "".join(f"<li>{html.escape(h)}</li>"
                                                            for h in section.headlines) + "</ul>")
        if section.text:
            md += [section.text, ""]
            body.append(f"<p>{_prose(section.text)}</p>")
        for note in section.notes:
            md += [f"> {note}", ""]
            body.append(f"<p class='note'>{_prose(note)}</p>")
        for fig in section.figures:
            md += [f"![{fig.caption}]({fig.filename})", "", f"*{fig.caption}*", ""]
            data = base64.b64encode((out_dir / fig.filename).read_bytes()).decode()
            body.append(f"<figure><img alt='{html.escape(fig.caption)}' src='data:image/png;base64,{data}'>"
                        f"<figcaption>{html.escape(fig.caption)}</figcaption></figure>")
        for table in section.tables:
            table.frame.write_parquet(tables_dir / f"{table.name}.parquet")
            table.frame.write_csv(tables_dir / f"{table.name}.csv")
            if not table.show:
                md += [f"*{table.caption}: in `tables/{table.name}.csv`.*", ""]
                body.append(f"<p class='more'>{html.escape(table.caption)}: in "
                            f"tables/{html.escape(table.name)}.csv.</p>")
                continue
            shown = _shown(table)
            md += [f"**{table.caption}** (`tables/{table.name}.csv`)", "",
                   markdown_table(shown, percent=table.percent), ""]
            body += [f"<p class='caption'><b>{html.escape(table.caption)}</b> "
                     f"(tables/{html.escape(table.name)}.csv)</p>", html_table(shown, percent=table.percent)]
    paths = {"markdown": out_dir / "report.md", "html": out_dir / "report.html"}
    paths["markdown"].write_text("\n".join(md))
    paths["html"].write_text(f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}"
                             f"</title><style>{_STYLE}</style></head><body>{''.join(body)}</body></html>")
    return paths
