"""Bad input through the real `simcards` command, fuzzed (issue 35, point 8).

Hypothesis mutates the shipped run, tune and tournament configs (wrong types, out of range
values, unknown keys, missing tables and keys, broken TOML, bad bytes), gives configs to the
wrong command and adds bad command-line arguments. Every input must exit 0 or 2; on 2, stderr
is one line per problem, each naming the key, flag or file and what is allowed, and never a
traceback. The CLI runs in-process with its work (the run, the tune search, the tournament)
replaced by a stub, so an input that validates stops there and nothing is simulated.

Deterministic in CI: derandomized, no example database, a bounded number of examples. To fuzz
longer with fresh random examples: SIMCARDS_FUZZ_EXAMPLES=5000 pytest tests/test_input_fuzz.py
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import datetime
import io
import json
import math
import os
import re
import tomllib
import types
import typing
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from simcards.cli import main

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted(ROOT.glob("configs/*.toml")) + sorted(ROOT.glob("examples/**/*.toml"))
LONG_FUZZ = int(os.environ.get("SIMCARDS_FUZZ_EXAMPLES", 0))
FUZZ = settings(derandomize=not LONG_FUZZ, database=None, deadline=None,
                max_examples=LONG_FUZZ or 150,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def config_kind(data: dict) -> str:
    """Which command a config is for, from its defining tables."""
    if "tune" in data or "baseline" in data:
        return "tune"
    if "entrants" in data:
        return "tournament"
    return "run"


CONFIGS = {path: tomllib.loads(path.read_text()) for path in SHIPPED}
KIND = {path: config_kind(data) for path, data in CONFIGS.items()}
assert set(KIND.values()) == {"run", "tune", "tournament"}, KIND


# ---------------------------------------------------------------- running the command


class Validated(Exception):
    """Raised by the stubbed work: the input passed every check and would now run."""


def _stub(config, *args, **kwargs):
    """The work the command would start, given a config that validated: check that every field
    holds what its type says (a value the loader let through unchecked fails later, in a
    worker), then stop."""
    assert_typed(config)
    raise Validated


def assert_typed(config) -> None:
    """Every field of the dataclass ``config`` (and of the dataclasses in its tuples) holds
    its annotated type; ints fit int64, floats are finite."""
    hints = typing.get_type_hints(type(config))
    for field in dataclasses.fields(config):
        value, hint = getattr(config, field.name), hints[field.name]
        for item in value if isinstance(value, tuple) else ():
            if dataclasses.is_dataclass(item):
                assert_typed(item)
        union = typing.get_origin(hint) in (typing.Union, types.UnionType)
        allowed = typing.get_args(hint) if union else (hint,)
        if typing.Any in allowed:
            continue
        allowed = tuple(typing.get_origin(kind) or kind for kind in allowed)
        allowed += (int,) if float in allowed else ()  # an int is a float too (PEP 484)
        assert isinstance(value, allowed), (field.name, value, allowed)
        assert not isinstance(value, bool) or bool in allowed, (field.name, value)
        if isinstance(value, int):  # seeds and counts go to the kernels as int64
            assert -2**63 <= value < 2**63, (field.name, value)
        if isinstance(value, float):
            assert math.isfinite(value), (field.name, value)


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    """``simcards ARGV`` in-process: (exit status, stdout, stderr). Work is stubbed out; any
    exception other than the stub's is a bug and propagates with its traceback."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.ExitStack() as stack:
        for target in ("simcards.runner.run", "simcards.tune.tune",
                       "simcards.tournament.report.run_tournament"):
            stack.enter_context(mock.patch(target, _stub))
        stack.enter_context(contextlib.redirect_stdout(out))
        stack.enter_context(contextlib.redirect_stderr(err))
        try:
            code = main(argv)
        except Validated:
            code = 0
        except SystemExit as exc:  # argparse: --help, --version and its own usage errors
            code = exc.code
    return code, out.getvalue(), err.getvalue()


PROBLEM_LINE = re.compile(r"^  (\S.*?)(?: = .*: use |: missing; use )\S")


def assert_clean(argv: list[str], names: list[str] = (), source: str = "") -> str:
    """Exit 0 or 2; on 2, one line per problem that names a key, flag or file, and one of
    ``names`` (besides the ``source`` file's own name) when given; never a traceback. Returns
    stderr."""
    code, _, err = run_cli(argv)
    event(f"exit {code}")  # --hypothesis-show-statistics: how many inputs validated
    assert code in (0, 2), (argv, code, err)
    if code == 0:
        return err
    assert "Traceback" not in err, (argv, err)
    lines = err.rstrip("\n").split("\n")
    assert lines[0].startswith("simcards: error: "), (argv, err)
    if len(lines) > 1:  # a config with several problems: a header, then one line each
        count = re.search(r": (\d+) problems$", lines[0])
        assert count and int(count.group(1)) == len(lines) - 1, (argv, err)
        assert all(PROBLEM_LINE.match(line) for line in lines[1:]), (argv, err)
    if names:
        said = err.replace(source, "<source>") if source else err
        assert any(name in said for name in names), (argv, names, err)
    return err


# ---------------------------------------------------------------- writing TOML


def toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else toml_string(key)


def toml_string(text: str) -> str:
    # JSON escapes are TOML escapes, except that TOML takes no raw DEL
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return ("nan" if math.isnan(value) else
                "inf" if value == math.inf else "-inf" if value == -math.inf else repr(value))
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{toml_key(k)} = {toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(value)


def toml_document(data: dict) -> str:
    text = "".join(f"{toml_key(k)} = {toml_value(v)}\n" for k, v in data.items())
    tomllib.loads(text)  # the writer itself must be right, or the fuzz tests only the TOML parser
    return text


# ---------------------------------------------------------------- mutations


def _paths(value, prefix=()) -> list[tuple]:
    """Every key path into a parsed config: table keys and list positions."""
    found = []
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        found.append((*prefix, key))
        found.extend(_paths(item, (*prefix, key)))
    return found


def _get(data, path):
    for key in path:
        data = data[key]
    return data


ALL_VALUES = [_get(data, path) for data in CONFIGS.values() for path in _paths(data)]
# every key the configs know, and the files an include may name (in the `place` folder)
KEY_NAMES = sorted({str(p[-1]) for data in CONFIGS.values() for p in _paths(data) if isinstance(p[-1], str)}
                   | {"include", "matches", "deals", "scheduler", "scheduler_timeout", "workers_timeout",
                      "verify_seed", "deals_per_game", "games", "entrants", "baseline", "tune",
                      "objective", "grid", "verify", "params", "kind", "entry"})
INCLUDES = ["bots.toml", "broken.toml", "rules-not-a-table.toml", "not-utf8.toml", "a-folder",
            "missing.toml", "a-file", ""]

scalars = st.one_of(
    st.integers(min_value=-2**70, max_value=2**70),
    st.sampled_from([0, -1, 1, 2, 3, 2**31, 2**53 + 1, 2**63 - 1, 2**63, 2**64, -2**63]),
    st.floats(), st.booleans(),
    st.text(max_size=10),
    st.sampled_from(["", "auto", "heuristic", "random", "python", "numba", "dask", "loky",
                     "tcp://127.0.0.1:9", "skat", "hearts", "kraken-contra", "klaverjas-rotterdam",
                     "seeger", "score", "nope:Bot", "mybots.kraak:MyBot"]),
    st.dates(), st.times(), st.datetimes(),
    st.sampled_from(ALL_VALUES),
    st.sampled_from(INCLUDES),
)
keys = st.one_of(st.sampled_from(KEY_NAMES), st.text(max_size=8))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(keys, inner, max_size=3), max_leaves=8)


@st.composite
def mutated(draw, data: dict) -> tuple[dict, list[str]]:
    """``data`` with one to three mutations; the key paths touched, as messages write them."""
    data = json.loads(json.dumps(data))  # a deep copy (shipped configs hold no dates)
    touched = []
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(data)
        op = draw(st.sampled_from(["set", "nudge", "delete", "add", "rename"] if paths else ["add"]))
        if op == "add":
            tables = [()] + [p for p in paths if isinstance(_get(data, p), dict)]
            path = (*draw(st.sampled_from(tables)), draw(keys))
        else:
            path = draw(st.sampled_from(paths))
        parent = _get(data, path[:-1])
        if isinstance(parent, list) and op != "set":
            op = "set"
        if op == "nudge" and isinstance(parent[path[-1]], (int, float)):  # a number near the range
            parent[path[-1]] = draw(st.one_of(st.integers(-3, 10**7), st.floats(-1, 3),
                                              st.sampled_from([math.inf, -math.inf, math.nan])))
        elif op in ("set", "add", "nudge"):
            parent[path[-1]] = copy.deepcopy(draw(values))  # never a shipped config's own list
        elif op == "delete":
            del parent[path[-1]]
        else:
            renamed = path[-1] + draw(st.sampled_from(["s", "_", "X"]))
            parent[renamed] = parent.pop(path[-1])
            touched.append(path)  # the old name is missing now
            path = (*path[:-1], renamed)
        touched.append(path)
    return data, [shown(str(p[0])) for p in touched]


def shown(key: str) -> str:
    """A key as messages show it: quoted when it is empty or holds an unprintable character."""
    return key if key and key.isprintable() else repr(key)


# ---------------------------------------------------------------- fixtures on disk


@pytest.fixture(scope="module")
def place(tmp_path_factory) -> Path:
    """A folder with what bad input points at: a file, a folder, broken and odd TOML files."""
    tmp = tmp_path_factory.mktemp("fuzz")
    (tmp / "a-file").write_text("x")
    (tmp / "a-folder").mkdir()
    (tmp / "broken.toml").write_text('bots = "random\n')
    (tmp / "rules-not-a-table.toml").write_text("rules = 5\n")
    (tmp / "bots.toml").write_text('bots = "random"\n')
    (tmp / "not-utf8.toml").write_bytes(b'name = "\xe9"\n')
    manifests = {"empty": "", "list": "[]", "object": "{}", "cut": '{"ruleset": "sk',
                 "types": '{"ruleset": "skat", "units": 5, "chunk_size": "x", "seed": 1, '
                          '"chunks": 5, "config": 5, "options": {}}',
                 "no-options": '{"ruleset": "nope", "units": 5, "chunk_size": 1, "seed": 1, '
                               '"chunks": [], "config": {}}'}
    for name, text in manifests.items():
        (tmp / f"run-{name}").mkdir()
        (tmp / f"run-{name}" / "manifest.json").write_text(text)
    (tmp / "run-folder" / "manifest.json").mkdir(parents=True)
    return tmp


COMMANDS = ("run", "tune", "tournament")
FLAGS = {"run": ("--deals", "--workers", "--out", "--force", "--quiet", "--yes"),
         "tune": ("--units", "--workers", "--out", "--quiet"),
         "tournament": ("--games", "--out")}
TAKES_VALUE = {"--deals", "--workers", "--out", "--units", "--games"}


@st.composite
def arguments(draw, command: str, place: Path) -> list[str]:
    """Zero to three flags of ``command`` (or unknown ones) with good and bad values."""
    argv = []
    for _ in range(draw(st.integers(0, 3))):
        flag = draw(st.one_of(st.sampled_from(FLAGS[command]),
                              st.sampled_from(["--bogus", "-x", "--deal", "--", "--workers=",
                                               "--deals=3", "--games=-1", "--help"])))
        argv.append(flag)
        if flag in TAKES_VALUE and draw(st.integers(0, 9)):
            argv.append(draw(st.one_of(
                st.integers(-10, 10).map(str), st.integers(-2**70, 2**70).map(str),
                st.sampled_from(["auto", "1.5", "1e3", "", "x", "-", "--quiet", "0x10", "1_000",
                                 " 7", "٣"]),
                st.sampled_from([place / "a-file", place / "a-file" / "below", place / "a-folder",
                                 place / "new"]).map(str),
                st.text(max_size=8))))
    return argv


# ---------------------------------------------------------------- the fuzz tests


@FUZZ
@given(data=st.data())
def test_mutated_configs(place, data):
    path = data.draw(st.sampled_from(SHIPPED), label="config")
    config, touched = data.draw(mutated(CONFIGS[path]), label="mutation")
    target = place / f"mutated-{path.name}"
    target.write_text(toml_document(config))
    command = KIND[path] if data.draw(st.integers(0, 5)) else data.draw(st.sampled_from(COMMANDS))
    if command != KIND[path]:  # the command it is for, or a key the command does not know
        touched += [f"simcards {KIND[path]}", *map(shown, config)]
    assert_clean([command, str(target)], names=touched, source=str(target))


@FUZZ
@given(data=st.data())
def test_broken_toml(place, data):
    """Shipped configs cut short, with bytes put in, taken out or changed."""
    path = data.draw(st.sampled_from(SHIPPED), label="config")
    text = path.read_bytes()
    at = data.draw(st.integers(0, len(text)), label="at")
    edit = data.draw(st.sampled_from(["truncate", "insert", "delete", "replace"]), label="edit")
    junk = data.draw(st.one_of(st.binary(min_size=1, max_size=4),
                               st.sampled_from([b"=", b"[", b"]", b'"', b"'", b"{", b"\\", b"\n[rules]\n",
                                                b"\x00", b"\xff", b"\xe9", b"#", b".", b"_"])),
                     label="junk")
    broken = {"truncate": text[:at], "insert": text[:at] + junk + text[at:],
              "delete": text[:at] + text[at + len(junk):],
              "replace": text[:at] + junk + text[at + len(junk):]}[edit]
    target = place / f"broken-{path.name}"
    target.write_bytes(broken)
    assert_clean([KIND[path], str(target)])


@FUZZ
@given(data=st.data())
def test_command_line_arguments(place, data):
    """Shipped, missing and odd config paths with known and unknown flags and bad values."""
    command = data.draw(st.sampled_from(COMMANDS), label="command")
    ready = [p for p in SHIPPED if KIND[p] == command]
    config = data.draw(st.one_of(
        st.sampled_from(ready).map(str),
        st.sampled_from(["missing.toml", "configs", "", "-", place / "a-file", place / "a-folder",
                         place / "broken.toml", place / "not-utf8.toml", place / "a-file" / "x.toml",
                         "/dev/null"]).map(str),
        st.text(max_size=8)), label="config")
    argv = [command, *data.draw(arguments(command, place), label="flags")]
    argv.insert(data.draw(st.integers(1, len(argv)), label="position"), config)
    assert_clean(argv)


RUN_COMMANDS = {"report": ("--out",), "verify": (), "replay": ("--deal", "--perfect-play"),
                "compare": ("--out",), "rulesets": ("--columns", "--rules")}


@FUZZ
@given(data=st.data())
def test_commands_on_run_folders(place, data):
    """report, verify, replay and compare on folders that are no run (missing, a file, a broken
    manifest), and rulesets with good and bad names."""
    command = data.draw(st.sampled_from(sorted(RUN_COMMANDS)), label="command")
    folders = st.one_of(
        st.sampled_from(["results/none", "", "-", "/dev/null", place / "a-file", place / "a-folder",
                         *sorted(place.glob("run-*"))]).map(str),
        st.text(max_size=8))
    names = st.one_of(st.sampled_from(["skat", "hearts", "kraken-contra", "nope", "Skat", ""]),
                      st.text(max_size=8))
    positional = [data.draw(names if command == "rulesets" else folders, label="positional")
                  for _ in range(2 if command == "compare" else data.draw(st.integers(0, 1)))]
    argv = [command]
    for _ in range(data.draw(st.integers(0, 2))):
        flag = data.draw(st.sampled_from([*RUN_COMMANDS[command], "--bogus", "--deals", "-h"]))
        argv.append(flag)
        if flag in ("--out", "--deal") and data.draw(st.integers(0, 9)):
            argv.append(data.draw(st.one_of(
                st.sampled_from(["0", "-1", "99999999999999999999", "x", "", str(place / "a-file")]),
                st.text(max_size=6))))
    for item in positional:
        argv.insert(data.draw(st.integers(1, len(argv))), item)
    assert_clean(argv)


# ---------------------------------------------------------------- what the fuzz found, one by one


def refused(argv: list, *needles: str) -> str:
    """Exit 2 with one line that holds every needle."""
    code, _, err = run_cli([str(a) for a in argv])
    assert code == 2 and err.count("\n") == 1 and err.startswith("simcards: error: "), (code, err)
    for needle in needles:
        assert needle in err, (needle, err)
    return err


def write(place: Path, name: str, text: str) -> Path:
    path = place / name
    path.write_text(text)
    return path


def test_a_missing_table_or_key_says_it_is_missing(place):
    tune = (ROOT / "configs" / "tune-skat.toml").read_text()
    no_table = write(place, "no-tune.toml", tune[:tune.index("[tune]")])
    refused(["tune", no_table], "tune: missing; use a table of parameter = [low, high]")
    no_games = (ROOT / "configs" / "tournament-skat.toml").read_text().replace("games = 300", "")
    refused(["tournament", write(place, "no-games.toml", no_games)], "games: missing; use an integer")
    code, _, err = run_cli(["run", str(write(place, "empty.toml", ""))])
    assert code == 2 and err.splitlines()[1:] == [
        "  name: missing; use a name of letters, digits, '.', '_' or '-'",
        "  ruleset: missing; use one of " + ", ".join(__import__("simcards").rulesets()),
        "  deals: missing; use a number of deals >= 1"], err


@pytest.mark.parametrize("kind, command", [(k, c) for k in COMMANDS for c in COMMANDS if k != c])
def test_a_config_given_to_the_wrong_command_says_which_command_takes_it(kind, command):
    path = next(p for p in SHIPPED if KIND[p] == kind and p.parent.name == "configs")
    refused([command, path], f"this is a {kind} config", f"`simcards {command}` takes a {command} config",
            f"use `simcards {kind} {path}`")


def test_a_bot_kind_that_is_no_name(place):
    for kind in ("[]", "{ a = 1 }", "3"):
        path = write(place, "kind.toml", f'name = "k"\nruleset = "skat"\ndeals = 10\n'
                                         f'bots = {{ kind = {kind} }}\n')
        refused(["run", path], "bots.kind = ", "use one of 'random', 'heuristic'")


def test_argument_errors_are_one_line_naming_the_flag():
    demo = ROOT / "configs" / "demo.toml"
    refused(["run", demo, "--deals", "1.5"], "argument --deals: '1.5': use a whole number",
            "`simcards run --help` lists the arguments")
    refused(["run", demo, "--bogus"], "unrecognized arguments: --bogus", "`simcards run --help`")
    refused(["run"], "required: config", "`simcards run --help`")
    refused(["bogus"], "invalid choice: 'bogus'", "`simcards --help`")
    refused(["run", demo, "--", "--deals", "\n"], "unrecognized arguments: --deals \\n")


def test_odd_keys_and_paths_stay_on_one_line(place):
    empty_key = write(place, "odd-key.toml", 'name = "x"\nruleset = "skat"\ndeals = 10\n"" = 1\n')
    refused(["run", empty_key], "'' = 1: use a known key")
    refused(["run", "a\0b.toml"], "argument config: 'a\\x00b.toml': use a path of printable")
    from simcards.config import ConfigError, load_config

    with pytest.raises(ConfigError, match="use a file path without a NUL character"):
        load_config("a\0b.toml")
    nul = write(place, "nul.toml", 'name = "x"\nruleset = "skat"\ndeals = 10\ninclude = "a\\u0000b"\n')
    refused(["run", nul], "include = ['a\\x00b']: use a list of TOML file paths")
    refused(["run", "new\nline.toml"], "argument config: 'new\\nline.toml': use a path of printable")
    refused(["report", "a\tb"], "argument run: 'a\\tb': use a path of printable characters")
    refused(["tournament", ROOT / "configs" / "tournament-skat.toml", "--out", ""],
            "argument --out: '': use a path of printable characters")


def test_include_whose_rules_are_no_table(place):
    write(place, "rules-five.toml", "rules = 5\n")
    write(place, "thresholds.toml", 'bots = "random"\n[rules]\nnat_on_tie = true\n')
    head = 'name = "x"\nruleset = "klaverjas-amsterdam"\ndeals = 10\n'
    refused(["run", write(place, "inc.toml", head + 'include = "rules-five.toml"\n')],
            "(include rules-five.toml): rules = 5: use a table of rule options")
    refused(["run", write(place, "inc.toml", head + 'include = "thresholds.toml"\nrules = 5\n')],
            "rules = 5: use a table of rule options")


def test_a_manifest_of_the_wrong_shape(place):
    refused(["report", place / "run-types"], "manifest.json is not a simcards manifest",
            "chunk_size = 'x' is not an integer")
    refused(["verify", place / "run-list"], "not a simcards manifest (not a JSON object)")
    refused(["replay", place / "run-no-options", "--deal", "0"], "(no 'options')")


def tune_skat(place: Path, **changes) -> Path:
    """configs/tune-skat.toml with ``changes`` to its top-level keys, as a file."""
    data = {**CONFIGS[ROOT / "configs" / "tune-skat.toml"], **changes}
    return write(place, "tune.toml", toml_document(data))


def test_tune_counts_and_seeds_fit_the_kernels(place):
    refused(["tune", ROOT / "configs" / "tune-skat.toml", "--units", 2**63],
            f"deals = {2**63}: use an integer from 2 to {2**53}")
    for key, value in (("seed", 2**63), ("verify_seed", -1), ("verify_seed", "x"), ("verify", 2**60),
                       ("chunk_size", 2**60)):
        refused(["tune", tune_skat(place, **{key: value})], f"{key} = {value!r}: use an integer from")
    from simcards.tune import load_tune_config  # the default verification seed wraps within int64

    assert load_tune_config(tune_skat(place, seed=2**63 - 1)).verify_seed == 1_000_002
    assert load_tune_config(tune_skat(place, seed=1)).verify_seed == 1_000_004


def test_tune_ranges_are_finite(place):
    for spec in ([0.3, math.inf], [math.nan, 0.9], [0.3, 0.9, math.nan], [0.3, 0.9, math.inf]):
        path = tune_skat(place, tune={"suit_threshold": spec})
        refused(["tune", path], "tune.suit_threshold = [",
                "use [low, high] or [low, high, resolution] of finite numbers with low < high")


def test_tournament_counts_fit_the_kernels():
    path = ROOT / "configs" / "tournament-skat.toml"
    refused(["tournament", path, "--games", 2**63], f"games = {2**63}: use an integer from 1 to {2**53}")
