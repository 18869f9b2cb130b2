"""Klaverjassen bots (also used by Kraken): trump choice, card play, and the kind dispatch.

Bots are Numba functions selected by a kind id, with one float64 parameter row per seat (the
PARAMS of heuristic.py, by name in configs, with the hand evaluator). A bot sees its own hand and the public slots of the deal
state: trump, declarer, the current trick, the cards played, and the voids each seat has shown.
"""

from __future__ import annotations

import numpy as np

from simcards._jit import hot, kernel
from simcards.cards import lowest_bit_index, nth_bit_index, popcount
from simcards.engine.trick import TRUMP
from simcards.games.klaverjas._kernels import (
    S_DECLARER,
    S_HAND,
    S_LEADER,
    S_N_PLAYED,
    S_PLAYED,
    S_TO_MOVE,
    S_TRICK,
    S_TRUMP,
    S_VOIDS,
    S_WIN_POS,
    card_points,
    cards_beating,
    suit_cards,
    trick_roem,
)
from simcards.games.klaverjas.rules import (
    R10,
    RA,
    SUIT_LOW_RANK,
    SUIT_TOP_RANK,
    T_POWER,
)
from simcards.games.botspec import HEURISTIC, RANDOM, STANDARD_KINDS
from simcards.games.klaverjas._pimc import PIMC_KIND, pimc_card
from simcards.games.klaverjas.heuristic import (  # noqa: F401 (the parameter row, as bots.*)
    COUNTS,
    KLAVERJAS_EVALUATOR,
    N_PARAMS,
    P_CONTEST,
    P_CONTRACT_TRIES,
    P_DECLARE,
    P_PULL_TRUMPS,
    P_SAMPLES,
    P_W_BASE,
    P_W_JACK,
    P_W_NINE,
    P_W_ROEM,
    P_W_SIDE_ACE,
    P_W_TEN,
    P_W_TRUMP,
    P_W_TRUMP_ACE,
    P_W_VOID,
    PARAMS,
    best_trump,
    bot_params,
    default_params,
    evaluate_hand,
)
from simcards.rng import randint

PIMC = PIMC_KIND  # perfect-information Monte Carlo card play (_pimc.py); contract and bids as heuristic
KINDS = {**STANDARD_KINDS, "pimc": PIMC}
FULL32 = np.int64(0xFFFFFFFF)


# ---------------------------------------------------------------- contract


@kernel
def choose_trump(kind, hand, T, params, rng):
    """Trump named by a bot that must play: its evaluator's favourite, or a random suit."""
    if kind == RANDOM:
        suit = randint(rng, 4)
        return suit, evaluate_hand(hand, suit, T, params)
    return best_trump(hand, T, params)


@kernel
def wants_to_declare(kind, hand, T, params):
    """``free`` trump selection: (takes the game?, suit, estimate)."""
    suit, est = best_trump(hand, T, params)
    if kind == RANDOM:
        return False, suit, est
    return est >= params[P_DECLARE], suit, est


# ---------------------------------------------------------------- card play
#
# As in the rules kernels (klaverjas/_kernels.py): suits by arithmetic (`suit_cards`), powers
# at the constant T_POWER offset, who-beats-whom as masks (`cards_beating`), and values read
# back from the state masked to their range so LLVM drops Numba's negative-index fix-ups.


@hot
def _power(T, trump, card):
    return T[T_POWER + 32 * (trump & 3) + (card & 31)]


@kernel
def _extreme(mask, T, trump, highest):
    """The card of ``mask`` with the highest (or lowest) power."""
    best = -1
    best_power = 0
    rest = mask
    while rest:
        card = lowest_bit_index(rest)
        p = _power(T, trump, card)
        if best < 0 or ((p > best_power) == highest and p != best_power):
            best, best_power = card, p
        rest &= rest - 1
    return best


@hot
def _suit_extreme(mask, suit, trump, highest):
    """`_extreme` of a mask within one printed suit, by table: the strongest (or weakest) card."""
    byte = (mask >> (8 * (suit & 3))) & 0xFF
    trumps = np.int64(suit == trump)
    rank = SUIT_TOP_RANK[trumps, byte] if highest else SUIT_LOW_RANK[trumps, byte]
    return 8 * suit + rank


@hot
def _suit_cards(trump, suit):
    """`suit_mask` for Klaverjassen: the cards of effective suit ``suit`` (0..3 or TRUMP); the
    trump suit's own plain index holds no card."""
    if suit == TRUMP:
        return suit_cards(trump)
    return np.int64(0) if suit == trump else suit_cards(suit)


@hot
def _void_cards(st, seat, T):
    """Cards ``seat`` cannot hold: every effective suit it has shown a void in."""
    voids = st[S_VOIDS + (seat & 3)]
    trump = st[S_TRUMP] & 3
    out = np.int64(0)
    for s in range(5):
        if voids >> s & 1:
            out |= _suit_cards(trump, s)
    return out


@hot
def _threats(st, T, seat, unseen):
    """Cards the opponents who play after ``seat`` in this trick may hold (one mask for all: a
    card beats ours whoever of them holds it)."""
    n = st[S_N_PLAYED] & 3
    out = np.int64(0)
    for pos in range(n + 1, 4):
        other = (st[S_LEADER] + pos) & 3
        if (other & 1) != (seat & 1):
            out |= unseen & ~_void_cards(st, other, T)
    return out


@kernel
def _opponents_may_beat(card, st, T, seat, unseen):
    """Could an opponent who plays after ``seat`` in this trick take it from ``card``?"""
    return _threats(st, T, seat, unseen) & cards_beating(card & 31, st[S_TRUMP] & 3, T) != 0


@hot
def _cost(card, trump, T):
    """How much a card is worth keeping: its points, its rank, and more for a trump."""
    c = card_points(T, trump & 3, card & 31) + 2 * _power(T, trump, card)
    if (card >> 3) == trump:
        c += 15
    return c


@kernel
def _cheapest(mask, st, T, roem_weight, trick_mask):
    """The card of ``mask`` that costs least to give up, counting roem it would add to the
    trick at ``roem_weight`` (positive: feeding the opponents costs; negative: our gain)."""
    trump = st[S_TRUMP] & 3
    weighed = roem_weight != 0.0  # a zero weight adds exactly 0.0: skip the roem look-ups
    base_roem = trick_roem(trick_mask, trump, T) if weighed else 0
    best, best_cost = -1, 1e18
    rest = mask
    while rest:
        card = lowest_bit_index(rest)
        c = _cost(card, trump, T) * 1.0
        if weighed:
            c += roem_weight * (trick_roem(trick_mask | (np.int64(1) << card), trump, T) - base_roem)
        if c < best_cost:
            best, best_cost = card, c
        rest &= rest - 1
    return best


@kernel
def _smear(legal, st, T, trick_mask):
    """Partner surely wins: give the most points (plain cards first), counting roem we make."""
    trump = st[S_TRUMP] & 3
    plain = legal & ~suit_cards(trump)
    pool = plain if plain != 0 else legal
    base_roem = trick_roem(trick_mask, trump, T)
    best, best_value = -1, -1e18
    rest = pool
    while rest:
        card = lowest_bit_index(rest)
        value = card_points(T, trump, card) * 1.0 - 0.1 * _power(T, trump, card)
        if plain == 0:  # only trumps: keep the strong ones
            value = -_cost(card, trump, T) * 1.0
        value += trick_roem(trick_mask | (np.int64(1) << card), trump, T) - base_roem
        if value > best_value:
            best, best_value = card, value
        rest &= rest - 1
    return best


@kernel
def _lead(seat, hand, legal, st, T, params, unseen):
    trump = st[S_TRUMP] & 3
    trump_cards = suit_cards(trump)
    my_trumps = hand & trump_cards
    declaring = (seat & 1) == (st[S_DECLARER] & 1)
    opp_trumps = np.int64(0)
    for opp in ((seat + 1) & 3, (seat + 3) & 3):
        if not (st[S_VOIDS + opp] >> TRUMP & 1):
            opp_trumps |= unseen & trump_cards
    # the declaring side pulls trumps: the boss trump always, a low one while long in trumps
    if declaring and my_trumps != 0 and opp_trumps != 0:
        top = _suit_extreme(my_trumps | (unseen & trump_cards), trump, trump, True)
        if my_trumps >> top & 1:
            return top
        if popcount(my_trumps) >= params[P_PULL_TRUMPS]:
            return _suit_extreme(my_trumps, trump, trump, False)
    # cash a plain-suit boss card no opponent is known to ruff
    best, best_points = -1, -1
    for suit in range(4):
        if suit == trump:
            continue
        mine = hand & suit_cards(suit)
        if mine == 0:
            continue
        top = _suit_extreme(mine | (unseen & suit_cards(suit)), suit, trump, True)
        if not (mine >> top & 1):
            continue
        ruffed = False
        for opp in ((seat + 1) & 3, (seat + 3) & 3):
            v = st[S_VOIDS + opp]
            if v >> suit & 1 and not (v >> TRUMP & 1) and opp_trumps != 0:
                ruffed = True
        if not ruffed and card_points(T, trump, top) > best_points:
            best, best_points = top, card_points(T, trump, top)
    if best >= 0:
        return best
    # otherwise lead low from a plain suit, never away from an unguarded ten
    pool = legal & ~trump_cards
    safe = np.int64(0)
    for suit in range(4):
        mine = pool & suit_cards(suit)
        if mine == 0:
            continue
        ten = np.int64(1) << (suit * 8 + R10)
        ace = np.int64(1) << (suit * 8 + RA)
        if mine & ten and not (mine & ace) and unseen & ace and popcount(mine) <= 2:
            continue
        safe |= mine
    if safe == 0:
        safe = pool if pool != 0 else legal
    return _cheapest(safe, st, T, 0.0, np.int64(0))


@kernel
def heuristic_card(seat, legal, st, T, params):
    """A sensible card: pull trumps as the strong declaring side, win cheaply, smear points on a
    trick the partner surely wins, duck and keep high cards when the trick is lost, and avoid
    feeding roem or points to the opponents."""
    if legal & (legal - 1) == 0:
        return lowest_bit_index(legal)
    seat &= 3
    hand = st[S_HAND + seat]
    unseen = FULL32 & ~st[S_PLAYED] & ~hand
    n = st[S_N_PLAYED] & 3
    if n == 0:
        return _lead(seat, hand, legal, st, T, params, unseen)
    trump = st[S_TRUMP] & 3
    trick_mask = np.int64(0)
    trick_points = 0
    for i in range(n):
        card = st[S_TRICK + i] & 31
        trick_mask |= np.int64(1) << card
        trick_points += card_points(T, trump, card)
    winner_pos = st[S_WIN_POS] & 3
    best = st[S_TRICK + winner_pos] & 31
    partner_winning = n >= 2 and winner_pos == n - 2
    if partner_winning:
        if _threats(st, T, seat, unseen) & cards_beating(best, trump, T) == 0:
            return _smear(legal, st, T, trick_mask)
        return _cheapest(legal, st, T, 0.0, trick_mask)
    winners = legal & cards_beating(best, trump, T)
    if winners != 0:
        threats = _threats(st, T, seat, unseen)
        safe = np.int64(0)
        rest = winners
        while rest:
            card = lowest_bit_index(rest)
            if threats & cards_beating(card, trump, T) == 0:
                safe |= np.int64(1) << card
            rest &= rest - 1
        if safe != 0:
            return _cheapest(safe, st, T, -1.0, trick_mask)
        if trick_points >= params[P_CONTEST]:
            return _cheapest(winners, st, T, -1.0, trick_mask)
    return _cheapest(legal, st, T, 1.0, trick_mask)


@hot
def choose_card(kind, legal, st, T, params, rng, work):
    """The card the bot of ``kind`` plays for the seat to move (``work``: the pimc bot's
    scratch, `_pimc.pimc_scratch`; None when no seat is pimc, and then pimc is not compiled)."""
    if kind == RANDOM:
        return nth_bit_index(legal, randint(rng, popcount(legal)))
    if work is not None:  # a literal None test: Numba drops it before typing a None work
        if kind == PIMC:
            return pimc_card(st[S_TO_MOVE] & 3, legal, st, T, params, rng, work)
    return heuristic_card(st[S_TO_MOVE], legal, st, T, params)
