"""Klaverjassen, Rotterdam and Amsterdam rules (docs/rules.md, klaverjas-rotterdam)."""

from simcards.games.klaverjas.game import KlaverjasAmsterdam, KlaverjasRotterdam
from simcards.games.registry import register

register(KlaverjasRotterdam, KlaverjasAmsterdam)
