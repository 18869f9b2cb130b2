"""Doppelkopf (docs/rules.md, doppelkopf): the DDV tournament rules' settlement as the public
pure function `settle`."""

from simcards.games.doppelkopf.scoring import ANNOUNCEMENTS, settle

__all__ = ["ANNOUNCEMENTS", "settle"]
