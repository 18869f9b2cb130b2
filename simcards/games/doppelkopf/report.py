"""Report sections of Doppelkopf runs: game types and the Re win rate, announcements and what
they are worth, solos and marriages, special points, scores."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from simcards.games.doppelkopf import calls, stats
from simcards.present import charts, fmt, seats
from simcards.present.render import Figure, Section, Table

RATE_COLUMNS = ["n", "hits", "rate", "lo", "hi"]
# deals the duplicate measurement of the calls plays (7 times each): a few seconds of work
CALL_DEALS = 40_000


def _both_queens_note(table: pl.DataFrame) -> str:
    row = table.row(0, named=True)
    return (f"Sanity check of the deal: one player holds both club queens in 23.4% of random deals "
            f"(exactly 11/47 = {fmt.pct(row['exact'])}); this run's deals: "
            f"{fmt.rate_ci(row['rate'], row['lo'], row['hi'])} of {fmt.count(row['n'])}.")


def sections(tables: dict[str, pl.DataFrame], out_dir: Path) -> list[Section]:
    charts.rate_bars(tables["game_types"], "game", out_dir / "game_types.png",
                     title="Game types", xlabel="game played",
                     ylabel="share of deals (%, log scale: the solos are rare)", log=True)
    charts.rate_bars(tables["announcements"].filter(pl.col("hits") > 0), "call",
                     out_dir / "announcements.png", title="Announcements",
                     xlabel="call (Absagen count their passed-over levels too)",
                     ylabel="share of deals (%)")
    charts.rate_curve(tables["success_by_estimate"], "estimate_bin", out_dir / "success_by_estimate.png",
                      title="A seat's party wins, by the seat's hand estimate (normal games)",
                      xlabel="hand estimate (expected Augen of the party, bin start)",
                      ylabel="party wins (%)", series="seats")
    charts.histogram(tables["score_distribution"], out_dir / "score_hist.png",
                     title="Re's unit score per deal", xlabel="points per Re player (the soloist "
                     "scores 3x)", bin_width=1)
    threshold = stats.supported_threshold(tables["success_by_estimate"])
    threshold_note = (f"From a hand estimate of {threshold} Augen on, a seat's party wins more "
                      f"often than it loses (bins of at least 200 seats): a Re or Kontra call, "
                      f"which adds 2 points to whichever side wins, pays from about there."
                      if threshold is not None else
                      "No estimate bin with enough seats has its party winning more often than not.")
    summary = tables["score_summary"]
    seat_rows = summary.filter(pl.col("who").str.starts_with("seat")).with_columns(
        pl.col("who").str.slice(5).cast(pl.Int64).alias("seat"))
    return [
        Section(
            "Games and parties",
            "The holders of the club queens are Re, the others Kontra; a player with both plays a "
            "marriage (its first trick among tricks 1-3 won by another player makes that player "
            "the partner; else it plays alone) unless a solo goes first. Which solos are played "
            "and how often Re wins depend on the bots.",
            figures=[Figure("game_types.png", "Share of deals of each game type, with 95% "
                            "Wilson intervals, on a log scale so that the rare solos show.")],
            notes=[_both_queens_note(tables["both_queens"])],
            tables=[Table("game_types", tables["game_types"],
                          "Game types: share of deals, and Re's win rate in each"),
                    Table("re_win_normal", tables["re_win_normal"],
                          "Re's win rate in normal games, by who announced")]),
        Section(
            "Announcements",
            "Re/Kontra while the announcer holds 11 cards or more (a reply one fewer), no 90 / 60 / "
            "30 / schwarz with 10 / 9 / 8 / 7. A call's value is its party's unit score with the "
            "call, less the same play scored with the party's calls one level lower; it is "
            "measured on the deals where the call was made, so it says whether these bots call "
            "at the right moment, not what a call would earn on every hand.",
            figures=[Figure("announcements.png", "Share of deals with each call (95% intervals)."),
                     Figure("success_by_estimate.png", "Win rate of a seat's party by the seat's "
                            "hand estimate: every seat, and the seats that made their party's "
                            "first call. Band: 95% interval; bins under 30 seats left out.")],
            notes=[threshold_note],
            tables=[Table("announcements", tables["announcements"],
                          "Calls: rate per deal, their party's win rate when made (won_), and the "
                          "mean cards held when made"),
                    Table("call_values", tables["call_values"],
                          "What the highest call of a party gained it per deal (points per "
                          "player, mean ± se)"),
                    Table("success_by_estimate", tables["success_by_estimate"],
                          "Party win rate by hand estimate (normal games)", show=False)]),
        Section(
            "Solos and marriages",
            "A solo player is Re alone against three and scores 3x; a marriage played alone "
            "counts as a solo, a silent marriage is a diamonds solo.",
            tables=[Table("solo_rate", tables["solo_rate"], "Declared solos per deal"),
                    Table("solos", tables["solos"], "Solos by type: share of deals, the "
                          "soloist's win rate and mean score"),
                    Table("marriages", tables["marriages"],
                          "Announced marriages by the trick that found the partner")]),
        Section(
            "Special points",
            "Normal games and marriages with a partner only: a fox (A of diamonds) caught from "
            "the other party, a Doppelkopf (a trick of 40 Augen or more), Karlchen (the J of "
            "clubs wins the last trick), and Kontra winning against the club queens. They count "
            "only for a party that wins, netted against the other side's.",
            tables=[Table("specials", tables["specials"], "Special points: deals where the party "
                          "earned at least one, and the mean per deal")]),
        Section(
            "Scores",
            "Each score row sums to zero. Re's unit score is what each Re player scores (the "
            "soloist 3x, each opponent once).",
            figures=[Figure("score_hist.png", "Re's unit score per deal, normal games and "
                            "marriages apart from solos.")],
            notes=[seats.mean_check(seat_rows, "the mean score")],
            tables=[Table("score_summary", summary, "Mean score per deal (se: standard error)"),
                    Table("score_distribution", tables["score_distribution"],
                          "Deals by Re's unit score", show=False)]),
    ]


def calls_section(game, run, deals: pl.LazyFrame) -> Section:
    """How often each call is made in the run, and what it gains its party in duplicate against
    the same bots that never make it (calls.py), on the run seed's first deals."""
    rates = calls.call_rates(deals)
    text = ("How often each call is made in this run, and what it is worth to its party: the "
            "run seed's first deals are played twice, with the run's bots and with the same bots "
            "whose threshold for that call is out of reach (the call is never made, nor passed "
            "over), everything else decided as before. The gain is the calling party's points "
            "(its players' scores summed; the soloist's own score for the solo) with the call "
            "less without it: per deal over all deals (0 where the call is not made: the deal "
            "plays out the same) and per deal where it is made, each with its 95% interval. No "
            "90, 60 and 30 share one threshold between the parties. The gains measure these bots' "
            "calls at their thresholds, not what a call is worth to a stronger player.")
    try:
        kinds, params = game.resolve_bots(run.manifest["config"]["bots"])
        seed = int(run.manifest["seed"])
    except (KeyError, TypeError, ValueError):
        kinds, seed = None, None
    names = game.bots.param_names
    if kinds is None or any(int(k) != game.bots.kinds["heuristic"] for k in kinds):
        return Section("What the calls gain", text, notes=[
            "The duplicate measurement needs the built-in heuristic at every seat; this run's "
            "rates only."], tables=[Table("call_rates", rates, "Calls made per deal (this run)")])
    bots = [{"kind": "heuristic", "params": dict(zip(names, map(float, row)))} for row in params]
    units = min(CALL_DEALS, max(run.units_done, 1))
    gains = calls.call_gains(game, deals=units, seed=seed, bots=bots)
    runs = 1 + len({c.threshold for c in calls.CALLS})
    table = rates.join(gains.rename({"deals": "duplicate deals", "made": "made in the duplicate"}),
                       on="call", how="left").rename({
                           "gain_mean": "gain per deal", "gain_lo": "gain per deal lo",
                           "gain_hi": "gain per deal hi", "gain_made_mean": "gain where made",
                           "gain_made_lo": "gain where made lo", "gain_made_hi": "gain where made hi"})
    table = table.with_columns(pl.col(pl.Float64).fill_nan(None)).rename(
        {"n": "deals", "hits": "made"})
    shown = ["call", "deals", "made", "rate", "lo", "hi", "made in the duplicate", "gain per deal", "gain per deal lo",
             "gain per deal hi", "gain where made", "gain where made lo", "gain where made hi"]
    cost = (f"The duplicate played {runs} runs of the seed's first {units:,} deals "
            f"({runs * units:,} deals) in {gains['seconds'][0]:.1f} s.")
    return Section("What the calls gain", text, notes=[cost], tables=[
        Table("call_gains", table, "Each call: how often it is made in this run (per deal), and "
              "its party's points with it less without it in duplicate, per deal and per deal "
              "where it is made", columns=shown)])


def build(game, run, out_dir: Path) -> list[Section]:
    deals = run.scan()
    parts = sections(stats.all_tables(deals), out_dir)
    return [*parts[:2], calls_section(game, run, deals), *parts[2:]]
