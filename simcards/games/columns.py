"""Column specs and rows: the one place where each dataset column's name, dtype and meaning
live, and the one way kernels write them.

A kernel writes an int64 matrix (and, for Float32 columns, a float64 matrix) with one row per
column. `RowLayout` numbers those rows once from a game's column specs; the game turns the row
numbers it needs into module constants for its kernels (`layout.row("points_0")`). A layout may
be the union of several rulesets' columns (Kraken's two rulesets share one kernel): the kernel
fills every row, and `RowLayout.to_frame` picks each ruleset's columns by name. The columns
page (docs/columns.md) and `simcards rulesets --columns` print these specs, so the docs cannot drift
from the data.
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

    @property
    def is_float(self) -> bool:
        return self.dtype in (pl.Float32, pl.Float64)


def per_seat(name: str, dtype, doc: str, n: int = 4) -> tuple[Column, ...]:
    return tuple(Column(f"{name}_{i}", dtype, doc.format(i=i)) for i in range(n))


def per_party(name: str, dtype, doc: str, parties: tuple[tuple[int, ...], ...]) -> tuple[Column, ...]:
    """One column per fixed partnership; ``doc`` may use {team} and {seats}."""
    return tuple(Column(f"{name}_{t}", dtype,
                        doc.format(team=t, seats=" and ".join(str(s) for s in seats)))
                 for t, seats in enumerate(parties))


def match_deal_columns(unit_doc: str, dealer_doc: str) -> tuple[Column, ...]:
    """The first columns of a deal row of a ruleset whose unit is a match: which match, the
    deal's number in it, the global deal index, the dealer."""
    return (
        Column("match_index", pl.Int64, unit_doc),
        Column("deal_no", pl.Int16, "deal number within the match, from 0"),
        Column("deal_index", pl.Int64, "global deal index: match_index * 1024 + deal_no; "
                                       "(seed, deal_index) regenerates the deal"),
        Column("dealer", pl.Int8, dealer_doc),
    )


_NUMPY_DTYPES = {pl.Int8: np.int8, pl.Int16: np.int16, pl.Int32: np.int32, pl.Int64: np.int64,
                 pl.UInt8: np.uint8, pl.UInt16: np.uint16, pl.UInt32: np.uint32,
                 pl.UInt64: np.uint64, pl.Boolean: np.bool_, pl.Float32: np.float32,
                 pl.Float64: np.float64}


class RowLayout:
    """Rows of the int64 and float64 matrices a kernel fills, numbered by column name in the
    order the specs give them (the int and float columns separately)."""

    def __init__(self, *column_sets: tuple[Column, ...]):
        self.int_rows: dict[str, int] = {}
        self.float_rows: dict[str, int] = {}
        for columns in column_sets:
            for column in columns:
                rows = self.float_rows if column.is_float else self.int_rows
                rows.setdefault(column.name, len(rows))

    @property
    def n_int(self) -> int:
        return len(self.int_rows)

    @property
    def n_float(self) -> int:
        return len(self.float_rows)

    def row(self, name: str) -> int:
        """Row of an integer column (a KeyError names a column the layout does not have)."""
        return self.int_rows[name]

    def float_row(self, name: str) -> int:
        return self.float_rows[name]

    def to_frame(self, columns: tuple[Column, ...], ints: np.ndarray,
                 floats: np.ndarray | None = None) -> pl.DataFrame:
        """One polars column per spec, in spec order and in its (small) dtype. The narrowing is
        a NumPy cast, which takes over the buffer without a copy and costs half of a polars
        cast."""
        series = []
        for column in columns:
            if column.is_float:
                values = floats[self.float_rows[column.name]]
            else:
                values = ints[self.int_rows[column.name]]
            series.append(pl.Series(column.name, values.astype(_NUMPY_DTYPES[column.dtype])))
        return pl.DataFrame(series)


def to_frame(columns: tuple[Column, ...], matrix: np.ndarray) -> pl.DataFrame:
    """The frame of a kernel matrix whose rows are ``columns`` in spec order."""
    return RowLayout(columns).to_frame(columns, matrix)


def column_index(columns: tuple[Column, ...]) -> dict[str, int]:
    """Row of each integer column (kept until every game reads rows from a `RowLayout`)."""
    return RowLayout(columns).int_rows
