"""Exact hand-meld odds (simcards/games/klaverjas/exact.py): closed forms, an independent
suit-by-suit convolution, and agreement with 1,000,000 simulated deals."""

from math import comb

import numpy as np
import pytest

import simcards
from simcards.games.klaverjas import exact
from simcards.games.klaverjas.rules import RANKS
from naive import klaverjas as naive

N_HANDS = comb(32, 8)


# ------------------------------------------------------------------ exact values


def test_counts_cover_every_hand():
    for ranks in (RANKS, ("A", "10", "K", "Q"), ()):
        for component in exact.COMPONENTS:
            counts = exact.hand_meld_counts(ranks, component=component)
            assert sum(counts.values()) == N_HANDS == 10_518_300
            assert all(v % 10 == 0 and c > 0 for v, c in counts.items())
        odds = exact.hand_meld_distribution(ranks)
        assert abs(sum(odds.values()) - 1) < 1e-12


def test_stuk_probability():
    # K and Q of trump in the hand: the other 6 cards from the remaining 30
    odds = exact.hand_meld_distribution(component="stuk")
    assert odds[20] == pytest.approx(comb(30, 6) / comb(32, 8), rel=1e-15)
    assert exact.hand_meld_counts(component="stuk") == {0: N_HANDS - comb(30, 6), 20: comb(30, 6)}


def test_four_of_a_kind_closed_forms():
    # a quad leaves 4 cards from 28, which form a second quad in 7 ways
    one = comb(28, 4) - 7
    assert exact.hand_meld_counts(component="four_kind") == {
        0: N_HANDS - 8 * one - comb(8, 2),
        100: 7 * one,  # one quad, not jacks
        200: one + comb(7, 2),  # four jacks alone, or two other quads
        300: 7,  # jacks and one other quad
    }
    assert exact.hand_meld_counts(("A", "10", "K", "Q"), component="four_kind") == {
        0: N_HANDS - 4 * (comb(28, 4) - 3) - comb(4, 2),
        100: 4 * (comb(28, 4) - 3),
        200: comb(4, 2),
    }
    assert exact.hand_meld_counts((), component="four_kind") == {0: N_HANDS}


def test_run_closed_forms():
    runs = exact.hand_meld_counts(component="runs")
    # 120 = a run of exactly five in one suit and three in another: 4 * 3 suit pairs, 4 five-runs
    # (7-J .. 10-A), 6 three-runs
    assert runs[120] == 12 * 4 * 6
    assert max(runs) == 120


def _suit_table(stuk: bool):
    """{(cards, value): number of suit bytes} for one suit, value = runs (+ stuk for trump)."""
    table = {}
    for b in range(256):
        held = [i for i in range(8) if b >> i & 1]
        value = naive.hand_meld_parts([i for i in held], -1, ())["runs"]  # suit 0 cards 0..7
        if stuk and {5, 6} <= set(held):  # Q and K of the trump suit
            value += 20
        key = (len(held), value)
        table[key] = table.get(key, 0) + 1
    return table


def test_runs_and_stuk_match_a_suit_by_suit_convolution():
    # runs and stuk add up suit by suit, so their odds follow from convolving four one-suit
    # tables (the trump suit's carries stuk) under the constraint of 8 cards in all
    dist = {(0, 0): 1}
    for suit in range(4):
        nxt = {}
        for (k, v), c in dist.items():
            for (k2, v2), c2 in _suit_table(stuk=suit == 0).items():
                if k + k2 <= 8:
                    key = (k + k2, v + v2)
                    nxt[key] = nxt.get(key, 0) + c * c2
        dist = nxt
    want = {v: c for (k, v), c in sorted(dist.items()) if k == 8}
    assert exact.hand_meld_counts((), with_stuk=True) == want


def test_totals_combine_the_parts():
    total = exact.hand_meld_counts()
    no_stuk = exact.hand_meld_counts(with_stuk=False)
    assert sum(v * c for v, c in total.items()) == (
        sum(v * c for v, c in no_stuk.items()) + 20 * comb(30, 6))
    for component in ("runs", "four_kind"):
        parts = exact.hand_meld_counts(component=component)
        assert sum(v * c for v, c in parts.items()) > 0
    mean = lambda d: sum(v * c for v, c in d.items())  # noqa: E731
    assert mean(total) == (mean(exact.hand_meld_counts(component="runs"))
                           + mean(exact.hand_meld_counts(component="four_kind"))
                           + mean(exact.hand_meld_counts(component="stuk")))
    frame = exact.hand_meld_table()
    assert frame["value"].to_list() == list(total) and frame["hands"].sum() == N_HANDS


def test_options_are_checked_and_cached():
    with pytest.raises(ValueError, match="component = 'stukken' is not allowed; use one of 'total'"):
        exact.hand_meld_counts(component="stukken")
    with pytest.raises(ValueError, match="hand_four_kind_ranks = \\['A', '1'\\] is not allowed"):
        exact.hand_meld_counts(["A", "1"])
    with pytest.raises(ValueError, match="hand_four_kind_ranks = 'A' is not allowed"):
        exact.hand_meld_counts("A")
    with pytest.raises(ValueError, match="with_stuk"):
        exact.hand_meld_counts(with_stuk="no")
    # spellings and order of the ranks do not matter, and the enumeration runs once per set
    a = exact.hand_meld_counts(["a", "t", "K"])
    hits = exact._joint.cache_info().hits
    assert exact.hand_meld_counts(["K", "10", "A"]) == a
    assert exact._joint.cache_info().hits == hits + 1


# ------------------------------------------------------------------ simulation against exact


def check_against_exact(observed: np.ndarray, odds: dict[int, float], label: str):
    """Each value's frequency within 4 binomial standard errors of its exact probability;
    values expected fewer than 50 times are pooled into one bin; impossible values fail."""
    n = observed.size
    values, counts = np.unique(observed, return_counts=True)
    seen = dict(zip(values.tolist(), counts.tolist()))
    impossible = set(seen) - set(odds)
    assert not impossible, (label, impossible)
    rare_p, rare_k = 0.0, 0
    for value, p in odds.items():
        k = seen.get(value, 0)
        if n * p < 50:
            rare_p += p
            rare_k += k
            continue
        se = np.sqrt(p * (1 - p) / n)
        assert abs(k / n - p) < 4 * se, (label, value, k / n, p, (k / n - p) / se)
    se = np.sqrt(rare_p * (1 - rare_p) / n)
    assert abs(rare_k / n - rare_p) < 4 * max(se, 1 / n), (label, "rare", rare_k / n, rare_p)
    mean = sum(v * p for v, p in odds.items())
    sd = np.sqrt(sum((v - mean) ** 2 * p for v, p in odds.items()))
    assert abs(observed.mean() - mean) < 4 * sd / np.sqrt(n), (label, observed.mean(), mean)


@pytest.mark.slow
def test_simulated_hand_melds_match_exact_odds():
    n = 1_000_000
    game = simcards.load("klaverjas-rotterdam", trump_selection="random")
    df = game.simulate(n, seed=2026, bots="random")
    odds = exact.hand_meld_distribution()
    for seat in range(4):
        check_against_exact(df[f"roem_hand_{seat}"].to_numpy(), odds, f"seat {seat}")
    trump = df["trump"].to_numpy().astype(np.int64)
    # stuk alone: K and Q of the turned trump in the hand
    hand0 = df["hand_0"].to_numpy().astype(np.int64)
    stuk = ((hand0 >> (8 * trump + 5)) & 3) == 3
    assert abs(stuk.mean() - comb(30, 6) / comb(32, 8)) < 4 * np.sqrt(0.0565 * 0.9435 / n)


@pytest.mark.slow
def test_simulated_melds_without_stuk_match_exact_when_bots_name_trump():
    # the heuristic names trump from its own hand, so stuk is not independent of the hand, but
    # runs and fours of a kind do not depend on trump; here with a non-default rank option
    n = 300_000
    ranks = ["A", "J", "7"]
    game = simcards.load("klaverjas-amsterdam", hand_four_kind_ranks=ranks)
    df = game.simulate(n, seed=77, bots="heuristic")
    trump = df["trump"].to_numpy().astype(np.int64)
    odds = exact.hand_meld_distribution(ranks, with_stuk=False)
    for seat in range(4):
        hand = df[f"hand_{seat}"].to_numpy().astype(np.int64)
        stuk = 20 * (((hand >> (8 * trump + 5)) & 3) == 3)
        check_against_exact(df[f"roem_hand_{seat}"].to_numpy() - stuk, odds, f"seat {seat}")
