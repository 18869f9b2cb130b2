"""Klaverjassen, Rotterdam and Amsterdam rules (RULES.md section 1)."""

from simcards.games.klaverjas.game import KlaverjasAmsterdam, KlaverjasRotterdam
from simcards.games.registry import register

register(KlaverjasRotterdam, KlaverjasAmsterdam)
