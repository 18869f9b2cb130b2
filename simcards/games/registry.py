"""The ruleset registry. A game folder registers its `Game` classes with `register` when it is
imported; `simcards/games/__init__.py` imports each game folder in one line."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from simcards.errors import UserError

if TYPE_CHECKING:  # the registry sits below the protocol: it only holds the classes
    from simcards.games.protocol import Game

_GAMES: dict[str, type[Game]] = {}


def register(*classes: type[Game]) -> None:
    """Make rulesets loadable by name (a name registered twice must be the same class)."""
    for cls in classes:
        known = _GAMES.get(cls.name)
        if known is not None and known is not cls:
            raise ValueError(f"ruleset name {cls.name!r} is registered twice")
        _GAMES[cls.name] = cls


def unregister(name: str) -> None:
    """Forget a ruleset (for tests that register a toy one)."""
    _GAMES.pop(name, None)


def rulesets() -> list[str]:
    """Names of every ruleset, sorted."""
    return sorted(_GAMES)


def game_class(name: str) -> type[Game]:
    try:
        return _GAMES[name]
    except (KeyError, TypeError):
        raise UserError(f"unknown ruleset {name!r}; rulesets are {', '.join(rulesets())}") from None


def load(name: str, **options: Any) -> Game:
    """A ruleset with its options (ValueError naming any unknown ruleset or option)."""
    return game_class(name)(**options)


def solver_rulesets() -> list[str]:
    """The registered rulesets with a double-dummy solver (``Game.solver``)."""
    return [name for name in rulesets() if _GAMES[name].solver is not None]


def require_solver(game, asked_by: str = "--perfect-play") -> None:
    """UserError unless ``game`` has a double-dummy solver; ``asked_by`` names what needs it."""
    if game.solver is None:
        raise UserError(f"{asked_by}: {game.name} has no double-dummy solver to play it "
                        f"perfectly; rulesets with one: {', '.join(solver_rulesets())}")
