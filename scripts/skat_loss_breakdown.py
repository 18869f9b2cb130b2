"""Where the Skat heuristic loses its games, and which Grands it leaves unplayed.

    python scripts/skat_loss_breakdown.py --deals 30000 --seed 31 [--alternatives 1500]

The heuristic bots (shipped defaults) play deals 0 .. deals-1 of ``seed``. Every lost suit and
Grand game is then valued by the double-dummy solver along the bots' own cards (the perfect-play
columns of a ``double_dummy`` run) and falls in one of two classes:

- lost from the first card: perfect play by all three cannot make the game (``dd_wins`` false).
  The choice of game, the bid or the discard lost it, not the card play;
- lost in play: perfect play makes it, and the cards gave it away. The points each side's play
  gave away against perfect play (``dd_lost_declarer``, ``dd_lost_defenders``) say whose.

Double-dummy defenders see every hand, so "lost from the first card" is an upper bound on what
the choice costs: real defenders fail to find some of those defences.

``--alternatives N`` then takes up to N of the suit games (won or lost) and asks the solver
whether the same twelve cards with the same discard, played as a Grand from the same seat (at a
bid of 18, so never overbid), make it under perfect play: the Grands the bots' choice leaves as
suit games, by the Grand estimate the bidding saw (the heuristic's ``estimate`` of the ten
cards).
"""

from __future__ import annotations

import argparse
import math

import numpy as np
import polars as pl

import simcards
from simcards.games.skat import bots as skat_bots
from simcards.games.skat.rules import GRAND, NULL, PASSED
from simcards.games.skat.solver import with_perfect_play


def rate(k: int, n: int) -> str:
    """k of n as a percentage with its Wilson 95% interval."""
    if n == 0:
        return "-"
    p, z = k / n, 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return f"{100 * p:.1f}% ({100 * (centre - half):.1f}-{100 * (centre + half):.1f}), {k} of {n}"


def lost_games(game, deals: pl.DataFrame, traces: np.ndarray, family: str, mask: np.ndarray,
               cap: int, rng: np.random.Generator) -> None:
    lost = np.flatnonzero(mask & ~deals["won"].to_numpy())
    played = int(mask.sum())
    print(f"\n{family}: {played} games, lost {rate(lost.size, played)}")
    if lost.size == 0:
        return
    rows = np.sort(rng.choice(lost, size=min(cap, lost.size), replace=False))
    if rows.size < lost.size:
        print(f"  (a random {rows.size} of the {lost.size} lost games valued below)")
    judged = game.solver.with_perfect_play(game, deals[rows], traces[rows])
    from_deal = judged.filter(~pl.col("dd_wins"))
    in_play = judged.filter(pl.col("dd_wins"))
    print(f"  lost from the first card (perfect play cannot make it): "
          f"{rate(from_deal.height, rows.size)} of the lost")
    print(f"  lost in play (perfect play makes it):                   "
          f"{rate(in_play.height, rows.size)} of the lost")
    for name, part in (("from the first card", from_deal), ("in play", in_play)):
        if part.height:
            print(f"    {name}: card points given away a game, declarer "
                  f"{part['dd_lost_declarer'].mean():.1f}, defenders "
                  f"{part['dd_lost_defenders'].mean():.1f}; declarer's points "
                  f"{part['points_declarer'].mean():.1f} against perfect play's "
                  f"{part['dd_points'].mean():.1f}")
    hand = judged["hand_game"].to_numpy()
    print(f"  Hand games among the lost: {rate(int(hand.sum()), rows.size)}")
    every = np.sort(rng.choice(np.flatnonzero(mask), size=min(cap, played), replace=False))
    would = with_perfect_play(game, deals[every])
    print(f"  {every.size} {family} games at random: perfect play makes "
          f"{rate(int(would['dd_wins'].sum()), every.size)}; the bots won "
          f"{rate(int(deals[every]['won'].sum()), every.size)}")


def grand_alternatives(game, deals: pl.DataFrame, n: int, seed: int) -> None:
    suit = deals.filter(pl.col("contract").is_between(0, GRAND - 1))
    if suit.height == 0:
        return
    rng = np.random.default_rng(seed)
    pick = np.sort(rng.choice(suit.height, size=min(n, suit.height), replace=False))
    sample = suit[pick]
    as_grand = sample.with_columns(pl.lit(GRAND, dtype=pl.Int8).alias("contract"),
                                   pl.lit(18, dtype=pl.Int16).alias("final_bid"))
    judged = with_perfect_play(game, as_grand)
    wins = judged["dd_wins"].to_numpy().astype(bool)
    _, params = game.resolve_bots("heuristic")
    declarer = sample["declarer"].to_numpy()
    ten = np.array([int(sample[f"hand_{s}"][k]) for k, s in enumerate(declarer)], dtype=np.int64)
    est = np.array([skat_bots.estimate(h, GRAND, game.tables, params[0]) for h in ten])
    share = suit.height / deals.filter(pl.col("contract") != PASSED).height
    print(f"\nSuit games played as a Grand instead (same twelve cards, discard and seat; "
          f"{sample.height} of {suit.height} suit games, {100 * share:.1f}% of the games played):")
    print(f"  perfect play makes the Grand: {rate(int(wins.sum()), sample.height)}")
    print(f"  the bots won {rate(int(sample['won'].sum()), sample.height)} of these suit games")
    edges = (0.0, 0.3, 0.5, 0.6, 0.71, 1.01)
    print("  by the Grand estimate of the ten cards (the bidding's view; threshold "
          f"{params[0][skat_bots.P_T_GRAND]:.2f}):")
    for lo, hi in zip(edges, edges[1:]):
        band = (est >= lo) & (est < hi)
        print(f"    {lo:.2f}-{min(hi, 1.0):.2f}: {rate(int(wins[band].sum()), int(band.sum()))} make it")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=30000)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--cap", type=int, default=400,
                        help="at most this many games per class go to the solver (a random sample)")
    parser.add_argument("--alternatives", type=int, default=0,
                        help="suit games to value as Grands under perfect play (0: none)")
    args = parser.parse_args()
    game = simcards.load("skat")
    kinds, params = game.resolve_bots("heuristic")
    frames, traces = game._simulate_traced(args.seed, 0, args.deals, kinds, params)
    deals = frames["deals"]
    contract = deals["contract"].to_numpy()
    played = int((contract != PASSED).sum())
    print(f"seed {args.seed}, {args.deals} deals, {played} games played; Grand "
          f"{rate(int((contract == GRAND).sum()), played)} of them; Null "
          f"{rate(int((contract == NULL).sum()), played)}")
    rng = np.random.default_rng(args.seed)
    lost_games(game, deals, traces, "Grand", contract == GRAND, args.cap, rng)
    lost_games(game, deals, traces, "suit", (contract >= 0) & (contract < GRAND), args.cap, rng)
    if args.alternatives:
        grand_alternatives(game, deals, args.alternatives, args.seed)


if __name__ == "__main__":
    main()
