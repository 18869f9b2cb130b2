"""User bot specs: importing a bot's entry, its parameters, the problems of a spec, the hash of
its source, and the errors a user bot raises."""

from __future__ import annotations

import hashlib
import importlib
import inspect
import math
import os
import sys
from pathlib import Path
from typing import Any

import numba

from simcards.errors import UserError
from simcards.games.botspec import user_entries
from simcards.games.registry import game_class, rulesets


class BotError(UserError):
    """A user bot's illegal or malformed answer, or an exception inside it."""


class DealNotNoted(BotError):
    """A Numba bot's illegal card at a table whose loops do not note each deal (no Python bot
    sits there: the hooks would slow the fast path). `simcards.games.seating.with_bots` plays the batch again with
    the hooks on, so that the error names the deal."""


def import_entry(entry: str):
    """The object ``entry`` ("package.module:name") names, its module; UserError otherwise."""
    if not isinstance(entry, str) or entry.count(":") != 1:
        raise UserError(f"entry = {entry!r} is not allowed; use 'module.path:name', e.g. "
                        f"'mybots.kraak:MyBot'")
    module_name, name = entry.split(":")
    cwd = os.getcwd()
    if cwd not in sys.path:
        sys.path.append(cwd)
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # ImportError, or the module itself failing
        raise UserError(f"entry = {entry!r}: cannot import {module_name!r} "
                        f"({type(exc).__name__}: {exc}); put it on PYTHONPATH or in the working "
                        f"directory") from None
    if not hasattr(module, name):
        raise UserError(f"entry = {entry!r}: module {module_name!r} has no {name!r}")
    return getattr(module, name), module


def source_hash(entry: str) -> str:
    """SHA-256 (first 16 hex digits) of the source file of ``entry``'s module."""
    _, module = import_entry(entry)
    path = getattr(module, "__file__", None)
    data = Path(path).read_bytes() if path else repr(module).encode()
    return hashlib.sha256(data).hexdigest()[:16]


def _python_defaults(cls) -> dict[str, Any]:
    """Keyword parameters of a Python bot and their defaults (None: no default)."""
    try:
        signature = inspect.signature(cls)
    except (TypeError, ValueError):
        return {}
    return {p.name: (None if p.default is inspect.Parameter.empty else p.default)
            for p in signature.parameters.values()
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}


def numba_extra_params(module) -> tuple[tuple[str, float, str], ...]:
    extra = getattr(module, "PARAMS", ())
    return tuple((str(p[0]), float(p[1]), str(p[2]) if len(p) > 2 else "") for p in extra)


def user_param_defaults(item: dict, family) -> dict[str, float]:
    """Parameter name -> default of a user bot spec (for `simcards tune`)."""
    target, module = import_entry(item["entry"])
    if item["kind"] == "python":
        return {k: v for k, v in _python_defaults(target).items() if isinstance(v, (int, float))}
    return {**dict(zip(family.param_names, family.defaults())),
            **{name: default for name, default, _ in numba_extra_params(module)}}


def user_spec_problems(item: dict, family, path: str, support) -> list[tuple[str, Any, str]]:
    """Problems of one ``kind = "python" | "numba"`` spec: its keys, entry and params."""
    problems = []
    for key in item:
        if key not in ("kind", "entry", "params"):
            problems.append((f"{path}.{key}", item[key], "only the keys 'kind', 'entry' and 'params'"))
    if support is None:
        return problems  # the ruleset's own refusal is reported by the caller
    entry = item.get("entry")
    try:
        target, module = import_entry(entry)
    except UserError as err:
        return problems + [(f"{path}.entry", entry, str(err).split(": ", 1)[-1])]
    params = item.get("params", {})
    if not isinstance(params, dict):
        return problems + [(f"{path}.params", params, "a table of parameter = value")]
    if item["kind"] == "python":
        if not callable(target) or not callable(getattr(target, "play", None)):
            problems.append((f"{path}.entry", entry, "a class with a play(view) method"))
            return problems
        accepted = _python_defaults(target)
        takes_any = any(p.kind == p.VAR_KEYWORD for p in inspect.signature(target).parameters.values())
        for name, value in params.items():
            if name not in accepted and not takes_any:
                problems.append((f"{path}.params.{name}", value, "a parameter of "
                                 f"{entry}: " + (", ".join(accepted) or "it takes none")))
            elif isinstance(value, float) and not math.isfinite(value):
                problems.append((f"{path}.params.{name}", value, "a finite number"))
    else:
        if not isinstance(target, numba.core.registry.CPUDispatcher):
            problems.append((f"{path}.entry", entry, "an @njit function choose_card(kind, legal, "
                             "st, T, params_row, rng)"))
        names = family.param_names + tuple(p[0] for p in numba_extra_params(module))
        for name, value in params.items():
            if name not in names:
                problems.append((f"{path}.params.{name}", value, "a known parameter: " + ", ".join(names)))
            elif isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                problems.append((f"{path}.params.{name}", value, "a finite number"))
    return problems


def unsupported(game) -> UserError:
    """The refusal of a ruleset (a Game or its class) without user-bot support."""
    able = [r for r in rulesets() if game_class(r).user_bots is not None]
    kinds = ", ".join(repr(k) for k in game.bots.kinds)
    return UserError(f"ruleset {game.name!r} does not support user bots yet; it supports "
                     f"{kinds}. User bots play in: {', '.join(able)}")


def source_hashes(spec) -> dict[str, str]:
    return {entry: source_hash(entry) for entry in user_entries(spec)}
