"""Perfect play along the line the bots played in a suit or Grand game: who gave away what.

Before the first card the double-dummy value of a game is the declarer's perfect-play card
points; after the last it is what the bots' declarer took. Each card in between moves the value
(never in its player's favour: perfect play from that position would have kept it): the
declarer's cards can only lower it, the defenders' only raise it. Summed per side, those steps
say how many card points each side's play left on the table, and the two sums account exactly
for the gap between the bots' declarer points and the perfect-play ones.

Each position after a card is solved afresh with the search of _solve_kernels.py, keeping the
table of the game's first solve (the hands only lose cards along the line, so every remaining
card keeps its holder and the entries stay valid), with the value before the card as the
guess. A card that was its seat's only legal one moves nothing and is not solved. Null games
are won or lost, not scored in points: they get no losses.
"""

from __future__ import annotations

import numpy as np

from simcards._jit import driver, kernel
from simcards.cards import popcount
from simcards.engine.state import S_HAND, S_TO_MOVE
from simcards.games.skat._kernels import S_DECLARER, apply_card, legal_mask
from simcards.games.skat._solve_kernels import (
    ALL_CARDS,
    G_CONTRACT,
    MODE_POINTS,
    X_HAND,
    X_NODES,
    game_buffers,
    set_root,
    solve_game,
    start_game,
    taken_so_far,
    value_search,
)
from simcards.games.skat.rules import N_SEATS, NULL


@kernel
def resume_solve(st, T, ctx, F):
    """The search's root at the position of ``st``, a later point of the line of the current
    solve: its table entries stay valid (no new generation)."""
    for seat in range(N_SEATS):
        ctx[X_HAND + np.uint64(seat)] = st[S_HAND + seat]
    set_root(st, T, ctx, F)


@kernel
def follow_line(st, T, ctx, tt, F, trace, value, lost):
    """Play the cards of ``trace`` (in play order, -1 after the last) from the start of a suit or
    Grand game whose perfect-play points are ``value``; into ``lost[0]`` the card points the
    declarer's cards gave away (at each, the value before it minus the value after it), into
    ``lost[1]`` what the defenders' cards gave away (after minus before)."""
    lost[0] = 0
    lost[1] = 0
    for i in range(trace.shape[0]):
        card = trace[i]
        if card < 0:
            break
        declarer_moves = st[S_TO_MOVE] == st[S_DECLARER]
        forced = popcount(legal_mask(st, T)) == 1
        if apply_card(st, card, T):
            break  # the last card: every card of the last trick is forced
        if forced:
            continue
        resume_solve(st, T, ctx, F)
        taken = taken_so_far(st, T, MODE_POINTS)
        after = taken + value_search(ctx, tt, T, F, MODE_POINTS, 1, value - taken, ALL_CARDS)
        if declarer_moves:
            lost[0] += value - after
        else:
            lost[1] += after - value
        value = after


@driver
def solve_lines(games, traces, T, points, wins, nodes, lost):
    """`solve_games` (``points``, ``wins``, ``nodes``) of the games of ``games`` and, for the
    suit and Grand games, ``lost[k]``: the card points the declarer's play (0) and the
    defenders' play (1) of ``traces[k]`` (the game's cards in play order, -1 after the last)
    gave away against perfect play (-1 both in Null). The bots' declarer points are
    ``points[k] - lost[k, 0] + lost[k, 1]``; ``nodes`` counts the whole line's solves."""
    ctx, tt, F, st, hands, res = game_buffers()
    for k in range(games.shape[0]):
        start_game(games[k], T, ctx, tt, F, st, hands)
        before = ctx[X_NODES]
        points[k], wins[k] = solve_game(games[k], T, ctx, tt, F, res)
        if games[k, G_CONTRACT] == NULL:
            lost[k, 0] = -1
            lost[k, 1] = -1
        else:
            follow_line(st, T, ctx, tt, F, traces[k], points[k], lost[k])
        nodes[k] = ctx[X_NODES] - before
