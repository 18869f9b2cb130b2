"""Doppelkopf bots: the heuristic plays better than random on the same deals, its decisions
follow their thresholds, and a random bot never announces or plays a solo."""

import itertools

import numpy as np
import polars as pl

import simcards

GAME = simcards.load("doppelkopf")
QUIET = {"solo_threshold": 999, "announce_threshold": 999, "kontra_threshold": 999,
         "no90_threshold": 999, "no60_threshold": 999, "no30_threshold": 999}


def party_gain(n: int, seed: int) -> np.ndarray:
    """Per deal and party: the Augen a heuristic-played party takes against random players,
    less what the same party takes played randomly, on the same deals. Normal games only (the
    parties fixed by the club queens), no announcements, no solos."""
    base = GAME.simulate(n, seed=seed, bots="random")
    normal = (base["game_type"] == 0).to_numpy()
    re_mask = base["re_mask"].to_numpy().astype(int)
    gains = []
    for pair in itertools.combinations(range(4), 2):
        bots = [{"kind": "heuristic", "params": QUIET} if s in pair else "random" for s in range(4)]
        deals = GAME.simulate(n, seed=seed, bots=bots)
        mask = sum(1 << s for s in pair)
        for party_seats, column in ((re_mask, "re_augen"), (15 - re_mask, "kontra_augen")):
            chosen = normal & (party_seats == mask)
            gains.append(deals[column].to_numpy()[chosen].astype(float)
                         - base[column].to_numpy()[chosen])
    return np.concatenate(gains)


def test_a_heuristic_party_takes_15_augen_more_than_a_random_one():
    gain = party_gain(2500, seed=9)
    assert gain.size > 2000
    mean, error = gain.mean(), gain.std() / np.sqrt(gain.size)
    assert mean - 3 * error >= 15, (mean, error)


def test_random_bots_never_announce_or_play_a_solo():
    deals = GAME.simulate(2000, seed=1, bots="random")
    calls = [c for c in deals.columns if c.startswith("ann_") and not c.startswith("ann_seat")]
    assert all((deals[c] == -1).all() for c in calls)
    assert deals["game_type"].is_in([0, 1, 2]).all()  # normal or marriage


def test_thresholds_drive_the_decisions():
    quiet = GAME.simulate(1000, seed=2, bots={"kind": "heuristic", "params": QUIET})
    assert (quiet["ann_re"] == -1).all() and (quiet["ann_kontra"] == -1).all()
    assert quiet["game_type"].is_in([0, 1, 2]).all()
    keen = GAME.simulate(1000, seed=2, bots={"kind": "heuristic",
                                             "params": {"announce_threshold": -999,
                                                        "kontra_threshold": -999,
                                                        "solo_threshold": 999}})
    normal = keen.filter(pl.col("game_type") == 0)
    assert ((normal["ann_re"] >= 11) & (normal["ann_kontra"] >= 10)).all()  # Re, and the reply
    solos = GAME.simulate(400, seed=2, bots={"kind": "heuristic", "params": {"solo_threshold": -999}})
    assert (solos["game_type"] >= 4).all()
    assert (solos["declarer"] == (solos["dealer"] + 1) % 4).all()  # forehand's solo goes first
    silent = GAME.simulate(1000, seed=2, bots={"kind": "heuristic",
                                               "params": {"marriage_silent": 1, **QUIET}})
    assert silent["game_type"].is_in([0, 3]).all() and (silent["game_type"] == 3).any()


def test_re_and_kontra_have_their_own_thresholds():
    only_re = GAME.simulate(1000, seed=2, bots={"kind": "heuristic", "params": {
        **QUIET, "announce_threshold": -999}})
    normal = only_re.filter(pl.col("game_type") == 0)
    assert (normal["ann_re"] == 12).all() and (normal["ann_kontra"] == -1).all()
    only_kontra = GAME.simulate(1000, seed=2, bots={"kind": "heuristic", "params": {
        **QUIET, "kontra_threshold": -999}})
    normal = only_kontra.filter(pl.col("game_type") == 0)
    assert (normal["ann_re"] == -1).all() and (normal["ann_kontra"] >= 11).all()


def test_a_threshold_out_of_reach_is_never_called_nor_passed_over():
    eager = {"announce_threshold": -999, "kontra_threshold": -999, "no90_threshold": -999,
             "no60_threshold": -999, "no30_threshold": -999, "solo_threshold": 999}
    deals = GAME.simulate(500, seed=2, bots={"kind": "heuristic", "params": {
        **eager, "announce_threshold": 1e9}})
    assert (deals["ann_re"] == -1).all() and (deals["ann_kontra_no30"] >= 0).any()
    deals = GAME.simulate(500, seed=2, bots={"kind": "heuristic", "params": {
        **eager, "no60_threshold": 1e9}})
    assert (deals["ann_re_no90"] >= 0).any() and (deals["ann_re_no60"] == -1).all()
    assert (deals["ann_kontra_no30"] == -1).all()


def test_call_gains_compare_the_same_deals():
    from simcards.games.doppelkopf.calls import call_gains

    gains = call_gains(GAME, deals=2000, seed=3)
    re = gains.filter(pl.col("call") == "Re").row(0, named=True)
    # Re's gain over every deal is its gain where made, diluted by the deals without the call
    assert re["made"] > 0
    assert abs(re["gain_mean"] * 2000 - re["gain_made_mean"] * re["made"]) < 1e-6
    never = gains.filter(pl.col("made") == 0)
    assert (never["gain_mean"] == 0).all()


def test_announcements_follow_the_estimate():
    deals = GAME.simulate(3000, seed=4, bots="heuristic")
    threshold = dict((n, d) for n, d, _ in GAME.bots.params)["announce_threshold"]
    normal = deals.filter(pl.col("game_type") == 0)
    for row in normal.head(300).iter_rows(named=True):
        seat = row["ann_seat_re"]
        if seat >= 0 and row["ann_re"] == 12:  # a first call before any card: on the hand alone
            assert row[f"est_{seat}"] >= threshold
