"""The ways simcards compiles Numba code.

- ``kernel``: hot helpers that never allocate (legal moves, trick winner, bots, RNG draws).
  Compiled without the Numba runtime's reference counting: with it, every call that passes an
  array pays atomic increments and decrements, which measured 20 ns per call, more than the
  work of a whole legal-move computation.
- ``hot``: a ``kernel`` that LLVM always inlines into its callers (``forceinline``). Numba
  passes each array argument as seven machine words and checks a status after every call, so
  a call per card to a small kernel costs more than its body; the per-card kernels of the play
  loop (legal moves, the card choice, applying a card) are ``hot``. Keep them small: every
  caller gets a copy.
- ``driver``: batch loops that allocate their output and scratch arrays.

``kernel`` says ``forceinline=False`` explicitly: Numba lets a callee without the flag inherit
it from the function being compiled, which would inline everything a ``hot`` kernel calls.

Numba checks every array access with a signed index for a negative one (a compare and a
select). Most kernels pay it unnoticed; the solvers' frame stacks, whose accesses are most of a
search's work, index with unsigned offsets instead (``np.uint64`` slot constants and frame
starts), which made the searches 11-17% faster. There, cast a signed count with ``np.uint64``
before adding it: uint64 plus int64 is a float64 in Numba.

The disk cache, keyed per module
--------------------------------
All cache to disk, so workers and CI compile once per machine. Numba's own cache checks only
the source file of the function it loads, not the files of the functions it calls or of the
constants it bakes in, so a cached kernel could outlive a change to a helper it inlined. Both
come from modules its module imports. So every cached function of simcards lives in a folder
named after its module and a hash of that module's source and of every simcards module it
imports, transitively (`ImportGraph`: the static import graph from the syntax trees, module-
and function-level imports). An edit recompiles the kernels of the modules that import the
edited one, no others; an edit to a module no kernel module imports recompiles nothing.

- A function rebuilt with other functions bound in (`simcards.games.userbots.rebuild`) also
  hashes the modules of what is bound (`bound_modules`, kept on the function).
- A cached function outside the package that imports simcards (a test's toy game, a user's
  bot) is keyed by the simcards modules its file imports; other files keep Numba's own cache.
- The folders sit under ``$XDG_CACHE_HOME/simcards/numba`` (``~/.cache`` without it), or under
  NUMBA_CACHE_DIR when that is set.
"""

import ast
import hashlib
import json
import os
import tempfile
import time
import types
from pathlib import Path

from numba import njit
from numba.core import caching, event

PACKAGE_ROOT = Path(__file__).resolve().parent
KEY_VERSION = b"simcards-cache-key 1"  # bump to orphan every cached kernel


def cache_dir() -> Path:
    """The folder the per-module cache folders live in."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"])
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "simcards" / "numba"


# ------------------------------------------------------------------ the static import graph


def _import_records(source: bytes) -> list:
    """Every import statement of a module, anywhere in it: [level, module, [[name, as], ...],
    top level?]; level -1 for ``import a.b``."""
    records = []
    tree = ast.parse(source)
    top = {id(node) for node in tree.body}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [[a.name, a.asname] for a in node.names]
            level = -1 if isinstance(node, ast.Import) else node.level
            records.append([level, getattr(node, "module", None) or "", names, id(node) in top])
    return records


class ImportGraph:
    """The static import graph of the package in ``root`` (a folder named after the package),
    with each module's cache key. Sources are read once; their import statements are parsed
    once per content (remembered in ``memo_file`` by content hash: parsing the package takes
    most of a second, reading it a millisecond)."""

    def __init__(self, root: Path, memo_file: Path | None = None):
        self.root = Path(root)
        self.package = self.root.name
        self.files = {}
        for path in sorted(self.root.rglob("*.py")):
            parts = path.relative_to(self.root.parent).with_suffix("").parts
            self.files[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
        self.memo_file = memo_file
        self._memo = None
        self._memo_dirty = False
        self._digests, self._records, self._deps, self._keys, self._modules = {}, {}, {}, {}, {}

    def module_of(self, path) -> str | None:
        """The module name of a file of the package, else None."""
        if path not in self._modules:
            try:
                parts = Path(path).resolve().relative_to(self.root.parent).with_suffix("").parts
                name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            except ValueError:
                name = None
            self._modules[path] = name if name in self.files else None
        return self._modules[path]

    def digest(self, module: str) -> str:
        if module not in self._digests:
            source = self.files[module].read_bytes()
            self._digests[module] = hashlib.sha256(source).hexdigest()
            self._records[module] = self._parse(self._digests[module], source)
        return self._digests[module]

    def _parse(self, digest: str, source: bytes) -> list:
        if self._memo is None:
            self._memo = {}
            if self.memo_file is not None:
                try:
                    self._memo = json.loads(self.memo_file.read_text())
                except (OSError, ValueError):
                    pass
        if digest not in self._memo:
            self._memo[digest] = _import_records(source)
            self._memo_dirty = True
        return self._memo[digest]

    def records(self, module: str) -> list:
        self.digest(module)
        return self._records[module]

    def _base(self, module: str, level: int, name: str) -> str:
        """The module an ``from <level dots><name> import`` in ``module`` names."""
        if level <= 0:
            return name
        package = module if self.files[module].name == "__init__.py" else module.rpartition(".")[0]
        for _ in range(level - 1):
            package = package.rpartition(".")[0]
        return f"{package}.{name}" if name else package

    def _defining(self, module: str, name: str, depth: int = 0) -> str:
        """The module a name imported from ``module`` comes from: followed through a package's
        re-exports (``from simcards.games import load`` is registry's ``load``), so importing
        one name of a package does not make a kernel depend on every module the package
        imports for its side effects."""
        for level, base, names, top in self.records(module):
            if not top or depth > 20:
                continue
            for imported, alias in names:
                if level == -1:
                    if alias == name and imported in self.files:
                        return imported
                elif (alias or imported) == name:
                    source = self._base(module, level, base)
                    if f"{source}.{imported}" in self.files:
                        return f"{source}.{imported}"
                    if source in self.files:
                        return self._defining(source, imported, depth + 1)
        return module

    def imports_of_records(self, module: str | None, records: list) -> set[str]:
        """The package modules that import statements ``records`` (of ``module``, None for a
        file outside the package) reach."""
        found = set()
        for level, base, names, _ in records:
            if level > 0 and module is None:
                continue
            if level == -1:
                found.update(imported for imported, _ in names if imported in self.files)
                continue
            source = self._base(module, level, base) if level > 0 else base
            for imported, _ in names:
                if f"{source}.{imported}" in self.files:
                    found.add(f"{source}.{imported}")
                elif source in self.files:
                    found.add(source if imported == "*" else self._defining(source, imported))
        found.discard(module)
        return found

    def imports(self, module: str) -> set[str]:
        """The package modules ``module`` imports directly."""
        if module not in self._deps:
            self._deps[module] = self.imports_of_records(module, self.records(module))
        return self._deps[module]

    def closure(self, modules) -> set[str]:
        """``modules`` and every package module they import, transitively."""
        seen, stack = set(), [m for m in modules if m in self.files]
        while stack:
            module = stack.pop()
            if module not in seen:
                seen.add(module)
                stack.extend(self.imports(module) - seen)
        return seen

    def key(self, modules) -> str:
        """A hash of the sources of ``modules`` and of everything they import."""
        modules = tuple(sorted(set(modules)))
        if modules not in self._keys:
            digest = hashlib.sha256(KEY_VERSION)
            for module in sorted(self.closure(modules)):
                digest.update(f"\n{module} {self.digest(module)}".encode())
            self._keys[modules] = digest.hexdigest()[:16]
            self.save_memo()
        return self._keys[modules]

    def save_memo(self) -> None:
        """Write the parsed imports back (atomically; a lost race costs only a parse)."""
        if not self._memo_dirty or self.memo_file is None:
            return
        self._memo_dirty = False
        current = set(self._digests.values())
        if len(self._memo) > 4 * len(self.files):  # forget the imports of old versions
            self._memo = {d: r for d, r in self._memo.items() if d in current}
        try:
            self.memo_file.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile("w", dir=self.memo_file.parent, delete=False,
                                             suffix=".tmp") as out:
                json.dump(self._memo, out)
            os.replace(out.name, self.memo_file)
        except OSError:
            pass


_GRAPH: ImportGraph | None = None


def import_graph() -> ImportGraph:
    """The installed package's import graph (built once per process, when the first cached
    function is defined)."""
    global _GRAPH
    if _GRAPH is None:
        _GRAPH = ImportGraph(PACKAGE_ROOT, cache_dir() / "imports.json")
    return _GRAPH


def bound_modules(values) -> tuple[str, ...]:
    """The modules of the functions in ``values`` (dispatchers or Python functions), of what is
    bound into them (`bound_modules` of a rebuilt function) and of the functions their closures
    hold: what a function rebuilt around them depends on besides its own module."""
    found, seen, stack = set(), set(), list(values)
    while stack:
        value = stack.pop()
        func = getattr(value, "py_func", value)
        if not isinstance(func, types.FunctionType) or id(func) in seen:
            continue
        seen.add(id(func))
        found.add(func.__module__)
        found.update(getattr(func, "__simcards_modules__", ()))
        stack.extend(cell.cell_contents for cell in func.__closure__ or ())
    return tuple(sorted(found))


def cache_folder(py_func, py_file) -> Path | None:
    """Where the cached function ``py_func`` (defined in ``py_file``) lives, by its key; None
    for a function of a file outside the package that imports none of it."""
    graph = import_graph()
    module = graph.module_of(py_file)
    extra = getattr(py_func, "__simcards_modules__", ())
    if module is not None:
        return cache_dir() / f"{module.partition('.')[2] or module}-{graph.key((module, *extra))}"
    try:
        records = _import_records(Path(py_file).read_bytes())
    except (OSError, SyntaxError, ValueError):
        return None
    imported = graph.imports_of_records(None, records) | set(extra)
    if not imported:
        return None
    # a file outside the package: Numba stamps the file itself; the folder keys what it imports
    subpath = caching._CacheLocator.get_suitable_cache_subpath(py_file)
    return cache_dir() / f"external-{graph.key(imported)}" / subpath


class _KeyedLocator(caching._SourceFileBackedLocatorMixin, caching._CacheLocator):
    """Numba's cache locator for simcards' functions: the folder of `cache_folder`."""

    def __init__(self, py_func, py_file, folder: Path):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = str(folder)

    def get_cache_path(self):
        return self._cache_path

    @classmethod
    def from_function(cls, py_func, py_file):
        if not os.path.exists(py_file):
            return None
        folder = cache_folder(py_func, py_file)
        if folder is None:
            return None
        locator = cls(py_func, py_file, folder)
        try:
            locator.ensure_cache_path()
        except OSError:
            return None
        return locator


# ------------------------------------------------------------------ the compile log


class _CompileLog(event.Listener):
    """With SIMCARDS_COMPILE_LOG set to a file, every compile (not a load from the cache) appends
    a JSON line to it: pid, function, argument types, seconds (wall and process time) with and
    without the compiles nested in it (the functions it calls that were not compiled yet),
    nesting depth."""

    def __init__(self, path: str):
        self.path = path
        self.stack: list[list[float]] = []

    def on_start(self, event_):
        self.stack.append([time.perf_counter(), time.process_time(), 0.0, 0.0])

    def on_end(self, event_):
        started, cpu_started, nested, cpu_nested = self.stack.pop()
        seconds = time.perf_counter() - started
        cpu = time.process_time() - cpu_started
        if self.stack:
            self.stack[-1][2] += seconds
            self.stack[-1][3] += cpu
        func = event_.data["dispatcher"].py_func
        line = {"pid": os.getpid(), "function": f"{func.__module__}.{func.__qualname__}",
                "args": str(event_.data["args"]), "seconds": round(seconds, 3),
                "self_seconds": round(seconds - nested, 3), "cpu_seconds": round(cpu, 3),
                "self_cpu_seconds": round(cpu - cpu_nested, 3), "depth": len(self.stack)}
        with open(self.path, "a") as out:  # one short write per line: lines of processes never mix
            out.write(json.dumps(line) + "\n")


def read_compile_log(path) -> list[dict]:
    """The lines of a compile log (SIMCARDS_COMPILE_LOG)."""
    try:
        return [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]
    except FileNotFoundError:
        return []


if os.environ.get("SIMCARDS_COMPILE_LOG"):
    event.register("numba:compile", _CompileLog(os.environ["SIMCARDS_COMPILE_LOG"]))

_CACHE_IMPL = getattr(caching, "CacheImpl", None) or caching._CacheImpl
if _KeyedLocator not in _CACHE_IMPL._locator_classes:
    _CACHE_IMPL._locator_classes.insert(0, _KeyedLocator)

kernel = njit(cache=True, _nrt=False, forceinline=False)
hot = njit(cache=True, _nrt=False, forceinline=True)
driver = njit(cache=True)
