"""Golden Klaverjassen deals, written as card codes and played through the public API.

Every row of the docs/rules.md, klaverjas-rotterdam legal-move table is checked for both rulesets, then trick
winners, the last-trick bonus, table roem, pit, nat, scores and the error messages. Clubs are
trump throughout unless said; with dealer 3, seat 0 (team 0 with seat 2) leads the first trick.
Trump order J 9 A 10 K Q 8 7; plain order A 10 K Q J 9 8 7.
"""

import numpy as np
import pytest

import simcards
from simcards.games.klaverjas import _kernels as K
from naive import klaverjas as naive

ROTTERDAM, AMSTERDAM = "klaverjas-rotterdam", "klaverjas-amsterdam"
BOTH = [ROTTERDAM, AMSTERDAM]


def deal(name, hands, dealer=3, trump="C", declarer=0, **options):
    game = simcards.load(name, **options)
    return game.deal(hands=[h.split() for h in hands], dealer=dealer, trump=trump,
                     declarer=declarer)


def legal(state):
    return set(state.legal_moves())


def codes(text):
    return set(text.split())


def play(state, cards):
    for c in cards.split():
        state.play(c)
    return state


# ------------------------------------------------------------------ legal-move table

# Deal 1: seat 2 void in diamonds with two trumps, seat 3 void in diamonds with only the 7 of
# trumps.
DEAL1 = ["AD 10D 9D 8D QC KC AC 7S",
         "KD QD JD 7D JC 9C 10H 9S",
         "8C 10C QH JH 9H 8H AS KS",
         "7C AH KH 7H QS JS 10S 8S"]


@pytest.mark.parametrize("name", BOTH)
def test_deal1_follow_suit_and_trumping(name):
    amsterdam = name == AMSTERDAM
    s = deal(name, DEAL1)
    assert s.to_move == 0 and legal(s) == codes(DEAL1[0])  # the leader plays anything
    s.play("AD")
    # can follow a non-trump lead: any card of the led suit (no need to beat, no trumping)
    assert legal(s) == codes("7D JD QD KD")
    s.play("7D")
    # cannot follow, partner winning with a plain card: Rotterdam must trump (any trump beats
    # a trick without trumps); Amsterdam is free
    assert legal(s) == (codes(DEAL1[2]) if amsterdam else codes("8C 10C"))
    s.play("8C")
    # cannot follow, opponent winning with the 8 of trumps, holding only the lower 7:
    # Rotterdam must undertrump; Amsterdam must play a non-trump
    assert legal(s) == (codes("AH KH 7H QS JS 10S 8S") if amsterdam else codes("7C"))
    s.play("8S" if amsterdam else "7C")
    assert s.to_move == 2  # the 8 of trumps took the trick
    assert s.trick == []
    s.play("10C")
    # trump led: Rotterdam seat 3 has no trump left (any card); Amsterdam seat 3 holds only
    # the lower 7 of trumps (any trump, i.e. the 7)
    assert legal(s) == (codes("7C") if amsterdam else codes("AH KH 7H QS JS 10S 8S"))
    s.play("7C" if amsterdam else "QS")
    # trump led, holding a higher trump: only trumps above the 10 (the ace, not Q or K)
    assert legal(s) == codes("AC")
    s.play("AC")
    # trump led, both trumps held beat the ace
    assert legal(s) == codes("JC 9C")
    s.play("9C")
    assert s.to_move == 1  # the nine beats ace and ten


# Deal 2: seat 0 leads the 7 of diamonds, seat 1 (void) trumps with the 10; the player in
# fourth seat then sees its partner winning with a trump.
DEAL2A = ["7D 9D 10D JD QD KD AD JC",
          "10C 8C 7H 8H 9H 10H JH QH",
          "8D 9C KC 7C KH AH 7S 8S",
          "AC QC 9S 10S JS QS KS AS"]
DEAL2B = ["7D 9D 10D JD QD KD AD JC",
          "10C 8C 7H 8H 9H 10H JH QH",
          "8D 9C KC AC KH AH 7S 8S",
          "QC 7C 9S 10S JS QS KS AS"]


@pytest.mark.parametrize("name", BOTH)
def test_partner_winning_with_trump_holding_a_higher_one(name):
    s = deal(name, DEAL2A)
    play(s, "7D")
    # cannot follow, opponent winning with a plain card: must trump, every trump beats it
    assert legal(s) == codes("10C 8C")
    play(s, "10C 8D")
    # partner winning with the 10: Rotterdam must overtrump (the ace, not the queen);
    # Amsterdam may also discard any non-trump, but never the lower queen
    if name == ROTTERDAM:
        assert legal(s) == codes("AC")
    else:
        assert legal(s) == codes("AC 9S 10S JS QS KS AS")


@pytest.mark.parametrize("name", BOTH)
def test_partner_winning_with_trump_holding_only_lower_ones(name):
    s = play(deal(name, DEAL2B), "7D 10C 8D")
    # Rotterdam: unable to overtrump, any trump (undertrump); Amsterdam: a non-trump
    if name == ROTTERDAM:
        assert legal(s) == codes("QC 7C")
    else:
        assert legal(s) == codes("9S 10S JS QS KS AS")


@pytest.mark.parametrize("name", BOTH)
def test_opponent_winning_with_trump_holding_a_higher_one(name):
    # deal 2a with seats 2 and 3 swapped: now the void player in third seat faces an opponent
    s = play(deal(name, [DEAL2A[0], DEAL2A[1], DEAL2A[3], DEAL2A[2]]), "7D 10C")
    assert legal(s) == codes("AC")  # both rulesets: overtrump, the queen is not allowed
    s.play("AC")
    assert legal(s) == codes("8D")
    s.play("8D")
    assert s.to_move == 2


# Deals 3 and 4: in trick 2 the player in third or fourth seat holds nothing but trumps below
# the jack that has just been played.
DEAL3 = ["AH AD 10H 9H JH QH KS AS",
         "7H JC 7S 8S 9S 10S JS QS",
         "8H 7D 8D 9D 10D JD QD KD",
         "KH 9C AC 10C KC QC 8C 7C"]
DEAL4 = [DEAL3[0], DEAL3[1], DEAL3[3], DEAL3[2]]


@pytest.mark.parametrize("name", BOTH)
def test_partner_winning_every_card_a_lower_trump(name):
    s = deal(name, DEAL3)
    s.play("AH")
    assert legal(s) == codes("7H")
    s.play("7H")
    assert legal(s) == codes("8H")
    s.play("8H")
    assert legal(s) == codes("KH")
    s.play("KH")
    assert s.to_move == 0
    s.play("AD")
    assert legal(s) == codes("JC")  # cannot follow, opponent winning with a plain card
    s.play("JC")
    assert legal(s) == codes("7D 8D 9D 10D JD QD KD")
    s.play("KD")
    # partner winning with the jack; every card held is a lower trump: any trump, both rules
    assert legal(s) == codes("9C AC 10C KC QC 8C 7C")


@pytest.mark.parametrize("name", BOTH)
def test_opponent_winning_every_card_a_lower_trump(name):
    s = play(deal(name, DEAL4), "AH 7H KH 8H AD JC")
    # opponent winning with the jack, nothing but lower trumps: any trump, both rules
    assert legal(s) == codes("9C AC 10C KC QC 8C 7C")


# Deal 5: each seat holds one whole suit; seat 3 holds every trump.
DEAL5 = ["7H 8H 9H 10H JH QH KH AH",
         "7D 8D 9D 10D JD QD KD AD",
         "7S 8S 9S 10S JS QS KS AS",
         "7C 8C 9C 10C JC QC KC AC"]
DEAL5_PLAY = " ".join(f"{r}H {r}D {r}S {r}C" if r == "7" else f"{r}C {r}H {r}D {r}S"
                      for r in naive.RANKS)


@pytest.mark.parametrize("name", BOTH)
def test_cannot_follow_and_no_trump_means_any_card(name):
    s = deal(name, DEAL5)
    s.play("7H")
    assert legal(s) == codes(DEAL5[1])  # void in hearts, no trump
    s.play("7D")
    assert legal(s) == codes(DEAL5[2])  # partner winning, void, no trump
    s.play("7S")
    assert legal(s) == codes(DEAL5[3])  # only trumps
    s.play("7C")
    assert s.to_move == 3
    s.play("8C")
    assert legal(s) == codes("8H 9H 10H JH QH KH AH")  # trump led, no trump held


# ------------------------------------------------------------------ whole deals and scores


@pytest.mark.parametrize("name", BOTH)
def test_pit_four_of_a_kind_and_four_jacks(name):
    # seat 3 trumps the first trick, then leads a trump of each rank in natural order while
    # the others drop the same rank: 7s, 8s, 9s 0; 10s, queens, kings, aces 100; jacks 200
    s = play(deal(name, DEAL5, declarer=3), DEAL5_PLAY)
    assert s.is_over
    r = s.result()
    assert r["tricks"] == [0, 8] and r["pit"] is True
    assert r["points"] == [0, 162]
    assert r["roem"] == [0, 600 + 100]
    assert r["nat"] is False
    assert r["score"] == [0, 862]
    assert r["roem_hand"] == [100, 100, 100, 100 + 20]  # a run of eight; seat 3 also stuk


@pytest.mark.parametrize("options, roem", [
    ({}, 700),
    ({"four_kind_ranks": ["A"]}, 200 + 100 + 100),  # jacks are 200 whatever the option says
    ({"four_kind_ranks": ["7", "8"]}, 200 + 100 + 100 + 100),
    ({"table_roem": False}, 100),
    ({"pit_bonus": 250}, 600 + 250),
])
def test_table_roem_and_pit_options(options, roem):
    s = play(deal(ROTTERDAM, DEAL5, declarer=3, **options), DEAL5_PLAY)
    assert s.result()["roem"] == [0, roem]
    assert s.result()["score"] == [0, 162 + roem]


@pytest.mark.parametrize("defenders_pit, roem", [(True, 700), (False, 600)])
def test_defenders_pit(defenders_pit, roem):
    # team 0 plays (seat 0 declares) and takes no trick: nat, the defenders' pit counts only
    # with defenders_pit
    s = play(deal(AMSTERDAM, DEAL5, declarer=0, defenders_pit=defenders_pit), DEAL5_PLAY)
    r = s.result()
    assert r["pit"] is True and r["nat"] is True
    assert r["roem"] == [0, roem]
    assert r["score"] == [0, 162 + roem]


# Deal 6: the source's example trick (J, K, Q, A of trumps: 50 for the run of four plus 20
# stuk), then 7 8 9 10 of trumps (50), then seat 3 cashes its kings and aces.
DEAL6 = ["JC 9C 7H 8H 9H 10H JH QH",
         "KC 10C 7D 8D 9D 10D JD QD",
         "QC 8C 7S 8S 9S 10S JS QS",
         "AC 7C KH AH KD AD KS AS"]
DEAL6_PLAY = [
    ("JC KC QC AC", 0, 38, 70),  # (cards from the leader on, winner, points, roem)
    ("9C 10C 8C 7C", 0, 24, 50),
    ("7H 7D 7S AH", 3, 11, 0),
    ("KH QH 8D 8S", 3, 7, 0),
    ("AD 8H 9D 9S", 3, 11, 0),
    ("KD 9H QD 10S", 3, 17, 0),
    ("AS 10H 10D JS", 3, 33, 0),
    ("KS JH JD QS", 3, 11 + 10, 0),  # the last trick brings 10 more
]


@pytest.mark.parametrize("name", BOTH)
def test_deal6_tricks_roem_and_scores(name):
    s = deal(name, DEAL6, declarer=0)
    totals = [0, 0]
    for cards, winner, points, _ in DEAL6_PLAY:
        play(s, cards)
        assert s.to_move == winner and s._st[K.S_LAST_WINNER] == winner
        totals[winner % 2] += points
    r = s.result()
    assert r["points"] == totals == [62, 100]
    assert r["roem"] == [120, 0]
    assert r["tricks"] == [2, 6]
    assert r["nat"] is False and r["pit"] is False
    assert r["score"] == [182, 100]
    # four hands with a run of six or more, and seat 3 with four aces
    assert r["roem_hand"] == [100, 100, 100, 100]

    # the same play with team 1 declaring: 100 against 62 + 120 roem is nat
    s = play(deal(name, DEAL6, declarer=1), " ".join(c for c, *_ in DEAL6_PLAY))
    r = s.result()
    assert r["nat"] is True
    assert r["score"] == [162 + 120, 0]


# Deal 7 (hearts trump, dealer 3, seat 0 declares): 81 card points each, no roem; found by a
# heuristic-bot run and checked trick by trick by hand.
DEAL7 = ["8C 10C KC AC 8D 10D 9H AH",
         "9C QC QD JH QH KH 10S AS",
         "7C 9D JD KD 8H 10H 7S JS",
         "JC 7D AD 7H 8S 9S QS KS"]
DEAL7_PLAY = ("AC 9C 7C JC  10C QC 8H 7H  7S 8S AH 10S  8C JH 10H AD  QD 9D 7D 10D "
              "9H QH KD 9S  8D KH JD KS  AS JS QS KC")


@pytest.mark.parametrize("nat_on_tie, nat, score", [(True, True, [0, 162]), (False, False, [81, 81])])
def test_nat_on_tie(nat_on_tie, nat, score):
    s = play(deal(ROTTERDAM, DEAL7, trump="H", declarer=0, nat_on_tie=nat_on_tie), DEAL7_PLAY)
    r = s.result()
    assert r["points"] == [81, 81] and r["roem"] == [0, 0] and r["tricks"] == [5, 3]
    assert r["nat"] is nat
    assert r["score"] == score
    assert r["roem_hand"] == [0, 40, 0, 0]  # seat 1: J Q K of trumps 20 and stuk 20


def test_score_kernel_edges():
    out = np.zeros(2, dtype=np.int64)
    # the playing team (1) wins by one point
    assert not K.klaverjas_score(np.array([80, 82]), np.array([0, 0]), 1, 1, out)
    assert list(out) == [80, 82]
    # roem decides: 90 + 0 against 72 + 20 is nat for team 0, who lose their roem to team 1
    assert K.klaverjas_score(np.array([90, 72]), np.array([0, 20]), 0, 1, out)
    assert list(out) == [0, 162 + 20]
    # a nat team's own roem goes to the opponents too
    assert K.klaverjas_score(np.array([60, 102]), np.array([40, 0]), 0, 0, out)
    assert list(out) == [0, 162 + 40]


# ------------------------------------------------------------------ table roem examples


@pytest.mark.parametrize("cards, trump, roem", [
    ("7H 8H 9H 7S", "C", 20),  # three in a row
    ("7H 8H 9H 10H", "C", 50),  # four in a row
    ("10H JH QH KS", "C", 20),
    ("QS KS AS 7S", "C", 20),  # the 7 is not next to the ace
    ("AH 10H KH QH", "C", 20),  # natural order: Q K A is a run, the 10 stands apart
    ("9D 10D JD QD", "H", 50),
    ("9H JH KH AH", "C", 0),
    ("JC QC KC 7D", "C", 40),  # J Q K of trumps: run 20 + stuk 20
    ("JC QC KC AC", "C", 70),  # the source's example: 50 + 20
    ("QC KC 7D 8D", "C", 20),  # stuk alone
    ("QC KC 7D 8D", "D", 0),  # K and Q of a plain suit
    ("QH KH", "H", 20),
    ("7H 8H 9H", "S", 20),  # a trick in progress
    ("AC AD AH AS", "C", 100),
    ("10C 10D 10H 10S", "D", 100),
    ("KC KD KH KS", "S", 100),
    ("QC QD QH QS", "H", 100),
    ("JC JD JH JS", "C", 200),
    ("9C 9D 9H 9S", "C", 0),
    ("8C 8D 8H 8S", "C", 0),
    ("7C 7D 7H 7S", "C", 0),
])
def test_table_roem_examples(cards, trump, roem):
    game = simcards.load(ROTTERDAM)
    mask = game.deck.parse_hand(cards)
    assert K.trick_roem(np.int64(mask), "CDHS".index(trump), game.tables) == roem
    assert naive.table_roem(naive.cards(cards), "CDHS".index(trump)) == roem


@pytest.mark.parametrize("hand, trump, melds", [
    ("7C 8C 9C AD 9H JH KS AS", "D", 20),  # one run of three
    ("7C 8C 9C 10C AD 9H KS AS", "D", 50),
    ("7C 8C 9C 10C JC AD 9H KS", "D", 100),
    ("7C 8C 9C 10C JC QC KC AC", "D", 100),  # a run of eight counts once
    ("7C 8C 9C 7D 8D 9D KS AS", "S", 40),  # two runs
    ("JC JD JH JS 7C 9D QH AS", "S", 200),
    ("AC AD AH AS KC KD KH KS", "S", 200),  # two fours of a kind (no run: two per suit)
    ("JC JD JH JS QC QD QH QS", "H", 300),
    ("7C 7D 7H 7S 8C 9C AD KH", "S", 120),  # four 7s and 7 8 9 of clubs: melds overlap
    ("QS KS 7C 9D JH AH 8D 10C", "S", 20),  # stuk
    ("QS KS 7C 9D JH AH 8D 10C", "H", 0),
    ("QS KS AS 7C 9D JH 8D 10C", "S", 40),  # Q K A run and stuk
])
def test_hand_meld_examples(hand, trump, melds):
    game = simcards.load(ROTTERDAM)
    mask = game.deck.parse_hand(hand)
    assert K.hand_melds(np.int64(mask), "CDHS".index(trump), game.tables) == melds
    assert naive.hand_melds(naive.cards(hand), "CDHS".index(trump)) == melds


def test_hand_four_kind_ranks_option():
    game = simcards.load(ROTTERDAM, hand_four_kind_ranks=["A", "10"])
    hands = {"AC AD AH AS KC KD KH KS": 100, "JC JD JH JS 7C 9D QH AS": 0}
    for hand, melds in hands.items():
        assert K.hand_melds(np.int64(game.deck.parse_hand(hand)), 3, game.tables) == melds


# ------------------------------------------------------------------ errors


def test_illegal_move_names_card_and_legal_cards():
    s = deal(ROTTERDAM, DEAL1)
    s.play("AD")
    with pytest.raises(simcards.IllegalMove) as err:
        s.play("jc")
    assert isinstance(err.value, ValueError)
    assert str(err.value) == "'jc' is not a legal card for seat 1 now; legal: 7D, JD, QD, KD"
    with pytest.raises(simcards.IllegalMove, match="'AD' is not in the hand of seat 1 now; legal: 7D"):
        s.play("AD")  # not in the hand at all
    with pytest.raises(ValueError, match="'1D' is not a card"):
        s.play("1D")
    assert s.legal_moves() == ["7D", "JD", "QD", "KD"]  # nothing changed
    with pytest.raises(ValueError, match="the deal is not over: 1 of 32 cards played"):
        s.result()
    s = play(deal(ROTTERDAM, DEAL5), DEAL5_PLAY)
    with pytest.raises(simcards.IllegalMove, match="the deal is over"):
        s.play("AH")
    assert s.legal_moves() == []


def test_rulesets_and_unknown_ruleset():
    assert {ROTTERDAM, AMSTERDAM} <= set(simcards.rulesets())
    with pytest.raises(ValueError) as err:
        simcards.load("klaverjas-utrecht")
    assert "unknown ruleset 'klaverjas-utrecht'" in str(err.value)
    assert ROTTERDAM in str(err.value) and AMSTERDAM in str(err.value)


def test_unknown_option_lists_the_options():
    with pytest.raises(ValueError) as err:
        simcards.load(AMSTERDAM, nat_on_ties=False)
    text = str(err.value)
    assert "'nat_on_ties'" in text and "klaverjas-amsterdam" in text
    for known in ("table_roem", "four_kind_ranks", "pit_bonus", "defenders_pit", "nat_on_tie",
                  "trump_selection", "hand_four_kind_ranks", "deals_per_match"):
        assert known in text


@pytest.mark.parametrize("option, value, allowed", [
    ("nat_on_tie", "yes", "true or false"),
    ("table_roem", 1, "true or false"),
    ("pit_bonus", -5, "an integer from 0 to 10000"),
    ("pit_bonus", 1.5, "an integer from 0 to 10000"),
    ("pit_bonus", True, "an integer from 0 to 10000"),
    ("trump_selection", "sometimes", "one of 'forced', 'free', 'random'"),
    ("four_kind_ranks", ["A", "1"], "a list of '7', '8', '9', '10', 'J', 'Q', 'K', 'A'"),
    ("four_kind_ranks", "A", "a list of"),
    ("deals_per_match", 0, "an integer from 1 to 1024"),
])
def test_bad_option_value(option, value, allowed):
    with pytest.raises(ValueError) as err:
        simcards.load(ROTTERDAM, **{option: value})
    text = str(err.value)
    assert f"option {option!r} = {value!r} is not allowed for klaverjas-rotterdam" in text
    assert allowed in text


def test_every_bad_option_reported_at_once():
    with pytest.raises(ValueError) as err:
        simcards.load(ROTTERDAM, pit_bonus=-1, colour="red")
    assert "pit_bonus" in str(err.value) and "colour" in str(err.value)


def test_option_values_are_normalised():
    game = simcards.load(ROTTERDAM, four_kind_ranks=["t", "a"])
    assert game.options["four_kind_ranks"] == ("10", "A")
    assert simcards.load(ROTTERDAM).options["nat_on_tie"] is True


def test_bad_deals():
    game = simcards.load(ROTTERDAM)
    short = [h.split() for h in DEAL1]
    short[2] = short[2][:7]
    with pytest.raises(ValueError, match="hand 2 has 7 cards; each hand holds 8"):
        game.deal(hands=short, trump="C")
    twice = [h.split() for h in DEAL1]
    twice[3][0] = "AD"
    with pytest.raises(ValueError, match="AD dealt to more than one hand"):
        game.deal(hands=twice, trump="C")
    with pytest.raises(ValueError, match="is not a suit"):
        game.deal(hands=[h.split() for h in DEAL1], trump="X")
    with pytest.raises(ValueError, match="dealer = 4 is not a seat"):
        game.deal(hands=[h.split() for h in DEAL1], dealer=4, trump="C")
    with pytest.raises(ValueError, match="declarer = 5 is not a seat"):
        game.deal(hands=[h.split() for h in DEAL1], trump="C", declarer=5)
    with pytest.raises(ValueError, match="give both seed and index"):
        game.deal(seed=1)


def test_state_views():
    s = deal(AMSTERDAM, DEAL1, declarer=2)
    assert s.hand(3) == ["7C", "7H", "KH", "AH", "8S", "10S", "JS", "QS"]
    assert s.declarer == 2 and s.trump == 0
    play(s, "AD 7D")
    assert s.trick == ["AD", "7D"]
    assert s.history == [(0, "AD"), (1, "7D")]
    assert "AD" not in s.hand(0)
