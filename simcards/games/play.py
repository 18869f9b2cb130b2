"""The interactive deal every game shares: `TrickState` (to move, hands, the trick, legal moves,
playing a card) and the checks of `Game.deal`'s arguments."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np

from simcards.cards import Deck
from simcards.errors import UserError, check_count
from simcards.engine import state as S
from simcards.games.protocol import Game


class IllegalMove(UserError):
    """A card that may not be played now; the message names it and the legal cards."""


def parse_deal(hands: Any, deck: Deck, n_seats: int = 4) -> np.ndarray:
    """Lists of card codes, one per seat -> hand masks; UserError unless every seat holds its
    share and no card is dealt twice."""
    size = deck.n_cards // n_seats
    if not isinstance(hands, (list, tuple)) or len(hands) != n_seats:
        raise UserError(f"hands must be a list of {n_seats} hands of {size} card codes")
    masks = np.zeros(n_seats, dtype=np.int64)
    seen = 0
    for seat, hand in enumerate(hands):
        mask = deck.parse_hand(hand)
        if deck.copies > 1:  # a repeated code takes a copy no earlier hand holds
            mask = _free_copies(deck, hand, seen)
        count = bin(mask).count("1")
        if count != size:
            raise UserError(f"hand {seat} has {count} cards; each hand holds {size}")
        twice = seen & mask
        if twice:
            raise UserError(f"{', '.join(deck.hand_codes(twice))} dealt to more than one hand")
        seen |= mask
        masks[seat] = mask
    return masks


def _free_copies(deck: Deck, hand: Any, taken: int) -> int:
    """The mask of ``hand`` (card codes) in a deck holding each card several times: each code
    takes the first copy neither ``taken`` nor the hand itself holds yet."""
    codes = hand.split() if isinstance(hand, str) else list(hand)
    per_copy = 4 * deck.n_ranks
    mask = 0
    for code in codes:
        card = deck.card_id(code)
        while (taken | mask) >> card & 1:
            card += per_copy
            if card >= deck.n_cards:
                raise UserError(f"{code!r} is dealt more often than the {deck.name} deck holds it "
                                f"({deck.copies}x)")
        mask |= 1 << card
    return mask


def deal_source(hands: Any, seed: Any, index: Any) -> tuple[int, int] | None:
    """Check `Game.deal`'s arguments: (seed, index) of a run's deal, or None for given hands."""
    if (seed is None) != (index is None):
        raise UserError("give both seed and index, or neither")
    if seed is not None:
        if hands is not None:
            raise UserError("give either hands or seed and index, not both")
        return check_count("seed", seed), check_count("index", index)
    if hands is None:
        raise UserError("give hands=[...] (one list of card codes per seat) or seed= and index=")
    return None


def check_seat(name: str, value: Any, n_seats: int = 4) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value not in range(n_seats):
        seats = ", ".join(str(s) for s in range(n_seats))
        raise UserError(f"{name} = {value!r} is not a seat; seats are {seats}")
    return int(value)


def cards_played(n: int) -> str:
    """"1 card played", "5 cards played": a state's repr."""
    return f"{n} card played" if n == 1 else f"{n} cards played"


class TrickState:
    """What every game's interactive deal shares: seat to move, hands, the trick in progress,
    legal moves and playing a card. The state is the shared layout (simcards/engine/state.py);
    ``kernels`` is the game's ``_kernels`` module, whose ``legal_mask(st, T)`` and
    ``apply_card(st, card, T)`` are the ones the batch kernel plays with, so a deal played by
    hand follows exactly the simulated rules."""

    kernels: Any
    game: Game
    _st: np.ndarray
    history: list

    @property
    def is_over(self) -> bool:
        raise NotImplementedError

    @property
    def to_move(self) -> int:
        return int(self._st[S.S_TO_MOVE])

    @property
    def last_winner(self) -> int:
        """Seat that won the last completed trick, -1 before the first."""
        return int(self._st[S.S_LAST_WINNER])

    def hand(self, seat: int) -> list[str]:
        return self.game.deck.hand_codes(int(self._st[S.S_HAND + seat]))

    @property
    def trick(self) -> list[str]:
        """Cards of the trick in progress, in play order."""
        return [self.game.deck.code(int(self._st[S.S_TRICK + i])) for i in range(int(self._st[S.S_N_PLAYED]))]

    def legal_mask(self) -> int:
        return 0 if self.is_over else int(self.kernels.legal_mask(self._st, self.game.tables))

    def snapshot(self) -> "TrickState":
        """A copy of this position that later play on either leaves alone (the state array and
        the history copied, the game and the deal's other fields shared)."""
        other = copy.copy(self)
        other._st = self._st.copy()
        other.history = list(self.history)
        return other

    def legal_moves(self) -> list[str]:
        return self.game.deck.hand_codes(self.legal_mask())

    def _held_copy(self, card: int, legal: int) -> int:
        """In a deck holding every card more than once, a code names the first copy the seat
        may play (Doppelkopf's identical cards); ``card`` is the first copy's id."""
        deck = self.game.deck
        for copy in range(deck.copies):
            other = card + copy * 4 * deck.n_ranks
            if legal >> other & 1:
                return other
        return card

    def play(self, code: str):
        """Play ``code`` for the seat to move; IllegalMove names the card and the legal ones."""
        if self.is_over:
            raise IllegalMove(f"{code!r} cannot be played: the deal is over")
        card = self.game.deck.card_id(code)
        legal = self.legal_mask()
        card = self._held_copy(card, legal)
        if not legal >> card & 1:
            seat = self.to_move
            held = int(self._st[S.S_HAND + seat]) >> card & 1
            why = "is not a legal card for" if held else "is not in the hand of"
            raise IllegalMove(f"{code!r} {why} seat {seat} now; legal: "
                              f"{', '.join(self.game.deck.hand_codes(legal))}")
        self.history.append((self.to_move, self.game.deck.code(card)))
        self.kernels.apply_card(self._st, card, self.game.tables)
        return self

    def _user_bots(self):
        support = self.game.user_bots
        if support is None:
            from simcards.games.userbots import unsupported

            raise unsupported(self.game)
        return support

    def view(self, seat: int):
        """What ``seat`` may know now: the read-only view a Python bot's ``play`` receives
        (simcards/games/userbots/); ``legal`` is empty unless the seat is to move."""
        return self._user_bots().state_view(self, check_seat("seat", seat, self.game.n_seats))

    def suggest(self, bot: str = "heuristic", params: dict | None = None) -> str:
        """The card the built-in ``bot`` (with ``params`` over its defaults) would play now for
        the seat to move; the state is not changed."""
        return self._user_bots().suggest(self, bot, params)
