"""Python API of Skat: `simcards.load("skat")` and the interactive `SkatState` of one deal."""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from simcards.cards import DECK32
from simcards.errors import UserError
from simcards.games.botspec import BotFamily
from simcards.games.play import TrickState, cards_played, check_seat, deal_source, parse_deal
from simcards.games.protocol import BenchEntry, Game, Objective
from simcards.errors import check_count
from simcards.games.skat import _kernels as K
from simcards.games.skat import _play
from simcards.games.skat._pimc import pimc_scratch
from simcards.games.skat import bots as sbots
from simcards.games.skat.columns import DEAL_COLUMNS
from simcards.games.skat.rules import (
    N_SEATS,
    N_TRICKS,
    NULL,
    OPTIONS,
    PASSED,
    RULES_VERSION,
    TOTAL_CARD_POINTS,
    build_tables,
)
from simcards.games.skat.scoring import BID_LADDER, CONTRACTS
from simcards.games.skat.solver import SOLVER as SKAT_SOLVER
from simcards.games.skat.stats import SKAT_ONLINE, SOURCE as REFERENCE
from simcards.games.skat.userbot import SUPPORT as SKAT_USER_BOTS

SKAT_BOTS = BotFamily(kinds=sbots.KINDS, params=sbots.PARAMS, counts=sbots.COUNTS)
_NO_TRACES = np.empty((0, _play.N_CARDS), dtype=np.int64)  # the trace switch off
CONTRACT_NAMES = CONTRACTS  # by contract id; -1 is "passed"
_RESULT_FLAGS = ("hand_game", "schneider_announced", "schwarz_announced", "ouvert", "schneider",
                 "schwarz", "won", "overbid")


def contract_name(contract: int) -> str:
    return "passed" if contract == PASSED else CONTRACT_NAMES[contract]


def _parse_contract(value: Any) -> int:
    if isinstance(value, str) and value.strip().lower() in CONTRACT_NAMES:
        return CONTRACT_NAMES.index(value.strip().lower())
    raise UserError(f"contract = {value!r} is not allowed; use one of "
                    + ", ".join(repr(c) for c in CONTRACT_NAMES))


def _seat_values(frames: dict, prefix: str) -> np.ndarray:
    deals = frames["deals"].sort("deal_index")
    return deals.select([f"{prefix}_{s}" for s in range(N_SEATS)]).to_numpy().astype(np.float64)


def seat_placings(totals: np.ndarray) -> np.ndarray:
    """Placings (1 best, level totals share) of every row of per-seat totals, higher better."""
    totals = np.asarray(totals, dtype=np.float64)
    return 1 + (totals[:, None, :] > totals[:, :, None]).sum(axis=2)


class SkatGame(Game):
    name = "skat"
    summary = ("Skat (International Skat Order): the full auction, Skat pickup or Hand, suits, "
               "Grand, Null and Ouvert, list or Seeger-Fabian scoring")
    deck = DECK32
    n_seats = N_SEATS
    option_specs = OPTIONS
    rules_version = RULES_VERSION
    bots = SKAT_BOTS
    user_bots = SKAT_USER_BOTS
    solver = SKAT_SOLVER
    deal_columns = DEAL_COLUMNS
    tricks_per_deal = N_TRICKS
    card_points_total = TOTAL_CARD_POINTS
    objectives = {
        "seeger": Objective("seeger", "the Seeger-Fabian score per deal of the tuned seat",
                            lambda frames: _seat_values(frames, "seeger")),
        "score": Objective("score", "the deal score of the tuned seat in the ruleset's scoring",
                           lambda frames: _seat_values(frames, "score")),
    }
    bench = (BenchEntry("random"), BenchEntry("heuristic", 200_000))
    deals_per_game = 36  # a tournament series: 36 deals, placed by Seeger-Fabian totals
    summary_note = ("Every figure below is a property of these bots playing Skat, not of the game "
                    "alone: bids, contracts, win rates and Schneider rates move with the bots' "
                    f"thresholds and play. Each stands beside the human reference of {REFERENCE}.")
    published_references = (SKAT_ONLINE,)

    def __init__(self, **options: Any):
        super().__init__(**options)
        self.tables = build_tables(self.options)

    # ------------------------------------------------------------ batch

    def _simulate_matrix(self, seed, start, n, kinds, params):
        out = self._row_buffer(_play.N_COLUMNS, n)
        self.loop("simulate_into", _play.simulate_into)(out, seed, start, self.tables, kinds, params,
                                                        _NO_TRACES, pimc_scratch(kinds))
        return out

    def _simulate_frames(self, seed, start, n, kinds, params):
        out = self._simulate_matrix(seed, start, n, kinds, params)
        return {"deals": _play.DEAL_ROWS.to_frame(DEAL_COLUMNS, out)}

    def _simulate_traced(self, seed, start, n, kinds, params):
        out = np.empty((_play.N_COLUMNS, n), dtype=np.int64)
        traces = np.empty((n, _play.N_CARDS), dtype=np.int64)
        self.loop("simulate_into", _play.simulate_into)(out, seed, start, self.tables, kinds, params,
                                                        traces, pimc_scratch(kinds))
        return {"deals": _play.DEAL_ROWS.to_frame(DEAL_COLUMNS, out)}, traces

    def play_declared(self, deals: pl.DataFrame, seed: int, bots: Any) -> pl.DataFrame:
        """The played games of ``deals`` (rows of a run with ``seed``) played again from the
        same declaration with ``bots``: deal_index, points_declarer, tricks_declarer, won."""
        games = deals.filter(pl.col("contract") != PASSED)
        declared = np.column_stack([games[c].to_numpy().astype(np.int64) for c in (
            "deal_index", "declarer", "final_bid", "contract", "hand_game", "schneider_announced",
            "schwarz_announced", "ouvert", "discard", "kontra")])
        kinds, params = self.resolve_bots(bots)
        out = np.zeros((games.height, 3), dtype=np.int64)
        _play.play_declared(check_count("seed", seed), declared.reshape(-1, _play.N_DECLARED),
                            self.tables, kinds, params, out, pimc_scratch(kinds))
        return pl.DataFrame({"deal_index": games["deal_index"],
                             "points_declarer": out[:, 0].astype(np.int16),
                             "tricks_declarer": out[:, 1].astype(np.int8),
                             "won": out[:, 2].astype(bool)})

    # ------------------------------------------------------------ parties, totals

    def parties(self, deals: pl.DataFrame) -> np.ndarray:
        """Party 0 is the declarer, 1 the two defenders; in a passed-in deal every seat alone."""
        declarer = deals["declarer"].to_numpy().astype(np.int64)
        seats = np.arange(N_SEATS)[None, :]
        out = np.where(seats == declarer[:, None], 0, 1)
        passed = declarer < 0
        out[passed] = np.arange(N_SEATS)
        return out

    def row_totals(self, row) -> tuple[int, int]:
        return (row["points_declarer"] + row["points_defenders"],
                row["tricks_declarer"] + row["tricks_defenders"])

    def expected_totals(self, row) -> tuple[int, int]:
        """A passed-in deal plays no card; a Null stops at the declarer's first trick (then
        only the cards played and the Skat count)."""
        if row["contract"] == PASSED:
            return 0, 0
        if row["contract"] == NULL and row["tricks_declarer"] == 1:
            return self.row_totals(row)  # its own invariants: tests/test_skat_play.py
        return TOTAL_CARD_POINTS, N_TRICKS

    def result_row(self, state) -> dict:
        res = state.result()
        out = {key: res[key] for key in (
            "final_bid", "declarer", "contract", "discard", "kontra", "matadors", "game_value",
            "value", "points_declarer", "points_defenders", "tricks_declarer",
            "tricks_defenders") + _RESULT_FLAGS}
        out["contract"] = PASSED if res["contract"] == "passed" else CONTRACT_NAMES.index(res["contract"])
        for key in ("list", "seeger", "score"):
            out.update({f"{key}_{s}": res[key][s] for s in range(N_SEATS)})
        return out

    # ------------------------------------------------------------ replay

    def state_from_row(self, row, kinds=None, params=None) -> "SkatState":
        hands = [int(row[f"hand_{s}"]) for s in range(N_SEATS)]
        auction = (tuple(int(row[f"bid_{s}"]) for s in range(N_SEATS)),
                   tuple(int(row[f"pass_at_{s}"]) for s in range(N_SEATS)))
        if row["contract"] == PASSED:
            return SkatState(self, hands, int(row["skat"]), int(row["dealer"]), auction=auction)
        return SkatState(self, hands, int(row["skat"]), int(row["dealer"]), auction=auction,
                         declarer=int(row["declarer"]), bid=int(row["final_bid"]),
                         contract=int(row["contract"]), hand_game=bool(row["hand_game"]),
                         schneider_announced=bool(row["schneider_announced"]),
                         schwarz_announced=bool(row["schwarz_announced"]),
                         ouvert=bool(row["ouvert"]), discard=int(row["discard"]),
                         kontra=int(row["kontra"]))

    def replay_header(self, row, state) -> dict:
        return {"deal_index": int(row["deal_index"]), "dealer": state.dealer,
                "hands": [self.deck.hand_codes(h) for h in state.dealt],
                "skat": self.deck.hand_codes(state.skat),
                "bids": [int(row[f"bid_{s}"]) for s in range(N_SEATS)],
                "passed_at": [int(row[f"pass_at_{s}"]) for s in range(N_SEATS)],
                "final_bid": state.bid, "declarer": state.declarer,
                "contract": contract_name(state.contract), "hand": state.hand_game,
                "ouvert": state.ouvert, "discard": self.deck.hand_codes(state.discard),
                "estimates": [int(row[f"est_{s}"]) / 1000 for s in range(N_SEATS)]}

    def trick_snapshot(self, state) -> dict:
        return {"points": [int(state._st[K.S_POINTS + s]) for s in range(N_SEATS)]}

    def trick_record(self, state, before: dict) -> dict:
        seat = state.last_winner
        return {"points": int(state._st[K.S_POINTS + seat]) - before["points"][seat]}

    # ------------------------------------------------------------ analysis

    def placings(self, frames, n_games, deals_per_game):
        """``deals_per_game`` consecutive deals form a series; the higher Seeger-Fabian total
        places first (level totals share)."""
        deals = frames["deals"]
        if deals.height != n_games * deals_per_game:
            raise UserError(f"{self.name}: expected {n_games * deals_per_game} deals, got {deals.height}")
        seeger = _seat_values(frames, "seeger").reshape(n_games, deals_per_game, N_SEATS)
        return seat_placings(seeger.sum(axis=1)).astype(np.int64)

    def report_sections(self, run, out_dir):
        from simcards.games.skat import report

        return report.build(self, run, out_dir)

    def headline_rates(self, deals, matches):
        from simcards.games.skat import stats

        return stats.headlines()

    def openspiel_rate(self, seconds: float) -> float | None:
        try:
            import pyspiel  # noqa: F401
        except ImportError:
            return None
        from simcards.games.skat.openspiel_ref import bench_openspiel_skat

        return bench_openspiel_skat(seconds)

    # ------------------------------------------------------------ interactive

    def deal(self, hands=None, skat=None, dealer: int = 0, *, declarer=None, bid=18,
             contract=None, hand: bool = False, schneider: bool = False, schwarz: bool = False,
             ouvert: bool = False, discard=None, kontra: int = 0, seed=None, index=None,
             bots: Any = "heuristic") -> "SkatState":
        """A deal ready to play: given ``hands`` (three lists of ten card codes; ``skat`` the
        other two, found when left out) or deal ``index`` of a run with ``seed``. Without a
        ``contract`` the bots bid and declare as a simulation would (a passed-in deal is over
        at once). With one, ``declarer`` (default forehand) plays it at ``bid``: ``hand`` plays
        without the Skat, else ``discard`` names the two cards laid away; ``schneider`` and
        ``schwarz`` announce (Hand only); ``ouvert`` opens the hand. A game that cannot reach
        the bid is refused."""
        source = deal_source(hands, seed, index)
        kinds, params = self.resolve_bots(bots)
        if source is not None:
            seed, index = source
            masks = np.empty(N_SEATS, dtype=np.int64)
            rng = np.empty(1, dtype=np.uint64)
            dealer, skat_mask = _play.deal_cards(seed, index, masks, np.empty(32, dtype=np.int64), rng)
        else:
            masks = parse_deal(hands, self.deck, N_SEATS)
            dealer = check_seat("dealer", dealer, N_SEATS)
            rest = self.deck.full_mask & ~int(np.bitwise_or.reduce(masks))
            skat_mask = rest if skat is None else self.deck.parse_hand(skat)
            if skat_mask != rest:
                raise UserError(f"skat = {skat!r} is not allowed; the Skat is the two cards no hand "
                                f"holds: {', '.join(self.deck.hand_codes(rest))}")
        if contract is None:
            return self._bot_contract(masks, int(skat_mask), int(dealer), kinds, params,
                                      seed or 0, index or 0)
        declarer = (dealer + 1) % N_SEATS if declarer is None else check_seat("declarer", declarer, N_SEATS)
        contract_id = _parse_contract(contract)
        if bid not in BID_LADDER or isinstance(bid, bool):
            raise UserError(f"bid = {bid!r} is not a bid; bids are the values "
                            f"{', '.join(str(v) for v in BID_LADDER)}")
        if hand or ouvert and contract_id != NULL:
            if discard is not None:
                raise UserError("discard is not allowed in a Hand game: the Skat stays untouched")
            discard_mask = int(skat_mask)
        else:
            if discard is None:
                raise UserError("discard = None is not allowed after a pickup; give the two cards "
                                "laid away, e.g. discard=['7D', '8D']")
            discard_mask = self.deck.parse_hand(discard)
            cards12 = int(masks[declarer]) | int(skat_mask)
            if bin(discard_mask).count("1") != 2 or discard_mask & ~cards12:
                raise UserError(f"discard = {discard!r} is not allowed; lay away two of the "
                                f"declarer's twelve cards: {', '.join(self.deck.hand_codes(cards12))}")
        hand_game = bool(hand or (ouvert and contract_id != NULL))
        return SkatState(self, [int(h) for h in masks], int(skat_mask), int(dealer),
                         declarer=declarer, bid=int(bid), contract=contract_id,
                         hand_game=hand_game, schneider_announced=bool(schneider),
                         schwarz_announced=bool(schwarz), ouvert=bool(ouvert),
                         discard=discard_mask, kontra=int(kontra), check=True)

    def _bot_contract(self, masks, skat, dealer, kinds, params, seed, index) -> "SkatState":
        """The bots' auction and declaration on these cards (the contract stream of deal
        ``index`` of a run with ``seed``), as `simulate` does it."""
        from simcards.rng import STREAM_CONTRACT, reset_stream

        rng = np.empty(1, dtype=np.uint64)
        reset_stream(rng, seed, index, STREAM_CONTRACT)
        plans = np.zeros((3, 4), dtype=np.int64)
        limits = np.zeros(3, dtype=np.int64)
        ests = np.zeros(3, dtype=np.float64)
        bid_by = np.zeros(3, dtype=np.int64)
        pass_at = np.zeros(3, dtype=np.int64)
        decl = np.zeros(7, dtype=np.int64)
        kontra_rule = bool(self.options["kontra"])
        logits = np.empty((3, sbots.N_LOGITS), dtype=np.float64)
        sbots.threshold_logits(params, logits)
        declarer, bid, _ = _play.contract_phase(np.asarray(masks, dtype=np.int64), skat, dealer,
                                                self.tables, kinds, params, rng, plans, limits,
                                                ests, bid_by, pass_at, decl, kontra_rule,
                                                np.empty(3, dtype=np.int64), logits)
        hands = [int(h) for h in masks]
        auction = (tuple(int(b) for b in bid_by), tuple(int(p) for p in pass_at))
        if declarer < 0:
            return SkatState(self, hands, skat, dealer, auction=auction)
        return SkatState(self, hands, skat, dealer, auction=auction, declarer=int(declarer), bid=int(bid),
                         contract=int(decl[0]), hand_game=bool(decl[1]),
                         schneider_announced=bool(decl[2]), schwarz_announced=bool(decl[3]),
                         ouvert=bool(decl[4]), discard=int(decl[5]), kontra=int(decl[6]))


class SkatState(TrickState):
    """One deal being played by hand: `legal_moves()`, `play(code)`, `result()`. A passed-in
    deal (no ``declarer``) is over at once."""

    kernels = K

    def __init__(self, game: SkatGame, hands, skat: int, dealer: int, *, declarer: int = -1,
                 bid: int = 0, contract: int = PASSED, hand_game: bool = False,
                 schneider_announced: bool = False, schwarz_announced: bool = False,
                 ouvert: bool = False, discard: int = 0, kontra: int = 0, check: bool = False,
                 auction: tuple | None = None):
        self.game = game
        # (each seat's highest bid, the bid standing when it passed) where bots bid this deal:
        # the views' auction record (userbot.auction_record); None for a contract given by hand
        self.auction = auction
        self.dealt = [int(h) for h in hands]
        self.skat = int(skat)
        self.dealer = int(dealer)
        self.declarer = int(declarer)
        self.bid = int(bid)
        self.contract = int(contract)
        self.hand_game = bool(hand_game or (ouvert and contract not in (NULL, PASSED)))
        self.ouvert = bool(ouvert)
        # Ouvert (suit, Grand) implies Schwarz announced; Schwarz announced implies Schneider
        suit_ouvert = self.ouvert and contract not in (NULL, PASSED)
        self.schwarz_announced = bool(schwarz_announced or suit_ouvert)
        self.schneider_announced = bool(schneider_announced or self.schwarz_announced)
        self.discard = int(discard)
        self.kontra = int(kontra)
        self.history: list[tuple[int, str]] = []
        self._st = np.empty(K.STATE_SIZE, dtype=np.int64)
        hands_arr = np.asarray(self.dealt, dtype=np.int64)
        if self.declarer < 0:
            K.new_passed_state(self._st, hands_arr, self.dealer)
            return
        if check:
            self._check_declaration()
        cards12 = self.dealt[self.declarer] | self.skat
        played = hands_arr.copy()
        if not self.hand_game:
            played[self.declarer] = cards12 & ~self.discard
        K.new_state(self._st, played, self.dealer, self.contract, self.declarer, self.discard,
                    cards12, self.bid, int(self.hand_game), int(self.schneider_announced),
                    int(self.schwarz_announced), int(self.ouvert), self.kontra)

    def _check_declaration(self) -> None:
        name = CONTRACT_NAMES[self.contract]
        if self.contract == NULL and (self.schneider_announced or self.schwarz_announced):
            raise UserError("schneider / schwarz cannot be announced in a Null game")
        if (self.schneider_announced or self.schwarz_announced) and not self.hand_game:
            raise UserError("schneider / schwarz announcements are only allowed in a Hand game "
                            "(hand=True)")
        if self.kontra not in (0, 1, 2) or (self.kontra and not self.game.options["kontra"]):
            raise UserError(f"kontra = {self.kontra!r} is not allowed; use 0, or with the kontra "
                            f"option 1 (Kontra) or 2 (Kontra and Re)")
        hand10 = self.dealt[self.declarer]
        ok = K.can_reach(hand10, hand10 | self.skat, self.contract, self.bid, int(self.hand_game),
                         int(self.schneider_announced), int(self.schwarz_announced),
                         int(self.ouvert), self.game.tables)
        if not ok:
            if self.contract == NULL:
                best = "its value is fixed at " + str(K.null_value(int(self.hand_game), int(self.ouvert)))
            else:
                m = (K.max_matadors_unseen_skat(hand10, self.contract, self.game.tables)
                     if self.hand_game else abs(K.matadors(hand10 | self.skat, self.contract, self.game.tables)))
                best = (f"with {m} matadors it reaches at most "
                        f"{K.max_value(m, self.contract, int(self.hand_game), int(self.schneider_announced), int(self.schwarz_announced), int(self.ouvert), self.game.tables)}")
            raise UserError(f"contract = {name!r} cannot reach the bid of {self.bid}: {best}; "
                            f"declare a game whose value can reach the bid (a higher suit, Grand, "
                            f"Hand or announcements)")

    def __repr__(self) -> str:
        if self.declarer < 0:
            return f"<skat deal: passed in, dealer {self.dealer}>"
        return (f"<skat deal: {contract_name(self.contract)} by seat {self.declarer} at "
                f"{self.bid}, {cards_played(len(self.history))}, seat {self.to_move} to move>")

    @property
    def is_over(self) -> bool:
        return bool(self._st[K.S_OVER])

    @property
    def declarer_hand(self) -> list[str] | None:
        """The declarer's cards in an Ouvert game (open to everybody), else None."""
        return self.hand(self.declarer) if self.ouvert else None

    def result(self) -> dict:
        """The settled deal (valid once `is_over`): contract, value, points, tricks, flags and
        the list, Seeger-Fabian and ruleset scores per seat."""
        if not self.is_over:
            raise UserError(f"the deal is not over: {len(self.history)} cards played")
        zeros = [0] * N_SEATS
        if self.declarer < 0:
            base = {key: 0 for key in ("final_bid", "discard", "kontra", "matadors", "game_value",
                                       "value", "points_declarer", "points_defenders",
                                       "tricks_declarer", "tricks_defenders")}
            return {**base, **{f: False for f in _RESULT_FLAGS}, "declarer": -1,
                    "contract": "passed", "list": zeros, "seeger": zeros, "score": zeros}
        st, T = self._st, self.game.tables
        d = self.declarer
        points_d = int(st[K.S_POINTS + d]) + int(K.mask_points(T, self.discard))
        tricks_d = int(st[K.S_TRICKS + d])
        others = [s for s in range(N_SEATS) if s != d]
        res = np.zeros(K.N_SETTLE, dtype=np.int64)
        K.settle_into(self.dealt[d] | self.skat, self.contract, self.bid, points_d, tricks_d,
                      int(self.hand_game), int(self.schneider_announced),
                      int(self.schwarz_announced), int(self.ouvert), T, res)
        won = bool(res[K.X_WON])
        list_d = int(res[K.X_LIST]) << self.kontra
        seeger_d = list_d + (K.SEEGER_WIN if won else -K.SEEGER_LOSS)
        lists = [list_d if s == d else 0 for s in range(N_SEATS)]
        seeger = [seeger_d if s == d else int(res[K.X_SEEGER_DEFENDER]) for s in range(N_SEATS)]
        scored = seeger if self.game.options["scoring"] == "seeger-fabian" else lists
        null = self.contract == NULL
        return {"final_bid": self.bid, "declarer": d, "contract": contract_name(self.contract),
                "hand_game": self.hand_game, "schneider_announced": self.schneider_announced,
                "schwarz_announced": self.schwarz_announced, "ouvert": self.ouvert,
                "discard": self.discard, "kontra": self.kontra,
                "matadors": int(res[K.X_MATADORS]), "game_value": int(res[K.X_GAME_VALUE]),
                "value": int(res[K.X_VALUE]), "points_declarer": points_d,
                "points_defenders": sum(int(st[K.S_POINTS + s]) for s in others),
                "tricks_declarer": tricks_d,
                "tricks_defenders": sum(int(st[K.S_TRICKS + s]) for s in others),
                "schneider": bool(res[K.X_SCHNEIDER]) and not null,
                "schwarz": bool(res[K.X_SCHWARZ]) and not null, "won": won,
                "overbid": bool(res[K.X_OVERBID]), "list": lists, "seeger": seeger,
                "score": list(scored)}
