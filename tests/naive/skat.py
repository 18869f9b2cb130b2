"""A slow, readable pure-Python reference of Skat (docs/rules.md, skat), written from the rules
text alone: card orders, legal moves, trick winners, card points and the auction.

It never imports the kernels: the tests compare the two on random deals and positions. Cards
are codes such as "JC" or "10H".
"""

from __future__ import annotations

CONTRACTS = ("diamonds", "hearts", "spades", "clubs", "grand", "null")
TRUMP_SUIT = {"diamonds": "D", "hearts": "H", "spades": "S", "clubs": "C"}
POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
PLAIN_ORDER = ("7", "8", "9", "Q", "K", "10", "A")  # low -> high, jacks apart
JACK_ORDER = ("JD", "JH", "JS", "JC")  # low -> high
NULL_ORDER = ("7", "8", "9", "10", "J", "Q", "K", "A")
LADDER = (18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40, 44, 45, 46, 48, 50, 54, 55, 59, 60, 63, 66,
          70, 72, 77, 80, 81, 84, 88, 90, 96, 99, 100, 108, 110, 117, 120, 121, 126, 130, 132,
          135, 140, 143, 144, 150, 153, 154, 156, 160, 162, 165, 168, 170, 176, 180, 187, 192,
          198, 204, 216, 240, 264)  # copied from the rules text


def split(code: str) -> tuple[str, str]:
    return code[:-1], code[-1]


def is_trump(code: str, contract: str) -> bool:
    rank, suit = split(code)
    if contract == "null":
        return False
    if rank == "J":
        return True
    return TRUMP_SUIT.get(contract) == suit


def effective_suit(code: str, contract: str) -> str:
    return "T" if is_trump(code, contract) else split(code)[1]


def strength(code: str, contract: str) -> int:
    """Rank of a card within its effective suit (higher wins)."""
    rank, _ = split(code)
    if contract == "null":
        return NULL_ORDER.index(rank)
    if rank == "J":
        return 10 + JACK_ORDER.index(code)
    return PLAIN_ORDER.index(rank)


def legal_moves(hand, trick: list[str], contract: str) -> set[str]:
    if not trick:
        return set(hand)
    led = effective_suit(trick[0], contract)
    same = {c for c in hand if effective_suit(c, contract) == led}
    return same or set(hand)


def trick_winner(trick: list[str], contract: str) -> int:
    """Position (0 = leader) of the winning card."""
    best = 0
    for i in range(1, len(trick)):
        a, b = trick[i], trick[best]
        if effective_suit(a, contract) == effective_suit(b, contract):
            if strength(a, contract) > strength(b, contract):
                best = i
        elif is_trump(a, contract):
            best = i
    return best


def card_points(cards) -> int:
    return sum(POINTS[split(c)[0]] for c in cards)


def legal_moves_of(game, state) -> set[str]:
    """The contract test's hook: the legal cards of the seat to move in ``state``."""
    return legal_moves(state.hand(state.to_move), state.trick, CONTRACTS[state.contract])


def auction(dealer: int, limits: list[int]) -> tuple[int, int]:
    """(declarer, bid) when every seat bids and holds step by step up to its limit (0: never
    bids; forehand plays at 18 when its limit reaches it): the rules' auction order."""
    forehand, middlehand, rearhand = (dealer + 1) % 3, (dealer + 2) % 3, dealer

    def duel(holder, bidder, current):
        while True:
            nxt = next((v for v in LADDER if v > current), None)
            if nxt is None or nxt > limits[bidder]:
                return holder, current
            if nxt <= limits[holder]:
                current = nxt
            else:
                return bidder, nxt

    survivor, bid = duel(forehand, middlehand, 0)
    survivor, bid = duel(survivor, rearhand, bid)
    if bid:
        return survivor, bid
    if limits[forehand] >= 18:
        return forehand, 18
    return -1, 0


BASE_VALUE = {"diamonds": 9, "hearts": 10, "spades": 11, "clubs": 12, "grand": 24}
NULL_VALUE = {(False, False): 23, (True, False): 35, (False, True): 46, (True, True): 59}  # (Hand, Ouvert)


def matadors(cards, contract: str) -> int:
    """Matadors of the declarer's cards: +k "with k", -k "without k" (the run of top trumps
    from the club jack down that the cards hold, or lack)."""
    order = [f"J{s}" for s in "CSHD"]
    if contract in TRUMP_SUIT:
        order += [rank + TRUMP_SUIT[contract] for rank in reversed(PLAIN_ORDER)]
    holds = [code in set(cards) for code in order]
    run = next((k for k, held in enumerate(holds) if held != holds[0]), len(holds))
    return run if holds[0] else -run


def expected_score(contract: str, ouvert: bool, hand: bool, cards12, bid: int, p: float,
                   seeger: bool) -> float:
    """The declarer's expected score of a game won with chance p: +value won, -2 x value lost,
    Seeger-Fabian 50 more either way; the value without Schneider, at least the bid."""
    if contract == "null":
        value = NULL_VALUE[(hand, ouvert)]
    else:
        value = BASE_VALUE[contract] * (abs(matadors(cards12, contract)) + 1 + hand)
    value = max(value, bid)
    won, lost = value + 50 * seeger, -2 * value - 50 * seeger
    return p * won + (1 - p) * lost
