"""Run a config: fixed chunks, parallel workers, atomic Parquet parts, a manifest, resume.

A run of N units (deals, or matches for match rulesets) is cut into chunks of ``chunk_size``.
Chunk i covers units [i * chunk_size, (i + 1) * chunk_size) and is written by the worker that
computed it as ``<run>/deals/part-0000i.parquet`` (and ``matches/...``): first to a temporary
name, then renamed, so a part is either whole or absent. The worker returns the part's row
count, size and SHA-256, which the parent records in the manifest (written at most every
``MANIFEST_EVERY`` seconds and at the end). The parent only collects these small status dicts,
so memory stays flat however many deals a run has.

Every unit draws from its own (seed, index) random streams, so the data does not depend on the
chunk a unit falls in, the number of workers or the backend. Rerunning a config resumes: parts
whose checksum matches the manifest are kept, missing, damaged or unrecorded ones are made
again. A larger unit count extends a finished run (see `simcards.manifest` for the checks and
the lock).
"""

from __future__ import annotations

import json
import logging
import math
import os
import shutil
import sys
import time
from contextlib import contextmanager
from datetime import datetime, timezone
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterable, Iterator

import simcards
from simcards.config import RunConfig, default_workers
from simcards.errors import UserError
from simcards.games import load
from simcards.manifest import (KINDS, MANIFEST, Chunk, Plan, RunLock, done_entries, entry_problems,
                               file_sha256, is_complete, part_name)

__all__ = ["MANIFEST", "Chunk", "Plan", "RunError", "part_name", "plan_chunks", "prepare", "run"]

PARQUET_OPTIONS = {"compression": "zstd", "compression_level": 1, "statistics": True}  # level 1: fastest, and as small as 10 here
MANIFEST_EVERY = 2.0  # seconds between manifest writes during a run (and one at the end)
DAY = 86_400.0
# below this many units per chunk, per-chunk costs (task dispatch, a Parquet file) dominate
MIN_CHUNK = {"deal": 10_000, "match": 500}
# ... unless each unit is slow (a double-dummy solve, a search bot): a chunk of at least this
# many seconds of simulation pays its part's costs many times over, whatever its size
SLOW_CHUNK_SECONDS = 1.0
ESTIMATE_ABOVE = 100  # estimate the run time when more than this many minimum chunks are to make


class RunError(UserError):
    """A run that cannot proceed as asked (the message says why and what to do)."""


def plan_chunks(units: int, chunk_size: int) -> list[Chunk]:
    return list(Plan(units, chunk_size).chunks())


@lru_cache(maxsize=8)
def _game(ruleset: str, rules_json: str):
    return load(ruleset, **json.loads(rules_json))


def _config_game(config: RunConfig):
    return _game(config.ruleset, json.dumps(config.rules, sort_keys=True))


_LOADED: set = set()  # the tables whose kernels this process has loaded (`run_chunk`)


def run_chunk(ruleset: str, rules_json: str, bots, seed: int, chunk: Chunk, run_dir: str) -> dict:
    """Worker task: simulate one chunk and write its parts atomically. Returns its status."""
    game = _game(ruleset, rules_json)
    table = (ruleset, rules_json, json.dumps(bots, sort_keys=True, default=str))
    if table not in _LOADED and not _has_python_bot(bots):
        # load the kernels from the disk cache before the timing starts, so the kernel speed is
        # the kernels' (a Python bot may keep state between deals: its table is left alone)
        game.simulate_chunk(1, seed=seed, bots=bots, start=chunk.start)
        _LOADED.add(table)
    t0 = time.perf_counter()
    frames = game.simulate_chunk(chunk.n, seed=seed, bots=bots, start=chunk.start)
    simulated = time.perf_counter() - t0
    info = {"index": chunk.index, "start": chunk.start, "n": chunk.n, "status": "done",
            "rows": {}, "bytes": {}, "sha256": {}, "simulate_seconds": round(simulated, 4)}
    for kind, frame in frames.items():
        folder = Path(run_dir) / kind
        folder.mkdir(parents=True, exist_ok=True)
        final = folder / part_name(chunk.index)
        temporary = folder / f".{part_name(chunk.index)}.{os.getpid()}.tmp"
        frame.write_parquet(temporary, **PARQUET_OPTIONS)
        info["sha256"][kind] = file_sha256(temporary)
        info["bytes"][kind] = temporary.stat().st_size
        os.replace(temporary, final)
        info["rows"][kind] = frame.height
    info["seconds"] = round(time.perf_counter() - t0, 4)
    return info


def _write_json_atomic(path: Path, data: dict) -> None:
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_text(json.dumps(data, indent=1, sort_keys=False))
    os.replace(temporary, path)


def _new_manifest(config: RunConfig) -> dict:
    game = _config_game(config)
    return {
        "format": 2,
        "simcards_version": simcards.__version__,
        "ruleset": config.ruleset,
        "rules_version": game.rules_version,
        "options": {k: list(v) if isinstance(v, tuple) else v for k, v in game.options.items()},
        "unit": game.unit,
        "units": config.units,
        "seed": config.seed,
        "chunk_size": config.chunk_size,
        "config": config.to_dict(),
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "chunks": [],  # finished chunks only, by index
        **_bot_sources(config),
    }


def _bot_sources(config: RunConfig) -> dict:
    """{"user_bots": {entry: hash of its module's source}} when the run has user bots."""
    from simcards.games.userbots import source_hashes

    hashes = source_hashes(config.bots)
    return {"user_bots": hashes} if hashes else {}


def _check_same_run(manifest: dict, config: RunConfig, run_dir: Path) -> None:
    known = RunConfig.__dataclass_fields__
    old = RunConfig(**{k: v for k, v in manifest["config"].items() if k in known})
    differences = [key for key, value in config.identity().items() if old.identity().get(key) != value]
    if manifest.get("rules_version") != _config_game(config).rules_version:
        differences.append("rules_version")
    changed = [entry for entry, digest in _bot_sources(config).get("user_bots", {}).items()
               if manifest.get("user_bots", {}).get(entry) != digest]
    if changed:
        raise RunError(f"{run_dir} was made with another version of the bot "
                       f"{', '.join(repr(e) for e in changed)} (its source has changed since); one "
                       f"run never mixes two versions of a bot: rerun with --force to start over, "
                       f"or choose another name")
    if differences:
        raise RunError(f"{run_dir} holds a run made with a different config "
                       f"(differs in: {', '.join(differences)}); rerun with --force to replace it, "
                       f"or choose another name")
    if config.units < manifest.get("units", 0):
        raise RunError(f"{run_dir} holds {manifest['units']:,} {config.units_name}; "
                       f"{config.units_name} = {config.units:,} is fewer. Use {manifest['units']:,} "
                       f"or more (more extends the run), or --force to start over with {config.units:,}")


class Work:
    """What a run still has to make: the manifest to continue and the chunks not yet done."""

    def __init__(self, config: RunConfig, manifest: dict, kept: dict[int, dict], fresh: bool):
        self.config, self.manifest, self.kept, self.fresh = config, manifest, kept, fresh
        self.plan = Plan(config.units, config.chunk_size)

    @property
    def n_pending(self) -> int:
        return len(self.plan) - len(self.kept)

    @property
    def pending_units(self) -> int:
        return self.config.units - sum(e["n"] for e in self.kept.values())

    def pending(self) -> Iterator[Chunk]:
        return self.plan.chunks(skip=set(self.kept))


def prepare(config: RunConfig, force: bool = False, log: Callable[[str], None] = print) -> Work:
    """Read (never write) what is on disk: the manifest to continue and the chunks still to
    make. ``force`` plans a new run (the old parts are deleted later, under the lock)."""
    run_dir = config.run_dir
    manifest_path = run_dir / MANIFEST
    if force or not manifest_path.exists():
        if not force and any(any((run_dir / k).glob("part-*.parquet")) for k in KINDS if (run_dir / k).is_dir()):
            raise RunError(f"{run_dir} holds Parquet parts but no {MANIFEST}; rerun with --force "
                           f"to replace them")
        return Work(config, _new_manifest(config), {}, fresh=True)
    try:
        manifest = json.loads(manifest_path.read_text())
        manifest["config"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise RunError(f"{manifest_path} is unreadable ({exc}); rerun with --force to start over") from None
    _check_same_run(manifest, config, run_dir)
    manifest["config"] = config.to_dict()  # workers/backend may differ on resume
    plan = Plan(config.units, config.chunk_size)
    kept: dict[int, dict] = {}
    for entry in done_entries(manifest):
        index = entry.get("index")
        if not isinstance(index, int) or not 0 <= index < len(plan):
            continue
        if entry.get("n") != plan.chunk(index).n or "sha256" not in entry:
            continue  # the last part of a run being extended, or a part without a checksum
        problems = entry_problems(run_dir, entry)
        for problem in problems:
            log(f"warning: {problem}; making it again")
        if not problems:
            kept[index] = entry
    manifest["units"] = config.units
    manifest["chunks"] = sorted(kept.values(), key=lambda e: e["index"])
    return Work(config, manifest, kept, fresh=False)


def _task_args(config: RunConfig, chunk: Chunk) -> tuple:
    return (config.ruleset, json.dumps(config.rules, sort_keys=True), config.bots, config.seed,
            chunk, str(config.run_dir))


class LokyBackend:
    name = "loky"

    def __init__(self, config: RunConfig, n_pending: int):
        self.config = config
        self.workers = max(1, min(config.workers, n_pending))

    def close(self) -> None:
        pass

    def map(self, chunks: Iterable[Chunk]) -> Iterator[dict]:
        if self.workers == 1:  # in-process: easier to debug, no worker start-up
            for chunk in chunks:
                yield run_chunk(*_task_args(self.config, chunk))
            return
        from joblib import Parallel, delayed

        parallel = Parallel(n_jobs=self.workers, backend="loky", return_as="generator_unordered")
        yield from parallel(delayed(run_chunk)(*_task_args(self.config, c)) for c in chunks)


class DaskBackend:
    """Chunks as Dask futures, a bounded window of them in flight. Stops with a RunError when
    no worker has been connected for ``workers_timeout`` seconds."""

    name = "dask"

    def __init__(self, config: RunConfig, n_pending: int):
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise RunError("backend = 'dask' needs the dask extra: pip install 'simcards[dask]'") from None
        self.config = config
        self.cluster = None
        # a result still being fetched from a worker that vanished leaves distributed's gather
        # task failing with AllExit when the client closes; asyncio would print its traceback
        # after our one-line message; distributed's own warnings about lost workers likewise
        logging.getLogger("asyncio").setLevel(logging.CRITICAL)
        logging.getLogger("distributed").setLevel(logging.ERROR)
        timeout = config.scheduler_timeout
        if config.scheduler:
            try:
                self.client = Client(config.scheduler, timeout=f"{timeout}s")
            except (OSError, TimeoutError) as exc:
                raise RunError(f"scheduler = {config.scheduler!r}: no Dask scheduler answered within "
                               f"{timeout:g} s ({type(exc).__name__}); start one with `dask scheduler` "
                               f"or fix the address (scheduler_timeout sets the wait)") from None
            self.workers = len(self.client.nthreads())
        else:
            self.workers = max(1, min(config.workers, n_pending))
            self.cluster = LocalCluster(n_workers=self.workers, threads_per_worker=1, processes=True,
                                        dashboard_address=None)
            self.client = Client(self.cluster)

    def close(self) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()

    def map(self, chunks: Iterable[Chunk]) -> Iterator[dict]:
        from distributed import wait

        chunks = iter(chunks)
        in_flight: set = set()
        alone_since = None
        window = max(4, 2 * max(self.workers, 1))
        try:
            while True:
                for chunk in chunks:
                    in_flight.add(self.client.submit(run_chunk, *_task_args(self.config, chunk), pure=False))
                    if len(in_flight) >= window:
                        break
                if not in_flight:
                    return
                try:
                    done = wait(in_flight, timeout=1.0, return_when="FIRST_COMPLETED").done
                except TimeoutError:
                    done = set()
                progressed = False
                for future in done:
                    try:
                        info = future.result(timeout=5)
                    except TimeoutError:  # its result sat on a worker that has gone: wait for it
                        continue
                    in_flight.discard(future)
                    progressed = True
                    yield info
                if progressed:
                    alone_since = None
                    continue
                nthreads = self.client.nthreads()
                self.workers = max(self.workers, len(nthreads))
                if nthreads:
                    alone_since = None
                elif alone_since is None:
                    alone_since = time.monotonic()
                elif time.monotonic() - alone_since > self.config.workers_timeout:
                    raise RunError(f"every Dask worker of {self.client.scheduler.address} has been gone "
                                   f"for {self.config.workers_timeout:g} s; finished parts are kept: "
                                   f"start workers and rerun the same command to resume "
                                   f"(workers_timeout sets the wait)")
        finally:
            for future in in_flight:
                future.cancel()


def _progress(total: int, done: int, unit: str, quiet: bool):
    from tqdm import tqdm

    return tqdm(total=total, initial=done, unit=f" {unit}", unit_scale=True, dynamic_ncols=True,
                disable=quiet or not sys.stderr.isatty(), smoothing=0.1)


def _duration(seconds: float) -> str:
    if seconds >= 2 * DAY:
        return f"{seconds / DAY:,.1f} days"
    if seconds >= 2 * 3600:
        return f"{seconds / 3600:,.1f} hours"
    return f"{seconds / 60:,.0f} minutes"


def estimate_seconds(config: RunConfig, units: int, workers: int, budget: float = 0.3) -> tuple[float, float]:
    """(estimated seconds for ``units`` on ``workers``, measured units/s per worker): times the
    first units of the run in this process, doubling the sample until it takes ``budget`` s."""
    game = _config_game(config)
    game.simulate_chunk(1, seed=config.seed, bots=config.bots)  # loads the compiled kernels
    n = 1
    while True:
        t0 = time.perf_counter()
        game.simulate_chunk(n, seed=config.seed, bots=config.bots)
        elapsed = time.perf_counter() - t0
        if elapsed >= budget or n >= units:
            break
        n *= 2
    rate = n / max(elapsed, 1e-9)
    return units / (rate * max(workers, 1)), rate


def _quick_chunks(config: RunConfig) -> bool:
    """Does a chunk of ``config`` take under SLOW_CHUNK_SECONDS of simulation here?"""
    try:
        seconds, _ = estimate_seconds(config, config.chunk_size, 1)
    except Exception:  # advice only: the run itself reports a failing bot, with its parts kept
        return False
    return seconds < SLOW_CHUNK_SECONDS


def _check_scale(work: Work, workers: int, yes: bool, log: Callable[[str], None]) -> None:
    """Warn about chunks too small to be efficient; refuse (without ``yes``) a run that would
    take more than a day on this machine."""
    config = work.config
    unit = config.unit
    minimum = MIN_CHUNK.get(unit, 1)
    if config.chunk_size < minimum and config.units > config.chunk_size and _quick_chunks(config):
        log(f"warning: chunk_size = {config.chunk_size:,} is small for {config.ruleset}: per-part "
            f"costs will dominate; use chunk_size = {min(minimum, config.units):,} or more")
    if yes or work.pending_units <= ESTIMATE_ABOVE * minimum:
        return
    seconds, rate = estimate_seconds(config, work.pending_units, workers)
    if seconds > DAY:
        raise RunError(f"{config.units_name} = {config.units:,} would take about {_duration(seconds)} "
                       f"here ({rate:,.0f} {config.units_name}/s per worker, {workers} worker(s)); "
                       f"use fewer {config.units_name}, or pass --yes to run it anyway")


class _Ticker:
    """On a terminal, "compiling the <ruleset> kernels (first run only)" with the seconds so
    far, rewritten each second from a thread until `stop`, which leaves the final figure."""

    def __init__(self, ruleset: str):
        import threading

        self.text = f"compiling the {ruleset} kernels (first run only)"
        self.started = time.perf_counter()
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._tick, daemon=True)

    def _show(self, end: str = "") -> None:
        print(f"\r{self.text}: {time.perf_counter() - self.started:.0f} s", end=end,
              file=sys.stderr, flush=True)

    def start(self) -> None:
        self.started = time.perf_counter()
        self._show()
        self.thread.start()

    def _tick(self) -> None:
        while not self.done.wait(1.0):
            self._show()

    def stop(self) -> None:
        self.done.set()
        self.thread.join()
        self._show("\n")


@contextmanager
def _announcing_compiles(ruleset: str, quiet: bool):
    """Watch this process's compiles (`simcards.compiling.watching_compiles`); on a terminal (not
    ``quiet``) say so, with the seconds, from the first one to the end of the block."""
    from simcards.compiling import watching_compiles

    ticker = _Ticker(ruleset) if not quiet and sys.stderr.isatty() else None
    with watching_compiles(ticker.start if ticker else None) as watch:
        try:
            yield watch
        finally:
            if ticker is not None and watch.count:
                ticker.stop()


def _has_python_bot(spec) -> bool:
    if isinstance(spec, dict):
        return spec.get("kind") == "python"
    return isinstance(spec, (list, tuple)) and any(_has_python_bot(item) for item in spec)


def compile_kernels(config: RunConfig, quiet: bool = False) -> float:
    """Compile the kernels a run of ``config`` uses in this process (its seats' bot kinds and
    its columns: one unit of the run's first chunk), before any worker starts, so the workers
    load them from the disk cache instead of each compiling them. On a terminal (not
    ``quiet``), says so while it compiles. Returns the seconds spent compiling (0 when every
    kernel came from the cache). A table with a Python bot is left alone (such a bot may keep
    state between deals, and its loop compiles little); so is a failure, which the run itself
    then reports with its finished parts kept."""
    if _has_python_bot(config.bots):
        return 0.0
    game = _config_game(config)
    with _announcing_compiles(config.ruleset, quiet) as watch:
        try:
            game.simulate_chunk(1, seed=config.seed, bots=config.bots)
        except Exception:  # the run reports it, deal and bot named
            pass
    return watch.seconds


@contextmanager
def _backend(config: RunConfig, n_pending: int):
    backend = (DaskBackend if config.backend == "dask" else LokyBackend)(config, n_pending)
    try:
        yield backend
    finally:
        backend.close()


def _locked(run_dir: Path) -> RunLock | None:
    return RunLock(run_dir).acquire() if run_dir.is_dir() else None


def run(config: RunConfig, force: bool = False, quiet: bool = False, yes: bool = False,
        log: Callable[[str], None] = print) -> dict:
    """Make (or finish, or extend) the run of ``config``; returns the final manifest.

    Everything that can be refused (a different config, fewer units, a run beyond a day, an
    unreachable scheduler, a folder another run holds) is refused before anything is written."""
    run_dir = config.run_dir
    lock = _locked(run_dir)
    try:
        work = prepare(config, force=force, log=log)
        workers = max(1, min(config.workers, work.n_pending))
        if config.backend == "loky" and workers > default_workers():
            log(f"warning: workers = {workers} is more than the {default_workers()} cores here")
        compile_seconds = 0.0
        if work.n_pending and (config.backend != "dask" or not config.scheduler):
            # once here, before the workers start (a remote cluster's machines compile their own)
            compile_seconds = compile_kernels(config, quiet)
        if config.backend != "dask" or not config.scheduler:
            _check_scale(work, workers, yes, log)
        with _backend(config, work.n_pending) as backend:
            if config.backend == "dask" and config.scheduler:
                _check_scale(work, backend.workers, yes, log)
            if lock is None:
                run_dir.mkdir(parents=True, exist_ok=True)
                lock = RunLock(run_dir).acquire()
            if work.fresh:
                for kind in KINDS:
                    shutil.rmtree(run_dir / kind, ignore_errors=True)
            _make(work, backend, quiet, log, compile_seconds)
    finally:
        if lock is not None:
            lock.release()
    return work.manifest


def _rate(units: int, seconds: float) -> float | None:
    """Units per second for the manifest: 0.1 resolution, three significant digits below 1 (a
    slow run, with user bots compiling or perfect play, is not 0)."""
    if not seconds:
        return None
    rate = units / seconds
    return round(rate, 1) if rate >= 1 else float(f"{rate:.3g}")


def _sweep_temporaries(run_dir: Path) -> None:
    """Remove the temporary part files of writes that never finished."""
    for kind in KINDS:
        for stray in (run_dir / kind).glob(".*.tmp") if (run_dir / kind).is_dir() else ():
            stray.unlink(missing_ok=True)


def _make(work: Work, backend, quiet: bool, log: Callable[[str], None],
          compile_seconds: float = 0.0) -> None:
    """Make the pending chunks on ``backend``; the timings leave out the ``compile_seconds``
    spent before (`compile_kernels`) and record them apart."""
    config, manifest = work.config, work.manifest
    run_dir = config.run_dir
    _sweep_temporaries(run_dir)
    _write_json_atomic(run_dir / MANIFEST, manifest)
    done_units = config.units - work.pending_units
    if done_units and work.n_pending:
        log(f"resuming {run_dir}: {done_units:,} of {config.units:,} {config.units_name} already made")
    entries = dict(work.kept)
    started = time.perf_counter()
    made, kernel, written = 0, 0.0, time.monotonic()
    watch = None

    def save() -> None:
        manifest["chunks"] = sorted(entries.values(), key=lambda e: e["index"])
        manifest["updated"] = datetime.now(timezone.utc).isoformat(timespec="seconds")
        _write_json_atomic(run_dir / MANIFEST, manifest)

    try:
        # what still compiles here (a run in this process whose kernels were not compiled
        # before it) is announced, and its seconds are left out of the speeds below
        with _announcing_compiles(config.ruleset, quiet) as watch, \
                _progress(config.units, done_units, config.unit, quiet) as bar:
            for info in backend.map(work.pending()):
                entries[info["index"]] = info
                made += info["n"]
                kernel += info["simulate_seconds"]
                bar.update(info["n"])
                if time.monotonic() - written >= MANIFEST_EVERY:
                    save()
                    written = time.monotonic()
        # a worker killed while writing a part left its temporary file; the part was made again
        _sweep_temporaries(run_dir)
    finally:
        compiled_here = watch.seconds if watch is not None else 0.0
        compile_seconds += compiled_here
        wall = time.perf_counter() - started - compiled_here
        if backend.workers == 1:  # in this process: the compiles were inside a chunk's time
            kernel = max(kernel - compiled_here, 0.0)
        if made:
            manifest["timings"] = {
                "wall_seconds": round(wall, 3),
                "units_made": made,
                "units_per_second": _rate(made, wall),
                "kernel_units_per_second_per_worker": _rate(made, kernel),
                "workers": backend.workers,
                "backend": backend.name,
                "compile_seconds": round(compile_seconds, 2),
            }
        save()

