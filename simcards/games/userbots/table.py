"""The table of user bots: its seats, the loops rebuilt for it (`Table.playing`), the decisions
it hands to Python bots, and a ruleset's `Support` (``Game.user_bots``)."""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np

from simcards.engine import state as S
from simcards.errors import UserError
from simcards.games.botspec import NUMBA_KIND, PYTHON_KIND, is_user_spec, per_seat, resolve_bots
from simcards.games.userbots import callbacks
from simcards.games.userbots.callbacks import EXPECTS
from simcards.games.userbots.loops import NUMBA_ILLEGAL, Build, user_code_key
from simcards.games.userbots.specs import (
    BotError,
    DealNotNoted,
    import_entry,
    numba_extra_params,
    unsupported,
    user_spec_problems,
)
from simcards.games.userbots.views import View, codes_of, play_fields, rng_seed
from simcards.rng import STREAM_PLAY, reset_stream


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
        callbacks.TABLES.append(self)
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
            callbacks.TABLES.pop()
            self.game._user_loops = {}


_BUILDS: dict = {}


def build_loops(game, has_python: bool, numba_links: tuple) -> dict:
    """The game's loops for a table (built once per process and table make-up; cached on disk,
    a Numba bot's under a hash of its code)."""
    key = (type(game.user_bots), has_python, numba_links)
    if key not in _BUILDS:
        support = game.user_bots
        tag = f"python_{support.family}" if has_python else f"numba_{support.family}"
        if numba_links:  # the user code is part of the name: a changed bot compiles anew
            tag += f"_{user_code_key(tuple(numba_links))}"
        _BUILDS[key] = support.build(tuple(numba_links), Build(has_python, tag))
    return _BUILDS[key]


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

    def spec_problems(self, item: dict, family, path: str) -> list[tuple[str, Any, str]]:
        """Problems of one user bot spec of this ruleset (`user_spec_problems`), for
        `simcards.games.botspec.bot_problems`."""
        return user_spec_problems(item, family, path, self)

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
        if state.is_over:
            raise UserError("the deal is over: there is nothing to suggest")
        spec = {"kind": bot, "params": dict(params or {})}
        kinds, rows = resolve_bots([spec] * self.n_seats, state.game.bots, self.n_seats)
        seat = state.to_move
        rng = np.empty(1, dtype=np.uint64)
        reset_stream(rng, 0, len(state.history), STREAM_PLAY)
        card = self.builtin_card(kinds[seat], np.int64(state.legal_mask()), state._st.copy(),
                                 state.game.tables, rows[seat], rng)
        return self.deck.code(int(card))


def make_table(game, spec) -> Table | None:
    """The `Table` of a bot spec with user bots (None when every seat is built in)."""
    seats_spec = per_seat(spec, game.n_seats)
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
        target, module = import_entry(item["entry"])
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
        _, module = import_entry(entry)
        extra_names += [p[0] for p in numba_extra_params(module)]
    width = len(family.params) + len(extra_names) + 1
    matrix = np.zeros((game.n_seats, width), dtype=np.float64)
    for seat, row in enumerate(rows):
        matrix[seat, :len(row)] = row
        for j, name in enumerate(extra_names):
            default = 0.0
            for entry, _ in extras:
                for pname, pdefault, _doc in numba_extra_params(import_entry(entry)[1]):
                    if pname == name:
                        default = pdefault
            value = (seats[seat].params or {}).get(name, default) if seats[seat].kind == "numba" else default
            matrix[seat, len(family.params) + j] = float(value)
        matrix[seat, width - 1] = seat
    links = tuple((kind_id, target) for (entry, target), kind_id in zip(extras, numba_fns.values()))
    return Table(game, spec, seats, kinds, matrix, links)


class FirstLegal:
    """The empty Python bot: it plays the first legal card and leaves every other decision to
    the heuristic (scripts/bench.py times simcards' overhead per decision with it)."""

    def play(self, view):
        return view.legal[0]
