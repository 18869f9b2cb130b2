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
    except (OSError, ValueError) as exc:
        raise DatasetError(f"{manifest_path} is unreadable ({exc})") from None
    if (problem := _manifest_problem(manifest)) is not None:
        raise DatasetError(f"{manifest_path} is not a simcards manifest ({problem})")
    return RunData(path, manifest)


# What every manifest holds (simcards.runner writes it), and what the readers take it as
MANIFEST_TYPES = {"ruleset": str, "units": int, "chunk_size": int, "seed": int, "chunks": list,
                  "config": dict, "options": dict}
JSON_NAMES = {str: "a string", int: "an integer", list: "a list", dict: "an object"}


def _manifest_problem(manifest) -> str | None:
    """What makes ``manifest`` (parsed JSON) no manifest of a run, or None."""
    if not isinstance(manifest, dict):
        return "not a JSON object"
    for key, kind in MANIFEST_TYPES.items():
        if key not in manifest:
            return f"no {key!r}"
        if not isinstance(manifest[key], kind) or isinstance(manifest[key], bool):
            return f"{key} = {manifest[key]!r} is not {JSON_NAMES[kind]}"
    if not all(isinstance(entry, dict) for entry in manifest["chunks"]):
        return "a chunks entry is not an object"
    return None
