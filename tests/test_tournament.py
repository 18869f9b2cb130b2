"""Bot tournaments (simcards/tournament.py): seat rotation over the same deals, ratings,
placing counts with intervals, partnership games."""

import polars as pl
import pytest

import simcards
from simcards.tournament import tournament

ENTRANTS = {
    "default": "heuristic",
    "no-moon": {"kind": "heuristic", "params": {"moon_threshold": 99}},
    "random-a": "random",
    "random-b": "random",
}


@pytest.fixture(scope="module")
def result():
    return tournament("hearts", ENTRANTS, n_games=40, seed=3)


def test_rotations_replay_the_same_deals(result):
    games = result.games
    assert games.height == 160
    assert games["rotation"].to_list() == [0, 1, 2, 3] * 40
    # every entrant sits at every seat once per game
    for g in range(40):
        rows = games.filter(pl.col("match_index") == g)
        for s in range(4):
            assert sorted(rows[f"entrant_{s}"].to_list()) == sorted(ENTRANTS)
    # rotation r of game g is the run of match g with the bots shifted: same first deal
    game = simcards.load("hearts")
    first = []
    for r in range(4):
        seated = [list(ENTRANTS)[(s + r) % 4] for s in range(4)]
        deals = game.simulate(1, seed=3, bots=[ENTRANTS[n] for n in seated])
        first.append(deals.row(0, named=True)["hand_0"])
        row = games.filter((pl.col("match_index") == 0) & (pl.col("rotation") == r)).row(0, named=True)
        assert [row[f"entrant_{s}"] for s in range(4)] == seated
    assert len(set(first)) == 1


def test_ratings_and_placings(result):
    ratings = result.ratings
    assert ratings.height == 4 and set(ratings["games"].to_list()) == {160}
    top = ratings["entrant"].to_list()[:2]
    assert set(top) == {"default", "no-moon"}
    assert ratings["rating"].sum() == pytest.approx(6000, abs=200)  # clamping breaks exact zero-sum
    placings = result.placings
    assert placings.height == 16
    for name in ENTRANTS:
        mine = placings.filter(pl.col("entrant") == name)
        assert mine["n"].to_list() == [160] * 4
        assert (mine["lo"] <= mine["rate"]).all() and (mine["rate"] <= mine["hi"]).all()
    hist = result.history
    assert hist.height == 160 * 4
    last = hist.filter(pl.col("game") == 159).sort("entrant")
    want = ratings.sort("entrant")["rating"].to_list()
    assert last["rating"].to_list() == pytest.approx(want)


def test_reproducible():
    a = tournament("hartenjagen", list(ENTRANTS.values()), n_games=5, seed=8)
    b = tournament("hartenjagen", list(ENTRANTS.values()), n_games=5, seed=8)
    assert a.ratings.equals(b.ratings)
    assert "random#2" in a.ratings["entrant"].to_list()


def test_partnership_game_places_teams_alike():
    res = tournament("klaverjas-rotterdam", ["heuristic", "random", "heuristic", "random"],
                     n_games=6, seed=1, deals_per_game=4)
    for row in res.games.iter_rows(named=True):
        assert row["place_0"] == row["place_2"] and row["place_1"] == row["place_3"]
    frames = simcards.load("klaverjas-rotterdam").simulate_chunk(8, seed=1)
    places = simcards.load("klaverjas-rotterdam").placings(frames, 2, 4)
    assert places.shape == (2, 4)


def test_more_than_four_entrants_play_every_table():
    res = tournament("hearts", ["heuristic", "random", "heuristic", "random", "heuristic"],
                     n_games=2, seed=1)
    assert res.games["table"].n_unique() == 5
    assert res.ratings["games"].to_list() == [32] * 5


def test_errors_are_clear():
    with pytest.raises(ValueError, match="at least 4"):
        tournament("hearts", ["heuristic"] * 3, n_games=1)
    with pytest.raises(ValueError, match="entrant 'x'.*kind"):
        tournament("hearts", {"x": "clever", "a": "random", "b": "random", "c": "random"}, n_games=1)
    with pytest.raises(ValueError, match="n_games"):
        tournament("hearts", ENTRANTS, n_games=0)
