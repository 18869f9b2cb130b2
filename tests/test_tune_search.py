"""The threshold search on synthetic decisions whose best threshold is known analytically."""

import numpy as np

from simcards.tune import ParamRange, search


def synthetic_evaluator(optimum: float, n: int = 20_000, seed: int = 3):
    """Bid when a hand's estimate x ~ U(0, 100) reaches the threshold t; the bid gains
    (x - optimum) / 10 plus noise. The expected gain per hand, (1/100) * integral over x >= t
    of (x - optimum) / 10, is largest at t = optimum. Every candidate sees the same hands."""
    rng = np.random.default_rng(seed)
    x = rng.uniform(0, 100, n)
    noise = rng.normal(0, 5, n)

    def evaluate(params):
        bid = x >= params["t"]
        return np.where(bid, (x - optimum) / 10 + noise, 0.0)

    return evaluate


def expected_gain(t, optimum):
    return (1 / 100) * ((100 - t) * ((100 + t) / 2 - optimum)) / 10


def test_search_recovers_a_known_optimum_within_its_interval():
    optimum = 62.0
    result = search(synthetic_evaluator(optimum), [ParamRange("t", 0, 100, resolution=0.5)], {"t": 50})
    best = result.best["t"]
    assert abs(best - optimum) <= 4
    # the optimum cannot be told apart from the chosen value: its paired difference is within 95%
    near = [c for c in result.candidates if abs(c.params["t"] - optimum) <= 1.0]
    assert near, "the refinement should evaluate values around the optimum"
    assert all(abs(c.diff_to_best) <= 1.96 * c.diff_se + 1e-12 for c in near)
    # the measured gain curve follows the analytic one
    for c in result.candidates:
        assert abs(c.gain - expected_gain(c.params["t"], optimum)) < 4 * c.se + 0.01
    assert any("told apart" in r or "resolution" in r for r in result.rounds)


def test_search_is_deterministic_for_a_deterministic_evaluator():
    a = search(synthetic_evaluator(30.0), [ParamRange("t", 0, 100)], {"t": 50})
    b = search(synthetic_evaluator(30.0), [ParamRange("t", 0, 100)], {"t": 50})
    assert a.best == b.best and [c.gain for c in a.candidates] == [c.gain for c in b.candidates]


def test_two_parameters_by_coordinate_search():
    rng = np.random.default_rng(5)
    x, y = rng.uniform(0, 100, (2, 30_000))

    def evaluate(p):
        return np.where(x >= p["a"], (x - 40) / 10, 0.0) + np.where(y >= p["b"], (y - 70) / 10, 0.0)

    result = search(evaluate, [ParamRange("a", 0, 100), ParamRange("b", 0, 100)], {"a": 50, "b": 50})
    assert abs(result.best["a"] - 40) <= 2 and abs(result.best["b"] - 70) <= 2
