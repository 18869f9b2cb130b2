"""Reading a finished run: its manifest and its Parquet parts as polars LazyFrames."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from simcards.errors import UserError
from simcards.manifest import KINDS, MANIFEST, done_entries, is_complete, part_name, part_problem


class DatasetError(UserError):
    """A run folder that cannot be read as asked; the message names the file."""


@dataclass
class RunData:
    path: Path
    manifest: dict
    _checked: set = field(default_factory=set, repr=False)  # (kind, index) of parts checked

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def ruleset(self) -> str:
        return self.manifest["ruleset"]

    @property
    def options(self) -> dict:
        return self.manifest["options"]

    def parts(self, kind: str = "deals") -> list[Path]:
        """Part files of finished chunks, each checked against the manifest (size, SHA-256)."""
        files = []
        for entry in done_entries(self.manifest):
            if kind not in entry.get("rows", {}):
                continue
            problem = None if (kind, entry["index"]) in self._checked else part_problem(self.path, kind, entry)
            self._checked.add((kind, entry["index"]))
            if problem is not None:
                raise DatasetError(f"{problem}; rerun the config to make it again "
                                   f"(`simcards verify {self.path}` lists every problem)")
            files.append(self.path / kind / part_name(entry["index"]))
        return files

    def check(self) -> None:
        """DatasetError naming the first part (of any kind) that does not match the manifest."""
        for kind in KINDS:
            self.parts(kind)

    def scan(self, kind: str = "deals") -> pl.LazyFrame:
        files = self.parts(kind)
        if not files:
            raise DatasetError(f"{self.path / kind} has no finished parts")
        return pl.scan_parquet(files)

    @property
    def complete(self) -> bool:
        return is_complete(self.manifest)

    @property
    def units_done(self) -> int:
        return sum(e["n"] for e in done_entries(self.manifest))


def open_run(path: str | Path) -> RunData:
    path = Path(path)
    manifest_path = path / MANIFEST
    if not manifest_path.exists():
        raise DatasetError(f"{path} is not a simcards run (no {MANIFEST}); runs are made by "
                           f"'simcards run CONFIG' under results/<name>/")
    try:
        manifest = json.loads(manifest_path.read_text())
        for key in ("ruleset", "units", "chunk_size", "chunks", "config"):
            manifest[key]
    except (OSError, ValueError) as exc:
        raise DatasetError(f"{manifest_path} is unreadable ({exc})") from None
    except (KeyError, TypeError) as exc:
        raise DatasetError(f"{manifest_path} is not a simcards manifest (no {exc})") from None
    return RunData(path, manifest)
