"""Python API of Doppelkopf: `simcards.load("doppelkopf")` and the interactive `DoppelkopfState`.

A run's unit is a deal. The parties change every deal (`parties(deals)` reads ``re_mask``);
tournaments place each player alone by its summed score over a series of deals (24 in
configs/tournament-doppelkopf.toml).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from simcards.cards import DECK48
from simcards.errors import UserError
from simcards.games.botspec import BotFamily
from simcards.games.columns import to_frame
from simcards.games.doppelkopf import _kernels as K
from simcards.games.doppelkopf import _play
from simcards.games.doppelkopf import bots as dbots
from simcards.games.doppelkopf.columns import DEAL_COLUMNS
from simcards.games.doppelkopf.rules import (
    CONTRACTS,
    G_MARRIAGE,
    G_NORMAL,
    G_SILENT_MARRIAGE,
    GAME_TYPES,
    N_CARDS,
    N_TRICKS,
    OPTIONS,
    QC_MASK,
    RULES_VERSION,
    TOTAL_AUGEN,
    build_tables,
)
from simcards.games.doppelkopf.scoring import ANNOUNCEMENTS
from simcards.games.doppelkopf.userbot import SUPPORT as DOPPELKOPF_USER_BOTS
from simcards.games.play import TrickState, cards_played, check_seat, deal_source, parse_deal
from simcards.games.protocol import BenchEntry, Game, Objective
from simcards.games.references import NO_SAMPLE_SIZE, Reference
from simcards.games.userbots import PYTHON_KIND

DOPPELKOPF_BOTS = BotFamily(kinds=dbots.KINDS, params=dbots.PARAMS)
_NO_TRACES = np.empty((0, N_CARDS), dtype=np.int64)
WINNERS = (None, "re", "kontra")
SPECIAL_COLUMNS = ("fox_re", "fox_kontra", "doppelkopf_re", "doppelkopf_kontra", "karlchen_re",
                   "karlchen_kontra")


def _seat_scores(frames: dict) -> np.ndarray:
    deals = frames["deals"].sort("deal_index")
    return deals.select([f"score_{s}" for s in range(4)]).to_numpy().astype(np.float64)


class Doppelkopf(Game):
    name = "doppelkopf"
    summary_note = ("Figures marked 'depends on the bots' measure these bots playing Doppelkopf, "
                    "not the game itself; the club-queen figure is the odds of the cards dealt.")
    summary = ("Doppelkopf, DDV tournament rules: 48 cards, hidden Re/Kontra parties, "
               "marriages, solos, announcements and the DDV settlement")
    deck = DECK48
    n_seats = 4
    option_specs = OPTIONS
    rules_version = RULES_VERSION
    bots = DOPPELKOPF_BOTS
    user_bots = DOPPELKOPF_USER_BOTS
    deal_columns = DEAL_COLUMNS
    tricks_per_deal = N_TRICKS
    card_points_total = TOTAL_AUGEN
    objectives = {"score": Objective("score", "the tuned seat's score per deal", _seat_scores)}
    bench = (BenchEntry("random"), BenchEntry("heuristic", 80_000))
    published_references = (
        Reference("Doppelkopf-Wissen", "70% of all Doppelkopf games are normal games, the rest "
                  "marriages and solos (silent marriages included).",
                  "doko-wissen.de, article \"Normalspiel\"", NO_SAMPLE_SIZE),
    )

    def __init__(self, **options: Any):
        super().__init__(**options)
        self.tables = build_tables(self.options)

    # ------------------------------------------------------------ batch

    def _simulate_frames(self, seed, start, n, kinds, params):
        return {"deals": to_frame(self.deal_columns, self._simulate_matrix(seed, start, n, kinds, params))}

    def _simulate_matrix(self, seed, start, n, kinds, params):
        out = self._row_buffer(_play.N_COLUMNS, n)
        self.loop("simulate_into", _play.simulate_into)(out, seed, start, self.tables, kinds,
                                                        params, _NO_TRACES)
        return out

    def _simulate_traced(self, seed, start, n, kinds, params):
        out = np.empty((_play.N_COLUMNS, n), dtype=np.int64)
        traces = np.empty((n, N_CARDS), dtype=np.int64)
        self.loop("simulate_into", _play.simulate_into)(out, seed, start, self.tables, kinds,
                                                        params, traces)
        return {"deals": _play.DEAL_ROWS.to_frame(self.deal_columns, out)}, traces

    def parties(self, deals: pl.DataFrame) -> np.ndarray:
        """Party per seat of each deal: 0 Re, 1 Kontra."""
        mask = deals["re_mask"].to_numpy().astype(np.int64)
        return np.stack([1 - (mask >> s & 1) for s in range(4)], axis=1)

    def row_totals(self, row) -> tuple[int, int]:
        return row["re_augen"] + row["kontra_augen"], row["re_tricks"] + row["kontra_tricks"]

    def result_row(self, state) -> dict:
        res = state.result()
        out = {"game_type": GAME_TYPES.index(res["game_type"]), "re_mask": res["re_mask"],
               "clarify_trick": res["clarify_trick"], "re_augen": res["augen"]["re"],
               "kontra_augen": res["augen"]["kontra"], "re_tricks": res["tricks"]["re"],
               "kontra_tricks": res["tricks"]["kontra"], "solo": res["solo"],
               "winner": WINNERS.index(res["winner"]), "value": res["value"]}
        for call in ANNOUNCEMENTS:
            made = res["announcements"].get(call)
            out[f"ann_{call}"] = -1 if made is None else made["cards"]
            out[f"ann_seat_{call}"] = -1 if made is None else made["seat"]
        out.update(res["specials"])
        out.update({f"score_{s}": res["scores"][s] for s in range(4)})
        return out

    def placings(self, frames, n_games, deals_per_game):
        """``deals_per_game`` consecutive deals form one series; each player is placed alone by
        its summed score (level totals share a placing)."""
        deals = frames["deals"]
        if deals.height != n_games * deals_per_game:
            raise UserError(f"{self.name}: expected {n_games * deals_per_game} deals, got {deals.height}")
        scores = deals.sort("deal_index").select([f"score_{s}" for s in range(4)]).to_numpy()
        totals = scores.astype(np.int64).reshape(n_games, deals_per_game, 4).sum(axis=1)
        return 1 + (totals[:, None, :] > totals[:, :, None]).sum(axis=2)

    def report_sections(self, run, out_dir):
        from simcards.games.doppelkopf import report

        return report.build(self, run, out_dir)

    def headline_rates(self, deals, matches):
        from simcards.games.doppelkopf import stats

        return stats.headlines()

    # ------------------------------------------------------------ one deal by hand

    def deal(self, hands=None, dealer: int = 0, game_type: str | None = None, declarer=None, *,
             seed=None, index=None, bots: Any = "heuristic") -> "DoppelkopfState":
        """A deal ready to play: given ``hands`` (card codes, a code may appear twice) or deal
        ``index`` of a run with ``seed``. Without ``game_type`` the bots choose it as a
        simulation would ("normal", "marriage", "silent_marriage", "queen_solo", ...; a solo
        needs its ``declarer``). The bots' announcements are made for them as they play; call
        `announce` for your own."""
        source = deal_source(hands, seed, index)
        kinds, params = self.deal_bots(bots)
        if source is not None:
            row, _ = self.run_deal(*source, kinds, params)
            return self.state_from_row(row, kinds, params)
        masks = parse_deal(hands, self.deck)
        dealer = check_seat("dealer", dealer)
        est = np.empty(4, dtype=np.int64)
        solo_est = np.empty(4, dtype=np.int64)
        pick = np.empty(4, dtype=np.int64)
        owed = np.zeros(1, dtype=np.int64)  # a deal by hand owes nothing
        chosen, chooser, _ = _play.choose_game(masks, dealer, self.tables, kinds, params, est,
                                               solo_est, pick, owed, 0)
        if game_type is None:
            game, declarer = int(chosen), int(chooser)
        else:
            if game_type not in GAME_TYPES or game_type == "marriage_alone":
                allowed = ", ".join(repr(g) for g in GAME_TYPES if g != "marriage_alone")
                raise UserError(f"game_type = {game_type!r} is not allowed; use {allowed}")
            game = GAME_TYPES.index(game_type)
            holders = [s for s in range(4) if bin(int(masks[s]) & QC_MASK).count("1") == 2]
            if game in (G_MARRIAGE, G_SILENT_MARRIAGE):
                if not holders:
                    raise UserError(f"game_type = {game_type!r} needs a hand with both club queens")
                declarer = holders[0]
            elif game == G_NORMAL:
                if holders:
                    raise UserError("game_type = 'normal' is not possible: one hand holds both "
                                    "club queens (use 'marriage' or 'silent_marriage')")
                declarer = -1
            else:
                declarer = check_seat("declarer", declarer)
        return DoppelkopfState(self, masks, dealer, game, declarer, est, solo_est, kinds, params,
                               (dealer + 1) % 4)

    def state_from_row(self, row, kinds, params) -> "DoppelkopfState":
        hands = np.array([row[f"hand_{s}"] for s in range(4)], dtype=np.int64)
        game = row["game_type"]
        if GAME_TYPES[game] == "marriage_alone":
            game = G_MARRIAGE  # decided by its first three tricks
        # a user bot's announcements are replayed as the row records them
        calls = [(row[f"ann_seat_{call}"], row[f"ann_{call}"], k % 5)
                 for k, call in enumerate(ANNOUNCEMENTS) if row[f"ann_{call}"] >= 0]
        return DoppelkopfState(self, hands, row["dealer"], game, row["declarer"],
                               [row[f"est_{s}"] for s in range(4)],
                               [row[f"solo_est_{s}"] for s in range(4)], kinds, params,
                               row["leader"], calls)

    def replay_header(self, row, state) -> dict:
        return {"deal_index": int(row["deal_index"]), "dealer": state.dealer,
                "hands": [self.deck.hand_codes(h) for h in state.dealt],
                "game_type": GAME_TYPES[row["game_type"]], "declarer": row["declarer"],
                "owed_solo": row["owed_solo"], "leader": row["leader"],
                "estimates": [row[f"est_{s}"] for s in range(4)],
                "solo_estimates": [row[f"solo_est_{s}"] for s in range(4)]}

    def trick_snapshot(self, state) -> dict:
        return {"calls": dict(state.announcements)}

    def trick_record(self, state, before: dict) -> dict:
        """The announcements made during the trick."""
        return {"calls": [c for c in state.announcements if c not in before["calls"]]}


class DoppelkopfState(TrickState):
    """One deal being played: `legal_moves()`, `play(code)`, `announce(call)`, `result()`.
    The bots of ``kinds``/``params`` announce for their seats before each card they play; a
    user bot's seat (a deal of a run replayed) makes the ``calls`` its row records."""

    kernels = K

    def __init__(self, game: Doppelkopf, hands, dealer: int, game_type: int, declarer: int,
                 est, solo_est, kinds, params, leader: int, calls=()):
        self.game = game
        self.dealer = int(dealer)
        self.dealt = [int(h) for h in hands]
        self.kinds = np.asarray(kinds, dtype=np.int64)
        self.params = np.asarray(params, dtype=np.float64)
        self._st = np.empty(K.STATE_SIZE, dtype=np.int64)
        K.new_state(self._st, np.asarray(hands, dtype=np.int64), self.dealer, int(game_type),
                    int(declarer), int(leader), game.tables)
        _play.set_estimates(self._st, np.asarray(est, dtype=np.int64),
                            np.asarray(solo_est, dtype=np.int64))
        self.history: list[tuple[int, str]] = []
        self.played_ids: list[int] = []  # the card ids of ``history`` (two copies share a code)
        self._calls = list(calls)  # (seat, cards held, level) of a user bot's announcements

    def __repr__(self) -> str:
        return (f"<doppelkopf deal ({GAME_TYPES[int(self._st[K.S_GAME_TYPE])]}): "
                f"{cards_played(len(self.history))}, seat {self.to_move} to move>")

    @property
    def is_over(self) -> bool:
        return bool(K.is_over(self._st))

    @property
    def game_type(self) -> str:
        return GAME_TYPES[int(self._st[K.S_GAME_TYPE])]

    @property
    def contract(self) -> str:
        return CONTRACTS[int(self._st[K.S_CONTRACT])]

    @property
    def announcements(self) -> dict[str, dict]:
        """Each call made so far: {"re": {"seat": 0, "cards": 12}, ...}."""
        out = {}
        for k, call in enumerate(ANNOUNCEMENTS):
            if self._st[K.S_ANN_CARDS + k] >= 0:
                out[call] = {"seat": int(self._st[K.S_ANN_SEAT + k]),
                             "cards": int(self._st[K.S_ANN_CARDS + k])}
        return out

    def announce(self, call: str, seat: int | None = None):
        """Announce ``call`` ("re", "kontra_no90", ...) for ``seat`` (default: the seat to
        move); a UserError when it is not that seat's party's call or is out of time."""
        if call not in ANNOUNCEMENTS:
            raise UserError(f"announcement {call!r} is not allowed; use one of "
                            f"{', '.join(repr(a) for a in ANNOUNCEMENTS)}")
        seat = self.to_move if seat is None else check_seat("seat", seat)
        party, level = divmod(ANNOUNCEMENTS.index(call), 5)
        if self.is_over:
            raise UserError(f"{call!r} cannot be announced: the deal is over")
        if int(K.party_of(self._st, seat)) != party:
            raise UserError(f"seat {seat} plays {('re', 'kontra')[1 - party]}, so it cannot call "
                            f"{call!r}")
        if not K.call_in_time(self._st, seat, level):
            raise UserError(f"{call!r} is out of time for seat {seat} (it holds "
                            f"{bin(int(self._st[K.S_HAND + seat])).count('1')} cards), already "
                            f"made, or the marriage is not clarified yet")
        K.make_call(self._st, seat, level)
        return self

    def play(self, code: str):
        if not self.is_over:
            seat = self.to_move
            if self.kinds[seat] >= PYTHON_KIND:
                self._replay_calls(seat)
            else:
                dbots.bot_turn(self._st, self.kinds[seat], self.params[seat])
        before = int(self._st[K.S_PLAYED])
        super().play(code)
        self.played_ids.append((int(self._st[K.S_PLAYED]) & ~before).bit_length() - 1)
        return self

    def _replay_calls(self, seat: int) -> None:
        """The recorded announcements ``seat`` made holding the cards it holds now."""
        held = bin(int(self._st[K.S_HAND + seat])).count("1")
        levels = [level for s, cards, level in self._calls if s == seat and cards == held]
        if levels:
            K.make_call(self._st, seat, max(levels))

    def result(self) -> dict:
        """Game type, parties, Augen and tricks per party, announcements, special points,
        winner, Re's unit score and each seat's score (valid once `is_over`)."""
        if not self.is_over:
            raise UserError(f"the deal is not over: {len(self.history)} of {N_CARDS} cards played")
        st = self._st
        specials = np.zeros(6, dtype=np.int64)
        scores = np.zeros(4, dtype=np.int64)
        winner, value = K.settle_deal(st, specials, scores)
        re_augen, re_tricks = K.party_totals(st)
        return {"game_type": self.game_type, "declarer": int(st[K.S_DECLARER]),
                "re_mask": int(st[K.S_PARTY]),
                "re": [s for s in range(4) if st[K.S_PARTY] >> s & 1],
                "clarify_trick": int(st[K.S_CLARIFY]),
                "augen": {"re": int(re_augen), "kontra": TOTAL_AUGEN - int(re_augen)},
                "tricks": {"re": int(re_tricks), "kontra": N_TRICKS - int(re_tricks)},
                "announcements": self.announcements,
                "specials": {name: int(v) for name, v in zip(SPECIAL_COLUMNS, specials)},
                "solo": bool(st[K.S_SOLO]), "winner": WINNERS[int(winner)], "value": int(value),
                "scores": [int(s) for s in scores]}
