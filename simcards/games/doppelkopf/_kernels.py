"""Doppelkopf rules as Numba kernels: the deal state, legal moves, applying a card (tricks,
Augen, the marriage's clarifying trick, special-point events, parties revealed), announcements
with their deadlines, and the settlement (the kernel twin of scoring.settle).

A deal in progress is one int64 array: the shared header and contract record of
simcards/engine/state.py (``S_CONTRACT`` the card order, ``S_DECLARER`` the soloist or the
marriage holder, ``S_PARTY`` the mask of the Re seats, known to the kernel from the start but
hidden from the bots), then the Doppelkopf slots below. The batch loop (_play.py) and the
interactive `DoppelkopfState` (game.py) both advance it with `apply_card` and `make_call`.
Bots read only the public slots (``S_REV_RE``/``S_REV_KO``: seats shown to be Re / Kontra by a
club queen played, an announcement or a declared game) and their own hand.
"""

from __future__ import annotations

import numpy as np

from simcards._jit import hot, kernel
from simcards.cards import popcount
from simcards.engine.state import (  # noqa: F401  re-exported for the bots and the play loop
    S_CONTRACT,
    S_DEALER,
    S_DECLARER,
    S_GAME,
    S_HAND,
    S_LAST_WINNER,
    S_LEADER,
    S_N_PLAYED,
    S_PARTY,
    S_PLAYED,
    S_TO_MOVE,
    S_TRICK,
    S_TRICK_NO,
    S_VOIDS,
    S_WIN_POS,
    close_trick,
    lay_card,
    start_play,
)
from simcards.engine.trick import TRUMP, beats, eff_suit, suit_mask
from simcards.games.doppelkopf.rules import (
    FOX_MASK,
    G_FIRST_SOLO,
    G_MARRIAGE,
    G_MARRIAGE_ALONE,
    G_NORMAL,
    G_SILENT_MARRIAGE,
    JC_MASK,
    N_TRICKS,
    NORMAL,
    QC_MASK,
    R_SECOND_TEN,
    T_POINTS,
    T_RULES,
    TEN_H,
)

# ---- the Doppelkopf slots
S_AUGEN = S_GAME  # 4: Augen taken per seat
S_TRICKS = S_AUGEN + 4  # 4: tricks taken per seat
S_GAME_TYPE = S_TRICKS + 4
S_SOLO = S_GAME_TYPE + 1  # 1 when the deal is scored as a solo
S_LEVEL = S_SOLO + 1  # 2: announcement level of Re, Kontra (-1 none, 0 Re/Kontra, 1..4 no 90..schwarz)
S_ANN_CARDS = S_LEVEL + 2  # 10: cards the announcer held, per call (party * 5 + level), -1 not made
S_ANN_SEAT = S_ANN_CARDS + 10  # 10: who made each call, -1 not made
S_SHIFT = S_ANN_SEAT + 10  # card counts of the deadlines drop by this (a late-clarified marriage)
S_MARRIAGE_OPEN = S_SHIFT + 1  # 1 while an announced marriage awaits its clarifying trick
S_CLARIFY = S_MARRIAGE_OPEN + 1  # the clarifying trick (1..3), 0 none
S_REV_RE = S_CLARIFY + 1  # seats publicly shown to be Re
S_REV_KO = S_REV_RE + 1  # seats publicly shown to be Kontra
S_FOX_WINNER = S_REV_KO + 1  # 2: per fox (by copy) the seat that took it, -1 not yet played
S_FOX_PLAYER = S_FOX_WINNER + 2  # 2: the seat that played it
S_DK = S_FOX_PLAYER + 2  # 4: Doppelkopf tricks (40 Augen or more) per seat
S_KARLCHEN = S_DK + 4  # seat whose J of clubs won the last trick, -1 none
S_EST = S_KARLCHEN + 1  # 4: each seat's estimate behind its announcements (whole Augen)
STATE_SIZE = S_EST + 4

RE, KONTRA = 0, 1
BASE_DEADLINE = 11  # cards needed for Re/Kontra; each Absage level one fewer
WINNER_NONE, WINNER_RE, WINNER_KONTRA = 0, 1, 2


@kernel
def contract_of(game_type):
    """Trick-table row of a game type (rules.py)."""
    if game_type >= G_FIRST_SOLO:
        return game_type - G_FIRST_SOLO + 1
    return NORMAL  # normal, marriage (alone), silent marriage: the normal order


@kernel
def is_solo_type(game_type):
    return game_type >= G_FIRST_SOLO or game_type == G_SILENT_MARRIAGE or game_type == G_MARRIAGE_ALONE


@kernel
def new_state(st, hands, dealer, game_type, declarer, leader, T):
    """Set up the play of a deal of ``game_type``; ``declarer`` is the soloist or the marriage
    holder (-1 in a normal game)."""
    contract = contract_of(game_type)
    if game_type == G_NORMAL:
        party = np.int64(0)
        for seat in range(4):
            if hands[seat] & QC_MASK:
                party |= np.int64(1) << seat
    else:
        party = np.int64(1) << declarer
    start_play(st, hands, 4, dealer, leader, contract, declarer, party)
    st[S_GAME_TYPE] = game_type
    st[S_SOLO] = 1 if is_solo_type(game_type) else 0
    st[S_LEVEL] = -1
    st[S_LEVEL + 1] = -1
    for k in range(10):
        st[S_ANN_CARDS + k] = -1
        st[S_ANN_SEAT + k] = -1
    for k in range(2):
        st[S_FOX_WINNER + k] = -1
        st[S_FOX_PLAYER + k] = -1
    st[S_KARLCHEN] = -1
    if game_type >= G_FIRST_SOLO:  # a declared solo is public
        st[S_REV_RE] = party
        st[S_REV_KO] = 15 & ~party
    elif game_type == G_MARRIAGE:
        st[S_REV_RE] = party
        st[S_MARRIAGE_OPEN] = 1


@hot
def legal_mask(st, T):
    hand = st[S_HAND + (st[S_TO_MOVE] & 3)]
    if st[S_N_PLAYED] == 0:
        return hand
    contract = st[S_CONTRACT]
    same = hand & suit_mask(T, contract, eff_suit(T, contract, st[S_TRICK]))
    return same if same != 0 else hand


@hot
def takes_over(card, best, T, contract):
    """Does ``card``, played after ``best``, win the trick from it? The first of two identical
    cards wins, except the second 10 of hearts with ``second_heart_ten_wins``."""
    if (T[T_RULES + R_SECOND_TEN] != 0 and (TEN_H >> card) & 1 and (TEN_H >> best) & 1
            and eff_suit(T, contract, card) == TRUMP):
        return True
    return beats(card, best, T, contract)


@hot
def apply_card(st, card, T):
    """Play ``card`` for the seat to move (the caller has checked it is legal). Completes the
    trick when it is the fourth card; returns True when that ended the deal."""
    seat = st[S_TO_MOVE] & 3
    n = st[S_N_PLAYED]
    contract = st[S_CONTRACT]
    if n == 0:
        st[S_WIN_POS] = 0
    else:
        led = eff_suit(T, contract, st[S_TRICK])
        if eff_suit(T, contract, card) != led:
            st[S_VOIDS + seat] |= np.int64(1) << led
        if takes_over(card, st[S_TRICK + st[S_WIN_POS]], T, contract):
            st[S_WIN_POS] = n
    if contract == NORMAL and (QC_MASK >> card) & 1:
        st[S_REV_RE] |= np.int64(1) << seat  # a club queen shows its player to be Re
    if not lay_card(st, seat, n, card, 4):
        return False
    return complete_trick(st, T)


@kernel
def complete_trick(st, T):
    leader = st[S_LEADER]
    winner = (leader + st[S_WIN_POS]) & 3
    augen = 0
    for i in range(4):
        card = st[S_TRICK + i]
        augen += T[T_POINTS + card]
        if (FOX_MASK >> card) & 1:
            copy = card // 24
            st[S_FOX_WINNER + copy] = winner
            st[S_FOX_PLAYER + copy] = (leader + i) & 3
    st[S_AUGEN + winner] += augen
    st[S_TRICKS + winner] += 1
    if augen >= 40:
        st[S_DK + winner] += 1
    if st[S_TRICK_NO] == N_TRICKS - 1 and (JC_MASK >> st[S_TRICK + st[S_WIN_POS]]) & 1:
        st[S_KARLCHEN] = winner
    close_trick(st, winner)
    done = st[S_TRICK_NO]
    if st[S_MARRIAGE_OPEN] != 0:
        holder = st[S_DECLARER]
        if winner != holder:  # the clarifying trick: its winner is the holder's partner
            st[S_PARTY] |= np.int64(1) << winner
            st[S_CLARIFY] = done
            st[S_MARRIAGE_OPEN] = 0
            st[S_SHIFT] = done - 1
            st[S_REV_RE] = st[S_PARTY]
            st[S_REV_KO] = 15 & ~st[S_PARTY]
        elif done == 3:  # nobody else took tricks 1-3: the holder plays alone
            st[S_GAME_TYPE] = G_MARRIAGE_ALONE
            st[S_SOLO] = 1
            st[S_MARRIAGE_OPEN] = 0
            st[S_SHIFT] = 2
            st[S_REV_KO] = 15 & ~st[S_PARTY]
    return done == N_TRICKS


@kernel
def is_over(st):
    return st[S_TRICK_NO] == N_TRICKS


# ------------------------------------------------------------ announcements


@kernel
def party_of(st, seat):
    return RE if (st[S_PARTY] >> seat) & 1 else KONTRA


@kernel
def call_in_time(st, seat, level):
    """May ``seat`` raise its party's announcement to ``level`` (0 Re/Kontra, 1..4 no 90 ..
    schwarz) now? Every level passed over must still be in time (RULES.md section 8)."""
    if st[S_MARRIAGE_OPEN] != 0 or level > 4:
        return False
    party = party_of(st, seat)
    current = st[S_LEVEL + party]
    if level <= current:
        return False
    other = st[S_LEVEL + 1 - party]
    cards = popcount(st[S_HAND + seat])
    shift = st[S_SHIFT]
    for k in range(current + 1, level + 1):
        needed = BASE_DEADLINE - k - shift
        if k == 0 and other >= 0:  # a reply: one card fewer than the other party's call needed
            needed = min(needed, BASE_DEADLINE - other - shift - 1)
        if cards < needed:
            return False
    return True


@kernel
def make_call(st, seat, level):
    """Raise the party of ``seat`` to ``level`` (the caller checked `call_in_time`); each level
    passed over counts too and records the cards the announcer held."""
    party = party_of(st, seat)
    cards = popcount(st[S_HAND + seat])
    for k in range(st[S_LEVEL + party] + 1, level + 1):
        st[S_ANN_CARDS + party * 5 + k] = cards
        st[S_ANN_SEAT + party * 5 + k] = seat
    st[S_LEVEL + party] = level
    if party == RE:
        st[S_REV_RE] |= np.int64(1) << seat
    else:
        st[S_REV_KO] |= np.int64(1) << seat


# ------------------------------------------------------------ settlement

OWN_TARGET = (0, 151, 181, 211)
AGAINST_TARGET = (0, 90, 60, 30)
AGAINST_ITEM = (0, 120, 90, 60, 30)


@kernel
def _wins(level, other_level, augen, tricks):
    if level >= 1:
        if level == 4:
            if tricks != N_TRICKS:
                return False
        elif augen < OWN_TARGET[level]:
            return False
    if other_level >= 1:
        if other_level == 4:
            return tricks >= 1
        return augen >= AGAINST_TARGET[other_level]
    return True


@kernel
def _side_items(augen, other_augen, other_tricks, other_level):
    """A side's below-90/60/30/schwarz and against items."""
    points = 0
    if other_augen < 90:
        points += 1
    if other_augen < 60:
        points += 1
    if other_augen < 30:
        points += 1
    if other_tricks == 0:
        points += 1
    for k in range(1, other_level + 1):
        if augen >= AGAINST_ITEM[k]:
            points += 1
    return points


@kernel
def settle_value(re_augen, re_tricks, re_level, ko_level, re_specials, ko_specials, solo):
    """(winner 0 none / 1 Re / 2 Kontra, Re's unit score): scoring.settle in the kernel.
    ``re_specials``/``ko_specials``: foxes caught, Doppelkopf and Karlchen of each party."""
    ko_augen = 240 - re_augen
    ko_tricks = N_TRICKS - re_tricks
    if re_level < 1 and ko_level < 1:
        need = 120 if (ko_level == 0 and re_level < 0) else 121
        winner = WINNER_RE if re_augen >= need else WINNER_KONTRA
    elif _wins(re_level, ko_level, re_augen, re_tricks):
        winner = WINNER_RE
    elif _wins(ko_level, re_level, ko_augen, ko_tricks):
        winner = WINNER_KONTRA
    else:
        winner = WINNER_NONE
    re_items = _side_items(re_augen, ko_augen, ko_tricks, ko_level)
    ko_items = _side_items(ko_augen, re_augen, re_tricks, re_level)
    if winner == WINNER_NONE:
        return winner, re_items - ko_items
    # won 1, Re and Kontra announced 2 each, every Absage of either party 1
    base = 1 + (2 if re_level >= 0 else 0) + (2 if ko_level >= 0 else 0) + max(re_level, 0) \
        + max(ko_level, 0)
    specials = 0
    if solo == 0:
        specials = re_specials - ko_specials - (1 if winner == WINNER_KONTRA else 0)
    if winner == WINNER_RE:
        return winner, base + re_items + specials
    return winner, -(base + ko_items) + specials


@kernel
def special_counts(st, out):
    """Special-point events per party into ``out``: foxes caught by Re, by Kontra, Doppelkopf
    of Re, of Kontra, Karlchen of Re, of Kontra; all 0 in a solo, which has none."""
    for k in range(6):
        out[k] = 0
    if st[S_SOLO] != 0:
        return
    party = st[S_PARTY]
    for copy in range(2):
        winner = st[S_FOX_WINNER + copy]
        if winner >= 0:
            w_re = (party >> winner) & 1
            if w_re != (party >> st[S_FOX_PLAYER + copy]) & 1:
                out[0 if w_re else 1] += 1
    for seat in range(4):
        out[2 if (party >> seat) & 1 else 3] += st[S_DK + seat]
    karl = st[S_KARLCHEN]
    if karl >= 0:
        out[4 if (party >> karl) & 1 else 5] += 1


@kernel
def party_totals(st):
    """(Re Augen, Re tricks) of the deal so far."""
    augen = 0
    tricks = 0
    party = st[S_PARTY]
    for seat in range(4):
        if (party >> seat) & 1:
            augen += st[S_AUGEN + seat]
            tricks += st[S_TRICKS + seat]
    return augen, tricks


@kernel
def settle_deal(st, specials, scores):
    """Settle a finished deal: ``specials`` (6, see `special_counts`) and each seat's score
    into ``scores``; returns (winner, Re's unit score)."""
    special_counts(st, specials)
    re_augen, re_tricks = party_totals(st)
    winner, value = settle_value(re_augen, re_tricks, st[S_LEVEL], st[S_LEVEL + 1],
                                 specials[0] + specials[2] + specials[4],
                                 specials[1] + specials[3] + specials[5], st[S_SOLO])
    party = st[S_PARTY]
    solo = st[S_SOLO] != 0
    for seat in range(4):
        if (party >> seat) & 1:
            scores[seat] = 3 * value if solo else value
        else:
            scores[seat] = -value
    return winner, value
