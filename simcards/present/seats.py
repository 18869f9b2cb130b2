"""Seat pooling: symmetric seats are shown pooled, with one line saying whether the seats'
figures differ more than chance allows (a chi-square test of homogeneity and the largest
|z|). The per-seat tables stay in the table files."""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from simcards.present import fmt


def chi2_sf(x: float, k: int) -> float:
    """P(chi-square with ``k`` degrees of freedom > ``x``) (regularised upper gamma)."""
    if x <= 0 or k <= 0:
        return 1.0
    a, z = k / 2.0, x / 2.0
    if z < a + 1:  # series for the lower gamma
        term = total = 1.0 / a
        n = a
        for _ in range(1000):
            n += 1
            term *= z / n
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(-z + a * math.log(z) - math.lgamma(a)))
    b, c, d = z + 1 - a, 1e300, 1.0 / (z + 1 - a)  # continued fraction for the upper gamma
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1.0 / d
        h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return min(1.0, math.exp(-z + a * math.log(z) - math.lgamma(a)) * h)


def _verdict(stat: float, df: int, zmax: float, who: str, what: str) -> str:
    p = chi2_sf(stat, df)
    word = ("no sign that the seats differ" if p >= 0.01 else
            "a weak sign that the seats differ (several checks are made; look again with more "
            "data)" if p >= 0.001 else "the seats differ by more than chance allows")
    return (f"Seat symmetry of {what}: chi-square {stat:,.1f} on {df} degrees of freedom, "
            f"p = {fmt.p_value(p)}; largest |z| {zmax:.1f} ({who}): {word}.")


def rate_check(frame: pl.DataFrame, what: str, group: str = "seat", hits: str = "hits",
               n: str = "n") -> str:
    """One line: do the groups' rates (``hits`` of ``n``) differ? Chi-square on the 2 x G
    table, and the largest |z| of a group against the pooled rate."""
    h = frame[hits].to_numpy().astype(float)
    t = frame[n].to_numpy().astype(float)
    keep = t > 0
    h, t, names = h[keep], t[keep], [str(v) for v, k in zip(frame[group].to_list(), keep) if k]
    if len(t) < 2:
        return f"Seat symmetry of {what}: fewer than two seats with data."
    p = h.sum() / t.sum()
    if p in (0.0, 1.0):
        return f"Seat symmetry of {what}: every seat {fmt.pct(p)}."
    z = (h / t - p) / np.sqrt(p * (1 - p) / t)
    stat = float(np.sum(z ** 2))
    i = int(np.argmax(np.abs(z)))
    return _verdict(stat, len(t) - 1, float(abs(z[i])), f"{group} {names[i]}", what)


def mean_check(frame: pl.DataFrame, what: str, group: str = "seat", mean: str = "mean",
               se: str = "se") -> str:
    """One line: do the groups' means differ? Chi-square of the means about their weighted
    mean, and the largest |z|."""
    m = frame[mean].to_numpy().astype(float)
    s = frame[se].to_numpy().astype(float)
    keep = np.isfinite(m) & np.isfinite(s) & (s > 0)
    m, s = m[keep], s[keep]
    names = [str(v) for v, k in zip(frame[group].to_list(), keep) if k]
    if len(m) < 2:
        return f"Seat symmetry of {what}: fewer than two seats with data."
    w = 1 / s ** 2
    centre = float(np.sum(w * m) / np.sum(w))
    z = (m - centre) / s
    i = int(np.argmax(np.abs(z)))
    return _verdict(float(np.sum(z ** 2)), len(m) - 1, float(abs(z[i])), f"{group} {names[i]}", what)


def distribution_check(frame: pl.DataFrame, what: str, value: str, group: str = "seat",
                       hits: str = "hits") -> str:
    """One line: do the groups' distributions over ``value`` differ? Chi-square of the G x V
    contingency table (values expected fewer than 5 times in a group are merged)."""
    wide = frame.pivot(on=group, index=value, values=hits, aggregate_function="sum").fill_null(0)
    cols = [c for c in wide.columns if c != value]
    table = wide.select(cols).to_numpy().astype(float)
    if table.shape[1] < 2:
        return f"Seat symmetry of {what}: fewer than two seats with data."
    total = table.sum()
    expected = table.sum(axis=1, keepdims=True) * table.sum(axis=0, keepdims=True) / total
    small = expected.min(axis=1) < 5
    if small.any():
        table = np.vstack([table[~small], table[small].sum(axis=0, keepdims=True)])
        expected = table.sum(axis=1, keepdims=True) * table.sum(axis=0, keepdims=True) / total
    rows = expected.sum(axis=1) > 0
    table, expected = table[rows], expected[rows]
    if table.shape[0] < 2:
        return f"Seat symmetry of {what}: too few values to test."
    z = (table - expected) / np.sqrt(expected)
    stat = float(np.sum(z ** 2))
    df = (table.shape[0] - 1) * (table.shape[1] - 1)
    j = int(np.unravel_index(np.argmax(np.abs(z)), z.shape)[1])
    return _verdict(stat, df, float(np.abs(z).max()), f"{group} {cols[j]}", what)
