"""Roem in the hand (docs/rules.md, kraken-contra and kraken-scorebord): the single highest meld decides, each tie-break
step of both rulesets, stuk, the trick rule; and the kernel against the naive reference."""

from naive import kraken as naive
import numpy as np
import pytest

import simcards
from simcards.cards import DECK32

CONTRA = simcards.load("kraken-contra")
SCOREBORD = simcards.load("kraken-scorebord")
BOTH = pytest.mark.parametrize("game", [CONTRA, SCOREBORD], ids=["contra", "scorebord"])


def hands(*seats: str) -> list[list[str]]:
    return [s.split() for s in seats]


@BOTH
def test_the_single_highest_meld_decides_not_the_sum(game):
    # "Als speler 1 50 roem heeft en speler 2 60 roem heeft (3x 20 roem) dan heeft speler 1 nog
    # steeds de hoogste roem" (here ZIJ's 60 is spread over both its hands)
    r = game.hand_roem(hands("10S JS QS KS", "7C 8C 9C 7D 8D 9D", "", "7H 8H 9H"), "D")
    assert r["team"] == 0 and r["hand_roem"] == [50, 0] and r["top_meld"] == 50
    assert r["contested"] is True


@BOTH
def test_equal_value_higher_top_card_wins_before_suit(game):
    # 20 against 20: the king-high run in diamonds beats the ten-high run in spades
    r = game.hand_roem(hands("8S 9S 10S", "JD QD KD", "", ""), "C")
    assert r["team"] == 1 and r["hand_roem"] == [0, 20]
    # aces count high: Q-K-A beats J-Q-K
    r = game.hand_roem(hands("JS QS KS", "QD KD AD", "", ""), "C")
    assert r["team"] == 1


def test_suit_order_contra_spades_hearts_clubs_diamonds():
    r = CONTRA.hand_roem(hands("7C 8C 9C", "7D 8D 9D", "", ""), "H")
    assert r["team"] == 0  # clubs above diamonds
    r = CONTRA.hand_roem(hands("7H 8H 9H", "", "", "7S 8S 9S"), "C")
    assert r["team"] == 1  # spades above hearts
    r = CONTRA.hand_roem(hands("10D JD QD KD", "10C JC QC KC", "", ""), "H")
    assert r["team"] == 1 and r["hand_roem"] == [0, 50]


def test_suit_order_scorebord_spades_hearts_diamonds_clubs():
    r = SCOREBORD.hand_roem(hands("7C 8C 9C", "7D 8D 9D", "", ""), "H")
    assert r["team"] == 1  # diamonds above clubs
    r = SCOREBORD.hand_roem(hands("7H 8H 9H", "", "", "7S 8S 9S"), "C")
    assert r["team"] == 1  # spades above hearts
    r = SCOREBORD.hand_roem(hands("7H 8H 9H", "7D 8D 9D", "", ""), "C")
    assert r["team"] == 0  # hearts above diamonds


def test_suit_order_is_an_option():
    game = simcards.load("kraken-contra", hand_roem_suit_order=["D", "C", "H", "S"])
    assert game.hand_roem(hands("7C 8C 9C", "7D 8D 9D", "", ""), "H")["team"] == 1
    with pytest.raises(ValueError, match="hand_roem_suit_order"):
        simcards.load("kraken-contra", hand_roem_suit_order=["S", "S", "H", "D"])


def test_contra_four_of_a_kind_beats_a_run_of_equal_value():
    # "Vier dezelfde zijn bij gelijke punten meer waard dan een vijf- of zeskaart"
    r = CONTRA.hand_roem(hands("7C 7D 7H 7S", "9H 10H JH QH KH", "", ""), "C")
    assert r["team"] == 0 and r["top_meld_four"] is True and r["hand_roem"] == [100, 0]
    r = CONTRA.hand_roem(hands("8C 8D 8H 8S", "", "", "9D 10D JD QD KD AD"), "C")
    assert r["team"] == 0 and r["hand_roem"] == [100, 0]


def test_scorebord_four_of_a_kind_and_run_compare_top_cards():
    # no four-over-run rule: four sevens lose to a king-high run of five
    r = SCOREBORD.hand_roem(hands("7C 7D 7H 7S", "9H 10H JH QH KH", "", ""), "C")
    assert r["team"] == 1 and r["top_meld_four"] is False and r["hand_roem"] == [0, 100]
    # four kings beat a queen-high run of five
    r = SCOREBORD.hand_roem(hands("KC KD KH KS", "8D 9D 10D JD QD", "", ""), "C")
    assert r["team"] == 0 and r["top_meld_four"] is True


@BOTH
def test_four_jacks_beat_everything(game):
    r = game.hand_roem(hands("8C 9C 10C QC KC AC", "JC JD JH JS", "", ""), "H")
    assert r["team"] == 1 and r["hand_roem"] == [0, 200] and r["top_meld"] == 200


@BOTH
def test_winning_team_scores_all_melds_of_both_hands(game):
    # "Nadat gekeken is wie de hoogste roem heeft ... wordt de roem opgeteld"
    r = game.hand_roem(hands("10S JS QS KS", "7D 8D 9D", "7C 8C 9C", ""), "H")
    assert r["team"] == 0 and r["hand_roem"] == [70, 0]
    # a card may be in a run and in a four of a kind: 100 + 20
    r = game.hand_roem(hands("7C 7D 7H 7S 8S 9S", "", "", "QH KH AH"), "C")
    assert r["team"] == 0 and r["hand_roem"] == [120, 0]
    # runs of six and more are 100, counted once
    r = game.hand_roem(hands("7H 8H 9H 10H JH QH", "", "", ""), "C")
    assert r["hand_roem"] == [100, 0]


@BOTH
def test_stuk_is_left_out_of_the_comparison_and_always_counts(game):
    # "Als een speler vrouw heer van troef op de hand heeft dan krijgt hij ALTIJD 20 roem"
    r = game.hand_roem(hands("QH KH", "7C 8C 9C", "", ""), "H")
    assert r["team"] == 1 and r["hand_roem"] == [0, 20] and r["stuk"] == [20, 0]
    r = game.hand_roem(hands("QH KH 7S 8S 9S", "8D 9D 10D", "", ""), "H")
    assert r["team"] == 1 and r["hand_roem"] == [0, 20] and r["stuk"] == [20, 0]
    # J-Q-K of trump: a run (compared) plus stuk
    r = game.hand_roem(hands("JH QH KH", "8C 9C 10C", "", ""), "H")
    assert r["team"] == 0 and r["hand_roem"] == [20, 0] and r["stuk"] == [20, 0]
    # stuk alone: nobody holds a meld
    r = game.hand_roem(hands("", "", "", "QS KS"), "S")
    assert r["team"] is None and r["hand_roem"] == [0, 0] and r["stuk"] == [0, 20]


def test_contra_hand_roem_needs_a_trick():
    # "De bijgeschreven roem in de hand is uiteindelijk alleen geldig als het betreffende koppel
    # tenminste één slag weet te halen" (stuk included)
    deal = hands("10S JS QS KS QH KH", "7D 8D 9D", "", "")
    r = CONTRA.hand_roem(deal, "H", tricks=(0, 8))
    assert r["hand_roem"] == [0, 0] and r["stuk"] == [0, 0]
    r = CONTRA.hand_roem(deal, "H", tricks=(1, 7))
    assert r["hand_roem"] == [50, 0] and r["stuk"] == [20, 0]
    # the losing team's melds stay void when the winner takes no trick
    assert CONTRA.hand_roem(deal, "H", tricks=(0, 8))["team"] == 0


def test_scorebord_hand_roem_needs_no_trick():
    deal = hands("10S JS QS KS QH KH", "7D 8D 9D", "", "")
    r = SCOREBORD.hand_roem(deal, "H", tricks=(0, 8))
    assert r["hand_roem"] == [50, 0] and r["stuk"] == [20, 0]


def test_hand_four_kind_ranks_option():
    game = simcards.load("kraken-contra", hand_four_kind_ranks=["J", "A"])
    r = game.hand_roem(hands("7C 7D 7H 7S", "8D 9D 10D", "", ""), "C")
    assert r["team"] == 1 and r["hand_roem"] == [0, 20]
    r = game.hand_roem(hands("AC AD AH AS", "8D 9D 10D", "", ""), "C")
    assert r["team"] == 0 and r["hand_roem"] == [100, 0]


def test_bad_hands_are_named():
    with pytest.raises(ValueError, match="more than one hand"):
        CONTRA.hand_roem(hands("7C", "7C", "", ""), "C")
    with pytest.raises(ValueError, match="not a suit"):
        CONTRA.hand_roem(hands("7C", "", "", ""), "X")
    with pytest.raises(ValueError, match="tricks"):
        CONTRA.hand_roem(hands("7C", "", "", ""), "C", tricks=(9, 0))


@pytest.mark.parametrize("name, order, four_beats, needs_trick", [
    ("kraken-contra", "SHCD", True, True), ("kraken-scorebord", "SHDC", False, False)])
def test_kernel_matches_reference_on_random_deals(name, order, four_beats, needs_trick):
    game = simcards.load(name)
    rng = np.random.default_rng(4)
    contested = 0
    for _ in range(4000):
        # skew towards melds and close contests: start from a deck ordered by suit (runs) or by
        # rank (fours), rotate it, and swap a random number of card pairs (many swaps: random)
        deck = list(DECK32.codes)
        if rng.random() < 0.5:
            deck.sort(key=lambda c: (DECK32.ranks.index(c[:-1]), c[-1]))
        deck = deck[rng.integers(32):] + deck[:0]
        deck += [c for c in DECK32.codes if c not in deck]
        for _ in range(rng.integers(0, 60)):
            i, j = rng.integers(32, size=2)
            deck[i], deck[j] = deck[j], deck[i]
        deal = [deck[8 * s: 8 * s + 8] for s in range(4)]
        trump = "CDHS"[rng.integers(4)]
        tricks = [(0, 8), (8, 0), (3, 5)][rng.integers(3)]
        got = game.hand_roem(deal, trump, tricks)
        want = naive.award(deal, trump, tricks, order, four_beats, needs_trick)
        assert (got["team"], got["hand_roem"], got["stuk"], got["top_meld"]) == \
            (want["team"], want["hand_roem"], want["stuk"], want["top_meld"]), (deal, trump)
        contested += got["contested"]
    assert contested > 100
