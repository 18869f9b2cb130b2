"""The two ways simcards compiles Numba code.

- ``kernel``: hot helpers that never allocate (legal moves, trick winner, bots, RNG draws).
  Compiled without the Numba runtime's reference counting: with it, every call that passes an
  array pays atomic increments and decrements, which measured 20 ns per call, more than the
  work of a whole legal-move computation.
- ``driver``: batch loops that allocate their output and scratch arrays.

Both cache to disk, so workers and CI compile once per machine.
"""

from numba import njit

kernel = njit(cache=True, _nrt=False)
driver = njit(cache=True)
