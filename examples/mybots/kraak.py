"""A small Python Kraken bot (docs/own-bot.md): it names its longest suit as trump, kraaks
on a simple count of its hand, and plays plain, readable card rules.

Use it in a config with::

    [[bots]]
    kind = "python"
    entry = "mybots.kraak:MyBot"
    params = { kraak_at = 7 }

Every method receives a read-only view of what its seat may know (card codes such as "JC",
"10H"; see `simcards.games.userbots`) and returns its answer. A fresh MyBot plays each seat of
each deal, so it may take notes on ``self`` within a deal but never carries anything over.
"""

RANKS = ("7", "8", "9", "10", "J", "Q", "K", "A")
PLAIN_ORDER = ("7", "8", "9", "J", "Q", "K", "10", "A")  # weakest first outside trumps
TRUMP_ORDER = ("7", "8", "Q", "K", "10", "A", "9", "J")  # weakest first in trumps


def suit(code: str) -> str:
    return code[-1]


def rank(code: str) -> str:
    return code[:-1]


class MyBot:
    def __init__(self, kraak_at: float = 7.0):
        self.kraak_at = kraak_at  # hand strength from which this bot kraaks (its own parameter)

    # --- the contract
    def choose_trump(self, view) -> str:
        """The suit with the most cards, the jack and nine counting double."""
        def weight(s):
            return sum(2 if rank(c) in ("J", "9") and suit(c) == s else 1
                       for c in view.hand if suit(c) == s)
        return max("CDHS", key=weight)

    def strength(self, view) -> float:
        """Trumps count 1 (jack and nine 2), side aces 1."""
        value = 0.0
        for card in view.hand:
            if suit(card) == view.trump:
                value += 2 if rank(card) in ("J", "9") else 1
            elif rank(card) == "A":
                value += 1
        return value

    def bid(self, view) -> bool:
        """Kraak (or rekraak ...) when the hand is strong enough; higher bids need more."""
        return self.strength(view) >= self.kraak_at + 2 * len(view.bids)

    # --- card play
    def power(self, view, card: str) -> int:
        if suit(card) == view.trump:
            return 100 + TRUMP_ORDER.index(rank(card))
        return PLAIN_ORDER.index(rank(card))

    def play(self, view) -> str:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if not view.trick:  # lead: the strongest card of the longest plain suit
            plain = [c for c in legal if suit(c) != view.trump] or list(legal)
            # suits in a fixed order: a set of strings iterates in an order that changes from
            # process to process (hash randomisation), which would break reproducibility
            suits = [s for s in "CDHS" if any(suit(c) == s for c in plain)]
            longest = max(suits, key=lambda s: sum(suit(c) == s for c in plain))
            return max((c for c in plain if suit(c) == longest), key=lambda c: self.power(view, c))
        winner_seat, winner = self.trick_winner(view)
        if winner_seat % 2 == view.seat % 2:  # partner wins: give the most points cheaply
            return max(legal, key=lambda c: (suit(c) != view.trump, rank(c) in ("10", "A")))
        led = suit(view.trick[0][1])
        beating = [c for c in legal if self.beats(view, c, winner, led)]
        if beating:
            return min(beating, key=lambda c: self.power(view, c))
        return min(legal, key=lambda c: self.power(view, c))

    def beats(self, view, card: str, best: str, led: str) -> bool:
        if suit(card) == suit(best):
            return self.power(view, card) > self.power(view, best)
        return suit(card) == view.trump

    def trick_winner(self, view):
        led = suit(view.trick[0][1])
        best_seat, best = view.trick[0]
        for seat, card in view.trick[1:]:
            if self.beats(view, card, best, led):
                best_seat, best = seat, card
        return best_seat, best
