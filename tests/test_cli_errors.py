"""Every user mistake of issue 10 through the real `simcards` command: one line naming the input
and what is allowed, exit status 2, no traceback, nothing left on disk; quietly wrong answers
refused; a closed stdout ends quietly."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import simcards
from simcards.config import load_config
from simcards.errors import UserError
from simcards.runner import run

CONFIG = """
name = "{name}"
ruleset = "{ruleset}"
{units} = {count}
seed = {seed}
chunk_size = {chunk}
workers = 1
output = "{output}"
bots = "heuristic"
{extra}
"""


def write_config(tmp_path: Path, name="e", ruleset="klaverjas-rotterdam", count=400, chunk=200,
                 seed=5, extra="", units=None) -> Path:
    units = units or ("matches" if simcards.load(ruleset).unit == "match" else "deals")
    path = tmp_path / f"{name}.toml"
    path.write_text(CONFIG.format(name=name, ruleset=ruleset, units=units, count=count, seed=seed,
                                  chunk=chunk, output=tmp_path / "results", extra=extra))
    return path


def cli(*args, cwd=None, timeout=120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "simcards.cli", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=timeout)


def assert_refused(result: subprocess.CompletedProcess, *needles: str) -> str:
    """Exit 2, one 'simcards: error:' message that names every needle, no traceback."""
    err = result.stderr
    assert result.returncode == 2, (result.returncode, result.stdout, err)
    assert "Traceback" not in err and err.startswith("simcards: error: "), err
    for needle in needles:
        assert needle in err, (needle, err)
    return err


@pytest.fixture(scope="module")
def small_run(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("run")
    cfg = write_config(tmp, name="small", count=400, chunk=200)
    run(load_config(cfg), quiet=True, log=lambda _: None)
    return tmp / "results" / "small"


# ---------------------------------------------------------------- tracebacks -> one message

def test_config_that_is_a_folder(tmp_path):
    folder = tmp_path / "conf.toml"
    folder.mkdir()
    assert_refused(cli("run", folder), str(folder), "not a folder")
    assert not (tmp_path / "results").exists()


def test_config_that_is_not_utf8(tmp_path):
    cfg = write_config(tmp_path)
    cfg.write_bytes(cfg.read_bytes().replace(b'name = "e"', b'name = "\xe9t\xe9"'))
    assert_refused(cli("run", cfg), str(cfg), "UTF-8")
    assert not (tmp_path / "results").exists()


def test_out_pointing_at_a_file(tmp_path, small_run):
    cfg = write_config(tmp_path)
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    assert_refused(cli("run", cfg, "--out", blocker), "a-file", "is a file")
    assert_refused(cli("run", cfg, "--out", blocker / "below"), "a-file", "is a file")
    assert_refused(cli("report", small_run, "--out", blocker), "a-file", "is a file")
    assert blocker.read_text() == "x" and not (tmp_path / "results").exists()


def test_replay_of_a_huge_deal_index(small_run):
    assert_refused(cli("replay", small_run, "--deal", "99999999999999999999"),
                   "--deal = 99999999999999999999", "9223372036854775807")


def test_unreachable_dask_scheduler_fails_within_its_timeout(tmp_path):
    cfg = write_config(tmp_path, extra='backend = "dask"\nscheduler = "tcp://127.0.0.1:9"\n'
                                       'scheduler_timeout = 2\n')
    assert_refused(cli("run", cfg, timeout=60), "tcp://127.0.0.1:9", "2 s", "dask scheduler")
    assert not (tmp_path / "results").exists()


def _with_closed_stdout(*args) -> subprocess.CompletedProcess:
    read, write = os.pipe()
    os.close(read)  # like `| head` having exited: every write fails with EPIPE
    try:
        proc = subprocess.run([sys.executable, "-m", "simcards.cli", *map(str, args)], stdout=write,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(write)
    return proc


@pytest.mark.parametrize("args", [["rulesets", "--columns"], ["replay", None, "--deal", "3"]])
def test_closed_stdout_ends_quietly(small_run, args):
    args = [small_run if a is None else a for a in args]
    result = _with_closed_stdout(*args)
    assert result.returncode == 0 and result.stderr == "", result.stderr


def test_seed_at_2_63_and_huge_options(tmp_path):
    cfg = write_config(tmp_path, seed=2**63)
    assert_refused(cli("run", cfg), f"seed = {2**63}", "from 0 to 9223372036854775807")
    cfg = write_config(tmp_path, ruleset="kraken-contra", count=2, chunk=2, extra="[rules]\npit_bonus = 40000\n")
    assert_refused(cli("run", cfg), "rules.pit_bonus = 40000", "from 0 to 10000")
    cfg = write_config(tmp_path, ruleset="hearts", count=2, chunk=2, extra="[rules]\ntarget = 9999999999999\n")
    assert_refused(cli("run", cfg), "rules.target = 9999999999999", "from 1 to 10000")
    assert not (tmp_path / "results").exists()
    with pytest.raises(UserError, match="pit_bonus"):
        simcards.load("kraken-contra", pit_bonus=2**70)
    with pytest.raises(UserError, match="seed"):
        simcards.load("klaverjas-rotterdam").simulate(3, seed=2**63)


def test_float_dealer_bool_index_and_non_finite_bot_parameters(tmp_path):
    game = simcards.load("klaverjas-amsterdam")
    hands = [["JC", "9C", "AC", "10C", "KC", "QC", "8C", "7C"], ["JD", "9D", "AD", "10D", "KD", "QD", "8D", "7D"],
             ["JH", "9H", "AH", "10H", "KH", "QH", "8H", "7H"], ["JS", "9S", "AS", "10S", "KS", "QS", "8S", "7S"]]
    with pytest.raises(UserError, match="dealer = 1.0"):
        game.deal(hands=hands, dealer=1.0, trump="C", declarer=0)
    with pytest.raises(UserError, match="index = True"):
        game.deal(seed=7, index=True)
    with pytest.raises(UserError, match="nan"):
        game.simulate(2, bots={"kind": "heuristic", "params": {"declare_threshold": float("nan")}})
    for value in ("nan", "inf", "-inf"):
        cfg = write_config(tmp_path, extra=f'bots = {{ kind = "heuristic", params = {{ declare_threshold = {value} }} }}\n')
        cfg.write_text(cfg.read_text().replace('bots = "heuristic"\n', ""))
        assert_refused(cli("run", cfg), "bots.params.declare_threshold", "a finite number")
    assert not (tmp_path / "results").exists()


# ---------------------------------------------------------------- quietly wrong answers

def test_replay_beyond_the_run_is_refused(small_run):
    assert_refused(cli("replay", small_run, "--deal", "400"), "--deal 400", "did not play", "from 0 to 399")
    assert cli("replay", small_run, "--deal", "399").returncode == 0


def test_include_of_the_config_itself(tmp_path):
    cfg = write_config(tmp_path, extra=f'include = ["{"e.toml"}"]\n')
    assert_refused(cli("run", cfg), "include = 'e.toml'", "not the config itself")
    assert not (tmp_path / "results").exists()


def test_tune_of_a_parameter_without_effect_writes_nothing(tmp_path):
    cfg = tmp_path / "tune.toml"
    cfg.write_text('name = "t"\nruleset = "klaverjas-amsterdam"\ndeals = 300\nseed = 3\ngrid = 3\n'
                   'chunk_size = 300\nworkers = 1\n[rules]\ntrump_selection = "forced"\n'
                   '[baseline]\nkind = "heuristic"\n[tune]\ndeclare_threshold = [40, 100, 5]\n')
    assert_refused(cli("tune", cfg, "--out", tmp_path / "reports", "--quiet"),
                   "tune.declare_threshold", "no effect")
    assert not (tmp_path / "reports" / "t" / "thresholds.toml").exists()


def test_workers_auto_on_the_command_line(tmp_path):
    cfg = write_config(tmp_path, count=200, chunk=200)
    result = cli("run", cfg, "--workers", "auto", "--quiet")
    assert result.returncode == 0, result.stderr
    assert "1 loky worker(s)" in result.stdout  # one chunk: one worker, whatever the cores
    assert_refused(cli("run", cfg, "--workers", "0"), "workers = 0", "'auto' or an integer")
    bad = cli("run", cfg, "--workers", "many")
    assert bad.returncode == 2 and "'many': use 'auto' or a number" in bad.stderr


# ---------------------------------------------------------------- cliffs at scale

def test_a_count_beyond_a_day_is_refused_at_once(tmp_path):
    cfg = write_config(tmp_path, count="10_000_000_000_000", chunk="100_000")  # days on any machine
    err = assert_refused(cli("run", cfg, timeout=60), "deals = 10,000,000,000,000", "would take about",
                         "days", "--yes")
    assert "deals/s per worker" in err
    assert not (tmp_path / "results").exists()


def test_small_chunks_warn_with_a_suggested_size(tmp_path):
    cfg = write_config(tmp_path, count=3000, chunk=1000)
    result = cli("run", cfg, "--quiet")
    assert result.returncode == 0
    assert "chunk_size = 1,000 is small" in result.stdout and "chunk_size = 3,000 or more" in result.stdout
    cfg = write_config(tmp_path, name="f", count=30_000, chunk=10_000)
    assert "is small" not in cli("run", cfg, "--quiet").stdout


def test_workers_are_capped_by_the_chunks(tmp_path):
    cfg = write_config(tmp_path, count=300, chunk=300)
    manifest = run(load_config(cfg, workers=16), quiet=True)
    assert manifest["timings"]["workers"] == 1
    assert json.loads((tmp_path / "results" / "e" / "manifest.json").read_text())["timings"]["workers"] == 1
