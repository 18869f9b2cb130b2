"""User bots in Skat (simcards/games/userbots/): the decisions, the batch loop rebuilt around
them, and the views.

Decisions, in the order a deal asks them:

- ``bid(view) -> bool``: in the auction, True says (as the bidder) or holds (as the seat bid
  to) the value ``view.bid``; False passes. ``view.call`` says which: "say" or "hold"
  (forehand's choice to play at 18 after two passes is a "say"). Bids go up the ladder one
  value at a time, as the built-in bidders do (no jump bids).
- ``take_skat(view) -> bool``: the declarer: True picks the Skat up, False plays Hand.
- ``discard(view) -> [two codes]``: after the pickup, the two cards of the twelve to lay away.
- ``declare(view) -> str``: the game, one of ``view.legal``: a contract letter ("D", "H", "S",
  "C", "G" Grand, "N" Null), then "hand" in a Hand game, then at most one of "schneider" or
  "schwarz" (announced; Hand only) or "ouvert": "C", "G hand schneider", "N ouvert",
  "H hand ouvert" (a suit or Grand Ouvert is Hand with Schwarz announced). Letters may be
  spelled as contract names ("clubs", "grand", ...), words in any order and case. The legal
  games are those whose value can reach the bid; when none can (a pickup that cost matadors),
  every game without announcements (it is lost as overbid).
- ``kontra(view) -> bool`` and ``re(view) -> bool``: with the house rule ``kontra``: a defender
  doubles before the first card (the second defender is asked only if the first did not); the
  declarer redoubles after a Kontra.

A decision the class does not define is the heuristic's with the seat's parameters. For a
declarer the heuristic's whole declaration is the default; where the bot's own answers change
its premises (Hand instead of a pickup, another discard) the default game is the heuristic's
best game for the cards the declarer then plays with (`heuristic_game`).

View fields besides the shared ones (docs/own-bot.md, "The view"): ``role`` ("forehand",
"middlehand", "rearhand"), ``bids`` (the auction so far: (value, seat, "said" | "held" |
"passed") in order), and from the declaration on ``declarer``, ``bid`` (the final bid),
``game`` (the declaration as a ``declare`` answer), ``contract`` (its letter), ``hand_game``,
``schneider_announced``, ``schwarz_announced``, ``ouvert``, ``kontra`` (0, 1 Kontra, 2 Re),
``defenders`` (the two seats playing together against the declarer), ``partner`` (a defender's
fellow defender; None for the declarer), ``declarer_hand`` (an Ouvert declarer's cards still
held: public; None otherwise), ``skat`` and ``discard`` (the two cards picked up and the two laid
away: the declarer's after a pickup, () for everyone else and in a Hand game, whose Skat nobody
sees). A card-play view adds per seat ``points`` (card points taken in tricks so far) and
``tricks_won``. Every view has ``deal_no`` (the deal's place in its series of 36, as
`simcards tournament` forms series from deal 0; None in an interactive deal) and
``series_scores`` (per seat, the series' Seeger-Fabian totals before this deal). The ``bid``
view holds ``hand``, ``dealer``, ``role``, ``bid`` (the value at
stake), ``call`` and ``bids``; ``take_skat`` adds nothing else; ``discard`` holds the twelve
cards as ``hand`` and the two picked up as ``skat``; ``declare`` the ten cards to play with as
``hand``, ``skat``, ``discard`` and ``hand_game``; ``kontra`` and ``re`` the contract fields.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import njit

from simcards.cards import DECK32, nth_bit_index, popcount
from simcards.engine.state import S_TO_MOVE
from simcards.games.botspec import HEURISTIC
from simcards.games.skat import _kernels as K
from simcards.games.skat import _play as P
from simcards.games.skat import bots as B
from simcards.games.skat._pimc import pimc_scratch
from simcards.games.skat.rules import NULL
from simcards.games.skat.scoring import CONTRACTS
from simcards.games.userbots import (
    DECISION_IDS,
    PYTHON_KIND,
    Support,
    active,
    ask_int,
    codes_of,
    hooked_deal,
    rebuild,
    scratch_play_loop,
    seat_of,
    suggesting,
)
from simcards.rng import randint

D_BID, D_TAKE, D_DISCARD = DECISION_IDS["bid"], DECISION_IDS["take_skat"], DECISION_IDS["discard"]
D_DECLARE, D_KONTRA, D_RE = DECISION_IDS["declare"], DECISION_IDS["kontra"], DECISION_IDS["re"]
CALL_SAY, CALL_HOLD = 0, 1  # a bid payload is value * 2 + call
CALLS = ("say", "hold")
LETTERS = ("D", "H", "S", "C", "G", "N")  # by contract id
ROLES = ("rearhand", "forehand", "middlehand")  # by (seat - dealer) % 3
FULL_DECK = (1 << 32) - 1
# a declare answer in the kernels: contract | schneider << 3 | schwarz << 4 | ouvert << 5
G_SCHNEIDER, G_SCHWARZ, G_OUVERT = 8, 16, 32


# ---------------------------------------------------------------- the decisions in the kernels


@njit(cache=True)
def user_bid_call(seat, kinds, limits, current, T, rng):
    """`_play.bid_call` at a user-bot table: a Python bot says the next value or passes (or
    leaves it to the heuristic); every other seat bids as its built-in kind (a Numba bot's as
    the heuristic)."""
    kind = kinds[seat]
    if kind >= PYTHON_KIND:
        if kind == PYTHON_KIND:
            value = B.next_bid(current, T)
            if value == 0:
                return 0  # the top of the ladder: nothing left to say
            answer = ask_int(D_BID, seat, value * 2 + CALL_SAY)
            if answer >= 0:
                return value if answer == 1 else 0
        kind = HEURISTIC
    return B.bids(kind, limits[seat], current, T, rng)


@njit(cache=True)
def user_hold_call(seat, kinds, limits, value, rng):
    """`_play.hold_call` at a user-bot table."""
    kind = kinds[seat]
    if kind >= PYTHON_KIND:
        if kind == PYTHON_KIND:
            answer = ask_int(D_BID, seat, value * 2 + CALL_HOLD)
            if answer >= 0:
                return answer == 1
        kind = HEURISTIC
    return B.holds(kind, limits[seat], value, rng)


@njit(cache=True)
def heuristic_game(hand10, cards12, held, hand_game, bid, T, params):
    """The heuristic's game for fixed premises: the declarer plays ``held`` (his ten dealt cards
    in a Hand game, else his twelve, ``cards12``, less the discard); `bots.choose_game`.
    Returns (contract, ouvert, estimate)."""
    contract, ouvert, _, est = B.choose_game(hand10, cards12, held, hand_game, bid, T, params)
    return contract, ouvert, est


@njit(cache=True)
def _python_declaration(hand10, skat, bid, plan, T, params, rng, out):
    """A Python declarer: pick up or Hand, the discard, the game; each answer it leaves to the
    heuristic is the heuristic's (see the module docstring)."""
    seat = seat_of(params)
    cards12 = hand10 | skat
    est = B.declare(HEURISTIC, hand10, skat, bid, plan, T, params, rng, out)  # draws nothing
    take = ask_int(D_TAKE, seat, hand10)
    if take >= 0 and take == out[1]:  # the bot turns the heuristic's choice round
        if take == 1:  # it picks up where the heuristic played Hand
            planned_hand = plan[2]
            plan[2] = 0
            est = B.declare(HEURISTIC, hand10, skat, bid, plan, T, params, rng, out)
            plan[2] = planned_hand
        else:
            out[0], out[4], est = heuristic_game(hand10, cards12, hand10, 1, bid, T, params)
            out[1], out[2], out[3], out[5] = 1, 0, 0, skat
    hand_game = out[1]
    if hand_game == 0:
        discard = ask_int(D_DISCARD, seat, cards12)
        if discard >= 0 and discard != out[5]:
            out[5] = discard
            out[0], out[4], est = heuristic_game(hand10, cards12, cards12 & ~discard, 0, bid, T,
                                                 params)
    game = ask_int(D_DECLARE, seat, out[5] | (hand_game << 32))
    if game >= 0:
        out[0] = game & 7
        out[2] = (game >> 3) & 1
        out[3] = (game >> 4) & 1
        out[4] = (game >> 5) & 1
        held = hand10 if hand_game else cards12 & ~out[5]
        est = B.estimate(held, out[0], T, params)
    return est


@njit(cache=True)
def user_declare(kind, hand10, skat, bid, plan, T, params, rng, out):
    """`bots.declare` at a user-bot table."""
    if kind >= PYTHON_KIND:
        if kind == PYTHON_KIND:
            return _python_declaration(hand10, skat, bid, plan, T, params, rng, out)
        kind = HEURISTIC
    return B.declare(kind, hand10, skat, bid, plan, T, params, rng, out)


@njit(cache=True)
def user_kontra(kind, hand, contract, T, params, rng):
    """`bots.kontra_call` at a user-bot table."""
    if kind >= PYTHON_KIND:
        if kind == PYTHON_KIND:
            answer = ask_int(D_KONTRA, seat_of(params), hand)
            if answer >= 0:
                return answer == 1
        kind = HEURISTIC
    return B.kontra_call(kind, hand, contract, T, params, rng)


@njit(cache=True)
def user_re(kind, est, params, rng):
    """`bots.re_call` at a user-bot table."""
    if kind >= PYTHON_KIND:
        if kind == PYTHON_KIND:
            answer = ask_int(D_RE, seat_of(params), 0)
            if answer >= 0:
                return answer == 1
        kind = HEURISTIC
    return B.re_call(kind, est, params, rng)


# ---------------------------------------------------------------- what the views need noted


@njit(cache=True)
def _note_call(seat, value, call, yes):
    with numba.objmode():
        active().support.noted_call(active(), seat, value, call, yes)


# (each note is a call: Numba's object mode drops a bare item assignment)
@njit(cache=True)
def _note_declaration(seat, out):
    with numba.objmode():
        active().context.update(declaration=(int(seat), [int(x) for x in out[:6]]))


@njit(cache=True)
def _note_kontra(seat, said):
    with numba.objmode():
        if said:
            active().context.update(kontra_by=int(seat))


@njit(cache=True)
def noted_bid_call(seat, kinds, limits, current, T, rng):
    value = user_bid_call(seat, kinds, limits, current, T, rng)
    at_stake = B.next_bid(current, T)
    _note_call(seat, at_stake if at_stake > 0 else current, CALL_SAY, value != 0)
    return value


@njit(cache=True)
def noted_hold_call(seat, kinds, limits, value, rng):
    yes = user_hold_call(seat, kinds, limits, value, rng)
    _note_call(seat, value, CALL_HOLD, yes)
    return yes


@njit(cache=True)
def noted_declare(kind, hand10, skat, bid, plan, T, params, rng, out):
    est = user_declare(kind, hand10, skat, bid, plan, T, params, rng, out)
    _note_declaration(seat_of(params), out)
    return est


@njit(cache=True)
def noted_kontra(kind, hand, contract, T, params, rng):
    said = user_kontra(kind, hand, contract, T, params, rng)
    _note_kontra(seat_of(params), said)
    return said


@njit(cache=True)
def copy_heuristic(kind, legal, st, T, params, rng):
    """A Numba user bot that plays the heuristic's card (scripts/bench.py times the fast path
    with it: ``kind = "numba" entry = "simcards.games.skat.userbot:copy_heuristic"``)."""
    return B.heuristic_card(st[S_TO_MOVE], legal, st, T, params)


@njit(cache=True)
def card_without_scratch(kind, legal, st, T, params, rng):
    """`bots.choose_card` in the user bots' signature (no ``work``) for the kinds that need no
    scratch: the built-in card of a random or heuristic seat beside a user's bot (a pimc seat
    gets the loop's scratch: `userbots.with_scratch`)."""
    if kind == B.RANDOM:
        return nth_bit_index(legal, randint(rng, popcount(legal)))
    return B.heuristic_card(st[S_TO_MOVE], legal, st, T, params)


def series_loop(inner):
    """`_play.simulate_into` for a table of Python bots: deal by deal, telling the table each
    deal's place in its series (``deals_per_game`` deals from deal 0, as `simcards tournament`
    forms them) and the series' Seeger-Fabian totals before it. A chunk that starts inside a
    series first plays the series' earlier deals again (at most 35, their rows dropped), so the
    views are the same however a run is split into chunks and workers."""
    def simulate_into(out, seed, start, T, kinds, params, traces, work):
        table = active()
        length = table.game.deals_per_game
        column = np.empty((P.N_COLUMNS, 1), dtype=np.int64)
        tracing = traces.shape[0] > 0
        trace = np.empty((1 if tracing else 0, P.N_CARDS), dtype=np.int64)
        totals = [0, 0, 0]
        for index in range(start - start % length, start + out.shape[1]):
            if index % length == 0:
                totals = [0, 0, 0]
            table.context_next.update(series_scores=tuple(totals), deal_no=index % length)
            inner(column, seed, index, T, kinds, params, trace, work)
            for seat in range(3):
                totals[seat] += int(column[P.C_SEEGER + seat, 0])
            if index >= start:
                out[:, index - start] = column[:, 0]
                if tracing:
                    traces[index - start] = trace[0]

    return simulate_into


# ---------------------------------------------------------------- declarations as strings


def game_string(contract: int, hand_game: bool, schneider: bool, schwarz: bool, ouvert: bool) -> str:
    """A declaration as a ``declare`` answer: "C", "G hand schneider", "N ouvert", ..."""
    words = [LETTERS[contract]] + (["hand"] if hand_game else [])
    if ouvert:
        words.append("ouvert")
    elif schwarz:
        words.append("schwarz")
    elif schneider:
        words.append("schneider")
    return " ".join(words)


def parse_game(answer) -> tuple[int, bool, bool, bool, bool] | None:
    """(contract, hand, schneider, schwarz, ouvert) of a ``declare`` answer, the announcements
    an Ouvert or Schwarz implies included; None when it is no declaration."""
    if not isinstance(answer, str):
        return None
    words = answer.strip().lower().split()
    if not words:
        return None
    first = words[0]
    if first.upper() in LETTERS:
        contract = LETTERS.index(first.upper())
    elif first in CONTRACTS:
        contract = CONTRACTS.index(first)
    else:
        return None
    rest = set(words[1:])
    if len(rest) != len(words) - 1 or not rest <= {"hand", "schneider", "schwarz", "ouvert"}:
        return None
    ouvert = "ouvert" in rest
    hand_game = "hand" in rest or (ouvert and contract != NULL)
    schwarz = "schwarz" in rest or (ouvert and contract != NULL)
    schneider = "schneider" in rest or schwarz
    return contract, hand_game, schneider, schwarz, ouvert


def declare_choices(hand10: int, cards12: int, hand_game: bool, bid: int, T) -> tuple[str, ...]:
    """Every legal ``declare`` answer: the games that can reach the bid (see the module
    docstring), for the declarer's ten dealt cards and his twelve with the Skat."""
    levels = ((0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 1, 1)) if hand_game else ((0, 0, 0),)
    games = [(c, *lv) for c in range(5) for lv in levels] + [(NULL, 0, 0, 0), (NULL, 0, 0, 1)]
    reach = [g for g in games
             if K.can_reach(hand10, cards12, g[0], bid, int(hand_game), g[1], g[2], g[3], T)]
    if not reach:
        reach = [g for g in games if g[1] == g[2] == 0]
    return tuple(game_string(c, hand_game, sn, sw, ov) for c, sn, sw, ov in reach)


# ---------------------------------------------------------------- the support


class SkatSupport(Support):
    copy_entry = "simcards.games.skat.userbot:copy_heuristic"
    decisions = ("play", "bid", "take_skat", "discard", "declare", "kontra", "re")
    family = "skat"
    expects = {"declare": "one of the games in view.legal, e.g. 'C', 'G hand schneider', "
                          "'N ouvert' (a str)"}

    def build(self, links, build):
        play = scratch_play_loop(links, build, P.play_out, B.choose_card, card_without_scratch,
                                 B.PIMC)
        if not build.python:
            # only the card is a Numba bot's own: the built-in contract kernels treat every kind
            # but random as the heuristic, so the cached contract phase serves as it is
            loop = rebuild(P.simulate_into, build, play_out=play)
            return {"simulate_into": loop}
        duel = rebuild(P._duel, build, bid_call=noted_bid_call, hold_call=noted_hold_call)
        auction = rebuild(P.auction, build, _duel=duel, hold_call=noted_hold_call)
        contract = rebuild(P.contract_phase, build, auction=auction, declare=noted_declare,
                           kontra_call=noted_kontra, re_call=user_re)
        loop = rebuild(P.simulate_into, build, contract_phase=contract,
                       play_out=play,
                       deal_cards=hooked_deal(P.deal_cards, build))
        return {"simulate_into": series_loop(loop)}

    # --- what the loop reports
    def on_deal(self, table):
        table.context.update(table.context_next, bids=[])

    def noted_call(self, table, seat, value, call, yes) -> None:
        bids = table.context["bids"]
        said = call == CALL_SAY or not any(b[2] == "said" for b in bids)  # forehand's 18 is said
        bids.append((int(value), int(seat), ("said" if said else "held") if yes else "passed"))

    # --- views
    def series_fields(self, table) -> dict:
        return {"series_scores": table.context["series_scores"], "deal_no": table.context["deal_no"]}

    def _deal_facts(self, table):
        dealt = table.context["dealt"]
        skat = FULL_DECK & ~(dealt[0] | dealt[1] | dealt[2])
        return dealt, skat, table.deal_index % 3

    def contract_fields(self, seat, declarer, bid, contract, hand_game, schneider, schwarz,
                        ouvert, kontra, skat_pair, declarer_held) -> dict:
        """The fields every view from the declaration on shares (``skat_pair``: (picked up,
        laid away) masks; ``declarer_held``: the declarer's cards now)."""
        defenders = tuple(s for s in range(3) if s != declarer)
        show = seat == declarer and not hand_game
        return {"declarer": declarer, "bid": bid,
                "game": game_string(contract, hand_game, schneider, schwarz, ouvert),
                "contract": LETTERS[contract], "hand_game": bool(hand_game),
                "schneider_announced": bool(schneider), "schwarz_announced": bool(schwarz),
                "ouvert": bool(ouvert), "kontra": int(kontra), "defenders": defenders,
                "partner": next((s for s in defenders if s != seat), None) if seat != declarer else None,
                "declarer_hand": codes_of(self.deck, declarer_held) if ouvert else None,
                "skat": codes_of(self.deck, skat_pair[0]) if show else (),
                "discard": codes_of(self.deck, skat_pair[1]) if show else ()}

    def play_extra(self, source, st, seat):
        declarer = int(st[K.S_DECLARER])
        if hasattr(source, "context"):  # a table in a run
            dealt, skat, dealer = self._deal_facts(source)
            bids = tuple(source.context["bids"])
            series = self.series_fields(source)
        else:  # an interactive deal: it stands alone
            dealt, skat, dealer = source.dealt, source.skat, source.dealer
            bids = auction_record(source.dealer, source.auction, source.game.tables) \
                if getattr(source, "auction", None) else ()
            series = {"series_scores": (0, 0, 0), "deal_no": None}
        fields = {"role": ROLES[(seat - dealer) % 3], "bids": bids, **series}
        if declarer < 0:  # passed in: nothing was played
            return {**fields, "declarer": -1, "game": "passed"}
        fields.update(self.contract_fields(
            seat, declarer, int(st[K.S_BID]), int(st[K.S_CONTRACT]), int(st[K.S_HAND_GAME]),
            int(st[K.S_SCHNEIDER_ANN]) or int(st[K.S_SCHWARZ_ANN]), int(st[K.S_SCHWARZ_ANN]),
            int(st[K.S_OUVERT]), int(st[K.S_KONTRA]), (skat, int(st[K.S_SKAT])),
            int(st[K.S_HAND + declarer])))
        fields["points"] = tuple(int(st[K.S_POINTS + s]) for s in range(3))
        fields["tricks_won"] = tuple(int(st[K.S_TRICKS + s]) for s in range(3))
        return fields

    def decision_view(self, table, decision, seat, value):
        dealt, skat, dealer = self._deal_facts(table)
        ctx = table.context
        bids = tuple(ctx["bids"])
        fields = {"hand": codes_of(self.deck, dealt[seat]), "dealer": dealer,
                  "role": ROLES[(seat - dealer) % 3], "bids": bids, **self.series_fields(table)}
        yes_no = (True, False)
        if decision == "bid":
            call = value & 1
            if call == CALL_HOLD and not any(b[2] == "said" for b in bids):
                call = CALL_SAY  # forehand after two passes: play at 18 or pass
            fields.update(bid=value >> 1, call=CALLS[call])
            return fields, yes_no, _bool_parse
        final = max((b[0] for b in bids if b[2] != "passed"), default=0)
        fields.update(declarer=seat if decision in ("take_skat", "discard", "declare") else None,
                      bid=final)
        if decision == "take_skat":
            return fields, yes_no, _bool_parse
        if decision == "discard":
            cards12 = dealt[seat] | skat
            fields.update(hand=codes_of(self.deck, cards12), skat=codes_of(self.deck, skat))
            return fields, codes_of(self.deck, cards12), self._discard_parse(cards12)
        if decision == "declare":
            hand_game = bool(value >> 32)
            discard = value & FULL_DECK
            held = dealt[seat] if hand_game else (dealt[seat] | skat) & ~discard
            fields.update(hand=codes_of(self.deck, held), hand_game=hand_game,
                          skat=() if hand_game else codes_of(self.deck, skat),
                          discard=() if hand_game else codes_of(self.deck, discard))
            legal = declare_choices(dealt[seat], dealt[seat] | skat, hand_game, final,
                                    table.game.tables)
            return fields, legal, _game_parse(legal)
        # kontra and re: the declaration is made
        declarer, decl = ctx["declaration"]
        contract, hand_game, schneider, schwarz, ouvert, discard = decl
        held = dealt[declarer] if hand_game else (dealt[declarer] | skat) & ~discard
        fields.update(self.contract_fields(seat, declarer, final, contract, hand_game,
                                           schneider or schwarz, schwarz, ouvert,
                                           1 if decision == "re" else 0, (skat, discard), held))
        fields["hand"] = codes_of(self.deck, held if seat == declarer else dealt[seat])
        if decision == "re":
            fields["kontra_by"] = ctx.get("kontra_by")
        return fields, yes_no, _bool_parse

    def _discard_parse(self, cards12: int):
        ids = self.ids

        def parse(answer):
            if not isinstance(answer, (list, tuple)) or len(answer) != 2:
                return None
            mask = 0
            for code in answer:
                card = ids.get(code) if isinstance(code, str) else None
                if card is None or not cards12 >> card & 1 or mask >> card & 1:
                    return None
                mask |= 1 << card
            return mask

        return parse


def _bool_parse(answer):
    return int(answer) if isinstance(answer, (bool, np.bool_)) else None


def _game_parse(legal: tuple[str, ...]):
    def parse(answer):
        game = parse_game(answer)
        if game is None:
            return None
        contract, hand_game, schneider, schwarz, ouvert = game
        if game_string(*game) not in legal:
            return None
        return contract | G_SCHNEIDER * schneider | G_SCHWARZ * schwarz | G_OUVERT * ouvert

    return parse


def auction_record(dealer: int, auction, T) -> tuple:
    """The auction of a simulated deal as (value, seat, "said" | "held" | "passed"), from each
    seat's highest bid and the bid standing when it passed (``auction``: the row's ``bid_*``
    and ``pass_at_*``). Bidders go up the ladder one value at a time, so these fix the order."""
    bid_by, pass_at = auction
    record = []

    def next_value(current):
        return int(B.next_bid(current, T))

    def duel(holder, bidder, current):
        while True:
            value = next_value(current)
            if value == 0 or pass_at[bidder] == current:
                record.append((value or current, bidder, "passed"))
                return holder, current
            record.append((value, bidder, "said"))
            if pass_at[holder] == value:
                record.append((value, holder, "passed"))
                return bidder, value
            record.append((value, holder, "held"))
            current = value

    forehand, middlehand, rearhand = (dealer + 1) % 3, (dealer + 2) % 3, dealer
    survivor, current = duel(forehand, middlehand, 0)
    survivor, current = duel(survivor, rearhand, current)
    if current == 0:
        record.append((18, forehand, "passed" if pass_at[forehand] == 0 else "said"))
    return tuple(record)


SUPPORT = SkatSupport(DECK32, 3, suggesting(B.choose_card, pimc_scratch))
