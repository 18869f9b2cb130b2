"""Every integer rule option has a range its data columns can hold: at both ends of it,
`simulate` rows and `replay(...)["result"]` (the kernel's own numbers) agree, so nothing wraps."""

from __future__ import annotations

import polars as pl
import pytest

import simcards
from simcards.games import game_class

BOTS = "heuristic"


def int_options():
    for ruleset in simcards.rulesets():
        for opt in game_class(ruleset).option_specs:
            if opt.kind is int and opt.choices is None:
                yield ruleset, opt


def test_every_integer_option_has_a_range():
    found = list(int_options())
    assert found
    for ruleset, opt in found:
        assert opt.minimum is not None and opt.maximum is not None, (ruleset, opt.name)
        assert opt.problem(opt.maximum + 1) is not None and opt.problem(opt.minimum - 1) is not None


def _rows_to_check(frame: pl.DataFrame) -> list[dict]:
    """The first rows, every pit, and the rows holding each integer column's extremes."""
    picks = set(range(min(3, frame.height)))
    if "pit" in frame.columns:
        picks |= set(frame.with_row_index().filter(pl.col("pit"))["index"].head(5).to_list())
    for name, dtype in frame.schema.items():
        if dtype.is_integer() and not name.startswith(("hand_", "pass_")):
            picks |= {int(frame[name].arg_max()), int(frame[name].arg_min())}
    return [frame.row(i, named=True) for i in sorted(picks)]


@pytest.mark.parametrize("ruleset, opt", [pytest.param(r, o, id=f"{r}-{o.name}") for r, o in int_options()])
@pytest.mark.parametrize("end", ["minimum", "maximum"])
def test_simulate_and_result_agree_at_the_ends_of_each_range(ruleset, opt, end):
    value = getattr(opt, end)
    if opt.name == "pit_bonus" and "target" in {o.name for o in game_class(ruleset).option_specs}:
        value -= value % 10  # the scoreboard counts roem in tens
    game = simcards.load(ruleset, **{opt.name: value})
    units = 1 if game.unit == "match" and opt.name in ("target", "deals_per_match") and end == "maximum" else (
        (40 if opt.name == "pit_bonus" else 5) if game.unit == "match" else 300)
    frames = game.simulate_chunk(units, seed=3, bots=BOTS)
    deals = frames["deals"]
    if opt.name == "pit_bonus" and end == "maximum" and "pit" in deals.columns:
        assert deals["pit"].any(), "no pit to check the bonus on"
    for row in _rows_to_check(deals):
        result = game.replay(3, row["deal_index"], BOTS)["result"]
        if "scores" in result:  # Hearts: "score" is the deal's, the score_* columns the game's
            result = {**result, "score": result["scores"]}
        for key, value in result.items():
            if isinstance(value, list) and f"{key}_0" in row and all(isinstance(v, int) for v in value):
                assert [row[f"{key}_{i}"] for i in range(len(value))] == value, (key, row["deal_index"])
    if "matches" in frames and "crosses_0" in frames["matches"].columns:
        per_match = deals.group_by("match_index").agg(pl.col("crosses_0").sum(), pl.col("crosses_1").sum())
        joined = frames["matches"].join(per_match, on="match_index", suffix="_deals")
        extra = [joined[f"crosses_{t}"] - joined[f"crosses_{t}_deals"] for t in (0, 1)]
        end_crosses = game.options["match_end_crosses"]
        assert all(set(e.to_list()) <= {0, end_crosses} for e in extra)
