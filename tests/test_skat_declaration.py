"""The Skat heuristic's choice of game after the pickup: the game of highest expected score
(`bots.choose_game`), not the one most likely won."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import simcards
from simcards.cards import DECK32
from simcards.games.skat import _kernels as K
from simcards.games.skat import bots as B

from naive import skat as naive

GAME = simcards.load("skat", scoring="seeger-fabian")
LIST_GAME = simcards.load("skat", scoring="list")
PARAMS = GAME.resolve_bots("heuristic")[1][0]


def mask(codes) -> int:
    return DECK32.parse_hand(codes)


def test_a_grand_worth_twice_the_suit_game_is_chosen_over_the_safer_suit_game():
    hand10 = mask(["7C", "9C", "10C", "JC", "9D", "10D", "AD", "7H", "8S", "AS"])
    skat = mask(["JD", "JS"])
    cards12 = hand10 | skat
    for game in (GAME, LIST_GAME):
        contract, ouvert, discard, est = B.choose_game(hand10, cards12, np.int64(-1), 0, 18,
                                                       game.tables, PARAMS)
        assert contract == 4 and ouvert == 0  # Grand with 2 (72) ...
        clubs = B.estimate(cards12 & ~B.discard_for(3, cards12, game.tables, PARAMS), 3,
                           game.tables, PARAMS)
        assert clubs > est + 0.04  # ... though clubs with 2 (36) is the likelier win


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.permutations(range(32)), st.sampled_from(naive.LADDER[:16]), st.booleans())
def test_the_chosen_game_has_the_highest_expected_score(order, bid, seeger):
    game = GAME if seeger else LIST_GAME
    T = game.tables
    hand10 = sum(1 << c for c in order[:10])
    cards12 = hand10 | (1 << order[10]) | (1 << order[11])
    codes12 = DECK32.hand_codes(cards12)
    contract, ouvert, discard, est = B.choose_game(hand10, cards12, np.int64(-1), 0, bid, T, PARAMS)
    best, chosen = -np.inf, None
    for c, name in enumerate(naive.CONTRACTS):
        open_ = c == 5 and B.estimate(cards12 & ~B.discard_for(c, cards12, T, PARAMS), c, T,
                                      PARAMS) >= PARAMS[B.P_T_OUVERT]
        if not K.can_reach(hand10, cards12, c, bid, 0, 0, 0, int(c == 5), T):
            continue
        if c == 5 and not open_ and not K.can_reach(hand10, cards12, c, bid, 0, 0, 0, 0, T):
            continue
        p = B.estimate(cards12 & ~B.discard_for(c, cards12, T, PARAMS), c, T, PARAMS)
        if c < 5 and naive.BASE_VALUE[name] * (abs(naive.matadors(codes12, name)) + 1) < bid:
            p *= PARAMS[B.P_NEEDS_SCHNEIDER]
        score = naive.expected_score(name, open_, False, codes12, bid, p, seeger)
        if score > best:
            best, chosen = score, (c, int(open_))
    if chosen is None:  # nothing reaches the bid: the overbid fallback, a suit or Grand
        assert contract < 5
    else:
        assert (contract, ouvert) == chosen
        assert discard == B.discard_for(contract, cards12, T, PARAMS)


@pytest.mark.parametrize("codes,contract,expected", [
    (["JC", "JS", "JH", "JD", "AC", "10C", "KC", "9D", "7H", "8H", "9H", "7S"], "clubs", 7),
    (["JC", "JS", "AC", "10C", "7D", "8D", "9D", "7H", "8H", "9H", "7S", "8S"], "clubs", 2),
    (["JS", "JH", "AC", "10C", "7D", "8D", "9D", "7H", "8H", "9H", "7S", "8S"], "clubs", -1),
    (["JC", "JS", "JH", "JD", "7D", "8D", "9D", "7H", "8H", "9H", "7S", "8S"], "grand", 4),
    (["JD", "AC", "10C", "7D", "8D", "9D", "7H", "8H", "9H", "7S", "8S", "9S"], "grand", -3),
])
def test_naive_matadors_match_the_kernel(codes, contract, expected):
    assert naive.matadors(codes, contract) == expected
    c = naive.CONTRACTS.index(contract)
    assert K.matadors(mask(codes), c, GAME.tables) == expected
