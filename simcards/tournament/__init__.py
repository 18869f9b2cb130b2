"""Bot tournaments for any ruleset: the same deals replayed with the seats rotated, rated with
the multi-player Elo of `simcards.rating`.

    from simcards.tournament import tournament
    result = tournament("hearts", {"cautious": {"kind": "heuristic", "params": {"moon_threshold": 99}},
                                   "bold": {"kind": "heuristic", "params": {"moon_threshold": 20}},
                                   "default": "heuristic", "random": "random"},
                        n_games=500, seed=1)
    result.ratings      # rating table
    result.history      # rating after every game (for the rating-over-games chart)
    result.placings     # placing counts with 95% Wilson intervals

How a tournament is played. Game ``g`` (match index ``start + g``) is played ``n_seats`` times,
once per rotation ``r``: seat ``s`` is taken by table entrant ``(s + r) % n_seats``. Every rotation
simulates the same match indices with the same seed, so the cards of deal ``k`` of game ``g``
are the same in every rotation (the later deals of a game may differ in how the game went).
Ratings are updated after every played game in the order (game, rotation). The cyclic rotation
keeps partners of a fixed partnership together throughout (entrants ``i`` and ``i + 2`` in a
four-seat partnership game), and partners share their team's placing.

With more entrants than seats, every combination of ``n_seats`` (in the given order) plays
``n_games`` games with the seats rotated as above.

Placings come from the game (`Game.placings`): for deal-unit rulesets ``deals_per_game``
consecutive deals form one game.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import polars as pl

from simcards.stats import wilson
from simcards.errors import UserError, check_count
from simcards.games import load
from simcards.games.protocol import Game
from simcards.rating import START_RATING, Ratings, elo_deltas_batch
from simcards.stats import Z95


@dataclass
class TournamentResult:
    """What `tournament` returns.

    - ``ratings``: one row per entrant, best first: ``entrant``, ``rating`` (exact),
      ``games``, ``mean_place``, ``wins`` (games placed first, shared firsts included).
    - ``history``: one row per entrant and rated game: ``game`` (0, 1, ... in play order),
      ``entrant``, ``rating`` after that game, ``change``. Plot rating against game.
    - ``placings``: one row per entrant and placing 1..n_seats: ``entrant``, ``place``, ``count``,
      ``n`` (games of the entrant), ``rate``, and the 95% Wilson interval ``lo``, ``hi``.
    - ``games``: one row per rated game: ``game``, ``table`` (index of the four-entrant
      combination), ``match_index``, ``rotation``, ``entrant_0..`` (who sat at each seat) and
      ``place_0..``.
    - ``table``: the `simcards.rating.Ratings` object, to continue rating elsewhere.
    - ``ratings`` also carries ``rating_lo``/``rating_hi`` (a 95% bootstrap interval over
      games, `rating_intervals`) and ``rank``: 1 + the number of entrants rated better beyond
      chance, so entrants whose difference is within the intervals share a rank ("2=").
    - ``pairwise``: every pair of entrants that met, with the mean placing difference (A - B,
      negative: A placed better) over the games both played, its 95% interval and whether it
      is significant (`pairwise_placings`).
    """

    ratings: pl.DataFrame
    history: pl.DataFrame
    placings: pl.DataFrame
    games: pl.DataFrame
    table: Ratings = field(repr=False)
    pairwise: pl.DataFrame | None = None


def _entrant_list(entrants: Any) -> list[tuple[str, Any]]:
    if isinstance(entrants, dict):
        items = [(str(name), spec) for name, spec in entrants.items()]
    elif isinstance(entrants, (list, tuple)):
        items, seen = [], {}
        for spec in entrants:
            if isinstance(spec, (tuple, list)) and len(spec) == 2 and isinstance(spec[0], str):
                items.append((spec[0], spec[1]))
                continue
            base = spec if isinstance(spec, str) else (
                spec.get("kind", "bot") if isinstance(spec, dict) else "bot")
            seen[base] = seen.get(base, 0) + 1
            items.append((f"{base}#{seen[base]}" if seen[base] > 1 else str(base), spec))
    else:
        raise UserError(f"entrants = {entrants!r} is not allowed; use a table of name = bot "
                         "spec, or a list of bot specs")
    names = [n for n, _ in items]
    if len(set(names)) != len(names):
        raise UserError(f"entrants: the names {names!r} are not unique")
    return items


def tournament(ruleset: str | Game, entrants: Any, n_games: int, seed: int = 0,
               options: dict | None = None, start: int = 0,
               deals_per_game: int | None = None, start_rating: float = START_RATING,
               rotate: bool = True) -> TournamentResult:
    """Play a bot tournament and rate it.

    Parameters
    - ``ruleset``: a ruleset name (see `simcards.rulesets()`) or a loaded game; ``options`` are
      its rule options.
    - ``entrants``: ``{name: bot spec}`` (a spec as in configs: ``"heuristic"``, or
      ``{"kind": "heuristic", "params": {...}}``), or a list of specs (named after their kind,
      ``heuristic#2`` for a repeat). At least as many as the game has seats.
    - ``n_games``: games per four-entrant table *before* rotation; each is played once per
      rotation (``n_seats`` times), so each table rates ``n_seats * n_games`` games.
    - ``seed``, ``start``: the run seed and first match index; the same arguments always give
      the same tournament.
    - ``deals_per_game``: for deal-unit rulesets (Klaverjassen), deals that form one game
      (default: the ruleset's ``deals_per_match`` option, else its ``deals_per_game``).
    - ``rotate``: False plays only rotation 0 (each entrant keeps its seat).

    Returns a `TournamentResult` (rating table, rating history, placing counts with 95% Wilson
    intervals, and the per-game seatings and placings).
    """
    game = ruleset if isinstance(ruleset, Game) else load(ruleset, **(options or {}))
    n_seats = game.n_seats
    n_games = check_count("n_games", n_games, 1)
    seed, start = check_count("seed", seed), check_count("start", start)
    items = _entrant_list(entrants)
    if len(items) < n_seats:
        raise UserError(f"entrants: {len(items)} given; a {game.name} tournament needs at least "
                        f"{n_seats}")
    for name, spec in items:  # validate every spec once, naming the entrant
        try:
            game.resolve_bots(spec)
        except ValueError as err:
            raise UserError(f"entrant {name!r}: {err}") from None
    if game.unit == "match":
        dpg = 1
    else:
        dpg = deals_per_game or int(game.options.get("deals_per_match", game.deals_per_game))
        dpg = check_count("deals_per_game", dpg, 1)

    table = Ratings(start=start_rating)
    for name, _ in items:
        table.add(name)
    rows = []
    counter = 0
    rotations = range(n_seats) if rotate else range(1)
    seats = range(n_seats)
    for t, combo in enumerate(itertools.combinations(range(len(items)), n_seats)):
        seat_places = {}
        for r in rotations:
            seated = [combo[(s + r) % n_seats] for s in seats]
            bots = [items[i][1] for i in seated]
            frames = game.simulate_chunk(n_games * dpg, seed=seed, bots=bots, start=start * dpg) \
                if game.unit != "match" else game.simulate_chunk(n_games, seed=seed, bots=bots,
                                                                 start=start)
            seat_places[r] = (seated, np.asarray(game.placings(frames, n_games, dpg), dtype=np.int64))
        for g in range(n_games):
            for r in rotations:
                seated, places = seat_places[r]
                names = [items[i][0] for i in seated]
                table.update(names, places[g].tolist())
                rows.append({"game": counter, "table": t, "match_index": start + g, "rotation": r,
                             **{f"entrant_{s}": names[s] for s in seats},
                             **{f"place_{s}": int(places[g][s]) for s in seats}})
                counter += 1
    games = pl.DataFrame(rows, schema={"game": pl.Int64, "table": pl.Int64, "match_index": pl.Int64,
                                       "rotation": pl.Int8,
                                       **{f"entrant_{s}": pl.String for s in seats},
                                       **{f"place_{s}": pl.Int8 for s in seats}})
    long = pl.concat([games.select(pl.col(f"entrant_{s}").alias("entrant"),
                                   pl.col(f"place_{s}").alias("place")) for s in seats])
    placing_rows = []
    for name, _ in items:
        mine = long.filter(pl.col("entrant") == name)["place"].to_numpy()
        n = int(mine.size)
        for place in range(1, n_seats + 1):
            count = int((mine == place).sum())
            lo, hi = wilson(count, n)
            placing_rows.append({"entrant": name, "place": place, "count": count, "n": n,
                                 "rate": count / n if n else 0.0, "lo": lo, "hi": hi})
    placings = pl.DataFrame(placing_rows, schema={
        "entrant": pl.String, "place": pl.Int8, "count": pl.Int64, "n": pl.Int64,
        "rate": pl.Float64, "lo": pl.Float64, "hi": pl.Float64})
    summary = long.group_by("entrant").agg(
        pl.col("place").cast(pl.Float64).mean().alias("mean_place"),
        (pl.col("place") == 1).sum().cast(pl.Int64).alias("wins"))
    ratings = (table.table().rename({"player": "entrant"})
               .join(summary, on="entrant", how="left")
               .sort("rating", descending=True))
    history = table.history_frame().rename({"player": "entrant"})
    ratings = rating_intervals(ratings, games, [name for name, _ in items], n_seats, start_rating,
                               seed=seed)
    pairwise = pairwise_placings(games, [name for name, _ in items], n_seats)
    return TournamentResult(pairwise=pairwise, ratings=ratings, history=history, placings=placings, games=games,
                            table=table)


def _units(games: pl.DataFrame) -> list[np.ndarray]:
    """Row numbers of ``games`` grouped by the deals they share ((table, match_index): all
    rotations of one game), in play order."""
    keyed = games.with_row_index("row").group_by("table", "match_index", maintain_order=True)
    return [np.asarray(g["row"].to_list()) for _, g in keyed]


def rating_intervals(ratings: pl.DataFrame, games: pl.DataFrame, names: list[str], n_seats: int,
                     start_rating: float = START_RATING, n_boot: int = 200,
                     seed: int = 0) -> pl.DataFrame:
    """``ratings`` with a 95% bootstrap interval of each final rating and a rank that shows
    ties. Each replica draws the tournament's games (every game with all its rotations)
    with replacement, in random order, and rates them afresh; the interval is the 2.5 and
    97.5 percentiles of the replicas' final ratings. An entrant's rank is 1 + the number of
    entrants whose rating exceeds its own in at least 97.5% of the replicas. Seeded by
    ``seed``: the same tournament gives the same intervals."""
    units = _units(games)
    index = {n: i for i, n in enumerate(names)}
    who = games.select([f"entrant_{s}" for s in range(n_seats)]).to_numpy()
    seat_idx = np.vectorize(index.__getitem__)(who) if who.size else np.zeros((0, n_seats), int)
    places = games.select([f"place_{s}" for s in range(n_seats)]).to_numpy().astype(np.float64)
    rng = np.random.default_rng([int(seed), 0x5EA7])
    picks = [np.concatenate([units[j] for j in rng.integers(0, len(units), len(units))])
             for _ in range(n_boot)] if units else []
    length = max((len(p) for p in picks), default=0)
    final = np.full((n_boot, len(names)), float(start_rating))
    rows_b = np.arange(n_boot)
    for t in range(length):
        live = np.array([t < len(p) for p in picks])
        rows = np.array([p[t] if t < len(p) else 0 for p in picks])
        idx = seat_idx[rows]
        r = final[rows_b[:, None], idx]
        d = elo_deltas_batch(r, places[rows]) * live[:, None]
        np.add.at(final, (np.repeat(rows_b, n_seats), idx.ravel()), d.ravel())
    lo, hi = np.percentile(final, 2.5, axis=0), np.percentile(final, 97.5, axis=0)
    better = (final[:, :, None] > final[:, None, :]).mean(axis=0)  # [i, j]: i above j
    rank = {n: 1 + int(sum(better[j, i] >= 0.975 for j in range(len(names)) if j != i))
            for i, n in enumerate(names)}
    shared = {r: list(rank.values()).count(r) for r in rank.values()}
    frame = pl.DataFrame({"entrant": names, "rating_lo": lo, "rating_hi": hi,
                          "rank": [f"{rank[n]}{'=' if shared[rank[n]] > 1 else ''}" for n in names],
                          "_rank": [rank[n] for n in names]})
    out = ratings.join(frame, on="entrant", how="left").sort(["_rank", "rating"],
                                                             descending=[False, True]).drop("_rank")
    return out.select("rank", "entrant", "rating", "rating_lo", "rating_hi",
                      *[c for c in out.columns if c not in ("rank", "entrant", "rating", "rating_lo",
                                                            "rating_hi")])


def pairwise_placings(games: pl.DataFrame, names: list[str], n_seats: int) -> pl.DataFrame:
    """For every pair of entrants that sat at one table: the mean placing difference A - B
    (negative: A placed better) over the games both played, with a 95% interval from the
    standard error over the games' deals (each game's rotations averaged first, since they
    share the cards), and whether it is significant."""
    who = games.select([f"entrant_{s}" for s in range(n_seats)]).to_numpy()
    places = games.select([f"place_{s}" for s in range(n_seats)]).to_numpy().astype(np.float64)
    units = _units(games)
    rows = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            diffs = []
            for unit in units:
                sa, sb = who[unit] == a, who[unit] == b
                both = sa.any(axis=1) & sb.any(axis=1)
                if both.any():
                    pa = (places[unit] * sa).sum(axis=1)[both]
                    pb = (places[unit] * sb).sum(axis=1)[both]
                    diffs.append(float(np.mean(pa - pb)))
            if not diffs:
                continue
            d = np.asarray(diffs)
            mean = float(d.mean())
            se = float(d.std(ddof=1) / np.sqrt(d.size)) if d.size > 1 else float("nan")
            lo, hi = mean - Z95 * se, mean + Z95 * se
            rows.append({"entrant_a": a, "entrant_b": b, "games": int(d.size),
                         "placing_diff_mean": mean, "placing_diff_se": se,
                         "placing_diff_lo": lo, "placing_diff_hi": hi,
                         "significant": bool(lo > 0 or hi < 0),
                         "verdict": (f"{a} places better than {b}" if hi < 0 else
                                     f"{b} places better than {a}" if lo > 0 else
                                     f"{a} and {b}: no significant difference")})
    return pl.DataFrame(rows, schema={"entrant_a": pl.String, "entrant_b": pl.String,
                                      "games": pl.Int64, "placing_diff_mean": pl.Float64,
                                      "placing_diff_se": pl.Float64, "placing_diff_lo": pl.Float64,
                                      "placing_diff_hi": pl.Float64, "significant": pl.Boolean,
                                      "verdict": pl.String})
