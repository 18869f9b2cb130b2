"""Python API of Kraken: `simcards.load("kraken-contra")`, `simcards.load("kraken-scorebord")`.

A run's unit is a match (a 16-deal contra match, or a scoreboard game to 250):
`simulate_chunk` returns {"deals": one row per deal, "matches": one row per match}.
`deal(...)` gives an interactive deal whose `result()` applies the Kraken scoring.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import polars as pl

from simcards.games.kraken.bots import CONTRA_BOTS, SCOREBORD_BOTS
from simcards.cards import DECK32, SUITS, parse_suit
from simcards.errors import UserError
from simcards.games.play import cards_played, check_seat, deal_source, parse_deal
from simcards.games.protocol import (
    BenchEntry,
    Game,
    Objective,
    party_values_to_seats,
    team_placings,
)
from simcards.games.klaverjas import family as klaverjas_family
from simcards.games.klaverjas.bots import evaluate_hand
from simcards.games.klaverjas.game import KlaverjasState
from simcards.games.klaverjas.rules import PARTNERSHIPS, TOTAL_CARD_POINTS
from simcards.games.kraken import _kernels as K
from simcards.games.kraken import _play
from simcards.games.kraken.solver import SOLVER as KRAKEN_SOLVER
from simcards.games.kraken.userbot import make_support
from simcards.games.kraken.columns import (
    CONTRA_DEAL_COLUMNS,
    CONTRA_MATCH_COLUMNS,
    DEAL_ROWS,
    MATCH_ROWS,
    SCOREBORD_DEAL_COLUMNS,
    SCOREBORD_MATCH_COLUMNS,
)
from simcards.games.kraken.rules import (
    BID_NAMES,
    CONTRA,
    CONTRA_OPTIONS,
    KEY_VALUE,
    MARK_NAMES,
    RULES_VERSION,
    SCOREBORD,
    SCOREBORD_OPTIONS,
    build_kraken_tables,
    check_options,
)
KRAKEN_USER_BOTS = make_support(BID_NAMES)
EXPECTED_SCOREBORD_DEALS = 24  # only sizes the first output buffer; it grows when needed


def _match_team_values(frames: dict, columns: tuple[str, str], sign: float = 1.0) -> np.ndarray:
    matches = frames["matches"].sort("match_index")
    return party_values_to_seats(sign * matches.select(*columns).to_numpy().astype(np.float64),
                                 PARTNERSHIPS, 4)


def _match_wins(frames: dict) -> np.ndarray:
    w = frames["matches"].sort("match_index")["winner"].to_numpy()
    wins = np.stack([(w == 0) + 0.5 * (w == -1), (w == 1) + 0.5 * (w == -1)], axis=1)
    return party_values_to_seats(wins, PARTNERSHIPS, 4)


CONTRA_OBJECTIVES = {
    "crosses": Objective("crosses", "fewer penalty crosses per match",
                         lambda frames: _match_team_values(frames, ("crosses_0", "crosses_1"), -1.0)),
    "score": Objective("score", "match points", lambda frames: _match_team_values(frames, ("total_0", "total_1"))),
}
SCOREBORD_OBJECTIVES = {
    "score": Objective("score", "the final scoreboard total per game",
                       lambda frames: _match_team_values(frames, ("total_0", "total_1"))),
    "win": Objective("win", "games won (draws count half)", _match_wins),
}


class KrakenGame(Game):
    summary_note = ("Bid rates, bid success and nat depend on the bots' thresholds and play "
                    "(marked 'depends on the bots'); meld odds are odds of the cards.")
    deck = DECK32
    n_seats = 4
    rules_version = RULES_VERSION
    unit = "match"
    partnerships = PARTNERSHIPS
    tricks_per_deal = klaverjas_family.N_TRICKS
    card_points_total = TOTAL_CARD_POINTS
    bench = (BenchEntry("random"), BenchEntry("heuristic", 300_000))
    user_bots = KRAKEN_USER_BOTS
    solver = KRAKEN_SOLVER
    variant: int

    def __init__(self, **options: Any):
        super().__init__(**options)
        check_options(self.name, self.options)
        self.tables = build_kraken_tables(self.options, self.variant)

    @property
    def bid_names(self) -> tuple[str, ...]:
        return BID_NAMES[self.variant]

    def _expected_deals(self) -> int:
        return self.options["deals_per_match"] if self.variant == CONTRA else EXPECTED_SCOREBORD_DEALS

    def _simulate_matches(self, seed, start, n, kinds, params, trace: bool):
        """The frames of matches start .. start+n-1 and the traces [deal rows, 32] (empty
        unless ``trace``): one kernel loop for simulation and replay."""
        run = np.zeros(_play.RUN_SIZE, dtype=np.int64)
        run[_play.R_SEED] = _play.as_int64(seed)
        run[_play.R_START], run[_play.R_N] = start, n
        run[_play.R_EXPECTED_DEALS], run[_play.R_TRACE] = self._expected_deals(), trace
        simulate = self.loop("simulate_matches", _play.simulate_matches)
        ints, floats, matches, traces = simulate(run, self.tables, kinds, params,
                                                 _play.pimc_scratch(kinds))
        frames = {"deals": DEAL_ROWS.to_frame(type(self).deal_columns, ints, floats),
                  "matches": MATCH_ROWS.to_frame(self.match_columns, matches)}
        return frames, traces.T

    def _simulate_frames(self, seed, start, n, kinds, params) -> dict[str, pl.DataFrame]:
        return self._simulate_matches(seed, start, n, kinds, params, False)[0]

    def _simulate_traced(self, seed, start, n, kinds, params):
        return self._simulate_matches(seed, start, n, kinds, params, True)

    def placings(self, frames, n_games, deals_per_game):
        """The match winner is placed first; a drawn match places both teams first."""
        w = frames["matches"].sort("match_index")["winner"].to_numpy().astype(np.int64)
        return team_placings(np.stack([(w == 0).astype(np.int64) - (w == 1), np.zeros_like(w)], axis=1),
                             PARTNERSHIPS, self.n_seats)

    def row_totals(self, row) -> tuple[int, int]:
        return row["points_0"] + row["points_1"], row["tricks_0"] + row["tricks_1"]

    def result_row(self, state) -> dict:
        res = state.result()
        out = {"trump": SUITS.index(res["trump"]), "declarer": res["declarer"],
               "bid": self.bid_names.index(res["bid"]), "burden_team": res["burden_team"],
               "multiplier": res["multiplier"], "meld_team": res["meld_team"], "pit": res["pit"],
               "nat": res["nat"], "bid_won": -1 if res["bid_won"] is None else int(res["bid_won"])}
        per_team = ["points", "tricks", "hand_roem", "stuk", "table_roem", "pit_roem", "roem", "score"]
        per_team += ["crosses"] if self.variant == CONTRA else []
        for key in per_team:
            out.update({f"{key}_{t}": res[key][t] for t in range(2)})
        if self.variant != CONTRA:
            out.update({f"mark_{t}": MARK_NAMES.index(res["marks"][t]) for t in range(2)})
        out.update({f"roem_hand_{s}": res["roem_hand"][s] for s in range(4)})
        return out

    def report_sections(self, run, out_dir):
        from simcards.games.kraken import report

        return report.build(self, run, out_dir)

    # ------------------------------------------------------------ interactive deals

    def _bid(self, bid) -> int:
        names = self.bid_names
        highest = self.options["max_bid"]
        if isinstance(bid, str) and bid.strip().lower() in names:
            bid = names.index(bid.strip().lower())
        if isinstance(bid, bool) or bid not in range(highest + 1):
            allowed = ", ".join(f"{i} or {names[i]!r}" for i in range(highest + 1))
            raise UserError(f"bid = {bid!r} is not allowed for {self.name}; use {allowed}")
        return int(bid)

    def deal(self, hands=None, dealer: int = 0, trump=None, bid=None, *, seed=None, index=None,
             bots: Any = "heuristic") -> KrakenState:
        """A deal ready to play: given hands (card codes) and dealer, or deal ``index`` of a run
        with ``seed``. Forehand (dealer + 1) declares. Without ``trump`` the forehand bot names
        it; without ``bid`` the bots bid as in a simulation."""
        source = deal_source(hands, seed, index)
        kinds, params = self.deal_bots(bots)
        if source is not None:
            seed, index = source
            row, _ = self.run_deal(seed, index, kinds, params)  # refuses a deal the run never plays
            masks = np.array([row[f"hand_{s}"] for s in range(4)], dtype=np.int64)
            dealer = int(row["dealer"])
        else:
            masks = parse_deal(hands, self.deck)
            dealer = check_seat("dealer", dealer)
        trump_id = -1 if trump is None else parse_suit(trump, "trump")
        chosen, estimate, level, estimates, bidders = _play.choose_contract(
            masks, dealer, trump_id, self.tables, kinds, params, seed or 0, index or 0)
        level = int(level) if bid is None else self._bid(bid)
        state = KrakenState(self, masks, dealer, int(chosen), (dealer + 1) % 4, level)
        state.estimate = float(estimate)
        if bid is None:
            state.bidding = self._bidding_record(estimates, bidders, level, (dealer + 1) % 4)
            state.know_bidders(bidders)
        return state

    def state_from_row(self, row: dict, kinds, params) -> KrakenState:
        """The deal of a simulated row before its first card: hands, contract and bid, the
        bidding from the row's est_* and *_seat columns."""
        hands = [row[f"hand_{s}"] for s in range(4)]
        declarer, trump = int(row["declarer"]), int(row["trump"])
        state = KrakenState(self, hands, row["dealer"], trump, declarer, row["bid"])
        state.estimate = float(evaluate_hand(np.int64(hands[declarer]), trump, self.tables,
                                             params[declarer]))
        names = self.bid_names[1:]
        estimates = [row[f"est_{name}_{j}"] for name in names for j in (1, 2)]
        bidders = [row[f"{name}_seat"] for name in names]
        state.bidding = self._bidding_record(estimates, bidders, state.bid, declarer)
        state.know_bidders(bidders)
        return state

    def replay_header(self, row: dict, state: KrakenState) -> dict:
        return {"match_index": int(row["match_index"]), "deal_no": int(row["deal_no"]),
                "hands": [self.deck.hand_codes(h) for h in state.dealt], "dealer": state.dealer,
                "trump": SUITS[state.trump], "declarer": state.declarer,
                "estimate": state.estimate, "bidding": state.bidding,
                "bid": self.bid_names[state.bid]}

    def _bidding_record(self, estimates, bidders, level, declarer) -> list[dict]:
        """Who decided each bid, in order, with its estimate and decision."""
        record = []
        for lv in range(1, self.options["max_bid"] + 1):
            first = (declarer + 1) % 4 if lv % 2 == 1 else declarer
            for j in range(2):
                value = float(estimates[2 * (lv - 1) + j])
                if math.isnan(value):
                    continue
                seat = (first + 2 * j) % 4
                record.append({"bid": self.bid_names[lv], "seat": seat, "estimate": value,
                               "takes": int(bidders[lv - 1]) == seat})
        return record

    def hand_roem(self, hands, trump, tricks=(1, 1)) -> dict:
        """Hand roem of four hands (card codes; a hand may list only the cards that matter, at
        most eight) with ``trump`` under this ruleset's options: the team holding the highest
        meld and, per team, the melds and stuk it scores (``tricks`` per team matter when
        hand_roem_needs_trick). Returns {"team", "hand_roem", "stuk", "top_meld",
        "top_meld_four", "contested"}."""
        if not isinstance(hands, (list, tuple)) or len(hands) != 4:
            raise UserError("hands must be a list of 4 hands of card codes")
        masks = np.zeros(4, dtype=np.int64)
        seen = 0
        for seat, hand in enumerate(hands):
            mask = self.deck.parse_hand(hand)
            if mask.bit_count() > 8:
                raise UserError(f"hand {seat} has more than 8 cards")
            if seen & mask:
                raise UserError(f"{', '.join(self.deck.hand_codes(seen & mask))} in more than one hand")
            seen |= mask
            masks[seat] = mask
        trump_id = parse_suit(trump, "trump")
        if (not isinstance(tricks, (list, tuple)) or len(tricks) != 2
                or any(t not in range(9) or isinstance(t, bool) for t in tricks)):
            raise UserError(f"tricks = {tricks!r} is not allowed; use two integers 0..8, team 0 then team 1")
        out = np.zeros(K.AWARD_SIZE, dtype=np.int64)
        team = K.award_hand_roem(masks, int(trump_id), np.asarray(tricks, dtype=np.int64),
                                 self.tables, out)
        return {"team": None if team < 0 else int(team),
                "hand_roem": [int(out[K.A_HAND]), int(out[K.A_HAND + 1])],
                "stuk": [int(out[K.A_STUK]), int(out[K.A_STUK + 1])],
                "top_meld": int(out[K.A_TOP_KEY]) // KEY_VALUE, "top_meld_four": bool(out[K.A_TOP_FOUR]),
                "contested": bool(out[K.A_CONTESTED])}

    def headline_rates(self, deals, matches):
        from simcards.games.kraken import stats

        return stats.headlines(deals, matches)


class KrakenContra(KrakenGame):
    name = "kraken-contra"
    variant = CONTRA
    option_specs = CONTRA_OPTIONS
    objectives = CONTRA_OBJECTIVES
    bots = CONTRA_BOTS
    deal_columns = CONTRA_DEAL_COLUMNS
    match_columns = CONTRA_MATCH_COLUMNS
    summary = ("Kraken/Contra: Amsterdam Klaverjassen with kraak, rekraak and superkraak, roem in "
               "the hand, penalty crosses over 16-deal matches")


class KrakenScorebord(KrakenGame):
    name = "kraken-scorebord"
    variant = SCOREBORD
    option_specs = SCOREBORD_OPTIONS
    objectives = SCOREBORD_OBJECTIVES
    bots = SCOREBORD_BOTS
    deal_columns = SCOREBORD_DEAL_COLUMNS
    match_columns = SCOREBORD_MATCH_COLUMNS
    summary = ("Kraken with a scoreboard: kraak and overkraak, hand and table roem, entries in "
               "units of 10 with spades doubled, game to 250")


class KrakenState(KlaverjasState):
    """One Kraken deal being played by hand: `legal_moves()`, `play(code)`, `result()`."""

    def __init__(self, game: KrakenGame, hands, dealer: int, trump: int, declarer: int, bid: int):
        super().__init__(game, hands, dealer, trump, declarer)
        self.bid = int(bid)
        self.bidding: list[dict] = []
        self.estimate = math.nan  # the declarer's hand-evaluator estimate for the trump

    def know_bidders(self, bidders) -> None:
        """Keep who made each bid (-1: nobody) in the state, for the pimc bot's samples."""
        self._st[klaverjas_family.S_BIDDING] = _play.pack_bidding(np.asarray(bidders, dtype=np.int64))

    def __repr__(self) -> str:
        return (f"<{self.game.name} deal: trump {SUITS[self.trump]}, declarer {self.declarer}, "
                f"bid {self.game.bid_names[self.bid]}, {cards_played(len(self.history))}, "
                f"seat {self.to_move} to move>")

    def result(self) -> dict:
        """Card points, roem, nat, score and crosses (contra) or scoreboard entry and marks."""
        if not self.is_over:
            raise UserError(f"the deal is not over: {len(self.history)} of 32 cards played")
        res = np.zeros(K.SETTLE_SIZE, dtype=np.int64)
        K.settle(self._st, np.asarray(self.dealt, dtype=np.int64), self.bid, self.game.tables, res)
        pair = lambda slot: [int(res[slot]), int(res[slot + 1])]
        out = {
            "trump": SUITS[self.trump], "declarer": self.declarer, "bid": self.game.bid_names[self.bid],
            "burden_team": int(res[K.SR_BURDEN]), "multiplier": int(res[K.SR_MULT]),
            "points": pair(K.SR_POINTS), "tricks": pair(K.SR_TRICKS),
            "hand_roem": pair(K.SR_HAND_ROEM), "stuk": pair(K.SR_STUK),
            "table_roem": pair(K.SR_TABLE_ROEM), "pit_roem": pair(K.SR_PIT_ROEM),
            "roem": pair(K.SR_ROEM), "meld_team": int(res[K.SR_MELD_TEAM]),
            "pit": bool(res[K.SR_PIT]), "nat": bool(res[K.SR_NAT]),
            "bid_won": None if res[K.SR_BID_WON] < 0 else bool(res[K.SR_BID_WON]),
            "score": pair(K.SR_SCORE),
            "roem_hand": [int(klaverjas_family.hand_melds(h, self.trump, self.game.tables)) for h in self.dealt],
        }
        if self.game.variant == CONTRA:
            out["crosses"] = pair(K.SR_CROSSES)
        else:
            out["marks"] = [MARK_NAMES[int(res[K.SR_MARK])], MARK_NAMES[int(res[K.SR_MARK + 1])]]
        return out


__all__ = ["SCOREBORD", "KrakenContra", "KrakenScorebord", "KrakenState"]
