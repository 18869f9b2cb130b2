"""The ruleset registry: `rulesets()` and `load(name, **options)`."""

from __future__ import annotations

from typing import Any

from simcards.errors import UserError
from simcards.games.base import Game
from simcards.games.hearts.game import Hartenjagen, Hearts
from simcards.games.klaverjas.game import KlaverjasAmsterdam, KlaverjasRotterdam
from simcards.games.kraken.game import KrakenContra, KrakenScorebord

_GAMES: dict[str, type[Game]] = {cls.name: cls for cls in (KlaverjasRotterdam, KlaverjasAmsterdam,
                                                            Hartenjagen, Hearts,
                                                            KrakenContra, KrakenScorebord)}


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
