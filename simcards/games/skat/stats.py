"""Skat statistics: one lazy polars query per statistic, every column named, each rate with n
and a 95% Wilson interval, beside the human reference of Skat-Online's 17,967,106 tournament
games where one exists (`REFERENCES`, published as `SKAT_ONLINE` says).

Functions take the deals of a run as a LazyFrame (``RunData.scan()``) and return a small
DataFrame. Rates carry ``n``, ``hits``, ``rate``, ``lo``, ``hi``; means ``n``, ``mean``, ``sd``,
``se``. "Games" are the played deals (contract not -1); "deals" include the passed-in ones.
"""

from __future__ import annotations

import polars as pl

from simcards.games.references import Reference
from simcards.stats import binned_shares, mean_exprs, rate_exprs

CONTRACT_NAMES = {-1: "passed", 0: "diamonds", 1: "hearts", 2: "spades", 3: "clubs", 4: "grand",
                  5: "null"}
POSITIONS = {0: "forehand", 1: "middlehand", 2: "rearhand"}
SKAT_ONLINE = Reference(
    "Skat-Online",
    "4.9% of deals passed in; of the games played Diamonds 10.7%, Hearts 13.4%, Spades 16.2%, "
    "Clubs 21.1%, Grand 32.2%, Null 6.4%; the declarer wins 81.6% (suits 77.5-77.9%, Grand "
    "91.4%, Null 70.7%); Schneider in 23.4% of games (48.9% of Grands), Schwarz 1.4%, Ouvert "
    "2.7%.",
    "the tournament games of the Skat-Online server, counted by its operator on skatblog.com "
    "(\"Skat in Zahlen (2)\", tag Statistik)",
    "17,967,106 games")
SOURCE = f"Skat-Online's {SKAT_ONLINE.sample} (skatblog.com)"
# the labelled human references (shares of played games unless said)
REFERENCES = {
    "passed_in": 0.049,  # of all deals
    "mix": {"diamonds": 0.107, "hearts": 0.134, "spades": 0.162, "clubs": 0.211, "grand": 0.322,
            "null": 0.064},
    "declarer_wins": 0.816,
    "wins": {"diamonds": 0.775, "hearts": 0.777, "spades": 0.779, "clubs": 0.779, "grand": 0.914,
             "null": 0.707},  # suits: "77.5-77.9%", spread here from low to high
    "schneider": 0.234,
    "schneider_grand": 0.489,
    "schwarz": 0.014,
    "ouvert": 0.027,
}
EST_BIN = 50  # estimate bins of 5% (per mille columns)


def contract_name(col: str = "contract") -> pl.Expr:
    return pl.col(col).cast(pl.Int64).replace_strict(CONTRACT_NAMES, return_dtype=pl.String)


def _games(lf: pl.LazyFrame) -> pl.LazyFrame:
    return lf.filter(pl.col("contract") >= 0)


def _with_reference(frame: pl.DataFrame, key: str, refs: dict) -> pl.DataFrame:
    return frame.with_columns(pl.col(key).replace_strict(refs, default=None, return_dtype=pl.Float64)
                              .alias("reference"))


def _declarer_value(prefix: str) -> pl.Expr:
    """The per-seat column ``prefix_<declarer>`` of each row."""
    return (pl.when(pl.col("declarer") == 0).then(pl.col(f"{prefix}_0"))
            .when(pl.col("declarer") == 1).then(pl.col(f"{prefix}_1"))
            .otherwise(pl.col(f"{prefix}_2")))


def passed_in_rate(lf: pl.LazyFrame) -> pl.DataFrame:
    return lf.select(*rate_exprs(pl.col("contract") < 0)).collect().with_columns(
        pl.lit(REFERENCES["passed_in"]).alias("reference"))


def contract_mix(lf: pl.LazyFrame) -> pl.DataFrame:
    """Share of each contract among the played games."""
    games = _games(lf)
    total = games.select(pl.len().alias("games")).collect()["games"][0]
    rows = []
    for contract, name in CONTRACT_NAMES.items():
        if contract < 0:
            continue
        row = games.select(pl.lit(name).alias("contract"),
                           *rate_exprs(pl.col("contract") == contract)).collect()
        rows.append(row)
    frame = pl.concat(rows) if total else pl.DataFrame()
    return _with_reference(frame, "contract", REFERENCES["mix"]) if total else frame


def win_rate_by_contract(lf: pl.LazyFrame) -> pl.DataFrame:
    """The declarer's win rate per contract and over all games."""
    games = _games(lf)
    per = (games.group_by(contract_name().alias("contract")).agg(*rate_exprs(pl.col("won")))
           .collect())
    order = {n: k for k, n in CONTRACT_NAMES.items()}
    per = per.sort(pl.col("contract").replace_strict(order, return_dtype=pl.Int64))
    every = games.select(pl.lit("all games").alias("contract"), *rate_exprs(pl.col("won"))).collect()
    refs = {**REFERENCES["wins"], "all games": REFERENCES["declarer_wins"]}
    return _with_reference(pl.concat([per, every]), "contract", refs)


def win_rate_by_position(lf: pl.LazyFrame) -> pl.DataFrame:
    """The declarer's win rate by his position at the table (forehand leads) and by seat."""
    games = _games(lf)
    position = ((pl.col("declarer").cast(pl.Int64) - pl.col("dealer").cast(pl.Int64) + 2) % 3)
    by_position = (games.group_by(position.replace_strict(POSITIONS, return_dtype=pl.String)
                                  .alias("declarer")).agg(*rate_exprs(pl.col("won")),
                                                          pl.col("final_bid").cast(pl.Float64).mean()
                                                          .alias("mean_bid")).collect())
    by_seat = (games.group_by(("seat " + pl.col("declarer").cast(pl.String)).alias("declarer"))
               .agg(*rate_exprs(pl.col("won")), pl.col("final_bid").cast(pl.Float64).mean()
                    .alias("mean_bid")).collect())
    return pl.concat([by_position.sort("declarer"), by_seat.sort("declarer")])


def declarer_share_by_position(lf: pl.LazyFrame) -> pl.DataFrame:
    position = ((pl.col("declarer").cast(pl.Int64) - pl.col("dealer").cast(pl.Int64) + 2) % 3)
    games = _games(lf)
    return pl.concat([games.select(pl.lit(name).alias("declarer"), *rate_exprs(position == k)).collect()
                      for k, name in POSITIONS.items()])


def schneider_schwarz(lf: pl.LazyFrame) -> pl.DataFrame:
    """Schneider and Schwarz (either party) per contract family, of the suit and Grand games,
    and as a share of all played games (the reference counts every game)."""
    games = _games(lf)
    family = (pl.when(pl.col("contract") == 4).then(pl.lit("grand"))
              .when(pl.col("contract") == 5).then(pl.lit("null")).otherwise(pl.lit("suits")))
    rows = []
    for measure in ("schneider", "schwarz"):
        rows.append(games.filter(pl.col("contract") < 5).group_by(family.alias("games"))
                    .agg(pl.lit(measure).alias("measure"), *rate_exprs(pl.col(measure))).collect())
        rows.append(games.select(pl.lit("all games").alias("games"), pl.lit(measure).alias("measure"),
                                 *rate_exprs(pl.col(measure))).collect())
    out = pl.concat(rows).select("measure", "games", "n", "hits", "rate", "lo", "hi").sort("measure", "games")
    refs = {("schneider", "all games"): REFERENCES["schneider"],
            ("schneider", "grand"): REFERENCES["schneider_grand"],
            ("schwarz", "all games"): REFERENCES["schwarz"]}
    return out.with_columns(pl.struct("measure", "games").map_elements(
        lambda r: refs.get((r["measure"], r["games"])), return_dtype=pl.Float64).alias("reference"))


def hand_and_ouvert(lf: pl.LazyFrame) -> pl.DataFrame:
    """Shares of Hand and Ouvert games among the played games, and their win rates."""
    games = _games(lf)
    rows = []
    for flag in ("hand_game", "ouvert"):
        share = games.select(pl.lit(flag).alias("games"), pl.lit("share of games").alias("measure"),
                             *rate_exprs(pl.col(flag))).collect()
        wins = games.filter(pl.col(flag)).select(pl.lit(flag).alias("games"),
                                                 pl.lit("declarer wins").alias("measure"),
                                                 *rate_exprs(pl.col("won"))).collect()
        rows += [share, wins]
    out = pl.concat(rows)
    return out.with_columns(pl.when((pl.col("games") == "ouvert") & (pl.col("measure") == "share of games"))
                            .then(pl.lit(REFERENCES["ouvert"])).otherwise(None).alias("reference"))


def overbid_rate(lf: pl.LazyFrame) -> pl.DataFrame:
    return _games(lf).select(*rate_exprs(pl.col("overbid"))).collect()


def distribution(lf: pl.LazyFrame, column: str) -> pl.DataFrame:
    """How often each value of ``column`` occurs among the played games (share of games)."""
    games = _games(lf)
    out = (games.group_by(pl.col(column).cast(pl.Int64).alias(column)).agg(pl.len().alias("count"))
           .sort(column).collect())
    total = out["count"].sum()
    return out.with_columns((pl.col("count") / total).alias("share"))


def bid_and_value_summary(lf: pl.LazyFrame) -> pl.DataFrame:
    games = _games(lf)
    return pl.concat([
        games.select(pl.lit("final bid").alias("measure"), *mean_exprs(pl.col("final_bid"))).collect(),
        games.select(pl.lit("game value").alias("measure"), *mean_exprs(pl.col("game_value"))).collect(),
        games.select(pl.lit("value settled").alias("measure"), *mean_exprs(pl.col("value"))).collect(),
    ])


def win_rate_by_estimate(lf: pl.LazyFrame, column: str = "declare_est") -> pl.DataFrame:
    """The declarer's win rate and his Seeger-Fabian margin per 5% bin of his estimate
    (``declare_est``: of the game he declared; ``bid_est``: behind his bidding), with the mean
    estimate of the bin. The margin is his Seeger-Fabian score minus the mean of the two
    defenders' (what he gains on the table by playing): where it turns positive is the
    estimate the data supports as a threshold."""
    games = _games(lf).filter(pl.col("declare_est") > 0)
    estimate = pl.col("declare_est") if column == "declare_est" else _declarer_value("est")
    seeger_d = _declarer_value("seeger").cast(pl.Float64)
    defenders = (pl.col("seeger_0").cast(pl.Float64) + pl.col("seeger_1") + pl.col("seeger_2") - seeger_d) / 2
    return (games.with_columns(estimate.cast(pl.Int64).alias("_est"))
            .group_by((pl.col("_est") // EST_BIN * EST_BIN).alias("estimate_bin"))
            .agg(*rate_exprs(pl.col("won")), (pl.col("_est").mean() / 1000).alias("mean_estimate"),
                 *mean_exprs(seeger_d - defenders, prefix="margin_"))
            .sort("estimate_bin").collect()
            .with_columns((pl.col("estimate_bin") / 1000).alias("estimate_from")))


def break_even_estimate(table: pl.DataFrame, min_n: int = 30) -> float | None:
    """The lowest estimate bin from which the declarer's margin stays positive (None if never)."""
    rows = table.filter(pl.col("margin_n") >= min_n).sort("estimate_bin")
    found = None
    for row in reversed(list(rows.iter_rows(named=True))):
        if row["margin_mean"] > 0:
            found = row["estimate_from"]
        else:
            break
    return found


def headlines() -> list:
    """The figures a Skat report opens with and `simcards compare` compares."""
    from simcards.present.summary import Headline

    games = pl.col("contract") >= 0
    return [
        Headline("passed_in", "A deal is passed in {rate} of deals {ci} (Skat-Online: 4.9%)",
                 pl.col("contract") < 0, bots=True),
        Headline("declarer_wins", "The declarer wins {rate} of the games played {ci} "
                 "(Skat-Online: 81.6%)", pl.when(games).then(pl.col("won")), bots=True),
        Headline("grand", "Grand is played in {rate} of games {ci} (Skat-Online: 32.2%)",
                 pl.when(games).then(pl.col("contract") == 4), bots=True),
        Headline("null", "Null (any) is played in {rate} of games {ci} (Skat-Online: 6.4%)",
                 pl.when(games).then(pl.col("contract") == 5), bots=True),
        Headline("schneider", "A game ends Schneider in {rate} of games {ci} (Skat-Online: 23.4%)",
                 pl.when(games).then(pl.col("schneider")), bots=True),
        Headline("hand", "The declarer plays Hand in {rate} of games {ci}",
                 pl.when(games).then(pl.col("hand_game")), bots=True),
        Headline("overbid", "A game is overbid in {rate} of games {ci}",
                 pl.when(games).then(pl.col("overbid")), bots=True),
    ]


# ---- against perfect play (the double_dummy option's columns: dd_points, dd_wins)

FAMILIES = ("grand", "suit", "null")


def game_family(col: str = "contract") -> pl.Expr:
    """grand, suit (the four suits) or null, of a played game."""
    return (pl.when(pl.col(col) == 4).then(pl.lit("grand"))
            .when(pl.col(col) == 5).then(pl.lit("null")).otherwise(pl.lit("suit")))


def has_perfect_play(lf: pl.LazyFrame) -> bool:
    return "dd_wins" in lf.collect_schema().names()


def wins_perfect_vs_bots(lf: pl.LazyFrame) -> pl.DataFrame:
    """The declarer's win rate under perfect play (``dd_wins``) beside the bots' (``won``), of
    all games played and per family (Grand, suit, Null)."""
    games = _games(lf)
    out = []
    for play, flag in (("perfect", pl.col("dd_wins")), ("bots", pl.col("won"))):
        out.append(games.select(pl.lit("all").alias("games"), pl.lit(play).alias("play"),
                                *rate_exprs(flag)).collect())
        out.append(games.group_by(game_family().alias("games"))
                   .agg(pl.lit(play).alias("play"), *rate_exprs(flag)).collect())
    order = {name: k for k, name in enumerate(("all",) + FAMILIES)}
    frame = pl.concat([f.select("games", "play", "n", "hits", "rate", "lo", "hi") for f in out])
    return frame.sort(pl.col("games").replace_strict(order, return_dtype=pl.Int8), "play",
                      descending=[False, True])


def points_gap(lf: pl.LazyFrame) -> pl.LazyFrame:
    """Suit and Grand games with ``gap``: the bots' declarer points minus perfect play's."""
    return (_games(lf).filter(pl.col("contract") < 5)
            .with_columns((pl.col("points_declarer").cast(pl.Int32)
                           - pl.col("dd_points").cast(pl.Int32)).alias("gap")))


def points_gap_distribution(lf: pl.LazyFrame, width: int = 10, limit: int = 60) -> pl.DataFrame:
    """Share of suit and Grand games by (bots' declarer points - perfect-play points), in bins
    of ``width`` points, with Wilson intervals (`binned_shares`: the end bins, from ``-limit``
    and ``limit - width``, also hold the games beyond them)."""
    return binned_shares(points_gap(lf).select(pl.col("gap").alias("value")), width, limit)


def points_gap_summary(lf: pl.LazyFrame) -> pl.DataFrame:
    """Mean declarer points per suit or Grand game: perfect play, the bots, their difference
    and its size, with standard errors."""
    gapped = points_gap(lf)
    rows = []
    for name, expr in (("perfect play", pl.col("dd_points")), ("bots", pl.col("points_declarer")),
                       ("bots - perfect", pl.col("gap")), ("|bots - perfect|", pl.col("gap").abs())):
        rows.append(gapped.select(pl.lit(name).alias("points"), *mean_exprs(expr)))
    return pl.concat(rows).collect()


def points_gap_sides(lf: pl.LazyFrame) -> pl.DataFrame:
    """Share of suit and Grand games the bots' declarer ends above, level with or below his
    perfect-play points."""
    gapped = points_gap(lf)
    return pl.concat([gapped.select(pl.lit(side).alias("bots_vs_perfect"), *rate_exprs(flag)).collect()
                      for side, flag in (("above", pl.col("gap") > 0), ("level", pl.col("gap") == 0),
                                         ("below", pl.col("gap") < 0))])


def has_lost_points(lf: pl.LazyFrame) -> bool:
    """Do the games carry the losses along the bots' line (runs made since they were added)?"""
    return "dd_lost_declarer" in lf.collect_schema().names()


def lost_points_summary(lf: pl.LazyFrame) -> pl.DataFrame:
    """Per side, the declarer and the defenders: the card points its play gave away against
    perfect play from each position (``dd_lost_*``) in a suit or Grand game on average, and the
    share of those games in which it gave nothing away."""
    games = _games(lf).filter(pl.col("contract") < 5)
    rows = []
    for side, column in (("declarer", "dd_lost_declarer"), ("defenders", "dd_lost_defenders")):
        lost = pl.col(column).cast(pl.Int32)
        rows.append(games.select(pl.lit(side).alias("side"), *mean_exprs(lost),
                                 (lost == 0).mean().alias("share_nothing_lost")))
    return pl.concat(rows).collect()


# ---- the pimc bot in duplicate: a run with a pimc seat beside the same deals replayed with
# the heuristic there (skat/report.py, `duplicate_against_heuristic`)


def _declarer_score(suffix: str = "") -> pl.Expr:
    """The declarer's ``score_*`` of a deal (null when it is passed in)."""
    return (pl.when(pl.col("declarer") == 0).then(pl.col(f"score_0{suffix}"))
            .when(pl.col("declarer") == 1).then(pl.col(f"score_1{suffix}"))
            .when(pl.col("declarer") == 2).then(pl.col(f"score_2{suffix}")))


def duplicate_differences(both: pl.DataFrame, seat: int) -> pl.DataFrame:
    """Per deal, the pimc run minus the heuristic replay (``both``: deal_index, declarer and
    score_0..2 of the pimc run, the replay's with the suffix ``_heuristic``; the same contracts
    in both): over every deal the pimc seat's margin, its score minus the mean of the other two
    seats' (in list scoring a defender scores nothing, so its margin counts what the declarer
    makes against it); in the games it declares, its score; in the games it defends, the
    declarer's score negated (what the seat kept from him). Each with its count, mean,
    standard error and 95% interval."""
    others = [s for s in range(3) if s != seat]

    def margin(suffix: str) -> pl.Expr:
        return (pl.col(f"score_{seat}{suffix}").cast(pl.Float64)
                - (pl.col(f"score_{others[0]}{suffix}") + pl.col(f"score_{others[1]}{suffix}")) / 2)

    seat_gain = pl.col(f"score_{seat}").cast(pl.Float64) - pl.col(f"score_{seat}_heuristic")
    kept = (_declarer_score("_heuristic").cast(pl.Float64) - _declarer_score()).alias("d")
    parts = {"every deal: the seat's margin": both.select((margin("") - margin("_heuristic")).alias("d")),
             "its games as declarer: its score": both.filter(pl.col("declarer") == seat)
             .select(seat_gain.alias("d")),
             "its games as defender: the declarer's score, negated": both.filter(
                 (pl.col("declarer") >= 0) & (pl.col("declarer") != seat)).select(kept)}
    rows = []
    for label, frame in parts.items():
        row = frame.select(*mean_exprs(pl.col("d"))).row(0, named=True)
        se = row["se"] if row["se"] is not None else float("nan")
        mean = row["mean"] if row["mean"] is not None else float("nan")
        rows.append({"deals": label, "n": row["n"], "mean_difference": mean, "se": se,
                     "lo": mean - 1.96 * se, "hi": mean + 1.96 * se})
    return pl.DataFrame(rows)
