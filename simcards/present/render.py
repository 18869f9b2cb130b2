"""Turn report sections into files: PNG charts, report.md, a self-contained report.html, and
every table as Parquet and CSV."""

from __future__ import annotations

import base64
import html
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl


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


@dataclass
class Section:
    title: str
    text: str
    figures: list[Figure] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)


def _format(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        if value != value:
            return "NaN"
        if abs(value) >= 1000 or value == 0:
            return f"{value:,.1f}" if value % 1 else f"{value:,.0f}"
        return f"{value:.4g}" if abs(value) < 1 else f"{value:.2f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def _shown(table: Table) -> pl.DataFrame:
    return table.frame.select(table.columns) if table.columns else table.frame


def markdown_table(frame: pl.DataFrame, max_rows: int = 40) -> str:
    head = "| " + " | ".join(frame.columns) + " |"
    rule = "|" + "|".join("---" for _ in frame.columns) + "|"
    rows = ["| " + " | ".join(_format(v) for v in row) + " |" for row in frame.head(max_rows).iter_rows()]
    more = [f"\n({frame.height - max_rows} more rows in the CSV)"] if frame.height > max_rows else []
    return "\n".join([head, rule, *rows, *more])


def html_table(frame: pl.DataFrame, max_rows: int = 40) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in frame.columns)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(_format(v))}</td>" for v in row) + "</tr>"
                   for row in frame.head(max_rows).iter_rows())
    more = (f"<p class='more'>{frame.height - max_rows} more rows in the CSV.</p>"
            if frame.height > max_rows else "")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>{more}"


_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 1000px; margin: 2em auto; color: #222; line-height: 1.45; }
h1 { border-bottom: 2px solid #444; } h2 { margin-top: 2em; border-bottom: 1px solid #ccc; }
figure { margin: 1.5em 0; } figure img { max-width: 100%; } figcaption { color: #555; font-size: 0.92em; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0 1.5em; }
th, td { border: 1px solid #ccc; padding: 2px 8px; text-align: right; } th { background: #f0f0f0; }
.meta { color: #555; font-size: 0.9em; } .more, .caption { color: #555; font-size: 0.9em; }
"""


def write_report(out_dir: Path, title: str, meta: list[str], sections: list[Section]) -> dict[str, Path]:
    """Write report.md, report.html (charts embedded) and tables/*.parquet|csv into out_dir
    (the charts are already there). Returns the paths written."""
    tables_dir = out_dir / "tables"
    tables_dir.mkdir(parents=True, exist_ok=True)
    md = [f"# {title}", "", *[f"- {line}" for line in meta], ""]
    body = [f"<h1>{html.escape(title)}</h1>",
            "<ul class='meta'>" + "".join(f"<li>{html.escape(m)}</li>" for m in meta) + "</ul>"]
    for section in sections:
        md += [f"## {section.title}", "", section.text, ""]
        body += [f"<h2>{html.escape(section.title)}</h2>", f"<p>{html.escape(section.text)}</p>"]
        for fig in section.figures:
            md += [f"![{fig.caption}]({fig.filename})", "", f"*{fig.caption}*", ""]
            data = base64.b64encode((out_dir / fig.filename).read_bytes()).decode()
            body.append(f"<figure><img alt='{html.escape(fig.caption)}' src='data:image/png;base64,{data}'>"
                        f"<figcaption>{html.escape(fig.caption)}</figcaption></figure>")
        for table in section.tables:
            table.frame.write_parquet(tables_dir / f"{table.name}.parquet")
            table.frame.write_csv(tables_dir / f"{table.name}.csv")
            shown = _shown(table)
            md += [f"**{table.caption}** (`tables/{table.name}.csv`)", "", markdown_table(shown), ""]
            body += [f"<p class='caption'><b>{html.escape(table.caption)}</b> "
                     f"(tables/{html.escape(table.name)}.csv)</p>", html_table(shown)]
    paths = {"markdown": out_dir / "report.md", "html": out_dir / "report.html"}
    paths["markdown"].write_text("\n".join(md))
    paths["html"].write_text(f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}"
                             f"</title><style>{_STYLE}</style></head><body>{''.join(body)}</body></html>")
    return paths
