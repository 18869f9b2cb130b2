"""Kraken scoring: every worked number of the two source documents, each scoring branch of both
rulesets, and the public pure functions against the naive reference on random input."""

from naive import kraken as naive
import numpy as np
import pytest

import simcards
from simcards.games.klaverjas._kernels import trick_roem
from simcards.games.kraken.scoring import (
    contra_deal_score,
    contra_match_result,
    scorebord_entry,
    scorebord_winner,
)

# ---------------------------------------------------------------- 000: the scoreboard program


def test_spades_doubles_card_points_not_roem():
    # "Stel WIJ halen 100 punten en ZIJ halen 62 punten dan wordt ... bij WIJ 20 ... ZIJ 12"
    assert scorebord_entry("S", 0, 0, (100, 62), (0, 0))["entry"] == [20, 12]
    # "50 roem blijft 5 punten op de scorelijst en 100 roem blijft 10 punten"
    assert scorebord_entry("S", 0, 0, (100, 62), (50, 0))["entry"] == [25, 12]
    assert scorebord_entry("S", 0, 0, (100, 62), (100, 20))["entry"] == [30, 14]
    assert scorebord_entry("H", 0, 0, (100, 62), (0, 0))["entry"] == [10, 6]


def test_nat_is_decided_without_spades_doubling():
    # WIJ 20 punten + 200 roem, ZIJ 142 punten + 60 roem, spades: WIJ 24, ZIJ 34, WIJ not nat
    r = scorebord_entry("S", 0, 0, (20, 142), (200, 60))
    assert r["nat"] is False
    assert r["entry"] == [24, 34]
    assert r["marks"] == ["", ""]


def test_nat_gives_16_plus_all_roem():
    # "speler 1 en 3 ... halen 74 punten en speler 2 en 4 halen er 88": nat; the others get
    # 16 + all roem (docs/rules.md: 16 x 2 with spades), the nat team 0 and the NAT mark
    r = scorebord_entry("C", 0, 0, (74, 88), (20, 50))
    assert r == {"nat": True, "entry": [0, 16 + 7], "marks": ["NAT", ""]}
    r = scorebord_entry("S", 0, 0, (74, 88), (0, 0))
    assert r == {"nat": True, "entry": [0, 32], "marks": ["NAT", ""]}


def test_kraak_and_overkraak_on_the_scoreboard():
    # playing team 0 nat after a kraak: krakers (ZIJ) 32 + all roem, KRAAK at WIJ
    assert scorebord_entry("D", 1, 0, (70, 92), (20, 20)) == \
        {"nat": True, "entry": [0, 32 + 4], "marks": ["KRAAK", ""]}
    # kraak fails: the kraakte team gets 32 + all roem, KRAAK at the krakers
    assert scorebord_entry("D", 1, 0, (100, 62), (0, 20)) == \
        {"nat": False, "entry": [32 + 2, 0], "marks": ["", "KRAAK"]}
    # overkraak won and lost: 64 (x2 spades)
    assert scorebord_entry("S", 2, 1, (50, 112), (0, 0)) == \
        {"nat": False, "entry": [0, 128], "marks": ["KRAAK", ""]}
    assert scorebord_entry("H", 2, 1, (112, 50), (100, 0)) == \
        {"nat": True, "entry": [64 + 10, 0], "marks": ["", "KRAAK"]}
    # bids and spades never enter the nat decision: 20 + 200 vs 142 + 60 stays not nat
    assert scorebord_entry("S", 1, 0, (20, 142), (200, 60))["entry"] == [64 + 26, 0]


def test_scoreboard_rounding():
    assert scorebord_entry("C", 0, 0, (97, 65), (0, 0))["entry"] == [10, 7]
    assert scorebord_entry("C", 0, 0, (97, 65), (0, 0), rounding="floor")["entry"] == [9, 6]
    assert scorebord_entry("S", 0, 0, (81, 81), (20, 0), nat_on_tie=True)["entry"] == [16 + 2, 16]
    # tie: nat with nat_on_tie, not without
    assert scorebord_entry("C", 0, 0, (81, 81), (0, 0))["nat"] is True
    assert scorebord_entry("C", 0, 0, (81, 81), (0, 0), nat_on_tie=False)["nat"] is False


def test_end_of_game():
    # "als WIJ 255 punten en ZIJ 258 punten halen dan heeft ZIJ gewonnen"
    assert scorebord_winner((255, 258)) == 1
    assert scorebord_winner((249, 240)) is None  # nobody passed 249
    assert scorebord_winner((250, 249)) == 0
    assert scorebord_winner((100, 260)) == 1
    assert scorebord_winner((255, 255)) is None  # an exact tie plays another deal


def test_table_roem_example():
    # "Boer Vrouw Heer Aas" of trump in one trick: 50 for the run plus 20 for stuk
    game = simcards.load("kraken-scorebord")
    mask = game.deck.parse_hand("JS QS KS AS")
    assert trick_roem(mask, 3, game.tables) == 70
    assert trick_roem(game.deck.parse_hand("7H 7C 7D 7S"), 3, game.tables) == 0  # sevens: no roem
    assert trick_roem(game.deck.parse_hand("QH QC QD QS"), 3, game.tables) == 100
    assert trick_roem(game.deck.parse_hand("JH JC JD JS"), 3, game.tables) == 200


# ---------------------------------------------------------------- 001: contra and crosses


def test_nat_gives_everything_to_the_other_team():
    r = contra_deal_score("H", 0, 0, (70, 92), (20, 0), (4, 4))
    assert r["nat"] is True and r["score"] == [0, 162 + 20] and r["crosses"] == [0, 0]
    r = contra_deal_score("H", 0, 0, (90, 72), (0, 0), (5, 3))
    assert r["nat"] is False and r["score"] == [90, 72]


@pytest.mark.parametrize("bid, crosses", [(1, 2), (2, 4), (3, 8)])
def test_crosses_per_bid(bid, crosses):
    burden = 1 if bid % 2 else 0  # kraak and superkraak by the defenders (team 1 here)
    other = 1 - burden
    won = [0, 0]
    won[burden] = 100
    won[other] = 62
    r = contra_deal_score("C", bid, burden, won, (0, 0), (5, 3))
    assert r["nat"] is False
    expected = [0, 0]
    expected[other] = crosses  # "de tegenstanders van de krakers als die het gehaald hebben"
    assert r["crosses"] == expected
    assert r["score"][burden] == 100 * 2 ** bid and r["score"][other] == 62 * 2 ** bid
    lost = list(reversed(won))
    r = contra_deal_score("C", bid, burden, lost, (0, 0), (3, 5))
    assert r["nat"] is True
    expected = [0, 0]
    expected[burden] = crosses  # "en anders de krakers zelf"
    assert r["crosses"] == expected
    assert r["score"][other] == 162 * 2 ** bid and r["score"][burden] == 0
    # spades: always double, "Dus kan het daarbij oplopen tot 16 strafkruizen"
    r = contra_deal_score("S", bid, burden, lost, (0, 0), (3, 5))
    assert sum(r["crosses"]) == 2 * crosses


def test_superkraak_in_spades_is_16_crosses():
    assert contra_deal_score("S", 3, 1, (120, 42), (0, 0), (6, 2))["crosses"] == [0, 16]


def test_kraak_won_and_lost_points():
    # defenders (team 1) kraak and make it: card points x2, roem not multiplied
    r = contra_deal_score("D", 1, 1, (70, 92), (20, 40), (3, 5))
    assert r == {"nat": False, "multiplier": 2, "points_multiplied": [140, 184],
                 "score": [140 + 20, 184 + 40], "crosses": [2, 0]}
    # defenders kraak and fail: all 324 card points and all roem to the playing team
    r = contra_deal_score("D", 1, 1, (100, 62), (20, 40), (5, 3))
    assert r["score"] == [324 + 60, 0] and r["crosses"] == [0, 2]
    # rekraak by team 0 lost, superkraak by team 1 won
    assert contra_deal_score("C", 2, 0, (60, 102), (0, 0), (3, 5))["crosses"] == [4, 0]
    r = contra_deal_score("C", 3, 1, (60, 102), (0, 0), (3, 5))
    assert r["score"] == [480, 816] and r["crosses"] == [8, 0]


def test_pit_crosses():
    # "Een pit is 1 strafkruis waard ... met schoppen als troef ... twee"
    r = contra_deal_score("H", 0, 0, (162, 0), (100, 0), (8, 0))
    assert r["crosses"] == [0, 1]
    r = contra_deal_score("S", 0, 0, (162, 0), (100, 0), (8, 0))
    assert r["crosses"] == [0, 2]
    assert contra_deal_score("S", 0, 0, (162, 0), (100, 0), (8, 0), pit_cross=False)["crosses"] == [0, 0]
    # a pit after a kraak that failed: both the kraak crosses and the pit cross
    assert contra_deal_score("C", 1, 1, (162, 0), (100, 0), (8, 0))["crosses"] == [0, 3]


def test_nat_points_option_and_ties():
    # 75 + 20 roem vs 87: made on raw points, nat when the doubled points decide
    assert contra_deal_score("C", 1, 0, (75, 87), (20, 0), (4, 4))["nat"] is False
    assert contra_deal_score("C", 1, 0, (75, 87), (20, 0), (4, 4), nat_points="multiplied")["nat"] is True
    # "meer dan de helft": a tie is nat for the burden team unless nat_on_tie is off
    assert contra_deal_score("C", 1, 1, (81, 81), (0, 0), (4, 4))["crosses"] == [0, 2]
    assert contra_deal_score("C", 1, 1, (81, 81), (0, 0), (4, 4), nat_on_tie=False)["crosses"] == [2, 0]


def test_end_of_match_crosses_and_winner():
    # the end-of-match victory on points is worth four crosses against the losers
    assert contra_match_result((2000, 1800), (3, 2)) == {"crosses": [3, 6], "winner": 0}
    assert contra_match_result((1800, 2000), (3, 2)) == {"crosses": [7, 2], "winner": 1}
    assert contra_match_result((2000, 2000), (3, 3))["winner"] is None  # equal crosses: a draw
    assert contra_match_result((2000, 1900), (0, 4)) == {"crosses": [0, 8], "winner": 0}
    assert contra_match_result((1900, 2000), (0, 4))["winner"] is None


# ---------------------------------------------------------------- against the reference


def test_contra_matches_reference_on_random_deals():
    rng = np.random.default_rng(1)
    for _ in range(3000):
        p0 = int(rng.integers(0, 163))
        tricks = [int(t) for t in rng.choice([0, 1, 4, 7, 8], 2)]
        roem = [int(r) for r in rng.choice([0, 20, 40, 50, 100, 120, 200, 300], 2)]
        args = ("CDHS"[rng.integers(4)], int(rng.integers(4)), int(rng.integers(2)), (p0, 162 - p0), roem, tricks)
        opts = {"nat_on_tie": bool(rng.integers(2)), "nat_points": ["raw", "multiplied"][rng.integers(2)],
                "pit_cross": bool(rng.integers(2))}
        got = contra_deal_score(*args, **opts)
        want = naive.contra(*args, **opts)
        assert (got["nat"], got["score"], got["crosses"]) == (want["nat"], want["score"], want["crosses"]), (args, opts)
        assert sum(got["score"]) == 162 * got["multiplier"] + sum(roem)


def test_scorebord_matches_reference_on_random_deals():
    rng = np.random.default_rng(2)
    for _ in range(3000):
        p0 = int(rng.integers(0, 163))
        roem = [int(r) for r in rng.choice([0, 20, 40, 50, 70, 100, 200, 250], 2)]
        args = ("CDHS"[rng.integers(4)], int(rng.integers(3)), int(rng.integers(2)), (p0, 162 - p0), roem)
        opts = {"rounding": ["half_up", "floor"][rng.integers(2)], "nat_on_tie": bool(rng.integers(2))}
        assert scorebord_entry(*args, **opts) == naive.scorebord(*args, **opts), (args, opts)


# ---------------------------------------------------------------- errors


@pytest.mark.parametrize("call, match", [
    (lambda: contra_deal_score("X", 0, 0, (81, 81), (0, 0), (4, 4)), "not a suit"),
    (lambda: contra_deal_score("C", 4, 0, (81, 81), (0, 0), (4, 4)), "bid = 4"),
    (lambda: contra_deal_score("C", 1, 2, (81, 81), (0, 0), (4, 4)), "burden_team = 2"),
    (lambda: contra_deal_score("C", 1, 0, (81,), (0, 0), (4, 4)), "points"),
    (lambda: contra_deal_score("C", 1, 0, (81, 81), (0, 0), (4, 4), nat_points="x"), "nat_points"),
    (lambda: scorebord_entry("C", 3, 0, (81, 81), (0, 0)), "overkraak"),
    (lambda: scorebord_entry("C", 0, 0, (81, 81), (0, -10)), "roem"),
    (lambda: scorebord_entry("C", 0, 0, (81, 81), (0, 25)), "multiples of 10"),
    (lambda: scorebord_entry("C", 0, 0, ("81", 81), (0, 0)), "points"),
    (lambda: scorebord_entry("C", 0, 0, (81, 81), (0, 0), rounding="up"), "rounding"),
])
def test_bad_input_is_named(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_bid_multiplies_points_option():
    """With bid_multiplies_points a kraak doubles the card points in the score; without it the
    score stays at raw card points plus roem and only the crosses grow. nat_points = multiplied
    needs multiplied points."""
    made = contra_deal_score("C", 1, 1, [70, 92], [0, 20], [3, 5])
    assert made["score"] == [140, 204] and made["multiplier"] == 2
    raw = contra_deal_score("C", 1, 1, [70, 92], [0, 20], [3, 5], bid_multiplies_points=False)
    assert raw["score"] == [70, 112] and raw["multiplier"] == 1
    assert raw["crosses"] == made["crosses"] == [2, 0]
    lost = contra_deal_score("S", 2, 1, [100, 62], [0, 0], [5, 3], bid_multiplies_points=False)
    assert lost["nat"] and lost["score"] == [162, 0] and lost["crosses"] == [0, 8]
    with pytest.raises(ValueError, match="bid_multiplies_points"):
        contra_deal_score("C", 1, 1, [70, 92], [0, 0], [3, 5], nat_points="multiplied",
                          bid_multiplies_points=False)
    with pytest.raises(ValueError, match="bid_multiplies_points"):
        simcards.load("kraken-contra", nat_points="multiplied", bid_multiplies_points=False)
    game = simcards.load("kraken-contra", bid_multiplies_points=False)
    deals = game.simulate(40, seed=3)
    assert (deals["multiplier"] == 1).all()
    assert (deals["score_0"] + deals["score_1"] == 162 + deals["roem_0"] + deals["roem_1"]).all()
