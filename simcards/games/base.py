"""What every ruleset offers: options, simulate, deal (an interactive State), replay."""

from __future__ import annotations

import operator
from typing import Any

import numpy as np
import polars as pl

from simcards.bots.spec import BotFamily, resolve_bots
from simcards.cards import Deck
from simcards.errors import UserError
from simcards.games.columns import Column, to_frame
from simcards.games.options import Option, resolve_options


class IllegalMove(UserError):
    """A card that may not be played now; the message names it and the legal cards."""


def check_count(name: str, value: Any, minimum: int = 0) -> int:
    try:
        number = operator.index(value)
    except TypeError:
        raise UserError(f"{name} = {value!r} is not allowed; use an integer >= {minimum}") from None
    if number < minimum:
        raise UserError(f"{name} = {value!r} is not allowed; use an integer >= {minimum}")
    return number


class Game:
    """A loaded ruleset. Subclasses set the class attributes and implement `_simulate_matrix`,
    `deal` and `replay`."""

    name: str
    deck: Deck
    n_seats: int
    option_specs: tuple[Option, ...]
    rules_version: int
    bots: BotFamily
    deal_columns: tuple[Column, ...]
    match_columns: tuple[Column, ...] = ()
    unit: str = "deal"  # what a run counts: "deal", or "match" where deals group into matches/games
    summary: str = ""

    def __init__(self, **options: Any):
        self.options = resolve_options(self.name, self.option_specs, options)

    def __repr__(self) -> str:
        changed = {k: v for k, v in self.options.items()
                   if v != next(o.default for o in self.option_specs if o.name == k)}
        args = "".join(f", {k}={v!r}" for k, v in changed.items())
        return f"simcards.load({self.name!r}{args})"

    def resolve_bots(self, bots: Any) -> tuple[np.ndarray, np.ndarray]:
        return resolve_bots(bots, self.bots, self.n_seats)

    def simulate(self, n: int, seed: int = 0, bots: Any = "heuristic", start: int = 0) -> pl.DataFrame:
        """Units start .. start+n-1 of a run with ``seed`` (deals; matches where ``unit`` is
        "match"), one row per deal (see deal_columns). The same (seed, index) always gives the
        same rows, however the run is split."""
        return self.simulate_chunk(n, seed=seed, bots=bots, start=start)["deals"]

    def simulate_chunk(self, n: int, seed: int = 0, bots: Any = "heuristic",
                       start: int = 0) -> dict[str, pl.DataFrame]:
        """What the runner writes for units start .. start+n-1: {"deals": frame} plus
        {"matches": frame} for match rulesets. Validates, then calls `_simulate_frames`."""
        n = check_count("n", n)
        seed = check_count("seed", seed)
        start = check_count("start", start)
        kinds, params = self.resolve_bots(bots)
        return self._simulate_frames(seed, start, n, kinds, params)

    def _simulate_frames(self, seed: int, start: int, n: int, kinds, params) -> dict[str, pl.DataFrame]:
        """Default for deal-unit rulesets: one matrix from `_simulate_matrix`."""
        return {"deals": to_frame(self.deal_columns, self._simulate_matrix(seed, start, n, kinds, params))}

    def _simulate_matrix(self, seed: int, start: int, n: int, kinds, params) -> np.ndarray:
        raise NotImplementedError
