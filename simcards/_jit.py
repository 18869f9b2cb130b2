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

All cache to disk, so workers and CI compile once per machine. Numba's own cache checks only
the source file of the function it loads, not the files of the functions it calls, so a cached
kernel could outlive a change to a helper it inlined. The cache therefore lives in a folder named
after a hash of every simcards source file: any change to the package starts a fresh cache.
Set NUMBA_CACHE_DIR to choose the folder yourself.
"""

import hashlib
import os
from pathlib import Path

import numba
from numba import njit


def _source_hash() -> str:
    root = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cache_dir() -> Path:
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "simcards" / "numba" / _source_hash()


if not os.environ.get("NUMBA_CACHE_DIR"):
    # read by each @njit(cache=True) when it is defined, so set before any kernel module loads
    numba.config.CACHE_DIR = str(cache_dir())

kernel = njit(cache=True, _nrt=False, forceinline=False)
hot = njit(cache=True, _nrt=False, forceinline=True)
driver = njit(cache=True)
