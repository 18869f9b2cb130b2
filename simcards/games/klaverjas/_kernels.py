"""Klaverjassen rules as Numba kernels: legal moves, applying a card, roem, pit, nat, score.

A deal in progress is one int64 array in the shared layout (simcards/engine/state.py) with the
game's own slots from S_GAME on. The batch loop (_play.py) and the interactive `State`
(game.py) both advance it with `apply_card`, so there is one implementation of the rules. Bots
read only the public slots and their own hand.

The contract index of the trick tables is the trump suit, and a card id is suit * 8 + rank, so
the per-card kernels find effective suits and who beats whom by arithmetic (`trick_suit`,
`card_beats`, `cards_beating`): that fast path equals the shared table kernels of
simcards/engine/trick.py (`eff_suit`, `beats`, `beating_mask`), which a property test checks
card by card (tests/test_klaverjas_properties.py).
"""

from __future__ import annotations

import numpy as np

from simcards._jit import hot, kernel
from simcards.cards import lowest_bit_index
from simcards.engine.state import (  # re-exported: the header every game shares
    S_CONTRACT,
    S_DEALER,
    S_DECLARER,
    S_GAME,
    S_HAND,
    S_LAST_WINNER,
    S_LEADER,
    S_N_PLAYED,
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
from simcards.engine.trick import TRUMP, eff_suit
from simcards.games.klaverjas.rules import (
    LAST_TRICK_BONUS,
    PLAIN_HIGHER,
    R_AMSTERDAM,
    R_DEFENDERS_PIT,
    R_PIT_BONUS,
    R_TABLE_ROEM,
    STUK_VALUE,
    T_HAND_FOUR,
    T_HAND_RUN,
    T_HIGHER,
    T_POINTS,
    T_POWER,
    T_RULES,
    T_STUK,
    T_TABLE_FOUR,
    T_TABLE_RUN,
    TOTAL_CARD_POINTS,
)

# ---- deal state: the shared header (simcards/engine/state.py), then Klaverjassen's own slots
S_TRUMP = S_CONTRACT  # the contract is the trump suit
S_POINTS = S_GAME  # 2 slots: card points per team (last-trick bonus included)
S_ROEM = S_GAME + 2  # 2 slots: table roem per team (pit bonus included at the end)
S_TRICKS = S_GAME + 4  # 2 slots: tricks per team
# What the play shows about each seat, kept only when a bot at the table reads it (the pimc
# bot's samples, _pimc.py) or in an interactive deal: `record_shown`
S_SHOWS = S_GAME + 6  # 1: keep the two blocks below
S_PLAYED_BY = S_GAME + 7  # 4 slots: the cards each seat has played
S_NOT_HELD = S_GAME + 11  # 4 slots: cards each seat has shown it cannot hold (`shown_not_held`)
# What the bidding after trump showed, for pimc's samples: 0 when nothing is known (Klaverjassen
# has no bids); a game with bids packs its record here (Kraken: kraken/_play.py, `pack_bidding`)
S_BIDDING = S_GAME + 15
STATE_SIZE = S_GAME + 16

__all__ = ["S_DEALER", "S_DECLARER", "S_HAND", "S_LAST_WINNER", "S_LEADER", "S_N_PLAYED",
           "S_PLAYED", "S_TO_MOVE", "S_TRICK", "S_TRICK_NO", "S_VOIDS", "S_WIN_POS"]

N_TRICKS = 8

# The per-card kernels read small values back from the state masked to their range (`& 3` for
# seats, trick positions and the trump suit, `& 31` for cards). The masks change no value, but
# they let LLVM see that the indices built from them are not negative, so it drops Numba's
# negative-index fix-up on every array access (13% of the instructions of a random deal).


@kernel
def rule(T, slot):
    return T[T_RULES + slot]


@kernel
def card_points(T, trump, card):
    return T[T_POINTS + trump * 32 + card]


@kernel
def new_state(st, hands, dealer, trump, declarer):
    """Start the play of a deal in ``st`` (forehand leads); the declaring party is the
    declarer's team."""
    party = np.int64(0b0101) << (declarer & 1)
    start_play(st, hands, 4, dealer, (dealer + 1) & 3, trump, declarer, party)


# ---- card facts by arithmetic: a card id is suit * 8 + rank, and the contract is the trump suit,
# so the effective suit needs no table look-up (same values as the eff_suit / suit_masks blocks)


@hot
def trick_suit(trump, card):
    """Effective suit of ``card``: its printed suit, or TRUMP."""
    suit = card >> 3
    return TRUMP if suit == trump else suit


@hot
def suit_cards(suit):
    """Mask of the eight cards of a printed suit (the trumps when ``suit`` is the trump suit)."""
    return np.int64(0xFF) << (8 * suit)


@hot
def card_beats(card, best, trump, T):
    """`simcards.engine.trick.beats` for Klaverjassen: does ``card``, played after ``best``, take the trick?
    Both powers are read and the cases combined with & and |, so it compiles without a branch:
    in random play the outcome is a coin flip, and a mispredicted branch per card cost 8% of
    the deal rate."""
    suit = trick_suit(trump, card)
    base = T_POWER + 32 * trump
    stronger = T[base + card] > T[base + best]
    return (stronger & (suit == trick_suit(trump, best))) | ((suit == TRUMP) & (best >> 3 != trump))


@hot
def cards_beating(card, trump, T):
    """Mask of every card that, played after ``card``, would take the trick from it (`beats` as
    a mask): the higher trumps of a trump, else the higher cards of its suit and every trump."""
    if card >> 3 == trump:
        return T[T_HIGHER + 32 * trump + card]
    return (PLAIN_HIGHER[card & 7] << (card & 0x38)) | suit_cards(trump)


@kernel
def best_trump_in_trick(st, T):
    """The strongest trump in the current trick, or -1 (a trump in the trick always wins it)."""
    card = st[S_TRICK + st[S_WIN_POS]]
    if st[S_N_PLAYED] > 0 and eff_suit(T, st[S_TRUMP], card) == TRUMP:
        return card
    return -1


@hot
def legal_mask(st, T):
    """Mask of the cards the seat to move may play (docs/rules.md, klaverjas-rotterdam, legal moves table)."""
    seat = st[S_TO_MOVE] & 3
    hand = st[S_HAND + seat]
    n = st[S_N_PLAYED] & 3
    if n == 0:
        return hand
    trump = st[S_TRUMP] & 3
    led = trick_suit(trump, st[S_TRICK])
    trumps = hand & suit_cards(trump)
    best = st[S_TRICK + (st[S_WIN_POS] & 3)] & 31
    higher = trumps
    if best >> 3 == trump:  # a trump in the trick: only higher trumps overtrump
        higher = trumps & T[T_HIGHER + trump * 32 + best]
    if led == TRUMP:
        if trumps == 0:
            return hand
        return higher if higher != 0 else trumps
    follow = hand & suit_cards(led)
    if follow != 0:
        return follow
    if trumps == 0:
        return hand
    if rule(T, R_AMSTERDAM) == 0:
        return higher if higher != 0 else trumps
    non_trumps = hand & ~suit_cards(trump)
    if n >= 2 and st[S_WIN_POS] == n - 2:  # partner winning: free, but no undertrumping by choice
        allowed = non_trumps | higher
        return allowed if allowed != 0 else trumps
    if higher != 0:
        return higher
    return non_trumps if non_trumps != 0 else trumps


@hot
def suit_runs(cards, T, run_table):
    """(sum of the ``run_table`` block over the four suit bytes of ``cards``, the 8-bit mask of
    the ranks ``cards`` holds in every suit): what sequence and four-of-a-kind roem read."""
    total = 0
    common = np.int64(0xFF)
    for suit in range(4):
        byte = (cards >> (8 * suit)) & 0xFF
        total += T[run_table + byte]
        common &= byte
    return total, common


@hot
def stuk_roem(cards, trump, T):
    """STUK_VALUE when ``cards`` hold the K and Q of ``trump``, else 0."""
    stuk = T[T_STUK + trump]
    return STUK_VALUE if cards & stuk == stuk else 0


@kernel
def trick_roem(trick_mask, trump, T):
    """Table roem of the cards of one trick (sequences, four of a kind, stuk)."""
    roem, common = suit_runs(trick_mask, T, T_TABLE_RUN)
    if common != 0:
        roem += T[T_TABLE_FOUR + lowest_bit_index(common)]
    return roem + stuk_roem(trick_mask, trump, T)


@kernel
def hand_melds(hand, trump, T):
    """Total of a hand's melds (docs/rules.md, kraken-contra): runs, four of a kind, stuk of ``trump``
    (no stuk when trump < 0)."""
    total, common = suit_runs(hand, T, T_HAND_RUN)
    while common != 0:
        total += T[T_HAND_FOUR + lowest_bit_index(common)]
        common &= common - 1
    return total + (stuk_roem(hand, trump, T) if trump >= 0 else 0)


@kernel
def shown_not_held(st, T, seat, card):
    """The cards ``seat`` shows it does not hold by playing ``card`` into the current trick (the
    state before the card is laid): every card c, not yet played, for which the rules would not
    let a hand of just {card, c} play ``card`` here (`legal_mask`'s own verdict, so no rule is
    restated). Sound: a hand that may play ``card`` still may once any other cards but c are
    taken out of it, so a c that forbids ``card`` on its own is not in the hand. This gives the
    voids (c of the led suit, or a trump that would have to be played) and "no trump above X"
    (an undertrump, or a seat that must trump and cannot overtrump, holds no higher trump).

    Legality of {card, c} depends on c only through its suit and whether it beats the trick's
    winning card, so one c of each such group is asked (tests/test_klaverjas_pimc.py checks every c)."""
    trump = st[S_TRUMP] & 3
    best = st[S_TRICK + (st[S_WIN_POS] & 3)] & 31
    hand = st[S_HAND + seat]
    bit = np.int64(1) << card
    candidates = np.int64(0xFFFFFFFF) & ~st[S_PLAYED] & ~bit & ~st[S_NOT_HELD + seat]
    beating = cards_beating(best, trump, T)
    out = np.int64(0)
    for suit in range(4):
        cards = candidates & suit_cards(suit)
        for side in range(2):
            group = cards & beating if side == 0 else cards & ~beating
            if group != 0:
                st[S_HAND + seat] = bit | (group & -group)
                if legal_mask(st, T) & bit == 0:
                    out |= group
    st[S_HAND + seat] = hand
    return out


@kernel
def record_shown(st, T, seat, n, card):
    """What ``card``, about to be laid by ``seat`` as card ``n`` of the trick, shows: it is a
    card the seat played, and (`shown_not_held`) which cards it cannot hold. Only a card that
    does not follow the led suit, or a trump under the trick's winning trump, can show any."""
    st[S_PLAYED_BY + seat] |= np.int64(1) << card
    if n == 0:
        return
    trump = st[S_TRUMP] & 3
    led = trick_suit(trump, st[S_TRICK])
    plain = trick_suit(trump, card)
    best = st[S_TRICK + (st[S_WIN_POS] & 3)] & 31
    if plain != led or (plain == TRUMP and not card_beats(card, best, trump, T)):
        st[S_NOT_HELD + seat] |= shown_not_held(st, T, seat, card)


@hot
def apply_card(st, card, T):
    """Play ``card`` for the seat to move (the caller has checked it is legal). Completes the
    trick when it is the fourth card; returns True when that ended the deal."""
    seat = st[S_TO_MOVE] & 3
    n = st[S_N_PLAYED] & 3
    trump = st[S_TRUMP] & 3
    card = card & 31
    if st[S_SHOWS] != 0:
        record_shown(st, T, seat, n, card)
    if n == 0:
        st[S_WIN_POS] = 0
    else:
        led = trick_suit(trump, st[S_TRICK])
        plain = trick_suit(trump, card)
        win_pos = st[S_WIN_POS] & 3
        best = st[S_TRICK + win_pos] & 31
        if plain != led:
            st[S_VOIDS + seat] |= np.int64(1) << led
            # playing a plain card when forced to trump shows a void in trumps: always in
            # Rotterdam; in Amsterdam when no trump lies in the trick yet and an opponent leads it
            if led != TRUMP and plain != TRUMP:
                forced = rule(T, R_AMSTERDAM) == 0
                if not forced and best >> 3 != trump:
                    forced = not (n >= 2 and win_pos == n - 2)
                if forced:
                    st[S_VOIDS + seat] |= np.int64(1) << TRUMP
        st[S_WIN_POS] = n if card_beats(card, best, trump, T) else win_pos  # (a select)
    if not lay_card(st, seat, n, card, 4):
        return False
    return complete_trick(st, T)


@hot
def complete_trick(st, T):
    trump = st[S_TRUMP] & 3
    leader = st[S_LEADER]
    winner = (leader + st[S_WIN_POS]) & 3
    team = winner & 1
    points = 0
    mask = np.int64(0)
    for i in range(4):
        card = st[S_TRICK + i] & 31
        points += card_points(T, trump, card)
        mask |= np.int64(1) << card
    last = st[S_TRICK_NO] == N_TRICKS - 1
    if last:
        points += LAST_TRICK_BONUS
    st[S_POINTS + team] += points
    if rule(T, R_TABLE_ROEM) != 0:
        st[S_ROEM + team] += trick_roem(mask, trump, T)
    st[S_TRICKS + team] += 1
    close_trick(st, winner)
    if last:
        award_pit(st, T)
        return True
    return False


@kernel
def award_pit(st, T):
    """Pit bonus as roem for a team that took every trick (defenders only if allowed)."""
    for team in range(2):
        if st[S_TRICKS + team] == N_TRICKS:
            if team == (st[S_DECLARER] & 1) or rule(T, R_DEFENDERS_PIT) != 0:
                st[S_ROEM + team] += rule(T, R_PIT_BONUS)


@kernel
def is_nat(playing_total, other_total, nat_on_tie):
    """Does the playing team, with these totals (points plus roem), go nat?"""
    if nat_on_tie != 0:
        return playing_total <= other_total
    return playing_total < other_total


@kernel
def klaverjas_score(points, roem, declarer_team, nat_on_tie, out):
    """Per-deal score of plain Klaverjassen into ``out[0:2]``; returns True when nat.
    A nat team scores 0 and the other team 162 plus all roem."""
    playing = declarer_team
    other = 1 - playing
    nat = is_nat(points[playing] + roem[playing], points[other] + roem[other], nat_on_tie)
    if nat:
        out[playing] = 0
        out[other] = TOTAL_CARD_POINTS + roem[0] + roem[1]
    else:
        out[0] = points[0] + roem[0]
        out[1] = points[1] + roem[1]
    return nat
