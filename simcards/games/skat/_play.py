"""The Skat batch kernel: deal with the Skat, the auction, the declaration (pickup and discard,
or Hand), Kontra, play with bots, settlement.

`simulate_into` writes one column per deal into an int64 matrix (rows from `DEAL_ROWS`); every
deal draws only from its own (seed, deal index) streams, so any slice of a run can be
recomputed alone. Its trace switch records the cards of each deal in play order (-1 after the
last), which is how `replay` retraces a deal: with the same loop, not a copy of it.
"""

from __future__ import annotations

import numpy as np

from simcards._jit import driver, hot, kernel
from simcards.games.columns import RowLayout
from simcards.games.skat._kernels import (
    N_SETTLE,
    S_POINTS,
    S_TO_MOVE,
    S_TRICKS,
    STATE_SIZE,
    X_GAME_VALUE,
    X_LIST,
    X_MATADORS,
    X_OVERBID,
    X_SCHNEIDER,
    X_SCHWARZ,
    X_SEEGER_DEFENDER,
    X_VALUE,
    X_WON,
    apply_card,
    legal_mask,
    mask_points,
    new_state,
    settle_into,
)
from simcards.games.skat.bots import (
    bidding_plan,
    bids,
    choose_card,
    declare,
    holds,
    kontra_call,
    re_call,
    threshold_logits,
    N_LOGITS,
)
from simcards.games.skat.columns import DEAL_COLUMNS
from simcards.games.skat.rules import NULL, PASSED, R_KONTRA, R_SCORING, SCORING_SEEGER, T_RULES
from simcards.games.skat._kernels import SEEGER_LOSS, SEEGER_WIN
from simcards.rng import STREAM_CONTRACT, STREAM_DEAL, STREAM_PLAY, deal_hands, reset_stream

DEAL_ROWS = RowLayout(DEAL_COLUMNS)
_R = DEAL_ROWS.row
C_DEAL_INDEX, C_DEALER, C_HAND, C_SKAT = _R("deal_index"), _R("dealer"), _R("hand_0"), _R("skat")
C_BID_BY, C_PASS_AT, C_BID, C_DECLARER = _R("bid_0"), _R("pass_at_0"), _R("final_bid"), _R("declarer")
C_CONTRACT, C_HAND_GAME, C_SCHNEIDER_ANN = _R("contract"), _R("hand_game"), _R("schneider_announced")
C_SCHWARZ_ANN, C_OUVERT, C_DISCARD, C_KONTRA = (_R("schwarz_announced"), _R("ouvert"), _R("discard"),
                                                _R("kontra"))
C_MATADORS, C_GAME_VALUE, C_VALUE = _R("matadors"), _R("game_value"), _R("value")
C_POINTS_D, C_POINTS_O, C_TRICKS_D, C_TRICKS_O = (_R("points_declarer"), _R("points_defenders"),
                                                  _R("tricks_declarer"), _R("tricks_defenders"))
C_SCHNEIDER, C_SCHWARZ, C_WON, C_OVERBID = _R("schneider"), _R("schwarz"), _R("won"), _R("overbid")
C_LIST, C_SEEGER, C_SCORE = _R("list_0"), _R("seeger_0"), _R("score_0")
C_EST, C_EST_CONTRACT, C_LIMIT, C_DECLARE_EST = (_R("est_0"), _R("est_contract_0"), _R("limit_0"),
                                                 _R("declare_est"))
N_COLUMNS = DEAL_ROWS.n_int
N_CARDS = 32
N_SEATS = 3

# auction record slots
A_DECLARER, A_BID = 0, 1


@kernel
def deal_cards(seed, index, hands, deck, rng):
    """Hands of deal ``index`` of a run with ``seed`` into ``hands``; returns (dealer, Skat)."""
    reset_stream(rng, seed, index, STREAM_DEAL)
    skat = deal_hands(rng, deck, N_SEATS, 10, hands)
    return index % N_SEATS, skat


@hot
def bid_call(seat, kinds, limits, current, T, rng):
    """The bid of ``seat`` over ``current`` (0: it passes). A seam: the loops rebuilt around
    user bots (skat/userbot.py) bind their own, which knows the seat it asks."""
    return bids(kinds[seat], limits[seat], current, T, rng)


@hot
def hold_call(seat, kinds, limits, value, rng):
    """Does ``seat`` hold ``value`` (or, as forehand after two passes, play at 18)? A seam
    like `bid_call`."""
    return holds(kinds[seat], limits[seat], value, rng)


@kernel
def _duel(holder, bidder, current, kinds, limits, T, rng, bid_by, pass_at):
    """``bidder`` bids to ``holder`` from ``current`` on until one passes: (survivor, bid)."""
    while True:
        value = bid_call(bidder, kinds, limits, current, T, rng)
        if value == 0:
            pass_at[bidder] = current
            return holder, current
        bid_by[bidder] = value
        if hold_call(holder, kinds, limits, value, rng):
            bid_by[holder] = value
            current = value
        else:
            pass_at[holder] = value
            return bidder, value


@kernel
def auction(dealer, kinds, limits, T, rng, bid_by, pass_at):
    """The auction (rules.py header): returns (declarer, bid), declarer -1 when passed in.
    ``bid_by`` and ``pass_at`` get each seat's highest bid and the bid standing when it passed."""
    forehand = (dealer + 1) % 3
    middlehand = (dealer + 2) % 3
    rearhand = dealer
    for seat in range(3):
        bid_by[seat] = 0
        pass_at[seat] = -1
    survivor, current = _duel(forehand, middlehand, 0, kinds, limits, T, rng, bid_by, pass_at)
    survivor, current = _duel(survivor, rearhand, current, kinds, limits, T, rng, bid_by, pass_at)
    if current > 0:
        return survivor, current
    # nobody bid: forehand may play at 18
    if hold_call(forehand, kinds, limits, 18, rng):
        bid_by[forehand] = 18
        return forehand, 18
    pass_at[forehand] = 0
    return -1, 0


@kernel
def contract_phase(hands, skat, dealer, T, kinds, params, rng, plans, limits, ests, bid_by,
                   pass_at, decl, kontra_rule, played, logits):
    """Bidding plans, the auction, the declaration and (with ``kontra_rule``) Kontra and Re,
    all from the deal's contract stream ``rng``: returns (declarer, bid, the declarer's
    estimate of his game); ``decl`` gets [contract, Hand, Schneider announced, Schwarz
    announced, Ouvert, discard, kontra]. Every seat's plan, limit and estimate are left in
    ``plans``, ``limits`` and ``ests``; ``played`` is scratch; ``logits`` are the seats'
    `threshold_logits`."""
    for seat in range(3):
        ests[seat] = 0.0
        limits[seat] = 0
        plans[seat, 1] = -1
        if kinds[seat] != 0:
            ests[seat] = bidding_plan(hands[seat], T, params[seat], logits[seat], plans[seat])
            limits[seat] = plans[seat, 0]
    declarer, bid = auction(dealer, kinds, limits, T, rng, bid_by, pass_at)
    if declarer < 0:
        return declarer, bid, 0.0
    d_est = declare(kinds[declarer], hands[declarer], skat, bid, plans[declarer], T,
                    params[declarer], rng, decl)
    decl[6] = 0
    if kontra_rule:
        held_for_play(hands, skat, declarer, decl[1], decl[5], played)
        for step in (1, 2):
            defender = (declarer + step) % 3
            if decl[6] == 0 and kontra_call(kinds[defender], played[defender], decl[0], T,
                                            params[defender], rng):
                decl[6] = 1
        if decl[6] == 1 and re_call(kinds[declarer], d_est, params[declarer], rng):
            decl[6] = 2
    return declarer, bid, d_est


@kernel
def held_for_play(hands, skat, declarer, hand_game, discard, played):
    """The hands as play starts: the declarer's with the Skat taken and ``discard`` laid away
    (unchanged in a Hand game)."""
    for seat in range(3):
        played[seat] = hands[seat]
    if not hand_game:
        played[declarer] = (hands[declarer] | skat) & ~discard


@kernel
def play_out(st, T, kinds, params, rng, trace, work):
    """Let the bots play the deal in ``st`` to its end, recording the cards in ``trace``
    (``work``: the pimc bot's scratch, `_pimc.pimc_scratch`). Every game writes this loop
    to the same template (docs/architecture.md, "Adding a ruleset")."""
    k = 0
    while True:
        seat = st[S_TO_MOVE]
        card = choose_card(kinds[seat], legal_mask(st, T), st, T, params[seat], rng, work)
        trace[k] = card
        k += 1
        if apply_card(st, card, T):
            break
    while k < N_CARDS:
        trace[k] = -1
        k += 1


@driver
def simulate_into(out, seed, start, T, kinds, params, traces, work):
    """Deals start .. start+out.shape[1]-1 into ``out`` (N_COLUMNS rows). With a trace switch
    (``traces`` has a row per deal; shape [0, 32] turns it off) each deal's cards go to its
    row of ``traces`` in play order. ``work``: the pimc bot's scratch (`_pimc.pimc_scratch`),
    None when no seat is pimc: the loop compiled for None holds no pimc and no solver."""
    n = out.shape[1]
    tracing = traces.shape[0] > 0
    hands = np.empty(3, dtype=np.int64)
    played = np.empty(3, dtype=np.int64)
    deck = np.empty(32, dtype=np.int64)
    st = np.empty(STATE_SIZE, dtype=np.int64)
    trace = np.empty(32, dtype=np.int64)
    rng = np.empty(1, dtype=np.uint64)
    plans = np.zeros((3, 4), dtype=np.int64)
    limits = np.zeros(3, dtype=np.int64)
    ests = np.zeros(3, dtype=np.float64)
    bid_by = np.zeros(3, dtype=np.int64)
    pass_at = np.zeros(3, dtype=np.int64)
    decl = np.zeros(7, dtype=np.int64)
    res = np.zeros(N_SETTLE, dtype=np.int64)
    seeger_scoring = T[T_RULES + R_SCORING] == SCORING_SEEGER
    kontra_rule = T[T_RULES + R_KONTRA] != 0
    logits = np.empty((3, N_LOGITS), dtype=np.float64)
    threshold_logits(params, logits)
    for k in range(n):
        index = start + k
        dealer, skat = deal_cards(seed, index, hands, deck, rng)
        reset_stream(rng, seed, index, STREAM_CONTRACT)
        declarer, bid, d_est = contract_phase(hands, skat, dealer, T, kinds, params, rng, plans,
                                              limits, ests, bid_by, pass_at, decl, kontra_rule,
                                              played, logits)
        out[C_DEAL_INDEX, k] = index
        out[C_DEALER, k] = dealer
        out[C_SKAT, k] = skat
        for seat in range(3):
            out[C_HAND + seat, k] = hands[seat]
            out[C_BID_BY + seat, k] = bid_by[seat]
            out[C_PASS_AT + seat, k] = pass_at[seat]
            out[C_EST + seat, k] = np.int64(np.round(1000.0 * ests[seat]))
            out[C_EST_CONTRACT + seat, k] = plans[seat, 1]
            out[C_LIMIT + seat, k] = limits[seat]
        out[C_BID, k] = bid
        out[C_DECLARER, k] = declarer
        if declarer < 0:
            if tracing:
                traces[k, :] = -1
            out[C_CONTRACT, k] = PASSED
            for row in (C_HAND_GAME, C_SCHNEIDER_ANN, C_SCHWARZ_ANN, C_OUVERT, C_DISCARD, C_KONTRA,
                        C_MATADORS, C_GAME_VALUE, C_VALUE, C_POINTS_D, C_POINTS_O, C_TRICKS_D,
                        C_TRICKS_O, C_SCHNEIDER, C_SCHWARZ, C_WON, C_OVERBID, C_DECLARE_EST):
                out[row, k] = 0
            for seat in range(3):
                out[C_LIST + seat, k] = 0
                out[C_SEEGER + seat, k] = 0
                out[C_SCORE + seat, k] = 0
            continue
        contract, hand_game, schneider_ann, schwarz_ann, ouvert, discard, kontra = (
            decl[0], decl[1], decl[2], decl[3], decl[4], decl[5], decl[6])
        cards12 = hands[declarer] | skat
        held_for_play(hands, skat, declarer, hand_game, discard, played)
        new_state(st, played, dealer, contract, declarer, discard, cards12, bid, hand_game,
                  schneider_ann, schwarz_ann, ouvert, kontra)
        reset_stream(rng, seed, index, STREAM_PLAY)
        play_out(st, T, kinds, params, rng, trace, work)
        if tracing:
            for c in range(trace.shape[0]):  # not a slice assignment: it compiles an error message
                traces[k, c] = trace[c]
        points_d = st[S_POINTS + declarer] + mask_points(T, discard)
        tricks_d = st[S_TRICKS + declarer]
        points_o = 0
        tricks_o = 0
        for seat in range(3):
            if seat != declarer:
                points_o += st[S_POINTS + seat]
                tricks_o += st[S_TRICKS + seat]
        settle_into(cards12, contract, bid, points_d, tricks_d, hand_game, schneider_ann,
                    schwarz_ann, ouvert, T, res)
        won = res[X_WON]
        list_score = res[X_LIST] << kontra
        seeger = list_score + (SEEGER_WIN if won else -SEEGER_LOSS)
        out[C_CONTRACT, k] = contract
        out[C_HAND_GAME, k] = hand_game
        out[C_SCHNEIDER_ANN, k] = schneider_ann
        out[C_SCHWARZ_ANN, k] = schwarz_ann or ouvert and contract != NULL
        out[C_OUVERT, k] = ouvert
        out[C_DISCARD, k] = discard
        out[C_KONTRA, k] = kontra
        out[C_MATADORS, k] = res[X_MATADORS]
        out[C_GAME_VALUE, k] = res[X_GAME_VALUE]
        out[C_VALUE, k] = res[X_VALUE]
        out[C_POINTS_D, k] = points_d
        out[C_POINTS_O, k] = points_o
        out[C_TRICKS_D, k] = tricks_d
        out[C_TRICKS_O, k] = tricks_o
        out[C_SCHNEIDER, k] = res[X_SCHNEIDER] and contract != NULL
        out[C_SCHWARZ, k] = res[X_SCHWARZ] and contract != NULL
        out[C_WON, k] = won
        out[C_OVERBID, k] = res[X_OVERBID]
        out[C_DECLARE_EST, k] = np.int64(np.round(1000.0 * d_est))
        for seat in range(3):
            if seat == declarer:
                out[C_LIST + seat, k] = list_score
                out[C_SEEGER + seat, k] = seeger
            else:
                out[C_LIST + seat, k] = 0
                out[C_SEEGER + seat, k] = res[X_SEEGER_DEFENDER]
            out[C_SCORE + seat, k] = out[C_SEEGER + seat, k] if seeger_scoring else out[C_LIST + seat, k]


# columns of the `play_declared` input: one declared game per row
(D_DEAL_INDEX, D_DECLARER, D_BID, D_CONTRACT, D_HAND, D_SCHNEIDER_ANN, D_SCHWARZ_ANN, D_OUVERT,
 D_DISCARD, D_KONTRA) = range(10)
N_DECLARED = 10


@driver
def play_declared(seed, declared, T, kinds, params, out, work):
    """Play the card phase of given declared games again, with other bots: row ``k`` of
    ``declared`` (D_* columns) is dealt as deal ``declared[k, D_DEAL_INDEX]`` of a run with
    ``seed`` and played from its own play stream; ``out[k]`` gets (declarer's card points,
    his tricks, won). The same deals with the same contracts, so two bot line-ups can be
    compared game by game. ``work``: as in `simulate_into`."""
    hands = np.empty(3, dtype=np.int64)
    played = np.empty(3, dtype=np.int64)
    deck = np.empty(32, dtype=np.int64)
    st = np.empty(STATE_SIZE, dtype=np.int64)
    trace = np.empty(32, dtype=np.int64)
    rng = np.empty(1, dtype=np.uint64)
    res = np.zeros(N_SETTLE, dtype=np.int64)
    for k in range(declared.shape[0]):
        index = declared[k, D_DEAL_INDEX]
        declarer = declared[k, D_DECLARER]
        dealer, skat = deal_cards(seed, index, hands, deck, rng)
        hand_game = declared[k, D_HAND]
        discard = declared[k, D_DISCARD]
        held_for_play(hands, skat, declarer, hand_game, discard, played)
        cards12 = hands[declarer] | skat
        new_state(st, played, dealer, declared[k, D_CONTRACT], declarer, discard, cards12,
                  declared[k, D_BID], hand_game, declared[k, D_SCHNEIDER_ANN],
                  declared[k, D_SCHWARZ_ANN], declared[k, D_OUVERT], declared[k, D_KONTRA])
        reset_stream(rng, seed, index, STREAM_PLAY)
        play_out(st, T, kinds, params, rng, trace, work)
        points = st[S_POINTS + declarer] + mask_points(T, discard)
        tricks = st[S_TRICKS + declarer]
        settle_into(cards12, declared[k, D_CONTRACT], declared[k, D_BID], points, tricks, hand_game,
                    declared[k, D_SCHNEIDER_ANN], declared[k, D_SCHWARZ_ANN], declared[k, D_OUVERT],
                    T, res)
        out[k, 0] = points
        out[k, 1] = tricks
        out[k, 2] = res[X_WON]
