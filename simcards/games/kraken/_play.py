"""The Kraken batch kernels: matches of deals with trump choice, bidding, play, roem and scoring.

`simulate_matches` plays matches start .. start+n-1 of a run. Deal ``d`` of match ``m`` draws
only from the streams of deal index ``match_deal_index(m, d)`` (rng.py), and the match's first
dealer from its own match stream, so any match (and any deal) can be recomputed alone.

One kernel serves both rulesets: the variant and every rule come from the table ``T``. It
writes the rows of `DEAL_ROWS` and `MATCH_ROWS` (columns.py), each the union of both rulesets'
columns, by the row numbers below; a value the rulesets name differently (the level-2 bid:
rekraak in contra, overkraak on the scoreboard) goes into both rows, and `RowLayout.to_frame`
picks a ruleset's own columns. The trace switch (``run[R_TRACE]``) also keeps every deal's
cards in play order: a replay reruns the deal's match in this same loop (protocol.py).
"""

from __future__ import annotations

import numpy as np

from simcards._jit import driver, hot, kernel
from simcards.cards import lowest_bit_index
from simcards.games.klaverjas import bots as kbots
from simcards.games.klaverjas.bots import choose_trump, evaluate_hand
from simcards.games.kraken.bots import run_bidding
from simcards.engine.rows import ensure_columns
from simcards.games.klaverjas.family import (
    GAME_SCRATCH,
    S_BIDDING,
    S_DECLARER,
    S_SHOWS,
    S_TO_MOVE,
    S_TRUMP,
    STATE_SIZE,
    W_CTX,
    W_DEALT,
    W_GAME,
    W_TT,
    X_END,
    apply_card,
    contract_agrees,
    deal_cards,
    deal_sample,
    hand_melds,
    keep_sample,
    legal_mask,
    new_state,
    pimc_begin,
    pimc_best,
    pimc_solve,
    pimc_scratch,  # noqa: F401 (game.py's: the loop's search scratch)
    set_pit_bonus,
)
from simcards.games.kraken._kernels import (
    A_HAND,
    A_STUK,
    AWARD_SIZE,
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
    award_hand_roem,
    bid_team,
    krule,
    settle,
)
from simcards.games.kraken.columns import DEAL_ROWS, MATCH_ROWS
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

# ---- rows of the deal and match matrices (columns.py: the union of both rulesets' columns)


def _first_row(row, names: tuple[str, ...]) -> int:
    """Row of ``names[0]``, checking that the other names take the rows after it."""
    first = row(names[0])
    if [row(name) for name in names] != list(range(first, first + len(names))):
        raise AssertionError(f"columns {names} do not take consecutive rows")
    return first


def _pair(row, name: str, n: int = 2) -> int:
    """First row of the per-team (or, n=4, per-seat) columns ``name``_0 ..."""
    return _first_row(row, tuple(f"{name}_{i}" for i in range(n)))


_d, _f, _m = DEAL_ROWS.row, DEAL_ROWS.float_row, MATCH_ROWS.row
C_MATCH, C_DEAL_NO, C_DEAL_INDEX, C_DEALER, C_TRUMP, C_DECLARER, C_ESTIMATE, C_BID = (
    _d(name) for name in ("match_index", "deal_no", "deal_index", "dealer", "trump", "declarer",
                          "estimate", "bid"))
C_BIDDING_TEAM, C_BURDEN, C_MULT, C_MELD_TEAM, C_TOP_MELD, C_TOP_FOUR = (
    _d(name) for name in ("bidding_team", "burden_team", "multiplier", "meld_team", "top_meld",
                          "top_meld_four"))
C_CONTESTED, C_PIT, C_NAT, C_BID_WON = (_d(name) for name in ("contested", "pit", "nat", "bid_won"))
C_HAND, C_ROEM_HAND = _pair(_d, "hand", 4), _pair(_d, "roem_hand", 4)
C_POINTS, C_POINTS_X, C_TRICKS, C_HAND_ROEM, C_STUK, C_TABLE_ROEM, C_PIT_ROEM, C_ROEM = (
    _pair(_d, name) for name in ("points", "points_x", "tricks", "hand_roem", "stuk", "table_roem",
                                 "pit_roem", "roem"))
C_SCORE, C_CROSSES, C_MARK, C_TOTAL = (_pair(_d, name) for name in ("score", "crosses", "mark", "total"))
# bid levels 1..3 by their contra names; level 2 is the overkraak on the scoreboard, and the
# kernel writes it under both names
C_BID_SEAT = _first_row(_d, ("kraak_seat", "rekraak_seat", "superkraak_seat"))
C_WOULD_WIN = _first_row(_d, ("would_win_kraak", "would_win_rekraak", "would_win_superkraak"))
C_OVERKRAAK_SEAT, C_WOULD_WIN_OVERKRAAK = _d("overkraak_seat"), _d("would_win_overkraak")
F_EST = _first_row(_f, tuple(f"est_{name}_{j}" for name in ("kraak", "rekraak", "superkraak")
                             for j in (1, 2)))
F_EST_OVERKRAAK = _first_row(_f, ("est_overkraak_1", "est_overkraak_2"))
N_DEAL_ROWS, N_FLOAT_ROWS = DEAL_ROWS.n_int, DEAL_ROWS.n_float

M_MATCH, M_DEALS, M_FIRST_DEALER, M_WINNER = (
    _m(name) for name in ("match_index", "deals", "first_dealer", "winner"))
M_TOTAL, M_CROSSES, M_DECLARED, M_BIDS, M_NAT, M_NAT_MARKS, M_KRAAK_MARKS, M_PITS = (
    _pair(_m, name) for name in ("total", "crosses", "declared", "bids", "nat", "nat_marks",
                                 "kraak_marks", "pits"))
N_MATCH_ROWS = MATCH_ROWS.n_int

# ---- the run array of `simulate_matches`
R_SEED, R_START, R_N, R_EXPECTED_DEALS, R_TRACE = range(5)
RUN_SIZE = 5

# ---- scratch: one int64 work array (W_* offsets) per batch; its last slots hold the context
# of the deal being played (seed, match, deal number, dealer, output columns)
W_HANDS = 0
W_DECK = 4
W_ST = W_DECK + 32
W_TRACE = W_ST + STATE_SIZE
W_BIDDERS = W_TRACE + 32
W_SETTLE = W_BIDDERS + 3
W_PAIR = W_SETTLE + SETTLE_SIZE  # two scratch slots for match totals
W_SEED = W_PAIR + 2
W_MATCH, W_DEAL_NO, W_INDEX, W_DEALER = W_SEED + 1, W_SEED + 2, W_SEED + 3, W_SEED + 4
W_ESTIMATE = W_SEED + 5  # the declarer's trump estimate, rounded
W_COL, W_MCOL = W_SEED + 6, W_SEED + 7  # column of the match's first deal row, of its match row
WORK_SIZE = W_SEED + 8


# `kraken_pimc_card`'s scratch in the pimc work array: trick counts, the award, the bidding's
W_BID_SCRATCH = 2 + AWARD_SIZE
assert W_BID_SCRATCH + 4 <= GAME_SCRATCH


@kernel
def pack_bidding(bidders):
    """The bidding record of ``st[S_BIDDING]``: bit 0 set (a record is known), then 3 bits per
    bid level, the seat that made it plus one (0: nobody)."""
    record = np.int64(1)
    for level in range(bidders.shape[0]):
        record |= np.int64(bidders[level] + 1) << (3 * level + 1)
    return record


@kernel
def bidding_agrees(record, dealt, st, T, params, scratch):
    """Would heuristic bots, every seat with the pimc seat's ``params``, dealt ``dealt`` have bid
    as the ``record`` says after the deal's trump? ``scratch``: 4 int64 slots."""
    kinds = scratch[0:1]
    kinds[0] = kbots.HEURISTIC
    bidders = scratch[1:4]
    run_bidding(dealt, st[S_TRUMP] & 3, st[S_DECLARER] & 3, krule(T, KR_MAX_BID), T, kinds,
                params.reshape((1, params.shape[0])), params[:0], bidders)
    return pack_bidding(bidders) == record


@kernel
def kraken_draw(seat, st, T, params, tries, rng, work):
    """`_pimc.pimc_draw` that also asks the bidding: up to ``tries`` draws until one agrees with
    the trump forehand named and, when the state holds a bidding record, with the bids
    (`bidding_agrees`), else the last one."""
    record = st[S_BIDDING]
    dealt = work[W_DEALT:W_DEALT + 4]
    scratch = work[W_GAME + W_BID_SCRATCH:W_GAME + W_BID_SCRATCH + 4]
    for _ in range(max(1, tries)):
        deal_sample(seat, st, rng, work)
        if tries <= 0:
            break
        if contract_agrees(st, dealt, T, params) and (
                record == 0 or bidding_agrees(record, dealt, st, T, params, scratch)):
            break
    keep_sample(st, work)


@kernel
def kraken_pimc_card(seat, legal, st, T, params, rng, work):
    """`_pimc.pimc_card` with Kraken's samples (`kraken_draw`: the bids tell too) and end bonus
    per sample: the pit bonus plus the hand roem and stuk of the sample's dealt hands, as
    `hand_roem_end_bonus` awards them by who takes a trick."""
    if legal & (legal - 1) == 0:
        return lowest_bit_index(legal)
    own = pimc_begin(seat, st, T, rng, work)
    end = work[W_CTX + X_END:W_CTX + X_END + 4]
    tricks = work[W_GAME:W_GAME + 2]
    award = work[W_GAME + 2:W_GAME + 2 + AWARD_SIZE]
    tries = np.int64(params[kbots.P_CONTRACT_TRIES])
    for _ in range(max(1, np.int64(params[kbots.P_SAMPLES]))):
        kraken_draw(seat, st, T, params, tries, rng, work)
        set_pit_bonus(work[W_CTX:W_TT], T)
        hand_roem_end_bonus(work[W_DEALT:W_DEALT + 4], st[S_TRUMP] & 3, st[S_DECLARER], T,
                            tricks, award, end)
        pimc_solve(seat, legal, st, T, work)
    return pimc_best(legal, rng, own, work)


@hot
def choose_card(kind, legal, st, T, params, rng, work):
    """`klaverjas.bots.choose_card` with Kraken's pimc (`kraken_pimc_card`; ``work`` None:
    no seat is pimc, and pimc is not compiled)."""
    if work is not None:  # a literal None test: Numba drops it before typing a None work
        if kind == kbots.PIMC:
            return kraken_pimc_card(st[S_TO_MOVE] & 3, legal, st, T, params, rng, work)
    return kbots.choose_card(kind, legal, st, T, params, rng, work)


@kernel
def play_out(st, T, bot_kind, bot_params, rng, trace, work):
    """Let the bots play the deal in ``st`` to its end, recording cards in ``trace``: the
    template loop of klaverjas/_play.py with Kraken's card choice (`choose_card`)."""
    if work is not None:  # a pimc seat at the table: keep what the play shows
        st[S_SHOWS] = 1
    k = 0
    while True:
        seat = st[S_TO_MOVE] & 3
        card = choose_card(bot_kind[seat], legal_mask(st, T), st, T, bot_params[seat], rng, work)
        trace[k] = card
        k += 1
        if apply_card(st, card, T):
            return


@kernel
def first_dealer(seed, match, rng):
    """Dealer of the first deal of ``match`` (drawn from the match stream)."""
    reset_stream(rng, seed, match_deal_index(match, 0), STREAM_MATCH)
    return randint(rng, 4)


@kernel
def contract(T, kinds, params, work, est, trump, rng):
    """The contract of the hands in the work array for the deal of its context (W_SEED,
    W_INDEX, W_DEALER): forehand names trump (unless ``trump`` >= 0 is given), then the bidding
    (estimates into ``est``, bidders into W_BIDDERS). Returns (trump, the declarer's estimate,
    bid level)."""
    reset_stream(rng, work[W_SEED], work[W_INDEX], STREAM_CONTRACT)
    hands = work[W_HANDS:W_HANDS + 4]
    forehand = (work[W_DEALER] + 1) % 4
    if trump < 0:
        trump, trump_est = choose_trump(kinds[forehand], hands[forehand], T, params[forehand], rng)
    else:
        trump_est = evaluate_hand(hands[forehand], trump, T, params[forehand])
    level = run_bidding(hands, trump, forehand, krule(T, KR_MAX_BID), T, kinds, params, est,
                        work[W_BIDDERS:W_BIDDERS + 3])
    return trump, trump_est, level


@kernel
def kraken_deal(T, kinds, params, work, est, rng, search):
    """Play the deal of the work array's context (W_SEED, W_INDEX, W_DEALER): its hands, the
    contract (`contract`), the play (cards into W_TRACE) and the settlement (W_SETTLE + SR_*
    slots). ``search``: the pimc bot's scratch, None without a pimc seat. Returns the bid
    level."""
    seed = work[W_SEED]
    index = work[W_INDEX]
    hands = work[W_HANDS:W_HANDS + 4]
    deal_cards(seed, index, hands, work[W_DECK:W_DECK + 32], rng)
    trump, trump_est, level = contract(T, kinds, params, work, est, -1, rng)
    work[W_ESTIMATE] = np.int64(np.round(trump_est))
    st = work[W_ST:W_ST + STATE_SIZE]
    new_state(st, hands, work[W_DEALER], trump, (work[W_DEALER] + 1) % 4)
    st[S_BIDDING] = pack_bidding(work[W_BIDDERS:W_BIDDERS + 3])
    reset_stream(rng, seed, index, STREAM_PLAY)
    play_out(st, T, kinds, params, rng, work[W_TRACE:W_TRACE + 32], search)
    settle(st, hands, level, T, work[W_SETTLE:W_SETTLE + SETTLE_SIZE])
    return level


@kernel
def write_deal(T, work, est, level, out, fout, col):
    """The dataset row of the deal just played (`kraken_deal`) into column ``col`` of ``out``
    (int rows, all but the running totals) and ``fout`` (estimates)."""
    hands = work[W_HANDS:W_HANDS + 4]
    res = work[W_SETTLE:W_SETTLE + SETTLE_SIZE]
    dealer = work[W_DEALER]
    trump = work[W_ST + S_TRUMP]
    playing = ((dealer + 1) % 4) & 1
    for lv in range(3):
        out[C_WOULD_WIN + lv, col] = res[SR_WOULD_WIN + lv]
        out[C_BID_SEAT + lv, col] = work[W_BIDDERS + lv]
    out[C_WOULD_WIN_OVERKRAAK, col] = res[SR_WOULD_WIN + 1]
    out[C_OVERKRAAK_SEAT, col] = work[W_BIDDERS + 1]
    for i in range(6):
        fout[F_EST + i, col] = est[i]
    fout[F_EST_OVERKRAAK, col] = est[2]
    fout[F_EST_OVERKRAAK + 1, col] = est[3]
    out[C_MATCH, col] = work[W_MATCH]
    out[C_DEAL_NO, col] = work[W_DEAL_NO]
    out[C_DEAL_INDEX, col] = work[W_INDEX]
    out[C_DEALER, col] = dealer
    out[C_TRUMP, col] = trump
    out[C_DECLARER, col] = (dealer + 1) % 4
    out[C_ESTIMATE, col] = work[W_ESTIMATE]
    out[C_BID, col] = level
    out[C_BIDDING_TEAM, col] = -1 if level == 0 else bid_team(level, playing)
    out[C_BURDEN, col] = res[SR_BURDEN]
    out[C_MULT, col] = res[SR_MULT]
    for seat in range(4):
        out[C_HAND + seat, col] = hands[seat]
        out[C_ROEM_HAND + seat, col] = hand_melds(hands[seat], trump, T)
    for team in range(2):
        out[C_POINTS + team, col] = res[SR_POINTS + team]
        out[C_POINTS_X + team, col] = res[SR_POINTS + team] * res[SR_MULT]
        out[C_TRICKS + team, col] = res[SR_TRICKS + team]
        out[C_HAND_ROEM + team, col] = res[SR_HAND_ROEM + team]
        out[C_STUK + team, col] = res[SR_STUK + team]
        out[C_TABLE_ROEM + team, col] = res[SR_TABLE_ROEM + team]
        out[C_PIT_ROEM + team, col] = res[SR_PIT_ROEM + team]
        out[C_ROEM + team, col] = res[SR_ROEM + team]
        out[C_SCORE + team, col] = res[SR_SCORE + team]
        out[C_CROSSES + team, col] = res[SR_CROSSES + team]
        out[C_MARK + team, col] = res[SR_MARK + team]
    out[C_MELD_TEAM, col] = res[SR_MELD_TEAM]
    out[C_TOP_MELD, col] = res[SR_TOP_MELD]
    out[C_TOP_FOUR, col] = res[SR_TOP_FOUR]
    out[C_CONTESTED, col] = res[SR_CONTESTED]
    out[C_PIT, col] = res[SR_PIT]
    out[C_NAT, col] = res[SR_NAT]
    out[C_BID_WON, col] = res[SR_BID_WON]


@kernel
def play_match(T, kinds, params, work, est, rng, rows, search):
    """Match W_MATCH of a run with seed W_SEED (work array slots). ``rows`` is (deal ints,
    deal floats, match ints, traces): its deals go into columns W_COL.. of the deal matrices
    (with their cards in play order into the same columns of the traces, when the traces have
    columns), its summary into column W_MCOL of the match matrix (zeroed by the caller).
    ``search``: the pimc bot's scratch (None without a pimc seat). Returns the deals played."""
    out, fout, mout, traces = rows
    seed = work[W_SEED]
    match = work[W_MATCH]
    k0 = work[W_COL]
    m = work[W_MCOL]
    tracing = traces.shape[1] > 0
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
        col = k0 + deal_no
        dealer = (dealer0 + deal_no) % 4
        work[W_DEAL_NO] = deal_no
        work[W_INDEX] = match_deal_index(match, deal_no)
        work[W_DEALER] = dealer
        level = kraken_deal(T, kinds, params, work, est, rng, search)
        write_deal(T, work, est, level, out, fout, col)
        if tracing:
            for c in range(32):
                traces[c, col] = work[W_TRACE + c]
        nat = work[W_SETTLE + SR_NAT] != 0
        played = deal_no + 1
        total0 += out[C_SCORE, col]
        total1 += out[C_SCORE + 1, col]
        out[C_TOTAL, col] = total0
        out[C_TOTAL + 1, col] = total1
        playing = ((dealer + 1) % 4) & 1
        burden = work[W_SETTLE + SR_BURDEN]
        mout[M_DECLARED + playing, m] += 1
        for lv in range(level):
            mout[M_BIDS + bid_team(lv + 1, playing), m] += 1
        if nat:
            mout[M_NAT + burden, m] += 1
        for team in range(2):
            if out[C_TRICKS + team, col] == 8:
                mout[M_PITS + team, m] += 1
        if contra:
            crosses0 += out[C_CROSSES, col]
            crosses1 += out[C_CROSSES + 1, col]
            if nat and level == 0:
                mout[M_NAT_MARKS + burden, m] += 1
            if level > 0:
                loser = burden if nat else 1 - burden
                mout[M_KRAAK_MARKS + loser, m] += 1
        else:
            for team in range(2):
                mark = out[C_MARK + team, col]
                if mark == MARK_NAT:
                    mout[M_NAT_MARKS + team, m] += 1
                elif mark == MARK_KRAAK:
                    mout[M_KRAAK_MARKS + team, m] += 1
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
        mout[M_CROSSES, m] = crosses[0]
        mout[M_CROSSES + 1, m] = crosses[1]
    mout[M_MATCH, m] = match
    mout[M_DEALS, m] = played
    mout[M_FIRST_DEALER, m] = dealer0
    mout[M_TOTAL, m] = total0
    mout[M_TOTAL + 1, m] = total1
    mout[M_WINNER, m] = winner
    return played


@driver
def simulate_matches(run, T, kinds, params, search):
    """Matches start .. start+n-1 of a run (the R_* slots of ``run``): (deal int matrix, deal
    float matrix, match matrix, traces), one column per deal / match and one row per column of
    `DEAL_ROWS` / `MATCH_ROWS`. With ``run[R_TRACE]`` set, the traces [32, deals] hold each
    deal's cards in play order (the replay switch); else they are [32, 0]. ``search``: the pimc
    bot's scratch (`pimc_scratch`), None when no seat is pimc: the loop compiled for None holds
    no pimc and no solver."""
    n = run[R_N]
    capacity = n * run[R_EXPECTED_DEALS] + MAX_DEALS_PER_MATCH
    out = np.empty((N_DEAL_ROWS, capacity), dtype=np.int64)
    fout = np.empty((N_FLOAT_ROWS, capacity), dtype=np.float64)
    mout = np.zeros((N_MATCH_ROWS, n), dtype=np.int64)
    traces = np.empty((32, capacity if run[R_TRACE] != 0 else 0), dtype=np.int64)
    work = np.zeros(WORK_SIZE, dtype=np.int64)
    est = np.empty(6, dtype=np.float64)
    rng = np.empty(1, dtype=np.uint64)
    work[W_SEED] = run[R_SEED]
    k = 0
    for m in range(n):
        out = ensure_columns(out, k, MAX_DEALS_PER_MATCH)
        fout = ensure_columns(fout, k, MAX_DEALS_PER_MATCH)
        if run[R_TRACE] != 0:
            traces = ensure_columns(traces, k, MAX_DEALS_PER_MATCH)
        work[W_MATCH] = run[R_START] + m
        work[W_COL] = k
        work[W_MCOL] = m
        k += play_match(T, kinds, params, work, est, rng, (out, fout, mout, traces), search)
    return out[:, :k], fout[:, :k], mout, traces[:, :k]


def as_int64(value: int) -> int:
    """A seed (0 .. 2**64 - 1) as the int64 of the same bits (the kernels hash it as uint64)."""
    return value - (1 << 64) if value >= 1 << 63 else value


@driver
def _contract_of(T, kinds, params, work, trump):
    est = np.empty(6, dtype=np.float64)
    rng = np.empty(1, dtype=np.uint64)
    trump, trump_est, level = contract(T, kinds, params, work, est, trump, rng)
    return trump, trump_est, level, est


def choose_contract(hands, dealer: int, trump: int, T, kinds, params, seed: int, index: int):
    """The bots' contract for given ``hands``, as deal ``index`` of a run with ``seed`` would
    choose it: forehand names trump (unless ``trump`` >= 0 is given), then the bidding.
    Returns (trump, declarer's estimate, bid, estimates, bidders)."""
    work = np.zeros(WORK_SIZE, dtype=np.int64)
    work[W_HANDS:W_HANDS + 4] = hands
    work[W_SEED], work[W_INDEX], work[W_DEALER] = as_int64(seed), index, dealer
    trump, trump_est, level, est = _contract_of(T, kinds, params, work, trump)
    return trump, trump_est, level, est, work[W_BIDDERS:W_BIDDERS + 3].copy()


@kernel
def hand_roem_end_bonus(hands, trump, declarer, T, tricks, award, end):
    """Add to ``end[took]`` the declaring team's margin from the hand roem and stuk awarded at
    the end of the deal, for each ``took`` (bit 0: the declaring team took a trick, bit 1: the
    other did; with ``hand_roem_needs_trick`` a team without a trick scores none). ``tricks``
    (2) and ``award`` (AWARD_SIZE) are scratch."""
    team = declarer & 1
    other = 1 - team
    for took in range(4):
        tricks[team] = took & 1
        tricks[other] = (took >> 1) & 1
        award_hand_roem(hands, trump, tricks, T, award)
        end[took] += (award[A_HAND + team] + award[A_STUK + team]
                      - award[A_HAND + other] - award[A_STUK + other])


@driver
def hand_roem_end_bonuses(hands, trumps, declarers, T, out):
    """`hand_roem_end_bonus` of deal ``k`` (``hands[k]``, its trump and declarer) into ``out[k]``."""
    tricks = np.zeros(2, dtype=np.int64)
    award = np.zeros(AWARD_SIZE, dtype=np.int64)
    for k in range(hands.shape[0]):
        hand_roem_end_bonus(hands[k], trumps[k], declarers[k], T, tricks, award, out[k])
