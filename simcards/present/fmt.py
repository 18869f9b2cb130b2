"""Number formatting for reports: percentages with sensible digits, rates with their 95%
interval, counts with thousands separators, means with standard errors, and rare events as
"1 in 47,000". Nothing here ever prints e-notation.

    >>> rate_ci(0.2143, 0.2131, 0.2155)
    '21.4% (21.3–21.5%)'
    >>> rate(2.1e-05)
    '1 in 47,000'
    >>> count(1234567)
    '1,234,567'
    >>> mean_se(12.3456, 0.0123)
    '12.35 ± 0.01'
"""

from __future__ import annotations

import math

RARE = 0.001  # rates below this are shown as "1 in N"
DASH = "–"


def _finite(x) -> bool:
    return x is not None and isinstance(x, (int, float)) and math.isfinite(x)


def count(n) -> str:
    """An integer count with thousands separators."""
    if n is None:
        return ""
    return f"{int(round(n)):,}"


def _round_sig(x: float, sig: int = 2) -> float:
    if x == 0:
        return 0.0
    digits = sig - 1 - math.floor(math.log10(abs(x)))
    return round(x, digits)


def one_in(p: float) -> str:
    """A small probability as "1 in N" with N to two significant digits."""
    if p <= 0:
        return "never"
    n = _round_sig(1.0 / p, 2)
    return f"1 in {count(n)}"


def _pct_digits(value_pct: float, half_width_pct: float | None = None) -> int:
    """Decimals of a percentage: enough to show the interval's width, else by magnitude."""
    if half_width_pct is not None and half_width_pct > 0:
        return int(min(2, max(1, -math.floor(math.log10(half_width_pct)))))
    a = abs(value_pct)
    return 1 if a >= 10 or a == 0 else 2


def pct(p, decimals: int | None = None) -> str:
    """A fraction as a percentage ("21.4%"); rare events ("1 in 47,000") below 0.1%."""
    if not _finite(p):
        return "" if p is None else "n/a"
    if 0 < abs(p) < RARE and decimals is None:
        return one_in(abs(p)) if p > 0 else f"-{one_in(-p)}"
    d = _pct_digits(p * 100) if decimals is None else decimals
    text = f"{p * 100:.{d}f}"
    if float(text) == 0 and p != 0:
        text = f"{p * 100:.2f}"
    return f"{text}%"


def rate_parts(p, lo, hi) -> tuple[str, str]:
    """(the rate, its 95% interval in brackets) as `rate_ci` shows them together."""
    if not _finite(p):
        return "n/a", ""
    if not (_finite(lo) and _finite(hi)):
        return pct(p), ""
    if p < RARE and hi < 2 * RARE:
        if p == 0:
            return "never", f"(at most {one_in(hi)})"
        low = "never" if lo <= 0 else one_in(lo)
        return one_in(p), f"({one_in(hi)} to {low})"
    d = _pct_digits(p * 100, (hi - lo) * 50)
    return f"{p * 100:.{d}f}%", f"({lo * 100:.{d}f}{DASH}{hi * 100:.{d}f}%)"


def rate_ci(p, lo, hi) -> str:
    """A rate with its 95% interval: "21.4% (21.3–21.5%)", or "1 in 47,000 (1 in 52,000 to
    1 in 43,000)" for a rare event."""
    return " ".join(x for x in rate_parts(p, lo, hi) if x)


def number(x, sig: int = 4) -> str:
    """A plain number with about ``sig`` significant digits, thousands separators, no
    e-notation (tiny values show as 0 or "< 0.0001")."""
    if x is None:
        return ""
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, int):
        return count(x)
    if not math.isfinite(x):
        return "n/a"
    if x == 0:
        return "0"
    a = abs(x)
    if a < 0.0001:
        return "< 0.0001" if x > 0 else "> -0.0001"
    if float(x).is_integer() and a < 1e15:
        return count(x)
    decimals = max(0, sig - 1 - math.floor(math.log10(a)))
    return f"{x:,.{min(decimals, 4)}f}"


def _decimals_for_se(se: float) -> int:
    if not _finite(se) or se <= 0:
        return 2
    return int(min(4, max(0, -math.floor(math.log10(se)))))


def mean_se(mean, se, signed: bool = False) -> str:
    """A mean with its standard error at the error's precision: "12.35 ± 0.01"."""
    if not _finite(mean):
        return "n/a"
    d = _decimals_for_se(se)
    sign = "+" if signed else ""
    if not _finite(se):
        return f"{mean:{sign},.{d}f}"
    return f"{mean:{sign},.{d}f} ± {se:,.{d}f}"


def interval(mean, lo, hi, signed: bool = True) -> str:
    """A difference with its interval at sensible digits: "+1.2 (+0.4 to +2.0)"."""
    if not _finite(mean):
        return "n/a"
    d = _decimals_for_se((hi - lo) / 3.92 if _finite(lo) and _finite(hi) else float("nan"))
    s = "+" if signed else ""
    return f"{mean:{s},.{d}f} ({lo:{s},.{d}f} to {hi:{s},.{d}f})"


def pct_diff(d, lo, hi) -> str:
    """A difference of two rates in percentage points with its interval."""
    if not _finite(d):
        return "n/a"
    dd = _pct_digits(abs(d) * 100, (hi - lo) * 50)
    return f"{d * 100:+.{dd}f} pp ({lo * 100:+.{dd}f} to {hi * 100:+.{dd}f})"


def p_value(p) -> str:
    """A p-value: "0.36", "0.003", "< 0.0001"."""
    if not _finite(p):
        return "n/a"
    if p < 0.0001:
        return "< 0.0001"
    return f"{p:.2g}" if p < 0.01 else f"{p:.2f}"
