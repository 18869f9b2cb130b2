"""Python API of Klaverjassen: `simcards.load("klaverjas-rotterdam")` and the interactive State."""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from simcards.games.klaverjas import bots as kbots
from simcards.games.botspec import BotFamily
from simcards.cards import DECK32, SUITS, parse_suit
from simcards.errors import UserError
from simcards.games.play import TrickState, cards_played, check_seat, deal_source, parse_deal
from simcards.games.protocol import (
    BenchEntry,
    Game,
    Objective,
    party_values_to_seats,
    team_placings,
)
from simcards.games.klaverjas import _kernels as K
from simcards.games.klaverjas import _play
from simcards.games.klaverjas._pimc import pimc_scratch
from simcards.games.klaverjas.columns import DEAL_COLUMNS
from simcards.games.klaverjas.solver import SOLVER as KLAVERJAS_SOLVER
from simcards.games.klaverjas.userbot import SUPPORT as KLAVERJAS_USER_BOTS
from simcards.games.klaverjas.rules import (
    OPTIONS,
    PARTNERSHIPS,
    TOTAL_CARD_POINTS,
    R_NAT_ON_TIE,
    RULES_VERSION,
    T_RULES,
    build_tables,
)

KLAVERJAS_BOTS = BotFamily(kinds=kbots.KINDS, params=kbots.PARAMS, counts=kbots.COUNTS)
_NO_TRACES = np.empty((0, _play.N_CARDS), dtype=np.int64)  # the trace switch off


def _deal_scores(frames: dict) -> np.ndarray:
    deals = frames["deals"].sort("deal_index")
    return party_values_to_seats(deals.select("score_0", "score_1").to_numpy(), PARTNERSHIPS, 4)


class KlaverjasGame(Game):
    summary_note = ("Figures marked 'depends on the bots' measure these bots playing this "
                    "ruleset, not the game itself; the others are odds of the cards dealt.")
    deck = DECK32
    n_seats = 4
    option_specs = OPTIONS
    rules_version = RULES_VERSION
    bots = KLAVERJAS_BOTS
    deal_columns = DEAL_COLUMNS
    partnerships = PARTNERSHIPS
    tricks_per_deal = K.N_TRICKS
    card_points_total = TOTAL_CARD_POINTS
    objectives = {"score": Objective("score", "the deal score of the tuned side's team", _deal_scores)}
    bench = (BenchEntry("random", 1_500_000), BenchEntry("heuristic", 300_000))
    amsterdam = False
    user_bots = KLAVERJAS_USER_BOTS
    solver = KLAVERJAS_SOLVER

    def __init__(self, **options: Any):
        super().__init__(**options)
        self.tables = build_tables(self.options, self.amsterdam)

    def _simulate_frames(self, seed, start, n, kinds, params):
        out = self._simulate_matrix(seed, start, n, kinds, params)
        return {"deals": _play.DEAL_ROWS.to_frame(DEAL_COLUMNS, out)}

    def _simulate_matrix(self, seed, start, n, kinds, params):
        # one output buffer per game, grown as needed: a fresh 100k-deal matrix per chunk costs
        # more in first-touch page faults than a tenth of the simulation
        out = self._row_buffer(_play.N_COLUMNS, n)
        self.loop("simulate_into", _play.simulate_into)(out, seed, start, self.tables, kinds, params,
                                                       _NO_TRACES, pimc_scratch(kinds))
        return out

    def _simulate_traced(self, seed, start, n, kinds, params):
        out = np.empty((_play.N_COLUMNS, n), dtype=np.int64)
        traces = np.empty((n, _play.N_CARDS), dtype=np.int64)
        self.loop("simulate_into", _play.simulate_into)(out, seed, start, self.tables, kinds, params,
                                                       traces, pimc_scratch(kinds))
        return {"deals": _play.DEAL_ROWS.to_frame(DEAL_COLUMNS, out)}, traces

    def state_from_row(self, row, kinds, params) -> "KlaverjasState":
        hands = np.array([row[f"hand_{s}"] for s in range(4)], dtype=np.int64)
        return KlaverjasState(self, hands, row["dealer"], row["trump"], row["declarer"])

    def replay_header(self, row, state) -> dict:
        return {"hands": [self.deck.hand_codes(h) for h in state.dealt], "dealer": state.dealer,
                "trump": SUITS[state.trump], "declarer": state.declarer,
                "estimate": float(row["estimate"])}

    def row_totals(self, row) -> tuple[int, int]:
        return row["points_0"] + row["points_1"], row["tricks_0"] + row["tricks_1"]

    def result_row(self, state) -> dict:
        res = state.result()
        out = {"trump": SUITS.index(res["trump"]), "declarer": res["declarer"], "pit": res["pit"],
               "nat": res["nat"]}
        for key in ("points", "roem", "tricks", "score"):
            out.update({f"{key}_{t}": res[key][t] for t in range(2)})
        out.update({f"roem_hand_{s}": res["roem_hand"][s] for s in range(4)})
        return out

    def trick_snapshot(self, state) -> dict:
        return {"points": state.team_slots(K.S_POINTS), "roem": state.team_slots(K.S_ROEM)}

    def trick_record(self, state, before: dict) -> dict:
        """The trick's card points and roem, for the team that took it."""
        team = state.last_winner & 1
        return {"points": state.team_slots(K.S_POINTS)[team] - before["points"][team],
                "roem": state.team_slots(K.S_ROEM)[team] - before["roem"][team]}

    def placings(self, frames, n_games, deals_per_game):
        """``deals_per_game`` consecutive deals form one game; the team with the higher summed
        score is placed first (level: shared)."""
        deals = frames["deals"]
        if deals.height != n_games * deals_per_game:
            raise UserError(f"{self.name}: expected {n_games * deals_per_game} deals, got {deals.height}")
        scores = deals.sort("deal_index").select("score_0", "score_1").to_numpy().astype(np.int64)
        totals = scores.reshape(n_games, deals_per_game, 2).sum(axis=1)
        return team_placings(totals, PARTNERSHIPS, self.n_seats)

    def exact_hand_meld_values(self, with_stuk: bool) -> pl.DataFrame:
        """Exact probability of each hand-meld total of one hand, from enumerating all C(32, 8)
        hands (with stuk: for a trump that does not depend on the hand)."""
        from simcards.games.klaverjas.exact import hand_meld_distribution

        dist = hand_meld_distribution(hand_four_kind_ranks=tuple(self.options["hand_four_kind_ranks"]),
                                      with_stuk=with_stuk)
        return pl.DataFrame({"roem_hand": list(dist.keys()), "exact": list(dist.values())},
                            schema={"roem_hand": pl.Int16, "exact": pl.Float64}).sort("roem_hand")

    def report_sections(self, run, out_dir):
        from simcards.games.klaverjas import report

        return report.build(self, run, out_dir)

    def deal(self, hands=None, dealer: int = 0, trump=None, declarer=None, *, seed=None,
             index=None, bots: Any = "heuristic") -> "KlaverjasState":
        """A deal ready to play: given hands (card codes) or deal ``index`` of a run with ``seed``.
        Without ``trump`` the bots choose the contract as a simulation would."""
        source = deal_source(hands, seed, index)
        kinds, params = self.deal_bots(bots)
        rng = np.empty(1, dtype=np.uint64)
        if source is not None:
            seed, index = source
            masks = np.empty(4, dtype=np.int64)
            dealer = _play.deal_cards(seed, index, masks, np.empty(32, dtype=np.int64), rng)
        else:
            masks = parse_deal(hands, self.deck)
            dealer = check_seat("dealer", dealer)
        if trump is None:
            from simcards.rng import STREAM_CONTRACT, reset_stream

            reset_stream(rng, seed or 0, index or 0, STREAM_CONTRACT)
            chosen, chooser, _ = _play.choose_contract(masks, dealer, self.tables, kinds, params, rng)
            trump = chosen
            declarer = chooser if declarer is None else declarer
        else:
            trump = parse_suit(trump, "trump")
        if declarer is None:
            declarer = (dealer + 1) % 4
        declarer = check_seat("declarer", declarer)
        return KlaverjasState(self, masks, dealer, trump, declarer)

    def headline_rates(self, deals, matches):
        from simcards.games.klaverjas import stats

        return stats.headlines(self.options)


class KlaverjasRotterdam(KlaverjasGame):
    name = "klaverjas-rotterdam"
    summary = "Klaverjassen, Rotterdam rules: always trump (over) when you cannot follow"


class KlaverjasAmsterdam(KlaverjasGame):
    name = "klaverjas-amsterdam"
    amsterdam = True
    summary = "Klaverjassen, Amsterdam rules: no need to trump over your partner's winning trick"


class KlaverjasState(TrickState):
    """One deal being played by hand: `legal_moves()`, `play(code)`, `result()`."""

    kernels = K

    def __init__(self, game: KlaverjasGame, hands, dealer: int, trump: int, declarer: int):
        self.game = game
        self.trump = int(trump)
        self.declarer = int(declarer)
        self.dealer = int(dealer)
        self.dealt = [int(h) for h in hands]
        self._st = np.empty(K.STATE_SIZE, dtype=np.int64)
        K.new_state(self._st, np.asarray(hands, dtype=np.int64), dealer, trump, declarer)
        self._st[K.S_SHOWS] = 1  # what the play shows, for a suggestion by pimc (_kernels.py)
        self.history: list[tuple[int, str]] = []

    def __repr__(self) -> str:
        return (f"<{self.game.name} deal: trump {SUITS[self.trump]}, declarer {self.declarer}, "
                f"{cards_played(len(self.history))}, seat {self.to_move} to move>")

    @property
    def is_over(self) -> bool:
        return int(self._st[K.S_TRICK_NO]) == K.N_TRICKS

    def team_slots(self, slot: int) -> list[int]:
        """The two per-team values of the state starting at ``slot`` (team 0, team 1)."""
        return [int(self._st[slot]), int(self._st[slot + 1])]

    def result(self) -> dict:
        """Points, roem, tricks, pit, nat and score per team (valid once `is_over`)."""
        if not self.is_over:
            raise UserError(f"the deal is not over: {len(self.history)} of 32 cards played")
        st, T = self._st, self.game.tables
        points = [int(st[K.S_POINTS]), int(st[K.S_POINTS + 1])]
        roem = [int(st[K.S_ROEM]), int(st[K.S_ROEM + 1])]
        score = np.zeros(2, dtype=np.int64)
        nat = K.klaverjas_score(np.array(points), np.array(roem), self.declarer & 1,
                                T[T_RULES + R_NAT_ON_TIE], score)
        tricks = [int(st[K.S_TRICKS]), int(st[K.S_TRICKS + 1])]
        return {"trump": SUITS[self.trump], "declarer": self.declarer, "points": points,
                "roem": roem, "tricks": tricks, "pit": 8 in tricks, "nat": bool(nat),
                "score": [int(s) for s in score],
                "roem_hand": [int(K.hand_melds(h, self.trump, T)) for h in self.dealt]}
