"""The Game protocol: everything a ruleset provides, and the only way generic code reaches it.

A ruleset is a subclass of `Game` that lives, with everything else of its game, in one folder
``simcards/games/<game>/`` and is registered by one line in ``simcards/games/__init__.py``.
Runner, report, tune, tournament, bench and the CLI ask the loaded game object for what they
need; they never switch on a ruleset's name or guess from column names, and they never assume
four seats or partners sitting opposite. tests/toy_game.py is the smallest ruleset: it writes
the five abstract methods and declares the attributes below, and every generic feature works.

What a ruleset declares (class attributes; the first nine have no default, the contract test
checks that every ruleset sets them):

- ``name``: the registry name; ``deck`` (`simcards.cards.Deck`); ``n_seats`` (3 or 4);
  ``option_specs``: its rule options (`simcards.games.options.Option`); ``rules_version``;
  ``bots``: its `BotFamily` (bot kinds and the parameter row every seat carries);
  ``deal_columns``: the dataset's column specs (`columns.Column`) of a deal row;
  ``tricks_per_deal`` and ``card_points_total``: what every completed deal's tricks and card
  points add up to (`row_totals` reads them from a deal row).
- With defaults: ``summary`` (one line for `simcards rulesets`); ``unit``: what a run counts,
  ``"deal"``, or ``"match"`` where deals group into matches or games that the runner must never
  split (Kraken matches, Hearts games), with ``match_columns``; ``partnerships``: fixed
  partnerships as seat tuples, ``((0, 2), (1, 3))`` in Klaverjassen, None where the parties are
  made per deal or every seat plays for itself (`parties(deals)` gives each deal's);
  ``tune_seatings`` (default: the partnerships, else each seat alone); ``objectives``: tuning
  objectives, name -> `Objective`, the first the default; ``bench``: `BenchEntry` rows for
  `scripts/bench.py`; ``deals_per_game``: the deals of a tournament game of a deal-unit
  ruleset; ``published_references``: published figures of human play or other programs
  (`simcards.games.references.Reference`: each names its source and its sample size, or says
  the source gives none) the report sets beside the bots'; ``summary_note``: what the report's summary says above its
  headline figures.

What it implements (the abstract methods):

- ``deal(...)``: an interactive deal (a `simcards.games.play.TrickState`), given by hand or as
  deal ``index`` of a run with ``seed``;
- ``_simulate_traced(seed, start, n, kinds, params)``: the frames of units start .. start+n-1
  ({"deals": frame}, plus {"matches": frame} for match rulesets) and the cards of every deal row
  in play order [deal rows, deck size], from the game's batch loop with its trace switch on;
- ``state_from_row(row, kinds, params)``: the interactive state of a simulated deal row,
  before its first card;
- ``row_totals(row)``: (card points, tricks) of a completed deal row;
- ``result_row(state)``: the deal-row fields a finished interactive deal determines, named as
  the columns, so a replay can be checked against the row it reproduces.

Optional methods, with defaults: ``_simulate_frames`` (the same frames without traces: override
where the loop runs faster without them), ``_simulate_matrix`` (a deal-unit kernel's row
matrix, for the bench's kernel-only figure), ``parties``, ``expected_totals``, ``replay_header``,
``trick_snapshot`` / ``trick_record`` (per-trick replay fields), ``placings`` (for `simcards
tournament`), ``report_sections`` (the game's own report sections; `simcards.report` puts the
summary of ``headline_rates`` before them), ``headline_rates`` (the figures the report opens
with and `simcards compare` compares), ``openspiel_rate`` (OpenSpiel's uniform random deals per
second, for the bench's side-by-side ratio).

Optional features are capability objects, None where the ruleset lacks the feature:

- ``solver``: a `Solver` (the double-dummy solver: `solve`, the judge of ``simcards replay
  --perfect-play`` and ``simcards solve``, the bench figures, the perfect-play columns a deal
  row carries when the solver's option is on);
- ``user_bots``: a `simcards.games.userbots.Support` (its decisions, its batch loop rebuilt
  around a user's bot, its views); without it a config naming a user bot is refused. Where the
  game runs its batch loop it calls ``self.loop(name, builtin)``, which is ``builtin`` unless a
  table with user bots is playing.

Generic, for every ruleset: ``simulate`` and ``simulate_chunk`` (with the one double-dummy path
of every solver: the traced loop, then `Solver.with_perfect_play`), ``replay``
(`simcards.replay`), ``comparison_game``, ``resolve_bots``.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
import polars as pl

from simcards.cards import Deck
from simcards.errors import UserError, check_count
from simcards.games.botspec import BotFamily, resolve_bots, user_entries
from simcards.games.columns import Column
from simcards.games.options import Option, resolve_options
from simcards.games.seating import with_bots
from simcards.replay import replay as replay_deal
from simcards.rng import MAX_DEALS_PER_MATCH
from simcards.stats import median_interval


@dataclass(frozen=True)
class Objective:
    """A tuning objective. ``seat_values(frames)`` gives, per unit (sorted by unit index), each
    seat's value as a float array [units, n_seats], higher is better; a partner carries its
    party's value. The tuned side's gain in one seating is the mean over its seats minus the
    mean over the other seats."""

    name: str
    doc: str
    seat_values: Callable[[dict[str, pl.DataFrame]], np.ndarray]


class PerfectPlayJudge:
    """Values the positions of one deal under perfect play, for a replay that says what each
    card gave away and for ``simcards solve`` (`Solver.judge` of a ruleset with a double-dummy
    solver). ``unit`` names the value in words ("points of margin")."""

    unit: str = ""

    def value(self, state) -> int:
        """The value of ``state`` for the declaring side under perfect play from here on (higher
        is better for that side); a finished deal's value is its result."""
        raise NotImplementedError

    def declaring(self, state) -> bool:
        """Does the seat to move play for the declaring side?"""
        raise NotImplementedError

    def best(self, state) -> tuple[str, ...]:
        """The cards of the seat to move that keep the perfect-play value."""
        raise NotImplementedError

    def findings(self, state) -> dict[str, Any]:
        """Everything the solver finds from ``state`` (not over), for ``simcards solve``: a label
        in words for each finding, in the order to print them; values are numbers, yes/no
        booleans or text."""
        raise NotImplementedError


class Solver(abc.ABC):
    """A ruleset's double-dummy solver, as a capability object: ``Game.solver`` is one, or None
    where the ruleset has none (then ``--perfect-play``, ``simcards solve`` and the
    perfect-play columns are refused). A game folder with a solver subclasses it in its
    ``solver.py`` and sets ``Game.solver`` to an instance.

    - ``columns``: the perfect-play columns a deal row gets when the rule option ``option``
      (default ``double_dummy``) is on; every solver ruleset declares that option;
    - `solve`, `judge`, `bench`, `with_perfect_play`: below."""

    columns: tuple[Column, ...] = ()
    option: str = "double_dummy"

    @abc.abstractmethod
    def solve(self, state, *, values: bool = False):
        """The solution of the deal of ``state`` (from ``game.deal(...)``) from its current
        position: the game folder's ``solve``."""

    @abc.abstractmethod
    def judge(self, state) -> PerfectPlayJudge:
        """A `PerfectPlayJudge` for the deal of ``state`` (before its first card)."""

    @abc.abstractmethod
    def bench(self, game: "Game", quick: bool = False) -> dict:
        """The solver's figures for `scripts/bench.py`: a dict with at least ``deals`` and the
        keys of `solver_bench_figures`, and ``pimc_deals_per_s`` where a search bot exists."""

    @abc.abstractmethod
    def with_perfect_play(self, game: "Game", deals: pl.DataFrame, traces: np.ndarray) -> pl.DataFrame:
        """``deals`` (rows of ``game`` without the perfect-play columns) with ``columns``
        added; ``traces``: each row's cards in play order."""


@dataclass(frozen=True)
class BenchEntry:
    """One line of `scripts/bench.py`: kernel deals per second with ``bots`` at every seat, and
    the target (docs/performance.md) or None."""

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


class Game(abc.ABC):
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
    tricks_per_deal: int
    card_points_total: int
    # deals that form one game of a tournament for deal-unit rulesets (an option
    # ``deals_per_match`` overrides it)
    deals_per_game: int = 16
    # published figures the report sets beside the bots' (bot sanity section): References
    published_references: tuple = ()
    # what the report's summary says above its headline figures
    summary_note: str = ("Figures marked 'depends on the bots' measure these bots playing this "
                         "ruleset, not the game itself.")
    solver: Solver | None = None  # the double-dummy solver, where the ruleset has one
    user_bots = None  # a simcards.games.userbots.Support where the ruleset takes user bots
    _user_loops: dict = {}  # the loops of the user-bot table playing now (Table.playing)

    def __init__(self, **options: Any):
        self.options = resolve_options(self.name, self.option_specs, options)
        if self.perfect_play_columns:
            self.deal_columns = type(self).deal_columns + self.solver.columns

    def __repr__(self) -> str:
        changed = {k: v for k, v in self.options.items()
                   if v != next(o.default for o in self.option_specs if o.name == k)}
        args = "".join(f", {k}={v!r}" for k, v in changed.items())
        return f"simcards.load({self.name!r}{args})"

    # ------------------------------------------------------------ what every ruleset writes

    @abc.abstractmethod
    def deal(self, *args, **kwargs):
        """An interactive deal: given by hand, or deal ``index`` of a run with ``seed``."""

    @abc.abstractmethod
    def _simulate_traced(self, seed: int, start: int, n: int, kinds, params
                         ) -> tuple[dict[str, pl.DataFrame], np.ndarray]:
        """The frames of units start .. start+n-1 and the cards of every deal row in play order
        ([deal rows, deck size]; -1 after the last card of a deal that ended early)."""

    @abc.abstractmethod
    def state_from_row(self, row: dict, kinds, params):
        """The interactive state of a simulated deal row, before its first card."""

    @abc.abstractmethod
    def row_totals(self, row: dict) -> tuple[int, int]:
        """(card points, tricks) of a completed deal row, summed over seats or parties."""

    @abc.abstractmethod
    def result_row(self, state) -> dict:
        """Column name -> value of the fields of a deal row that ``state`` (over) determines."""

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
        return resolve_bots(bots, self.bots, self.n_seats, game=type(self))

    def deal_bots(self, bots: Any) -> tuple[np.ndarray, np.ndarray]:
        """`resolve_bots` for an interactive deal, whose contract the built-in kernels choose:
        a user bot is refused there (`replay` follows a run with user bots)."""
        if user_entries(bots):
            raise UserError("deal(bots=...) takes built-in bots; to follow a deal of a run with "
                            "user bots use replay(seed, index, bots), and state.view / "
                            "state.suggest while playing by hand")
        return self.resolve_bots(bots)

    def loop(self, name: str, builtin):
        """The batch loop ``builtin`` (named ``name``), or its version rebuilt around the user
        bots of the table playing now."""
        return self._user_loops.get(name, builtin)

    @property
    def perfect_play_columns(self) -> bool:
        """Do this game's deal rows carry its solver's perfect-play columns (the solver's
        option is on)?"""
        return self.solver is not None and bool(self.options[self.solver.option])

    def simulate(self, n: int, seed: int = 0, bots: Any = "heuristic", start: int = 0) -> pl.DataFrame:
        """Units start .. start+n-1 of a run with ``seed`` (deals; matches where ``unit`` is
        "match"), one row per deal (see deal_columns). The same (seed, index) always gives the
        same rows, however the run is split."""
        return self.simulate_chunk(n, seed=seed, bots=bots, start=start)["deals"]

    def simulate_chunk(self, n: int, seed: int = 0, bots: Any = "heuristic",
                       start: int = 0) -> dict[str, pl.DataFrame]:
        """What the runner writes for units start .. start+n-1: {"deals": frame} plus
        {"matches": frame} for match rulesets. Validates, then calls `_simulate_frames`, or
        with the perfect-play columns the traced loop and the solver."""
        n = check_count("n", n)
        seed = check_count("seed", seed)
        start = check_count("start", start)
        simulate = self._simulate_with_perfect_play if self.perfect_play_columns else self._simulate_frames
        return with_bots(self, bots, lambda kinds, params: simulate(seed, start, n, kinds, params))

    def _simulate_frames(self, seed: int, start: int, n: int, kinds, params) -> dict[str, pl.DataFrame]:
        """The frames of units start .. start+n-1. Default: those of `_simulate_traced`; a
        ruleset whose loop runs faster without traces overrides it."""
        return self._simulate_traced(seed, start, n, kinds, params)[0]

    def _simulate_matrix(self, seed: int, start: int, n: int, kinds, params) -> np.ndarray | None:
        """The batch kernel's int64 row matrix of deals start .. start+n-1 without traces, where
        a deal-unit ruleset has one (`scripts/bench.py` times it as the kernel-only figure);
        None otherwise (the default)."""
        return None

    def _simulate_with_perfect_play(self, seed: int, start: int, n: int, kinds, params
                                    ) -> dict[str, pl.DataFrame]:
        """The frames with the perfect-play columns: the solver follows each deal's cards."""
        frames, traces = self._simulate_traced(seed, start, n, kinds, params)
        frames["deals"] = self.solver.with_perfect_play(self, frames["deals"], traces)
        return frames

    def _row_buffer(self, n_rows: int, n: int) -> np.ndarray:
        """An int64 [n_rows, n] matrix for a batch kernel's rows, reused from call to call (a
        worker simulates chunk after chunk of the same size). Its content is not cleared."""
        buffer = getattr(self, "_buffer", None)
        if buffer is None or buffer.size < n_rows * n:
            buffer = self._buffer = np.empty(n_rows * n, dtype=np.int64)
        return buffer[:n_rows * n].reshape(n_rows, n)

    def expected_totals(self, row: dict) -> tuple[int, int]:
        """What `row_totals` of a deal row must be: the deck's card points and tricks, unless
        the rules end a deal early (a Skat Null lost at the declarer's first trick, a
        passed-in deal)."""
        return self.card_points_total, self.tricks_per_deal

    # ------------------------------------------------------------ replay

    def unit_of_deal(self, index: int) -> int:
        """The unit (deal, or match) that global deal ``index`` belongs to."""
        return index if self.unit == "deal" else index // MAX_DEALS_PER_MATCH

    def run_deal(self, seed: int, index: int, kinds, params) -> tuple[dict, np.ndarray]:
        """(row, cards in play order) of global deal ``index`` of a run with ``seed`` and the
        seated bots (``kinds``, ``params``); a UserError when the run never plays that deal."""
        unit = self.unit_of_deal(index)
        frames, traces = self._simulate_traced(seed, unit, 1, kinds, params)
        indices = frames["deals"]["deal_index"].to_list()
        if index not in indices:
            raise UserError(f"deal index {index} is not a deal of a {self.name} run: "
                            f"{self.unit} {unit} has the deal indices "
                            f"{', '.join(str(i) for i in indices)} with these bots")
        k = indices.index(index)
        return frames["deals"].row(k, named=True), traces[k]

    def replay(self, seed: int, index: int, bots: Any = "heuristic",
               perfect_play: bool = False) -> dict:
        """Global deal ``index`` of a run with ``seed`` and ``bots``, trick by trick, with
        ``perfect_play`` what each card gave away (`simcards.replay.replay`)."""
        return replay_deal(self, seed, index, bots, perfect_play)

    def replay_header(self, row: dict, state) -> dict:
        """What the replay shows before the tricks (hands, contract, bidding, ...)."""
        return {"deal_index": int(row["deal_index"]), "dealer": int(row["dealer"])}

    def trick_record(self, state, before: dict) -> dict:
        """Extra fields of a completed trick; ``before`` is `trick_snapshot` taken before its
        first card."""
        return {}

    def trick_snapshot(self, state) -> dict:
        return {}

    # ------------------------------------------------------------ analysis

    def placings(self, frames: dict[str, pl.DataFrame], n_games: int,
                 deals_per_game: int) -> np.ndarray:
        """Seat placings [n_games, n_seats] (1 best) of the units in ``frames``."""
        raise UserError(f"{self.name} has no placings a tournament can use")

    def report_sections(self, run, out_dir) -> list:
        """The game's own report sections for a finished run (`simcards.dataset.RunData`);
        `simcards.report` opens the report with the summary of `headline_rates`."""
        raise UserError(f"no report is defined for ruleset {self.name!r}")

    def openspiel_rate(self, seconds: float) -> float | None:
        return None

    def comparison_game(self) -> "Game":
        """The game the report's comparison simulations play (the bot-sanity section's duplicate
        and random-play runs): these rules without the solver's perfect-play columns (solving
        every deal of those runs would take the report minutes)."""
        if not self.perfect_play_columns:
            return self
        return type(self)(**{**self.options, self.solver.option: False})

    def headline_rates(self, deals: pl.LazyFrame, matches: pl.LazyFrame | None) -> list:
        """The headline figures of a run (`simcards.present.summary.Headline`), five to eight,
        in plain words; ``matches`` is None for deal-unit rulesets. Default: none."""
        return []


def solver_bench_figures(seconds, positions) -> dict:
    """A `Solver.bench`'s solve figures from per-deal times (s) and positions searched:
    the median time with its 95% interval (solve times are skewed: the median of 60 Rotterdam
    deals has an interval from an eighth below it to half above), the 95th percentile, positions a
    second, and the median positions, which do not depend on the machine."""
    median, lo, hi = median_interval(seconds)
    return {"solve_median_ms": round(1e3 * median, 2),
            "solve_median_lo_ms": round(1e3 * lo, 2), "solve_median_hi_ms": round(1e3 * hi, 2),
            "solve_p95_ms": round(1e3 * float(np.percentile(seconds, 95)), 2),
            "positions_per_s": round(sum(positions) / max(sum(seconds), 1e-12)),
            "positions_median": round(float(np.median(positions)))}
