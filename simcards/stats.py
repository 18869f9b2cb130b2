"""Interval arithmetic every statistic uses: Wilson intervals for rates, standard errors for
means. Both as polars expressions, so queries stay lazy and name their columns. And the gain of
the tuned seats in one seating of a duplicate match (`seating_gain`), which `simcards tune` and
the report's bot-sanity section both score."""

from __future__ import annotations

import math

import numpy as np
import polars as pl

Z95 = 1.959963984540054


def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """95% Wilson score interval of a rate (0, 1 for n == 0)."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # the interval holds p exactly; at p = 0 or 1 rounding would leave it a hair outside
    return min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half))


def median_interval(values, level: float = 0.95) -> tuple[float, float, float]:
    """(median, lo, hi): the median of ``values`` and its distribution-free interval of at least
    ``level`` coverage, from the order statistics: the count of values below the true median is
    binomial (n, 1/2), so [x(j), x(n-1-j)] (0-based) holds it unless that count is below j or
    above n-1-j. Timings are skewed and few, so a normal interval would not fit them."""
    ordered = sorted(float(v) for v in values)
    n = len(ordered)
    if n == 0:
        raise ValueError("median_interval needs at least one value")
    middle = n // 2
    median = ordered[middle] if n % 2 else (ordered[middle - 1] + ordered[middle]) / 2
    tail = (1 - level) / 2
    j, below = 0, 0.0  # the widest interval when even j = 0 misses the level (n < 8 at 95%)
    for k in range(middle):
        below += math.comb(n, k) / 2 ** n  # P(count <= k)
        if below > tail:
            break
        j = k
    return median, ordered[j], ordered[n - 1 - j]


def _wilson_exprs(p: pl.Expr, total: pl.Expr, z: float) -> tuple[pl.Expr, pl.Expr]:
    """(lo, hi) of the Wilson interval of rate ``p`` over ``total`` trials, as expressions."""
    denom = 1 + z * z / total
    centre = (p + z * z / (2 * total)) / denom
    half = z * (p * (1 - p) / total + z * z / (4 * total * total)).sqrt() / denom
    lo = pl.min_horizontal((centre - half).clip(0.0, 1.0), p)
    hi = pl.max_horizontal((centre + half).clip(0.0, 1.0), p)
    return lo, hi


def rate_exprs(flag: pl.Expr, prefix: str = "", z: float = Z95) -> list[pl.Expr]:
    """Aggregations giving ``n``, ``hits``, ``rate`` and its Wilson ``lo``/``hi`` for a boolean
    expression (use inside ``group_by(...).agg`` or ``select``)."""
    n = pl.len().cast(pl.Float64)
    hits = flag.cast(pl.Float64).sum()
    p = hits / n
    lo, hi = _wilson_exprs(p, n, z)
    return [
        pl.len().alias(f"{prefix}n"),
        hits.cast(pl.Int64).alias(f"{prefix}hits"),
        p.alias(f"{prefix}rate"),
        lo.alias(f"{prefix}lo"),
        hi.alias(f"{prefix}hi"),
    ]


def mean_exprs(value: pl.Expr, prefix: str = "") -> list[pl.Expr]:
    """``n``, ``mean``, ``sd`` and the mean's standard error ``se`` of a numeric expression."""
    return [
        value.count().alias(f"{prefix}n"),
        value.cast(pl.Float64).mean().alias(f"{prefix}mean"),
        value.cast(pl.Float64).std().alias(f"{prefix}sd"),
        (value.cast(pl.Float64).std() / value.count().cast(pl.Float64).sqrt()).alias(f"{prefix}se"),
    ]


def wilson_columns(hits: str = "hits", n: str = "n", z: float = Z95) -> list[pl.Expr]:
    """``rate``, ``lo``, ``hi`` from existing count columns (after a group_by and a join)."""
    total = pl.col(n).cast(pl.Float64)
    p = pl.col(hits).cast(pl.Float64) / total
    lo, hi = _wilson_exprs(p, total, z)
    return [p.alias("rate"), lo.alias("lo"), hi.alias("hi")]


def binned_shares(values: pl.LazyFrame, width: int, limit: int) -> pl.DataFrame:
    """Share of the rows of ``values`` (one column, ``value``) in bins of ``width`` from
    ``-limit`` to ``limit``, with Wilson intervals: ``bin`` is a bin's start, ``label`` its name
    in a chart. Every bin from the lowest to the highest one reached is listed, the empty ones
    with 0 hits, so a chart's bars stand evenly. The end bins also hold everything beyond them,
    and their labels say so ("< -180" holds every value below -180, "≥ 180" every value from
    180 up)."""
    first, last = -limit, limit - width
    binned = values.select((pl.col("value").clip(first, last) // width * width)
                           .cast(pl.Int64).alias("bin"))
    counts = binned.group_by("bin").agg(pl.len().alias("hits")).collect()
    n = int(counts["hits"].sum())
    if n:
        every = pl.DataFrame({"bin": range(counts["bin"].min(), counts["bin"].max() + width, width)},
                             schema={"bin": pl.Int64})
        counts = (every.join(counts, on="bin", how="left")
                  .with_columns(pl.col("hits").fill_null(0).cast(pl.UInt32)))
    label = (pl.when(pl.col("bin") == first).then(pl.lit(f"< {first + width}"))
             .when(pl.col("bin") == last).then(pl.lit(f"≥ {last}"))
             .otherwise(pl.col("bin").cast(pl.String)))
    return (counts.with_columns(pl.lit(n).alias("n"))
            .with_columns(*wilson_columns(), label.alias("label")).sort("bin"))


def largest_row(lf: pl.LazyFrame, value: pl.Expr) -> tuple[int, int] | None:
    """(deal_index, value) of the row where ``value`` is largest (the lowest deal index among
    equals), or None when no row has a value."""
    top = (lf.select(pl.col("deal_index"), value.alias("value")).drop_nulls("value")
           .sort(["value", "deal_index"], descending=[True, False]).head(1).collect())
    return None if top.height == 0 else (int(top["deal_index"][0]), int(top["value"][0]))


def seating_gain(values: np.ndarray, tuned_seats: tuple[int, ...]) -> np.ndarray:
    """Per-unit gain of the tuned seats: their mean value minus the other seats' mean."""
    tuned = np.zeros(values.shape[1], dtype=bool)
    tuned[list(tuned_seats)] = True
    return values[:, tuned].mean(axis=1) - values[:, ~tuned].mean(axis=1)
