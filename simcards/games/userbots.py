"""Bring your own bot: a user's Python or Numba bot at a simcards table.

A config names a user's bot by import path::

    [[bots]]
    kind = "python"                    # a Python class, one method per decision
    entry = "mybots.kraak:MyBot"
    params = { kraak_margin = 5 }      # keyword arguments of MyBot(...); `simcards tune` searches them

    [[bots]]
    kind = "numba"                     # an @njit card function, run inside a compiled loop
    entry = "mybots.fast:choose_card"
    params = { contest_points = 12 }   # the game's bot parameters, plus the module's own PARAMS

and may mix them with built-in bots at one table (a list of one spec per seat). The module is
imported from ``sys.path`` and the current working directory (set PYTHONPATH otherwise; a Dask
cluster needs it installed on every worker).

Python bots
-----------
``entry`` names a class (any callable) called with the config's ``params`` as keyword
arguments; its keyword defaults are the parameters' defaults. A **fresh instance** plays each
seat of each deal, so nothing carries over from one deal to the next: that is what keeps runs
reproducible, resumable and identical whatever the worker count. A bot may keep notes within a
deal on ``self``. It must not keep state elsewhere (module globals, class attributes, files),
and its randomness must come from ``view.rng``: a `random.Random` seeded by (seed, deal index,
seat), the same in every run of the config.

The bot has one method per decision of the ruleset (`simcards rulesets NAME` lists them; see
`Support.decisions` of each game):

- ``play(view) -> str``: the card to play, a code of ``view.legal`` ("JC", "10H");
- ``choose_trump(view) -> str``: a suit letter "C", "D", "H" or "S" (Klaverjassen and Kraken,
  forced trump: forehand names it);
- ``declare(view) -> str | None``: Klaverjassen with free trump selection: a suit to play the
  game in, or None to pass;
- ``bid(view) -> bool``: Kraken: make the bid ``view.bid`` (kraak, rekraak, ...) or not;
- ``pass_cards(view) -> list[str]``: Hearts and Hartenjagen: the cards to pass;
- ``game(view) -> str``: Doppelkopf, before play: "normal", a solo ("queen", "clubs", ...), or
  with both club queens "marriage" or "silent_marriage";
- ``announce(view) -> bool``: Doppelkopf: make ``view.announcement`` (Re/Kontra or the next
  Absage, while it is in time) or not;
- Skat (skat/userbot.py): ``bid(view) -> bool`` says or holds the value ``view.bid`` (False
  passes); ``take_skat(view) -> bool`` (True picks the Skat up, False plays Hand);
  ``discard(view) -> list[str]`` (two of the twelve); ``declare(view) -> str`` (the game, one of
  ``view.legal``: "C", "G hand schneider", "N ouvert", ...); ``kontra`` and ``re`` (-> bool,
  with the house rule ``kontra``).

Only ``play`` is required: a decision the class does not define is made by the built-in
heuristic with the game's default parameters for that seat. An illegal answer, a wrong type or
an exception inside the bot stops the run with one `BotError` naming the bot, the seat, the
deal (seed, index), the decision and the legal choices (the CLI exits 2; finished parts stay).

The view
--------
Each method receives a read-only `View`: exactly what that seat may know, as card codes and
plain Python values (tuples, ints, strings). Every view has ``seat``, ``decision``, ``deal``
((seed, index); None in an interactive deal), ``legal``, ``hand``, ``dealer``, ``rng`` and
``n_seats``; a card-play view adds ``trick`` ((seat, code) so far, leader first), ``leader``,
``tricks`` (the completed tricks: (leader, ((seat, code), ...), winner)), ``played`` (every card
played, in order, with its seat), ``voids`` (per seat, the suits it has shown it lacks, "trump"
for trumps) and ``trick_no``; each game adds its contract, bids and scores (README, "Your own
bot", lists them per ruleset). ``view.fields()`` returns them all as a dict. A view never holds
another seat's hidden cards.

Numba bots
----------
``entry`` names an ``@njit`` function with the signature of the built-in card choice,
``choose_card(kind, legal, st, T, params_row, rng) -> card id``: ``legal`` is the legal mask,
``st`` the deal state (simcards/games/_state.py and the game's ``_kernels.py``; read only what
the seat may know: its own hand, the public slots), ``T`` the rule tables, ``params_row`` the
seat's parameter row (the game's parameters, then the module's ``PARAMS``: a tuple of
(name, default, meaning) whose first entry sits at index ``len(game.bots.params)``), ``rng`` the
seat's stream (`simcards.rng.randint`). The game builds its batch loop around the function
(`Support.build`); a function passed into compiled code cannot be cached, so every worker
compiles that loop once per table (README, "Your own bot", gives the cost). The seat's other
decisions (trump, bids, passes, games, announcements) are the heuristic's with its parameter
row. A card id outside ``legal`` is the same one `BotError` (bot, seat, deal, legal cards): the
loop raises it with the seat, and `Game.with_bots` plays the batch once more with the deal hooks
on to name the deal.

Both kinds record a hash of their module's source in the run's manifest; a run whose bot
source changed is not resumed without ``--force``.
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import math
import os
import random
import sys
import types
from pathlib import Path
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable

import numba
import numpy as np
from numba import njit

from simcards._jit import bound_modules
from simcards.errors import UserError
from simcards.games import _state as S

USER_KINDS = ("python", "numba")
# kind ids of user bots in the kernels' kind arrays: above every built-in kind
PYTHON_KIND = 64
NUMBA_KIND = 65  # the first Numba user bot of a table; the next ones count up
SUITS = "CDHS"


class BotError(UserError):
    """A user bot's illegal or malformed answer, or an exception inside it."""


class DealNotNoted(BotError):
    """A Numba bot's illegal card at a table whose loops do not note each deal (no Python bot
    sits there: the hooks would slow the fast path). `Game.with_bots` plays the batch again with
    the hooks on, so that the error names the deal."""


# ------------------------------------------------------------------ specs and imports


def is_user_spec(item: Any) -> bool:
    return isinstance(item, dict) and item.get("kind") in USER_KINDS


def _import_entry(entry: str):
    """The object ``entry`` ("package.module:name") names, its module; UserError otherwise."""
    if not isinstance(entry, str) or entry.count(":") != 1:
        raise UserError(f"entry = {entry!r} is not allowed; use 'module.path:name', e.g. "
                        f"'mybots.kraak:MyBot'")
    module_name, name = entry.split(":")
    cwd = os.getcwd()
    if cwd not in sys.path:
        sys.path.append(cwd)
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # ImportError, or the module itself failing
        raise UserError(f"entry = {entry!r}: cannot import {module_name!r} "
                        f"({type(exc).__name__}: {exc}); put it on PYTHONPATH or in the working "
                        f"directory") from None
    if not hasattr(module, name):
        raise UserError(f"entry = {entry!r}: module {module_name!r} has no {name!r}")
    return getattr(module, name), module


def source_hash(entry: str) -> str:
    """SHA-256 (first 16 hex digits) of the source file of ``entry``'s module."""
    _, module = _import_entry(entry)
    path = getattr(module, "__file__", None)
    data = Path(path).read_bytes() if path else repr(module).encode()
    return hashlib.sha256(data).hexdigest()[:16]


def _python_defaults(cls) -> dict[str, Any]:
    """Keyword parameters of a Python bot and their defaults (None: no default)."""
    try:
        signature = inspect.signature(cls)
    except (TypeError, ValueError):
        return {}
    return {p.name: (None if p.default is inspect.Parameter.empty else p.default)
            for p in signature.parameters.values()
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}


def numba_extra_params(module) -> tuple[tuple[str, float, str], ...]:
    extra = getattr(module, "PARAMS", ())
    return tuple((str(p[0]), float(p[1]), str(p[2]) if len(p) > 2 else "") for p in extra)


def user_param_defaults(item: dict, family) -> dict[str, float]:
    """Parameter name -> default of a user bot spec (for `simcards tune`)."""
    target, module = _import_entry(item["entry"])
    if item["kind"] == "python":
        return {k: v for k, v in _python_defaults(target).items() if isinstance(v, (int, float))}
    return {**dict(zip(family.param_names, family.defaults())),
            **{name: default for name, default, _ in numba_extra_params(module)}}


def user_spec_problems(item: dict, family, path: str, support) -> list[tuple[str, Any, str]]:
    """Problems of one ``kind = "python" | "numba"`` spec: its keys, entry and params."""
    problems = []
    for key in item:
        if key not in ("kind", "entry", "params"):
            problems.append((f"{path}.{key}", item[key], "only the keys 'kind', 'entry' and 'params'"))
    if support is None:
        return problems  # the ruleset's own refusal is reported by the caller
    entry = item.get("entry")
    try:
        target, module = _import_entry(entry)
    except UserError as err:
        return problems + [(f"{path}.entry", entry, str(err).split(": ", 1)[-1])]
    params = item.get("params", {})
    if not isinstance(params, dict):
        return problems + [(f"{path}.params", params, "a table of parameter = value")]
    if item["kind"] == "python":
        if not callable(target) or not callable(getattr(target, "play", None)):
            problems.append((f"{path}.entry", entry, "a class with a play(view) method"))
            return problems
        accepted = _python_defaults(target)
        takes_any = any(p.kind == p.VAR_KEYWORD for p in inspect.signature(target).parameters.values())
        for name, value in params.items():
            if name not in accepted and not takes_any:
                problems.append((f"{path}.params.{name}", value, "a parameter of "
                                 f"{entry}: " + (", ".join(accepted) or "it takes none")))
            elif isinstance(value, float) and not math.isfinite(value):
                problems.append((f"{path}.params.{name}", value, "a finite number"))
    else:
        if not isinstance(target, numba.core.registry.CPUDispatcher):
            problems.append((f"{path}.entry", entry, "an @njit function choose_card(kind, legal, "
                             "st, T, params_row, rng)"))
        names = family.param_names + tuple(p[0] for p in numba_extra_params(module))
        for name, value in params.items():
            if name not in names:
                problems.append((f"{path}.params.{name}", value, "a known parameter: " + ", ".join(names)))
            elif isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                problems.append((f"{path}.params.{name}", value, "a finite number"))
    return problems


def unsupported(game) -> UserError:
    """The refusal of a ruleset (a Game or its class) without user-bot support."""
    from simcards.games import game_class, rulesets

    able = [r for r in rulesets() if game_class(r).user_bots is not None]
    kinds = ", ".join(repr(k) for k in game.bots.kinds)
    return UserError(f"ruleset {game.name!r} does not support user bots yet; it supports "
                     f"{kinds}. User bots play in: {', '.join(able)}")


# ------------------------------------------------------------------ rebuilding compiled loops


@dataclass(frozen=True)
class Build:
    """How a table's loops are rebuilt. ``python``: Python bots sit at the table, so the loops
    carry the callbacks' hooks and Numba's reference counting (the callbacks hand the loop's
    arrays to Python; it would cost the fast path a factor of four, so a table of Numba bots
    keeps the original setting). ``tag``: the name the rebuilt functions are cached under, set
    only when the build holds no user code (a table of Python bots: its loops are the same for
    every Python bot, so they compile once per machine); a Numba bot's build is not cached."""

    python: bool
    tag: str | None = None


def rebuild(dispatcher, build: Build, **replace):
    """The njit function of ``dispatcher``'s source with some of its global names bound to other
    functions (``replace``): the same code, compiled anew. This is how a game's batch loop is
    built around a user's bot without a copy of the loop."""
    func = dispatcher.py_func
    namespace = dict(func.__globals__)
    missing = [name for name in replace if name not in func.__code__.co_names]
    if missing:
        raise AssertionError(f"{func.__name__} does not call {', '.join(missing)}")
    namespace.update(replace)
    clone = types.FunctionType(func.__code__, namespace, func.__name__, func.__defaults__,
                               func.__closure__)
    clone.__doc__ = func.__doc__
    clone.__simcards_modules__ = bound_modules([func, *replace.values()])  # its cache key (_jit.py)
    options = {k: v for k, v in dispatcher.targetoptions.items() if k not in ("cache", "nopython")}
    if build.python:
        options["_nrt"] = True
    if build.tag is not None and func.__closure__ is None:
        # its own cache entry: Numba names a cache file after the function's qualified name
        clone.__qualname__ = f"{func.__qualname__}__{build.tag}"
        options["cache"] = True
    return njit(**options)(clone)


def card_chain(builtin, links: tuple[tuple[int, Any], ...], build: Build):
    """A card function of the built-in signature that asks the Numba bots ``links``
    [(kind id, function)] for their kinds, the Python bots (with ``build.python``) for theirs
    and ``builtin`` for every other kind."""
    chosen = rebuild(_python_or_builtin, build, builtin_card=builtin) if build.python else builtin
    for kind_id, user in links:
        chosen = _link(kind_id, user, chosen, build.python)
    return chosen


@njit(forceinline=True)
def _python_or_builtin(kind, legal, st, T, params, rng):
    """(A template for `rebuild`: ``builtin_card`` is bound there.)"""
    if kind == PYTHON_KIND:
        return ask_card(st, legal, st[S.S_TO_MOVE])
    return builtin_card(kind, legal, st, T, params, rng)  # noqa: F821


NUMBA_ILLEGAL = "a Numba user bot returned a card id that is not in its legal mask"


@njit(cache=True, _nrt=True)
def numba_illegal(seat, card, legal):
    """Raise the illegal-card error with its seat, card and legal mask. A call of its own (never
    inlined): an exception carrying values needs Numba's reference counting, which the fast
    loops around it run without."""
    raise ValueError(NUMBA_ILLEGAL, seat, card, legal)


def _link(kind_id: int, user, rest, nrt: bool):
    @njit(forceinline=True, _nrt=nrt)
    def choose(kind, legal, st, T, params, rng):
        if kind == kind_id:
            card = user(kind, legal, st, T, params, rng)
            if card < 0 or card > 63 or not (legal >> card) & 1:
                numba_illegal(seat_of(params), np.int64(card), legal)
            return card
        return rest(kind, legal, st, T, params, rng)

    return choose


# ------------------------------------------------------------------ Python callbacks


_TABLES: list["Table"] = []  # the table playing now (a stack: a bot may simulate inside)


def active() -> "Table":
    return _TABLES[-1]


def ask(decision: str, seat: int, payload):
    """Called from the compiled loop: the Python bot at ``seat`` decides; returns the game's
    encoding of its answer, or -1 when the bot leaves the decision to the heuristic."""
    return active().decide(decision, int(seat), payload)


@njit(cache=True)
def ask_card(st, legal, seat):
    with numba.objmode(card="int64"):
        card = ask("play", seat, (st, legal))
    return card


@njit(cache=True)
def ask_int(decision_id, seat, value):
    """A decision other than the card (its id in `DECISION_IDS`), with one int of context (the
    hand, or the bid level); the answer in the game's encoding."""
    with numba.objmode(answer="int64"):
        answer = ask(DECISIONS[decision_id], seat, (None, value))
    return answer


@njit(cache=True)
def note_deal(seed, index, hands):
    with numba.objmode():
        active().begin_deal(seed, index, hands)


@njit(cache=True)
def note_play(st, trace):
    with numba.objmode():
        active().begin_play(st, trace)


@njit(cache=True)
def note(event_id, values):
    """A game event the views need (bids made, a deal's settlement), with its values."""
    with numba.objmode():
        active().note(EVENTS[event_id], values)


# Append new decisions at the end: the games' cached kernels (their userbot.py) hold these ids as
# constants, and Numba's cache does not notice a change made here.
DECISIONS = ("choose_trump", "declare", "bid", "pass_cards")
EXPECTS = {"play": "one of the legal card codes (a str)",
           "choose_trump": "a suit letter 'C', 'D', 'H' or 'S'",
           "declare": "a suit letter 'C', 'D', 'H' or 'S', or None to pass",
           "bid": "True or False",
           "pass_cards": "a list of distinct card codes from the hand, as many as are passed"}
DECISIONS += ("game", "announce")  # Doppelkopf
EXPECTS.update(game="one of the legal game names (a str: 'normal', 'marriage', 'queen', ...)",
               announce="True or False")
# Skat (skat/userbot.py): its bid and declare answers are Kraken's bool and its own game string
DECISIONS += ("take_skat", "discard", "kontra", "re")
EXPECTS.update({"take_skat": "True (pick up the Skat) or False (play Hand)",
                "discard": "a list of two distinct card codes of the twelve",
                "kontra": "True or False", "re": "True or False"})
DECISION_IDS = {name: i for i, name in enumerate(DECISIONS)}
EVENTS = ("bidding", "settled")
EVENT_IDS = {name: i for i, name in enumerate(EVENTS)}


# ------------------------------------------------------------------ views


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


# ------------------------------------------------------------------ the table


@dataclass
class Seat:
    kind: str  # "builtin", "python" or "numba"
    entry: str | None = None
    factory: Any = None  # the Python bot class
    params: dict | None = None


class Table:
    """The bots of one table with user bots: the kernels' kind ids and parameter rows, the
    Python bots, and the game's loops rebuilt around them."""

    def __init__(self, game, spec, seats: list[Seat], kinds: np.ndarray, params: np.ndarray,
                 numba_links: tuple):
        self.game, self.spec, self.seats = game, spec, seats
        self.kinds, self.params = kinds, params
        self.numba_links = numba_links
        self.has_python = any(s.kind == "python" for s in seats)
        self.support = game.user_bots
        self.seed = 0
        self.deal_index = -1
        self.context: dict = {}
        self.context_next: dict = {}  # what the loop reports before the deal's cards are dealt
        self._instances: dict[int, Any] = {}

    # --- what the compiled loop reports
    def begin_deal(self, seed, index, hands) -> None:
        self.seed, self.deal_index = int(seed) % 2**64, int(index)
        self._instances = {}
        self.context = {"dealt": [int(h) for h in hands]}
        self.support.on_deal(self)

    def begin_play(self, st, trace) -> None:
        self.context["st"] = st  # live views of the loop's arrays
        self.context["trace"] = trace
        self.context["start_hands"] = [int(st[S.S_HAND + s]) for s in range(self.game.n_seats)]

    def note(self, event: str, values) -> None:
        self.support.on_event(self, event, values)

    # --- decisions
    def bot(self, seat: int):
        bot = self._instances.get(seat)
        if bot is None:
            spec = self.seats[seat]
            try:
                bot = spec.factory(**spec.params)
            except Exception as exc:
                raise self.error(seat, "start", f"raised {type(exc).__name__}: {exc}", ()) from exc
            self._instances[seat] = bot
        return bot

    def decide(self, decision: str, seat: int, payload):
        bot = self.bot(seat)
        method = getattr(bot, decision, None)
        if method is None:
            return -1
        view, legal, parse = self.support.view(self, decision, seat, payload)
        try:
            answer = method(view)
        except Exception as exc:
            raise self.error(seat, decision, f"raised {type(exc).__name__}: {exc}", legal) from exc
        value = parse(answer)
        if value is None:
            expects = self.support.expects.get(decision, EXPECTS[decision])
            raise self.error(seat, decision, f"answered {answer!r}, not {expects}", legal)
        return value

    def error(self, seat: int, decision: str, what: str, legal) -> BotError:
        spec = self.seats[seat]
        choices = ", ".join(str(c) for c in legal) if legal else "-"
        return BotError(f"bot {spec.entry!r} at seat {seat}, deal (seed {self.seed}, index "
                        f"{self.deal_index}) of {self.game.name}, decision {decision}: {what}; "
                        f"legal: {choices}")

    def rng_seed(self, seat: int) -> int:
        return rng_seed(self.seed, self.deal_index, seat)

    @contextmanager
    def playing(self, note_deals: bool = False):
        """The game plays with this table's loops while inside. ``note_deals``: the loops note
        every deal even without a Python bot (to name the deal of a Numba bot's illegal card)."""
        hooked = self.has_python or note_deals
        loops = build_loops(self.game, hooked, self.numba_links)
        self.game._user_loops = loops
        _TABLES.append(self)
        try:
            yield self.kinds, self.params
        except ValueError as err:
            if not err.args or err.args[0] != NUMBA_ILLEGAL:
                raise
            seat, card, legal = (int(a) for a in err.args[1:])
            what = (f"returned card id {card}, which is not in its legal mask; the function must "
                    f"return one of the set bits of ``legal``")
            error = self.error(seat, "play", what, codes_of(self.game.deck, legal))
            raise (error if hooked else DealNotNoted(str(error))) from None
        finally:
            _TABLES.pop()
            self.game._user_loops = {}


_BUILDS: dict = {}


def build_loops(game, has_python: bool, numba_links: tuple) -> dict:
    """The game's loops for a table (built once per process and table make-up)."""
    key = (type(game.user_bots), has_python, numba_links)
    if key not in _BUILDS:
        support = game.user_bots
        tag = f"python_{support.family}" if has_python and not numba_links else None
        _BUILDS[key] = support.build(tuple(numba_links), Build(has_python, tag))
    return _BUILDS[key]


@njit(cache=True, forceinline=True)
def seat_of(params_row):
    """The seat a parameter row belongs to at a user-bot table (its last slot)."""
    return np.int64(params_row[params_row.shape[0] - 1])


@njit
def _hooked_deal(seed, index, hands, deck, rng):
    out = inner_deal(seed, index, hands, deck, rng)  # noqa: F821 (bound by rebuild)
    note_deal(seed, index, hands)
    return out


def hooked_deal(inner, build: Build):
    """A game's ``deal_cards(seed, index, hands, deck, rng)`` that tells the table which deal
    begins (its (seed, index) and the dealt hands)."""
    return rebuild(_hooked_deal, build, inner_deal=inner)


@njit
def _hooked_play(st, T, bot_kind, bot_params, rng, trace):
    note_play(st, trace)
    inner_play(st, T, bot_kind, bot_params, rng, trace)  # noqa: F821 (bound by rebuild)


@njit
def _hooked_play_scratch(st, T, bot_kind, bot_params, rng, trace, work):
    note_play(st, trace)
    inner_play(st, T, bot_kind, bot_params, rng, trace, work)  # noqa: F821 (bound by rebuild)


def hooked_play(inner, build: Build, scratch: bool = False):
    """A game's ``play_out(st, T, kinds, params, rng, trace)`` that hands the table live views
    of the state and the trace first (the views' played cards, in order). ``scratch``: the
    game's ``play_out`` takes a scratch array ``work`` after the trace (a search bot's)."""
    return rebuild(_hooked_play_scratch if scratch else _hooked_play, build, inner_play=inner)


def with_scratch(chain, builtin_card, search_kind: int):
    """The table's card choice in the signature of a batch loop whose ``play_out`` takes a
    scratch array: seats of the game's search bot (``search_kind``: pimc) use the loop's scratch
    and ``builtin_card`` (the game's card choice), every other kind the user bots' ``chain``."""
    @njit(forceinline=True)
    def choose(kind, legal, st, T, params, rng, work):
        if kind == search_kind:
            return builtin_card(kind, legal, st, T, params, rng, work)
        return chain(kind, legal, st, T, params, rng)

    return choose


def scratch_play_loop(links, build: Build, play_out, builtin_card, without_scratch, search_kind: int):
    """``play_out`` (a game's play loop with a scratch array ``work``) with the table's card
    choice (`with_scratch`; ``without_scratch``: the built-in card of the kinds that need no
    scratch, in the user bots' signature) and, with Python bots, the play hook. (Loops built
    around user bots may not allocate: a search bot gets the loop's scratch.)"""
    chain = card_chain(without_scratch, links, build)
    play = rebuild(play_out, build, choose_card=with_scratch(chain, builtin_card, search_kind))
    return hooked_play(play, build, scratch=True) if build.python else play


def suggesting(choose_card, work_size):
    """`state.suggest`'s card for a game whose batch loop plays ``choose_card`` with a scratch
    array: any built-in kind, a search bot with a scratch of its own (``work_size(kinds)``)."""
    def suggested(kind, legal, st, T, params, rng):
        work = np.zeros(work_size(np.array([kind], dtype=np.int64)), dtype=np.int64)
        return choose_card(kind, legal, st, T, params, rng, work)

    return suggested


class Support:
    """A ruleset's user-bot support (``Game.user_bots``): its decisions, its loops rebuilt
    around user bots, and its views. A game folder subclasses it (klaverjas/userbot.py,
    kraken/userbot.py, hearts/userbot.py, doppelkopf/userbot.py) and sets ``Game.user_bots`` to
    an instance.

    - ``decisions``: the bot methods of the ruleset ("play" first);
    - ``expects``: what a decision's answer must be, where it differs from `EXPECTS`;
    - ``build(links, build)``: {loop name: rebuilt loop} (`rebuild` with the `Build`); the game calls
      ``self.loop(name, builtin)`` where it runs its batch loop;
    - ``play_extra(table_or_state, st, seat)``: the game's own card-play fields;
    - ``decision_view(table, decision, seat, value)``: (fields, legal choices, parse) of a
      decision other than the card;
    - ``state_view(state, seat)``: the same view from an interactive deal.

    Adding user bots to a ruleset, in its folder's ``userbot.py`` (every ruleset has one
    now: skat/userbot.py and doppelkopf/userbot.py are the richest examples):

    1. For each decision besides the card, a cached kernel with the built-in decision's
       signature that asks a Python bot (``kind == PYTHON_KIND``: ``ask_int(DECISION_IDS[name],
       seat_of(params), value)``, -1 meaning "leave it to the heuristic") and otherwise calls the
       built-in with ``HEURISTIC`` for a Numba bot's seat (see `klaverjas.userbot.user_trump`).
       New decision names go into `DECISIONS` and `EXPECTS` (e.g. "bid_value", "take_skat",
       "discard", "announce", "solo").
    2. ``build``: `rebuild` the batch loop's chain from ``play_out`` up with the card choice
       (`card_chain`), the decision wrappers, and with ``build.python`` the hooks: `hooked_deal`
       around ``deal_cards`` and `hooked_play` around ``play_out`` (the views' deal identity and
       played cards), plus `note`-style hooks for what the views need that the state lacks (the
       bids of an auction, announcements). Set ``family`` (the cached loops' name), and in the
       game call ``self.loop(name, builtin)`` where the loop runs.
    3. The views: ``play_extra`` (contract, declarer, announcements, scores; three seats work
       as they are), ``decision_view`` (fields, legal answers, a parse returning the kernel's
       encoding or None for a bad answer). Skat: the skat is hidden from every seat except the
       declarer once it has taken it, and an Ouvert declarer's hand is public. A deck with two
       copies of each card (Doppelkopf) shares a code between them: `card_parse` picks the
       copy the seat may play, `legal_codes` lists each code once, and ``state_view`` rebuilds
       the played cards from the state's card ids, not codes (doppelkopf/userbot.py, whose
       views also keep the parties hidden until they are public).
    4. Extend tests/test_user_bots.py: `SUPPORTED` picks the ruleset up for the view tests.
    """

    decisions: tuple[str, ...] = ("play",)
    expects: dict[str, str] = {}  # a decision's answer where it differs from `EXPECTS`'
    copy_entry: str = ""  # a Numba user bot that copies the heuristic (bench)
    family: str = ""  # names the cached loops of its Python-bot tables

    def __init__(self, deck, n_seats: int, builtin_card):
        self.deck, self.n_seats, self.builtin_card = deck, n_seats, builtin_card
        # code -> its first card id (for a deck with copies, `card_parse` tries each copy)
        self.ids = {code: i for i, code in enumerate(deck.codes[:4 * deck.n_ranks])}
        self.per_copy = 4 * deck.n_ranks

    def build(self, links, build: Build) -> dict:
        raise NotImplementedError

    def on_deal(self, table) -> None:
        pass

    def on_event(self, table, event: str, values) -> None:
        table.context[event] = values

    def play_extra(self, source, st, seat: int) -> dict:
        return {}

    def decision_view(self, table, decision: str, seat: int, value: int):
        raise NotImplementedError

    # --- card play, shared
    def legal_codes(self, legal: int) -> tuple[str, ...]:
        """The codes of a legal mask in card order, each once (a deck with copies has two ids
        per code)."""
        if self.deck.copies == 1:
            return codes_of(self.deck, legal)
        folded = 0
        for copy in range(self.deck.copies):
            folded |= legal >> (copy * self.per_copy)
        return codes_of(self.deck, folded & ((1 << self.per_copy) - 1))

    def card_parse(self, legal: int):
        ids = self.ids

        def parse(answer):
            card = ids.get(answer) if isinstance(answer, str) else None
            if card is None and isinstance(answer, str):
                try:
                    card = self.deck.card_id(answer)
                except UserError:
                    return None
            if card is None:
                return None
            for copy in range(self.deck.copies):  # the first copy the seat may play
                if legal >> (card + copy * self.per_copy) & 1:
                    return card + copy * self.per_copy
            return None

        return parse

    def view(self, table, decision: str, seat: int, payload):
        if decision == "play":
            st, legal = payload
            legal = int(legal)
            legal_codes = self.legal_codes(legal)
            st = st.copy()
            ctx = table.context
            order = ctx["trace"][:int(st[S.S_PLAYED]).bit_count()].tolist()
            start = ctx["start_hands"]

            def make():
                fields = play_fields(self.deck, self.n_seats, st, order, start, seat)
                fields.update(self.play_extra(table, st, seat))
                return fields

            view = View(make, table.rng_seed(seat), seat=seat, decision="play",
                        deal=(table.seed, table.deal_index), legal=legal_codes,
                        n_seats=self.n_seats)
            return view, legal_codes, self.card_parse(legal)
        fields, legal, parse = self.decision_view(table, decision, seat, int(payload[1]))
        view = View(None, table.rng_seed(seat), seat=seat, decision=decision,
                    deal=(table.seed, table.deal_index), legal=tuple(legal), n_seats=self.n_seats,
                    **fields)
        return view, legal, parse

    def state_view(self, state, seat: int) -> View:
        """The card-play view of ``seat`` in an interactive deal (`TrickState.view`)."""
        st = state._st.copy()
        order = [self.ids[code] for _, code in state.history]
        start = [int(st[S.S_HAND + s]) for s in range(self.n_seats)]
        for s, code in state.history:
            start[s] |= 1 << self.ids[code]
        legal = self.legal_codes(state.legal_mask()) if seat == state.to_move else ()
        fields = play_fields(self.deck, self.n_seats, st, order, start, seat)
        fields.update(self.play_extra(state, st, seat))
        return View(None, None, seat=seat, decision="play", deal=None, legal=legal,
                    n_seats=self.n_seats, **fields)

    def suggest(self, state, bot: str, params) -> str:
        """The card the built-in ``bot`` would play now in ``state``."""
        from simcards.games.botspec import resolve_bots

        if state.is_over:
            raise UserError("the deal is over: there is nothing to suggest")
        spec = {"kind": bot, "params": dict(params or {})}
        kinds, rows = resolve_bots([spec] * self.n_seats, state.game.bots, self.n_seats)
        seat = state.to_move
        rng = np.empty(1, dtype=np.uint64)
        from simcards.rng import STREAM_PLAY, reset_stream

        reset_stream(rng, 0, len(state.history), STREAM_PLAY)
        card = self.builtin_card(kinds[seat], np.int64(state.legal_mask()), state._st.copy(),
                                 state.game.tables, rows[seat], rng)
        return self.deck.code(int(card))


def make_table(game, spec) -> Table | None:
    """The `Table` of a bot spec with user bots (None when every seat is built in)."""
    from simcards.games.botspec import _per_seat, resolve_bots

    seats_spec = _per_seat(spec, game.n_seats)
    if seats_spec is None or not any(is_user_spec(i) for i in seats_spec):
        return None
    if game.user_bots is None:
        raise unsupported(game)
    family = game.bots
    builtin = [i if not is_user_spec(i) else "heuristic" for i in seats_spec]
    kinds, base = resolve_bots(builtin, family, game.n_seats)
    problems = []
    for seat, item in enumerate(seats_spec):
        if is_user_spec(item):
            problems += user_spec_problems(item, family, f"bots[{seat}]", game.user_bots)
    if problems:
        raise UserError("\n".join(f"{p} = {v!r} is not allowed; use {a}" for p, v, a in problems))
    extras: list[tuple] = []
    numba_fns: dict[str, int] = {}
    seats: list[Seat] = []
    rows = []
    for seat, item in enumerate(seats_spec):
        row = list(base[seat])
        if not is_user_spec(item):
            seats.append(Seat("builtin"))
            rows.append(row)
            continue
        target, module = _import_entry(item["entry"])
        params = dict(item.get("params", {}))
        if item["kind"] == "python":
            kinds[seat] = PYTHON_KIND
            seats.append(Seat("python", item["entry"], target, params))
        else:
            if item["entry"] not in numba_fns:
                numba_fns[item["entry"]] = NUMBA_KIND + len(numba_fns)
                extras.append((item["entry"], target))
            kinds[seat] = numba_fns[item["entry"]]
            names = family.param_names
            for name, value in params.items():
                if name in names:
                    row[names.index(name)] = float(value)
            seats.append(Seat("numba", item["entry"], target, params))
        rows.append(row)
    # every row: the game's parameters, each Numba module's own PARAMS, then the seat
    extra_names: list[str] = []
    for entry, _ in extras:
        _, module = _import_entry(entry)
        extra_names += [p[0] for p in numba_extra_params(module)]
    width = len(family.params) + len(extra_names) + 1
    matrix = np.zeros((game.n_seats, width), dtype=np.float64)
    for seat, row in enumerate(rows):
        matrix[seat, :len(row)] = row
        for j, name in enumerate(extra_names):
            default = 0.0
            for entry, _ in extras:
                for pname, pdefault, _doc in numba_extra_params(_import_entry(entry)[1]):
                    if pname == name:
                        default = pdefault
            value = (seats[seat].params or {}).get(name, default) if seats[seat].kind == "numba" else default
            matrix[seat, len(family.params) + j] = float(value)
        matrix[seat, width - 1] = seat
    links = tuple((kind_id, target) for (entry, target), kind_id in zip(extras, numba_fns.values()))
    return Table(game, spec, seats, kinds, matrix, links)


def user_entries(spec) -> list[str]:
    """The entries of the user bots in a bot spec (any nesting the configs allow)."""
    if isinstance(spec, dict):
        return [spec["entry"]] if is_user_spec(spec) and isinstance(spec.get("entry"), str) else []
    if isinstance(spec, (list, tuple)):
        return [e for item in spec for e in user_entries(item)]
    return []


def source_hashes(spec) -> dict[str, str]:
    return {entry: source_hash(entry) for entry in user_entries(spec)}


class FirstLegal:
    """The empty Python bot: it plays the first legal card and leaves every other decision to
    the heuristic (scripts/bench.py times simcards' overhead per decision with it)."""

    def play(self, view):
        return view.legal[0]
