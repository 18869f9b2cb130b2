"""Doppelkopf statistics: one lazy polars query per statistic, every column named.

Each function takes the deals of a run as a LazyFrame (``RunData.scan()``) and returns a small
DataFrame. Rates carry ``n``, ``hits``, ``rate`` and a 95% Wilson interval ``lo``/``hi``; means
carry ``n``, ``mean``, ``sd`` and the standard error ``se``. Nothing here imports a kernel; the
"what a call is worth" table uses the public `scoring.settle` on the distinct results only.
"""

from __future__ import annotations

import polars as pl

from simcards.games.doppelkopf.rules import GAME_TYPES, QC_MASK
from simcards.games.doppelkopf.scoring import ANNOUNCEMENTS, LEVELS, settle
from simcards.stats import mean_exprs, rate_exprs, wilson_columns

SEATS = range(4)
SOLO_TYPES = [k for k, name in enumerate(GAME_TYPES)
              if name.endswith("_solo") or name in ("fleshless", "marriage_alone", "silent_marriage")]
DECLARED_SOLOS = [k for k, name in enumerate(GAME_TYPES) if name.endswith("_solo") or name == "fleshless"]
BOTH_QUEENS_EXACT = 11 / 47  # the other club queen is among the holder's 11 other cards
PARTY_NAMES = ("re", "kontra")
CALL_NAMES = {"re": "Re", "kontra": "Kontra", "no90": "no 90", "no60": "no 60", "no30": "no 30",
              "schwarz": "schwarz"}


def call_label(call: str) -> str:
    party, _, level = call.partition("_")
    return CALL_NAMES[party] + (f" {CALL_NAMES[level]}" if level else "")


def level(party: str) -> pl.Expr:
    """The party's announcement level: -1 none, 0 Re/Kontra, 1..4 no 90 .. schwarz."""
    calls = [c for c in ANNOUNCEMENTS if c.split("_")[0] == party]
    return (pl.sum_horizontal([(pl.col(f"ann_{c}") >= 0).cast(pl.Int8) for c in calls]) - 1)


def announced() -> pl.Expr:
    return (pl.col("ann_re") >= 0) | (pl.col("ann_kontra") >= 0)


def is_normal() -> pl.Expr:
    return pl.col("game_type") == GAME_TYPES.index("normal")


def game_type_names() -> pl.Expr:
    return pl.col("game_type").replace_strict(dict(enumerate(GAME_TYPES)), return_dtype=pl.Utf8)


def both_queens_dealt() -> pl.Expr:
    return pl.any_horizontal([
        ((pl.col(f"hand_{s}").cast(pl.Int64) & QC_MASK) == QC_MASK) for s in SEATS])


def _seat_value(prefix: str, seat_col: str) -> pl.Expr:
    """Column ``prefix_<seat>`` of the seat named in ``seat_col``."""
    return pl.coalesce([pl.when(pl.col(seat_col) == s).then(pl.col(f"{prefix}_{s}")) for s in SEATS])


def game_types(lf: pl.LazyFrame) -> pl.DataFrame:
    """Share of deals of each game type, and Re's win rate in it."""
    total = lf.select(pl.len().alias("deals"))
    counts = (lf.group_by("game_type").agg(pl.len().alias("hits"),
                                          *rate_exprs(pl.col("winner") == 1, "re_win_"))
              .join(total, how="cross").rename({"deals": "n"}).with_columns(wilson_columns()))
    return (counts.with_columns(game_type_names().alias("game")).sort("game_type")
            .select("game", "n", "hits", "rate", "lo", "hi", "re_win_n", "re_win_rate",
                    "re_win_lo", "re_win_hi").collect())


def re_win_normal(lf: pl.LazyFrame) -> pl.DataFrame:
    """Re's win rate in normal games: all, without any announcement, and by who announced."""
    normal = lf.filter(is_normal())
    groups = {"all normal games": pl.lit(True), "no announcement": ~announced(),
              "Re only": (pl.col("ann_re") >= 0) & (pl.col("ann_kontra") < 0),
              "Kontra only": (pl.col("ann_re") < 0) & (pl.col("ann_kontra") >= 0),
              "both": (pl.col("ann_re") >= 0) & (pl.col("ann_kontra") >= 0)}
    return pl.concat([normal.filter(cond).select(pl.lit(name).alias("games"),
                                                 *rate_exprs(pl.col("winner") == 1))
                      for name, cond in groups.items()]).collect()


def announcement_rates(lf: pl.LazyFrame) -> pl.DataFrame:
    """Per call: how often it is made (per deal), the cards its announcer held, and how often its
    party then wins (an Absage's target met)."""
    rows = []
    for call in ANNOUNCEMENTS:
        party = call.split("_")[0]
        won = pl.col("winner") == (1 if party == "re" else 2)
        made = pl.col(f"ann_{call}") >= 0
        made_rate = lf.select(pl.lit(call_label(call)).alias("call"), *rate_exprs(made))
        success = lf.filter(made).select(*rate_exprs(won, "won_"), pl.col(f"ann_{call}")
                                         .cast(pl.Float64).mean().alias("cards_mean"))
        rows.append(made_rate.join(success, how="cross"))
    return pl.concat(rows).collect()


def _settle_row(re_augen, re_tricks, re_level, ko_level, specials, solo) -> int:
    calls = [ANNOUNCEMENTS[k] for k in range(re_level + 1)]
    calls += [ANNOUNCEMENTS[5 + k] for k in range(ko_level + 1)]
    return settle(re_augen, re_tricks, calls, specials, solo)["value"]


def call_values(lf: pl.LazyFrame) -> pl.DataFrame:
    """What each call gains or costs its party per deal: its party's unit score with the call,
    less the score of the same play with the party's calls stopped one level lower (the
    announcement withdrawn, everything else unchanged). Mean with its standard error over the
    deals where it was the party's highest call."""
    special_cols = ["fox_re", "fox_kontra", "doppelkopf_re", "doppelkopf_kontra",
                    "karlchen_re", "karlchen_kontra"]
    base = lf.select("re_augen", "re_tricks", level("re").alias("re_level"),
                     level("kontra").alias("ko_level"), *special_cols, "solo", "value")
    distinct = base.drop("value").unique().collect()
    cache = {}
    for row in distinct.iter_rows(named=True):
        specials = {"re": ["fox"] * row["fox_re"] + ["doppelkopf"] * row["doppelkopf_re"]
                    + ["karlchen"] * row["karlchen_re"],
                    "kontra": ["fox"] * row["fox_kontra"] + ["doppelkopf"] * row["doppelkopf_kontra"]
                    + ["karlchen"] * row["karlchen_kontra"]}
        key = tuple(row.values())
        args = (row["re_augen"], row["re_tricks"], row["re_level"], row["ko_level"], specials,
                bool(row["solo"]))
        cache[key] = (_settle_row(*args[:2], max(args[2] - 1, -1), args[3], *args[4:]),
                      _settle_row(*args[:3], max(args[3] - 1, -1), *args[4:]))
    keys = distinct.with_columns(
        pl.Series("re_without", [v[0] for v in cache.values()], dtype=pl.Int64),
        pl.Series("ko_without", [v[1] for v in cache.values()], dtype=pl.Int64))
    joined = base.join(keys.lazy(), on=distinct.columns, how="left")
    rows = []
    for party, column, without, sign in (("re", "re_level", "re_without", 1),
                                         ("kontra", "ko_level", "ko_without", -1)):
        for k in range(5):
            call = party if k == 0 else f"{party}_{LEVELS[k - 1]}"
            gain = sign * (pl.col("value") - pl.col(without))
            rows.append(joined.filter(pl.col(column) == k).select(
                pl.lit(call_label(call)).alias("highest call"), *mean_exprs(gain)))
    return pl.concat(rows).collect()


def success_by_estimate(lf: pl.LazyFrame, bin_width: int = 5) -> pl.DataFrame:
    """Normal games: how often a seat's party wins, by the seat's hand estimate (bins of
    ``bin_width`` Augen), for every seat and for the seats that announced first for their party
    with 12 or 11 cards. The estimate where the win rate passes 50% is the Re/Kontra threshold
    the data supports (a call adds 2 points to the stake of whichever side wins)."""
    normal = lf.filter(is_normal())
    rows = []
    for s in SEATS:
        re = (pl.col("re_mask").cast(pl.Int64) // (1 << s)) % 2 == 1
        won = pl.when(re).then(pl.col("winner") == 1).otherwise(pl.col("winner") == 2)
        called = pl.when(re).then(pl.col("ann_seat_re") == s).otherwise(pl.col("ann_seat_kontra") == s)
        rows.append(normal.select((pl.col(f"est_{s}") // bin_width * bin_width).alias("estimate_bin"),
                                  won.alias("won"), called.alias("called")))
    long = pl.concat(rows)
    every = long.group_by("estimate_bin").agg(*rate_exprs(pl.col("won"))).with_columns(
        pl.lit("every seat").alias("seats"))
    callers = long.filter(pl.col("called")).group_by("estimate_bin").agg(
        *rate_exprs(pl.col("won"))).with_columns(pl.lit("announcers").alias("seats"))
    return pl.concat([every, callers]).sort("seats", "estimate_bin").collect()


def supported_threshold(by_estimate: pl.DataFrame, min_n: int = 200) -> float | None:
    """The lowest estimate bin from which every seat's party wins more often than not."""
    rows = by_estimate.filter((pl.col("seats") == "every seat") & (pl.col("n") >= min_n)).sort(
        "estimate_bin")
    above = None
    for row in rows.iter_rows(named=True):
        if row["rate"] > 0.5:
            above = row["estimate_bin"] if above is None else above
        else:
            above = None
    return above


def solos(lf: pl.LazyFrame) -> pl.DataFrame:
    """Per solo type (marriages played alone and silent marriages included): share of deals
    and the soloist's win rate and mean score."""
    total = lf.select(pl.len().alias("n"))
    solo = lf.filter(pl.col("game_type").is_in(SOLO_TYPES))
    per = (solo.group_by("game_type").agg(pl.len().alias("hits"),
                                          *rate_exprs(pl.col("winner") == 1, "won_"),
                                          (3 * pl.col("value")).cast(pl.Float64).mean()
                                          .alias("soloist_score_mean"))
           .join(total, how="cross").with_columns(wilson_columns()))
    return (per.with_columns(game_type_names().alias("solo")).sort("game_type")
            .select("solo", "n", "hits", "rate", "lo", "hi", "won_n", "won_rate", "won_lo",
                    "won_hi", "soloist_score_mean").collect())


def solo_rate(lf: pl.LazyFrame) -> pl.DataFrame:
    return lf.select(*rate_exprs(pl.col("game_type").is_in(DECLARED_SOLOS))).collect()


def marriages(lf: pl.LazyFrame) -> pl.DataFrame:
    """Announced marriages by the trick that found the partner (0: none, played alone): share
    and Re's win rate."""
    married = lf.filter(pl.col("game_type").is_in([GAME_TYPES.index("marriage"),
                                                   GAME_TYPES.index("marriage_alone")]))
    total = married.select(pl.len().alias("n"))
    return (married.group_by("clarify_trick").agg(pl.len().alias("hits"),
                                                  *rate_exprs(pl.col("winner") == 1, "re_win_"))
            .join(total, how="cross").with_columns(wilson_columns())
            .with_columns(pl.when(pl.col("clarify_trick") == 0).then(pl.lit("alone"))
                          .otherwise(pl.format("trick {}", pl.col("clarify_trick")))
                          .alias("partner found"))
            .sort("clarify_trick")
            .select("partner found", "n", "hits", "rate", "lo", "hi", "re_win_n",
                    "re_win_rate", "re_win_lo", "re_win_hi").collect())


def specials(lf: pl.LazyFrame) -> pl.DataFrame:
    """Normal games and marriages with a partner: how often each special point falls to each
    party (at least once per deal), its mean count, and Kontra winning against the club
    queens."""
    normal = lf.filter(~pl.col("solo"))
    rows = []
    for kind in ("fox", "doppelkopf", "karlchen"):
        for party in PARTY_NAMES:
            col = pl.col(f"{kind}_{party}")
            rows.append(normal.select(pl.lit(kind).alias("special"), pl.lit(party).alias("party"),
                                      *rate_exprs(col > 0), col.cast(pl.Float64).mean()
                                      .alias("per_deal_mean")))
    rows.append(normal.select(pl.lit("against the club queens").alias("special"),
                              pl.lit("kontra").alias("party"), *rate_exprs(pl.col("winner") == 2),
                              (pl.col("winner") == 2).cast(pl.Float64).mean().alias("per_deal_mean")))
    return pl.concat(rows).collect()


def score_distribution(lf: pl.LazyFrame) -> pl.DataFrame:
    """Deals by Re's unit score (``value``), normal games and solos apart."""
    kind = pl.when(pl.col("solo")).then(pl.lit("solo (unit score)")).otherwise(pl.lit("normal and marriage"))
    return (lf.group_by(kind.alias("team"), pl.col("value").alias("bin"))
            .agg(pl.len().alias("count")).sort("team", "bin").collect())


def score_summary(lf: pl.LazyFrame) -> pl.DataFrame:
    """Mean score per seat per deal (each row sums to zero) and Re's mean unit score."""
    return pl.concat([lf.select(pl.lit(f"seat {s}").alias("who"), *mean_exprs(pl.col(f"score_{s}")))
                      for s in SEATS]
                     + [lf.select(pl.lit("Re, unit score").alias("who"), *mean_exprs(pl.col("value")))]
                     ).collect()


def both_queens(lf: pl.LazyFrame) -> pl.DataFrame:
    """One hand dealt both club queens: the data's rate beside the exact 11/47."""
    return lf.select(*rate_exprs(both_queens_dealt())).with_columns(
        pl.lit(BOTH_QUEENS_EXACT).alias("exact")).collect()


def all_tables(lf: pl.LazyFrame) -> dict[str, pl.DataFrame]:
    by_estimate = success_by_estimate(lf)
    return {"game_types": game_types(lf), "re_win_normal": re_win_normal(lf),
            "announcements": announcement_rates(lf), "call_values": call_values(lf),
            "success_by_estimate": by_estimate, "solos": solos(lf), "solo_rate": solo_rate(lf),
            "marriages": marriages(lf), "specials": specials(lf),
            "score_distribution": score_distribution(lf), "score_summary": score_summary(lf),
            "both_queens": both_queens(lf)}


def headlines() -> list:
    """The figures a Doppelkopf report opens with and `simcards compare` compares."""
    from simcards.present.summary import Headline

    normal = is_normal()
    return [
        Headline("re_win_normal", "Re wins {rate} of normal games {ci}",
                 pl.when(normal).then(pl.col("winner") == 1), bots=True),
        Headline("normal_games", "{rate} of deals are normal games {ci}", normal, bots=True),
        Headline("announced", "Re or Kontra is announced in {rate} of deals {ci}", announced(),
                 bots=True),
        Headline("solo", "A solo is declared in {rate} of deals {ci}",
                 pl.col("game_type").is_in(DECLARED_SOLOS), bots=True),
        Headline("both_queens", "One hand is dealt both club queens (a marriage, unless a solo "
                 "goes first) in {rate} of deals {ci}; exactly 11/47 = 23.4%", both_queens_dealt()),
        Headline("fox", "A fox is caught in {rate} of normal games and marriages {ci}",
                 pl.when(~pl.col("solo")).then(pl.col("fox_re") + pl.col("fox_kontra") > 0),
                 bots=True),
        Headline("re_value", "Each Re player scores {rate} per deal on average {ci}",
                 pl.col("value"), kind="mean", bots=True),
    ]
