"""Column specs: the one place where each dataset column's name, dtype and meaning live.

Kernels write an int64 matrix with one row per column (in spec order); `to_frame` casts each
row to the spec's dtype. The README's dataset table and `simcards rulesets --columns` print
these specs, so the docs cannot drift from the data.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl


@dataclass(frozen=True)
class Column:
    name: str
    dtype: type[pl.DataType] | pl.DataType
    doc: str


def per_seat(name: str, dtype, doc: str, n: int = 4) -> tuple[Column, ...]:
    return tuple(Column(f"{name}_{i}", dtype, doc.format(i=i)) for i in range(n))


def per_party(name: str, dtype, doc: str, parties: tuple[tuple[int, ...], ...]) -> tuple[Column, ...]:
    """One column per fixed partnership; ``doc`` may use {team} and {seats}."""
    return tuple(Column(f"{name}_{t}", dtype,
                        doc.format(team=t, seats=" and ".join(str(s) for s in seats)))
                 for t, seats in enumerate(parties))


def column_index(columns: tuple[Column, ...]) -> dict[str, int]:
    return {c.name: i for i, c in enumerate(columns)}


_NUMPY_DTYPES = {pl.Int8: np.int8, pl.Int16: np.int16, pl.Int32: np.int32, pl.Int64: np.int64,
                 pl.UInt8: np.uint8, pl.UInt16: np.uint16, pl.UInt32: np.uint32,
                 pl.UInt64: np.uint64, pl.Boolean: np.bool_, pl.Float32: np.float32,
                 pl.Float64: np.float64}


def to_frame(columns: tuple[Column, ...], matrix: np.ndarray) -> pl.DataFrame:
    """One polars column per matrix row, in its spec's (small) dtype. The narrowing is a NumPy
    cast, which takes over the buffer without a copy and costs half of a polars cast."""
    return pl.DataFrame([pl.Series(c.name, matrix[i].astype(_NUMPY_DTYPES[c.dtype]))
                         for i, c in enumerate(columns)])
