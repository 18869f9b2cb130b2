"""Card codes <-> card ids, hand bitmasks, and the decks every ruleset uses.

A card id is ``copy * (4 * n_ranks) + suit * n_ranks + rank`` with suits C=0, D=1, H=2, S=3
and ranks in the natural ascending order of the deck (docs/rules.md, "Common conventions"). A hand is an int64
bitmask of ids; every deck here has at most 52 ids, so bit 63 is never used and the masks stay
positive. Trick strength, points and meld order are per-ruleset tables, never part of the id.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
from llvmlite import ir
from numba.core import types
from numba.core.extending import intrinsic

from simcards._jit import kernel
from simcards.errors import UserError

SUITS = "CDHS"
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
ALL_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
RANK_ALIASES = {"T": "10"}


@dataclass(frozen=True)
class Deck:
    """One deck: its ranks (ascending), and how often each card occurs (Doppelkopf: twice)."""

    name: str
    ranks: tuple[str, ...]
    copies: int = 1

    @property
    def n_ranks(self) -> int:
        return len(self.ranks)

    @property
    def n_cards(self) -> int:
        return 4 * self.n_ranks * self.copies

    @property
    def full_mask(self) -> int:
        return (1 << self.n_cards) - 1

    @cached_property
    def codes(self) -> tuple[str, ...]:
        """Card code of every id, in id order."""
        per_copy = tuple(rank + suit for suit in SUITS for rank in self.ranks)
        return per_copy * self.copies

    @cached_property
    def _ids_by_code(self) -> dict[str, int]:
        # first copy only: parse_hand assigns the second copy when a code repeats
        return {code: i for i, code in enumerate(self.codes[: 4 * self.n_ranks])}

    def _bad_card(self, code: object) -> UserError:
        ranks = self.ranks
        low = [r for r in ranks if r.isdigit()]
        rank_text = f"{low[0]}-{low[-1]}, " if low else ""
        rank_text += ", ".join(r for r in ranks if not r.isdigit())
        deck_note = "" if self is DECK52 else f" in the {self.name} deck"
        return UserError(
            f"{code!r} is not a card{deck_note}; ranks are {rank_text} and suits C, D, H, S"
        )

    def card_id(self, code: str) -> int:
        """Id of a card code ('10H', 'TH', 'jc' are all accepted); ValueError for anything else."""
        if not isinstance(code, str):
            raise self._bad_card(code)
        text = code.strip().upper()
        rank, suit = text[:-1], text[-1:]
        rank = RANK_ALIASES.get(rank, rank)
        card = self._ids_by_code.get(rank + suit)
        if card is None:
            raise self._bad_card(code)
        return card

    def code(self, card: int) -> str:
        return self.codes[card]

    def suit(self, card: int) -> int:
        return (card % (4 * self.n_ranks)) // self.n_ranks

    def rank(self, card: int) -> int:
        return card % self.n_ranks

    def parse_hand(self, codes) -> int:
        """Bitmask of a list of codes (or a space-separated string); a repeated code takes the
        next copy of that card, and a card beyond the deck's copies is an error."""
        if isinstance(codes, str):
            codes = codes.split()
        mask = 0
        for code in codes:
            card = self.card_id(code)
            while mask >> card & 1:
                card += 4 * self.n_ranks
                if card >= self.n_cards:
                    raise UserError(
                        f"{code!r} appears more often than the {self.name} deck holds it "
                        f"({self.copies}x)"
                    )
            mask |= 1 << card
        return mask

    def hand_codes(self, mask: int) -> list[str]:
        """Card codes of a bitmask, sorted by suit then rank (copies next to each other)."""
        ids = [i for i in range(self.n_cards) if mask >> i & 1]
        per_copy = 4 * self.n_ranks
        ids.sort(key=lambda i: (i % per_copy, i // per_copy))
        return [self.codes[i] for i in ids]

    def suit_mask(self, suit: int) -> int:
        mask = 0
        for copy in range(self.copies):
            mask |= ((1 << self.n_ranks) - 1) << (copy * 4 * self.n_ranks + suit * self.n_ranks)
        return mask


DECK32 = Deck("32-card", ("7", "8", "9", "10", "J", "Q", "K", "A"))
DECK52 = Deck("52-card", ALL_RANKS)
DECK48 = Deck("48-card", ("9", "10", "J", "Q", "K", "A"), copies=2)


def suit_index(suit: str) -> int:
    """0..3 for 'C', 'D', 'H', 'S' (case-insensitive); ValueError naming the allowed letters."""
    if isinstance(suit, str) and suit.strip().upper() in SUITS and len(suit.strip()) == 1:
        return SUITS.index(suit.strip().upper())
    raise UserError(f"{suit!r} is not a suit; suits are C, D, H, S")


def parse_suit(value, name: str = "trump") -> int:
    """A suit given as a letter ('C', 'D', 'H', 'S') or an id 0..3 -> its id; a UserError
    naming ``name`` otherwise."""
    if isinstance(value, str) and value.strip().upper() in SUITS and len(value.strip()) == 1:
        return SUITS.index(value.strip().upper())
    if not isinstance(value, (bool, str)) and value in range(4):
        return int(value)
    raise UserError(f"{name} = {value!r} is not a suit; use C, D, H, S (or 0..3)")


# ---------------------------------------------------------------- njit bitmask helpers


@kernel
def popcount(x):
    """Number of set bits of a non-negative int64."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56 & 0xFF


def _bit_count_intrinsic(counter: str, doc: str):
    """An intrinsic for LLVM's cttz or ctlz (``counter``): one tzcnt / lzcnt on x86-64."""

    def typer(typingctx, x):
        if not isinstance(x, types.Integer):
            return None
        x = types.unliteral(x)

        def codegen(context, builder, signature, args):
            return getattr(builder, counter)(args[0], ir.Constant(ir.IntType(1), 0))

        return x(x), codegen

    typer.__doc__ = doc
    return intrinsic(typer)


count_trailing_zeros = _bit_count_intrinsic("cttz", "trailing zero bits (64 for 0)")
count_leading_zeros = _bit_count_intrinsic("ctlz", "leading zero bits (64 for 0)")


@kernel
def lowest_bit_index(x):
    """Index of the lowest set bit of a non-zero int64 (0 for 0, as ever). One tzcnt: the de
    Bruijn multiply and table look-up it replaces sat on the play loop's critical path, and LLVM
    knows the result is in 0..63, so indexing with it needs no negative-index fix-up."""
    return count_trailing_zeros(x) & 63


@kernel
def highest_bit_index(x):
    """Index of the highest set bit of a non-negative int64 (0 for 0): one lzcnt."""
    return (63 - count_leading_zeros(x | 1)) & 63


@kernel
def nth_bit_index(x, n):
    """Index of the n-th (0-based, from the lowest) set bit of x; x must have more than n bits."""
    for _ in range(n):
        x &= x - 1
    return lowest_bit_index(x)


def mask_to_ids(mask: int) -> np.ndarray:
    return np.array([i for i in range(64) if mask >> i & 1], dtype=np.int64)
