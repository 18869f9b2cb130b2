"""A small Numba Klaverjassen bot (docs/own-bot.md): the built-in heuristic's card, except
that it grabs a trick rich in points with its strongest winning card.

Use it in a config with::

    [[bots]]
    kind = "numba"
    entry = "mybots.fast:choose_card"
    params = { grab_points = 20 }

``choose_card`` has the built-in bots' signature: (kind, legal mask, state, rule tables, the
seat's parameter row, rng) -> card id. It reads only what its seat may know: its own hand
(``st[S_HAND + seat]``) and the public slots (trump, the trick so far): the shared ones from
`simcards.engine`, Klaverjassen's own from `simcards.games.klaverjas.family`. Its own parameter
is declared in ``PARAMS`` and sits in the row after the game's parameters.
"""

from numba import njit

from simcards.engine import S_N_PLAYED, S_TO_MOVE, S_TRICK, S_WIN_POS
from simcards.games.klaverjas import bots as kb
from simcards.games.klaverjas.family import S_TRUMP, card_points, cards_beating
from simcards.games.klaverjas.rules import T_POWER

PARAMS = (("grab_points", 20.0, "take a trick holding at least this many card points with the "
                                "strongest winning card"),)
P_GRAB = kb.N_PARAMS  # the first parameter after Klaverjassen's own


@njit
def choose_card(kind, legal, st, T, params, rng):
    seat = st[S_TO_MOVE]
    n = st[S_N_PLAYED]
    if n > 0:
        trump = st[S_TRUMP]
        points = 0
        for i in range(n):
            points += card_points(T, trump, st[S_TRICK + i])
        if points >= params[P_GRAB]:
            best = st[S_TRICK + st[S_WIN_POS]]
            winners = legal & cards_beating(best, trump, T)
            strongest, power = -1, -1
            for card in range(32):
                if winners >> card & 1 and T[T_POWER + 32 * trump + card] > power:
                    strongest, power = card, T[T_POWER + 32 * trump + card]
            if strongest >= 0:
                return strongest
    return kb.heuristic_card(seat, legal, st, T, params)


@njit
def copy_heuristic(kind, legal, st, T, params, rng):
    """The heuristic's card, as a user bot (scripts/bench.py measures the fast path with it)."""
    return kb.heuristic_card(st[S_TO_MOVE], legal, st, T, params)
