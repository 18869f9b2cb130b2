"""Four-player (any-player) Elo rating, as docs/rules.md, "Rating" reads the Hartenjagen source.

For the players of one game with ratings R and placings (1 = best, equal placings = level):

    E_ij    = 1 / (1 + 10 ** ((R_j - R_i) / 400))        expected score of i against j
    S_ij    = 1 if i placed above j, 0.5 if level, 0 if below
    d_i     = K * mean over j != i of (S_ij - E_ij)       K = 32
    delta_i = sign(d_i) * min(max(|d_i|, 1), 32)          (0 stays 0, float noise included)

A non-zero change is at least 1 and at most 32 in magnitude; exact values are kept (only the
display rounds). Without the clamp the changes of a game sum to zero (S_ij + S_ji = 1 and
E_ij + E_ji = 1). Team games place both players of a team alike. New players start at 1500.

    >>> elo_deltas([1800, 1800, 1400, 1800], [1, 2, 3, 4]).round(2).tolist()
    [11.64, 1.0, 7.76, -20.36]

The 1400 player placed third among three 1800s gains 7.76, more than the second (raw 0.97,
clamped up to 1). `elo_update` returns the new ratings instead of the changes.

Use `elo_deltas` / `elo_update` for one game, `Ratings` for a running table over many games.
Nothing here imports the game kernels.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np

from simcards.errors import UserError

K_FACTOR = 32.0
MIN_CHANGE = 1.0
MAX_CHANGE = 32.0
START_RATING = 1500.0
ZERO_CHANGE = 1e-9  # a raw change this small is rounding noise of an exact 0 (E_ij + E_ji = 1)


def expected(r_i: float, r_j: float) -> float:
    """Expected score of a player rated ``r_i`` against one rated ``r_j``."""
    return 1.0 / (1.0 + 10.0 ** ((r_j - r_i) / 400.0))


def clamp_change(d: float, low: float = MIN_CHANGE, high: float = MAX_CHANGE) -> float:
    """The magnitude of a non-zero change clamped to [low, high], the sign kept; 0 stays 0
    (as does float noise below ``ZERO_CHANGE``, so a balanced change is not clamped up to 1)."""
    if abs(d) < ZERO_CHANGE:
        return 0.0
    return float(np.sign(d) * min(max(abs(d), low), high))


def _check(ratings, placings) -> tuple[np.ndarray, np.ndarray]:
    r = np.asarray(ratings, dtype=np.float64)
    p = np.asarray(placings)
    if r.ndim != 1 or r.size < 2:
        raise UserError(f"ratings = {ratings!r} is not allowed; use one rating per player "
                         "(at least two)")
    if p.shape != r.shape:
        raise UserError(f"placings = {placings!r} is not allowed; use one placing per player "
                         f"({r.size}), 1 = best")
    if not np.all(np.isfinite(r)):
        raise UserError(f"ratings = {ratings!r} is not allowed; ratings must be finite numbers")
    return r, p.astype(np.float64)


def elo_deltas(ratings: Sequence[float], placings: Sequence[int], k: float = K_FACTOR,
               clamp: bool = True) -> np.ndarray:
    """Rating changes of the players of one game (see the module docstring).

    ``ratings``: each player's rating before the game; ``placings``: each player's placing,
    1 = best; equal placings are level (a team's players share theirs). ``clamp=False`` gives
    the raw, zero-sum changes."""
    r, p = _check(ratings, placings)
    n = r.size
    e = 1.0 / (1.0 + 10.0 ** ((r[None, :] - r[:, None]) / 400.0))  # e[i, j] = E_ij
    s = np.where(p[:, None] < p[None, :], 1.0, np.where(p[:, None] == p[None, :], 0.5, 0.0))
    diff = s - e
    np.fill_diagonal(diff, 0.0)
    d = k * diff.sum(axis=1) / (n - 1)
    if clamp:
        d = np.array([clamp_change(x) for x in d])
    return d


def elo_deltas_batch(ratings: np.ndarray, placings: np.ndarray, k: float = K_FACTOR) -> np.ndarray:
    """`elo_deltas` (clamped) of many games at once: ``ratings`` and ``placings`` [games,
    players] -> changes [games, players]. For bootstrap replicas of a tournament."""
    r = np.asarray(ratings, dtype=np.float64)
    p = np.asarray(placings, dtype=np.float64)
    n = r.shape[1]
    e = 1.0 / (1.0 + 10.0 ** ((r[:, None, :] - r[:, :, None]) / 400.0))
    s = np.where(p[:, :, None] < p[:, None, :], 1.0, np.where(p[:, :, None] == p[:, None, :], 0.5, 0.0))
    diff = s - e
    diff[:, np.arange(n), np.arange(n)] = 0.0
    d = k * diff.sum(axis=2) / (n - 1)
    out = np.sign(d) * np.clip(np.abs(d), MIN_CHANGE, MAX_CHANGE)
    out[np.abs(d) < ZERO_CHANGE] = 0.0
    return out


def elo_update(ratings: Sequence[float], placings: Sequence[int], k: float = K_FACTOR) -> np.ndarray:
    """New ratings after one game: ``ratings + elo_deltas(ratings, placings)``."""
    r, _ = _check(ratings, placings)
    return r + elo_deltas(r, placings, k)


def team_placings(team_places: Sequence[int], teams: Sequence[int]) -> list[int]:
    """Per-player placings from per-team placings: player i gets ``team_places[teams[i]]``
    (e.g. Klaverjassen seats 0..3 with ``teams = [0, 1, 0, 1]``)."""
    return [int(team_places[t]) for t in teams]


class Ratings:
    """A rating table over many games.

    >>> table = Ratings()
    >>> table.update(["a", "b", "c", "d"], [1, 2, 3, 4]).round(2).tolist()
    [16.0, 5.33, -5.33, -16.0]
    >>> table["a"], table.games["a"], len(table.history)
    (1516.0, 1, 4)

    Players are any hashable names; unknown players start at ``start`` (1500). ``history``
    keeps one (game number, player, rating after, change) tuple per player and game.
    """

    def __init__(self, start: float = START_RATING, k: float = K_FACTOR):
        self.start = float(start)
        self.k = float(k)
        self.ratings: dict[Hashable, float] = {}
        self.games: dict[Hashable, int] = {}
        self.n_games = 0
        self.history: list[tuple[int, Hashable, float, float]] = []

    def __getitem__(self, player: Hashable) -> float:
        return self.ratings.get(player, self.start)

    def __contains__(self, player: Hashable) -> bool:
        return player in self.ratings

    def add(self, player: Hashable, rating: float | None = None) -> None:
        """Enter a player (at ``start`` unless a rating is given)."""
        self.ratings[player] = self.start if rating is None else float(rating)
        self.games.setdefault(player, 0)

    def update(self, players: Sequence[Hashable], placings: Sequence[int]) -> np.ndarray:
        """Rate one game: the players and their placings (1 = best). Returns the changes."""
        if len(set(players)) != len(players):
            raise UserError(f"players = {list(players)!r}: a player appears twice in one game")
        for player in players:
            if player not in self.ratings:
                self.add(player)
        before = np.array([self.ratings[p] for p in players])
        deltas = elo_deltas(before, placings, self.k)
        for player, rating, delta in zip(players, before, deltas):
            self.ratings[player] = float(rating + delta)
            self.games[player] += 1
            self.history.append((self.n_games, player, self.ratings[player], float(delta)))
        self.n_games += 1
        return deltas

    def table(self):
        """A polars DataFrame: player, rating (exact), games; best first."""
        import polars as pl

        rows = sorted(self.ratings.items(), key=lambda kv: -kv[1])
        return pl.DataFrame({
            "player": [str(p) for p, _ in rows],
            "rating": [float(r) for _, r in rows],
            "games": [self.games[p] for p, _ in rows],
        }, schema={"player": pl.String, "rating": pl.Float64, "games": pl.Int64})

    def history_frame(self):
        """A polars DataFrame of the rating after every game: game, player, rating, change."""
        import polars as pl

        return pl.DataFrame({
            "game": [h[0] for h in self.history],
            "player": [str(h[1]) for h in self.history],
            "rating": [h[2] for h in self.history],
            "change": [h[3] for h in self.history],
        }, schema={"game": pl.Int64, "player": pl.String, "rating": pl.Float64,
                   "change": pl.Float64})
