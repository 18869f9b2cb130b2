"""The Klaverjassen batch kernel: deal, choose the contract, play out with bots, score.

`simulate_into` writes one column per deal into an int64 matrix (rows from `DEAL_ROWS`); every
deal draws only from its own (seed, deal index) streams, so any slice of a run can be
recomputed alone. Its trace switch records the cards of each deal in play order, which is how
`replay` retraces a deal: with the same loop, not a copy of it.
"""

from __future__ import annotations

import numpy as np

from simcards._jit import driver, kernel
from simcards.games.klaverjas.bots import (
    choose_card,
    choose_trump,
    evaluate_hand,
    wants_to_declare,
)
from simcards.games.columns import RowLayout
from simcards.games.klaverjas._kernels import (
    S_POINTS,
    S_ROEM,
    S_SHOWS,
    S_TO_MOVE,
    S_TRICKS,
    STATE_SIZE,
    apply_card,
    hand_melds,
    klaverjas_score,
    legal_mask,
    new_state,
)
from simcards.games.klaverjas.columns import DEAL_COLUMNS
from simcards.games.klaverjas.rules import (
    R_NAT_ON_TIE,
    R_TRUMP_SELECTION,
    SEL_FREE,
    SEL_RANDOM,
    T_RULES,
)
from simcards.rng import (
    STREAM_CONTRACT,
    STREAM_DEAL,
    STREAM_PLAY,
    deal_hands,
    randint,
    reset_stream,
)

DEAL_ROWS = RowLayout(DEAL_COLUMNS)
C_DEAL_INDEX, C_DEALER, C_HAND = (DEAL_ROWS.row(c) for c in ("deal_index", "dealer", "hand_0"))
C_TRUMP, C_DECLARER, C_ESTIMATE = (DEAL_ROWS.row(c) for c in ("trump", "declarer", "estimate"))
C_POINTS, C_ROEM, C_TRICKS = (DEAL_ROWS.row(c) for c in ("points_0", "roem_0", "tricks_0"))
C_PIT, C_NAT, C_SCORE, C_ROEM_HAND = (DEAL_ROWS.row(c) for c in ("pit", "nat", "score_0", "roem_hand_0"))
N_COLUMNS = DEAL_ROWS.n_int
N_CARDS = 32


@kernel
def deal_cards(seed, index, hands, deck, rng):
    """Hands of deal ``index`` of a run with ``seed`` into ``hands``; returns the dealer."""
    reset_stream(rng, seed, index, STREAM_DEAL)
    deal_hands(rng, deck, 4, 8, hands)
    return index % 4


@kernel
def choose_contract(hands, dealer, T, bot_kind, bot_params, rng):
    """(trump, declarer, declarer's estimate) by the ruleset's trump selection."""
    forehand = (dealer + 1) % 4
    selection = T[T_RULES + R_TRUMP_SELECTION]
    if selection == SEL_RANDOM:
        trump = randint(rng, 4)
        return trump, forehand, evaluate_hand(hands[forehand], trump, T, bot_params[forehand])
    if selection == SEL_FREE:
        for k in range(4):
            seat = (forehand + k) % 4
            takes, suit, est = wants_to_declare(bot_kind[seat], hands[seat], T, bot_params[seat])
            if takes:
                return suit, seat, est
    suit, est = choose_trump(bot_kind[forehand], hands[forehand], T, bot_params[forehand], rng)
    return suit, forehand, est


@kernel
def play_out(st, T, bot_kind, bot_params, rng, trace, work):
    """Let the bots play the deal in ``st`` to its end, recording cards in ``trace`` (``work``:
    the pimc bot's scratch, `_pimc.pimc_scratch`: None without a pimc seat).

    Every game writes this loop to the same template: one shared njit loop taking a game's
    kernels as arguments would disable Numba's cache (docs/architecture.md, "Adding a ruleset")."""
    if work is not None:  # a pimc seat at the table: keep what the play shows (_kernels.py)
        st[S_SHOWS] = 1
    k = 0
    while True:
        seat = st[S_TO_MOVE] & 3  # masked: no negative-index fix-up (_kernels.py)
        card = choose_card(bot_kind[seat], legal_mask(st, T), st, T, bot_params[seat], rng, work)
        trace[k] = card
        k += 1
        if apply_card(st, card, T):
            return


@driver
def simulate_into(out, seed, start, T, bot_kind, bot_params, traces, work):
    """Deals start .. start+out.shape[1]-1 into ``out`` (N_COLUMNS rows), so a caller can reuse
    one buffer across chunks instead of touching fresh pages for every chunk. With a trace
    switch (``traces`` has a row per deal; shape [0, 32] turns it off) each deal's cards go to
    its row of ``traces`` in play order. ``work``: the pimc bot's scratch (`_pimc.pimc_scratch`),
    None when no seat is pimc: the loop compiled for None holds no pimc and no solver."""
    n = out.shape[1]
    tracing = traces.shape[0] > 0
    hands = np.empty(4, dtype=np.int64)
    deck = np.empty(32, dtype=np.int64)
    st = np.empty(STATE_SIZE, dtype=np.int64)
    trace = np.empty(32, dtype=np.int64)
    score = np.empty(2, dtype=np.int64)
    rng = np.empty(1, dtype=np.uint64)
    for k in range(n):
        index = start + k
        dealer = deal_cards(seed, index, hands, deck, rng)
        reset_stream(rng, seed, index, STREAM_CONTRACT)
        trump, declarer, est = choose_contract(hands, dealer, T, bot_kind, bot_params, rng)
        new_state(st, hands, dealer, trump, declarer)
        reset_stream(rng, seed, index, STREAM_PLAY)
        play_out(st, T, bot_kind, bot_params, rng, trace, work)
        if tracing:  # card by card: a slice assignment compiles a shape-check message (seconds,
            for c in range(N_CARDS):  # paid again by every loop rebuilt around a user's bot)
                traces[k, c] = trace[c]
        nat = klaverjas_score(st[S_POINTS:S_POINTS + 2], st[S_ROEM:S_ROEM + 2], declarer & 1,
                              T[T_RULES + R_NAT_ON_TIE], score)
        out[C_DEAL_INDEX, k] = index
        out[C_DEALER, k] = dealer
        out[C_TRUMP, k] = trump
        out[C_DECLARER, k] = declarer
        out[C_ESTIMATE, k] = np.int64(np.round(est))
        for seat in range(4):
            out[C_HAND + seat, k] = hands[seat]
            out[C_ROEM_HAND + seat, k] = hand_melds(hands[seat], trump, T)
        for team in range(2):
            out[C_POINTS + team, k] = st[S_POINTS + team]
            out[C_ROEM + team, k] = st[S_ROEM + team]
            out[C_TRICKS + team, k] = st[S_TRICKS + team]
            out[C_SCORE + team, k] = score[team]
        out[C_PIT, k] = st[S_TRICKS] == 8 or st[S_TRICKS + 1] == 8
        out[C_NAT, k] = nat
