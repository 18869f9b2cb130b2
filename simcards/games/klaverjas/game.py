"""Python API of Klaverjassen: `simcards.load("klaverjas-rotterdam")` and the interactive State."""

from __future__ import annotations

from typing import Any

import numpy as np

from simcards.games.klaverjas import bots as kbots
from simcards.games.botspec import BotFamily
from simcards.cards import DECK32, SUITS, suit_index
from simcards.errors import UserError
from simcards.games.play import TrickState, check_seat, deal_source, parse_deal
from simcards.games.protocol import (
    BenchEntry,
    Game,
    Objective,
    check_count,
    party_values_to_seats,
    team_placings,
)
from simcards.games.klaverjas import _kernels as K
from simcards.games.klaverjas import _play
from simcards.games.klaverjas.columns import DEAL_COLUMNS
from simcards.games.klaverjas.rules import (
    OPTIONS,
    PARTNERSHIPS,
    R_NAT_ON_TIE,
    RULES_VERSION,
    T_RULES,
    build_tables,
)

KLAVERJAS_BOTS = BotFamily(kinds=kbots.KINDS, params=kbots.PARAMS)


def _deal_scores(frames: dict) -> np.ndarray:
    deals = frames["deals"].sort("deal_index")
    return party_values_to_seats(deals.select("score_0", "score_1").to_numpy(), PARTNERSHIPS, 4)


class KlaverjasGame(Game):
    deck = DECK32
    n_seats = 4
    option_specs = OPTIONS
    rules_version = RULES_VERSION
    bots = KLAVERJAS_BOTS
    deal_columns = DEAL_COLUMNS
    partnerships = PARTNERSHIPS
    objectives = {"score": Objective("score", "the deal score of the tuned side's team", _deal_scores)}
    bench = (BenchEntry("random", 1_500_000), BenchEntry("heuristic", 300_000))
    amsterdam = False

    def __init__(self, **options: Any):
        super().__init__(**options)
        self.tables = build_tables(self.options, self.amsterdam)
        self._buffer = np.empty(0, dtype=np.int64)

    def _simulate_matrix(self, seed, start, n, kinds, params):
        # one output buffer per game, grown as needed: a fresh 100k-deal matrix per chunk costs
        # more in first-touch page faults than a tenth of the simulation
        if self._buffer.size < _play.N_COLUMNS * n:
            self._buffer = np.empty(_play.N_COLUMNS * n, dtype=np.int64)
        out = self._buffer[:_play.N_COLUMNS * n].reshape(_play.N_COLUMNS, n)
        _play.simulate_into(out, seed, start, self.tables, kinds, params)
        return out

    def placings(self, frames, n_games, deals_per_game):
        """``deals_per_game`` consecutive deals form one game; the team with the higher summed
        score is placed first (level: shared)."""
        deals = frames["deals"]
        if deals.height != n_games * deals_per_game:
            raise UserError(f"{self.name}: expected {n_games * deals_per_game} deals, got {deals.height}")
        scores = deals.sort("deal_index").select("score_0", "score_1").to_numpy().astype(np.int64)
        totals = scores.reshape(n_games, deals_per_game, 2).sum(axis=1)
        return team_placings(totals, PARTNERSHIPS, self.n_seats)

    def report_sections(self, run, out_dir):
        from simcards.games.klaverjas import report

        return report.build(self, run, out_dir)

    def deal(self, hands=None, dealer: int = 0, trump=None, declarer=None, *, seed=None,
             index=None, bots: Any = "heuristic") -> "KlaverjasState":
        """A deal ready to play: given hands (card codes) or deal ``index`` of a run with ``seed``.
        Without ``trump`` the bots choose the contract as a simulation would."""
        source = deal_source(hands, seed, index)
        kinds, params = self.resolve_bots(bots)
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
            trump = suit_index(trump) if isinstance(trump, str) else trump
            if isinstance(trump, bool) or trump not in range(4):
                raise UserError(f"trump = {trump!r} is not a suit; suits are C, D, H, S")
        if declarer is None:
            declarer = (dealer + 1) % 4
        declarer = check_seat("declarer", declarer)
        return KlaverjasState(self, masks, dealer, trump, declarer)

    def replay(self, seed: int, index: int, bots: Any = "heuristic") -> dict:
        """Deal ``index`` of a run with ``seed`` and ``bots``, trick by trick."""
        kinds, params = self.resolve_bots(bots)
        hands, dealer, trump, declarer, est, trace = _play.replay_deal(
            check_count("seed", seed), check_count("index", index), self.tables, kinds, params)
        state = KlaverjasState(self, hands, dealer, trump, declarer)
        tricks = []
        for k, card in enumerate(trace):
            if k % 4 == 0:
                tricks.append({"leader": state.to_move, "cards": []})
            seat = state.to_move
            roem_before = [int(state._st[K.S_ROEM + t]) for t in (0, 1)]
            points_before = [int(state._st[K.S_POINTS + t]) for t in (0, 1)]
            state.play(self.deck.code(int(card)))
            tricks[-1]["cards"].append((seat, self.deck.code(int(card))))
            if k % 4 == 3:
                winner = int(state._st[K.S_LAST_WINNER])
                team = winner & 1
                tricks[-1]["winner"] = winner
                tricks[-1]["points"] = int(state._st[K.S_POINTS + team]) - points_before[team]
                tricks[-1]["roem"] = int(state._st[K.S_ROEM + team]) - roem_before[team]
        return {"hands": [self.deck.hand_codes(int(h)) for h in hands], "dealer": int(dealer),
                "trump": SUITS[trump], "declarer": int(declarer), "estimate": float(est),
                "tricks": tricks, "result": state.result()}


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
        self.history: list[tuple[int, str]] = []

    def __repr__(self) -> str:
        return (f"<{self.game.name} deal: trump {SUITS[self.trump]}, declarer {self.declarer}, "
                f"{len(self.history)} cards played, seat {self.to_move} to move>")

    @property
    def is_over(self) -> bool:
        return int(self._st[K.S_TRICK_NO]) == K.N_TRICKS

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
