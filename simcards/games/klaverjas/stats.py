"""Klaverjassen statistics: one lazy polars query per statistic, every column named.

Each function takes the deals of a run as a LazyFrame (``RunData.scan()``), plus the run's rule
options where the statistic depends on them, and returns a small DataFrame. Rates carry ``n``,
``hits``, ``rate`` and a 95% Wilson interval ``lo``/``hi``; means carry ``n``, ``mean``, ``sd``
and the standard error ``se``.
"""

from __future__ import annotations

import polars as pl

from simcards.stats import binned_shares, mean_exprs, rate_exprs, wilson_columns
from simcards.cards import SUITS
from simcards.games.klaverjas.rules import RANKS, RJ, RK, RQ, STUK_VALUE, run_lengths

SEATS = range(4)
HAND_COLUMNS = [f"hand_{s}" for s in SEATS]
MELD_COLUMNS = [f"roem_hand_{s}" for s in SEATS]

# runs of each length class in one suit's 8-bit mask (cards 7..A as bits 0..7)
_RUNS = {length: {b: sum(1 for r in run_lengths(b) if (r >= 5 if length == 5 else r == length))
                  for b in range(256)} for length in (3, 4, 5)}


def _suit_byte(hand: str, suit: int) -> pl.Expr:
    return (pl.col(hand).cast(pl.Int64) // (1 << (8 * suit))) % 256


def _declaring_team() -> pl.Expr:
    return (pl.col("declarer") % 2).alias("declaring_team")


def _per_seat_long(lf: pl.LazyFrame, columns: list[str], value_name: str) -> pl.LazyFrame:
    """One row per (deal, seat) with the seat's value of ``columns``."""
    return pl.concat([lf.select(pl.lit(seat, pl.Int8).alias("seat"), pl.col(col).alias(value_name))
                      for seat, col in enumerate(columns)])


def _value_frequencies(long: pl.LazyFrame, value: str, by: list[str]) -> pl.DataFrame:
    counts = long.group_by(*by, value).agg(pl.len().alias("hits"))
    totals = long.group_by(*by).agg(pl.len().alias("n")) if by else long.select(pl.len().alias("n"))
    joined = counts.join(totals, on=by, how="left") if by else counts.join(totals, how="cross")
    return joined.with_columns(wilson_columns()).sort(*by, value).collect()


def _stuk(hand: str) -> pl.Expr:
    """Does the seat's dealt hand hold K and Q of the deal's trump?"""
    trump_byte = pl.coalesce([pl.when(pl.col("trump") == s).then(_suit_byte(hand, s)) for s in range(4)])
    return (trump_byte // (1 << RQ)) % 2 + (trump_byte // (1 << RK)) % 2 == 2


def hand_meld_values(lf: pl.LazyFrame, with_stuk: bool = True) -> pl.DataFrame:
    """Frequency of each hand-meld total per seat and over all seats (seat -1); without stuk
    when ``with_stuk`` is false (runs and four of a kind only, which do not depend on trump)."""
    columns = MELD_COLUMNS
    frame = lf
    if not with_stuk:
        frame = lf.select([(pl.col(m) - pl.when(_stuk(h)).then(STUK_VALUE).otherwise(0)).alias(m)
                           for m, h in zip(MELD_COLUMNS, HAND_COLUMNS)])
    long = _per_seat_long(frame, columns, "roem_hand")
    per_seat = _value_frequencies(long, "roem_hand", ["seat"])
    pooled = _value_frequencies(long, "roem_hand", []).with_columns(pl.lit(-1, pl.Int8).alias("seat"))
    return pl.concat([per_seat, pooled.select(per_seat.columns)])


def hand_meld_types(lf: pl.LazyFrame) -> pl.DataFrame:
    """How often a hand holds each kind of meld: a run of 3, 4, 5+, four of a kind (any rank,
    and jacks), stuk of the deal's trump. Pooled over seats; a hand may count in several rows."""
    rows = []
    for hand in HAND_COLUMNS:
        bytes_ = [_suit_byte(hand, s) for s in range(4)]
        common = bytes_[0] & bytes_[1] & bytes_[2] & bytes_[3]
        rows.append(lf.select(
            (sum(b.replace_strict(_RUNS[3], return_dtype=pl.Int64) for b in bytes_) > 0).alias("run of 3"),
            (sum(b.replace_strict(_RUNS[4], return_dtype=pl.Int64) for b in bytes_) > 0).alias("run of 4"),
            (sum(b.replace_strict(_RUNS[5], return_dtype=pl.Int64) for b in bytes_) > 0).alias("run of 5+"),
            (common != 0).alias("four of a kind"),
            ((common // (1 << RJ)) % 2 == 1).alias("four jacks"),
            _stuk(hand).alias("stuk"),
        ))
    long = pl.concat(rows)
    kinds = ["run of 3", "run of 4", "run of 5+", "four of a kind", "four jacks", "stuk"]
    return pl.concat([long.select(pl.lit(k).alias("meld"), *rate_exprs(pl.col(k))) for k in kinds]).collect()


def _pit_bonus_awarded(options: dict) -> pl.Expr:
    """Pit bonus counted in the deal's roem columns (declaring side always, defenders if allowed)."""
    bonus = int(options.get("pit_bonus", 100))
    decl_tricks = _declaring("tricks")
    defenders = bool(options.get("defenders_pit", True))
    own = pl.when(decl_tricks == 8).then(bonus).otherwise(0)
    other = pl.when((decl_tricks == 0) & defenders).then(bonus).otherwise(0)
    return own, other


def table_roem_values(lf: pl.LazyFrame, options: dict) -> pl.DataFrame:
    """Frequency of the table roem of a deal (both teams, pit bonus left out)."""
    own, other = _pit_bonus_awarded(options)
    table = (pl.col("roem_0") + pl.col("roem_1") - own - other).alias("table_roem")
    return _value_frequencies(lf.select(table), "table_roem", [])


def table_roem_by_team(lf: pl.LazyFrame, options: dict) -> pl.DataFrame:
    """Mean table roem per deal, and how often any falls, for the declaring and defending team."""
    own_pit, other_pit = _pit_bonus_awarded(options)
    own = _declaring("roem") - own_pit
    other = _defending("roem") - other_pit
    return pl.concat([
        lf.select(pl.lit("declaring").alias("team"), *mean_exprs(own), *rate_exprs(own > 0, "any_")),
        lf.select(pl.lit("defending").alias("team"), *mean_exprs(other), *rate_exprs(other > 0, "any_")),
    ]).collect()


def nat_rate(lf: pl.LazyFrame) -> pl.DataFrame:
    """Share of deals the playing team goes nat."""
    return lf.select(*rate_exprs(pl.col("nat"))).collect()


def nat_by_trump(lf: pl.LazyFrame) -> pl.DataFrame:
    return (lf.group_by("trump").agg(*rate_exprs(pl.col("nat"))).sort("trump")
            .with_columns(pl.col("trump").replace_strict(dict(enumerate(SUITS)), return_dtype=pl.String)
                          .alias("trump_suit")).collect())


def nat_by_declarer_seat(lf: pl.LazyFrame) -> pl.DataFrame:
    """By absolute seat and by position from the dealer (1 = forehand)."""
    by_seat = lf.group_by("declarer").agg(*rate_exprs(pl.col("nat"))).sort("declarer").collect()
    position = ((pl.col("declarer") - pl.col("dealer")) % 4).alias("position")
    by_position = (lf.with_columns(position).group_by("position").agg(*rate_exprs(pl.col("nat")))
                   .sort("position").collect())
    return by_seat.rename({"declarer": "seat"}).with_columns(pl.lit("seat").alias("by")).vstack(
        by_position.rename({"position": "seat"}).with_columns(pl.lit("position").alias("by"))
        .select(by_seat.rename({"declarer": "seat"}).columns + ["by"]))


def nat_by_strength(lf: pl.LazyFrame, bin_width: int = 10) -> pl.DataFrame:
    """Nat rate by the declarer's hand-evaluator estimate, in bins of ``bin_width``."""
    strength = ((pl.col("estimate") // bin_width) * bin_width).alias("estimate_bin")
    return (lf.with_columns(strength).group_by("estimate_bin").agg(*rate_exprs(pl.col("nat")))
            .sort("estimate_bin").collect())


def pit_rate(lf: pl.LazyFrame) -> pl.DataFrame:
    """Pit rate overall and by the team that made it (declaring or defending)."""
    decl_tricks = pl.when(pl.col("declarer") % 2 == 0).then(pl.col("tricks_0")).otherwise(pl.col("tricks_1"))
    return pl.concat([
        lf.select(pl.lit("any").alias("team"), *rate_exprs(pl.col("pit"))),
        lf.select(pl.lit("declaring").alias("team"), *rate_exprs(decl_tricks == 8)),
        lf.select(pl.lit("defending").alias("team"), *rate_exprs(decl_tricks == 0)),
    ]).collect()


def _declaring(col: str) -> pl.Expr:
    return pl.when(pl.col("declarer") % 2 == 0).then(pl.col(f"{col}_0")).otherwise(pl.col(f"{col}_1"))


def _defending(col: str) -> pl.Expr:
    return pl.when(pl.col("declarer") % 2 == 0).then(pl.col(f"{col}_1")).otherwise(pl.col(f"{col}_0"))


def points_summary(lf: pl.LazyFrame) -> pl.DataFrame:
    """Mean card points and score per deal of the declaring and defending team."""
    parts = []
    for team, pick in (("declaring", _declaring), ("defending", _defending)):
        for what in ("points", "score"):
            parts.append(lf.select(pl.lit(team).alias("team"), pl.lit(what).alias("measure"),
                                   *mean_exprs(pick(what))))
    return pl.concat(parts).collect()


def distribution(lf: pl.LazyFrame, measure: str, bin_width: int = 10) -> pl.DataFrame:
    """Histogram (counts per bin of ``bin_width``) of the declaring and the defending team's
    ``measure`` ("points" or "score")."""
    frames = []
    for team, pick in (("declaring", _declaring), ("defending", _defending)):
        value = (pick(measure) // bin_width * bin_width).alias("bin")
        frames.append(lf.select(value).group_by("bin").agg(pl.len().alias("count"))
                      .with_columns(pl.lit(team).alias("team")))
    return pl.concat(frames).sort("team", "bin").collect()


def all_tables(lf: pl.LazyFrame, options: dict, exact_melds) -> dict[str, pl.DataFrame]:
    """Every Klaverjassen statistic of a run, by table name. ``exact_melds(with_stuk)`` gives
    the exact hand-meld odds (`KlaverjasGame.exact_hand_meld_values`: the enumeration is the
    game's, not the statistics')."""
    melds = hand_meld_values(lf, with_stuk=True)
    if options.get("trump_selection") == "random":  # stuk independent of the hand: exact too
        melds = melds.join(exact_melds(True), on="roem_hand", how="left")
    no_stuk = hand_meld_values(lf, with_stuk=False).join(exact_melds(False), on="roem_hand",
                                                         how="left")
    return {
        "hand_meld_values": melds,
        "hand_meld_values_no_stuk": no_stuk,
        "hand_meld_types": hand_meld_types(lf),
        "table_roem_values": table_roem_values(lf, options),
        "table_roem_by_team": table_roem_by_team(lf, options),
        "nat_rate": nat_rate(lf),
        "nat_by_trump": nat_by_trump(lf),
        "nat_by_declarer": nat_by_declarer_seat(lf),
        "nat_by_strength": nat_by_strength(lf),
        "pit_rate": pit_rate(lf),
        "points_summary": points_summary(lf),
        "points_distribution": distribution(lf, "points"),
        "score_distribution": distribution(lf, "score"),
    }


def _four_of_a_kind_dealt(rank_bit: int | None = None) -> pl.Expr:
    """Some hand of the deal holds four of a kind (of the rank at ``rank_bit``, or any)."""
    found = []
    for hand in HAND_COLUMNS:
        common = _suit_byte(hand, 0) & _suit_byte(hand, 1) & _suit_byte(hand, 2) & _suit_byte(hand, 3)
        found.append(common != 0 if rank_bit is None else (common // (1 << rank_bit)) % 2 == 1)
    return pl.any_horizontal(found)


def headlines(options: dict) -> list:
    """The figures a Klaverjassen report opens with and `simcards compare` compares."""
    from simcards.present.summary import Headline

    forced = options.get("trump_selection") == "forced"
    own_pit, other_pit = _pit_bonus_awarded(options)
    table_roem = pl.col("roem_0") + pl.col("roem_1") - own_pit - other_pit
    no_stuk = [pl.col(m) - pl.when(_stuk(h)).then(STUK_VALUE).otherwise(0)
               for m, h in zip(MELD_COLUMNS, HAND_COLUMNS)]
    who = "With trump forced on forehand the" if forced else "The"
    return [
        Headline("nat", f"{who} playing team goes nat in {{rate}} of deals {{ci}}", pl.col("nat"),
                 bots=True),
        Headline("pit", "A team takes all eight tricks (pit) in {rate} of deals {ci}",
                 pl.col("pit"), bots=True),
        Headline("declaring_points", "The playing team takes {rate} of the 162 card points on "
                 "average {ci}", _declaring("points"), kind="mean", bots=True),
        Headline("table_roem", "Roem falls on the table (stuk included) in {rate} of deals {ci}",
                 table_roem > 0, bots=True),
        Headline("hand_meld", "Some hand is dealt a run or four of a kind in {rate} of deals {ci}",
                 pl.any_horizontal([v > 0 for v in no_stuk])),
        Headline("four_of_a_kind", "Some hand is dealt four of a kind in {rate} of deals {ci}",
                 _four_of_a_kind_dealt()),
        Headline("four_jacks", "Some hand is dealt four jacks (200 roem) in {rate} of deals {ci}",
                 _four_of_a_kind_dealt(RJ)),
    ] + (perfect_play_headlines("playing team") if options.get("double_dummy") else [])


def perfect_play_headlines(burden: str) -> list:
    """Headlines of the double_dummy columns (Klaverjassen and Kraken)."""
    from simcards.present.summary import Headline

    gap = pl.col("bot_margin").cast(pl.Float64) - pl.col("dd_margin").cast(pl.Float64)
    return [
        Headline("dd_nat", f"Under perfect play (all hands open) the {burden} goes nat in "
                 "{rate} of deals {ci}", pl.col("dd_nat")),
        Headline("dd_gap", "The bots' margin for the declaring team differs from perfect play's "
                 "by {rate} points a deal on average {ci}", gap, kind="mean", bots=True),
    ]


# ---- against perfect play (the double_dummy option's columns: dd_margin, dd_nat, bot_margin)


def has_perfect_play(lf: pl.LazyFrame) -> bool:
    return "dd_margin" in lf.collect_schema().names()


def margin_gap_distribution(lf: pl.LazyFrame, width: int = 20, limit: int = 200) -> pl.DataFrame:
    """Share of deals by (bots' margin - perfect-play margin) of the declaring team, in bins of
    ``width`` points, with Wilson intervals (`binned_shares`: the end bins, from ``-limit`` and
    ``limit - width``, also hold the few deals beyond them)."""
    gap = (pl.col("bot_margin").cast(pl.Int32) - pl.col("dd_margin").cast(pl.Int32))
    return binned_shares(lf.select(gap.alias("value")), width, limit)


def margin_gap_summary(lf: pl.LazyFrame) -> pl.DataFrame:
    """Mean margins per deal (declaring team's points plus roem minus the opponents'): perfect
    play, the bots, and their difference; with standard errors."""
    gap = pl.col("bot_margin").cast(pl.Int32) - pl.col("dd_margin").cast(pl.Int32)
    rows = []
    for name, expr in (("perfect play", pl.col("dd_margin")), ("bots", pl.col("bot_margin")),
                       ("bots - perfect", gap),
                       ("|bots - perfect|", gap.abs())):
        rows.append(lf.select(pl.lit(name).alias("margin"), *mean_exprs(expr)))
    return pl.concat(rows).collect()


def has_lost_points(lf: pl.LazyFrame) -> bool:
    """Do the deals carry the losses along the bots' line (runs made since they were added)?"""
    return "dd_lost_declaring" in lf.collect_schema().names()


def lost_points_summary(lf: pl.LazyFrame) -> pl.DataFrame:
    """Per team, the declaring one and the defending one: the margin its card play gave away
    against perfect play from each position (``dd_lost_*``), a deal on average, and the share
    of deals in which it gave nothing away."""
    rows = []
    for team, column in (("declaring", "dd_lost_declaring"), ("defending", "dd_lost_defending")):
        lost = pl.col(column)
        rows.append(lf.select(pl.lit(team).alias("team"), *mean_exprs(lost),
                              (lost == 0).mean().alias("share_nothing_lost")))
    return pl.concat(rows).collect()


def nat_perfect_vs_bots(lf: pl.LazyFrame, selection: str | None) -> pl.DataFrame:
    """Nat rate under perfect play (``dd_nat``) beside the bots' (``nat``), over all deals and
    per trump suit, for the run's trump selection (None: a ruleset without one)."""
    suit = pl.col("trump").replace_strict(list(range(4)), list(SUITS), return_dtype=pl.Utf8)
    out = []
    for play, flag in (("perfect", pl.col("dd_nat")), ("bots", pl.col("nat"))):
        base = pl.lit(selection).alias("trump_selection"), pl.lit(play).alias("play")
        out.append(lf.select(*base, pl.lit("all").alias("trump_suit"), *rate_exprs(flag)))
        out.append(lf.group_by(suit.alias("trump_suit")).agg(*rate_exprs(flag))
                   .select(*base, "trump_suit", "n", "hits", "rate", "lo", "hi"))
    return pl.concat(out).collect().sort("trump_suit", "play")
