"""Skat declarer play in duplicate: pimc against the heuristic on the same declared games.

    python scripts/skat_declarer_duplicate.py --deals 2400 --seed 15 [--seat 0] [--save FILE]

The heuristic bots bid and declare deals 0 .. deals-1 of ``seed`` (as in
configs/pimc-vs-heuristic-skat.toml, list scoring); the games that ``seat`` declares are played
again with pimc at that seat (shipped settings) and heuristic defenders (`play_declared`: the
same cards, contract, discard and play stream). Pimc bids, declares and discards as the
heuristic, so this is the "its games as declarer" row of the report's "Pimc in duplicate"
section, without playing pimc on the deals it only defends (a third of the time). Prints pimc's
lead per game (its list score minus the heuristic's) with its 95% interval, overall and per
game family; ``--save`` writes the per-game scores to Parquet.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
import polars as pl

import simcards
from simcards.cards import DECK32
from simcards.games.skat import settle
from simcards.games.skat.game import contract_name
from simcards.games.skat.rules import PASSED


def list_scores(games: pl.DataFrame, points, tricks, seat: int) -> np.ndarray:
    """The declarer's list score of each game of ``games`` had he made ``points`` and
    ``tricks`` (his twelve cards are his dealt ten plus the Skat)."""
    out = np.empty(games.height, dtype=np.int64)
    for k, row in enumerate(games.iter_rows(named=True)):
        cards = DECK32.hand_codes(int(row[f"hand_{seat}"] | row["skat"]))
        result = settle(cards, contract_name(row["contract"]), row["final_bid"], int(points[k]),
                        int(tricks[k]), hand=bool(row["hand_game"]),
                        schneider_announced=bool(row["schneider_announced"]),
                        schwarz_announced=bool(row["schwarz_announced"]), ouvert=bool(row["ouvert"]))
        out[k] = result["declarer_score"]
    return out


def summary(diff: np.ndarray) -> str:
    n = diff.size
    if n == 0:
        return "no games"
    mean = float(diff.mean())
    se = float(diff.std(ddof=1) / math.sqrt(n)) if n > 1 else float("nan")
    return f"{mean:+.2f} ({mean - 1.96 * se:+.2f} .. {mean + 1.96 * se:+.2f}), {n} games"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2400)
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--seat", type=int, default=0)
    parser.add_argument("--save", default=None)
    args = parser.parse_args()
    game = simcards.load("skat")
    deals = game.simulate(args.deals, seed=args.seed, start=args.start, bots="heuristic")
    games = deals.filter((pl.col("declarer") == args.seat) & (pl.col("contract") != PASSED))
    bots = ["heuristic"] * 3
    bots[args.seat] = "pimc"
    began = time.perf_counter()
    pimc = game.play_declared(games, args.seed, bots)
    seconds = time.perf_counter() - began
    pimc_scores = list_scores(games, pimc["points_declarer"].to_numpy(),
                              pimc["tricks_declarer"].to_numpy(), args.seat)
    heuristic_scores = games[f"list_{args.seat}"].to_numpy().astype(np.int64)
    frame = games.select("deal_index", "contract", "final_bid", "hand_game",
                         pl.col("points_declarer").alias("points_heuristic"),
                         pl.col("won").alias("won_heuristic")).with_columns(
        points_pimc=pimc["points_declarer"], won_pimc=pimc["won"],
        list_heuristic=pl.Series(heuristic_scores), list_pimc=pl.Series(pimc_scores))
    diff = pimc_scores - heuristic_scores
    print(f"seed {args.seed}, deals {args.start}..{args.start + args.deals - 1}, seat {args.seat}: "
          f"pimc minus heuristic as declarer, list points a game: {summary(diff)} "
          f"(pimc {seconds:.0f} s)")
    print(f"  won: heuristic {games['won'].mean():.3f}, pimc {pimc['won'].mean():.3f}")
    families = {"grand": games["contract"] == 4, "suit": games["contract"] < 4,
                "null": games["contract"] == 5}
    for name, mask in families.items():
        m = mask.to_numpy()
        print(f"  {name}: {summary(diff[m])}; won heuristic {games['won'].to_numpy()[m].mean():.3f}"
              f", pimc {pimc['won'].to_numpy()[m].mean():.3f}")
    if args.save:
        frame.write_parquet(args.save)


if __name__ == "__main__":
    main()
