"""`simcards tournament CONFIG`: play the tournament and write its report (rating table,
rating over games, placing counts with 95% intervals)."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402

from simcards.config import TournamentConfig  # noqa: E402
from simcards.present import charts  # noqa: E402
from simcards.present.render import Figure, Section, Table, write_report  # noqa: E402
from simcards.tournament import tournament  # noqa: E402


def _rating_chart(history: pl.DataFrame, path: Path) -> None:
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for (entrant,), part in history.partition_by("entrant", as_dict=True).items():
        part = part.sort("game")
        ax.plot(part["game"].to_numpy(), part["rating"].to_numpy(), lw=1.2, label=str(entrant))
    charts.finish(fig, ax, path, "Rating after every game (four-player Elo, K = 32)",
                  "games played (in order, all rotations)", "Elo rating")


def _placing_chart(placings: pl.DataFrame, path: Path) -> None:
    entrants = placings["entrant"].unique(maintain_order=True).to_list()
    places = sorted(placings["place"].unique().to_list())
    width = 0.8 / len(entrants)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for i, entrant in enumerate(entrants):
        part = placings.filter(pl.col("entrant") == entrant).sort("place")
        x = np.array(part["place"].to_list()) + (i - (len(entrants) - 1) / 2) * width
        rate = part["rate"].to_numpy() * 100
        err = np.clip(np.vstack([rate - part["lo"].to_numpy() * 100,
                                   part["hi"].to_numpy() * 100 - rate]), 0, None)
        ax.bar(x, rate, width, label=str(entrant))
        ax.errorbar(x, rate, yerr=err, fmt="none", ecolor="#222", capsize=2, lw=0.8)
    ax.set_xticks(places, [f"place {p}" for p in places])
    charts.percent_axis(ax)
    charts.finish(fig, ax, path, "How often each bot finishes in each place", "placing",
                  "share of its games, 95% intervals")


def run_tournament(config: TournamentConfig) -> dict[str, Path]:
    result = tournament(config.ruleset, config.entrants, n_games=config.games, seed=config.seed,
                        options=config.rules, deals_per_game=config.deals_per_game)
    out_dir = Path(config.output) / config.name
    out_dir.mkdir(parents=True, exist_ok=True)
    _rating_chart(result.history, out_dir / "ratings.png")
    _placing_chart(result.placings, out_dir / "placings.png")
    ratings = result.ratings
    lines = []
    for r in ratings.iter_rows(named=True):
        lines.append(f"{r['entrant']}: rank {r['rank']}, rating {r['rating']:,.0f} (95% interval "
                     f"{r['rating_lo']:,.0f} to {r['rating_hi']:,.0f}), mean placing "
                     f"{r['mean_place']:.2f} over {r['games']:,} games")
    pw = result.pairwise
    sig = pw.filter(pl.col("significant")) if pw is not None else pl.DataFrame()
    lines.append(f"{sig.height} of {0 if pw is None else pw.height} pairs of bots differ "
                 "significantly in mean placing" + (": " + "; ".join(sig["verdict"].to_list())
                                                    if sig.height else ""))
    summary = Section("Summary", "Ranks come from the bootstrap: a bot's rank is 1 + the bots "
                      "rated above it beyond chance, so bots within each other's intervals share a "
                      "rank (shown as 2=); the ratings are these bots' strength in this ruleset.",
                      headlines=lines)
    from simcards.games import load
    from simcards.report import settings_section

    game = load(config.ruleset, **(config.rules or {}))
    names = list(config.entrants)
    entrants = settings_section(game, [config.entrants[n] for n in names][:game.n_seats], names[:game.n_seats],
                                bots_caption="Entrants") if len(names) == game.n_seats else \
        settings_section(game, None)
    section = Section(
        "Tournament",
        f"{len(config.entrants)} bots play {config.ruleset}: every table of {game.n_seats} plays "
        f"{config.games:,} games, each once in every seat rotation over the same deals, and "
        "every game updates the Elo ratings over the pairs of its placing (start 1500, K = 32, "
        "changes of 1 to 32).",
        figures=[Figure("ratings.png", "Each bot's rating after every rated game."),
                 Figure("placings.png", "Share of games each bot finished in each place, with 95% "
                        "Wilson intervals (shared places count for each sharer).")],
        tables=[Table("ratings", result.ratings, "Final ratings with 95% bootstrap intervals (200 "
                      "replicas, seeded: the games drawn with replacement and rated in random order; "
                      "Elo weighs recent games more, so the final rating need not sit mid-interval), "
                      "best first; equal ranks are ties"),
                Table("pairwise_placings", result.pairwise, "Pairwise mean placing difference A − B "
                      "(negative: A places better) over the games both played, 95% intervals"),
                Table("placings", result.placings, "Placing counts with 95% Wilson intervals"),
                Table("games", result.games, "Every rated game: seating and placings", show=False)],
    )
    meta = [f"ruleset: {config.ruleset}", f"seed {config.seed}; {config.games:,} games per table "
            "before rotation", "intervals are 95%; ± values are standard errors"]
    return write_report(out_dir, f"simcards tournament: {config.name}", meta,
                        [summary, entrants, section])
