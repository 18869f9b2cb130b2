"""`simcards tune CONFIG`: tune bot parameters (bidding thresholds) against a fixed baseline.

How a candidate is scored: the tuned bot (the baseline bot with the candidate's parameters)
plays a *duplicate match* against the baseline: every unit (deal, or match for match rulesets)
is played once per seating of the game's ``tune_seatings`` on the same cards (Klaverjassen:
the tuned bot as team 0, then as team 1). The unit's gain is the tuned seats' advantage over
the others (the game's objective, `Objective.seat_values`), averaged over the seatings, which
removes the luck of the cards. Every candidate plays the same units (the config's seed), so two
candidates are compared on paired differences (simcards/tune/search.py does the search).

Objectives (``objective`` in the config; "auto" picks the game's first): each game lists its
own (`Game.objectives`; `simcards rulesets NAME` prints them).

The tuned parameters and their ranges come from the config's [tune] table. The result is a
thresholds.toml a run config can include as is, and a report with each parameter's gain curve
and a verification match on a fresh seed.

``mode = "equilibrium"`` repeats the tune, each iteration against the one before, until the
thresholds are a best response to themselves (simcards/tune/equilibrium.py).
"""

from __future__ import annotations

import json
import math
import os
import tomllib
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

import numpy as np
import polars as pl

from simcards.config import ParamRange, TuneConfig, load_tune_config, tunable_params
from simcards.errors import UserError
from simcards.games import game_class, load
from simcards.stats import Z95, seating_gain
from simcards.tune.search import SearchResult, search

# what the tune config and the duplicate evaluation come from, importable from here as well
__all__ = ["ParamRange", "TuneConfig", "load_tune_config", "seating_gain", "tune", "write_outputs"]

def _duplicate_chunk(ruleset: str, rules_json: str, config: "TuneConfig", params: dict,
                     seed: int, start: int, n: int) -> np.ndarray:
    """Worker task: per-unit gains of the tuned side on units start .. start+n-1, averaged over
    the game's duplicate seatings."""
    game = load(ruleset, **json.loads(rules_json))
    values = game.objectives[config.objective].seat_values
    seatings = game.tune_seatings
    total = np.zeros(n, dtype=np.float64)
    for seats in seatings:
        bots = config.bots(params, seats, game.n_seats)
        total += seating_gain(values(game.simulate_chunk(n, seed=seed, bots=bots, start=start)), seats)
    return total / len(seatings)


class DuplicateEvaluator:
    """Per-unit gains of a candidate, its units split into chunks over joblib workers."""

    def __init__(self, config: TuneConfig, seed: int, units: int, log: Callable[[str], None]):
        self.config, self.seed, self.units, self.log = config, seed, units, log
        self.calls = 0

    def __call__(self, params: dict[str, float]) -> np.ndarray:
        from joblib import Parallel, delayed

        c = self.config
        rules_json = json.dumps(c.rules, sort_keys=True)
        starts = range(0, self.units, c.chunk_size)
        tasks = [delayed(_duplicate_chunk)(c.ruleset, rules_json, c, params, self.seed, s,
                                           min(c.chunk_size, self.units - s))
                 for s in starts]
        jobs = min(c.workers, len(tasks))
        if jobs > 1 and self.calls == 0:  # compile here once; the workers load from the cache
            _duplicate_chunk(c.ruleset, rules_json, c, params, self.seed, 0, 1)
        parts = Parallel(n_jobs=jobs, backend="loky")(tasks) if jobs > 1 else [t[0](*t[1], **t[2]) for t in tasks]
        self.calls += 1
        gains = np.concatenate(parts)
        self.log(f"  candidate {self.calls}: {params} -> gain {gains.mean():+.4g} "
                 f"(± {Z95 * gains.std(ddof=1) / math.sqrt(gains.size):.3g})")
        return gains


@dataclass
class TuneResult:
    config: TuneConfig
    search: SearchResult
    best: dict[str, float]
    baseline_values: dict[str, float]
    profiles: dict[str, pl.DataFrame]  # parameter -> value, gain, se, lo, hi
    verification: dict | None
    paths: dict[str, Path] = field(default_factory=dict)
    idle: list[str] = field(default_factory=list)  # parameters without effect, kept (keep_idle)
    evaluate: Callable | None = None  # the search's cached evaluator: params -> per-unit gains


def _profile(evaluate, best: dict[str, float], rng: ParamRange, points: int) -> pl.DataFrame:
    """Gain curve of one parameter across its whole range, the others at their best values."""
    values = sorted({round(v / rng.resolution) * rng.resolution
                     for v in np.linspace(rng.low, rng.high, points)} | {best[rng.name]})
    rows = []
    for v in values:
        gains = evaluate({**best, rng.name: float(v)})
        se = float(gains.std(ddof=1) / math.sqrt(gains.size))
        rows.append((float(v), float(gains.mean()), se))
    frame = pl.DataFrame(rows, schema=["value", "gain", "se"], orient="row")
    return frame.with_columns((pl.col("gain") - Z95 * pl.col("se")).alias("lo"),
                              (pl.col("gain") + Z95 * pl.col("se")).alias("hi"))


def _verification(config: TuneConfig, best: dict[str, float], log) -> dict:
    evaluate = DuplicateEvaluator(config, config.verify_seed, config.verify, log)
    gains = evaluate(best)
    mean = float(gains.mean())
    se = float(gains.std(ddof=1) / math.sqrt(gains.size))
    return {"seed": config.verify_seed, "units": config.verify, "gain": mean, "se": se,
            "lo": mean - Z95 * se, "hi": mean + Z95 * se, "z": mean / se if se > 0 else float("inf"),
            "significant": abs(mean) > Z95 * se}


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(float(value)) if isinstance(value, float) else str(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} as TOML")


def thresholds_toml(result: TuneResult) -> str:
    c = result.config
    v = result.verification
    params = {**c.baseline.get("params", {}), **{k: round(x, 6) for k, x in result.best.items()}}
    unit = "match" if game_class(c.ruleset).unit == "match" else "deal"
    lines = [
        f"# Tuned by `simcards tune` ({c.name}) for {c.ruleset}, objective {c.objective!r},",
        f"# {c.units:,} {unit}es per candidate, seed {c.seed}; "
        f"{datetime.now(timezone.utc).date().isoformat()}.".replace("deales", "deals"),
        f"# Verification on a fresh seed ({v['seed']}, {v['units']:,} {unit}es): gain per {unit} "
        f"{v['gain']:+.4g} (95% interval {v['lo']:+.4g} .. {v['hi']:+.4g}), "
        f"{'significant' if v['significant'] else 'not significant'}.".replace("deales", "deals"),
        *includable(c, params),
    ]
    return "\n".join(lines)


def includable(config: TuneConfig, params: dict[str, float]) -> list[str]:
    """The lines of a thresholds.toml after its comments: the baseline bot with ``params``, and
    the config's rules, for a run config's ``include``."""
    lines = ["# Use in a run config: include = [\"<path to this file>\"]", "",
             f"bots = {_toml_value({**config.baseline, 'params': params})}", ""]
    if config.rules:
        lines += ["[rules]", *[f"{k} = {_toml_value(val)}" for k, val in config.rules.items()], ""]
    return lines


def replace_file(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary name, so no half file is ever seen."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_text(text)
    os.replace(temporary, path)


def tune(config: TuneConfig, log: Callable[[str], None] = print, verify: bool = True,
         keep_idle: bool = False) -> TuneResult:
    """Search the config's parameters against its baseline (one best response), then verify the
    result on a fresh seed unless ``verify`` is false. A parameter with no effect is an error,
    unless ``keep_idle``: then it keeps the baseline's value (an equilibrium iteration against a
    profile that never reaches that decision, e.g. no rekraak to answer: any value is a best
    response; simcards/tune/equilibrium.py)."""
    game = load(config.ruleset, **config.rules)
    defaults = tunable_params(game, config.baseline)
    base_params = {**defaults, **config.baseline.get("params", {})}
    start = {r.name: float(min(max(base_params[r.name], r.low), r.high)) for r in config.ranges}
    evaluate = DuplicateEvaluator(config, config.seed, config.units, log)
    cache: dict[tuple, np.ndarray] = {}

    def cached(params: dict[str, float]) -> np.ndarray:
        key = tuple(sorted(params.items()))
        if key not in cache:
            cache[key] = evaluate(params)
        return cache[key]

    log(f"tuning {', '.join(r.name for r in config.ranges)} for {config.ruleset} "
        f"({config.objective}), {config.units:,} units per candidate")
    result = search(cached, list(config.ranges), start, grid_points=config.grid, log=log)
    profiles = {r.name: _profile(cached, result.best, r, config.grid) for r in config.ranges}
    idle: list[str] = []
    for r in config.ranges:  # a parameter the rules never consult would "tune" to noise-free 0
        curve = [cached({**result.best, r.name: v}) for v in profiles[r.name]["value"]]
        if all(np.array_equal(curve[0], c) for c in curve[1:]):
            if keep_idle:
                result.best[r.name] = start[r.name]
                idle.append(r.name)
                log(f"{r.name}: every value played the same against this baseline (the decision "
                    f"never arose); it keeps the baseline's {start[r.name]:g}")
                continue
            raise UserError(f"tune.{r.name} = [{r.low:g}, {r.high:g}, {r.resolution:g}]: every value "
                            f"played the same with these rules of {config.ruleset} (the parameter has "
                            f"no effect); tune a parameter these rules use. Nothing was written")
    verification = None
    if verify:
        log("verification on a fresh seed")
        verification = _verification(config, result.best, log)
    return TuneResult(config, result, result.best, {r.name: float(base_params[r.name]) for r in config.ranges},
                      profiles, verification, idle=idle, evaluate=cached)


def write_outputs(result: TuneResult) -> dict[str, Path]:
    """thresholds.toml, the report (gain curves with bands) and the tables, under
    <output>/<name>/."""
    from simcards.tune.report import write_tune_report

    out_dir = Path(result.config.output) / result.config.name
    out_dir.mkdir(parents=True, exist_ok=True)
    thresholds = out_dir / "thresholds.toml"
    text = thresholds_toml(result)
    tomllib.loads(text)  # what we write must read back
    replace_file(thresholds, text)
    paths = write_tune_report(result, out_dir)
    paths["thresholds"] = thresholds
    return paths
