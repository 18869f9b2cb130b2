"""Skat declarer play A/B: the heuristic with two parameter rows on the same declared games.

    python scripts/skat_play_ab.py --deals 20000 --seed 21 --new pull_trumps_min=2 [--old k=v,...]
    python scripts/skat_play_ab.py --deals 60000 --seed 21 --games games.parquet
    OTHER/python scripts/skat_play_ab.py --deals 60000 --seed 21 --games games.parquet --save old.parquet
    python scripts/skat_play_ab.py --deals 60000 --seed 21 --games games.parquet --against old.parquet

The heuristic bots (shipped defaults) bid and declare deals 0 .. deals-1 of ``seed``; every
declared game is played again (`play_declared`: the same cards, contract, discard and play
stream) with ``--old`` and with ``--new`` parameters at every seat. A change to the declarer's
play only leaves the defenders' rules as they are, so the difference is what the new declarer
gains: the declarer's list points a game (new minus old), its 95% interval, per family.
Across two builds: ``--games`` writes the declared games (or reads them, when the file is
there), so both builds play the same declarations even when they bid apart; ``--save`` writes
the ``--old`` row's scores with one build's python, and ``--against`` reads them as the old
side in the other.

``--rediscard`` measures the discard: each side lays away again from the declarer's twelve
cards with its own build's `discard_for` and parameter row (same deals, declarer, contract, bid
and play stream; Hand games keep the Skat, Null games the recorded discard). The declared games
come from the shipped heuristic, so their recorded discard is the old build's own: save the old
side without the switch in the old build, and compare with ``--against --rediscard`` in the new.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import numpy as np
import polars as pl

import simcards
from simcards.cards import DECK32
from simcards.games.skat import settle
from simcards.games.skat import bots as skat_bots
from simcards.games.skat.game import contract_name
from simcards.games.skat.rules import NULL, PASSED


def parse(text: str) -> dict:
    out = {}
    for item in filter(None, text.split(",")):
        key, value = item.split("=")
        out[key.strip()] = float(value)
    return out


def list_scores(games: pl.DataFrame, points, tricks) -> np.ndarray:
    """The declarer's list score of each game had he made ``points`` and ``tricks``."""
    out = np.empty(games.height, dtype=np.int64)
    for k, row in enumerate(games.iter_rows(named=True)):
        seat = row["declarer"]
        cards = DECK32.hand_codes(int(row[f"hand_{seat}"] | row["skat"]))
        result = settle(cards, contract_name(row["contract"]), row["final_bid"], int(points[k]),
                        int(tricks[k]), hand=bool(row["hand_game"]),
                        schneider_announced=bool(row["schneider_announced"]),
                        schwarz_announced=bool(row["schwarz_announced"]), ouvert=bool(row["ouvert"]))
        out[k] = result["declarer_score"]
    return out


def rediscarded(game, games: pl.DataFrame, params: np.ndarray) -> pl.DataFrame:
    """``games`` with each suit and Grand game's discard laid away again by this build's rule
    with the declarer's parameter row (Hand games and Null games keep theirs)."""
    discard = games["discard"].to_numpy().astype(np.int64).copy()
    for k, row in enumerate(games.iter_rows(named=True)):
        if row["hand_game"] or row["contract"] >= NULL:
            continue
        seat = row["declarer"]
        cards12 = np.int64(row[f"hand_{seat}"] | row["skat"])
        discard[k] = skat_bots.discard_for(np.int64(row["contract"]), cards12, game.tables,
                                           params[seat])
    return games.with_columns(pl.Series("discard", discard).cast(games["discard"].dtype))


def summary(diff: np.ndarray) -> str:
    n = diff.size
    if n < 2:
        return f"{n} games"
    mean = float(diff.mean())
    se = float(diff.std(ddof=1) / math.sqrt(n))
    return f"{mean:+.3f} ({mean - 1.96 * se:+.3f} .. {mean + 1.96 * se:+.3f}), {n} games"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--old", default="")
    parser.add_argument("--new", action="append", default=[],
                        help="a candidate row (repeat to compare several with --old)")
    parser.add_argument("--games", default=None, help="the declared games: read if there, else written")
    parser.add_argument("--save", default=None, help="write the old row's scores here and stop")
    parser.add_argument("--against", default=None, help="the old side: scores written by --save")
    parser.add_argument("--rediscard", action="store_true",
                        help="each side discards again with its own rule (suit and Grand games)")
    args = parser.parse_args()
    game = simcards.load("skat")
    if args.games and Path(args.games).exists():
        games = pl.read_parquet(args.games)
    else:
        deals = game.simulate(args.deals, seed=args.seed, bots="heuristic")
        games = deals.filter(pl.col("contract") != PASSED)
        if args.games:
            games.write_parquet(args.games)
    contract = games["contract"].to_numpy()

    def play(text):
        bots = {"kind": "heuristic", "params": parse(text)}
        declared = games
        if args.rediscard:
            declared = rediscarded(game, games, game.resolve_bots(bots)[1])
        played = game.play_declared(declared, args.seed, bots)
        return (list_scores(games, played["points_declarer"].to_numpy(),
                            played["tricks_declarer"].to_numpy()), played["won"].to_numpy())

    if args.against:
        saved = pl.read_parquet(args.against)
        if not saved["deal_index"].equals(games["deal_index"]):
            raise SystemExit("the saved scores are of other declared games (the builds bid apart)")
        old = (saved["list"].to_numpy(), saved["won"].to_numpy())
    else:
        old = play(args.old)
    if args.save:
        pl.DataFrame({"deal_index": games["deal_index"], "list": old[0], "won": old[1]}).write_parquet(args.save)
        return
    for new_text in args.new or [""]:
        new = play(new_text)
        diff = new[0] - old[0]
        print(f"seed {args.seed}, {args.deals} deals; new {new_text or '-'} vs old {args.old or '-'}:"
              f" declarer list points a game {summary(diff)}; won {old[1].mean():.4f} -> "
              f"{new[1].mean():.4f}")
        for family, mask in (("grand", contract == 4), ("suit", contract < 4), ("null", contract == 5)):
            print(f"  {family}: {summary(diff[mask])}; won {old[1][mask].mean():.4f} -> "
                  f"{new[1][mask].mean():.4f}", flush=True)


if __name__ == "__main__":
    main()
