"""The Skat heuristic declarer's discard for suit games and Grand (`bots._discard_suit_game`):
golden twelve-card hands written as card codes (the measured gain of each rule is in the commit
that added it: scripts/skat_play_ab.py --rediscard)."""

import numpy as np

import simcards
from simcards.cards import DECK32
from simcards.games.skat import bots
from simcards.games.skat.rules import CLUBS, GRAND

GAME = simcards.load("skat")
PARAMS = GAME.resolve_bots("heuristic")[1][0]


def _discard(codes, contract):
    cards12 = np.int64(DECK32.parse_hand(codes))
    return sorted(DECK32.hand_codes(int(bots.discard_for(np.int64(contract), cards12, GAME.tables,
                                                         PARAMS))))


def test_a_doubleton_without_its_ace_goes_whole_for_a_void():
    # Clubs: KH 7H leave a void in hearts (4 points buried); he used to bury 10S and KH (14
    # points), one at a time, and kept a lone 7H the defenders could lead through
    hand = ["JC", "JS", "AC", "KC", "QC", "9C", "8C", "KH", "7H", "10S", "9S", "8S"]
    assert _discard(hand, CLUBS) == sorted(["KH", "7H"])


def test_never_a_trump_an_ace_or_a_ten_with_its_ace():
    # Grand: jacks are trumps; the aces and the ten beside its ace stay, and the spade
    # doubleton 10S KS goes (a void)
    hand = ["JC", "JS", "JH", "AC", "10C", "KC", "AD", "10D", "AH", "10H", "10S", "KS"]
    assert _discard(hand, GRAND) == sorted(["10S", "KS"])


def test_two_singletons_make_two_voids():
    # Clubs: the lone 10H and the lone KD go (two voids, 14 points), not the loose 10S of a
    # three-card suit
    hand = ["JC", "JS", "JD", "AC", "KC", "QC", "9C", "10H", "KD", "10S", "9S", "8S"]
    assert _discard(hand, CLUBS) == sorted(["10H", "KD"])


def test_a_void_comes_before_the_points_of_two_loose_tens():
    # Clubs: KH 7H empty hearts (4 points) for him to ruff; 10S and 10D would bury 20 and leave
    # no void (he laid the tens away while a void was worth 12 points)
    hand = ["JC", "JS", "AC", "KC", "KH", "7H", "10S", "9S", "8S", "10D", "9D", "8D"]
    assert _discard(hand, CLUBS) == sorted(["KH", "7H"])
