"""Equilibrium tuning (``mode = "equilibrium"``): thresholds that are a best response to themselves.

Iteration 1 is a baseline-mode tune: the search against the config's baseline. Iteration k
searches against copies of iteration k-1's result (the baseline bot with k-1's tuned values at
every other seat), starting from those values, on its own tuning seed, and verifies its best
response against that profile in a duplicate match on its own fresh seed. The search's own
refinement steps are its "rounds"; these are "iterations".

With ``damping`` d > 0, iteration k plays instead against the profile that goes the share 1 - d
of the way from iteration k-1's profile to its best response (each value rounded to its range's
resolution). Bidding thresholds often overshoot: against bold bidders the best response is
cautious, against cautious ones bold, and plain best responses then cycle around the profile
that answers itself (simcards' Skat suit threshold went 0.53, 0.64, 0.61, 0.53 in one run).
Damped steps shrink the swing until a profile is its own best response; the stopping rule and
what ships are the same.

An iteration finds **no gain** when its verification interval includes 0 or its gain is below
``tolerance``. A best response with a value within one resolution step of its range's edge is
not an equilibrium (the best value may lie outside the range): such an iteration never counts as
settled, however small its gain, and the log and report name the parameter and the edge. A
parameter whose decision never arises against a profile (no rekraak to answer) keeps the
profile's value in that iteration: any value is a best response there. The
run stops when two iterations in a row are settled, and ships the profile the last one was tuned
against: its verified gain is the **exploitability** (what a best response found gains against
the shipped profile). At ``max_iterations`` it stops and ships the last best response, saying
plainly that no equilibrium was shown.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

import numpy as np

from simcards.config import INT64_MAX, tunable_params
from simcards.errors import UserError
from simcards.games import game_class, load

# Iteration k's seeds are the config's seed and verify_seed plus (k - 1) strides (wrapped within
# int64): a prime far above the default gap (1,000,003) between them, so the default seeds never
# collide.
ITERATION_SEED_STRIDE = 10_000_019


def iteration_seeds(config) -> list[tuple[int, int]]:
    """(tuning seed, verification seed) of every iteration the config may run; iteration 1's are
    the config's own. UserError when two coincide (a verify_seed chosen on the stride)."""
    wrap = INT64_MAX + 1  # seeds go to the kernels as int64
    seeds = [((config.seed + k * ITERATION_SEED_STRIDE) % wrap,
              (config.verify_seed + k * ITERATION_SEED_STRIDE) % wrap)
             for k in range(config.max_iterations)]
    flat = [s for pair in seeds for s in pair]
    if len(set(flat)) != len(flat):
        raise UserError(f"verify_seed = {config.verify_seed}: in equilibrium mode every iteration "
                        f"tunes on seed + (k - 1) x {ITERATION_SEED_STRIDE:,} and verifies on "
                        f"verify_seed + (k - 1) x {ITERATION_SEED_STRIDE:,}; choose a verify_seed whose "
                        f"difference to seed ({config.seed}) is no multiple of {ITERATION_SEED_STRIDE:,}")
    return seeds


def range_edges(best: dict[str, float], ranges, evaluate=None, idle=()) -> list[dict]:
    """The parameters whose value lies within one resolution step of an edge of its range.

    Not counted: an ``idle`` parameter (its decision never arose, so its value was not chosen),
    and, given the search's ``evaluate``, a value that plays exactly like the value one step
    inward on every tuning unit: no estimate falls between them, so the edge lies in a flat
    stretch ("always bid" below the lowest estimate) that a wider range would not change."""
    edges = []
    for r in ranges:
        value = best[r.name]
        slack = r.resolution * (1 + 1e-9)
        if r.name in idle:
            continue
        if value - r.low <= slack:
            edge, limit, inward = "low", r.low, value + r.resolution
        elif r.high - value <= slack:
            edge, limit, inward = "high", r.high, value - r.resolution
        else:
            continue
        if evaluate is not None and np.array_equal(evaluate(best), evaluate({**best, r.name: inward})):
            continue
        edges.append({"parameter": r.name, "value": value, "edge": edge, "limit": limit})
    return edges


def edge_message(edge: dict, iteration: int) -> str:
    return (f"iteration {iteration}: {edge['parameter']} = {edge['value']:g} is within one "
            f"resolution step of the {edge['edge']} edge of its range ({edge['limit']:g}): not an "
            f"equilibrium; widen tune.{edge['parameter']}")


@dataclass
class Iteration:
    number: int
    tune_seed: int
    verify_seed: int
    against: dict[str, float]  # the profile it was tuned against
    result: object  # its TuneResult: the search, the gain curves (verification None)
    verification: dict  # its best response against `against`, on verify_seed
    tolerance: float
    edges: list[dict] = field(default_factory=list)

    @property
    def best(self) -> dict[str, float]:
        return self.result.best

    @property
    def no_gain(self) -> bool:
        v = self.verification
        return v["lo"] <= 0 <= v["hi"] or v["gain"] < self.tolerance

    @property
    def settled(self) -> bool:
        """No gain, and no value at an edge of its range: counts toward stopping."""
        return self.no_gain and not self.edges

    def verdict(self) -> str:
        v = self.verification
        if v.get("identical"):
            why = "no gain (the best response is the profile itself)"
        elif v["lo"] <= 0 <= v["hi"]:
            why = "no gain (the interval includes 0)"
        elif v["hi"] < 0:
            why = "no gain (a loss on the fresh seed: the tuning seed's best was noise)"
        elif v["gain"] < self.tolerance:
            why = f"no gain (below the tolerance {self.tolerance:g})"
        else:
            why = "a gain"
        idle = "".join(f"; {name} never arose (kept)" for name in self.result.idle)
        return why + (", but a value at the edge of its range" if self.edges else "") + idle

    def row(self) -> dict:
        v = self.verification
        return {"iteration": self.number, "tune_seed": self.tune_seed, "verify_seed": self.verify_seed,
                "against": self.against, "best": self.best, "gain": v["gain"], "se": v["se"],
                "lo": v["lo"], "hi": v["hi"], "units": v["units"], "no_gain": self.no_gain,
                "settled": self.settled, "edges": self.edges, "verdict": self.verdict(),
                "candidates": len(self.result.search.candidates), "rounds": len(self.result.search.rounds)}


@dataclass
class EquilibriumResult:
    config: object  # TuneConfig
    iterations: list[Iteration]
    converged: bool  # two iterations in a row settled (else stopped at max_iterations)
    shipped: dict[str, float]
    baseline_values: dict[str, float]
    paths: dict[str, Path] = field(default_factory=dict)

    @property
    def exploitability(self) -> dict | None:
        """The verified gain of the last best response against the shipped profile; None when the
        run stopped at max_iterations (the shipped profile is that best response, not measured)."""
        return self.iterations[-1].verification if self.converged else None

    @property
    def edges(self) -> list[str]:
        """One line per parameter and edge: the iterations whose best response ended there."""
        seen: dict[tuple, list[int]] = {}
        for it in self.iterations:
            for e in it.edges:
                seen.setdefault((e["parameter"], e["edge"], e["limit"]), []).append(it.number)
        return [f"{name} ended within one resolution step of the {edge} edge of its range "
                f"({limit:g}) in iteration{'s' if len(numbers) > 1 else ''} "
                f"{', '.join(map(str, numbers))}: not an equilibrium there; widen tune.{name}"
                for (name, edge, limit), numbers in seen.items()]

    def status(self) -> str:
        n = len(self.iterations)
        if self.converged:
            e = self.exploitability
            return (f"equilibrium after {n} iterations: iterations {n - 1} and {n} found no gain; "
                    f"exploitability {e['gain']:+.4g} per {_unit(self.config)} (95% interval "
                    f"{e['lo']:+.4g} .. {e['hi']:+.4g})")
        last = self.iterations[-1]
        return (f"NOT an equilibrium: stopped at max_iterations = {n} without two iterations in a "
                f"row without gain; shipping iteration {n}'s best response, whose own "
                f"exploitability is not measured (its gain over the profile it was tuned against: "
                f"{last.verification['gain']:+.4g} per {_unit(self.config)}, 95% interval {last.verification['lo']:+.4g} .. "
                f"{last.verification['hi']:+.4g})")


def _identical(best: dict[str, float]) -> dict:
    """The verification of a best response that is the profile itself: the same bots in every
    seat play the same cards the same way, so the gain is exactly 0 (not played)."""
    return {"gain": 0.0, "se": 0.0, "lo": 0.0, "hi": 0.0, "z": 0.0, "significant": False,
            "identical": True}


def tune_equilibrium(config, log: Callable[[str], None] = print) -> EquilibriumResult:
    """Iterate best responses until two in a row find no gain, or max_iterations (module
    docstring). The searches and verifications are those of baseline mode (simcards.tune)."""
    from simcards import tune as tuning

    seeds = iteration_seeds(config)
    game = load(config.ruleset, **config.rules)
    base_params = {**tunable_params(game, config.baseline), **config.baseline.get("params", {})}
    baseline_values = {r.name: float(base_params[r.name]) for r in config.ranges}
    against = dict(baseline_values)
    iterations: list[Iteration] = []
    converged = False
    for number, (tune_seed, verify_seed) in enumerate(seeds, start=1):
        def say(line: str, number=number) -> None:
            log(f"iteration {number}, {line.strip()}")

        profile = {**config.baseline, "params": {**config.baseline.get("params", {}), **against}}
        step = replace(config, baseline=profile, seed=tune_seed, verify_seed=verify_seed)
        say(f"against {_values(against)} (tuning seed {tune_seed}, verification seed {verify_seed})")
        result = tuning.tune(step, say, verify=False, keep_idle=number > 1)
        if all(result.best[k] == against[k] for k in against):
            verification = {"seed": verify_seed, "units": step.verify, **_identical(result.best)}
        else:
            say(f"verification of {_values(result.best)} on a fresh seed")
            verification = tuning._verification(step, result.best, say)
        it = Iteration(number, tune_seed, verify_seed, dict(against), result, verification,
                       config.tolerance, range_edges(result.best, config.ranges, result.evaluate,
                                                     result.idle))
        iterations.append(it)
        v = verification
        log(f"iteration {number}: best response {_values(it.best)} against {_values(against)}: gain "
            f"{v['gain']:+.4g} (95% interval {v['lo']:+.4g} .. {v['hi']:+.4g}): {it.verdict()}")
        for edge in it.edges:
            log(edge_message(edge, number))
        if len(iterations) >= 2 and iterations[-2].settled and it.settled:
            converged = True
            break
        against = damped_profile(against, result.best, config)
    shipped = iterations[-1].against if converged else dict(iterations[-1].best)
    outcome = EquilibriumResult(config, iterations, converged, shipped, baseline_values)
    log(outcome.status())
    log(f"shipped: {_values(shipped)}")
    return outcome


def damped_profile(against: dict[str, float], best: dict[str, float], config) -> dict[str, float]:
    """The next iteration's profile: the share 1 - damping of the way from ``against`` to its best
    response ``best``, each value on its range's resolution grid (from the range's low end) and
    within the range. With damping 0 it is the best response itself. A best response one step
    away may round back to the profile's own value: the profile is then within one resolution
    step of its best response, and the next iteration tries it again on fresh seeds."""
    if config.damping == 0:
        return dict(best)
    out = {}
    for rng in config.ranges:
        name = rng.name
        x = against[name] + (1 - config.damping) * (best[name] - against[name])
        steps = round((x - rng.low) / rng.resolution)
        out[name] = round(min(rng.high, max(rng.low, rng.low + steps * rng.resolution)), 9)
    return out


def _comment(text: str, width: int = 98) -> list[str]:
    """A long sentence as TOML comment lines."""
    import textwrap

    return ["# " + line for line in textwrap.wrap(text, width - 2)]


def _values(params: dict[str, float]) -> str:
    return ", ".join(f"{k} = {v:g}" for k, v in params.items())


def _unit(config) -> str:
    return "match" if game_class(config.ruleset).unit == "match" else "deal"


def equilibrium_thresholds_toml(result: EquilibriumResult, command: str) -> str:
    """thresholds.toml of the shipped profile, with the command and the result as comments."""
    from simcards.tune import includable

    c = result.config
    unit = _unit(c)
    units = "matches" if unit == "match" else "deals"
    params = {**c.baseline.get("params", {}), **{k: round(x, 6) for k, x in result.shipped.items()}}
    path = [f"#   {it.number}: {_values(it.best)}"
            + (f" (against {_values(it.against)})" if c.damping else "")
            + f": {it.verification['gain']:+.4g} "
            f"({it.verification['lo']:+.4g} .. {it.verification['hi']:+.4g}), {it.verdict()}"
            for it in result.iterations]
    lines = [
        f"# Equilibrium tuned by `{command}` ({c.name}) for {c.ruleset}, objective {c.objective!r};",
        f"# {c.units:,} {units} per candidate, verification {c.verify:,} {units} per iteration, "
        f"tolerance {c.tolerance:g}" + (f", damping {c.damping:g}" if c.damping else "")
        + f"; {datetime.now(timezone.utc).date().isoformat()}.",
        f"# Iterations (best response: verified gain per {unit} over the profile before it, 95% "
        f"interval):",
        *path,
        *_comment(result.status() + "."),
        *[line for message in result.edges for line in _comment(f"WARNING: {message}.")],
        *includable(c, params),
    ]
    return "\n".join(lines)


def iterations_json(result: EquilibriumResult, command: str) -> dict:
    c = result.config
    return {"name": c.name, "ruleset": c.ruleset, "objective": c.objective, "command": command,
            "units": c.units, "verify": c.verify, "tolerance": c.tolerance, "damping": c.damping,
            "max_iterations": c.max_iterations, "baseline": result.baseline_values,
            "converged": result.converged, "status": result.status(), "shipped": result.shipped,
            "exploitability": result.exploitability, "edges": result.edges,
            "iterations": [it.row() for it in result.iterations]}


def write_equilibrium_outputs(result: EquilibriumResult, command: str) -> dict[str, Path]:
    """thresholds.toml (the shipped profile), iterations.json and the report, under
    <output>/<name>/."""
    from simcards.tune import replace_file
    from simcards.tune.report import write_equilibrium_report

    out_dir = Path(result.config.output) / result.config.name
    out_dir.mkdir(parents=True, exist_ok=True)
    texts = {"thresholds": ("thresholds.toml", equilibrium_thresholds_toml(result, command)),
             "iterations": ("iterations.json", json.dumps(iterations_json(result, command), indent=2) + "\n")}
    tomllib.loads(texts["thresholds"][1])  # what we write must read back
    paths = write_equilibrium_report(result, out_dir)
    for key, (name, text) in texts.items():
        paths[key] = out_dir / name
        replace_file(paths[key], text)
    result.paths = paths
    return paths
