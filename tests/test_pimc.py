"""The `pimc` bot (simcards/games/klaverjas/_pimc.py): its samples agree with what the seat
knows, it plays legal cards, and its runs are reproducible however they are split."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import simcards
from simcards.cards import SUITS
from simcards.games.klaverjas import _kernels as K
from simcards.games.klaverjas import _pimc
from simcards.rng import stream_state

GAME = simcards.load("klaverjas-rotterdam")
PIMC_SEAT0 = [{"kind": "pimc", "params": {"samples": 1}}, "heuristic", "heuristic", "heuristic"]


def played_position(seed: int, cards: int, amsterdam: bool = False):
    game = simcards.load("klaverjas-amsterdam" if amsterdam else "klaverjas-rotterdam")
    rng = random.Random(seed)
    deck = list(game.deck.codes)
    rng.shuffle(deck)
    state = game.deal([deck[8 * s:8 * s + 8] for s in range(4)], dealer=rng.randrange(4),
                      trump=SUITS[rng.randrange(4)], declarer=rng.randrange(4))
    for _ in range(cards):
        state.play(rng.choice(sorted(state.legal_moves())))
    return state


@settings(max_examples=150)
@given(st.integers(0, 2**32), st.integers(0, 30), st.booleans(), st.integers(0, 2**32))
def test_samples_keep_what_the_seat_knows(seed, cards, amsterdam, draw_seed):
    state = played_position(seed, cards, amsterdam)
    s = state._st
    seat = int(s[K.S_TO_MOVE])
    out = np.zeros(4, dtype=np.int64)
    strict = _pimc.sample_hands(s, seat, stream_state(draw_seed, 0, 9), out)
    unseen = 0xFFFFFFFF & ~int(s[K.S_PLAYED]) & ~int(s[K.S_HAND + seat])
    assert int(out[seat]) == int(s[K.S_HAND + seat])
    union = 0
    for other in range(4):
        assert bin(int(out[other])).count("1") == bin(int(s[K.S_HAND + other])).count("1")
        assert union & int(out[other]) == 0
        union |= int(out[other])
        if other != seat and strict:
            # no card of a suit the seat has shown void in
            assert int(out[other]) & ~int(_pimc._allowed(s, other, int(s[K.S_TRUMP]))) == 0
    assert union == unseen | int(s[K.S_HAND + seat])
    # the true deal satisfies every void, so a consistent sample always exists
    assert strict


def test_pimc_plays_legal_cards_and_is_reproducible():
    whole = GAME.simulate(2, seed=11, bots=PIMC_SEAT0)
    again = GAME.simulate(2, seed=11, bots=PIMC_SEAT0)
    alone = GAME.simulate(1, seed=11, bots=PIMC_SEAT0, start=1)
    assert whole.equals(again)
    assert whole.slice(1, 1).equals(alone)
    assert (whole["points_0"] + whole["points_1"] == 162).all()


def test_pimc_replays_legally():
    """Every card of a pimc deal is legal under the naive rules (the replay checks each one)."""
    from naive import klaverjas as NK

    kinds, params = GAME.resolve_bots(PIMC_SEAT0)
    row, cards = GAME.run_deal(11, 0, kinds, params)
    hands = [set(NK.mask_cards(row[f"hand_{s}"])) for s in range(4)]
    deal = NK.Deal(hands, row["dealer"], row["trump"], row["declarer"])
    for card in cards:
        deal.play(int(card))
    assert deal.points == [row["points_0"], row["points_1"]]


def test_pimc_kraken_runs():
    kraken = simcards.load("kraken-contra", deals_per_match=1)
    frames = kraken.simulate_chunk(1, seed=3, bots=PIMC_SEAT0)
    assert frames["deals"].height == 1

