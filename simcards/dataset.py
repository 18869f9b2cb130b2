"""Reading a finished run: its manifest and its Parquet parts as polars LazyFrames."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import polars as pl
import pyarrow.parquet as pq

from simcards.errors import UserError

MANIFEST = "manifest.json"


def part_name(index: int) -> str:
    """File name of chunk ``index``'s part under deals/ (and matches/)."""
    return f"part-{index:05d}.parquet"


class DatasetError(UserError):
    """A run folder that cannot be read as asked; the message names the file."""


@dataclass
class RunData:
    path: Path
    manifest: dict

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
        """Part files of finished chunks, each checked to be a readable Parquet file."""
        files = []
        for entry in self.manifest["chunks"]:
            if entry.get("status") != "done" or kind not in entry.get("rows", {}):
                continue
            path = self.path / kind / part_name(entry["index"])
            try:
                rows = pq.read_metadata(path).num_rows
            except FileNotFoundError:
                raise DatasetError(f"{path} is missing; rerun the config to make it again") from None
            except Exception as exc:
                raise DatasetError(f"{path} is corrupt ({type(exc).__name__}); delete it and rerun "
                                   f"the config to make it again") from None
            if rows != entry["rows"][kind]:
                raise DatasetError(f"{path} has {rows} rows, the manifest says {entry['rows'][kind]}; "
                                   f"delete it and rerun the config")
            files.append(path)
        return files

    def scan(self, kind: str = "deals") -> pl.LazyFrame:
        files = self.parts(kind)
        if not files:
            raise DatasetError(f"{self.path / kind} has no finished parts")
        return pl.scan_parquet(files)

    @property
    def complete(self) -> bool:
        return all(e.get("status") == "done" for e in self.manifest["chunks"])


def open_run(path: str | Path) -> RunData:
    path = Path(path)
    manifest_path = path / MANIFEST
    if not manifest_path.exists():
        raise DatasetError(f"{path} is not a simcards run (no {MANIFEST}); runs are made by "
                           f"'simcards run CONFIG' under results/<name>/")
    try:
        manifest = json.loads(manifest_path.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise DatasetError(f"{manifest_path} is unreadable ({exc})") from None
    return RunData(path, manifest)
