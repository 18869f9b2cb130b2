"""The Hartenjagen / Hearts batch kernel: whole games of deals (deal, pass, moon decision,
play, score) until the game ends.

`simulate_games` writes one int64 matrix row per deal column and per match column (the
`RowLayout`s DEAL_ROWS and MATCH_ROWS). Every deal draws only from the streams of its own global
deal index, and a game's course depends only on (seed, match index), so any slice of a run can
be recomputed alone. Its trace switch records every deal's cards in play order: a replay runs
this same loop (`HeartsGame._simulate_traced`), not a second copy of it.
"""

from __future__ import annotations

import numpy as np

from simcards._jit import driver, kernel
from simcards.games.hearts.bots import choose_card, choose_passes, wants_moon
from simcards.engine.rows import ensure_columns
from simcards.games.columns import RowLayout
from simcards.games.hearts._kernels import (
    PHASE_OUTBOUND,
    PHASE_RETURN,
    S_JC_TAKER,
    S_LEADER,
    S_MOON_SEATS,
    S_MOON_TRY,
    S_POINTS,
    S_QS_TAKER,
    S_TO_MOVE,
    S_TRICKS,
    STATE_SIZE,
    apply_card,
    apply_passes,
    game_over,
    legal_mask,
    new_state,
    pass_offset,
    placings,
    score_deal,
)
from simcards.games.hearts.columns import DEAL_COLUMNS_32, MATCH_COLUMNS
from simcards.games.hearts.rules import R_DUTCH, R_HAND_SIZE, R_MAX_DEALS, T_RULES
from simcards.rng import (
    STREAM_CONTRACT,
    STREAM_DEAL,
    STREAM_PLAY,
    deal_hands,
    match_deal_index,
    reset_stream,
)

# one layout serves both decks: the 32- and 52-card columns have the same names
DEAL_ROWS = RowLayout(DEAL_COLUMNS_32)
_d = DEAL_ROWS.row
C_MATCH, C_DEAL_NO, C_DEAL_INDEX = _d("match_index"), _d("deal_no"), _d("deal_index")
C_DEALER = _d("dealer")
C_PHASE, C_PASS_DIR, C_HAND, C_PASS = _d("phase"), _d("pass_dir"), _d("hand_0"), _d("pass_0")
C_LEADER, C_POINTS, C_TRICKS, C_SCORE = _d("leader"), _d("points_0"), _d("tricks_0"), _d("score_0")
C_MOON, C_MOON_OPTION, C_MOON_ATTEMPT = _d("moon"), _d("moon_option"), _d("moon_attempt")
C_QS, C_JC = _d("qs_taker"), _d("jc_taker")
N_DEAL_ROWS = DEAL_ROWS.n_int

MATCH_ROWS = RowLayout(MATCH_COLUMNS)
_m = MATCH_ROWS.row
M_MATCH, M_DEALS, M_FIRST_DEALER = _m("match_index"), _m("deals"), _m("first_dealer")
M_RETURN, M_CAPPED, M_WINNER = _m("return_start"), _m("capped"), _m("winner")
M_SCORE, M_PLACE = _m("score_0"), _m("place_0")
N_MATCH_ROWS = MATCH_ROWS.n_int


@kernel
def deal_cards(seed, index, hands, deck, rng):
    """Dealt hands of global deal ``index`` of a run with ``seed`` into ``hands``."""
    reset_stream(rng, seed, index, STREAM_DEAL)
    deal_hands(rng, deck, 4, deck.shape[0] // 4, hands)


@kernel
def dealer_of(match, deal_no):
    return (match + deal_no) % 4


@kernel
def prepare_deal(seed, match, deal_no, scores, phase, T, bot_kind, bot_params, dealt, passes,
                 held, deck, st, rng):
    """Deal, pass and decide moon attempts for deal ``deal_no`` of game ``match``; leaves the
    play ready in ``st``. Returns the pass offset (0: no passing)."""
    index = match_deal_index(match, deal_no)
    deal_cards(seed, index, dealt, deck, rng)
    offset = pass_offset(T, deal_no)
    reset_stream(rng, seed, index, STREAM_CONTRACT)
    for seat in range(4):
        held[seat] = dealt[seat]
        passes[seat] = 0
        if offset != 0:
            passes[seat] = choose_passes(bot_kind[seat], dealt[seat], T, bot_params[seat], rng)
    apply_passes(held, passes, offset)
    new_state(st, held, dealer_of(match, deal_no), scores, phase, T)
    mark_moon_attempts(st, held, phase, T, bot_kind, bot_params)
    reset_stream(rng, seed, index, STREAM_PLAY)
    return offset


@kernel
def mark_moon_attempts(st, hands, phase, T, bot_kind, bot_params):
    """Outbound deals: every seat whose bot sets out to shoot the moon with its own hand gets its
    bit in S_MOON_SEATS (no seat's plan depends on another's cards); S_MOON_TRY is the first of
    them from the leader."""
    if phase != PHASE_OUTBOUND:
        return
    leader = st[S_LEADER]
    for k in range(4):
        seat = (leader + k) % 4
        if wants_moon(bot_kind[seat], hands[seat], T, bot_params[seat]):
            st[S_MOON_SEATS] |= np.int64(1) << seat
            if st[S_MOON_TRY] < 0:
                st[S_MOON_TRY] = seat


@kernel
def play_out(st, T, bot_kind, bot_params, rng, trace):
    """Let the bots play the deal in ``st`` to its end, recording cards in ``trace``.

    Every game writes this loop to the same template: one shared njit loop taking a game's
    kernels as arguments would disable Numba's cache (docs/architecture.md, "Adding a ruleset")."""
    k = 0
    while True:
        seat = st[S_TO_MOVE] & 3  # masked: no negative-index fix-up for the row view
        card = choose_card(bot_kind[seat], legal_mask(st, T), st, T, bot_params[seat], rng)
        trace[k] = card
        k += 1
        if apply_card(st, card, T):
            return


@kernel
def finish_deal(st, T, scores, deltas):
    """Score the finished deal into ``scores`` (deltas in ``deltas``); (moon, moon option)."""
    moon, option = score_deal(st, T, deltas)
    for seat in range(4):
        scores[seat] += deltas[seat]
    return moon, option


@kernel
def _record_deal(out, row, match, deal_no, phase, offset, dealt, passes, st, moon, option,
                 scores, start_leader, moon_try):
    out[C_MATCH, row] = match
    out[C_DEAL_NO, row] = deal_no
    out[C_DEAL_INDEX, row] = match_deal_index(match, deal_no)
    out[C_DEALER, row] = dealer_of(match, deal_no)
    out[C_PHASE, row] = phase
    out[C_PASS_DIR, row] = offset
    out[C_LEADER, row] = start_leader
    for seat in range(4):
        out[C_HAND + seat, row] = dealt[seat]
        out[C_PASS + seat, row] = passes[seat]
        out[C_POINTS + seat, row] = st[S_POINTS + seat]
        out[C_TRICKS + seat, row] = st[S_TRICKS + seat]
        out[C_SCORE + seat, row] = scores[seat]
    out[C_MOON, row] = moon
    out[C_MOON_OPTION, row] = option
    out[C_MOON_ATTEMPT, row] = moon_try
    out[C_QS, row] = st[S_QS_TAKER]
    out[C_JC, row] = st[S_JC_TAKER]


@driver
def simulate_games(seed, start, n, T, bot_kind, bot_params, traces):
    """Games start .. start+n-1 of a run: (deal matrix, match matrix, traces), one matrix row
    per column (DEAL_ROWS, MATCH_ROWS). The trace switch: with ``traces`` of shape
    [k > 0, n_cards], each deal's cards in play order are copied into its row of ``traces``
    (grown like the deal matrix) and the returned traces have one row per deal; with shape
    [0, n_cards] nothing is recorded and ``traces`` comes back as it is."""
    n_cards = 4 * T[T_RULES + R_HAND_SIZE]
    max_deals = T[T_RULES + R_MAX_DEALS]
    capacity = max(16, n * 24)
    out = np.empty((N_DEAL_ROWS, capacity), dtype=np.int64)
    matches = np.empty((N_MATCH_ROWS, n), dtype=np.int64)
    tracing = traces.shape[0] > 0
    dealt = np.empty(4, dtype=np.int64)
    passes = np.empty(4, dtype=np.int64)
    held = np.empty(4, dtype=np.int64)
    deck = np.empty(n_cards, dtype=np.int64)
    st = np.empty(STATE_SIZE, dtype=np.int64)
    trace = np.empty(n_cards, dtype=np.int64)
    scores = np.empty(4, dtype=np.int64)
    deltas = np.empty(4, dtype=np.int64)
    last_points = np.empty(4, dtype=np.int64)
    places = np.empty(4, dtype=np.int64)
    rng = np.empty(1, dtype=np.uint64)
    row = 0
    for k in range(n):
        match = start + k
        for seat in range(4):
            scores[seat] = 0
        phase = PHASE_OUTBOUND
        return_start = -1
        deal_no = 0
        over = False
        while not over and deal_no < max_deals:
            offset = prepare_deal(seed, match, deal_no, scores, phase, T, bot_kind, bot_params,
                                  dealt, passes, held, deck, st, rng)
            start_leader = st[S_LEADER]
            moon_try = st[S_MOON_TRY]
            play_out(st, T, bot_kind, bot_params, rng, trace)
            moon, option = finish_deal(st, T, scores, deltas)
            if row == out.shape[1]:  # full: grow (a call per deal would cost a reference count)
                out = ensure_columns(out, row, 1)
            if tracing:
                # ensure_columns grows the second axis: a trace row is a column of traces.T
                traces = ensure_columns(traces.T, row, 1).T
                for c in range(n_cards):  # not a slice assignment: see klaverjas/_play.py
                    traces[row, c] = trace[c]
            _record_deal(out, row, match, deal_no, phase, offset, dealt, passes, st, moon,
                         option, scores, start_leader, moon_try)
            row += 1
            for seat in range(4):
                last_points[seat] = st[S_POINTS + seat]
            over, next_phase = game_over(scores, phase, T)
            if next_phase != phase:
                return_start = deal_no + 1
            phase = next_phase
            deal_no += 1
        dutch_end = over and T[T_RULES + R_DUTCH] != 0 and phase == PHASE_RETURN
        placings(scores, last_points, dutch_end, places)
        matches[M_MATCH, k] = match
        matches[M_DEALS, k] = deal_no
        matches[M_FIRST_DEALER, k] = dealer_of(match, 0)
        matches[M_RETURN, k] = return_start
        matches[M_CAPPED, k] = 0 if over else 1
        winner, firsts = -1, 0
        for seat in range(4):
            matches[M_SCORE + seat, k] = scores[seat]
            matches[M_PLACE + seat, k] = places[seat]
            if places[seat] == 1:
                winner = seat
                firsts += 1
        matches[M_WINNER, k] = winner if firsts == 1 else -1
    if tracing:
        traces = traces[:row]
    return out[:, :row].copy(), matches, traces


@driver
def moon_attempt_of(hands, phase, dealer, T, bot_kind, bot_params):
    """(first seat from the leader whose bot sets out to shoot the moon with these hands, after
    passing, or -1; mask of every such seat)."""
    st = np.empty(STATE_SIZE, dtype=np.int64)
    scores = np.zeros(4, dtype=np.int64)
    new_state(st, hands, dealer, scores, phase, T)
    mark_moon_attempts(st, hands, phase, T, bot_kind, bot_params)
    return st[S_MOON_TRY], st[S_MOON_SEATS]

