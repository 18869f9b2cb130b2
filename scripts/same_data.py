"""Check that a change leaves the data alone: run every shipped run config at its seed and a
small unit count with two builds of simcards, and compare the Parquet content column by column.

    # once per build: the Python of its environment writes one Parquet file per config and kind
    python scripts/same_data.py write OUT_DIR [--python /other/checkout/.venv/bin/python]
    python scripts/same_data.py compare OLD_DIR NEW_DIR
    python scripts/same_data.py write OUT_DIR --only perfect-play-klaverjas --scale 0.05
    python scripts/same_data.py write OUT_DIR --random   # also every config with random bots

Rows are sorted by unit index (deal_index, or match_index for match rulesets) before comparing,
so the chunking and worker count do not matter. Values are compared after casting both sides
to the wider type, and columns a build renamed can be mapped with --renamed OLD=NEW.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

import polars as pl

ROOT = Path(__file__).resolve().parent.parent
SMALL = {"deals": 20_000, "matches": 300}


def run_configs() -> list[Path]:
    """The shipped configs that `simcards run` takes (not tune or tournament configs)."""
    out = []
    for path in sorted((ROOT / "configs").glob("*.toml")):
        data = tomllib.loads(path.read_text())
        if "tune" not in data and "entrants" not in data:
            out.append(path)
    return out


def random_variant(config: Path, folder: Path) -> Path:
    """A copy of a run config with every bot random (params dropped): the random bots' data
    covers the rules and the deal, whatever the heuristic does."""
    text = re.sub(r'^(bots|kind)\s*=\s*"[a-z_]+"', r'\1 = "random"', config.read_text(), flags=re.M)
    text = re.sub(r"^params\s*=.*$", "", text, flags=re.M)
    path = folder / f"{config.stem}.random.toml"
    path.write_text(text)
    return path


def write(out_dir: Path, python: str, only: list[str] | None = None, scale: float = 1.0,
          random_bots: bool = False) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    variants = tempfile.TemporaryDirectory()
    configs = [c for c in run_configs() if not only or c.stem in only]
    if random_bots:
        configs += [random_variant(c, Path(variants.name)) for c in configs]
    for config in configs:
        with tempfile.TemporaryDirectory() as tmp:
            # run from the empty folder: ``python -m`` and ``-c`` put the working directory
            # first on sys.path, so from a checkout they would import its simcards, not the
            # one of ``python``'s environment
            probe = subprocess.run([python, "-c", "import sys, simcards, simcards.config as c; "
                                    f"print(c.load_config(sys.argv[1]).units_name, "
                                    f"simcards.__file__)", str(config)],
                                   capture_output=True, text=True, check=True, cwd=tmp)
            units_name, package = probe.stdout.split()
            units = max(1, int(SMALL[units_name] * scale))
            subprocess.run([python, "-m", "simcards.cli", "run", str(config), "--deals", str(units),
                            "--out", tmp, "--quiet", "--workers", "2"], check=True,
                           capture_output=True, cwd=tmp)
            run_dir = next(Path(tmp).iterdir())
            for kind in ("deals", "matches"):
                parts = sorted((run_dir / kind).glob("part-*.parquet"))
                if not parts:
                    continue
                frame = pl.concat([pl.read_parquet(p) for p in parts])
                key = "deal_index" if kind == "deals" else "match_index"
                frame.sort(key).write_parquet(out_dir / f"{config.stem}.{kind}.parquet")
        print(f"{config.stem}: {units:,} units written by {Path(package).parent}", flush=True)


def compare(old_dir: Path, new_dir: Path, renamed: dict[str, str]) -> int:
    failures = 0
    old_files = sorted(old_dir.glob("*.parquet"))
    if not old_files:
        print(f"{old_dir} holds no Parquet files")
        return 1
    for old_path in old_files:
        new_path = new_dir / old_path.name
        if not new_path.exists():
            print(f"{old_path.name}: missing in {new_dir}")
            failures += 1
            continue
        old, new = pl.read_parquet(old_path), pl.read_parquet(new_path)
        new = new.rename({v: k for k, v in renamed.items() if v in new.columns})
        problems = []
        if old.height != new.height:
            problems.append(f"{old.height} rows before, {new.height} after")
        if set(old.columns) != set(new.columns):
            problems.append(f"columns only before: {sorted(set(old.columns) - set(new.columns))}; "
                            f"only after: {sorted(set(new.columns) - set(old.columns))}")
        if not problems:
            for name in old.columns:
                a, b = old[name], new[name]
                if a.dtype != b.dtype:
                    wide = pl.Float64 if a.dtype.is_float() or b.dtype.is_float() else pl.Int64
                    a, b = a.cast(wide), b.cast(wide)
                if not a.equals(b):
                    problems.append(f"column {name} differs in {int((a != b).sum())} rows")
        status = "identical" if not problems else "DIFFERENT: " + "; ".join(problems)
        print(f"{old_path.name}: {old.height:,} rows, {len(old.columns)} columns, {status}")
        failures += bool(problems)
    return 1 if failures else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    w = sub.add_parser("write", help="run every shipped config small and keep its data")
    w.add_argument("out", type=Path)
    w.add_argument("--python", default=sys.executable,
                   help="the Python whose simcards runs the configs (default: this one)")
    w.add_argument("--only", nargs="*", metavar="NAME",
                   help="only these configs (file stems, e.g. demo skat)")
    w.add_argument("--scale", type=float, default=1.0,
                   help="fraction of the usual unit counts (the perfect-play configs solve every "
                        "deal: 0.05 is a quick check)")
    w.add_argument("--random", action="store_true",
                   help="also run every config with random bots at every seat")
    c = sub.add_parser("compare", help="compare two folders written by 'write'")
    c.add_argument("old", type=Path)
    c.add_argument("new", type=Path)
    c.add_argument("--renamed", nargs="*", default=[], metavar="OLD=NEW")
    args = parser.parse_args()
    if args.command == "write":
        write(args.out, args.python, args.only, args.scale, args.random)
        return 0
    renamed = dict(item.split("=", 1) for item in args.renamed)
    return compare(args.old, args.new, renamed)


if __name__ == "__main__":
    sys.exit(main())
