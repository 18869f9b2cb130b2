"""Report sections of Skat runs: the contract mix and the declarer's win rates beside
Skat-Online's tournament figures, the auction (passed-in deals, bids, values, overbids),
Schneider, Schwarz, Hand and Ouvert, when a hand is worth bidding (win rate and margin against
the bidding estimate), and how the bots' play compares with random play on the same games."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only, no screen
import matplotlib.pyplot as plt
import numpy as np
import polars as pl

from simcards.games.skat import stats
from simcards.manifest import done_entries
from simcards.present import charts, fmt
from simcards.present.render import Figure, Section, Table
from simcards.present.summary import replay_pointer

RATE_COLUMNS = ["n", "hits", "rate", "lo", "hi"]
REF = stats.SOURCE
# the reference columns as a report shows them: named by their source and sample size
REF_COLUMN = stats.SKAT_ONLINE.label
PLAY_CHECK_DEALS = 20_000  # deals of the run whose games are played again with other bots


def _referenced(frame: pl.DataFrame) -> pl.DataFrame:
    return frame.rename({"reference": REF_COLUMN}) if "reference" in frame.columns else frame


def all_tables(deals: pl.LazyFrame) -> dict[str, pl.DataFrame]:
    return {
        "passed_in": stats.passed_in_rate(deals),
        "contract_mix": stats.contract_mix(deals),
        "win_rate_by_contract": stats.win_rate_by_contract(deals),
        "win_rate_by_position": stats.win_rate_by_position(deals),
        "declarer_position": stats.declarer_share_by_position(deals),
        "schneider_schwarz": stats.schneider_schwarz(deals),
        "hand_ouvert": stats.hand_and_ouvert(deals),
        "overbid": stats.overbid_rate(deals),
        "final_bids": stats.distribution(deals, "final_bid"),
        "game_values": stats.distribution(deals, "game_value"),
        "bid_value_means": stats.bid_and_value_summary(deals),
        "win_by_declare_estimate": stats.win_rate_by_estimate(deals, "declare_est"),
        "win_by_bid_estimate": stats.win_rate_by_estimate(deals, "bid_est"),
    }


def _rate_text(frame: pl.DataFrame) -> str:
    row = frame.row(0, named=True)
    return fmt.rate_ci(row["rate"], row["lo"], row["hi"]) + f" of {row['n']:,}"


def _estimate_chart(table: pl.DataFrame, path: Path, title: str, thresholds: list[float]) -> None:
    """Win rate (with its 95% band) against the estimate, the calibration diagonal, the
    break-even estimate of the declarer's margin and the bots' thresholds."""
    fig, ax = plt.subplots(figsize=(7, 4))
    part = table.filter(pl.col("n") >= 30).sort("estimate_bin")
    if part.height:
        x = part["mean_estimate"].to_numpy() * 100
        ax.plot(x, part["rate"].to_numpy() * 100, marker="o", ms=3, label="declarer wins")
        ax.fill_between(x, part["lo"].to_numpy() * 100, part["hi"].to_numpy() * 100, alpha=0.25)
    ax.plot([0, 100], [0, 100], color="#888", lw=0.8, ls=":", label="estimate = win rate")
    even = stats.break_even_estimate(table)
    if even is not None:
        ax.axvline(even * 100, color="#222", lw=1.2, label=f"margin > 0 from {even:.0%}")
    for k, t in enumerate(thresholds):
        ax.axvline(t * 100, color="#C44E52", lw=1, ls="--", label="bots' thresholds" if k == 0 else None)
    charts.percent_axis(ax)
    charts.finish(fig, ax, path, title, "estimate (%)", "declarer wins")


def _thresholds(game, run) -> list[float]:
    try:
        _, params = game.resolve_bots(run.manifest["config"]["bots"])
    except (KeyError, TypeError, ValueError):
        return []
    names = game.bots.param_names
    return sorted({float(v) for name in ("suit_threshold", "grand_threshold", "null_threshold")
                   for v in params[:, names.index(name)]})


def play_check(game, run) -> pl.DataFrame | None:
    """The first games of the run played again from the same declarations: heuristic
    declarer and defenders, a random declarer, random defenders."""
    try:
        deals = run.scan().filter(pl.col("deal_index") < PLAY_CHECK_DEALS).collect()
        seed = int(run.manifest["seed"])
    except (KeyError, TypeError, ValueError):
        return None
    deals = deals.filter(pl.col("contract") >= 0)
    if deals.height == 0:
        return None
    rows = []
    for label, declarer_bot, defender_bot in (("heuristic declarer, heuristic defenders", "heuristic", "heuristic"),
                                              ("random declarer, heuristic defenders", "random", "heuristic"),
                                              ("heuristic declarer, random defenders", "heuristic", "random")):
        parts = []
        for seat in range(3):
            games = deals.filter(pl.col("declarer") == seat)
            bots = [declarer_bot if s == seat else defender_bot for s in range(3)]
            parts.append(game.play_declared(games, seed, bots))
        played = pl.concat(parts).lazy()
        rate = played.select(*stats.rate_exprs(pl.col("won"))).collect()
        points = played.select(*stats.mean_exprs(pl.col("points_declarer"), prefix="points_")).collect()
        rows.append(pl.concat([pl.DataFrame({"bots": [label]}), rate, points], how="horizontal"))
    return pl.concat(rows)


def build(game, run, out_dir: Path) -> list[Section]:
    deals = run.scan()
    t = all_tables(deals)
    mix, wins = t["contract_mix"], t["win_rate_by_contract"]
    if mix.height:
        charts.rate_bars(mix, "contract", out_dir / "contract_mix.png", title="Contract mix of the games played",
                         xlabel="contract", ylabel="share of games", exact="reference",
                         exact_label=REF_COLUMN)
        charts.rate_bars(wins, "contract", out_dir / "win_rate_by_contract.png",
                         title="The declarer's win rate", xlabel="contract", ylabel="declarer wins",
                         exact="reference", exact_label=REF_COLUMN)
    sections = [Section(
        "Contracts and the declarer's wins",
        f"Which games the declarers chose, and how often they won them, beside {REF} (black marks). "
        f"Passed in: {_rate_text(t['passed_in'])} deals (Skat-Online 4.9%). The source gives "
        "the suit games' win rates as 77.5-77.9% together; they are spread over the four suits here.",
        figures=[Figure("contract_mix.png", "Share of each contract among the games played, 95% Wilson "
                        f"intervals; black: {REF}."),
                 Figure("win_rate_by_contract.png", "Declarer's win rate per contract, 95% Wilson "
                        f"intervals; black: {REF}.")],
        tables=[Table("passed_in", _referenced(t["passed_in"]), "Deals passed in (all pass), of all deals",
                      percent=(REF_COLUMN,)),
                Table("contract_mix", _referenced(mix), "Contract mix of the games played", percent=(REF_COLUMN,)),
                Table("win_rate_by_contract", _referenced(wins), "Declarer wins per contract", percent=(REF_COLUMN,)),
                Table("win_rate_by_position", t["win_rate_by_position"],
                      "Declarer wins by his position at the table and by seat, with the mean final bid"),
                Table("declarer_position", t["declarer_position"],
                      "Who becomes declarer: share of games by position")],
    )]
    bids = t["final_bids"].rename({"final_bid": "bin"}).with_columns(pl.lit("final bid").alias("series"))
    values = t["game_values"].rename({"game_value": "bin"}).with_columns(pl.lit("game value").alias("series"))
    if bids.height:
        charts.histogram(pl.concat([bids.select("bin", "count", "series"), values.select("bin", "count", "series")]),
                         out_dir / "bids_and_values.png", title="Final bids and game values",
                         xlabel="value", series="series", ylabel="share of games", bin_width=1)
    sections.append(Section(
        "The auction: bids, values and overbids",
        "The bid the declarer plays for and the value his game reached. A game is overbid when its "
        f"value stays below the bid (it is lost at the bid's value): {_rate_text(t['overbid'])} games.",
        figures=[Figure("bids_and_values.png", "Distribution of final bids and of game values "
                        "(as played, before the overbid rule).")] if bids.height else [],
        tables=[Table("overbid", t["overbid"], "Overbid games"),
                Table("bid_value_means", t["bid_value_means"], "Final bid and values, means"),
                Table("final_bids", t["final_bids"], "Final bids"),
                Table("game_values", t["game_values"], "Game values")],
    ))
    sections.append(Section(
        "Schneider, Schwarz, Hand and Ouvert",
        "Schneider: a party with 30 card points or fewer; Schwarz: a party without a trick (suit "
        "and Grand games; either party counts). Hand games leave the Skat untouched; Ouvert games "
        f"show the declarer's hand. References: {REF}.",
        tables=[Table("schneider_schwarz", _referenced(t["schneider_schwarz"]), "Schneider and Schwarz by game family",
                      percent=(REF_COLUMN,)),
                Table("hand_ouvert", _referenced(t["hand_ouvert"]), "Hand and Ouvert games: share and win rate",
                      percent=(REF_COLUMN,))],
    ))
    thresholds = _thresholds(game, run)
    figures = []
    for name, title in (("win_by_declare_estimate", "Win rate against the declarer's estimate of his game"),
                        ("win_by_bid_estimate", "Win rate against the declarer's bidding estimate")):
        if t[name].height:
            _estimate_chart(t[name], out_dir / f"{name}.png", title, thresholds)
            figures.append(Figure(f"{name}.png", title + ": 95% band, the calibration diagonal, the "
                                  "estimate from which the declarer's Seeger-Fabian margin stays "
                                  "positive (solid) and the bots' thresholds (dashed)."))
    even = stats.break_even_estimate(t["win_by_bid_estimate"]) if t["win_by_bid_estimate"].height else None
    sections.append(Section(
        "When is a hand worth bidding?",
        "The heuristic bidder estimates its chance to win each game its hand could play and bids up "
        "to the highest value among games whose estimate clears that family's threshold. Here is "
        "what the data say about those estimates: the declarer's win rate per 5% of estimate and his "
        "margin (his Seeger-Fabian score minus the defenders' mean). "
        + (f"The margin stays positive from a bidding estimate of {even:.0%}: the threshold the data "
           "support." if even is not None else "No estimate bin has enough games for a break-even.")
        + (" Bots' family thresholds: " + ", ".join(f"{v:.0%}" for v in thresholds) + "." if thresholds else ""),
        figures=figures,
        tables=[Table("win_by_bid_estimate", t["win_by_bid_estimate"], "By bidding estimate"),
                Table("win_by_declare_estimate", t["win_by_declare_estimate"], "By declaration estimate")],
    ))
    check = play_check(game, run)
    if check is not None:
        sections.append(Section(
            "How much the bots' play is worth",
            f"The games of the run's first {PLAY_CHECK_DEALS:,} deals played again from the same "
            "declarations (same cards, contract, discard) with other bots at the declarer's or the "
            "defenders' seats: the declarer's win rate and card points.",
            tables=[Table("play_check", check, "Same games, other bots")],
        ))
    perfect = perfect_play_section(deals, out_dir, run)
    duplicate = pimc_section(game, run)
    return sections + [s for s in (perfect, duplicate) if s is not None]


# ---- the pimc bot in duplicate


def duplicate_against_heuristic(game, run) -> tuple[int, pl.DataFrame] | None:
    """When one seat of the run plays pimc: (that seat, `stats.duplicate_differences` of the
    run against the same deals replayed with the heuristic bot at that seat). Pimc bids,
    declares and discards as the heuristic, so both play the same games; only the card play
    differs. None for other runs."""
    try:
        kinds, params = game.resolve_bots(run.manifest["config"]["bots"])
        seed = int(run.manifest["seed"])
    except (KeyError, TypeError, ValueError):
        return None
    pimc = game.bots.kinds["pimc"]
    seats = [s for s in range(game.n_seats) if kinds[s] == pimc]
    if len(seats) != 1:
        return None
    replay_kinds = np.where(kinds == pimc, game.bots.kinds["heuristic"], kinds)
    replay_game = game.comparison_game()  # no perfect-play columns: they are not compared
    columns = ["deal_index", "declarer", "score_0", "score_1", "score_2"]
    pimc_deals = run.scan().select(columns).collect()
    replayed = [replay_game._simulate_frames(seed, int(entry["start"]), int(entry["n"]),
                                             replay_kinds, params)["deals"].select(columns)
                for entry in done_entries(run.manifest)]
    both = pimc_deals.join(pl.concat(replayed).drop("declarer"), on="deal_index",
                           suffix="_heuristic")
    return seats[0], stats.duplicate_differences(both, seats[0])


def pimc_answer(seat: int, table: pl.DataFrame, scoring: str) -> str:
    """The duplicate result in plain words."""
    rows = {row["deals"].split(":")[0]: row for row in table.iter_rows(named=True)}
    every = rows["every deal"]
    word = ("better" if every["lo"] > 0 else "worse" if every["hi"] < 0
            else "no difference shown at this size")
    role = {key: (fmt.interval(r["mean_difference"], r["lo"], r["hi"], signed=True), fmt.count(r["n"]))
            for key, r in rows.items()}
    declaring, defending = role["its games as declarer"], role["its games as defender"]
    return (f"With pimc at seat {seat}, the seat's margin (its score minus the mean of the "
            f"other two seats') is {fmt.interval(every['mean_difference'], every['lo'], every['hi'], signed=True)} "
            f"{scoring} points a deal against the heuristic bot there on the same deals "
            f"({fmt.count(every['n'])} deals, 95% interval): {word}. As declarer its own score "
            f"changes by {declaring[0]} a game ({declaring[1]} games); as defender it keeps "
            f"{defending[0]} more points a game from the declarer ({defending[1]} games).")


def pimc_section(game, run) -> Section | None:
    duplicate = duplicate_against_heuristic(game, run)
    if duplicate is None:
        return None
    seat, table = duplicate
    scoring = run.options.get("scoring", "list")
    return Section(
        "Pimc in duplicate",
        "The pimc bot plays its cards by search: at each card it deals the cards it cannot see "
        "many times, finds for each such deal the score perfect play from there settles at after "
        "each of its cards, and plays the card with the best mean. It bids, declares and "
        "discards as the heuristic bot. Its strength is measured in duplicate: the same deals "
        "replayed with the heuristic bot at its seat, so both play the same games and only the "
        "card play differs. Differences are pimc minus heuristic, per deal.",
        headlines=[pimc_answer(seat, table, scoring)],
        tables=[Table("pimc_duplicate", table, "Pimc minus heuristic on the same deals, per "
                      "deal or game, with its 95% interval (se: standard error)")])


# ---- against perfect play: the double_dummy option's columns


def perfect_play_section(deals: pl.LazyFrame, out_dir: Path, run=None) -> Section | None:
    """The "Against perfect play" section: the declarer's win rate under perfect play beside the
    bots', per game family, and the bots' declarer points against perfect play's."""
    if not stats.has_perfect_play(deals):
        return None
    wins = stats.wins_perfect_vs_bots(deals)
    summary = stats.points_gap_summary(deals)
    sides = stats.points_gap_sides(deals)
    gap = stats.points_gap_distribution(deals)
    lost = stats.lost_points_summary(deals) if stats.has_lost_points(deals) else None
    figures = []
    if gap.height:
        ends = charts.binned_bars(gap, out_dir / "perfect_play_gap.png",
                                  title="Bots' declarer points minus perfect play's (suit and Grand)",
                                  xlabel="points difference (bins of 10)",
                                  ylabel="share of games (%)", unit="game")
        figures.append(Figure("perfect_play_gap.png", "Share of suit and Grand games by the "
                              "declarer's card points with the bots minus his points under perfect "
                              "play, with 95% intervals; below 0 the bots' declarer ended below "
                              "perfect play." + ends))
    text = ("Perfect play is the double-dummy solver's: every hand open, the declarer and the two "
            "defenders together playing the declared game from its first card to the best end for "
            "their side (the declarer's card points, the Skat included; in Null whether he takes a "
            "trick). A game is won under perfect play when that play makes what settlement asks of "
            "the card play: 61 points, 90 where Schneider was announced or the bid needs the "
            "Schneider level, every trick where Schwarz was. Along the cards the bots played, the "
            "solver also values every position: a card that lowers the declarer's perfect-play "
            "points from there gave them away if the declarer played it, a card that raises them "
            "gave them away if a defender did; summed per side, the two account exactly for the "
            "gap between the bots' declarer points and perfect play's. The bidding, the Skat "
            "pickup, the discard and the declaration are the bots' in both columns, so every rate here depends "
            "on the bots' choice of games; given those games the perfect-play figure is exact. The "
            "bots play with their own hands only: perfect play is a bound on good play, not a bot "
            "to copy, and the bots' declarer can beat it when the defenders err.")
    if lost is not None and run is not None:
        text += replay_pointer(run, deals, ("dd_lost_declarer", "dd_lost_defenders"),
                               "card points between the two sides")
    lost_table = [] if lost is None else [
        Table("perfect_play_lost", lost, "Card points each side's play gave away against perfect "
              "play, a suit or Grand game on average (se: standard error); share_nothing_lost: "
              "games in which it gave nothing away")]
    return Section("Against perfect play", text, figures=figures,
                   headlines=perfect_play_answers(wins, summary, sides, lost),
                   tables=[Table("perfect_play_wins", wins, "The declarer's win rate under perfect "
                                 "play and with the bots, by game family",
                                 ["games", "play", *RATE_COLUMNS]),
                           Table("perfect_play_points", summary, "Mean declarer points per suit or "
                                 "Grand game (se: standard error)"),
                           Table("perfect_play_sides", sides, "Suit and Grand games the bots' "
                                 "declarer ends above, level with or below perfect play"),
                           *lost_table,
                           Table("perfect_play_gap", gap, "Bots' declarer points minus perfect "
                                 "play's", show=False)])


def perfect_play_answers(wins: pl.DataFrame, summary: pl.DataFrame, sides: pl.DataFrame,
                         lost: pl.DataFrame | None = None) -> list[str]:
    """The section's answers in plain words: the win rate under perfect play beside the bots'
    per family, how far the bots' declarer points lie from perfect play's, and (runs with the
    loss columns) how much of that each side's card play gave away."""
    rate = {(row["games"], row["play"]): row for row in wins.iter_rows(named=True)}
    out = []
    for family, label in (("all", "all games"), ("grand", "Grand"), ("suit", "suit games"),
                          ("null", "Null")):
        if (family, "perfect") not in rate:
            continue
        perfect, bots = rate[(family, "perfect")], rate[(family, "bots")]
        out.append(f"{label}: the declarer wins {fmt.rate_ci(perfect['rate'], perfect['lo'], perfect['hi'])} "
                   f"of {fmt.count(perfect['n'])} under perfect play, "
                   f"{fmt.rate_ci(bots['rate'], bots['lo'], bots['hi'])} with the bots.")
    gap = {row["points"]: row for row in summary.iter_rows(named=True)}
    if gap["bots - perfect"]["n"]:
        diff, size = gap["bots - perfect"], gap["|bots - perfect|"]
        side = {row["bots_vs_perfect"]: row for row in sides.iter_rows(named=True)}
        below, above = side["below"], side["above"]
        out.append(f"In suit and Grand games the bots' declarer ends {fmt.mean_se(diff['mean'], diff['se'], signed=True)} "
                   f"card points from perfect play on average ({fmt.mean_se(size['mean'], size['se'])} "
                   f"either way): below it in {fmt.rate_ci(below['rate'], below['lo'], below['hi'])} "
                   f"of games, above it in {fmt.rate_ci(above['rate'], above['lo'], above['hi'])} "
                   "(the defenders' errors).")
    if lost is not None and lost["n"][0]:
        out.append(_lost_answer(lost))
    out.append("Depends on the bots: the games (bids, Skat, declarations) and the bots' column; "
               "exact for those games: the perfect-play column.")
    return out


def _lost_answer(lost: pl.DataFrame) -> str:
    """What each side's card play gave away against perfect play, in plain words."""
    said = {row["side"]: (fmt.mean_se(row["mean"], row["se"]), fmt.pct(row["share_nothing_lost"]))
            for row in lost.iter_rows(named=True)}
    (declarer, declarer_clean), (defenders, defenders_clean) = said["declarer"], said["defenders"]
    return (f"The bots' card play leaves points on the table: against perfect play from each "
            f"position the declarer gives away {declarer} card points a suit or Grand game, the "
            f"defenders {defenders} (nothing at all in {declarer_clean} and {defenders_clean} of "
            "games; depends on the bots).")
