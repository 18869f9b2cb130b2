"""The Hearts / Hartenjagen heuristic's moon play: how often the moon is made with the shipped
configs' bots, an attempt that stops once broken, and the defence that splits the points
(golden positions)."""

import math
from pathlib import Path

import polars as pl
import pytest

import simcards
from simcards.config import load_config
from simcards.games.hearts.bots import (
    MODE_AVOID,
    MODE_MOON,
    P_MOON_SPLIT,
    _mode,
    default_params,
    heuristic_card,
    moon_losers,
)

CONFIGS = Path(__file__).resolve().parent.parent / "configs"


def _card(game, state, seat, params=None):
    """The heuristic's card for ``seat`` (to move) in ``state``, with the default parameters
    unless ``params`` is given."""
    params = default_params() if params is None else params
    assert state.to_move == seat
    card = heuristic_card(seat, state.legal_mask(), state._st, game.tables, params)
    return game.deck.code(int(card))


@pytest.mark.parametrize("config", ["hearts.toml", "hartenjagen.toml"])
def test_moon_is_made_in_one_to_four_percent_of_deals(config):
    cfg = load_config(CONFIGS / config)
    game = simcards.load(cfg.ruleset, **cfg.rules)
    deals = game.simulate(3000, seed=20240, bots=cfg.bots)
    outbound = deals.filter(pl.col("phase") == 0)
    n = outbound.height
    made = (outbound["moon"] >= 0).mean()
    se = math.sqrt(made * (1 - made) / n)
    # 3 standard errors (about 0.25 points) of slack either side of the target band
    assert 0.01 - 3 * se <= made <= 0.04 + 3 * se, (made, se, n)
    attempts = outbound.filter(pl.col("moon_attempt") >= 0)
    assert attempts.height > 0  # the bots still try
    assert (attempts["moon"] == attempts["moon_attempt"]).sum() > 0


def test_moon_losers_count_the_hand():
    game = simcards.load("hearts")
    hand = game.deck.parse_hand("2C AC KC QC JC AD KD QD AH KH QH JH 10H")
    assert moon_losers(hand, game.tables) == 0
    # AK of hearts and four low ones: the third round of hearts loses (twice, a heart)
    hand = game.deck.parse_hand("AH KH 5H 4H 3H 2H AS KS QS AD KD AC KC")
    assert moon_losers(hand, game.tables) == 2
    # two low spades lose while the opponents still follow
    hand = game.deck.parse_hand("AH KH QH JH 10H 9H 3S 2S AD KD QD AC KC")
    assert moon_losers(hand, game.tables) == 2


# seat 0 holds every top card but spades: a moon hand (no losers)
ABANDON_HANDS = [
    ["2C", "AC", "KC", "QC", "JC", "AD", "KD", "QD", "AH", "KH", "QH", "JH", "10H"],
    ["3C", "6C", "7C", "3S", "6S", "9S", "KS", "2D", "5D", "8D", "2H", "5H", "8H"],
    ["4C", "8C", "9C", "4S", "7S", "10S", "QS", "3D", "6D", "9D", "3H", "6H", "9H"],
    ["5C", "10C", "2S", "5S", "8S", "JS", "AS", "4D", "7D", "10D", "JD", "4H", "7H"],
]


def test_an_attempt_stops_once_broken():
    game = simcards.load("hearts")
    state = game.deal(hands=ABANDON_HANDS, dealer=3)
    assert state.moon_attempt == 0
    params = default_params()
    for code in ("2C", "3C", "4C", "5C"):  # seat 3 wins the first trick, no points
        state.play(code)
    state.play("2S")  # seat 3 leads a spade; seat 0 is void
    assert _mode(state._st, 0, game.tables, params) == MODE_MOON
    first = _card(game, state, 0)
    assert not first.endswith("H")  # still shooting: never a heart on another's trick
    state.play(first)
    state.play("3S")
    state.play("QS")  # seat 2 takes the QS: the moon is broken
    assert state.points == [0, 0, 13, 0]
    state.play("4S")  # seat 2 leads again; seat 3 follows low and seat 0 is void again
    state.play("5S")
    assert _mode(state._st, 0, game.tables, params) == MODE_AVOID
    # the normal game: a heart on seat 3's trick (the points are split, seat 0 sheds a
    # dangerous card), keeping the AH as a stopper while seat 2 could still shoot
    second = _card(game, state, 0)
    assert second.endswith("H") and second != "AH", second


def test_the_defence_takes_a_point_trick_from_a_lone_holder():
    game = simcards.load("hearts")
    hands = [["2C", "3H", "AD", "KD", "QD", "JD", "10D", "AS", "KS", "JS", "10S", "9S", "8S"],
             ["3C", "6C", "7C", "8C", "9C", "10C", "JC", "2D", "3D", "4D", "5D", "2S", "3S"],
             ["AC", "KC", "QC", "5H", "6H", "7H", "8H", "10H", "JH", "QH", "KH", "AH", "4H"],
             ["4C", "5C", "9H", "2H", "6D", "7D", "8D", "9D", "4S", "5S", "6S", "7S", "QS"]]
    for with_defence in (True, False):
        state = game.deal(hands=hands, dealer=3)
        for code in ("2C", "3C", "AC", "4C",   # seat 2 wins the first trick
                     "KC", "5C", "3H", "6C",   # seat 0 is void: a heart on seat 2's trick
                     "5H"):                    # seat 2, holding every point, leads a heart
            state.play(code)
        assert state.points == [0, 0, 1, 0]
        params = default_params()
        if not with_defence:
            params[P_MOON_SPLIT] = 0.0
        card = _card(game, state, 3, params)
        # defending, seat 3 takes the heart trick (2 points) itself: the moon is off; without
        # the split it ducks as usual
        assert card == ("9H" if with_defence else "2H"), (with_defence, card)
