"""The double-dummy search of Klaverjassen and Kraken: alpha-beta on the declaring party's margin.

The search plays on the deal state itself (simcards/engine/state.py): at every node it writes
the few header slots `legal_mask` reads (seat to move, cards in the trick, the led card, the
winning card and its position) and asks the ruleset's own legal-move kernel, so the solver
can never disagree with the simulator about what is legal. A card's effect on the trick is
`card_beats`, its points `card_points`, a trick's roem `trick_roem`: the same kernels
`apply_card` uses.

Values are *future* margins: what the declaring party (the seats of ``S_PARTY``) will still
gain from this node to the end of the deal, minus what the other party will gain. A trick
scores its card points (times a weight, 1 unless a caller needs multiplied points), the
last-trick 10 and its table roem for the party that wins it. What depends on the whole deal
rather than on one trick (the pit bonus, Kraken's hand roem that needs a trick) is an *end
bonus* indexed by which parties took at least one trick (``took``: bit 0 the declaring party,
bit 1 the other), given by the caller in ``ctx``.

Techniques:
- the value search (`mtdf_search`): null-window tests "is the future margin at least b?",
  the first at a guess, then steps doubling away from it until the value is bracketed, then
  bisection; each fail-soft answer moves a bound past b (plain MTD(f), one point at a time,
  took tens of tests on a margin of hundreds of points);
- a transposition table at trick boundaries, keyed by *relative rank* (quasi-symmetry, as in
  Kupferschmid and Helmert's Skat solver; `_table_key`): within one solve every card's holder
  is fixed, so the key holds the leader, ``took``, the exact ranks of the cards that can still
  take part in roem, and per suit only who holds its cards in power order. Positions of one key
  play alike (same legal cards, trick winners and roem) and their values differ by at most the
  points of the matched cards (`_point_shift`): an entry stored for other cards hands out its
  bounds widened by that much, and a position that takes the entry over keeps them so widened
  (they hold for it too) before its own result tightens them. Entries carry a lower and an
  upper bound, the best lead, the cards they were stored for and a generation stamp, so a new
  solve needs no clearing; buckets of two entries, one kept for the position with more cards,
  one always replaced;
- bounds at trick boundaries (`_future_bound`): one party takes every remaining point, the
  last-trick 10 and all roem it can still score (runs only from cards in different hands, the
  best set of disjoint runs per suit; a roem only for a party that could take the trick it
  falls in, `_roem_bound`; without the runs of a plain suit the other party can keep out of
  every trick, holding two of their cards, `_refusable_runs`), except what the other party
  surely wins: the top trumps one party holds take their tricks (`_sure_trumps`), or the
  leader's party cashes its quick tricks (`_quick_tricks`: its top cards of a suit while the
  seats that could ruff must follow), and a party sure of a trick cannot be pit. The quick
  tricks and the refused runs are strategies' results, so they bound a position's value but
  not that of a restricted root's cards;
- move ordering: the table's best lead first, then the killer card (the last card that cut
  off at the same depth, for leads and the third seat), then cards by a cheap heuristic (beat an
  opponent's winner with the richest card that does, smear the most points on the partner's
  trick at any seat, discard the cheapest; the trick's last card that makes table roem
  first when the mover's party takes the trick, last when the other does);
- the last two tricks are solved exactly without the frames (`_two_tricks`: alpha-beta over at
  most 16 lines of the first, the last one card each) after a table miss, and stored as exact,
  so the later tests of the value search cut on them;
- the per-node helpers are inlined into the search loop (``hot``): a call to a compiled
  function passes each array as seven words, more than the work of most of these helpers;
- rank equivalence, done carefully: two cards of one hand are interchangeable only when they
  have no points, no card held by another seat or lying in the trick sits between them in
  power, and (with table roem) neither can still take part in a sequence or four of a kind
  with the cards other hands hold (`_roem_capable`). Adjacent cards usually differ in points or
  in the sequences they complete, so only these truly equal cards are merged.

The search never names a seat's partner: parties come from ``S_PARTY`` and the seat after the
fourth card from ``leader + winning position``. A three-seat game (Skat) reuses the scheme with
its own legal-move and trick kernels (see the note in solver.py).
"""

from __future__ import annotations

import numpy as np

from simcards._jit import driver, hot, kernel
from simcards.cards import count_leading_zeros, count_trailing_zeros
from simcards.engine.state import (
    S_HAND,
    S_N_PLAYED,
    S_PARTY,
    S_TO_MOVE,
    S_TRICK,
    S_WIN_POS,
)
from simcards.games.klaverjas._kernels import (
    STATE_SIZE,
    S_DECLARER,
    S_LEADER,
    S_POINTS,
    S_ROEM,
    S_TRICKS,
    S_TRUMP,
    card_beats,
    legal_mask,
    new_state,
    rule,
    trick_roem,
)
from simcards.engine.transposition import INF, TT_WIDTH, bucket, claim, find, record
from simcards.games.klaverjas.rules import (
    LAST_TRICK_BONUS,
    PLAIN_POINTS,
    STUK_VALUE,
    PLAIN_POWER as PLAIN_POWER_BY_RANK,
    TRUMP_POWER as TRUMP_POWER_BY_RANK,
    R_DEFENDERS_PIT,
    T_STUK,
    TRUMP_POINTS,
    R_PIT_BONUS,
    R_TABLE_ROEM,
    RK,
    RQ,
    T_POINTS,
    T_POWER,
    T_TABLE_FOUR,
    table_sequence_value,
)

# trump ranks from the strongest down (J 9 A 10 K Q 8 7)
TRUMP_ORDER = np.argsort(-TRUMP_POWER_BY_RANK).astype(np.int64)

# ---- the search's per-card helpers, inlined (``hot``): called at every node, a call each to
# the shared kernels (arrays passed as seven words, a status check after each) cost more than
# their bodies


@hot
def lowest_bit_index(x):
    """`simcards.cards.lowest_bit_index`, inlined."""
    return count_trailing_zeros(x) & 63


@hot
def highest_bit_index(x):
    """`simcards.cards.highest_bit_index`, inlined."""
    return (63 - count_leading_zeros(x | 1)) & 63


@hot
def popcount(x):
    """Number of set bits of a non-negative int64 (`simcards.cards.popcount`, inlined)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56 & 0xFF


@hot
def card_points(T, trump, card):
    """`klaverjas._kernels.card_points`, inlined."""
    return T[T_POINTS + trump * 32 + card]


@hot
def _trick_roem(cards, trump, T):
    """`trick_roem` of a trick's ``cards``, called only when they hold three cards in sequence
    of one suit, four of a rank or the trump king and queen (most tricks hold none)."""
    runs = cards & (cards >> 1) & (cards >> 2) & np.int64(0x3F3F3F3F)
    fours = cards & (cards >> 8) & (cards >> 16) & (cards >> 24) & 0xFF
    stuk = T[T_STUK + trump]
    if runs == 0 and fours == 0 and cards & stuk != stuk:
        return 0
    return trick_roem(cards, trump, T)


# ---- the context array ``ctx``: search parameters and counters
X_END = 0  # 4 slots: end bonus by ``took`` (bit 0: the declaring party took a trick, bit 1: the other)
X_NODES = 4  # nodes searched (a counter the benchmark reads)
X_GEN = 5  # generation stamp of the current solve (transposition table entries of older ones are stale)
X_WEIGHT = 6  # weight of a card point (1; a caller deciding on multiplied points sets 2, 4, ...)
X_TT_BITS = 7  # log2 of the number of table entries
X_ROEM = 8  # 1 when table roem counts
X_PLAIN_POINTS = 16  # 256 slots: card points of a plain suit's 8-bit rank mask
X_TRUMP_POINTS = X_PLAIN_POINTS + 256  # 256 slots: the same for the trump suit
X_ORDER = X_TRUMP_POINTS + 256  # 128 slots: the move-ordering tables of the solve's trump (`_set_order`)
X_BEATERS = X_ORDER + 128  # 32 slots: the cards that beat each card, of the solve's trump (`_set_order`)
X_SUIT_CODES = X_BEATERS + 32  # 4 x 256 slots: a suit's key field by its rank mask, this solve (`_table_key`)
X_SUIT_ROEM = X_SUIT_CODES + 1024  # 4 x 256 slots: a suit's roem cards and bounds by its rank mask, this solve (`_suit_roem`)
X_FOUR_RANKS = X_SUIT_ROEM + 1024  # the ranks whose four of a kind scores table roem (`set_pit_bonus`)
X_ORDER_OF = X_FOUR_RANKS + 1  # generation stamp * 4 + trump of the ordering tables at X_ORDER (`root_search`)
X_POINT_VALUES = X_ORDER_OF + 1  # 1 + 64 slots: the number of point values, then (cards, points) per value, fewest first (`_set_order`)
CTX_SIZE = X_POINT_VALUES + 65

TT_BITS = 15  # 1.5 MB: 2% more nodes than 2^16 entries, fewer cache misses, no slower measured
FIRST_STEP = 16  # the first step of the value search away from its guess
ALL_CARDS = np.int64(-1)


def new_context(tt_bits: int = TT_BITS) -> tuple[np.ndarray, np.ndarray]:
    """A (ctx, transposition table) pair; reuse it across solves (the generation stamp keeps
    solves apart)."""
    ctx = np.zeros(CTX_SIZE, dtype=np.int64)
    init_context(ctx, tt_bits)
    return ctx, np.zeros(TT_WIDTH << tt_bits, dtype=np.int64)


@kernel
def init_context(ctx, tt_bits):
    """Fill a zeroed ``ctx``: weight 1, the table size, the per-suit point tables."""
    ctx[X_WEIGHT] = 1
    ctx[X_TT_BITS] = tt_bits
    for byte in range(256):
        plain = 0
        trump = 0
        for rank in range(8):
            if (byte >> rank) & 1:
                plain += PLAIN_POINTS[rank]
                trump += TRUMP_POINTS[rank]
        ctx[X_PLAIN_POINTS + byte] = plain
        ctx[X_TRUMP_POINTS + byte] = trump


@kernel
def set_pit_bonus(ctx, T):
    """End bonus of plain Klaverjassen: the pit bonus for a party that took every trick (the
    defenders only when the rules give it them). ``took`` 1 means only the declaring party took
    tricks, 2 only the other."""
    pit = rule(T, R_PIT_BONUS)
    ctx[X_END + 0] = 0
    ctx[X_END + 3] = 0
    ctx[X_END + 1] = pit
    ctx[X_END + 2] = -pit if rule(T, R_DEFENDERS_PIT) != 0 else 0
    ctx[X_ROEM] = rule(T, R_TABLE_ROEM)
    ctx[X_FOUR_RANKS] = 0
    for rank in range(8):
        if T[T_TABLE_FOUR + rank] != 0:
            ctx[X_FOUR_RANKS] |= 1 << rank


@kernel
def begin_solve(ctx, tt, F):
    """A new generation stamp (wipes the table when the stamp runs out) and no killer cards:
    a solve's search depends on its position only, not on the solves before it."""
    for depth in range(MAX_DEPTH):
        F[np.uint64(depth) * FRAME + F_KILLER] = 0
    ctx[X_GEN] += 1
    if ctx[X_GEN] >= (np.int64(1) << 26):
        tt[:] = 0
        ctx[X_SUIT_CODES:X_SUIT_CODES + 2048] = 0
        ctx[X_ORDER_OF] = 0
        ctx[X_GEN] = 1


@hot
def _power(T, trump, card):
    return T[T_POWER + 32 * trump + card]


@kernel
def _set_order(ctx, T, trump):
    """The move-ordering tables of ``trump``: every card's place in the order "most card points
    first (ties: the stronger card, then the lower id)" (slots 0..31, the card of each place in
    32..63; the first card to try holds the highest place) and in "fewest points first (ties:
    the weaker card, then the lower id)" (64..95 and 96..127; the first holds the lowest). A
    move list is then one bit per card to pick from, highest or lowest first. Also the mask of
    the cards that beat each card (`card_beats`), at ``X_BEATERS``, and the cards of each
    point value, at ``X_POINT_VALUES``."""
    for card in range(32):
        key = card_points(T, trump, card) * 16 + _power(T, trump, card)
        high = 0
        low = 0
        for other in range(32):
            other_key = card_points(T, trump, other) * 16 + _power(T, trump, other)
            if other_key < key or (other_key == key and other > card):
                high += 1
            if other_key < key or (other_key == key and other < card):
                low += 1
        ctx[X_ORDER + card] = high
        ctx[X_ORDER + 32 + high] = card
        ctx[X_ORDER + 64 + card] = low
        ctx[X_ORDER + 96 + low] = card
        beaters = np.int64(0)
        for other in range(32):
            if card_beats(other, card, trump, T):
                beaters |= np.int64(1) << other
        ctx[X_BEATERS + card] = beaters
    # the cards of each point value, fewest points first (`_smallest_points`)
    ctx[X_POINT_VALUES] = 0
    done = np.int64(0)
    while done != np.int64(0xFFFFFFFF):
        least = -1
        for card in range(32):
            if (done >> card) & 1 == 0 and (least < 0 or card_points(T, trump, card) < least):
                least = card_points(T, trump, card)
        cards = np.int64(0)
        for card in range(32):
            if card_points(T, trump, card) == least:
                cards |= np.int64(1) << card
        i = ctx[X_POINT_VALUES]
        ctx[X_POINT_VALUES + 1 + 2 * i] = cards
        ctx[X_POINT_VALUES + 2 + 2 * i] = least
        ctx[X_POINT_VALUES] = i + 1
        done |= cards


@hot
def _append_ordered(F, at, k, cards, ctx, highest):
    """Append ``cards`` to the move list of the frame at ``at`` (``k`` moves there already), most
    points first when ``highest``, else fewest first (`_set_order`); returns the new length."""
    table = X_ORDER if highest else X_ORDER + 64
    places = np.int64(0)
    rest = cards
    while rest:
        places |= np.int64(1) << ctx[table + lowest_bit_index(rest)]
        rest &= rest - 1
    while places:
        if highest:
            place = highest_bit_index(places)
        else:
            place = lowest_bit_index(places)
        places &= ~(np.int64(1) << place)
        F[at + F_MOVES + np.uint64(k)] = ctx[table + 32 + place]
        k += 1
    return k


@hot
def _roem_capable(cards, others, ctx):
    """The cards of ``cards`` (none of them in ``others``) that can still take part in table
    roem, ``others`` the cards that could share a trick with them: a run needs two cards of its
    suit next to it in rank among them, four of a kind (of a rank that counts) the three other
    cards of its rank. All cards at once: a card is the low, middle or high rank of a run."""
    runs = (((others >> 1) & (others >> 2) & np.int64(0x3F3F3F3F))
            | ((others << 1) & (others >> 1) & np.int64(0x7E7E7E7E))
            | ((others << 1) & (others << 2) & np.int64(0xFCFCFCFC)))
    a = others & 0xFF
    b = (others >> 8) & 0xFF
    c = (others >> 16) & 0xFF
    d = (others >> 24) & 0xFF
    three = ((a & b & (c | d)) | (c & d & (a | b))) & ~(a & b & c & d) & ctx[X_FOUR_RANKS]
    return cards & (runs | (~others & (three * np.int64(0x01010101))))


@hot
def _equivalent_tried(card, tried, hand, others, trump, T, ctx):
    """Is ``card`` interchangeable with a card of ``tried`` (both in the mover's ``hand``)?
    ``others``: every card still in play that the mover does not hold (other hands, the trick).
    Both must score no points, no card of ``others`` may lie between them in power, and with
    table roem neither may be able to take part in roem (`_roem_capable`): then swapping them in
    any line changes no trick's winner, points or roem."""
    points = card_points(T, trump, card)
    if points != 0:
        return False
    suit_base = card & 0x38
    suit = np.int64(0xFF) << suit_base
    candidates = tried & suit
    if candidates == 0:
        return False
    capable = np.int64(0)
    if ctx[X_ROEM] != 0:
        capable = _roem_capable(candidates | (np.int64(1) << card), others, ctx)
        if (capable >> card) & 1:
            return False
    mine = _power(T, trump, card)
    rest = candidates
    while rest:
        other = lowest_bit_index(rest)
        rest &= rest - 1
        if card_points(T, trump, other) != 0:
            continue
        if (capable >> other) & 1:
            continue
        theirs = _power(T, trump, other)
        low = min(mine, theirs)
        high = max(mine, theirs)
        between = False
        probe = others & suit
        while probe:
            c = lowest_bit_index(probe)
            probe &= probe - 1
            p = _power(T, trump, c)
            if low < p < high:
                between = True
                break
        if not between:
            return True
    return False


@kernel
def _one_each(st, cards):
    """Do the ``cards`` lie in different hands (so that one trick can hold them all)?"""
    for seat in range(4):
        mine = st[S_HAND + seat] & cards
        if mine & (mine - 1) != 0:
            return False
    return True


def _window_packing() -> np.ndarray:
    """Most sequence roem one suit can still make, by which runs are possible: index bits 0..5
    say three ranks from rank ``bit`` up could fall in one trick, bits 6..10 the same for four
    ranks from ``bit - 6`` up. A trick takes at most one run of a suit and a card falls once,
    so the roem is that of the best set of disjoint runs."""
    windows = [(7 << low, table_sequence_value(3)) for low in range(6)]
    windows += [(15 << low, table_sequence_value(4)) for low in range(5)]
    out = np.zeros(1 << len(windows), dtype=np.int64)
    for q in range(1, 1 << len(windows)):
        i = (q & -q).bit_length() - 1  # without window i, or with it and no window it overlaps
        clash = sum(1 << j for j, (w, _) in enumerate(windows) if w & windows[i][0])
        out[q] = max(out[q & ~(1 << i)], windows[i][1] + out[q & ~clash])
    return out


RUN_PACKING = _window_packing()


@kernel
def _run_windows(st, remaining):
    """(threes, fours): bit ``8 * suit + low`` set when the ranks ``low``.. ``low + 2``
    (``low + 3``) of the suit all remain with no hand holding two of them, so that one trick
    (one card of each hand) could hold that run. All four suits at once: the masks keep only
    windows inside a suit, whose pairs of ranks lie inside it too."""
    clash3 = np.int64(0)
    clash4 = np.int64(0)
    for seat in range(4):
        mine = st[S_HAND + seat]
        near1 = mine & (mine >> 1)
        near2 = mine & (mine >> 2)
        clash3 |= near1 | (near1 >> 1) | near2
        clash4 |= near1 | (near1 >> 1) | (near1 >> 2) | near2 | (near2 >> 1) | (mine & (mine >> 3))
    full3 = remaining & (remaining >> 1) & (remaining >> 2)
    full4 = full3 & (remaining >> 3)
    return full3 & ~clash3 & np.int64(0x3F3F3F3F), full4 & ~clash4 & np.int64(0x1F1F1F1F)


def _window_tops() -> tuple[np.ndarray, np.ndarray]:
    """[kind, low]: the strongest rank of the run window of three ranks from rank ``low`` up
    (slots 0..5) and of four ranks (slots 6..10), kind 0 a plain suit, 1 the trumps; [rank]:
    the mask of the trump ranks stronger than ``rank``."""
    tops = np.zeros((2, 11), dtype=np.int64)
    for kind, power in enumerate((PLAIN_POWER_BY_RANK, TRUMP_POWER_BY_RANK)):
        for low in range(6):
            tops[kind, low] = max(range(low, low + 3), key=lambda r: power[r])
        for low in range(5):
            tops[kind, 6 + low] = max(range(low, low + 4), key=lambda r: power[r])
    stronger = np.array([sum(1 << q for q in range(8) if TRUMP_POWER_BY_RANK[q] > TRUMP_POWER_BY_RANK[r])
                         for r in range(8)], dtype=np.int64)
    return tops, stronger


WINDOW_TOP, TRUMP_STRONGER = _window_tops()


@hot
def _holder(low_bits, high_bits, rank):
    """The seat holding the card of ``rank`` of a suit, from the suit's bytes of seats 1 | 3
    (``low_bits``) and 2 | 3 (``high_bits``); seat 0 when no other holds it."""
    return ((low_bits >> rank) & 1) | (((high_bits >> rank) & 1) << 1)


@hot
def _side_of(party_seats, seat):
    """1 for a seat of the declaring party, 2 for the other."""
    return 1 if (party_seats >> seat) & 1 else 2


# `_suit_roem` packs a suit's roem cards (bits 0..7) and four credits of 7 bits (a suit's
# runs make at most 100, with stuk 120): each party's, and each party's once the other party
# refuses the runs it can (`_refusable_runs`); the generation stamp above them
SR_MINE = 8
SR_THEIRS = 15
SR_MINE_REFUSED = 22
SR_THEIRS_REFUSED = 29
SR_FIELD = 0x7F
SR_STAMP = 36


@kernel
def _refusable_runs(st, base, byte, party_seats, low_bits, high_bits, open3, open4, refused):
    """The run windows of a plain suit (bits as in `_suit_roem_of`: 0..5 runs of three, 6..10
    runs of four) that the party other than ``refused`` (1: the declaring party, 2: the other)
    can keep out of every trick, whatever the refused party plays.

    Such a window holds one card of each of the refusing party's two hands, A and B: the
    window's pair. The refusing party never lets both cards of a pair into one trick: the later
    of A and B to play sees the earlier one's card and answers it with another card, which it
    can unless its only legal card is that pair card (the suit is led and it holds no other
    card of it, or it holds no other card at all). A and B play cards of this suit only when it
    is led, when one of them leads it, or when one discards, and each time they choose which
    (a plain suit has no duty to beat). When no card lies in two pairs they can therefore keep
    from ever being left with one card of the suit each that form a pair: a trick that takes a
    card of the suit from each while one of them holds two or more can take them so that what
    is left holds no pair (each card has at most one partner). So the windows are refused
    together, unless some card lies in two pairs or A and B are already down to one card of
    the suit each and those form a pair; then none is."""
    pairs = np.int64(0)  # 4 bits per rank: 1 + the rank of its pair's other card (0: none)
    refuse = np.int64(0)
    for window in range(11):
        if window < 6:
            if (open3 >> window) & 1 == 0:
                continue
            low = window
            span = 3
        else:
            if (open4 >> (window - 6)) & 1 == 0:
                continue
            low = window - 6
            span = 4
        first = -1
        second = -1
        count = 0
        for rank in range(low, low + span):
            seat = _holder(low_bits, high_bits, rank)
            if _side_of(party_seats, seat) != refused:
                count += 1
                if first < 0:
                    first = rank
                else:
                    second = rank
        if count != 2:  # a run of three with one card of the refusing party: not refused
            continue
        known_first = (pairs >> (4 * first)) & 15
        known_second = (pairs >> (4 * second)) & 15
        if known_first == 0 and known_second == 0:
            pairs |= (np.int64(second + 1) << (4 * first)) | (np.int64(first + 1) << (4 * second))
        elif known_first != second + 1 or known_second != first + 1:
            return 0  # a card in two pairs
        refuse |= 1 << window
    if refuse == 0:
        return 0
    single = np.int64(0)
    for seat in range(4):
        if _side_of(party_seats, seat) != refused:
            held = (st[S_HAND + seat] >> base) & byte
            if held & (held - 1):
                return refuse  # one of A and B holds two cards of the suit
            single |= held
    # A and B hold one card of the suit each (both do: each holds a card of a pair)
    a = lowest_bit_index(single)
    b = highest_bit_index(single)
    if ((pairs >> (4 * a)) & 15) == b + 1:
        return 0
    return refuse


@kernel
def _suit_roem_of(st, base, byte, kind, trump_kind_stuk):
    """`_suit_roem` computed: the suit at bit ``base`` holds the ranks ``byte`` (``kind`` 1 for
    the trumps), ``trump_kind_stuk`` its stuk cards (0 for a plain suit)."""
    party_seats = st[S_PARTY]
    cards = byte << base
    low_bits = ((st[S_HAND + 1] | st[S_HAND + 3]) >> base) & byte
    high_bits = ((st[S_HAND + 2] | st[S_HAND + 3]) >> base) & byte
    threes, fours = _run_windows(st, cards)
    open3 = (threes >> base) & 0x3F
    open4 = (fours >> base) & 0x1F
    roem_bits = (open3 | (open3 << 1) | (open3 << 2)) & 0xFF
    q_mine = 0
    q_theirs = 0
    for low in range(6):
        if (open3 >> low) & 1:
            top = WINDOW_TOP[kind, low]
            fourth = 6 - (_holder(low_bits, high_bits, low) + _holder(low_bits, high_bits, low + 1)
                          + _holder(low_bits, high_bits, low + 2))
            who = _side_of(party_seats, _holder(low_bits, high_bits, top))
            if kind == 0 or (st[S_HAND + fourth] >> base) & TRUMP_STRONGER[top]:
                who |= _side_of(party_seats, fourth)
            if who & 1:
                q_mine |= 1 << low
            if who & 2:
                q_theirs |= 1 << low
    for low in range(5):
        if (open4 >> low) & 1:
            if _side_of(party_seats, _holder(low_bits, high_bits, WINDOW_TOP[kind, 6 + low])) == 1:
                q_mine |= 1 << (6 + low)
            else:
                q_theirs |= 1 << (6 + low)
    mine = RUN_PACKING[q_mine]
    theirs = RUN_PACKING[q_theirs]
    mine_refused = mine
    theirs_refused = theirs
    if kind == 0:
        mine_refused = RUN_PACKING[q_mine & ~_refusable_runs(
            st, base, byte, party_seats, low_bits, high_bits, open3, open4, 1)]
        theirs_refused = RUN_PACKING[q_theirs & ~_refusable_runs(
            st, base, byte, party_seats, low_bits, high_bits, open3, open4, 2)]
    stuk = trump_kind_stuk
    if stuk != 0 and cards & stuk == stuk and _one_each(st, stuk):
        roem_bits |= (stuk >> base) & 0xFF
        king_seat = _holder(low_bits, high_bits, RK)
        queen_seat = _holder(low_bits, high_bits, RQ)
        who = _side_of(party_seats, king_seat)
        for seat in range(4):
            if (seat != king_seat and seat != queen_seat
                    and (st[S_HAND + seat] >> base) & TRUMP_STRONGER[RK]):
                who |= _side_of(party_seats, seat)
        mine += STUK_VALUE if who & 1 else 0
        theirs += STUK_VALUE if who & 2 else 0
        mine_refused += STUK_VALUE if who & 1 else 0
        theirs_refused += STUK_VALUE if who & 2 else 0
    return (roem_bits | (mine << SR_MINE) | (theirs << SR_THEIRS)
            | (mine_refused << SR_MINE_REFUSED) | (theirs_refused << SR_THEIRS_REFUSED))


@hot
def _suit_roem(st, T, ctx, suit, byte, trump):
    """The table roem of the suit ``suit`` holding the ranks ``byte``, runs and (of the trumps)
    stuk, packed: its cards that can still take part in them (bits 0..7, `_table_key`) and the
    most of it the declaring party (bits 8..15) and the other (16..23) can still score
    (`_roem_bound`). Within a solve every card's holder is fixed, so it depends on ``byte``
    only and is kept per solve."""
    slot = X_SUIT_ROEM + 256 * suit + byte
    if (ctx[slot] >> SR_STAMP) == ctx[X_GEN]:
        return ctx[slot] & ((np.int64(1) << SR_STAMP) - 1)
    kind = 1 if suit == trump else 0
    packed = _suit_roem_of(st, 8 * suit, byte, kind, T[T_STUK + trump] if kind else np.int64(0))
    ctx[slot] = (ctx[X_GEN] << SR_STAMP) | packed
    return packed


@hot
def _roem_fours(st, ctx, remaining):
    """The ranks of the fours of a kind that can still score table roem: all four cards remain,
    in different hands."""
    common = (remaining & (remaining >> 8) & (remaining >> 16) & (remaining >> 24)
              & ctx[X_FOUR_RANKS] & 0xFF)
    fours = np.int64(0)
    while common:
        rank = lowest_bit_index(common)
        common &= common - 1
        if _one_each(st, np.int64(0x01010101) << rank):
            fours |= np.int64(1) << rank
    return fours


@hot
def _roem_bound(st, T, ctx, remaining, trump):
    """(declaring party, other party): most table roem each party can still score. Of the
    remaining cards, per suit the best set of disjoint runs whose cards lie in different hands
    (`_run_windows`, `RUN_PACKING`), four of a kind and stuk only when their cards lie in
    different hands; each counted only for the parties that could take the trick it falls in
    (one card of each hand):
    - a run of three: the holder of its strongest card, which beats the run's other two, or
      the fourth seat, the one holding none of them (it may lead another suit the three cannot
      follow, play a stronger card of the suit, or trump) - but of a trump run only when the
      fourth seat holds a stronger trump;
    - a run of four: the holder of its strongest card (every seat plays a card of the run);
    - four of a kind: the holder of its trump;
    - stuk: the king's holder, or one of the two other seats that holds a stronger trump.
    The runs and stuk per suit come from `_suit_roem` (kept per solve). Within a solve only:
    a caller with other hands starts a new one (`begin_solve`)."""
    mine = np.int64(0)
    theirs = np.int64(0)
    mine_refused = np.int64(0)
    theirs_refused = np.int64(0)
    for suit in range(4):
        byte = (remaining >> (8 * suit)) & 0xFF
        if byte != 0:
            packed = _suit_roem(st, T, ctx, suit, byte, trump)
            mine += (packed >> SR_MINE) & SR_FIELD
            theirs += (packed >> SR_THEIRS) & SR_FIELD
            mine_refused += (packed >> SR_MINE_REFUSED) & SR_FIELD
            theirs_refused += (packed >> SR_THEIRS_REFUSED) & SR_FIELD
    fours = _roem_fours(st, ctx, remaining)
    while fours:
        rank = lowest_bit_index(fours)
        fours &= fours - 1
        trump_card = np.int64(1) << (8 * trump + rank)
        declaring = False
        for seat in range(4):
            if st[S_HAND + seat] & trump_card:
                declaring = (st[S_PARTY] >> seat) & 1 == 1
        if declaring:
            mine += T[T_TABLE_FOUR + rank]
            mine_refused += T[T_TABLE_FOUR + rank]
        else:
            theirs += T[T_TABLE_FOUR + rank]
            theirs_refused += T[T_TABLE_FOUR + rank]
    return mine, theirs, mine_refused, theirs_refused


@hot
def _smallest_points(hand, m, ctx):
    """The least card points ``m`` cards of ``hand`` can hold: from the fewest points up, as
    many cards of each point value as the hand holds (`_set_order` keeps the cards of each
    value of the solve's trump)."""
    total = 0
    left = m
    for i in range(ctx[X_POINT_VALUES]):
        if left <= 0:
            break
        take = min(left, popcount(hand & ctx[X_POINT_VALUES + 1 + 2 * i]))
        total += take * ctx[X_POINT_VALUES + 2 + 2 * i]
        left -= take
    return total


@kernel
def _sure_trumps(st, T, ctx, remaining, trump):
    """(party, points) a party surely wins: the top remaining trumps held by one party (1: the
    declaring party, 2: the other, 0: none) each take the trick they fall in, since every
    higher trump lies in the same party; those tricks also hold one card of each opponent's
    hand, at least its cheapest, and of each hand of the party that holds none of them."""
    party_seats = st[S_PARTY]
    mine = np.int64(0)
    for seat in range(4):
        if (party_seats >> seat) & 1:
            mine |= st[S_HAND + seat]
    trumps = remaining & (np.int64(0xFF) << (8 * trump))
    if trumps == 0:
        return 0, 0
    owner = 0
    sure = np.int64(0)
    for i in range(8):
        bit = np.int64(1) << (8 * trump + TRUMP_ORDER[i])
        if trumps & bit == 0:
            continue
        side = 1 if mine & bit else 2
        if owner == 0:
            owner = side
        elif side != owner:
            break
        sure |= bit
    points = ctx[X_TRUMP_POINTS + ((sure >> (8 * trump)) & 0xFF)]
    tricks = 0
    for seat in range(4):
        tricks = max(tricks, popcount(st[S_HAND + seat] & sure))
    for seat in range(4):
        side = 1 if (party_seats >> seat) & 1 else 2
        hand = st[S_HAND + seat]
        if side != owner or hand & sure == 0:
            points += _smallest_points(hand, tricks, ctx)
    return owner, points


@kernel
def _future_bound(st, T, ctx, remaining, took, leader):
    """(lowest, highest) future margin at a trick boundary, ``leader`` to lead (-1: bounds that
    hold for every line, without the quick tricks, which hold for the best): one party takes
    every remaining point, the last-trick 10 and all roem it can still score (`_roem_bound`),
    except the points the other party surely wins: its top trumps (`_sure_trumps`) or, for the
    leader's party, its quick tricks (`_quick_tricks`), whichever gives more (they may be the
    same tricks, so they do not add up). A party's runs that the other can refuse
    (`_refusable_runs`) count only in the bound from the top trumps: the quick tricks are a
    strategy of their own, which need not be the refusing one; each party's bound is the
    better of the two."""
    trump = st[S_TRUMP] & 3
    points = LAST_TRICK_BONUS
    for suit in range(4):
        byte = (remaining >> (8 * suit)) & 0xFF
        points += ctx[(X_TRUMP_POINTS if suit == trump else X_PLAIN_POINTS) + byte]
    spread = points * ctx[X_WEIGHT]
    roem_declaring = np.int64(0)
    roem_other = np.int64(0)
    refused_declaring = np.int64(0)
    refused_other = np.int64(0)
    if ctx[X_ROEM] != 0:
        roem_declaring, roem_other, refused_declaring, refused_other = _roem_bound(
            st, T, ctx, remaining, trump)
    if leader < 0:  # a restricted root: its leader's card is given, not its strategy's
        refused_declaring = roem_declaring
        refused_other = roem_other
    owner, sure = _sure_trumps(st, T, ctx, remaining, trump)
    sure_declaring = sure if owner == 1 else 0
    sure_other = sure if owner == 2 else 0
    weight = 2 * ctx[X_WEIGHT]
    reach = took | owner  # a party with a sure trick will have taken one
    low_end, high_end = _end_range(ctx, reach)
    # the sure trumps win whatever the play, so they go with the refused runs (the refusing
    # party's strategy)
    low = low_end - spread - refused_other + sure_declaring * weight
    high = high_end + spread + refused_declaring - sure_other * weight
    quick = _quick_tricks(st, T, ctx, remaining, leader, trump) if leader >= 0 else 0
    if quick > 0:
        # the quick tricks are the leader's party's strategy, which need not refuse runs: a
        # bound of its own, with every run
        if (st[S_PARTY] >> leader) & 1:
            sure_declaring = max(sure_declaring, quick)
            reach |= 1
        else:
            sure_other = max(sure_other, quick)
            reach |= 2
        low_end, high_end = _end_range(ctx, reach)
        low = max(low, low_end - spread - roem_other + sure_declaring * weight)
        high = min(high, high_end + spread + roem_declaring - sure_other * weight)
    return low, high


@hot
def _end_range(ctx, reach):
    """(lowest, highest) end bonus of the ``took`` values that include ``reach``."""
    low = INF
    high = -INF
    for end in range(4):
        if end & reach == reach:
            low = min(low, ctx[X_END + end])
            high = max(high, ctx[X_END + end])
    return low, high


@hot
def _sum_fields(packed, count):
    """Sum of the first ``count`` 5-bit fields of ``packed``."""
    total = 0
    for _ in range(count):
        total += packed & 31
        packed >>= 5
    return total


@kernel
def _quick_tricks(st, T, ctx, remaining, leader, trump):
    """Card points the party of ``leader`` surely wins at a trick boundary by cashing its top
    cards at once (the quick tricks of double-dummy bridge). The leader leads its cards of a
    plain suit that beat every remaining card of the suit in other hands; a seat holding trumps
    follows suit as long as it has the suit, and is counted on for no more tricks than that (a
    void opponent would ruff, a void partner may have to: Rotterdam makes it, and then the
    partner leads), a seat without trumps cannot take such a trick at all; so each of these
    tricks is the leader's and it keeps the lead. Then the leader's trumps above every other
    remaining trump, which nobody can beat. Cashing a suit leaves the other suits' counts of
    the seats with trumps untouched (they follow suit), so the suits add up. The points: the
    leader's cashed cards, and of every other seat the cheapest cards it must follow with
    (what it may discard counts 0); the last-trick 10 when these are all the tricks left."""
    hand = st[S_HAND + leader]
    trump_cards = np.int64(0xFF) << (8 * trump)
    holds_trump = 0  # bit per seat: the seat holds a trump
    for seat in range(4):
        if st[S_HAND + seat] & trump_cards:
            holds_trump |= 1 << seat
    points = 0
    tricks = 0
    for suit in range(4):
        base = 8 * suit
        mine = (hand >> base) & 0xFF
        if mine == 0:
            continue
        kind = 1 if suit == trump else 0
        outside = ((remaining & ~hand) >> base) & 0xFF
        mine_power = POWER_BITS[kind, mine]
        outside_power = POWER_BITS[kind, outside]
        top = mine_power
        if outside_power:
            top &= (outside_power & -outside_power) - 1
        cash = popcount(top)
        if cash == 0:
            continue
        if suit != trump:
            for seat in range(4):
                if seat != leader and (holds_trump >> seat) & 1:
                    cash = min(cash, popcount((st[S_HAND + seat] >> base) & 0xFF))
            if cash == 0:
                continue
        points += _sum_fields(POINTS_IN_ORDER[kind, mine], cash)
        for seat in range(4):
            if seat != leader:
                theirs = (st[S_HAND + seat] >> base) & 0xFF
                points += _sum_fields(CHEAPEST_FIRST[kind, theirs], min(cash, popcount(theirs)))
        tricks += cash
    if tricks == popcount(hand):
        points += LAST_TRICK_BONUS
    return points


@hot
def _last_trick(st, T, ctx, leader, took, played):
    """Value of the last trick plus the end bonus: every hand holds one card besides those of
    ``played`` (the cards of the trick before, in `_two_tricks`; else none)."""
    trump = st[S_TRUMP] & 3
    party = st[S_PARTY]
    best = lowest_bit_index(st[S_HAND + leader] & ~played)
    win_pos = 0
    points = card_points(T, trump, best)
    mask = np.int64(1) << best
    seat = leader
    for pos in range(1, 4):
        seat = (seat + 1) & 3
        card = lowest_bit_index(st[S_HAND + seat] & ~played)
        points += card_points(T, trump, card)
        mask |= np.int64(1) << card
        if card_beats(card, best, trump, T):
            best = card
            win_pos = pos
    winner = (leader + win_pos) & 3
    gain = (points + LAST_TRICK_BONUS) * ctx[X_WEIGHT]
    if ctx[X_ROEM] != 0:
        gain += _trick_roem(mask, trump, T)
    if (party >> winner) & 1:
        return gain + ctx[X_END + (took | 1)]
    return ctx[X_END + (took | 2)] - gain


@hot
def _trick_header(st, seat, n, led, win_pos, best):
    """The header slots `legal_mask` reads: ``seat`` to play the ``n``-th card of a trick led
    by ``led``, ``best`` winning at ``win_pos``."""
    st[S_TO_MOVE] = seat
    st[S_N_PLAYED] = n
    st[S_TRICK] = led
    st[S_WIN_POS] = win_pos
    st[S_TRICK + win_pos] = best


@hot
def _take(value, child, low, high, maximizing):
    """Alpha-beta at one level of `_two_tricks`: the level's (value, window low, window high,
    cut-off) after a child's value."""
    if maximizing:
        value = max(value, child)
        return value, max(low, value), high, value >= high
    value = min(value, child)
    return value, low, min(high, value), value <= low


@kernel
def _two_tricks(st, T, ctx, leader, took):
    """Exact future margin when every hand holds two cards, ``leader`` to lead: alpha-beta in
    the full window over the lines of the first trick (at most 16; the last trick follows, one
    card each)."""
    trump = st[S_TRUMP] & 3
    party = st[S_PARTY]
    weight = ctx[X_WEIGHT]
    roem_on = ctx[X_ROEM] != 0
    seat1 = (leader + 1) & 3
    seat2 = (leader + 2) & 3
    seat3 = (leader + 3) & 3
    max0 = (party >> leader) & 1
    max1 = (party >> seat1) & 1
    max2 = (party >> seat2) & 1
    max3 = (party >> seat3) & 1
    _trick_header(st, leader, 0, 0, 0, 0)
    rest0 = legal_mask(st, T)
    value0 = -INF if max0 else INF
    low0 = -INF
    high0 = INF
    while rest0:
        card0 = lowest_bit_index(rest0)
        rest0 &= rest0 - 1
        _trick_header(st, seat1, 1, card0, 0, card0)
        rest1 = legal_mask(st, T)
        value1 = -INF if max1 else INF
        low1 = low0
        high1 = high0
        while rest1:
            card1 = lowest_bit_index(rest1)
            rest1 &= rest1 - 1
            best1, pos1 = (card1, 1) if card_beats(card1, card0, trump, T) else (card0, 0)
            _trick_header(st, seat2, 2, card0, pos1, best1)
            rest2 = legal_mask(st, T)
            value2 = -INF if max2 else INF
            low2 = low1
            high2 = high1
            while rest2:
                card2 = lowest_bit_index(rest2)
                rest2 &= rest2 - 1
                best2, pos2 = (card2, 2) if card_beats(card2, best1, trump, T) else (best1, pos1)
                _trick_header(st, seat3, 3, card0, pos2, best2)
                rest3 = legal_mask(st, T)
                value3 = -INF if max3 else INF
                low3 = low2
                high3 = high2
                while rest3:
                    card3 = lowest_bit_index(rest3)
                    rest3 &= rest3 - 1
                    pos3 = 3 if card_beats(card3, best2, trump, T) else pos2
                    cards = ((np.int64(1) << card0) | (np.int64(1) << card1)
                             | (np.int64(1) << card2) | (np.int64(1) << card3))
                    gain = (card_points(T, trump, card0) + card_points(T, trump, card1)
                            + card_points(T, trump, card2) + card_points(T, trump, card3)) * weight
                    if roem_on:
                        gain += _trick_roem(cards, trump, T)
                    winner = (leader + pos3) & 3
                    if (party >> winner) & 1:
                        line = gain + _last_trick(st, T, ctx, winner, took | 1, cards)
                    else:
                        line = _last_trick(st, T, ctx, winner, took | 2, cards) - gain
                    value3, low3, high3, cut = _take(value3, line, low3, high3, max3)
                    if cut:
                        break
                value2, low2, high2, cut = _take(value2, value3, low2, high2, max2)
                if cut:
                    break
            value1, low1, high1, cut = _take(value1, value2, low1, high1, max1)
            if cut:
                break
        value0, low0, high0, cut = _take(value0, value1, low0, high0, max0)
    return value0


# ---- the search frames: one row of F_WIDTH slots per card played below the root. The search
# keeps its own stack rather than recursing: a lazily typed recursive function breaks Numba's
# cache, and a recursive one with an explicit signature (which the cache holds, given int64
# arguments only) searched the same positions 10% slower, a call a card. A frame's start
# ``at`` and its slot offsets are unsigned: Numba adds a check for a negative index to every
# access with a signed one, and the frame accesses are most of the search's work (unsigned
# indices measured 11-14% faster). Cast a signed count with ``np.uint64`` before adding it:
# uint64 plus int64 is a float64 in Numba.
(F_LEADER, F_N, F_LED, F_BEST, F_WIN_POS, F_TRICK_MASK, F_TRICK_POINTS, F_TOOK, F_ALPHA, F_BETA,
 F_ALPHA0, F_BETA0, F_VALUE, F_BEST_CARD, F_SLOT, F_KEY, F_HAND, F_SEAT, F_MAX, F_TRIED,
 F_N_MOVES, F_NEXT, F_GAIN, F_CARD, F_OTHERS, F_KEY2, F_KEY3) = (np.uint64(i) for i in range(27))
F_MOVES = np.uint64(27)  # 8 slots: the cards to try, in order
F_KILLER = np.uint64(35)  # 1 + the card that last cut off at this depth (0: none), kept across siblings
F_WIDTH = 36
FRAME = np.uint64(F_WIDTH)
ROOT = np.uint64(0)  # the root's frame
MAX_DEPTH = 33


def new_frames() -> np.ndarray:
    return np.zeros(F_WIDTH * MAX_DEPTH, dtype=np.int64)


@hot
def _order_moves(F, at, legal, tt_move, st, T, ctx, n, best, win_pos, leader, party, maximizing):
    """Write the cards of ``legal`` to try into the frame at ``at``, best guess first: the
    table's move, the depth's killer card (leads and third seat), then (leading, or on the
    partner's trick) the most points first; against an opponent's winning card the cards that
    beat it, richest first, then the rest cheapest first. The last seat's cards that make
    table roem go first when its party takes the trick with them, last when the other party
    does. Returns their number."""
    trump = st[S_TRUMP] & 3
    k = 0
    rest_all = legal
    if tt_move >= 0 and (legal >> tt_move) & 1:
        F[at + F_MOVES] = tt_move
        k = 1
        rest_all &= ~(np.int64(1) << tt_move)
    # the killer: the card that last cut off at this depth, where it is legal again. It pays
    # on leads and for the third seat only (fewer nodes in measurement; second and last
    # seats do better by the heuristic alone)
    killer = F[at + F_KILLER] - 1
    if (n == 0 or n == 2) and killer >= 0 and (rest_all >> killer) & 1:
        F[at + F_MOVES + np.uint64(k)] = killer
        k += 1
        rest_all &= ~(np.int64(1) << killer)
    # the last card of a trick that would make table roem: first when the mover's party takes
    # the trick with it, last when the other does (the trick's outcome is known)
    good = np.int64(0)
    bad = np.int64(0)
    if n == 3 and ctx[X_ROEM] != 0:
        trick = F[at + F_TRICK_MASK]
        rest = rest_all
        while rest:
            card = lowest_bit_index(rest)
            rest &= rest - 1
            if _trick_roem(trick | (np.int64(1) << card), trump, T) > 0:
                beats = (ctx[X_BEATERS + best] >> card) & 1
                if beats or ((party >> ((leader + win_pos) & 3)) & 1) == maximizing:
                    good |= np.int64(1) << card
                else:
                    bad |= np.int64(1) << card
        if good | bad:
            k = _append_ordered(F, at, k, good, ctx, True)
            rest_all &= ~(good | bad)
    # richest first, also where a cheap winner or a held-back smear looks natural: the
    # margin's bound is found sooner (fewer nodes in measurement than cheapest-first)
    first = rest_all
    second = np.int64(0)
    if n > 0 and ((party >> ((leader + win_pos) & 3)) & 1) != maximizing:
        first = rest_all & ctx[X_BEATERS + best]  # an opponent's trick: beat it
        second = rest_all & ~first
    k = _append_ordered(F, at, k, first, ctx, True)
    k = _append_ordered(F, at, k, second, ctx, False)
    return _append_ordered(F, at, k, bad, ctx, False)


@hot
def _enter(st, T, ctx, tt, F, at, only):
    """Set up the node of the frame at ``at`` (its position slots filled in). Returns
    (True, value) when the node is settled at once (end of the deal, the last trick, a table
    cut-off), else (False, 0) with its moves ordered."""
    ctx[X_NODES] += 1
    leader = F[at + F_LEADER]
    n = F[at + F_N]
    took = F[at + F_TOOK]
    seat = (leader + n) & 3
    remaining = st[S_HAND] | st[S_HAND + 1] | st[S_HAND + 2] | st[S_HAND + 3]
    alpha = F[at + F_ALPHA]
    beta = F[at + F_BETA]
    slot = -1
    key = np.int64(0)
    key2 = np.int64(0)
    key3 = np.int64(0)
    tt_move = -1
    if n == 0:
        if remaining == 0:
            return True, ctx[X_END + took]
        if popcount(st[S_HAND + seat]) == 1:
            return True, _last_trick(st, T, ctx, leader, took, np.int64(0))
        if only == ALL_CARDS:  # the table first: most probes hit, and the bound costs more
            key, key2, key3 = _table_key(st, T, ctx, remaining, leader, took)
            slot = bucket(key, key2, key3, ctx[X_TT_BITS])
            e = find(tt, slot, key, key2, key3)
            if e >= 0:
                lower = tt[e + 3]
                upper = tt[e + 4]
                tt_move = tt[e + 5] & 63
                tt_move = -1 if tt_move == 63 else tt_move
                stored = tt[e + 5] >> 6
                if stored != remaining:  # the entry of a position of the same shape
                    trump = st[S_TRUMP] & 3
                    shift = _point_shift(trump, stored, remaining) * ctx[X_WEIGHT]
                    lower -= shift
                    upper += shift
                    if tt_move >= 0:
                        tt_move = _mapped_card(trump, stored, remaining, tt_move)
                if lower >= beta:
                    return True, lower
                if upper <= alpha:
                    return True, upper
                if lower == upper:
                    return True, lower
                alpha = max(alpha, lower)
                beta = min(beta, upper)
        if popcount(st[S_HAND + seat]) == 2 and only == ALL_CARDS:
            # two tricks left: solved exactly, and stored so (later tests cut on it)
            value = _two_tricks(st, T, ctx, leader, took)
            _store(st[S_TRUMP] & 3, ctx[X_WEIGHT], tt, slot, key, key2, key3, remaining, value,
                   -INF, INF, np.int64(-1))
            return True, value
        # a restricted root's value is that of its cards only: the quick tricks, which
        # take the party's best cards, bound the position's value, not theirs
        low, high = _future_bound(st, T, ctx, remaining, took,
                                  leader if only == ALL_CARDS else -1)
        if high <= alpha:
            return True, high
        if low >= beta:
            return True, low
    led = F[at + F_LED]
    best = F[at + F_BEST]
    win_pos = F[at + F_WIN_POS]
    st[S_TO_MOVE] = seat
    st[S_N_PLAYED] = n
    st[S_TRICK] = led
    st[S_WIN_POS] = win_pos
    st[S_TRICK + win_pos] = best
    legal = legal_mask(st, T) & only
    party = st[S_PARTY]
    maximizing = (party >> seat) & 1
    hand = st[S_HAND + seat]
    F[at + F_ALPHA] = alpha
    F[at + F_BETA] = beta
    F[at + F_SLOT] = slot
    F[at + F_KEY] = key
    F[at + F_KEY2] = key2
    F[at + F_KEY3] = key3
    F[at + F_SEAT] = seat
    F[at + F_HAND] = hand
    F[at + F_MAX] = maximizing
    F[at + F_VALUE] = -INF if maximizing else INF
    F[at + F_BEST_CARD] = -1
    F[at + F_TRIED] = 0
    F[at + F_NEXT] = 0
    F[at + F_OTHERS] = (remaining & ~hand) | F[at + F_TRICK_MASK]
    F[at + F_N_MOVES] = _order_moves(F, at, legal, tt_move, st, T, ctx, n, best, win_pos, leader,
                                     party, maximizing)
    return False, 0


def _power_order_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """[kind, i]: the rank of a suit's i-th strongest card (kind 0 a plain suit, 1 the trumps);
    [kind, byte]: the card points of the cards of an 8-bit rank mask, strongest first, 5 bits
    each (the points of matched cards in `_point_shift`); [kind, byte]: the mask in power
    order."""
    order = np.array([np.argsort(-PLAIN_POWER_BY_RANK), np.argsort(-TRUMP_POWER_BY_RANK)],
                     dtype=np.int64)
    packed = np.zeros((2, 256), dtype=np.int64)
    in_order = np.zeros((2, 256), dtype=np.int64)
    for kind, points in enumerate((PLAIN_POINTS, TRUMP_POINTS)):
        for byte in range(256):
            ranks = [r for r in order[kind] if byte >> r & 1]
            packed[kind, byte] = sum(int(points[r]) << (5 * i) for i, r in enumerate(ranks))
            in_order[kind, byte] = sum(1 << i for i, r in enumerate(order[kind]) if byte >> r & 1)
    return order, packed, in_order


# POWER_BITS[kind, byte]: the rank mask ``byte`` with bit i for the suit's i-th strongest rank
POWER_ORDER, POINTS_IN_ORDER, POWER_BITS = _power_order_tables()


def _cheapest_first_table() -> np.ndarray:
    """[kind, byte]: the card points of the cards of an 8-bit rank mask, fewest first, 5 bits
    each (kind 0 a plain suit, 1 the trumps)."""
    table = np.zeros((2, 256), dtype=np.int64)
    for kind, points in enumerate((PLAIN_POINTS, TRUMP_POINTS)):
        for byte in range(256):
            ascending = sorted(int(points[r]) for r in range(8) if byte >> r & 1)
            table[kind, byte] = sum(v << (5 * i) for i, v in enumerate(ascending))
    return table


CHEAPEST_FIRST = _cheapest_first_table()


@kernel
def _suit_field(st, base, byte, kind, roem_bits):
    """The key field of the suit at bit ``base`` (`_table_key`): strongest first, each remaining
    card's holder and whether it is a roem card (3 bits), and the count (bits 24..27)."""
    # a card's holder as two bits: seat 1 or 3 sets bit 0, seat 2 or 3 bit 1
    low_bits = POWER_BITS[kind, ((st[S_HAND + 1] | st[S_HAND + 3]) >> base) & byte]
    high_bits = POWER_BITS[kind, ((st[S_HAND + 2] | st[S_HAND + 3]) >> base) & byte]
    roem = POWER_BITS[kind, roem_bits]
    present = POWER_BITS[kind, byte]
    code = np.int64(0)
    count = 0
    while present:
        i = lowest_bit_index(present)
        present &= present - 1
        card = ((low_bits >> i) & 1) | (((high_bits >> i) & 1) << 1) | (((roem >> i) & 1) << 2)
        code |= card << (3 * count)
        count += 1
    return code | (np.int64(count) << 24)


@hot
def _table_key(st, T, ctx, remaining, leader, took):
    """The three key words of a trick-boundary position, keyed by *relative rank*
    (quasi-symmetry). Within one solve every card's holder is fixed. The cards that can still
    take part in roem (none without table roem) are keyed by their exact ranks (first word):
    those of three ranks next to each other in one suit that all remain with no hand holding
    two of them (a trick takes one card of each hand, so only such a window can make a run, and
    a longer run holds one), the trump king and queen when they lie in two hands (both per suit
    from `_suit_roem`), and the four cards of a rank that counts as four of a kind when they
    lie in four hands (`_roem_fours`). Of the others only the place in power order counts: per suit the key holds,
    strongest first, each card's holder and whether it is one of the roem cards (3 bits a card,
    and the count; suits 0 and 1 in the second word, 2 and 3 in the third). Two positions of
    one key play alike: the i-th strongest card of a suit maps onto the other's i-th strongest,
    every line onto one with the same legal cards and trick winners, and the same roem (only
    roem cards, the same in both, can score it); their values differ by at most the points of
    the matched cards (`_point_shift`), which the table adds to the bounds it hands out. The
    first word also holds the leader, ``took`` and the generation stamp."""
    trump = st[S_TRUMP] & 3
    roem = ctx[X_ROEM] != 0
    fours = _roem_fours(st, ctx, remaining) if roem else np.int64(0)
    fixed = fours * np.int64(0x01010101)
    key2 = np.int64(0)
    key3 = np.int64(0)
    for suit in range(4):
        base = 8 * suit
        byte = (remaining >> base) & 0xFF
        if byte == 0:
            continue
        kind = 1 if suit == trump else 0
        # holders are fixed within a solve: the runs and stuk, and so the field without fours,
        # depend on the ranks only
        roem_bits = (_suit_roem(st, T, ctx, suit, byte, trump) & 0xFF) if roem else np.int64(0)
        fixed |= roem_bits << base
        if fours & byte == 0:
            slot = X_SUIT_CODES + 256 * suit + byte
            if (ctx[slot] >> 28) == ctx[X_GEN]:
                field = ctx[slot] & 0xFFFFFFF
            else:
                field = _suit_field(st, base, byte, kind, roem_bits)
                ctx[slot] = (ctx[X_GEN] << 28) | field
        else:
            field = _suit_field(st, base, byte, kind, roem_bits | (fours & byte))
        if suit < 2:
            key2 |= field << (28 * suit)
        else:
            key3 |= field << (28 * (suit - 2))
    key = fixed | (np.int64(leader) << 32) | (np.int64(took) << 34) | (ctx[X_GEN] << 36)
    return key, key2, key3


def _points_in_lanes() -> np.ndarray:
    """[kind, byte]: the card points of the cards of an 8-bit rank mask, strongest first, one
    byte lane each (`_point_shift` compares eight lanes at once)."""
    table = np.zeros((2, 256), dtype=np.int64)
    for kind, points in enumerate((PLAIN_POINTS, TRUMP_POINTS)):
        for byte in range(256):
            ranks = [r for r in POWER_ORDER[kind] if byte >> r & 1]
            table[kind, byte] = sum(int(points[r]) << (8 * i) for i, r in enumerate(ranks))
    return table


POINTS_IN_LANES = _points_in_lanes()
LANE_HIGH = np.int64(-0x7F7F7F7F7F7F7F80)  # 0x8080808080808080: the high bit of every lane


@kernel
def _point_shift(trump, stored, remaining):
    """Most the future margin (in card points) can differ between two positions of one table
    key, one with the cards ``stored``, the other ``remaining``: a suit keyed by relative rank
    maps its i-th strongest card onto the other's i-th strongest, and every line of play maps
    onto one with the same trick winners, so each card's points go to the same party: the
    margins differ by at most the sum of the point differences of matched cards. All eight
    places of a suit at once: a lane holds a card's points (at most 20), so the lane sums
    below never carry into the next lane."""
    shift = 0
    for suit in range(4):
        a = (stored >> (8 * suit)) & 0xFF
        b = (remaining >> (8 * suit)) & 0xFF
        if a == b:
            continue
        kind = 1 if suit == trump else 0
        pa = POINTS_IN_LANES[kind, a]
        pb = POINTS_IN_LANES[kind, b]
        up = (pa | LANE_HIGH) - pb  # 128 + pa - pb per lane
        down = (pb | LANE_HIGH) - pa
        keep_up = ((up & LANE_HIGH) >> 7) * 0xFF  # lanes where pa >= pb
        difference = ((up ^ LANE_HIGH) & keep_up) | ((down ^ LANE_HIGH) & ~keep_up)
        shift += (difference * np.int64(0x0101010101010101)) >> 56 & 0xFF
    return shift


@kernel
def _mapped_card(trump, stored, remaining, card):
    """The card of ``remaining`` that ``card`` (of ``stored``) maps onto: the same suit, the
    same place in power order."""
    suit = card >> 3
    base = 8 * suit
    a = (stored >> base) & 0xFF
    b = (remaining >> base) & 0xFF
    if a == b:
        return card
    kind = 1 if suit == trump else 0
    place = 0
    for i in range(8):
        rank = POWER_ORDER[kind, i]
        if rank == (card & 7):
            break
        place += (a >> rank) & 1
    for i in range(8):
        rank = POWER_ORDER[kind, i]
        if (b >> rank) & 1:
            if place == 0:
                return base + rank
            place -= 1
    return -1


@kernel
def _store(trump, weight, tt, slot, key, key2, key3, remaining, value, alpha, beta, best_card):
    """Store ``value``, searched in the window (``alpha``, ``beta``), of the position of the
    cards ``remaining`` and this key in bucket ``slot``, with its best lead (-1: none). Takes
    the solve's trump and point weight, not the state and context: every array argument is
    seven words a call, and a store follows most boundary nodes (2% of a solve's time)."""
    e = find(tt, slot, key, key2, key3)
    if e >= 0 and (tt[e + 5] >> 6) != remaining:
        # the entry holds a position of the same key but other cards: its bounds, widened by
        # the point shift, hold for this one too
        shift = _point_shift(trump, tt[e + 5] >> 6, remaining) * weight
        if tt[e + 3] > -INF:
            tt[e + 3] -= shift
        if tt[e + 4] < INF:
            tt[e + 4] += shift
    if e < 0:
        # replace the depth-preferred entry when it is stale (an older solve) or holds no more
        # cards than this one; else the always-replace one
        e = 2 * slot * TT_WIDTH
        if ((tt[e] >> 36) == (key >> 36)
                and popcount(tt[e + 5] >> 6) > popcount(remaining)):
            e += TT_WIDTH
        claim(tt, e, key, key2, key3)
    record(tt, e, value, alpha, beta, best_card, remaining)


@hot
def _finish(st, ctx, tt, F, at):
    """Store the settled value of the frame at ``at`` in the table; returns it."""
    value = F[at + F_VALUE]
    slot = F[at + F_SLOT]
    if slot >= 0:
        remaining = st[S_HAND] | st[S_HAND + 1] | st[S_HAND + 2] | st[S_HAND + 3]
        _store(st[S_TRUMP] & 3, ctx[X_WEIGHT], tt, slot, F[at + F_KEY], F[at + F_KEY2],
               F[at + F_KEY3], remaining, value, F[at + F_ALPHA0], F[at + F_BETA0],
               F[at + F_BEST_CARD])
    return value


@hot
def _set_position(F, at, leader, n, led, best, win_pos, trick_mask, trick_points, took, alpha, beta):
    F[at + F_LEADER] = leader
    F[at + F_N] = n
    F[at + F_LED] = led
    F[at + F_BEST] = best
    F[at + F_WIN_POS] = win_pos
    F[at + F_TRICK_MASK] = trick_mask
    F[at + F_TRICK_POINTS] = trick_points
    F[at + F_TOOK] = took
    F[at + F_ALPHA] = alpha
    F[at + F_BETA] = beta
    F[at + F_ALPHA0] = alpha
    F[at + F_BETA0] = beta


@kernel
def search(st, T, ctx, tt, F, leader, n, led, best, win_pos, trick_mask, trick_points, took,
           alpha, beta, only):
    """Future margin of the declaring party from the node where seat ``leader + n`` is to play
    the ``n``-th card of a trick led by ``led`` (``best`` winning at ``win_pos``, the trick's
    cards ``trick_mask`` worth ``trick_points``), by fail-soft alpha-beta in the window
    (``alpha``, ``beta``). ``only`` restricts the root's cards (ALL_CARDS: every legal card; a
    restricted root neither reads nor writes the table). ``F``: the frames (`new_frames`);
    ``ctx`` holds the move-ordering tables of the trump (`root_search` sets them)."""
    trump = st[S_TRUMP] & 3
    party = st[S_PARTY]
    weight = ctx[X_WEIGHT]
    roem_on = ctx[X_ROEM] != 0
    _set_position(F, ROOT, leader, n, led, best, win_pos, trick_mask, trick_points, took, alpha, beta)
    settled, value = _enter(st, T, ctx, tt, F, ROOT, only)
    if settled:
        return value
    depth = 0
    while True:
        at = np.uint64(depth) * FRAME
        # the next card of this frame, skipping cards equivalent to one already tried
        card = -1
        while F[at + F_NEXT] < F[at + F_N_MOVES]:
            candidate = F[at + F_MOVES + np.uint64(F[at + F_NEXT])]
            F[at + F_NEXT] += 1
            tried = F[at + F_TRIED]
            F[at + F_TRIED] = tried | (np.int64(1) << candidate)
            if tried != 0 and _equivalent_tried(candidate, tried, F[at + F_HAND], F[at + F_OTHERS],
                                                trump, T, ctx):
                continue
            card = candidate
            break
        if card < 0:  # every card tried, or a cut-off: this frame is settled
            result = _finish(st, ctx, tt, F, at)
            if depth == 0:
                return result
            depth -= 1
            at = np.uint64(depth) * FRAME
            result += F[at + F_GAIN]
        else:
            seat = F[at + F_SEAT]
            hand = F[at + F_HAND]
            node_n = F[at + F_N]
            node_leader = F[at + F_LEADER]
            bit = np.int64(1) << card
            st[S_HAND + seat] = hand & ~bit
            points = F[at + F_TRICK_POINTS] + card_points(T, trump, card)
            mask = F[at + F_TRICK_MASK] | bit
            node_best = F[at + F_BEST]
            node_pos = F[at + F_WIN_POS]
            node_led = F[at + F_LED]
            if node_n == 0:
                node_best = card
                node_pos = 0
                node_led = card
            elif card_beats(card, node_best, trump, T):
                node_best = card
                node_pos = node_n
            F[at + F_CARD] = card
            child = at + FRAME
            if node_n == 3:
                winner = (node_leader + node_pos) & 3
                gain = points * weight
                if (st[S_HAND] | st[S_HAND + 1] | st[S_HAND + 2] | st[S_HAND + 3]) == 0:
                    gain += LAST_TRICK_BONUS * weight
                if roem_on:
                    gain += _trick_roem(mask, trump, T)
                if (party >> winner) & 1:
                    new_took = F[at + F_TOOK] | 1
                else:
                    new_took = F[at + F_TOOK] | 2
                    gain = -gain
                F[at + F_GAIN] = gain
                _set_position(F, child, winner, 0, 0, 0, 0, np.int64(0), 0, new_took,
                              F[at + F_ALPHA] - gain, F[at + F_BETA] - gain)
            else:
                F[at + F_GAIN] = 0
                _set_position(F, child, node_leader, node_n + 1, node_led, node_best, node_pos,
                              mask, points, F[at + F_TOOK], F[at + F_ALPHA], F[at + F_BETA])
            settled, result = _enter(st, T, ctx, tt, F, child, ALL_CARDS)
            if not settled:
                depth += 1
                continue
            result += F[at + F_GAIN]
        # a child's value ``result`` comes back to the frame at ``at``
        st[S_HAND + F[at + F_SEAT]] = F[at + F_HAND]
        if F[at + F_MAX]:
            if result > F[at + F_VALUE]:
                F[at + F_VALUE] = result
                F[at + F_BEST_CARD] = F[at + F_CARD]
                if result > F[at + F_ALPHA]:
                    F[at + F_ALPHA] = result
        else:
            if result < F[at + F_VALUE]:
                F[at + F_VALUE] = result
                F[at + F_BEST_CARD] = F[at + F_CARD]
                if result < F[at + F_BETA]:
                    F[at + F_BETA] = result
        if F[at + F_ALPHA] >= F[at + F_BETA]:
            F[at + F_NEXT] = F[at + F_N_MOVES]  # cut-off
            F[at + F_KILLER] = F[at + F_CARD] + 1


# ---- the root: a whole state (a trick may be part-played) into search arguments


@kernel
def _copy(dst, src):
    for i in range(src.shape[0]):
        dst[i] = src[i]


@kernel
def played_margin(st, T, ctx):
    """The declaring team's margin from the tricks already played (points times the weight,
    plus roem, minus the other team's)."""
    team = st[S_DECLARER] & 1
    other = 1 - team
    return ((st[S_POINTS + team] - st[S_POINTS + other]) * ctx[X_WEIGHT]
            + st[S_ROEM + team] - st[S_ROEM + other])


@kernel
def root_search(st, T, ctx, tt, scratch, F, alpha, beta, only):
    """`search` from the position of ``st`` (left unchanged; ``scratch`` is a state-sized
    buffer the search writes into): the future margin, in the window (alpha, beta)."""
    _copy(scratch, st)
    trump = st[S_TRUMP] & 3
    if ctx[X_ORDER_OF] != ctx[X_GEN] * 4 + trump:  # once a solve (one trump, one ruleset): its tests share them
        _set_order(ctx, T, trump)
        ctx[X_ORDER_OF] = ctx[X_GEN] * 4 + trump
    n = st[S_N_PLAYED]
    leader = st[S_LEADER]
    team = st[S_DECLARER] & 1
    took = (1 if st[S_TRICKS + team] > 0 else 0) | (2 if st[S_TRICKS + 1 - team] > 0 else 0)
    trick_mask = np.int64(0)
    trick_points = 0
    for i in range(n):
        card = st[S_TRICK + i] & 31
        trick_mask |= np.int64(1) << card
        trick_points += card_points(T, trump, card)
    led = st[S_TRICK] if n > 0 else 0
    win_pos = st[S_WIN_POS] if n > 0 else 0
    best = st[S_TRICK + win_pos] if n > 0 else 0
    return search(scratch, T, ctx, tt, F, leader, n, led, best, win_pos, trick_mask, trick_points,
                  took, alpha, beta, only)


@kernel
def solve_margin(st, T, ctx, tt, scratch, F):
    """The declaring team's final margin under perfect play from ``st`` (a new solve)."""
    begin_solve(ctx, tt, F)
    return played_margin(st, T, ctx) + mtdf_search(st, T, ctx, tt, scratch, F, 0, ALL_CARDS)


@kernel
def card_values(st, T, ctx, tt, scratch, F, values):
    """The final margin after each legal card of the seat to move, into ``values`` [32]
    (-INF for cards it may not play); one solve, the table shared between the cards.
    Returns the legal mask."""
    begin_solve(ctx, tt, F)
    base = played_margin(st, T, ctx)
    _copy(scratch, st)
    legal = legal_mask(scratch, T)
    for card in range(32):
        values[card] = -INF
    guess = 0
    rest = legal
    while rest:
        card = lowest_bit_index(rest)
        rest &= rest - 1
        guess = mtdf_search(st, T, ctx, tt, scratch, F, guess, np.int64(1) << card)
        values[card] = base + guess
    return legal


@kernel
def best_cards(st, T, ctx, tt, scratch, F):
    """(margin, mask of the cards reaching it) for the seat to move: one full search, then a
    null-window test of each legal card."""
    begin_solve(ctx, tt, F)
    return best_cards_same_solve(st, T, ctx, tt, scratch, F)


@kernel
def best_cards_same_solve(st, T, ctx, tt, scratch, F):
    """`best_cards` keeping the table of the current solve: for a position reached from its
    root (same hands), whose entries stay valid."""
    base = played_margin(st, T, ctx)
    value = mtdf_search(st, T, ctx, tt, scratch, F, 0, ALL_CARDS)
    _copy(scratch, st)
    legal = legal_mask(scratch, T)
    maximizing = (st[S_PARTY] >> (st[S_TO_MOVE] & 3)) & 1
    out = np.int64(0)
    rest = legal
    while rest:
        card = lowest_bit_index(rest)
        rest &= rest - 1
        bit = np.int64(1) << card
        if maximizing:
            reached = root_search(st, T, ctx, tt, scratch, F, value - 1, value, bit) >= value
        else:
            reached = root_search(st, T, ctx, tt, scratch, F, value, value + 1, bit) <= value
        if reached:
            out |= bit
    return base + value, out


@kernel
def mtdf_search(st, T, ctx, tt, scratch, F, guess, only):
    """The future margin by null-window tests (is the value at least ``b``?), the table keeping
    what the earlier ones proved: the first at ``guess``, then steps doubling away from it until
    the value is bracketed, then bisection. Each fail-soft answer moves a bound past ``b``.
    (Plain MTD(f), one point at a time from the last answer, took tens of tests a deal on this
    point-valued margin; this takes about seven.)"""
    lower = -INF
    upper = INF
    b = guess
    step = FIRST_STEP
    while True:
        v = root_search(st, T, ctx, tt, scratch, F, b - 1, b, only)
        if v >= b:
            lower = v
        else:
            upper = v
        if lower >= upper:
            return v
        if upper == INF:
            b = lower + step
            step *= 2
        elif lower == -INF:
            b = upper - step + 1
            step *= 2
        else:
            b = (lower + upper + 1) // 2


@driver
def search_buffers():
    """(ctx, table, frames, state, scratch state) for a batch of solves in one driver."""
    ctx = np.zeros(CTX_SIZE, dtype=np.int64)
    init_context(ctx, TT_BITS)
    tt = np.zeros(TT_WIDTH << TT_BITS, dtype=np.int64)
    frames = np.zeros(F_WIDTH * MAX_DEPTH, dtype=np.int64)
    return ctx, tt, frames, np.zeros(STATE_SIZE, dtype=np.int64), np.zeros(STATE_SIZE, dtype=np.int64)


@kernel
def start_deal(st, T, ctx, hands, dealer, trump, declarer, end_bonus):
    """``st`` at the start of play of a deal, and ``ctx``'s end bonus: the pit bonus plus
    ``end_bonus`` (4, by ``took``: Kraken's hand roem)."""
    new_state(st, hands, dealer, trump, declarer)
    set_pit_bonus(ctx, T)
    for took in range(4):
        ctx[X_END + took] += end_bonus[took]


@driver
def solve_deals(hands, dealers, trumps, declarers, end_bonus, T, margins, nodes):
    """The perfect-play margin at the start of play of many deals: deal ``k`` has the four
    ``hands[k]``, its dealer, trump and declarer, and ``end_bonus[k]`` (4) added to the pit
    bonus (Kraken's hand roem). Margins into ``margins``, positions searched into ``nodes``."""
    ctx, tt, frames, st, scratch = search_buffers()
    for k in range(hands.shape[0]):
        start_deal(st, T, ctx, hands[k], dealers[k], trumps[k], declarers[k], end_bonus[k])
        before = ctx[X_NODES]
        margins[k] = solve_margin(st, T, ctx, tt, scratch, frames)
        nodes[k] = ctx[X_NODES] - before
