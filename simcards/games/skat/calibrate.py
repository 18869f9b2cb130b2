"""Fit the bidding estimates of the Skat bot: `python -m simcards.games.skat.calibrate [deals]`.

Every deal is played once per contract (four suits, Grand, Null) by the heuristic bots, with a
random declarer who picks up the Skat and discards as the bot does, at a bid of 18. A logistic
regression of "won" on the features of the declarer's ten cards *before* the pickup (what a
bidder sees) gives each family's weights and centre; the printed values are the defaults of
`bots.PARAMS` (scale 1). A feature is the bot's own score with one weight set to 1 and the others
to 0, so the fit and the bot can never count a feature differently.
"""

from __future__ import annotations

import sys

import numpy as np

from simcards._jit import driver
from simcards.games.skat import bots as B
from simcards.games.skat._kernels import (
    N_SETTLE,
    S_POINTS,
    S_TRICKS,
    STATE_SIZE,
    X_WON,
    mask_points,
    new_state,
    settle_into,
)
from simcards.games.skat._play import deal_cards, held_for_play, play_out
from simcards.rng import STREAM_CONTRACT, STREAM_PLAY, randint, reset_stream

SUIT_FEATURES = ("suit_w_trump", "suit_w_jack", "suit_w_club_jack", "suit_w_trump_high",
                 "suit_w_side_ace", "suit_w_side_ten", "suit_w_void")
GRAND_FEATURES = ("grand_w_jack", "grand_w_club_jack", "grand_w_ace", "grand_w_ten", "grand_w_long")


@driver
def play_every_contract(seed, n, T, params, won, declarers, hands10):
    """Deal ``i``: a random declarer plays each contract after the pickup; won[i, c]."""
    hands = np.empty(3, dtype=np.int64)
    played = np.empty(3, dtype=np.int64)
    deck = np.empty(32, dtype=np.int64)
    st = np.empty(STATE_SIZE, dtype=np.int64)
    trace = np.empty(32, dtype=np.int64)
    rng = np.empty(1, dtype=np.uint64)
    res = np.zeros(N_SETTLE, dtype=np.int64)
    kinds = np.ones(3, dtype=np.int64)
    for i in range(n):
        dealer, skat = deal_cards(seed, i, hands, deck, rng)
        reset_stream(rng, seed, i, STREAM_CONTRACT)
        declarer = randint(rng, 3)
        declarers[i] = declarer
        hands10[i] = hands[declarer]
        cards12 = hands[declarer] | skat
        for contract in range(6):
            discard = B.discard_for(contract, cards12, T, params[declarer])
            held_for_play(hands, skat, declarer, 0, discard, played)
            new_state(st, played, dealer, contract, declarer, discard, cards12, 18, 0, 0, 0, 0, 0)
            reset_stream(rng, seed, i, STREAM_PLAY)
            play_out(st, T, kinds, params, rng, trace, None)  # heuristic bots: no pimc scratch
            points = st[S_POINTS + declarer] + mask_points(T, discard)
            settle_into(cards12, contract, 18, points, st[S_TRICKS + declarer], 0, 0, 0, 0, T, res)
            won[i, contract] = res[X_WON]


def features(hands10: np.ndarray, names: tuple[str, ...], contract: int, T) -> np.ndarray:
    names_all = [p[0] for p in B.PARAMS]
    out = np.empty((hands10.size, len(names)))
    for j, name in enumerate(names):
        params = np.zeros(len(B.PARAMS))
        params[names_all.index(name)] = 1.0
        score = B.grand_score if contract == B.GRAND else None
        for i, hand in enumerate(hands10):
            out[i, j] = (score(int(hand), params) if score else B.suit_score(int(hand), contract, params))
    return out


def logistic_fit(x: np.ndarray, y: np.ndarray, iterations: int = 30) -> np.ndarray:
    """Intercept and coefficients of a logistic regression (Newton's method, a small ridge)."""
    design = np.column_stack([np.ones(len(x)), x])
    beta = np.zeros(design.shape[1])
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-design @ beta))
        gradient = design.T @ (y - p) - 1e-3 * beta
        hessian = (design * (p * (1 - p))[:, None]).T @ design + 1e-3 * np.eye(len(beta))
        beta += np.linalg.solve(hessian, gradient)
    return beta


def main(argv=None) -> None:
    from simcards.games.registry import load

    n = int((argv or sys.argv[1:] or ["40000"])[0])
    game = load("skat")
    T = game.tables
    _, params = game.resolve_bots("heuristic")
    won = np.zeros((n, 6), dtype=np.int64)
    declarers = np.zeros(n, dtype=np.int64)
    hands10 = np.zeros(n, dtype=np.int64)
    play_every_contract(3, n, T, params, won, declarers, hands10)
    xs = np.vstack([features(hands10, SUIT_FEATURES, c, T) for c in range(4)])
    ys = np.concatenate([won[:, c] for c in range(4)])
    beta = logistic_fit(xs, ys)
    print(f"suit: win rate {ys.mean():.3f}; suit_center = {-beta[0]:.2f}")
    for name, b in zip(SUIT_FEATURES, beta[1:]):
        print(f"  {name} = {b:.2f}")
    xg = features(hands10, GRAND_FEATURES, B.GRAND, T)
    beta = logistic_fit(xg, won[:, B.GRAND].astype(float))
    print(f"grand: win rate {won[:, B.GRAND].mean():.3f}; grand_center = {-beta[0]:.2f}")
    for name, b in zip(GRAND_FEATURES, beta[1:]):
        print(f"  {name} = {b:.2f}")
    danger = np.array([B.null_danger(int(h), T) for h in hands10], dtype=float)
    beta = logistic_fit(danger[:, None], won[:, B.NULL].astype(float))
    print(f"null: win rate {won[:, B.NULL].mean():.3f}; null_center = {beta[0] / -beta[1]:.2f}, "
          f"null_scale = {1 / -beta[1]:.2f}")


if __name__ == "__main__":
    main()
