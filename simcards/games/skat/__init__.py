"""Skat (docs/rules.md, skat): so far its public scoring functions. The ruleset itself (deal,
auction, Skat pickup, play, bots) is still to come and is not registered yet."""

from simcards.games.skat.scoring import BID_LADDER, game_value, matadors, settle

__all__ = ["BID_LADDER", "game_value", "matadors", "settle"]
