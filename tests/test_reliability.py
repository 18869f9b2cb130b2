"""Fault tests of issue 10: damaged, truncated, foreign and deleted parts; SIGKILL at three points;
two runs into one folder; extending a finished run; Dask workers killed on a real LocalCluster.
After each, the next `simcards run` and `simcards report` give exactly the data of an
uninterrupted run (compared with `Game.simulate_chunk`), or a clear message."""

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

import simcards
from simcards import runner
from simcards.config import load_config
from simcards.dataset import open_run
from simcards.manifest import RunLock
from simcards.runner import run
from simcards.verify import verify_run

pytestmark = pytest.mark.e2e  # every test here makes runs end to end

SEED = 21
BOTS = ["heuristic", "random", "heuristic", "random"]


def write_config(tmp_path: Path, name="r", ruleset="klaverjas-rotterdam", count=2000, chunk=500,
                 extra="") -> Path:
    units = "matches" if simcards.load(ruleset).unit == "match" else "deals"
    path = tmp_path / f"{name}.toml"
    path.write_text(f'name = "{name}"\nruleset = "{ruleset}"\n{units} = {count}\nseed = {SEED}\n'
                    f'chunk_size = {chunk}\nworkers = 1\noutput = "{tmp_path / "results"}"\n'
                    f'bots = {json.dumps(BOTS)}\n{extra}')
    return path


def cli(*args, timeout=180) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "simcards.cli", *map(str, args)],
                          capture_output=True, text=True, timeout=timeout)


def start(*args) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "simcards.cli", *map(str, args)],
                            start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def quiet_run(cfg: Path, **overrides) -> dict:
    return run(load_config(cfg, **overrides), quiet=True, log=lambda _: None)


def expected(ruleset: str, units: int) -> dict[str, pl.DataFrame]:
    return simcards.load(ruleset).simulate_chunk(units, seed=SEED, bots=BOTS)


def assert_same_data(run_dir: Path, ruleset: str, units: int) -> None:
    """The run's data, sorted by unit, equal an uninterrupted simulation; verify finds nothing."""
    data = open_run(run_dir)
    assert data.complete
    for kind, frame in expected(ruleset, units).items():
        key = "deal_index" if kind == "deals" else "match_index"
        assert data.scan(kind).collect().sort(key).equals(frame), kind
    assert verify_run(run_dir)[0] == []


def wait_for(predicate, proc: subprocess.Popen | None = None, timeout=120.0, step=0.005) -> None:
    deadline = time.time() + timeout
    while not predicate():
        assert proc is None or proc.poll() is None, "the run ended before the test could act"
        assert time.time() < deadline, "timed out"
        time.sleep(step)


def parts(run_dir: Path, kind="deals") -> int:
    folder = run_dir / kind
    return len(list(folder.glob("part-*.parquet"))) if folder.exists() else 0


# ---------------------------------------------------------------- damaged parts

def _corrupt_mid_file(path: Path) -> None:
    data = bytearray(path.read_bytes())
    middle = len(data) // 2
    data[middle:middle + 64] = bytes(b ^ 0x5A for b in data[middle:middle + 64])
    path.write_bytes(bytes(data))  # same size, footer intact


def _truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:-25])


def _foreign(path: Path) -> None:  # the same part of a run with another seed
    other = simcards.load("klaverjas-rotterdam").simulate(500, seed=SEED + 1, bots=BOTS, start=500 * 3)
    other.write_parquet(path, compression="zstd", compression_level=1)


def test_damaged_parts_are_named_by_report_and_verify_and_made_again(tmp_path):
    cfg = write_config(tmp_path, count=2500)
    quiet_run(cfg)
    run_dir = tmp_path / "results" / "r"
    damaged = {i: run_dir / "deals" / f"part-0000{i}.parquet" for i in (1, 2, 3)}
    size = damaged[1].stat().st_size
    _corrupt_mid_file(damaged[1])
    assert damaged[1].stat().st_size == size
    _truncate(damaged[2])
    _foreign(damaged[3])
    report = cli("report", run_dir, "--out", tmp_path / "reports")
    assert report.returncode == 2 and "Traceback" not in report.stderr
    assert str(damaged[1]) in report.stderr and "SHA-256 does not match" in report.stderr
    assert not (tmp_path / "reports" / "r").exists()
    check = cli("verify", run_dir)
    assert check.returncode == 2 and "3 problem(s)" in check.stderr
    assert all(str(p) in check.stdout for p in damaged.values()) and "part-00000" not in check.stdout
    kept = (run_dir / "deals" / "part-00004.parquet").stat().st_mtime_ns
    again = cli("run", cfg, "--quiet")
    assert again.returncode == 0
    assert all(f"warning: {p}" in again.stdout for p in damaged.values()) and "making it again" in again.stdout
    assert (run_dir / "deals" / "part-00004.parquet").stat().st_mtime_ns == kept  # good parts kept
    assert_same_data(run_dir, "klaverjas-rotterdam", 2500)
    assert cli("report", run_dir, "--out", tmp_path / "reports").returncode == 0


def test_deleted_parts_of_deals_and_of_matches_are_named_and_made_again(tmp_path):
    cfg = write_config(tmp_path, ruleset="kraken-contra", count=12, chunk=4)
    quiet_run(cfg)
    run_dir = tmp_path / "results" / "r"
    deals, matches = run_dir / "deals" / "part-00001.parquet", run_dir / "matches" / "part-00002.parquet"
    deals.unlink()
    matches.unlink()
    check = cli("verify", run_dir)
    assert check.returncode == 2
    assert f"{deals} is missing" in check.stdout and f"{matches} is missing" in check.stdout
    report = cli("report", run_dir, "--out", tmp_path / "reports")
    assert report.returncode == 2 and f"{deals} is missing" in report.stderr
    again = cli("run", cfg, "--quiet")
    assert again.returncode == 0
    assert f"warning: {deals} is missing" in again.stdout and f"warning: {matches} is missing" in again.stdout
    assert "matches/part-00001" not in again.stdout and "deals/part-00002" not in again.stdout
    assert_same_data(run_dir, "kraken-contra", 12)


# ---------------------------------------------------------------- SIGKILL, locks, extension

KILL_DEALS, KILL_CHUNK = 200_000, 4000  # 50 parts


@pytest.mark.parametrize("point", ["first part", "middle", "last parts"])
def test_sigkill_at_three_points_resumes_to_the_same_data(tmp_path, point):
    cfg = write_config(tmp_path, count=KILL_DEALS, chunk=KILL_CHUNK)
    run_dir = tmp_path / "results" / "r"
    proc = start("run", cfg, "--quiet")
    if point == "first part":
        wait_for(lambda: (run_dir / "manifest.json").exists(), proc)
    else:
        need = 20 if point == "middle" else 44
        wait_for(lambda: parts(run_dir) >= need, proc)
    os.killpg(proc.pid, signal.SIGKILL)
    assert proc.wait() == -signal.SIGKILL
    assert parts(run_dir) < KILL_DEALS // KILL_CHUNK or not open_run(run_dir).complete
    again = cli("run", cfg, "--quiet")
    assert again.returncode == 0 and "finished" in again.stdout
    assert not list((run_dir / "deals").glob(".*.tmp")) and not (run_dir / ".lock").exists()
    assert_same_data(run_dir, "klaverjas-rotterdam", KILL_DEALS)


def test_two_runs_into_one_folder_and_a_dead_run_leaves_no_stuck_lock(tmp_path):
    # long enough to meet a second run however slowly that one starts: it is killed once checked
    cfg = write_config(tmp_path, count=50_000_000, chunk=50_000)
    run_dir = tmp_path / "results" / "r"
    first = start("run", cfg, "--quiet")
    wait_for(lambda: parts(run_dir) >= 2, first)
    second = cli("run", cfg, "--quiet")
    assert second.returncode == 2 and "is being written by another simcards run" in second.stderr
    assert f"pid {first.pid}" in second.stderr and "Traceback" not in second.stderr
    os.killpg(first.pid, signal.SIGKILL)
    first.wait()
    assert (run_dir / ".lock").exists()  # left by the dead run, but not held
    RunLock(run_dir).acquire().release()  # the next run can take the folder


@pytest.mark.parametrize("ruleset, first, more, chunk", [("klaverjas-rotterdam", 1000, 2500, 300),
                                                          ("kraken-contra", 10, 19, 4)])
def test_a_finished_run_is_extended_and_never_shrunk(tmp_path, ruleset, first, more, chunk):
    cfg = write_config(tmp_path, ruleset=ruleset, count=first, chunk=chunk)
    quiet_run(cfg)
    run_dir = tmp_path / "results" / "r"
    kept = (run_dir / "deals" / "part-00000.parquet").stat().st_mtime_ns
    result = cli("run", cfg, "--deals", more, "--quiet")
    assert result.returncode == 0, result.stderr
    assert (run_dir / "deals" / "part-00000.parquet").stat().st_mtime_ns == kept
    assert_same_data(run_dir, ruleset, more)  # the partial last part was made again, full
    units = "matches" if ruleset.startswith("kraken") else "deals"
    fewer = cli("run", cfg, "--deals", more - 1)
    assert fewer.returncode == 2 and f"holds {more:,} {units}" in fewer.stderr and "--force" in fewer.stderr
    assert cli("run", cfg).returncode == 2  # the config's own count is now fewer too
    assert_same_data(run_dir, ruleset, more)


def test_manifest_writes_are_batched(tmp_path, monkeypatch):
    writes = []
    real = runner._write_json_atomic
    monkeypatch.setattr(runner, "_write_json_atomic", lambda path, data: (writes.append(path), real(path, data)))
    monkeypatch.setattr(runner, "MANIFEST_EVERY", 3600.0)
    cfg = write_config(tmp_path, count=3000, chunk=50)  # 60 chunks
    manifest = quiet_run(cfg)
    assert len(writes) == 2  # when the run starts and when it ends
    assert [e["index"] for e in manifest["chunks"]] == list(range(60))
    assert_same_data(tmp_path / "results" / "r", "klaverjas-rotterdam", 3000)


def test_the_chunk_plan_and_manifest_stay_small_for_a_huge_count(tmp_path):
    cfg = write_config(tmp_path, count=10**15, chunk=1000)
    work = runner.prepare(load_config(cfg), log=lambda _: None)
    assert work.n_pending == 10**12 and work.manifest["chunks"] == []
    assert len(json.dumps(work.manifest)) < 5000
    assert next(work.pending()) == runner.Chunk(0, 0, 1000)


# ---------------------------------------------------------------- Dask on a real LocalCluster

@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, host="127.0.0.1") as cluster, \
            distributed.Client(cluster) as client:
        yield cluster, client


def _dask_config(tmp_path, address, count=100_000, chunk=2000, extra=""):
    return write_config(tmp_path, count=count, chunk=chunk,
                        extra=f'backend = "dask"\nscheduler = "{address}"\n{extra}')


def test_dask_reports_the_workers_it_has(tmp_path, cluster):
    cluster, client = cluster
    cfg = _dask_config(tmp_path, cluster.scheduler_address, count=4000, chunk=1000)
    result = cli("run", cfg, "--workers", "5", "--quiet")
    assert result.returncode == 0, result.stderr
    assert "2 dask worker(s)" in result.stdout
    assert_same_data(tmp_path / "results" / "r", "klaverjas-rotterdam", 4000)


def test_dask_run_survives_a_killed_worker(tmp_path, cluster):
    cluster, client = cluster
    cfg = _dask_config(tmp_path, cluster.scheduler_address)
    run_dir = tmp_path / "results" / "r"
    proc = start("run", cfg, "--quiet")
    wait_for(lambda: parts(run_dir) >= 4, proc)
    victim = next(iter(client.run(os.getpid).values()))
    os.kill(victim, signal.SIGKILL)  # its nanny starts a new one; its task runs again elsewhere
    out, err = proc.communicate(timeout=180)
    assert proc.returncode == 0, err
    assert_same_data(run_dir, "klaverjas-rotterdam", 100_000)
    client.wait_for_workers(2, timeout=60)


def test_dask_run_stops_when_every_worker_is_gone_and_resumes_later(tmp_path, cluster):
    cluster, client = cluster
    cfg = _dask_config(tmp_path, cluster.scheduler_address, extra="workers_timeout = 3\n")
    run_dir = tmp_path / "results" / "r"
    proc = start("run", cfg, "--quiet")
    wait_for(lambda: parts(run_dir) >= 4, proc)
    cluster.scale(0)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 2 and "Traceback" not in err, err
    assert "every Dask worker" in err and "3 s" in err and "rerun" in err
    assert not open_run(run_dir).complete
    cluster.scale(2)
    client.wait_for_workers(2, timeout=60)
    again = cli("run", cfg, "--quiet")
    assert again.returncode == 0 and "resuming" in again.stdout, again.stderr
    assert_same_data(run_dir, "klaverjas-rotterdam", 100_000)
