#!/usr/bin/env python
"""Compare the Klaverjassen/Kraken double-dummy search of the working tree with that of another
revision, on the same deals in one process: positions searched, time, and whether every margin
agrees. Before and after a change to simcards/games/klaverjas/_solve_kernels.py:

    python scripts/solver_ab.py                       # against HEAD, Rotterdam and Kraken
    python scripts/solver_ab.py --base 963041b --deals 60 --repeats 3
    python scripts/solver_ab.py --rulesets klaverjas-amsterdam --deals 20

Positions searched are deterministic, so they show a change to the search exactly; times on a
shared machine vary by up to 2x, so each deal is solved ``--repeats`` times per build, the
builds interleaved deal by deal, and the fastest run counts. Only the search module comes from
the base revision: the kernels it imports (legal moves, trick winner, roem) are the working
tree's. Exits 1 when a margin differs.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SEARCH = "simcards/games/klaverjas/_solve_kernels.py"


def base_module(rev: str):
    """The search module of ``rev``, loaded under a name of its own. It is kept in simcards' cache
    folder by the hash of its text, so Numba compiles it once per version, not once per run."""
    from simcards._jit import cache_dir

    try:
        text = subprocess.run(["git", "show", f"{rev}:{SEARCH}"], cwd=ROOT, check=True,
                              capture_output=True, text=True).stdout
    except subprocess.CalledProcessError as error:
        print(f"solver_ab: cannot read {SEARCH} at --base {rev!r}: {error.stderr.strip()}", file=sys.stderr)
        raise SystemExit(2)
    digest = hashlib.sha256(text.encode()).hexdigest()[:12]
    folder = cache_dir() / "solver_ab"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"solve_base_{digest}.py"
    if not path.exists():
        path.write_text(text)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    return module


def summary(seconds: list[float], nodes: list[int]) -> dict:
    """Median, mean and 95th percentile of the solve times (ms), positions searched (median and
    mean) and positions per second."""
    ms = 1e3 * np.asarray(seconds)
    positions = np.asarray(nodes, dtype=np.int64)
    return {"median_ms": float(np.median(ms)), "mean_ms": float(ms.mean()),
            "p95_ms": float(np.percentile(ms, 95)), "nodes_median": float(np.median(positions)),
            "nodes_mean": float(positions.mean()),
            "positions_per_s": float(positions.sum() / max(ms.sum() / 1e3, 1e-12))}


def compare(ruleset: str, builds: dict, deals: int, repeats: int, seed: int) -> bool:
    """Solve ``deals`` deals of a heuristic run of ``ruleset`` with every build; print a line per
    build. Returns True when every build finds the margins of the first."""
    from simcards.games import registry
    from simcards.games.klaverjas.solver import _deal_inputs

    game = registry.load(ruleset)
    inputs = _deal_inputs(game, game.simulate(deals, seed=seed))
    runs = {name: {"seconds": [], "nodes": [], "margins": []} for name in builds}
    margin, nodes = np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64)
    for module in builds.values():  # compile (or load) before timing
        module.solve_deals(*[a[:1] for a in inputs], game.tables, margin, nodes)
    for k in range(deals):
        one = [a[k:k + 1] for a in inputs]
        for name, module in builds.items():
            fastest = float("inf")
            for _ in range(repeats):
                start = time.process_time()
                module.solve_deals(*one, game.tables, margin, nodes)
                fastest = min(fastest, time.process_time() - start)
            runs[name]["seconds"].append(fastest)
            runs[name]["nodes"].append(int(nodes[0]))
            runs[name]["margins"].append(int(margin[0]))
    print(f"{ruleset} ({deals} deals of seed {seed}, each the fastest of {repeats})")
    first = next(iter(builds))
    same = True
    for name, run in runs.items():
        s = summary(run["seconds"], run["nodes"])
        differ = [k for k in range(deals) if run["margins"][k] != runs[first]["margins"][k]]
        same &= not differ
        verdict = "" if name == first else (
            "  margins identical" if not differ else f"  MARGINS DIFFER at deals {differ[:10]}")
        print(f"  {name:10s} median {s['median_ms']:6.2f} ms  mean {s['mean_ms']:6.2f}  p95 "
              f"{s['p95_ms']:6.2f} | positions median {s['nodes_median'] / 1e3:6.1f}k  mean "
              f"{s['nodes_mean'] / 1e3:6.1f}k | {s['positions_per_s'] / 1e6:5.1f} M/s{verdict}")
    return same


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n\n".join(__doc__.split("\n\n")[1:]))
    parser.add_argument("--base", default="HEAD", help="git revision to compare with (default HEAD)")
    parser.add_argument("--rulesets", nargs="+", default=["klaverjas-rotterdam", "kraken-contra"],
                        help="Klaverjassen or Kraken rulesets (default: klaverjas-rotterdam kraken-contra)")
    parser.add_argument("--deals", type=int, default=40, help="deals per ruleset (default 40)")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per deal and build (default 3)")
    parser.add_argument("--seed", type=int, default=5, help="seed of the heuristic run the deals come from "
                        "(default 5, as scripts/bench.py)")
    args = parser.parse_args(argv)
    if args.deals < 1 or args.repeats < 1:
        parser.error("--deals and --repeats take a whole number of at least 1")
    from simcards.games import registry
    from simcards.games.klaverjas import _solve_kernels as current

    known = registry.rulesets()
    for ruleset in args.rulesets:
        if ruleset not in known or not ruleset.startswith(("klaverjas", "kraken")):
            parser.error(f"--rulesets: {ruleset!r} is not a Klaverjassen or Kraken ruleset "
                         f"(these are: {', '.join(r for r in known if r.startswith(('klaverjas', 'kraken')))})")
    builds = {f"base {args.base}": base_module(args.base), "work tree": current}
    same = all([compare(r, builds, args.deals, args.repeats, args.seed) for r in args.rulesets])
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
