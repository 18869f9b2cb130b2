"""Report sections of Klaverjassen runs: roem, nat, pit, points and scores."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl

from simcards.games.klaverjas import stats as stats
from simcards.manifest import done_entries
from simcards.present import charts, fmt, seats
from simcards.present.render import Figure, Section, Table
from simcards.present.summary import replay_pointer

RATE_COLUMNS = ["n", "hits", "rate", "lo", "hi"]


def sections(tables: dict[str, pl.DataFrame], out_dir: Path) -> list[Section]:
    """Charts into ``out_dir`` and the sections that show them."""
    melds = tables["hand_meld_values"]
    no_stuk = tables["hand_meld_values_no_stuk"]
    charts.rate_bars(
        no_stuk.filter(pl.col("seat") == -1).sort("roem_hand"), "roem_hand", out_dir / "hand_melds.png",
        title="Hand melds without stuk (runs, four of a kind): simulated and exact",
        xlabel="meld total of one hand, stuk left out",
        ylabel="share of hands (%, log scale)", exact="exact", log=True)
    charts.rate_bars(
        tables["hand_meld_types"], "meld", out_dir / "meld_types.png",
        title="How often a hand holds each kind of meld", xlabel="meld",
        ylabel="share of hands (%)")
    charts.rate_bars(
        tables["table_roem_values"], "table_roem", out_dir / "table_roem.png",
        title="Table roem per deal (both teams, pit bonus excluded)",
        xlabel="roem on the table in one deal", ylabel="share of deals (%, log scale)", log=True)
    charts.rate_curve(
        tables["nat_by_strength"], "estimate_bin", out_dir / "nat_vs_strength.png",
        title="Nat rate against the declarer's hand strength",
        xlabel="declarer's hand-evaluator estimate (bin start)", ylabel="nat rate (%)")
    charts.histogram(tables["points_distribution"], out_dir / "points_hist.png",
                     title="Card points per deal", xlabel="card points of the team (bins of 10)",
                     bin_width=10)
    charts.histogram(tables["score_distribution"], out_dir / "score_hist.png",
                     title="Score per deal", xlabel="deal score of the team (bins of 10)",
                     bin_width=10)
    per_seat = no_stuk.filter(pl.col("seat") >= 0)
    by_declarer = tables["nat_by_declarer"]

    meld_columns = ["seat", "roem_hand", *RATE_COLUMNS] + (["exact"] if "exact" in melds.columns else [])
    return [
        Section(
            "Roem",
            "Hand melds are counted for every seat from the dealt hand with the deal's trump "
            "(runs of 3/4/5+ cards 20/50/100, four of a kind 100, four jacks 200, stuk 20). "
            "Exact values come from enumerating all 10,518,300 eight-card hands. Runs and four of "
            "a kind do not depend on trump, so their simulated shares must match the exact ones "
            "for every seat; stuk does depend on it when a bot names trump from its own hand, so "
            "totals with stuk get exact values only when trump is drawn at random. Table roem is "
            "what falls in the tricks.",
            figures=[
                Figure("hand_melds.png", "Share of hands by meld total without stuk, all seats "
                       "pooled. Bars: simulated, with 95% Wilson intervals; black marks: exact "
                       "probabilities."),
                Figure("meld_types.png", "Share of hands holding at least one meld of each kind "
                       "(a hand can count in several bars), with 95% intervals."),
                Figure("table_roem.png", "Share of deals by the roem that falls on the table, "
                       "both teams together, with 95% intervals."),
            ],
            notes=[seats.distribution_check(per_seat, "hand meld totals without stuk", "roem_hand"),
                   seats.distribution_check(melds.filter(pl.col("seat") >= 0),
                                            "hand meld totals with stuk", "roem_hand")],
            tables=[
                Table("hand_meld_values_no_stuk_pooled", no_stuk.filter(pl.col("seat") == -1),
                      "Hand meld totals without stuk, all seats pooled, with exact values",
                      ["roem_hand", *RATE_COLUMNS, "exact"]),
                Table("hand_meld_values_pooled", melds.filter(pl.col("seat") == -1),
                      "Hand meld totals with stuk, all seats pooled",
                      [c for c in meld_columns if c != "seat"]),
                Table("hand_meld_values_no_stuk", no_stuk, "Hand meld totals without stuk per seat "
                      "(seat -1: all seats)", show=False),
                Table("hand_meld_values", melds, "Hand meld totals with stuk per seat (seat -1: all "
                      "seats)", show=False),
                Table("hand_meld_types", tables["hand_meld_types"], "Meld kinds held"),
                Table("table_roem_values", tables["table_roem_values"], "Table roem per deal"),
                Table("table_roem_by_team", tables["table_roem_by_team"],
                      "Table roem per deal by team (mean with its standard error; any_: share of "
                      "deals with any)"),
            ],
        ),
        Section(
            "Nat and pit",
            "The playing team goes nat when it does not score more than the opponents, card "
            "points and roem counted. Strength is the declarer's hand-evaluator estimate for the "
            "trump it named.",
            figures=[Figure("nat_vs_strength.png", "Nat rate by declarer hand strength; the band is "
                            "the 95% Wilson interval (bins with fewer than 30 deals left out).")],
            notes=[seats.rate_check(by_declarer.filter(pl.col("by") == "seat"),
                                    "the nat rate by declarer seat")],
            tables=[
                Table("nat_rate", tables["nat_rate"], "Nat rate"),
                Table("nat_by_trump", tables["nat_by_trump"], "Nat rate by trump suit",
                      ["trump_suit", *RATE_COLUMNS]),
                Table("nat_by_position", by_declarer.filter(pl.col("by") == "position")
                      .rename({"seat": "position"}).drop("by"),
                      "Nat rate by the declarer's position from the dealer (1 = forehand, "
                      "0 = the dealer)"),
                Table("nat_by_declarer", by_declarer,
                      "Nat rate by declarer seat, and by position from the dealer", show=False),
                Table("nat_by_strength", tables["nat_by_strength"], "Nat rate by hand strength"),
                Table("pit_rate", tables["pit_rate"], "Pit (all eight tricks) rate, by the team that made it"),
            ],
        ),
        Section(
            "Points and scores",
            "Card points (162 per deal, last trick included) and deal scores of the declaring and "
            "the defending team.",
            figures=[Figure("points_hist.png", "Distribution of card points per deal by team."),
                     Figure("score_hist.png", "Distribution of the deal score by team (nat: 0 for "
                            "the playing team, 162 plus all roem for the other).")],
            tables=[Table("points_summary", tables["points_summary"],
                          "Mean card points and score per deal (se: standard error)")],
        ),
    ]


def build(game, run, out_dir: Path) -> list[Section]:
    deals = run.scan()
    out = [*sections(stats.all_tables(deals, run.options, game.exact_hand_meld_values),
                              out_dir)]
    perfect = perfect_play_section(game, run, deals, out_dir)
    return out + ([perfect] if perfect is not None else [])


# ---- against perfect play: the double_dummy option's columns, and pimc runs in duplicate


def duplicate_against_heuristic(game, run) -> pl.DataFrame | None:
    """When the run's bots include pimc seats (all on one team): the same deals replayed with
    heuristic bots at those seats, and the per-deal difference of that team's score (pimc run
    minus heuristic replay), with its mean, standard error and 95% interval. None otherwise."""
    pimc, heuristic = game.bots.kinds["pimc"], game.bots.kinds["heuristic"]
    config = run.manifest.get("config", {})
    try:
        kinds, params = game.resolve_bots(config["bots"])
    except (KeyError, TypeError, ValueError):
        return None
    teams = {seat & 1 for seat in range(game.n_seats) if kinds[seat] == pimc}
    if len(teams) != 1:
        return None
    team = teams.pop()
    replay_kinds = np.where(kinds == pimc, heuristic, kinds)
    seed = int(run.manifest["seed"])
    pimc_deals = run.scan().select("deal_index", f"score_{team}").collect()
    replayed = []
    for entry in done_entries(run.manifest):
        frames = game._simulate_frames(seed, int(entry["start"]), int(entry["n"]), replay_kinds, params)
        replayed.append(frames["deals"].select("deal_index", f"score_{team}"))
    both = pimc_deals.join(pl.concat(replayed), on="deal_index", suffix="_heuristic")
    diff = (both[f"score_{team}"].cast(pl.Float64) - both[f"score_{team}_heuristic"].cast(pl.Float64))
    n = diff.len()
    mean = float(diff.mean())
    se = float(diff.std()) / n ** 0.5 if n > 1 else float("nan")
    seats_text = ", ".join(str(s) for s in range(game.n_seats) if kinds[s] == pimc)
    return pl.DataFrame({"pimc_seats": [seats_text], "team": [team], "deals": [n],
                         "mean_score_difference": [mean], "se": [se], "lo": [mean - 1.96 * se],
                         "hi": [mean + 1.96 * se]})


def perfect_play_section(game, run, deals: pl.LazyFrame, out_dir: Path,
                         extra_tables: list | None = None, extra_figures: list | None = None,
                         extra_text: str = "", extra_answers: list | None = None,
                         burden: str = "playing team") -> Section | None:
    """The "Against perfect play" section: the bots' margin beside the double-dummy one, nat
    under perfect play beside the bots', and pimc in duplicate (when the run has them)."""
    duplicate = duplicate_against_heuristic(game, run)
    if not stats.has_perfect_play(deals) and duplicate is None:
        return None
    tables, figures = [], []
    text = ("Perfect play is the double-dummy solver's: every hand open, both teams playing the "
            "rest of the deal to the best margin (the declaring team's card points plus roem "
            "minus the opponents'), from the start of play. The bots play with their own hands "
            "only, so perfect play is a bound on good play, not a bot to copy; the bots' margin "
            "can exceed it when the defenders err. Every figure beside perfect play depends on "
            "the bots.")
    answers = []
    if not stats.has_perfect_play(deals):  # a pimc run without the perfect-play columns
        text = ("The pimc bot plays by the double-dummy solver: at each card it deals the cards "
                "it cannot see many times, solves every such deal with all hands open and plays "
                "the card with the best mean result. Its strength is measured in duplicate: the "
                "same deals replayed with heuristic bots at its seats. This run has no "
                "perfect-play columns (the double_dummy option is off).")
    if stats.has_perfect_play(deals):
        gap = stats.margin_gap_distribution(deals)
        ends = charts.binned_bars(gap, out_dir / "perfect_play_gap.png",
                                  title="Bots' margin minus the perfect-play margin (declaring team)",
                                  xlabel="margin difference (bins of 20 points)",
                                  ylabel="share of deals (%)", unit="deal")
        figures.append(Figure("perfect_play_gap.png", "Share of deals by the declaring team's "
                              "margin with the bots minus its margin under perfect play, with 95% "
                              "intervals; below 0 the declaring team ended below perfect play."
                              + ends))
        selection = run.options.get("trump_selection")  # Kraken has none: forehand names trump
        margins = stats.margin_gap_summary(deals)
        nat = stats.nat_perfect_vs_bots(deals, selection)
        lost = stats.lost_points_summary(deals) if stats.has_lost_points(deals) else None
        answers = perfect_play_answers(nat, margins, lost, selection, burden)
        tables += [
            Table("perfect_play_margins", margins,
                  "Mean margins per deal of the declaring team (se: standard error)"),
            Table("perfect_play_gap", gap, "Bots' margin minus perfect-play margin", show=False),
            Table("perfect_play_nat", nat,
                  "Nat rate under perfect play and with the bots, by trump suit",
                  (["trump_selection"] if selection else []) + ["trump_suit", "play", *RATE_COLUMNS]),
        ]
        if lost is not None:
            text += LOST_POINTS_TEXT + replay_pointer(run, deals, ("dd_lost_declaring", "dd_lost_defending"),
                                                      "points between the two teams")
            tables.append(Table("perfect_play_lost", lost, "Margin each team's card play gave "
                                "away against perfect play, per deal (se: standard error); "
                                "share_nothing_lost: deals in which it gave nothing away"))
    answers += extra_answers or []
    tables += extra_tables or []
    figures += extra_figures or []
    if duplicate is not None:
        answers.append(pimc_answer(duplicate))
        tables.append(Table("pimc_duplicate", duplicate,
                            "pimc against heuristic in duplicate: the same deals replayed with "
                            "heuristic at the pimc seats; the team's score per deal, pimc run "
                            "minus replay, with its 95% interval"))
    return Section("Against perfect play", text + extra_text, figures=figures, tables=tables,
                   headlines=answers)


def pimc_answer(duplicate: pl.DataFrame) -> str:
    """pimc against heuristic in plain words, from `duplicate_against_heuristic`'s row."""
    row = duplicate.row(0, named=True)
    seats = row["pimc_seats"]
    where = f"seat{'s' if ',' in seats else ''} {seats}"
    mean, lo, hi = row["mean_score_difference"], row["lo"], row["hi"]
    if lo > 0:
        verdict = "pimc plays better"
    elif hi < 0:
        verdict = "pimc plays worse"
    else:
        verdict = "no difference shown at this size"
    more = "more" if mean >= 0 else "less"
    return (f"With pimc at {where}, team {row['team']} scores {abs(mean):.1f} points a deal {more} "
            f"than with heuristic bots there on the same deals (95% interval {lo:+.1f} to "
            f"{hi:+.1f}, {fmt.count(row['deals'])} deals): {verdict}.")


LOST_POINTS_TEXT = (
    " Points left on the table are counted card by card along the line the bots played: the "
    "solver values the position before and after each card, and a card that lowers its own "
    "team's value under perfect play gave that much away. The two teams' losses account "
    "exactly for the gap between the bots' margin and the perfect-play one. They are measured "
    "against players who see every hand, so they include guesses that nobody at the table "
    "could get right every time: read them as the room left against all-seeing play, not as "
    "mistakes a good player would never make.")


def perfect_play_answers(nat: pl.DataFrame, margins: pl.DataFrame, lost: pl.DataFrame | None,
                         selection: str | None, burden: str) -> list[str]:
    """The section's answers in plain words: nat under perfect play beside the bots', and the
    points the bots' card play leaves on the table."""
    every = nat.filter(pl.col("trump_suit") == "all")
    rate = {row["play"]: row for row in every.iter_rows(named=True)}
    perfect, bots = rate["perfect"], rate["bots"]
    forced = " (trump forced on forehand)" if selection == "forced" else ""
    out = [f"Under perfect play the {burden}{forced} goes nat in "
           f"{fmt.rate_ci(perfect['rate'], perfect['lo'], perfect['hi'])} of "
           f"{fmt.count(perfect['n'])} deals; with the bots in "
           f"{fmt.rate_ci(bots['rate'], bots['lo'], bots['hi'])} (depends on the bots)."]
    gap = margins.filter(pl.col("margin") == "bots - perfect").row(0, named=True)
    side = "below" if gap["mean"] < 0 else "above"
    net = f"{fmt.mean_se(abs(gap['mean']), gap['se'])} points a deal {side} its perfect-play margin"
    if lost is None:  # a run made before the loss columns
        out.append(f"With the bots on both sides the declaring team ends {net} (depends on the "
                   "bots); this run's data does not split that between the two teams.")
        return out
    by_team = {row["team"]: row for row in lost.iter_rows(named=True)}
    declaring, defending = by_team["declaring"], by_team["defending"]
    out.append(f"The bots' card play leaves points on the table: the declaring team gives away "
               f"{fmt.mean_se(declaring['mean'], declaring['se'])} points a deal against perfect "
               f"play, the defenders {fmt.mean_se(defending['mean'], defending['se'])}; net, the "
               f"declaring team ends {net} (depends on the bots).")
    return out
