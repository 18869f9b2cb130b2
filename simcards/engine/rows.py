"""Row buffers of the batch kernels: a game whose unit holds a varying number of deals (a
Kraken match, a Hearts game) writes its deal rows into a column matrix that grows as needed."""

from __future__ import annotations

import numpy as np

from simcards._jit import driver


@driver
def ensure_columns(out, used, needed):
    """``out`` (rows x capacity) with room for ``needed`` more columns after the first ``used``:
    the same array when it has room, else a copy at least twice as wide."""
    if out.shape[1] - used >= needed:
        return out
    grown = np.empty((out.shape[0], max(2 * out.shape[1], used + needed)), dtype=out.dtype)
    for row in range(out.shape[0]):  # a loop, not a slice assignment: that compiles Numba's
        for col in range(used):      # shape-mismatch message, seconds of a first run
            grown[row, col] = out[row, col]
    return grown
