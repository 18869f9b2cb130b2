"""Cold compile times: where the seconds of a first run go.

    python scripts/compile_times.py                       # heuristic, every ruleset
    python scripts/compile_times.py --bots random --rulesets skat hearts --top 8

For each ruleset, a fresh process with an empty cache folder (NUMBA_CACHE_DIR) imports simcards
and simulates ``--units`` units with ``--bots``; the compile log (SIMCARDS_COMPILE_LOG,
simcards/_jit.py) says what compiled. Prints the wall seconds (import, compile, play), the
compile seconds (wall and CPU: on a busy machine CPU time is the steadier figure) and the
functions that took longest by their own CPU time (without the functions they compiled on the
way, which are listed by theirs). Never time things in tests: this is for people.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CHILD = """
import sys, time
t0 = time.perf_counter()
import simcards
imported = time.perf_counter() - t0
simcards.load(sys.argv[1]).simulate(int(sys.argv[2]), seed=1, bots=sys.argv[3])
print(imported, time.perf_counter() - t0)
"""


def cold_run(ruleset: str, units: int, bots: str, python: str = sys.executable) -> dict:
    """Wall seconds and the compile log of a first run in a fresh process and cache."""
    from simcards._jit import read_compile_log

    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "compile.log"
        env = {**os.environ, "NUMBA_CACHE_DIR": str(Path(folder) / "cache"),
               "SIMCARDS_COMPILE_LOG": str(log)}
        t0, cpu0 = time.perf_counter(), os.times()
        out = subprocess.run([python, "-c", CHILD, ruleset, str(units), bots], env=env,
                             check=True, capture_output=True, text=True).stdout.split()
        wall = time.perf_counter() - t0
        cpu = os.times().children_user - cpu0.children_user + os.times().children_system - cpu0.children_system
        lines = read_compile_log(log)
    return {"ruleset": ruleset, "bots": bots, "wall_seconds": wall, "cpu_seconds": cpu,
            "import_seconds": float(out[0]),
            "compile_seconds": sum(line["seconds"] for line in lines if line["depth"] == 0),
            "compile_cpu_seconds": sum(line["cpu_seconds"] for line in lines if line["depth"] == 0),
            "compiles": len(lines), "log": lines}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rulesets", nargs="*", default=None)
    parser.add_argument("--bots", default="heuristic")
    parser.add_argument("--units", type=int, default=1000)
    parser.add_argument("--top", type=int, default=5, help="functions shown per ruleset")
    parser.add_argument("--python", default=sys.executable, help="the build to time (its python)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    import simcards

    rows = [cold_run(r, args.units, args.bots, args.python) for r in args.rulesets or simcards.rulesets()]
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    for row in rows:
        print(f"{row['ruleset']:22s} {row['bots']:10s} {row['wall_seconds']:6.1f} s wall "
              f"({row['cpu_seconds']:.1f} s CPU), import {row['import_seconds']:.1f} s, compile "
              f"{row['compile_seconds']:.1f} s ({row['compile_cpu_seconds']:.1f} s CPU; "
              f"{row['compiles']} functions)")
        own = defaultdict(float)
        for line in row["log"]:
            own[line["function"].removeprefix("simcards.")] += line["self_cpu_seconds"]
        for name, seconds in sorted(own.items(), key=lambda kv: -kv[1])[:args.top]:
            print(f"    {seconds:6.1f} s  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
