"""The `pimc` bot's card play: perfect-information Monte Carlo on the double-dummy solver.

At each decision with more than one legal card the bot deals the unseen cards to the other
seats ``samples`` times, consistently with what it knows, solves every sample for the value of
each legal card (`card_values`, simcards/games/klaverjas/_solve_kernels.py) and plays the card
with the best mean value for its own party.

What a sample respects: the seat's own hand, every card played, the number of cards each seat
holds, and every card a seat has shown it cannot hold (``S_NOT_HELD``, kept by `apply_card`
through `shown_not_held`: the voids, and "no trump above X" after an undertrump or a failure
to overtrump, as the ruleset's own legal moves imply). Among the deals that respect all of it,
each is equally likely: `prepare_sampler` counts the completions once per decision and
`draw_hands` deals card by card with the exact odds (both on simcards/engine/sampler.py,
which Skat's pimc shares). What the contract tells is used by
rejection: a draw whose dealt hands would not have led heuristic bots (the bot's own evaluator
weights and threshold) to the deal's trump and declarer is drawn again, up to
``contract_tries`` times, after which the last draw stands (`contract_agrees`; Kraken asks
its bids too, from the record the state keeps in S_BIDDING: kraken/_play.py, `kraken_draw`).
The end bonus of a sample is the pit bonus; Kraken adds the hand roem of the sample's dealt hands (their
cards still held plus the cards each seat played, ``S_PLAYED_BY``) where its rules count it
(simcards/games/kraken/_play.py, `kraken_pimc_card`).

Its random draws come from a stream of the seat's own, derived from the deal's play stream,
the seat and the cards played so far, without advancing the shared stream: a run stays
reproducible, and other bots at the table draw exactly what they would without it.
"""

from __future__ import annotations

import numpy as np

from simcards._jit import kernel
from simcards.cards import lowest_bit_index, popcount
from simcards.engine.state import S_DEALER, S_DECLARER, S_HAND, S_PARTY, S_PLAYED
from simcards.games.klaverjas import heuristic
from simcards.games.klaverjas._kernels import S_NOT_HELD, S_PLAYED_BY, S_TRUMP, STATE_SIZE
from simcards.games.klaverjas.rules import R_TRUMP_SELECTION, SEL_FORCED, SEL_FREE, T_RULES
from simcards.games.klaverjas._solve_kernels import (
    CTX_SIZE,
    TT_WIDTH,
    card_values,
    init_context,
    set_pit_bonus,
    F_WIDTH,
    MAX_DEPTH,
)
from simcards.engine.sampler import (  # noqa: F401 (SM_WAYS: the tests read the counts)
    SM_CARDS,
    SM_WAYS,
    SM_WHO,
    deal_receivers,
    prepare_counts,
    sampler_size,
    seat_stream,
    search_scratch,
    work_size,
)

PIMC_TT_BITS = 15
FULL32 = np.int64(0xFFFFFFFF)

# ---- the sampler (`prepare_sampler`; the shared counts and draws of simcards/engine/sampler.py):
# the receivers are the three other seats, receiver i the i-th seat after the bot's
ROOM = 9  # 0..8 cards still to deal to a seat
SAMPLER_SIZE = sampler_size(ROOM)


@kernel
def prepare_sampler(st, seat, sampler):
    """Set up `draw_hands` for ``seat`` in the position of ``st``. Returns True when a deal
    respecting every card shown not held exists (it always does for a real deal: the true hands
    are one); otherwise the sampler keeps only the hand sizes."""
    unseen = FULL32 & ~st[S_PLAYED] & ~st[S_HAND + seat]
    m = 0
    rest = unseen
    while rest:
        card = lowest_bit_index(rest)
        rest &= rest - 1
        bit = np.int64(1) << card
        who = 0
        for i in range(3):
            if st[S_NOT_HELD + ((seat + 1 + i) & 3)] & bit == 0:
                who |= 1 << i
        sampler[SM_CARDS + m] = card
        sampler[SM_WHO + m] = who
        m += 1
    first = popcount(st[S_HAND + ((seat + 1) & 3)])
    second = popcount(st[S_HAND + ((seat + 2) & 3)])
    return prepare_counts(sampler, m, ROOM, first, second)


@kernel
def draw_hands(st, seat, sampler, rng, out):
    """One deal of the unseen cards into ``out`` (4 hands; ``seat`` keeps its own), uniform
    among the deals the sampler allows (`deal_receivers`)."""
    got0, got1, got2 = deal_receivers(sampler, ROOM, popcount(st[S_HAND + ((seat + 1) & 3)]),
                                      popcount(st[S_HAND + ((seat + 2) & 3)]), rng)
    out[seat] = st[S_HAND + seat]
    out[(seat + 1) & 3] = got0
    out[(seat + 2) & 3] = got1
    out[(seat + 3) & 3] = got2


@kernel
def sample_hands(st, seat, rng, sampler, out):
    """`prepare_sampler` and one `draw_hands`; returns True when the deal respects every card
    shown not held."""
    strict = prepare_sampler(st, seat, sampler)
    draw_hands(st, seat, sampler, rng, out)
    return strict


# the bot's work array, allocated once per simulation chunk (`work_size`): the solver's
# context, table, frames and scratch states, the sampler, then the sampled hands, the sample's
# dealt hands and the per-card values
W_CTX = 0
W_TT = W_CTX + CTX_SIZE
W_FRAMES = W_TT + (TT_WIDTH << PIMC_TT_BITS)
W_SCRATCH = W_FRAMES + F_WIDTH * MAX_DEPTH
W_SAMPLE = W_SCRATCH + STATE_SIZE
W_SAMPLER = W_SAMPLE + STATE_SIZE
W_HANDS = W_SAMPLER + SAMPLER_SIZE
W_DEALT = W_HANDS + 4
W_VALUES = W_DEALT + 4
W_TOTALS = W_VALUES + 32
W_GAME = W_TOTALS + 32  # scratch for a game's own per-sample end bonus (Kraken's hand roem)
GAME_SCRATCH = 16
WORK_SIZE = W_GAME + GAME_SCRATCH
W_RNG = 0  # the seat's own stream lives in a one-slot uint64 array of the caller


PIMC_KIND = 2  # the kind id of bots.py (PIMC)


@kernel
def pimc_work_size(kinds):
    """Length of the work array a simulation with these bot kinds needs (1 without pimc)."""
    return work_size(kinds, PIMC_KIND, WORK_SIZE)


def pimc_scratch(kinds):
    """The pimc bot's scratch for a batch loop with bot ``kinds``, None when no seat is pimc
    (the loop then compiles without pimc and the solver: `_sampler.search_scratch`)."""
    return search_scratch(kinds, PIMC_KIND, WORK_SIZE)


@kernel
def pimc_begin(seat, st, T, rng, work):
    """Start a decision: switch ``rng`` to the seat's own stream (returns the shared stream's
    state, for `pimc_best`), prepare the sampler and the solver, clear the totals."""
    own = seat_stream(rng, seat, st[S_PLAYED])
    init_context(work[W_CTX:W_TT], PIMC_TT_BITS)  # the generation stamp is kept: old entries stay stale
    set_pit_bonus(work[W_CTX:W_TT], T)
    for card in range(32):
        work[W_TOTALS + card] = 0
    prepare_sampler(st, seat, work[W_SAMPLER:W_HANDS])
    return own


@kernel
def contract_agrees(st, dealt, T, params):
    """Would heuristic bots (the evaluator and threshold of ``params``) dealt ``dealt`` have
    reached the deal's trump and declarer? Forced selection: forehand names its evaluator's
    best suit. Free: the seats before the declarer passed (their best estimate below the
    threshold), and the declarer took the game in its best suit, or, as forehand when all
    passed, named it. Random selection tells nothing."""
    selection = T[T_RULES + R_TRUMP_SELECTION]
    if selection != SEL_FORCED and selection != SEL_FREE:
        return True
    trump = st[S_TRUMP] & 3
    declarer = st[S_DECLARER] & 3
    forehand = (st[S_DEALER] + 1) & 3
    suit, est = heuristic.best_trump(dealt[declarer], T, params)
    if suit != trump:
        return False
    if selection == SEL_FORCED:
        return True
    threshold = params[heuristic.P_DECLARE]
    if est >= threshold:  # the declarer took the game: every seat before it passed
        other = forehand
        while other != declarer:
            if heuristic.best_trump(dealt[other], T, params)[1] >= threshold:
                return False
            other = (other + 1) & 3
        return True
    if declarer != forehand:  # only forehand plays without taking the game: when all pass
        return False
    for k in range(1, 4):
        if heuristic.best_trump(dealt[(forehand + k) & 3], T, params)[1] >= threshold:
            return False
    return True


@kernel
def deal_sample(seat, st, rng, work):
    """One draw of the unseen cards into ``work[W_HANDS:]``, and its dealt hands (the cards each
    seat holds in it plus those it played) into ``work[W_DEALT:]``."""
    hands = work[W_HANDS:W_DEALT]
    dealt = work[W_DEALT:W_VALUES]
    draw_hands(st, seat, work[W_SAMPLER:W_HANDS], rng, hands)
    for s in range(4):
        dealt[s] = hands[s] | st[S_PLAYED_BY + s]


@kernel
def keep_sample(st, work):
    """The position of ``st`` with the hands of the last draw, into the sample state."""
    sample = work[W_SAMPLE:W_SAMPLER]
    for i in range(STATE_SIZE):
        sample[i] = st[i]
    for s in range(4):
        sample[S_HAND + s] = work[W_HANDS + s]


@kernel
def pimc_draw(seat, st, T, params, tries, rng, work):
    """Deal one sample into the work array's sample state (`deal_sample`, `keep_sample`): up to
    ``tries`` draws until one agrees with the contract (`contract_agrees`), else the last one.
    (Kraken also asks the bidding: kraken/_play.py, `kraken_draw`.)"""
    dealt = work[W_DEALT:W_VALUES]
    for _ in range(max(1, tries)):
        deal_sample(seat, st, rng, work)
        if tries <= 0 or contract_agrees(st, dealt, T, params):
            break
    keep_sample(st, work)


@kernel
def pimc_solve(seat, legal, st, T, work):
    """Solve the sample of `pimc_draw` (end bonus as set in the context) and add the value of
    each legal card, for the seat's party, to the totals."""
    values = work[W_VALUES:W_TOTALS]
    card_values(work[W_SAMPLE:W_SAMPLER], T, work[W_CTX:W_TT], work[W_TT:W_FRAMES],
                work[W_SCRATCH:W_SAMPLE], work[W_FRAMES:W_SCRATCH], values)
    sign = 1 if (st[S_PARTY] >> seat) & 1 else -1
    rest = legal
    while rest:
        card = lowest_bit_index(rest)
        rest &= rest - 1
        work[W_TOTALS + card] += sign * values[card]


@kernel
def pimc_best(legal, rng, own, work):
    """End a decision: restore the shared stream and return the legal card of the best total
    (the lowest card on ties)."""
    rng[0] = own
    best = -1
    rest = legal
    while rest:
        card = lowest_bit_index(rest)
        rest &= rest - 1
        if best < 0 or work[W_TOTALS + card] > work[W_TOTALS + best]:
            best = card
    return best


@kernel
def pimc_card(seat, legal, st, T, params, rng, work):
    """The card of ``legal`` with the best mean double-dummy value over ``samples`` deals of the
    unseen cards (module docstring; ``params``: the bot's row); ``work``: WORK_SIZE int64 slots.
    The end bonus is the pit bonus (Kraken: `kraken_pimc_card`)."""
    if legal & (legal - 1) == 0:
        return lowest_bit_index(legal)
    own = pimc_begin(seat, st, T, rng, work)
    tries = np.int64(params[heuristic.P_CONTRACT_TRIES])
    for _ in range(max(1, np.int64(params[heuristic.P_SAMPLES]))):
        pimc_draw(seat, st, T, params, tries, rng, work)
        pimc_solve(seat, legal, st, T, work)
    return pimc_best(legal, rng, own, work)
