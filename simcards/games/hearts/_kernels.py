"""Hartenjagen / Hearts rules as Numba kernels: legal moves, applying a card, deal scoring,
moon, passing and placings.

A deal in progress is one int64 array: the shared header and contract record of
simcards/engine/state.py, then the Hearts slots below (from ``S_GAME``). The batch loop
(_play.py) and the interactive `HeartsState` (game.py) both advance it with `apply_card`, so
there is one implementation of the rules. Bots read only the public slots and their own hand.
"""

from __future__ import annotations

import numpy as np

from simcards._jit import hot, kernel
from simcards.engine.state import (  # noqa: F401  re-exported for the Hearts bots
    S_GAME,
    S_HAND,
    S_LEADER,
    S_N_PLAYED,
    S_PLAYED,
    S_TO_MOVE,
    S_TRICK,
    S_TRICK_NO,
    S_VOIDS,
    S_WIN_POS,
    close_trick,
    lay_card,
    next_seat,
    start_play,
)
from simcards.engine.trick import beats, eff_suit, suit_mask
from simcards.games.hearts.rules import (
    CONTRACT,
    MOON_CHOOSE,
    MOON_OTHERS,
    MOON_SCORED_OTHERS,
    MOON_SCORED_SELF,
    MOON_SELF,
    PASS_CYCLE,
    R_DUTCH,
    R_HAND_SIZE,
    R_HEARTS,
    R_JC,
    R_LEAD_2C,
    R_MOON,
    R_MUST_BREAK,
    R_NO_POINTS_FIRST,
    R_PASSING,
    R_POINT_CARDS,
    R_QS,
    R_QS_BREAKS,
    R_TARGET,
    R_TOTAL,
    T_POINTS,
    T_RULES,
)

# ---- deal state: the shared header and contract record (simcards/engine/state.py; re-exported
# here, where `TrickState` and the bots look them up), then Hearts' own slots from S_GAME on
S_POINTS = S_GAME  # 4 slots: points taken per seat this deal
S_TRICKS = S_POINTS + 4  # 4 slots: tricks taken per seat
S_BROKEN = S_TRICKS + 4  # hearts broken
S_QS_TAKER = S_BROKEN + 1  # seat that took the QS, -1 before
S_JC_TAKER = S_QS_TAKER + 1  # seat that took the JC (Dutch), -1 before
S_PHASE = S_JC_TAKER + 1  # 0 outbound (American: always), 1 Dutch return: points are chased
S_SCORE = S_PHASE + 1  # 4 slots: game scores before this deal (public)
S_MOON_TRY = S_SCORE + 4  # first seat (from the leader) whose bot set out to shoot the moon, -1
S_TAKEN = S_MOON_TRY + 1  # 4 slots: point cards taken per seat (masks)
S_MOON_SEATS = S_TAKEN + 4  # bit s: seat s's bot set out to shoot the moon (from its own hand)
STATE_SIZE = S_MOON_SEATS + 1

PHASE_OUTBOUND, PHASE_RETURN = 0, 1


@kernel
def rule(T, slot):
    return T[T_RULES + slot]


@kernel
def card_points(T, card):
    return T[T_POINTS + card]


@kernel
def n_tricks(T):
    return T[T_RULES + R_HAND_SIZE]


@kernel
def pass_offset(T, deal_no):
    """Seat offset of the receiver of passed cards in deal ``deal_no`` of a game (0: no pass)."""
    if T[T_RULES + R_PASSING] == 0:
        return 0
    k = deal_no % 4
    if k == 0:
        return PASS_CYCLE[0]
    if k == 1:
        return PASS_CYCLE[1]
    if k == 2:
        return PASS_CYCLE[2]
    return PASS_CYCLE[3]


@kernel
def apply_passes(hands, passes, offset):
    """Hands after every seat passed ``passes[seat]`` to seat + offset (in place)."""
    if offset == 0:
        return
    for seat in range(4):
        hands[seat] &= ~passes[seat]
    for seat in range(4):
        hands[(seat + offset) % 4] |= passes[seat]


@kernel
def first_leader(hands, dealer, T):
    """Holder of the 2 of clubs (American) or forehand (Dutch)."""
    if rule(T, R_LEAD_2C) != 0:
        for seat in range(4):
            if hands[seat] & 1:
                return seat
    return next_seat(dealer, 4)


@kernel
def new_state(st, hands, dealer, scores, phase, T):
    """Start the play of a deal in ``st`` (the hands are those after passing): the one
    no-trump contract, no declarer and no parties (every seat plays for itself)."""
    start_play(st, hands, 4, dealer, first_leader(hands, dealer, T), CONTRACT, -1, 0)
    for seat in range(4):
        st[S_SCORE + seat] = scores[seat]
    st[S_QS_TAKER] = -1
    st[S_JC_TAKER] = -1
    st[S_MOON_TRY] = -1
    st[S_PHASE] = phase
    st[S_BROKEN] = 1 - rule(T, R_MUST_BREAK)


@hot
def legal_mask(st, T):
    """Mask of the cards the seat to move may play (docs/rules.md, hartenjagen and hearts)."""
    seat = st[S_TO_MOVE]
    hand = st[S_HAND + seat]
    trick_no = st[S_TRICK_NO]
    if st[S_N_PLAYED] == 0:
        if trick_no == 0 and rule(T, R_LEAD_2C) != 0:
            return hand & 1
        if st[S_BROKEN] == 0:
            others = hand & ~rule(T, R_HEARTS)
            if others != 0:
                return others
        return hand
    same = hand & suit_mask(T, CONTRACT, eff_suit(T, CONTRACT, st[S_TRICK]))
    if same != 0:
        return same
    if trick_no == 0 and rule(T, R_NO_POINTS_FIRST) != 0:
        safe = hand & ~rule(T, R_POINT_CARDS)
        if safe != 0:
            return safe
    return hand


@hot
def apply_card(st, card, T):
    """Play ``card`` for the seat to move (the caller has checked it is legal). Completes the
    trick when it is the fourth card; returns True when that ended the deal."""
    seat = st[S_TO_MOVE]
    n = st[S_N_PLAYED]
    suit = eff_suit(T, CONTRACT, card)
    if n == 0:
        st[S_WIN_POS] = 0
    else:
        led = eff_suit(T, CONTRACT, st[S_TRICK])
        if suit != led:
            st[S_VOIDS + seat] |= np.int64(1) << led
        if beats(card, st[S_TRICK + st[S_WIN_POS]], T, CONTRACT):
            st[S_WIN_POS] = n
    if suit == 2 or (card == rule(T, R_QS) and rule(T, R_QS_BREAKS) != 0):
        st[S_BROKEN] = 1
    if not lay_card(st, seat, n, card, 4):
        return False
    return complete_trick(st, T)


@kernel
def complete_trick(st, T):
    winner = (st[S_LEADER] + st[S_WIN_POS]) % 4
    points = 0
    taken = np.int64(0)
    qs = rule(T, R_QS)
    jc = rule(T, R_JC)
    for i in range(4):
        card = st[S_TRICK + i]
        p = card_points(T, card)
        if p != 0:
            points += p
            taken |= np.int64(1) << card
        if card == qs:
            st[S_QS_TAKER] = winner
        elif card == jc:
            st[S_JC_TAKER] = winner
    st[S_POINTS + winner] += points
    st[S_TAKEN + winner] |= taken
    st[S_TRICKS + winner] += 1
    close_trick(st, winner)
    return st[S_TRICK_NO] == n_tricks(T)


@kernel
def is_over(st, T):
    return st[S_TRICK_NO] == n_tricks(T)


@kernel
def moon_shooter(st, T):
    """Seat that took every point of the finished deal, or -1."""
    total = rule(T, R_TOTAL)
    for seat in range(4):
        if st[S_POINTS + seat] == total:
            return seat
    return -1


@kernel
def choose_moon_option(st, shooter, T):
    """The ``choose`` rule (rules.py header): ``others`` when the shooter ranks first after the
    deal (the ranking is the same either way), else ``self``. Reads the scores before the deal
    from ``st``."""
    total = rule(T, R_TOTAL)
    place = 1
    for other in range(4):
        if other != shooter and st[S_SCORE + other] + total < st[S_SCORE + shooter]:
            place += 1
    return MOON_OTHERS if place == 1 else MOON_SELF


@kernel
def score_deal(st, T, deltas):
    """Score changes of the finished deal into ``deltas[0:4]``; returns (moon seat or -1,
    moon option column value). Reads the phase and the scores before the deal from ``st``."""
    total = rule(T, R_TOTAL)
    if st[S_PHASE] == PHASE_RETURN:
        for seat in range(4):
            deltas[seat] = -st[S_POINTS + seat]
        return -1, 0
    shooter = moon_shooter(st, T)
    if shooter < 0:
        for seat in range(4):
            deltas[seat] = st[S_POINTS + seat]
        return -1, 0
    option = rule(T, R_MOON)
    if option == MOON_CHOOSE:
        option = choose_moon_option(st, shooter, T)
    for seat in range(4):
        deltas[seat] = 0
    if option == MOON_OTHERS:
        for seat in range(4):
            if seat != shooter:
                deltas[seat] = total
        return shooter, MOON_SCORED_OTHERS
    deltas[shooter] = -total
    return shooter, MOON_SCORED_SELF


@kernel
def game_over(scores, phase, T):
    """After a deal of ``phase`` left ``scores``: (game over?, phase of the next deal)."""
    target = rule(T, R_TARGET)
    if rule(T, R_DUTCH) == 0:
        for seat in range(4):
            if scores[seat] >= target:
                return True, phase
        return False, phase
    if phase == PHASE_RETURN:
        for seat in range(4):
            if scores[seat] <= 0:
                return True, phase
        return False, phase
    for seat in range(4):
        if scores[seat] >= target:
            return False, PHASE_RETURN
    return False, phase


@kernel
def placings(scores, last_points, dutch_end, places):
    """Placings 1..4 into ``places`` (lower score better; equal keys share a place). With
    ``dutch_end`` the seats at or below 0 are first compared by score, then by the most points
    taken in the last deal (``last_points``)."""
    for seat in range(4):
        place = 1
        for other in range(4):
            if scores[other] < scores[seat]:
                place += 1
            elif (dutch_end and scores[other] == scores[seat] and scores[seat] <= 0
                  and last_points[other] > last_points[seat]):
                place += 1
        places[seat] = place
