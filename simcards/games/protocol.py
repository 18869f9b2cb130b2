"""The Game protocol: everything a ruleset provides, and the only way generic code reaches it.

A ruleset is a subclass of `Game` that lives, with everything else of its game, in one folder
``simcards/games/<game>/`` and is registered by one line in ``simcards/games/__init__.py``.
Runner, report, tune, tournament, bench and the CLI ask the loaded game object for what they
need; they never switch on a ruleset's name or guess from column names, and they never assume
four seats or partners sitting opposite.

What a ruleset declares (class attributes):

- ``name``, ``summary``: the registry name and one line for `simcards rulesets`.
- ``deck`` (`simcards.cards.Deck`), ``n_seats`` (3 or 4), ``rules_version``.
- ``option_specs``: its rule options (`simcards.games.options.Option`).
- ``bots``: its `BotFamily` (bot kinds and the parameter row every seat carries).
- ``unit``: what a run counts. ``"deal"``, or ``"match"`` where deals group into matches or
  games that the runner must never split (Kraken matches, Hearts games).
- ``deal_columns`` and ``match_columns``: the dataset's column specs (`columns.Column`).
- ``partnerships``: fixed partnerships as seat tuples, ``((0, 2), (1, 3))`` in Klaverjassen;
  None where the parties are made per deal (a declarer against the rest, Doppelkopf's hidden
  parties) or every seat plays for itself. `parties(deals)` gives the parties of each deal.
- ``tune_seatings``: the seatings of a duplicate match for `simcards tune`. Each is the tuple
  of seats the tuned bot takes in one replay of a unit; across the seatings every seat is taken
  equally often. Default: the partnerships, else each seat alone.
- ``objectives``: tuning objectives, name -> `Objective`; the first is the default.
- ``bench``: `BenchEntry` rows for `scripts/bench.py` (bots, target deals per second).

What it implements:

- ``simulate_chunk`` (through `_simulate_frames`): the runner's frames for a range of units.
- ``deal(...)``: an interactive deal (a `simcards.games.play.TrickState`), given by hand or as
  deal ``index`` of a run with ``seed``; ``replay(seed, index, bots)``: that deal trick by trick.
- ``parties(deals)``: party id per seat of every deal row.
- ``placings(frames, n_games, deals_per_game)``: seat placings for `simcards tournament`.
- ``report_sections(run, out_dir)``: the report's sections (`simcards.present.render.Section`).
- ``openspiel_rate(seconds)``: OpenSpiel's uniform random deals per second where OpenSpiel has
  the game (for the bench's side-by-side ratio), else None.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
import polars as pl

from simcards.cards import Deck
from simcards.errors import UserError
from simcards.games.botspec import BotFamily, resolve_bots
from simcards.games.columns import Column, to_frame
from simcards.games.options import Option, resolve_options


def check_count(name: str, value: Any, minimum: int = 0) -> int:
    """``value`` as an int >= ``minimum``, else a UserError naming it."""
    try:
        number = operator.index(value)
    except TypeError:
        raise UserError(f"{name} = {value!r} is not allowed; use an integer >= {minimum}") from None
    if number < minimum:
        raise UserError(f"{name} = {value!r} is not allowed; use an integer >= {minimum}")
    return number


@dataclass(frozen=True)
class Objective:
    """A tuning objective. ``seat_values(frames)`` gives, per unit (sorted by unit index), each
    seat's value as a float array [units, n_seats], higher is better; a partner carries its
    party's value. The tuned side's gain in one seating is the mean over its seats minus the
    mean over the other seats."""

    name: str
    doc: str
    seat_values: Callable[[dict[str, pl.DataFrame]], np.ndarray]


@dataclass(frozen=True)
class BenchEntry:
    """One line of `scripts/bench.py`: kernel deals per second with ``bots`` at every seat, and
    the target (DESIGN.md "Performance targets") or None."""

    bots: str
    target: int | None = None


def team_placings(team_results: np.ndarray, partnerships: tuple[tuple[int, ...], ...],
                  n_seats: int) -> np.ndarray:
    """Seat placings [games, n_seats] (1 best, level results share) from one result per
    partnership [games, n_teams], higher better."""
    results = np.asarray(team_results, dtype=np.float64)
    better = (results[:, None, :] > results[:, :, None]).sum(axis=2)  # teams strictly ahead
    places = np.zeros((results.shape[0], n_seats), dtype=np.int64)
    for team, seats in enumerate(partnerships):
        for seat in seats:
            places[:, seat] = 1 + better[:, team]
    return places


def party_values_to_seats(values: np.ndarray, partnerships: tuple[tuple[int, ...], ...],
                          n_seats: int) -> np.ndarray:
    """[units, n_parties] values of fixed partnerships -> [units, n_seats], each seat carrying
    its partnership's value (the shape `Objective.seat_values` returns)."""
    values = np.asarray(values, dtype=np.float64)
    out = np.empty((values.shape[0], n_seats), dtype=np.float64)
    for party, seats in enumerate(partnerships):
        for seat in seats:
            out[:, seat] = values[:, party]
    return out


class Game:
    """A loaded ruleset (see the module docstring for the whole protocol)."""

    name: str
    summary: str = ""
    deck: Deck
    n_seats: int
    option_specs: tuple[Option, ...]
    rules_version: int
    bots: BotFamily
    unit: str = "deal"
    deal_columns: tuple[Column, ...]
    match_columns: tuple[Column, ...] = ()
    partnerships: tuple[tuple[int, ...], ...] | None = None
    objectives: dict[str, Objective] = {}
    bench: tuple[BenchEntry, ...] = (BenchEntry("random"), BenchEntry("heuristic"))

    def __init__(self, **options: Any):
        self.options = resolve_options(self.name, self.option_specs, options)

    def __repr__(self) -> str:
        changed = {k: v for k, v in self.options.items()
                   if v != next(o.default for o in self.option_specs if o.name == k)}
        args = "".join(f", {k}={v!r}" for k, v in changed.items())
        return f"simcards.load({self.name!r}{args})"

    # ------------------------------------------------------------ seats and parties

    @property
    def seats(self) -> range:
        return range(self.n_seats)

    @property
    def tune_seatings(self) -> tuple[tuple[int, ...], ...]:
        if self.partnerships is not None:
            return self.partnerships
        return tuple((seat,) for seat in self.seats)

    def parties(self, deals: pl.DataFrame) -> np.ndarray:
        """Party id per seat of each deal row [deals, n_seats]: seats with one id play together
        in that deal. Default: the fixed partnerships, else every seat alone."""
        row = np.arange(self.n_seats, dtype=np.int64)
        if self.partnerships is not None:
            for party, seats in enumerate(self.partnerships):
                row[list(seats)] = party
        return np.tile(row, (deals.height, 1))

    # ------------------------------------------------------------ simulation

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

    def deal(self, *args, **kwargs):
        raise NotImplementedError

    def replay(self, seed: int, index: int, bots: Any = "heuristic") -> dict:
        raise NotImplementedError

    # ------------------------------------------------------------ analysis

    def placings(self, frames: dict[str, pl.DataFrame], n_games: int,
                 deals_per_game: int) -> np.ndarray:
        """Seat placings [n_games, n_seats] (1 best) of the units in ``frames``."""
        raise UserError(f"{self.name} has no placings a tournament can use")

    def report_sections(self, run, out_dir) -> list:
        """The report's sections for a finished run (`simcards.dataset.RunData`)."""
        raise UserError(f"no report is defined for ruleset {self.name!r}")

    def openspiel_rate(self, seconds: float) -> float | None:
        return None
