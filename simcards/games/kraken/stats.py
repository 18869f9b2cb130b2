"""Kraken statistics (`kraken-contra`, `kraken-scorebord`): one lazy polars query per statistic,
every column named.

Functions take the deals of a run as a LazyFrame (``RunData.scan()``; the matches as
``RunData.scan("matches")``), plus the run's rule options where a statistic depends on them,
and return a small DataFrame. Rates carry ``n``, ``hits``, ``rate`` and a 95% Wilson interval
``lo``/``hi``; means carry ``n``, ``mean``, ``sd`` and the standard error ``se``.

Bid decisions. Every seat that decided on a bid left its estimate in ``est_<bid>_<j>`` (j = 1
the first to decide, 2 its partner; NaN when it did not decide). Bots play the cards the same
whatever was bid, so ``would_win_<bid>`` tells for every deal whether that bid would have been
won with the play that happened; a decision that passed can be scored as if it had bid. That
gives, for each bid, the success rate and the expected gain of bidding against the bidder's
estimate, including estimates below the bots' threshold, and the break-even estimate where the
gain turns positive: the threshold the data supports.

The gain of a bid is measured for the bidding team against not making it (the contract one level
lower), ignoring later bids:
- contra: in crosses, opponents' minus own. A bid of level l won moves 2^l crosses (x2 spades) to
  the opponents, lost to the bidders; not bidding leaves the lower contract's 2^(l-1) crosses
  (none without a bid) with the loser of that contract. The end-of-match crosses for points are
  left out.
- scorebord: in scoreboard units, own entry minus the opponents'. Kraak: 32 (x2 spades) plus all
  roem/10 either way, against the plain deal (nat: 16 plus all roem/10 for the defenders, else
  both entries). Overkraak: 64 against the kraak's 32 (x2 spades).
"""

from __future__ import annotations

import math

import polars as pl

from simcards.stats import mean_exprs, rate_exprs, wilson_columns
from simcards.cards import SUITS

CONTRA_BIDS = ("kraak", "rekraak", "superkraak")
SCOREBORD_BIDS = ("kraak", "overkraak")


def bid_names(lf: pl.LazyFrame) -> tuple[str, ...]:
    """The bids of the run's ruleset, from its columns."""
    names = lf.collect_schema().names()
    return CONTRA_BIDS if "superkraak_seat" in names else SCOREBORD_BIDS


def _is_contra(lf: pl.LazyFrame) -> bool:
    return bid_names(lf) == CONTRA_BIDS


def _playing() -> pl.Expr:
    return pl.col("declarer").cast(pl.Int32) % 2


def _team_value(name: str, team: pl.Expr) -> pl.Expr:
    return pl.when(team == 0).then(pl.col(f"{name}_0")).otherwise(pl.col(f"{name}_1")).cast(pl.Int64)


def _bid_team(level: int) -> pl.Expr:
    return 1 - _playing() if level % 2 == 1 else _playing()


def _suit_name(col: str = "trump") -> pl.Expr:
    return pl.col(col).replace_strict(dict(enumerate(SUITS)), return_dtype=pl.String)


def _spades_factor() -> pl.Expr:
    return pl.when(pl.col("trump") == 3).then(2).otherwise(1)


# ---------------------------------------------------------------- bids: how often, how well


def bid_rates(lf: pl.LazyFrame) -> pl.DataFrame:
    """How often each bid is made: per deal, and given that the bid before it was made."""
    frames = []
    for level, name in enumerate(bid_names(lf), 1):
        made = pl.col("bid") >= level
        per_deal = lf.select(pl.lit(name).alias("bid"), pl.lit("per deal").alias("among"), *rate_exprs(made))
        if level == 1:
            frames.append(per_deal)
            continue
        after = lf.filter(pl.col("bid") >= level - 1).select(
            pl.lit(name).alias("bid"), pl.lit(f"after a {bid_names(lf)[level - 2]}").alias("among"),
            *rate_exprs(made))
        frames += [per_deal, after]
    return pl.concat(frames).collect()


def _final_bid(lf: pl.LazyFrame) -> pl.Expr:
    names = dict(enumerate(("none",) + bid_names(lf)))
    return pl.col("bid").replace_strict(names, return_dtype=pl.String).alias("bid_name")


def bid_success(lf: pl.LazyFrame, by: list[str] | None = None) -> pl.DataFrame:
    """Success rate of the highest bid of a deal (the team that made it won), by the bid and
    optionally by more columns."""
    keys = ["bid", "bid_name", *(by or [])]
    return (lf.filter(pl.col("bid") > 0).with_columns(_final_bid(lf))
            .group_by(keys).agg(*rate_exprs(pl.col("bid_won") == 1)).sort(keys).collect())


def bids_by_trump(lf: pl.LazyFrame) -> pl.DataFrame:
    """Rate of each bid per deal and its success rate, by trump suit and for spades (which
    doubles the stakes) against the other suits."""
    frames = []
    for level, name in enumerate(bid_names(lf), 1):
        base = lf.with_columns(_suit_name().alias("trump_suit"),
                               pl.when(pl.col("trump") == 3).then(pl.lit("spades"))
                               .otherwise(pl.lit("other suits")).alias("spades"))
        for key in ("trump_suit", "spades"):
            rate = base.group_by(key).agg(*rate_exprs(pl.col("bid") >= level))
            won = (base.filter(pl.col("bid") == level).group_by(key)
                   .agg(*rate_exprs(pl.col("bid_won") == 1, "success_")))
            frames.append(rate.join(won, on=key, how="left").rename({key: "trump"})
                          .with_columns(pl.lit(name).alias("bid"), pl.lit(key).alias("by")))
    out = pl.concat(frames).collect()
    return out.select("bid", "by", "trump", *[c for c in out.columns if c not in ("bid", "by", "trump")]) \
        .sort("bid", "by", "trump")


def bids_by_declarer(lf: pl.LazyFrame) -> pl.DataFrame:
    """Rate of each bid per deal and its success rate, by the declarer's seat."""
    frames = []
    for level, name in enumerate(bid_names(lf), 1):
        rate = lf.group_by("declarer").agg(*rate_exprs(pl.col("bid") >= level))
        won = (lf.filter(pl.col("bid") == level).group_by("declarer")
               .agg(*rate_exprs(pl.col("bid_won") == 1, "success_")))
        frames.append(rate.join(won, on="declarer", how="left").with_columns(pl.lit(name).alias("bid")))
    out = pl.concat(frames).collect()
    return out.select("bid", "declarer", *[c for c in out.columns if c not in ("bid", "declarer")]) \
        .sort("bid", "declarer")


# ---------------------------------------------------------------- bid decisions and estimates


def _decisions(lf: pl.LazyFrame, options: dict | None = None) -> pl.LazyFrame:
    """One row per bid decision: bid, level, j (1 first, 2 second), seat, estimate, whether it
    bid, whether the bid would win with this play, the deciding team's card points, and the gain
    of bidding (module docstring)."""
    names = bid_names(lf)
    contra = names == CONTRA_BIDS
    frames = []
    for level, name in enumerate(names, 1):
        team = _bid_team(level)
        first = (pl.col("declarer").cast(pl.Int32) + (1 if level % 2 else 0)) % 4
        win = pl.col(f"would_win_{name}")
        gain = _contra_gain(level, names) if contra else _scorebord_gain(level, options or {})
        for j in (1, 2):
            seat = (first + 2 * (j - 1)) % 4
            frames.append(lf.filter(pl.col(f"est_{name}_{j}").is_not_nan()).select(
                pl.lit(name).alias("bid"), pl.lit(level, pl.Int8).alias("level"),
                pl.lit(j, pl.Int8).alias("j"), seat.alias("seat"), pl.col("trump"),
                pl.col(f"est_{name}_{j}").cast(pl.Float64).alias("estimate"),
                (pl.col(f"{name}_seat") == seat).alias("took"), win.alias("would_win"),
                _team_value("points", team).alias("team_points"), gain.alias("gain"),
            ))
    return pl.concat(frames)


def _contra_gain(level: int, names: tuple[str, ...]) -> pl.Expr:
    stake = 2 ** level
    with_bid = pl.when(pl.col(f"would_win_{names[level - 1]}")).then(stake).otherwise(-stake)
    if level == 1:
        without = pl.lit(0)
    else:  # the lower contract is the other team's: its win is our loss
        lower = 2 ** (level - 1)
        without = pl.when(pl.col(f"would_win_{names[level - 2]}")).then(-lower).otherwise(lower)
    return ((with_bid - without) * _spades_factor()).cast(pl.Float64)


def _entry(team: pl.Expr, floor: bool) -> pl.Expr:
    """The team's plain scoreboard entry: card points x spades / 10 rounded, plus roem / 10."""
    tenths = _team_value("points", team) * _spades_factor()
    cards = tenths // 10 if floor else (tenths + 5) // 10
    return cards + _team_value("roem", team) // 10


def _scorebord_gain(level: int, options: dict) -> pl.Expr:
    m = _spades_factor()
    all_roem = (pl.col("roem_0").cast(pl.Int64) + pl.col("roem_1").cast(pl.Int64)) // 10
    if level == 1:  # defenders: the playing team nat is a won kraak
        floor = options.get("scoreboard_rounding", "half_up") == "floor"
        plain = pl.when(pl.col("would_win_kraak")).then(16 * m + all_roem).otherwise(
            _entry(1 - _playing(), floor) - _entry(_playing(), floor))
        kraak = pl.when(pl.col("would_win_kraak")).then(32 * m + all_roem).otherwise(-(32 * m + all_roem))
        return (kraak - plain).cast(pl.Float64)
    return pl.when(pl.col("would_win_overkraak")).then(32 * m).otherwise(-32 * m).cast(pl.Float64)


def _bin(width: float) -> pl.Expr:
    return ((pl.col("estimate") / width).floor() * width).alias("estimate_bin")


def bids_by_estimate(lf: pl.LazyFrame, bin_width: float = 5.0) -> pl.DataFrame:
    """For each bid and bin of the deciding seat's estimate: how often the seat bid, and the
    success rate of the bids it made."""
    dec = _decisions(lf).with_columns(_bin(bin_width))
    took = dec.group_by("bid", "level", "estimate_bin").agg(*rate_exprs(pl.col("took"), "bid_"))
    won = (dec.filter(pl.col("took")).group_by("bid", "level", "estimate_bin")
           .agg(*rate_exprs(pl.col("would_win"), "success_")))
    return (took.join(won, on=["bid", "level", "estimate_bin"], how="left")
            .sort("level", "estimate_bin").collect())


def bid_value_by_estimate(lf: pl.LazyFrame, options: dict | None = None,
                          bin_width: float = 5.0) -> pl.DataFrame:
    """For each bid and estimate bin, over every decision (bid or pass): the rate at which the bid
    would win with the play that followed, and the mean gain of bidding (contra: crosses;
    scorebord: scoreboard units) with its standard error."""
    dec = _decisions(lf, options).with_columns(_bin(bin_width))
    return (dec.group_by("bid", "level", "estimate_bin")
            .agg(*rate_exprs(pl.col("would_win")), *mean_exprs(pl.col("gain"), "gain_"))
            .sort("level", "estimate_bin").collect())


def bid_break_even(lf: pl.LazyFrame, options: dict | None = None, bin_width: float = 5.0,
                   min_n: int = 50) -> pl.DataFrame:
    """For each bid: the estimate where its expected gain turns positive, and where the success
    rate passes 1/2 (see `break_even_from_table`). NaN when the gain never changes sign in the
    data."""
    return break_even_from_table(bid_value_by_estimate(lf, options, bin_width), bin_width, min_n)


def break_even_from_table(table: pl.DataFrame, bin_width: float = 5.0,
                          min_n: int = 50) -> pl.DataFrame:
    """Break-even estimates from `bid_value_by_estimate`'s bins. Adjacent bins are pooled, from
    the lowest estimate up, until each group holds at least ``min_n`` decisions (a short last
    group joins the one before); each group sits at its decisions' mean bin centre with their
    mean gain and success rate, and the crossing is interpolated between groups.

    Pooling instead of dropping the small bins matters for rare bids: superkraak decisions are
    spread thinly over the estimates, so most bins held fewer than ``min_n`` and were dropped,
    leaving too few points (or none) for a crossing although the chart (which draws bins of
    30 and more) showed the curve crossing zero."""
    rows = []
    for (name, level), part in table.group_by("bid", "level", maintain_order=True):
        part = part.sort("estimate_bin")
        centres, gains, rates = _pooled(part, bin_width, min_n)
        rows.append({"bid": name, "level": level, "decisions": int(part["n"].sum()),
                     "break_even_estimate": _crossing(centres, gains, 0.0),
                     "half_success_estimate": _crossing(centres, rates, 0.5)})
    return pl.DataFrame(rows, schema={"bid": pl.String, "level": pl.Int8, "decisions": pl.Int64,
                                      "break_even_estimate": pl.Float64,
                                      "half_success_estimate": pl.Float64}).sort("level")


def _pooled(part: pl.DataFrame, bin_width: float, min_n: int) -> tuple[list, list, list]:
    """(centres, mean gains, success rates) of groups of adjacent bins with >= min_n decisions."""
    groups: list[list[float]] = []  # [n, sum n*centre, sum n*gain, sum n*rate]
    current = [0.0, 0.0, 0.0, 0.0]
    for n, b, gain, rate in part.select("n", "estimate_bin", "gain_mean", "rate").iter_rows():
        if not n or gain is None or rate is None:
            continue
        current = [current[0] + n, current[1] + n * (b + bin_width / 2), current[2] + n * gain,
                   current[3] + n * rate]
        if current[0] >= min_n:
            groups.append(current)
            current = [0.0, 0.0, 0.0, 0.0]
    if current[0] > 0:
        if groups:
            groups[-1] = [a + b for a, b in zip(groups[-1], current)]
        else:
            groups.append(current)
    if groups and groups[-1][0] < min_n:  # all decisions together are fewer than min_n
        return [], [], []
    return ([g[1] / g[0] for g in groups], [g[2] / g[0] for g in groups],
            [g[3] / g[0] for g in groups])


def _crossing(xs: list[float], ys: list[float], level: float) -> float:
    """Where ``ys`` last rises through ``level`` (linear interpolation), NaN if it never does."""
    found = float("nan")
    for i in range(1, len(xs)):
        a, b = ys[i - 1] - level, ys[i] - level
        if a <= 0 < b:
            found = xs[i - 1] + (xs[i] - xs[i - 1]) * (-a / (b - a) if b != a else 0.0)
    if math.isnan(found) and ys and all(y > level for y in ys):
        found = xs[0]  # positive everywhere: break-even at or below the lowest estimate seen
    return found


def estimate_calibration(lf: pl.LazyFrame) -> pl.DataFrame:
    """For each decision (bid, j): the mean estimate against the deciding team's mean card points
    (the quantity the estimate predicts), and the mean error with its standard error."""
    dec = _decisions(lf)
    return (dec.group_by("bid", "level", "j")
            .agg(pl.len().alias("n"), pl.col("estimate").mean().alias("mean_estimate"),
                 pl.col("team_points").cast(pl.Float64).mean().alias("mean_team_points"),
                 *[e for e in mean_exprs(pl.col("team_points") - pl.col("estimate"), "error_")
                   if not e.meta.output_name().endswith("error_n")])
            .sort("level", "j").collect())


# ---------------------------------------------------------------- nat, roem, matches


def nat_rates(lf: pl.LazyFrame) -> pl.DataFrame:
    """Nat rate of the team that had to score more: without a bid, with any bid, and per highest
    bid (contra: the last bidder carries the burden; scorebord: always the playing team)."""
    with_bid = pl.when(pl.col("bid") > 0).then(pl.lit("with a bid")).otherwise(pl.lit("without a bid"))
    overall = lf.select(pl.lit("all deals").alias("deals"), *rate_exprs(pl.col("nat")))
    split = lf.group_by(with_bid.alias("deals")).agg(*rate_exprs(pl.col("nat")))
    per_bid = (lf.filter(pl.col("bid") > 0).with_columns(_final_bid(lf))
               .group_by(pl.format("highest bid {}", pl.col("bid_name")).alias("deals"))
               .agg(*rate_exprs(pl.col("nat"))))
    return pl.concat([overall, split, per_bid]).collect().sort("deals")


def hand_roem_contest(lf: pl.LazyFrame) -> pl.DataFrame:
    """How often any hand meld is held, how often both teams hold one (contested), and how often
    the playing team holds the highest."""
    playing_best = pl.col("meld_team") == _playing()
    held = lf.filter(pl.col("meld_team") >= 0)
    return pl.concat([
        lf.select(pl.lit("a hand meld held").alias("measure"), pl.lit("all deals").alias("among"),
                  *rate_exprs(pl.col("meld_team") >= 0)),
        lf.select(pl.lit("contested (both teams hold one)").alias("measure"),
                  pl.lit("all deals").alias("among"), *rate_exprs(pl.col("contested"))),
        held.select(pl.lit("contested (both teams hold one)").alias("measure"),
                    pl.lit("deals with a meld").alias("among"), *rate_exprs(pl.col("contested"))),
        held.select(pl.lit("playing team holds the highest").alias("measure"),
                    pl.lit("deals with a meld").alias("among"), *rate_exprs(playing_best)),
        held.filter(pl.col("contested")).select(
            pl.lit("playing team holds the highest").alias("measure"),
            pl.lit("contested deals").alias("among"), *rate_exprs(playing_best)),
    ]).collect()


def winning_melds(lf: pl.LazyFrame) -> pl.DataFrame:
    """Which meld wins the hand-roem comparison: share of each winning meld (value and kind),
    among all deals with a meld and among contested deals."""
    kind = pl.when(pl.col("top_meld_four")).then(pl.lit("four of a kind")).otherwise(
        pl.format("run ({})", pl.col("top_meld").replace_strict({20: "3", 50: "4", 100: "5+"},
                                                               default="?", return_dtype=pl.String)))
    meld = pl.format("{} {}", pl.col("top_meld"), kind).alias("meld")
    frames = []
    for among, frame in (("deals with a meld", lf.filter(pl.col("meld_team") >= 0)),
                         ("contested deals", lf.filter(pl.col("contested")))):
        counts = frame.group_by(pl.col("top_meld"), meld).agg(pl.len().alias("hits"))
        total = frame.select(pl.len().alias("n"))
        frames.append(counts.join(total, how="cross").with_columns(
            pl.lit(among).alias("among"), *wilson_columns()))
    return (pl.concat(frames).select("among", "top_meld", "meld", "n", "hits", "rate", "lo", "hi")
            .sort("among", "top_meld", "meld").collect())


def crosses_per_match(matches: pl.LazyFrame) -> pl.DataFrame:
    """Distribution of penalty crosses per team per match (contra), pooled over both teams."""
    long = pl.concat([matches.select(pl.col(f"crosses_{t}").cast(pl.Int64).alias("crosses"))
                      for t in range(2)])
    counts = long.group_by("crosses").agg(pl.len().alias("hits"))
    return (counts.join(long.select(pl.len().alias("n")), how="cross").with_columns(wilson_columns())
            .select("crosses", "n", "hits", "rate", "lo", "hi").sort("crosses").collect())


def crosses_summary(matches: pl.LazyFrame) -> pl.DataFrame:
    """Mean crosses per team per match, of the winner and of the loser, and the draw rate."""
    t0, t1 = pl.col("crosses_0").cast(pl.Int64), pl.col("crosses_1").cast(pl.Int64)
    winner = pl.when(pl.col("winner") == 0).then(t0).otherwise(t1)
    loser = pl.when(pl.col("winner") == 0).then(t1).otherwise(t0)
    decided = matches.filter(pl.col("winner") >= 0)
    return pl.concat([
        pl.concat([matches.select(t0.alias("x")), matches.select(t1.alias("x"))]).select(
            pl.lit("crosses per team").alias("measure"), *mean_exprs(pl.col("x"))),
        decided.select(pl.lit("crosses of the winner").alias("measure"), *mean_exprs(winner)),
        decided.select(pl.lit("crosses of the loser").alias("measure"), *mean_exprs(loser)),
    ]).collect().join(matches.select(*rate_exprs(pl.col("winner") < 0, "draw_")).collect(), how="cross")


def match_win_by_activity(matches: pl.LazyFrame) -> pl.DataFrame:
    """Match win rate of the team that declared more deals, and of the team that bid more, over
    the matches where the two teams differ (draws count as not won)."""
    frames = []
    for what in ("declared", "bids"):
        more = pl.when(pl.col(f"{what}_0") > pl.col(f"{what}_1")).then(0).otherwise(1)
        differ = matches.filter(pl.col(f"{what}_0") != pl.col(f"{what}_1"))
        frames.append(differ.select(pl.lit(f"{what} more").alias("team"),
                                    *rate_exprs(pl.col("winner") == more),
                                    *rate_exprs(pl.col("winner") < 0, "draw_")))
    return pl.concat(frames).filter(pl.col("n") > 0).collect()


def match_summary(matches: pl.LazyFrame) -> pl.DataFrame:
    """Deals per match and the totals, as means with standard errors; win shares of teams 0/1."""
    totals = pl.concat([matches.select(pl.col(f"total_{t}").cast(pl.Int64).alias("x")) for t in range(2)])
    return pl.concat([
        matches.select(pl.lit("deals per match").alias("measure"), *mean_exprs(pl.col("deals").cast(pl.Int64))),
        totals.select(pl.lit("total per team").alias("measure"), *mean_exprs(pl.col("x"))),
        matches.select(pl.lit("team 0 wins").alias("measure"), *mean_exprs((pl.col("winner") == 0).cast(pl.Int64))),
    ]).collect()


def all_tables(lf: pl.LazyFrame, matches: pl.LazyFrame | None = None,
               options: dict | None = None) -> dict[str, pl.DataFrame]:
    """Every Kraken statistic of a run, by table name."""
    options = options or {}
    tables = {
        "bid_rates": bid_rates(lf),
        "bid_success": bid_success(lf),
        "bids_by_trump": bids_by_trump(lf),
        "bids_by_declarer": bids_by_declarer(lf),
        "bids_by_estimate": bids_by_estimate(lf),
        "bid_value_by_estimate": bid_value_by_estimate(lf, options),
        "bid_break_even": bid_break_even(lf, options),
        "estimate_calibration": estimate_calibration(lf),
        "nat_rates": nat_rates(lf),
        "hand_roem_contest": hand_roem_contest(lf),
        "winning_melds": winning_melds(lf),
    }
    if matches is not None:
        tables["match_summary"] = match_summary(matches)
        tables["match_win_by_activity"] = match_win_by_activity(matches)
        if _is_contra(lf):
            tables["crosses_per_match"] = crosses_per_match(matches)
            tables["crosses_summary"] = crosses_summary(matches)
    return tables


def headlines(deals: pl.LazyFrame, matches: pl.LazyFrame | None) -> list:
    """The figures a Kraken report opens with and `simcards compare` compares."""
    from simcards.present.summary import Headline

    names = bid_names(deals)
    contra = names == CONTRA_BIDS
    out = [
        Headline("kraak", "The defenders kraak in {rate} of deals {ci}", pl.col("bid") >= 1, bots=True),
        Headline("kraak_won", "A kraak that stays the highest bid wins in {rate} of those deals {ci}",
                 pl.when(pl.col("bid") == 1).then(pl.col("bid_won") == 1), bots=True),
        Headline(names[1], f"The playing team answers with a {names[1]} in {{rate}} of deals {{ci}}",
                 pl.col("bid") >= 2, bots=True),
        Headline("nat", "The team that had to score more goes nat in {rate} of deals {ci}",
                 pl.col("nat"), bots=True),
        Headline("hand_meld", "A team holds a hand meld (stuk left out) in {rate} of deals {ci}",
                 pl.col("meld_team") >= 0),
        Headline("contested", "Both teams hold a hand meld in {rate} of deals {ci}",
                 pl.col("contested")),
    ]
    if "dd_margin" in deals.collect_schema().names():
        from simcards.games.klaverjas.stats import perfect_play_headlines

        out += perfect_play_headlines("team that must score more")
    if contra:
        out.append(Headline("superkraak", "The defenders superkraak in {rate} of deals {ci}",
                            pl.col("bid") >= 3, bots=True))
    if matches is not None:
        if contra:
            out.append(Headline("draw", "A 16-deal match ends level on crosses in {rate} of "
                                "matches {ci}", pl.col("winner") < 0, frame="matches",
                                key_columns=("match_index",), bots=True))
        else:
            out.append(Headline("deals_per_game", "A game to 250 lasts {rate} deals on average {ci}",
                                pl.col("deals").cast(pl.Float64), frame="matches", kind="mean",
                                key_columns=("match_index",), bots=True))
    return out


# ---- against perfect play (the double_dummy option's columns)


def kraak_perfect_by_estimate(lf: pl.LazyFrame, bin_width: float = 5.0) -> pl.DataFrame:
    """For each bin of a kraak decider's estimate (both defenders' decisions, bid or pass): the
    rate at which a kraak would be won under perfect play (``dd_kraak_wins``) and with the bots'
    play (``would_win_kraak``)."""
    name = bid_names(lf)[0]  # the kraak
    frames = [lf.filter(pl.col(f"est_{name}_{j}").is_not_nan()).select(
        pl.col(f"est_{name}_{j}").cast(pl.Float64).alias("estimate"),
        pl.col("dd_kraak_wins"), pl.col(f"would_win_{name}").alias("bots_win")) for j in (1, 2)]
    dec = pl.concat(frames).with_columns(_bin(bin_width))
    out = []
    for play, flag in (("perfect", pl.col("dd_kraak_wins")), ("bots", pl.col("bots_win"))):
        out.append(dec.group_by("estimate_bin").agg(*rate_exprs(flag))
                   .with_columns(pl.lit(play).alias("play")))
    return pl.concat(out).sort("play", "estimate_bin").collect()


def kraak_half_success(table: pl.DataFrame, bin_width: float = 5.0, min_n: int = 50) -> pl.DataFrame:
    """Per play (perfect, bots): the estimate where a kraak's success rate passes 1/2 (bins
    pooled as in `break_even_from_table`), NaN when it never does."""
    rows = []
    for (play,), part in table.group_by("play", maintain_order=True):
        part = part.sort("estimate_bin").with_columns(pl.col("rate").alias("gain_mean"))
        centres, _, rates = _pooled(part, bin_width, min_n)
        rows.append({"play": play, "decisions": int(part["n"].sum()),
                     "half_success_estimate": _crossing(centres, rates, 0.5)})
    return pl.DataFrame(rows, schema={"play": pl.String, "decisions": pl.Int64,
                                      "half_success_estimate": pl.Float64}).sort("play")
