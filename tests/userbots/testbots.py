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

    from simcards.games._state import S_HAND, S_TO_MOVE, S_TRICK_NO

    @njit
    def illegal_later(kind, legal, st, T, params, rng):
        """Plays its lowest legal card, except in the sixth trick of a hand that held card 7
        there: an illegal card, in some deal a few deals into the run."""
        if st[S_TRICK_NO] == 5 and (st[S_HAND + st[S_TO_MOVE]] >> 7) & 1 and (legal >> 7) & 1 == 0:
            return 7
        card = 0
        while (legal >> card) & 1 == 0:
            card += 1
        return card
except ImportError:  # pragma: no cover
    pass
