"""scripts/solver_ab.py, the before/after comparison of the Klaverjassen search: its figures and
its errors (the comparison itself compiles a second search module, too slow for the suite)."""

import importlib.util
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "solver_ab.py"


@pytest.fixture(scope="module")
def solver_ab():
    spec = importlib.util.spec_from_file_location("solver_ab", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_summary_figures(solver_ab):
    s = solver_ab.summary([0.001, 0.003, 0.002], [1000, 5000, 3000])
    assert s["median_ms"] == pytest.approx(2.0)
    assert s["mean_ms"] == pytest.approx(2.0)
    assert s["nodes_median"] == 3000 and s["nodes_mean"] == 3000
    assert s["positions_per_s"] == pytest.approx(9000 / 0.006)


@pytest.mark.parametrize("argv, says", [
    (["--rulesets", "skat"], "'skat' is not a Klaverjassen or Kraken ruleset"),
    (["--rulesets", "klaverjas-nowhere"], "klaverjas-rotterdam"),
    (["--deals", "0"], "--deals and --repeats"),
    (["--base", "no-such-revision"], "cannot read simcards/games/klaverjas/_solve_kernels.py at --base"),
])
def test_bad_input_exits_2_and_says_why(solver_ab, capsys, argv, says):
    with pytest.raises(SystemExit) as stop:
        solver_ab.main(argv)
    assert stop.value.code == 2
    assert says in capsys.readouterr().err
