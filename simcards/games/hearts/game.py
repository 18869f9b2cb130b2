"""Python API of Hartenjagen and Hearts: `simcards.load("hartenjagen")`, `simcards.load("hearts")`
and the interactive `HeartsState` of one deal."""

from __future__ import annotations

from typing import Any

import numpy as np

from simcards.games.hearts import bots as hbots
from simcards.games.botspec import BotFamily
from simcards.cards import DECK32, DECK52
from simcards.errors import UserError
from simcards.games.play import TrickState, cards_played, check_seat, deal_source, parse_deal
from simcards.games.protocol import BenchEntry, Game, Objective
from simcards.errors import check_count
from simcards.games.references import Reference
from simcards.games.seating import with_bots
from simcards.games.hearts import _kernels as K
from simcards.games.hearts import _play
from simcards.games.hearts.columns import (
    DEAL_COLUMNS_32,
    DEAL_COLUMNS_52,
    MATCH_COLUMNS,
)
from simcards.games.hearts.userbot import HeartsSupport
from simcards.games.hearts.rules import (
    AMERICAN_OPTIONS,
    DUTCH_OPTIONS,
    MOON_SCORED_OTHERS,
    R_TOTAL,
    RULES_VERSION,
    T_RULES,
    build_tables,
)

HEARTS_BOTS = BotFamily(kinds=hbots.KINDS, params=hbots.PARAMS)
HARTENJAGEN_BOTS = BotFamily(kinds=hbots.KINDS, params=hbots.PARAMS_DUTCH)
PHASES = ("outbound", "return")
PASS_NAMES = {0: "none", 1: "left", 2: "across", 3: "right"}
MOON_OPTION_NAMES = {0: None, 1: "others", 2: "self"}


def _seat_columns(frames: dict, prefix: str) -> np.ndarray:
    """Per-seat ``prefix_s`` of every game, negated: lower placings and scores are better."""
    matches = frames["matches"].sort("match_index")
    return -matches.select([f"{prefix}_{s}" for s in range(4)]).to_numpy().astype(np.float64)


HEARTS_OBJECTIVES = {
    "placing": Objective("placing", "the mean placing of the tuned seats (1 best)",
                         lambda frames: _seat_columns(frames, "place")),
    "score": Objective("score", "the final game score of the tuned seats (lower is better)",
                       lambda frames: _seat_columns(frames, "score")),
}


class HeartsGame(Game):
    summary_note = ("Every figure here depends on the bots as much as on the rules: how often a "
                    "moon is tried and made, who takes the Q of spades and how long a game lasts "
                    "are these bots' figures, not properties of the game.")
    """Shared by both rulesets; a run's unit is a whole game (``unit = "match"``)."""

    n_seats = 4
    rules_version = RULES_VERSION
    bots = HEARTS_BOTS
    match_columns = MATCH_COLUMNS
    unit = "match"
    objectives = HEARTS_OBJECTIVES
    # every seat plays for itself; tuning still seats the tuned bot twice, opposite itself
    tune_seatings = ((0, 2), (1, 3))
    bench = (BenchEntry("random"), BenchEntry("heuristic", 100_000))
    dutch = False

    @property
    def tricks_per_deal(self) -> int:
        return self.deck.n_cards // 4

    @property
    def card_points_total(self) -> int:
        return int(self.tables[T_RULES + R_TOTAL])

    def row_totals(self, row) -> tuple[int, int]:
        return (sum(row[f"points_{s}"] for s in range(4)),
                sum(row[f"tricks_{s}"] for s in range(4)))

    def result_row(self, state) -> dict:
        res = state.result()
        moon_options = {v: k for k, v in MOON_OPTION_NAMES.items()}
        out = {"moon": -1 if res["moon"] is None else res["moon"],
               "moon_option": moon_options[res["moon_option"]], "qs_taker": res["qs_taker"],
               "jc_taker": res.get("jc_taker", -1)}
        for key, column in (("points", "points"), ("tricks", "tricks"), ("scores", "score")):
            out.update({f"{column}_{s}": res[key][s] for s in range(4)})
        return out

    def __init__(self, **options: Any):
        super().__init__(**options)
        self.tables = build_tables(self.options, self.dutch)

    # ------------------------------------------------------------ batch

    def _simulate(self, seed, start, n, kinds, params, traces):
        """(frames, traces) of games start .. start+n-1: the one kernel loop, with its trace
        switch on when ``traces`` has rows (_play.simulate_games)."""
        simulate = self.loop("simulate_games", _play.simulate_games)
        deals, matches, traces = simulate(seed, start, n, self.tables, kinds, params, traces)
        return {"deals": _play.DEAL_ROWS.to_frame(self.deal_columns, deals),
                "matches": _play.MATCH_ROWS.to_frame(self.match_columns, matches)}, traces

    def _simulate_frames(self, seed, start, n, kinds, params):
        return self._simulate(seed, start, n, kinds, params, self._traces(0))[0]

    def _simulate_traced(self, seed, start, n, kinds, params):
        return self._simulate(seed, start, n, kinds, params, self._traces(16))

    def _traces(self, rows: int) -> np.ndarray:
        return np.empty((rows, self.deck.n_cards), dtype=np.int64)

    def placings(self, frames, n_games, deals_per_game):
        matches = frames["matches"].sort("match_index")
        return matches.select([f"place_{s}" for s in range(4)]).to_numpy().astype(np.int64)

    def report_sections(self, run, out_dir):
        from simcards.games.hearts import report

        return report.build(self, run, out_dir)

    # ------------------------------------------------------------ one deal by hand

    def deal(self, hands=None, dealer: int = 0, scores=(0, 0, 0, 0), phase: str = "outbound",
             *, seed=None, index=None, bots: Any = "heuristic") -> "HeartsState":
        """A deal ready to play.

        - ``hands``: four lists of card codes, the hands *as played* (after any passing);
          ``dealer`` (forehand leads in Hartenjagen; the 2C holder leads in Hearts), the game
          ``scores`` before the deal and the ``phase`` ("outbound", or "return" in
          Hartenjagen) decide how the deal is scored.
        - ``seed`` and ``index``: global deal ``index`` (the ``deal_index`` column) of a run with
          ``seed`` and ``bots``: its game is simulated up to that deal, so the passes, the
          scores before it and its phase are exactly those of the run.
        """
        kinds, params = self.deal_bots(bots)
        source = deal_source(hands, seed, index)
        if source is not None:
            row, _ = self.run_deal(*source, kinds, params)
            return self.state_from_row(row, kinds, params)
        masks = parse_deal(hands, self.deck)
        dealer = check_seat("dealer", dealer)
        allowed_phases = PHASES if self.dutch else PHASES[:1]
        if phase not in allowed_phases:
            raise UserError(f"phase = {phase!r} is not allowed for {self.name}; use "
                             + " or ".join(repr(p) for p in allowed_phases))
        if (not isinstance(scores, (list, tuple)) or len(scores) != 4
                or not all(isinstance(s, (int, np.integer)) and not isinstance(s, bool)
                           for s in scores)):
            raise UserError(f"scores = {scores!r} is not allowed; use four integers, one per seat")
        return HeartsState(self, masks, dealer, [int(s) for s in scores], PHASES.index(phase),
                           kinds, params)

    # ------------------------------------------------------------ replays (protocol hooks)

    def state_from_row(self, row: dict, kinds, params) -> "HeartsState":
        """The deal of a simulated row as it was played: the hands after passing, its dealer,
        phase and the scores before it; the moon attempts are marked by the simulation's
        kernel."""
        dealt = np.array([row[f"hand_{s}"] for s in range(4)], dtype=np.int64)
        passes = np.array([row[f"pass_{s}"] for s in range(4)], dtype=np.int64)
        held = dealt.copy()
        K.apply_passes(held, passes, int(row["pass_dir"]))
        return HeartsState(self, held, row["dealer"], self._scores_before(row), row["phase"],
                           kinds, params, dealt=dealt, passes=passes, pass_dir=row["pass_dir"])

    def _scores_before(self, row: dict) -> list[int]:
        """The game scores before the deal of ``row`` (the previous deal row's scores, 0 before
        a game's first deal): its scores after, less the change its own columns record."""
        total = int(self.tables[T_RULES + R_TOTAL])
        change = [row[f"points_{s}"] for s in range(4)]
        if row["phase"] == K.PHASE_RETURN:
            change = [-p for p in change]
        elif row["moon"] >= 0:
            shooter = row["moon"]
            if row["moon_option"] == MOON_SCORED_OTHERS:
                change = [0 if s == shooter else total for s in range(4)]
            else:
                change = [-total if s == shooter else 0 for s in range(4)]
        return [row[f"score_{s}"] - d for s, d in enumerate(change)]

    def replay_header(self, row: dict, state: "HeartsState") -> dict:
        deck = self.deck
        return {"match_index": row["match_index"], "deal_no": row["deal_no"],
                "deal_index": row["deal_index"], "dealer": state.dealer, "phase": state.phase,
                "hands": [deck.hand_codes(h) for h in state.dealt],
                "pass_dir": state.pass_dir,
                "passes": [deck.hand_codes(p) for p in state.passes],
                "scores_before": state.scores_before, "moon_attempt": state.moon_attempt}

    def replay_match(self, seed: int, match_index: int, bots: Any = "heuristic") -> dict:
        """Every deal of game ``match_index`` of a run (as `replay`), and its final placings."""
        seed, match_index = check_count("seed", seed), check_count("match_index", match_index)
        frames, _ = with_bots(self, bots, lambda kinds, params: self._simulate_traced(
            seed, match_index, 1, kinds, params))
        deals = [self.replay(seed, index, bots) for index in frames["deals"]["deal_index"]]
        game = frames["matches"].row(0, named=True)
        return {"match_index": match_index, "deals": deals,
                "scores": [game[f"score_{s}"] for s in range(4)],
                "places": [game[f"place_{s}"] for s in range(4)], "capped": game["capped"]}

    def headline_rates(self, deals, matches):
        from simcards.games.hearts import stats

        return stats.headlines(deals, matches, self.dutch)


class Hartenjagen(HeartsGame):
    name = "hartenjagen"
    deck = DECK32
    user_bots = HeartsSupport(DECK32, 4, hbots.choose_card)
    dutch = True
    bots = HARTENJAGEN_BOTS
    option_specs = DUTCH_OPTIONS
    deal_columns = DEAL_COLUMNS_32
    summary = ("Hartenjagen (Dutch): 32 cards, hearts 1, JC 2, QS 5; outbound to the target, "
               "then the return to zero")


class Hearts(HeartsGame):
    name = "hearts"
    deck = DECK52
    user_bots = HeartsSupport(DECK52, 4, hbots.choose_card)
    option_specs = AMERICAN_OPTIONS
    deal_columns = DEAL_COLUMNS_52
    published_references = (
        Reference("OpenSpiel", "uniform random play makes the moon in 1.08% of deals (95% "
                  "interval 1.03-1.12%; 2,151 moons) under OpenSpiel's default Hearts rules "
                  "(passing, hearts broken, no points on the first trick).",
                  "OpenSpiel's hearts (pyspiel 2.0.2), played with uniform random moves by "
                  "simcards.games.hearts.openspiel_ref.openspiel_moon_rate(200_000, seed=1)",
                  "200,000 deals"),
    )

    def openspiel_rate(self, seconds: float) -> float | None:
        try:
            from simcards.games.hearts.openspiel_ref import bench_openspiel_hearts
        except ImportError:
            return None
        return bench_openspiel_hearts(seconds)
    summary = ("Hearts (American): 52 cards, passing, 2C leads, hearts 1, QS 13; "
               "game to the target, lowest score wins")


class HeartsState(TrickState):
    """One deal being played by hand: `to_move`, `legal_moves()`, `play(code)`, `result()`."""

    kernels = K

    def __init__(self, game: HeartsGame, hands, dealer: int, scores, phase: int, kinds, params,
                 dealt=None, passes=None, pass_dir: int = 0):
        self.game = game
        self.dealer = int(dealer)
        self.phase = PHASES[int(phase)]
        self.scores_before = [int(s) for s in scores]
        self.held = [int(h) for h in hands]
        self.dealt = [int(h) for h in (hands if dealt is None else dealt)]
        self.passes = [0, 0, 0, 0] if passes is None else [int(p) for p in passes]
        self.pass_dir = PASS_NAMES[int(pass_dir)]
        hands = np.asarray(hands, dtype=np.int64)
        self._st = np.empty(K.STATE_SIZE, dtype=np.int64)
        K.new_state(self._st, hands, self.dealer, np.asarray(self.scores_before, dtype=np.int64),
                    int(phase), game.tables)
        attempt, seats = _play.moon_attempt_of(hands, int(phase), self.dealer, game.tables,
                                               kinds, params)
        attempt = int(attempt)
        self._st[K.S_MOON_TRY] = attempt
        self._st[K.S_MOON_SEATS] = seats
        self.moon_attempt = attempt
        self.history: list[tuple[int, str]] = []

    def __repr__(self) -> str:
        return (f"<{self.game.name} deal ({self.phase}): {cards_played(len(self.history))}, "
                f"seat {self.to_move} to move>")

    @property
    def is_over(self) -> bool:
        return bool(K.is_over(self._st, self.game.tables))

    @property
    def hearts_broken(self) -> bool:
        return bool(self._st[K.S_BROKEN])

    @property
    def points(self) -> list[int]:
        """Points taken so far this deal, per seat."""
        return [int(self._st[K.S_POINTS + s]) for s in range(4)]

    def result(self) -> dict:
        """Points and tricks per seat, moon (seat or None) and how it was scored, the score
        change and the scores after the deal, who took the QS (and the JC in Hartenjagen)."""
        n_cards = self.game.deck.n_cards
        if not self.is_over:
            raise UserError(f"the deal is not over: {len(self.history)} of {n_cards} cards played")
        st = self._st
        deltas = np.zeros(4, dtype=np.int64)
        moon, option = K.score_deal(st, self.game.tables, deltas)
        out = {
            "phase": self.phase,
            "points": [int(st[K.S_POINTS + s]) for s in range(4)],
            "tricks": [int(st[K.S_TRICKS + s]) for s in range(4)],
            "moon": None if moon < 0 else int(moon),
            "moon_option": MOON_OPTION_NAMES[int(option)],
            "score": [int(d) for d in deltas],
            "scores": [self.scores_before[s] + int(deltas[s]) for s in range(4)],
            "qs_taker": int(st[K.S_QS_TAKER]),
        }
        if self.game.dutch:
            out["jc_taker"] = int(st[K.S_JC_TAKER])
        return out
