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

    def game(self, view):
        RECORDED.append(view.fields())
        return view.rng.choice(view.legal)

    def announce(self, view):
        RECORDED.append(view.fields())
        return view.rng.random() < 0.5

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

    from simcards.engine.state import S_HAND, S_TO_MOVE, S_TRICK_NO

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


# ---------------------------------------------------------------- Doppelkopf

DOKO_GAMES = []  # (deal, seat, must_solo, answer) of every game decision of a DokoBot


class DokoBot:
    """A Doppelkopf bot deciding everything from its seeded stream: now and then a solo (always
    one when it must), half the time a silent marriage, each announcement asked with
    probability ``announce_rate``, a random legal card."""

    def __init__(self, announce_rate=0.4):
        self.announce_rate = announce_rate
        self.rng = None

    def _rng(self, view):
        if self.rng is None:  # one stream for the whole deal
            self.rng = view.rng
        return self.rng

    def game(self, view):
        rng = self._rng(view)
        if view.must_solo or rng.random() < 0.1:
            answer = rng.choice([g for g in view.legal if g not in ("normal", "marriage",
                                                                     "silent_marriage")])
        elif "silent_marriage" in view.legal and rng.random() < 0.5:
            answer = "silent_marriage"
        else:
            answer = view.legal[0]
        DOKO_GAMES.append((view.deal, view.seat, view.must_solo, answer))
        return answer

    def announce(self, view):
        return self._rng(view).random() < self.announce_rate

    def play(self, view):
        return self._rng(view).choice(view.legal)


class BadGame(DokoBot):
    def game(self, view):
        return "solo"


class BadAnnounce(DokoBot):
    def game(self, view):
        return view.legal[0]

    def announce(self, view):
        return "yes"


class BadCard(DokoBot):
    def game(self, view):
        return view.legal[0]

    def play(self, view):
        return "XX"
