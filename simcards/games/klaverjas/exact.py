"""Exact odds of one hand's melds, from all C(32,8) = 10,518,300 eight-card hands.

The melds are those of docs/rules.md, kraken-contra and the ``roem_hand_*`` columns: runs of 3 / 4 / 5 or
more consecutive cards of a suit (natural order) 20 / 50 / 100 each, four of a kind 100 (four
jacks 200) for the ranks in ``hand_four_kind_ranks``, and stuk (K and Q of trump) 20.

How: every hand is four suit bytes (one bit per rank) whose bit counts add up to 8. A Numba
driver walks every such quadruple once, trump fixed as suit 0 (all suits are alike, so any
trump gives the same odds), and counts hands by (run total, four-of-a-kind total, stuk). The
walk takes well under a second; its results are cached per ``hand_four_kind_ranks``.

What the odds describe: a seat's hand melds when the trump does not depend on that hand, as
with ``trump_selection = "random"``. When a bot names trump from its own hand, the stuk part is
no longer independent of the hand; the run and four-of-a-kind parts (``with_stuk=False``) do
not depend on trump and stay exact for every seat.

    >>> from simcards.games.klaverjas.exact import hand_meld_distribution
    >>> odds = hand_meld_distribution()          # value -> probability
    >>> round(odds[0], 4)                 # no meld at all
    0.7295
"""

from __future__ import annotations

from functools import lru_cache
from math import comb

import numpy as np
import polars as pl

from simcards._jit import driver
from simcards.errors import UserError
from simcards.games.klaverjas.rules import (
    RANKS,
    RK,
    RQ,
    STUK_VALUE,
    hand_run_value,
    run_lengths,
)
from simcards.games.options import normalise_item

N_HANDS = comb(32, 8)
COMPONENTS = ("total", "runs", "four_kind", "stuk")
_STEP = 10  # every meld value is a multiple of 10; counts are indexed by value // 10


@driver
def _joint_counts(run_value, four_value, stuk_byte, n_run_bins, n_four_bins):
    """counts[runs // 10, four_kind // 10, stuk] over every 8-card hand, suit 0 being trump.
    ``run_value[b]``: run melds of one suit byte; ``four_value[b]``: four-of-a-kind melds of the
    ranks set in b (the AND of the four suit bytes)."""
    by_count = np.zeros((9, 256), dtype=np.int64)  # bytes with k bits, in order
    n_by_count = np.zeros(9, dtype=np.int64)
    for b in range(256):
        k = 0
        x = b
        while x:
            x &= x - 1
            k += 1
        by_count[k, n_by_count[k]] = b
        n_by_count[k] += 1
    counts = np.zeros((n_run_bins, n_four_bins, 2), dtype=np.int64)
    for k0 in range(9):
        for k1 in range(9 - k0):
            for k2 in range(9 - k0 - k1):
                k3 = 8 - k0 - k1 - k2
                for i0 in range(n_by_count[k0]):
                    b0 = by_count[k0, i0]
                    stuk = 1 if (b0 & stuk_byte) == stuk_byte else 0
                    r0 = run_value[b0]
                    for i1 in range(n_by_count[k1]):
                        b1 = by_count[k1, i1]
                        r1 = r0 + run_value[b1]
                        a1 = b0 & b1
                        for i2 in range(n_by_count[k2]):
                            b2 = by_count[k2, i2]
                            r2 = r1 + run_value[b2]
                            a2 = a1 & b2
                            for i3 in range(n_by_count[k3]):
                                b3 = by_count[k3, i3]
                                runs = r2 + run_value[b3]
                                four = four_value[a2 & b3]
                                counts[runs // 10, four // 10, stuk] += 1
    return counts


def _check_ranks(hand_four_kind_ranks) -> tuple[str, ...]:
    if isinstance(hand_four_kind_ranks, str) or not isinstance(hand_four_kind_ranks, (list, tuple)):
        raise UserError(f"hand_four_kind_ranks = {hand_four_kind_ranks!r} is not allowed; use a "
                         f"list of {', '.join(repr(r) for r in RANKS)}")
    ranks = tuple(normalise_item(r) for r in hand_four_kind_ranks)
    bad = [r for r in hand_four_kind_ranks if normalise_item(r) not in RANKS]
    if bad:
        raise UserError(f"hand_four_kind_ranks = {list(hand_four_kind_ranks)!r} is not allowed; "
                         f"use a list of {', '.join(repr(r) for r in RANKS)}")
    return tuple(r for r in RANKS if r in ranks)  # canonical order for the cache


@lru_cache(maxsize=16)
def _joint(ranks: tuple[str, ...]) -> np.ndarray:
    run_value = np.array([sum(hand_run_value(n) for n in run_lengths(b)) for b in range(256)],
                         dtype=np.int64)
    per_rank = [(200 if r == "J" else 100) if r in ranks else 0 for r in RANKS]
    four_value = np.array([sum(per_rank[i] for i in range(8) if b >> i & 1) for b in range(256)],
                          dtype=np.int64)
    # an 8-card hand holds at most two fours of a kind and runs worth at most 120
    n_run_bins = 120 // _STEP + 1
    n_four_bins = max(four_value[b] for b in range(256) if bin(b).count("1") <= 2) // _STEP + 1
    joint = _joint_counts(run_value, four_value, (1 << RK) | (1 << RQ), n_run_bins, n_four_bins)
    if int(joint.sum()) != N_HANDS:
        raise AssertionError("meld enumeration missed hands")
    joint.setflags(write=False)
    return joint


def hand_meld_counts(hand_four_kind_ranks=RANKS, with_stuk: bool = True,
                     component: str = "total") -> dict[int, int]:
    """How many of the C(32,8) hands have each meld value (values with no hand left out).

    ``component``: "total" (the ``roem_hand_*`` value), or one part: "runs", "four_kind",
    "stuk". ``with_stuk=False`` leaves stuk out of the total (for a trump chosen from the hand).
    """
    if component not in COMPONENTS:
        raise UserError(f"component = {component!r} is not allowed; use one of "
                         f"{', '.join(repr(c) for c in COMPONENTS)}")
    if not isinstance(with_stuk, bool):
        raise UserError(f"with_stuk = {with_stuk!r} is not allowed; use true or false")
    joint = _joint(_check_ranks(hand_four_kind_ranks))
    out: dict[int, int] = {}
    for r, f, s in zip(*np.nonzero(joint)):
        runs, four, stuk = int(r) * _STEP, int(f) * _STEP, int(s) * STUK_VALUE
        value = {"runs": runs, "four_kind": four, "stuk": stuk,
                 "total": runs + four + (stuk if with_stuk else 0)}[component]
        out[value] = out.get(value, 0) + int(joint[r, f, s])
    return dict(sorted(out.items()))


def hand_meld_distribution(hand_four_kind_ranks=RANKS, with_stuk: bool = True,
                           component: str = "total") -> dict[int, float]:
    """Probability of each meld value of one random 8-card hand (see `hand_meld_counts`)."""
    return {v: c / N_HANDS for v, c in
            hand_meld_counts(hand_four_kind_ranks, with_stuk, component).items()}


def hand_meld_table(hand_four_kind_ranks=RANKS, with_stuk: bool = True,
                    component: str = "total") -> pl.DataFrame:
    """The same as a frame: value, hands (count out of C(32,8)), probability."""
    counts = hand_meld_counts(hand_four_kind_ranks, with_stuk, component)
    return pl.DataFrame({
        "value": list(counts), "hands": list(counts.values()),
        "probability": [c / N_HANDS for c in counts.values()],
    }, schema={"value": pl.Int64, "hands": pl.Int64, "probability": pl.Float64})
