"""Klaverjassen, Rotterdam and Amsterdam rules (docs/rules.md, klaverjas-rotterdam), and the
double-dummy solver.

    from simcards.games.klaverjas import solve
"""

from simcards.games.klaverjas.game import KlaverjasAmsterdam, KlaverjasRotterdam
from simcards.games.klaverjas.solver import solve
from simcards.games.registry import register

register(KlaverjasRotterdam, KlaverjasAmsterdam)

__all__ = ["KlaverjasAmsterdam", "KlaverjasRotterdam", "solve"]
