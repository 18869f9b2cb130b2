"""Threshold search: find bot parameter values that maximise the tuned side's expected gain.

The search is game-independent. It asks an *evaluator* for the per-unit gain of the tuned bot
over the baseline for a candidate parameter set; the evaluator plays (or counterfactually
scores) the SAME units for every candidate, so two candidates are compared on paired
differences, which are far less noisy than separate runs.

For each parameter in turn (coordinate search, repeated until nothing moves): evaluate a coarse
grid over its range, then refine around the best value with a finer grid, and stop when the
candidates can no longer be told apart (every candidate's paired difference to the best lies
within its 95% interval) or the step is below the parameter's resolution.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from simcards.stats import Z95
from simcards.config import ParamRange

Evaluator = Callable[[dict[str, float]], np.ndarray]  # params -> per-unit gains (same units)


@dataclass
class Candidate:
    params: dict[str, float]
    gain: float  # mean gain per unit
    se: float  # its standard error
    n: int
    diff_to_best: float = 0.0  # paired difference to the best candidate of its round
    diff_se: float = 0.0

    @property
    def lo(self) -> float:
        return self.gain - Z95 * self.se

    @property
    def hi(self) -> float:
        return self.gain + Z95 * self.se


@dataclass
class SearchResult:
    best: dict[str, float]
    candidates: list[Candidate] = field(default_factory=list)  # every evaluation, in order
    rounds: list[str] = field(default_factory=list)  # what each round did and why it stopped


def _grid(low: float, high: float, points: int, resolution: float) -> list[float]:
    values = np.linspace(low, high, points)
    snapped = sorted({round(v / resolution) * resolution for v in values})
    return [float(v) for v in snapped]


class _Cache:
    """Evaluations keyed by the full parameter set, so no candidate is played twice."""

    def __init__(self, evaluate: Evaluator):
        self.evaluate = evaluate
        self.gains: dict[tuple, np.ndarray] = {}
        self.order: list[tuple] = []

    def __call__(self, params: dict[str, float]) -> np.ndarray:
        key = tuple(sorted(params.items()))
        if key not in self.gains:
            self.gains[key] = np.asarray(self.evaluate(dict(params)), dtype=np.float64)
            self.order.append(key)
        return self.gains[key]


def _summarise(params: dict[str, float], gains: np.ndarray) -> Candidate:
    n = gains.size
    se = float(gains.std(ddof=1) / math.sqrt(n)) if n > 1 else float("inf")
    return Candidate(dict(params), float(gains.mean()), se, n)


def search(evaluate: Evaluator, ranges: list[ParamRange], start: dict[str, float],
           grid_points: int = 9, max_rounds: int = 6, max_sweeps: int = 3,
           log: Callable[[str], None] = lambda _: None) -> SearchResult:
    """Coarse grid, then refinement around the best, per parameter; see the module docstring."""
    cache = _Cache(evaluate)
    current = dict(start)
    result = SearchResult(best=current)
    for sweep in range(max_sweeps):
        moved = False
        for rng in ranges:
            low, high = rng.low, rng.high
            before = current.get(rng.name)
            for _ in range(max_rounds):
                values = _grid(low, high, grid_points, rng.resolution)
                gains = {v: cache({**current, rng.name: v}) for v in values}
                best_value = max(values, key=lambda v: gains[v].mean())
                base = gains[best_value]
                separable = []
                for v in values:
                    diff = gains[v] - base
                    diff_se = float(diff.std(ddof=1) / math.sqrt(diff.size)) if diff.size > 1 else 0.0
                    if v != best_value and abs(diff.mean()) > Z95 * diff_se:
                        separable.append(v)
                step = (high - low) / max(1, grid_points - 1)
                result.rounds.append(
                    f"sweep {sweep + 1}, {rng.name}: {len(values)} values in [{low:g}, {high:g}], "
                    f"best {best_value:g} (gain {base.mean():+.4g}); "
                    f"{len(separable)} of {len(values) - 1} others significantly worse")
                log(result.rounds[-1])
                current[rng.name] = best_value
                if not separable or step <= rng.resolution:
                    result.rounds.append(f"  stop {rng.name}: " + (
                        "the candidates can no longer be told apart" if not separable
                        else f"step {step:g} reached the resolution {rng.resolution:g}"))
                    log(result.rounds[-1])
                    break
                low = max(rng.low, best_value - step)
                high = min(rng.high, best_value + step)
            moved = moved or current[rng.name] != before
        if not moved or len(ranges) == 1:
            break
    # every candidate with its paired difference to the final best
    best_gains = cache(current)
    for key in cache.order:
        gains = cache.gains[key]
        cand = _summarise(dict(key), gains)
        diff = gains - best_gains
        cand.diff_to_best = float(diff.mean())
        cand.diff_se = float(diff.std(ddof=1) / math.sqrt(diff.size)) if diff.size > 1 else 0.0
        result.candidates.append(cand)
    result.best = dict(current)
    return result
