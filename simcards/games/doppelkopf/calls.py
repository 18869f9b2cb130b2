"""What each call of the Doppelkopf heuristic gains its party, in duplicate.

    from simcards.games.doppelkopf.calls import call_gains
    call_gains(simcards.load("doppelkopf"), deals=40_000, seed=1)   # a polars DataFrame

Every call (Re, Kontra, no 90 / 60 / 30 of each party, the solo) is measured on the same deals
twice: once with the bots as given, once with that call's threshold set out of reach at every
seat (`OUT_OF_REACH`), so that no bot ever makes it (nor passes over it to a higher level:
bots.bot_call). The bots decide everything else as before, so a deal on which the call was not
made plays out identically in both runs. The gain of a deal is its calling party's points with
the call less without it (the party's points: the sum of its players' scores; the soloist's
score for the solo), 0 on the deals where the party did not make the call; its mean is given
over all deals and over the deals where the call was made, each with a 95% interval.

No 90, 60 and 30 share a threshold between the parties; suppressing one suppresses it for both,
so a deal where both parties made the call counts for each, with the other party's call gone
as well (rare: both parties above a no 90 threshold). With the ``pflichtsolo`` option a solo
not played moves the owed ones of its series, so the solo's row then measures that too.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from simcards.games.doppelkopf.rules import GAME_TYPES

OUT_OF_REACH = 1e9
# declared solos (a silent marriage is the marriage's choice, not the solo threshold's)
DECLARED_SOLOS = [k for k, name in enumerate(GAME_TYPES) if name.endswith("_solo") or name == "fleshless"]


@dataclass(frozen=True)
class Call:
    label: str
    threshold: str  # the parameter set out of reach
    column: str | None  # the announcement column that records it (None: the solo)
    party: str  # "re", "kontra" or "soloist"


CALLS = (
    Call("Re", "announce_threshold", "ann_re", "re"),
    Call("Kontra", "kontra_threshold", "ann_kontra", "kontra"),
    Call("Re no 90", "no90_threshold", "ann_re_no90", "re"),
    Call("Kontra no 90", "no90_threshold", "ann_kontra_no90", "kontra"),
    Call("Re no 60", "no60_threshold", "ann_re_no60", "re"),
    Call("Kontra no 60", "no60_threshold", "ann_kontra_no60", "kontra"),
    Call("Re no 30", "no30_threshold", "ann_re_no30", "re"),
    Call("Kontra no 30", "no30_threshold", "ann_kontra_no30", "kontra"),
    Call("solo", "solo_threshold", None, "soloist"),
)


def made(call: Call) -> pl.Expr:
    """The deals where ``call`` was made (an Absage passed over counts)."""
    if call.column is None:
        return pl.col("game_type").is_in(DECLARED_SOLOS)
    return pl.col(call.column) >= 0


def call_rates(lf: pl.LazyFrame) -> pl.DataFrame:
    """How often each call is made, per deal of a run: n, hits, rate and its Wilson interval."""
    from simcards.stats import rate_exprs

    return pl.concat([lf.select(pl.lit(c.label).alias("call"), *rate_exprs(made(c)))
                      for c in CALLS]).collect()


def _party_points(deals: pl.DataFrame, party: str) -> np.ndarray:
    """Per deal: the party's points, Re's or Kontra's scores summed."""
    scores = deals.select([f"score_{s}" for s in range(4)]).to_numpy().astype(np.int64)
    re_mask = deals["re_mask"].to_numpy().astype(np.int64)
    re = (scores * np.stack([(re_mask >> s) & 1 for s in range(4)], axis=1)).sum(axis=1)
    return re if party == "re" else -re


def _soloist_points(deals: pl.DataFrame, seats: np.ndarray) -> np.ndarray:
    """Per deal: the score of the seat in ``seats`` (the soloist of the run with the call)."""
    scores = deals.select([f"score_{s}" for s in range(4)]).to_numpy().astype(np.int64)
    return scores[np.arange(deals.height), seats]


def _interval(values: np.ndarray) -> tuple[float, float, float]:
    if values.size == 0:
        return float("nan"), float("nan"), float("nan")
    mean = float(values.mean())
    half = 1.96 * float(values.std(ddof=1)) / np.sqrt(values.size) if values.size > 1 else float("nan")
    return mean, mean - half, mean + half


def with_threshold(bots: Any, name: str, value: float, n_seats: int = 4) -> list[dict]:
    """``bots`` (one heuristic spec, or one per seat) with parameter ``name`` set at every seat."""
    seats = bots if isinstance(bots, list) else [bots] * n_seats
    out = []
    for item in seats:
        item = {"kind": item} if isinstance(item, str) else dict(item)
        out.append({**item, "params": {**item.get("params", {}), name: value}})
    return out


def call_gains(game, deals: int = 40_000, seed: int = 0, bots: Any = "heuristic",
               start: int = 0) -> pl.DataFrame:
    """Per call (`CALLS`): deals measured, deals where it was made, and the calling party's gain
    per deal in duplicate (module docstring) with its 95% interval, over every deal
    (``gain_*``) and over the deals where the call was made (``gain_made_*``). ``bots`` are
    built-in heuristic bots (every seat); ``seconds`` is what the measurement took."""
    began = time.perf_counter()
    base = game.simulate(deals, seed=seed, bots=bots, start=start)
    suppressed = {}
    for name in dict.fromkeys(c.threshold for c in CALLS):
        suppressed[name] = game.simulate(deals, seed=seed, start=start,
                                         bots=with_threshold(bots, name, OUT_OF_REACH))
    rows = []
    for call in CALLS:
        without = suppressed[call.threshold]
        flag = base.select(made(call)).to_series().to_numpy()
        if call.party == "soloist":
            seats = np.clip(base["declarer"].to_numpy(), 0, 3)
            gain = _soloist_points(base, seats) - _soloist_points(without, seats)
        else:
            gain = _party_points(base, call.party) - _party_points(without, call.party)
        gain = np.where(flag, gain, 0).astype(float)
        over_all, over_made = _interval(gain), _interval(gain[flag])
        rows.append({"call": call.label, "out of reach": call.threshold, "deals": deals,
                     "made": int(flag.sum()),
                     "gain_mean": over_all[0], "gain_lo": over_all[1], "gain_hi": over_all[2],
                     "gain_made_mean": over_made[0], "gain_made_lo": over_made[1],
                     "gain_made_hi": over_made[2]})
    seconds = time.perf_counter() - began
    return pl.DataFrame(rows).with_columns(pl.lit(round(seconds, 1)).alias("seconds"))
