"""Card codes, card ids (docs/rules.md, "Common conventions") and the bitmask helpers."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simcards.cards import (
    DECK32,
    DECK48,
    DECK52,
    highest_bit_index,
    lowest_bit_index,
    mask_to_ids,
    nth_bit_index,
    popcount,
    suit_index,
)

SUITS = "CDHS"


# ------------------------------------------------------------------ ids as docs/rules.md, "Common conventions"


def test_deck32_ids_are_suit_times_8_plus_rank():
    ranks = ["7", "8", "9", "10", "J", "Q", "K", "A"]
    for s, suit in enumerate(SUITS):
        for r, rank in enumerate(ranks):
            assert DECK32.card_id(rank + suit) == s * 8 + r
            assert DECK32.code(s * 8 + r) == rank + suit
            assert DECK32.suit(s * 8 + r) == s
            assert DECK32.rank(s * 8 + r) == r
    assert DECK32.n_cards == 32
    assert DECK32.full_mask == (1 << 32) - 1
    assert DECK32.card_id("7C") == 0 and DECK32.card_id("AS") == 31
    assert DECK32.card_id("JC") == 4 and DECK32.card_id("10H") == 19


def test_deck52_ids_are_suit_times_13_plus_rank():
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    for s, suit in enumerate(SUITS):
        for r, rank in enumerate(ranks):
            assert DECK52.card_id(rank + suit) == s * 13 + r
            assert DECK52.code(s * 13 + r) == rank + suit
    assert DECK52.n_cards == 52
    assert DECK52.card_id("2C") == 0 and DECK52.card_id("QS") == 49
    assert DECK52.codes[DECK52.card_id("AS")] == "AS"


def test_doppelkopf_ids_have_two_copies():
    ranks = ["9", "10", "J", "Q", "K", "A"]
    assert DECK48.n_cards == 48
    for s, suit in enumerate(SUITS):
        for r, rank in enumerate(ranks):
            first = s * 6 + r
            assert DECK48.card_id(rank + suit) == first  # a code names the first copy
            assert DECK48.code(first) == DECK48.code(24 + first) == rank + suit
            assert DECK48.suit(24 + first) == s and DECK48.rank(24 + first) == r
    # a repeated code takes the second copy: id = copy * 24 + suit * 6 + rank
    assert DECK48.parse_hand(["QC", "QC"]) == (1 << 3) | (1 << 27)
    assert DECK48.parse_hand("10H 10H AD") == (1 << 13) | (1 << 37) | (1 << 11)
    assert DECK48.hand_codes((1 << 3) | (1 << 27) | (1 << 0)) == ["9C", "QC", "QC"]
    with pytest.raises(ValueError, match=r"'QC' appears more often than the 48-card deck holds it \(2x\)"):
        DECK48.parse_hand(["QC", "QC", "QC"])


# ------------------------------------------------------------------ parsing


@pytest.mark.parametrize("text, expected", [
    ("10H", "10H"), ("TH", "10H"), ("th", "10H"), ("jc", "JC"), (" qs ", "QS"), ("Ad", "AD"),
    ("7c", "7C"),
])
def test_parse_variants(text, expected):
    assert DECK32.code(DECK32.card_id(text)) == expected
    assert DECK52.code(DECK52.card_id(text)) == expected


def test_bad_card_messages():
    with pytest.raises(ValueError) as err:
        DECK52.card_id("1H")
    assert str(err.value) == "'1H' is not a card; ranks are 2-10, J, Q, K, A and suits C, D, H, S"
    with pytest.raises(ValueError) as err:
        DECK32.card_id("5H")  # a real card, but not in the 32-card deck
    assert str(err.value) == ("'5H' is not a card in the 32-card deck; ranks are 7-10, J, Q, K, A "
                              "and suits C, D, H, S")
    with pytest.raises(ValueError) as err:
        DECK48.card_id("8S")
    assert "'8S' is not a card in the 48-card deck; ranks are 9-10, J, Q, K, A" in str(err.value)
    for bad in ["", "H", "10", "10X", "JJ", "11H", "A H", "XH", "1OH", 7, None]:
        with pytest.raises(ValueError, match="is not a card"):
            DECK32.card_id(bad)


def test_suit_index():
    assert [suit_index(s) for s in "CDHS"] == [0, 1, 2, 3]
    assert suit_index(" h ") == 2
    for bad in ["X", "CD", "", 3]:
        with pytest.raises(ValueError, match="is not a suit; suits are C, D, H, S"):
            suit_index(bad)


def test_parse_hand_forms():
    assert DECK32.parse_hand("JC 9C AC") == DECK32.parse_hand(["jc", "9c", "AC"]) == (
        (1 << 4) | (1 << 2) | (1 << 7))
    with pytest.raises(ValueError, match=r"'jc' appears more often than the 32-card deck holds it \(1x\)"):
        DECK32.parse_hand(["JC", "jc"])


@pytest.mark.parametrize("deck", [DECK32, DECK52, DECK48], ids=lambda d: d.name)
@settings(max_examples=300)
@given(data=st.data())
def test_hand_codes_round_trip(deck, data):
    ids = data.draw(st.sets(st.integers(0, deck.n_cards - 1), max_size=deck.n_cards))
    mask = sum(1 << i for i in ids)
    codes = deck.hand_codes(mask)
    assert len(codes) == len(ids)
    if deck.copies == 1:
        assert deck.parse_hand(codes) == mask
    else:
        # codes do not tell copies apart: parsing gives each code its lowest free copy, and the
        # result names the same cards
        assert deck.hand_codes(deck.parse_hand(codes)) == codes
    # sorted by suit, then rank, copies side by side
    keys = [(deck.suit(deck.card_id(c)), deck.rank(deck.card_id(c))) for c in codes]
    assert keys == sorted(keys)


def test_suit_masks_partition_the_deck():
    for deck in (DECK32, DECK52, DECK48):
        masks = [deck.suit_mask(s) for s in range(4)]
        assert sum(masks) == deck.full_mask
        for s, m in enumerate(masks):
            assert bin(m).count("1") == deck.n_ranks * deck.copies
            assert all(deck.suit(i) == s for i in range(deck.n_cards) if m >> i & 1)


# ------------------------------------------------------------------ bitmask helpers

int64s = st.integers(0, 2**63 - 1)


@settings(max_examples=1000)
@given(x=int64s)
def test_popcount(x):
    assert popcount(np.int64(x)) == bin(x).count("1")


@settings(max_examples=1000)
@given(x=st.integers(1, 2**63 - 1))
def test_lowest_bit_index(x):
    assert lowest_bit_index(np.int64(x)) == (x & -x).bit_length() - 1


@settings(max_examples=1000)
@given(x=st.integers(1, 2**63 - 1))
def test_highest_bit_index(x):
    assert highest_bit_index(np.int64(x)) == x.bit_length() - 1


@settings(max_examples=1000)
@given(data=st.data())
def test_nth_bit_index(data):
    x = data.draw(st.integers(1, 2**63 - 1))
    bits = [i for i in range(63) if x >> i & 1]
    n = data.draw(st.integers(0, len(bits) - 1))
    assert nth_bit_index(np.int64(x), n) == bits[n]


def test_bit_helpers_edges():
    assert popcount(np.int64(0)) == 0
    assert popcount(np.int64(2**63 - 1)) == 63
    for b in range(63):
        assert lowest_bit_index(np.int64(1 << b)) == b
        assert highest_bit_index(np.int64(1 << b)) == b
        assert popcount(np.int64(1 << b)) == 1
    assert highest_bit_index(np.int64(0)) == 0
    assert nth_bit_index(np.int64(0xFFFFFFFF), 31) == 31
    assert list(mask_to_ids(0b1010_0001)) == [0, 5, 7]
    assert mask_to_ids(0).dtype == np.int64
