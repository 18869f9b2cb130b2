"""Golden Hartenjagen / Hearts deals written as card codes, one per rule (docs/rules.md,
hartenjagen and hearts): first trick, hearts broken, only-hearts lead, points, moon both ways, the return phase,
game end and placings, and clear errors."""

import numpy as np
import pytest

import simcards
from simcards.games.hearts import _kernels as K


def play(state, codes):
    for code in codes.split():
        state.play(code)
    return state


def finish(state):
    """Play out with the first legal card of every seat."""
    while not state.is_over:
        state.play(state.legal_moves()[0])
    return state


# ---------------------------------------------------------------- American Hearts

# Seat 1 has AC and only hearts besides it; seat 2 holds the QS, the 2H and diamonds; seat 0 has
# twelve clubs: used for the only-hearts lead and first-trick rules.
ONLY_HEARTS = [
    "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC 2S",
    "AC 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH",
    "AH QS 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD",
    "KD AD 3S 4S 5S 6S 7S 8S 9S 10S JS KS AS",
]

# Seat 1: AC, six diamonds, six low hearts; seat 2 void in clubs and diamonds (QS, high hearts,
# low spades); seat 3 low diamonds and high spades.
BREAKING = [
    "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC 2S",
    "AC AD KD QD JD 10D 9D 2H 3H 4H 5H 6H 7H",
    "QS 8H 9H 10H JH QH KH AH 3S 4S 5S 6S 7S",
    "2D 3D 4D 5D 6D 7D 8D 8S 9S 10S JS KS AS",
]

# Seat 0 holds AC and twelve hearts: it wins trick 1, then may lead hearts and takes them all.
MOON_52 = [
    "AC 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
    "2C 3C 4C 5C 6C 7C 2D 3D 4D 5D 6D 7D 8D",
    "8C 9C 10C JC QC KC 2H QS 9D 10D JD QD KD",
    "AD 2S 3S 4S 5S 6S 7S 8S 9S 10S JS KS AS",
]


def test_two_of_clubs_leads_whoever_deals():
    game = simcards.load("hearts")
    for dealer in range(4):
        state = game.deal(hands=ONLY_HEARTS, dealer=dealer)
        assert state.to_move == 0
        assert state.legal_moves() == ["2C"]
    with pytest.raises(simcards.IllegalMove, match=r"'3C' is not a legal card.*legal: 2C"):
        game.deal(hands=ONLY_HEARTS).play("3C")


def test_first_trick_no_points_unless_nothing_else():
    game = simcards.load("hearts")
    state = game.deal(hands=ONLY_HEARTS)
    play(state, "2C")
    assert state.legal_moves() == ["AC"]  # must follow
    play(state, "AC")
    # seat 2 is void in clubs: diamonds only, neither the AH nor the QS
    assert state.legal_moves() == ["2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D", "JD", "QD"]
    with pytest.raises(simcards.IllegalMove, match="'QS'"):
        state.play("QS")
    with pytest.raises(simcards.IllegalMove, match="'AH'"):
        state.play("AH")
    play(state, "2D")
    # seat 3 void in clubs holds no point card: anything
    assert len(state.legal_moves()) == 13


def test_first_trick_points_allowed_with_nothing_else():
    hands = [
        "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC",
        "QS 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH",
        "AH 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD",
        "AD 2S 3S 4S 5S 6S 7S 8S 9S 10S JS KS AS",
    ]
    state = simcards.load("hearts").deal(hands=hands)
    play(state, "2C")
    assert len(state.legal_moves()) == 13  # only point cards: any of them
    play(state, "QS")
    assert state.legal_moves() == ["2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D", "JD",
                                   "QD", "KD"]


def test_first_trick_rule_can_be_switched_off():
    state = simcards.load("hearts", no_points_first_trick=False).deal(hands=ONLY_HEARTS)
    play(state, "2C AC")
    assert "QS" in state.legal_moves() and "AH" in state.legal_moves()


def test_only_hearts_lead_before_broken():
    state = simcards.load("hearts").deal(hands=ONLY_HEARTS)
    play(state, "2C AC 2D 3S")
    assert state.to_move == 1 and not state.hearts_broken
    assert len(state.legal_moves()) == 12  # only hearts left: may lead one
    play(state, "KH")
    assert state.hearts_broken


def test_hearts_not_led_until_broken_and_qs_does_not_break_them():
    game = simcards.load("hearts")
    state = game.deal(hands=BREAKING)
    play(state, "2C AC 7S 2D")
    assert state.to_move == 1
    assert state.legal_moves() == ["9D", "10D", "JD", "QD", "KD", "AD"]  # no hearts yet
    play(state, "AD QS 3D 3C")
    assert state.points == [0, 13, 0, 0]
    assert not state.hearts_broken
    assert state.legal_moves() == ["9D", "10D", "JD", "QD", "KD"]
    with pytest.raises(simcards.IllegalMove, match=r"'2H'.*legal: 9D, 10D, JD, QD, KD"):
        state.play("2H")
    play(state, "KD AH 4D 4C")  # a heart discarded: hearts are broken
    assert state.hearts_broken
    assert "2H" in state.legal_moves()
    assert state.points == [0, 14, 0, 0]


def test_qs_breaks_hearts_option():
    state = simcards.load("hearts", qs_breaks_hearts=True).deal(hands=BREAKING)
    play(state, "2C AC 7S 2D AD QS 3D 3C")
    assert state.hearts_broken
    assert "2H" in state.legal_moves()


def test_must_break_hearts_option_off():
    state = simcards.load("hearts", must_break_hearts=False).deal(hands=BREAKING)
    play(state, "2C AC 7S 2D")
    assert "2H" in state.legal_moves()


def test_points_one_per_heart_and_13_for_qs():
    state = finish(play(simcards.load("hearts").deal(hands=BREAKING), "2C AC 7S 2D AD QS 3D 3C"))
    result = state.result()
    assert sum(result["points"]) == 26
    assert result["qs_taker"] == 1
    assert sum(result["tricks"]) == 13
    assert result["moon"] is None and result["score"] == result["points"]


@pytest.mark.parametrize("moon, scores, deltas, option", [
    ("others", (0, 0, 0, 0), [0, 26, 26, 26], "others"),
    ("self", (0, 0, 0, 0), [-26, 0, 0, 0], "self"),
    ("choose", (10, 20, 30, 40), [0, 26, 26, 26], "others"),  # leading: others
    ("choose", (50, 20, 30, 40), [-26, 0, 0, 0], "self"),  # behind: self
])
def test_moon_both_ways_american(moon, scores, deltas, option):
    state = simcards.load("hearts", moon=moon).deal(hands=MOON_52, scores=scores)
    play(state, "2C 8C 2S AC")  # seat 0 wins the first trick with the AC
    assert state.to_move == 0
    assert len(state.legal_moves()) == 12  # only hearts: may lead them
    play(state, "AH 2D 2H 3S KH 3D QS 4S")
    finish(state)
    result = state.result()
    assert result["points"] == [26, 0, 0, 0]
    assert result["moon"] == 0 and result["moon_option"] == option
    assert result["score"] == deltas
    assert result["scores"] == [s + d for s, d in zip(scores, deltas)]


# ---------------------------------------------------------------- Dutch Hartenjagen

# Seat 0 holds all eight hearts; seat 1 the QS, seat 2 the JC.
MOON_32 = [
    "7H 8H 9H 10H JH QH KH AH",
    "QS 7D 8D 9D 10D JD QD KD",
    "JC 7C 8C 9C 10C QC KC AC",
    "AD 7S 8S 9S 10S JS KS AS",
]


def test_dutch_forehand_leads_anything_and_follow_suit():
    game = simcards.load("hartenjagen")
    state = game.deal(hands=MOON_32, dealer=2)
    assert state.to_move == 3
    assert len(state.legal_moves()) == 8  # no 2C, no hearts-broken rule
    play(state, "7S")
    assert len(state.legal_moves()) == 8  # seat 0 void in spades: anything, hearts too
    play(state, "AH")
    assert state.legal_moves() == ["QS"]  # seat 1 must follow spades


def test_dutch_points_jc_2_qs_5_hearts_1():
    state = simcards.load("hartenjagen").deal(hands=MOON_32, dealer=1)  # seat 2 leads
    play(state, "JC 7S AH QS")  # seat 2 wins its own JC, the AH and the QS
    assert state.points == [0, 0, 8, 0]
    finish(state)
    result = state.result()
    assert sum(result["points"]) == 15
    assert result["jc_taker"] == 2 and result["qs_taker"] == 2


@pytest.mark.parametrize("moon, scores, deltas", [
    ("others", (0, 0, 0, 0), [0, 15, 15, 15]),
    ("self", (0, 0, 0, 0), [-15, 0, 0, 0]),
    ("choose", (10, 12, 30, 40), [0, 15, 15, 15]),
    ("choose", (30, 12, 30, 40), [-15, 0, 0, 0]),
])
def test_moon_both_ways_dutch(moon, scores, deltas):
    state = simcards.load("hartenjagen", moon=moon).deal(hands=MOON_32, dealer=3, scores=scores)
    assert state.to_move == 0
    play(state, "AH QS JC 7S")
    finish(state)  # seat 0 leads hearts to the end; everyone else is void
    result = state.result()
    assert result["points"] == [15, 0, 0, 0]
    assert result["moon"] == 0
    assert result["score"] == deltas


def test_return_phase_subtracts_and_has_no_moon():
    state = simcards.load("hartenjagen").deal(hands=MOON_32, dealer=3, scores=(20, 55, 30, 40),
                                              phase="return")
    play(state, "AH QS JC 7S")
    finish(state)
    result = state.result()
    assert result["phase"] == "return"
    assert result["moon"] is None and result["moon_option"] is None
    assert result["score"] == [-15, 0, 0, 0]
    assert result["scores"] == [5, 55, 30, 40]


def _tables(name, **options):
    return simcards.load(name, **options).tables


def test_return_starts_after_a_deal_reaching_the_target():
    T = _tables("hartenjagen")
    over, phase = K.game_over(np.array([49, 10, 10, 10]), K.PHASE_OUTBOUND, T)
    assert (over, phase) == (False, K.PHASE_OUTBOUND)
    over, phase = K.game_over(np.array([50, 10, 10, 10]), K.PHASE_OUTBOUND, T)
    assert (over, phase) == (False, K.PHASE_RETURN)
    # a score at or below zero ends the game only on the way back
    over, _ = K.game_over(np.array([-3, 10, 10, 10]), K.PHASE_OUTBOUND, T)
    assert not over
    over, _ = K.game_over(np.array([1, 10, 10, 10]), K.PHASE_RETURN, T)
    assert not over
    over, _ = K.game_over(np.array([0, 10, 10, 10]), K.PHASE_RETURN, T)
    assert over
    T = _tables("hartenjagen", target=30)
    assert K.game_over(np.array([30, 0, 0, 0]), K.PHASE_OUTBOUND, T)[1] == K.PHASE_RETURN


def test_american_game_ends_at_target():
    T = _tables("hearts")
    assert not K.game_over(np.array([99, 10, 10, 10]), 0, T)[0]
    assert K.game_over(np.array([100, 10, 10, 10]), 0, T)[0]
    assert K.game_over(np.array([60, 10, 10, 10]), 0, _tables("hearts", target=60))[0]


def places(scores, last_points=(0, 0, 0, 0), dutch_end=False):
    out = np.empty(4, dtype=np.int64)
    K.placings(np.array(scores, dtype=np.int64), np.array(last_points, dtype=np.int64),
               dutch_end, out)
    return out.tolist()


def test_placings_lowest_score_first_ties_shared():
    assert places([104, 40, 63, 12]) == [4, 2, 3, 1]
    assert places([50, 50, 20, 100]) == [2, 2, 1, 4]


def test_dutch_end_lowest_then_most_points_taken():
    # two players reach zero or below in one deal: the lowest wins
    assert places([-4, -1, 30, 12], dutch_end=True) == [1, 2, 4, 3]
    # level: the one who took more points in the last deal wins
    assert places([-2, -2, 30, 12], last_points=(3, 7, 0, 5), dutch_end=True) == [2, 1, 4, 3]
    # others are placed by score only (no tie-break above zero)
    assert places([-2, 9, 9, 12], last_points=(3, 1, 5, 0), dutch_end=True) == [1, 2, 2, 4]


def test_whole_dutch_game_from_the_dataset():
    game = simcards.load("hartenjagen")
    frames = game.simulate_chunk(40, seed=11, bots="heuristic")
    deals, matches = frames["deals"], frames["matches"]
    for m in matches.iter_rows(named=True):
        rows = deals.filter(deals["match_index"] == m["match_index"]).sort("deal_no")
        phases = rows["phase"].to_list()
        scores = [[r[f"score_{s}"] for s in range(4)] for r in rows.iter_rows(named=True)]
        start = m["return_start"]
        assert start > 0 and phases == [0] * start + [1] * (len(phases) - start)
        assert max(scores[start - 1]) >= 50 and all(max(s) < 50 for s in scores[:start - 1])
        assert min(scores[-1]) <= 0
        assert all(min(s) > 0 for s in scores[start:-1])
        assert [m[f"score_{s}"] for s in range(4)] == scores[-1]
        last = rows.row(-1, named=True)
        assert [m[f"place_{s}"] for s in range(4)] == places(
            scores[-1], [last[f"points_{s}"] for s in range(4)], True)


def test_whole_american_game_from_the_dataset():
    frames = simcards.load("hearts").simulate_chunk(40, seed=5, bots="heuristic")
    deals, matches = frames["deals"], frames["matches"]
    for m in matches.iter_rows(named=True):
        rows = deals.filter(deals["match_index"] == m["match_index"]).sort("deal_no")
        scores = [[r[f"score_{s}"] for s in range(4)] for r in rows.iter_rows(named=True)]
        assert max(scores[-1]) >= 100 and all(max(s) < 100 for s in scores[:-1])
        assert m["return_start"] == -1 and set(rows["phase"].to_list()) == {0}
        assert [m[f"place_{s}"] for s in range(4)] == places(scores[-1])
        assert rows["pass_dir"].to_list() == [(1, 3, 2, 0)[k % 4] for k in range(len(rows))]


# ---------------------------------------------------------------- errors


def test_bad_options_and_hands_are_clear_errors():
    with pytest.raises(ValueError, match="'moon' = 'never'.*'choose', 'others', 'self'"):
        simcards.load("hearts", moon="never")
    with pytest.raises(ValueError, match="'passing'.*hartenjagen"):
        simcards.load("hartenjagen", passing=True)
    with pytest.raises(ValueError, match="'target' = 0"):
        simcards.load("hartenjagen", target=0)
    game = simcards.load("hartenjagen")
    with pytest.raises(ValueError, match="'2C' is not a card in the 32-card deck"):
        game.deal(hands=[["2C"] * 8] * 4)
    with pytest.raises(ValueError, match="hand 0 has 7 cards; each hand holds 8"):
        game.deal(hands=["7H 8H 9H 10H JH QH KH"] + MOON_32[1:])
    with pytest.raises(ValueError, match="phase = 'back'"):
        game.deal(hands=MOON_32, phase="back")
    with pytest.raises(ValueError, match="phase = 'return' is not allowed for hearts"):
        simcards.load("hearts").deal(hands=MOON_52, phase="return")
    with pytest.raises(ValueError, match="scores"):
        game.deal(hands=MOON_32, scores=(1, 2, 3))
    state = finish(game.deal(hands=MOON_32))
    with pytest.raises(simcards.IllegalMove, match="the deal is over"):
        state.play("AH")
    with pytest.raises(ValueError, match="not over"):
        game.deal(hands=MOON_32).result()
