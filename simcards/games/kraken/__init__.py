"""Kraken, Klaverjassen with bids on the outcome: contra matches and the scoreboard game
(RULES.md sections 2 and 3)."""

from simcards.games.kraken.game import KrakenContra, KrakenScorebord
from simcards.games.registry import register

register(KrakenContra, KrakenScorebord)
