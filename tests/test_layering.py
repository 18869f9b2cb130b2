"""The house rules of the package's shape, checked on the syntax tree:

- generic code (every module outside simcards/games/) names no ruleset: no string constant holds
  a ruleset name (docstrings and command-line help texts excepted);
- generic code never tests seat parity (``seat % 2``, ``team & 1``): parties come from the game;
- statistics and report sections never import kernels, and the layers below the games
  (present/, stats, dataset) never import the runner, the games or the CLI.
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
