"""The house rules of the package's shape, checked on the syntax tree:

- generic code (every module outside simcards/games/) names no ruleset: no string constant holds
  a ruleset name (docstrings and command-line help texts excepted);
- generic code never tests seat parity (``seat % 2``, ``team & 1``): parties come from the game;
- statistics and report sections never import kernels, and the layers below the games
  (present/, stats, dataset) never import the runner, the games or the CLI;
- no import cycle among the modules of simcards/ and examples/, counting imports inside
  functions and imports of a package's face;
- no private name or private module (a leading underscore) imported from another folder.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import simcards

PACKAGE = Path(simcards.__file__).resolve().parent
GENERIC = sorted(p for p in PACKAGE.rglob("*.py") if "games" not in p.relative_to(PACKAGE).parts)
# the suit is called hearts too: cards.py names suits, not rulesets
ALLOWED = {("cards.py", "hearts")}
FAMILY_WORDS = ("klaverjas", "kraken", "hearts", "hartenjagen")


def _docstring_nodes(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
    return ids


def _help_text_nodes(tree: ast.AST) -> set[int]:
    """String constants passed as help=, description= or epilog= (argparse texts)."""
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            for kw in node.keywords:
                if kw.arg in ("help", "description", "epilog"):
                    ids.update(id(n) for n in ast.walk(kw.value) if isinstance(n, ast.Constant))
    return ids


def ruleset_words() -> set[str]:
    return set(simcards.rulesets()) | set(FAMILY_WORDS)


@pytest.mark.parametrize("path", GENERIC, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_generic_code_names_no_ruleset(path):
    tree = ast.parse(path.read_text())
    skip = _docstring_nodes(tree) | _help_text_nodes(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            text = node.value.lower()
            for word in ruleset_words():
                if word in text and (path.name, word) not in ALLOWED:
                    found.append(f"line {node.lineno}: {node.value!r}")
    assert not found, f"{path.relative_to(PACKAGE)} names rulesets: {found}"


def _mentions_seat(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Name) and ("seat" in n.id or "team" in n.id)
               for n in ast.walk(node))


@pytest.mark.parametrize("path", GENERIC, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_generic_code_tests_no_seat_parity(path):
    tree = ast.parse(path.read_text())
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.right, ast.Constant):
            parity = ((isinstance(node.op, ast.Mod) and node.right.value == 2)
                      or (isinstance(node.op, ast.BitAnd) and node.right.value == 1))
            if parity and _mentions_seat(node.left):
                found.append(f"line {node.lineno}")
    assert not found, f"{path.relative_to(PACKAGE)} tests seat parity at {found}"


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
    return names


def test_statistics_and_reports_import_no_kernels():
    for path in PACKAGE.glob("games/*/stats.py"):
        bad = {m for m in _imports(path) if m.endswith(("_kernels", "_play", "bots", "exact"))}
        assert not bad, f"{path.relative_to(PACKAGE)} imports kernels: {bad}"
    for path in PACKAGE.glob("games/*/report.py"):
        bad = {m for m in _imports(path) if m.endswith(("_kernels", "_play", "bots"))}
        assert not bad, f"{path.relative_to(PACKAGE)} imports kernels: {bad}"


def test_lower_layers_import_nothing_above_them():
    lower = [*PACKAGE.glob("present/*.py"), PACKAGE / "stats.py", PACKAGE / "dataset.py"]
    above = ("simcards.runner", "simcards.games", "simcards.cli", "simcards.report",
             "simcards.tune", "simcards.tournament")
    for path in lower:
        bad = {m for m in _imports(path) if m.startswith(above)}
        assert not bad, f"{path.relative_to(PACKAGE)} imports {bad}"


# ---------------------------------------------------------------- imports: no cycles, no private
# names across folders (simcards/ and examples/). An import inside a function counts as much as
# one at module level; an import under ``if TYPE_CHECKING:`` never runs and does not count. An
# import of a package (``import simcards``, ``from simcards.games import load``) is an edge to
# its __init__, which imports every game: a module below it that imports it closes a loop.

EXAMPLES = PACKAGE.parent / "examples"
# the compile decorators every kernel module uses: private to the package, not to a folder (the
# one exception; simcards/_jit.py says how simcards compiles, and a user's bot uses numba.njit)
SHARED_PRIVATE = {"simcards._jit"}


def _module_names() -> dict[str, Path]:
    """Module name -> file of every module of simcards/ and examples/."""
    out = {}
    for root, base in ((PACKAGE.parent, PACKAGE), (EXAMPLES, EXAMPLES)):
        for path in base.rglob("*.py"):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = path
    return out


MODULES = _module_names()


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            ids.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    return ids


def import_edges(module: str, path: Path) -> list[tuple[str, str | None, int]]:
    """(imported module, imported name or None, line) of every import of ``module`` that
    reaches a module of simcards/ or examples/, at any depth of the file."""
    tree = ast.parse(path.read_text())
    skip = _type_checking_nodes(tree)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    edges = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            edges += [(a.name, None, node.lineno) for a in node.names if a.name in MODULES]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([node.module] if node.module else []))
            for alias in node.names:
                if f"{base}.{alias.name}" in MODULES:  # a submodule
                    edges.append((f"{base}.{alias.name}", None, node.lineno))
                elif base in MODULES:
                    edges.append((base, alias.name, node.lineno))
    return edges


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle (a list of modules, the first repeated at the end) per strongly connected
    component of more than one module, or of one that imports itself (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1 or v in graph[v]:
                found.append(_cycle_in(graph, component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _cycle_in(graph: dict[str, set[str]], component: set[str]) -> list[str]:
    """A path around ``component`` from its first module back to it (breadth first)."""
    start = min(component)
    paths = {start: [start]}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(graph[v] & component):
            if w == start:
                return paths[v] + [start]
            if w not in paths:
                paths[w] = paths[v] + [w]
                queue.append(w)
    return sorted(component)


def test_no_import_cycle():
    import sys

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    graph = {m: {target for target, _, _ in import_edges(m, p)} for m, p in MODULES.items()}
    cycles = _cycles(graph)
    assert not cycles, "import cycles (at module level or inside functions):\n" + "\n".join(
        " -> ".join(cycle) for cycle in cycles)


def _folder(module: str) -> Path:
    return MODULES[module].parent


def _private(module: str, name: str | None) -> bool:
    parts = module.split(".") + ([name] if name else [])
    return any(p.startswith("_") and not p.startswith("__") for p in parts)


def test_no_private_import_across_folders():
    found = []
    for module, path in MODULES.items():
        for target, name, line in import_edges(module, path):
            if target in SHARED_PRIVATE or _folder(target) == path.parent:
                continue
            if _private(target, name):
                what = f"{target}.{name}" if name else target
                found.append(f"{module} (line {line}) imports {what}")
    assert not found, "private names or modules imported from another folder:\n" + "\n".join(found)
