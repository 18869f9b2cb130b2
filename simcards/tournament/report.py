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
from simcards.present.render import Figure, Section, Table, write_report  # noqa: E402
from simcards.tournament import tournament  # noqa: E402


def _rating_chart(history: pl.DataFrame, path: Path) -> None:
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for (entrant,), part in history.partition_by("entrant", as_dict=True).items():
        part = part.sort("game")
        ax.plot(part["game"].to_numpy(), part["rating"].to_numpy(), lw=1.2, label=str(entrant))
    ax.set_title("Rating after every game (four-player Elo, K = 32)")
    ax.set_xlabel("games played (in order, all rotations)")
    ax.set_ylabel("rating")
    ax.grid(alpha=0.3)
    ax.legend(frameon=False)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


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
    ax.set_title("How often each bot finishes in each place")
    ax.set_ylabel("share of its games (%), 95% intervals")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(frameon=False)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def run_tournament(config: TournamentConfig) -> dict[str, Path]:
    result = tournament(config.ruleset, config.entrants, n_games=config.games, seed=config.seed,
                        options=config.rules, deals_per_game=config.deals_per_game)
    out_dir = Path(config.output) / config.name
    out_dir.mkdir(parents=True, exist_ok=True)
    _rating_chart(result.history, out_dir / "ratings.png")
    _placing_chart(result.placings, out_dir / "placings.png")
    section = Section(
        "Tournament",
        f"{len(config.entrants)} bots play {config.ruleset}: every table of four plays "
        f"{config.games:,} games, each once in every seat rotation over the same deals, and "
        "every game updates the four-player Elo ratings (start 1500, K = 32, changes of 1 to 32).",
        figures=[Figure("ratings.png", "Each bot's rating after every rated game."),
                 Figure("placings.png", "Share of games each bot finished in each place, with 95% "
                        "Wilson intervals (shared places count for each sharer).")],
        tables=[Table("ratings", result.ratings, "Final ratings, best first"),
                Table("placings", result.placings, "Placing counts with 95% Wilson intervals"),
                Table("games", result.games, "Every rated game: seating and placings")],
    )
    meta = [f"ruleset: {config.ruleset}; options: {config.rules or 'defaults'}",
            f"seed {config.seed}; {config.games:,} games per table before rotation",
            "entrants: " + "; ".join(f"{k} = {v}" for k, v in config.entrants.items())]
    return write_report(out_dir, f"simcards tournament: {config.name}", meta, [section])
