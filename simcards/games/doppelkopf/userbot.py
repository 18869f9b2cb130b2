"""User bots in Doppelkopf (simcards/games/userbots/): the decisions, the batch loop rebuilt
around them, and the views.

Decisions:

- ``play``: the card (a code; of two identical cards the seat plays the one it holds);
- ``game``: before play, from forehand on, while nobody has declared a solo: "normal", a solo
  ("queen", "jack", "clubs", "spades", "hearts", "diamonds", "fleshless"), or for a holder of
  both club queens "marriage" or "silent_marriage" (played as a diamonds solo that only the
  holder knows of) instead of "normal". The first solo declared is played; a marriage only when
  nobody declares one. With ``pflichtsolo`` the seat that must play its owed solo now
  (``must_solo``) answers a solo; when a seat before it has declared a free solo, it is asked
  after the round (its owed solo goes first);
- ``announce``: before each of its cards, while its party's next announcement is in time (the
  deadlines of rules.md, with a reply's extra card and a late marriage's shift): True makes
  ``view.announcement`` ("re", "kontra_no90", ...), and the seat is then asked the next level.

A decision the bot leaves out is the heuristic's, with the seat's parameters (its announcement
then also on turns where the bot was not asked, as the heuristic plays).

View fields besides the shared ones (every card-play and ``announce`` view): ``game`` (the game
type as the seat knows it: a silent marriage is "normal" to the other three), ``contract`` (the
card order: "normal", "queen", ..., "fleshless"), ``declarer`` (the soloist or the marriage's
holder when public, else None), ``party`` (the seat's own: "re", "kontra", or None while an
announced marriage is open), ``parties`` (per seat, as far as this seat knows: its own, the
public ones from announcements, club queens played, a declared game and a found partner, and a
soloist's opponents), ``announcements`` ((call, seat, cards then held): Re's, then Kontra's,
by level), ``marriage_open``, ``clarify_trick`` (0: none), per seat ``augen`` and
``tricks_won`` (of the tricks taken so far), the special events so far: ``foxes`` ((player,
taker) per fox taken),
``doppelkopfs`` (per seat, tricks of 40 Augen or more), ``karlchen`` (the seat whose J of clubs
won the last trick, or None); the series: ``series_scores`` (per seat, the deals of this
series of 24 before this one), ``deal_no`` (0 .. 23), ``deals_left`` (this one included).
An ``announce`` view adds ``announcement``, ``deadline`` (the fewest cards the seat must hold to
make it; it holds ``len(hand)``) and ``reply`` (it answers the other party's call).
The ``game`` view holds ``hand``, ``dealer``, ``pflichtsolo`` (the option), ``owes_solo``,
``must_solo``, ``owing`` (the seats still owing a solo this series), ``series_scores``,
``deal_no`` and ``deals_left``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcards.cards import DECK48
from simcards.engine import state as S
from simcards.games.botspec import HEURISTIC
from simcards.games.doppelkopf import _kernels as K
from simcards.games.doppelkopf import _play as P
from simcards.games.doppelkopf import bots as B
from simcards.games.doppelkopf.rules import (
    CONTRACTS,
    G_SILENT_MARRIAGE,
    GAME_TYPES,
    QC_MASK,
    SERIES_LENGTH,
)
from simcards.games.doppelkopf.scoring import ANNOUNCEMENTS
from simcards.games.userbots import (
    DECISION_IDS,
    EVENT_IDS,
    PYTHON_KIND,
    Support,
    ask_int,
    card_chain,
    codes_of,
    hooked_deal,
    hooked_play,
    note,
    play_fields,
    rebuild,
    seat_of,
)

D_GAME, D_ANNOUNCE = DECISION_IDS["game"], DECISION_IDS["announce"]
E_SETTLED = EVENT_IDS["settled"]
SOLOS = CONTRACTS[1:]  # the solo answers, in contract order 1 .. 7
MARRIAGES = {"marriage": P.CHOICE_MARRIAGE, "silent_marriage": P.CHOICE_SILENT}
PARTY_NAMES = ("re", "kontra")
_NO_TRACES = np.empty((0, 48), dtype=np.int64)


# ------------------------------------------------------------------ decisions


@njit(cache=True)
def user_game_choice(kind, hand, T, p, contract, value, owed, deals_left, must):
    """`_play.game_choice` at a user-bot table: a Python bot declares (or leaves it to the
    heuristic); a Numba bot's seat declares as the heuristic does. The bot's view gets the
    seats owing a solo, ``must`` and ``deals_left`` packed into one int."""
    if kind >= PYTHON_KIND:
        if kind == PYTHON_KIND:
            packed = (owed & 15) | (np.int64(must) << 4) | (deals_left << 5)
            answer = ask_int(D_GAME, seat_of(p), packed)
            if answer >= 0:
                return answer
        kind = HEURISTIC
    return P.game_choice(kind, hand, T, p, contract, value, owed, deals_left, must)


@njit(cache=True)
def user_turn(st, kind, p):
    """`bots.bot_turn` at a user-bot table: a Python bot is asked each announcement of its party
    that is in time, level by level, until it declines (a bot without ``announce`` leaves the
    turn to the heuristic); a Numba bot's seat announces as the heuristic does."""
    if kind >= PYTHON_KIND:
        if kind == PYTHON_KIND:
            seat = st[S.S_TO_MOVE] & 3
            party = K.party_of(st, seat)
            while True:
                level = st[K.S_LEVEL + party] + 1
                if level > 4 or not K.call_in_time(st, seat, level):
                    return
                answer = ask_int(D_ANNOUNCE, seat, level)
                if answer < 0:
                    break  # no announce method: the heuristic's turn
                if answer == 0:
                    return
                K.make_call(st, seat, level)
        kind = HEURISTIC
    B.bot_turn(st, kind, p)


@njit(cache=True)
def copy_heuristic(kind, legal, st, T, params, rng):
    """A Numba user bot that plays the heuristic's card (scripts/bench.py times the fast path
    with it: ``kind = "numba" entry = "simcards.games.doppelkopf.userbot:copy_heuristic"``)."""
    return B.heuristic_card(st[S.S_TO_MOVE], legal, st, T, params)


# ------------------------------------------------------------------ loop hooks (Python tables)


@njit
def _hooked_settle(st, specials, scores):
    """`_kernels.settle_deal` that reports the deal's scores (the views' series scores)."""
    winner, value = inner_settle(st, specials, scores)  # noqa: F821 (bound by rebuild)
    note(E_SETTLED, scores)
    return winner, value


@njit
def _series_first(out, seed, start, T, kinds, params, traces):
    """`_play.simulate_into` that first plays the deals of the series before ``start`` into a
    scratch matrix, so that the table knows their scores (a chunk may begin inside a series)."""
    before = start % SERIES_LENGTH
    if before > 0 and out.shape[1] > 0:
        scratch = np.empty((out.shape[0], before), dtype=np.int64)
        inner_simulate(scratch, seed, start - before, T, kinds, params,  # noqa: F821
                       np.empty((0, traces.shape[1]), dtype=np.int64))
    inner_simulate(out, seed, start, T, kinds, params, traces)  # noqa: F821 (bound by rebuild)


# ------------------------------------------------------------------ what a seat knows


def own_party(st, seat: int) -> str | None:
    """The seat's party as it knows it from its cards and the game (None: an announced marriage
    not clarified yet, for everybody but its holder)."""
    if st[K.S_MARRIAGE_OPEN] and int(st[S.S_DECLARER]) != seat:
        return None
    return PARTY_NAMES[int(K.party_of(st, seat))]


def known_parties(st, seat: int) -> tuple:
    """Per seat the party ``seat`` knows of: its own, the public ones, and a soloist's
    opponents."""
    own = own_party(st, seat)
    soloist = bool(st[K.S_SOLO]) and int(st[S.S_DECLARER]) == seat
    out = []
    for s in range(4):
        if s == seat:
            out.append(own)
        elif int(st[K.S_REV_RE]) >> s & 1:
            out.append("re")
        elif int(st[K.S_REV_KO]) >> s & 1 or soloist:
            out.append("kontra")
        else:
            out.append(None)
    return tuple(out)


def announcement_record(st) -> tuple:
    return tuple((call, int(st[K.S_ANN_SEAT + k]), int(st[K.S_ANN_CARDS + k]))
                 for k, call in enumerate(ANNOUNCEMENTS) if st[K.S_ANN_CARDS + k] >= 0)


def public_game(st, seat: int) -> tuple[str, int | None]:
    """(game type, declarer) as ``seat`` knows them: a silent marriage is its holder's secret."""
    game_type = int(st[K.S_GAME_TYPE])
    declarer = int(st[S.S_DECLARER])
    if game_type == G_SILENT_MARRIAGE and seat != declarer:
        return "normal", None
    return GAME_TYPES[game_type], (declarer if declarer >= 0 else None)


def deadline(st, seat: int, level: int) -> tuple[int, bool]:
    """(the fewest cards ``seat`` must hold to announce ``level`` now, whether it is a reply):
    `_kernels.call_in_time` for one level."""
    party = int(K.party_of(st, seat))
    other = int(st[K.S_LEVEL + 1 - party])
    shift = int(st[K.S_SHIFT])
    needed = K.BASE_DEADLINE - level - shift
    reply = level == 0 and other >= 0
    if reply:
        needed = min(needed, K.BASE_DEADLINE - other - shift - 1)
    return needed, reply


class DoppelkopfSupport(Support):
    copy_entry = "simcards.games.doppelkopf.userbot:copy_heuristic"
    decisions = ("play", "game", "announce")
    family = "doppelkopf"

    def build(self, links, build):
        play = rebuild(P.play_out, build, choose_card=card_chain(B.choose_card, links, build),
                       bot_turn=user_turn)
        choose = rebuild(P.choose_game, build, game_choice=user_game_choice)
        deal = P.deal_cards
        replace = {}
        if build.python:
            play = hooked_play(play, build)
            deal = hooked_deal(P.deal_cards, build)
            replace = {"deal_cards": deal,
                       "settle_deal": rebuild(_hooked_settle, build, inner_settle=K.settle_deal)}
        owed = rebuild(P.owed_before, build, choose_game=choose, deal_cards=deal)
        loop = rebuild(P.simulate_into, build, play_out=play, choose_game=choose,
                       owed_before=owed, **replace)
        if build.python:
            loop = rebuild(_series_first, build, inner_simulate=loop)
        return {"simulate_into": loop}

    # --- the series: each deal's scores, reported as it is settled
    def on_event(self, table, event, values):
        series = table.__dict__.setdefault("series", {})
        series[table.deal_index] = tuple(int(v) for v in values)

    def on_deal(self, table):
        if table.deal_index % SERIES_LENGTH == 0:  # forget the series before this one
            series = table.__dict__.setdefault("series", {})
            for index in [i for i in series if i < table.deal_index]:
                del series[index]

    def series_fields(self, source) -> dict:
        if not hasattr(source, "context"):  # an interactive deal stands alone
            return {"series_scores": (0, 0, 0, 0), "deal_no": None, "deals_left": None}
        index = source.deal_index
        deal_no = index % SERIES_LENGTH
        series = getattr(source, "series", {})
        totals = [0, 0, 0, 0]
        for earlier in range(index - deal_no, index):
            for s, score in enumerate(series[earlier]):
                totals[s] += score
        return {"series_scores": tuple(totals), "deal_no": deal_no,
                "deals_left": SERIES_LENGTH - deal_no}

    # --- views
    def play_extra(self, source, st, seat):
        game, declarer = public_game(st, seat)
        fields = {"game": game, "contract": CONTRACTS[int(st[S.S_CONTRACT])],
                  "declarer": declarer, "party": own_party(st, seat),
                  "parties": known_parties(st, seat), "announcements": announcement_record(st),
                  "marriage_open": bool(st[K.S_MARRIAGE_OPEN]),
                  "clarify_trick": int(st[K.S_CLARIFY]),
                  "augen": tuple(int(st[K.S_AUGEN + s]) for s in range(4)),
                  "tricks_won": tuple(int(st[K.S_TRICKS + s]) for s in range(4)),
                  "foxes": tuple((int(st[K.S_FOX_PLAYER + c]), int(st[K.S_FOX_WINNER + c]))
                                 for c in range(2) if st[K.S_FOX_WINNER + c] >= 0),
                  "doppelkopfs": tuple(int(st[K.S_DK + s]) for s in range(4)),
                  "karlchen": int(st[K.S_KARLCHEN]) if st[K.S_KARLCHEN] >= 0 else None}
        fields.update(self.series_fields(source))
        return fields

    def decision_view(self, table, decision, seat, value):
        ctx = table.context
        if decision == "announce":
            st = ctx["st"].copy()
            order = ctx["trace"][:int(st[S.S_PLAYED]).bit_count()].tolist()
            fields = play_fields(self.deck, 4, st, order, ctx["start_hands"], seat)
            fields.update(self.play_extra(table, st, seat))
            party = int(K.party_of(st, seat))
            needed, reply = deadline(st, seat, value)
            fields.update(announcement=ANNOUNCEMENTS[party * 5 + value], deadline=needed,
                          reply=reply)

            def parse_bool(answer):
                return int(answer) if isinstance(answer, (bool, np.bool_)) else None

            return fields, (True, False), parse_bool
        # the game: before play
        hand = ctx["dealt"][seat]
        owed, must, deals_left = value & 15, bool(value >> 4 & 1), value >> 5
        dealer = table.deal_index % 4
        pflicht = bool(table.game.options["pflichtsolo"])
        fields = {"hand": codes_of(self.deck, hand), "dealer": dealer,
                  "pflichtsolo": pflicht, "owes_solo": pflicht and bool(owed >> seat & 1),
                  "must_solo": must,
                  "owing": tuple(s for s in range(4) if pflicht and owed >> s & 1)}
        fields.update(self.series_fields(table))
        if must:
            legal = SOLOS
        elif bin(hand & QC_MASK).count("1") == 2:
            legal = (*MARRIAGES, *SOLOS)
        else:
            legal = ("normal", *SOLOS)

        def parse_game(answer):
            if not isinstance(answer, str) or answer not in legal:
                return None
            if answer in MARRIAGES:
                return MARRIAGES[answer]
            return P.CHOICE_NORMAL if answer == "normal" else CONTRACTS.index(answer)

        return fields, legal, parse_game

    def state_view(self, state, seat):
        """The card-play view of an interactive deal: the played cards by their card ids (two
        copies share a code), as the state recorded them."""
        from simcards.games.userbots import View

        st = state._st.copy()
        order = list(state.played_ids)
        start = [int(st[S.S_HAND + s]) for s in range(4)]
        for s, card in zip((s for s, _ in state.history), order):
            start[s] |= 1 << card
        legal = self.legal_codes(state.legal_mask()) if seat == state.to_move else ()
        fields = play_fields(self.deck, 4, st, order, start, seat)
        fields.update(self.play_extra(state, st, seat))
        return View(None, None, seat=seat, decision="play", deal=None, legal=legal, n_seats=4,
                    **fields)


SUPPORT = DoppelkopfSupport(DECK48, 4, B.choose_card)
