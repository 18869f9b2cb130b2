"""The least-squares fits behind the bots' estimate weights (bots.py, module docstring).

    python -m simcards.games.doppelkopf.calibrate        # prints both fits

The hand fit: over normal games of heuristic play with announcements and solos switched off,
each seat's party Augen against its hand's features (trumps, top trumps, plain aces, voids,
foxes). The solo fit: every forehand plays its best solo; the soloist's Augen against the
features under the solo's card order.
"""

from __future__ import annotations

import numpy as np

from simcards.games.registry import load
from simcards.games.doppelkopf import bots as B
from simcards.games.doppelkopf.rules import FOX_MASK, G_FIRST_SOLO, NORMAL

# every call out of reach, even of a forced solo's estimate (its offset raised to 1000)
QUIET = {name: 1e9 for name in ("announce_threshold", "kontra_threshold", "no90_threshold",
                                "no60_threshold", "no30_threshold", "schwarz_threshold")}


def _fit(features: list, target: list) -> tuple[np.ndarray, float]:
    X, y = np.array(features, dtype=float), np.array(target, dtype=float)
    weights, *_ = np.linalg.lstsq(X, y, rcond=None)
    residual = y - X @ weights
    return weights, float(1 - residual.var() / y.var())


def fit_hand_weights(n: int = 60_000, seed: int = 3) -> tuple[np.ndarray, float]:
    """(w_base, w_trump, w_top, w_ace, w_void, w_fox), R^2."""
    game = load("doppelkopf")
    deals = game.simulate(n, seed=seed, bots={"kind": "heuristic",
                                              "params": {**QUIET, "solo_threshold": 999.0}})
    features, target = [], []
    for row in deals.filter(deals["game_type"] == 0).iter_rows(named=True):
        for seat in range(4):
            hand = row[f"hand_{seat}"]
            features.append([1, *B._features(hand, NORMAL, game.tables),
                             bin(hand & FOX_MASK).count("1")])
            re = row["re_mask"] >> seat & 1
            target.append(row["re_augen"] if re else row["kontra_augen"])
    return _fit(features, target)


def fit_solo_weights(n: int = 40_000, seed: int = 4) -> tuple[np.ndarray, float]:
    """(ws_base, ws_trump, ws_top, ws_ace, ws_void), R^2."""
    game = load("doppelkopf")
    deals = game.simulate(n, seed=seed, bots={"kind": "heuristic",
                                              "params": {**QUIET, "solo_threshold": -999.0}})
    features, target = [], []
    for row in deals.iter_rows(named=True):
        contract = row["game_type"] - G_FIRST_SOLO + 1
        trumps, top, aces, voids = B._features(row[f"hand_{row['declarer']}"], contract,
                                               game.tables)
        features.append([1, trumps, top, 0 if contract == 7 else aces, voids])
        target.append(row["re_augen"])
    return _fit(features, target)


def fit_solo_offsets(n: int = 20_000, seed: int = 4, top: float = 0.97) -> dict[str, float]:
    """Per queen / jack / fleshless solo: the mean Augen the soloist takes above the solo
    estimate (its offset left out) on the hands in the estimate's top ``1 - top``, with every
    forehand made to play that solo."""
    from simcards.games.doppelkopf.rules import FLESHLESS, JACK, QUEEN

    game = load("doppelkopf")
    defaults = dict(zip(game.bots.param_names, game.bots.defaults()))
    out = {}
    for name, contract in (("ws_queen", QUEEN), ("ws_jack", JACK), ("ws_fleshless", FLESHLESS)):
        params = {**QUIET, "solo_threshold": -999.0, name: 1000.0}
        deals = game.simulate(n, seed=seed, bots={"kind": "heuristic", "params": params})
        row = np.array([defaults[p] for p in game.bots.param_names])
        row[game.bots.param_names.index(name)] = 0.0
        estimate = np.array([B.solo_estimate(r[f"hand_{r['declarer']}"], contract, game.tables, row)
                             for r in deals.iter_rows(named=True)])
        augen = deals["re_augen"].to_numpy().astype(float)
        strong = estimate >= np.quantile(estimate, top)
        out[name] = float((augen[strong] - estimate[strong]).mean())
    return out


if __name__ == "__main__":
    print("solo offsets", {k: round(v, 1) for k, v in fit_solo_offsets().items()})
    for name, fit in (("hand", fit_hand_weights), ("solo", fit_solo_weights)):
        weights, r2 = fit()
        print(name, np.round(weights, 1), f"R^2 {r2:.2f}")
