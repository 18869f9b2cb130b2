"""Doppelkopf (docs/rules.md, doppelkopf; RULES.md section 8): options, contracts and the flat
rule tables the kernels read.

Cards are ids ``copy * 24 + suit * 6 + rank`` (suits C D H S, ranks 9 10 J Q K A), two ids per
code. A *contract* is a row of the trick tables (its card order); a *game type* is what the
dataset records (a marriage and a silent marriage play the normal and the diamonds order):

    contract 0 normal (also the diamonds solo), 1 queen solo, 2 jack solo, 3 clubs solo,
    4 spades solo, 5 hearts solo, 6 diamonds solo, 7 fleshless.

Design decisions, where the sources leave room:
- Bots decide on a solo before play, in seat order from forehand; the first that wants one
  plays it (a solo goes before a marriage). Without a solo, a seat holding both club queens
  plays a marriage (announced or silent, its bot's ``marriage_silent`` parameter).
- An announced marriage whose holder wins tricks 1 to 3 is played alone: scored as a solo.
- Announcements are made by a player when it is to play a card, with the cards it then holds.
- ``second_heart_ten_wins``: of two 10s of hearts in one trick the second wins (in every
  contract where the 10 of hearts is a trump).
- ``pflichtsolo``: a series is deals 24k .. 24k+23 of a run. A player's first solo of a series
  (chosen by its bot, or forced) is its owed solo: the soloist leads it. When no more deals are
  left in the series than players still owing, the first of them from forehand must play its
  best solo (random bots too), ahead of any free solo. A solo after the owed one is a free solo, led by forehand. Who
  owes depends only on the cards and the bots' solo decisions, never on card play, so a deal is
  still regenerated from (seed, deal index) alone: the kernel replays the series' earlier solo
  decisions when a chunk starts inside a series.
"""

from __future__ import annotations

import numpy as np

from simcards.cards import DECK48
from simcards.engine.trick import TRUMP
from simcards.games.options import Option
from simcards.engine.tables import Layout

RULES_VERSION = 1
N_CARDS, N_TRICKS, HAND_SIZE = 48, 12, 12
TOTAL_AUGEN = 240
RANKS = ("9", "10", "J", "Q", "K", "A")
R9, R10, RJ, RQ, RK, RA = range(6)
C, D, H, S = range(4)
RANK_AUGEN = np.array([0, 10, 2, 3, 4, 11], dtype=np.int64)

CONTRACTS = ("normal", "queen", "jack", "clubs", "spades", "hearts", "diamonds", "fleshless")
NORMAL, QUEEN, JACK, CLUBS_SOLO, SPADES_SOLO, HEARTS_SOLO, DIAMONDS_SOLO, FLESHLESS = range(8)
N_CONTRACTS = len(CONTRACTS)
SOLO_CONTRACTS = tuple(range(1, N_CONTRACTS))  # the solos a bot may choose

# game_type column values
GAME_TYPES = ("normal", "marriage", "marriage_alone", "silent_marriage", "queen_solo",
              "jack_solo", "clubs_solo", "spades_solo", "hearts_solo", "diamonds_solo",
              "fleshless")
(G_NORMAL, G_MARRIAGE, G_MARRIAGE_ALONE, G_SILENT_MARRIAGE, G_QUEEN, G_JACK, G_CLUBS, G_SPADES,
 G_HEARTS, G_DIAMONDS, G_FLESHLESS) = range(11)
G_FIRST_SOLO = G_QUEEN  # G_QUEEN + contract - 1 is the game type of solo contract

OPTIONS = (
    Option("second_heart_ten_wins", False, "of two 10s of hearts in one trick the second played "
           "wins (default: the first, as with every pair of identical cards)"),
    Option("pflichtsolo", False, "each player owes one solo per series of 24 deals (deal "
           "indices 24k .. 24k+23) and leads it; a player still owing is made to play it when "
           "the deals left are no more than the players owing"),
)


def card_id(copy: int, suit: int, rank: int) -> int:
    return copy * 24 + suit * 6 + rank


def both(suit: int, rank: int) -> int:
    """Mask of both copies of one card."""
    return (1 << card_id(0, suit, rank)) | (1 << card_id(1, suit, rank))


TEN_H = both(H, R10)
QC_MASK = both(C, RQ)
JC_MASK = both(C, RJ)
FOX_MASK = both(D, RA)
ACE_MASK = both(C, RA) | both(D, RA) | both(H, RA) | both(S, RA)


def trump_order(contract: int) -> list[tuple[int, int]]:
    """(suit, rank) of the trumps of ``contract``, high to low."""
    queens = [(s, RQ) for s in (C, S, H, D)]
    jacks = [(s, RJ) for s in (C, S, H, D)]
    if contract == QUEEN:
        return queens
    if contract == JACK:
        return jacks
    if contract == FLESHLESS:
        return []
    suit = {NORMAL: D, DIAMONDS_SOLO: D, CLUBS_SOLO: C, SPADES_SOLO: S, HEARTS_SOLO: H}[contract]
    low = [(suit, r) for r in (RA, R10, RK, R9) if not (suit == H and r == R10)]
    return [(H, R10)] + queens + jacks + low


def plain_order(contract: int) -> tuple[int, ...]:
    """Plain-suit ranks of ``contract``, high to low (cards that are trumps drop out)."""
    if contract == QUEEN:
        return (RA, R10, RK, RJ, R9)
    if contract == JACK:
        return (RA, R10, RK, RQ, R9)
    if contract == FLESHLESS:
        return (RA, R10, RK, RQ, RJ, R9)
    return (RA, R10, RK, R9)


def contract_tables(contract: int):
    """(eff_suit, power, suit_masks, above) of one contract; ``above[card]`` is the mask of
    every card of the same effective suit that beats it (both copies)."""
    eff = np.empty(N_CARDS, dtype=np.int64)
    power = np.empty(N_CARDS, dtype=np.int64)
    trumps = trump_order(contract)
    plain = plain_order(contract)
    for card in range(N_CARDS):
        suit, rank = (card % 24) // 6, card % 6
        if (suit, rank) in trumps:
            eff[card] = TRUMP
            power[card] = 100 - trumps.index((suit, rank))
        else:
            eff[card] = suit
            power[card] = 10 - plain.index(rank)
    masks = np.zeros(5, dtype=np.int64)
    above = np.zeros(N_CARDS, dtype=np.int64)
    rank = np.zeros(N_CARDS, dtype=np.int64)
    for card in range(N_CARDS):
        masks[eff[card]] |= np.int64(1) << card
        for other in range(N_CARDS):
            if eff[other] == eff[card] and power[other] > power[card]:
                above[card] |= np.int64(1) << other
        kinds = {power[o] for o in range(N_CARDS) if eff[o] == eff[card] and power[o] <= power[card]}
        rank[card] = len(kinds)  # 1 = the lowest kind of its effective suit
    # the solo estimate's "top cards": the three highest trump kinds (the aces when fleshless)
    top = 0
    for s_, r_ in (trumps[:3] if trumps else [(s, RA) for s in range(4)]):
        top |= both(s_, r_)
    return eff, power, masks, above, rank, top


# ---- slots of the "rules" block
R_SECOND_TEN, R_TEN_H, R_QC, R_JC, R_FOX, R_PFLICHTSOLO = range(6)
N_RULE_SLOTS = 6
SERIES_LENGTH = 24  # deals of a series: each player owes one solo in it (``pflichtsolo``)

LAYOUT = Layout(
    N_CARDS,
    rules=(N_RULE_SLOTS,),
    eff_suit=(N_CONTRACTS, N_CARDS),
    power=(N_CONTRACTS, N_CARDS),
    suit_masks=(N_CONTRACTS, 5),
    above=(N_CONTRACTS, N_CARDS),
    rank=(N_CONTRACTS, N_CARDS),
    top=(N_CONTRACTS,),
    points=(N_CARDS,),
)
T_RULES = LAYOUT.offset("rules")
T_POWER = LAYOUT.offset("power")
T_ABOVE = LAYOUT.offset("above")
T_POINTS = LAYOUT.offset("points")
T_SUIT_MASKS = LAYOUT.offset("suit_masks")
T_RANK = LAYOUT.offset("rank")
T_TOP = LAYOUT.offset("top")


def build_tables(options: dict) -> np.ndarray:
    parts = [contract_tables(c) for c in range(N_CONTRACTS)]
    rules = np.zeros(N_RULE_SLOTS, dtype=np.int64)
    rules[R_SECOND_TEN] = int(options["second_heart_ten_wins"])
    rules[R_TEN_H], rules[R_QC], rules[R_JC], rules[R_FOX] = TEN_H, QC_MASK, JC_MASK, FOX_MASK
    rules[R_PFLICHTSOLO] = int(options["pflichtsolo"])
    points = np.array([RANK_AUGEN[c % 6] for c in range(N_CARDS)], dtype=np.int64)
    return LAYOUT.pack(rules=rules, eff_suit=np.stack([p[0] for p in parts]),
                       power=np.stack([p[1] for p in parts]),
                       suit_masks=np.stack([p[2] for p in parts]),
                       above=np.stack([p[3] for p in parts]),
                       rank=np.stack([p[4] for p in parts]),
                       top=np.array([p[5] for p in parts], dtype=np.int64), points=points)


DECK = DECK48
