"""Skat statistics against direct counts on simulated data, the report end to end, tournament
placings from series of 36 deals, and the acceptance figures of the shipped bots."""

import numpy as np
import polars as pl
import pytest

import simcards
from simcards.games.skat import stats
from simcards.games.skat.game import seat_placings

GAME = simcards.load("skat", scoring="seeger-fabian")


@pytest.fixture(scope="module")
def deals():
    return GAME.simulate(20_000, seed=31, bots="heuristic")


def test_rates_count_the_deals(deals):
    games = deals.filter(pl.col("contract") >= 0)
    passed = stats.passed_in_rate(deals.lazy()).row(0, named=True)
    assert passed["n"] == deals.height and passed["hits"] == deals.height - games.height
    mix = stats.contract_mix(deals.lazy())
    assert mix["hits"].sum() == games.height and (mix["n"] == games.height).all()
    assert mix.filter(pl.col("contract") == "grand")["reference"][0] == 0.322
    wins = {r["contract"]: r for r in stats.win_rate_by_contract(deals.lazy()).iter_rows(named=True)}
    assert wins["all games"]["hits"] == games["won"].sum()
    assert wins["null"]["n"] == (games["contract"] == 5).sum()
    assert wins["all games"]["reference"] == 0.816
    position = stats.win_rate_by_position(deals.lazy())
    assert position.filter(pl.col("declarer").str.starts_with("seat"))["n"].sum() == games.height
    sch = stats.schneider_schwarz(deals.lazy())
    row = sch.filter((pl.col("measure") == "schneider") & (pl.col("games") == "all games")).row(0, named=True)
    assert row["hits"] == games["schneider"].sum() and row["reference"] == 0.234
    hand = stats.hand_and_ouvert(deals.lazy())
    assert hand.filter((pl.col("games") == "hand_game") & (pl.col("measure") == "share of games"))["hits"][0] \
        == games["hand_game"].sum()
    assert stats.overbid_rate(deals.lazy())["hits"][0] == games["overbid"].sum()
    bids = stats.distribution(deals.lazy(), "final_bid")
    assert bids["count"].sum() == games.height and abs(bids["share"].sum() - 1) < 1e-9


def test_estimate_table_and_break_even(deals):
    table = stats.win_rate_by_estimate(deals.lazy(), "bid_est")
    assert table["n"].sum() == deals.filter(pl.col("contract") >= 0).height
    # the estimates mean something: the win rate rises from the lowest to the highest bins
    thick = table.filter(pl.col("n") >= 200)
    assert thick["rate"][-1] > thick["rate"][0]
    curve = pl.DataFrame({"estimate_bin": [0, 50, 100, 150], "margin_n": [100] * 4,
                          "margin_mean": [-5.0, 2.0, -1.0, 3.0], "estimate_from": [0.0, .05, .1, .15]})
    assert stats.break_even_estimate(curve) == 0.15
    assert stats.break_even_estimate(curve.with_columns(pl.lit(-1.0).alias("margin_mean"))) is None


def test_headlines_are_answered(deals):
    from simcards.present.summary import summary_lines

    lines = summary_lines(stats.headlines(), {"deals": deals.lazy(), "matches": None})
    assert len(lines) == 7 and "Skat-Online: 4.9%" in lines[0]


def test_report_sections_write_their_charts(deals, tmp_path):
    class Run:
        manifest = {"seed": 31, "config": {"bots": "heuristic"}}

        def scan(self, kind="deals"):
            return deals.lazy()

    sections = GAME.report_sections(Run(), tmp_path)
    titles = [s.title for s in sections]
    # the report opens with the summary simcards.report builds from headline_rates, not the game
    assert "Summary" not in titles and "When is a hand worth bidding?" in titles
    for section in sections:
        for figure in section.figures:
            assert (tmp_path / figure.filename).stat().st_size > 0
    check = next(s for s in sections if s.title == "How much the bots' play is worth").tables[0].frame
    assert check.height == 3
    # a column of published figures is named by its source and sample size
    from simcards.games.skat.report import REF_COLUMN

    columns = [c for s in sections for t in s.tables for c in t.frame.columns]
    assert "reference" not in columns and columns.count(REF_COLUMN) == 5
    assert "17,967,106" in REF_COLUMN


def test_placings_from_series_of_36_deals():
    assert seat_placings(np.array([[10, 30, 30], [-5, 0, 7]])).tolist() == [[3, 1, 1], [3, 2, 1]]
    frames = GAME.simulate_chunk(72, seed=2, bots="heuristic")
    places = GAME.placings(frames, 2, 36)
    totals = frames["deals"].sort("deal_index").select("seeger_0", "seeger_1", "seeger_2").to_numpy()
    totals = totals.reshape(2, 36, 3).sum(axis=1)
    assert (places == seat_placings(totals)).all()
    from simcards.tournament import tournament

    res = tournament(GAME, ["heuristic", "random", "heuristic"], n_games=2, seed=2)
    assert res.games.height == 2 * 3 and set(res.placings["place"].to_list()) <= {1, 2, 3}
    assert GAME.deals_per_game == 36


def test_parties_are_the_declarer_against_two():
    rows = pl.DataFrame({"declarer": [2, -1, 0]})
    assert GAME.parties(rows).tolist() == [[1, 1, 0], [0, 1, 2], [0, 1, 1]]


# ------------------------------------------------------------------ the bots play sensibly


def _replayed(deals, declarer_bot, defender_bot, seed):
    parts = []
    for seat in range(3):
        games = deals.filter(pl.col("declarer") == seat)
        bots = [declarer_bot if s == seat else defender_bot for s in range(3)]
        parts.append(GAME.play_declared(games, seed, bots))
    return pl.concat(parts)


def test_heuristic_declarer_beats_random_and_defenders_hold_him_down():
    deals = GAME.simulate(15_000, seed=8, bots="heuristic")
    both = _replayed(deals, "heuristic", "heuristic", 8)
    random_declarer = _replayed(deals, "random", "heuristic", 8)
    random_defenders = _replayed(deals, "heuristic", "random", 8)
    # the replay of the run's own bots is the run itself
    played = deals.filter(pl.col("contract") >= 0).sort("deal_index")
    assert (both.sort("deal_index")["won"] == played["won"]).all()
    assert both["won"].mean() - random_declarer["won"].mean() >= 0.15
    held = (random_defenders["points_declarer"].cast(pl.Float64).mean()
            - both["points_declarer"].cast(pl.Float64).mean())
    assert held >= 10


def test_shipped_bots_win_75_to_88_percent_and_rarely_pass():
    deals = GAME.simulate(30_000, seed=2024, bots="heuristic")
    games = deals.filter(pl.col("contract") >= 0)
    assert 0.75 <= games["won"].mean() <= 0.88
    assert 1 - games.height / deals.height < 0.10


def test_a_tournament_with_more_entrants_than_seats_has_a_settings_section():
    """Generic: the settings section takes no bots when the entrants outnumber the seats."""
    from simcards.report import settings_section

    section = settings_section(GAME, None)
    assert [t.name for t in section.tables] == ["rule_options"]
    assert [t.name for t in settings_section(GAME, "heuristic").tables] == ["rule_options", "bot_settings"]
