"""Chart helpers shared by every report section: rates with interval bars or bands, and
histograms. Each writes one PNG and returns nothing; titles and axis labels say what is shown."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only, no screen
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402

DPI = 110


def _save(fig, path: Path) -> None:
    fig.tight_layout()
    fig.savefig(path, dpi=DPI)
    plt.close(fig)


def rate_bars(frame: pl.DataFrame, label: str, path: Path, title: str, xlabel: str, ylabel: str,
              exact: str | None = None, log: bool = False, percent: bool = True) -> None:
    """Bars of ``rate`` per ``label`` with 95% Wilson interval whiskers (``lo``/``hi``), and
    optional exact values as black markers."""
    labels = [str(v) for v in frame[label].to_list()]
    scale = 100.0 if percent else 1.0
    rate = frame["rate"].to_numpy() * scale
    err = np.clip(np.vstack([rate - frame["lo"].to_numpy() * scale,
                               frame["hi"].to_numpy() * scale - rate]), 0, None)  # rounding
    fig, ax = plt.subplots(figsize=(max(6, 0.55 * len(labels) + 2), 4))
    x = np.arange(len(labels))
    ax.bar(x, rate, color="#4C78A8", label="simulated (95% interval)")
    ax.errorbar(x, rate, yerr=err, fmt="none", ecolor="#222", capsize=3, lw=1)
    if exact is not None and exact in frame.columns:
        values = frame[exact].to_numpy().astype(float) * scale
        ax.scatter(x, values, marker="_", s=400, color="black", zorder=3, label="exact")
    ax.set_xticks(x, labels, rotation=45 if len(labels) > 8 else 0)
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if log:
        ax.set_yscale("log")
    ax.legend(frameon=False)
    ax.grid(axis="y", alpha=0.3)
    _save(fig, path)


def rate_curve(frame: pl.DataFrame, x: str, path: Path, title: str, xlabel: str, ylabel: str,
               min_n: int = 30, series: str | None = None) -> None:
    """``rate`` against a numeric ``x`` with its 95% interval as a band (points with fewer than
    ``min_n`` deals are left out); one line per value of ``series`` if given."""
    fig, ax = plt.subplots(figsize=(7, 4))
    groups = frame.partition_by(series, as_dict=True) if series else {("all",): frame}
    for key, part in groups.items():
        part = part.filter(pl.col("n") >= min_n).sort(x)
        if part.height == 0:
            continue
        xs = part[x].to_numpy()
        ax.plot(xs, part["rate"].to_numpy() * 100, marker="o", ms=3, label=str(key[0]))
        ax.fill_between(xs, part["lo"].to_numpy() * 100, part["hi"].to_numpy() * 100, alpha=0.25)
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)
    if series:
        ax.legend(frameon=False)
    _save(fig, path)


def histogram(frame: pl.DataFrame, path: Path, title: str, xlabel: str, series: str = "team",
              bin_col: str = "bin", count_col: str = "count") -> None:
    """Share of deals per bin, one outline per value of ``series``."""
    fig, ax = plt.subplots(figsize=(7, 4))
    for key, part in frame.partition_by(series, as_dict=True).items():
        part = part.sort(bin_col)
        share = part[count_col].to_numpy() / part[count_col].sum() * 100
        ax.step(part[bin_col].to_numpy(), share, where="post", label=str(key[0]), lw=1.6)
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("share of deals (%)")
    ax.grid(alpha=0.3)
    ax.legend(frameon=False)
    _save(fig, path)
