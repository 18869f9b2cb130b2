"""Report sections of Kraken runs (`kraken-contra`, `kraken-scorebord`): bids and their success,
bids against the bidder's estimate with the break-even line, nat, roem in the hand, matches."""

from __future__ import annotations

import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only, no screen
import matplotlib.pyplot as plt
import polars as pl

from simcards.games.kraken import stats as stats
from simcards.dataset import DatasetError
from simcards.present import charts, fmt, seats
from simcards.present.render import Figure, Section, Table

RATE_COLUMNS = ["n", "hits", "rate", "lo", "hi"]
MIN_N = 30


def _thresholds(game, run) -> dict[str, list[float]]:
    """Each bid's thresholds over the seats of the run's bots ({} if they cannot be read)."""
    try:
        _, params = game.resolve_bots(run.manifest["config"]["bots"])
        names = game.bots.param_names
        return {bid: sorted({float(v) for v in params[:, names.index(f"{bid}_threshold")]})
                for bid in game.bid_names[1:]}
    except (KeyError, TypeError, ValueError):  # an old or hand-edited manifest: no threshold lines
        return {}


def _estimate_chart(table: pl.DataFrame, value: str, path: Path, title: str, ylabel: str,
                    break_even: pl.DataFrame, thresholds: dict[str, list[float]],
                    scale: float = 1.0, reference: float | None = None) -> None:
    """One panel per bid: ``value`` against the estimate bin centre, with a 95% band, the
    break-even estimate (solid) and the bots' thresholds (dashed)."""
    bids = table["bid"].unique(maintain_order=True).to_list()
    fig, axes = plt.subplots(1, len(bids), figsize=(4.2 * len(bids), 3.8), squeeze=False)
    for ax, bid in zip(axes[0], bids):
        part = table.filter((pl.col("bid") == bid) & (pl.col("n") >= MIN_N)).sort("estimate_bin")
        if part.height:
            x = part["estimate_bin"].to_numpy() + 2.5
            if value == "rate":
                y, lo, hi = (part[c].to_numpy() * scale for c in ("rate", "lo", "hi"))
            else:
                y = part["gain_mean"].to_numpy()
                se = part["gain_se"].fill_null(0.0).to_numpy()
                lo, hi = y - 1.96 * se, y + 1.96 * se
            ax.plot(x, y, marker="o", ms=3, color="#4C78A8", label="simulated")
            ax.fill_between(x, lo, hi, alpha=0.25, color="#4C78A8", label="95% band")
        if reference is not None:
            ax.axhline(reference, color="#888", lw=0.8)
        row = break_even.filter(pl.col("bid") == bid)
        if row.height and not math.isnan(row["break_even_estimate"][0]):
            ax.axvline(row["break_even_estimate"][0], color="#D62728", lw=1.4, label="break-even")
        for k, t in enumerate(thresholds.get(bid, [])):
            ax.axvline(t, color="#222", ls="--", lw=1, label="bots' threshold" if k == 0 else None)
        if not part.height:
            ax.text(0.5, 0.5, f"fewer than {MIN_N} decisions\nin every estimate bin",
                    transform=ax.transAxes, ha="center", va="center", color="#555")
        ax.set_title(bid)
        ax.set_xlabel("bidder's estimate (team card points)")
        ax.grid(alpha=0.3)
        if scale == 100.0:
            charts.percent_axis(ax)
    axes[0][0].set_ylabel(ylabel)
    handles = {}
    for ax in axes[0]:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(lab, h)
    if handles:  # one legend for every panel, below them, off the data
        fig.legend(handles.values(), handles.keys(), loc="lower center", ncol=len(handles),
                   frameon=False, bbox_to_anchor=(0.5, -0.02))
    fig.suptitle(title)
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    fig.savefig(path, dpi=charts.DPI, bbox_inches="tight")
    plt.close(fig)


def _multiplier_note(options: dict) -> str:
    """What ``bid_multiplies_points`` does in this run (the source is silent on it)."""
    if options.get("bid_multiplies_points", True):
        return (" Here a bid multiplies the deal's card points in the score (kraak x2, rekraak x4, "
                "superkraak x8; bid_multiplies_points = true): a bid raises the points at stake and "
                "so the totals that decide the end-of-match crosses, besides the bid's crosses.")
    return (" Here a bid does not multiply the card points (bid_multiplies_points = false): the "
            "score stays at raw card points plus roem, and a bid raises only the crosses.")


def sections(tables: dict[str, pl.DataFrame], out_dir: Path, contra: bool,
             thresholds: dict[str, list[float]] | None = None,
             options: dict | None = None) -> list[Section]:
    """Charts into ``out_dir`` and the sections that show them."""
    thresholds = thresholds or {}
    options = options or {}
    unit = "crosses (opponents' minus own)" if contra else "scoreboard units (own minus opponents')"
    value = tables["bid_value_by_estimate"]
    _estimate_chart(value, "rate", out_dir / "bid_success_vs_estimate.png",
                    "Would the bid win? Against the deciding seat's estimate", "success rate (%)",
                    tables["bid_break_even"], thresholds, scale=100.0, reference=50.0)
    _estimate_chart(value, "gain", out_dir / "bid_gain_vs_estimate.png",
                    "Mean gain of bidding against the deciding seat's estimate", f"gain in {unit}",
                    tables["bid_break_even"], thresholds, reference=0.0)
    success = tables["bid_success"].rename({"bid": "level"}).rename({"bid_name": "bid"})
    charts.rate_bars(success, "bid", out_dir / "bid_success.png",
                     title="Success rate of the highest bid of a deal", xlabel="highest bid",
                     ylabel="bidders won (%)")
    charts.rate_bars(tables["winning_melds"].filter(pl.col("among") == "contested deals"), "meld",
                     out_dir / "winning_melds.png",
                     title="The meld that wins a contested hand-roem comparison",
                     xlabel="highest meld", ylabel="share of contested deals (%)")
    figures_matches = []
    match_tables = []
    if "match_summary" in tables:
        match_tables = [
            Table("match_summary", tables["match_summary"], "Matches: deals, totals, team 0's win share "
                  "(mean with standard error)"),
            Table("match_win_by_activity", tables["match_win_by_activity"],
                  "Match win rate of the team that declared more deals, and of the team that bid "
                  "more, over matches where the teams differ (draws count as not won)"),
        ]
    if contra and "crosses_per_match" in tables:
        charts.rate_bars(tables["crosses_per_match"], "crosses", out_dir / "crosses_per_match.png",
                         title="Penalty crosses per team per match (end-of-match crosses included)",
                         xlabel="crosses", ylabel="share of team-matches (%)")
        figures_matches.append(Figure("crosses_per_match.png", "Distribution of a team's crosses in "
                                      "a 16-deal match, with 95% intervals."))
        match_tables += [
            Table("crosses_per_match", tables["crosses_per_match"], "Crosses per team per match"),
            Table("crosses_summary", tables["crosses_summary"],
                  "Mean crosses per team, of the winner and of the loser; draw rate"),
        ]
    bid_word = "kraak, rekraak and superkraak" if contra else "kraak and overkraak"
    return [
        Section(
            "Bids",
            f"After forehand names trump the defenders may kraak, then the playing team may "
            f"{'rekraak, then the defenders superkraak' if contra else 'overkraak'}. Rates are per "
            f"deal (and per deal that reached the bid before); success is the bidding team winning "
            f"the deal's highest bid. Spades doubles the stakes."
            + (_multiplier_note(options) if contra else ""),
            figures=[Figure("bid_success.png", "Success rate of the highest bid, with 95% Wilson "
                            "intervals.")],
            tables=[
                Table("bid_rates", tables["bid_rates"], f"How often {bid_word} are made"),
                Table("bid_success", tables["bid_success"], "Success rate of the highest bid"),
                Table("bids_by_trump", tables["bids_by_trump"],
                      "Bid rate and success rate (success_*) by trump suit, and spades against the "
                      "other suits"),
                Table("bids_by_declarer", tables["bids_by_declarer"],
                      "Bid rate and success rate (success_*) by the declarer's seat", show=False),
            ],
            notes=[seats.rate_check(tables["bids_by_declarer"].filter(pl.col("bid") == name),
                                    f"the {name} rate by declarer seat", group="declarer")
                   for name in tables["bids_by_declarer"]["bid"].unique(maintain_order=True).to_list()],
        ),
        Section(
            "Bids against the bidder's estimate",
            "Every seat that decided on a bid recorded its estimate of its team's card points. "
            "The bots play the cards the same whatever is bid, so whether a bid would have won is "
            "known for passes too, and the success rate and the mean gain of bidding can be read "
            f"at every estimate. The gain is in {unit}, against not making the bid (the contract "
            "one level lower, later bids ignored). The break-even estimate is where the mean gain "
            "turns positive: the threshold the data supports. Dashed lines are the bots' "
            "thresholds in this run.",
            figures=[
                Figure("bid_success_vs_estimate.png", "Share of decisions whose bid would win, by "
                       "estimate bin (5 points), with 95% Wilson bands; red: break-even estimate."),
                Figure("bid_gain_vs_estimate.png", "Mean gain of bidding by estimate bin with a "
                       "95% band (mean ± 1.96 se); red: break-even estimate."),
            ],
            tables=[
                Table("bid_break_even", tables["bid_break_even"],
                      "Break-even estimate of each bid (mean gain turns positive) and where the "
                      "success rate passes 1/2"),
                Table("bid_value_by_estimate", value,
                      "Per bid and estimate bin: would-win rate and mean gain of bidding"),
                Table("bids_by_estimate", tables["bids_by_estimate"],
                      "Per bid and estimate bin: how often the seat bid (bid_*), and how often the "
                      "bids it made won (success_*)"),
                Table("estimate_calibration", tables["estimate_calibration"],
                      "Mean estimate against the team's mean card points per decision (j = 1 "
                      "first, 2 second to decide)"),
            ],
        ),
        Section(
            "Nat",
            "The team that had to score more goes nat when it does not: "
            + ("the last bidder (the playing team without a bid), on unmultiplied card points plus "
               "counted roem." if contra else
               "always the playing team, on unmultiplied card points plus its roem."),
            tables=[Table("nat_rates", tables["nat_rates"], "Nat rate with and without a bid, and "
                          "per highest bid")],
        ),
        Section(
            "Roem in the hand",
            "Only the team holding the single highest hand meld (stuk left out) scores its hand "
            "melds; ties are broken by "
            + ("four of a kind over a run, then the top card, then the suit (S, H, C, D)." if contra
               else "the top card, then the suit (S, H, D, C).")
            + " A deal is contested when both teams hold a meld.",
            figures=[Figure("winning_melds.png", "Which meld wins when both teams hold one, with "
                            "95% intervals.")],
            tables=[
                Table("hand_roem_contest", tables["hand_roem_contest"],
                      "How often hand roem is held and contested, and who holds the highest"),
                Table("winning_melds", tables["winning_melds"], "The winning meld"),
            ],
        ),
        Section(
            "Matches",
            ("A contra match is 16 deals; the team with fewer total points gets 4 more crosses and "
             "the team with fewer crosses wins (equal crosses: a draw)." if contra else
             "A game ends after the deal in which a team reaches 250; the higher total wins, an "
             "exact tie plays another deal."),
            figures=figures_matches, tables=match_tables,
        ),
    ]


def build(game, run, out_dir: Path) -> list[Section]:
    deals = run.scan()
    try:
        matches = run.scan("matches")
    except DatasetError:  # a run cut short before any match part was written
        matches = None
    tables = stats.all_tables(deals, matches, run.options)
    out = [*sections(tables, out_dir, contra=stats.bid_names(deals) == stats.CONTRA_BIDS,
                              thresholds=_thresholds(game, run), options=run.options)]
    perfect = _perfect_play(game, run, deals, out_dir)
    return out + ([perfect] if perfect is not None else [])


def _perfect_play(game, run, deals, out_dir: Path):
    """Klaverjassen's "Against perfect play" section plus the kraak under perfect play."""
    from simcards.games.klaverjas.report import perfect_play_section
    from simcards.games.klaverjas.stats import has_perfect_play

    if not has_perfect_play(deals):
        return perfect_play_section(game, run, deals, out_dir)
    table = stats.kraak_perfect_by_estimate(deals)
    half = stats.kraak_half_success(table)
    kraak = game.bid_names[1]
    charts.rate_curve(table, "estimate_bin", out_dir / "kraak_perfect.png",
                      title=f"A {kraak} would be won: under perfect play and with the bots",
                      xlabel=f"{kraak} decider's estimate (bin start)", ylabel="success rate (%)",
                      min_n=MIN_N, series="play")
    thresholds = _thresholds(game, run).get(kraak, [])
    shown = ", ".join(f"{t:g}" for t in thresholds) or "unknown"
    extra = (f" For {kraak}: every defender's decision (bid or pass) by its estimate, and how "
             f"often a {kraak} would be won under perfect play and with the bots' play. Where "
             f"the perfect-play rate passes 1/2 is the {kraak} threshold of a strong player "
             f"(both sides playing perfectly from the bidding on); the bots' {kraak} "
             f"threshold is {shown}.")
    answers = [kraak_threshold_answer(half, kraak, shown)]
    return perfect_play_section(
        game, run, deals, out_dir, extra_text=extra, extra_answers=answers,
        burden="team that must score more",
        extra_tables=[Table("kraak_half_success", half, f"Estimate where a {kraak} is won half "
                            "the time, under perfect play and with the bots' play"),
                      Table("kraak_perfect_by_estimate", table, f"{kraak} success by estimate",
                            show=False)],
        extra_figures=[Figure("kraak_perfect.png", f"Rate at which a {kraak} would be won, by the "
                              "decider's estimate, under perfect play and with the bots (bands: "
                              "95% Wilson intervals; bins of fewer than 30 decisions left out).")])


def kraak_threshold_answer(half: pl.DataFrame, kraak: str, thresholds: str) -> str:
    """The kraak threshold of a strong player in plain words, from `stats.kraak_half_success`."""
    at = {row["play"]: row["half_success_estimate"] for row in half.iter_rows(named=True)}
    perfect, bots = at.get("perfect", float("nan")), at.get("bots", float("nan"))
    said = lambda x: f"an estimate of {fmt.number(x, 3)}" if x == x else "no estimate seen"
    return (f"A {kraak} is won half the time under perfect play from {said(perfect)}: the "
            f"threshold of a strong player. With the bots' play that takes {said(bots)}; the "
            f"bots' {kraak} threshold is {thresholds} (depends on the bots).")
