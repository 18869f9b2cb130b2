"""Hartenjagen (Dutch) and Hearts (American): RULES.md sections 4 and 5."""

from simcards.games.hearts.game import Hartenjagen, Hearts
from simcards.games.registry import register

register(Hartenjagen, Hearts)
