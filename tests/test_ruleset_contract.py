"""The contract every ruleset keeps, checked for every registered ruleset and for a toy
three-seat one (tests/toy_game.py), so a new ruleset gets all of it by registering:

- deal(seed, index) is the deal the run simulated, and playing the run's cards on it gives the
  row's result;
- a replay is legal at every card and reproduces the row;
- chunking changes nothing;
- there is a legal move until the deal is over, and none after;
- card points and tricks add up to the deck's totals;
- the legal moves agree with the game's naive reference (tests/naive/<game folder>.py) at every
  position of random deals;
- the class declares every attribute `Game` declares without a default, and its optional
  features are capability objects (``solver``, ``user_bots``) or None.
"""

from __future__ import annotations

import importlib
import random

import numpy as np
import polars as pl
import pytest

import simcards
from simcards.games import register, unregister
from simcards.games.protocol import Game, Solver
from simcards.games.userbots import Support

from toy_game import ToyGame

SEED = 11


@pytest.fixture(scope="module", autouse=True)
def toy_registered():
    register(ToyGame)
    yield
    unregister(ToyGame.name)


NAMES = simcards.rulesets() + [ToyGame.name]


def game_of(name):
    return ToyGame() if name == ToyGame.name else simcards.load(name)


def naive_module(game):
    folder = "toy" if isinstance(game, ToyGame) else type(game).__module__.split(".")[2]
    return importlib.import_module(f"naive.{folder}")


def first_deals(game, seed=SEED, units=2):
    """(deal rows, traces) of the first units of a run with random bots."""
    kinds, params = game.resolve_bots("random")
    frames, traces = game._simulate_traced(seed, 0, units, kinds, params)
    return frames["deals"], traces


@pytest.mark.parametrize("name", NAMES)
def test_registered_and_loadable(name):
    game = game_of(name)
    assert name in simcards.rulesets()
    assert game.n_seats in (3, 4)
    assert game.deck.n_cards % game.n_seats in (0, 2)  # Skat leaves two cards


# what every ruleset must declare: Game's annotated attributes that have no default
REQUIRED = sorted(a for a in Game.__annotations__ if not hasattr(Game, a))


def test_the_required_attributes_are_the_documented_ones():
    assert REQUIRED == sorted(["name", "deck", "n_seats", "option_specs", "rules_version", "bots",
                               "deal_columns", "tricks_per_deal", "card_points_total"])
    assert len(Game.__abstractmethods__) <= 8


@pytest.mark.parametrize("name", NAMES)
def test_declares_what_game_requires_and_capabilities(name):
    game = game_of(name)
    assert [a for a in REQUIRED if not hasattr(type(game), a)] == []
    assert game.solver is None or isinstance(game.solver, Solver)
    if game.solver is not None:
        assert game.solver.option in {o.name for o in game.option_specs}
        assert game.solver.columns
    assert game.user_bots is None or isinstance(game.user_bots, Support)


@pytest.mark.parametrize("name", NAMES)
def test_deal_is_the_simulated_deal_and_reproduces_the_row(name):
    game = game_of(name)
    deals, traces = first_deals(game)
    kinds, params = game.resolve_bots("random")
    for k, row in enumerate(deals.head(6).iter_rows(named=True)):
        state = game.deal(seed=SEED, index=row["deal_index"], bots="random")
        from_row = game.state_from_row(row, kinds, params)
        assert [state.hand(s) for s in game.seats] == [from_row.hand(s) for s in game.seats]
        assert state.to_move == from_row.to_move
        for card in traces[k]:
            if card < 0:
                break
            state.play(game.deck.code(int(card)))
        assert state.is_over
        expected = game.result_row(state)
        assert expected and {key: row[key] for key in expected} == expected


@pytest.mark.parametrize("name", NAMES)
def test_replay_is_legal_and_reproduces_the_row(name):
    game = game_of(name)
    deals, _ = first_deals(game)
    row = deals.row(deals.height - 1, named=True)
    replay = game.replay(SEED, row["deal_index"], bots="random")
    tricks = replay["tricks"]
    assert len(tricks) == game.expected_totals(row)[1]
    cards = [code for trick in tricks for _, code in trick["cards"]]
    assert len(set(cards)) == len(cards) or game.deck.copies > 1
    state = game.state_from_row(row, *game.resolve_bots("random"))
    for trick in tricks:
        assert trick["leader"] == state.to_move
        for seat, code in trick["cards"]:
            assert seat == state.to_move
            assert code in state.legal_moves()
            state.play(code)
        assert trick["winner"] == state.last_winner
    assert {k: row[k] for k in game.result_row(state)} == game.result_row(state)


@pytest.mark.parametrize("name", NAMES)
def test_chunking_changes_nothing(name):
    game = game_of(name)
    whole = game.simulate_chunk(5, seed=SEED, bots="random")
    parts = [game.simulate_chunk(2, seed=SEED, bots="random"),
             game.simulate_chunk(3, seed=SEED, bots="random", start=2)]
    for kind, frame in whole.items():
        assert frame.equals(pl.concat([p[kind] for p in parts]))


@pytest.mark.parametrize("name", NAMES)
def test_legal_move_until_over_and_none_after(name):
    game = game_of(name)
    rng = random.Random(3)
    deals, _ = first_deals(game, seed=SEED + 1)
    for index in deals["deal_index"].head(3):
        state = game.deal(seed=SEED + 1, index=index, bots="random")
        while not state.is_over:
            legal = state.legal_moves()
            assert legal, "no legal move before the deal is over"
            state.play(rng.choice(legal))
        assert state.legal_moves() == []
        with pytest.raises(simcards.IllegalMove):
            state.play(game.deck.code(0))


@pytest.mark.parametrize("name", NAMES)
def test_points_and_tricks_add_up(name):
    game = game_of(name)
    deals = game.simulate_chunk(20, seed=SEED, bots="random")["deals"]
    for row in deals.iter_rows(named=True):
        assert game.row_totals(row) == game.expected_totals(row)


@pytest.mark.parametrize("name", NAMES)
def test_legal_moves_match_the_naive_reference(name):
    game = game_of(name)
    naive = naive_module(game)
    rng = random.Random(5)
    deals, _ = first_deals(game, seed=SEED + 2, units=3)
    kinds, params = game.resolve_bots("random")
    for row in deals.head(4).iter_rows(named=True):
        state = game.state_from_row(row, kinds, params)
        while not state.is_over:
            legal = state.legal_moves()
            assert set(legal) == naive.legal_moves_of(game, state), (row["deal_index"], state.trick)
            state.play(rng.choice(legal))


def test_three_seat_toy_plays_three_seats():
    game = ToyGame()
    deals = game.simulate(10, seed=1, bots=["random", "lowest", "random"])
    masks = np.stack([deals[f"hand_{s}"].to_numpy().astype(np.int64) for s in range(3)], axis=1)
    assert (np.bitwise_or.reduce(masks, axis=1) == game.deck.full_mask).all()
    assert (deals.select([f"tricks_{s}" for s in range(3)]).sum_horizontal() == 8).all()


def test_three_seat_tournament_and_tuning_run_on_generic_code():
    from simcards.tournament import tournament
    from simcards.tune import seating_gain

    res = tournament(ToyGame(), ["random", "lowest", "random"], n_games=3, seed=2, deals_per_game=2)
    assert res.games.height == 3 * 3  # each game once per rotation of three seats
    assert set(res.placings["place"].to_list()) == {1, 2, 3}
    game = ToyGame()
    assert game.tune_seatings == ((0,), (1,), (2,))
    values = game.objectives["points"].seat_values(game.simulate_chunk(4, seed=1, bots="random"))
    assert values.shape == (4, 3)
    gain = seating_gain(values, (1,))
    assert np.allclose(gain, values[:, 1] - values[:, [0, 2]].mean(axis=1))
