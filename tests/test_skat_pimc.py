"""Skat's `pimc` bot (simcards/games/skat/_pimc.py): samples that agree with what the seat
knows and are uniform among the deals that do (against tests/naive/skat_pimc.py), the value of
a card in a sample is the settled score of perfect play (against brute-force minimax,
tests/naive/skat_solver.py, scored by the public `settle`), golden positions, legal cards,
reproducible runs and the ``samples`` parameter's checks."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simcards
from naive import skat as NS
from naive import skat_pimc as NP
from naive import skat_solver as NSS
from simcards.errors import UserError
from simcards.engine.sampler import SM_WAYS
from simcards.engine.state import S_PLAYED
from simcards.games.skat import _kernels as K
from simcards.games.skat import _pimc as P
from simcards.games.skat import settle
from simcards.games.skat._solve_kernels import X_TT_BITS
from simcards.games.skat.scoring import CONTRACTS
from simcards.rng import STREAM_PLAY, stream_state
from test_skat_solver import random_position

GAME = simcards.load("skat")
SEEGER = simcards.load("skat", scoring="seeger-fabian")
PIMC_SEAT0 = [{"kind": "pimc", "params": {"samples": 2}}, "heuristic", "heuristic"]


def codes(mask: int) -> frozenset:
    return frozenset(GAME.deck.hand_codes(int(mask)))


def draw(state, seat, sampler, rng):
    """One `draw_sample` as (cards of the seat after ``seat``, of the one after, of the Skat)
    and the sample state."""
    sample = np.zeros(K.STATE_SIZE, dtype=np.int64)
    P.draw_sample(state._st, seat, sampler, rng, sample)
    others = [(seat + 1) % 3, (seat + 2) % 3]
    hidden = NP.hidden_receivers(state, seat)
    parts = tuple(codes(sample[K.S_HAND + o]) if hidden[i] else frozenset()
                  for i, o in enumerate(others))
    skat = codes(sample[K.S_SKAT]) if hidden[2] else frozenset()
    return (*parts, skat), sample


# ---------------------------------------------------------------- the samples


def played_state(seed: int, contract: int, cards_left: int):
    return random_position(seed, contract, cards_left)[0]


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 5), st.integers(0, 30), st.integers(0, 2),
       st.integers(0, 2**32))
def test_samples_keep_what_the_seat_knows(seed, contract, cards_left, seat, draw_seed):
    """Any position, any seat: every sample gives the seat its own hand, keeps every card
    played, gives each hidden seat as many cards as it holds and none of a suit it has shown
    it lacks, deals the Skat only where the seat does not know it, and leaves what the seat
    sees (an Ouvert declarer's hand, the declarer's own discard) as it is; the sample's
    declarer holds twelve cards: his played cards, his hand and the Skat."""
    state = played_state(seed, contract, cards_left)
    s = state._st
    sampler = np.zeros(P.SAMPLER_SIZE, dtype=np.int64)
    assert P.prepare_sampler(s, seat, GAME.tables, sampler)  # the true deal is consistent
    rng = stream_state(draw_seed, 0, 9)
    for _ in range(5):
        parts, sample = draw(state, seat, sampler, rng)
        assert NP.is_consistent(state, seat, *parts)
        assert int(sample[K.S_HAND + seat]) == int(s[K.S_HAND + seat])
        assert int(sample[S_PLAYED]) == int(s[S_PLAYED])
        hidden = NP.hidden_receivers(state, seat)
        for i, other in enumerate(((seat + 1) % 3, (seat + 2) % 3)):
            if not hidden[i]:
                assert int(sample[K.S_HAND + other]) == int(s[K.S_HAND + other])
        if not hidden[2]:
            assert int(sample[K.S_SKAT]) == int(s[K.S_SKAT])
        declarer = state.declarer
        played_by_declarer = {c for who, c in state.history if who == declarer}
        assert codes(sample[K.S_CARDS12]) == (played_by_declarer | codes(sample[K.S_HAND + declarer])
                                             | codes(sample[K.S_SKAT]))
        assert len(codes(sample[K.S_CARDS12])) == 12


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 5), st.integers(3, 8), st.integers(0, 2),
       st.integers(0, 2**32))
def test_the_sampler_counts_and_draws_exactly_the_consistent_deals(seed, contract, cards_left,
                                                                   seat, draw_seed):
    """Late in the deal: the sampler's count of completions is the number of consistent deals
    by brute force, and every draw is one of them."""
    state = played_state(seed, contract, cards_left)
    sampler = np.zeros(P.SAMPLER_SIZE, dtype=np.int64)
    P.prepare_sampler(state._st, seat, GAME.tables, sampler)
    deals = NP.consistent_deals(state, seat)
    hidden = NP.hidden_receivers(state, seat)
    sizes = [len(state.hand((seat + i) % 3)) if hidden[i - 1] else 0 for i in (1, 2)]
    assert int(sampler[SM_WAYS + sizes[0] * P.ROOM + sizes[1]]) == len(deals)
    rng = stream_state(draw_seed, 0, 9)
    for _ in range(10):
        assert draw(state, seat, sampler, rng)[0] in deals


def test_the_draws_are_uniform_among_the_consistent_deals():
    """A defender's position with a handful of consistent deals (the Skat among the unseen
    cards): 1,000 draws a deal hit each about 1,000 times."""
    for seed in range(300):
        state = played_state(seed, seed % 5, 4)
        seat = next(s for s in range(3) if s != state.declarer)
        deals = NP.consistent_deals(state, seat)
        if 4 <= len(deals) <= 12:
            break
    sampler = np.zeros(P.SAMPLER_SIZE, dtype=np.int64)
    P.prepare_sampler(state._st, seat, GAME.tables, sampler)
    rng = stream_state(5, 0, 9)
    counts = dict.fromkeys(deals, 0)
    for _ in range(1000 * len(deals)):
        counts[draw(state, seat, sampler, rng)[0]] += 1
    chi2 = sum((c - 1000) ** 2 / 1000 for c in counts.values())
    assert chi2 < 3 * len(deals) + 20  # far below what a skewed sampler gives


def test_a_voided_suit_never_reaches_the_seat_that_showed_the_void():
    """Grand: seat 1 discards on a spade lead, so no sample gives it a spade; the Skat and seat
    0 still get the spades the defender at seat 2 cannot see."""
    hands = ["JC JS AS 10S KS QS 9S AC 10C KC".split(), "JH JD AH 10H KH QH 9H AD 10D KD".split(),
             "8S 7S AC 7C 8C 9C QC 8H 7H QD".split()]
    hands[2][2] = "9D"  # AC is at seat 0
    state = GAME.deal(hands, ["8D", "7D"], dealer=2, declarer=0, contract="grand", hand=True)
    for code in ("AS", "9H", "7S"):  # seat 1 shows it has no spade
        state.play(code)
    sampler = np.zeros(P.SAMPLER_SIZE, dtype=np.int64)
    P.prepare_sampler(state._st, 2, GAME.tables, sampler)
    rng = stream_state(3, 0, 9)
    seen = [frozenset(), frozenset(), frozenset()]
    spades = {"10S", "KS", "QS", "9S"}
    for _ in range(300):
        parts, _ = draw(state, 2, sampler, rng)  # (seat 0, seat 1, Skat)
        assert not parts[1] & spades
        seen = [a | b for a, b in zip(seen, parts)]
    assert spades <= seen[0] and spades <= seen[2]


# ---------------------------------------------------------------- the value of a sample


def score_leaf(state, scoring: str, kontra: int):
    """The declarer's settled score from his final points and tricks (`settle`), doubled per
    Kontra level in the list part."""
    cards12 = GAME.deck.hand_codes(state.dealt[state.declarer] | state.skat)
    name = CONTRACTS[state.contract]

    def leaf(points, tricks):
        result = settle(cards12, name, state.bid, points, tricks, hand=state.hand_game,
                        schneider_announced=state.schneider_announced,
                        schwarz_announced=state.schwarz_announced, ouvert=state.ouvert)
        score = result["declarer_score"] << kontra
        if scoring == "seeger-fabian":
            score += 50 if result["won"] else -50
        return score
    return leaf


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 5), st.integers(4, 11), st.integers(0, 2),
       st.sampled_from(["list", "seeger-fabian"]))
def test_a_samples_card_values_are_the_settled_scores_of_perfect_play(seed, contract,
                                                                      cards_left, kontra,
                                                                      scoring):
    """With every hand known (the position itself as the sample), the totals after one sample
    are, for each legal card, the declarer's settled score under perfect play after it (the
    brute force maximises the score for the declarer), negated for a defender."""
    state, pos = random_position(seed, contract, cards_left)
    game = SEEGER if scoring == "seeger-fabian" else GAME
    seat = state.to_move
    legal = state.legal_mask()
    work = np.zeros(P.WORK_SIZE, dtype=np.int64)
    work[P.W_CTX + X_TT_BITS] = 10  # a small table: collisions get exercised
    work[P.W_SAMPLE:P.W_SAMPLER] = state._st
    work[P.W_SAMPLE + K.S_KONTRA] = kontra
    P.value_sample(seat, np.int64(legal), game.tables, work)
    reference = NSS.card_values(pos, score_leaf(state, scoring, kontra))
    sign = 1 if seat == state.declarer else -1
    got = {code: int(work[P.W_TOTALS + GAME.deck.card_id(code)]) for code in reference}
    assert got == {code: sign * v for code, v in reference.items()}


def test_card_values_where_the_cards_differ():
    """Random play decides most games early, so positions where the cards' settled scores
    differ are rare: of 400 positions with three or four tricks left, every such one (dozens,
    the declarer and the defenders to move) is checked against the brute force."""
    checked = {True: 0, False: 0}
    for seed in range(400):
        state, pos = random_position(seed, seed % 6, 9 + seed % 4)
        reference = NSS.card_values(pos, score_leaf(state, "list", 0))
        if len(set(reference.values())) == 1:
            continue
        seat = state.to_move
        work = np.zeros(P.WORK_SIZE, dtype=np.int64)
        work[P.W_CTX + X_TT_BITS] = 10
        work[P.W_SAMPLE:P.W_SAMPLER] = state._st
        P.value_sample(seat, np.int64(state.legal_mask()), GAME.tables, work)
        sign = 1 if seat == state.declarer else -1
        got = {code: int(work[P.W_TOTALS + GAME.deck.card_id(code)]) for code in reference}
        assert got == {code: sign * v for code, v in reference.items()}, seed
        checked[seat == state.declarer] += 1
    assert checked[True] >= 10 and checked[False] >= 10


# ---------------------------------------------------------------- golden positions


def grand_played(hands: str, skat: str, cards: str):
    """A Grand seat 0 declares after picking up ``skat`` and laying it away again (dealer 2, so
    seat 0 leads), played through ``cards``; hands and cards as codes, seats split by "|"."""
    state = GAME.deal([h.split() for h in hands.split("|")], skat.split(), dealer=2, declarer=0,
                      contract="grand", discard=skat.split())
    for code in cards.split():
        state.play(code)
    return state


def ruff_for_the_game_as_declarer():
    """Grand, seat 0 declares with 58 points (the 14 of his discard KH 10S included) after
    eight tricks. Seat 1 leads QS, seat 2 follows 7S; seat 0, void in spades, holds JD (the
    last trump) and 7H. Ruffing takes 5 points (63, and the last trick is his too): won;
    throwing 7H leaves 58 + JD's last trick, 60: lost. The defenders' last two cards (7D, 8D)
    are all the declarer cannot see, and either way round the answer is the same. The
    heuristic (contest a trick worth 4 points or more) throws 7H."""
    return grand_played("10C 10D 7H 8H AH JC JD JH JS KS | 10H 7C 7D 9C 9H AC AD KC QC QS | "
                        "7S 8C 8D 8S 9D 9S AS KD QD QH", "KH 10S",
                        "10C QC 8C 10D AD 9D AC 8S KS KC QD JS JH 7C KD JC 9C 9S AH 9H QH 8H "
                        "10H AS QS 7S")


def ruff_for_the_game_as_defender():
    """Grand, seat 0 declares (Skat 8C 8D, laid away again: 0 points) and leads QS with 58
    points after eight tricks; seat 1 follows 7S; seat 2, void in spades, holds JD and 7H.
    Ruffing keeps the declarer at 58: lost; throwing 7H gives him 61: won. The four cards seat
    2 cannot see (7C, 7D, 8C, 8D) score nothing wherever they lie. The heuristic throws 7H."""
    return grand_played("10C 7C 9S AC JS KH QC QD QH QS | 10D 10H 7D 7S AD AH AS KC KD KS | "
                        "10S 7H 8H 8S 9C 9D 9H JC JD JH", "8C 8D",
                        "QD KD 9D AS 10S 9S 10H 9H QH AD JC QC 9C 10C KC JS KS JH AC AH 8S KH "
                        "10D 8H QS 7S")


@pytest.mark.parametrize("position, seat", [(ruff_for_the_game_as_declarer, 0),
                                            (ruff_for_the_game_as_defender, 2)])
def test_pimc_ruffs_for_the_game_where_the_heuristic_throws_a_card(position, seat):
    state = position()
    assert state.to_move == seat and sorted(state.legal_moves()) == ["7H", "JD"]
    taken = int(state._st[K.S_POINTS]) + NS.card_points(GAME.deck.hand_codes(state.discard))
    assert taken == 58
    assert state.suggest("heuristic") == "7H"
    for samples in (1, 3):
        assert state.suggest("pimc", {"samples": samples}) == "JD"


def test_null_declarer_ducks_under_the_trick():
    """Null (value 23), seat 0 declares, two tricks left: seat 1 leads 9H, seat 2 covers with
    JH; the declarer holds 8H and QH, every other heart is gone. QH takes the trick (lost,
    -46); 8H ducks, and QH is then thrown on the last trick's other suit (won, +23), whichever
    way the two cards he cannot see lie."""
    state = GAME.deal([h.split() for h in ("7H 8C 8H 9C 9S AC AH KC QD QH",
                                           "10H 10S 7C 9D 9H AS JC JD KS QC",
                                           "10C 7D 7S 8D AD JH JS KD KH QS")],
                      ["10D", "8S"], dealer=0, declarer=0, contract="null", discard=["10D", "8S"])
    for code in ("10H KH 7H AD QD JD KD 9S 9D 7D 8C 7C 7S KC KS 10S JS AH 8D AC QC QS 9C AS "
                 "9H JH").split():
        state.play(code)
    assert state.to_move == 0 and sorted(state.legal_moves()) == ["8H", "QH"]
    work = np.zeros(P.WORK_SIZE, dtype=np.int64)
    P.pimc_totals(0, np.int64(state.legal_mask()), state._st, GAME.tables, 4,
                  stream_state(2, 0, 9), work)
    assert int(work[P.W_TOTALS + GAME.deck.card_id("8H")]) == 4 * 23
    assert int(work[P.W_TOTALS + GAME.deck.card_id("QH")]) == 4 * -46
    assert state.suggest("pimc", {"samples": 1}) == "8H"


def test_where_every_card_ties_pimc_plays_the_heuristics_card():
    """A decision where every card settles alike in every sample (a game already decided):
    pimc plays the heuristic's card."""
    # a Grand the declarer cannot lose: every card ties, the heuristic's is played
    shuffler = random.Random(4)
    for _ in range(40):
        deck = list(GAME.deck.codes)
        shuffler.shuffle(deck)
        hands = [deck[0:10], deck[10:20], deck[20:30]]
        state = GAME.deal(hands, deck[30:], dealer=2, declarer=0, contract="grand", hand=True)
        work = np.zeros(P.WORK_SIZE, dtype=np.int64)
        legal = np.int64(state.legal_mask())
        rng = stream_state(0, 0, STREAM_PLAY)  # the stream `suggest` plays the first card with
        P.pimc_totals(0, legal, state._st, GAME.tables, 3, rng, work)
        best = P.best_cards(legal, work)
        if best == legal and bin(int(legal)).count("1") > 1:
            assert state.suggest("pimc", {"samples": 3}) == state.suggest("heuristic")
            return
    pytest.skip("no deal where every card ties")  # pragma: no cover


# ---------------------------------------------------------------- the bot in runs


def test_pimc_plays_legal_cards_and_runs_are_reproducible():
    """Pimc at every seat: each card of each deal is legal under the naive rules; a deal's row
    is the same alone as in a run (chunks and workers split runs by deals)."""
    bots = [{"kind": "pimc", "params": {"samples": 2}}] * 3
    whole = GAME.simulate(4, seed=11, bots=bots)
    alone = GAME.simulate(2, seed=11, bots=bots, start=2)
    assert whole.slice(2, 2).equals(alone)
    assert GAME.simulate(4, seed=11, bots=bots).equals(whole)
    kinds, params = GAME.resolve_bots(bots)
    for index in range(4):
        row, cards = GAME.run_deal(11, index, kinds, params)
        if row["contract"] == 6:  # passed in
            continue
        state = GAME.state_from_row(row)
        name = CONTRACTS[row["contract"]]
        for card in cards:
            if card < 0:
                break
            code = GAME.deck.code(int(card))
            hand = state.hand(state.to_move)
            assert code in NS.legal_moves(hand, state.trick, name)
            state.play(code)
        assert state.is_over


def test_pimc_keeps_the_heuristic_contract():
    """Pimc bids, declares and discards as the heuristic: the same contracts on the same deals."""
    pimc = GAME.simulate(6, seed=3, bots=PIMC_SEAT0)
    heuristic = GAME.simulate(6, seed=3)
    for column in ("declarer", "final_bid", "contract", "hand_game", "discard"):
        assert pimc[column].equals(heuristic[column])


@pytest.mark.parametrize("value", [0, 2.5, -3, 1001])
def test_bad_samples_are_refused_with_the_allowed_range(value):
    with pytest.raises(UserError, match=r"params\.samples = .* whole number from 1 to 1000"):
        GAME.resolve_bots([{"kind": "pimc", "params": {"samples": value}}] * 3)


@pytest.mark.e2e
def test_a_pimc_run_reports_its_duplicate_result(tmp_path):
    """A run with pimc at seat 1: the report's "Pimc in duplicate" section replays the same
    deals with the heuristic there and gives the differences in words and as a table."""
    from simcards.cli import main

    cfg = tmp_path / "pimc.toml"
    cfg.write_text(f'name = "pimc"\nruleset = "skat"\ndeals = 6\nseed = 2\nworkers = 1\n'
                   f'output = "{tmp_path / "results"}"\n'
                   '[[bots]]\nkind = "heuristic"\n'
                   '[[bots]]\nkind = "pimc"\nparams = { samples = 1 }\n'
                   '[[bots]]\nkind = "heuristic"\n')
    assert main(["run", str(cfg), "--quiet"]) == 0
    assert main(["report", str(tmp_path / "results" / "pimc"), "--out", str(tmp_path / "r")]) == 0
    md = (tmp_path / "r" / "pimc" / "report.md").read_text()
    section = md[md.index("## Pimc in duplicate"):]
    assert "- With pimc at seat 1, the seat's margin" in section and "(6 deals, 95% interval)" in section
    assert "its games as declarer: its score" in section


def test_duplicate_differences_by_role():
    import polars as pl

    from simcards.games.skat.stats import duplicate_differences

    both = pl.DataFrame({"deal_index": [0, 1, 2, 3], "declarer": [0, 1, 2, -1],
                         "score_0": [40, 0, 0, 0], "score_1": [0, -60, 0, 0],
                         "score_2": [0, 0, 24, 0],
                         "score_0_heuristic": [-80, 0, 0, 0], "score_1_heuristic": [0, 30, 0, 0],
                         "score_2_heuristic": [0, 0, 24, 0]})
    table = {row["deals"].split(":")[0]: row for row in duplicate_differences(both, 0).iter_rows(named=True)}
    # margins, pimc minus heuristic: +120 (declarer), +45 (half of -60 - 30), 0, 0
    assert table["every deal"]["n"] == 4 and table["every deal"]["mean_difference"] == 165 / 4
    assert table["its games as declarer"]["n"] == 1 and table["its games as declarer"]["mean_difference"] == 120
    assert table["its games as defender"]["n"] == 2 and table["its games as defender"]["mean_difference"] == 45
