"""The four-player Elo of docs/rules.md, "Rating", against the source's worked situations."""

import doctest

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import simcards.rating as rating
from simcards.rating import Ratings, elo_deltas, elo_update, expected, team_placings


def test_docstring_examples():
    assert doctest.testmod(rating).failed == 0


def test_expected_is_symmetric():
    assert expected(1500, 1500) == 0.5
    assert expected(1800, 1400) + expected(1400, 1800) == pytest.approx(1.0)
    assert expected(1400, 1800) == pytest.approx(1 / 11)


def test_lower_rated_winner_gains_and_higher_rated_runner_up_loses():
    # the source's game: player 1 is rated below player 2 and beats him
    d = elo_deltas([1452, 1600, 1300, 1700], [1, 2, 3, 4])
    assert d[0] > 0
    # player 2 loses rating although placed 2nd: he lost to a much lower rated player
    d2 = elo_deltas([1400, 1800, 1300, 1500], [1, 2, 3, 4])
    assert d2[1] < 0
    # player 3, rated far below everyone, beats player 4 and gains
    assert d2[2] > 0


def test_third_among_three_much_higher_players_gains_more_than_second():
    d = elo_deltas([1800, 1800, 1400, 1800], [1, 2, 3, 4])
    assert d[2] > 0
    assert d[2] > d[1]
    assert d[2] == pytest.approx(32 * (1 - 3 / 11) / 3)
    # the second's raw change (0.97) is clamped up to 1
    raw = elo_deltas([1800, 1800, 1400, 1800], [1, 2, 3, 4], clamp=False)
    assert 0 < raw[1] < 1 and d[1] == 1.0


@given(st.lists(st.floats(800, 2400), min_size=4, max_size=4),
       st.lists(st.integers(1, 4), min_size=4, max_size=4))
def test_changes_within_1_and_32_and_zero_sum_without_clamp(ratings, places):
    d = elo_deltas(ratings, places)
    for x in d:
        assert x == 0 or 1 <= abs(x) <= 32
    raw = elo_deltas(ratings, places, clamp=False)
    assert raw.sum() == pytest.approx(0, abs=1e-9)
    if all(x == 0 or 1 <= abs(x) <= 32 for x in raw):
        assert d.sum() == pytest.approx(0, abs=1e-9)


def test_equal_ratings_equal_changes_by_place():
    d = elo_deltas([1500] * 4, [1, 2, 3, 4])
    assert d.tolist() == pytest.approx([16, 16 / 3, -16 / 3, -16])
    assert d.sum() == pytest.approx(0)


def test_level_players_with_equal_ratings_do_not_move():
    assert elo_deltas([1500] * 4, [1, 1, 1, 1]).tolist() == [0, 0, 0, 0]


def test_a_change_that_is_zero_stays_zero_despite_rounding_noise():
    # a draw (everybody level): the 1500 players face one player 100 above and one 100 below,
    # so their expected and actual scores balance exactly; float noise (about 1e-16) must not
    # be clamped up to a change of 1
    d = elo_deltas([1500, 1600, 1400, 1500], [1, 1, 1, 1])
    assert d[0] == 0 and d[3] == 0
    assert d[1] < -1 and d[2] > 1
    table = Ratings()
    for name, r in zip("abcd", [1500, 1600, 1400, 1500]):
        table.add(name, r)
    table.update(list("abcd"), [1, 1, 1, 1])
    assert table["a"] == 1500 and table["d"] == 1500


def test_teams_placed_alike():
    places = team_placings([1, 2], [0, 1, 0, 1])
    assert places == [1, 2, 1, 2]
    d = elo_deltas([1500] * 4, places)
    assert d[0] == d[2] > 0 > d[1] == d[3]


def test_update_returns_new_ratings_and_exact_values_kept():
    new = elo_update([1800, 1800, 1400, 1800], [1, 2, 3, 4])
    assert new[2] == pytest.approx(1400 + 32 * (1 - 3 / 11) / 3)
    assert new[2] != round(new[2])


def test_ratings_table_over_games():
    table = Ratings()
    assert table["new"] == 1500
    table.update(["a", "b", "c", "d"], [1, 2, 3, 4])
    table.update(["a", "b", "c", "d"], [1, 2, 3, 4])
    assert table["a"] > table["b"] > table["c"] > table["d"]
    assert sum(table.ratings.values()) == pytest.approx(6000)
    frame = table.table()
    assert frame["player"].to_list() == ["a", "b", "c", "d"]
    assert frame["games"].to_list() == [2, 2, 2, 2]
    hist = table.history_frame()
    assert hist.height == 8 and hist["game"].max() == 1


def test_bad_input_is_a_clear_error():
    with pytest.raises(ValueError, match="placings"):
        elo_deltas([1500, 1500], [1])
    with pytest.raises(ValueError, match="appears twice"):
        Ratings().update(["a", "a", "b", "c"], [1, 2, 3, 4])
    with pytest.raises(ValueError, match="ratings"):
        elo_deltas([1500], [1])


def test_matches_a_naive_loop():
    rng = np.random.default_rng(3)
    for _ in range(200):
        r = rng.uniform(1000, 2000, 4)
        p = rng.integers(1, 5, 4)
        want = []
        for i in range(4):
            acc = 0.0
            for j in range(4):
                if i != j:
                    s = 1.0 if p[i] < p[j] else 0.5 if p[i] == p[j] else 0.0
                    acc += s - 1 / (1 + 10 ** ((r[j] - r[i]) / 400))
            d = 32 * acc / 3
            want.append(0.0 if d == 0 else np.sign(d) * min(max(abs(d), 1), 32))
        assert elo_deltas(r, p) == pytest.approx(want)
