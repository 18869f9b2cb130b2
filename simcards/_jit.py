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

All cache to disk, so workers and CI compile once per machine. Numba's cache does not notice a
change in a called function's file: clear ``__pycache__`` (or use a fresh NUMBA_CACHE_DIR)
after editing a kernel that other cached functions call.
"""

from numba import njit

kernel = njit(cache=True, _nrt=False, forceinline=False)
hot = njit(cache=True, _nrt=False, forceinline=True)
driver = njit(cache=True)
