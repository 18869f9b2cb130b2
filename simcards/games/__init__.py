"""The games: one folder per game, each registering its rulesets, and the registry API.

Adding a ruleset is adding its folder (see README, "Adding a ruleset") and one line below.
"""

from simcards.games.registry import game_class, load, register, rulesets, unregister

from simcards.games import klaverjas  # noqa: E402, F401  klaverjas-rotterdam, klaverjas-amsterdam
from simcards.games import kraken  # noqa: E402, F401  kraken-contra, kraken-scorebord
from simcards.games import hearts  # noqa: E402, F401  hartenjagen, hearts
from simcards.games import skat  # noqa: E402, F401  skat
from simcards.games import doppelkopf  # noqa: E402, F401  doppelkopf

__all__ = ["game_class", "load", "register", "rulesets", "unregister"]
