"""Bot specs from users (Python or TOML) -> the kind ids and parameter rows kernels take.

Accepted forms, for every game:
- ``"heuristic"``: the same bot at every seat;
- ``["heuristic", "random", "heuristic", "random"]``: one per seat;
- ``{"kind": "heuristic", "params": {"kraak_threshold": 70}}`` alone or in such a list;
- ``{"kind": "python", "entry": "mybots.kraak:MyBot", "params": {...}}`` and
  ``{"kind": "numba", "entry": "mybots.fast:choose_card"}``: a user's bot
  (`simcards.games.userbots`), where the ruleset supports them: its spec is checked by the
  ruleset's `Support` (``Game.user_bots``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from simcards.errors import UserError


# Every game offers these two kinds under these ids; a game may add more after them.
RANDOM, HEURISTIC = 0, 1
STANDARD_KINDS = {"random": RANDOM, "heuristic": HEURISTIC}
# user bots (simcards.games.userbots) and their kind ids in the kernels' kind arrays, above every
# built-in kind (the games' cached kernels hold these ids as constants)
USER_KINDS = ("python", "numba")
PYTHON_KIND = 64
NUMBA_KIND = 65  # the first Numba user bot of a table; the next ones count up
USER_KIND_IDS = {"python": PYTHON_KIND, "numba": NUMBA_KIND}


@dataclass(frozen=True)
class BotFamily:
    """The bots of one game: kind names -> kernel ids, the parameter row (name, default,
    meaning) every seat carries, and the parameters that count something (name, lowest,
    highest): those take only whole numbers in that range."""

    kinds: dict[str, int]
    params: tuple[tuple[str, float, str], ...]
    counts: tuple[tuple[str, int, int], ...] = ()

    def defaults(self) -> np.ndarray:
        return np.array([p[1] for p in self.params], dtype=np.float64)

    @property
    def param_names(self) -> tuple[str, ...]:
        return tuple(p[0] for p in self.params)


def per_seat(spec: Any, n_seats: int) -> list | None:
    """The spec of each seat of a bot spec (one name or table for every seat, or a list of one
    per seat), or None when it is neither."""
    if isinstance(spec, (str, dict)):
        return [spec] * n_seats
    if isinstance(spec, (list, tuple)) and len(spec) == n_seats:
        return list(spec)
    return None


def is_user_spec(item: Any) -> bool:
    """Is one seat's spec a user's bot (kind "python" or "numba")?"""
    return isinstance(item, dict) and item.get("kind") in USER_KINDS


def user_entries(spec) -> list[str]:
    """The entries of the user bots in a bot spec (any nesting the configs allow)."""
    if isinstance(spec, dict):
        return [spec["entry"]] if is_user_spec(spec) and isinstance(spec.get("entry"), str) else []
    if isinstance(spec, (list, tuple)):
        return [e for item in spec for e in user_entries(item)]
    return []


def bot_problems(spec: Any, family: BotFamily, n_seats: int, where: str = "bots", game=None):
    """Every problem of ``spec`` as (key path, bad value, what is allowed). User bots (kind
    "python" or "numba") are checked against ``game`` (a Game class), which must support them."""
    seats = per_seat(spec, n_seats)
    kinds = ", ".join(repr(k) for k in family.kinds)
    if game is not None and game.user_bots is not None:
        kinds += ", 'python', 'numba'"
    if seats is None:
        return [(where, spec, f"a bot name ({kinds}), a table with 'kind' and 'params', "
                              f"or a list of {n_seats} of those, one per seat")]
    problems = []
    for seat, item in enumerate(seats):
        path = where if isinstance(spec, (str, dict)) else f"{where}[{seat}]"
        if isinstance(spec, (str, dict)) and seat > 0:
            break
        if isinstance(item, str):
            item = {"kind": item}
        if not isinstance(item, dict):
            problems.append((path, item, f"a bot name ({kinds}) or a table with 'kind' and 'params'"))
            continue
        if is_user_spec(item):
            support = None if game is None else game.user_bots
            if support is None:
                name = "this ruleset" if game is None else repr(game.name)
                problems.append((f"{path}.kind", item["kind"],
                                 f"a built-in bot ({kinds}): {name} does not support user bots yet"))
            else:
                problems.extend(support.spec_problems(item, family, path))
            continue
        for key in item:
            if key not in ("kind", "params"):
                problems.append((f"{path}.{key}", item[key], "only the keys 'kind' and 'params'"))
        kind = item.get("kind")
        if not isinstance(kind, str) or kind not in family.kinds:  # a list or table is no name
            problems.append((f"{path}.kind", kind, f"one of {kinds}"))
        params = item.get("params", {})
        if not isinstance(params, dict):
            problems.append((f"{path}.params", params, "a table of parameter = number"))
            continue
        for name, value in params.items():
            if name not in family.param_names:
                problems.append((f"{path}.params.{name}", value,
                                 "a known parameter: " + ", ".join(family.param_names)))
            elif isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                problems.append((f"{path}.params.{name}", value, "a finite number"))
            else:
                for count, low, high in family.counts:
                    if name == count and (value != int(value) or not low <= value <= high):
                        problems.append((f"{path}.params.{name}", value,
                                         f"a whole number from {low} to {high}"))
    return problems


def resolve_bots(spec: Any, family: BotFamily, n_seats: int, game=None) -> tuple[np.ndarray, np.ndarray]:
    """(kind ids int64[n_seats], params float64[n_seats, n_params]); ValueError on any problem.
    User bots get their kind's id and the seat's built-in parameter row: the loops that play
    them are `simcards.games.seating.seated`'s."""
    problems = bot_problems(spec, family, n_seats, game=game)
    if problems:
        raise UserError("\n".join(f"{path} = {value!r} is not allowed; use {allowed}"
                                   for path, value, allowed in problems))
    kinds = np.empty(n_seats, dtype=np.int64)
    params = np.tile(family.defaults(), (n_seats, 1))
    for seat, item in enumerate(per_seat(spec, n_seats)):
        if isinstance(item, str):
            item = {"kind": item}
        if item.get("kind") in USER_KIND_IDS:  # its seat's built-in parameters (reports)
            kinds[seat] = USER_KIND_IDS[item["kind"]]
            for name, value in item.get("params", {}).items():
                if name in family.param_names:
                    params[seat, family.param_names.index(name)] = float(value)
            continue
        kinds[seat] = family.kinds[item["kind"]]
        for name, value in item.get("params", {}).items():
            params[seat, family.param_names.index(name)] = float(value)
    return kinds, params
