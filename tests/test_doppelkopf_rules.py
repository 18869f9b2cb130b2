"""Doppelkopf rules in the kernels: card orders against the naive reference, the marriage's
clarifying trick, announcement deadlines with replies, special points and the settlement of
simulated deals against `settle`, and invariants over random play."""

import random

import polars as pl
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import naive.doppelkopf as N
import simcards
from simcards.errors import UserError
from simcards.games.doppelkopf import ANNOUNCEMENTS, settle
from simcards.games.doppelkopf import _kernels as K
from simcards.games.doppelkopf.rules import CONTRACTS, GAME_TYPES

GAME = simcards.load("doppelkopf")
DECK = GAME.deck


def kernel_winner(cards, contract, game=GAME):
    T = game.tables
    c = CONTRACTS.index(contract)
    ids = []
    for code in cards:  # repeated codes take the second copy, as in a hand
        card = DECK.card_id(code)
        ids.append(card + 24 if card in ids else card)
    best = 0
    for i in range(1, len(ids)):
        if K.takes_over(ids[i], ids[best], T, c):
            best = i
    return best


@pytest.mark.parametrize("cards, contract, winner", [
    (["10H", "QC", "JC", "AD"], "normal", 0),
    (["9D", "AC", "KC", "10C"], "normal", 0),  # the 9 of diamonds is a trump
    (["AC", "10C", "AC", "9D"], "normal", 3),
    (["10H", "10H", "QC", "QC"], "normal", 0),  # the first of two identical cards wins
    (["QC", "QC", "9C", "9C"], "normal", 0),
    (["AH", "KH", "10H", "9H"], "normal", 2),  # the 10 of hearts is no heart
    (["AC", "QD", "10C", "KC"], "queen", 1),
    (["10H", "JD", "AH", "KH"], "queen", 2),  # queen solo: 10H is a plain heart, AH higher
    (["JD", "QC", "10H", "JS"], "jack", 3),
    (["AH", "JD", "KH", "9H"], "hearts", 1),  # hearts solo: AH below the jacks
    (["AH", "JD", "10H", "QH"], "hearts", 2),  # and the 10 of hearts on top
    (["AC", "JD", "AD", "KC"], "clubs", 1),
    (["AD", "9H", "KD", "9S"], "clubs", 0),  # clubs solo: diamonds are plain
    (["QC", "AC", "JC", "10C"], "fleshless", 1),  # fleshless: A 10 K Q J 9
    (["10H", "AH", "KH", "9H"], "fleshless", 1),
])
def test_golden_tricks(cards, contract, winner):
    assert kernel_winner(cards, contract) == winner
    assert N.trick_winner(cards, contract) == winner


def test_the_second_heart_ten_option():
    second = simcards.load("doppelkopf", second_heart_ten_wins=True)
    assert kernel_winner(["10H", "QC", "10H", "9D"], "normal", second) == 2
    assert kernel_winner(["10H", "QC", "10H", "9D"], "normal") == 0
    assert kernel_winner(["10H", "10H", "AH", "KH"], "queen", second) == 2  # plain: A above 10
    assert N.trick_winner(["10H", "QC", "10H", "9D"], "normal", True) == 2


PFLICHT = simcards.load("doppelkopf", pflichtsolo=True)


@pytest.mark.parametrize("bots", ["random", "heuristic"])
def test_pflichtsolo_every_player_plays_one_owed_solo_per_series(bots):
    deals = PFLICHT.simulate(72, seed=4, bots=bots).with_columns(
        (pl.col("deal_index") // 24).alias("series"))
    for series in deals.partition_by("series"):
        owed = series.filter(pl.col("owed_solo"))
        assert sorted(owed["declarer"].to_list()) == [0, 1, 2, 3]
        assert (owed["leader"] == owed["declarer"]).all()  # the soloist leads an owed solo
        assert (owed["game_type"] >= GAME_TYPES.index("queen_solo")).all()
        free = series.filter(~pl.col("owed_solo"))
        assert (free["leader"] == (free["dealer"] + 1) % 4).all()
    off = GAME.simulate(72, seed=4, bots=bots)
    assert not off["owed_solo"].any()


def test_pflichtsolo_chunks_starting_inside_a_series_agree():
    whole = PFLICHT.simulate(48, seed=6, bots="heuristic")
    parts = pl.concat([PFLICHT.simulate(n, seed=6, bots="heuristic", start=a)
                       for a, n in ((0, 5), (5, 25), (30, 18))])
    assert whole.equals(parts)
    row = whole.filter(pl.col("owed_solo")).row(0, named=True)
    replay = PFLICHT.replay(6, row["deal_index"], bots="heuristic")
    assert replay["tricks"][0]["leader"] == row["declarer"]


def test_random_tricks_agree_with_the_naive_reference():
    rng = random.Random(4)
    codes = list(DECK.codes[:24])
    for _ in range(3000):
        contract = rng.choice(CONTRACTS)
        cards = [rng.choice(codes) for _ in range(4)]
        if any(cards.count(c) > 2 for c in cards):
            continue
        assert kernel_winner(cards, contract) == N.trick_winner(cards, contract), (cards, contract)


# ------------------------------------------------------------ simulated deals, replayed naively


def replay_naively(row, trace):
    """Tricks, winners, Augen and special events of a simulated deal from its cards alone."""
    hands = [set(DECK.hand_codes(row[f"hand_{s}"])) for s in range(4)]
    owner = {}
    for s in range(4):
        for card in DECK.hand_codes(row[f"hand_{s}"]):
            owner.setdefault(card, []).append(s)
    game_type = GAME_TYPES[row["game_type"]]
    contract = {"queen_solo": "queen", "jack_solo": "jack", "clubs_solo": "clubs",
                "spades_solo": "spades", "hearts_solo": "hearts", "diamonds_solo": "diamonds",
                "fleshless": "fleshless"}.get(game_type, "normal")
    leader = (row["dealer"] + 1) % 4
    tricks = []
    for t in range(12):
        cards = [DECK.code(int(c)) for c in trace[4 * t:4 * t + 4]]
        seats = [(leader + i) % 4 for i in range(4)]
        for seat, card in zip(seats, cards):
            assert card in hands[seat]
            if card not in [c for c in hands[seat]]:
                raise AssertionError
        pos = N.trick_winner(cards, contract)
        winner = seats[pos]
        tricks.append((seats, cards, winner, pos))
        leader = winner
    return contract, tricks


@pytest.mark.parametrize("bots", ["random", "heuristic", ["heuristic", "random", "heuristic", "random"]])
def test_simulated_deals_agree_with_a_naive_replay_and_settle(bots):
    kinds, params = GAME.resolve_bots(bots)
    frames, traces = GAME._simulate_traced(7, 0, 400, kinds, params)
    deals = frames["deals"]
    seen_types = set()
    for k, row in enumerate(deals.iter_rows(named=True)):
        trace = traces[k]
        assert sorted(int(c) for c in trace) == list(range(48))  # each card played once
        contract, tricks = replay_naively(row, trace)
        game_type = GAME_TYPES[row["game_type"]]
        seen_types.add(game_type)
        re = {s for s in range(4) if row["re_mask"] >> s & 1}
        if game_type in ("marriage", "marriage_alone"):
            holder = row["declarer"]
            found = [t for t in range(3) if tricks[t][2] != holder]
            if found:
                assert game_type == "marriage" and row["clarify_trick"] == found[0] + 1
                assert re == {holder, tricks[found[0]][2]}
            else:
                assert game_type == "marriage_alone" and re == {holder}
        elif game_type == "normal":
            assert re == {s for s in range(4) if "QC" in DECK.hand_codes(row[f"hand_{s}"])}
        else:
            assert re == {row["declarer"]}
        re_augen = sum(N.augen(cards) for _, cards, w, _ in tricks if w in re)
        re_tricks = sum(1 for *_, w, _ in tricks if w in re)
        assert (row["re_augen"], row["re_tricks"]) == (re_augen, re_tricks)
        assert row["re_augen"] + row["kontra_augen"] == 240
        assert row["re_tricks"] + row["kontra_tricks"] == 12
        # special events, naively
        party = {s: ("re" if s in re else "kontra") for s in range(4)}
        events = {"re": [], "kontra": []}
        for t, (seats, cards, w, pos) in enumerate(tricks if not row["solo"] else []):
            for seat, card in zip(seats, cards):
                if card == "AD" and party[seat] != party[w]:
                    events[party[w]].append("fox")
            if N.augen(cards) >= 40:
                events[party[w]].append("doppelkopf")
            if t == 11 and cards[pos] == "JC":
                events[party[w]].append("karlchen")
        for name in ("fox", "doppelkopf", "karlchen"):
            for side in ("re", "kontra"):
                assert row[f"{name}_{side}"] == events[side].count(name), (name, side)
        calls = [c for c in ANNOUNCEMENTS if row[f"ann_{c}"] >= 0]
        expected = settle(re_augen, re_tricks, calls, events, solo=bool(row["solo"]))
        assert row["value"] == expected["value"]
        assert row["winner"] == (None, "re", "kontra").index(expected["winner"])
        scores = [row[f"score_{s}"] for s in range(4)]
        assert sum(scores) == 0
        for s in range(4):
            assert scores[s] == (expected["re"] if s in re else expected["kontra"])
    assert {"normal", "marriage"} <= seen_types


def test_marriage_partner_found_in_trick_1_2_3_and_not_at_all():
    """Random play of many marriages: the clarifying trick is the first of tricks 1-3 another
    player wins (checked naively above); here every case occurs, and the deadlines shift."""
    deals = GAME.simulate(6000, seed=3, bots="random")
    marriages = deals.filter(deals["game_type"].is_in([1, 2]))
    cases = set(marriages["clarify_trick"].to_list())
    assert cases == {0, 1, 2, 3}
    assert (marriages.filter(marriages["clarify_trick"] == 0)["game_type"] == 2).all()
    assert (marriages.filter(marriages["clarify_trick"] == 0)["solo"]).all()


# ------------------------------------------------------------ announcements


def random_play_until(state, rng, seat, cards):
    """Play random legal cards until ``seat`` is to move holding ``cards`` cards."""
    while not (state.to_move == seat and len(state.hand(seat)) == cards):
        state.play(rng.choice(state.legal_moves()))


def normal_deal(index):
    for i in range(index, index + 50):
        state = GAME.deal(seed=1, index=i, bots="random")
        if state.game_type == "normal":
            return state
    raise AssertionError


def seats_of(state, party):
    re = int(state._st[K.S_PARTY])
    return [s for s in range(4) if (re >> s & 1) == (party == "re")]


def test_re_deadline_and_the_kontra_reply():
    state = normal_deal(0)
    re_seat = seats_of(state, "re")[0]
    ko_seat = seats_of(state, "kontra")[0]
    rng = random.Random(1)
    random_play_until(state, rng, re_seat, 11)
    state.announce("re", re_seat)  # 11 cards: in time
    assert state.announcements["re"] == {"seat": re_seat, "cards": 11}
    random_play_until(state, rng, ko_seat, 10)
    state.announce("kontra", ko_seat)  # a reply: one card fewer than Re needed
    state.announce("kontra_no90", ko_seat)  # in time as a first announcement (10 cards)
    assert state.announcements["kontra"]["cards"] == 10
    # without a Re to answer, 10 cards are too few for Kontra
    alone = normal_deal(0)
    random_play_until(alone, random.Random(1), ko_seat, 10)
    with pytest.raises(UserError, match="out of time"):
        alone.announce("kontra", ko_seat)
    # and the reply itself has its deadline: 9 cards are too few to answer Re
    late = normal_deal(0)
    rng = random.Random(1)
    random_play_until(late, rng, re_seat, 11)
    late.announce("re", re_seat)
    random_play_until(late, rng, ko_seat, 9)
    with pytest.raises(UserError, match="out of time"):
        late.announce("kontra", ko_seat)
    with pytest.raises(UserError, match="cannot call"):
        late.announce("kontra", re_seat)


def test_absage_deadlines_and_skipped_levels():
    rng = random.Random(2)
    state = normal_deal(5)
    re_seat = seats_of(state, "re")[0]
    random_play_until(state, rng, re_seat, 11)
    state.announce("re_no90", re_seat)  # skips Re: both in time with 11 cards, both count
    assert set(state.announcements) == {"re", "re_no90"}
    random_play_until(state, rng, re_seat, 9)
    state.announce("re_no60", re_seat)  # 9 cards: in time for no 60
    with pytest.raises(UserError, match="out of time"):
        random_play_until(state, rng, re_seat, 7)
        state.announce("re_no30", re_seat)  # no 30 needs 8
    assert state.announcements["re_no60"]["cards"] == 9
    # the reply to no 60 (which needed 9) is in time with 8 cards; Kontra's own Absagen are not
    ko_seat = seats_of(state, "kontra")[0]
    state3 = normal_deal(5)
    rng = random.Random(2)
    random_play_until(state3, rng, re_seat, 11)
    state3.announce("re_no90", re_seat)
    random_play_until(state3, rng, re_seat, 9)
    state3.announce("re_no60", re_seat)
    random_play_until(state3, rng, ko_seat, 8)
    state3.announce("kontra", ko_seat)
    with pytest.raises(UserError, match="out of time"):
        state3.announce("kontra_no90", ko_seat)
    with pytest.raises(UserError, match="cannot call"):
        state3.announce("re_no30", ko_seat)


def test_skipping_needs_every_level_in_time():
    rng = random.Random(3)
    state = normal_deal(9)
    re_seat = seats_of(state, "re")[0]
    random_play_until(state, rng, re_seat, 10)
    with pytest.raises(UserError, match="out of time"):
        state.announce("re_no90", re_seat)  # Re itself needed 11 cards


def test_marriage_deadlines_shift_with_a_late_clarifying_trick():
    deals = GAME.simulate(3000, seed=5, bots="random")
    kinds, params = GAME.resolve_bots("random")
    for clarify in (1, 2, 3):
        row = deals.filter((deals["game_type"] == 1)
                           & (deals["clarify_trick"] == clarify)).row(0, named=True)
        state = GAME.deal(seed=5, index=row["deal_index"], bots="random")
        holder = row["declarer"]
        with pytest.raises(UserError, match="not clarified"):
            state.announce("re", holder)  # no first announcement before the clarifying trick
        trace = GAME.run_deal(5, row["deal_index"], kinds, params)[1]
        k = 0
        while int(state._st[K.S_TRICK_NO]) < clarify:
            state.play(DECK.code(int(trace[k])))
            k += 1
        assert int(state._st[K.S_SHIFT]) == clarify - 1
        # Re with 11 - shift cards, Kontra (replying) with one fewer
        for seat, call, needed in ((holder, "re", 11 - (clarify - 1)),):
            while state.to_move != seat:
                state.play(DECK.code(int(trace[k])))
                k += 1
            held = len(state.hand(seat))
            assert bool(K.call_in_time(state._st, seat, 0)) == (held >= needed)
            if held == needed:
                state.announce(call, seat)


# ------------------------------------------------------------ the kernel's settlement


@st.composite
def deal_results(draw):
    re_tricks = draw(st.integers(0, 12))
    low = 0 if re_tricks < 12 else 240
    high = 0 if re_tricks == 0 else 240
    re_augen = draw(st.integers(max(low, 240 - 44 * (12 - re_tricks)), min(high, 44 * re_tricks)))
    re_level = draw(st.integers(-1, 4))
    ko_level = draw(st.integers(-1, 4))
    specials = {}
    for side, tricks in (("re", re_tricks), ("kontra", 12 - re_tricks)):
        events = draw(st.lists(st.sampled_from(["fox", "doppelkopf"]), max_size=2)) if tricks else []
        specials[side] = events
    if draw(st.booleans()) and re_tricks and 12 - re_tricks:
        specials[draw(st.sampled_from(["re", "kontra"]))].append("karlchen")
    return re_augen, re_tricks, re_level, ko_level, specials, draw(st.booleans())


@settings(max_examples=400, deadline=None)
@given(deal_results())
def test_kernel_settlement_agrees_with_settle(result):
    re_augen, re_tricks, re_level, ko_level, specials, solo = result
    assume(specials["re"].count("fox") + specials["kontra"].count("fox") <= 2)
    assume(specials["re"].count("doppelkopf") <= re_tricks)
    assume(specials["kontra"].count("doppelkopf") <= 12 - re_tricks)
    calls = [ANNOUNCEMENTS[k] for k in range(re_level + 1)]
    calls += [ANNOUNCEMENTS[5 + k] for k in range(ko_level + 1)]
    expected = settle(re_augen, re_tricks, calls, specials, solo)
    winner, value = K.settle_value(re_augen, re_tricks, re_level, ko_level, len(specials["re"]),
                                   len(specials["kontra"]), int(solo))
    assert (None, "re", "kontra")[winner] == expected["winner"]
    assert value == expected["value"]


def test_parties_come_from_the_re_mask():
    deals = GAME.simulate(50, seed=2, bots="random")
    parties = GAME.parties(deals)
    for row, party in zip(deals.iter_rows(named=True), parties):
        assert [int(p) for p in party] == [0 if row["re_mask"] >> s & 1 else 1 for s in range(4)]


@pytest.mark.parametrize("game", [GAME, PFLICHT], ids=["plain", "pflichtsolo"])
def test_heuristic_replays_reproduce_announcements_and_scores(game):
    kinds, params = game.resolve_bots("heuristic")
    frames, traces = game._simulate_traced(8, 0, 60, kinds, params)
    deals = frames["deals"]
    assert (deals["ann_re"] >= 0).any() and (deals["ann_kontra"] >= 0).any()
    for k, row in enumerate(deals.iter_rows(named=True)):
        state = game.state_from_row(row, kinds, params)
        for card in traces[k]:
            state.play(DECK.code(int(card)))
        expected = game.result_row(state)
        assert {key: row[key] for key in expected} == expected, row["deal_index"]


def test_deal_by_hand_with_a_chosen_game():
    hands = [DECK.hand_codes(h) for h in
             (int(GAME.simulate(1, seed=1, bots="random")[f"hand_{s}"][0]) for s in range(4))]
    state = GAME.deal(hands, dealer=0, game_type="queen_solo", declarer=2, bots="random")
    assert state.contract == "queen" and state.game_type == "queen_solo" and state.to_move == 1
    # a code held once by two hands takes a copy each; a third is one too many
    assert sum(h.count("QC") for h in hands) == 2
    thrice = [list(h) for h in hands]
    holder = next(s for s in range(4) if "QC" not in thrice[s])
    thrice[holder][thrice[holder].index(next(c for c in thrice[holder] if c != "QC"))] = "QC"
    with pytest.raises(UserError, match="more often"):
        GAME.deal(thrice)
    with pytest.raises(UserError, match="game_type"):
        GAME.deal(hands, game_type="grand")
    with pytest.raises(UserError, match="seat"):
        GAME.deal(hands, game_type="jack_solo", declarer=7)
    rng = random.Random(0)
    while not state.is_over:
        state.play(rng.choice(state.legal_moves()))
    result = state.result()
    assert result["re"] == [2] and sum(result["scores"]) == 0 and result["solo"]
    assert result["scores"][2] == 3 * result["value"]
