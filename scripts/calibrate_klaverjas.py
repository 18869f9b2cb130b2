"""Fit the Klaverjassen hand evaluator's weights so that its estimate predicts the declaring
team's card points (of 162, last trick included).

    python scripts/calibrate_klaverjas.py [--deals 400000] [--seed 3]

The deals are played by the heuristic bots with a random trump (``trump_selection =
"random"``), so every strength of hand occurs and the trump does not depend on the weights
being fitted; card play does not read the estimate. The features are the evaluator's
(simcards/games/klaverjas/bots.py `evaluate_hand`): a base, trump jack, nine and ace, trumps
held, plain aces, guarded plain tens and voids. Melds in the hand are left out: under table roem
they score for whoever wins the trick they fall in, not for their holder. Prints the least-squares
weights, rounded as the defaults are written, and how well they predict.
"""

from __future__ import annotations

import argparse

import numpy as np

import simcards

FEATURES = ("w_base", "w_trump_jack", "w_trump_nine", "w_trump_ace", "w_trump_card",
            "w_side_ace", "w_guarded_ten", "w_void")
RJ, R9, R10, RA = 4, 2, 3, 7


def features(hands: np.ndarray, trumps: np.ndarray) -> np.ndarray:
    """[deals, len(FEATURES)] evaluator features of each hand with its trump."""
    out = np.zeros((hands.size, len(FEATURES)))
    out[:, 0] = 1.0
    suit_bytes = np.stack([(hands >> (8 * s)) & 0xFF for s in range(4)], axis=1)
    trump_byte = suit_bytes[np.arange(hands.size), trumps]
    out[:, 1] = trump_byte >> RJ & 1
    out[:, 2] = trump_byte >> R9 & 1
    out[:, 3] = trump_byte >> RA & 1
    out[:, 4] = np.array([bin(int(b)).count("1") for b in trump_byte])
    counts = np.vectorize(lambda b: bin(int(b)).count("1"))(suit_bytes)
    plain = np.arange(4)[None, :] != trumps[:, None]
    ace = (suit_bytes >> RA & 1).astype(bool)
    ten = (suit_bytes >> R10 & 1).astype(bool)
    out[:, 5] = (ace & plain).sum(axis=1)
    out[:, 6] = (ten & (ace | (counts >= 3)) & plain).sum(axis=1)
    out[:, 7] = ((counts == 0) & plain).sum(axis=1)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=400_000)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    game = simcards.load("klaverjas-amsterdam", trump_selection="random")
    deals = game.simulate(args.deals, seed=args.seed, bots="heuristic")
    declarer = deals["declarer"].to_numpy().astype(np.int64)
    hands = np.stack([deals[f"hand_{s}"].to_numpy().astype(np.int64) for s in range(4)], axis=1)
    own = hands[np.arange(deals.height), declarer]
    team = declarer % 2
    points = np.where(team == 0, deals["points_0"].to_numpy(), deals["points_1"].to_numpy())
    X = features(own, deals["trump"].to_numpy().astype(np.int64))
    weights, *_ = np.linalg.lstsq(X, points.astype(np.float64), rcond=None)
    fitted = X @ weights
    residual = points - fitted
    print(f"{deals.height:,} deals, seed {args.seed}: R^2 = "
          f"{1 - residual.var() / points.var():.3f}, residual sd {residual.std():.1f} points")
    for name, w in zip(FEATURES, weights):
        print(f"  {name:14s} {w:7.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
