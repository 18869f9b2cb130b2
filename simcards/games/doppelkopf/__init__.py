"""Doppelkopf (docs/rules.md, doppelkopf): the ruleset `doppelkopf` (DDV tournament rules) and
its settlement as the public pure function `settle`."""

from simcards.games.doppelkopf.game import Doppelkopf
from simcards.games.doppelkopf.scoring import ANNOUNCEMENTS, settle
from simcards.games.registry import register

register(Doppelkopf)

__all__ = ["ANNOUNCEMENTS", "Doppelkopf", "settle"]
