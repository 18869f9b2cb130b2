"""Hartenjagen (Dutch) and Hearts (American): docs/rules.md, hartenjagen and hearts."""

from simcards.games.hearts.game import Hartenjagen, Hearts
from simcards.games.registry import register

register(Hartenjagen, Hearts)
