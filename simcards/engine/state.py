"""The state layout every game shares, and the per-card bookkeeping on it.

A deal in progress is one int64 array. Its first ``S_GAME`` slots have the same meaning in every
game, so shared code (the interactive `TrickState`, the trick kernel, tests, a bot that only
needs the public facts) reads any game's state the same way; a game puts its own fields (points,
roem, hearts broken, ...) from ``S_GAME`` on. Per-seat blocks hold ``MAX_SEATS`` slots, so the
offsets are the same constants for three and four seats.

The header:
- ``S_TO_MOVE``, ``S_LEADER``: the seat to play and the seat that led the current trick;
- ``S_N_PLAYED``: cards in the current trick; ``S_TRICK_NO``: completed tricks;
- ``S_WIN_POS``: position in the current trick of the card winning it so far;
- ``S_LAST_WINNER``: winner of the last completed trick (-1 before); ``S_DEALER``;
- ``S_PLAYED``: mask of every card played so far (current trick included);
- ``S_HAND`` [seat]: the cards still held; ``S_TRICK`` [position]: the current trick's cards in
  play order; ``S_VOIDS`` [seat]: bit s set when the seat has shown it holds no card of
  effective suit s (0..3, 4 = trumps).

The contract record (what the deal is played for; the game fills it when play starts):
- ``S_CONTRACT``: index of the contract in the game's trick tables (the trump suit in
  Klaverjassen, 0 in Hearts);
- ``S_DECLARER``: the declaring seat, -1 where there is none;
- ``S_PARTY``: bit mask of the seats of the declaring party (Klaverjassen: the declarer's team;
  0 where there are no parties);
- ``S_MULTIPLIER``: the stake multiplier (1 unless a bid or announcement raises it).

Parties live here as a mask, given per deal by the game: shared code never derives them from
seat numbers.
"""

from __future__ import annotations

import numpy as np

from simcards._jit import hot

MAX_SEATS = 4

S_TO_MOVE = 0
S_LEADER = 1
S_N_PLAYED = 2
S_TRICK_NO = 3
S_WIN_POS = 4
S_LAST_WINNER = 5
S_DEALER = 6
S_PLAYED = 7
S_CONTRACT = 8
S_DECLARER = 9
S_PARTY = 10
S_MULTIPLIER = 11
S_HAND = 12  # MAX_SEATS slots
S_TRICK = S_HAND + MAX_SEATS  # MAX_SEATS slots
S_VOIDS = S_TRICK + MAX_SEATS  # MAX_SEATS slots
S_GAME = S_VOIDS + MAX_SEATS  # a game's own slots start here


@hot
def start_play(st, hands, n_seats, dealer, leader, contract, declarer, party):
    """Clear ``st`` (all of it, game slots included) and set up the play of a deal."""
    st[:] = 0
    for seat in range(n_seats):
        st[S_HAND + seat] = hands[seat]
    st[S_DEALER] = dealer
    st[S_LEADER] = leader
    st[S_TO_MOVE] = leader
    st[S_LAST_WINNER] = -1
    st[S_CONTRACT] = contract
    st[S_DECLARER] = declarer
    st[S_PARTY] = party
    st[S_MULTIPLIER] = 1


@hot
def next_seat(seat, n_seats):
    """The seat after ``seat`` in play order (a select, not a modulo: no sign fix-up)."""
    after = seat + 1
    return 0 if after == n_seats else after


@hot
def place_card(st, seat, n, card):
    """The bookkeeping of every played card: it leaves the hand of ``seat`` and becomes card
    ``n`` of the trick; returns the number of cards now in the trick. The caller has updated
    ``S_WIN_POS`` and the voids (they need the game's card order)."""
    bit = np.int64(1) << card
    st[S_HAND + seat] &= ~bit
    st[S_TRICK + n] = card
    st[S_PLAYED] |= bit
    return n + 1


@hot
def lay_card(st, seat, n, card, n_seats):
    """`place_card` and, when the trick is not yet complete, `pass_turn`; returns True when
    ``card`` completed the trick (the game then scores it and calls `close_trick`)."""
    n = place_card(st, seat, n, card)
    if n < n_seats:
        pass_turn(st, seat, n, n_seats)
        return False
    return True


@hot
def pass_turn(st, seat, n, n_seats):
    """After a card that did not complete the trick: ``n`` cards lie, the next seat plays."""
    st[S_N_PLAYED] = n
    st[S_TO_MOVE] = next_seat(seat, n_seats)


@hot
def close_trick(st, winner):
    """The trick is complete and ``winner`` took it: count it and let the winner lead."""
    st[S_TRICK_NO] += 1
    st[S_LEADER] = winner
    st[S_TO_MOVE] = winner
    st[S_N_PLAYED] = 0
    st[S_LAST_WINNER] = winner


@hot
def trick_cards_mask(st, n):
    """Mask of the first ``n`` cards of the current trick."""
    mask = np.int64(0)
    for i in range(n):
        mask |= np.int64(1) << st[S_TRICK + i]
    return mask
