"""Skat's double-dummy search: alpha-beta on the declarer's future card points or tricks.

All three hands are open. A search value is what the declarer will still *gain* from a node to
the end of the deal: card points (``MODE_POINTS``) or tricks (``MODE_TRICKS``). The declarer
plays against the two defenders together, so a seat maximises when it is the declarer and
minimises when it defends; ``X_DECLARER_MAX = 0`` turns that round for a Null game, where the
declarer wants to take no trick (the defenders then maximise his trick count, and he is won
when the most they can force is 0).

Legal cards and trick winners are the game's own shared trick kernels (`follow_mask`, `beats`
of simcards/engine/trick.py, the same ones `apply_card` uses), so the search cannot disagree
with the simulator about what may be played or who takes a trick.

Techniques:
- null-window tests: "is the future gain at least b?" (window b - 1, b); a win needs one test
  at its threshold (`at_least`), the exact points take doubling steps from a guess (61) until
  the fail-soft answers bracket the value, then bisection (`value_search`);
- a transposition table at trick boundaries keyed by shape (`_table_key`): per effective
  suit, who holds its remaining cards in power order, and the leader and search mode (within
  one solve each card's holder is fixed). Positions of one shape play alike; their future
  points differ at most by the point differences of the matched cards (`_point_shift`), so an
  entry stored for other cards hands out its bounds widened by that much (exact when only
  cards of equal points differ, as 7-8-9 or two jacks, and in a trick search). Entries hold a
  lower and an upper bound, the best lead, the cards they were stored for and the solve's
  generation stamp (a new solve needs no clearing); buckets of two entries, one kept for the
  position with more cards, one always replaced;
- cheap bounds at trick boundaries: the declarer gains between 0 and every remaining point
  (trick), less what the defenders surely take with the top trumps they hold and more what he
  surely takes with his; where those leave the window open, the quick tricks of the leader's
  side instead when they are more (`_quick_tricks`: its top cards of a suit, cashed while the
  opponents who could ruff must follow suit);
- move ordering: the table's best lead first, then by a cheap rule (the declarer leads his
  strongest cards, a defender his strongest plain cards before trumps; win a trick the other
  side holds with the richest card that does, smear points on one's own side's trick when
  last to play, else play low);
- rank equivalence: two cards of the mover's hand are interchangeable when they are of one
  effective suit, score the same points (any points when counting tricks) and no card still
  held by another seat or lying in the trick sits between them in power; only one is tried;
- the last two tricks are solved exactly without the frames (`_two_tricks`: minimax over the
  at most 8 lines of the first, the last one card each) after a table miss, and stored as
  exact, so the later tests of the value search cut on them; the last trick alone is scored
  without a search (one card each, nothing to choose);
- the per-node helpers of the search loop are inlined (``hot``), as in the Klaverjassen
  solver: a call passes each array as seven words, more than most of their bodies.

The search keeps its own frame stack rather than recursing, as the Klaverjassen search does
(the reasons, measured, are in its frames' comment).
"""

from __future__ import annotations

import numpy as np

from simcards._jit import driver, hot, kernel
from simcards.cards import lowest_bit_index, popcount
from simcards.engine.state import S_HAND, S_LEADER, S_N_PLAYED, S_TRICK, S_WIN_POS
from simcards.engine.trick import TRUMP, beats, eff_suit, follow_mask, power, suit_mask
from simcards.engine.transposition import INF, TT_WIDTH, bucket, claim, find, record
from simcards.games.skat._kernels import (
    N_SETTLE,
    S_CONTRACT,
    S_DECLARER,
    S_POINTS,
    S_SKAT,
    S_TRICKS,
    STATE_SIZE,
    X_WON,
    mask_points,
    new_state,
    settle_into,
)
from simcards.games.skat.rules import N_SEATS, N_TRICKS, NULL, T_N_TRUMPS, T_POINTS, T_TRUMP_ORDER

ALL_CARDS = np.int64(-1)
MODE_POINTS, MODE_TRICKS = 0, 1

# ---- the context array ``ctx``: the solve's parameters, the hands as the search plays, counters
# (its slots are unsigned, like the frames': Numba checks a signed index for a negative value at
# every access, and the search reads the hands here at every node; 16-18% more positions a second
# measured. Cast a signed offset with ``np.uint64``: uint64 plus int64 is a float64 in Numba)
X_NODES = np.uint64(0)  # positions searched (the benchmark reads it)
X_GEN = np.uint64(1)  # generation stamp of the current solve: table entries of older solves are stale
X_TT_BITS = np.uint64(2)  # log2 of the number of table entries
X_MODE = np.uint64(3)  # MODE_POINTS or MODE_TRICKS
X_DECLARER_MAX = np.uint64(4)  # 1: the declarer maximises his gain (suit, Grand); 0: he minimises it (Null)
X_DECLARER = np.uint64(5)
X_CONTRACT = np.uint64(6)
X_HAND = np.uint64(8)  # 3 slots: the cards each seat still holds, as the search plays them
X_RANK = np.uint64(16)  # 32 slots: a card's order key, power plus 16 for a trump (move ordering)
X_EFF = X_RANK + np.uint64(32)  # 32 slots: a card's effective suit (0..3, TRUMP)
X_ORDER_N = X_EFF + np.uint64(32)  # 5 slots: the cards of each effective suit
X_ORDER = X_ORDER_N + np.uint64(8)  # 5 x 11 slots: the cards of each effective suit, strongest first
X_BYTE_POINTS = X_ORDER + np.uint64(5 * 11)  # 256 slots: card points of one suit's 8-bit rank mask
X_SUIT_MASK = X_BYTE_POINTS + np.uint64(256)  # 5 slots: the cards of each effective suit (0..3, TRUMP)
CTX_SIZE = int(X_SUIT_MASK) + 5

TT_BITS = 20
FIRST_STEP = 4  # the value search's first step away from its guess
# the table is the engine's (simcards/engine/transposition.py): its three key words are the
# shape key (two words) and the generation stamp
NO_MOVE = 63

# ---- the search frames: one row per card played below the root. Frame starts and slot
# offsets are unsigned, as in the Klaverjassen search (there the reason is written down): a
# signed count needs ``np.uint64`` before it is added
(F_LEADER, F_N, F_LED_SUIT, F_BEST, F_WIN_POS, F_TRICK_MASK, F_TRICK_POINTS, F_ALPHA, F_BETA,
 F_ALPHA0, F_BETA0, F_VALUE, F_BEST_CARD, F_SLOT, F_KEY, F_SEAT, F_HAND, F_MAX, F_TRIED,
 F_N_MOVES, F_NEXT, F_GAIN, F_CARD, F_OTHERS, F_KEY2) = (np.uint64(i) for i in range(25))
F_MOVES = np.uint64(25)  # 10 slots: the cards to try, in order
F_WIDTH = int(F_MOVES) + 10
FRAME = np.uint64(F_WIDTH)
ROOT = np.uint64(0)  # the root's frame
MAX_DEPTH = 3 * N_TRICKS + 1


def new_context(tt_bits: int = TT_BITS) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(ctx, transposition table, frames); reuse them across solves (the generation stamp
    keeps solves apart)."""
    ctx = np.zeros(CTX_SIZE, dtype=np.int64)
    ctx[X_TT_BITS] = tt_bits
    return ctx, np.zeros(TT_WIDTH << tt_bits, dtype=np.int64), np.zeros(F_WIDTH * MAX_DEPTH, dtype=np.int64)


@kernel
def begin_solve(ctx, tt, st, T, mode, declarer_max):
    """A new solve of the deal in ``st``: a fresh generation stamp (the table is wiped when the
    stamp runs out), the hands, the contract and the search mode."""
    ctx[X_GEN] += 1
    if ctx[X_GEN] >= (np.int64(1) << 40):
        tt[:] = 0
        ctx[X_GEN] = 1
    set_mode(ctx, mode, declarer_max)
    contract = st[S_CONTRACT]
    ctx[X_CONTRACT] = contract
    ctx[X_DECLARER] = st[S_DECLARER]
    for seat in range(N_SEATS):
        ctx[X_HAND + np.uint64(seat)] = st[S_HAND + seat]
    for card in range(32):
        ctx[X_RANK + np.uint64(card)] = power(T, contract, card) + (16 if eff_suit(T, contract, card) == TRUMP else 0)
        ctx[X_EFF + np.uint64(card)] = eff_suit(T, contract, card)
    for byte in range(256):
        total = 0
        for rank in range(8):
            if (byte >> rank) & 1:
                total += T[T_POINTS + rank]  # every suit scores its ranks alike
        ctx[X_BYTE_POINTS + np.uint64(byte)] = total
    for suit in range(5):
        n = 0
        cards = suit_mask(T, contract, suit)
        while cards:  # selection by power, strongest first (at most eleven cards)
            top = lowest_bit_index(cards)
            rest = cards & (cards - 1)
            while rest:
                card = lowest_bit_index(rest)
                rest &= rest - 1
                if power(T, contract, card) > power(T, contract, top):
                    top = card
            ctx[X_ORDER + np.uint64(11 * suit + n)] = top
            n += 1
            cards &= ~(np.int64(1) << top)
        ctx[X_ORDER_N + np.uint64(suit)] = n
        ctx[X_SUIT_MASK + np.uint64(suit)] = suit_mask(T, contract, suit)


@kernel
def set_mode(ctx, mode, declarer_max):
    """Search for points or tricks, the declarer maximising or minimising, within one solve:
    the mode is part of the table key, so the entries of the other modes stay valid."""
    ctx[X_MODE] = mode
    ctx[X_DECLARER_MAX] = declarer_max


@hot
def _remaining(ctx):
    return ctx[X_HAND] | ctx[X_HAND + np.uint64(1)] | ctx[X_HAND + np.uint64(2)]


@hot
def _points_of(ctx, cards):
    """Card points of a mask, a suit's byte at a time."""
    return (ctx[X_BYTE_POINTS + np.uint64(cards & 0xFF)] + ctx[X_BYTE_POINTS + np.uint64((cards >> 8) & 0xFF)]
            + ctx[X_BYTE_POINTS + np.uint64((cards >> 16) & 0xFF)] + ctx[X_BYTE_POINTS + np.uint64((cards >> 24) & 0xFF)])


@hot
def _next(seat):
    return 0 if seat == N_SEATS - 1 else seat + 1


@hot
def _gain_of_trick(ctx, points):
    """What a trick worth ``points`` gives the declarer when he takes it."""
    return points if ctx[X_MODE] == MODE_POINTS else 1


@hot
def _last_trick_of(ctx, T, leader, h0, h1, h2):
    """The declarer's gain from the last trick when the seats hold one card each, ``h0``..``h2``."""
    contract = ctx[X_CONTRACT]
    best = lowest_bit_index(h0 if leader == 0 else (h1 if leader == 1 else h2))
    points = T[T_POINTS + best]
    winner = leader
    seat = leader
    for _ in range(N_SEATS - 1):
        seat = _next(seat)
        card = lowest_bit_index(h0 if seat == 0 else (h1 if seat == 1 else h2))
        points += T[T_POINTS + card]
        if beats(card, best, T, contract):
            best = card
            winner = seat
    return _gain_of_trick(ctx, points) if winner == ctx[X_DECLARER] else 0


@kernel
def _last_trick(ctx, T, leader):
    """The declarer's gain from the last trick (every hand holds one card)."""
    return _last_trick_of(ctx, T, leader, ctx[X_HAND], ctx[X_HAND + np.uint64(1)], ctx[X_HAND + np.uint64(2)])


@hot
def _better(value, line, maximizing):
    return max(value, line) if maximizing else min(value, line)


@kernel
def _two_tricks(ctx, T, leader):
    """The declarer's exact future gain when every hand holds two cards, ``leader`` to lead:
    minimax over the at most 8 lines of the first of the two tricks (the last one follows, one
    card each)."""
    contract = ctx[X_CONTRACT]
    declarer = ctx[X_DECLARER]
    declarer_max = ctx[X_DECLARER_MAX] != 0
    seat1 = _next(leader)
    seat2 = _next(seat1)
    hand0 = ctx[X_HAND + np.uint64(leader)]
    hand1 = ctx[X_HAND + np.uint64(seat1)]
    hand2 = ctx[X_HAND + np.uint64(seat2)]
    max0 = (leader == declarer) == declarer_max
    max1 = (seat1 == declarer) == declarer_max
    max2 = (seat2 == declarer) == declarer_max
    value0 = -INF if max0 else INF
    rest0 = hand0
    while rest0:
        card0 = lowest_bit_index(rest0)
        rest0 &= rest0 - 1
        led = eff_suit(T, contract, card0)
        value1 = -INF if max1 else INF
        rest1 = follow_mask(hand1, led, T, contract)
        while rest1:
            card1 = lowest_bit_index(rest1)
            rest1 &= rest1 - 1
            best1, win1 = (card1, seat1) if beats(card1, card0, T, contract) else (card0, leader)
            value2 = -INF if max2 else INF
            rest2 = follow_mask(hand2, led, T, contract)
            while rest2:
                card2 = lowest_bit_index(rest2)
                rest2 &= rest2 - 1
                winner = seat2 if beats(card2, best1, T, contract) else win1
                points = T[T_POINTS + card0] + T[T_POINTS + card1] + T[T_POINTS + card2]
                line = _gain_of_trick(ctx, points) if winner == declarer else 0
                played = (np.int64(1) << card0) | (np.int64(1) << card1) | (np.int64(1) << card2)
                line += _last_trick_of(ctx, T, winner, ctx[X_HAND] & ~played,
                                       ctx[X_HAND + np.uint64(1)] & ~played, ctx[X_HAND + np.uint64(2)] & ~played)
                value2 = _better(value2, line, max2)
            value1 = _better(value1, value2, max1)
        value0 = _better(value0, value1, max0)
    return value0


@kernel
def _sure_top_trumps(ctx, T, remaining):
    """(side, cards): the highest remaining trumps while one side holds them all (side 1 the
    declarer, 2 the defenders, 0 no trump left). Each takes a trick of its own: every trump
    above it lies with the same side, and a trump beats every other suit."""
    contract = ctx[X_CONTRACT]
    n = T[T_N_TRUMPS + contract]
    declarer_hand = ctx[X_HAND + np.uint64(ctx[X_DECLARER])]
    side = 0
    cards = np.int64(0)
    for k in range(n):
        card = T[T_TRUMP_ORDER + contract * 11 + k]
        bit = np.int64(1) << card
        if remaining & bit == 0:
            continue
        holder = 1 if declarer_hand & bit else 2
        if side == 0:
            side = holder
        elif holder != side:
            break
        cards |= bit
    return side, cards


@hot
def _cheapest_points(ctx, T, suit, cards, m):
    """The fewest card points ``m`` of ``cards`` (of the effective suit ``suit``) can hold, ``m``
    at most their number. A plain suit's points fall with its power (A 10 K Q 9 8 7: the jacks
    are trumps), so its weakest cards are the cheapest; the trumps need a search (a jack
    scores 2, the seven of trumps 0)."""
    total = 0
    if suit != TRUMP:
        left = m
        i = ctx[X_ORDER_N + np.uint64(suit)] - 1
        while left > 0:
            card = ctx[X_ORDER + np.uint64(11 * suit + i)]
            if cards & (np.int64(1) << card):
                total += T[T_POINTS + card]
                left -= 1
            i -= 1
        return total
    rest = cards
    for _ in range(m):
        cheapest = -1
        pick = rest
        while pick:
            card = lowest_bit_index(pick)
            pick &= pick - 1
            if cheapest < 0 or T[T_POINTS + card] < T[T_POINTS + cheapest]:
                cheapest = card
        total += T[T_POINTS + cheapest]
        rest &= ~(np.int64(1) << cheapest)
    return total


@kernel
def _quick_tricks(ctx, T, remaining, leader):
    """What the side of ``leader`` surely gains at a trick boundary by cashing its top cards at
    once (the quick tricks of double-dummy bridge): card points, or tricks in a trick search.
    The leader leads its cards of a plain suit that beat every remaining card of the suit in
    other hands; an opponent holding a trump follows suit as long as it has the suit, and is
    counted on for no more tricks than that (void, it could ruff); an opponent without trumps
    cannot take such a trick, nor can the leader's partner while it holds a card that is not a
    trump (void, it discards one; with only trumps left it would have to ruff and take the
    lead, so a partner holding trumps bounds the plain tricks of all suits together by its
    other cards). So the leader keeps the lead. Then the leader's trumps above every other
    remaining trump. Cashing a suit leaves the other suits' counts of the opponents with
    trumps untouched (they follow suit), so the suits add up. The points: the cashed cards,
    and of every other seat the cheapest cards it must follow with (what it may discard
    counts 0)."""
    declarer = ctx[X_DECLARER]
    hand = ctx[X_HAND + np.uint64(leader)]
    trumps = ctx[X_SUIT_MASK + np.uint64(TRUMP)]
    partner_spare = 10  # plain tricks the leader's partner can follow or discard in
    if leader != declarer:
        for seat in range(N_SEATS):
            if seat != leader and seat != declarer and ctx[X_HAND + np.uint64(seat)] & trumps:
                partner_spare = popcount(ctx[X_HAND + np.uint64(seat)] & ~trumps)
    gain = 0
    tricks = 0
    for suit in range(5):
        cards = ctx[X_SUIT_MASK + np.uint64(suit)]
        mine = hand & cards
        if mine == 0:
            continue
        cash = 0  # the leader's cards of the suit above every other remaining one
        for i in range(ctx[X_ORDER_N + np.uint64(suit)]):
            bit = np.int64(1) << ctx[X_ORDER + np.uint64(11 * suit + i)]
            if remaining & bit == 0:
                continue
            if mine & bit == 0:
                break
            cash += 1
        if suit != TRUMP:
            for seat in range(N_SEATS):
                opponent = (seat == declarer) != (leader == declarer)
                if opponent and ctx[X_HAND + np.uint64(seat)] & trumps:
                    cash = min(cash, popcount(ctx[X_HAND + np.uint64(seat)] & cards))
            cash = min(cash, partner_spare)
            partner_spare -= cash
        if cash == 0:
            continue
        tricks += cash
        taken = 0
        for i in range(ctx[X_ORDER_N + np.uint64(suit)]):
            card = ctx[X_ORDER + np.uint64(11 * suit + i)]
            if taken < cash and mine & (np.int64(1) << card):
                gain += T[T_POINTS + card]
                taken += 1
        for seat in range(N_SEATS):
            if seat != leader:
                theirs = ctx[X_HAND + np.uint64(seat)] & cards
                gain += _cheapest_points(ctx, T, suit, theirs, min(cash, popcount(theirs)))
    return gain if ctx[X_MODE] == MODE_POINTS else tricks


@kernel
def _future_bounds(ctx, T, remaining, leader, alpha, beta, cash):
    """(lowest, highest) gain of the declarer from a trick boundary: between nothing and every
    remaining point (trick), less what the side holding the top trumps surely takes. Every
    trick holding one of them goes to that side (the trick's best trump is one of them too),
    so it takes all their points, and at least as many tricks as one hand holds of them. With
    ``cash`` (and the declarer playing for points or tricks, not Null), and only when these
    bounds leave the window (``alpha``, ``beta``) open, the quick tricks of the leader's side
    too, whichever is more (they may be the same tricks): a strategy's result, so they bound
    a position's value but not that of a restricted root's cards."""
    if ctx[X_MODE] == MODE_POINTS:
        high = _points_of(ctx, remaining)
    else:
        high = popcount(ctx[X_HAND + np.uint64(leader)])
    sure_declarer = 0
    sure_defenders = 0
    side, cards = _sure_top_trumps(ctx, T, remaining)
    if side != 0:
        if ctx[X_MODE] == MODE_POINTS:
            sure = _points_of(ctx, cards)
        else:
            sure = 0
            for seat in range(N_SEATS):
                sure = max(sure, popcount(ctx[X_HAND + np.uint64(seat)] & cards))
        if side == 1:
            sure_declarer = sure
        else:
            sure_defenders = sure
    if cash and ctx[X_DECLARER_MAX] != 0 and alpha < high - sure_defenders and sure_declarer < beta:
        quick = _quick_tricks(ctx, T, remaining, leader)
        if leader == ctx[X_DECLARER]:
            sure_declarer = max(sure_declarer, quick)
        else:
            sure_defenders = max(sure_defenders, quick)
    return sure_declarer, high - sure_defenders


@kernel
def _table_key(ctx, remaining, leader):
    """The shape of a trick-boundary position (two words): per effective suit, who holds its
    remaining cards in power order, and how many there are; the leader and the search mode.
    Positions of one shape play alike: the same legal cards and trick winners when each
    suit's i-th strongest card maps onto the other's. Their gains differ at most by the points
    of the matched cards (`_point_shift`); in a trick search not at all."""
    h0 = ctx[X_HAND]
    h1 = ctx[X_HAND + np.uint64(1)]
    holders = np.int64(0)
    counts = np.int64(0)
    for suit in range(5):
        n = 0
        for i in range(ctx[X_ORDER_N + np.uint64(suit)]):
            card = ctx[X_ORDER + np.uint64(11 * suit + i)]
            if (remaining >> card) & 1:
                holder = 0 if (h0 >> card) & 1 else (1 if (h1 >> card) & 1 else 2)
                holders = (holders << 2) | holder
                n += 1
        counts |= np.int64(n) << (4 * suit)
    counts |= (leader << 20) | (ctx[X_MODE] << 22) | (ctx[X_DECLARER_MAX] << 23)
    return holders, counts


@kernel
def _point_shift(ctx, T, stored, remaining):
    """The most the declarer's future points can differ between two positions of one shape,
    one with the cards ``stored``, the other ``remaining``: each suit's i-th strongest card
    maps onto the other's, every line onto one with the same trick winners, so the points of
    each matched pair go to the same side."""
    if ctx[X_MODE] != MODE_POINTS:
        return 0
    shift = 0
    for suit in range(5):
        i = 0
        j = 0
        n = ctx[X_ORDER_N + np.uint64(suit)]
        while True:
            while i < n and not (stored >> ctx[X_ORDER + np.uint64(11 * suit + i)]) & 1:
                i += 1
            while j < n and not (remaining >> ctx[X_ORDER + np.uint64(11 * suit + j)]) & 1:
                j += 1
            if i >= n or j >= n:
                break
            shift += abs(T[T_POINTS + ctx[X_ORDER + np.uint64(11 * suit + i)]]
                         - T[T_POINTS + ctx[X_ORDER + np.uint64(11 * suit + j)]])
            i += 1
            j += 1
    return shift


@kernel
def _mapped_card(ctx, stored, remaining, card):
    """The card of ``remaining`` that ``card`` (of ``stored``) maps onto: the same effective
    suit, the same place in power order among the remaining cards."""
    suit = ctx[X_EFF + np.uint64(card)]
    place = 0
    for i in range(ctx[X_ORDER_N + np.uint64(suit)]):
        other = ctx[X_ORDER + np.uint64(11 * suit + i)]
        if other == card:
            break
        place += (stored >> other) & 1
    for i in range(ctx[X_ORDER_N + np.uint64(suit)]):
        other = ctx[X_ORDER + np.uint64(11 * suit + i)]
        if (remaining >> other) & 1:
            if place == 0:
                return other
            place -= 1
    return NO_MOVE


@kernel
def _store_value(ctx, tt, slot, key, key2, remaining, value, alpha, beta, best_card):
    """Store ``value``, searched in the window (``alpha``, ``beta``), of the trick-boundary
    position holding the cards ``remaining`` under this key in bucket ``slot``, with its best
    lead (NO_MOVE: none)."""
    gen = ctx[X_GEN]
    e = find(tt, slot, key, key2, gen)
    if e >= 0 and (tt[e + 5] >> 6) != remaining:
        tt[e + 3] = -INF  # the entry of other cards of the same shape: start afresh
        tt[e + 4] = INF
    if e < 0:
        # the depth-preferred entry unless it holds a position of this solve with more cards
        e = 2 * slot * TT_WIDTH
        if tt[e + 2] == gen and popcount(tt[e + 5] >> 6) > popcount(remaining):
            e += TT_WIDTH
        claim(tt, e, key, key2, gen)
    record(tt, e, value, alpha, beta, best_card, remaining)


@kernel
def _store(ctx, tt, F, at, remaining):
    """Store the settled value of the frame at ``at`` (a trick boundary holding the cards
    ``remaining``) in the table; returns it."""
    value = F[at + F_VALUE]
    slot = F[at + F_SLOT]
    if slot >= 0:
        _store_value(ctx, tt, slot, F[at + F_KEY], F[at + F_KEY2], remaining, value,
                     F[at + F_ALPHA0], F[at + F_BETA0], F[at + F_BEST_CARD])
    return value


@hot
def _order_moves(F, at, legal, tt_move, ctx, T, n, best, winner_is_mine, last):
    """Write the cards of ``legal`` into the frame's move list, the likeliest best first: the
    table's lead, then by a score (leading: the strongest first; the other side winning the
    trick: the cards that beat it, the richest first (fewer positions in measurement than the
    cheapest first), then the rest, the lowest first; one's own side winning: the most points
    first when last to play, else the lowest first). Returns their number."""
    contract = ctx[X_CONTRACT]
    k = 0
    rest = legal
    if tt_move != NO_MOVE and (legal >> tt_move) & 1:
        F[at + F_MOVES] = tt_move
        k = 1
        rest &= ~(np.int64(1) << tt_move)
    start = k
    while rest:
        card = lowest_bit_index(rest)
        rest &= rest - 1
        rank = ctx[X_RANK + np.uint64(card)]
        points = T[T_POINTS + card]
        if n == 0:
            score = 64 * rank + points if ctx[X_DECLARER] == F[at + F_SEAT] else (64 * rank + points if rank < 16 else -64 * rank)
        elif winner_is_mine:
            score = points if last else -rank
        elif beats(card, best, T, contract):
            score = 4096 + 64 * points - rank
        else:
            score = -64 * points - rank
        code = (score << 8) | card  # sorts by score, the card in the low byte
        i = k
        while i > start and F[at + F_MOVES + np.uint64(i - 1)] < code:  # insertion, highest first
            F[at + F_MOVES + np.uint64(i)] = F[at + F_MOVES + np.uint64(i - 1)]
            i -= 1
        F[at + F_MOVES + np.uint64(i)] = code
        k += 1
    for i in range(start, k):
        F[at + F_MOVES + np.uint64(i)] &= 0xFF
    return k


@hot
def _equivalent_tried(ctx, T, card, tried, others):
    """Is ``card`` interchangeable with a card of ``tried`` (both in the mover's hand)? Both of
    one effective suit, the same points (when points count) and no card of ``others`` (every
    card still held by another seat or lying in the trick) between them in power: swapping
    them in any line then changes no legal move, trick winner or gain."""
    contract = ctx[X_CONTRACT]
    suit = eff_suit(T, contract, card)
    same_suit = suit_mask(T, contract, suit)
    candidates = tried & same_suit
    if candidates == 0:
        return False
    points = T[T_POINTS + card]
    mine = power(T, contract, card)
    rivals = others & same_suit
    while candidates:
        other = lowest_bit_index(candidates)
        candidates &= candidates - 1
        if ctx[X_MODE] == MODE_POINTS and T[T_POINTS + other] != points:
            continue
        theirs = power(T, contract, other)
        low = min(mine, theirs)
        high = max(mine, theirs)
        between = False
        probe = rivals
        while probe:
            p = power(T, contract, lowest_bit_index(probe))
            probe &= probe - 1
            if low < p < high:
                between = True
                break
        if not between:
            return True
    return False


@hot
def _set_position(F, at, leader, n, led_suit, best, win_pos, trick_mask, trick_points, alpha, beta):
    F[at + F_LEADER] = leader
    F[at + F_N] = n
    F[at + F_LED_SUIT] = led_suit
    F[at + F_BEST] = best
    F[at + F_WIN_POS] = win_pos
    F[at + F_TRICK_MASK] = trick_mask
    F[at + F_TRICK_POINTS] = trick_points
    F[at + F_ALPHA] = alpha
    F[at + F_BETA] = beta
    F[at + F_ALPHA0] = alpha
    F[at + F_BETA0] = beta


@hot
def _enter(ctx, tt, T, F, at, only):
    """Set up the node of the frame at ``at`` (its position slots filled in). Returns
    (True, value) when the node is settled at once (the end, the last trick, the table or a
    bound), else (False, 0) with its moves ordered."""
    ctx[X_NODES] += 1
    leader = F[at + F_LEADER]
    n = F[at + F_N]
    seat = leader + n
    if seat >= N_SEATS:
        seat -= N_SEATS
    alpha = F[at + F_ALPHA]
    beta = F[at + F_BETA]
    slot = -1
    key = np.int64(0)
    key2 = np.int64(0)
    tt_move = NO_MOVE
    if n == 0:
        remaining = _remaining(ctx)
        if remaining == 0:
            return True, 0
        if popcount(ctx[X_HAND + np.uint64(leader)]) == 1:
            return True, _last_trick(ctx, T, leader)
        if only == ALL_CARDS:
            key, key2 = _table_key(ctx, remaining, leader)
            slot = bucket(key, key2, ctx[X_GEN], ctx[X_TT_BITS])
            e = find(tt, slot, key, key2, ctx[X_GEN])
            if e >= 0:
                lower = tt[e + 3]
                upper = tt[e + 4]
                tt_move = tt[e + 5] & 63
                stored = tt[e + 5] >> 6
                if stored != remaining:  # a position of the same shape, other cards
                    shift = _point_shift(ctx, T, stored, remaining)
                    lower -= shift
                    upper += shift
                    if tt_move != NO_MOVE:
                        tt_move = _mapped_card(ctx, stored, remaining, tt_move)
                if lower >= beta:
                    return True, lower
                if upper <= alpha:
                    return True, upper
                if lower == upper:
                    return True, lower
                alpha = max(alpha, lower)
                beta = min(beta, upper)
        if popcount(ctx[X_HAND + np.uint64(leader)]) == 2 and only == ALL_CARDS:
            # two tricks left: solved exactly, and stored so (later tests cut on it)
            value = _two_tricks(ctx, T, leader)
            _store_value(ctx, tt, slot, key, key2, remaining, value, -INF, INF, NO_MOVE)
            return True, value
        low, high = _future_bounds(ctx, T, remaining, leader, alpha, beta, only == ALL_CARDS)
        if high <= alpha:
            return True, high
        if low >= beta:
            return True, low
    hand = ctx[X_HAND + np.uint64(seat)]
    contract = ctx[X_CONTRACT]
    if n == 0:
        legal = hand & only
    else:
        legal = follow_mask(hand, F[at + F_LED_SUIT], T, contract) & only
    declarer = ctx[X_DECLARER]
    is_declarer = seat == declarer
    maximizing = is_declarer == (ctx[X_DECLARER_MAX] != 0)
    winner_is_mine = False
    if n > 0:
        winner = leader + F[at + F_WIN_POS]
        if winner >= N_SEATS:
            winner -= N_SEATS
        winner_is_mine = (winner == declarer) == is_declarer
    F[at + F_ALPHA] = alpha
    F[at + F_BETA] = beta
    F[at + F_SLOT] = slot
    F[at + F_KEY] = key
    F[at + F_KEY2] = key2
    F[at + F_SEAT] = seat
    F[at + F_HAND] = hand
    F[at + F_MAX] = 1 if maximizing else 0
    F[at + F_VALUE] = -INF if maximizing else INF
    F[at + F_BEST_CARD] = NO_MOVE
    F[at + F_TRIED] = 0
    F[at + F_NEXT] = 0
    F[at + F_OTHERS] = (_remaining(ctx) & ~hand) | F[at + F_TRICK_MASK]
    F[at + F_N_MOVES] = _order_moves(F, at, legal, tt_move, ctx, T, n, F[at + F_BEST],
                                     winner_is_mine, n == N_SEATS - 1)
    return False, 0


@kernel
def search(ctx, tt, T, F, alpha, beta, only):
    """The declarer's future gain from the root position in frame 0 (`set_root`), by
    fail-soft alpha-beta in the window (``alpha``, ``beta``). ``only`` restricts the root's
    cards (ALL_CARDS: every legal card; a restricted root neither reads nor writes the
    table). The hands in ``ctx`` are back as they were when it returns."""
    contract = ctx[X_CONTRACT]
    declarer = ctx[X_DECLARER]
    F[F_ALPHA] = alpha
    F[F_BETA] = beta
    F[F_ALPHA0] = alpha
    F[F_BETA0] = beta
    settled, value = _enter(ctx, tt, T, F, ROOT, only)
    if settled:
        return value
    depth = 0
    while True:
        at = np.uint64(depth) * FRAME
        card = -1
        while F[at + F_NEXT] < F[at + F_N_MOVES]:  # the next card not equivalent to a tried one
            candidate = F[at + F_MOVES + np.uint64(F[at + F_NEXT])]
            F[at + F_NEXT] += 1
            tried = F[at + F_TRIED]
            F[at + F_TRIED] = tried | (np.int64(1) << candidate)
            if tried != 0 and _equivalent_tried(ctx, T, candidate, tried, F[at + F_OTHERS]):
                continue
            card = candidate
            break
        if card < 0:  # every card tried, or a cut-off: this frame is settled
            result = _store(ctx, tt, F, at, _remaining(ctx))
            if depth == 0:
                return result
            depth -= 1
            at = np.uint64(depth) * FRAME
            result += F[at + F_GAIN]
        else:
            seat = F[at + F_SEAT]
            n = F[at + F_N]
            leader = F[at + F_LEADER]
            bit = np.int64(1) << card
            ctx[X_HAND + np.uint64(seat)] = F[at + F_HAND] & ~bit
            points = F[at + F_TRICK_POINTS] + T[T_POINTS + card]
            best = F[at + F_BEST]
            win_pos = F[at + F_WIN_POS]
            led_suit = F[at + F_LED_SUIT]
            if n == 0:
                best = card
                win_pos = 0
                led_suit = eff_suit(T, contract, card)
            elif beats(card, best, T, contract):
                best = card
                win_pos = n
            F[at + F_CARD] = card
            child = at + FRAME
            if n == N_SEATS - 1:
                winner = leader + win_pos
                if winner >= N_SEATS:
                    winner -= N_SEATS
                gain = _gain_of_trick(ctx, points) if winner == declarer else 0
                _set_position(F, child, winner, 0, 0, 0, 0, np.int64(0), 0,
                              F[at + F_ALPHA] - gain, F[at + F_BETA] - gain)
            else:
                gain = 0
                _set_position(F, child, leader, n + 1, led_suit, best, win_pos,
                              F[at + F_TRICK_MASK] | bit, points, F[at + F_ALPHA], F[at + F_BETA])
            F[at + F_GAIN] = gain
            settled, result = _enter(ctx, tt, T, F, child, ALL_CARDS)
            if not settled:
                depth += 1
                continue
            result += gain
        # a child's value ``result`` comes back to the frame at ``at``
        ctx[X_HAND + np.uint64(F[at + F_SEAT])] = F[at + F_HAND]
        if F[at + F_MAX]:
            if result > F[at + F_VALUE]:
                F[at + F_VALUE] = result
                F[at + F_BEST_CARD] = F[at + F_CARD]
                if result > F[at + F_ALPHA]:
                    F[at + F_ALPHA] = result
        elif result < F[at + F_VALUE]:
            F[at + F_VALUE] = result
            F[at + F_BEST_CARD] = F[at + F_CARD]
            if result < F[at + F_BETA]:
                F[at + F_BETA] = result
        if F[at + F_ALPHA] >= F[at + F_BETA]:
            F[at + F_NEXT] = F[at + F_N_MOVES]  # cut-off


# ---- the root: a whole state (a trick may be part-played) and the questions asked of it


@kernel
def set_root(st, T, ctx, F):
    """Frame 0 at the position of ``st``: the current trick's cards, leader and winner."""
    contract = st[S_CONTRACT]
    n = st[S_N_PLAYED]
    trick_mask = np.int64(0)
    trick_points = 0
    for i in range(n):
        card = st[S_TRICK + i]
        trick_mask |= np.int64(1) << card
        trick_points += T[T_POINTS + card]
    led_suit = eff_suit(T, contract, st[S_TRICK]) if n > 0 else 0
    win_pos = st[S_WIN_POS] if n > 0 else 0
    best = st[S_TRICK + win_pos] if n > 0 else 0
    _set_position(F, ROOT, st[S_LEADER], n, led_suit, best, win_pos, trick_mask, trick_points, 0, 0)


@kernel
def start_solve(st, T, ctx, tt, F):
    """A new solve from the position of ``st`` (the table of earlier solves goes stale)."""
    begin_solve(ctx, tt, st, T, MODE_POINTS, 1)
    set_root(st, T, ctx, F)


@kernel
def taken_so_far(st, T, mode):
    """The declarer's points (the Skat's two cards included) or tricks from the tricks played."""
    declarer = st[S_DECLARER]
    if mode == MODE_POINTS:
        return st[S_POINTS + declarer] + mask_points(T, st[S_SKAT])
    return st[S_TRICKS + declarer]


@kernel
def at_least(ctx, tt, T, F, mode, declarer_max, b, only):
    """Is the declarer's future gain at least ``b`` under perfect play? One null-window test."""
    set_mode(ctx, mode, declarer_max)
    return search(ctx, tt, T, F, b - 1, b, only) >= b


@kernel
def value_search(ctx, tt, T, F, mode, declarer_max, guess, only):
    """The declarer's exact future gain by null-window tests: the first at ``guess``, then
    steps doubling away from it until the value is bracketed, then bisection of what the
    fail-soft answers leave (the range is 0 .. 120 points or 10 tricks)."""
    set_mode(ctx, mode, declarer_max)
    lower = 0
    upper = 120 if mode == MODE_POINTS else N_TRICKS
    b = guess
    step = FIRST_STEP
    raised = False  # a test has answered "at least b"
    lowered = False  # a test has answered "below b"
    while lower < upper:
        b = min(max(b, lower + 1), upper)
        v = search(ctx, tt, T, F, b - 1, b, only)
        if v >= b:
            lower = v
            raised = True
        else:
            upper = v
            lowered = True
        if raised and lowered:
            b = (lower + upper + 1) // 2
        elif raised:
            b = lower + step
        else:
            b = upper - step + 1
        step *= 2
    return lower


@kernel
def best_cards(ctx, tt, T, F, mode, declarer_max, value, legal):
    """The mask of the cards of ``legal`` that keep the future gain ``value`` (the root's
    exact value): one null-window test each, restricted to that card."""
    seat = F[F_LEADER] + F[F_N]
    if seat >= N_SEATS:
        seat -= N_SEATS
    maximizing = (seat == ctx[X_DECLARER]) == (declarer_max != 0)
    set_mode(ctx, mode, declarer_max)
    out = np.int64(0)
    rest = legal
    while rest:
        card = lowest_bit_index(rest)
        rest &= rest - 1
        bit = np.int64(1) << card
        if maximizing:
            keeps = search(ctx, tt, T, F, value - 1, value, bit) >= value
        else:
            keeps = search(ctx, tt, T, F, value, value + 1, bit) <= value
        if keeps:
            out |= bit
    return out


@kernel
def card_values(ctx, tt, T, F, mode, declarer_max, guess, legal, values):
    """The exact future gain after each card of ``legal`` into ``values`` [32] (-1 for the
    other cards); one solve, the table shared between the cards."""
    for card in range(32):
        values[card] = -1
    rest = legal
    while rest:
        card = lowest_bit_index(rest)
        rest &= rest - 1
        guess = value_search(ctx, tt, T, F, mode, declarer_max, guess, np.int64(1) << card)
        values[card] = guess
    return legal


# ---- what the card play must reach: the win threshold of a declared game

NEVER = 122  # no card play wins the game (it cannot reach its bid)
SCHWARZ = 121  # only taking every trick wins


@kernel
def win_threshold(cards12, contract, bid, hand_game, schneider_ann, schwarz_ann, ouvert, T, res):
    """The fewest final card points (the Skat included) that win a suit or Grand game as
    `settle_into` settles it, or SCHWARZ (every trick needed) or NEVER. ``res``: N_SETTLE
    scratch. Winning is monotone in the points: 61..89 settle alike, 90..120 alike (Schneider
    reached), and taking every trick (120 points) adds the Schwarz level."""
    settle_into(cards12, contract, bid, 61, N_TRICKS - 1, hand_game, schneider_ann, schwarz_ann,
                ouvert, T, res)
    if res[X_WON]:
        return 61
    settle_into(cards12, contract, bid, 90, N_TRICKS - 1, hand_game, schneider_ann, schwarz_ann,
                ouvert, T, res)
    if res[X_WON]:
        return 90
    settle_into(cards12, contract, bid, 120, N_TRICKS, hand_game, schneider_ann, schwarz_ann,
                ouvert, T, res)
    return SCHWARZ if res[X_WON] else NEVER


# columns of the `solve_games` input: one declared game per row, the hands as play starts
(G_DEALER, G_DECLARER, G_CONTRACT, G_HAND, G_DISCARD, G_CARDS12, G_BID, G_HAND_GAME,
 G_SCHNEIDER_ANN, G_SCHWARZ_ANN, G_OUVERT) = (0, 1, 2, 3, 6, 7, 8, 9, 10, 11, 12)
N_GAME_COLUMNS = 13


@kernel
def start_game(g, T, ctx, tt, F, st, hands):
    """``st`` at the start of play of the declared game of a `solve_games` row ``g``, and a new
    solve from there. ``hands``: scratch of N_SEATS."""
    for seat in range(N_SEATS):
        hands[seat] = g[G_HAND + seat]
    new_state(st, hands, g[G_DEALER], g[G_CONTRACT], g[G_DECLARER], g[G_DISCARD], g[G_CARDS12],
              g[G_BID], g[G_HAND_GAME], g[G_SCHNEIDER_ANN], g[G_SCHWARZ_ANN], g[G_OUVERT], 0)
    start_solve(st, T, ctx, tt, F)


@kernel
def solve_game(g, T, ctx, tt, F, res):
    """(points, wins) of the game of row ``g`` from its start (`start_game` set the solve up):
    the declarer's final card points under perfect play (-1 in Null) and 1 when his perfect
    play makes the game's card-play requirements (Null: no trick; else the threshold of
    `win_threshold`). ``res``: N_SETTLE scratch."""
    contract = g[G_CONTRACT]
    if contract == NULL:
        return -1, 0 if at_least(ctx, tt, T, F, MODE_TRICKS, 0, 1, ALL_CARDS) else 1
    skat = mask_points(T, g[G_DISCARD])
    need = win_threshold(g[G_CARDS12], contract, g[G_BID], g[G_HAND_GAME], g[G_SCHNEIDER_ANN],
                         g[G_SCHWARZ_ANN], g[G_OUVERT], T, res)
    points = skat + value_search(ctx, tt, T, F, MODE_POINTS, 1, min(need, 61) - skat, ALL_CARDS)
    if need <= 120:
        return points, 1 if points >= need else 0
    if need == SCHWARZ:
        return points, 1 if at_least(ctx, tt, T, F, MODE_TRICKS, 1, N_TRICKS, ALL_CARDS) else 0
    return points, 0


@driver
def game_buffers():
    """(ctx, table, frames, state, hands scratch, settlement scratch) for a batch of solves."""
    ctx = np.zeros(CTX_SIZE, dtype=np.int64)
    ctx[X_TT_BITS] = TT_BITS
    return (ctx, np.zeros(TT_WIDTH << TT_BITS, dtype=np.int64),
            np.zeros(F_WIDTH * MAX_DEPTH, dtype=np.int64), np.zeros(STATE_SIZE, dtype=np.int64),
            np.zeros(N_SEATS, dtype=np.int64), np.zeros(N_SETTLE, dtype=np.int64))


@driver
def solve_games(games, T, points, wins, nodes):
    """The perfect-play answers at the start of play of many declared games (rows of
    ``games``, G_* columns): ``points`` the declarer's final card points (-1 in Null),
    ``wins`` 1 when his perfect play makes the game's card-play requirements (Null: no trick;
    else the threshold of `win_threshold`), ``nodes`` the positions searched."""
    ctx, tt, F, st, hands, res = game_buffers()
    for k in range(games.shape[0]):
        start_game(games[k], T, ctx, tt, F, st, hands)
        before = ctx[X_NODES]
        points[k], wins[k] = solve_game(games[k], T, ctx, tt, F, res)
        nodes[k] = ctx[X_NODES] - before
