"""Trick play shared by every game: following suit and the trick winner.

Each ruleset describes its contracts (a trump suit, Grand, Null, a solo, ...) by three tables
indexed by [contract, card id]:
- ``eff_suit``: the suit the card belongs to in play, 0..3, or TRUMP (4) for trumps
  (a Skat jack or a Doppelkopf queen is TRUMP, not its printed suit);
- ``power``: its strength within that effective suit (higher wins; equal power, as with
  Doppelkopf's duplicate cards, leaves the earlier card winning);
- ``suit_masks`` [contract, s]: the mask of all cards whose effective suit is s (s = 0..4).
The kernels below never know which game they serve: they find the blocks through the header of
the flat table array (`simcards.engine.tables`).
"""

from __future__ import annotations

import numpy as np

from simcards._jit import kernel
from simcards.cards import lowest_bit_index
from simcards.engine.tables import H_EFF_SUIT, H_N_CARDS, H_POWER, H_SUIT_MASKS

TRUMP = 4
NO_TRUMP = -1


@kernel
def eff_suit(T, contract, card):
    """The effective suit of ``card`` under ``contract``: 0..3, or TRUMP."""
    return T[T[H_EFF_SUIT] + contract * T[H_N_CARDS] + card]


@kernel
def power(T, contract, card):
    """The strength of ``card`` within its effective suit under ``contract`` (higher wins)."""
    return T[T[H_POWER] + contract * T[H_N_CARDS] + card]


@kernel
def suit_mask(T, contract, suit):
    """Mask of every card whose effective suit under ``contract`` is ``suit`` (0..3 or TRUMP)."""
    return T[T[H_SUIT_MASKS] + contract * 5 + suit]


@kernel
def follow_mask(hand, led_suit, T, contract):
    """Cards of ``hand`` a player may play to a trick led in effective suit ``led_suit`` under
    plain follow-suit (the whole hand when void)."""
    same = hand & suit_mask(T, contract, led_suit)
    if same != 0:
        return same
    return hand


@kernel
def beats(card, best, T, contract):
    """Does ``card``, played after ``best``, take the trick from it?"""
    suit = eff_suit(T, contract, card)
    if suit == eff_suit(T, contract, best):
        return power(T, contract, card) > power(T, contract, best)
    return suit == TRUMP


@kernel
def trick_winner(cards, start, n_played, T, contract):
    """Position (0 = leader) of the card that wins a trick whose ``n_played`` cards stand at
    ``cards[start:]`` (an offset, not a slice: a view would cost a reference count)."""
    winner = 0
    for i in range(1, n_played):
        if beats(cards[start + i], cards[start + winner], T, contract):
            winner = i
    return winner


@kernel
def beating_mask(candidates, best, T, contract):
    """The cards of ``candidates`` that would take the trick from ``best``."""
    out = np.int64(0)
    rest = candidates
    while rest:
        card = lowest_bit_index(rest)
        if beats(card, best, T, contract):
            out |= np.int64(1) << card
        rest &= rest - 1
    return out


def suit_tables(n_ranks: int, copies: int, trump_suit: int, trump_power, plain_power):
    """(eff_suit, power, suit_masks) rows of one plain trump-suit contract such as
    Klaverjassen's: cards of ``trump_suit`` (none with NO_TRUMP) are trumps ranked by
    ``trump_power[rank]``, other cards rank by ``plain_power[rank]``."""
    n_cards = 4 * n_ranks * copies
    eff = np.empty(n_cards, dtype=np.int64)
    strength = np.empty(n_cards, dtype=np.int64)
    suit_masks = np.zeros(5, dtype=np.int64)
    for card in range(n_cards):
        suit = (card % (4 * n_ranks)) // n_ranks
        rank = card % n_ranks
        if suit == trump_suit:
            eff[card] = TRUMP
            strength[card] = trump_power[rank]
        else:
            eff[card] = suit
            strength[card] = plain_power[rank]
        suit_masks[eff[card]] |= np.int64(1) << card
    return eff, strength, suit_masks
