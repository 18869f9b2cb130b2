"""What a run folder promises and how it is checked: part checksums, the chunk plan and the lock.

Every finished part is recorded in ``manifest.json`` with its row count, size and SHA-256 when it
is renamed into place. A part is trusted only when all three still match, so a part damaged in
place (even at the same size), truncated, deleted or copied from another run is found: `run`
makes it again, `report` and `verify` name it.

The chunk plan is arithmetic (chunk i covers units [i * chunk_size, (i + 1) * chunk_size)), and
the manifest lists finished chunks only, so neither grows with the number of units asked for.

A run holds ``<run>/.lock`` with an exclusive `flock` while it writes. The operating system
drops the lock when the process ends however it ends, so a killed run never leaves the folder
locked; a second live run into the same folder is refused.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import socket
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterator

import pyarrow.parquet as pq

from simcards.errors import UserError

MANIFEST = "manifest.json"
LOCK = ".lock"
KINDS = ("deals", "matches")


def part_name(index: int) -> str:
    return f"part-{index:05d}.parquet"


def file_sha256(path: Path) -> str:
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


@dataclass(frozen=True)
class Chunk:
    index: int
    start: int
    n: int


@dataclass(frozen=True)
class Plan:
    """Chunks of ``units`` units of ``chunk_size``, computed on demand (no list of them)."""

    units: int
    chunk_size: int

    def __len__(self) -> int:
        return -(-self.units // self.chunk_size)

    def chunk(self, index: int) -> Chunk:
        start = index * self.chunk_size
        return Chunk(index, start, min(self.chunk_size, self.units - start))

    def chunks(self, skip: frozenset[int] | set[int] = frozenset()) -> Iterator[Chunk]:
        return (self.chunk(i) for i in range(len(self)) if i not in skip)


def part_problem(run_dir: Path, kind: str, entry: dict, deep: bool = True) -> str | None:
    """What is wrong with the ``kind`` part of a finished chunk ``entry``, or None.

    Checks presence, size and (``deep``) the SHA-256; manifests written before checksums
    existed are checked by their Parquet row count."""
    path = run_dir / kind / part_name(entry["index"])
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return f"{path} is missing"
    except OSError as exc:
        return f"{path} is unreadable ({exc.strerror})"
    expected = entry.get("sha256", {}).get(kind)
    if expected is None:  # an older manifest: row counts only
        try:
            rows = pq.read_metadata(path).num_rows
        except Exception as exc:
            return f"{path} is corrupt ({type(exc).__name__})"
        if rows != entry.get("rows", {}).get(kind):
            return f"{path} has {rows} rows, the manifest says {entry.get('rows', {}).get(kind)}"
        return None
    if size != entry.get("bytes", {}).get(kind):
        return f"{path} has {size:,} bytes, the manifest says {entry.get('bytes', {}).get(kind):,}"
    if deep:
        try:
            actual = file_sha256(path)
        except OSError as exc:
            return f"{path} is unreadable ({exc.strerror})"
        if actual != expected:
            return f"{path} is damaged or from another run (its SHA-256 does not match the manifest)"
    return None


def entry_problems(run_dir: Path, entry: dict, deep: bool = True) -> list[str]:
    kinds = list(entry.get("rows", {})) or ["deals"]
    return [p for kind in kinds if (p := part_problem(run_dir, kind, entry, deep)) is not None]


def done_entries(manifest: dict) -> list[dict]:
    return [e for e in manifest.get("chunks", []) if e.get("status") == "done"]


class RunLocked(UserError):
    pass


class RunLock:
    """An exclusive lock on a run folder for as long as a run writes into it."""

    def __init__(self, run_dir: Path):
        self.path = run_dir / LOCK
        self.fd: int | None = None

    def acquire(self) -> "RunLock":
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 200).decode(errors="replace").strip() or "another process"
            os.close(fd)
            raise RunLocked(f"{self.path.parent} is being written by another simcards run "
                            f"({holder}); wait for it to finish or stop it, then rerun") from None
        os.ftruncate(fd, 0)
        started = datetime.now(timezone.utc).isoformat(timespec="seconds")
        os.write(fd, f"pid {os.getpid()} on {socket.gethostname()}, since {started}\n".encode())
        self.fd = fd
        return self

    def release(self) -> None:
        if self.fd is not None:
            self.path.unlink(missing_ok=True)
            os.close(self.fd)  # closing drops the flock
            self.fd = None


def is_complete(manifest: dict) -> bool:
    """Has every chunk of the run's plan finished?"""
    return len(Plan(manifest["units"], manifest["chunk_size"])) == len(done_entries(manifest))
