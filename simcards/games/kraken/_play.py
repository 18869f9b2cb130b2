"""The Kraken batch kernels: matches of deals with trump choice, bidding, play, roem and scoring.

`simulate_matches` plays matches start .. start+n-1 of a run. Deal ``d`` of match ``m`` draws
only from the streams of deal index ``match_deal_index(m, d)`` (rng.py), and the match's first
dealer from its own match stream, so any match (and any deal) can be recomputed alone.

One kernel serves both rulesets: the variant and every rule come from the table ``T``, and the
dataset rows each field goes to from a column map (`deal_column_map`), since the two rulesets
name some columns differently.
"""

from __future__ import annotations

import numpy as np

from simcards._jit import driver, kernel
from simcards.games.klaverjas.bots import choose_trump, evaluate_hand
from simcards.games.kraken.bots import run_bidding
from simcards.games.columns import column_index
from simcards.games.klaverjas._kernels import STATE_SIZE, hand_melds, new_state
from simcards.games.klaverjas._play import deal_cards, play_out
from simcards.games.kraken._kernels import (
    SETTLE_SIZE,
    SR_BID_WON,
    SR_BURDEN,
    SR_CONTESTED,
    SR_CROSSES,
    SR_HAND_ROEM,
    SR_MARK,
    SR_MELD_TEAM,
    SR_MULT,
    SR_NAT,
    SR_PIT,
    SR_PIT_ROEM,
    SR_POINTS,
    SR_ROEM,
    SR_SCORE,
    SR_STUK,
    SR_TABLE_ROEM,
    SR_TOP_FOUR,
    SR_TOP_MELD,
    SR_TRICKS,
    SR_WOULD_WIN,
    bid_team,
    krule,
    settle,
)
from simcards.games.kraken.columns import float_columns, int_columns
from simcards.games.kraken.rules import (
    CONTRA,
    KR_DEALS,
    KR_END_CROSSES,
    KR_MAX_BID,
    KR_TARGET,
    KR_VARIANT,
    MARK_KRAAK,
    MARK_NAT,
)
from simcards.games.kraken.scoring import contra_match_end, scorebord_game_over
from simcards.rng import (
    MAX_DEALS_PER_MATCH,
    STREAM_CONTRACT,
    STREAM_MATCH,
    STREAM_PLAY,
    match_deal_index,
    randint,
    reset_stream,
)

# ---- logical deal fields -> row of the int matrix (per-team / per-seat / per-level fields
# take consecutive rows from the first)
(F_MATCH, F_DEAL_NO, F_DEAL_INDEX, F_DEALER, F_HAND, F_TRUMP, F_DECLARER, F_ESTIMATE, F_BID,
 F_BIDDING_TEAM, F_BURDEN, F_BID_SEAT, F_WOULD_WIN, F_MULT, F_POINTS, F_POINTS_X, F_TRICKS,
 F_HAND_ROEM, F_STUK, F_TABLE_ROEM, F_PIT_ROEM, F_ROEM, F_MELD_TEAM, F_TOP_MELD, F_TOP_FOUR,
 F_CONTESTED, F_PIT, F_NAT, F_BID_WON, F_SCORE, F_CROSSES, F_MARK, F_TOTAL, F_ROEM_HAND) = range(34)
N_FIELDS = 34
_FIELD_COLUMNS = {
    F_MATCH: "match_index", F_DEAL_NO: "deal_no", F_DEAL_INDEX: "deal_index", F_DEALER: "dealer",
    F_HAND: "hand_0", F_TRUMP: "trump", F_DECLARER: "declarer", F_ESTIMATE: "estimate",
    F_BID: "bid", F_BIDDING_TEAM: "bidding_team", F_BURDEN: "burden_team",
    F_BID_SEAT: "kraak_seat", F_WOULD_WIN: "would_win_kraak", F_MULT: "multiplier",
    F_POINTS: "points_0", F_POINTS_X: "points_x_0", F_TRICKS: "tricks_0",
    F_HAND_ROEM: "hand_roem_0", F_STUK: "stuk_0", F_TABLE_ROEM: "table_roem_0",
    F_PIT_ROEM: "pit_roem_0", F_ROEM: "roem_0", F_MELD_TEAM: "meld_team", F_TOP_MELD: "top_meld",
    F_TOP_FOUR: "top_meld_four", F_CONTESTED: "contested", F_PIT: "pit", F_NAT: "nat",
    F_BID_WON: "bid_won", F_SCORE: "score_0", F_CROSSES: "crosses_0", F_MARK: "mark_0",
    F_TOTAL: "total_0", F_ROEM_HAND: "roem_hand_0",
}

(M_MATCH, M_DEALS, M_FIRST_DEALER, M_TOTAL, M_CROSSES, M_WINNER, M_DECLARED, M_BIDS, M_NAT,
 M_NAT_MARKS, M_KRAAK_MARKS, M_PITS) = range(12)
N_MATCH_FIELDS = 12
_MATCH_FIELD_COLUMNS = {
    M_MATCH: "match_index", M_DEALS: "deals", M_FIRST_DEALER: "first_dealer", M_TOTAL: "total_0",
    M_CROSSES: "crosses_0", M_WINNER: "winner", M_DECLARED: "declared_0", M_BIDS: "bids_0",
    M_NAT: "nat_0", M_NAT_MARKS: "nat_marks_0", M_KRAAK_MARKS: "kraak_marks_0", M_PITS: "pits_0",
}


def _column_map(columns, fields: dict[int, str], n: int) -> np.ndarray:
    index = column_index(int_columns(columns))
    out = np.full(n, -1, dtype=np.int64)
    for field, name in fields.items():
        out[field] = index.get(name, -1)
    return out


def deal_column_map(columns) -> np.ndarray:
    """Row of the int matrix of each F_* field (-1: the ruleset has no such column)."""
    return _column_map(columns, _FIELD_COLUMNS, N_FIELDS)


def match_column_map(columns) -> np.ndarray:
    return _column_map(columns, _MATCH_FIELD_COLUMNS, N_MATCH_FIELDS)


def n_int_rows(columns) -> int:
    return len(int_columns(columns))


def n_float_rows(columns) -> int:
    return len(float_columns(columns))


# ---- scratch: one int64 work array (W_* offsets) per batch
W_HANDS = 0
W_DECK = 4
W_ST = W_DECK + 32
W_TRACE = W_ST + STATE_SIZE
W_BIDDERS = W_TRACE + 32
W_SETTLE = W_BIDDERS + 3
W_PAIR = W_SETTLE + SETTLE_SIZE  # two scratch slots for match totals
WORK_SIZE = W_PAIR + 2


@kernel
def first_dealer(seed, match, rng):
    """Dealer of the first deal of ``match`` (drawn from the match stream)."""
    reset_stream(rng, seed, match_deal_index(match, 0), STREAM_MATCH)
    return randint(rng, 4)


@kernel
def dealer_of(seed, index, rng):
    """Dealer of deal ``index`` of a run: the match's first dealer, rotated clockwise."""
    match = index // MAX_DEALS_PER_MATCH
    return (first_dealer(seed, match, rng) + index % MAX_DEALS_PER_MATCH) % 4


@kernel
def bidding(hands, trump, forehand, T, kinds, params, est, bidders):
    return run_bidding(hands, trump, forehand, krule(T, KR_MAX_BID), T, kinds, params, est, bidders)


@kernel
def contract(seed, index, dealer, T, kinds, params, work, est, rng):
    """Deal ``index`` and its contract: hands into the work array, forehand names trump, then
    the bidding. Returns (trump, declarer's estimate, bid level)."""
    hands = work[W_HANDS:W_HANDS + 4]
    deal_cards(seed, index, hands, work[W_DECK:W_DECK + 32], rng)
    reset_stream(rng, seed, index, STREAM_CONTRACT)
    forehand = (dealer + 1) % 4
    trump, trump_est = choose_trump(kinds[forehand], hands[forehand], T, params[forehand], rng)
    level = bidding(hands, trump, forehand, T, kinds, params, est, work[W_BIDDERS:W_BIDDERS + 3])
    return trump, trump_est, level


@kernel
def kraken_deal(seed, match, deal_no, dealer, T, kinds, params, work, est, rng, row, frow, cmap):
    """Play one deal and write its dataset row into ``row`` (int columns, all but the running
    totals) and ``frow`` (estimates); its settlement stays in the work array (W_SETTLE + SR_*
    slots). Returns the bid level."""
    index = match_deal_index(match, deal_no)
    trump, trump_est, level = contract(seed, index, dealer, T, kinds, params, work, est, rng)
    hands = work[W_HANDS:W_HANDS + 4]
    st = work[W_ST:W_ST + STATE_SIZE]
    res = work[W_SETTLE:W_SETTLE + SETTLE_SIZE]
    forehand = (dealer + 1) % 4
    playing = forehand & 1
    new_state(st, hands, dealer, trump, forehand)
    reset_stream(rng, seed, index, STREAM_PLAY)
    play_out(st, T, kinds, params, rng, work[W_TRACE:W_TRACE + 32])
    settle(st, hands, level, T, res)

    contra = krule(T, KR_VARIANT) == CONTRA
    for lv in range(1, (3 if contra else 2) + 1):
        row[cmap[F_WOULD_WIN] + lv - 1] = res[SR_WOULD_WIN + lv - 1]
        row[cmap[F_BID_SEAT] + lv - 1] = work[W_BIDDERS + lv - 1]
        frow[2 * (lv - 1)] = est[2 * (lv - 1)]
        frow[2 * (lv - 1) + 1] = est[2 * (lv - 1) + 1]
    row[cmap[F_MATCH]] = match
    row[cmap[F_DEAL_NO]] = deal_no
    row[cmap[F_DEAL_INDEX]] = index
    row[cmap[F_DEALER]] = dealer
    row[cmap[F_TRUMP]] = trump
    row[cmap[F_DECLARER]] = forehand
    row[cmap[F_ESTIMATE]] = np.int64(np.round(trump_est))
    row[cmap[F_BID]] = level
    row[cmap[F_BIDDING_TEAM]] = -1 if level == 0 else bid_team(level, playing)
    row[cmap[F_BURDEN]] = res[SR_BURDEN]
    row[cmap[F_MULT]] = res[SR_MULT]
    for seat in range(4):
        row[cmap[F_HAND] + seat] = hands[seat]
        row[cmap[F_ROEM_HAND] + seat] = hand_melds(hands[seat], trump, T)
    for team in range(2):
        row[cmap[F_POINTS] + team] = res[SR_POINTS + team]
        row[cmap[F_POINTS_X] + team] = res[SR_POINTS + team] * res[SR_MULT]
        row[cmap[F_TRICKS] + team] = res[SR_TRICKS + team]
        row[cmap[F_HAND_ROEM] + team] = res[SR_HAND_ROEM + team]
        row[cmap[F_STUK] + team] = res[SR_STUK + team]
        row[cmap[F_TABLE_ROEM] + team] = res[SR_TABLE_ROEM + team]
        row[cmap[F_PIT_ROEM] + team] = res[SR_PIT_ROEM + team]
        row[cmap[F_ROEM] + team] = res[SR_ROEM + team]
        row[cmap[F_SCORE] + team] = res[SR_SCORE + team]
        if contra:
            row[cmap[F_CROSSES] + team] = res[SR_CROSSES + team]
        else:
            row[cmap[F_MARK] + team] = res[SR_MARK + team]
    row[cmap[F_MELD_TEAM]] = res[SR_MELD_TEAM]
    row[cmap[F_TOP_MELD]] = res[SR_TOP_MELD]
    row[cmap[F_TOP_FOUR]] = res[SR_TOP_FOUR]
    row[cmap[F_CONTESTED]] = res[SR_CONTESTED]
    row[cmap[F_PIT]] = res[SR_PIT]
    row[cmap[F_NAT]] = res[SR_NAT]
    row[cmap[F_BID_WON]] = res[SR_BID_WON]
    return level


@kernel
def play_match(seed, match, T, kinds, params, work, est, rng, buf, fbuf, cmap, mrow, mmap):
    """Match ``match``: its deals into rows 0.. of ``buf`` / ``fbuf`` (one row per deal) and its
    summary into ``mrow`` (zeroed by the caller). Returns the deals played."""
    contra = krule(T, KR_VARIANT) == CONTRA
    dealer0 = first_dealer(seed, match, rng)
    n_deals = krule(T, KR_DEALS) if contra else MAX_DEALS_PER_MATCH
    target = krule(T, KR_TARGET)
    totals = work[W_PAIR:W_PAIR + 2]
    total0 = np.int64(0)
    total1 = np.int64(0)
    crosses0 = np.int64(0)
    crosses1 = np.int64(0)
    winner = -1
    played = 0
    for deal_no in range(n_deals):
        row = buf[deal_no]
        dealer = (dealer0 + deal_no) % 4
        level = kraken_deal(seed, match, deal_no, dealer, T, kinds, params, work, est, rng, row,
                            fbuf[deal_no], cmap)
        nat = work[W_SETTLE + SR_NAT] != 0
        played = deal_no + 1
        total0 += row[cmap[F_SCORE]]
        total1 += row[cmap[F_SCORE] + 1]
        row[cmap[F_TOTAL]] = total0
        row[cmap[F_TOTAL] + 1] = total1
        playing = ((dealer + 1) % 4) & 1
        burden = work[W_SETTLE + SR_BURDEN]
        mrow[mmap[M_DECLARED] + playing] += 1
        for lv in range(level):
            mrow[mmap[M_BIDS] + bid_team(lv + 1, playing)] += 1
        if nat:
            mrow[mmap[M_NAT] + burden] += 1
        for team in range(2):
            if row[cmap[F_TRICKS] + team] == 8:
                mrow[mmap[M_PITS] + team] += 1
        if contra:
            crosses0 += row[cmap[F_CROSSES]]
            crosses1 += row[cmap[F_CROSSES] + 1]
            if nat and level == 0:
                mrow[mmap[M_NAT_MARKS] + burden] += 1
            if level > 0:
                loser = burden if nat else 1 - burden
                mrow[mmap[M_KRAAK_MARKS] + loser] += 1
        else:
            for team in range(2):
                mark = row[cmap[F_MARK] + team]
                if mark == MARK_NAT:
                    mrow[mmap[M_NAT_MARKS] + team] += 1
                elif mark == MARK_KRAAK:
                    mrow[mmap[M_KRAAK_MARKS] + team] += 1
            totals[0] = total0
            totals[1] = total1
            winner = scorebord_game_over(totals, target)
            if winner >= 0:
                break
    if contra:
        totals[0] = total0
        totals[1] = total1
        crosses = work[W_BIDDERS:W_BIDDERS + 2]  # free once the deals are done
        crosses[0] = crosses0
        crosses[1] = crosses1
        winner = contra_match_end(totals, crosses, krule(T, KR_END_CROSSES))
        mrow[mmap[M_CROSSES]] = crosses[0]
        mrow[mmap[M_CROSSES] + 1] = crosses[1]
    mrow[mmap[M_MATCH]] = match
    mrow[mmap[M_DEALS]] = played
    mrow[mmap[M_FIRST_DEALER]] = dealer0
    mrow[mmap[M_TOTAL]] = total0
    mrow[mmap[M_TOTAL] + 1] = total1
    mrow[mmap[M_WINNER]] = winner
    return played


@kernel
def flush(buf, fbuf, played, out, fout, k0):
    """Copy a match's deal rows into columns k0.. of the column-major outputs."""
    for c in range(buf.shape[1]):
        for d in range(played):
            out[c, k0 + d] = buf[d, c]
    for c in range(fout.shape[0]):
        for d in range(played):
            fout[c, k0 + d] = fbuf[d, c]


@driver
def simulate_matches(seed, start, n, T, kinds, params, cmap, n_int, n_float, mmap, n_match_int,
                     expected_deals):
    """Matches start .. start+n-1: (deal int matrix, deal float matrix, match matrix), one
    column per deal / match (one row per dataset column)."""
    capacity = n * expected_deals + MAX_DEALS_PER_MATCH
    out = np.empty((n_int, capacity), dtype=np.int64)
    fout = np.empty((n_float, capacity), dtype=np.float64)
    mbuf = np.zeros((n, n_match_int), dtype=np.int64)
    buf = np.empty((MAX_DEALS_PER_MATCH, n_int), dtype=np.int64)
    fbuf = np.empty((MAX_DEALS_PER_MATCH, max(n_float, 6)), dtype=np.float64)
    work = np.zeros(WORK_SIZE, dtype=np.int64)
    est = np.empty(6, dtype=np.float64)
    rng = np.empty(1, dtype=np.uint64)
    k = 0
    for m in range(n):
        played = play_match(seed, start + m, T, kinds, params, work, est, rng, buf, fbuf, cmap,
                            mbuf[m], mmap)
        if capacity - k < played:
            capacity = 2 * capacity + played
            grown = np.empty((n_int, capacity), dtype=np.int64)
            grown[:, :k] = out[:, :k]
            out = grown
            fgrown = np.empty((n_float, capacity), dtype=np.float64)
            fgrown[:, :k] = fout[:, :k]
            fout = fgrown
        flush(buf, fbuf, played, out, fout, k)
        k += played
    return out[:, :k].copy(), fout[:, :k].copy(), mbuf.T.copy()


@driver
def replay_deal(seed, index, T, kinds, params):
    """Deal ``index`` as a run with ``seed`` plays it: (hands, dealer, trump, estimate, bid,
    estimates, bidders, cards in play order)."""
    work = np.zeros(WORK_SIZE, dtype=np.int64)
    est = np.empty(6, dtype=np.float64)
    rng = np.empty(1, dtype=np.uint64)
    match = index // MAX_DEALS_PER_MATCH
    deal_no = index % MAX_DEALS_PER_MATCH
    dealer = (first_dealer(seed, match, rng) + deal_no) % 4
    trump, trump_est, level = contract(seed, index, dealer, T, kinds, params, work, est, rng)
    st = np.empty(STATE_SIZE, dtype=np.int64)
    new_state(st, work[W_HANDS:W_HANDS + 4], dealer, trump, (dealer + 1) % 4)
    reset_stream(rng, seed, index, STREAM_PLAY)
    trace = np.empty(32, dtype=np.int64)
    play_out(st, T, kinds, params, rng, trace)
    return (work[W_HANDS:W_HANDS + 4].copy(), dealer, trump, trump_est, level, est.copy(),
            work[W_BIDDERS:W_BIDDERS + 3].copy(), trace)


@driver
def choose_contract(hands, dealer, trump, T, kinds, params, seed, index):
    """The bots' contract for given ``hands``: forehand names trump (unless ``trump`` >= 0 is
    given), then the bidding. Returns (trump, declarer's estimate, bid, estimates, bidders)."""
    est = np.empty(6, dtype=np.float64)
    bidders = np.empty(3, dtype=np.int64)
    rng = np.empty(1, dtype=np.uint64)
    reset_stream(rng, seed, index, STREAM_CONTRACT)
    forehand = (dealer + 1) % 4
    if trump < 0:
        trump, trump_est = choose_trump(kinds[forehand], hands[forehand], T, params[forehand], rng)
    else:
        trump_est = evaluate_hand(hands[forehand], trump, T, params[forehand])
    level = bidding(hands, trump, forehand, T, kinds, params, est, bidders)
    return trump, trump_est, level, est, bidders
