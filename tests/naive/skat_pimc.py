"""A slow, readable reference for Skat's pimc sampler (simcards/games/skat/_pimc.py): every
deal of the cards a seat cannot see that agrees with what the seat knows, by brute force.

What a seat knows, from the rules text: its own hand, every card played and by whom, the
number of cards each seat still holds, the suits a seat has shown it lacks (it did not follow
the led effective suit, tests/naive/skat.py), its own discard when it is the declarer after a
pickup, and the declarer's hand when the game is Ouvert. The Skat's two cards are unseen by
the defenders and, in a Hand game, by the declarer. It never imports the kernels.
"""

from __future__ import annotations

import itertools

from naive import skat as NS

CONTRACTS = ("diamonds", "hearts", "spades", "clubs", "grand", "null")


def shown_voids(history, contract: str) -> list[set[str]]:
    """Per seat, the effective suits ("C", "S", "H", "D", "T") it has failed to follow."""
    voids = [set(), set(), set()]
    for start in range(0, len(history), 3):
        trick = history[start:start + 3]
        led = NS.effective_suit(trick[0][1], contract)
        for seat, code in trick[1:]:
            if NS.effective_suit(code, contract) != led:
                voids[seat].add(led)
    return voids


def hidden_receivers(state, seat: int) -> tuple[bool, bool, bool]:
    """Whether the seat after ``seat``, the one after that and the Skat are unseen by it."""
    others = [(seat + 1) % 3, (seat + 2) % 3]
    open_hand = state.ouvert and seat != state.declarer
    skat_hidden = seat != state.declarer or state.hand_game
    return (not (open_hand and others[0] == state.declarer),
            not (open_hand and others[1] == state.declarer), skat_hidden)


def unseen_cards(state, seat: int) -> set[str]:
    deck = set(state.game.deck.codes)
    known = set(state.hand(seat)) | {code for _, code in state.history}
    hidden = hidden_receivers(state, seat)
    for i, other in enumerate(((seat + 1) % 3, (seat + 2) % 3)):
        if not hidden[i]:
            known |= set(state.hand(other))
    if not hidden[2]:
        known |= set(state.game.deck.hand_codes(state.discard))
    return deck - known


def consistent_deals(state, seat: int) -> set[tuple[frozenset, frozenset, frozenset]]:
    """Every (cards of the seat after ``seat``, of the one after that, of the Skat) among the
    unseen cards (empty for a receiver the seat sees) with the right sizes and no card of a
    suit its holder has shown it lacks."""
    contract = CONTRACTS[state.contract]
    voids = shown_voids(state.history, contract)
    hidden = hidden_receivers(state, seat)
    others = [(seat + 1) % 3, (seat + 2) % 3]
    sizes = [len(state.hand(o)) if hidden[i] else 0 for i, o in enumerate(others)]
    unseen = sorted(unseen_cards(state, seat))
    out = set()
    for first in itertools.combinations(unseen, sizes[0]):
        rest = [c for c in unseen if c not in first]
        for second in itertools.combinations(rest, sizes[1]):
            skat = frozenset(c for c in rest if c not in second)
            hands = (frozenset(first), frozenset(second))
            if all(NS.effective_suit(c, contract) not in voids[others[i]]
                   for i in range(2) for c in hands[i]):
                out.add((hands[0], hands[1], skat))
    return out


def is_consistent(state, seat: int, first, second, skat) -> bool:
    """Is one sampled deal (card code sets) among `consistent_deals`, checked without listing
    them all?"""
    contract = CONTRACTS[state.contract]
    voids = shown_voids(state.history, contract)
    hidden = hidden_receivers(state, seat)
    others = [(seat + 1) % 3, (seat + 2) % 3]
    parts = [set(first), set(second), set(skat)]
    sizes = [len(state.hand(o)) if hidden[i] else 0 for i, o in enumerate(others)]
    sizes.append(2 if hidden[2] else 0)
    if [len(p) for p in parts] != sizes:
        return False
    if parts[0] & parts[1] or parts[0] & parts[2] or parts[1] & parts[2]:
        return False
    if parts[0] | parts[1] | parts[2] != unseen_cards(state, seat):
        return False
    return all(NS.effective_suit(c, contract) not in voids[others[i]]
               for i in range(2) for c in parts[i])
