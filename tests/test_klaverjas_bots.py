"""Klaverjassen bots: the heuristic must clearly beat random play (duplicate matches), its
parameters must take effect, and bad bot specs must name the bad key."""

import numpy as np
import polars as pl
import pytest

import simcards

ROTTERDAM, AMSTERDAM = "klaverjas-rotterdam", "klaverjas-amsterdam"
BOTH = [ROTTERDAM, AMSTERDAM]
N = 20_000
H_R = ["heuristic", "random", "heuristic", "random"]
R_H = ["random", "heuristic", "random", "heuristic"]


def duplicate_z(game, column, n=N, seed=21):
    """Duplicate match: the same deals (same seed) played twice with the teams' bots swapped.
    Returns (mean heuristic-team advantage per deal pair, z = mean / standard error)."""
    a = game.simulate(n, seed=seed, bots=H_R)
    b = game.simulate(n, seed=seed, bots=R_H)
    for i in range(4):  # the cards are the same in both halves
        assert a[f"hand_{i}"].equals(b[f"hand_{i}"])
    adv = (a[f"{column}_0"].cast(float) - a[f"{column}_1"].cast(float)
           + b[f"{column}_1"].cast(float) - b[f"{column}_0"].cast(float)).to_numpy()
    return adv.mean(), adv.mean() / (adv.std(ddof=1) / np.sqrt(n))


@pytest.mark.parametrize("name", BOTH)
def test_heuristic_beats_random_duplicate(name):
    # forced trump: the heuristic both names trumps and plays; the random bot names a random suit
    mean, z = duplicate_z(simcards.load(name), "score")
    assert z > 5 and mean > 40, (mean, z)


@pytest.mark.parametrize("name", BOTH)
def test_heuristic_card_play_beats_random_duplicate(name):
    # a random trump, independent of the bots, leaves only card play to compare
    game = simcards.load(name, trump_selection="random")
    mean, z = duplicate_z(game, "points")
    assert z > 5 and mean > 15, (mean, z)
    mean, z = duplicate_z(game, "score")
    assert z > 5, (mean, z)


@pytest.mark.parametrize("name", BOTH)
def test_heuristic_goes_nat_far_less_often(name):
    game = simcards.load(name)
    h = game.simulate(N, seed=5, bots="heuristic")["nat"].mean()
    r = game.simulate(N, seed=5, bots="random")["nat"].mean()
    se = np.sqrt(h * (1 - h) / N + r * (1 - r) / N)
    assert (r - h) / se > 10 and h < 0.4, (h, r)


def test_declare_threshold_parameter_takes_effect():
    game = simcards.load(ROTTERDAM, trump_selection="free")
    forehand_plays = lambda df: (df["declarer"] == (df["dealer"] + 1) % 4).mean()  # noqa: E731
    never = game.simulate(3000, seed=2, bots={"kind": "heuristic",
                                              "params": {"declare_threshold": 10_000}})
    assert forehand_plays(never) == 1.0  # nobody takes it: forehand must play
    eager = game.simulate(3000, seed=2, bots={"kind": "heuristic", "params": {"declare_threshold": -1}})
    assert forehand_plays(eager) == 1.0  # forehand is asked first and always takes it
    normal = game.simulate(3000, seed=2, bots="heuristic")
    assert forehand_plays(normal) < 0.9


def test_evaluator_weights_change_the_estimate():
    game = simcards.load(AMSTERDAM)
    base = game.simulate(500, seed=4, bots="heuristic")
    jack = dict(zip(game.bots.param_names, game.bots.defaults()))["w_trump_jack"]
    heavier = game.simulate(500, seed=4, bots={"kind": "heuristic", "params": {"w_trump_jack": jack + 100}})
    jack_kept = base["trump"] == heavier["trump"]
    # when the trump is unchanged, the estimate rises by 100 exactly when the jack is held
    diff = (heavier["estimate"].cast(int) - base["estimate"].cast(int)).filter(jack_kept)
    assert set(diff.unique().to_list()) <= {0, 100}
    assert diff.max() == 100


# ------------------------------------------------------------------ bot specs


@pytest.mark.parametrize("bots, key", [
    ("genius", "bots.kind = 'genius'"),
    (["heuristic", "random", "genius", "random"], "bots[2].kind = 'genius'"),
    ({"kind": "heuristic", "params": {"bravery": 3}}, "bots.params.bravery = 3"),
    ({"kind": "heuristic", "params": {"declare_threshold": "high"}}, "bots.params.declare_threshold = 'high'"),
    ({"kind": "heuristic", "colour": "red"}, "bots.colour = 'red'"),
    (["heuristic", "random"], "bots = ['heuristic', 'random']"),
    (7, "bots = 7"),
])
def test_bad_bot_specs_name_the_key(bots, key):
    game = simcards.load(ROTTERDAM)
    with pytest.raises(ValueError) as err:
        game.simulate(10, seed=1, bots=bots)
    assert key in str(err.value)
    assert "is not allowed" in str(err.value)
    with pytest.raises(ValueError):
        game.replay(1, 0, bots)
    with pytest.raises(ValueError):
        game.deal(seed=1, index=0, bots=bots)


def test_unknown_bot_lists_the_kinds_and_params():
    game = simcards.load(ROTTERDAM)
    with pytest.raises(ValueError, match="one of 'random', 'heuristic'"):
        game.simulate(10, bots="genius")
    with pytest.raises(ValueError, match="a known parameter: w_base, w_trump_jack, "):
        game.simulate(10, bots={"kind": "random", "params": {"x": 1}})


def test_bot_spec_forms_agree():
    game = simcards.load(AMSTERDAM)
    a = game.simulate(300, seed=8, bots="heuristic")
    b = game.simulate(300, seed=8, bots=[{"kind": "heuristic"}] * 4)
    c = game.simulate(300, seed=8, bots={"kind": "heuristic", "params": {"w_trump_jack": 19.5}})  # the default
    assert a.equals(b) and a.equals(c)


def test_nat_rate_falls_as_the_estimate_rises():
    """The evaluator counts only what the ruleset scores, so a stronger estimate never means a
    higher nat rate: in 10-point bins of at least 1,000 deals no bin lies above its predecessor
    by more than two standard errors (forced trump, as in the demo)."""
    from simcards.games.klaverjas import stats

    deals = simcards.load(AMSTERDAM, trump_selection="forced").simulate(200_000, seed=7)
    bins = stats.nat_by_strength(deals.lazy(), bin_width=10).filter(pl.col("n") >= 1000)
    assert bins.height >= 5
    rate, n = bins["rate"].to_numpy(), bins["n"].to_numpy()
    se = np.sqrt(rate * (1 - rate) / n)
    rises = (rate[1:] - rate[:-1]) / np.sqrt(se[1:] ** 2 + se[:-1] ** 2)
    assert (rises <= 2).all(), bins
    assert rate[-1] < rate[0] / 4
