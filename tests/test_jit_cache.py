"""The Numba cache keyed per module (simcards/_jit.py): an edit recompiles the kernels of the
modules that import the edited one, transitively, and no others."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import simcards
from simcards import _jit
from simcards._jit import ImportGraph, bound_modules

PACKAGE = Path(simcards.__file__).resolve().parent


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


@pytest.fixture
def toy(tmp_path):
    """A small package whose imports take every form the graph resolves."""
    write(tmp_path / "pkg", {
        "__init__.py": "from pkg.registry import load\nfrom pkg import game_a, game_b\n",
        "registry.py": "def load(name): return name\n",
        "shared.py": "X = 1\n",
        "helper.py": "Y = 2\n",
        "lazy.py": "Z = 3\n",
        "report.py": "import pkg.game_a.kernels\n",
        "game_a/__init__.py": "",
        "game_a/kernels.py": "from pkg.shared import X\nfrom . import rules\n"
                             "def late():\n    from pkg.lazy import Z\n    return Z\n",
        "game_a/rules.py": "from ..helper import Y\n",
        "game_b/__init__.py": "",
        "game_b/kernels.py": "import pkg.shared\nfrom pkg.game_a.kernels import late\n",
        "game_c/__init__.py": "",
        "game_c/kernels.py": "from pkg import load\n",
    })
    return tmp_path / "pkg"


def keys(root: Path, modules) -> dict[str, str]:
    graph = ImportGraph(root, root.parent / "imports.json")  # parsed once per content
    return {m: graph.key([m]) for m in modules}


def edited(root: Path, file: str, modules) -> set[str]:
    """The modules whose key changes when ``file`` (relative to ``root``) changes."""
    before = keys(root, modules)
    path = root / file
    path.write_text(path.read_text() + "\n# edited\n")
    after = keys(root, modules)
    return {m for m in modules if before[m] != after[m]}


KERNELS = ("pkg.game_a.kernels", "pkg.game_b.kernels", "pkg.game_c.kernels")


def test_imports_resolve_absolute_relative_function_level_and_reexports(toy):
    graph = ImportGraph(toy)
    assert graph.imports("pkg.game_a.kernels") == {"pkg.shared", "pkg.game_a.rules", "pkg.lazy"}
    assert graph.imports("pkg.game_a.rules") == {"pkg.helper"}
    assert graph.imports("pkg.game_b.kernels") == {"pkg.shared", "pkg.game_a.kernels"}
    # a name re-exported by a package comes from its module, not from all the package imports
    assert graph.imports("pkg.game_c.kernels") == {"pkg.registry"}
    assert graph.closure(["pkg.game_b.kernels"]) == {
        "pkg.game_b.kernels", "pkg.shared", "pkg.game_a.kernels", "pkg.game_a.rules",
        "pkg.helper", "pkg.lazy"}


@pytest.mark.parametrize("file, changed", [
    ("shared.py", {"pkg.game_a.kernels", "pkg.game_b.kernels"}),
    ("helper.py", {"pkg.game_a.kernels", "pkg.game_b.kernels"}),  # two steps away
    ("lazy.py", {"pkg.game_a.kernels", "pkg.game_b.kernels"}),  # imported inside a function
    ("game_b/kernels.py", {"pkg.game_b.kernels"}),
    ("registry.py", {"pkg.game_c.kernels"}),
    ("report.py", set()),  # imports kernels, imported by none
    ("__init__.py", set()),  # only re-exports what game_c takes from registry
])
def test_an_edit_changes_the_keys_of_its_importers_only(toy, file, changed):
    assert edited(toy, file, KERNELS) == changed


def test_the_import_memo_is_keyed_by_content(toy, tmp_path):
    memo = tmp_path / "memo" / "imports.json"
    first = ImportGraph(toy, memo)
    key = first.key(["pkg.game_b.kernels"])
    assert len(json.loads(memo.read_text())) == len(first.closure(["pkg.game_b.kernels"]))
    assert ImportGraph(toy, memo).key(["pkg.game_b.kernels"]) == key
    (toy / "lazy.py").write_text("Z = 4\n")
    assert ImportGraph(toy, memo).key(["pkg.game_b.kernels"]) != key


# ---------------------------------------------------------------- the package itself


@pytest.fixture(scope="module")
def parsed(tmp_path_factory):
    """The package's imports, parsed once for the tests of this file."""
    memo = tmp_path_factory.mktemp("memo") / "imports.json"
    graph = ImportGraph(PACKAGE, memo)
    graph.key(graph.files)
    return memo


@pytest.fixture
def tree(tmp_path, parsed):
    """A copy of the package's sources (and its parsed imports: `keys`)."""
    shutil.copytree(PACKAGE, tmp_path / "simcards", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(parsed, tmp_path / "imports.json")
    return tmp_path / "simcards"


def kernel_modules(graph: ImportGraph) -> list[str]:
    """The modules that define compiled functions: those importing _jit or numba's njit."""
    jit = f"{graph.package}._jit"
    return [m for m in graph.files
            if jit in graph.imports(m) or b"from numba import njit" in graph.files[m].read_bytes()]


def game_kernels(graph: ImportGraph, game: str) -> set[str]:
    return {m for m in kernel_modules(graph) if m.startswith(f"{graph.package}.games.{game}.")}


def test_an_edit_in_one_game_folder_leaves_the_other_games_alone(tree):
    graph = ImportGraph(tree)
    modules = kernel_modules(graph)
    hearts, klaverjas, kraken = (game_kernels(graph, g) for g in ("hearts", "klaverjas", "kraken"))
    assert hearts and klaverjas and kraken
    changed = edited(tree, "games/hearts/rules.py", modules)
    assert changed and changed <= hearts
    # Kraken plays with Klaverjassen's kernels: an edit there recompiles both, not Hearts
    changed = edited(tree, "games/klaverjas/_kernels.py", modules)
    assert changed & klaverjas and changed & kraken and not changed & hearts


def test_an_edit_to_a_called_function_in_another_file_invalidates_the_caller(tree):
    graph = ImportGraph(tree)
    modules = kernel_modules(graph)
    for module in modules:  # every kernel module imported by another one
        importers = {m for m in modules if module in graph.imports(m)}
        if importers:
            path = graph.files[module].relative_to(tree)
            assert importers | {module} <= edited(tree, str(path), modules), module


def test_shared_modules_invalidate_every_game(tree):
    graph = ImportGraph(tree)
    modules = kernel_modules(graph)
    games = [g.name for g in (tree / "games").iterdir() if (g / "_play.py").exists()]
    for shared in ("cards.py", "rng.py"):
        changed = edited(tree, shared, modules)
        assert all(changed & game_kernels(graph, g) for g in games), shared


def test_modules_without_kernels_invalidate_nothing(tree):
    graph = ImportGraph(tree)
    modules = kernel_modules(graph)
    quiet = ["report.py", "cli.py", "runner.py", "bench.py", "config.py",
             *(str(p.relative_to(tree)) for p in tree.glob("games/*/report.py")),
             *(str(p.relative_to(tree)) for p in tree.glob("games/*/stats.py"))]
    for file in quiet:
        assert edited(tree, file, modules) == set(), file


def test_every_cached_kernel_lives_in_its_modules_keyed_folder():
    from simcards.games.klaverjas import _play

    graph = _jit.import_graph()
    module = "simcards.games.klaverjas._play"
    folder = Path(_play.simulate_into._cache.cache_path)
    assert folder == _jit.cache_dir() / f"games.klaverjas._play-{graph.key([module])}"


def test_a_rebuilt_loop_is_keyed_by_what_is_bound_into_it():
    from simcards.games.userbots.table import build_loops

    game = simcards.load("klaverjas-rotterdam")
    loop = build_loops(game, True, ())["simulate_into"]  # a table of Python bots: cached
    modules = set(loop.py_func.__simcards_modules__)
    support = type(game.user_bots).__module__
    assert {support, "simcards.games.userbots.loops", "simcards.games.klaverjas._play"} <= modules
    assert "simcards.games.klaverjas.bots" in modules  # the built-in card, bound two levels down
    graph = _jit.import_graph()
    assert Path(loop._cache.cache_path).name.endswith(graph.key(["simcards.games.klaverjas._play",
                                                                 *modules]))
    assert bound_modules([loop]) == tuple(sorted(modules))


PROBE = """
    import sys
    from simcards._probe_caller import caller
    print(caller(), sum(caller.stats.cache_hits.values()), caller._cache.cache_path)
"""


def probe(root: Path, cache: Path) -> tuple[int, int, str]:
    env = {**os.environ, "PYTHONPATH": str(root.parent), "NUMBA_CACHE_DIR": str(cache)}
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(PROBE)], env=env, check=True,
                         capture_output=True, text=True, cwd=root.parent).stdout.split()
    return int(out[0]), int(out[1]), out[2]


def test_numba_recompiles_a_caller_whose_helper_in_another_file_changed(tree, tmp_path):
    """The end-to-end check: Numba alone would load the caller's stale machine code (its own
    file did not change); the keyed folder makes it compile the new helper in."""
    write(tree, {
        "_probe_helper.py": "from simcards._jit import hot\n\n@hot\ndef helper():\n    return 1\n",
        "_probe_caller.py": "from simcards._jit import driver\nfrom simcards._probe_helper import helper\n\n"
                            "@driver\ndef caller():\n    return helper() + 10\n",
    })
    cache = tmp_path / "cache"
    assert probe(tree, cache)[:2] == (11, 0)  # compiled
    value, hits, folder = probe(tree, cache)
    assert (value, hits) == (11, 1)  # loaded
    (tree / "_probe_helper.py").write_text((tree / "_probe_helper.py").read_text().replace("1", "2"))
    value, hits, changed_folder = probe(tree, cache)
    assert (value, hits) == (12, 0) and changed_folder != folder
    (tree / "report.py").write_text((tree / "report.py").read_text() + "\n# edited\n")
    assert probe(tree, cache)[:2] == (12, 1)  # an edit elsewhere: still loaded
