"""Rule options: each ruleset declares its options once (name, default, allowed values, one-line
meaning); validation, `simcards rulesets`, the config checker and the docs all read that list."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from simcards.errors import UserError


@dataclass(frozen=True)
class Option:
    name: str
    default: Any
    doc: str
    choices: tuple | None = None  # allowed values of a str option
    minimum: int | None = None  # for int options
    maximum: int | None = None  # for int options: what the data columns can hold
    item_choices: tuple | None = None  # for list options: allowed items
    convert: Callable[[Any], Any] | None = None  # e.g. normalise card ranks

    @property
    def kind(self) -> type:
        return type(self.default) if not isinstance(self.default, tuple) else list

    def allowed(self) -> str:
        if self.choices is not None:
            return "one of " + ", ".join(repr(c) for c in self.choices)
        if self.item_choices is not None:
            return "a list of " + ", ".join(repr(c) for c in self.item_choices)
        if self.kind is bool:
            return "true or false"
        if self.kind is int:
            if self.minimum is not None and self.maximum is not None:
                return f"an integer from {self.minimum} to {self.maximum}"
            return "an integer" + (f" >= {self.minimum}" if self.minimum is not None else "")
        return f"a {self.kind.__name__}"

    def problem(self, value: Any) -> str | None:
        """None when ``value`` is acceptable, else what is allowed."""
        kind = self.kind
        if kind is bool:
            ok = isinstance(value, bool)
        elif kind is int:
            ok = isinstance(value, int) and not isinstance(value, bool)
            ok = ok and (self.minimum is None or value >= self.minimum)
            ok = ok and (self.maximum is None or value <= self.maximum)
        elif kind is list:
            ok = isinstance(value, (list, tuple)) and all(
                self.item_choices is None or normalise_item(v) in self.item_choices for v in value
            )
        else:
            ok = isinstance(value, kind)
        if ok and self.choices is not None:
            ok = value in self.choices
        return None if ok else self.allowed()

    def normalise(self, value: Any) -> Any:
        if self.kind is list:
            return tuple(normalise_item(v) for v in value)
        return value


def normalise_item(item: Any) -> Any:
    """An item of a list option as the rules compare it: text stripped and upper-cased (a rank
    "t" is "10"); anything else as it is."""
    if isinstance(item, str):
        text = item.strip().upper()
        return "10" if text == "T" else text
    return item


def option_problems(specs: tuple[Option, ...], given: dict) -> list[tuple[str, Any, str]]:
    """Every problem with ``given`` as (option name, bad value, what is allowed)."""
    by_name = {o.name: o for o in specs}
    problems = []
    for name, value in given.items():
        spec = by_name.get(name)
        if spec is None:
            known = ", ".join(sorted(by_name)) or "none"
            problems.append((name, value, f"a known option: {known}"))
            continue
        allowed = spec.problem(value)
        if allowed is not None:
            problems.append((name, value, allowed))
    return problems


def resolve_options(ruleset: str, specs: tuple[Option, ...], given: dict) -> dict:
    """Defaults overlaid with ``given``; ValueError listing every bad option at once."""
    problems = option_problems(specs, given)
    if problems:
        lines = [f"option {name!r} = {value!r} is not allowed for {ruleset}; use {allowed}"
                 for name, value, allowed in problems]
        raise UserError("\n".join(lines))
    values = {o.name: o.default for o in specs}
    for name, value in given.items():
        values[name] = next(o for o in specs if o.name == name).normalise(value)
    return values
