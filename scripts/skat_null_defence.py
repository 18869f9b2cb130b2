"""Skat Null defence: the same Null games against other defenders, and their double-dummy value.

    python scripts/skat_null_defence.py --deals 20000 --seed 41 [--pimc] [--dd] [--as-plain]
    python scripts/skat_null_defence.py --deals 60000 --seed 41 --games nulls.parquet --save old.parquet
    OTHER/python scripts/skat_null_defence.py --deals 60000 --seed 41 --games nulls.parquet --against old.parquet

The heuristic bots (shipped defaults) bid and declare deals 0 .. deals-1 of ``seed``; the Null
games among them (Null Ouvert and plain Null apart) are played again (`play_declared`: the same
cards, contract, discard and play stream) by the heuristic at every seat, and with ``--pimc``
with pimc (shipped settings) at the two defenders' seats against the heuristic declarer.
``--dd`` adds the double-dummy value of each game from its first card (the solver with every
hand open: the most any defence can do against a declarer who also plays perfectly).
``--as-plain`` also plays the Ouvert games as plain Null (the same cards and discard, the hand
hidden, bid at most 23): what the open hand gives the defenders.

For each line-up: the declarer's win rate (Wilson 95% interval) and list points a game (95%
interval), and paired against the heuristic line-up (with ``--against``: the old build's) the
difference a game. Across two builds (a change to the heuristic's Null play): ``--games``
writes the Null games (or reads them), ``--save`` writes the heuristic line-up's scores with
one build's python, ``--against`` reads them as the old side in the other.
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

import numpy as np
import polars as pl

import simcards
from simcards.games.skat.rules import NULL
from simcards.games.skat.solver import perfect_play
from skat_loss_breakdown import rate  # the sibling scripts: Wilson intervals, list scores
from skat_play_ab import list_scores, summary


def mean_interval(x: np.ndarray) -> str:
    n = x.size
    if n < 2:
        return "-"
    mean, se = float(x.mean()), float(x.std(ddof=1) / math.sqrt(n))
    return f"{mean:+.2f} ({mean - 1.96 * se:+.2f} .. {mean + 1.96 * se:+.2f})"


def play(game, games: pl.DataFrame, seed: int, defenders: str) -> tuple[np.ndarray, np.ndarray]:
    """(list score, won) of each game with the heuristic declarer and ``defenders``."""
    points = np.zeros(games.height, dtype=np.int64)
    tricks = np.zeros(games.height, dtype=np.int64)
    won = np.zeros(games.height, dtype=bool)
    declarer = games["declarer"].to_numpy()
    for seat in range(3):
        rows = np.flatnonzero(declarer == seat)
        if rows.size == 0:
            continue
        bots = [defenders] * 3
        bots[seat] = "heuristic"
        played = game.play_declared(games[rows], seed, bots)
        points[rows] = played["points_declarer"].to_numpy()
        tricks[rows] = played["tricks_declarer"].to_numpy()
        won[rows] = played["won"].to_numpy()
    return list_scores(games, points, tricks), won


def report(name: str, games: pl.DataFrame, scores: np.ndarray, won: np.ndarray,
           base: tuple[np.ndarray, np.ndarray] | None) -> None:
    ouvert = games["ouvert"].to_numpy().astype(bool)
    for family, mask in (("Null Ouvert", ouvert), ("plain Null", ~ouvert)):
        line = (f"  {name:<22} {family:<11} {int(mask.sum()):6d} games: won {rate(int(won[mask].sum()), int(mask.sum()))}, "
                f"list {mean_interval(scores[mask])}")
        if base is not None and mask.any():
            line += f"; minus the heuristic line-up {summary(scores[mask] - base[0][mask])}"
        print(line, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=41)
    parser.add_argument("--pimc", action="store_true", help="pimc at the defenders' seats")
    parser.add_argument("--dd", action="store_true", help="the double-dummy value of each game")
    parser.add_argument("--as-plain", action="store_true",
                        help="also the Ouvert games played as plain Null (hand hidden)")
    parser.add_argument("--games", default=None, help="the Null games: read if there, else written")
    parser.add_argument("--save", default=None, help="write the heuristic line-up's scores and stop")
    parser.add_argument("--against", default=None, help="the old side: scores written by --save")
    args = parser.parse_args()
    game = simcards.load("skat")
    if args.games and Path(args.games).exists():
        games = pl.read_parquet(args.games)
    else:
        deals = game.simulate(args.deals, seed=args.seed, bots="heuristic")
        games = deals.filter(pl.col("contract") == NULL)
        print(f"seed {args.seed}, {args.deals} deals: {games.height} Null games "
              f"({int(games['ouvert'].sum())} Ouvert)")
        if args.games:
            games.write_parquet(args.games)
    heuristic = play(game, games, args.seed, "heuristic")
    if args.save:
        pl.DataFrame({"deal_index": games["deal_index"], "list": heuristic[0],
                      "won": heuristic[1]}).write_parquet(args.save)
        return
    print(f"seed {args.seed}: the heuristic declarer's Null games; won (95% interval), "
          "list points a game (95% interval)")
    if args.against:
        saved = pl.read_parquet(args.against)
        if not saved["deal_index"].equals(games["deal_index"]):
            raise SystemExit("the saved scores are of other Null games")
        old = (saved["list"].to_numpy(), saved["won"].to_numpy())
        report("heuristic, old build", games, *old, None)
        report("heuristic, this build", games, *heuristic, old)
        heuristic = old
    else:
        report("heuristic", games, *heuristic, None)
    if args.pimc:
        began = time.perf_counter()
        pimc = play(game, games, args.seed, "pimc")
        report("pimc defenders", games, *pimc, heuristic)
        print(f"    (pimc {time.perf_counter() - began:.0f} s)")
    if args.dd:
        began = time.perf_counter()
        _, wins, _ = perfect_play(game, games)
        won = wins == 1
        scores = list_scores(games, np.zeros(games.height), np.where(won, 0, 1))
        report("double-dummy", games, scores, won, heuristic)
        print(f"    (solver {time.perf_counter() - began:.0f} s)")
    if args.as_plain:
        plain = games.filter(pl.col("ouvert") == 1).with_columns(
            ouvert=pl.lit(0, dtype=games["ouvert"].dtype),
            final_bid=pl.min_horizontal("final_bid", pl.lit(23)).cast(games["final_bid"].dtype))
        h = play(game, plain, args.seed, "heuristic")
        report("as plain: heuristic", plain, *h, None)
        if args.pimc:
            report("as plain: pimc", plain, *play(game, plain, args.seed, "pimc"), h)
        if args.dd:
            _, wins, _ = perfect_play(game, plain)
            won = wins == 1
            report("as plain: double-dummy", plain,
                   list_scores(plain, np.zeros(plain.height), np.where(won, 0, 1)), won, h)


if __name__ == "__main__":
    main()
