"""Report sections of Doppelkopf runs: game types and the Re win rate, announcements and what
they are worth, solos and marriages, special points, scores."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from simcards.games.doppelkopf import stats
from simcards.present import charts, fmt, seats
from simcards.present.render import Figure, Section, Table

RATE_COLUMNS = ["n", "hits", "rate", "lo", "hi"]


def _both_queens_note(table: pl.DataFrame) -> str:
    row = table.row(0, named=True)
    return (f"Sanity check of the deal: one player holds both club queens in 23.4% of random deals "
            f"(exactly 11/47 = {fmt.pct(row['exact'])}); this run's deals: "
            f"{fmt.rate_ci(row['rate'], row['lo'], row['hi'])} of {fmt.count(row['n'])}.")


def sections(tables: dict[str, pl.DataFrame], out_dir: Path) -> list[Section]:
    charts.rate_bars(tables["game_types"], "game", out_dir / "game_types.png",
                     title="Game types", xlabel="game played", ylabel="share of deals (%)")
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
                            "Wilson intervals.")],
            notes=[_both_queens_note(tables["both_queens"])],
            tables=[Table("game_types", tables["game_types"],
                          "Game types: share of deals, and Re's win rate in each"),
                    Table("re_win_normal", tables["re_win_normal"],
                          "Re's win rate in normal games, by who announced (neither: both parties "
                          "missed an Absage)")]),
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


def build(game, run, out_dir: Path) -> list[Section]:
    deals = run.scan()
    return sections(stats.all_tables(deals), out_dir)
