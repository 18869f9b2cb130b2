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
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def cold_run(ruleset: str, units: int, bots: str, python: str = sys.executable,
             cwd: str | None = None) -> dict:
    """`simcards.bench.cold_first_run` with the compile log: what compiled, and for how long."""
    from simcards._jit import read_compile_log
    from simcards.bench import cold_first_run

    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "compile.log"
        row = cold_first_run(ruleset, units, bots, python, env={"SIMCARDS_COMPILE_LOG": str(log)},
                             cwd=cwd)
        lines = read_compile_log(log)
    return {"ruleset": ruleset, "bots": bots, **row,
            "compile_cpu_seconds": sum(line["cpu_seconds"] for line in lines if line["depth"] == 0),
            "log": lines}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rulesets", nargs="*", default=None)
    parser.add_argument("--bots", default="heuristic")
    parser.add_argument("--units", type=int, default=1000)
    parser.add_argument("--top", type=int, default=5, help="functions shown per ruleset")
    parser.add_argument("--python", default=sys.executable, help="the build to time (its python)")
    parser.add_argument("--cwd", default=None, help="the build's folder (its simcards is imported)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    import simcards

    rows = [cold_run(r, args.units, args.bots, args.python, args.cwd) for r in args.rulesets or simcards.rulesets()]
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    for row in rows:
        print(f"{row['ruleset']:22s} {row['bots']:10s} {row['wall_seconds']:6.1f} s wall "
              f"({row['cpu_seconds']:.1f} s CPU), import {row['import_seconds']:.1f} s, compile "
              f"{row['compile_seconds'] or 0:.1f} s ({row['compile_cpu_seconds']:.1f} s CPU; "
              f"{row['compiles'] or 0} top-level compiles, {len(row['log'])} functions)")
        own = defaultdict(float)
        for line in row["log"]:
            own[line["function"].removeprefix("simcards.")] += line["self_cpu_seconds"]
        for name, seconds in sorted(own.items(), key=lambda kv: -kv[1])[:args.top]:
            print(f"    {seconds:6.1f} s  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
