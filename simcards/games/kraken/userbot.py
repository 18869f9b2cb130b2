"""User bots in Kraken (simcards/games/userbots/): Klaverjassen's decisions with forced trump,
plus the bids.

Decisions: ``play``, ``choose_trump`` (forehand names trump), ``bid`` (True to make the bid the
view names: kraak, then rekraak / overkraak, then superkraak, in the rules' order).

View fields besides Klaverjassen's (klaverjas/userbot.py): ``bid`` (the contract's bid level
name: "none", "kraak", ...; in a ``bid`` view the bid being decided), ``bids`` (the bids made so
far: (name, seat) in order), ``match_scores`` (the match totals per team before this deal),
``crosses`` (contra: the penalty crosses per team before this deal), ``deal_no`` (the deal's
number in its match).
"""

from __future__ import annotations

import numba
import numpy as np
from numba import njit

from simcards.games.botspec import HEURISTIC
from simcards.games.klaverjas.userbot import KlaverjasSupport, play_loop, suggesting, user_trump
from simcards.games.kraken import _play as P
from simcards.games.kraken import bots as kraken_bots
from simcards.games.kraken._kernels import SR_CROSSES, SR_SCORE
from simcards.games.userbots import (
    DECISION_IDS,
    PYTHON_KIND,
    active,
    ask_int,
    hooked_deal,
    rebuild,
    seat_of,
)
from simcards.rng import MAX_DEALS_PER_MATCH

D_BID = DECISION_IDS["bid"]


@njit(cache=True)
def user_takes_bid(kind, level, est, params):
    """`bots.takes_bid` at a user-bot table: a Python bot decides (or leaves it to the
    heuristic's threshold); a Numba bot's seat bids as the heuristic does."""
    if kind >= PYTHON_KIND:
        if kind == PYTHON_KIND:
            answer = ask_int(D_BID, seat_of(params), level)
            if answer >= 0:
                return answer == 1
        kind = HEURISTIC
    return kraken_bots.takes_bid(kind, level, est, params)


@njit(cache=True)
def _note_bidding(trump, declarer, bidders):
    with numba.objmode():
        active().context.update(trump=int(trump), declarer=int(declarer), bidders=bidders)


@njit(cache=True)
def _note_settled(res):
    with numba.objmode():
        active().support.settled(active(), res)


@njit
def _hooked_bidding(hands, trump, declarer, max_bid, T, kinds, params, est_out, bidder_out):
    """`bots.run_bidding` that first hands the table the contract and a live view of the bids."""
    _note_bidding(trump, declarer, bidder_out)
    return inner_bidding(hands, trump, declarer, max_bid, T, kinds, params, est_out,  # noqa: F821
                         bidder_out)


@njit
def _hooked_settle(st, hands, level, T, res):
    """`_kernels.settle` that reports the deal's settlement (the match scores of the views)."""
    inner_settle(st, hands, level, T, res)  # noqa: F821 (bound by rebuild)
    _note_settled(res)


class KrakenSupport(KlaverjasSupport):
    decisions = ("play", "choose_trump", "bid")
    family = "kraken"

    def __init__(self, deck, n_seats, builtin_card, bid_names):
        super().__init__(deck, n_seats, builtin_card)
        self.bid_names = bid_names  # {variant: names}

    def build(self, links, build):
        bidding = rebuild(kraken_bots.run_bidding, build, takes_bid=user_takes_bid)
        if build.python:
            bidding = rebuild(_hooked_bidding, build, inner_bidding=bidding)
        contract = rebuild(P.contract, build, choose_trump=user_trump, run_bidding=bidding)
        replace = {"contract": contract, "play_out": play_loop(links, build, P.play_out, P.choose_card)}
        if build.python:
            replace.update(deal_cards=hooked_deal(P.deal_cards, build),
                           settle=rebuild(_hooked_settle, build, inner_settle=P.settle))
        deal = rebuild(P.kraken_deal, build, **replace)
        match = rebuild(P.play_match, build, kraken_deal=deal)
        return {"simulate_matches": rebuild(P.simulate_matches, build, play_match=match)}

    # --- match context
    def on_deal(self, table):
        if table.deal_index % MAX_DEALS_PER_MATCH == 0 or not hasattr(table, "match_totals"):
            table.match_totals = [0, 0]
            table.match_crosses = [0, 0]

    def settled(self, table, res):
        for team in range(2):
            table.match_totals[team] += int(res[SR_SCORE + team])
            table.match_crosses[team] += int(res[SR_CROSSES + team])

    def names(self, game):
        return game.bid_names

    def bid_record(self, names, bidders) -> tuple:
        return tuple((names[level + 1], int(seat)) for level, seat in enumerate(bidders) if seat >= 0)

    def match_fields(self, source) -> dict:
        if hasattr(source, "match_totals"):  # a table in a run
            fields = {"match_scores": tuple(source.match_totals), "deal_no":
                      source.deal_index % MAX_DEALS_PER_MATCH}
            if source.game.variant == 0:
                fields["crosses"] = tuple(source.match_crosses)
            return fields
        fields = {"match_scores": (0, 0), "deal_no": 0}  # an interactive deal stands alone
        if source.game.variant == 0:
            fields["crosses"] = (0, 0)
        return fields

    def play_extra(self, source, st, seat):
        fields = self.contract_fields(source, st, seat)
        names = source.game.bid_names
        if hasattr(source, "context"):  # a table in a run
            bids = self.bid_record(names, source.context["bidders"])
        else:  # an interactive deal: its bidding record
            bids = tuple((b["bid"], b["seat"]) for b in source.bidding if b["takes"])
            bids = bids or tuple((names[lv], -1) for lv in range(1, source.bid + 1))
        fields["bid"] = names[len(bids)] if hasattr(source, "context") else names[source.bid]
        fields["bids"] = bids
        fields.update(self.match_fields(source))
        return fields

    def dealer(self, table, seat):
        return (seat + 3) % 4  # forehand names trump

    def decision_view(self, table, decision, seat, value):
        if decision == "choose_trump":
            fields, legal, parse = super().decision_view(table, decision, seat, value)
            fields.update(self.match_fields(table))
            return fields, legal, parse
        ctx = table.context
        names = table.game.bid_names
        declarer = ctx["declarer"]
        from simcards.cards import SUITS as SUIT_LETTERS
        from simcards.games.userbots import codes_of

        fields = {"hand": codes_of(self.deck, ctx["dealt"][seat]), "dealer": (declarer + 3) % 4,
                  "trump": SUIT_LETTERS[ctx["trump"]], "declarer": declarer, "team": seat & 1,
                  "bid": names[value], "bids": self.bid_record(names, ctx["bidders"][:value - 1])}
        fields.update(self.match_fields(table))

        def parse(answer):
            return int(answer) if isinstance(answer, (bool, np.bool_)) else None

        return fields, (True, False), parse


def make_support(bid_names):
    from simcards.cards import DECK32

    return KrakenSupport(DECK32, 4, suggesting(P.choose_card), bid_names)
