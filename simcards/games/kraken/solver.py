"""Kraken's perfect play: Klaverjassen's double-dummy solver (`simcards.games.klaverjas.solver`)
with what Kraken scores at the end of a deal, the hand roem and stuk awarded by which teams took
a trick, and its own perfect-play columns (``dd_kraak_wins``)."""

from __future__ import annotations

import numpy as np
import polars as pl

from simcards.games.klaverjas import family as klaverjas_family
from simcards.games.klaverjas.solver import KlaverjasSolver, lost_columns, perfect_play_lines
from simcards.games.kraken import _kernels as K
from simcards.games.kraken import _play
from simcards.games.kraken.columns import DOUBLE_DUMMY_COLUMNS


class KrakenSolver(KlaverjasSolver):
    """``Game.solver`` of both Kraken rulesets."""

    columns = DOUBLE_DUMMY_COLUMNS
    bench_pimc_deals = (1, 2)  # matches

    def with_perfect_play(self, game, deals: pl.DataFrame, traces: np.ndarray) -> pl.DataFrame:
        """The double-dummy columns (columns.py) added to a deals frame, ``traces`` its cards in
        play order. The nat decision of perfect play is on raw card points (with nat_points =
        "multiplied" and a bid it can differ from the one the score uses)."""
        margins, lost = perfect_play_lines(game, deals, traces)
        playing = deals["declarer"].to_numpy().astype(np.int64) & 1
        if "burden_team" in deals.columns:
            burden = deals["burden_team"].to_numpy().astype(np.int64)
        else:  # the scoreboard: the playing team always carries it
            burden = playing
        burden_margin = np.where(burden == playing, margins, -margins)
        tie_nat = bool(game.options["nat_on_tie"])
        nat = burden_margin <= 0 if tie_nat else burden_margin < 0
        kraak_wins = -margins > 0 if tie_nat else -margins >= 0
        return deals.with_columns(pl.Series("dd_margin", margins, dtype=pl.Int16),
                                  pl.Series("dd_nat", nat, dtype=pl.Boolean),
                                  pl.Series("dd_kraak_wins", kraak_wins, dtype=pl.Boolean),
                                  *lost_columns(deals, lost))

    def end_bonus(self, state) -> np.ndarray:
        """The declaring team's margin from hand roem and stuk, by which teams took a trick."""
        end = np.zeros(4, dtype=np.int64)
        _play.hand_roem_end_bonus(np.asarray(state.dealt, dtype=np.int64), state.trump,
                                  state.declarer, state.game.tables, np.zeros(2, dtype=np.int64),
                                  np.zeros(K.AWARD_SIZE, dtype=np.int64), end)
        return end

    def end_bonuses(self, game, hands, trumps, declarers, out) -> None:
        _play.hand_roem_end_bonuses(hands, trumps, declarers, game.tables, out)

    def roem(self, state, finished_st) -> tuple[int, int]:
        """Table roem and pit bonus, plus the hand roem and stuk awarded."""
        out = np.zeros(K.AWARD_SIZE, dtype=np.int64)
        tricks = np.array([finished_st[klaverjas_family.S_TRICKS],
                           finished_st[klaverjas_family.S_TRICKS + 1]], dtype=np.int64)
        K.award_hand_roem(np.asarray(state.dealt, dtype=np.int64), state.trump, tricks,
                          state.game.tables, out)
        return tuple(int(finished_st[klaverjas_family.S_ROEM + t] + out[K.A_HAND + t] + out[K.A_STUK + t])
                     for t in range(2))


SOLVER = KrakenSolver()
