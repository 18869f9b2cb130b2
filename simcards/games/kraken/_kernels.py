"""Kraken kernels on top of the Klaverjassen ones: hand-roem awarding and rule look-ups.

The play of a deal (legal moves, tricks, table roem, pit bonus) is the Klaverjassen state and
`apply_card` unchanged; the table ``T`` is the Klaverjassen table with the Kraken block appended
(rules.py), so every Klaverjassen kernel reads it as its own.
"""

from __future__ import annotations

import numpy as np

from simcards._jit import kernel
from simcards.cards import lowest_bit_index
from simcards.games.klaverjas.family import (
    N_TRICKS,
    S_DECLARER,
    S_POINTS,
    S_ROEM,
    S_TRICKS,
    S_TRUMP,
    hand_melds,
    is_nat,
    rule,
)
from simcards.games.klaverjas.rules import (
    R_DEFENDERS_PIT,
    R_NAT_ON_TIE,
    STUK_VALUE,
    T_STUK,
)
from simcards.games.kraken.rules import (
    CONTRA,
    CR_BID_MULTIPLIES,
    CR_NAT_MULTIPLIED,
    K_FOUR_KEY,
    K_RULES,
    K_RUN_KEY,
    K_SUIT_RANK,
    KEY_VALUE,
    KR_CONTRA_RULES,
    KR_NEEDS_TRICK,
    KR_PIT_BONUS,
    KR_ROUND_FLOOR,
    KR_VARIANT,
    N_CONTRA_RULES,
    SPADES,
)
from simcards.games.kraken.scoring import contra_score, scorebord_score

# slots of the `award_hand_roem` output
A_HAND, A_STUK, A_TOP_KEY, A_TOP_FOUR, A_CONTESTED = 0, 2, 4, 5, 6
AWARD_SIZE = 7


@kernel
def krule(T, slot):
    return T[K_RULES + slot]


@kernel
def hand_meld_key(hand, T):
    """(key, is_four) of the hand's single highest meld, stuk left out; key 0 without a meld.
    Keys of melds in different hands never tie (rules.py)."""
    best = np.int64(0)
    four = False
    common = np.int64(0xFF)
    for suit in range(4):
        byte = (hand >> (8 * suit)) & 0xFF
        common &= byte
        run = T[K_RUN_KEY + byte]
        if run != 0:
            key = run + T[K_SUIT_RANK + suit]
            if key > best:
                best = key
                four = False
    while common != 0:
        key = T[K_FOUR_KEY + lowest_bit_index(common)]
        if key > best:
            best = key
            four = True
        common &= common - 1
    return best, four


@kernel
def award_hand_roem(hands, trump, tricks, T, out):
    """Hand roem of a deal (docs/rules.md, kraken-contra and kraken-scorebord) from the dealt ``hands`` and the tricks
    per team: ``out[A_HAND + team]`` the awarded melds (stuk excluded), ``out[A_STUK + team]``
    stuk, ``out[A_TOP_KEY]`` the highest meld's key, ``out[A_TOP_FOUR]`` 1 when it is a four of
    a kind, ``out[A_CONTESTED]`` 1 when both teams hold a meld. Returns the team holding the
    highest meld, -1 when nobody holds one."""
    best0, four0 = hand_meld_key(hands[0], T)
    key2, four2 = hand_meld_key(hands[2], T)
    if key2 > best0:
        best0, four0 = key2, four2
    best1, four1 = hand_meld_key(hands[1], T)
    key3, four3 = hand_meld_key(hands[3], T)
    if key3 > best1:
        best1, four1 = key3, four3
    for i in range(AWARD_SIZE):
        out[i] = 0
    winner = -1
    if best0 > 0 or best1 > 0:
        winner = 0 if best0 > best1 else 1
        out[A_HAND + winner] = hand_melds(hands[winner], -1, T) + hand_melds(hands[winner + 2], -1, T)
        out[A_TOP_KEY] = best0 if winner == 0 else best1
        four = four0 if winner == 0 else four1
        out[A_TOP_FOUR] = 1 if four else 0
        out[A_CONTESTED] = 1 if (best0 > 0 and best1 > 0) else 0
    stuk = T[T_STUK + trump]
    for seat in range(4):
        if hands[seat] & stuk == stuk:
            out[A_STUK + (seat & 1)] += STUK_VALUE
    if krule(T, KR_NEEDS_TRICK) != 0:
        for team in range(2):
            if tricks[team] == 0:
                out[A_HAND + team] = 0
                out[A_STUK + team] = 0
    return winner


# ---- slots of the `settle` output (pairs are per team)
(SR_POINTS, SR_TRICKS, SR_HAND_ROEM, SR_STUK, SR_TABLE_ROEM, SR_PIT_ROEM, SR_ROEM, SR_SCORE,
 SR_CROSSES, SR_MARK) = range(0, 20, 2)
(SR_NAT, SR_BURDEN, SR_MULT, SR_BID_WON, SR_MELD_TEAM, SR_TOP_MELD, SR_TOP_FOUR, SR_CONTESTED,
 SR_PIT) = range(20, 29)
SR_WOULD_WIN = 29  # 29..31: would the team of bid level 1, 2, 3 win that bid with this play
SR_AWARD = 32  # scratch for award_hand_roem
SR_RESULT = SR_AWARD + AWARD_SIZE  # scratch for the scoring kernels
SETTLE_SIZE = SR_RESULT + 4


@kernel
def bid_team(level, playing):
    """Team that makes the bid of ``level``: odd levels the defenders, even the playing team."""
    return 1 - playing if level % 2 == 1 else playing


@kernel
def contra_made(team, level, points, roem, nat_on_tie, nat_multiplied):
    """Would ``team``, carrying the burden at bid ``level``, make it with these points?"""
    mult = np.int64(1) << level if nat_multiplied != 0 else np.int64(1)
    other = 1 - team
    return not is_nat(points[team] * mult + roem[team], points[other] * mult + roem[other], nat_on_tie)


@kernel
def settle(st, hands, level, T, res):
    """Everything a finished deal scores, into ``res`` (SR_* slots): hand roem awarding, the
    pit bonus, the nat decision, points or scoreboard entries, crosses or marks, and whether each
    bid would have been won with this play. ``st`` is the finished Klaverjassen state, ``hands``
    the dealt hands, ``level`` the bid."""
    trump = st[S_TRUMP]
    playing = st[S_DECLARER] & 1
    points = res[SR_POINTS:SR_POINTS + 2]
    tricks = res[SR_TRICKS:SR_TRICKS + 2]
    roem = res[SR_ROEM:SR_ROEM + 2]
    award = res[SR_AWARD:SR_AWARD + AWARD_SIZE]
    result = res[SR_RESULT:SR_RESULT + 4]
    for team in range(2):
        points[team] = st[S_POINTS + team]
        tricks[team] = st[S_TRICKS + team]
    res[SR_MELD_TEAM] = award_hand_roem(hands, trump, tricks, T, award)
    res[SR_TOP_MELD] = award[A_TOP_KEY] // KEY_VALUE
    res[SR_TOP_FOUR] = award[A_TOP_FOUR]
    res[SR_CONTESTED] = award[A_CONTESTED]
    res[SR_PIT] = 1 if (tricks[0] == N_TRICKS or tricks[1] == N_TRICKS) else 0
    for team in range(2):
        pit_roem = 0
        if tricks[team] == N_TRICKS and (team == playing or rule(T, R_DEFENDERS_PIT) != 0):
            pit_roem = krule(T, KR_PIT_BONUS)
        res[SR_HAND_ROEM + team] = award[A_HAND + team]
        res[SR_STUK + team] = award[A_STUK + team]
        res[SR_PIT_ROEM + team] = pit_roem
        res[SR_TABLE_ROEM + team] = st[S_ROEM + team] - pit_roem
        roem[team] = award[A_HAND + team] + award[A_STUK + team] + st[S_ROEM + team]
    nat_on_tie = rule(T, R_NAT_ON_TIE)
    contra = krule(T, KR_VARIANT) == CONTRA
    if contra:
        burden = playing if level == 0 else bid_team(level, playing)
        rules = T[K_RULES + KR_CONTRA_RULES:K_RULES + KR_CONTRA_RULES + N_CONTRA_RULES]
        nat_mult = rules[CR_NAT_MULTIPLIED]
        nat = contra_score(trump, level, burden, points, roem, tricks, rules, result)
        res[SR_MULT] = np.int64(1) << level if rules[CR_BID_MULTIPLIES] != 0 else np.int64(1)
        res[SR_BID_WON] = -1 if level == 0 else (0 if nat else 1)
        for lv in range(1, 4):
            made = contra_made(bid_team(lv, playing), lv, points, roem, nat_on_tie, nat_mult)
            res[SR_WOULD_WIN + lv - 1] = 1 if made else 0
    else:
        burden = playing
        nat = scorebord_score(trump, level, playing, points, roem, nat_on_tie,
                              krule(T, KR_ROUND_FLOOR), result)
        res[SR_MULT] = 2 if trump == SPADES else 1
        for lv in range(1, 4):
            made = nat if bid_team(lv, playing) != playing else not nat
            res[SR_WOULD_WIN + lv - 1] = 1 if made else 0
        res[SR_BID_WON] = -1 if level == 0 else res[SR_WOULD_WIN + level - 1]
    res[SR_NAT] = 1 if nat else 0
    res[SR_BURDEN] = burden
    for team in range(2):
        res[SR_SCORE + team] = result[team]
        res[SR_CROSSES + team] = result[2 + team] if contra else 0
        res[SR_MARK + team] = 0 if contra else result[2 + team]
    return nat
