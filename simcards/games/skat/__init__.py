"""Skat (docs/rules.md, skat): the ruleset ``skat`` and its public scoring functions.

    from simcards.games.skat import game_value, settle
"""

from simcards.games.registry import register
from simcards.games.skat.game import SkatGame
from simcards.games.skat.scoring import BID_LADDER, game_value, matadors, settle

register(SkatGame)

__all__ = ["BID_LADDER", "SkatGame", "game_value", "matadors", "settle"]
