"""Configs: a TOML file -> a validated, frozen `RunConfig`, `TuneConfig` or `TournamentConfig`.

Validation collects every problem before anything is written, and reports each with its key
path, the bad value and what is allowed:

    configs/demo.toml: 2 problems
      deals = -5: use an integer >= 1
      bots[1].kind = 'smart': use one of 'random', 'heuristic'

A config file looks like::

    name = "demo"                    # results/<name>/ and reports/<name>/
    ruleset = "klaverjas-amsterdam"  # `simcards rulesets` lists them with their options
    deals = 1_000_000                # `matches = N` instead for match rulesets (Kraken, Hearts)
    seed = 7
    chunk_size = 100_000             # units per Parquet part
    workers = "auto"                 # or a number; "auto" = one per core
    backend = "loky"                 # or "dask" (with scheduler = "tcp://host:8786")
    output = "results"               # results go to <output>/<name>/, relative to the working directory

    bots = "heuristic"               # or a list of one per seat, or [[bots]] tables with kind/params

    [rules]                          # ruleset options
    nat_on_tie = true
"""

from __future__ import annotations

import math
import os
import re
import tomllib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from simcards.errors import UserError
from simcards.games import game_class, rulesets
from simcards.games.botspec import bot_problems, is_user_spec
from simcards.games.options import option_problems
from simcards.games.userbots import user_param_defaults

BACKENDS = ("loky", "dask")
NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
TOP_KEYS = ("name", "ruleset", "deals", "matches", "seed", "chunk_size", "workers", "backend",
            "scheduler", "scheduler_timeout", "workers_timeout", "output", "rules", "bots", "include")
INT64_MAX = 2**63 - 1  # seeds and unit indices go to the kernels as int64
MAX_UNITS = 2**53  # deal indices of match rulesets are match_index * 1024 + deal_no in int64
SCHEDULER_TIMEOUT = 10  # seconds to reach a Dask scheduler before the run gives up
WORKERS_TIMEOUT = 60  # seconds a Dask run waits with no worker before it stops (resumable)


class ConfigError(UserError):
    """A config with problems; ``problems`` lists (key path, value, what is allowed)."""

    def __init__(self, source: str, problems: list[tuple[str, Any, str]]):
        self.source = source
        self.problems = problems
        shown = _printable(source)
        if len(problems) == 1:  # one problem, one line
            super().__init__(f"{shown}: {problem_text(*problems[0])}")
            return
        lines = [f"{shown}: {len(problems)} problems"]
        lines.extend(f"  {problem_text(*problem)}" for problem in problems)
        super().__init__("\n".join(lines))


def _printable(text: str) -> str:
    """A key or path as one visible line: quoted when it is empty or holds a newline."""
    return text if text and text.isprintable() else repr(text)


class ConfigKindError(ConfigError):
    """A config of another kind than the command takes (a tune config given to `simcards run`)."""

    def __init__(self, source: str, kind: str, command: str, found: list[str]):
        self.source, self.kind = source, kind
        self.problems = [("file", source, f"a {command} config")]
        UserError.__init__(self, f"{source}: this is a {kind} config (it has {', '.join(found)}), "
                                 f"and `simcards {command}` takes a {command} config; use "
                                 f"`simcards {kind} {source}`")


def problem_text(key: str, value: Any, allowed: str) -> str:
    """One problem as a message says it; TOML has no null, so a None value is a missing key."""
    key = _printable(key)
    if value is None:
        return f"{key}: missing; use {allowed}"
    return f"{key} = {value!r}: use {allowed}"


@dataclass(frozen=True)
class RunConfig:
    name: str
    ruleset: str
    units: int  # deals, or matches for match rulesets
    seed: int = 0
    chunk_size: int = 100_000
    workers: int = 1
    backend: str = "loky"
    scheduler: str | None = None
    scheduler_timeout: float = SCHEDULER_TIMEOUT
    workers_timeout: float = WORKERS_TIMEOUT
    output: str = "results"
    rules: dict = field(default_factory=dict)
    bots: Any = "heuristic"

    @property
    def unit(self) -> str:
        return game_class(self.ruleset).unit

    @property
    def units_name(self) -> str:
        """'deals' or 'matches', as the config counts them."""
        return "matches" if self.unit == "match" else "deals"

    @property
    def run_dir(self) -> Path:
        return Path(self.output) / self.name

    def to_dict(self) -> dict:
        return asdict(self)

    def identity(self) -> dict:
        """What decides the data: two configs with the same identity give the same Parquet
        content (workers, backend and output do not matter)."""
        d = self.to_dict()
        for key in ("workers", "backend", "scheduler", "scheduler_timeout", "workers_timeout",
                    "output", "units"):
            d.pop(key, None)
        return d


def default_workers() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)


def _int_problem(key: str, value: Any, minimum: int, problems: list, maximum: int | None = None) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        problems.append((key, value, f"an integer >= {minimum}" if maximum is None
                         else f"an integer from {minimum} to {maximum}"))
    elif maximum is not None and value > maximum:
        problems.append((key, value, f"an integer from {minimum} to {maximum}"))


def _read_toml(path: Path, source: str) -> dict:
    if "\0" in str(path):  # open() would raise a ValueError
        raise ConfigError(source, [("file", str(path), "a file path without a NUL character")])
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise ConfigError(source, [("file", str(path), "an existing TOML file")]) from None
    except IsADirectoryError:
        raise ConfigError(source, [("file", str(path), "a TOML file, not a folder")]) from None
    except UnicodeDecodeError as exc:
        raise ConfigError(source, [("file", str(path), f"a UTF-8 text file (byte {exc.start} is not UTF-8)")]) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(source, [("file", str(path), f"valid TOML ({exc})")]) from None
    except OSError as exc:
        raise ConfigError(source, [("file", str(path), f"a readable TOML file ({exc.strerror})")]) from None


# The keys that only one kind of config has, by the command that takes it
KIND_KEYS = {"run": ("bots", "backend", "scheduler", "include"),
             "tune": ("tune", "baseline", "objective"),
             "tournament": ("entrants",)}


def check_config_kind(data: dict, command: str, source: str) -> None:
    """A config of another kind (a tune config given to `simcards run`, ...): one message that
    says what kind it is and which command takes it, instead of a list of unknown keys."""
    if any(key in data for key in KIND_KEYS[command]):
        return
    for kind, keys in KIND_KEYS.items():
        found = [key for key in keys if key in data]
        if kind != command and found:
            raise ConfigKindError(source, kind, command, found)


def _unknown_keys(data: dict, known: tuple[str, ...], problems: list) -> None:
    for key in data:
        if key not in known:
            problems.append((key, data[key], "a known key: " + ", ".join(known)))


def _name_and_ruleset(data: dict, problems: list):
    """Check ``name`` and ``ruleset``; the ruleset's Game class, or None when it is unknown."""
    name = data.get("name")
    if not isinstance(name, str) or not NAME_PATTERN.match(name):
        problems.append(("name", name, "a name of letters, digits, '.', '_' or '-'"))
    ruleset = data.get("ruleset")
    if ruleset not in rulesets():
        problems.append(("ruleset", ruleset, "one of " + ", ".join(rulesets())))
        return None
    return game_class(ruleset)


def _rules_problems(data: dict, game, problems: list) -> dict:
    rules = data.get("rules", {})
    if not isinstance(rules, dict):
        problems.append(("rules", rules, "a table of rule options"))
        return {}
    if game is not None:
        problems.extend((f"rules.{k}", v, a) for k, v, a in option_problems(game.option_specs, rules))
    return rules


def _workers(data: dict, problems: list) -> int:
    workers = data.get("workers", "auto")
    if workers == "auto":
        return default_workers()
    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= 4096:
        problems.append(("workers", workers, "'auto' or an integer from 1 to 4096"))
    return workers


def _output(data: dict, default: str, problems: list) -> str:
    output = data.get("output", default)
    if not isinstance(output, str) or not output:
        problems.append(("output", output, "a folder path"))
    elif (blocker := not_a_folder(output)) is not None:
        problems.append(("output", output, f"a folder path ({blocker} is a file)"))
    return output


def not_a_folder(path: str | Path) -> Path | None:
    """The file that stops ``path`` from being (or becoming) a folder, or None. Reads only."""
    path = Path(path)
    for candidate in (path, *path.parents):
        if candidate.exists():
            return None if candidate.is_dir() else candidate
    return None


def _merge_include(data: dict, base: Path, source: str) -> dict:
    """``include = ["thresholds.toml"]``: merge those files' ``bots`` (and ``rules``) under the
    config's own values, so a tuned thresholds file can be used as is."""
    includes = data.get("include", [])
    if isinstance(includes, str):
        includes = [includes]
    if not isinstance(includes, list) or not all(isinstance(i, str) and "\0" not in i for i in includes):
        raise ConfigError(source, [("include", includes, "a list of TOML file paths")])
    merged = dict(data)
    own = Path(source).resolve() if Path(source).is_file() else None
    for item in includes:
        if own is not None and (base / item).resolve() == own:
            raise ConfigError(source, [("include", item, "other TOML files, not the config itself")])
        extra = _read_toml(base / item, f"{source} (include {item})")
        if "rules" in extra:
            if not isinstance(extra["rules"], dict):
                raise ConfigError(f"{source} (include {item})",
                                  [("rules", extra["rules"], "a table of rule options")])
            own_rules = merged.get("rules", {})
            if isinstance(own_rules, dict):  # else the config's own [rules] is the problem named
                merged["rules"] = {**extra["rules"], **own_rules}
        if "bots" in extra and "bots" not in data:
            merged["bots"] = extra["bots"]
    return merged


def parse_config(data: dict, source: str = "config", base: Path | None = None,
                 overrides: dict | None = None) -> RunConfig:
    """Validate a config mapping (plus command-line ``overrides``) into a RunConfig."""
    data = _merge_include(data, base or Path("."), source)
    data = {**data, **{k: v for k, v in (overrides or {}).items() if v is not None}}
    problems: list[tuple[str, Any, str]] = []
    _unknown_keys(data, TOP_KEYS, problems)
    game = _name_and_ruleset(data, problems)
    name, ruleset = data.get("name"), data.get("ruleset")

    unit_key = "matches" if game is not None and game.unit == "match" else "deals"
    wrong_key = "deals" if unit_key == "matches" else "matches"
    if wrong_key in data and game is not None:
        problems.append((wrong_key, data[wrong_key], f"'{unit_key}' ({ruleset} counts {unit_key})"))
    units = data.get(unit_key)
    if units is None:
        problems.append((unit_key, None, "a number of " + unit_key + " >= 1"))
    else:
        _int_problem(unit_key, units, 1, problems, MAX_UNITS)

    seed = data.get("seed", 0)
    _int_problem("seed", seed, 0, problems, INT64_MAX)
    chunk_size = data.get("chunk_size", 100_000 if unit_key == "deals" else 2_000)
    _int_problem("chunk_size", chunk_size, 1, problems, MAX_UNITS)

    workers = _workers(data, problems)

    backend = data.get("backend", "loky")
    if backend not in BACKENDS:
        problems.append(("backend", backend, "one of " + ", ".join(repr(b) for b in BACKENDS)))
    scheduler = data.get("scheduler")
    if scheduler is not None:
        if not isinstance(scheduler, str) or not scheduler.startswith(("tcp://", "tls://", "inproc://")):
            problems.append(("scheduler", scheduler, "a Dask scheduler address such as 'tcp://host:8786'"))
        elif backend != "dask":
            problems.append(("scheduler", scheduler, "only with backend = 'dask'"))
    timeouts = {}
    for key, default in (("scheduler_timeout", SCHEDULER_TIMEOUT), ("workers_timeout", WORKERS_TIMEOUT)):
        value = timeouts[key] = data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= 86_400:
            problems.append((key, value, "a number of seconds from 0 to 86400"))

    output = _output(data, "results", problems)
    rules = _rules_problems(data, game, problems)

    bots = data.get("bots", "heuristic")
    if game is not None:
        problems.extend(bot_problems(bots, game.bots, game.n_seats, game=game))

    if problems:
        raise ConfigError(source, problems)
    return RunConfig(name=name, ruleset=ruleset, units=units, seed=seed, chunk_size=chunk_size,
                     workers=workers, backend=backend, scheduler=scheduler, output=output,
                     rules=dict(rules), bots=bots, **timeouts)


def load_config(path: str | Path, **overrides: Any) -> RunConfig:
    """Read and validate a TOML config; ``overrides`` (deals/matches, workers, output, ...) win
    over the file. Raises ConfigError listing every problem."""
    path = Path(path)
    data = _read_toml(path, str(path))
    check_config_kind(data, "run", str(path))
    if overrides.get("deals") is not None:
        # --deals on the command line sets whatever the ruleset counts (deals or matches)
        ruleset = data.get("ruleset")
        if ruleset in rulesets() and game_class(ruleset).unit == "match":
            overrides = {k: v for k, v in overrides.items() if k != "deals"} | {"matches": overrides["deals"]}
    return parse_config(data, source=str(path), base=path.parent, overrides=overrides)


TOURNAMENT_KEYS = ("name", "ruleset", "games", "seed", "rules", "entrants", "deals_per_game", "output")


@dataclass(frozen=True)
class TournamentConfig:
    name: str
    ruleset: str
    games: int
    entrants: dict
    seed: int = 0
    rules: dict = field(default_factory=dict)
    deals_per_game: int | None = None
    output: str = "reports"


def load_tournament_config(path: str | Path, games: int | None = None) -> TournamentConfig:
    """A `simcards tournament` config::

        name = "hearts-bots"
        ruleset = "hearts"
        games = 500                 # per table, each played in every seat rotation
        seed = 1
        [rules]
        target = 100
        [entrants.bold]
        kind = "heuristic"
        params = { moon_threshold = 12 }
        [entrants.random]
        kind = "random"
        ...                         # at least one entrant per seat
    """
    path = Path(path)
    source = str(path)
    data = _read_toml(path, source)
    check_config_kind(data, "tournament", source)
    if games is not None:
        data["games"] = games
    problems: list[tuple[str, Any, str]] = []
    _unknown_keys(data, TOURNAMENT_KEYS, problems)
    game = _name_and_ruleset(data, problems)
    name, ruleset = data.get("name"), data.get("ruleset")
    _int_problem("games", data.get("games"), 1, problems, MAX_UNITS)
    _int_problem("seed", data.get("seed", 0), 0, problems, INT64_MAX)
    if data.get("deals_per_game") is not None:
        _int_problem("deals_per_game", data["deals_per_game"], 1, problems, MAX_UNITS)
    rules = _rules_problems(data, game, problems)
    entrants = data.get("entrants")
    seats = game.n_seats if game is not None else 2
    if not isinstance(entrants, dict) or len(entrants) < seats:
        problems.append(("entrants", entrants, f"a table of at least {seats} [entrants.NAME] bots "
                                               "(one per seat)"))
    elif game is not None:
        for entrant, spec in entrants.items():
            problems.extend(bot_problems(spec, game.bots, game.n_seats, where=f"entrants.{entrant}",
                                         game=game))
    output = _output(data, "reports", problems)
    if problems:
        raise ConfigError(source, problems)
    return TournamentConfig(name=name, ruleset=ruleset, games=data["games"], entrants=dict(entrants),
                            seed=data.get("seed", 0), rules=dict(rules),
                            deals_per_game=data.get("deals_per_game"), output=output)


@dataclass(frozen=True)
class ParamRange:
    name: str
    low: float
    high: float
    resolution: float = 1.0  # stop refining below this step

    def __post_init__(self):
        if not self.low < self.high:
            raise UserError(f"tune range of {self.name!r}: low {self.low} must be below high {self.high}")
        if self.resolution <= 0:
            raise UserError(f"tune resolution of {self.name!r} must be > 0")


TUNE_KEYS = ("name", "ruleset", "deals", "matches", "seed", "workers", "objective", "rules",
             "baseline", "tune", "grid", "verify", "verify_seed", "output", "chunk_size",
             "mode", "tolerance", "max_iterations", "damping")
TUNE_MODES = ("baseline", "equilibrium")  # equilibrium: simcards/tune/equilibrium.py
MAX_ITERATIONS = 100  # each iteration is a whole tune; a run that needs more is not converging


@dataclass(frozen=True)
class TuneConfig:
    name: str
    ruleset: str
    units: int
    seed: int
    objective: str
    baseline: dict  # {"kind": ..., "params": {...}}
    ranges: tuple[ParamRange, ...]
    rules: dict = field(default_factory=dict)
    grid: int = 9
    verify: int = 0  # units of the verification match (default: 2 x units)
    verify_seed: int = 0
    workers: int = 1
    chunk_size: int = 500
    output: str = "reports"
    # equilibrium tuning (simcards/tune/equilibrium.py); "baseline" mode ignores the other three
    mode: str = "baseline"
    tolerance: float = 0.0
    max_iterations: int = 6
    damping: float = 0.0  # the share of the way to a best response the next profile does not go

    def bots(self, params: dict[str, float], tuned_seats: tuple[int, ...], n_seats: int) -> list:
        """Per-seat bot specs: the tuned bot at ``tuned_seats``, the baseline elsewhere."""
        tuned = {**self.baseline, "params": {**self.baseline.get("params", {}), **params}}
        base = {**self.baseline, "params": dict(self.baseline.get("params", {}))}
        return [tuned if seat in tuned_seats else base for seat in range(n_seats)]


def load_tune_config(path: str | Path, **overrides: Any) -> TuneConfig:
    """A `simcards tune` config::

        name = "tune-kraken-contra"
        ruleset = "kraken-contra"
        matches = 3000                # units per candidate (`deals` for deal rulesets)
        seed = 1
        objective = "auto"            # "auto": the game's first objective (simcards rulesets NAME)
        grid = 9                      # values per coarse grid
        verify = 6000                 # units of the fresh-seed verification match
        mode = "baseline"             # or "equilibrium": iterate best responses to the last one
        tolerance = 0.0               # equilibrium: a verified gain below this is no gain
        max_iterations = 6            # equilibrium: stop here at the latest
        damping = 0.0                 # equilibrium: 0.5 = the next profile goes half-way to the
                                      # best response (for best responses that overshoot and cycle)
        [baseline]                    # the bot the tuned one starts from and plays against
        kind = "heuristic"
        [tune]                        # parameter = [low, high] or [low, high, resolution]
        kraak_threshold = [50, 110]
        rekraak_threshold = [60, 130]
    """
    path = Path(path)
    source = str(path)
    data = _read_toml(path, source)
    check_config_kind(data, "tune", source)
    data = {**data, **{k: v for k, v in overrides.items() if v is not None}}
    problems: list = []
    _unknown_keys(data, TUNE_KEYS, problems)
    game = _name_and_ruleset(data, problems)
    name, ruleset = data.get("name"), data.get("ruleset")
    if game is not None and not game.objectives:
        tunable = [r for r in rulesets() if game_class(r).objectives]
        problems.append(("ruleset", ruleset, "a ruleset with a tuning objective: " + ", ".join(tunable)))
        game = None
    unit_key = "matches" if game is not None and game.unit == "match" else "deals"
    units = data.get(unit_key)
    _int_problem(unit_key, units, 2, problems, MAX_UNITS)
    seed = data.get("seed", 0)
    _int_problem("seed", seed, 0, problems, INT64_MAX)
    # the verification's own seed: by default the seed's neighbour, wrapped within int64
    default_verify_seed = (seed + 1_000_003) % (INT64_MAX + 1) if isinstance(seed, int) else 0
    verify_seed = data.get("verify_seed", default_verify_seed)
    _int_problem("verify_seed", verify_seed, 0, problems, INT64_MAX)
    _int_problem("grid", data.get("grid", 9), 3, problems)
    _int_problem("chunk_size", data.get("chunk_size", 500), 1, problems, MAX_UNITS)
    verify = data.get("verify", 2 * units if isinstance(units, int) else 0)
    _int_problem("verify", verify, 2, problems, MAX_UNITS)
    workers = _workers(data, problems)
    objective = data.get("objective", "auto")
    if game is not None:
        allowed = tuple(game.objectives)
        if objective == "auto":
            objective = allowed[0]
        elif objective not in allowed:
            problems.append(("objective", objective, "one of 'auto', " + ", ".join(repr(a) for a in allowed)))
    rules = _rules_problems(data, game, problems)
    baseline = data.get("baseline", {"kind": "heuristic"})
    if isinstance(baseline, str):
        baseline = {"kind": baseline}
    if game is not None:
        problems.extend(bot_problems(baseline, game.bots, game.n_seats, where="baseline", game=game))
    ranges = []
    tune = data.get("tune")
    tunable = tunable_params(game, baseline) if game is not None and isinstance(baseline, dict) else {}
    if not isinstance(tune, dict) or not tune:
        problems.append(("tune", tune, "a table of parameter = [low, high] (or [low, high, resolution])"))
    elif game is not None:
        for pname, spec in tune.items():
            key = f"tune.{pname}"
            if pname not in tunable:
                problems.append((key, spec, "a numeric parameter of the baseline bot: "
                                 + (", ".join(tunable) or "it has none")))
            elif (not isinstance(spec, list) or len(spec) not in (2, 3)
                  or not all(isinstance(v, (int, float)) and not isinstance(v, bool)
                             and math.isfinite(v) for v in spec)
                  or spec[0] >= spec[1] or (len(spec) == 3 and spec[2] <= 0)):
                problems.append((key, spec, "[low, high] or [low, high, resolution] of finite "
                                            "numbers with low < high and resolution > 0"))
            else:
                ranges.append(ParamRange(pname, float(spec[0]), float(spec[1]),
                                         float(spec[2]) if len(spec) == 3 else 1.0))
    output = _output(data, "reports", problems)
    mode, tolerance = data.get("mode", "baseline"), data.get("tolerance", 0.0)
    if mode not in TUNE_MODES:
        problems.append(("mode", mode, "one of " + ", ".join(repr(m) for m in TUNE_MODES)))
    if (isinstance(tolerance, bool) or not isinstance(tolerance, (int, float))
            or not math.isfinite(tolerance) or not tolerance >= 0):
        problems.append(("tolerance", tolerance, "a finite number >= 0 (the objective's unit per "
                                                 "deal or match)"))
    _int_problem("max_iterations", data.get("max_iterations", 6), 1, problems, MAX_ITERATIONS)
    damping = data.get("damping", 0.0)
    if (isinstance(damping, bool) or not isinstance(damping, (int, float))
            or not 0 <= damping < 1):
        problems.append(("damping", damping, "a number from 0 (each iteration plays against the "
                                             "best response before it) to below 1"))
    if problems:
        raise ConfigError(source, problems)
    return TuneConfig(name=name, ruleset=ruleset, units=units, seed=seed, objective=objective,
                      baseline=baseline, ranges=tuple(ranges), rules=dict(rules),
                      grid=data.get("grid", 9), verify=verify,
                      verify_seed=verify_seed, workers=workers,
                      chunk_size=data.get("chunk_size", 500), output=output, mode=mode,
                      tolerance=float(tolerance), max_iterations=data.get("max_iterations", 6),
                      damping=float(damping))


def tunable_params(game, baseline: dict) -> dict[str, float]:
    """The baseline bot's numeric parameters and their defaults (a user bot's own, or the
    game's bot parameters)."""
    if is_user_spec(baseline) and game.user_bots is not None:
        try:
            return user_param_defaults(baseline, game.bots)
        except UserError:
            return {}  # the baseline's own problem is reported
    return dict(zip(game.bots.param_names, game.bots.defaults()))
