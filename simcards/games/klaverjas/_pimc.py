"""The `pimc` bot's card play: perfect-information Monte Carlo on the double-dummy solver.

At each decision with more than one legal card the bot deals the unseen cards to the other
seats ``samples`` times, consistently with what it knows, solves every sample for the value of
each legal card (`card_values`, simcards/games/klaverjas/_solve_kernels.py) and plays the card
with the best mean value for its own party.

What a sample respects: the seat's own hand, every card played, the number of cards each seat
holds, and the voids the state records (``S_VOIDS``: a suit not followed, and the trump void a
plain discard shows when the rules force a trump). The state keeps no history of who played
which earlier card, so finer inferences ("no trump above X" after an undertrump, hand roem in
Kraken) are not used: the end bonus of a sample is the pit bonus only.

Its random draws come from a stream of the seat's own, derived from the deal's play stream,
the seat and the cards played so far, without advancing the shared stream: a run stays
reproducible, and other bots at the table draw exactly what they would without it.
"""

from __future__ import annotations

import numpy as np

from simcards._jit import kernel
from simcards.cards import lowest_bit_index, popcount
from simcards.games._state import S_HAND, S_PARTY, S_PLAYED, S_VOIDS
from simcards.games._trick import TRUMP
from simcards.games.klaverjas._kernels import STATE_SIZE, S_TRUMP
from simcards.games.klaverjas._solve_kernels import (
    CTX_SIZE,
    TT_WIDTH,
    card_values,
    init_context,
    set_pit_bonus,
    F_WIDTH,
    MAX_DEPTH,
)
from simcards.rng import _mix, randint

PIMC_TT_BITS = 15
FULL32 = np.int64(0xFFFFFFFF)
_SEAT_KEY = np.uint64(0xA0761D6478BD642F)
_TRIES = 64


@kernel
def _allowed(st, seat, trump):
    """Cards ``seat`` may hold given the voids it has shown."""
    voids = st[S_VOIDS + seat]
    allowed = FULL32
    for suit in range(4):
        effective = TRUMP if suit == trump else suit
        if (voids >> effective) & 1:
            allowed &= ~(np.int64(0xFF) << (8 * suit))
    return allowed


@kernel
def sample_hands(st, seat, rng, out):
    """Deal the cards ``seat`` cannot see to the other seats into ``out`` (4 hands; ``seat``
    keeps its own): each seat gets as many as it holds, none of a suit it has shown void in.
    Cards go one at a time, the most constrained first, to a seat drawn in proportion to its
    free places; a dead end restarts (after many, voids are dropped). Returns True when every
    void was respected."""
    trump = st[S_TRUMP] & 3
    own = st[S_HAND + seat]
    unseen = FULL32 & ~st[S_PLAYED] & ~own
    for attempt in range(_TRIES + 1):
        strict = attempt < _TRIES
        for s in range(4):
            out[s] = 0
        out[seat] = own
        ok = True
        # the cards only one or two seats may hold go first
        for wanted in range(1, 4):
            rest = unseen
            while rest and ok:
                card = lowest_bit_index(rest)
                rest &= rest - 1
                bit = np.int64(1) << card
                if out[0] & bit or out[1] & bit or out[2] & bit or out[3] & bit:
                    continue
                eligible = 0
                total_room = 0
                for s in range(4):
                    if s == seat:
                        continue
                    room = popcount(st[S_HAND + s]) - popcount(out[s])
                    if room > 0 and (not strict or (_allowed(st, s, trump) & bit)):
                        eligible += 1
                        total_room += room
                if eligible == 0:
                    ok = False
                    break
                if eligible != wanted and wanted < 3:
                    continue
                pick = randint(rng, total_room)
                for s in range(4):
                    if s == seat:
                        continue
                    room = popcount(st[S_HAND + s]) - popcount(out[s])
                    if room > 0 and (not strict or (_allowed(st, s, trump) & bit)):
                        if pick < room:
                            out[s] |= bit
                            break
                        pick -= room
        if ok:
            return strict
    return False


# the bot's work array, allocated once per simulation chunk (`work_size`): the solver's
# context, table, frames and scratch states, then the sampled hands and the per-card values
W_CTX = 0
W_TT = W_CTX + CTX_SIZE
W_FRAMES = W_TT + (TT_WIDTH << PIMC_TT_BITS)
W_SCRATCH = W_FRAMES + F_WIDTH * MAX_DEPTH
W_SAMPLE = W_SCRATCH + STATE_SIZE
W_HANDS = W_SAMPLE + STATE_SIZE
W_VALUES = W_HANDS + 4
W_TOTALS = W_VALUES + 32
WORK_SIZE = W_TOTALS + 32
W_RNG = 0  # the seat's own stream lives in a one-slot uint64 array of the caller


PIMC_KIND = 2  # the kind id of bots.py (PIMC), which imports this module


@kernel
def pimc_work_size(kinds):
    """Length of the work array a simulation with these bot kinds needs (1 without pimc)."""
    for k in range(kinds.shape[0]):
        if kinds[k] == PIMC_KIND:
            return WORK_SIZE
    return 1


@kernel
def pimc_card(seat, legal, st, T, samples, rng, work):
    """The card of ``legal`` with the best mean double-dummy value over ``samples`` deals of the
    unseen cards (module docstring); ``work``: WORK_SIZE int64 slots."""
    if legal & (legal - 1) == 0:
        return lowest_bit_index(legal)
    ctx = work[W_CTX:W_TT]
    tt = work[W_TT:W_FRAMES]
    frames = work[W_FRAMES:W_SCRATCH]
    scratch = work[W_SCRATCH:W_SAMPLE]
    sample = work[W_SAMPLE:W_HANDS]
    hands = work[W_HANDS:W_VALUES]
    values = work[W_VALUES:W_TOTALS]
    totals = work[W_TOTALS:WORK_SIZE]
    own = rng[0]  # the shared stream's state, restored below: the draws are the seat's own
    rng[0] = _mix(own ^ (np.uint64(seat + 1) * _SEAT_KEY) ^ np.uint64(st[S_PLAYED]))
    init_context(ctx, PIMC_TT_BITS)  # the generation stamp is kept: old entries stay stale
    set_pit_bonus(ctx, T)
    for card in range(32):
        totals[card] = 0
    sign = 1 if (st[S_PARTY] >> seat) & 1 else -1
    for _ in range(max(1, samples)):
        sample_hands(st, seat, rng, hands)
        for i in range(STATE_SIZE):
            sample[i] = st[i]
        for s in range(4):
            sample[S_HAND + s] = hands[s]
        card_values(sample, T, ctx, tt, scratch, frames, values)
        rest = legal
        while rest:
            card = lowest_bit_index(rest)
            rest &= rest - 1
            totals[card] += sign * values[card]
    rng[0] = own
    best = -1
    rest = legal
    while rest:
        card = lowest_bit_index(rest)
        rest &= rest - 1
        if best < 0 or totals[card] > totals[best]:
            best = card
    return best
