"""Skat (docs/rules.md, skat): the ruleset ``skat``, its public scoring functions and the
double-dummy solver.

    from simcards.games.skat import game_value, settle, solve
"""

from simcards.games.registry import register
from simcards.games.skat.game import SkatGame
from simcards.games.skat.scoring import BID_LADDER, game_value, matadors, settle

register(SkatGame)

# the double-dummy solver (the function, not its module: `from simcards.games.skat import solve`)
from simcards.games.skat.solve import solve  # noqa: E402

__all__ = ["BID_LADDER", "SkatGame", "game_value", "matadors", "settle", "solve"]
