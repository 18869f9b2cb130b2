"""Skat's public scoring functions: golden hands from the rules' worked examples, written as card
codes, and the errors a score sheet can make."""

import pytest

from simcards.games.skat import BID_LADDER, game_value, matadors, settle

LISTED_LADDER = [int(v) for v in """18 20 22 23 24 27 30 33 35 36 40 44 45 46 48 50 54 55 59 60 63 66
70 72 77 80 81 84 88 90 96 99 100 108 110 117 120 121 126 130 132 135 140 143 144 150 153 154 156
160 162 165 168 170 176 180 187 192 198 204 216 240 264""".split()]

# declarer's ten cards plus the Skat (the last two)
HEARTS_WITH_2 = ["JC", "JS", "AH", "10H", "KH", "9H", "AS", "10S", "AD", "7C", "8C", "7D"]
CLUBS_WITH_2 = ["JC", "JS", "AC", "10C", "KC", "QC", "9C", "8C", "7C", "AS", "AH", "AD"]
GRAND_WITH_4 = ["JC", "JS", "JH", "JD", "AC", "10C", "AS", "10S", "AH", "10H", "AD", "10D"]
DIAMONDS_WITHOUT_1 = ["JS", "AD", "10D", "KD", "QD", "9D", "AS", "10S", "KS", "7H", "8H", "9C"]


def test_the_bid_ladder_is_the_listed_one():
    assert list(BID_LADDER) == LISTED_LADDER and len(BID_LADDER) == 63


def test_golden_game_values():
    assert matadors(HEARTS_WITH_2, "hearts") == (2, True)
    assert game_value(HEARTS_WITH_2, "hearts") == 30  # 10 x (2 + 1)
    assert game_value(CLUBS_WITH_2, "clubs", ouvert=True) == 108  # 12 x 9
    assert matadors(GRAND_WITH_4, "grand") == (4, True)
    assert game_value(GRAND_WITH_4, "grand", ouvert=True) == 264  # 24 x 11
    assert matadors(DIAMONDS_WITHOUT_1, "diamonds") == (1, False)
    assert game_value(DIAMONDS_WITHOUT_1, "diamonds") == 18
    assert game_value(DIAMONDS_WITHOUT_1, "diamonds", schneider=True) == 27


def test_matadors_are_capped_and_counted_without():
    every_trump = ["JC", "JS", "JH", "JD", "AC", "10C", "KC", "QC", "9C", "8C", "7C", "AS"]
    assert matadors(every_trump, "clubs") == (11, True)
    assert game_value(every_trump, "clubs") == 12 * 12
    assert matadors(every_trump, "grand") == (4, True)  # at most 4 in Grand
    no_jacks = ["AC", "10C", "KC", "QC", "9C", "8C", "7C", "AS", "10S", "KS", "AH", "AD"]
    assert matadors(no_jacks, "grand") == (4, False)
    assert matadors(no_jacks, "clubs") == (4, False)  # the club ace follows the four jacks


def test_levels_count_once_and_announced_levels_count():
    hand = dict(hand=True)
    assert game_value(HEARTS_WITH_2, "hearts", **hand) == 40
    assert game_value(HEARTS_WITH_2, "hearts", schwarz=True, **hand) == 60  # Schwarz has Schneider
    assert game_value(HEARTS_WITH_2, "hearts", schneider_announced=True, **hand) == 60
    assert game_value(HEARTS_WITH_2, "hearts", schwarz_announced=True, **hand) == 80


def test_null_values_are_fixed():
    assert [game_value(HEARTS_WITH_2, "null", hand=h, ouvert=o)
            for h, o in ((False, False), (True, False), (False, True), (True, True))] == [23, 35, 46, 59]


def test_settle_the_worked_overbid_example():
    lost = settle(DIAMONDS_WITHOUT_1, "diamonds", bid=22, declarer_points=89, declarer_tricks=6)
    assert lost["overbid"] and not lost["won"] and lost["value"] == 27 and lost["declarer_score"] == -54
    won = settle(DIAMONDS_WITHOUT_1, "diamonds", bid=22, declarer_points=90, declarer_tricks=7)
    assert won["won"] and not won["overbid"] and won["value"] == 27 and won["declarer_score"] == 27


def test_settle_wins_losses_and_scorings():
    win = settle(HEARTS_WITH_2, "hearts", bid=30, declarer_points=61, declarer_tricks=5)
    assert win["won"] and win["declarer_score"] == 30 and win["defender_score"] == 0
    loss = settle(HEARTS_WITH_2, "hearts", bid=30, declarer_points=60, declarer_tricks=5)
    assert not loss["won"] and loss["declarer_score"] == -60
    sf = settle(HEARTS_WITH_2, "hearts", bid=30, declarer_points=60, declarer_tricks=5,
                scoring="seeger-fabian")
    assert sf["declarer_score"] == -110 and sf["defender_score"] == 40
    sf_win = settle(HEARTS_WITH_2, "hearts", bid=30, declarer_points=70, declarer_tricks=6,
                    scoring="seeger-fabian")
    assert sf_win["declarer_score"] == 80 and sf_win["defender_score"] == 0
    # a declarer with 30 points or fewer is Schneider too: the value counts it, the game is lost
    low = settle(HEARTS_WITH_2, "hearts", bid=30, declarer_points=25, declarer_tricks=2)
    assert low["schneider"] and low["value"] == 40 and low["declarer_score"] == -80
    # an announced Schneider missed: lost, valued with the announced level
    missed = settle(HEARTS_WITH_2, "hearts", bid=30, declarer_points=85, declarer_tricks=8,
                    hand=True, schneider_announced=True)
    assert not missed["won"] and missed["value"] == 60 and missed["declarer_score"] == -120


def test_settle_null():
    assert settle(HEARTS_WITH_2, "null", bid=23, declarer_points=0, declarer_tricks=0)["declarer_score"] == 23
    lost = settle(HEARTS_WITH_2, "null", bid=23, declarer_points=4, declarer_tricks=1)
    assert not lost["won"] and lost["declarer_score"] == -46
    over = settle(HEARTS_WITH_2, "null", bid=24, declarer_points=0, declarer_tricks=0)
    assert over["overbid"] and over["value"] == 46 and over["declarer_score"] == -92


@pytest.mark.parametrize("call, needle", [
    (lambda: game_value(HEARTS_WITH_2[:11], "hearts"), "11 cards"),
    (lambda: game_value(HEARTS_WITH_2[:11] + ["JC"], "hearts"), "'JC' appears more often"),
    (lambda: game_value(HEARTS_WITH_2[:11] + ["1X"], "hearts"), "'1X' is not a card"),
    (lambda: game_value(HEARTS_WITH_2, "ramsch"), "use one of 'diamonds'"),
    (lambda: game_value(HEARTS_WITH_2, "hearts", schneider_announced=True), "only allowed in a Hand game"),
    (lambda: settle(HEARTS_WITH_2, "hearts", 19, 70, 6), "bid = 19 is not a bid"),
    (lambda: settle(HEARTS_WITH_2, "hearts", 18, 121, 6), "declarer_points = 121"),
    (lambda: settle(HEARTS_WITH_2, "hearts", 18, 70, 11), "declarer_tricks = 11"),
    (lambda: settle(HEARTS_WITH_2, "hearts", 18, 70, 6, scoring="bierlachs"), "scoring = 'bierlachs'"),
])
def test_bad_input_says_what_is_allowed(call, needle):
    with pytest.raises(ValueError, match=needle):
        call()


@pytest.mark.parametrize("held, expected", [
    (["JC"], (1, True)), (["JC", "JS"], (2, True)), (["JC", "JS", "JH"], (3, True)),
    (["JC", "JS", "JH", "JD"], (4, True)), (["JS", "JH", "JD"], (1, False)),
    (["JH", "JD"], (2, False)), (["JD"], (3, False)), ([], (4, False)),
])
def test_grand_with_and_without_one_to_four(held, expected):
    filler = ["AC", "10C", "KC", "QC", "9C", "8C", "7C", "AS", "10S", "KS", "QS", "9S"]
    cards = held + filler[:12 - len(held)]
    assert matadors(cards, "grand") == expected
    count, _ = expected
    assert game_value(cards, "grand") == 24 * (count + 1)


def test_suit_matadors_up_to_eleven_with_and_without():
    run = ["JC", "JS", "JH", "JD", "AH", "10H", "KH", "QH", "9H", "8H", "7H"]
    for k in range(1, 12):
        with_k = run[:k] + ["AS", "10S", "KS", "QS", "9S", "8S", "7S", "AD", "10D", "KD", "QD"][:12 - k]
        assert matadors(with_k, "hearts") == (k, True)
        without_k = run[k:] + ["AS", "10S", "KS", "QS", "9S", "8S", "7S", "AD", "10D", "KD", "QD", "9D"][:12 - (11 - k)]
        assert matadors(without_k, "hearts") == (min(k, 11), False)


def test_hand_schneider_schwarz_and_a_declarer_schneider_or_schwarz_himself():
    # Hearts with 2 Hand: 10 x (2 + 1 + 1); Schneider reached adds one, Schwarz one more
    hand = settle(HEARTS_WITH_2, "hearts", bid=18, declarer_points=70, declarer_tricks=7, hand=True)
    assert hand["won"] and hand["value"] == 40
    schneider = settle(HEARTS_WITH_2, "hearts", bid=18, declarer_points=95, declarer_tricks=8, hand=True)
    assert schneider["schneider"] and schneider["value"] == 50
    schwarz = settle(HEARTS_WITH_2, "hearts", bid=18, declarer_points=120, declarer_tricks=10, hand=True)
    assert schwarz["schwarz"] and schwarz["value"] == 60 and schwarz["declarer_score"] == 60
    # the declarer is Schneider himself (30 points or fewer): lost, valued with Schneider
    self_schneider = settle(HEARTS_WITH_2, "hearts", bid=18, declarer_points=30, declarer_tricks=3)
    assert not self_schneider["won"] and self_schneider["value"] == 40
    assert self_schneider["declarer_score"] == -80
    # ... or Schwarz himself (no trick): Schneider and Schwarz both count
    self_schwarz = settle(HEARTS_WITH_2, "hearts", bid=18, declarer_points=0, declarer_tricks=0)
    assert self_schwarz["schwarz"] and self_schwarz["value"] == 50 and self_schwarz["declarer_score"] == -100
    # Schwarz announced and made: 10 x (2 + 1 + hand + schneider + ann + schwarz + ann) = 80
    made = settle(HEARTS_WITH_2, "hearts", bid=18, declarer_points=120, declarer_tricks=10, hand=True,
                  schwarz_announced=True)
    assert made["won"] and made["value"] == 80
    missed = settle(HEARTS_WITH_2, "hearts", bid=18, declarer_points=119, declarer_tricks=9, hand=True,
                    schwarz_announced=True)
    assert not missed["won"] and missed["value"] == 80 and missed["declarer_score"] == -160
