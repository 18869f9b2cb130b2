"""Headline figures: the few rates and means a report opens with and `simcards compare`
compares. A game names them (`Game.headline_rates`) as per-unit expressions; this module
evaluates them on a run's frames and words them."""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from simcards.present import fmt
from simcards.stats import Z95, largest_row, wilson

BOTS_NOTE = " (depends on the bots)"


@dataclass(frozen=True)
class Headline:
    """One headline figure.

    - ``key``: a short name (table rows, compare output).
    - ``text``: the sentence, with ``{rate}`` and ``{ci}`` where the figure and its interval go
      ("The playing team goes nat in {rate} of deals {ci}").
    - ``expr``: per unit of ``frame`` ("deals" or "matches"), a boolean indicator (``kind`` =
      "rate") or a number (``kind`` = "mean"); null where the unit does not count.
    - ``key_columns``: the columns that identify a unit of ``frame`` across runs of one seed
      (paired comparisons join on them).
    - ``bots``: the figure depends on how strong the bots are (said next to it).
    """

    key: str
    text: str
    expr: pl.Expr
    frame: str = "deals"
    kind: str = "rate"
    key_columns: tuple[str, ...] = ("deal_index",)
    bots: bool = False


def values(headline: Headline, frames: dict[str, pl.LazyFrame | None]) -> pl.DataFrame | None:
    """The per-unit values (key columns and ``x``) of a headline, nulls dropped; None when the
    run has no such frame."""
    lf = frames.get(headline.frame)
    if lf is None:
        return None
    return (lf.select(*headline.key_columns, headline.expr.cast(pl.Float64).alias("x"))
            .drop_nulls("x").collect())


def estimate(headline: Headline, x: pl.Series) -> dict:
    """n, value and its 95% interval (Wilson for a rate, mean ± 1.96 se for a mean)."""
    n = x.len()
    if headline.kind == "rate":
        hits = float(x.sum()) if n else 0.0
        lo, hi = wilson(hits, n)
        return {"n": n, "value": hits / n if n else float("nan"), "lo": lo, "hi": hi,
                "se": (hits / n * (1 - hits / n) / n) ** 0.5 if n else float("nan")}
    mean = float(x.mean()) if n else float("nan")
    se = float(x.std()) / n ** 0.5 if n > 1 else float("nan")
    return {"n": n, "value": mean, "lo": mean - Z95 * se, "hi": mean + Z95 * se, "se": se}


def figure(headline: Headline, est: dict) -> tuple[str, str]:
    """(value, bracketed interval) as the sentence shows them."""
    if headline.kind == "rate":
        return fmt.rate_parts(est["value"], est["lo"], est["hi"])
    text = fmt.mean_se(est["value"], est["se"])
    value, _, se = text.partition(" ± ")
    return value, f"(± {se} standard error)" if se else ""


def sentence(headline: Headline, est: dict) -> str:
    value, ci = figure(headline, est)
    template = headline.text
    if value.startswith(("1 in", "never")):  # "in 1 in 1,200 deals", not "... of deals"
        template = template.replace("{rate} of ", "{rate} ")
    text = template.format(rate=value, ci=ci).replace("  ", " ").strip()
    return text + (BOTS_NOTE if headline.bots else "")


def summary_lines(headlines: list[Headline], frames: dict[str, pl.LazyFrame | None]) -> list[str]:
    """One plain sentence per headline the run's frames can answer."""
    lines = []
    for h in headlines:
        v = values(h, frames)
        if v is None or v.height == 0:
            continue
        lines.append(sentence(h, estimate(h, v["x"])))
    return lines


def replay_pointer(run, deals: pl.LazyFrame, lost: tuple[str, str], unit: str) -> str:
    """A sentence for a perfect-play section: where to look card by card (``simcards replay
    --perfect-play``), and the deal whose card play gave away the most (the sum of the two
    ``lost`` columns, in ``unit``); empty when no deal gave anything away."""
    worst = largest_row(deals, pl.col(lost[0]).cast(pl.Int64) + pl.col(lost[1]).cast(pl.Int64))
    if worst is None or worst[1] == 0:
        return ""
    return (f" To see where a deal's points went, `simcards replay {run.path} --deal I "
            f"--perfect-play` marks every card that gave something away and names the cards that "
            f"would have kept the value; deal {worst[0]} gave away the most here, {worst[1]} {unit}.")
