"""Chart helpers shared by every report, with one style: category labels that never overlap
(wrapped, rotated, thinned, or horizontal bars when there are many or long ones), legends
outside the data, axis titles that say what they measure, percent axes where values are rates.
Each chart function writes one PNG and returns nothing."""

from __future__ import annotations

import textwrap
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only, no screen
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402
from matplotlib.ticker import FuncFormatter, MaxNLocator  # noqa: E402

DPI = 110
BLUE = "#4C78A8"
COLORS = ["#4C78A8", "#F58518", "#54A24B", "#E45756", "#72B7B2", "#B279A2", "#FF9DA6", "#9D755D"]
WRAP = 14  # characters per line of a category label


def _pct_label(v, _pos=None) -> str:
    return f"{v:.0f}%" if abs(v) >= 10 or float(v).is_integer() else f"{v:.1f}%"


def percent_axis(ax, axis: str = "y") -> None:
    """Tick labels of a percent axis ("20%"): values plotted are already in percent."""
    target = ax.yaxis if axis == "y" else ax.xaxis
    target.set_major_formatter(FuncFormatter(_pct_label))


def wrap(label: str, width: int = WRAP) -> str:
    return "\n".join(textwrap.wrap(str(label), width)) or str(label)


def horizontal(labels: list[str]) -> bool:
    """Categories drawn as horizontal bars: many of them, or long ones."""
    return len(labels) > 14 or max((len(str(x)) for x in labels), default=0) > 2 * WRAP


def category_ticks(ax, positions, labels: list[str], axis: str = "x") -> None:
    """Category tick labels that never overlap: wrapped; on x rotated when there are many,
    and thinned to at most 30 shown."""
    labels = [str(x) for x in labels]
    step = max(1, int(np.ceil(len(labels) / 30)))
    shown = [lab if i % step == 0 else "" for i, lab in enumerate(labels)]
    if axis == "y":
        ax.set_yticks(positions, [wrap(x, 2 * WRAP) for x in shown])
        return
    longest = max((len(x) for x in labels), default=0)
    # about ten characters fit under one of six to eight bars: rotate before they could touch
    many = len(labels) > 8 or longest > WRAP or longest * len(labels) > 55
    if many:
        ax.set_xticks(positions, shown, rotation=40, ha="right", rotation_mode="anchor")
    else:
        ax.set_xticks(positions, [wrap(x) for x in shown])


def finish(fig, ax, path: Path, title: str, xlabel: str, ylabel: str,
           legend: bool | None = None) -> None:
    """Titles, a light grid, the legend outside the data (right of the axes) and the file."""
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)
    ax.set_axisbelow(True)
    handles, _ = ax.get_legend_handles_labels()
    if handles and legend is not False:
        ax.legend(frameon=False, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=9)
    fig.savefig(path, dpi=DPI, bbox_inches="tight")
    plt.close(fig)


def rate_bars(frame: pl.DataFrame, label: str, path: Path, title: str, xlabel: str, ylabel: str,
              exact: str | None = None, log: bool = False, percent: bool = True,
              exact_label: str = "exact") -> None:
    """Bars of ``rate`` per ``label`` with 95% interval whiskers (``lo``/``hi``), and optional
    exact values as black marks (``exact_label`` names them: "exact", or a published
    reference). ``xlabel`` names the categories, ``ylabel`` the measure; many
    or long categories become horizontal bars."""
    labels = [str(v) for v in frame[label].to_list()]
    scale = 100.0 if percent else 1.0
    rate = frame["rate"].to_numpy().astype(float) * scale
    err = np.clip(np.vstack([rate - frame["lo"].to_numpy() * scale,
                             frame["hi"].to_numpy() * scale - rate]), 0, None)  # rounding
    x = np.arange(len(labels))
    flip = horizontal(labels)
    if flip:
        fig, ax = plt.subplots(figsize=(8, max(3, 0.35 * len(labels) + 1.2)))
        ax.barh(x, rate, color=BLUE, label="simulated, 95% interval")
        ax.errorbar(rate, x, xerr=err, fmt="none", ecolor="#222", capsize=3, lw=1)
        if exact is not None and exact in frame.columns:
            ax.scatter(frame[exact].to_numpy().astype(float) * scale, x, marker="|", s=300,
                       color="black", zorder=3, label=exact_label)
        category_ticks(ax, x, labels, axis="y")
        ax.invert_yaxis()
        if log:
            ax.set_xscale("log")
            if percent:
                ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _p: f"{v:g}%"))
        elif percent:
            percent_axis(ax, "x")
        finish(fig, ax, path, title, ylabel, xlabel)
        return
    fig, ax = plt.subplots(figsize=(max(6, 0.5 * len(labels) + 2), 4))
    ax.bar(x, rate, color=BLUE, label="simulated, 95% interval")
    ax.errorbar(x, rate, yerr=err, fmt="none", ecolor="#222", capsize=3, lw=1)
    if exact is not None and exact in frame.columns:
        values = frame[exact].to_numpy().astype(float) * scale
        ax.scatter(x, values, marker="_", s=400, color="black", zorder=3, label=exact_label)
    category_ticks(ax, x, labels)
    if log:
        ax.set_yscale("log")
        if percent:
            ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _p: f"{v:g}%"))
    elif percent:
        percent_axis(ax)
    finish(fig, ax, path, title, xlabel, ylabel)


def binned_bars(shares: pl.DataFrame, path: Path, title: str, xlabel: str, ylabel: str,
                unit: str = "value") -> str:
    """`rate_bars` of `simcards.stats.binned_shares` by bin label. Returns the caption's
    sentence on the end bins the chart draws ("" when it draws none): they hold every ``unit``
    beyond the middle bins."""
    rate_bars(shares, "label", path, title=title, xlabel=xlabel, ylabel=ylabel)
    labels = shares["label"].to_list()
    ends = [label for label in labels if label[0] in "<≥"]
    if not ends:
        return ""
    named = " and ".join(f'"{label}"' for label in ends)
    return (f" The end bin{'s' if len(ends) > 1 else ''} {named} hold{'' if len(ends) > 1 else 's'}"
            f" every {unit} beyond the bins between.")


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
        ax.plot(xs, part["rate"].to_numpy() * 100, marker="o", ms=3, label=str(key[0]) if series else None)
        ax.fill_between(xs, part["lo"].to_numpy() * 100, part["hi"].to_numpy() * 100, alpha=0.25)
    percent_axis(ax)
    finish(fig, ax, path, title, xlabel, ylabel, legend=bool(series))


def histogram(frame: pl.DataFrame, path: Path, title: str, xlabel: str, series: str = "team",
              bin_col: str = "bin", count_col: str = "count", bin_width: float | None = None,
              ylabel: str = "share of deals") -> None:
    """Share per bin (``bin_col`` is each bin's start), one outline per value of ``series``.
    Bins missing from the data are drawn as zero, so a share never spreads over empty bins."""
    fig, ax = plt.subplots(figsize=(7.5, 4))
    bins = np.sort(frame[bin_col].unique().to_numpy().astype(float))
    width = bin_width or (float(np.min(np.diff(bins))) if bins.size > 1 else 1.0)
    start, stop = bins.min(), bins.max()
    shift = width / 2 if width == 1 else 0.0  # unit bins (counts of deals) centred on the integer
    edges = np.arange(start, stop + 1.5 * width, width) - shift
    for k, (key, part) in enumerate(frame.partition_by(series, as_dict=True).items()):
        counts = np.zeros(edges.size - 1)
        idx = np.round((part[bin_col].to_numpy().astype(float) - start) / width).astype(int)
        np.add.at(counts, idx, part[count_col].to_numpy().astype(float))
        share = counts / counts.sum() * 100
        ax.stairs(share, edges, label=str(key[0]), lw=1.6, color=COLORS[k % len(COLORS)],
                  fill=False, baseline=0)
    ax.yaxis.set_major_locator(MaxNLocator(6))
    if width == 1:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    percent_axis(ax)
    finish(fig, ax, path, title, xlabel, ylabel, legend=frame[series].n_unique() > 1)
