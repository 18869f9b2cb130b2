"""The Hartenjagen / Hearts batch kernel: whole games of deals (deal, pass, moon decision,
play, score) until the game ends.

`simulate_games` writes one int64 matrix row per deal column and per match column (columns.py
order). Every deal draws only from the streams of its own global deal index, and a game's
course depends only on (seed, match index), so any slice of a run can be recomputed alone and
`replay_game` retraces a game card by card.
"""

from __future__ import annotations

import numpy as np

from simcards._jit import driver, kernel
from simcards.games.hearts.bots import choose_card, choose_passes, wants_moon
from simcards.games.columns import column_index
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

_C = column_index(DEAL_COLUMNS_32)  # the same positions for the 52-card columns
C_MATCH, C_DEAL_NO, C_DEAL_INDEX, C_DEALER = _C["match_index"], _C["deal_no"], _C["deal_index"], _C["dealer"]
C_PHASE, C_PASS_DIR, C_HAND, C_PASS, C_LEADER = (_C["phase"], _C["pass_dir"], _C["hand_0"],
                                                 _C["pass_0"], _C["leader"])
C_POINTS, C_TRICKS, C_MOON, C_MOON_OPTION = _C["points_0"], _C["tricks_0"], _C["moon"], _C["moon_option"]
C_MOON_ATTEMPT, C_QS, C_JC, C_SCORE = _C["moon_attempt"], _C["qs_taker"], _C["jc_taker"], _C["score_0"]
N_DEAL_COLUMNS = len(DEAL_COLUMNS_32)

_M = column_index(MATCH_COLUMNS)
M_MATCH, M_DEALS, M_FIRST_DEALER, M_RETURN = (_M["match_index"], _M["deals"], _M["first_dealer"],
                                              _M["return_start"])
M_CAPPED, M_SCORE, M_PLACE, M_WINNER = _M["capped"], _M["score_0"], _M["place_0"], _M["winner"]
N_MATCH_COLUMNS = len(MATCH_COLUMNS)


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
            passes[seat] = choose_passes(bot_kind[seat], dealt[seat], T, bot_params, seat, rng)
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
        if wants_moon(bot_kind[seat], hands[seat], T, bot_params, seat):
            st[S_MOON_SEATS] |= np.int64(1) << seat
            if st[S_MOON_TRY] < 0:
                st[S_MOON_TRY] = seat


@kernel
def play_out(st, T, bot_kind, bot_params, rng, trace):
    """Let the bots play the deal in ``st`` to its end, recording cards in ``trace``."""
    k = 0
    while True:
        seat = st[S_TO_MOVE]
        card = choose_card(bot_kind[seat], legal_mask(st, T), st, T, bot_params, rng)
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
def simulate_games(seed, start, n, T, bot_kind, bot_params):
    """Games start .. start+n-1 of a run: (deal matrix, match matrix), one row per column."""
    n_cards = 4 * T[T_RULES + R_HAND_SIZE]
    max_deals = T[T_RULES + R_MAX_DEALS]
    capacity = max(16, n * 24)
    out = np.empty((N_DEAL_COLUMNS, capacity), dtype=np.int64)
    matches = np.empty((N_MATCH_COLUMNS, n), dtype=np.int64)
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
            if row == out.shape[1]:
                bigger = np.empty((N_DEAL_COLUMNS, 2 * row), dtype=np.int64)
                bigger[:, :row] = out
                out = bigger
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
    return out[:, :row].copy(), matches


@driver
def replay_game(seed, match, T, bot_kind, bot_params, stop_deal):
    """Game ``match`` of a run with ``seed`` up to and including deal ``stop_deal`` (or to its
    end when that comes first). Returns (per deal: dealt hands, passes, pass offsets, scores
    before, phases, card traces; number of deals)."""
    n_cards = 4 * T[T_RULES + R_HAND_SIZE]
    max_deals = T[T_RULES + R_MAX_DEALS]
    cap = min(max_deals, stop_deal + 1)
    all_dealt = np.zeros((cap, 4), dtype=np.int64)
    all_passes = np.zeros((cap, 4), dtype=np.int64)
    offsets = np.zeros(cap, dtype=np.int64)
    before = np.zeros((cap, 4), dtype=np.int64)
    phases = np.zeros(cap, dtype=np.int64)
    traces = np.zeros((cap, n_cards), dtype=np.int64)
    dealt = np.empty(4, dtype=np.int64)
    passes = np.empty(4, dtype=np.int64)
    held = np.empty(4, dtype=np.int64)
    deck = np.empty(n_cards, dtype=np.int64)
    st = np.empty(STATE_SIZE, dtype=np.int64)
    trace = np.empty(n_cards, dtype=np.int64)
    scores = np.zeros(4, dtype=np.int64)
    deltas = np.empty(4, dtype=np.int64)
    rng = np.empty(1, dtype=np.uint64)
    phase = PHASE_OUTBOUND
    deal_no = 0
    over = False
    while not over and deal_no < cap:
        for seat in range(4):
            before[deal_no, seat] = scores[seat]
        phases[deal_no] = phase
        offsets[deal_no] = prepare_deal(seed, match, deal_no, scores, phase, T, bot_kind,
                                        bot_params, dealt, passes, held, deck, st, rng)
        play_out(st, T, bot_kind, bot_params, rng, trace)
        finish_deal(st, T, scores, deltas)
        for seat in range(4):
            all_dealt[deal_no, seat] = dealt[seat]
            all_passes[deal_no, seat] = passes[seat]
        for i in range(n_cards):
            traces[deal_no, i] = trace[i]
        over, phase = game_over(scores, phase, T)
        deal_no += 1
    return all_dealt, all_passes, offsets, before, phases, traces, deal_no


@driver
def moon_attempt_of(hands, phase, dealer, T, bot_kind, bot_params):
    """(first seat from the leader whose bot sets out to shoot the moon with these hands, after
    passing, or -1; mask of every such seat)."""
    st = np.empty(STATE_SIZE, dtype=np.int64)
    scores = np.zeros(4, dtype=np.int64)
    new_state(st, hands, dealer, scores, phase, T)
    mark_moon_attempts(st, hands, phase, T, bot_kind, bot_params)
    return st[S_MOON_TRY], st[S_MOON_SEATS]

