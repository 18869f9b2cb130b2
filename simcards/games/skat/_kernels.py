"""Skat rules as Numba kernels: legal moves, applying a card (a Null stops at the declarer's
first trick), matadors, the highest value a declaration can reach, and settlement.

A deal in play is one int64 array: the shared header and contract record of
simcards/engine/state.py (the declaring party is the mask of the declarer alone), then the
Skat slots below. The batch loop (_play.py) and the interactive `SkatState` (game.py) both
advance it with `apply_card`. `settle_into` is the kernel twin of the public `scoring.settle`
(tests/test_skat_scoring_kernels.py holds them equal).
"""

from __future__ import annotations

import numpy as np

from simcards._jit import hot, kernel
from simcards.cards import lowest_bit_index
from simcards.engine.state import (
    S_CONTRACT,
    S_DECLARER,
    S_GAME,
    S_HAND,
    S_LEADER,
    S_N_PLAYED,
    S_TO_MOVE,
    S_TRICK,
    S_TRICK_NO,
    S_VOIDS,
    S_WIN_POS,
    close_trick,
    lay_card,
    start_play,
)
from simcards.engine.trick import beats, eff_suit, follow_mask
from simcards.games.skat.rules import (
    N_SEATS,
    N_TRICKS,
    NULL,
    T_BASE,
    T_N_TRUMPS,
    T_POINTS,
    T_TRUMP_ORDER,
)

# ---- Skat's own slots, from S_GAME on
S_POINTS = S_GAME  # 3 slots: card points each seat took in tricks
S_TRICKS = S_POINTS + N_SEATS  # 3 slots: tricks each seat took
S_OVER = S_TRICKS + N_SEATS  # the deal is over (ten tricks, or a Null's declarer took one)
S_SKAT = S_OVER + 1  # the two cards that count for the declarer (discard, or the Skat in Hand)
S_CARDS12 = S_SKAT + 1  # the declarer's ten dealt cards plus the Skat (for the matadors)
S_BID = S_CARDS12 + 1
S_HAND_GAME = S_BID + 1
S_SCHNEIDER_ANN = S_HAND_GAME + 1
S_SCHWARZ_ANN = S_SCHNEIDER_ANN + 1
S_OUVERT = S_SCHWARZ_ANN + 1  # the declarer's hand is open: defenders' bots read it
S_KONTRA = S_OUVERT + 1  # 0 none, 1 Kontra, 2 Re
S_PLAYED_BY = S_KONTRA + 1  # 3 slots: the cards each seat has played (pimc's samples, _pimc.py)
STATE_SIZE = S_PLAYED_BY + N_SEATS

# ---- the settlement record `settle_into` fills
(X_WON, X_OVERBID, X_VALUE, X_GAME_VALUE, X_SCHNEIDER, X_SCHWARZ, X_LIST, X_SEEGER,
 X_SEEGER_DEFENDER, X_MATADORS) = range(10)
N_SETTLE = 10
SEEGER_WIN, SEEGER_LOSS, SEEGER_DEFENDER = 50, 50, 40


@kernel
def card_points(T, card):
    return T[T_POINTS + card]


@kernel
def mask_points(T, mask):
    total = 0
    rest = mask
    while rest:
        total += T[T_POINTS + lowest_bit_index(rest)]
        rest &= rest - 1
    return total


@kernel
def new_state(st, hands, dealer, contract, declarer, skat, cards12, bid, hand_game,
              schneider_ann, schwarz_ann, ouvert, kontra):
    """Start the play of a declared game: ``hands`` as held after the pickup and discard,
    ``skat`` the two cards counting for the declarer, ``cards12`` his dealt cards plus the
    Skat. Forehand leads."""
    forehand = dealer + 1 if dealer + 1 < N_SEATS else 0
    start_play(st, hands, N_SEATS, dealer, forehand, contract, declarer, np.int64(1) << declarer)
    st[S_SKAT] = skat
    st[S_CARDS12] = cards12
    st[S_BID] = bid
    st[S_HAND_GAME] = hand_game
    st[S_SCHNEIDER_ANN] = schneider_ann
    st[S_SCHWARZ_ANN] = schwarz_ann
    st[S_OUVERT] = ouvert
    st[S_KONTRA] = kontra


@kernel
def new_passed_state(st, hands, dealer):
    """A passed-in deal: nobody plays, the deal is over at once."""
    start_play(st, hands, N_SEATS, dealer, dealer + 1 if dealer + 1 < N_SEATS else 0, NULL, -1, 0)
    st[S_OVER] = 1


@hot
def legal_mask(st, T):
    """Cards the seat to move may play: follow the led effective suit, else anything."""
    hand = st[S_HAND + st[S_TO_MOVE]]
    if st[S_N_PLAYED] == 0:
        return hand
    contract = st[S_CONTRACT]
    return follow_mask(hand, eff_suit(T, contract, st[S_TRICK]), T, contract)


@hot
def apply_card(st, card, T):
    """Play ``card`` for the seat to move (the caller checked it is legal); True when the
    deal is over (ten tricks, or a Null whose declarer took this trick)."""
    seat = st[S_TO_MOVE]
    n = st[S_N_PLAYED]
    contract = st[S_CONTRACT]
    if n == 0:
        st[S_WIN_POS] = 0
    else:
        led = eff_suit(T, contract, st[S_TRICK])
        if eff_suit(T, contract, card) != led:
            st[S_VOIDS + seat] |= np.int64(1) << led
        if beats(card, st[S_TRICK + st[S_WIN_POS]], T, contract):
            st[S_WIN_POS] = n
    st[S_PLAYED_BY + seat] |= np.int64(1) << card
    if not lay_card(st, seat, n, card, N_SEATS):
        return False
    return complete_trick(st, T)


@kernel
def complete_trick(st, T):
    winner = st[S_LEADER] + st[S_WIN_POS]
    if winner >= N_SEATS:
        winner -= N_SEATS
    st[S_POINTS + winner] += (T[T_POINTS + st[S_TRICK]] + T[T_POINTS + st[S_TRICK + 1]]
                              + T[T_POINTS + st[S_TRICK + 2]])
    st[S_TRICKS + winner] += 1
    close_trick(st, winner)
    if st[S_TRICK_NO] == N_TRICKS or (st[S_CONTRACT] == NULL and winner == st[S_DECLARER]):
        st[S_OVER] = 1
        return True
    return False


@kernel
def declarer_points(st, T):
    """Card points of the declarer: his tricks and the two cards counting for him."""
    return st[S_POINTS + st[S_DECLARER]] + mask_points(T, st[S_SKAT])


@kernel
def matadors(cards, contract, T):
    """Matadors of the declarer's twelve cards, signed: +k "with k", -k "without k" (0 in Null);
    at most 4 in Grand, 11 in a suit game (every trump)."""
    n = T[T_N_TRUMPS + contract]
    if n == 0:
        return 0
    top = T[T_TRUMP_ORDER + contract * 11]
    with_ = (cards >> top) & 1
    count = 0
    for k in range(n):
        card = T[T_TRUMP_ORDER + contract * 11 + k]
        if ((cards >> card) & 1) != with_:
            break
        count += 1
    return count if with_ else -count


@kernel
def max_matadors_unseen_skat(hand10, contract, T):
    """The most matadors (either sign) ten cards can have once an unseen Skat joins them:
    the best case over every pair of cards the hand does not hold (a Hand game's declarer
    counts this when it checks whether the game can reach the bid)."""
    n = T[T_N_TRUMPS + contract]
    if n == 0:
        return 0
    unseen = np.int64(0)
    for k in range(n):
        card = T[T_TRUMP_ORDER + contract * 11 + k]
        if not (hand10 >> card) & 1:
            unseen |= np.int64(1) << card
    best = abs(matadors(hand10, contract, T))  # a Skat of non-trumps
    a = unseen
    while a:
        first = np.int64(1) << lowest_bit_index(a)
        a &= a - 1
        best = max(best, abs(matadors(hand10 | first, contract, T)))
        b = a
        while b:
            second = np.int64(1) << lowest_bit_index(b)
            b &= b - 1
            best = max(best, abs(matadors(hand10 | first | second, contract, T)))
    return best


@kernel
def level_count(hand_game, schneider, schneider_ann, schwarz, schwarz_ann, ouvert):
    """The multiplier's levels beyond matadors + 1, each once; announced levels count as
    reached, Schwarz includes Schneider, Ouvert includes Hand and Schwarz announced."""
    schwarz_ann = schwarz_ann or ouvert
    schneider_ann = schneider_ann or schwarz_ann
    schwarz = schwarz or schwarz_ann
    schneider = schneider or schwarz or schneider_ann
    hand_game = hand_game or ouvert
    return (int(hand_game) + int(schneider) + int(schneider_ann) + int(schwarz) + int(schwarz_ann)
            + int(ouvert))


@kernel
def null_value(hand_game, ouvert):
    if ouvert:
        return 59 if hand_game else 46
    return 35 if hand_game else 23


@kernel
def max_value(matador_count, contract, hand_game, schneider_ann, schwarz_ann, ouvert, T):
    """The highest value a declaration can reach with ``matador_count`` matadors: every
    level it may still win counted (Schneider and Schwarz are always still possible)."""
    if contract == NULL:
        return null_value(hand_game, ouvert)
    levels = level_count(hand_game, True, schneider_ann, True, schwarz_ann, ouvert)
    return T[T_BASE + contract] * (matador_count + 1 + levels)


@kernel
def settle_into(cards12, contract, bid, points, tricks, hand_game, schneider_ann, schwarz_ann,
                ouvert, T, out):
    """The result of a played game into ``out`` (X_* slots): the kernel twin of
    `simcards.games.skat.scoring.settle`. ``points`` and ``tricks`` are the declarer's (the
    Skat's points included)."""
    schneider = points <= 30 or points >= 90
    schwarz = tricks == 0 or tricks == 10
    m = matadors(cards12, contract, T)
    out[X_MATADORS] = m
    out[X_SCHNEIDER] = schneider
    out[X_SCHWARZ] = schwarz
    if contract == NULL:
        value = null_value(hand_game, ouvert)
        unit = value
        won = tricks == 0
    else:
        unit = T[T_BASE + contract]
        value = unit * (abs(m) + 1 + level_count(hand_game, schneider, schneider_ann, schwarz,
                                                  schwarz_ann, ouvert))
        schwarz_ann = schwarz_ann or ouvert
        schneider_ann = schneider_ann or schwarz_ann
        won = points >= 61 and (points >= 90 or not schneider_ann) and (tricks == 10 or not schwarz_ann)
    out[X_GAME_VALUE] = value
    overbid = value < bid
    if overbid:
        value = (bid + unit - 1) // unit * unit
        won = False
    out[X_WON] = won
    out[X_OVERBID] = overbid
    out[X_VALUE] = value
    out[X_LIST] = value if won else -2 * value
    out[X_SEEGER] = value + SEEGER_WIN if won else -2 * value - SEEGER_LOSS
    out[X_SEEGER_DEFENDER] = 0 if won else SEEGER_DEFENDER


@kernel
def can_reach(hand10, cards12, contract, bid, hand_game, schneider_ann, schwarz_ann, ouvert, T):
    """May the declarer declare this game at ``bid``? In a pickup game he knows his twelve
    cards (``cards12``); in a Hand game he counts the best matadors an unseen Skat could
    give his ten (``hand10``)."""
    if contract == NULL:
        return null_value(hand_game, ouvert) >= bid
    if hand_game or ouvert:
        m = max_matadors_unseen_skat(hand10, contract, T)
    else:
        m = abs(matadors(cards12, contract, T))
    return max_value(m, contract, hand_game, schneider_ann, schwarz_ann, ouvert, T) >= bid
