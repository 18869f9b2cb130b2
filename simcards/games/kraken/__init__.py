"""Kraken, Klaverjassen with bids on the outcome: contra matches and the scoreboard game
(docs/rules.md, kraken-contra and kraken-scorebord)."""

from simcards.games.kraken.game import KrakenContra, KrakenScorebord
from simcards.games.registry import register

register(KrakenContra, KrakenScorebord)
