"""The pipeline end to end: config -> runner -> Parquet -> report, through the CLI."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest

from simcards.cli import main
from simcards.config import ConfigError, load_config
from simcards.dataset import open_run
from simcards.runner import run

CONFIG = """
name = "{name}"
ruleset = "klaverjas-rotterdam"
deals = {deals}
seed = 11
chunk_size = {chunk}
workers = {workers}
backend = "{backend}"
output = "{output}"
bots = ["heuristic", "random", "heuristic", "random"]

[rules]
nat_on_tie = false
"""


def write_config(tmp_path: Path, name="t", deals=6000, chunk=1500, workers=1, backend="loky",
                 extra="") -> Path:
    path = tmp_path / f"{name}.toml"
    path.write_text(CONFIG.format(name=name, deals=deals, chunk=chunk, workers=workers,
                                  backend=backend, output=tmp_path / "results") + extra)
    return path


def sorted_deals(run_dir: Path) -> pl.DataFrame:
    return open_run(run_dir).scan().collect().sort("deal_index")


@pytest.mark.e2e
def test_end_to_end_run_and_report(tmp_path, capsys):
    cfg = write_config(tmp_path)
    assert main(["run", str(cfg), "--quiet"]) == 0
    run_dir = tmp_path / "results" / "t"
    manifest = json.loads((run_dir / "manifest.json").read_text())
    assert [c["status"] for c in manifest["chunks"]] == ["done"] * 4
    assert manifest["ruleset"] == "klaverjas-rotterdam" and manifest["options"]["nat_on_tie"] is False
    assert manifest["rules_version"] >= 1 and manifest["simcards_version"]
    parts = sorted((run_dir / "deals").glob("part-*.parquet"))
    assert [p.name for p in parts] == [f"part-0000{i}.parquet" for i in range(4)]
    df = sorted_deals(run_dir)
    assert df.height == 6000 and df["deal_index"].to_list() == list(range(6000))
    # the data are exactly what the Python API gives for the same seed and bots
    game_df = __import__("simcards").load("klaverjas-rotterdam", nat_on_tie=False).simulate(
        6000, seed=11, bots=["heuristic", "random", "heuristic", "random"])
    assert df.equals(game_df)

    reports = tmp_path / "reports"
    assert main(["report", str(run_dir), "--out", str(reports)]) == 0
    out = reports / "t"
    html = (out / "report.html").read_text()
    assert "data:image/png;base64," in html and "Nat rate" in html
    for png in ("hand_melds.png", "nat_vs_strength.png", "points_hist.png", "score_hist.png"):
        assert (out / png).stat().st_size > 1000
    assert (out / "report.md").read_text().count("![") >= 4
    assert (out / "tables" / "nat_rate.csv").exists() and (out / "tables" / "nat_rate.parquet").exists()


@pytest.mark.e2e
def test_worker_counts_and_dask_give_identical_data(tmp_path):
    one = write_config(tmp_path, name="one", workers=1)
    two = write_config(tmp_path, name="two", workers=2)
    dask = write_config(tmp_path, name="dask", workers=2, backend="dask")
    for cfg in (one, two, dask):
        run(load_config(cfg), quiet=True)
    base = sorted_deals(tmp_path / "results" / "one")
    assert base.equals(sorted_deals(tmp_path / "results" / "two"))
    assert base.equals(sorted_deals(tmp_path / "results" / "dask"))


@pytest.mark.e2e
def test_a_cold_two_worker_run_compiles_each_kernel_once(tmp_path):
    """The parent compiles the run's kernels before its workers start (runner.compile_kernels);
    the workers load them from the cache: the compile log of a run with an empty cache folder
    names each compiled function once, all from one process."""
    from simcards._jit import read_compile_log

    cfg = write_config(tmp_path, name="cold", deals=3000, chunk=1500, workers=2)
    log = tmp_path / "compile.log"
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"),
           "SIMCARDS_COMPILE_LOG": str(log)}
    subprocess.run([sys.executable, "-m", "simcards.cli", "run", str(cfg), "--quiet"], env=env,
                   check=True, capture_output=True)
    lines = read_compile_log(log)
    assert lines, "a cold run compiles"
    assert len({line["pid"] for line in lines}) == 1
    compiled = [(line["function"], line["args"]) for line in lines]
    assert len(compiled) == len(set(compiled))
    manifest = json.loads((tmp_path / "results" / "cold" / "manifest.json").read_text())
    assert manifest["timings"]["workers"] == 2 and len(manifest["chunks"]) == 2
    assert manifest["timings"]["compile_seconds"] > 0
    # and the data are those of a warm run in this process
    assert sorted_deals(tmp_path / "results" / "cold").equals(
        __import__("simcards").load("klaverjas-rotterdam", nat_on_tie=False).simulate(
            3000, seed=11, bots=["heuristic", "random", "heuristic", "random"]))


@pytest.mark.e2e
def test_killed_run_resumes_to_the_same_data(tmp_path):
    cfg = write_config(tmp_path, name="k", deals=60_000, chunk=2000, workers=1)
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "simcards.cli", "run", str(cfg), "--quiet"],
                            env=env, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    parts_dir = tmp_path / "results" / "k" / "deals"
    deadline = time.time() + 120
    while time.time() < deadline:
        done = list(parts_dir.glob("part-*.parquet")) if parts_dir.exists() else []
        if len(done) >= 3:
            break
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)  # really kill it, mid-run
    proc.wait()
    made = len(list(parts_dir.glob("part-*.parquet")))
    assert 3 <= made < 30, "the run should have been killed part-way"
    manifest = run(load_config(cfg), quiet=True)  # resume
    assert all(c["status"] == "done" for c in manifest["chunks"])
    assert not list(parts_dir.glob(".*.tmp"))
    resumed = sorted_deals(tmp_path / "results" / "k")
    fresh_cfg = write_config(tmp_path, name="fresh", deals=60_000, chunk=2000, workers=1)
    run(load_config(fresh_cfg), quiet=True)
    assert resumed.equals(sorted_deals(tmp_path / "results" / "fresh"))


def test_rerun_keeps_finished_parts_and_force_starts_over(tmp_path):
    cfg = write_config(tmp_path)
    run(load_config(cfg), quiet=True)
    part = tmp_path / "results" / "t" / "deals" / "part-00001.parquet"
    stamp = part.stat().st_mtime_ns
    run(load_config(cfg), quiet=True)
    assert part.stat().st_mtime_ns == stamp
    run(load_config(cfg), force=True, quiet=True)
    assert part.stat().st_mtime_ns != stamp


def test_corrupt_part_is_reported_by_name_and_remade(tmp_path, capsys):
    cfg = write_config(tmp_path)
    run(load_config(cfg), quiet=True)
    run_dir = tmp_path / "results" / "t"
    before = sorted_deals(run_dir)
    part = run_dir / "deals" / "part-00002.parquet"
    part.write_bytes(part.read_bytes()[:100])
    assert main(["report", str(run_dir), "--out", str(tmp_path / "reports")]) == 2
    assert "part-00002.parquet" in capsys.readouterr().err
    assert main(["run", str(cfg), "--quiet"]) == 0
    assert "part-00002.parquet" in capsys.readouterr().out  # the warning names it
    assert sorted_deals(run_dir).equals(before)


def test_changed_config_needs_force(tmp_path, capsys):
    cfg = write_config(tmp_path)
    run(load_config(cfg), quiet=True)
    cfg.write_text(cfg.read_text().replace("seed = 11", "seed = 12"))
    assert main(["run", str(cfg), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "seed" in err and "--force" in err


@pytest.mark.parametrize("change, key", [
    (("klaverjas-rotterdam", "klaverjas-utrecht"), "ruleset"),
    (("nat_on_tie = false", "nat_on_tie = false\nroem_mode = 3"), "rules.roem_mode"),
    (("deals = 6000", "deals = -5"), "deals"),
    (("seed = 11", 'seed = "eleven"'), "seed"),
    (('["heuristic", "random", "heuristic", "random"]', '["heuristic", "smart", "heuristic", "random"]'),
     "bots[1].kind"),
    (("nat_on_tie = false", "nat_on_tie = 1"), "rules.nat_on_tie"),
    (("workers = 1", "workers = 0"), "workers"),
    (('backend = "loky"', 'backend = "spark"'), "backend"),
])
def test_invalid_config_exits_2_naming_the_key_and_writes_nothing(tmp_path, capsys, change, key):
    cfg = write_config(tmp_path)
    cfg.write_text(cfg.read_text().replace(*change))
    assert main(["run", str(cfg)]) == 2
    err = capsys.readouterr().err
    assert f"{key} = " in err and "use " in err
    assert "Traceback" not in err
    assert not (tmp_path / "results").exists()


def test_all_problems_reported_at_once(tmp_path):
    cfg = write_config(tmp_path)
    cfg.write_text(cfg.read_text().replace("deals = 6000", "deals = 0").replace("seed = 11", "seed = -1")
                   .replace("nat_on_tie = false", "nat = 1"))
    with pytest.raises(ConfigError) as info:
        load_config(cfg)
    keys = [p[0] for p in info.value.problems]
    assert keys == ["deals", "seed", "rules.nat"]


def test_missing_config_and_not_a_run(tmp_path, capsys):
    assert main(["run", str(tmp_path / "nope.toml")]) == 2
    assert "nope.toml" in capsys.readouterr().err
    assert main(["report", str(tmp_path)]) == 2
    assert "not a simcards run" in capsys.readouterr().err


def test_rulesets_and_replay_commands(tmp_path, capsys):
    assert main(["rulesets", "--columns"]) == 0
    out = capsys.readouterr().out
    assert "klaverjas-amsterdam" in out and "nat_on_tie" in out and "roem_hand_3" in out
    cfg = write_config(tmp_path, deals=100, chunk=100)
    run(load_config(cfg), quiet=True)
    assert main(["replay", str(tmp_path / "results" / "t"), "--deal", "42"]) == 0
    out = capsys.readouterr().out
    assert "trick  8:" in out and "score" in out
    row = sorted_deals(tmp_path / "results" / "t").row(42, named=True)
    assert f"score: [{row['score_0']}, {row['score_1']}]" in out


def test_help_exits_cleanly():
    for args in (["--help"], ["run", "--help"], ["report", "--help"], ["replay", "--help"],
                 ["tune", "--help"], ["tournament", "--help"], ["rulesets", "--help"], ["bench", "--help"]):
        with pytest.raises(SystemExit) as info:
            main(args)
        assert info.value.code == 0


@pytest.mark.e2e
def test_tournament_command_writes_report(tmp_path, capsys):
    cfg = Path(__file__).resolve().parent.parent / "configs" / "tournament-hearts.toml"
    assert main(["tournament", str(cfg), "--games", "3", "--out", str(tmp_path)]) == 0
    out = tmp_path / "tournament-hearts"
    assert (out / "ratings.png").exists() and (out / "placings.png").exists()
    ratings = pl.read_csv(out / "tables" / "ratings.csv")
    assert ratings.height == 4 and set(ratings["games"]) == {12}
    assert "Final ratings" in (out / "report.html").read_text()


def test_tournament_config_errors_exit_2(tmp_path, capsys):
    bad = tmp_path / "t.toml"
    bad.write_text('name = "t"\nruleset = "hearts"\ngames = 0\n[entrants.a]\nkind = "random"\n')
    assert main(["tournament", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "games = 0" in err and "entrants = " in err


def test_bench_json_is_one_object(capsys, monkeypatch):
    import json as _json

    from simcards.games.klaverjas.solver import KlaverjasSolver

    # one pimc deal (timed three times) is enough for a figure; --quick plays five
    monkeypatch.setattr(KlaverjasSolver, "bench_pimc_deals", (1, 20))
    assert main(["bench", "--json", "--quick", "--no-e2e", "--no-compile", "--seconds", "0.05",
                 "--rulesets", "klaverjas-rotterdam"]) == 0
    data = _json.loads(capsys.readouterr().out)
    assert data["kernel"]["klaverjas-rotterdam"]["random"] > 0
    assert data["kernel"]["klaverjas-rotterdam"]["heuristic"] > 0
    solver = data["solver"]["klaverjas-rotterdam"]
    assert solver["repeats"] == 3 and solver["solve_median_ms"] > 0 and solver["pimc_deals_per_s"] > 0
    assert solver["solve_median_lo_ms"] <= solver["solve_median_ms"] <= solver["solve_median_hi_ms"]
    assert solver["deals"] == 40 and solver["positions_median"] > 0


def test_bench_reports_a_cold_compile_figure_per_ruleset(capsys, monkeypatch):
    """bench runs a first simulate per ruleset in a fresh process and cache (`cold_first_run`,
    stubbed here: a test never compiles cold for a figure) and reports it, in --json too."""
    from simcards import bench

    asked = []

    def fake(ruleset, *args, **kwargs):
        asked.append(ruleset)
        return {"import_seconds": 1.0, "wall_seconds": 9.0, "compile_seconds": 7.5,
                "compiles": 12, "cpu_seconds": 8.0}

    monkeypatch.setattr(bench, "cold_first_run", fake)
    args = ["--quick", "--no-e2e", "--no-user-bots", "--no-solver", "--seconds", "0.05",
            "--rulesets", "hearts", "doppelkopf"]
    assert bench.main(["--json", *args]) == 0
    data = json.loads(capsys.readouterr().out)
    assert asked == ["hearts", "doppelkopf"]
    assert data["compile"]["hearts"]["compile_seconds"] == 7.5
    assert bench.main(args) == 0
    assert "7.5 s" in capsys.readouterr().out


@pytest.mark.parametrize("double_dummy,warned", [(False, True), (True, False)])
def test_small_chunks_warn_only_when_they_are_quick(tmp_path, double_dummy, warned):
    """Chunks below the size that pays a part's costs get a warning, unless each deal is slow
    enough (a double-dummy solve per deal) that a small chunk is still seconds of work."""
    from simcards.config import parse_config
    from simcards.runner import _check_scale, prepare

    config = parse_config({"name": "small", "ruleset": "klaverjas-rotterdam", "deals": 6000,
                           "chunk_size": 1500, "output": str(tmp_path / "results"),
                           "rules": {"double_dummy": double_dummy}})
    said = []
    _check_scale(prepare(config, log=said.append), 1, False, said.append)
    assert any("chunk_size = 1,500 is small" in line for line in said) == warned
