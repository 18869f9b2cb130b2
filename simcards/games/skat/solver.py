"""Perfect play for Skat: `solve(state)`, the exact double-dummy solver.

All three hands are known. From any point of the card play (a trick may be part-played) the
declarer plays against the two defenders, who play together; `solve` finds:
- suit and Grand games: the declarer's final card points under perfect play (the tricks
  already taken and the two cards of the Skat included, 0..120), and from them whether he
  wins the game's card play (61 points, 90 when Schneider was announced or the bid needs
  the Schneider level, every trick when Schwarz was announced or the bid needs it: the
  settlement of `_kernels.settle_into` decides), Schneider (90 or more) and the defenders'
  Schneider (30 or fewer). Schwarz counts tricks, not points: two separate trick searches
  answer "can the declarer take every trick" and "can the defenders keep him from taking any";
- Null games: can the declarer take no trick;
- the best cards for the seat to move, and with ``values=True`` the value of every legal
  card (final points; in Null 1 when the declarer then wins, else 0).

The search is in _solve_kernels.py; this module wraps it for Python callers and adds the
``double_dummy`` columns of a run.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import polars as pl

from simcards.errors import UserError
from simcards.games import protocol
from simcards.games.protocol import PerfectPlayJudge, solver_bench_figures
from simcards.games.skat.columns import DOUBLE_DUMMY_COLUMNS
from simcards.games.skat import _kernels as K
from simcards.games.skat import _solve_kernels as SK
from simcards.games.skat.rules import N_TRICKS, NULL, PASSED


@dataclass(frozen=True)
class Solution:
    """What `solve` finds from a position under perfect play by all three seats.

    ``points``: the declarer's final card points, the Skat included (None in Null);
    ``wins``: he makes the game's card-play requirements (Null: he takes no trick);
    ``schneider`` / ``defenders_schneider``: he ends with 90 or more / 30 or fewer points;
    ``schwarz``: he can take every trick; ``defenders_schwarz``: the defenders can keep him
    from taking any (these four are None in Null); ``best``: the cards of the seat to move
    that keep the value (points, in Null the win or loss); ``values``: with ``values=True``
    the value after each legal card (final points, in Null 1 = the declarer wins);
    ``nodes``: positions searched."""

    points: int | None
    wins: bool
    schneider: bool | None
    defenders_schneider: bool | None
    schwarz: bool | None
    defenders_schwarz: bool | None
    best: tuple[str, ...]
    values: dict[str, int] | None
    nodes: int


class Solver:
    """A reusable solver (context, transposition table, frames) for one Skat game's rules."""

    def __init__(self, game, tt_bits: int = SK.TT_BITS):
        self.game = game
        self.tables = game.tables
        self.ctx, self.tt, self.frames = SK.new_context(tt_bits)
        self._res = np.zeros(K.N_SETTLE, dtype=np.int64)

    def _start(self, state) -> np.ndarray:
        if state.is_over:
            raise UserError("solve: the deal is over; there is nothing left to play")
        st = state._st
        SK.start_solve(st, self.tables, self.ctx, self.tt, self.frames)
        return st

    def _at_least(self, mode, declarer_max, b, only=SK.ALL_CARDS) -> bool:
        return bool(SK.at_least(self.ctx, self.tt, self.tables, self.frames, mode, declarer_max,
                                b, np.int64(only)))

    def _threshold(self, st) -> int:
        return int(SK.win_threshold(st[K.S_CARDS12], st[K.S_CONTRACT], st[K.S_BID],
                                    st[K.S_HAND_GAME], st[K.S_SCHNEIDER_ANN], st[K.S_SCHWARZ_ANN],
                                    st[K.S_OUVERT], self.tables, self._res))

    def points(self, state) -> int:
        """The declarer's final card points under perfect play (suit and Grand games)."""
        st = self._start(state)
        if st[K.S_CONTRACT] == NULL:
            raise UserError("solve: a Null game is won or lost, it has no points to solve")
        taken = int(SK.taken_so_far(st, self.tables, SK.MODE_POINTS))
        return taken + int(SK.value_search(self.ctx, self.tt, self.tables, self.frames,
                                           SK.MODE_POINTS, 1, 61 - taken, SK.ALL_CARDS))

    def wins(self, state) -> bool:
        """Does the declarer make the game's card-play requirements under perfect play? One
        null-window test at the threshold (Null: one trick search)."""
        st = self._start(state)
        if st[K.S_CONTRACT] == NULL:
            return not self._at_least(SK.MODE_TRICKS, 0, 1)
        need = self._threshold(st)
        if need == SK.NEVER:
            return False
        if need == SK.SCHWARZ:
            return self._takes_every_trick(st)
        taken = int(SK.taken_so_far(st, self.tables, SK.MODE_POINTS))
        return self._at_least(SK.MODE_POINTS, 1, need - taken)

    def _takes_every_trick(self, st) -> bool:
        tricks_left = N_TRICKS - int(st[K.S_TRICK_NO])
        return (int(SK.taken_so_far(st, self.tables, SK.MODE_TRICKS)) == st[K.S_TRICK_NO]
                and self._at_least(SK.MODE_TRICKS, 1, tricks_left))

    def best(self, state) -> tuple[str, ...]:
        """The cards of the seat to move that keep the perfect-play value (suit and Grand: the
        declarer's final points; Null: the win or loss); cheaper than `solve`, which also
        answers Schneider and Schwarz."""
        st = self._start(state)
        legal = int(K.legal_mask(st, self.tables))
        if st[K.S_CONTRACT] == NULL:
            return self._solve_null(st, legal, self._codes, False, 0).best
        ctx, tt, T, F = self.ctx, self.tt, self.tables, self.frames
        taken = int(SK.taken_so_far(st, T, SK.MODE_POINTS))
        future = int(SK.value_search(ctx, tt, T, F, SK.MODE_POINTS, 1, 61 - taken, SK.ALL_CARDS))
        return self._codes(int(SK.best_cards(ctx, tt, T, F, SK.MODE_POINTS, 1, future, np.int64(legal))))

    def _codes(self, mask: int) -> tuple[str, ...]:
        return tuple(self.game.deck.hand_codes(mask))

    def solve(self, state, values: bool = False) -> Solution:
        st = self._start(state)
        nodes0 = int(self.ctx[SK.X_NODES])
        legal = int(K.legal_mask(st, self.tables))
        deck = self.game.deck
        codes = lambda mask: tuple(deck.code(c) for c in range(32) if mask >> c & 1)
        if st[K.S_CONTRACT] == NULL:
            return self._solve_null(st, legal, codes, values, nodes0)
        ctx, tt, T, F = self.ctx, self.tt, self.tables, self.frames
        taken = int(SK.taken_so_far(st, T, SK.MODE_POINTS))
        future = int(SK.value_search(ctx, tt, T, F, SK.MODE_POINTS, 1, 61 - taken, SK.ALL_CARDS))
        best = int(SK.best_cards(ctx, tt, T, F, SK.MODE_POINTS, 1, future, np.int64(legal)))
        card_values = None
        if values:
            out = np.empty(32, dtype=np.int64)
            SK.card_values(ctx, tt, T, F, SK.MODE_POINTS, 1, future, np.int64(legal), out)
            card_values = {deck.code(c): taken + int(out[c]) for c in range(32) if legal >> c & 1}
        points = taken + future
        schwarz = self._takes_every_trick(st)
        defenders_schwarz = (int(SK.taken_so_far(st, T, SK.MODE_TRICKS)) == 0
                             and not self._at_least(SK.MODE_TRICKS, 1, 1))
        need = self._threshold(st)
        wins = schwarz if need == SK.SCHWARZ else need <= 120 and points >= need
        return Solution(points, bool(wins), points >= 90, points <= 30, bool(schwarz),
                        bool(defenders_schwarz), codes(best), card_values,
                        int(ctx[SK.X_NODES]) - nodes0)

    def _solve_null(self, st, legal, codes, values, nodes0) -> Solution:
        """Null: the declarer wins when he can take no trick. The value of a card is 1 when the
        declarer still wins after it; the best cards are those of the mover's best value."""
        wins = not self._at_least(SK.MODE_TRICKS, 0, 1)
        after = {}
        for card in range(32):
            if legal >> card & 1:
                after[card] = 0 if self._at_least(SK.MODE_TRICKS, 0, 1, np.int64(1) << card) else 1
        target = int(wins)  # the value perfect play keeps, whoever moves
        best = sum(1 << c for c, v in after.items() if v == target)
        deck = self.game.deck
        card_values = {deck.code(c): v for c, v in after.items()} if values else None
        return Solution(None, wins, None, None, None, None, codes(best), card_values,
                        int(self.ctx[SK.X_NODES]) - nodes0)


class LineJudge(PerfectPlayJudge):
    """The positions of one Skat game valued under perfect play, for ``simcards replay
    --perfect-play``: in suit and Grand games the declarer's final card points
    (`Solver.points`), in Null 1 while he still wins and 0 once he cannot (`Solver.wins`); for a
    finished game its result."""

    def __init__(self, game, state):
        self.solver = Solver(game)
        self.null = state.contract == NULL
        self.unit = ("the Null game (1: the declarer wins it, 0: he loses it)" if self.null
                     else "the declarer's card points")

    def value(self, state) -> int:
        if state.is_over:
            result = state.result()
            return int(result["won"]) if self.null else int(result["points_declarer"])
        return int(self.solver.wins(state)) if self.null else self.solver.points(state)

    def declaring(self, state) -> bool:
        return state.to_move == state.declarer

    def best(self, state) -> tuple[str, ...]:
        return self.solver.best(state)

    def findings(self, state) -> dict:
        s = self.solver.solve(state, values=True)
        best = {f"best cards for seat {state.to_move}": " ".join(s.best)}
        after = ", ".join(f"{c} {v}" for c, v in s.values.items())
        if self.null:
            return {"the declarer wins the Null game (takes no trick)": s.wins, **best,
                    "after each legal card (1: the declarer still wins)": after,
                    "positions searched": s.nodes}
        return {
            "the declarer's final card points (the Skat included)": s.points,
            "the declarer wins the game": s.wins,
            **best,
            "the declarer's final card points after each legal card": after,
            "Schneider (the declarer takes 90 or more)": s.schneider,
            "the declarer is Schneider (30 or fewer)": s.defenders_schneider,
            "Schwarz (the declarer takes every trick)": s.schwarz,
            "the declarer takes no trick": s.defenders_schwarz,
            "positions searched": s.nodes,
        }


def solve(state, *, values: bool = False, solver: Solver | None = None) -> Solution:
    """Solve the deal of a Skat ``state`` (from ``game.deal(...)``) from its current position.
    ``values=True`` also returns the value after every legal card."""
    solver = solver or Solver(state.game)
    return solver.solve(state, values=values)


# ---- the double_dummy columns of a run


def _games_matrix(deals: pl.DataFrame) -> np.ndarray:
    """`solve_games` input rows (G_* columns) of a frame of played games."""
    col = lambda name: deals[name].to_numpy().astype(np.int64)
    declarer = col("declarer")
    dealt = np.stack([col(f"hand_{s}") for s in range(3)], axis=1)
    skat, discard = col("skat"), col("discard")
    rows = np.arange(deals.height)
    cards12 = dealt[rows, declarer] | skat
    played = dealt.copy()
    played[rows, declarer] = cards12 & ~discard  # a Hand game's discard is the Skat itself
    games = np.zeros((deals.height, SK.N_GAME_COLUMNS), dtype=np.int64)
    games[:, SK.G_DEALER] = col("dealer")
    games[:, SK.G_DECLARER] = declarer
    games[:, SK.G_CONTRACT] = col("contract")
    games[:, SK.G_HAND:SK.G_HAND + 3] = played
    games[:, SK.G_DISCARD] = discard
    games[:, SK.G_CARDS12] = cards12
    games[:, SK.G_BID] = col("final_bid")
    games[:, SK.G_HAND_GAME] = col("hand_game")
    games[:, SK.G_SCHNEIDER_ANN] = col("schneider_announced")
    games[:, SK.G_SCHWARZ_ANN] = col("schwarz_announced")
    games[:, SK.G_OUVERT] = col("ouvert")
    return games


def perfect_play(game, deals: pl.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(points, wins, nodes) at the start of play of every row of a deals frame: the
    declarer's perfect-play card points (-1 in Null and for passed-in deals), 1 when perfect
    play makes the game's requirements (-1 passed in), positions searched."""
    points, wins, nodes, _ = _solve_rows(game, deals, None)
    return points, wins, nodes


def _solve_rows(game, deals: pl.DataFrame, traces: np.ndarray | None):
    """`perfect_play` and ``lost`` [rows, 2]: with ``traces`` (each row's cards in play order)
    the card points the declarer's play (0) and the defenders' play (1) gave away against
    perfect play from each position (_solve_lines.py); -1 without traces, in Null and in
    passed-in deals."""
    points = np.full(deals.height, -1, dtype=np.int64)
    wins = np.full(deals.height, -1, dtype=np.int64)
    nodes = np.zeros(deals.height, dtype=np.int64)
    lost = np.full((deals.height, 2), -1, dtype=np.int64)
    played = np.flatnonzero(deals["contract"].to_numpy() != PASSED)
    if played.size:
        games = _games_matrix(deals[played])
        p, w, n = (np.zeros(played.size, dtype=np.int64) for _ in range(3))
        if traces is None:
            SK.solve_games(games, game.tables, p, w, n)
        else:
            from simcards.games.skat._solve_lines import solve_lines

            line_lost = np.zeros((played.size, 2), dtype=np.int64)
            solve_lines(games, np.ascontiguousarray(traces[played], dtype=np.int64), game.tables,
                        p, w, n, line_lost)
            lost[played] = line_lost
        points[played], wins[played], nodes[played] = p, w, n
    return points, wins, nodes, lost


def with_perfect_play(game, deals: pl.DataFrame, traces: np.ndarray | None = None) -> pl.DataFrame:
    """``deals`` with the double_dummy columns (columns.py): dd_points (null in Null and
    passed-in deals) and dd_wins (null when passed in); with ``traces`` (each row's cards in
    play order) also dd_lost_declarer and dd_lost_defenders (null in Null and passed in)."""
    points, wins, _, lost = _solve_rows(game, deals, traces)
    points_s = pl.Series("dd_points", points, dtype=pl.Int16)
    wins_s = pl.Series("dd_wins", wins, dtype=pl.Int8)
    columns = [pl.when(points_s >= 0).then(points_s).otherwise(None).cast(pl.Int8).alias("dd_points"),
               pl.when(wins_s >= 0).then(wins_s == 1).otherwise(None).alias("dd_wins")]
    if traces is not None:  # Int16: the card moves of one side add up past 127 when both err
        for side, name in enumerate(("dd_lost_declarer", "dd_lost_defenders")):
            side_s = pl.Series(name, lost[:, side], dtype=pl.Int16)
            columns.append(pl.when(side_s >= 0).then(side_s).otherwise(None).alias(name))
    return deals.with_columns(*columns)


def bench(game, deals: int = 60, seed: int = 5, pimc_deals: int = 20) -> dict:
    """Solver figures of ``game`` on one core (process time): the median (with its 95%
    interval) and 95th percentile of a full-deal solve (the played games of a heuristic run,
    from the start of play: exact points and the win for suit and Grand, the win for Null),
    positions searched per second and their median, and pimc deals per second (every deal of
    a run, passed-in ones included) with one pimc seat at its default ``samples`` against two
    heuristic bots."""
    frame = game.simulate(deals, seed=seed)
    frame = frame.filter(pl.col("contract") != PASSED)
    perfect_play(game, frame.head(1))  # load the compiled kernels
    times, positions = [], []
    for k in range(frame.height):
        t0 = time.process_time()
        _, _, nodes = perfect_play(game, frame.slice(k, 1))
        times.append(time.process_time() - t0)
        positions.append(int(nodes[0]))
    pimc = ["pimc"] + ["heuristic"] * (game.n_seats - 1)
    game.simulate_chunk(1, seed=seed + 1, bots=pimc)  # load the compiled kernels
    t0 = time.process_time()
    game.simulate_chunk(pimc_deals, seed=seed + 1, bots=pimc)
    pimc_seconds = time.process_time() - t0
    return {"deals": frame.height, **solver_bench_figures(times, positions),
            "pimc_samples": int(dict((p[0], p[1]) for p in game.bots.params)["samples"]),
            "pimc_deals_per_s": round(pimc_deals / pimc_seconds, 3)}


class SkatSolver(protocol.Solver):
    """Skat's double-dummy solver as ``Game.solver`` (`simcards.games.protocol.Solver`)."""

    columns = DOUBLE_DUMMY_COLUMNS
    bench_deals = (20, 80)  # deals of the heuristic run whose played games the bench solves
    bench_pimc_deals = (5, 60)  # deals the bench's pimc run plays (quick, full)

    def solve(self, state, *, values: bool = False) -> Solution:
        return solve(state, values=values)

    def judge(self, state) -> LineJudge:
        return LineJudge(state.game, state)

    def bench(self, game, quick: bool = False) -> dict:
        """Solver figures for `simcards bench` (`bench` above)."""
        full = not quick
        return bench(game, deals=self.bench_deals[full], pimc_deals=self.bench_pimc_deals[full])

    def with_perfect_play(self, game, deals: pl.DataFrame, traces: np.ndarray) -> pl.DataFrame:
        return with_perfect_play(game, deals, traces)


SOLVER = SkatSolver()
