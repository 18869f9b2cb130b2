"""Benchmarks: kernel deals per second per ruleset and bot, OpenSpiel side by side, and the
whole `simcards run` pipeline (end to end, Parquet bytes per deal, peak memory).

    python scripts/bench.py            # everything, a table per part
    python scripts/bench.py --json     # the same figures as one JSON object
    python scripts/bench.py --quick    # shorter timings, no 10x end-to-end run

"compile" is the cold start: the seconds a first heuristic simulate of 1,000 units spends
compiling, in a fresh process with an empty cache folder, beside that run's whole time (import,
compile, play: what a new user waits for). A warm run loads the kernels from the cache instead.

Figures are per core (one process). "kernel" times the compiled batch kernel alone (where a
game exposes it; "-" otherwise), "with frame" adds the conversion to a polars frame that every
worker does per chunk; targets (the docs' performance page: kernel only) are checked against the
kernel figure where there is one. The OpenSpiel ratio uses the with-frame figure. Targets are goals, not tests.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import simcards
from simcards.games import load, rulesets

def build_id() -> str:
    """The git commit simcards runs from (with "-dirty" when tracked files differ from it), or
    the package version outside a git checkout: what `--json` stamps its figures with."""
    root = Path(simcards.__file__).resolve().parent.parent
    try:
        top = subprocess.run(["git", "rev-parse", "--show-toplevel", "HEAD"], cwd=root,
                             capture_output=True, text=True, timeout=10)
        if top.returncode == 0:
            toplevel, commit = top.stdout.split()
            if Path(toplevel).resolve() == root:
                dirty = subprocess.run(["git", "diff", "--quiet", "HEAD", "--"], cwd=root,
                                       capture_output=True, timeout=10).returncode != 0
                return commit + ("-dirty" if dirty else "")
    except (OSError, ValueError, subprocess.SubprocessError):
        pass
    return simcards.__version__


_COLD_CHILD = """
import json, sys, time
t0 = time.perf_counter()
import simcards
imported = time.perf_counter() - t0
try:
    from simcards.compiling import watching_compiles
except ImportError:  # a build from before the compile watch (scripts/compile_times.py --python)
    watching_compiles = None
game = simcards.load(sys.argv[1])
if watching_compiles is None:
    game.simulate(int(sys.argv[2]), seed=1, bots=sys.argv[3])
    seconds, count = None, None
else:
    with watching_compiles() as watch:
        game.simulate(int(sys.argv[2]), seed=1, bots=sys.argv[3])
    seconds, count = watch.seconds, watch.count
print(json.dumps({"import_seconds": imported, "wall_seconds": time.perf_counter() - t0,
                  "compile_seconds": seconds, "compiles": count}))
"""


def cold_first_run(ruleset: str, units: int = 1_000, bots: str = "heuristic",
                   python: str = sys.executable, env: dict | None = None,
                   cwd: str | None = None) -> dict:
    """A first ``simulate`` of ``units`` in a fresh process with an empty cache folder
    (NUMBA_CACHE_DIR): its seconds in all (``wall_seconds``: import, compile, play, as a new
    user's first run), of the import, and of compiling (``compile_seconds``: the top-level
    compiles, `simcards.compiling.watching_compiles`), the process's CPU seconds and the number of
    compiles. ``env``: more environment for the child (a compile log); ``python``, ``cwd``:
    another build's interpreter and folder, to compare two builds."""
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, **(env or {}), "NUMBA_CACHE_DIR": str(Path(folder) / "cache")}
        cpu0 = os.times()
        out = subprocess.run([python, "-c", _COLD_CHILD, ruleset, str(units), bots], env=env,
                             cwd=cwd, check=True, capture_output=True, text=True).stdout
        cpu1 = os.times()
    row = json.loads(out.splitlines()[-1])
    row["cpu_seconds"] = (cpu1.children_user - cpu0.children_user
                          + cpu1.children_system - cpu0.children_system)
    return {k: round(v, 2) if isinstance(v, float) else v for k, v in row.items()}


def _rate(step, seconds: float, chunk: int) -> float:
    """Deals per second of ``step(n, start) -> deals made``, in growing batches up to ``chunk``."""
    step(50, 0)  # compile / load the cache
    n, elapsed, deals, start = 200, 0.0, 0, 0
    while elapsed < seconds:
        t0 = time.perf_counter()
        deals += step(n, start)
        elapsed += time.perf_counter() - t0
        start += n
        n = min(n * 2, chunk)
    return deals / elapsed


def kernel_rates(ruleset: str, bots: str, seconds: float) -> tuple[float | None, float]:
    """(kernel only, with the polars frame) deals per second in this process, in batches of the
    runner's default chunk size. Kernel only is measured where the game has a kernel row
    matrix (`Game._simulate_matrix` is not None); the frame figure is what a run's worker does per chunk."""
    game = load(ruleset)
    chunk = 2_000 if game.unit == "match" else 100_000
    kinds, params = game.resolve_bots(bots)
    with_frame = _rate(lambda n, start: game.simulate_chunk(n, seed=2, bots=bots, start=start)["deals"].height,
                       seconds, chunk)
    kernel = None
    if game._simulate_matrix(2, 0, 1, kinds, params) is not None:
        kernel = _rate(lambda n, start: game._simulate_matrix(2, start, n, kinds, params).shape[1],
                       seconds, chunk)
    return kernel, with_frame


def user_bot_rates(ruleset: str, seconds: float) -> dict | None:
    """What user bots cost (simcards/games/userbots/), where the ruleset takes them:
    simcards' overhead per decision around a Python bot (the empty bot `FirstLegal` at every
    seat against the random bots' play, per card decision), and units per second of a Numba
    user bot copying the heuristic beside the built-in heuristic, compile time excluded (the
    build is timed apart: it is paid once per worker). Process time, best of three."""
    game = load(ruleset)
    support = game.user_bots
    if support is None:
        return None
    empty = [{"kind": "python", "entry": "simcards.games.userbots:FirstLegal"}] * game.n_seats
    copy = [{"kind": "numba", "entry": support.copy_entry}] * game.n_seats
    t0 = time.process_time()
    game.simulate_chunk(1, seed=2, bots=copy)
    build = {"numba": time.process_time() - t0}
    t0 = time.process_time()
    game.simulate_chunk(1, seed=2, bots=empty)
    build["python"] = time.process_time() - t0
    game.simulate_chunk(1, seed=2, bots="random")

    def best(bots, n: int) -> tuple[float, int]:
        times, decisions = [], 0
        for _ in range(3):
            t0 = time.process_time()
            frames = game.simulate_chunk(n, seed=2, bots=bots)
            times.append(time.process_time() - t0)
            decisions = frames["deals"].height * game.tricks_per_deal * game.n_seats
        return min(times), decisions

    n_python = 4 if game.unit == "match" else 100
    python_time, decisions = best(empty, n_python)
    random_time, _ = best("random", n_python)
    overhead = (python_time - random_time) / decisions
    n_fast = max(1, int((50_000 if game.unit == "deal" else 1_500) * seconds / 3))
    heuristic_time, _ = best("heuristic", n_fast)
    fast_time, _ = best(copy, n_fast)
    return {"python_overhead_us_per_decision": round(overhead * 1e6, 2),
            "python_empty_bot_units_per_s": round(n_python / python_time, 1),
            "numba_copy_units_per_s": round(n_fast / fast_time),
            "heuristic_units_per_s": round(n_fast / heuristic_time),
            "numba_vs_heuristic": round(heuristic_time / fast_time, 3),
            "build_seconds": {k: round(v, 2) for k, v in build.items()}}


def _peak_rss_of_tree(proc: subprocess.Popen) -> tuple[int, float]:
    """Wait for ``proc``; return (its exit code, peak summed RSS of it and its children in MiB)."""
    try:
        import psutil
    except ImportError:
        return proc.wait(), float("nan")
    peak = 0
    root = psutil.Process(proc.pid)
    while proc.poll() is None:
        try:
            total = root.memory_info().rss + sum(c.memory_info().rss for c in root.children(recursive=True))
            peak = max(peak, total)
        except psutil.Error:
            pass
        time.sleep(0.05)
    return proc.returncode, peak / 2**20


def end_to_end(deals: int, workers: int, config: Path) -> dict:
    """Run `simcards run` on ``config`` with ``deals`` in a fresh process and measure it."""
    with tempfile.TemporaryDirectory() as out:
        cmd = [sys.executable, "-m", "simcards.cli", "run", str(config), "--deals", str(deals),
               "--workers", str(workers), "--out", out, "--quiet"]
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        code, peak = _peak_rss_of_tree(proc)
        wall = time.perf_counter() - t0
        if code != 0:
            raise RuntimeError(f"{' '.join(cmd)} failed: {proc.stderr.read().decode()}")
        run_dir = next(Path(out).iterdir())
        manifest = json.loads((run_dir / "manifest.json").read_text())
        parts = sum(e["bytes"]["deals"] for e in manifest["chunks"])
        timings = manifest["timings"]
        return {
            "deals": deals, "workers": workers,
            "end_to_end_deals_per_s": timings["units_per_second"],
            "process_wall_seconds": round(wall, 2),
            "kernel_deals_per_s_per_worker": timings["kernel_units_per_second_per_worker"],
            "efficiency": round(timings["units_per_second"]
                                / (timings["kernel_units_per_second_per_worker"] * workers), 3),
            "parquet_bytes_per_deal": round(parts / deals, 2),
            "peak_memory_mib": round(peak, 1),
        }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="simcards bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of tables")
    parser.add_argument("--quick", action="store_true", help="short timings, end to end at demo size only")
    parser.add_argument("--seconds", type=float, default=None, help="timing per kernel figure (default 3, quick 1)")
    parser.add_argument("--rulesets", nargs="*", default=None, help="only these rulesets")
    parser.add_argument("--no-e2e", action="store_true", help="skip the end-to-end runs")
    parser.add_argument("--no-user-bots", action="store_true", help="skip the user-bot figures")
    parser.add_argument("--no-solver", action="store_true", help="skip the double-dummy solver and search-bot figures")
    parser.add_argument("--no-compile", action="store_true",
                        help="skip the cold compile figures (a fresh process and cache per ruleset)")
    parser.add_argument("--config", type=Path, default=Path("configs/demo.toml"),
                        help="config for the end-to-end runs (default configs/demo.toml)")
    args = parser.parse_args(argv)
    seconds = args.seconds or (1.0 if args.quick else 3.0)
    chosen = args.rulesets or rulesets()
    unknown = [r for r in chosen if r not in rulesets()]
    if unknown:
        print(f"simcards bench: unknown ruleset(s) {', '.join(unknown)}; rulesets are "
              f"{', '.join(rulesets())}", file=sys.stderr)
        return 2
    say = (lambda *a: None) if args.json else print
    result: dict = {"simcards_version": simcards.__version__,
                    "commit": build_id(),
                    "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
                    "quick": args.quick, "cpu_count": os.cpu_count(),
                    "kernel": {}, "targets": {}, "openspiel": {}, "end_to_end": []}

    if not args.no_compile:
        say("Cold start: a first heuristic simulate of 1,000 units in a fresh process with an empty "
            "cache folder")
        say(f"  {'ruleset':22s} {'compile':>9s} {'first run':>10s}  (import, compile, play)")
        for ruleset in chosen:
            row = result.setdefault("compile", {})[ruleset] = cold_first_run(ruleset)
            say(f"  {ruleset:22s} {row['compile_seconds']:>7.1f} s {row['wall_seconds']:>8.1f} s  "
                f"({row['compiles']} compiles, {row['cpu_seconds']:.1f} s CPU; target <= 12 s)")
        say("")
    say("Deals per second per core (one process; kernel only, and with the polars frame a worker makes)")
    say(f"  {'ruleset':22s} {'bots':10s} {'kernel':>12s} {'with frame':>12s} {'target':>10s}")
    for ruleset in chosen:
        result["kernel"][ruleset] = {}
        result.setdefault("with_frame", {})[ruleset] = {}
        game = load(ruleset)
        for entry in game.bench:
            bots = entry.bots
            kernel, with_frame = kernel_rates(ruleset, bots, seconds)
            rate = kernel if kernel is not None else with_frame
            result["kernel"][ruleset][bots] = round(rate)
            result["with_frame"][ruleset][bots] = round(with_frame)
            target = entry.target
            if target is not None:
                result["targets"].setdefault(ruleset, {})[bots] = target
            mark = "" if target is None else f"{target:>10,}" + ("  ok" if rate >= target else "  below")
            shown = f"{kernel:>12,.0f}" if kernel is not None else f"{'-':>12s}"
            say(f"  {ruleset:22s} {bots:10s} {shown} {with_frame:>12,.0f} {mark}")
        os_rate = game.openspiel_rate(seconds)
        if os_rate is not None and "random" in result["with_frame"][ruleset]:
            ratio = result["with_frame"][ruleset]["random"] / os_rate
            result["openspiel"][ruleset] = {"openspiel_random_deals_per_s": round(os_rate, 1),
                                            "simcards_random_deals_per_s": result["with_frame"][ruleset]["random"],
                                            "ratio": round(ratio, 1)}
            say(f"  {ruleset:22s} {'OpenSpiel':10s} {'':>12s} {os_rate:>12,.1f}   simcards random / "
                f"OpenSpiel random = {ratio:,.0f}x (target 50x)")

    if not args.no_user_bots:
        say("\nUser bots (process time, best of 3; units are deals, or matches where a run counts them)")
        say(f"  {'ruleset':22s} {'python overhead':>16s} {'numba copy':>12s} {'heuristic':>12s} "
            f"{'ratio':>6s}  build (numba: per worker; python: once, then cached)")
        for ruleset in chosen:
            rates = user_bot_rates(ruleset, seconds)
            if rates is None:
                say(f"  {ruleset:22s} no user bots yet")
                continue
            result.setdefault("user_bots", {})[ruleset] = rates
            b = rates["build_seconds"]
            say(f"  {ruleset:22s} {rates['python_overhead_us_per_decision']:>11.1f} us/dec "
                f"{rates['numba_copy_units_per_s']:>12,} {rates['heuristic_units_per_s']:>12,} "
                f"{rates['numba_vs_heuristic']:>6.0%}  {b['numba']:.1f} s, {b['python']:.1f} s "
                f"(targets: <= 20 us, >= 70%)")
    if not args.no_solver:
        for ruleset in chosen:
            game = load(ruleset)
            if game.solver is None:
                continue
            if "solver" not in result:
                say("\nDouble-dummy solver (full deal from the start of play, one core) and search bot")
            row = result.setdefault("solver", {})[ruleset] = game.solver.bench(game, args.quick)
            # targets a game's bench names (issue 14's, for Klaverjassen and Kraken)
            target = (f"; target median {row['solve_target_ms']:g} ms"
                      if "solve_target_ms" in row else "")
            best_of = f", each the fastest of {row['repeats']} runs" if row.get("repeats", 1) > 1 else ""
            line = (f"  {ruleset:22s} solve median {row['solve_median_ms']:.3g} ms "
                    f"(95% interval {row['solve_median_lo_ms']:.3g}-{row['solve_median_hi_ms']:.3g}), "
                    f"p95 {row['solve_p95_ms']:.3g} ms ({row['deals']} deals{best_of}{target}), "
                    f"median {row['positions_median']:,} positions, "
                    f"{row['positions_per_s']:,} positions/s")
            if "pimc_deals_per_s" in row:  # a game without a search bot reports the solver only
                pimc_target = (f" (target {row['pimc_target_deals_per_s']:g})"
                               if "pimc_target_deals_per_s" in row else "")
                line += (f"; pimc ({row['pimc_samples']} samples, one seat) "
                         f"{row['pimc_deals_per_s']:.2f} deals/s{pimc_target}")
            say(line)

    if not args.no_e2e and args.config.exists():
        workers = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
        sizes = [1_000_000] if args.quick else [1_000_000, 10_000_000]
        say(f"\nEnd to end: simcards run {args.config} ({workers} workers)")
        for deals in sizes:
            row = end_to_end(deals, workers, args.config)
            result["end_to_end"].append(row)
            say(f"  {deals:>11,} deals: {row['end_to_end_deals_per_s']:>10,.0f} deals/s end to end, "
                f"kernel {row['kernel_deals_per_s_per_worker']:,.0f}/s per worker -> efficiency "
                f"{row['efficiency']:.0%} (target 70%); {row['parquet_bytes_per_deal']:.1f} bytes/deal "
                f"(target <= 40); peak memory {row['peak_memory_mib']:.0f} MiB")
    if args.json:
        print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
