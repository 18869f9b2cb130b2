"""Rule options and bot settings as readable tables (never Python reprs)."""

from __future__ import annotations

from typing import Any, Sequence

import polars as pl


def show_value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(show_value(v) for v in value) or "(none)"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def options_table(rows: Sequence[tuple[str, Any, Any, str]]) -> pl.DataFrame:
    """(option, value, default, meaning) rows -> a table; changed values are marked."""
    return pl.DataFrame({
        "option": [r[0] for r in rows],
        "value": [show_value(r[1]) + ("" if r[1] == r[2] else " (changed)") for r in rows],
        "default": [show_value(r[2]) for r in rows],
        "meaning": [r[3] for r in rows],
    }, schema={"option": pl.String, "value": pl.String, "default": pl.String, "meaning": pl.String})


def bots_table(seat_names: Sequence[str], kinds: Sequence[str], params: Sequence[Sequence[float]],
               param_rows: Sequence[tuple[str, float, str]]) -> pl.DataFrame:
    """One row per bot parameter (and one for the kind), one column per seat, or a single
    "all seats" column when every seat has the same bot; parameters a random bot ignores are
    still listed, as the data record them."""
    same = len({(k, tuple(p)) for k, p in zip(kinds, params)}) == 1
    columns = ["all seats"] if same else list(seat_names)
    seats = range(1 if same else len(seat_names))
    data: dict[str, list[str]] = {"setting": ["bot kind"] + [name for name, _, _ in param_rows]}
    for col, s in zip(columns, seats):
        data[col] = [kinds[s]] + [f"{params[s][i]:g}" + ("" if params[s][i] == d else " *")
                                  for i, (_, d, _) in enumerate(param_rows)]
    data["default"] = [""] + [f"{d:g}" for _, d, _ in param_rows]
    data["meaning"] = ["random: uniform over legal cards; heuristic: the game's rule-based bot"] + [
        doc for _, _, doc in param_rows]
    return pl.DataFrame(data)
