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
- ``published_references``: published figures of human play or other programs
  (`simcards.games.references.Reference`: each names its source and its sample size, or says
  the source gives none) that the report's bot-sanity section shows beside the bots' figures.
- ``tricks_per_deal`` and ``card_points_total``: what every completed deal's tricks and card
  points add up to (`row_totals` reads them from a deal row).

What it implements:

- ``simulate_chunk`` (through `_simulate_frames`): the runner's frames for a range of units.
- ``deal(...)``: an interactive deal (a `simcards.games.play.TrickState`), given by hand or as
  deal ``index`` of a run with ``seed``.
- ``replay(seed, index, bots)``: that deal trick by trick. It is generic: the game's batch
  kernel simulates the deal's unit with its trace switch on (`_simulate_traced`), and the
  game turns the deal's row into an interactive state (`state_from_row`) and a header
  (`replay_header`); the traced cards are then played on that state, so a replay is legal card
  by card and reproduces the row. `trick_record` may add per-trick fields. With
  ``perfect_play=True`` each card also gets what it gave away against perfect play, from the
  game's `perfect_play_judge` (rulesets with a double-dummy solver; the others refuse).
  `simcards solve` asks the same judge for its `findings` from a position given by hand.
- ``perfect_play_bench(quick)`` (rulesets with a solver, optional): the solver's figures for
  `scripts/bench.py`, a dict with at least ``deals`` and the keys of `solver_bench_figures`,
  and ``pimc_deals_per_s`` where a search bot exists.
- ``parties(deals)``: party id per seat of every deal row.
- ``result_row(state)``: the deal-row fields a finished interactive deal determines, named as
  the columns, so a replay can be checked against the row it reproduces.
- ``placings(frames, n_games, deals_per_game)``: seat placings for `simcards tournament`.
- ``report_sections(run, out_dir)``: the report's sections (`simcards.present.render.Section`);
  the first, with ``headlines``, is the summary the report opens with.
- ``headline_rates(deals, matches)``: the headline figures (`simcards.present.summary.Headline`:
  key, sentence, per-unit indicator or value expression) that open the report and that
  `simcards compare` compares between two runs.
- ``openspiel_rate(seconds)``: OpenSpiel's uniform random deals per second where OpenSpiel has
  the game (for the bench's side-by-side ratio), else None.

User bots (simcards/games/userbots.py, README "Your own bot"):

- ``user_bots``: the ruleset's `simcards.games.userbots.Support` (its decisions, its batch loop
  rebuilt around a user's bot, its views), or None: then a config naming a user bot is refused
  with a UserError saying so. Where the game runs its batch loop it calls
  ``self.loop(name, builtin)``, which is ``builtin`` unless a table with user bots is playing.
"""

from __future__ import annotations

import operator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
import polars as pl

from simcards.cards import Deck
from simcards.errors import UserError
from simcards.games.botspec import BotFamily, resolve_bots
from simcards.games.columns import Column, to_frame
from simcards.games.options import Option, resolve_options
from simcards.rng import MAX_DEALS_PER_MATCH
from simcards.stats import median_interval


INT64_MAX = 2**63 - 1  # seeds, indices and counts go to the kernels as int64


def check_count(name: str, value: Any, minimum: int = 0) -> int:
    """``value`` as an int from ``minimum`` to INT64_MAX, else a UserError naming it."""
    try:
        number = operator.index(value) if not isinstance(value, bool) else None
    except TypeError:
        number = None
    if number is None or not minimum <= number <= INT64_MAX:
        raise UserError(f"{name} = {value!r} is not allowed; use an integer from {minimum} to {INT64_MAX}")
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


class PerfectPlayJudge:
    """Values the positions of one deal under perfect play, for a replay that says what each
    card gave away and for ``simcards solve`` (a ruleset with a double-dummy solver returns one
    from `Game.perfect_play_judge`). ``unit`` names the value in words ("points of margin")."""

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


@dataclass(frozen=True)
class BenchEntry:
    """One line of `scripts/bench.py`: kernel deals per second with ``bots`` at every seat, and
    the target (README "Performance") or None."""

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
    tricks_per_deal: int
    card_points_total: int
    # deals that form one game of a tournament for deal-unit rulesets (an option
    # ``deals_per_match`` overrides it)
    deals_per_game: int = 16
    # published figures the report sets beside the bots' (bot sanity section): References
    published_references: tuple = ()
    user_bots = None  # a simcards.games.userbots.Support where the ruleset takes user bots
    _user_loops: dict = {}  # the loops of the user-bot table playing now (Table.playing)

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
        return resolve_bots(bots, self.bots, self.n_seats, game=type(self))

    def deal_bots(self, bots: Any) -> tuple[np.ndarray, np.ndarray]:
        """`resolve_bots` for an interactive deal, whose contract the built-in kernels choose:
        a user bot is refused there (`replay` follows a run with user bots)."""
        from simcards.games.userbots import user_entries

        if user_entries(bots):
            raise UserError("deal(bots=...) takes built-in bots; to follow a deal of a run with "
                            "user bots use replay(seed, index, bots), and state.view / "
                            "state.suggest while playing by hand")
        return self.resolve_bots(bots)

    def loop(self, name: str, builtin):
        """The batch loop ``builtin`` (named ``name``), or its version rebuilt around the user
        bots of the table playing now."""
        return self._user_loops.get(name, builtin)

    @contextmanager
    def seated(self, bots: Any, note_deals: bool = False):
        """(kind ids, parameter rows) of ``bots``; with user bots, the game plays with its
        loops rebuilt around them while inside (``note_deals``: see `Table.playing`)."""
        table = None
        if not isinstance(bots, str):  # a bot name is always built in
            from simcards.games.userbots import make_table

            table = make_table(self, bots)
        if table is None:
            yield self.resolve_bots(bots)
            return
        with table.playing(note_deals) as arrays:
            yield arrays

    def with_bots(self, bots: Any, work):
        """``work(kinds, params)`` with ``bots`` seated (`seated`). A Numba user bot's illegal
        card at a table that does not note its deals is played again with the deal hooks on
        (the same cards: every deal is regenerated), so that the error names the deal."""
        from simcards.games.userbots import DealNotNoted

        try:
            with self.seated(bots) as (kinds, params):
                return work(kinds, params)
        except DealNotNoted:
            with self.seated(bots, note_deals=True) as (kinds, params):
                return work(kinds, params)

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
        return self.with_bots(bots, lambda kinds, params: self._simulate_frames(seed, start, n,
                                                                                kinds, params))

    def _simulate_frames(self, seed: int, start: int, n: int, kinds, params) -> dict[str, pl.DataFrame]:
        """Default for deal-unit rulesets: one matrix from `_simulate_matrix`."""
        return {"deals": to_frame(self.deal_columns, self._simulate_matrix(seed, start, n, kinds, params))}

    def _simulate_matrix(self, seed: int, start: int, n: int, kinds, params) -> np.ndarray:
        raise NotImplementedError

    def _row_buffer(self, n_rows: int, n: int) -> np.ndarray:
        """An int64 [n_rows, n] matrix for a batch kernel's rows, reused from call to call (a
        worker simulates chunk after chunk of the same size). Its content is not cleared."""
        buffer = getattr(self, "_buffer", None)
        if buffer is None or buffer.size < n_rows * n:
            buffer = self._buffer = np.empty(n_rows * n, dtype=np.int64)
        return buffer[:n_rows * n].reshape(n_rows, n)

    def deal(self, *args, **kwargs):
        raise NotImplementedError

    def row_totals(self, row: dict) -> tuple[int, int]:
        """(card points, tricks) of a completed deal row, summed over seats or parties."""
        raise NotImplementedError

    def expected_totals(self, row: dict) -> tuple[int, int]:
        """What `row_totals` of a deal row must be: the deck's card points and tricks, unless
        the rules end a deal early (a Skat Null lost at the declarer's first trick, a
        passed-in deal)."""
        return self.card_points_total, self.tricks_per_deal

    def result_row(self, state) -> dict:
        """Column name -> value of the fields of a deal row that ``state`` (over) determines."""
        raise NotImplementedError

    # ------------------------------------------------------------ replay (generic)

    def unit_of_deal(self, index: int) -> int:
        """The unit (deal, or match) that global deal ``index`` belongs to."""
        return index if self.unit == "deal" else index // MAX_DEALS_PER_MATCH

    def _simulate_traced(self, seed: int, start: int, n: int, kinds, params
                         ) -> tuple[dict[str, pl.DataFrame], np.ndarray]:
        """The frames of units start .. start+n-1 and the cards of every deal row in play order
        ([deal rows, deck size]), from the same kernel loop as `_simulate_frames`."""
        raise NotImplementedError

    def state_from_row(self, row: dict, kinds, params):
        """The interactive state of a simulated deal row, before its first card."""
        raise NotImplementedError

    def replay_header(self, row: dict, state) -> dict:
        """What the replay shows before the tricks (hands, contract, bidding, ...)."""
        return {"deal_index": int(row["deal_index"]), "dealer": int(row["dealer"])}

    def trick_record(self, state, before: dict) -> dict:
        """Extra fields of a completed trick; ``before`` is `trick_snapshot` taken before its
        first card."""
        return {}

    def trick_snapshot(self, state) -> dict:
        return {}

    def run_deal(self, seed: int, index: int, kinds, params) -> tuple[dict, np.ndarray]:
        """(row, cards in play order) of global deal ``index`` of a run with ``seed``; a
        UserError when the run never plays that deal."""
        frames, traces = self._simulate_traced(seed, self.unit_of_deal(index), 1, kinds, params)
        indices = frames["deals"]["deal_index"].to_list()
        if index not in indices:
            unit = self.unit_of_deal(index)
            raise UserError(f"deal index {index} is not a deal of a {self.name} run: "
                            f"{self.unit} {unit} has the deal indices "
                            f"{', '.join(str(i) for i in indices)} with these bots")
        k = indices.index(index)
        return frames["deals"].row(k, named=True), traces[k]

    def perfect_play_judge(self, state) -> PerfectPlayJudge | None:
        """A `PerfectPlayJudge` for the deal of ``state`` (before its first card), or None when
        the ruleset has no double-dummy solver. Default: None."""
        return None

    def replay(self, seed: int, index: int, bots: Any = "heuristic",
               perfect_play: bool = False) -> dict:
        """Global deal ``index`` (the ``deal_index`` column) of a run with ``seed`` and
        ``bots``, trick by trick, with the game's header and the result.

        ``perfect_play``: also value every position under perfect play (`perfect_play_judge`).
        Each trick then lists what each of its cards gave away (``gave_away``: the value before
        the card minus the value after it, from the point of view of the card's side; 0 for a
        card that was the only legal one) and, for a card that gave something away, the cards
        that would have kept the value (``best``, else None), and ``perfect_play`` sums it up:
        the value at the start of play, at the end (the result the bots reached) and what each
        side gave away.
        The start value minus what the declaring side gave away plus what the other side gave
        away is the end value."""
        seed, index = check_count("seed", seed), check_count("index", index)
        def work(kinds, params):
            row, trace = self.run_deal(seed, index, kinds, params)
            return row, trace, self.state_from_row(row, kinds, params)

        row, trace, state = self.with_bots(bots, work)
        if perfect_play:
            require_solver(self)
        judge = self.perfect_play_judge(state) if perfect_play else None
        header = self.replay_header(row, state)
        value = start = judge.value(state) if judge is not None else 0
        given = [0, 0]  # the declaring side's cards, the other side's
        tricks = []
        n_seats = self.n_seats
        for k, card in enumerate(trace):
            if card < 0:  # the deal ended before every card was played
                break
            if k % n_seats == 0:
                tricks.append({"leader": state.to_move, "cards": []})
                before = self.trick_snapshot(state)
            seat = state.to_move
            code = self.deck.code(int(card))
            if judge is not None:
                declaring = judge.declaring(state)
                forced = len(state.legal_moves()) == 1
                position = state.snapshot()
            state.play(code)
            tricks[-1]["cards"].append((seat, code))
            if judge is not None:
                after = value if forced else judge.value(state)
                gave = value - after if declaring else after - value
                given[0 if declaring else 1] += gave
                tricks[-1].setdefault("gave_away", []).append(gave)
                tricks[-1].setdefault("best", []).append(judge.best(position) if gave else None)
                value = after
            if k % n_seats == n_seats - 1:
                tricks[-1]["winner"] = state.last_winner
                tricks[-1].update(self.trick_record(state, before))
        story = {**header, "tricks": tricks, "result": state.result()}
        if judge is not None:
            story["perfect_play"] = {"unit": judge.unit, "start": start, "end": value,
                                     "declaring_side_gave_away": given[0],
                                     "other_side_gave_away": given[1]}
        return story

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

    def comparison_game(self) -> "Game":
        """The game the report's comparison simulations play (the bot-sanity section's duplicate
        and random-play runs): these rules without costly per-deal extras, such as a solver's
        columns. Default: this game."""
        return self

    def headline_rates(self, deals: pl.LazyFrame, matches: pl.LazyFrame | None) -> list:
        """The headline figures of a run (`simcards.present.summary.Headline`), five to eight,
        in plain words; ``matches`` is None for deal-unit rulesets. Default: none."""
        return []


def solver_rulesets() -> list[str]:
    """The registered rulesets with a double-dummy solver (their `perfect_play_judge`)."""
    from simcards.games.registry import game_class, rulesets

    return [name for name in rulesets()
            if game_class(name).perfect_play_judge is not Game.perfect_play_judge]


def require_solver(game: Game, asked_by: str = "--perfect-play") -> None:
    """UserError unless ``game`` has a double-dummy solver (a `perfect_play_judge`);
    ``asked_by`` names what needs it."""
    if type(game).perfect_play_judge is Game.perfect_play_judge:
        raise UserError(f"{asked_by}: {game.name} has no double-dummy solver to play it "
                        f"perfectly; rulesets with one: {', '.join(solver_rulesets())}")


def solver_bench_figures(seconds, positions) -> dict:
    """A `perfect_play_bench`'s solve figures from per-deal times (s) and positions searched:
    the median time with its 95% interval (solve times are skewed: the median of 60 Rotterdam
    deals has an interval from an eighth below it to half above), the 95th percentile, positions a
    second, and the median positions, which do not depend on the machine."""
    median, lo, hi = median_interval(seconds)
    return {"solve_median_ms": round(1e3 * median, 2),
            "solve_median_lo_ms": round(1e3 * lo, 2), "solve_median_hi_ms": round(1e3 * hi, 2),
            "solve_p95_ms": round(1e3 * float(np.percentile(seconds, 95)), 2),
            "positions_per_s": round(sum(positions) / max(sum(seconds), 1e-12)),
            "positions_median": round(float(np.median(positions)))}
