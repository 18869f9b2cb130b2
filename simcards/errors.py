"""The one error type for user mistakes: a bad config, ruleset, option, card, bot, path or
argument. It is a ValueError; its message names the key or value and what is allowed. The CLI
prints it and exits with status 2; any other exception is a bug and keeps its traceback."""

from __future__ import annotations

import operator
from typing import Any

INT64_MAX = 2**63 - 1  # seeds, indices and counts go to the kernels as int64


class UserError(ValueError):
    pass


def check_count(name: str, value: Any, minimum: int = 0) -> int:
    """``value`` as an int from ``minimum`` to INT64_MAX, else a UserError naming it."""
    try:
        number = operator.index(value) if not isinstance(value, bool) else None
    except TypeError:
        number = None
    if number is None or not minimum <= number <= INT64_MAX:
        raise UserError(f"{name} = {value!r} is not allowed; use an integer from {minimum} to {INT64_MAX}")
    return number
