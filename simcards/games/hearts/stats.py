"""Statistics of Hartenjagen and Hearts runs: one lazy polars query per statistic.

Each function takes the run's ``deals`` and/or ``matches`` as a `pl.LazyFrame` (columns of
simcards/games/hearts/columns.py) and returns a collected `pl.DataFrame` whose every column is
named with ``.alias()``. Rates carry ``n``, ``hits``, ``rate`` and the 95% Wilson interval
``lo``/``hi``; means carry ``n``, ``mean``, ``sd`` and the standard error ``se``.
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from simcards.stats import mean_exprs, rate_exprs
from simcards.errors import UserError

SEATS = range(4)


def _seat_long(frame: pl.LazyFrame, prefix: str, keep: Sequence[str] = ()) -> pl.LazyFrame:
    """One row per (row, seat): ``seat`` and the seat's ``prefix_<seat>`` value as ``value``."""
    return pl.concat([
        frame.select(*[pl.col(k) for k in keep], pl.lit(s, dtype=pl.Int8).alias("seat"),
                     pl.col(f"{prefix}_{s}").alias("value"))
        for s in SEATS
    ])


def moon_rate(deals: pl.LazyFrame) -> pl.DataFrame:
    """Shoot-the-moon rates over the deals where a moon can be scored (outbound deals; every
    Hearts deal): ``measure`` = ``attempted`` (a bot set out to shoot), ``made`` (anyone took
    every point), ``made_when_attempted`` (the attempting seat made it, among attempts) and
    ``unplanned`` (made by a seat that had not set out to, among all deals)."""
    outbound = deals.filter(pl.col("phase") == 0)
    attempts = outbound.filter(pl.col("moon_attempt") >= 0)
    parts = [
        outbound.select(pl.lit("attempted").alias("measure"), *rate_exprs(pl.col("moon_attempt") >= 0)),
        outbound.select(pl.lit("made").alias("measure"), *rate_exprs(pl.col("moon") >= 0)),
        attempts.select(pl.lit("made_when_attempted").alias("measure"),
                        *rate_exprs(pl.col("moon") == pl.col("moon_attempt"))),
        outbound.select(pl.lit("unplanned").alias("measure"),
                        *rate_exprs((pl.col("moon") >= 0) & (pl.col("moon") != pl.col("moon_attempt")))),
    ]
    return pl.concat(parts).collect()


def moon_option_counts(deals: pl.LazyFrame) -> pl.DataFrame:
    """How made moons were scored: ``option`` (others / self) with ``n`` moons, ``hits`` of
    that option, its ``rate`` among moons and the Wilson interval."""
    moons = deals.filter(pl.col("moon") >= 0)
    return pl.concat([
        moons.select(pl.lit(name).alias("option"), *rate_exprs(pl.col("moon_option") == code))
        for code, name in ((1, "others"), (2, "self"))
    ]).collect()


def points_per_deal(deals: pl.LazyFrame) -> pl.DataFrame:
    """Mean points taken per deal by ``seat`` and ``phase`` (0 outbound, 1 Hartenjagen return),
    with ``n``, ``mean``, ``sd``, ``se``."""
    long = _seat_long(deals, "points", keep=("phase",))
    return (long.group_by("phase", "seat")
            .agg(*mean_exprs(pl.col("value")))
            .sort("phase", "seat")
            .collect())


def qs_taker(deals: pl.LazyFrame) -> pl.DataFrame:
    """How often each ``seat`` takes the Q of spades: ``n`` deals, ``hits``, ``rate``,
    ``lo``/``hi``."""
    return _taker_rates(deals, "qs_taker")


def jc_taker(deals: pl.LazyFrame) -> pl.DataFrame:
    """How often each ``seat`` takes the J of clubs (Hartenjagen; empty for Hearts)."""
    return _taker_rates(deals.filter(pl.col("jc_taker") >= 0), "jc_taker")


def _taker_rates(deals: pl.LazyFrame, column: str) -> pl.DataFrame:
    return pl.concat([
        deals.select(pl.lit(s, dtype=pl.Int8).alias("seat"), *rate_exprs(pl.col(column) == s))
        for s in SEATS
    ]).collect()


def game_length(matches: pl.LazyFrame) -> pl.DataFrame:
    """Deals per game: ``n`` games, ``mean``, ``sd``, ``se``, ``min``, ``median``, ``max``, and
    for Hartenjagen the mean deal number at which the return started (``return_start_mean``;
    null for Hearts)."""
    deals = pl.col("deals").cast(pl.Float64)
    start = pl.col("return_start").cast(pl.Float64)
    return matches.select(
        *mean_exprs(pl.col("deals")),
        deals.min().alias("min"),
        deals.median().alias("median"),
        deals.max().alias("max"),
        start.filter(start >= 0).mean().alias("return_start_mean"),
    ).collect()


def game_length_distribution(matches: pl.LazyFrame) -> pl.DataFrame:
    """Games by length: ``deals``, ``n`` games with that length, ``share`` of all games."""
    return (matches.group_by(pl.col("deals").alias("deals"))
            .agg(pl.len().alias("n"))
            .with_columns((pl.col("n") / pl.col("n").sum()).alias("share"))
            .sort("deals")
            .collect())


def win_rate_per_seat(matches: pl.LazyFrame) -> pl.DataFrame:
    """How often each ``seat`` is placed first (a shared first place counts for each):
    ``n`` games, ``hits``, ``rate``, ``lo``/``hi``."""
    return pl.concat([
        matches.select(pl.lit(s, dtype=pl.Int8).alias("seat"), *rate_exprs(pl.col(f"place_{s}") == 1))
        for s in SEATS
    ]).collect()


def placing_rates(matches: pl.LazyFrame) -> pl.DataFrame:
    """Share of games each ``seat`` ends in each ``place`` 1..4, with Wilson intervals."""
    long = _seat_long(matches, "place")
    return pl.concat([
        long.group_by("seat").agg(pl.lit(p, dtype=pl.Int8).alias("place"),
                                  *rate_exprs(pl.col("value") == p))
        for p in range(1, 5)
    ]).sort("seat", "place").collect()


def win_rate_per_bot(matches: pl.LazyFrame, seat_bots: Sequence[str]) -> pl.DataFrame:
    """Win rate of each bot label, given the label of the bot at each seat (``seat_bots``,
    e.g. ``["heuristic", "random", "heuristic", "random"]``): ``bot``, ``n`` seat-games,
    ``hits`` (placed first, shared firsts included), ``rate``, ``lo``/``hi``. A ``bot_<seat>``
    column in ``matches`` (as in tournament data), when present, is used instead."""
    names = matches.collect_schema().names()
    if all(f"bot_{s}" in names for s in SEATS):
        labels = [pl.col(f"bot_{s}").cast(pl.String) for s in SEATS]
    else:
        if len(seat_bots) != 4:
            raise UserError(f"seat_bots = {list(seat_bots)!r} is not allowed; give one label per seat (4)")
        labels = [pl.lit(str(seat_bots[s])) for s in SEATS]
    long = pl.concat([
        matches.select(labels[s].alias("bot"), (pl.col(f"place_{s}") == 1).alias("won"))
        for s in SEATS
    ])
    return long.group_by("bot").agg(*rate_exprs(pl.col("won"))).sort("bot").collect()


def headlines(deals: pl.LazyFrame, matches: pl.LazyFrame | None, dutch: bool) -> list:
    """The figures a Hartenjagen/Hearts report opens with and `simcards compare` compares."""
    from simcards.present.summary import Headline

    outbound = pl.col("phase") == 0
    attempt = pl.col("moon_attempt") >= 0
    where = " of the deals where a moon scores" if dutch else " of deals"
    out = [
        Headline("moon", f"Someone shoots the moon in {{rate}}{where} {{ci}}",
                 pl.when(outbound).then(pl.col("moon") >= 0), bots=True),
        Headline("moon_attempt", f"A bot sets out to shoot the moon in {{rate}}{where} {{ci}}",
                 pl.when(outbound).then(attempt), bots=True),
        Headline("moon_success", "An attempt at the moon succeeds in {rate} of attempts {ci}",
                 pl.when(outbound & attempt).then(pl.col("moon") == pl.col("moon_attempt")),
                 bots=True),
        Headline("qs_leader", "The player who leads the first trick takes the "
                 "Q of spades in {rate} of deals {ci}", pl.col("qs_taker") == pl.col("leader"),
                 bots=True),
    ]
    if dutch:
        out.append(Headline("qs_and_jc", "One player takes both the Q of spades and the J of "
                            "clubs in {rate} of deals {ci}", pl.col("qs_taker") == pl.col("jc_taker"),
                            bots=True))
    if matches is not None:
        out += [
            Headline("deals_per_game", "A game lasts {rate} deals on average {ci}",
                     pl.col("deals").cast(pl.Float64), frame="matches", kind="mean",
                     key_columns=("match_index",), bots=True),
            Headline("shared_first", "First place is shared in {rate} of games {ci}",
                     pl.col("winner") < 0, frame="matches", key_columns=("match_index",), bots=True),
        ]
    return out
