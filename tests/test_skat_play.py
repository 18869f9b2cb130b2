"""Skat play: the kernels against the public scoring functions and the naive reference
(tests/naive/skat.py), golden deals written as card codes, and invariants over random play."""

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simcards
from simcards.cards import DECK32
from simcards.errors import UserError
from simcards.games.skat import _kernels as K
from simcards.games.skat import _play, matadors, settle
from simcards.games.skat.rules import NULL, PASSED
from simcards.games.skat.scoring import BID_LADDER, CONTRACTS
from naive import skat as naive

GAME = simcards.load("skat")
T = GAME.tables
CODES = DECK32.codes


def mask(codes) -> int:
    return DECK32.parse_hand(codes)


# ------------------------------------------------------------------ scoring kernels


@settings(max_examples=400, deadline=None)
@given(cards=st.lists(st.sampled_from(CODES), min_size=12, max_size=12, unique=True),
       contract=st.integers(0, 5), bid=st.sampled_from(BID_LADDER), points=st.integers(0, 120),
       tricks=st.integers(0, 10), hand=st.booleans(), schneider=st.booleans(),
       schwarz=st.booleans(), ouvert=st.booleans(), scoring=st.sampled_from(["list", "seeger-fabian"]))
def test_settle_kernel_is_the_public_settle(cards, contract, bid, points, tricks, hand, schneider,
                                            schwarz, ouvert, scoring):
    name = CONTRACTS[contract]
    if name == "null" or not (hand or ouvert):
        schneider = schwarz = False
    expected = settle(cards, name, bid, points, tricks, hand=hand, schneider_announced=schneider,
                      schwarz_announced=schwarz, ouvert=ouvert, scoring=scoring)
    out = np.zeros(K.N_SETTLE, dtype=np.int64)
    K.settle_into(mask(cards), contract, bid, points, tricks, hand, schneider, schwarz, ouvert, T, out)
    assert bool(out[K.X_WON]) == expected["won"]
    assert bool(out[K.X_OVERBID]) == expected["overbid"]
    assert out[K.X_VALUE] == expected["value"]
    score = out[K.X_SEEGER] if scoring == "seeger-fabian" else out[K.X_LIST]
    assert score == expected["declarer_score"]
    defender = out[K.X_SEEGER_DEFENDER] if scoring == "seeger-fabian" else 0
    assert defender == expected["defender_score"]
    if name != "null":
        count, with_ = matadors(cards, name)
        assert out[K.X_MATADORS] == (count if with_ else -count)


@settings(max_examples=200, deadline=None)
@given(cards=st.lists(st.sampled_from(CODES), min_size=10, max_size=10, unique=True),
       contract=st.integers(0, 4))
def test_hand_game_matadors_are_the_best_an_unseen_skat_gives(cards, contract):
    name = CONTRACTS[contract]
    rest = [c for c in CODES if c not in cards]
    best = max(matadors(cards + [a, b], name)[0] for i, a in enumerate(rest) for b in rest[i + 1:])
    assert K.max_matadors_unseen_skat(mask(cards), contract, T) == best


# ------------------------------------------------------------------ the auction


@settings(max_examples=300, deadline=None)
@given(dealer=st.integers(0, 2),
       limits=st.lists(st.sampled_from((0,) + BID_LADDER[:20]), min_size=3, max_size=3))
def test_auction_kernel_is_the_naive_auction(dealer, limits):
    kinds = np.ones(3, dtype=np.int64)  # heuristic: bid and hold up to the limit
    bid_by = np.zeros(3, dtype=np.int64)
    pass_at = np.zeros(3, dtype=np.int64)
    rng = np.zeros(1, dtype=np.uint64)
    got = _play.auction(dealer, kinds, np.array(limits, dtype=np.int64), T, rng, bid_by, pass_at)
    assert tuple(got) == naive.auction(dealer, limits)
    declarer, bid = got
    if declarer >= 0:
        assert bid_by[declarer] == bid and pass_at[declarer] == -1
        assert sorted(pass_at)[1] >= 0  # the two others passed
    else:
        assert list(pass_at) == [0, 0, 0]


def test_jump_bids_are_ladder_values():
    """The random bidder raises one ladder step; every recorded bid is on the ladder."""
    deals = GAME.simulate(3000, seed=4, bots="random")
    for s in range(3):
        values = set(deals[f"bid_{s}"].to_list()) - {0}
        assert values <= set(BID_LADDER)
    assert deals["final_bid"].max() > 30


# ------------------------------------------------------------------ golden deals

# forehand (seat 1 with dealer 0) has a Hearts game; middlehand (2) and rearhand (0) pass
REARHAND = ["8C", "10C", "QC", "8D", "10D", "QD", "QH", "KH", "10S", "KS"]
FOREHAND = ["7C", "9C", "AC", "7D", "KD", "7H", "10H", "JH", "AH", "AS"]
MIDDLEHAND = ["KC", "9D", "AD", "8H", "9H", "7S", "8S", "9S", "JS", "QS"]
SKAT = ["JC", "JD"]
STRONG = ["JC", "JS", "AC", "10C", "KC", "QC", "9C", "AS", "AH", "10H"]
WEAK_1 = ["AD", "8D", "9D", "QD", "7S", "10S", "9S", "QS", "KS", "8H"]
WEAK_2 = ["JH", "JD", "8C", "7C", "10D", "KD", "7D", "8S", "7H", "9H"]


def test_forehand_plays_at_18():
    state = GAME.deal(hands=[REARHAND, FOREHAND, MIDDLEHAND], dealer=0, bots="heuristic")
    assert state.declarer == 1 and state.bid == 18
    assert state.to_move == 1  # forehand leads


def test_a_passed_in_deal_is_a_row_of_zeros():
    never = {"kind": "heuristic", "params": {"suit_threshold": 2, "grand_threshold": 2,
                                             "null_threshold": 2}}
    state = GAME.deal(hands=[REARHAND, FOREHAND, MIDDLEHAND], dealer=0, bots=never)
    assert state.is_over and state.declarer == -1 and state.legal_moves() == []
    res = state.result()
    assert res["contract"] == "passed" and res["score"] == [0, 0, 0] and res["seeger"] == [0, 0, 0]
    deals = GAME.simulate(300, seed=1, bots="random")
    passed = deals.filter(deals["contract"] == PASSED)
    assert passed.height > 0
    assert (passed["declarer"] == -1).all() and (passed["final_bid"] == 0).all()
    assert (passed.select([f"score_{s}" for s in range(3)]).sum_horizontal() == 0).all()
    assert (passed.select([f"pass_at_{s}" for s in range(3)]).sum_horizontal() == 0).all()


def test_null_stopped_at_trick_three():
    decl = ["7C", "8C", "9C", "7D", "8D", "9D", "AH", "7S", "8S", "9S"]
    left = ["10C", "JC", "QC", "10D", "JD", "QD", "KH", "10S", "JS", "QS"]
    right = ["KC", "AC", "KD", "AD", "7H", "8H", "9H", "10H", "KS", "AS"]
    state = GAME.deal(hands=[right, decl, left], dealer=0, declarer=1, contract="null", hand=True)
    for code in ("7C", "10C", "KC",   # trick 1: seat 0
                 "7H", "AH", "KH"):   # trick 2: seat 0 leads 7H, the declarer must win with AH
        state.play(code)
    assert state.is_over and len(state.history) == 6
    state = GAME.deal(hands=[right, decl, left], dealer=0, declarer=1, contract="null", hand=True)
    for code in ("7C", "10C", "KC", "KD", "7D", "QD", "7H", "AH", "KH"):
        state.play(code)
    assert state.is_over and state.result()["tricks_declarer"] == 1
    assert state.result()["tricks_defenders"] == 2  # stopped at trick 3
    with pytest.raises(simcards.IllegalMove):
        state.play("7S")


def test_declaring_a_game_that_cannot_reach_the_bid_is_refused():
    hands = [WEAK_2, STRONG, WEAK_1]
    with pytest.raises(UserError, match="cannot reach the bid of 24"):
        GAME.deal(hands=hands, dealer=0, declarer=1, contract="null", bid=24,
                  discard=["QH", "KH"])
    # Diamonds without 1 (value 18 with the Skat) at 22 may still make Schneider: allowed
    diamonds = ["JS", "AD", "10D", "KD", "QD", "9D", "AS", "10S", "KS", "7H"]
    others = [c for c in CODES if c not in diamonds + ["8H", "9C"]]
    deal = [others[:10], diamonds, others[10:]]
    state = GAME.deal(hands=deal, skat=["8H", "9C"], dealer=0, declarer=1, contract="diamonds",
                      bid=22, discard=["8H", "9C"])
    assert state.bid == 22
    with pytest.raises(UserError, match="cannot reach the bid of 40.*at most 36"):
        GAME.deal(hands=deal, dealer=0, declarer=1, contract="diamonds", bid=40, discard=["8H", "9C"])
    # Hand and an announcement raise what it can reach
    GAME.deal(hands=deal, dealer=0, declarer=1, contract="diamonds", bid=40, hand=True)
    with pytest.raises(UserError, match="only allowed in a Hand game"):
        GAME.deal(hands=deal, dealer=0, declarer=1, contract="diamonds", schneider=True,
                  discard=["8H", "9C"])
    with pytest.raises(UserError, match="discard"):
        GAME.deal(hands=deal, dealer=0, declarer=1, contract="diamonds")
    with pytest.raises(UserError, match="contract = 'ramsch'"):
        GAME.deal(hands=deal, dealer=0, declarer=1, contract="ramsch", discard=["8H", "9C"])


def test_overbid_hand_game_is_scored_at_the_bid():
    # Diamonds Hand, the declarer counts on "with 2"; the Skat holds nothing: value with 2 is
    # 9 x (2+1+1) = 36 reached only with the Skat's JH; bid 45 needs Schneider as well
    diamonds = ["JC", "JS", "AD", "10D", "KD", "QD", "9D", "8D", "7D", "AS"]
    skat = ["7H", "8H"]
    others = [c for c in CODES if c not in diamonds + skat]
    state = GAME.deal(hands=[others[:10], diamonds, others[10:]], dealer=0, declarer=1,
                      contract="diamonds", bid=45, hand=True)
    rng = random.Random(1)
    while not state.is_over:
        state.play(rng.choice(state.legal_moves()))
    res = state.result()
    if not res["schneider"]:
        assert res["overbid"] and res["value"] == 45 and res["list"][1] == -90


# ------------------------------------------------------------------ random play


def test_trick_winners_and_points_match_the_naive_reference():
    rng = random.Random(7)
    for g in range(150):
        cards = list(CODES)
        rng.shuffle(cards)
        hands = [cards[0:10], cards[10:20], cards[20:30]]
        contract = CONTRACTS[g % 6]
        declarer = rng.randrange(3)
        state = GAME.deal(hands=hands, dealer=g % 3, declarer=declarer, contract=contract,
                          bid=18 if contract != "null" else 23, hand=True)
        taken = [[], [], []]
        while not state.is_over:
            leader = state.to_move
            trick = []
            for _ in range(3):
                legal = state.legal_moves()
                assert set(legal) == naive.legal_moves(state.hand(state.to_move), trick, contract)
                code = rng.choice(legal)
                trick.append(code)
                state.play(code)
            winner = (leader + naive.trick_winner(trick, contract)) % 3
            assert state.last_winner == winner
            taken[winner] += trick
        res = state.result()
        points = naive.card_points(taken[declarer] + cards[30:])
        assert res["points_declarer"] == points
        if contract != "null":
            assert res["points_declarer"] + res["points_defenders"] == 120


def test_random_play_invariants():
    kinds, params = GAME.resolve_bots("random")
    frames, traces = GAME._simulate_traced(3, 0, 2000, kinds, params)
    deals = frames["deals"]
    hands = deals.select("hand_0", "hand_1", "hand_2", "skat").to_numpy().astype(np.int64)
    assert (np.bitwise_or.reduce(hands, axis=1) == DECK32.full_mask).all()
    assert (sum(np.vectorize(lambda m: bin(m).count("1"))(hands[:, k]) for k in range(4)) == 32).all()
    contracts = deals["contract"].to_numpy()
    for row, trace in zip(deals.iter_rows(named=True), traces):
        played = [c for c in trace if c >= 0]
        assert len(set(played)) == len(played) and len(played) % 3 == 0
        tricks = row["tricks_declarer"] + row["tricks_defenders"]
        assert tricks == len(played) // 3
        if row["contract"] == PASSED:
            assert tricks == 0
        elif row["contract"] == NULL and tricks < 10:
            assert row["tricks_declarer"] == 1 and not row["won"]
        else:
            assert tricks == 10
            if row["contract"] != NULL:
                assert row["points_declarer"] + row["points_defenders"] == 120
        if row["contract"] != PASSED:
            dealt = row[f"hand_{row['declarer']}"] | row["skat"]
            assert row["discard"] & ~dealt == 0 and bin(row["discard"]).count("1") == 2
    assert set(contracts) == {PASSED, 0, 1, 2, 3, 4, 5}


def test_heuristic_rows_settle_as_the_public_function():
    deals = GAME.simulate(400, seed=9, bots="heuristic")
    for row in deals.filter(deals["contract"] >= 0).iter_rows(named=True):
        d = row["declarer"]
        cards = DECK32.hand_codes(row[f"hand_{d}"] | row["skat"])
        res = settle(cards, CONTRACTS[row["contract"]], row["final_bid"], row["points_declarer"],
                     row["tricks_declarer"], hand=row["hand_game"],
                     schneider_announced=row["schneider_announced"],
                     schwarz_announced=row["schwarz_announced"], ouvert=row["ouvert"],
                     scoring="seeger-fabian")
        assert res["won"] == row["won"] and res["value"] == row["value"]
        assert res["declarer_score"] == row[f"seeger_{d}"]
        assert all(row[f"seeger_{s}"] == res["defender_score"] for s in range(3) if s != d)


def test_kontra_doubles_the_list_value_and_needs_the_option():
    game = simcards.load("skat", kontra=True)
    deals = game.simulate(600, seed=5, bots="random")
    games = deals.filter(deals["contract"] >= 0)
    assert set(games["kontra"].to_list()) == {0, 1, 2}
    for row in games.iter_rows(named=True):
        d = row["declarer"]
        cards = DECK32.hand_codes(row[f"hand_{d}"] | row["skat"])
        res = settle(cards, CONTRACTS[row["contract"]], row["final_bid"], row["points_declarer"],
                     row["tricks_declarer"], hand=row["hand_game"], ouvert=row["ouvert"])
        assert row[f"list_{d}"] == res["declarer_score"] * 2 ** row["kontra"]
        assert row[f"seeger_{d}"] == row[f"list_{d}"] + (50 if row["won"] else -50)
    with pytest.raises(UserError, match="kontra"):
        GAME.deal(hands=[REARHAND, FOREHAND, MIDDLEHAND], dealer=0, declarer=1, contract="hearts",
                  discard=["JC", "JD"], kontra=1)


def test_suit_ouvert_is_hand_with_schwarz_announced_and_shows_the_hand():
    state = GAME.deal(hands=[REARHAND, FOREHAND, MIDDLEHAND], dealer=0, declarer=1,
                      contract="hearts", ouvert=True)
    assert state.hand_game and state.schwarz_announced and state.schneider_announced
    assert state.declarer_hand == state.hand(1)
    rng = random.Random(2)
    while not state.is_over:
        state.play(rng.choice(state.legal_moves()))
    res = state.result()
    assert res["schwarz_announced"] and res["ouvert"]
    # the value counts Hand, Schneider and Schwarz announced and Ouvert, as the public function does
    cards = DECK32.hand_codes(DECK32.parse_hand(FOREHAND) | DECK32.parse_hand(["JC", "JD"]))
    expected = settle(cards, "hearts", 18, res["points_declarer"], res["tricks_declarer"], ouvert=True)
    assert res["value"] == expected["value"] and res["won"] == expected["won"]
