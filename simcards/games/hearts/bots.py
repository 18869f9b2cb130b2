"""Hartenjagen / Hearts bots: random, and a heuristic following the tactics of the source
(002_cc09cad8c3672f2c.txt): passing, a moon-attempt decision, and card play.

Bots are Numba functions selected by a kind id, with one float64 parameter row per seat (the
PARAMS below, by name in configs). A bot sees its own hand and the public slots of the deal
state: the current trick, the cards played, the voids each seat has shown, the points each seat
has taken, the scores before the deal and the phase.

The heuristic plays in one of three modes:
- *avoid* (American Hearts, Dutch outbound): duck under the winning card with the highest card
  that still ducks; when last to a point-free trick that it can win, win it with its highest
  card if it keeps a low card to lead afterwards (source: "take it with as high a card as
  possible"); early in the deal, cash clubs/diamonds from the top while everyone still follows
  (source: "dominate with the ace of diamonds or clubs for two or three rounds"); lead from
  suits where higher cards are still out, short suits first (void a suit early); discard the
  most dangerous card: QS, then A/K of spades while the QS is out, the JC, high hearts, high
  cards of short suits.
- *chase* (Dutch return, source "Terugweg"): lead a boss heart at once, otherwise cash boss
  cards of long suits; win tricks that hold points as cheaply as sure; never discard points.
- *moon* (a seat that decided to shoot the moon, while nobody else has taken a point): chase,
  and also win point-free tricks to keep control. Once another seat takes a point the attempt
  is broken and the seat plays *avoid* for the rest of the deal.

The moon attempt: a seat sets out to shoot only with a hand that can plausibly take every point,
judged on the hand as held after passing (``wants_moon``): its moon score (high-card points plus
hearts) reaches ``moon_threshold`` and it has at most ``moon_losers`` losers (``moon_losers``:
per suit, the cards played while the opponents still follow that are not the next-highest card
of the suit; hearts count twice). When passing, a hand worth a moon keeps its hearts and high
cards and passes the three cards that leave the fewest losers, if it then has few enough.

The defence, in *avoid* mode: as soon as one opponent holds every point taken so far, split the
points: take a trick it can win that holds at most ``moon_split`` points (when no later seat
can throw the QS on it), throw point cards on a trick that seat will not win, and never feed it
points. Once that opponent holds ``moon_defence`` of the deal's points, or the deal is past its
middle, take any point trick it can win (the QS trick included) and lead a boss heart. While an
opponent could still shoot, keep a stopper heart: the highest heart, when at most
``moon_stopper`` unseen hearts are above it, is neither discarded nor used to duck.
Every kernel gets the parameter row of the seat it decides for (``bot_params[seat]``), as in
Klaverjassen: one bot signature in every game.
The moon option (``moon = "choose"``) is decided by the rules kernel for every bot kind
(simcards/games/hearts/rules.py).
"""

from __future__ import annotations

import numpy as np

from simcards._jit import hot, kernel
from simcards.cards import highest_bit_index, lowest_bit_index, nth_bit_index, popcount
from simcards.engine.trick import suit_mask
from simcards.games.hearts._kernels import (
    PHASE_RETURN,
    S_HAND,
    S_LEADER,
    S_MOON_SEATS,
    S_N_PLAYED,
    S_PHASE,
    S_PLAYED,
    S_POINTS,
    S_TO_MOVE,
    S_TRICK,
    S_TRICK_NO,
    S_VOIDS,
    S_WIN_POS,
    card_points,
    rule,
)
from simcards.games.hearts.rules import (
    N_PASS,
    R_HAND_SIZE,
    R_AS,
    R_FULL,
    R_HEARTS,
    R_JC,
    R_KS,
    R_N_RANKS,
    R_POINT_CARDS,
    R_QS,
    R_TOTAL,
)
from simcards.rng import randint

RANDOM, HEURISTIC = 0, 1
KINDS = {"random": RANDOM, "heuristic": HEURISTIC}

# (name, default, meaning): the parameter row of a bot, in this order.
PARAMS = (
    ("moon_threshold", 19.0, "attempt to shoot the moon only when the hand's moon score (high-card "
                             "points A4 K3 Q2 J1 plus the number of hearts) reaches this (and "
                             "moon_losers holds); 99: never"),
    ("moon_defence", 0.3, "when one opponent holds every point taken so far and at least this "
                          "share of the deal's total (or the deal is past its middle), defend "
                          "at any price: take any point trick it can win, the QS trick "
                          "included, and lead a boss heart"),
    ("dominate_tricks", 3.0, "avoid mode: cash boss clubs/diamonds from the top during the "
                             "first this many tricks"),
    ("dominate_min_unseen", 6.0, "... only while at least this many cards of the suit are "
                                 "still with the opponents"),
    ("unload_last", 1.0, "avoid mode: when last to a point-free trick, win it with the highest "
                         "card if a low card to lead remains (1 on, 0 off)"),
    ("spade_guard", 4.0, "passing (Hearts): keep the Q/K/A of spades when holding at least this many "
                         "spades below the queen"),
    ("void_pass", 2.0, "passing (Hearts): prefer passing every card of a club/diamond suit this short"),
    ("moon_losers", 4.0, "attempt the moon only when the hand (as held after passing) has at most "
                         "this many losers: in each suit, the cards among the first rounds "
                         "(until the opponents are out of it) that are not the next-highest card "
                         "of the suit; a heart loser counts twice"),
    ("moon_split", 4.0, "when one opponent holds every point taken so far, take a trick it can "
                        "win that holds at most this many points (split the points: the moon "
                        "is off)"),
    ("moon_stopper", 3.0, "while an opponent could still shoot, keep the highest heart (never "
                          "discard it, duck with another heart) when at most this many unseen "
                          "hearts are above it; negative: off"),
)
N_PARAMS = len(PARAMS)
# Hartenjagen's defaults: the same parameters, a stricter attempt rule (the 32-card game makes
# moons without trying: random play 3.6% of deals, these bots with attempts off 3.3%)
DUTCH_DEFAULTS = {"moon_threshold": 20.0, "moon_losers": 1.0}
PARAMS_DUTCH = tuple((name, DUTCH_DEFAULTS.get(name, default), doc) for name, default, doc in PARAMS)
(P_MOON, P_DEFENCE, P_DOMINATE, P_DOM_UNSEEN, P_UNLOAD, P_SPADE_GUARD, P_VOID_PASS,
 P_MOON_LOSERS, P_MOON_SPLIT, P_STOPPER) = range(N_PARAMS)

HEARTS_SUIT, SPADES_SUIT = 2, 3
MODE_AVOID, MODE_CHASE, MODE_MOON = 0, 1, 2


def default_params() -> np.ndarray:
    return np.array([p[1] for p in PARAMS], dtype=np.float64)


# ---------------------------------------------------------------- helpers


@kernel
def _suit(T, s):
    return suit_mask(T, 0, s)


@kernel
def _high_card_points(hand, n_ranks):
    """A 4, K 3, Q 2, J 1."""
    total = 0
    for s in range(4):
        top = np.int64(1) << (s * n_ranks + n_ranks - 1)
        if hand & top:
            total += 4
        if hand & (top >> 1):
            total += 3
        if hand & (top >> 2):
            total += 2
        if hand & (top >> 3):
            total += 1
    return total


@kernel
def moon_score(hand, T):
    """High-card points plus the number of hearts held (see PARAMS ``moon_threshold``)."""
    return _high_card_points(hand, rule(T, R_N_RANKS)) + popcount(hand & rule(T, R_HEARTS))


@kernel
def _suit_losers(mine, n_ranks):
    """Losers of one suit's cards ``mine`` (see moon_losers), unweighted."""
    length = popcount(mine)
    rounds = (n_ranks - length + 2) // 3
    lose = 0
    k = 0
    while mine != 0 and k < rounds:
        card = highest_bit_index(mine)
        if card % n_ranks < n_ranks - 1 - k:
            lose += 1
        mine &= ~(np.int64(1) << card)
        k += 1
    return lose


@kernel
def moon_losers(hand, T):
    """Losers of a hand played for the moon (see PARAMS ``moon_losers``): in each suit of length
    L, the first ceil((ranks - L) / 3) rounds are those in which opponents still follow; the
    card played in round k (from the top) loses unless it is the k-th highest card of the suit.
    Later cards are length winners. A heart loser counts twice (a lost heart trick always holds
    a point)."""
    n_ranks = rule(T, R_N_RANKS)
    total = 0
    for s in range(4):
        lose = _suit_losers(hand & _suit(T, s), n_ranks)
        total += 2 * lose if s == HEARTS_SUIT else lose
    return total


@kernel
def moon_plausible(hand, T, params):
    """Can this hand (as it will be played) plausibly take every point? The moon score reaches
    ``moon_threshold`` and the hand has at most ``moon_losers`` losers."""
    if moon_score(hand, T) < params[P_MOON]:
        return False
    return moon_losers(hand, T) <= params[P_MOON_LOSERS]


@kernel
def _others_may_hold(st, seat, unseen, s, T):
    """Cards of suit ``s`` that may still be held by seats other than ``seat`` (not void)."""
    may = np.int64(0)
    cards = unseen & _suit(T, s)
    for k in range(1, 4):
        other = (seat + k) % 4
        if not (st[S_VOIDS + other] >> s & 1):
            may |= cards
    return may


@kernel
def _later_may_beat(st, seat, card, unseen, T):
    """Could a seat still to play in this trick beat ``card`` (same suit, higher)?"""
    n_ranks = rule(T, R_N_RANKS)
    s = card // n_ranks
    higher = unseen & _suit(T, s) & _above(card)
    if higher == 0:
        return False
    for pos in range(st[S_N_PLAYED] + 1, 4):
        other = (st[S_LEADER] + pos) % 4
        if not (st[S_VOIDS + other] >> s & 1):
            return True
    return False


@hot
def _above(card):
    """Mask of every card id above ``card`` (higher cards of its suit, and later suits)."""
    return ~((np.int64(1) << (card + 1)) - 1)


@hot
def _cheap_cards(mask, T):
    """The cards of ``mask`` that carry no points, or all of them when every one does."""
    cheap = mask & ~rule(T, R_POINT_CARDS)
    return cheap if cheap != 0 else mask


@kernel
def _highest_cheap(mask, T):
    """The highest card of a one-suit ``mask``, avoiding point cards when it can."""
    return highest_bit_index(_cheap_cards(mask, T))


@kernel
def _lowest_cheap(mask, T):
    return lowest_bit_index(_cheap_cards(mask, T))


@kernel
def _trick_points(st, T):
    total = 0
    for i in range(st[S_N_PLAYED]):
        total += card_points(T, st[S_TRICK + i])
    return total


# ---------------------------------------------------------------- passing


@hot
def _suit_and_rank(card, T):
    """(suit, rank) of a card id of this deck (card = suit * ranks + rank)."""
    n_ranks = rule(T, R_N_RANKS)
    return card // n_ranks, card % n_ranks


@kernel
def _pass_danger(card, hand, T, params):
    """How much a card is worth passing away (higher: pass first)."""
    n_ranks = rule(T, R_N_RANKS)
    s, r = _suit_and_rank(card, T)
    qs = rule(T, R_QS)
    spades = hand & _suit(T, SPADES_SUIT)
    low_spades = popcount(spades & ((np.int64(1) << qs) - 1))
    guarded = low_spades >= params[P_SPADE_GUARD]
    if card == qs:
        return 10.0 if guarded else 100.0
    if card == rule(T, R_AS) or card == rule(T, R_KS):
        return 1.0 * r if guarded else 60.0 + r
    if s == HEARTS_SUIT:
        return 2.0 * r + (10.0 if r >= n_ranks - 4 else 0.0)
    danger = 1.5 * r
    if s != SPADES_SUIT and popcount(hand & _suit(T, s)) <= params[P_VOID_PASS]:
        danger += 15.0
    return danger


@kernel
def choose_passes(kind, hand, T, params, rng):
    """The three cards the bot of ``kind`` with parameter row ``params`` passes (a mask)."""
    chosen = np.int64(0)
    if kind == RANDOM:
        for _ in range(N_PASS):
            rest = hand & ~chosen
            chosen |= np.int64(1) << nth_bit_index(rest, randint(rng, popcount(rest)))
        return chosen
    return heuristic_passes(hand, T, params)


@kernel
def moon_passes(hand, T):
    """Three cards to pass for a moon: one at a time, the non-heart whose removal leaves the
    fewest losers (the lowest such card)."""
    chosen = np.int64(0)
    n_ranks = rule(T, R_N_RANKS)
    for _ in range(N_PASS):
        best, best_value = -1, 1 << 30
        for s in range(4):
            if s == HEARTS_SUIT:
                continue
            mine = hand & ~chosen & _suit(T, s)
            if mine == 0:
                continue
            now = _suit_losers(mine, n_ranks)
            rest = mine
            while rest:
                card = lowest_bit_index(rest)
                rest &= rest - 1
                gain = now - _suit_losers(mine & ~(np.int64(1) << card), n_ranks)
                value = -100 * gain + card % n_ranks
                if value < best_value:
                    best, best_value = card, value
        if best < 0:  # nothing but hearts left to pass
            best = lowest_bit_index(hand & ~chosen)
        chosen |= np.int64(1) << best
    return chosen


@kernel
def heuristic_passes(hand, T, params):
    """Pass the three most dangerous cards; or, when the hand is worth a moon (its moon score
    reaches the threshold and, with the moon passes gone, it keeps at most ``moon_losers``
    losers), the three cards that leave the fewest losers (moon_passes). Whether the bot then
    shoots is decided again with the hand as held (wants_moon)."""
    if moon_score(hand, T) >= params[P_MOON]:
        plan = moon_passes(hand, T)
        if moon_losers(hand & ~plan, T) <= params[P_MOON_LOSERS]:
            return plan
    chosen = np.int64(0)
    for _ in range(N_PASS):
        best, best_value = -1, -1e18
        rest = hand & ~chosen
        while rest:
            card = lowest_bit_index(rest)
            value = _pass_danger(card, hand, T, params)
            if value > best_value:
                best, best_value = card, value
            rest &= rest - 1
        chosen |= np.int64(1) << best
    return chosen


@kernel
def wants_moon(kind, hand, T, params):
    """Does the bot of ``kind`` with parameter row ``params`` set out to shoot the moon with
    this hand (as held, after passing)? Only when the hand can plausibly make it
    (moon_plausible)."""
    if kind == RANDOM:
        return False
    return moon_plausible(hand, T, params)


# ---------------------------------------------------------------- card play


@kernel
def _mode(st, seat, T, params):
    if st[S_PHASE] == PHASE_RETURN:
        return MODE_CHASE
    if (st[S_MOON_SEATS] >> seat) & 1:
        for k in range(1, 4):
            if st[S_POINTS + (seat + k) % 4] != 0:
                return MODE_AVOID
        return MODE_MOON
    return MODE_AVOID


@kernel
def _moon_threat(st, seat):
    """The opponent that holds every point taken so far (at least one); else -1."""
    holder = -1
    for other in range(4):
        if st[S_POINTS + other] != 0:
            if holder >= 0:
                return -1
            holder = other
    if holder == seat:
        return -1
    return holder


@kernel
def _serious_threat(st, holder, T, params):
    """Is the lone point holder a real danger: at least ``moon_defence`` of the deal's total
    taken, or the deal past its middle?"""
    if st[S_POINTS + holder] >= params[P_DEFENCE] * rule(T, R_TOTAL):
        return True
    return 2 * st[S_TRICK_NO] >= rule(T, R_HAND_SIZE)


@kernel
def _moon_alive(st, seat):
    """Could an opponent of ``seat`` still shoot: ``seat`` has no point and at most one seat
    has any?"""
    if st[S_POINTS + seat] != 0:
        return False
    holders = 0
    for other in range(4):
        if st[S_POINTS + other] != 0:
            holders += 1
    return holders <= 1


@kernel
def _stopper(st, seat, hand, unseen, T, params):
    """The heart ``seat`` holds back while an opponent could still shoot (its highest heart,
    when at most ``moon_stopper`` unseen hearts are above it), or -1."""
    if params[P_STOPPER] < 0 or not _moon_alive(st, seat):
        return -1
    hearts = hand & _suit(T, HEARTS_SUIT)
    if hearts == 0:
        return -1
    top = highest_bit_index(hearts)
    above = popcount(unseen & _suit(T, HEARTS_SUIT) & _above(top))
    if above <= params[P_STOPPER]:
        return top
    return -1


@kernel
def _safe_to_take(st, seat, unseen, T):
    """Can ``seat`` win the current trick without the QS being thrown on it: it plays last, or
    the QS is not with the others, or no seat still to play has shown a void in the led suit?"""
    n = st[S_N_PLAYED]
    if n == 3 or not (unseen >> rule(T, R_QS)) & 1:
        return True
    s = st[S_TRICK] // rule(T, R_N_RANKS)
    for pos in range(n + 1, 4):
        other = (st[S_LEADER] + pos) % 4
        if st[S_VOIDS + other] >> s & 1:
            return False
    return True


@kernel
def _still_to_play(st, other):
    """Has ``other`` not yet played to the current trick?"""
    pos = (other - st[S_LEADER]) % 4
    return pos >= st[S_N_PLAYED]


@kernel
def _has_exit(hand, keep_out, unseen, T):
    """Does ``hand`` (without ``keep_out``) keep a card that others can beat (a safe lead)?"""
    rest = hand & ~keep_out
    for s in range(4):
        mine = rest & _suit(T, s)
        if mine == 0:
            continue
        low = lowest_bit_index(mine)
        if unseen & _suit(T, s) & _above(low):
            return True
    return False


@kernel
def _discard_danger(card, hand, unseen, T):
    s, r = _suit_and_rank(card, T)
    qs = rule(T, R_QS)
    value = 1.0 * r
    if card == qs:
        value += 200.0
    elif card == rule(T, R_JC):
        value += 40.0
    elif s == HEARTS_SUIT:
        value += 8.0
    elif (card == rule(T, R_AS) or card == rule(T, R_KS)) and (unseen >> qs) & 1:
        value += 60.0
    # a card whose suit has no lower card out can never be ducked: dangerous
    if unseen & _suit(T, s) & ((np.int64(1) << card) - 1) == 0:
        value -= 2.0
    if popcount(hand & _suit(T, s)) == 1:
        value += 3.0
    return value


@kernel
def _avoid_lead(seat, hand, legal, st, T, params, unseen):
    qs = rule(T, R_QS)
    qs_live = (unseen >> qs) & 1
    threat = _moon_threat(st, seat)
    if threat >= 0 and _serious_threat(st, threat, T, params):
        hearts = legal & _suit(T, HEARTS_SUIT)
        if hearts != 0:
            top = highest_bit_index(hearts)
            if unseen & _suit(T, HEARTS_SUIT) & _above(top) == 0:
                return top  # win a heart ourselves: the moon is off
    # dominate early with boss clubs / diamonds while everyone still follows
    if st[S_TRICK_NO] < params[P_DOMINATE]:
        for s in range(2):
            mine = legal & _suit(T, s)
            if mine == 0:
                continue
            out = unseen & _suit(T, s)
            top = highest_bit_index(mine)
            if out == 0 or out >> top != 0:
                continue
            void_seen = False
            for k in range(1, 4):
                if st[S_VOIDS + (seat + k) % 4] >> s & 1:
                    void_seen = True
            if not void_seen and popcount(out) >= params[P_DOM_UNSEEN]:
                return top
    best, best_score = -1, -1e18
    for s in range(4):
        mine = legal & _suit(T, s)
        if mine == 0:
            continue
        low = lowest_bit_index(mine)
        may = _others_may_hold(st, seat, unseen, s, T)
        higher = popcount(may & _above(low))
        score = 10.0 * min(higher, 3) - popcount(hand & _suit(T, s))
        if higher == 0:
            score -= 30.0
        points = card_points(T, low)
        if points != 0:
            score -= 8.0 * points
        if s == SPADES_SUIT and qs_live:
            a_k = (np.int64(1) << rule(T, R_AS)) | (np.int64(1) << rule(T, R_KS))
            if hand & a_k == 0 and low < qs:
                score += 6.0  # smoke out the queen
            elif hand & a_k:
                score -= 10.0
        if s == SPADES_SUIT and (hand >> qs) & 1 and low != qs:
            score -= 8.0
        if score > best_score:
            best, best_score = low, score
    return best


@kernel
def _duck_card(under, stopper):
    """The highest card of ``under``, sparing the stopper heart when another card ducks too."""
    if stopper >= 0 and (under >> stopper) & 1 and under != (np.int64(1) << stopper):
        return highest_bit_index(under & ~(np.int64(1) << stopper))
    return highest_bit_index(under)


@kernel
def _avoid_follow(seat, hand, legal, st, T, params, unseen):
    n = st[S_N_PLAYED]
    best = st[S_TRICK + st[S_WIN_POS]]
    under = legal & ((np.int64(1) << best) - 1)
    over = legal & ~under
    trick_pts = _trick_points(st, T)
    threat = _moon_threat(st, seat)
    if threat >= 0 and over != 0:
        winner = (st[S_LEADER] + st[S_WIN_POS]) % 4
        if winner == threat or _still_to_play(st, threat):  # the points may go to the shooter
            led_hearts = (best // rule(T, R_N_RANKS)) == HEARTS_SUIT
            top = highest_bit_index(over)
            if _serious_threat(st, threat, T, params):
                if trick_pts > 0 or led_hearts or _still_to_play(st, threat):
                    return top  # take a point away from the shooter, at any price
            elif ((trick_pts > 0 or led_hearts)
                  and trick_pts + card_points(T, top) <= params[P_MOON_SPLIT]
                  and _safe_to_take(st, seat, unseen, T)):
                return top  # split the points cheaply: the moon is off
    stopper = -1
    if under & (under - 1) != 0 and under & _suit(T, HEARTS_SUIT) != 0:
        stopper = _stopper(st, seat, hand, unseen, T, params)
    if n == 3:
        if under != 0:
            if (trick_pts == 0 and over != 0 and params[P_UNLOAD] > 0):
                cheap_over = over & ~rule(T, R_POINT_CARDS)
                if cheap_over != 0:
                    top = highest_bit_index(cheap_over)
                    if _has_exit(hand, np.int64(1) << top, unseen, T):
                        return top
            return _duck_card(under, stopper)
        return _highest_cheap(over, T)
    if under != 0:
        return _duck_card(under, stopper)
    low = _lowest_cheap(over, T)
    if not _later_may_beat(st, seat, low, unseen, T):
        return _highest_cheap(over, T)  # we win anyway: shed the highest
    return low


@kernel
def _avoid_discard(seat, hand, legal, st, T, params, unseen):
    threat = _moon_threat(st, seat)
    feeding = False  # would points discarded now help a shooter?
    splitting = False  # would a point discarded now go to a seat other than the lone holder?
    if threat >= 0:
        winner = (st[S_LEADER] + st[S_WIN_POS]) % 4
        feeding = winner == threat or _still_to_play(st, threat)
        splitting = not feeding
    stopper = -1
    if legal & _suit(T, HEARTS_SUIT) != 0:
        stopper = _stopper(st, seat, hand, unseen, T, params)
    best, best_value = -1, -1e18
    rest = legal
    while rest:
        card = lowest_bit_index(rest)
        value = _discard_danger(card, hand, unseen, T)
        if card_points(T, card) != 0:
            if feeding:
                value -= 1000.0
            elif splitting:
                value += 500.0
        if card == stopper:
            value -= 300.0
        if value > best_value:
            best, best_value = card, value
        rest &= rest - 1
    return best


@kernel
def _chase_lead(seat, hand, legal, st, T, unseen):
    hearts = legal & _suit(T, HEARTS_SUIT)
    if hearts != 0:
        top = highest_bit_index(hearts)
        if unseen & _suit(T, HEARTS_SUIT) & _above(top) == 0:
            return top
    best, best_len = -1, -1
    for s in range(4):
        mine = legal & _suit(T, s)
        if mine == 0:
            continue
        top = highest_bit_index(mine)
        if unseen & _suit(T, s) & _above(top) == 0:
            length = popcount(mine)
            if length > best_len:
                best, best_len = top, length
    if best >= 0:
        return best
    # no boss: lead low from the longest suit, keeping high cards for later
    for s in range(4):
        mine = legal & _suit(T, s)
        length = popcount(mine)
        if length > best_len:
            best, best_len = lowest_bit_index(mine), length
    return best


@kernel
def _chase_follow(seat, hand, legal, st, T, unseen, moon):
    n = st[S_N_PLAYED]
    best = st[S_TRICK + st[S_WIN_POS]]
    over = legal & ~((np.int64(1) << best) - 1)
    led_hearts = (st[S_TRICK] // rule(T, R_N_RANKS)) == HEARTS_SUIT
    wanted = moon or _trick_points(st, T) > 0 or led_hearts
    if over != 0 and wanted:
        if n == 3:
            return lowest_bit_index(over)
        top = highest_bit_index(over)
        return top
    return lowest_bit_index(legal)


@kernel
def _chase_discard(legal, T):
    """Give nothing away: the lowest card without points, else the cheapest point card."""
    cheap = legal & ~rule(T, R_POINT_CARDS)
    pool = cheap if cheap != 0 else legal
    best, best_value = -1, 1 << 30
    rest = pool
    n_ranks = rule(T, R_N_RANKS)
    while rest:
        card = lowest_bit_index(rest)
        value = 100 * card_points(T, card) + card % n_ranks
        if value < best_value:
            best, best_value = card, value
        rest &= rest - 1
    return best


@kernel
def heuristic_card(seat, legal, st, T, params):
    """The heuristic's card for ``seat`` (see the module docstring); ``params`` is the seat's
    parameter row."""
    if legal & (legal - 1) == 0:
        return lowest_bit_index(legal)
    hand = st[S_HAND + seat]
    unseen = rule(T, R_FULL) & ~st[S_PLAYED] & ~hand
    mode = _mode(st, seat, T, params)
    n = st[S_N_PLAYED]
    if n == 0:
        if mode == MODE_AVOID:
            return _avoid_lead(seat, hand, legal, st, T, params, unseen)
        return _chase_lead(seat, hand, legal, st, T, unseen)
    led_suit = st[S_TRICK] // rule(T, R_N_RANKS)
    following = (legal & _suit(T, led_suit)) != 0
    if mode == MODE_AVOID:
        if following:
            return _avoid_follow(seat, hand, legal, st, T, params, unseen)
        return _avoid_discard(seat, hand, legal, st, T, params, unseen)
    if following:
        return _chase_follow(seat, hand, legal, st, T, unseen, mode == MODE_MOON)
    return _chase_discard(legal, T)


@hot
def choose_card(kind, legal, st, T, params, rng):
    """The card the bot of ``kind`` with parameter row ``params`` (the caller passes
    ``bot_params[seat]``) plays for the seat to move."""
    if kind == RANDOM:
        return nth_bit_index(legal, randint(rng, popcount(legal)))
    seat = st[S_TO_MOVE]
    return heuristic_card(seat, legal, st, T, params)
