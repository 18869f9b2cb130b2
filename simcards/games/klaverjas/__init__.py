"""Klaverjassen, Rotterdam and Amsterdam rules (docs/rules.md, klaverjas-rotterdam)."""

from simcards.games.klaverjas.game import KlaverjasAmsterdam, KlaverjasRotterdam
from simcards.games.registry import register

register(KlaverjasRotterdam, KlaverjasAmsterdam)

# the double-dummy solver (the function, not its module: `from simcards.games.klaverjas import solve`)
from simcards.games.klaverjas.solve import solve  # noqa: E402
