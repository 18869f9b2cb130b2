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
import time

import numpy as np
import polars as pl

import simcards
from simcards.games.skat.rules import PASSED
from skat_play_ab import list_scores, summary  # the sibling script: list scores, intervals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2400,
                        help="deals the heuristic bids and declares (default 2,400)")
    parser.add_argument("--seed", type=int, default=15, help="the deals' seed (default 15)")
    parser.add_argument("--start", type=int, default=0,
                        help="first deal index, to split a run over processes (default 0)")
    parser.add_argument("--seat", type=int, default=0, choices=(0, 1, 2),
                        help="the seat whose declared games pimc plays again (default 0)")
    parser.add_argument("--save", default=None, metavar="FILE",
                        help="write the per-game scores to this Parquet file")
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
                              pimc["tricks_declarer"].to_numpy())
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
