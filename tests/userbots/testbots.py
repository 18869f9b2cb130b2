"""Bots for tests/test_user_bots.py: a recorder of views, and bots that go wrong."""

RECORDED = []  # (ruleset-independent) view fields of every decision, in order


class Recorder:
    """Plays a random legal card (from its seeded stream) and records every view."""

    def play(self, view):
        RECORDED.append(view.fields())
        return view.rng.choice(view.legal)

    def choose_trump(self, view):
        RECORDED.append(view.fields())
        return view.rng.choice(view.legal)

    def declare(self, view):
        RECORDED.append(view.fields())
        return view.rng.choice(view.legal)

    def bid(self, view):
        RECORDED.append(view.fields())
        return view.rng.random() < 0.3

    def pass_cards(self, view):
        RECORDED.append(view.fields())
        return view.rng.sample(list(view.hand), 3)

    # Skat's own (its bid and declare are the methods above: a bool, one of view.legal)
    def take_skat(self, view):
        RECORDED.append(view.fields())
        return view.rng.random() < 0.7

    def discard(self, view):
        RECORDED.append(view.fields())
        return view.rng.sample(list(view.hand), 2)

    def kontra(self, view):
        RECORDED.append(view.fields())
        return view.rng.random() < 0.3

    def re(self, view):
        RECORDED.append(view.fields())
        return view.rng.random() < 0.5


class Illegal:
    """Answers a card it does not hold in the third match's first deal."""

    def play(self, view):
        if view.deal[1] >= 2 * 1024:
            return "XX" if view.trick_no == 3 else view.legal[0]
        return view.legal[0]


class Raises:
    def play(self, view):
        raise RuntimeError("a bug in my bot")


class WrongType:
    def play(self, view):
        return 7


class Memory:
    """Keeps a note on self within a deal; a fresh instance plays each deal."""

    def __init__(self):
        self.deals = set()

    def play(self, view):
        self.deals.add(view.deal)
        assert len(self.deals) == 1, "an instance saw two deals"
        return view.legal[-1]


try:
    from numba import njit

    @njit
    def illegal_card(kind, legal, st, T, params, rng):
        """A Numba bot that plays a card it may not."""
        return 63
except ImportError:  # pragma: no cover
    pass
