"""What a Python bot sees: the read-only `View` of one seat at one decision, and the card-play
fields every game shares."""

from __future__ import annotations

import random
from typing import Callable

from simcards.engine import state as S

SUITS = "CDHS"


def codes_of(deck, mask: int) -> tuple[str, ...]:
    """Card codes of ``mask`` in card-id order (fast: one pass over the set bits)."""
    out = []
    codes = deck.codes
    while mask:
        low = mask & -mask
        out.append(codes[low.bit_length() - 1])
        mask ^= low
    return tuple(out)


class View:
    """What one seat may know at one decision: read-only attributes (see the module docstring).
    Fields are computed when first read, from a copy of the seat's information."""

    __slots__ = ("_fields", "_make", "_rng_seed", "_rng")

    def __init__(self, make: Callable[[], dict], rng_seed: int | None = None, **fields):
        object.__setattr__(self, "_fields", fields)
        object.__setattr__(self, "_make", make)
        object.__setattr__(self, "_rng_seed", rng_seed)
        object.__setattr__(self, "_rng", None)

    def _full(self) -> dict:
        make = self._make
        if make is not None:
            self._fields.update(make())
            object.__setattr__(self, "_make", None)
        return self._fields

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        fields = self._fields
        if name in fields:
            return fields[name]
        if name == "rng":
            return self.rng_()
        full = self._full()
        if name in full:
            return full[name]
        raise AttributeError(f"a {full.get('decision')} view has no field {name!r}; it has "
                             f"{', '.join(sorted(full))}")

    def rng_(self) -> random.Random:
        if self._rng is None:
            rng = self._fields.get("rng")
            if rng is None:
                rng = random.Random(self._rng_seed or 0)
            object.__setattr__(self, "_rng", rng)
        return self._rng

    def __setattr__(self, name, value):
        raise AttributeError("a view is read-only")

    def fields(self) -> dict:
        """Every field as a dict (the random stream left out)."""
        return {k: v for k, v in self._full().items() if k != "rng"}

    def __repr__(self) -> str:
        f = self.fields()
        return f"<View {f.get('decision')} seat {f.get('seat')}: " + ", ".join(
            f"{k}={v!r}" for k, v in f.items() if k not in ("decision", "seat")) + ">"


def play_fields(deck, n_seats: int, st, order, start_hands, seat: int) -> dict:
    """The card-play fields every game shares, from the shared state header (``st``), the cards
    played in order (ids) and the hands as held when play began (who played which card)."""
    owner = {}
    for s in range(n_seats):
        m = int(start_hands[s])
        while m:
            low = m & -m
            owner[low.bit_length() - 1] = s
            m ^= low
    codes = deck.codes
    played = tuple((owner[c], codes[c]) for c in order)
    n_in_trick = int(st[S.S_N_PLAYED])
    done = len(played) - n_in_trick
    tricks = []
    for t in range(0, done, n_seats):
        cards = played[t:t + n_seats]
        winner = played[t + n_seats][0] if t + n_seats < len(played) else int(st[S.S_LAST_WINNER])
        tricks.append((cards[0][0], cards, winner))
    voids = []
    for s in range(n_seats):
        bits = int(st[S.S_VOIDS + s])
        voids.append(tuple(SUITS[b] if b < 4 else "trump" for b in range(5) if bits >> b & 1))
    return {"hand": codes_of(deck, int(st[S.S_HAND + seat])), "trick": played[done:],
            "leader": int(st[S.S_LEADER]), "tricks": tuple(tricks), "played": played,
            "voids": tuple(voids), "trick_no": int(st[S.S_TRICK_NO]),
            "dealer": int(st[S.S_DEALER])}


def rng_seed(seed: int, index: int, seat: int) -> int:
    """The seed of a seat's `random.Random` in one deal: distinct per (seed, index, seat)."""
    return (int(seed) * 2**64 + int(index)) * 8 + int(seat)
