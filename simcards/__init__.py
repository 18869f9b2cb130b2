"""simcards: simulate millions of deals of trick-taking card games and turn them into statistics.

    import simcards
    game = simcards.load("klaverjas-amsterdam")
    df = game.simulate(100_000, seed=7)
"""

from simcards.games import load, rulesets
from simcards.games.play import IllegalMove

__version__ = "0.1.0"
__all__ = ["IllegalMove", "load", "rulesets", "__version__"]
