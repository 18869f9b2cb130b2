"""Report sections of Hartenjagen and Hearts runs: shooting the moon, points per deal and seat,
who takes the Q of spades (and the J of clubs), game length, and wins per seat and per bot."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl

from simcards.games.hearts import stats as stats
from simcards.present import charts, seats
from simcards.present.render import Figure, Section, Table

Z95 = 1.959963984540054


def seat_bot_labels(bots: Any) -> list[str]:
    """A readable label of the bot at each seat, from a run's ``bots`` spec."""
    seats = bots if isinstance(bots, (list, tuple)) else [bots] * 4

    def label(spec: Any) -> str:
        if isinstance(spec, str):
            return spec
        if isinstance(spec, dict):
            params = spec.get("params") or {}
            inner = ", ".join(f"{k}={v}" for k, v in sorted(params.items()))
            return f"{spec.get('kind', 'bot')}({inner})" if inner else str(spec.get("kind", "bot"))
        return str(spec)

    return [label(s) for s in seats]


def _mean_as_rate(frame: pl.DataFrame) -> pl.DataFrame:
    """Mean with a 95% normal interval in the rate/lo/hi columns the bar chart reads."""
    return frame.with_columns(
        pl.col("mean").alias("rate"),
        (pl.col("mean") - Z95 * pl.col("se")).alias("lo"),
        (pl.col("mean") + Z95 * pl.col("se")).alias("hi"),
    )


def all_tables(deals: pl.LazyFrame, matches: pl.LazyFrame | None, seat_bots: list[str]) -> dict:
    tables = {
        "moon_rate": stats.moon_rate(deals),
        "moon_options": stats.moon_option_counts(deals),
        "points_per_deal": stats.points_per_deal(deals),
        "qs_taker": stats.qs_taker(deals),
        "jc_taker": stats.jc_taker(deals),
    }
    if matches is not None:
        tables.update({
            "game_length": stats.game_length(matches),
            "game_length_distribution": stats.game_length_distribution(matches),
            "win_rate_per_seat": stats.win_rate_per_seat(matches),
            "placing_rates": stats.placing_rates(matches),
            "win_rate_per_bot": stats.win_rate_per_bot(matches, seat_bots),
        })
    return tables


def _seat_names(seat_bots: list[str] | None) -> dict[int, str]:
    """Seat labels: 'seat 2 (random)' when the seats hold different bots."""
    if not seat_bots or len(set(seat_bots)) == 1:
        return {s: f"seat {s}" for s in range(4)}
    return {s: f"seat {s} ({b})" for s, b in enumerate(seat_bots)}


def sections(tables: dict[str, pl.DataFrame], out_dir: Path, dutch: bool,
             seat_bots: list[str] | None = None) -> list[Section]:
    """Charts into ``out_dir`` and the sections. With the same bot at every seat the seats are
    symmetric: their figures are pooled, with a symmetry check, and the per-seat tables go to
    the table files only; with different bots the per-seat figures are the bots' figures."""
    total = 15 if dutch else 26
    symmetric = not seat_bots or len(set(seat_bots)) == 1
    names = _seat_names(seat_bots)
    measures = {"attempted": "a bot set out to shoot", "made": "someone shot the moon",
                "made_when_attempted": "made, of attempts", "unplanned": "made without setting out"}
    moon = tables["moon_rate"].with_columns(pl.col("measure").replace(measures).alias("what"))
    charts.rate_bars(moon, "what", out_dir / "moon_rate.png",
                     title="Shooting the moon", xlabel="", ylabel="share of deals (of attempts)")
    points = tables["points_per_deal"]
    notes_points = []
    if symmetric:
        pooled = (points.group_by("phase").agg(
            (pl.col("mean") * pl.col("n")).sum() / pl.col("n").sum(), pl.col("n").sum(),
            (pl.col("se") ** 2).sum().sqrt() / pl.len()).sort("phase")
            .with_columns(pl.when(pl.col("phase") == 1).then(pl.lit("return"))
                          .otherwise(pl.lit("outbound" if dutch else "every deal")).alias("label")))
        notes_points = [seats.mean_check(points.filter(pl.col("phase") == ph),
                                         f"points per deal{' (' + lab + ')' if dutch else ''}")
                        for ph, lab in ((0, "outbound"), (1, "return"))
                        if points.filter(pl.col("phase") == ph).height]
        charts.rate_bars(_mean_as_rate(pooled), "label", out_dir / "points_per_deal.png",
                         title=f"Points a player takes per deal (of {total}), seats pooled",
                         xlabel="phase" if dutch else "", ylabel="mean points per player and deal",
                         percent=False)
    else:
        labelled = points.with_columns(
            (pl.col("seat").replace_strict(names, return_dtype=pl.String)
             + pl.when(pl.col("phase") == 1).then(pl.lit(", return")).otherwise(
                 pl.lit(", outbound") if dutch else pl.lit(""))).alias("label"))
        charts.rate_bars(_mean_as_rate(labelled), "label", out_dir / "points_per_deal.png",
                         title=f"Points taken per deal (of {total})", xlabel="seat",
                         ylabel="mean points per deal", percent=False)
    qs = tables["qs_taker"].with_columns(pl.col("seat").replace_strict(names, return_dtype=pl.String)
                                         .alias("who"))
    charts.rate_bars(qs, "who", out_dir / "qs_taker.png",
                     title="Who takes the Q of spades", xlabel="seat", ylabel="share of deals")
    qs_notes = [seats.rate_check(tables["qs_taker"], "who takes the Q of spades")] if symmetric else []
    out = [
        Section(
            "Shooting the moon",
            f"A player who takes all {total} points shoots the moon: with 'others' every opponent "
            f"scores {total}, with 'self' the shooter subtracts {total} (option 'choose': the "
            "shooter takes 'others' when it ranks first after the deal, else 'self'). Rates are "
            "over the deals where a moon can be scored"
            + (" (the outbound deals; on the way back points are subtracted anyway)." if dutch
               else " (every deal).")
            + " 'attempted' counts deals where a bot set out to shoot; 'unplanned' moons were made "
              "by a seat that had not.",
            figures=[Figure("moon_rate.png", "Moon rates with 95% Wilson intervals.")],
            tables=[Table("moon_rate", tables["moon_rate"], "Moon attempts and moons made"),
                    Table("moon_options", tables["moon_options"], "How the moons were scored")],
        ),
        Section(
            "Points per deal",
            "Points each seat took in the deal's tricks (before any moon scoring)"
            + (", outbound (phase 0) and on the return (phase 1), where the players chase them."
               if dutch else "."),
            figures=[Figure("points_per_deal.png", "Mean points per deal with 95% intervals "
                            "(mean ± 1.96 standard errors).")],
            notes=notes_points,
            tables=[Table("points_per_deal", tables["points_per_deal"],
                          "Points per deal by phase and seat (mean, sd, standard error)",
                          show=not symmetric)],
        ),
        Section(
            "Who takes the Q of spades" + (" and the J of clubs" if dutch else ""),
            "Share of deals in which each seat took the Q of spades"
            + (" (5 points) and the J of clubs (2 points)." if dutch else " (13 points)."),
            figures=[Figure("qs_taker.png", "Q of spades taker by seat, 95% Wilson intervals.")],
            notes=qs_notes + ([seats.rate_check(tables["jc_taker"], "who takes the J of clubs")]
                              if dutch and symmetric and tables["jc_taker"].height else []),
            tables=[Table("qs_taker", tables["qs_taker"], "Q of spades taker by seat")]
            + ([Table("jc_taker", tables["jc_taker"], "J of clubs taker by seat")] if dutch else []),
        ),
    ]
    if "game_length" in tables:
        dist = tables["game_length_distribution"]
        length = dist.rename({"n": "count"}).with_columns(pl.lit("games").alias("series"),
                                                          pl.col("deals").alias("bin"))
        charts.histogram(length, out_dir / "game_length.png",
                         title="Game length", xlabel="deals per game", series="series",
                         bin_width=1, ylabel="share of games")
        charts.rate_bars(tables["win_rate_per_bot"], "bot", out_dir / "win_rate_per_bot.png",
                         title="Games won per bot", xlabel="bot (all its seats)",
                         ylabel="games placed first (shared firsts count)")
        out.append(Section(
            "Games",
            ("A game runs outbound until a score reaches the target, then back: the first to "
             "reach 0 or below wins." if dutch else
             "A game ends after the deal in which a score reaches the target; the lowest wins.")
            + " A shared first place counts as a win for each; placings are 1 (best) to 4.",
            figures=[Figure("game_length.png", "Distribution of deals per game."),
                     Figure("win_rate_per_bot.png", "Win rate per bot (all its seats), 95% Wilson "
                            "intervals.")],
            notes=[seats.rate_check(tables["win_rate_per_seat"], "the win rate")] if symmetric else [],
            tables=[
                Table("game_length", tables["game_length"], "Deals per game"
                      + (" and the mean deal at which the return started" if dutch else "")),
                Table("win_rate_per_seat", tables["win_rate_per_seat"], "Win rate per seat",
                      show=not symmetric),
                Table("win_rate_per_bot", tables["win_rate_per_bot"], "Win rate per bot"),
                Table("placing_rates", tables["placing_rates"], "Placing shares per seat",
                      show=not symmetric),
                Table("game_length_distribution", dist, "Games by length"),
            ],
        ))
    return out


def build(game, run, out_dir: Path) -> list[Section]:
    deals = run.scan()
    try:
        matches = run.scan("matches")
    except Exception:
        matches = None
    labels = seat_bot_labels(run.manifest["config"]["bots"])
    tables = all_tables(deals, matches, labels)
    return [*sections(tables, out_dir, dutch=game.dutch, seat_bots=labels)]
