"""`simcards tune` with ``mode = "equilibrium"``: the iterations' stopping rules, the edge
detection, bad input, outputs; and baseline mode as it was.

The stopping logic is tested on a synthetic game standing in for the simulation (a fake
`DuplicateEvaluator`) whose best response to a profile is known: a hand's estimate x ~ U(0, 100),
and a bid at threshold t gains (x - best_response(profile)) / 10 plus noise, so the best
threshold against the profile y is best_response(y). The real search, gain curves,
verification and outputs run on it."""

import json
import math
import tomllib
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

import simcards.tune as tuning
from simcards.cli import main
from simcards.tune import ParamRange, TuneConfig, load_tune_config, tune
from test_tuning import TUNE

from simcards.tune.equilibrium import (ITERATION_SEED_STRIDE, iteration_seeds, range_edges,
                                       tune_equilibrium, write_equilibrium_outputs)

PARAM = "declare_threshold"  # a real parameter of the ruleset's bot, played by the fake


def fake_evaluator(best_response, noise: float = 5.0, lowest: float = 0.0):
    """A `DuplicateEvaluator` stand-in: per-unit gains of threshold t against the profile's
    threshold y, on the evaluator's seed. Units where t and y decide alike gain exactly 0."""

    class Fake:
        def __init__(self, config, seed, units, log):
            rng = np.random.default_rng(seed)
            self.x = rng.uniform(lowest, 100, units)
            self.noise = rng.normal(0, noise, self.x.size)
            self.against = config.baseline["params"][PARAM]
            self.log, self.calls = log, 0

        def __call__(self, params):
            t, y = params[PARAM], self.against
            differs = (self.x >= t).astype(float) - (self.x >= y)
            self.calls += 1
            gains = differs * ((self.x - best_response(y)) / 10 + self.noise)
            self.log(f"  candidate {self.calls}: {params} -> gain {gains.mean():+.4g}")
            return gains

    return Fake


def config(tmp_path, low=0.0, high=100.0, start=50.0, **changes) -> TuneConfig:
    base = TuneConfig(name="eq", ruleset="klaverjas-amsterdam", units=20_000, seed=3,
                      objective="score", baseline={"kind": "heuristic", "params": {PARAM: start}},
                      ranges=(ParamRange(PARAM, low, high, 0.5),), rules={"trump_selection": "free"},
                      grid=7, verify=40_000, verify_seed=3 + 1_000_003, workers=1,
                      output=str(tmp_path), mode="equilibrium", tolerance=0.0, max_iterations=6)
    return replace(base, **changes)


def run(monkeypatch, cfg, best_response, **fake):
    monkeypatch.setattr(tuning, "DuplicateEvaluator", fake_evaluator(best_response, **fake))
    lines: list[str] = []
    return tune_equilibrium(cfg, log=lines.append), lines


def test_stops_after_two_iterations_in_a_row_without_gain(tmp_path, monkeypatch):
    """Best response 40 + y/2 (fixed point 80): from 50 the gains shrink until two iterations in
    a row find none; the shipped profile is the one the last iteration was tuned against, and
    the exploitability is that iteration's verification."""
    result, lines = run(monkeypatch, config(tmp_path), lambda y: 40 + y / 2)
    its = result.iterations
    assert result.converged and len(its) >= 3
    assert its[-1].settled and its[-2].settled
    assert not any(a.settled and b.settled for a, b in zip(its[:-2], its[1:-1]))
    assert its[0].verification["lo"] > 0  # the untuned 50 is beaten
    assert result.shipped == its[-2].best == its[-1].against
    assert abs(result.shipped[PARAM] - 80) <= 6
    e = result.exploitability
    assert e is its[-1].verification and e["lo"] <= 0 <= e["hi"] or e["gain"] < 0
    # each iteration searches against the one before, starting there, on seeds of its own
    for before, it in zip(its, its[1:]):
        assert it.against == before.best
    seeds = [s for it in its for s in (it.tune_seed, it.verify_seed)]
    assert len(set(seeds)) == len(seeds) and its[0].tune_seed == 3 and its[0].verify_seed == 1_000_006
    assert its[1].tune_seed == 3 + ITERATION_SEED_STRIDE
    # the progress names the iteration and the candidate
    assert any(line.startswith("iteration 2, candidate 1:") for line in lines)
    assert any(line.startswith("equilibrium after") for line in lines)


def test_a_gain_below_the_tolerance_is_no_gain(tmp_path, monkeypatch):
    """With a tolerance above every gain, iterations 1 and 2 find no gain: iteration 1's best
    response ships."""
    result, _ = run(monkeypatch, config(tmp_path, tolerance=10.0), lambda y: 40 + y / 2)
    assert result.converged and len(result.iterations) == 2
    first = result.iterations[0]
    assert first.verification["lo"] > 0 and first.no_gain  # significant, but below the tolerance
    assert "below the tolerance" in first.verdict()
    assert result.shipped == first.best


def test_stops_at_max_iterations_and_says_so(tmp_path, monkeypatch):
    """Best response 100 - y cycles 25 -> 75 -> 25 with a gain every time: the run stops at
    max_iterations, ships the last best response and says it is not an equilibrium (log,
    thresholds.toml, report, iterations.json)."""
    cfg = config(tmp_path, start=25.0, max_iterations=3)
    result, lines = run(monkeypatch, cfg, lambda y: 100 - y)
    assert not result.converged and len(result.iterations) == 3
    assert all(not it.no_gain for it in result.iterations)
    assert result.shipped == result.iterations[-1].best
    assert result.exploitability is None
    assert any("NOT an equilibrium: stopped at max_iterations = 3" in line for line in lines)
    paths = write_equilibrium_outputs(result, "simcards tune eq.toml")
    text = paths["thresholds"].read_text()
    comments = " ".join(line[2:] for line in text.splitlines() if line.startswith("# "))
    assert "NOT an equilibrium: stopped at max_iterations = 3" in comments
    assert tomllib.loads(text)["bots"]["params"][PARAM] == result.shipped[PARAM]
    assert "max_iterations" in paths["markdown"].read_text()
    data = json.loads(paths["iterations"].read_text())
    assert data["converged"] is False and len(data["iterations"]) == 3


def test_damping_settles_best_responses_that_overshoot(tmp_path, monkeypatch):
    """Best response 150 - 1.5 y overshoots its fixed point 60: plain iterations swing to the
    range's edges (25 -> 100 -> 0 -> 100) and never settle; with damping 0.5 each profile goes
    half-way to its best response (on the resolution grid) and the run settles near 60."""
    def overshoot(y):
        return 150 - 1.5 * y

    plain, _ = run(monkeypatch, config(tmp_path, start=25.0, max_iterations=4), overshoot)
    assert not plain.converged
    damped, lines = run(monkeypatch, config(tmp_path, start=25.0, max_iterations=10, damping=0.5),
                        overshoot)
    assert damped.converged and abs(damped.shipped[PARAM] - 60) <= 6
    its = damped.iterations
    for before, it in zip(its, its[1:]):
        halfway = before.against[PARAM] + 0.5 * (before.best[PARAM] - before.against[PARAM])
        assert abs(it.against[PARAM] - halfway) <= 0.25 and it.against[PARAM] % 0.5 == 0
    paths = write_equilibrium_outputs(damped, "simcards tune eq.toml")
    assert "damping 0.5" in paths["thresholds"].read_text()
    assert json.loads(paths["iterations"].read_text())["damping"] == 0.5
    assert "With damping 0.5" in paths["markdown"].read_text()


def test_a_value_at_the_edge_of_its_range_is_named_and_never_settles(tmp_path, monkeypatch):
    """The best response lies above the range: the search ends at its high edge. However small
    the later gains, the run does not claim an equilibrium, and says which parameter to widen."""
    cfg = config(tmp_path, low=0.0, high=60.0, max_iterations=3)
    result, lines = run(monkeypatch, cfg, lambda y: 90.0)
    assert not result.converged
    assert all(it.edges and not it.settled for it in result.iterations)
    assert result.iterations[-1].no_gain  # no gain, but at the edge
    edge = result.iterations[0].edges[0]
    assert (edge["parameter"], edge["edge"], edge["limit"]) == (PARAM, "high", 60.0)
    assert any(f"{PARAM} = 60 is within one resolution step of the high edge" in line
               and f"widen tune.{PARAM}" in line for line in lines)
    paths = write_equilibrium_outputs(result, "simcards tune eq.toml")
    comments = " ".join(line[2:] for line in paths["thresholds"].read_text().splitlines()
                        if line.startswith("# "))
    assert (f"WARNING: {PARAM} ended within one resolution step of the high edge of its range "
            f"(60) in iterations 1, 2, 3") in comments
    assert f"widen tune.{PARAM}" in paths["markdown"].read_text()


def test_an_edge_in_a_flat_stretch_is_no_edge(tmp_path, monkeypatch):
    """Every estimate is at least 20 and bidding always pays: every threshold up to 20 plays
    alike, and the search's tie goes to the range's low edge. That edge does not bind (the value
    one step inward plays the same on every unit), so the run may settle there."""
    result, _ = run(monkeypatch, config(tmp_path, low=0.0, high=100.0), lambda y: 10.0, lowest=20.0)
    assert result.iterations[0].best[PARAM] <= 0.5
    assert not any(it.edges for it in result.iterations)
    assert result.converged


def test_range_edges_within_one_resolution_step():
    r = ParamRange("a", 0.3, 0.9, 0.01)
    assert range_edges({"a": 0.31}, [r])[0]["edge"] == "low"
    assert range_edges({"a": 0.89}, [r])[0]["edge"] == "high"
    assert range_edges({"a": 0.32}, [r]) == [] and range_edges({"a": 0.88}, [r]) == []


def test_a_verify_seed_on_the_stride_is_refused(tmp_path):
    cfg = config(tmp_path, verify_seed=3 + 2 * ITERATION_SEED_STRIDE)
    with pytest.raises(tuning.UserError, match="verify_seed"):
        iteration_seeds(cfg)


def test_iteration_seeds_stay_within_int64(tmp_path):
    top = 2**63 - 1
    cfg = config(tmp_path, seed=top, verify_seed=top - 5, max_iterations=3)
    seeds = iteration_seeds(cfg)
    assert seeds[0] == (top, top - 5)
    assert seeds[1] == (ITERATION_SEED_STRIDE - 1, ITERATION_SEED_STRIDE - 6)
    assert all(0 <= s <= top for pair in seeds for s in pair)


def tiny_config(tmp_path, extra: str = "") -> Path:
    """test_tuning.py's tiny Klaverjassen config (1,500 deals against a threshold of 140), with
    ``extra`` top-level keys."""
    path = tmp_path / "t.toml"
    path.write_text(extra + "\n" + TUNE.format(start=140))
    return path


@pytest.mark.parametrize("extra, key, allowed", [
    ('mode = "nash"', "mode", "'baseline', 'equilibrium'"),
    ("max_iterations = 0", "max_iterations", "an integer from 1 to 100"),
    ("max_iterations = 1_000_000_000", "max_iterations", "an integer from 1 to 100"),
    ("tolerance = -0.5", "tolerance", "a finite number >= 0"),
    ("tolerance = inf", "tolerance", "a finite number >= 0"),
    ("damping = 1", "damping", "a number from 0"),
    ("damping = -0.25", "damping", "a number from 0"),
    ("damping = true", "damping", "a number from 0"),
])
def test_bad_equilibrium_input_is_one_message_and_exit_2(tmp_path, capsys, extra, key, allowed):
    cfg = tiny_config(tmp_path, f'mode = "equilibrium"\n{extra}' if key != "mode" else extra)
    assert main(["tune", str(cfg), "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("simcards: error: ") and "Traceback" not in err
    assert f"{key} = " in err and allowed in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "x").exists()


def test_baseline_mode_is_unchanged(tmp_path):
    """The tiny config of test_tuning.py gives what it gave on main 4e84950, before equilibrium
    mode existed: the same choice and the same verification, to the last digit."""
    cfg = tiny_config(tmp_path)
    config = load_tune_config(cfg)
    assert (config.mode, config.tolerance, config.max_iterations) == ("baseline", 0.0, 6)
    result = tune(config, log=lambda _: None)
    assert result.best == {PARAM: 100.0}
    v = result.verification
    assert (v["seed"], v["units"], v["gain"]) == (1_000_006, 3000, 36.704)
    assert math.isclose(v["se"], 1.4607044010051127, rel_tol=1e-12)
    assert [c.gain for c in result.search.candidates][:2] == pytest.approx([16.715333333333334, 36.644], rel=1e-12)


def test_equilibrium_through_the_cli(tmp_path, capsys):
    """The real simulation, tiny: the command writes thresholds.toml (an includable profile with
    the command and the result), iterations.json and the report with the parameter paths and the
    exploitability."""
    cfg = tiny_config(tmp_path, 'mode = "equilibrium"\nmax_iterations = 2')
    assert main(["tune", str(cfg), "--out", str(tmp_path / "r"), "--units", "800"]) == 0
    out = capsys.readouterr().out
    assert "iteration 2, candidate 1:" in out
    folder = tmp_path / "r" / "t"
    data = json.loads((folder / "iterations.json").read_text())
    assert [it["iteration"] for it in data["iterations"]] == [1, 2]
    text = (folder / "thresholds.toml").read_text()
    assert f"simcards tune {cfg} --units 800" in text
    assert tomllib.loads(text)["bots"]["params"][PARAM] == data["shipped"][PARAM]
    assert (folder / f"path_{PARAM}.png").exists() and (folder / "iteration_gains.png").exists()
    report = (folder / "report.md").read_text()
    assert report.rstrip().splitlines()[0].endswith("(equilibrium)")
    assert "## Exploitability" in report and report.index("## Exploitability") > report.index("## Iterations")


def test_a_decision_that_never_arises_keeps_the_profiles_value(tmp_path, monkeypatch):
    """A second parameter matters only while the profile's first is below 50 (as a superkraak
    matters only against a profile that rekraaks): from iteration 2 on it has no effect, keeps
    the profile's value, and the run goes on instead of refusing the parameter."""
    other = "pull_trumps_min"

    class Fake:
        def __init__(self, config, seed, units, log):
            rng = np.random.default_rng(seed)
            self.x, self.z = rng.uniform(0, 100, (2, units))
            self.profile = config.baseline["params"]

        def __call__(self, params):
            y, w = self.profile[PARAM], self.profile[other]
            gains = ((self.x >= params[PARAM]).astype(float) - (self.x >= y)) * (self.x - 70) / 10
            if y < 50:
                gains += ((self.z >= params[other]).astype(float) - (self.z >= w)) * (self.z - 30) / 10
            return gains

    monkeypatch.setattr(tuning, "DuplicateEvaluator", Fake)
    cfg = config(tmp_path, start=25.0, max_iterations=3)
    cfg = replace(cfg, baseline={"kind": "heuristic", "params": {PARAM: 25.0, other: 80.0}},
                  ranges=cfg.ranges + (ParamRange(other, 0, 100, 0.5),))
    lines: list[str] = []
    result = tune_equilibrium(cfg, log=lines.append)
    first, second = result.iterations[:2]
    assert first.result.idle == [] and abs(first.best[other] - 30) <= 3
    assert second.result.idle == [other] and second.best[other] == first.best[other]
    assert any(f"iteration 2, {other}: every value played the same" in line for line in lines)
    assert "never arose" in second.verdict()


def test_a_profile_that_is_its_own_best_response(tmp_path, monkeypatch):
    """Starting at the best response: both iterations choose the profile itself, whose duplicate
    match against itself is exactly 0 (not played); the report names the best other candidate."""
    result, _ = run(monkeypatch, config(tmp_path, start=70.0), lambda y: 70.0, noise=0.0)
    assert result.converged and len(result.iterations) == 2
    assert result.shipped == {PARAM: 70.0}
    e = result.exploitability
    assert e["identical"] and (e["gain"], e["lo"], e["hi"]) == (0.0, 0.0, 0.0)
    report = write_equilibrium_outputs(result, "simcards tune eq.toml")["markdown"].read_text()
    assert "is the profile itself" in report and "the best other, declare_threshold = " in report


@pytest.mark.parametrize("path", sorted((Path(__file__).resolve().parent.parent / "configs").glob("tune-*.toml")),
                         ids=lambda p: p.name)
def test_every_shipped_tune_config_loads(path):
    config = load_tune_config(path)
    assert config.mode in ("baseline", "equilibrium") and config.verify >= config.units
