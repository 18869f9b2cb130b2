"""Compile the kernels of every ruleset into the disk cache, before a test run starts its workers.

    python scripts/warm_cache.py            # every ruleset, in as many processes as cores (<= 2)
    python scripts/warm_cache.py --jobs 1   # in this process

scripts/test.sh runs it before pytest-xdist starts its workers, so two workers never compile the
same kernel: they load it from the cache. A warm cache makes this a few seconds of loading.

Per ruleset it plays one unit with each built-in bot kind at the first seat (random elsewhere:
a search bot's loop is its own compile, `work` an array instead of None), where the game has a
solver one with its perfect-play columns, a card of an interactive deal and a replay. The rulesets are split among the processes by
the game folders they import (`simcards._jit.ImportGraph`), so rulesets sharing kernels (a
family) compile in one process and no kernel is compiled twice.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def warm(ruleset: str) -> None:
    """Compile (or load) the kernels a run of ``ruleset`` may use: each bot kind, perfect play."""
    import simcards

    game = simcards.load(ruleset)
    for kind in game.bots.kinds:
        game.simulate_chunk(1, seed=1, bots=[kind] + ["random"] * (game.n_seats - 1))
    if game.solver is not None:
        simcards.load(ruleset, **{game.solver.option: True}).simulate_chunk(1, seed=1, bots="random")
    try:  # the interactive kernels and the replay (with perfect play), which many tests use
        state = game.deal(seed=1, index=0)
        state.play(state.suggest("heuristic"))
        game.replay(1, 0, "heuristic", perfect_play=game.solver is not None)
    except Exception as exc:  # a ruleset without them: the tests say what is wrong, not this
        print(f"warm_cache: {ruleset}: {type(exc).__name__}: {exc}", file=sys.stderr)


def groups(rulesets: list[str], jobs: int) -> list[list[str]]:
    """``rulesets`` in at most ``jobs`` groups: rulesets whose game modules import a common game
    folder (a folder holding a ruleset's game class: a family) share a group, and the groups
    are balanced by their modules' count."""
    from simcards._jit import import_graph
    from simcards.games import game_class

    graph = import_graph()
    game_folders = {game_class(r).__module__.rpartition(".")[0] for r in rulesets}
    folders = {}
    for ruleset in rulesets:
        closure = graph.closure([game_class(ruleset).__module__])
        folders[ruleset] = {m.rpartition(".")[0] for m in closure} & game_folders
    families: list[tuple[set, list[str], int]] = []
    for ruleset in rulesets:
        joined = [f for f in families if f[0] & folders[ruleset]]
        shared = set(folders[ruleset]).union(*(f[0] for f in joined))
        members = [r for f in joined for r in f[1]] + [ruleset]
        families = [f for f in families if f not in joined] + [(shared, members, 0)]
    sized = sorted(((len(graph.closure([game_class(r).__module__ for r in members])), members)
                    for _, members, _ in families), reverse=True)
    out: list[tuple[int, list[str]]] = [(0, []) for _ in range(max(1, min(jobs, len(sized))))]
    for size, members in sized:
        out.sort(key=lambda g: g[0])
        out[0] = (out[0][0] + size, out[0][1] + members)
    return [members for _, members in out if members]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("rulesets", nargs="*", help="only these (default: every ruleset)")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1),
                        help="processes (default: the cores, at most 2)")
    args = parser.parse_args(argv)
    import simcards

    chosen = args.rulesets or simcards.rulesets()
    t0 = time.perf_counter()
    if args.jobs <= 1:
        for ruleset in chosen:
            warm(ruleset)
    else:
        children = [subprocess.Popen([sys.executable, __file__, "--jobs", "1", *group])
                    for group in groups(chosen, args.jobs)]
        if any(child.wait() != 0 for child in children):
            return 1
        print(f"kernels of {len(chosen)} rulesets compiled or loaded in "
              f"{time.perf_counter() - t0:.0f} s ({len(children)} processes)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
