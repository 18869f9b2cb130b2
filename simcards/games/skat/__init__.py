"""Skat (docs/rules.md, skat): the ruleset ``skat``, its public scoring functions and the
double-dummy solver.

    from simcards.games.skat import game_value, settle, solve
"""

from simcards.games.registry import register
from simcards.games.skat.game import SkatGame
from simcards.games.skat.scoring import BID_LADDER, game_value, matadors, settle

from simcards.games.skat.solver import solve

register(SkatGame)

__all__ = ["BID_LADDER", "SkatGame", "game_value", "matadors", "settle", "solve"]
