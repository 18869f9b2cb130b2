"""Doppelkopf in a tournament: each player scores alone over a series of 24 deals."""

import numpy as np

import simcards
from simcards.tournament import tournament

ENTRANTS = {"default": "heuristic", "random-a": "random", "random-b": "random",
            "bold": {"kind": "heuristic", "params": {"announce_threshold": 100}}}


def test_placings_come_from_each_seats_series_total():
    game = simcards.load("doppelkopf")
    frames = game.simulate_chunk(48, seed=2, bots="heuristic")
    places = game.placings(frames, 2, 24)
    scores = frames["deals"].sort("deal_index").select([f"score_{s}" for s in range(4)]).to_numpy()
    totals = scores.reshape(2, 24, 4).sum(axis=1)
    for g in range(2):
        for s in range(4):
            assert places[g, s] == 1 + int((totals[g] > totals[g, s]).sum())
    assert (totals.sum(axis=1) == 0).all()


def test_a_tournament_runs_and_the_heuristic_beats_random():
    result = tournament("doppelkopf", ENTRANTS, n_games=6, seed=3, deals_per_game=24)
    assert result.games.height == 6 * 4
    ratings = dict(zip(result.ratings["entrant"], result.ratings["rating"]))
    assert ratings["default"] > max(ratings["random-a"], ratings["random-b"])
    assert set(np.unique(result.placings["place"].to_numpy())) <= {1, 2, 3, 4}
