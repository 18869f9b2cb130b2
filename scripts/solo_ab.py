#!/usr/bin/env python
"""Doppelkopf solo play in duplicate: the same deals played twice, with the heuristic's
parameters ``--a`` and then ``--b`` at every seat, compared on the deals that are solos. The
game choice depends only on the cards and the estimates, so with the same solo parameters both
runs play the same solos, by the same soloists:

    python scripts/solo_ab.py --a '{"solo_ruff_cards": 99}' --deals 200000 --seed 11
    python scripts/solo_ab.py --b '{"solo_draw_margin": -1}' --forced queen --top 0.9

``--forced queen|jack|fleshless`` makes every forehand play that solo (announcements off, as
`calibrate.fit_solo_offsets` does) and keeps the hands whose solo estimate is in the top
``1 - top``. Prints the soloist's score per solo game (the 3x score) under A and B, B - A with
its 95% interval (a paired mean), the win rates and Augen, and the same per game type.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import simcards  # noqa: E402
from simcards.games.doppelkopf import bots as B  # noqa: E402
from simcards.games.doppelkopf.calibrate import QUIET  # noqa: E402
from simcards.games.doppelkopf.rules import FLESHLESS, G_FIRST_SOLO, GAME_TYPES, JACK, QUEEN  # noqa: E402

FORCED = {"queen": QUEEN, "jack": JACK, "fleshless": FLESHLESS}


def paired(diff: np.ndarray) -> str:
    mean = diff.mean()
    half = 1.96 * diff.std(ddof=1) / np.sqrt(diff.size) if diff.size > 1 else float("nan")
    return f"{mean:+.3f} (95% {mean - half:+.3f} .. {mean + half:+.3f})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", default="{}", help="parameters of play A (JSON), over the defaults")
    ap.add_argument("--b", default="{}", help="parameters of play B (JSON), over the defaults")
    ap.add_argument("--deals", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--forced", choices=sorted(FORCED), default=None)
    ap.add_argument("--top", type=float, default=0.97, help="with --forced: the estimate quantile kept")
    args = ap.parse_args()
    game = simcards.load("doppelkopf")
    base = {}
    if args.forced:
        base = {**QUIET, "solo_threshold": -1e9, f"ws_{args.forced}": 1000.0}
    runs = [game.simulate(args.deals, seed=args.seed,
                          bots={"kind": "heuristic", "params": {**base, **json.loads(p)}})
            for p in (args.a, args.b)]
    a, b = runs
    if not ((a["game_type"] == b["game_type"]).all() and (a["declarer"] == b["declarer"]).all()):
        sys.exit("A and B choose different games: compare card play with the same solo parameters")
    solo = (a["game_type"] >= G_FIRST_SOLO).to_numpy()
    if args.forced:
        contract = FORCED[args.forced]
        row = game.bots.defaults()
        row[game.bots.param_names.index(f"ws_{args.forced}")] = 0.0
        hands = [r[f"hand_{r['declarer']}"] for r in a.iter_rows(named=True)]
        estimate = np.array([B.solo_estimate(h, contract, game.tables, row) for h in hands])
        solo &= estimate >= np.quantile(estimate, args.top)
    score = [3 * r["value"].to_numpy()[solo] for r in runs]
    won = [(r["winner"].to_numpy()[solo] == 1) for r in runs]
    augen = [r["re_augen"].to_numpy()[solo].astype(float) for r in runs]
    kinds = a["game_type"].to_numpy()[solo]
    print(f"{solo.sum():,} solo games of {args.deals:,} deals (seed {args.seed}"
          f"{', forced ' + args.forced if args.forced else ''})")
    print(f"soloist's score per solo game: A {score[0].mean():.3f}, B {score[1].mean():.3f}, "
          f"B - A {paired(score[1] - score[0])}")
    print(f"soloist wins: A {won[0].mean():.1%}, B {won[1].mean():.1%}; soloist's Augen: "
          f"A {augen[0].mean():.1f}, B {augen[1].mean():.1f}")
    for kind in np.unique(kinds):
        k = kinds == kind
        print(f"  {GAME_TYPES[kind]:15s} {k.sum():7,d}  B - A {paired(score[1][k] - score[0][k])}"
              f"  wins A {won[0][k].mean():.1%} B {won[1][k].mean():.1%}")


if __name__ == "__main__":
    main()
