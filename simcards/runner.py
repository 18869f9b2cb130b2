"""Run a config: fixed chunks, parallel workers, atomic Parquet parts, a manifest, resume.

A run of N units (deals, or matches for match rulesets) is cut into chunks of ``chunk_size``.
Chunk i covers units [i * chunk_size, (i + 1) * chunk_size) and is written by the worker that
computed it as ``<run>/deals/part-0000i.parquet`` (and ``matches/...``): first to a temporary
name, then renamed, so a part is either whole or absent. The parent process only collects
small status dicts, so memory stays flat however many deals a run has.

Every unit draws from its own (seed, index) random streams, so the data does not depend on the
chunk a unit falls in, the number of workers or the backend. Rerunning a config resumes: parts
already on disk are checked and kept, missing or unreadable ones are made again.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterable

import pyarrow.parquet as pq

import simcards
from simcards.config import RunConfig
from simcards.dataset import MANIFEST, part_name
from simcards.errors import UserError
from simcards.games import load

PARQUET_OPTIONS = {"compression": "zstd", "compression_level": 1, "statistics": True}  # level 1: fastest, and as small as 10 here


class RunError(UserError):
    """A run that cannot proceed as asked (the message says why and what to do)."""


@dataclass(frozen=True)
class Chunk:
    index: int
    start: int
    n: int


def plan_chunks(units: int, chunk_size: int) -> list[Chunk]:
    return [Chunk(i, start, min(chunk_size, units - start))
            for i, start in enumerate(range(0, units, chunk_size))]


@lru_cache(maxsize=8)
def _game(ruleset: str, rules_json: str):
    return load(ruleset, **json.loads(rules_json))


def run_chunk(ruleset: str, rules_json: str, bots, seed: int, chunk: Chunk, run_dir: str) -> dict:
    """Worker task: simulate one chunk and write its parts atomically. Returns its status."""
    game = _game(ruleset, rules_json)
    t0 = time.perf_counter()
    frames = game.simulate_chunk(chunk.n, seed=seed, bots=bots, start=chunk.start)
    simulated = time.perf_counter() - t0
    info = {"index": chunk.index, "start": chunk.start, "n": chunk.n, "status": "done",
            "rows": {}, "bytes": {}, "simulate_seconds": round(simulated, 4)}
    for kind, frame in frames.items():
        folder = Path(run_dir) / kind
        folder.mkdir(parents=True, exist_ok=True)
        final = folder / part_name(chunk.index)
        temporary = folder / f".{part_name(chunk.index)}.{os.getpid()}.tmp"
        frame.write_parquet(temporary, **PARQUET_OPTIONS)
        os.replace(temporary, final)
        info["rows"][kind] = frame.height
        info["bytes"][kind] = final.stat().st_size
    info["seconds"] = round(time.perf_counter() - t0, 4)
    return info


def _write_json_atomic(path: Path, data: dict) -> None:
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_text(json.dumps(data, indent=1, sort_keys=False))
    os.replace(temporary, path)


def _readable_rows(path: Path) -> int | None:
    """Row count of a Parquet part, or None when it is missing or unreadable."""
    try:
        return pq.read_metadata(path).num_rows
    except Exception:
        return None


def _new_manifest(config: RunConfig, chunks: list[Chunk]) -> dict:
    game = _game(config.ruleset, json.dumps(config.rules, sort_keys=True))
    return {
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
        "chunks": [{"index": c.index, "start": c.start, "n": c.n, "status": "pending"} for c in chunks],
    }


def _check_same_run(manifest: dict, config: RunConfig, run_dir: Path) -> None:
    old = RunConfig(**{**manifest["config"], "rules": manifest["config"].get("rules", {})})
    differences = [key for key, value in config.identity().items() if old.identity().get(key) != value]
    if manifest.get("units") != config.units:
        differences.append(config.units_name)
    if manifest.get("rules_version") != _game(config.ruleset, json.dumps(config.rules, sort_keys=True)).rules_version:
        differences.append("rules_version")
    if differences:
        raise RunError(f"{run_dir} holds a run made with a different config "
                       f"(differs in: {', '.join(differences)}); rerun with --force to replace it, "
                       f"or choose another name")


def prepare(config: RunConfig, force: bool = False, log: Callable[[str], None] = print) -> tuple[dict, list[Chunk]]:
    """The manifest to continue and the chunks still to make (all of them for a new run)."""
    run_dir = config.run_dir
    chunks = plan_chunks(config.units, config.chunk_size)
    manifest_path = run_dir / MANIFEST
    if force and run_dir.exists():
        for sub in ("deals", "matches"):
            shutil.rmtree(run_dir / sub, ignore_errors=True)
        manifest_path.unlink(missing_ok=True)
    if not manifest_path.exists():
        if (run_dir / "deals").exists() and any((run_dir / "deals").iterdir()):
            raise RunError(f"{run_dir} holds Parquet parts but no {MANIFEST}; rerun with --force "
                           f"to replace them")
        return _new_manifest(config, chunks), chunks
    try:
        manifest = json.loads(manifest_path.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise RunError(f"{manifest_path} is unreadable ({exc}); rerun with --force to start over") from None
    _check_same_run(manifest, config, run_dir)
    manifest["config"] = config.to_dict()  # workers/backend may differ on resume
    pending = []
    for chunk, entry in zip(chunks, manifest["chunks"]):
        kinds = entry.get("rows", {}) or {"deals": None}
        ok = True
        for kind, rows in kinds.items():
            found = _readable_rows(run_dir / kind / part_name(chunk.index))
            if found is None or (rows is not None and found != rows):
                ok = False
        if entry.get("status") == "done" and not ok:
            log(f"warning: {run_dir / 'deals' / part_name(chunk.index)} is missing or corrupt; "
                f"making it again")
        if not (entry.get("status") == "done" and ok):
            entry["status"] = "pending"
            pending.append(chunk)
    return manifest, pending


def _clean_temporaries(run_dir: Path) -> None:
    for sub in ("deals", "matches"):
        for stray in (run_dir / sub).glob(".*.tmp") if (run_dir / sub).exists() else ():
            stray.unlink(missing_ok=True)


def _task_args(config: RunConfig, chunk: Chunk) -> tuple:
    return (config.ruleset, json.dumps(config.rules, sort_keys=True), config.bots, config.seed,
            chunk, str(config.run_dir))


def _run_loky(config: RunConfig, pending: list[Chunk]) -> Iterable[dict]:
    from joblib import Parallel, delayed

    if config.workers == 1:  # in-process: easier to debug, no worker start-up
        for chunk in pending:
            yield run_chunk(*_task_args(config, chunk))
        return
    parallel = Parallel(n_jobs=config.workers, backend="loky", return_as="generator_unordered")
    yield from parallel(delayed(run_chunk)(*_task_args(config, c)) for c in pending)


def _run_dask(config: RunConfig, pending: list[Chunk]) -> Iterable[dict]:
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise RunError("backend = 'dask' needs the dask extra: pip install 'simcards[dask]'") from None
    from joblib import Parallel, delayed, parallel_config

    cluster = None
    if config.scheduler:
        client = Client(config.scheduler, timeout="30s")
    else:
        cluster = LocalCluster(n_workers=config.workers, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    try:
        with parallel_config(backend="dask"):
            parallel = Parallel(n_jobs=-1, return_as="generator_unordered")
            yield from parallel(delayed(run_chunk)(*_task_args(config, c)) for c in pending)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _progress(total: int, done: int, unit: str, quiet: bool):
    from tqdm import tqdm

    return tqdm(total=total, initial=done, unit=f" {unit}", unit_scale=True, dynamic_ncols=True,
                disable=quiet or not sys.stderr.isatty(), smoothing=0.1)


def run(config: RunConfig, force: bool = False, quiet: bool = False,
        log: Callable[[str], None] = print) -> dict:
    """Make (or finish) the run of ``config``; returns the final manifest."""
    run_dir = config.run_dir
    manifest, pending = prepare(config, force=force, log=log)
    run_dir.mkdir(parents=True, exist_ok=True)
    _clean_temporaries(run_dir)
    _write_json_atomic(run_dir / MANIFEST, manifest)
    done_units = config.units - sum(c.n for c in pending)
    if done_units and pending:
        log(f"resuming {run_dir}: {done_units:,} of {config.units:,} {config.units_name} already made")
    entries = {e["index"]: e for e in manifest["chunks"]}
    started = time.perf_counter()
    runner = _run_dask if config.backend == "dask" else _run_loky
    made = 0
    with _progress(config.units, done_units, config.unit, quiet) as bar:
        for info in runner(config, pending):
            entries[info["index"]].update(info)
            made += info["n"]
            manifest["updated"] = datetime.now(timezone.utc).isoformat(timespec="seconds")
            _write_json_atomic(run_dir / MANIFEST, manifest)
            bar.update(info["n"])
    wall = time.perf_counter() - started
    if made:
        done = [e for e in manifest["chunks"] if "simulate_seconds" in e and e["index"] in
                {c.index for c in pending}]
        kernel = sum(e["simulate_seconds"] for e in done)
        manifest["timings"] = {
            "wall_seconds": round(wall, 3),
            "units_made": made,
            "units_per_second": round(made / wall, 1) if wall else None,
            "kernel_units_per_second_per_worker": round(made / kernel, 1) if kernel else None,
            "workers": config.workers,
            "backend": config.backend,
        }
        _write_json_atomic(run_dir / MANIFEST, manifest)
    return manifest
