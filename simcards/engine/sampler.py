"""The pimc bots' sampler: uniform deals of the cards a seat cannot see among three receivers.

A perfect-information Monte Carlo bot (simcards/games/klaverjas/_pimc.py, skat/_pimc.py)
deals the unseen cards again and again, each time uniformly among the deals that respect
what the seat knows: how many cards each receiver takes, and which receivers may hold each
card (a seat that showed a void cannot hold the suit). The receivers are three: Klaverjassen's
three other seats; Skat's two other seats and the two-card Skat.

A sampler is one int64 array (`sampler_size`): the unseen cards in order (SM_CARDS), which
receivers may hold each (SM_WHO, bit i: receiver i), their number (SM_COUNT), whether the
counts respect every such restriction (SM_STRICT), and the completion counts N[k, a, b]
(SM_WAYS): the ways to deal cards k.. when receiver 0 still takes a of them and receiver 1
b (receiver 2 the rest). ``room`` is one more than the most cards a receiver can take (9 in
Klaverjassen, 11 in Skat). `count_ways` fills the counts once per decision and
`deal_receivers` deals card by card with the exact odds, so every consistent deal is equally
likely.

`seat_stream` gives a deciding seat a random stream of its own, derived from the deal's
stream, the seat and the cards played so far, without advancing the shared stream: a run stays
reproducible, and the other bots at the table draw exactly what they would without it.
"""

from __future__ import annotations

import numpy as np

from simcards._jit import kernel
from simcards.rng import mix, next_u53

MAX_UNSEEN = 24
SM_CARDS = 0
SM_WHO = SM_CARDS + MAX_UNSEEN
SM_COUNT = SM_WHO + MAX_UNSEEN  # the number of unseen cards
SM_STRICT = SM_COUNT + 1  # 1 when the counts respect every restriction
SM_WAYS = SM_STRICT + 1  # (MAX_UNSEEN + 1) * room * room counts
ANY_RECEIVER = 7
_U53 = np.int64(1) << 53
_SEAT_KEY = np.uint64(0xA0761D6478BD642F)


def sampler_size(room: int) -> int:
    """Length of a sampler array for receivers taking at most ``room - 1`` cards each."""
    return SM_WAYS + (MAX_UNSEEN + 1) * room * room


@kernel
def ways_at(sampler, room, k, a, b):
    """The completion count N[k, a, b] (see the module docstring)."""
    return sampler[SM_WAYS + (k * room + a) * room + b]


@kernel
def count_ways(sampler, m, room):
    """Fill the completion counts of the ``m`` cards of the sampler, last card first. The most
    is 24! / (8!)^3 (Klaverjassen) or 22! / (10! 10! 2!) (Skat), below 10^10: int64 holds it."""
    for k in range(m, -1, -1):
        who = sampler[SM_WHO + k] if k < m else 0
        for a in range(room):
            for b in range(room):
                c = m - k - a - b
                ways = np.int64(0)
                if k == m:
                    ways = np.int64(1) if a == 0 and b == 0 else np.int64(0)
                elif 0 <= c < room:
                    if who & 1 and a > 0:
                        ways += ways_at(sampler, room, k + 1, a - 1, b)
                    if who & 2 and b > 0:
                        ways += ways_at(sampler, room, k + 1, a, b - 1)
                    if who & 4 and c > 0:
                        ways += ways_at(sampler, room, k + 1, a, b)
                sampler[SM_WAYS + (k * room + a) * room + b] = ways


@kernel
def prepare_counts(sampler, m, room, first, second):
    """The counts for ``m`` cards (SM_CARDS and SM_WHO filled) when receiver 0 takes ``first``
    and receiver 1 ``second`` of them. Returns True when a deal respecting every restriction
    exists (it always does for a real deal: the true hands are one); otherwise the sampler
    keeps only the receivers' sizes."""
    sampler[SM_COUNT] = m
    count_ways(sampler, m, room)
    strict = ways_at(sampler, room, 0, first, second) > 0
    if not strict:
        for k in range(m):
            sampler[SM_WHO + k] = ANY_RECEIVER
        count_ways(sampler, m, room)
    sampler[SM_STRICT] = 1 if strict else 0
    return strict


@kernel
def below(rng, n):
    """Exactly uniform int in [0, n) for 1 <= n < 2**53 (rejection above the last multiple)."""
    limit = (_U53 // n) * n
    while True:
        draw = next_u53(rng)
        if draw < limit:
            return draw % n


@kernel
def deal_receivers(sampler, room, a, b, rng):
    """One deal of the sampler's cards, receiver 0 taking ``a`` and receiver 1 ``b`` of them,
    uniform among the deals the sampler allows: each card goes to a receiver with the odds of
    the completions that follow. Returns the three receivers' masks."""
    got0, got1, got2 = np.int64(0), np.int64(0), np.int64(0)
    for k in range(sampler[SM_COUNT]):
        who = sampler[SM_WHO + k]
        pick = below(rng, ways_at(sampler, room, k, a, b))
        taker = 2
        if who & 1 and a > 0:
            ways = ways_at(sampler, room, k + 1, a - 1, b)
            if pick < ways:
                taker = 0
            pick -= ways
        if taker == 2 and who & 2 and b > 0:
            ways = ways_at(sampler, room, k + 1, a, b - 1)
            if pick < ways:
                taker = 1
        bit = np.int64(1) << sampler[SM_CARDS + k]
        if taker == 0:
            a -= 1
            got0 |= bit
        elif taker == 1:
            b -= 1
            got1 |= bit
        else:
            got2 |= bit
    return got0, got1, got2


@kernel
def work_size(kinds, search_kind, size):
    """Length of the work array a simulation with these bot kinds needs: ``size`` when a seat
    is of ``search_kind`` (a pimc bot's scratch), else 1."""
    for k in range(kinds.shape[0]):
        if kinds[k] == search_kind:
            return size
    return 1


def search_scratch(kinds, search_kind, size):
    """The search bot's scratch for a batch loop with bot ``kinds``: ``size`` zeros when a seat
    is of ``search_kind``, else None. A loop given None compiles without the search (its pimc
    card and the solver): Numba drops a branch on ``work is not None`` of an argument typed
    None before typing it, and caches one entry per argument type."""
    if (np.asarray(kinds) == search_kind).any():
        return np.zeros(size, dtype=np.int64)
    return None


@kernel
def seat_stream(rng, seat, played):
    """Switch ``rng`` (a one-slot uint64 array) to the stream of ``seat`` deciding after the
    cards ``played``; returns the shared stream's state, to be put back when the decision ends."""
    own = rng[0]
    rng[0] = mix(own ^ (np.uint64(seat + 1) * _SEAT_KEY) ^ np.uint64(played))
    return own
