"""The Doppelkopf batch kernel: deal, choose the game (solos, marriage), play out with bots and
their announcements, settle.

`simulate_into` writes one column per deal into an int64 matrix (rows from `DEAL_ROWS`); every
deal draws only from its own (seed, deal index) streams. Its trace switch records the cards of
each deal in play order (replay retraces a deal with this same loop).
"""

from __future__ import annotations

import numpy as np

from simcards._jit import driver, kernel
from simcards.cards import popcount
from simcards.games.botspec import HEURISTIC
from simcards.games.columns import RowLayout
from simcards.games.doppelkopf._kernels import (
    S_ANN_CARDS,
    S_ANN_SEAT,
    S_CLARIFY,
    S_DECLARER,
    S_EST,
    S_GAME_TYPE,
    S_PARTY,
    S_SOLO,
    S_TO_MOVE,
    STATE_SIZE,
    apply_card,
    legal_mask,
    new_state,
    party_totals,
    settle_deal,
)
from simcards.games.doppelkopf.bots import (
    P_MARRIAGE_SILENT,
    P_SOLO_THRESHOLD,
    best_solo,
    bot_turn,
    choose_card,
    hand_estimate,
)
from simcards.games.doppelkopf.columns import DEAL_COLUMNS
from simcards.games.doppelkopf.rules import (
    G_FIRST_SOLO,
    G_MARRIAGE,
    G_NORMAL,
    G_SILENT_MARRIAGE,
    N_CARDS,
    QC_MASK,
    R_PFLICHTSOLO,
    SERIES_LENGTH,
    T_RULES,
)
from simcards.rng import STREAM_DEAL, STREAM_PLAY, deal_hands, reset_stream

DEAL_ROWS = RowLayout(DEAL_COLUMNS)
_r = DEAL_ROWS.row
C_INDEX, C_DEALER, C_HAND, C_GAME_TYPE, C_DECLARER = (
    _r("deal_index"), _r("dealer"), _r("hand_0"), _r("game_type"), _r("declarer"))
C_RE_MASK, C_CLARIFY, C_ANN, C_ANN_SEAT = (
    _r("re_mask"), _r("clarify_trick"), _r("ann_re"), _r("ann_seat_re"))
C_RE_AUGEN, C_KO_AUGEN, C_RE_TRICKS, C_KO_TRICKS = (
    _r("re_augen"), _r("kontra_augen"), _r("re_tricks"), _r("kontra_tricks"))
C_FOX_RE, C_SOLO, C_WINNER, C_VALUE, C_SCORE = (
    _r("fox_re"), _r("solo"), _r("winner"), _r("value"), _r("score_0"))
C_EST, C_SOLO_EST, C_SOLO_PICK = _r("est_0"), _r("solo_est_0"), _r("solo_pick_0")
C_OWED, C_LEADER = _r("owed_solo"), _r("leader")
N_COLUMNS = DEAL_ROWS.n_int
# the special counts (_kernels.special_counts) sit in consecutive columns from fox_re
assert [_r(c) - C_FOX_RE for c in ("fox_kontra", "doppelkopf_re", "doppelkopf_kontra",
                                   "karlchen_re", "karlchen_kontra")] == [1, 2, 3, 4, 5]


@kernel
def deal_cards(seed, index, hands, deck, rng):
    """Hands of deal ``index`` of a run with ``seed`` into ``hands``; returns the dealer."""
    reset_stream(rng, seed, index, STREAM_DEAL)
    deal_hands(rng, deck, 4, 12, hands)
    return index % 4


# what a seat declares before play (`game_choice`): no solo, a solo contract (1 .. 7, rules.py),
# or, holding both club queens, its marriage announced or silent
CHOICE_NORMAL, CHOICE_MARRIAGE, CHOICE_SILENT = 0, 8, 9


@kernel
def game_choice(kind, hand, T, p, contract, value, owed, deals_left, must):
    """A seat's declaration before play (CHOICE_* or a solo contract): the heuristic plays its
    best solo ``contract`` when its estimate ``value`` reaches ``solo_threshold``; otherwise a
    holder of both club queens plays its marriage, silent by ``marriage_silent`` (any kind).
    ``owed`` (the seats owing a solo), ``deals_left`` and ``must`` (this seat must play its owed
    solo now) are what a user bot is told (userbot.py); the heuristic ignores them."""
    if kind == HEURISTIC and value >= p[P_SOLO_THRESHOLD]:
        return contract
    if popcount(hand & QC_MASK) == 2:
        return CHOICE_SILENT if p[P_MARRIAGE_SILENT] >= 0.5 else CHOICE_MARRIAGE
    return CHOICE_NORMAL


@kernel
def forced_seat(T, owed, deals_left, dealer):
    """With ``pflichtsolo``: the seat that must play its owed solo in this deal (the first from
    forehand still owing, once no more deals are left than players owing), else -1."""
    if T[T_RULES + R_PFLICHTSOLO] != 0 and 0 < deals_left <= popcount(owed):
        for k in range(4):
            seat = (dealer + 1 + k) & 3
            if (owed >> seat) & 1:
                return seat
    return -1


@kernel
def choose_game(hands, dealer, T, kinds, params, est, solo_est, solo_pick, owed, deals_left):
    """(game type, declarer, owed solo?) of a deal, and each seat's estimates into ``est``,
    ``solo_est`` and ``solo_pick``: the first seat from forehand that declares a solo
    (`game_choice`) plays it; with ``pflichtsolo`` a player still owing a solo (bit set in
    ``owed[0]``, cleared here) plays it when ``deals_left`` in the series are no more than the
    players owing (`forced_seat`); else the holder of both club queens plays its marriage."""
    game_type, declarer = G_NORMAL, -1
    forced = forced_seat(T, owed[0], deals_left, dealer)
    silent = False
    for k in range(4):
        seat = (dealer + 1 + k) & 3
        est[seat] = np.int64(np.round(hand_estimate(hands[seat], T, params[seat])))
        contract, value = best_solo(hands[seat], T, params[seat])
        solo_est[seat] = np.int64(np.round(value))
        solo_pick[seat] = contract
        if declarer < 0:
            choice = game_choice(kinds[seat], hands[seat], T, params[seat], contract,
                                 solo_est[seat], owed[0], deals_left, seat == forced)
            if choice == CHOICE_SILENT:
                silent = True
            elif 0 < choice < CHOICE_MARRIAGE:
                game_type, declarer = G_FIRST_SOLO + choice - 1, seat
    owed_solo = False
    if T[T_RULES + R_PFLICHTSOLO] != 0:
        if declarer >= 0 and (owed[0] >> declarer) & 1:
            owed_solo = True
        elif forced >= 0:  # an owed solo now goes before a free one
            choice = game_choice(kinds[forced], hands[forced], T, params[forced],
                                 solo_pick[forced], solo_est[forced], owed[0], deals_left, True)
            if choice <= 0 or choice >= CHOICE_MARRIAGE:
                choice = solo_pick[forced]
            game_type, declarer, owed_solo = G_FIRST_SOLO + choice - 1, forced, True
        if owed_solo:
            owed[0] &= ~(np.int64(1) << declarer)
    if declarer < 0:
        for seat in range(4):
            if popcount(hands[seat] & QC_MASK) == 2:
                declarer = seat
                game_type = G_SILENT_MARRIAGE if silent else G_MARRIAGE
    return game_type, declarer, owed_solo


@kernel
def series_state(index, owed):
    """Deals left in the series of deal ``index`` (itself included); resets ``owed`` at a
    series' first deal."""
    deal_no = index % SERIES_LENGTH
    if deal_no == 0:
        owed[0] = 15
    return SERIES_LENGTH - deal_no


@kernel
def owed_before(seed, index, T, kinds, params, hands, deck, rng, est, solo_est, solo_pick, owed):
    """The seats still owing a solo before deal ``index``: the solo decisions of the series'
    earlier deals, replayed (they depend on the cards and the bots, not on card play)."""
    owed[0] = 15
    first = index - index % SERIES_LENGTH
    for earlier in range(first, index):
        dealer = deal_cards(seed, earlier, hands, deck, rng)
        choose_game(hands, dealer, T, kinds, params, est, solo_est, solo_pick, owed,
                    SERIES_LENGTH - earlier % SERIES_LENGTH)


@kernel
def set_estimates(st, est, solo_est):
    """The estimate each seat announces on: the soloist its solo's, everybody else its hand's."""
    for seat in range(4):
        st[S_EST + seat] = est[seat]
    declarer = st[S_DECLARER]
    if st[S_GAME_TYPE] >= G_FIRST_SOLO and declarer >= 0:
        st[S_EST + declarer] = solo_est[declarer]


@kernel
def play_out(st, T, kinds, params, rng, trace):
    """Let the bots play the deal in ``st`` to its end, recording cards in ``trace``."""
    k = 0
    while True:
        seat = st[S_TO_MOVE] & 3
        bot_turn(st, kinds[seat], params[seat])
        card = choose_card(kinds[seat], legal_mask(st, T), st, T, params[seat], rng)
        trace[k] = card
        k += 1
        if apply_card(st, card, T):
            return


@driver
def simulate_into(out, seed, start, T, kinds, params, traces):
    """Deals start .. start+out.shape[1]-1 into ``out`` (N_COLUMNS rows). With a trace switch
    (``traces`` has a row per deal; shape [0, 48] turns it off) each deal's cards go to its row
    of ``traces`` in play order."""
    n = out.shape[1]
    tracing = traces.shape[0] > 0
    hands = np.empty(4, dtype=np.int64)
    deck = np.empty(N_CARDS, dtype=np.int64)
    st = np.empty(STATE_SIZE, dtype=np.int64)
    trace = np.empty(N_CARDS, dtype=np.int64)
    est = np.empty(4, dtype=np.int64)
    solo_est = np.empty(4, dtype=np.int64)
    solo_pick = np.empty(4, dtype=np.int64)
    specials = np.empty(6, dtype=np.int64)
    scores = np.empty(4, dtype=np.int64)
    rng = np.empty(1, dtype=np.uint64)
    owed = np.empty(1, dtype=np.int64)
    pflicht = T[T_RULES + R_PFLICHTSOLO] != 0
    if pflicht and n > 0:
        owed_before(seed, start, T, kinds, params, hands, deck, rng, est, solo_est, solo_pick, owed)
    for k in range(n):
        index = start + k
        deals_left = series_state(index, owed) if pflicht else 0
        dealer = deal_cards(seed, index, hands, deck, rng)
        game_type, declarer, owed_solo = choose_game(hands, dealer, T, kinds, params, est,
                                                     solo_est, solo_pick, owed, deals_left)
        leader = declarer if owed_solo else (dealer + 1) & 3
        new_state(st, hands, dealer, game_type, declarer, leader, T)
        set_estimates(st, est, solo_est)
        reset_stream(rng, seed, index, STREAM_PLAY)
        play_out(st, T, kinds, params, rng, trace)
        if tracing:
            for c in range(trace.shape[0]):  # not a slice assignment: it compiles an error message
                traces[k, c] = trace[c]
        winner, value = settle_deal(st, specials, scores)
        re_augen, re_tricks = party_totals(st)
        out[C_INDEX, k] = index
        out[C_DEALER, k] = dealer
        out[C_GAME_TYPE, k] = st[S_GAME_TYPE]
        out[C_DECLARER, k] = declarer
        out[C_OWED, k] = owed_solo
        out[C_LEADER, k] = leader
        out[C_RE_MASK, k] = st[S_PARTY]
        out[C_CLARIFY, k] = st[S_CLARIFY]
        for call in range(10):
            out[C_ANN + call, k] = st[S_ANN_CARDS + call]
            out[C_ANN_SEAT + call, k] = st[S_ANN_SEAT + call]
        out[C_RE_AUGEN, k] = re_augen
        out[C_KO_AUGEN, k] = 240 - re_augen
        out[C_RE_TRICKS, k] = re_tricks
        out[C_KO_TRICKS, k] = 12 - re_tricks
        for j in range(6):
            out[C_FOX_RE + j, k] = specials[j]
        out[C_SOLO, k] = st[S_SOLO]
        out[C_WINNER, k] = winner
        out[C_VALUE, k] = value
        for seat in range(4):
            out[C_HAND + seat, k] = hands[seat]
            out[C_SCORE + seat, k] = scores[seat]
            out[C_EST + seat, k] = est[seat]
            out[C_SOLO_EST + seat, k] = solo_est[seat]
            out[C_SOLO_PICK + seat, k] = solo_pick[seat]
