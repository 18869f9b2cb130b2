"""A small Python Skat bot for tests/test_user_bots.py: it makes every Skat decision itself,
and a bot that answers one decision wrongly."""

JACKS = ("JC", "JS", "JH", "JD")
POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2}


def points(code: str) -> int:
    return POINTS.get(code[:-1], 0)


class SkatBot:
    """Bids while the value at stake is at most ``bid_to`` plus 12 per jack held, picks the
    Skat up unless it holds three jacks, lays away its two cheapest non-jacks, declares its
    longest suit (Grand with three jacks or more, Hand and Schneider with all four), says Kontra
    holding two jacks, Re holding three; plays the legal card with the most points when
    declarer, the cheapest otherwise."""

    def __init__(self, bid_to: int = 18):
        self.bid_to = bid_to

    def jacks(self, view) -> int:
        return sum(code in JACKS for code in view.hand)

    def bid(self, view):
        return view.bid <= self.bid_to + 12 * self.jacks(view)

    def take_skat(self, view):
        return self.jacks(view) < 3

    def discard(self, view):
        plain = sorted((c for c in view.hand if c not in JACKS), key=lambda c: (points(c), c))
        return plain[:2]

    def declare(self, view):
        want = "G" if self.jacks(view) >= 3 else max(
            "DHSC", key=lambda s: (sum(c.endswith(s) and c not in JACKS for c in view.hand), s))
        schneider = f"{want} hand schneider"
        if view.hand_game and self.jacks(view) == 4 and schneider in view.legal:
            return schneider
        for game in view.legal:  # the plainest legal declaration of the wanted game
            if game.split()[0] == want and len(game.split()) == 1 + view.hand_game:
                return game
        return view.legal[-1]

    def kontra(self, view):
        return self.jacks(view) >= 2

    def re(self, view):
        return self.jacks(view) >= 3

    def play(self, view):
        key = (lambda c: (points(c), c)) if view.seat == view.declarer else (lambda c: (-points(c), c))
        return max(view.legal, key=key)


class Bad(SkatBot):
    """Says yes to every bid (passes every one when ``wrong`` is "kontra", to defend), then
    answers the decision ``wrong`` with something illegal."""

    def __init__(self, wrong: str = "play"):
        super().__init__()
        self.wrong = wrong

    def bid(self, view):
        return "yes" if self.wrong == "bid" else self.wrong != "kontra"

    def take_skat(self, view):
        return 1 if self.wrong == "take_skat" else super().take_skat(view)

    def discard(self, view):
        return [view.hand[0]] if self.wrong == "discard" else super().discard(view)

    def declare(self, view):
        return "X hand" if self.wrong == "declare" else super().declare(view)

    def kontra(self, view):
        return None if self.wrong == "kontra" else True

    def re(self, view):
        return "no" if self.wrong == "re" else True

    def play(self, view):
        return "XX" if self.wrong == "play" else super().play(view)
