#!/usr/bin/env python
"""Doppelkopf solo play in duplicate: the same deals played by two builds of simcards (or by one
build with two parameter sets), compared deal by deal on the solo games.

    # each build's Python writes the deals' results (run from any folder)
    python scripts/solo_ab.py write old.parquet --python /tmp/old/.venv/bin/python --deals 500000
    python scripts/solo_ab.py write new.parquet --deals 500000
    python scripts/solo_ab.py compare old.parquet new.parquet

    # forced solos: every forehand plays a queen solo, announcements off, as
    # calibrate.fit_solo_offsets does; compare keeps the strongest 3% of the hands
    python scripts/solo_ab.py write old.parquet --python ... --forced queen --deals 100000
    python scripts/solo_ab.py compare old.parquet new.parquet --top 0.97

``--params`` (JSON) sets heuristic parameters over the build's defaults at every seat. The game
choice depends only on the cards, the estimates and the solo parameters, so when both sides
have the same solo parameters (``ws_*``, ``solo_threshold``) they play the same games by the same
declarers; `compare` refuses otherwise. It prints the soloist's score per solo game (the 3x
score, which the three defenders pay) under OLD and NEW, NEW - OLD with its 95% interval (a
paired mean over the solo deals), the win rates and the soloist's Augen, and the same per solo
type. The solo estimate that ``--top`` ranks by is the current build's, with the forced offset
set to 0.

The solo play of issue 34, measured so (OLD: commit 16a5079, the play before it, run as
``PYTHONPATH=<its worktree> NUMBA_CACHE_DIR=<a folder of its own> .venv/bin/python``; NEW: this
branch; both with the fitted offsets, ``--params '{"ws_queen": 54.7, "ws_jack": 51.7,
"ws_fleshless": 114.5}'``, so both choose the same solos):

    write old.parquet --python OLD --deals 500000 --seed 13 --params ...   (and new.parquet)
    25,811 solo games of 500,000 deals (seed 13)
    soloist's score per solo game: OLD 2.929, NEW 7.608, NEW - OLD +4.679 (95% +4.541 .. +4.817)
    soloist wins: OLD 62.3%, NEW 81.6%; queen solos +6.11 (9,723), jack +6.47 (7,359), suit
    solos +0.83 .. +1.76, fleshless +1.97 (+0.34 .. +3.60, 128)

Forced, the strongest 3% of 100,000 deals of seed 13: queen +2.29 (+2.08 .. +2.50, 3,345
solos), jack +2.49 (+2.28 .. +2.69, 3,298), fleshless +0.67 (+0.57 .. +0.77, 9,477).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import polars as pl

ROOT = Path(__file__).resolve().parent.parent
FORCED = ("queen", "jack", "fleshless")
KEPT = ["deal_index", "game_type", "declarer", "value", "winner", "re_augen",
        *[f"hand_{s}" for s in range(4)]]
# run by the build's own Python, from an empty folder (argv: out, deals, seed, forced, params)
WRITER = """
import json, sys
import simcards
out, deals, seed, forced, params = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], json.loads(sys.argv[5])
if forced:
    from simcards.games.doppelkopf.calibrate import QUIET
    params = {**QUIET, "solo_threshold": -1e9, "ws_" + forced: 1000.0, **params}
game = simcards.load("doppelkopf")
frame = game.simulate(deals, seed=seed, bots={"kind": "heuristic", "params": params})
frame.select(%r).write_parquet(out)
print(simcards.__file__)
""" % KEPT


def write(out: Path, python: str, deals: int, seed: int, forced: str | None, params: str) -> None:
    """Simulate ``deals`` deals of ``seed`` with ``python``'s simcards and keep what the
    comparison reads, with the forcing and the parameters in the file's metadata."""
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run([python, "-c", WRITER, str(out.resolve()), str(deals), str(seed),
                               forced or "", params], cwd=tmp, capture_output=True, text=True)
    if done.returncode:
        sys.exit(done.stderr)
    frame = pl.read_parquet(out)
    meta = {"python": python, "simcards": done.stdout.strip(), "deals": deals, "seed": seed,
            "forced": forced or "", "params": params}
    frame.write_parquet(out, metadata={"solo_ab": json.dumps(meta)})
    print(f"{out}: {deals:,} deals of seed {seed} from {meta['simcards']}")


def paired(diff: np.ndarray) -> str:
    """The mean of a paired difference with its 95% normal interval."""
    mean = diff.mean()
    half = 1.96 * diff.std(ddof=1) / np.sqrt(diff.size) if diff.size > 1 else float("nan")
    return f"{mean:+.3f} (95% {mean - half:+.3f} .. {mean + half:+.3f})"


def _meta(path: Path) -> dict:
    return json.loads(pl.read_parquet_metadata(path)["solo_ab"])


def compare(old_path: Path, new_path: Path, top: float) -> None:
    sys.path.insert(0, str(ROOT))
    import simcards
    from simcards.games.doppelkopf import bots as B
    from simcards.games.doppelkopf.rules import FLESHLESS, G_FIRST_SOLO, GAME_TYPES, JACK, QUEEN

    old, new = (pl.read_parquet(p).sort("deal_index") for p in (old_path, new_path))
    meta = _meta(old_path)
    if not ((old["deal_index"] == new["deal_index"]).all()
            and (old["game_type"] == new["game_type"]).all()
            and (old["declarer"] == new["declarer"]).all()):
        sys.exit("OLD and NEW play different games: give both the same deals and solo parameters")
    solo = (old["game_type"] >= G_FIRST_SOLO).to_numpy()
    if meta["forced"]:
        game = simcards.load("doppelkopf")
        contract = {"queen": QUEEN, "jack": JACK, "fleshless": FLESHLESS}[meta["forced"]]
        row = game.bots.defaults()
        row[game.bots.param_names.index(f"ws_{meta['forced']}")] = 0.0
        hands = [r[f"hand_{r['declarer']}"] for r in old.iter_rows(named=True)]
        estimate = np.array([B.solo_estimate(h, contract, game.tables, row) for h in hands])
        solo &= estimate >= np.quantile(estimate, top)
    runs = (old, new)
    score = [3 * r["value"].to_numpy()[solo].astype(float) for r in runs]
    won = [(r["winner"].to_numpy()[solo] == 1) for r in runs]
    augen = [r["re_augen"].to_numpy()[solo].astype(float) for r in runs]
    kinds = old["game_type"].to_numpy()[solo]
    forced = f", forced {meta['forced']} solos, top {1 - top:.0%} of estimates" if meta["forced"] else ""
    print(f"{solo.sum():,} solo games of {old.height:,} deals (seed {meta['seed']}{forced})")
    print(f"soloist's score per solo game: OLD {score[0].mean():.3f}, NEW {score[1].mean():.3f}, "
          f"NEW - OLD {paired(score[1] - score[0])}")
    print(f"soloist wins: OLD {won[0].mean():.1%}, NEW {won[1].mean():.1%}; soloist's Augen: "
          f"OLD {augen[0].mean():.1f}, NEW {augen[1].mean():.1f}")
    for kind in np.unique(kinds):
        k = kinds == kind
        print(f"  {GAME_TYPES[kind]:15s} {k.sum():7,d}  NEW - OLD {paired(score[1][k] - score[0][k])}"
              f"  wins OLD {won[0][k].mean():.1%} NEW {won[1][k].mean():.1%}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    w = sub.add_parser("write", help="one build's results on the deals")
    w.add_argument("out", type=Path)
    w.add_argument("--python", default=sys.executable, help="the Python of the build to run")
    w.add_argument("--deals", type=int, default=200_000)
    w.add_argument("--seed", type=int, default=11)
    w.add_argument("--forced", choices=FORCED, default=None)
    w.add_argument("--params", default="{}", help="heuristic parameters over the defaults (JSON)")
    c = sub.add_parser("compare", help="NEW - OLD on the solo deals")
    c.add_argument("old", type=Path)
    c.add_argument("new", type=Path)
    c.add_argument("--top", type=float, default=0.97, help="forced solos: the estimate quantile kept")
    args = ap.parse_args()
    if args.command == "write":
        json.loads(args.params)
        write(args.out, args.python, args.deals, args.seed, args.forced, args.params)
    else:
        compare(args.old, args.new, args.top)


if __name__ == "__main__":
    main()
