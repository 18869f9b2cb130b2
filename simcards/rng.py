"""Counter-based random numbers: every deal is regenerated from (run seed, global deal index).

A deal owns independent *streams* (dealing, contract choices, bot play), each a SplitMix64
sequence whose starting state is a hash of (seed, deal index, stream). Nothing carries over
from one deal to the next, so a deal's cards and play do not depend on chunking, worker count
or backend, and `game.deal(seed=s, index=i)` rebuilds deal i of a run with seed s. Streams keep
the cards independent of the bots: changing a bot never changes who holds what.

Match rulesets (a Hearts game, a 16-deal Kraken match) number their deals within the run as
``match_index * MAX_DEALS_PER_MATCH + deal_no`` (see `match_deal_index`), so a deal is still
regenerated from (seed, its index) and matches never share a deal.

All arithmetic is uint64 with uint64 constants (a uint64 mixed with an int64 becomes float64 in
Numba); draws are handed out as int64.
"""

from __future__ import annotations

import numpy as np

from simcards._jit import driver, hot, kernel

STREAM_DEAL = 0  # shuffle and deal
STREAM_CONTRACT = 1  # random trump and other contract draws
STREAM_PLAY = 2  # random bots during play
STREAM_MATCH = 3  # match-level draws (e.g. first dealer)

MAX_DEALS_PER_MATCH = 1024

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_STREAM_KEY = np.uint64(0xD1B54A32D192ED03)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)
_S32 = np.uint64(32)


@kernel
def mix(z):
    """SplitMix64's finaliser: a bijection of uint64 that spreads every input bit over the
    output (the streams are built from it; `simcards.engine.sampler.seat_stream` derives a
    seat's own stream with it)."""
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@driver
def stream_state(seed, index, stream):
    """Starting state of one stream of one deal, as a 1-element uint64 array (mutated by draws)."""
    z = mix(np.uint64(seed) + _GOLDEN)
    z = mix(z ^ (np.uint64(index) * _GOLDEN))
    z = mix(z ^ (np.uint64(stream + 1) * _STREAM_KEY))
    state = np.empty(1, dtype=np.uint64)
    state[0] = z
    return state


@kernel
def reset_stream(state, seed, index, stream):
    """Re-seed an existing state array in place (avoids an allocation per deal in hot loops)."""
    z = mix(np.uint64(seed) + _GOLDEN)
    z = mix(z ^ (np.uint64(index) * _GOLDEN))
    state[0] = mix(z ^ (np.uint64(stream + 1) * _STREAM_KEY))


@kernel
def match_deal_index(match_index, deal_no):
    """Global deal index of deal ``deal_no`` (from 0) of match ``match_index``."""
    return match_index * MAX_DEALS_PER_MATCH + deal_no


@kernel
def next_u53(state):
    """Next draw as a non-negative int64 below 2**53."""
    state[0] += _GOLDEN
    return np.int64(mix(state[0]) >> _S11)


@kernel
def _next_u32(state):
    state[0] += _GOLDEN
    return np.int64(mix(state[0]) >> _S32)


@hot
def _randint_from(z, n):
    """`randint` on a stream state held in a local: (draw, advanced state). Lets a loop of draws
    keep the state in a register instead of storing and reloading it every draw."""
    z += _GOLDEN
    m = np.int64(mix(z) >> _S32) * n
    low = m & 0xFFFFFFFF
    if low < n:
        threshold = (0x100000000 - n) % n
        while low < threshold:
            z += _GOLDEN
            m = np.int64(mix(z) >> _S32) * n
            low = m & 0xFFFFFFFF
    # m < 2**63, so the mask changes nothing; it shows LLVM the draw is a valid array index
    return (m >> 32) & 0x7FFFFFFF, z


@kernel
def randint(state, n):
    """Exactly uniform int in [0, n) for 1 <= n < 2**31 (Lemire's multiply-shift with rejection:
    no division in the common case)."""
    value, z = _randint_from(state[0], n)
    state[0] = z
    return value


@kernel
def uniform(state):
    """Uniform float in [0, 1)."""
    return next_u53(state) * (1.0 / 9007199254740992.0)


@kernel
def shuffle_into(state, deck):
    """Fisher-Yates shuffle of ids 0..len(deck)-1 into the scratch array ``deck``."""
    n_cards = deck.shape[0]
    for i in range(n_cards):
        deck[i] = i
    z = state[0]
    for i in range(n_cards - 1, 0, -1):
        j, z = _randint_from(z, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    state[0] = z


@kernel
def deal_hands(state, deck, n_players, hand_size, hands):
    """Shuffle the scratch array ``deck`` (one slot per card) and deal hand_size cards to each
    of n_players seats as bitmasks into ``hands``. Cards left over (a Skat) are returned as one
    mask."""
    shuffle_into(state, deck)
    n_cards = deck.shape[0]
    k = 0
    for seat in range(n_players):
        mask = np.int64(0)
        for _ in range(hand_size):
            mask |= np.int64(1) << deck[k]
            k += 1
        hands[seat] = mask
    rest = np.int64(0)
    while k < n_cards:
        rest |= np.int64(1) << deck[k]
        k += 1
    return rest
