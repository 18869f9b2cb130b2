"""A slow, readable pure-Python reference of Doppelkopf card play, written from the rules
alone (docs/rules.md, doppelkopf): which cards are trumps in each contract, their order, legal
moves, the trick winner and Augen. It never imports the kernels."""

from __future__ import annotations

AUGEN = {"9": 0, "10": 10, "J": 2, "Q": 3, "K": 4, "A": 11}
QUEENS = ["QC", "QS", "QH", "QD"]
JACKS = ["JC", "JS", "JH", "JD"]


def trumps_of(contract: str) -> list[str]:
    """The trump codes of a contract, high to low."""
    if contract == "queen":
        return QUEENS
    if contract == "jack":
        return JACKS
    if contract == "fleshless":
        return []
    suit = {"normal": "D", "diamonds": "D", "clubs": "C", "spades": "S", "hearts": "H"}[contract]
    low = [r + suit for r in ("A", "10", "K", "9") if r + suit != "10H"]
    return ["10H"] + QUEENS + JACKS + low


def plain_ranks(contract: str) -> list[str]:
    if contract == "queen":
        return ["A", "10", "K", "J", "9"]
    if contract == "jack":
        return ["A", "10", "K", "Q", "9"]
    if contract == "fleshless":
        return ["A", "10", "K", "Q", "J", "9"]
    return ["A", "10", "K", "9"]


def suit_in_play(code: str, contract: str) -> str:
    """'T' for a trump, else the printed suit letter."""
    return "T" if code in trumps_of(contract) else code[-1]


def strength(code: str, contract: str) -> int:
    trumps = trumps_of(contract)
    if code in trumps:
        return 100 - trumps.index(code)
    return 10 - plain_ranks(contract).index(code[:-1])


def legal_moves_of(game, state) -> set[str]:
    """Follow the suit in play of the led card (trumps count as one suit) if you can."""
    hand = state.hand(state.to_move)
    trick = state.trick
    if not trick:
        return set(hand)
    led = suit_in_play(trick[0], state.contract)
    same = {c for c in hand if suit_in_play(c, state.contract) == led}
    return same or set(hand)


def trick_winner(cards: list[str], contract: str, second_ten_wins: bool = False) -> int:
    """Position of the winning card: the highest trump, else the highest of the led suit; of
    two identical cards the first (the second 10 of hearts with ``second_ten_wins``)."""
    best = 0
    for i in range(1, len(cards)):
        card, top = cards[i], cards[best]
        cs, ts = suit_in_play(card, contract), suit_in_play(top, contract)
        if second_ten_wins and card == top == "10H" and cs == "T":
            best = i
        elif cs == ts and strength(card, contract) > strength(top, contract):
            best = i
        elif cs == "T" and ts != "T":
            best = i
    return best


def augen(cards: list[str]) -> int:
    return sum(AUGEN[c[:-1]] for c in cards)
