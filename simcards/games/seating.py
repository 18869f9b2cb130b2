"""Seating bots at a game: the kind ids and parameter rows the kernels take, and for a table with
user bots the game's loops rebuilt around them while it plays (`simcards.games.userbots`)."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any

from simcards.games.userbots.specs import DealNotNoted
from simcards.games.userbots.table import make_table


@contextmanager
def seated(game, bots: Any, note_deals: bool = False):
    """(kind ids, parameter rows) of ``bots`` at ``game``; with user bots, the game plays with
    its loops rebuilt around them while inside (``note_deals``: see `Table.playing`)."""
    table = None
    if not isinstance(bots, str):  # a bot name is always built in
        table = make_table(game, bots)
    if table is None:
        yield game.resolve_bots(bots)
        return
    with table.playing(note_deals) as arrays:
        yield arrays


def with_bots(game, bots: Any, work):
    """``work(kinds, params)`` with ``bots`` seated at ``game`` (`seated`). A Numba user bot's
    illegal card at a table that does not note its deals is played again with the deal hooks on
    (the same cards: every deal is regenerated), so that the error names the deal."""
    try:
        with seated(game, bots) as (kinds, params):
            return work(kinds, params)
    except DealNotNoted:
        with seated(game, bots, note_deals=True) as (kinds, params):
            return work(kinds, params)
