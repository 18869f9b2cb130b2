"""User bots in Klaverjassen (simcards/games/userbots/): the decisions, the batch loop rebuilt
around them, and the views.

Decisions: ``play``; ``choose_trump`` (forced selection: forehand names trump); ``declare``
(free selection: each seat from forehand takes the game in a suit or passes). With random
selection there is no trump decision.

View fields besides the shared ones: ``trump`` (suit letter), ``declarer``, ``team``
(0 for seats 0 and 2, 1 for seats 1 and 3), ``points``, ``roem`` and ``tricks_won`` (per team,
so far: card points with the last-trick bonus, table roem, tricks). The ``choose_trump`` view
holds the hand and ``dealer``; the ``declare`` view also ``passed`` (the seats before it that
passed).
"""

from __future__ import annotations

from numba import njit

from simcards.cards import DECK32, nth_bit_index, popcount
from simcards.games.botspec import HEURISTIC
from simcards.games.klaverjas import _play as P
from simcards.games.klaverjas import bots as B
from simcards.engine.state import S_DECLARER, S_TO_MOVE
from simcards.games.klaverjas._pimc import pimc_scratch
from simcards.rng import randint
from simcards.games.klaverjas._kernels import S_POINTS, S_ROEM, S_TRICKS, S_TRUMP
from simcards.games.userbots import (
    DECISION_IDS,
    PYTHON_KIND,
    SUITS,
    Support,
    ask_int,
    codes_of,
    hooked_deal,
    rebuild,
    scratch_play_loop,
    seat_of,
)
from simcards.games.userbots import suggesting as generic_suggesting

D_TRUMP, D_DECLARE = DECISION_IDS["choose_trump"], DECISION_IDS["declare"]
PASS = 4  # the declare answer "no game"


@njit(cache=True)
def user_trump(kind, hand, T, params, rng):
    """`bots.choose_trump` at a user-bot table: a Python bot names trump (or leaves it to the
    heuristic); a Numba bot's seat names it as the heuristic does."""
    if kind >= PYTHON_KIND:
        if kind == PYTHON_KIND:
            suit = ask_int(D_TRUMP, seat_of(params), hand)
            if suit >= 0:
                return suit, B.evaluate_hand(hand, suit, T, params)
        kind = HEURISTIC
    return B.choose_trump(kind, hand, T, params, rng)


@njit(cache=True)
def user_declare(kind, hand, T, params):
    """`bots.wants_to_declare` at a user-bot table (free trump selection)."""
    if kind >= PYTHON_KIND:
        if kind == PYTHON_KIND:
            answer = ask_int(D_DECLARE, seat_of(params), hand)
            if answer == PASS:
                suit, est = B.best_trump(hand, T, params)
                return False, suit, est
            if answer >= 0:
                return True, answer, B.evaluate_hand(hand, answer, T, params)
        kind = HEURISTIC
    return B.wants_to_declare(kind, hand, T, params)


@njit(cache=True)
def card_without_scratch(kind, legal, st, T, params, rng):
    """`bots.choose_card` in the user bots' signature (no ``work``) for the kinds that need no
    scratch: the built-in card of a random or heuristic seat beside a user's bot. (Loops built
    around user bots may not allocate; `userbots.with_scratch` hands pimc seats the loop's scratch.)"""
    if kind == B.RANDOM:
        return nth_bit_index(legal, randint(rng, popcount(legal)))
    return B.heuristic_card(st[S_TO_MOVE], legal, st, T, params)


def suggesting(choose_card):
    """`state.suggest`'s card for a game whose batch loop plays ``choose_card`` (Klaverjassen's,
    or Kraken's with its own pimc): any built-in kind, pimc with a scratch of its own."""
    return generic_suggesting(choose_card, pimc_scratch)


suggested_card = suggesting(B.choose_card)


def play_loop(links, build, play_out=P.play_out, builtin_card=B.choose_card):
    """``play_out`` (a game's play loop: Klaverjassen's unless given) with the table's card
    choice (and, with Python bots, the play hook): pimc seats use the loop's scratch."""
    return scratch_play_loop(links, build, play_out, builtin_card, card_without_scratch, B.PIMC)


def suit_parse(allow_pass: bool):
    def parse(answer):
        if allow_pass and answer is None:
            return PASS
        if isinstance(answer, str) and answer.strip().upper() in ("C", "D", "H", "S"):
            return SUITS.index(answer.strip().upper())
        return None

    return parse


@njit(cache=True)
def copy_heuristic(kind, legal, st, T, params, rng):
    """A Numba user bot that plays the heuristic's card (scripts/bench.py times the fast path
    with it: ``kind = "numba" entry = "simcards.games.klaverjas.userbot:copy_heuristic"``)."""
    return B.heuristic_card(st[S_TO_MOVE], legal, st, T, params)


class KlaverjasSupport(Support):
    copy_entry = "simcards.games.klaverjas.userbot:copy_heuristic"
    decisions = ("play", "choose_trump", "declare")
    family = "klaverjas"

    def build(self, links, build):
        contract = rebuild(P.choose_contract, build, choose_trump=user_trump,
                           wants_to_declare=user_declare)
        deal = hooked_deal(P.deal_cards, build) if build.python else P.deal_cards
        loop = rebuild(P.simulate_into, build, play_out=play_loop(links, build),
                       choose_contract=contract, deal_cards=deal)
        return {"simulate_into": loop}

    def contract_fields(self, source, st, seat: int) -> dict:
        return {"trump": SUITS[int(st[S_TRUMP])], "declarer": int(st[S_DECLARER]), "team": seat & 1,
                "points": (int(st[S_POINTS]), int(st[S_POINTS + 1])),
                "roem": (int(st[S_ROEM]), int(st[S_ROEM + 1])),
                "tricks_won": (int(st[S_TRICKS]), int(st[S_TRICKS + 1]))}

    def play_extra(self, source, st, seat):
        return self.contract_fields(source, st, seat)

    def dealer(self, table, seat: int) -> int:
        return table.deal_index % 4

    def decision_view(self, table, decision, seat, value):
        hand = codes_of(self.deck, table.context["dealt"][seat])
        dealer = self.dealer(table, seat)
        fields = {"hand": hand, "dealer": dealer}
        if decision == "choose_trump":
            return fields, tuple(SUITS), suit_parse(False)
        forehand = (dealer + 1) % 4
        fields["passed"] = tuple((forehand + k) % 4 for k in range((seat - forehand) % 4))
        return fields, (*SUITS, None), suit_parse(True)


SUPPORT = KlaverjasSupport(DECK32, 4, suggested_card)
