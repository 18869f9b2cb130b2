"""Perfect play along the line the bots played: who gave away what.

Before the first card the double-dummy value of a deal is its perfect-play margin; after the
last it is the margin the bots reached. Each card in between moves the value (never in the
player's favour: perfect play from that position would have kept it): the declaring party's
cards can only lower it, the other party's only raise it. Summing those steps per party says
how many points each party's card play left on the table, and the two sums account exactly for
the gap between the bots' margin and the perfect-play one.

Each position after a card is solved afresh with the search of _solve_kernels.py, the table of
the deal's first solve kept (the hands do not change along the line, so its entries stay
valid) and the value before the card as the guess: the whole line adds about a third to the
first solve. A card that was the seat's only legal one moves nothing and is not solved.
"""

from __future__ import annotations

from simcards._jit import driver
from simcards.cards import popcount
from simcards.engine.state import S_PARTY, S_TO_MOVE
from simcards.games.klaverjas._kernels import apply_card, legal_mask
from simcards.games.klaverjas._solve_kernels import (
    ALL_CARDS,
    begin_solve,
    mtdf_search,
    played_margin,
    search_buffers,
    start_deal,
)


@driver
def solve_lines(hands, dealers, trumps, declarers, end_bonus, traces, T, margins, lost):
    """Deal ``k`` as in `solve_deals` (hands, dealer, trump, declarer, ``end_bonus[k]``) and
    ``traces[k]``, its cards in play order (-1 after the last): the perfect-play margin at the
    start of play into ``margins[k]``; into ``lost[k, 0]`` the margin the declaring party's cards
    gave away (at each of its cards, the value before the card minus the value after it), into
    ``lost[k, 1]`` what the other party's cards gave away (the value after minus before). The
    bots' margin is ``margins[k] - lost[k, 0] + lost[k, 1]``."""
    ctx, tt, frames, st, scratch = search_buffers()
    for k in range(hands.shape[0]):
        start_deal(st, T, ctx, hands[k], dealers[k], trumps[k], declarers[k], end_bonus[k])
        begin_solve(ctx, tt, frames)
        value = played_margin(st, T, ctx) + mtdf_search(st, T, ctx, tt, scratch, frames, 0, ALL_CARDS)
        margins[k] = value
        lost[k, 0] = 0
        lost[k, 1] = 0
        for i in range(traces.shape[1]):
            card = traces[k, i]
            if card < 0:
                break
            seat = st[S_TO_MOVE] & 3
            declaring = (st[S_PARTY] >> seat) & 1
            forced = popcount(legal_mask(st, T)) == 1
            if apply_card(st, card, T):
                break  # the last card: every card of the last trick is forced
            if forced:
                continue
            base = played_margin(st, T, ctx)
            after = base + mtdf_search(st, T, ctx, tt, scratch, frames, value - base, ALL_CARDS)
            if declaring:
                lost[k, 0] += value - after
            else:
                lost[k, 1] += after - value
            value = after
