"""A toy three-seat ruleset for the contract tests: a plain trick game of three players with no
trump, so the three-seat paths of the shared code run before Skat exists.

24 cards (9 10 J Q K A of each suit), eight to each seat; forehand (left of the dealer) leads;
follow suit if you can, else play anything; the highest card of the led suit wins. Card points
A 4, K 3, Q 2, J 1 (60 in all). Written to the template of the real game folders: rules as a
flat table, kernels on the shared state layout and trick kernel (`simcards.engine`), a bot
signature like theirs, a batch loop with a trace switch, rows from a RowLayout. `ToyGame`
shows how little a ruleset needs: the attributes `Game` declares without a default and its
five abstract methods (`deal`, `_simulate_traced`, `state_from_row`, `row_totals`,
`result_row`); simulate, replay, tournament and tuning are generic (a tournament asks its
`placings`, tuning its `objectives`).
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import polars as pl

from simcards._jit import driver, hot, kernel
from simcards.cards import Deck, nth_bit_index, popcount
from simcards.engine import state as S
from simcards.engine.trick import NO_TRUMP, beats, eff_suit, follow_mask, suit_tables
from simcards.games.botspec import BotFamily
from simcards.games.columns import Column, RowLayout, per_seat
from simcards.games.play import TrickState, check_seat, deal_source, parse_deal
from simcards.games.protocol import BenchEntry, Game, Objective
from simcards.engine.tables import Layout
from simcards.rng import STREAM_DEAL, STREAM_PLAY, deal_hands, randint, reset_stream

DECK24 = Deck("24-card", ("9", "10", "J", "Q", "K", "A"))
N_SEATS, N_TRICKS, N_CARDS = 3, 8, 24
POINTS = np.array([0, 0, 1, 2, 3, 4], dtype=np.int64)  # by rank 9 10 J Q K A
TOTAL_POINTS = 4 * int(POINTS.sum())

LAYOUT = Layout(N_CARDS, eff_suit=(1, N_CARDS), power=(1, N_CARDS), suit_masks=(1, 5),
                points=(N_CARDS,))
T_POINTS = LAYOUT.offset("points")


def build_tables() -> np.ndarray:
    ranks = np.arange(6, dtype=np.int64)
    eff, power, masks = suit_tables(6, 1, NO_TRUMP, ranks, ranks)
    return LAYOUT.pack(eff_suit=eff[None, :], power=power[None, :], suit_masks=masks[None, :],
                       points=np.tile(POINTS, 4))


# ---- state: the shared header, then per-seat points and tricks
S_POINTS = S.S_GAME
S_TRICKS = S.S_GAME + N_SEATS
STATE_SIZE = S.S_GAME + 2 * N_SEATS


@kernel
def new_state(st, hands, dealer):
    S.start_play(st, hands, N_SEATS, dealer, S.next_seat(dealer, N_SEATS), 0, -1, 0)


@hot
def legal_mask(st, T):
    hand = st[S.S_HAND + st[S.S_TO_MOVE]]
    if st[S.S_N_PLAYED] == 0:
        return hand
    return follow_mask(hand, eff_suit(T, 0, st[S.S_TRICK]), T, 0)


@hot
def apply_card(st, card, T):
    """Play ``card`` for the seat to move; True when it ended the deal."""
    seat = st[S.S_TO_MOVE]
    n = st[S.S_N_PLAYED]
    if n == 0:
        st[S.S_WIN_POS] = 0
    else:
        led = eff_suit(T, 0, st[S.S_TRICK])
        if eff_suit(T, 0, card) != led:
            st[S.S_VOIDS + seat] |= np.int64(1) << led
        if beats(card, st[S.S_TRICK + st[S.S_WIN_POS]], T, 0):
            st[S.S_WIN_POS] = n
    if not S.lay_card(st, seat, n, card, N_SEATS):
        return False
    winner = (st[S.S_LEADER] + st[S.S_WIN_POS]) % N_SEATS
    for i in range(N_SEATS):
        st[S_POINTS + winner] += T[T_POINTS + st[S.S_TRICK + i]]
    st[S_TRICKS + winner] += 1
    S.close_trick(st, winner)
    return st[S.S_TRICK_NO] == N_TRICKS


RANDOM, LOWEST = 0, 1


@hot
def choose_card(kind, legal, st, T, params_row, rng):
    """RANDOM: a uniform legal card; LOWEST: the legal card of lowest id."""
    if kind == LOWEST:
        return nth_bit_index(legal, 0)
    return nth_bit_index(legal, randint(rng, popcount(legal)))


DEAL_COLUMNS = (
    Column("deal_index", pl.Int64, "deal number in the run"),
    Column("dealer", pl.Int8, "dealer seat (deal_index mod 3)"),
    *per_seat("hand", pl.UInt32, "cards dealt to seat {i}", N_SEATS),
    *per_seat("points", pl.Int8, "card points seat {i} took", N_SEATS),
    *per_seat("tricks", pl.Int8, "tricks seat {i} took", N_SEATS),
)
DEAL_ROWS = RowLayout(DEAL_COLUMNS)
C_INDEX, C_DEALER = DEAL_ROWS.row("deal_index"), DEAL_ROWS.row("dealer")
C_HAND, C_POINTS, C_TRICKS = DEAL_ROWS.row("hand_0"), DEAL_ROWS.row("points_0"), DEAL_ROWS.row("tricks_0")


@kernel
def deal_cards(seed, index, hands, deck, rng):
    reset_stream(rng, seed, index, STREAM_DEAL)
    deal_hands(rng, deck, N_SEATS, N_TRICKS, hands)
    return index % N_SEATS


@driver
def simulate_into(out, seed, start, T, kinds, params, traces):
    hands = np.empty(N_SEATS, dtype=np.int64)
    deck = np.empty(N_CARDS, dtype=np.int64)
    st = np.empty(STATE_SIZE, dtype=np.int64)
    rng = np.empty(1, dtype=np.uint64)
    for k in range(out.shape[1]):
        index = start + k
        dealer = deal_cards(seed, index, hands, deck, rng)
        new_state(st, hands, dealer)
        reset_stream(rng, seed, index, STREAM_PLAY)
        played = 0
        while True:
            seat = st[S.S_TO_MOVE]
            card = choose_card(kinds[seat], legal_mask(st, T), st, T, params[seat], rng)
            if traces.shape[0] > 0:
                traces[k, played] = card
            played += 1
            if apply_card(st, card, T):
                break
        out[C_INDEX, k] = index
        out[C_DEALER, k] = dealer
        for seat in range(N_SEATS):
            out[C_HAND + seat, k] = hands[seat]
            out[C_POINTS + seat, k] = st[S_POINTS + seat]
            out[C_TRICKS + seat, k] = st[S_TRICKS + seat]


def _points(frames: dict) -> np.ndarray:
    deals = frames["deals"].sort("deal_index")
    return deals.select([f"points_{s}" for s in range(N_SEATS)]).to_numpy().astype(np.float64)


class ToyState(TrickState):
    def __init__(self, game, hands, dealer):
        self.game = game
        self.dealer = int(dealer)
        self.dealt = [int(h) for h in hands]
        self._st = np.empty(STATE_SIZE, dtype=np.int64)
        new_state(self._st, np.asarray(hands, dtype=np.int64), self.dealer)
        self.history = []

    @property
    def is_over(self) -> bool:
        return int(self._st[S.S_TRICK_NO]) == N_TRICKS

    def result(self) -> dict:
        return {"points": [int(self._st[S_POINTS + s]) for s in range(N_SEATS)],
                "tricks": [int(self._st[S_TRICKS + s]) for s in range(N_SEATS)]}


ToyState.kernels = sys.modules[__name__]  # its legal_mask and apply_card


class ToyGame(Game):
    name = "toy-three"
    summary = "a plain three-player trick game without trump (a test ruleset)"
    deck = DECK24
    n_seats = N_SEATS
    option_specs = ()
    rules_version = 1
    bots = BotFamily(kinds={"random": RANDOM, "lowest": LOWEST}, params=(("unused", 0.0, "none"),))
    deal_columns = DEAL_COLUMNS
    tricks_per_deal = N_TRICKS
    card_points_total = TOTAL_POINTS
    objectives = {"points": Objective("points", "card points taken", _points)}
    bench = (BenchEntry("random"),)

    def __init__(self, **options: Any):
        super().__init__(**options)
        self.tables = build_tables()

    def _simulate_traced(self, seed, start, n, kinds, params):
        out = np.empty((DEAL_ROWS.n_int, n), dtype=np.int64)
        traces = np.full((n, N_CARDS), -1, dtype=np.int64)
        simulate_into(out, seed, start, self.tables, kinds, params, traces)
        return {"deals": DEAL_ROWS.to_frame(DEAL_COLUMNS, out)}, traces

    def deal(self, hands=None, dealer=0, *, seed=None, index=None, bots="random"):
        source = deal_source(hands, seed, index)
        if source is None:
            return ToyState(self, parse_deal(hands, self.deck, N_SEATS), check_seat("dealer", dealer, N_SEATS))
        masks = np.empty(N_SEATS, dtype=np.int64)
        dealer = deal_cards(source[0], source[1], masks, np.empty(N_CARDS, dtype=np.int64),
                            np.empty(1, dtype=np.uint64))
        return ToyState(self, masks, dealer)

    def state_from_row(self, row, kinds, params):
        return ToyState(self, [row[f"hand_{s}"] for s in range(N_SEATS)], row["dealer"])

    def row_totals(self, row):
        return (sum(row[f"points_{s}"] for s in range(N_SEATS)),
                sum(row[f"tricks_{s}"] for s in range(N_SEATS)))

    def result_row(self, state):
        res = state.result()
        return {**{f"points_{s}": res["points"][s] for s in range(N_SEATS)},
                **{f"tricks_{s}": res["tricks"][s] for s in range(N_SEATS)}}

    def placings(self, frames, n_games, deals_per_game):
        points = frames["deals"].sort("deal_index").select(
            [f"points_{s}" for s in range(N_SEATS)]).to_numpy()
        totals = points.reshape(n_games, deals_per_game, N_SEATS).sum(axis=1)
        return 1 + (totals[:, None, :] > totals[:, :, None]).sum(axis=2)
